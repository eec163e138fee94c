#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make run`, inside the guest: load igb_rust, bring the link up, move
# traffic both ways, use the tunable, then the same transfer with the C igb
# on the same NIC for comparison. Each step prints the command a user types.
set -u
. "$(dirname "$0")/lib.sh"

step() { printf '\n$ %s\n' "$*"; "$@"; }
MB=${DEMO_MB:-50}

setup_modules || { echo "no 82576 found"; exit 1; }
modprobe igb
[ "$(driver_of "$PEER")" = igb ] || echo "$PEER" > /sys/bus/pci/drivers/igb/bind
PEER_IF=$(netdev_of "$PEER")
ip netns add $NS
ip link set "$PEER_IF" netns $NS
ip -n $NS addr add $PEER_IP/24 dev "$PEER_IF"
ip -n $NS link set "$PEER_IF" up
echo "igb_rust demo: DUT $DUT (QEMU mac=$DUT_MAC), peer $PEER_IF in netns $NS ($PEER_IP)"

step insmod "$IGB_RUST_KO"
DUT_IF=$(netdev_of "$DUT")
step sh -c "dmesg | grep 'igb_rust ' | tail -2"
step ethtool -i "$DUT_IF"
step ip addr add $DUT_IP/24 dev "$DUT_IF"
step ip link set "$DUT_IF" up
wait_carrier "$DUT_IF" 1
step ethtool "$DUT_IF"
step ping -c 3 $PEER_IP

mkdir -p /run/igbt && mount -t tmpfs -o size=400m tmpfs /run/igbt
dd if=/dev/urandom of=/run/igbt/blob bs=1M count="$MB" status=none
transfer() {	# transfer tx|rx: prints Mbit/s
	local t0 t1
	if [ "$1" = tx ]; then
		ip netns exec $NS socat -u TCP-LISTEN:5001,reuseaddr OPEN:/dev/null &
		sleep 0.5; t0=$(date +%s.%N)
		socat -u OPEN:/run/igbt/blob TCP:$PEER_IP:5001
	else
		socat -u TCP-LISTEN:5001,reuseaddr OPEN:/dev/null &
		sleep 0.5; t0=$(date +%s.%N)
		ip netns exec $NS socat -u OPEN:/run/igbt/blob TCP:$DUT_IP:5001
	fi
	wait
	t1=$(date +%s.%N)
	echo "scale=1; $MB * 8 / ($t1 - $t0)" | bc
}
echo
echo "\$ socat: $MB MB DUT -> peer, then peer -> DUT"
rust_tx=$(transfer tx); rust_rx=$(transfer rx)
echo "igb_rust: TX $rust_tx Mbit/s, RX $rust_rx Mbit/s"
step ip -s link show "$DUT_IF"
step ethtool --get-tunable "$DUT_IF" rx-copybreak
step ethtool --set-tunable "$DUT_IF" rx-copybreak 512
step ethtool --get-tunable "$DUT_IF" rx-copybreak
step sh -c "ethtool -S $DUT_IF | grep -E 'rx0_|rx_pp_alloc|rx_pp_recycle'"
step rmmod igb_rust

# The same transfer with the C driver on the same emulated NIC.
echo igb > "/sys/bus/pci/devices/$DUT/driver_override"
echo "$DUT" > /sys/bus/pci/drivers/igb/bind
sleep 1
C_IF=$(netdev_of "$DUT")
ip addr add $DUT_IP/24 dev "$C_IF"
ip link set "$C_IF" up
wait_carrier "$C_IF" 1
ping -c 1 -W 3 $PEER_IP >/dev/null
c_tx=$(transfer tx); c_rx=$(transfer rx)
echo
echo "same setup, same run ($(nproc) guest CPUs, $MB MB over TCP):"
printf '  %-10s TX %8s Mbit/s   RX %8s Mbit/s\n' igb_rust "$rust_tx" "$rust_rx" igb "$c_tx" "$c_rx"
umount /run/igbt
