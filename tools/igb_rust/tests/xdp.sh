# SPDX-License-Identifier: GPL-2.0
# XDP in the driver (ndo_bpf, ndo_xdp_xmit): the verdicts PASS, DROP, TX,
# REDIRECT and ABORTED with their counters, frames echoed back intact, the
# MTU limit, a program swapped under traffic without losing the link, and
# the metadata: what a program bound to the device reads of the descriptor
# (RSS hash, VLAN tag), and what a program puts in front of a frame for TC.
# The programs are tools/igb_rust/xdp/xdp_test.bpf.c, one object per mode,
# xdp_meta.bpf.c and xdp_datameta.bpf.c.

setup_pair v4only
mountpoint -q /run/igbt || { mkdir -p /run/igbt && mount -t tmpfs -o size=200m tmpfs /run/igbt; }
XDP_MB=${XDP_MB:-24}
dd if=/dev/urandom of=/run/igbt/xdpblob bs=1M count="$XDP_MB" status=none
export SRC=/run/igbt/xdpblob WANT
WANT=$(sha256sum < /run/igbt/xdpblob)

XDP_SWAPS=${XDP_SWAPS:-100}
N=${XDP_N:-200}	# datagrams per echo run
ECHO="python3 $(dirname "$0")/udp_echo.py"
prog() { echo "$IGB_RUST_BUILD/xdp/$1.o"; }
attach() { ip -force link set dev "$DUT_IF" xdpdrv obj "$(prog "$1")" sec xdp; }
# The same program, for frames of several buffers.
attach_frags() { ip -force link set dev "$DUT_IF" xdpdrv obj "$(prog "$1")" sec xdp.frags; }
detach() { ip link set dev "$DUT_IF" xdpdrv off; }
xsum() {	# xsum NAME: the per-queue counter NAME (e.g. rx_xdp_drop) summed over the queues
	local dir=${1%%_*} rest=${1#*_}
	ethtool_stat "${dir}[0-9]+_${rest}"
}
noports() { awk '$1 == "Udp:" { if (h) { print $3; exit } h = 1 }' /proc/net/snmp; }
pings() {	# pings COUNT [SIZE]: COUNT pings from the peer, every reply back with its payload intact
	local out
	out=$(ip netns exec $NS ping -c "$1" -i 0.02 -s "${2:-1000}" -p a55a $DUT_IP 2>&1)
	echo "$out" | grep -q " $1 received" && ! echo "$out" | grep -q "wrong data"
}
refused() { ! "$@" 2>/dev/null; }
attached() { ip -d link show dev "$DUT_IF" | grep -q "prog/xdp .*name $1 "; }
peer_losses() {	# the peer's receive-side drop counters (NIC, IP, UDP), "name=value ..."
	ip netns exec $NS ethtool -S "$PEER_IF" | awk '$1 ~ /^(rx_missed_errors|rx_no_buffer_count|rx_fifo_errors|rx_crc_errors|rx_length_errors|rx_csum_offload_errors):$/ {
		printf "%s=%s ", substr($1, 1, length($1) - 1), $2 }'
	ip netns exec $NS awk '$1 == "Ip:" || $1 == "Udp:" {
		if (!($1 in h)) { h[$1] = $0; next }
		n = split(h[$1], k); split($0, v)
		for (i = 2; i <= n; i++)
			if (k[i] ~ /^(InDiscards|InHdrErrors|InAddrErrors|InErrors|RcvbufErrors|InCsumErrors)$/)
				printf "%s%s=%s ", $1, k[i], v[i] }' /proc/net/snmp
}
echo_from_peer() {	# echo_from_peer PORT COUNT SIZE -> "sent N echoed M intact K"
	ip netns exec $NS $ECHO $DUT_IP "$1" "$2" "$3"
}

for m in pass drop tx redirect abort; do
	[ -f "$(prog $m)" ] || { fail "XDP test program $m is built" "$(prog $m) missing"; }
done

