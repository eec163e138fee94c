# SPDX-License-Identifier: GPL-2.0
# The kernel's own driver selftests (tools/testing/selftests/drivers/net)
# against igb_rust, the peer namespace acting as the remote end.

KSRC=$(readlink -f "$IGB_RUST_BUILD/source")
SELFTESTS=$KSRC/tools/testing/selftests/drivers/net
setup_modules
modprobe igb
[ "$(driver_of "$PEER")" = igb ] || echo "$PEER" > /sys/bus/pci/drivers/igb/bind
lsmod | grep -q '^igb_rust ' || insmod "$IGB_RUST_KO"
DUT_IF=$(netdev_of "$DUT")
PEER_IF=$(netdev_of "$PEER")
ip netns add $NS
ip link set "$PEER_IF" netns $NS
sysctl -qw net.ipv6.conf.$DUT_IF.disable_ipv6=0
ip netns exec $NS sysctl -qw net.ipv6.conf.$PEER_IF.disable_ipv6=0
ip -n $NS link set "$PEER_IF" up
ip -n $NS addr add $PEER_IP/24 dev "$PEER_IF"
ip -n $NS addr add $PEER_IP6/64 dev "$PEER_IF" nodad
ip addr add $DUT_IP/24 dev "$DUT_IF"
ip addr add $DUT_IP6/64 dev "$DUT_IF" nodad
ip link set "$DUT_IF" up
wait_carrier "$DUT_IF" 1
wait_carrier "$PEER_IF" 1 $NS

run_selftest() {	# run_selftest SCRIPT
	local log=$OUT/selftest-$1.log rc n_ok n_fail n_skip
	(cd "$SELFTESTS" && env NETIF="$DUT_IF" LOCAL_V4=$DUT_IP REMOTE_V4=$PEER_IP \
		LOCAL_V6=$DUT_IP6 REMOTE_V6=$PEER_IP6 REMOTE_TYPE=netns REMOTE_ARGS=$NS \
		timeout 900 /usr/bin/python3 "./$1") > "$log" 2>&1
	rc=$?
	n_ok=$(grep -cE '^ok [0-9]+ ' "$log")
	n_skip=$(grep -cE '^ok [0-9]+ .*# SKIP' "$log")
	n_fail=$(grep -cE '^not ok [0-9]+ ' "$log")
	if [ $rc = 0 ] && [ "$n_fail" = 0 ] && [ "$n_ok" -gt "$n_skip" ]; then
		ok "selftest $1: $((n_ok - n_skip)) passed, $n_skip skipped"
	else
		fail "selftest $1 (rc=$rc, $n_fail failed)" "$(grep -E '^(not ok|ok|#)' "$log" | tail -30)"
	fi
}
run_selftest ping.py
run_selftest stats.py
ip netns del $NS
