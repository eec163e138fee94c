# SPDX-License-Identifier: GPL-2.0
# rx-copybreak through ethtool: bounds, errors, effect on traffic, data
# integrity at the boundary; page_pool statistics show recycling.

setup_pair v4only

get_cb() { ethtool --get-tunable "$DUT_IF" rx-copybreak | awk '/rx-copybreak/ {print $2}'; }
set_cb() { ethtool --set-tunable "$DUT_IF" rx-copybreak "$1"; }
errno_of() {	# errno_of CMD...: what ethtool printed, and its exit status
	local out rc
	out=$("$@" 2>&1)
	rc=$?
	echo "rc=$rc $(echo "$out" | tr '\n' ' ')"
}
check "rx-copybreak defaults to 0 (off)" test "$(get_cb)" = 0
check "set rx-copybreak 128, read back" sh -c "ethtool --set-tunable $DUT_IF rx-copybreak 128 && [ \"\$(ethtool --get-tunable $DUT_IF rx-copybreak | awk '/rx-copybreak/ {print \$2}')\" = 128 ]"
check "rx-copybreak 2048 (the buffer size) accepted" set_cb 2048
check "rx-copybreak 0 accepted" set_cb 0
set_cb 128
TUN="/usr/bin/python3 $(dirname "$0")/tunable.py $DUT_IF"
e=$(errno_of ethtool --set-tunable "$DUT_IF" rx-copybreak 2049)
check "ethtool --set-tunable rx-copybreak 2049 fails with EINVAL" sh -c "echo '$e' | grep -q 'Invalid argument'"
check "rx-copybreak 2049 -> EINVAL (ioctl)" test "$($TUN rx-copybreak 2049)" = EINVAL
check "rx-copybreak 4294967295 -> EINVAL (ioctl)" test "$($TUN rx-copybreak 4294967295)" = EINVAL
check "a refused value changes nothing" test "$(get_cb)" = 128
check "rx-copybreak reads back through the ioctl" test "$($TUN rx-copybreak)" = 128
check "set tx-copybreak -> EOPNOTSUPP" test "$($TUN tx-copybreak 64)" = EOPNOTSUPP
check "get tx-copybreak -> EOPNOTSUPP" test "$($TUN tx-copybreak)" = EOPNOTSUPP
e=$(errno_of ethtool --set-tunable "$DUT_IF" tx-copybreak 64)
check "ethtool --set-tunable tx-copybreak fails with EOPNOTSUPP" sh -c "echo '$e' | grep -q 'Operation not supported'"
carrier_before=$(cat /sys/class/net/$DUT_IF/carrier_changes)
set_cb 256
check "changing rx-copybreak keeps the link" test "$(cat /sys/class/net/$DUT_IF/carrier_changes)" = "$carrier_before"

cb_count() {	# sum of rxN_copybreak_packets
	ethtool_stat 'rx[0-9]+_copybreak_packets'
}
delta_for() {	# delta_for FRAME_BYTES: copybreak packets added by 50 frames from the peer
	local before after
	before=$(cb_count)
	ip netns exec $NS ping -q -c 50 -i 0.02 -s $(($1 - 42)) $DUT_IP >/dev/null || { echo fail; return; }
	after=$(cb_count)
	echo $((after - before))
}
set_cb 256
d=$(delta_for 100)
check "copybreak 256: 50 x 100-byte frames -> +50 copybreak packets (got $d)" test "$d" = 50
d=$(delta_for 1000)
check "copybreak 256: 50 x 1000-byte frames -> +0 (got $d)" test "$d" = 0
set_cb 0
d=$(delta_for 100)
check "copybreak 0: 50 x 100-byte frames -> +0 (got $d)" test "$d" = 0
set_cb 2048
d=$(delta_for 1514)
check "copybreak 2048: 50 x 1514-byte frames -> +50 (got $d)" test "$d" = 50

# Frames of copybreak-1, copybreak and copybreak+1 bytes arrive intact:
# ping checks every byte of the echoed pattern.
boundary() {
	local cb=$1 f
	set_cb "$cb"
	for f in $((cb - 1)) $cb $((cb + 1)); do
		ip netns exec $NS ping -c 5 -i 0.05 -W 2 -p a55a0ff01234 -s $((f - 42)) $DUT_IP > /tmp/igb_cb.$$ 2>&1 ||
			{ echo "frame $f: $(tail -2 /tmp/igb_cb.$$)"; return 1; }
		grep -q "wrong data" /tmp/igb_cb.$$ && { echo "frame $f corrupted"; return 1; }
	done
	rm -f /tmp/igb_cb.$$
}
check "frames of 255/256/257 bytes intact at copybreak 256" boundary 256
check "frames of 99/100/101 bytes intact at copybreak 100" boundary 100
set_cb 256

# page_pool: sustained traffic recycles pages instead of allocating new ones.
slow0=$(ethtool_value rx_pp_alloc_slow); rc0=$(( $(ethtool_value rx_pp_recycle_cached) + $(ethtool_value rx_pp_recycle_ring) ))
ip netns exec $NS ping -q -f -c 3000 -s 1400 $DUT_IP >/dev/null 2>&1
slow1=$(ethtool_value rx_pp_alloc_slow); rc1=$(( $(ethtool_value rx_pp_recycle_cached) + $(ethtool_value rx_pp_recycle_ring) ))
note "page_pool: alloc_slow $slow0 -> $slow1, recycled $rc0 -> $rc1"
check "page_pool stats are reported" test -n "$slow1"
# Two 1400-byte frames share a page (half-page buffers at MTU 1500): the page
# comes back once both did.
check "page_pool recycles under traffic (+$((rc1 - rc0)) pages for 3000 frames)" test $((rc1 - rc0)) -ge 1250
check "page_pool slow allocations stay bounded (+$((slow1 - slow0)))" test $((slow1 - slow0)) -le 64
# Copied frames: their page is posted again in the ring, the pool hands out none for them.
allocs() { echo $(( $(ethtool_value rx_pp_alloc_fast) + $(ethtool_value rx_pp_alloc_slow) )); }
cp0=$(cb_count); a0=$(allocs)
ip netns exec $NS ping -q -f -c 1000 -s 100 $DUT_IP >/dev/null 2>&1
cp1=$(cb_count); a1=$(allocs)
note "copybreak 256, 1000 pings of 142 bytes: copybreak packets +$((cp1 - cp0)), pool allocations +$((a1 - a0))"
check "copied frames' pages are reposted, not taken from the pool again (+$((a1 - a0)) for +$((cp1 - cp0)) copied)" \
	test $((cp1 - cp0)) -ge 1000 -a $((a1 - a0)) -lt 250

# The other ethtool views.
check "ethtool -i names the driver" sh -c "ethtool -i $DUT_IF | grep -q '^driver: igb_rust'"
check "ethtool -i gives the bus address" sh -c "ethtool -i $DUT_IF | grep -q 'bus-info: $DUT'"
check "ethtool -l reports the queue pairs" sh -c "ethtool -l $DUT_IF | grep -A4 'Current' | grep -q \"Combined:.*$(ls -d /sys/class/net/$DUT_IF/queues/rx-* | wc -l)\""
check "ethtool -g reports 256-descriptor rings" sh -c "ethtool -g $DUT_IF | grep -q 'RX:.*256'"
check "ethtool reports 1000Mb/s full duplex" sh -c "ethtool $DUT_IF | grep -q 'Speed: 1000Mb/s' && ethtool $DUT_IF | grep -q 'Duplex: Full'"
teardown_pair