# What the device says it does (netdev netlink dev-get), exactly. One query
# for every key: the YNL client parses its spec for seconds under TCG (half
# a minute on the debug kernel), and these flags never change. The production
# kernel checks them; the debug kernel, whose flags are the same, does not.
KSRC=$(readlink -f "$IGB_RUST_BUILD/source")
[ "${IGB_RUST_KVARIANT:-}" = debug ] ||
DEV_GET=$(python3 "$KSRC/tools/net/ynl/pyynl/cli.py" --no-schema --output-json \
	--spec "$KSRC/Documentation/netlink/specs/netdev.yaml" --do dev-get \
	--json "{\"ifindex\": $(cat /sys/class/net/$DUT_IF/ifindex)}" 2>&1)
dev_get() {	# dev_get KEY: the flags netdev netlink dev-get lists under KEY, sorted
	echo "$DEV_GET" |
		grep -o "\"$1\": \\[[^]]*\\]" | grep -o '"[a-z-]*"' | sed 1d | tr -d '"' | sort | xargs
}
[ "${IGB_RUST_KVARIANT:-}" = debug ] ||
check "netdev netlink: xdp-features are basic, ndo-xmit, ndo-xmit-sg, redirect, rx-sg, xsk-zerocopy ($(dev_get xdp-features))" \
	test "$(dev_get xdp-features)" = "basic ndo-xmit ndo-xmit-sg redirect rx-sg xsk-zerocopy"

carrier0=$(cat /sys/class/net/$DUT_IF/carrier_changes)
# At MTU 1500 the RX buffers are half pages; programs get whole pages: the
# first attach rebuilds the rings with them (rxN_buf_pages), the link kept.
bufs() { xsum "rx_buf_$1"; }
pages0=$(bufs pages)
check "attach an XDP program in driver mode" attach drop
check "ip link shows the program in driver mode" sh -c "ip -d link show dev $DUT_IF | grep -q 'prog/xdp id'"
check "the link stayed up across the attach" test "$(cat /sys/class/net/$DUT_IF/carrier_changes)" = "$carrier0"
check "the attach gave the rings whole pages (rx_buf_pages $pages0 -> $(bufs pages))" \
	test "$(bufs pages)" -gt "$pages0"

# XDP_DROP: UDP to port 4444 never reaches the stack; everything else passes.
pp_allocs() { echo $(( $(ethtool_value rx_pp_alloc_fast) + $(ethtool_value rx_pp_alloc_slow) )); }
d0=$(xsum rx_xdp_drop); np0=$(noports); pa0=$(pp_allocs)
r=$(echo_from_peer 4444 "$N" 100)
d1=$(xsum rx_xdp_drop); np1=$(noports); pa1=$(pp_allocs)
note "drop: $r, rx_xdp_drop +$((d1 - d0)), UDP NoPorts +$((np1 - np0)), pool allocations +$((pa1 - pa0))"
check "XDP_DROP: $N datagrams counted as rx_xdp_drop (+$((d1 - d0)))" test $((d1 - d0)) = "$N"
check "XDP_DROP: none reached the stack (NoPorts +$((np1 - np0)))" test $((np1 - np0)) = 0
# A dropped frame's page is posted again in the ring: the pool hands out none for it.
check "XDP_DROP: dropped pages reposted, not taken from the pool again (+$((pa1 - pa0)) for $N)" \
	test $((pa1 - pa0)) -lt $((N / 4))
check "other traffic passes the program: 50 pings, every reply intact" pings 50

# XDP_PASS over a bulk TCP transfer: the data arrive intact.
check "attach a program that passes everything" attach pass
check "XDP_PASS: $XDP_MB MB peer -> DUT intact" bulk rx
check "XDP_PASS: $XDP_MB MB DUT -> peer intact" bulk tx

