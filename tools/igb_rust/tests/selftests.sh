# SPDX-License-Identifier: GPL-2.0
# The kernel's own driver selftests (tools/testing/selftests/drivers/net)
# against igb_rust, the peer namespace acting as the remote end.
#
#   SELFTEST_SCRIPTS   which of them run (default: ping.py stats.py queues.py
#                      napi_id.py ring_reconfig.py napi_threaded.py
#                      hw/pp_alloc_fail.py hw/csum.py hw/tso.py hw/irq.py
#                      hw/toeplitz.py hw/rss_drv.py hw/xdp_metadata.py
#                      hw/nic_timestamp.py hw/xsk_reconfig.py xdp.py)
#   SELFTEST_SKIP      which of those not to run (make check runs those that
#                      need one CPU in a guest of their own)

KSRC=$(readlink -f "$IGB_RUST_BUILD/source")
SELFTESTS=$KSRC/tools/testing/selftests/drivers/net
# They use ethtool --json for -l/-g/-c/-x, which bookworm's 6.1 lacks:
# scripts/setup.sh unpacks a newer one next to the other tools.
ST_ETHTOOL=$(dirname "$IGB_RUST_BUILD")/tools/ethtool/usr/sbin
[ -x "$ST_ETHTOOL/ethtool" ] || ST_ETHTOOL=""
setup_pair
# hw/xdp_metadata.py pins its maps in the BPF filesystem, which nothing mounts
# when it runs first.
mountpoint -q /sys/fs/bpf || mount -t bpf bpf /sys/fs/bpf

