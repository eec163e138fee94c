# SPDX-License-Identifier: GPL-2.0
# Traffic both ways between igb_rust (DUT) and the C igb peer in its own
# network namespace, over QEMU's internal hub.

setup_modules
modprobe igb
[ "$(driver_of "$PEER")" = igb ] || echo "$PEER" > /sys/bus/pci/drivers/igb/bind
insmod "$IGB_RUST_KO"
DUT_IF=$(netdev_of "$DUT")
PEER_IF=$(netdev_of "$PEER")
check "igb_rust registered an interface ($DUT_IF)" test -n "$DUT_IF"
check "interface MAC is the permanent MAC" \
	test "$(cat /sys/class/net/$DUT_IF/address)" = "$DUT_MAC"

ip netns add $NS
ip link set "$PEER_IF" netns $NS
ip -n $NS link set "$PEER_IF" up
ip -n $NS addr add $PEER_IP/24 dev "$PEER_IF"
ip -n $NS addr add $PEER_IP6/64 dev "$PEER_IF" nodad
ip addr add $DUT_IP/24 dev "$DUT_IF"
ip addr add $DUT_IP6/64 dev "$DUT_IF" nodad
ip link set "$DUT_IF" up

wait_carrier() {	# wait_carrier IF [NS]: up to 10 s
	local i
	for i in $(seq 1 100); do
		if [ -n "${2:-}" ]; then
			[ "$(ip netns exec "$2" cat /sys/class/net/$1/carrier 2>/dev/null)" = 1 ] && return 0
		else
			[ "$(cat /sys/class/net/$1/carrier 2>/dev/null)" = 1 ] && return 0
		fi
		sleep 0.1
	done
	return 1
}
check "DUT carrier comes up" wait_carrier "$DUT_IF"
check "peer carrier comes up" wait_carrier "$PEER_IF" $NS

check "ping DUT -> peer (IPv4)" ping -c 3 -i 0.2 -W 2 $PEER_IP
check "ping peer -> DUT (IPv4)" ip netns exec $NS ping -c 3 -i 0.2 -W 2 $DUT_IP
check "ping DUT -> peer (IPv6)" ping -6 -c 3 -i 0.2 -W 2 $PEER_IP6
check "ping peer -> DUT (IPv6)" ip netns exec $NS ping -6 -c 3 -i 0.2 -W 2 $DUT_IP6