# XDP_TX: the program echoes the datagrams back out of the same port, on the
# one ring the stack's TCP frames use too (one queue pair in use).
nq0=$(ethtool -l "$DUT_IF" | awk '/^Combined:/ {n = $2} END {print n}')
ethtool -L "$DUT_IF" combined 1
# QEMU's igb model drops a frame, and counts it nowhere, when the receive queue
# it picked has no free descriptor. The peer, slowed by the bulk transfer (on
# the debug kernel, lockdep and KASAN), can fall 256 frames behind, and an
# echo behind TCP's burst is then lost on the peer's side. With 4096
# descriptors the peer has room for the whole TCP window.
peer_rx() { ip netns exec $NS ethtool -g "$PEER_IF" | awk '/^Current/ {c = 1} c && /^RX:/ {print $2; exit}'; }
prx0=$(peer_rx)
ip netns exec $NS ethtool -G "$PEER_IF" rx 4096
wait_carrier "$PEER_IF" 1 $NS || wait_carrier "$PEER_IF" 1 $NS
note "tx: the peer's RX ring: $prx0 -> $(peer_rx) descriptors"
check "replace the program (XDP_TX echo)" attach tx
t0=$(xsum rx_xdp_tx); tp0=$(stat_of "$DUT_IF" tx packets); pl0=$(peer_losses)
PORT=5013 bulk tx > /run/igbt/xdp.shared 2>&1 & bshared=$!
r=$(echo_from_peer 4445 "$N" 1000)
wait $bshared; rshared=$?
check "XDP_TX beside the stack on one TX ring: $XDP_MB MB DUT -> peer intact" test $rshared = 0
t1=$(xsum rx_xdp_tx); tp1=$(stat_of "$DUT_IF" tx packets)
note "tx: $r, rx_xdp_tx +$((t1 - t0)), tx_packets +$((tp1 - tp0))"
note "tx: the peer's receive drops before: $(echo $pl0)"
note "tx: the peer's receive drops after:  $(echo $(peer_losses))"
check "XDP_TX: $N datagrams echoed to the peer intact ($r)" sh -c "echo '$r' | grep -q 'echoed $N intact $N'"
check "XDP_TX: rx_xdp_tx +$N (+$((t1 - t0)))" test $((t1 - t0)) = "$N"
check "XDP_TX: the echoes are counted as sent (tx_packets +$((tp1 - tp0)))" test $((tp1 - tp0)) -ge "$N"
check "XDP_TX: no TX errors" test "$(xsum tx_xdp_errors)" = 0
ethtool -L "$DUT_IF" combined "$nq0"
ip netns exec $NS ethtool -G "$PEER_IF" rx "$prx0"
wait_carrier "$PEER_IF" 1 $NS || wait_carrier "$PEER_IF" 1 $NS

# XDP_REDIRECT to the receiving device: the frames go out through ndo_xdp_xmit.
check "replace the program (XDP_REDIRECT to itself)" attach redirect
rd0=$(xsum rx_xdp_redirect); x0=$(xsum tx_xdp_xmit)
r=$(echo_from_peer 4446 "$N" 1000)
rd1=$(xsum rx_xdp_redirect); x1=$(xsum tx_xdp_xmit)
note "redirect: $r, rx_xdp_redirect +$((rd1 - rd0)), tx_xdp_xmit +$((x1 - x0))"
check "XDP_REDIRECT: $N datagrams echoed intact through ndo_xdp_xmit ($r)" sh -c "echo '$r' | grep -q 'echoed $N intact $N'"
check "XDP_REDIRECT: rx_xdp_redirect +$N (+$((rd1 - rd0)))" test $((rd1 - rd0)) = "$N"
check "XDP_REDIRECT: tx_xdp_xmit +$N (+$((x1 - x0)))" test $((x1 - x0)) = "$N"

# Redirected frames while the rings are rebuilt (ethtool -G): none is left in
# a ring the device does not read, so the watchdog finds no hung queue.
h0=$(ethtool_value tx_hang_count); rs0=$(ethtool_value reset_count)
echo_from_peer 4446 $((2 * N)) 1000 > /dev/null & becho=$!
sleep 0.3
ethtool -G "$DUT_IF" rx 512 tx 512 && ethtool -G "$DUT_IF" rx 256 tx 256
wait $becho
r=$(echo_from_peer 4446 "$N" 1000)
sleep 5	# two watchdog periods
check "XDP_REDIRECT after ring rebuilds under redirect traffic: $N echoed intact ($r)" \
	sh -c "echo '$r' | grep -q 'echoed $N intact $N'"
check "no TX hang or reset after them (hangs +$(( $(ethtool_value tx_hang_count) - h0 )), resets +$(( $(ethtool_value reset_count) - rs0 )))" \
	test "$(ethtool_value tx_hang_count):$(ethtool_value reset_count)" = "$h0:$rs0"