# A script that takes the link down and up (queues.py, ring_reconfig.py, ...)
# loses the IPv6 addresses, which the next one, preferring IPv6, then lacks:
# each starts with both ends' addresses in place again.
addrs_back() {
	ip addr replace $DUT_IP/24 dev "$DUT_IF"
	ip addr replace $DUT_IP6/64 dev "$DUT_IF" nodad
	ip -n $NS addr replace $PEER_IP/24 dev "$PEER_IF"
	ip -n $NS addr replace $PEER_IP6/64 dev "$PEER_IF" nodad
	ip link set "$DUT_IF" up
	ip -n $NS link set "$PEER_IF" up
	wait_carrier "$DUT_IF" 1
}
# hw/csum.py's "invalid" cases send the complement of the right checksum. When
# the right one is 0x0000 (sent as 0xffff, its other form), the complement is
# 0xffff, right too, and the receiver rightly calls it valid: about 1 in 65536
# datagrams, 100 per case. A run whose only failures are such datagrams says
# nothing of the driver, and runs once more.
csum_false_alarm() {	# csum_false_alarm LOG
	local good valid ffff
	good=$(grep -c "pkt: good csum, while bad expected" "$1")
	valid=$(grep -c "cmsg: expected bad csum, pf_packet returns valid" "$1")
	ffff=$(grep -A1 "csum=0xffff verify=0x0\$" "$1" | grep -c "pkt: good csum, while bad expected")
	[ "$good" -gt 0 ] && [ "$ffff" = "$good" ] && [ "$valid" = "$good" ] &&
		! grep -q "pkt: bad csum" "$1" &&
		! grep -E '^not ok [0-9]+ ' "$1" | grep -qv '_invalid$'
}
# hw/toeplitz.py's receiver waits 4 s for 10 frames, which its sender makes
# one socat process each: under TCG on a loaded host fewer get started in
# time ("too few frames for verification"). A run whose only failures are
# such cases, with every frame seen hashed and steered right, says nothing of
# the driver, and runs once more.
toeplitz_too_slow() {	# toeplitz_too_slow LOG
	local n_fail few
	n_fail=$(grep -cE '^not ok [0-9]+ ' "$1")
	few=$(grep -c 'too few frames for verification' "$1")
	[ "$n_fail" -gt 0 ] && [ "$few" = "$n_fail" ] &&
		! grep -E 'count: pass=' "$1" | grep -qv 'nohash=0 fail=0$'
}
# Prints why a failed run of SCRIPT says nothing of the driver, if it does not.
false_alarm() {	# false_alarm SCRIPT LOG
	case $1 in
	hw/csum.py) csum_false_alarm "$2" && echo "a 'bad' checksum of 0xffff was a right one" ;;
	hw/toeplitz.py) toeplitz_too_slow "$2" && echo "the sender was too slow for the receiver's 4 s" ;;
	*) return 1 ;;
	esac
}
run_selftest() {	# run_selftest SCRIPT [again]
	local log=$OUT/selftest-${1//\//-}.log rc n_ok n_fail n_skip why
	addrs_back
	(cd "$SELFTESTS" && env PATH="${ST_ETHTOOL:+$ST_ETHTOOL:}$PATH" NETIF="$DUT_IF" LOCAL_V4=$DUT_IP REMOTE_V4=$PEER_IP \
		LOCAL_V6=$DUT_IP6 REMOTE_V6=$PEER_IP6 REMOTE_TYPE=netns REMOTE_ARGS=$NS \
		timeout 900 /usr/bin/python3 "./$1") > "$log" 2>&1
	rc=$?
	n_ok=$(grep -cE '^ok [0-9]+ ' "$log")
	n_skip=$(grep -cE '^ok [0-9]+ .*# SKIP' "$log")
	n_fail=$(grep -cE '^not ok [0-9]+ ' "$log")
	if [ $rc = 0 ] && [ "$n_fail" = 0 ] && [ "$n_ok" -gt "$n_skip" ]; then
		ok "selftest $1: $((n_ok - n_skip)) passed, $n_skip skipped"
	elif [ -z "${2:-}" ] && why=$(false_alarm "$1" "$log"); then
		cp "$log" "$log.first"
		note "selftest $1: $why ($log.first); once more"
		run_selftest "$1" again
	else
		fail "selftest $1 (rc=$rc, $n_fail failed)" "$(grep -E '^(not ok|ok|#)' "$log" | tail -30)"
	fi
}
skip=$(echo ${SELFTEST_SKIP:-})	# the words, one space apart
for t in ${SELFTEST_SCRIPTS:-ping.py stats.py queues.py napi_id.py ring_reconfig.py napi_threaded.py
	hw/pp_alloc_fail.py hw/csum.py hw/tso.py hw/irq.py hw/toeplitz.py hw/rss_drv.py
	hw/xdp_metadata.py hw/nic_timestamp.py hw/xsk_reconfig.py xdp.py}; do
	case " $skip " in *" $t "*) continue;; esac
	# xdp.py's and hw/xdp_metadata.py's programs call kfuncs, which need the
	# kernel's BTF: the debug kernel (DEBUG_SUITE=full) has none.
	if [ "$t" = xdp.py ] || [ "$t" = hw/xdp_metadata.py ] && [ ! -e /sys/kernel/btf/vmlinux ]; then
		note "selftest $t not run: this kernel has no BTF (debug.config)"
		continue
	fi
	# hw/toeplitz.py checks every hash against one over addresses and ports,
	# and hw/xdp_metadata.py that a UDP hash covers the ports, which for UDP
	# the driver (like C igb) computes only when asked to.
	if [ "$t" = hw/toeplitz.py ] || [ "$t" = hw/xdp_metadata.py ]; then
		ethtool -N "$DUT_IF" rx-flow-hash udp4 sdfn; ethtool -N "$DUT_IF" rx-flow-hash udp6 sdfn
		run_selftest "$t"
		# What hw/xdp_metadata.py leaves behind if the timeout killed it.
		if [ "$t" = hw/xdp_metadata.py ]; then
			ip link set dev "$DUT_IF" xdpdrv off; rm -rf /sys/fs/bpf/xdp_metadata_test
		fi
		ethtool -N "$DUT_IF" rx-flow-hash udp4 sd; ethtool -N "$DUT_IF" rx-flow-hash udp6 sd
		check "UDP hashed on the addresses only again after $t" sh -c \
			"ethtool -n $DUT_IF rx-flow-hash udp4 | grep -q 'L4 bytes' ||
			 ethtool -n $DUT_IF rx-flow-hash udp6 | grep -q 'L4 bytes' && exit 1; exit 0"
		continue
	fi
	run_selftest "$t"
done
teardown_pair