# XDP_ABORTED: dropped and counted apart from XDP_DROP.
check "replace the program (XDP_ABORTED)" attach abort
a0=$(xsum rx_xdp_aborted); d0=$(xsum rx_xdp_drop); np0=$(noports)
r=$(echo_from_peer 4447 50 100)
a1=$(xsum rx_xdp_aborted); d1=$(xsum rx_xdp_drop); np1=$(noports)
check "XDP_ABORTED: 50 datagrams counted as rx_xdp_aborted (+$((a1 - a0)))" test $((a1 - a0)) = 50
check "XDP_ABORTED: not counted as XDP_DROP, none reached the stack" test $((d1 - d0)):$((np1 - np0)) = 0:0

# The MTU: a frame must fit one buffer while a program is attached.
check "MTU 3000 refused with a program attached" sh -c "! ip link set dev $DUT_IF mtu 3000 2>/dev/null"
check "the refused MTU changed nothing" test "$(cat /sys/class/net/$DUT_IF/mtu)" = 1500
frags0=$(bufs frags)
check "detach the program" detach
check "ip link no longer shows a program" sh -c "! ip -d link show dev $DUT_IF | grep -q 'prog/xdp'"
check "the detach gave the rings half pages again (rx_buf_frags $frags0 -> $(bufs frags))" \
	test "$(bufs frags)" -gt "$frags0"
check "MTU 3000 accepted without a program" ip link set dev "$DUT_IF" mtu 3000
e=$(attach pass 2>&1)
check "attaching at MTU 3000 fails with the reason ($(echo "$e" | grep -o 'MTU too large[^(]*' | head -1))" \
	sh -c "echo '$e' | grep -q 'MTU too large for a program without fragment support'"
check "the refused attach left no program" sh -c "! ip -d link show dev $DUT_IF | grep -q 'prog/xdp'"
ip link set dev "$DUT_IF" mtu 1500

# Multi-buffer: at MTU 9000 a frame takes up to five 2 KiB buffers, and a
# program with fragment support (xdp.frags) sees it whole: passed, echoed by
# XDP_TX from all its buffers, dropped with every buffer given back.
ip -n $NS link set dev "$PEER_IF" mtu 9000
check "peer at MTU 9000, link up again" sh -c "[ \$(ip netns exec $NS cat /sys/class/net/$PEER_IF/mtu) = 9000 ]"
wait_carrier "$PEER_IF" 1 $NS
check "MTU 9000 accepted without a program" ip link set dev "$DUT_IF" mtu 9000
wait_carrier "$DUT_IF" 1
e=$(attach pass 2>&1)
check "MTU 9000: a program without fragment support is refused ($(echo "$e" | grep -o 'MTU too large[^(]*' | head -1))" \
	sh -c "echo '$e' | grep -q 'MTU too large for a program without fragment support'"
check "MTU 9000: a program with fragment support attaches" attach_frags pass
check "multi-buffer XDP_PASS: $XDP_MB MB peer -> DUT intact" bulk rx
check "MTU 9000, multi-buffer program attached: $XDP_MB MB DUT -> peer intact" bulk tx
check "multi-buffer XDP_PASS: 20 pings of 8000 bytes, replies intact" pings 20 8000
check "multi-buffer: replacing it with a program without fragment support is refused" \
	refused attach drop
check "multi-buffer: the refused replacement left the fragment-aware program" attached xdp_test_frags
check "multi-buffer: the MTU goes down and up again with it attached" \
	sh -c "ip link set dev $DUT_IF mtu 1500 && ip link set dev $DUT_IF mtu 9000"
check "replace the program (multi-buffer XDP_TX echo)" attach_frags tx
t0=$(xsum rx_xdp_tx)
r=$(echo_from_peer 4445 "$N" 8000)
t1=$(xsum rx_xdp_tx)
note "multi-buffer tx: $r, rx_xdp_tx +$((t1 - t0))"
check "multi-buffer XDP_TX: $N datagrams of 8000 bytes echoed intact ($r)" sh -c "echo '$r' | grep -q 'echoed $N intact $N'"
check "multi-buffer XDP_TX: rx_xdp_tx +$N (+$((t1 - t0)))" test $((t1 - t0)) = "$N"
check "multi-buffer XDP_TX: no TX errors" test "$(xsum tx_xdp_errors)" = 0
check "replace the program (multi-buffer XDP_DROP)" attach_frags drop
d0=$(xsum rx_xdp_drop); np0=$(noports)
r=$(echo_from_peer 4444 "$N" 8000)
d1=$(xsum rx_xdp_drop); np1=$(noports)
check "multi-buffer XDP_DROP: $N datagrams of 8000 bytes counted (+$((d1 - d0)))" test $((d1 - d0)) = "$N"
check "multi-buffer XDP_DROP: none reached the stack (NoPorts +$((np1 - np0)))" test $((np1 - np0)) = 0
# Redirected to itself (ndo-xmit-sg), a frame of several buffers leaves
# through ndo_xdp_xmit from all its buffers.
check "replace the program (multi-buffer XDP_REDIRECT to itself)" attach_frags redirect
rd0=$(xsum rx_xdp_redirect); x0=$(xsum tx_xdp_xmit); e0=$(xsum tx_xdp_errors)
r=$(echo_from_peer 4446 "$N" 8000)
rd1=$(xsum rx_xdp_redirect); x1=$(xsum tx_xdp_xmit)
note "multi-buffer redirect: $r, rx_xdp_redirect +$((rd1 - rd0)), tx_xdp_xmit +$((x1 - x0))"
check "multi-buffer XDP_REDIRECT: $N datagrams of 8000 bytes echoed intact through ndo_xdp_xmit ($r)" \
	sh -c "echo '$r' | grep -q 'echoed $N intact $N'"
check "multi-buffer XDP_REDIRECT: rx_xdp_redirect and tx_xdp_xmit +$N (+$((rd1 - rd0)), +$((x1 - x0)))" \
	test $((rd1 - rd0)):$((x1 - x0)) = "$N:$N"
check "multi-buffer XDP_REDIRECT: no TX errors" test "$(xsum tx_xdp_errors)" = "$e0"
check "after multi-buffer XDP: pings of 1000 bytes intact" pings 10
# Swapped under jumbo traffic: a frame may be half written when the program
# goes or comes; every one is still taken whole, by the stack or the program.
rm -f /run/igbt/xdp.stop
flow_mb() {	# TCP peer -> DUT transfers until xdp.stop exists; prints how many
	local n=0
	while [ ! -e /run/igbt/xdp.stop ]; do
		TAP=/dev/null PORT=5014 bulk rx > /dev/null 2>&1 || { echo "failed after $n"; return 1; }
		n=$((n + 1))
	done
	echo "$n"
}
flow_mb > /run/igbt/xdp.mb & bmb=$!
MB_SWAPS=$(( XDP_SWAPS / 5 > 4 ? XDP_SWAPS / 5 : 4 ))
mb_ok=0
for i in $(seq 1 "$MB_SWAPS"); do
	case $((i % 3)) in
	0) detach ;;
	1) attach_frags pass ;;
	*) attach_frags drop ;;
	esac && mb_ok=$((mb_ok + 1))
	sleep 0.2
done
touch /run/igbt/xdp.stop
wait $bmb; rmb=$?
check "$MB_SWAPS swaps of fragment-aware programs under MTU 9000 traffic all succeeded ($mb_ok)" test "$mb_ok" = "$MB_SWAPS"
check "TCP peer -> DUT at MTU 9000 across the swaps: every transfer intact ($(cat /run/igbt/xdp.mb))" \
	sh -c "[ $rmb = 0 ] && [ $(cat /run/igbt/xdp.mb) -ge 1 ]"
rm -f /run/igbt/xdp.stop
detach
ip link set dev "$DUT_IF" mtu 1500
ip -n $NS link set dev "$PEER_IF" mtu 1500
wait_carrier "$PEER_IF" 1 $NS
wait_carrier "$DUT_IF" 1

# Swapped under traffic: attach, replace, detach, while TCP flows both ways,
# transfer after transfer until the last swap is done.
carrier0=$(cat /sys/class/net/$DUT_IF/carrier_changes)
rm -f /run/igbt/xdp.stop
# Short transfers with a pause between them: traffic at every swap, without
# starving the swaps of CPU time under TCG.
dd if=/dev/urandom of=/run/igbt/xdpflow bs=1M count=4 status=none
flow_sum=$(sha256sum < /run/igbt/xdpflow)
flow() {	# flow rx|tx PORT: bulk transfers until xdp.stop exists; prints how many
	local n=0
	while [ ! -e /run/igbt/xdp.stop ]; do
		TAP=/dev/null SRC=/run/igbt/xdpflow WANT=$flow_sum PORT=$2 bulk "$1" > /dev/null 2>&1 ||
			{ echo "failed after $n"; return 1; }
		n=$((n + 1))
		sleep 0.2
	done
	echo "$n"
}
flow rx 5011 > /run/igbt/xdp.rx & brx=$!
flow tx 5012 > /run/igbt/xdp.tx & btx=$!
swaps_ok=0
for i in $(seq 1 "$XDP_SWAPS"); do
	case $((i % 10)) in
	0) detach ;;
	[13579]) attach pass ;;
	*) attach drop ;;
	esac && swaps_ok=$((swaps_ok + 1))
done
touch /run/igbt/xdp.stop
wait $brx; rrx=$?
wait $btx; rtx=$?
note "swaps: $swaps_ok, transfers during them: rx $(cat /run/igbt/xdp.rx), tx $(cat /run/igbt/xdp.tx)"
check "$XDP_SWAPS attach/replace/detach under traffic all succeeded ($swaps_ok)" test "$swaps_ok" = "$XDP_SWAPS"
check "TCP peer -> DUT across the swaps: every transfer intact ($(cat /run/igbt/xdp.rx))" \
	sh -c "[ $rrx = 0 ] && [ $(cat /run/igbt/xdp.rx) -ge 1 ]"
check "TCP DUT -> peer across the swaps: every transfer intact ($(cat /run/igbt/xdp.tx))" \
	sh -c "[ $rtx = 0 ] && [ $(cat /run/igbt/xdp.tx) -ge 1 ]"
check "no link change across the swaps" test "$(cat /sys/class/net/$DUT_IF/carrier_changes)" = "$carrier0"
check "ping still works after the swaps, replies intact" pings 10

# The metadata kfuncs (xdp_metadata_ops): a program bound to the device asks
# for the RSS hash and the VLAN tag of UDP datagrams to port 4448, which the
# peer sends over VLAN 5 with priority 3 (TCI 0x6005).
[ "${IGB_RUST_KVARIANT:-}" = debug ] ||
check "netdev netlink: xdp-rx-metadata-features are hash, vlan-tag ($(dev_get xdp-rx-metadata-features))" \
	test "$(dev_get xdp-rx-metadata-features)" = "hash vlan-tag"
if [ -e /sys/kernel/btf/vmlinux ]; then
	META=/sys/fs/bpf/igb_meta
	mountpoint -q /sys/fs/bpf || mount -t bpf bpf /sys/fs/bpf
	rm -rf "$META"; mkdir -p "$META"
	ip link add link "$DUT_IF" name "$DUT_IF.5" type vlan id 5
	ip addr add 10.5.5.1/24 dev "$DUT_IF.5"; ip link set "$DUT_IF.5" up
	ip -n $NS link add link "$PEER_IF" name pv5 type vlan id 5 egress-qos-map 0:3
	ip -n $NS addr add 10.5.5.2/24 dev pv5; ip -n $NS link set pv5 up
	meta() {	# meta KEY: what the program kept under KEY
		bpftool -j map dump pinned "$META/maps/igb_meta" |
			python3 -c 'import json, sys
num = lambda v: v if isinstance(v, int) else int.from_bytes(bytes(int(b, 16) for b in v), "little", signed=True)
m = {num(f["key"]): num(f["value"]) for f in (e.get("formatted", e) for e in json.load(sys.stdin))}
print(m[int(sys.argv[1])])' "$1"
	}
	meta_send() {	# meta_send [SRC DST]: 5 datagrams from the peer (default: over VLAN 5); the program's answers, "key=value ..."
		bpftool map update pinned "$META/maps/igb_meta" key 0 0 0 0 value 0 0 0 0 0 0 0 0
		ip netns exec $NS python3 -c 'import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind((sys.argv[1], 4449))
for _ in range(5):
    s.sendto(b"metadata" * 8, (sys.argv[2], 4448)); time.sleep(0.05)' "${1:-10.5.5.2}" "${2:-10.5.5.1}"
		sleep 0.2
		echo "seen=$(meta 0) hash_ret=$(meta 1) hash=$(meta 2) type=$(meta 3) vlan_ret=$(meta 4) proto=$(meta 5) tci=$(meta 6) tagged=$(meta 7)"
	}
	toeplitz() {	# toeplitz SRC DST [SPORT DPORT]: the RSS hash of those, with the DUT's key
		ethtool -x "$DUT_IF" | sed -n '/RSS hash key/{n;p}' | python3 -c 'import socket, sys
key = bytes(int(b, 16) for b in sys.stdin.read().strip().split(":"))
a = sys.argv[1:]
data = socket.inet_aton(a[0]) + socket.inet_aton(a[1]) + b"".join(int(p).to_bytes(2, "big") for p in a[2:])
k, n, h = int.from_bytes(key, "big"), len(key) * 8, 0
for i in range(len(data) * 8):
    if data[i // 8] >> (7 - i % 8) & 1:
        h ^= (k >> (n - 32 - i)) & 0xffffffff
print(h)' "$@"
	}
	h_sd=$(toeplitz 10.5.5.2 10.5.5.1)
	h_sdfn=$(toeplitz 10.5.5.2 10.5.5.1 4449 4448)
	detach
	check "a program bound to the device loads and attaches" sh -c \
		"bpftool prog load $(prog meta) $META/prog type xdp xdpmeta_dev $DUT_IF pinmaps $META/maps &&
		 ip link set dev $DUT_IF xdpdrv pinned $META/prog"
	r=$(meta_send)
	note "metadata: $r"
	check "rx_hash: the Toeplitz hash of the addresses ($h_sd), type L3_IPV4, for UDP hashed on them ($r)" \
		sh -c "echo '$r' | grep -Eq 'seen=[1-5] hash_ret=0 hash=$h_sd type=1 '"
	check "rx_vlan_tag: the stripped tag, 802.1Q, TCI 0x6005 ($r)" \
		sh -c "echo '$r' | grep -q 'vlan_ret=0 proto=33024 tci=24581 tagged=0'"
	ethtool -N "$DUT_IF" rx-flow-hash udp4 sdfn
	r=$(meta_send)
	ethtool -N "$DUT_IF" rx-flow-hash udp4 sd
	check "rx_hash with UDP hashed on the ports too: the Toeplitz hash of addresses and ports ($h_sdfn), type L3_IPV4|L4|L4_UDP ($r)" \
		sh -c "echo '$r' | grep -Eq 'seen=[1-5] hash_ret=0 hash=$h_sdfn type=41 '"
	r=$(meta_send $PEER_IP $DUT_IP)
	h_plain=$(toeplitz $PEER_IP $DUT_IP)
	check "an untagged datagram: no tag (ENODATA), the hash of its addresses ($h_plain) ($r)" \
		sh -c "echo '$r' | grep -Eq 'seen=[1-5] hash_ret=0 hash=$h_plain type=1 vlan_ret=-61 .*tagged=0'"
	bpftool map update pinned "$META/maps/igb_meta" key 8 0 0 0 value 1 0 0 0 0 0 0 0
	ip netns exec $NS python3 -c 'import socket, sys
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((sys.argv[1], 0))
frame = bytes.fromhex(sys.argv[2].replace(":", "")) + bytes.fromhex(sys.argv[3].replace(":", "")) + b"\x88\xb5" + bytes(50)
for _ in range(3):
    s.send(frame)' "$PEER_IF" "$(cat /sys/class/net/$DUT_IF/address)" "$(ip netns exec $NS cat /sys/class/net/$PEER_IF/address)"
	sleep 0.2
	r=$(meta 8)
	check "a frame that is not IP (EtherType 0x88b5): no hash, ENODATA ($r)" test "$r" = -61
	ethtool -K "$DUT_IF" rxvlan off
	r=$(meta_send)
	ethtool -K "$DUT_IF" rxvlan on
	check "rx_vlan_tag with rxvlan off: ENODATA, the tag still in the frame ($r)" \
		sh -c "echo '$r' | grep -Eq 'seen=[1-5] .*vlan_ret=-61 .*tagged=1'"
	ethtool -K "$DUT_IF" rxhash off
	r=$(meta_send)
	ethtool -K "$DUT_IF" rxhash on
	check "rx_hash with rxhash off: ENODATA ($r)" sh -c "echo '$r' | grep -Eq 'seen=[1-5] hash_ret=-61 '"
	r=$(meta_send)
	check "both back with the offloads on ($r)" \
		sh -c "echo '$r' | grep -Eq 'seen=[1-5] hash_ret=0 hash=$h_sd type=1 vlan_ret=0 .*tci=24581 tagged=0'"
	detach
	rm -rf "$META"
	ip link del "$DUT_IF.5"; ip -n $NS link del pv5
else
	note "XDP metadata kfuncs not tried: this kernel has no BTF (debug.config)"
fi

# Metadata in front of the frame (bpf_xdp_adjust_meta()): the XDP program puts
# 8 bytes in front of datagrams to port 4450, not 4451; a TC ingress program
# drops those to either port without them, so only 4450's reach the socket.
# Port 4452, which TC lets through, shows the traffic flowed.
udp_count() {	# udp_count SIZE: 20 datagrams of SIZE bytes from the peer to ports 4450-4452; "4450:N 4451:M 4452:K" received
	rm -f /run/igbt/udpcount
	python3 -c 'import select, socket, sys, time
socks = {}
for p in (4450, 4451, 4452):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("0.0.0.0", p))
    socks[s] = p
got = dict.fromkeys(socks.values(), 0)
print("ready", flush=True)
# Until a second after the sender said "end" (to 4452, behind its datagrams
# on the same queue), at most 60 s: a debug kernel under TCG is slow.
end = time.time() + 60
while time.time() < end:
    for s in select.select(list(socks), [], [], 0.2)[0]:
        if s.recv(65536) == b"end":
            end = min(end, time.time() + 1)
        else:
            got[socks[s]] += 1
print(" ".join("%d:%d" % (p, got[p]) for p in sorted(got)))' > /run/igbt/udpcount &
	local pid=$! i
	for i in $(seq 1 50); do grep -q ready /run/igbt/udpcount 2>/dev/null && break; sleep 0.1; done
	ip netns exec $NS python3 -c 'import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(20):
    for p in (4450, 4451, 4452):
        s.sendto(b"d" * int(sys.argv[2]), (sys.argv[1], p))
    time.sleep(0.02)
s.sendto(b"end", (sys.argv[1], 4452))' "$DUT_IP" "$1"
	wait $pid
	tail -1 /run/igbt/udpcount
}
detach
tc qdisc add dev "$DUT_IF" clsact
check "a TC ingress program that drops datagrams to 4450/4451 without the metadata attaches" \
	tc filter add dev "$DUT_IF" ingress bpf da obj "$(prog datameta)" sec tc
r=$(udp_count 64)
check "without an XDP program, TC drops every datagram to 4450 and 4451, none to 4452 ($r)" \
	test "$r" = "4450:0 4451:0 4452:20"
check "attach the XDP program that puts metadata in front of datagrams to 4450" \
	ip -force link set dev "$DUT_IF" xdpdrv obj "$(prog datameta)" sec xdp
r=$(udp_count 64)
check "XDP metadata reach TC (skb->data_meta): 20 datagrams to 4450 through, none to 4451 ($r)" \
	test "$r" = "4450:20 4451:0 4452:20"
# The same for frames of several buffers, at MTU 9000.
detach
ip -n $NS link set dev "$PEER_IF" mtu 9000
ip link set dev "$DUT_IF" mtu 9000
wait_carrier "$PEER_IF" 1 $NS
wait_carrier "$DUT_IF" 1
check "MTU 9000: attach the fragment-aware program that puts metadata in front of datagrams to 4450" \
	ip -force link set dev "$DUT_IF" xdpdrv obj "$(prog datameta)" sec xdp.frags
r=$(udp_count 8000)
check "multi-buffer: XDP metadata reach TC in front of datagrams of 8000 bytes ($r)" \
	test "$r" = "4450:20 4451:0 4452:20"
detach
ip link set dev "$DUT_IF" mtu 1500
ip -n $NS link set dev "$PEER_IF" mtu 1500
wait_carrier "$PEER_IF" 1 $NS
wait_carrier "$DUT_IF" 1
tc qdisc del dev "$DUT_IF" clsact
check "ping after the metadata tests, replies intact" pings 10

# Unloading the driver with a program attached.
attach pass
teardown_pair
check "rmmod with an XDP program attached" rmmod igb_rust
unset SRC WANT
rm -f /run/igbt/xdpblob /run/igbt/xdpflow
