#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make run`, inside the guest: load igb_rust, bring the link up, move
# traffic both ways, use the tunable, then the same transfer with the C igb
# on the same NIC for comparison. Each step prints the command a user types.
set -u
. "$(dirname "$0")/lib.sh"

step() { printf '\n$ %s\n' "$*"; "$@"; }
MB=${DEMO_MB:-50}

[ -n "$(igb_functions)" ] || { echo "no 82576 found"; exit 1; }
echo "igb_rust demo: DUT and peer are emulated 82576s on QEMU's internal hub;"
echo "the peer (C igb) sits in namespace $NS with $PEER_IP."
setup_pair v4only >/dev/null
echo "(set up: DUT $DUT is $DUT_IF, peer $PEER is $PEER_IF in $NS)"
step sh -c "dmesg -t | grep 'igb_rust 0' | tail -2"
step ethtool -i "$DUT_IF"
step ip -br addr show "$DUT_IF"
step ethtool "$DUT_IF"
step ping -c 3 $PEER_IP

mkdir -p /run/igbt && mount -t tmpfs -o size=400m tmpfs /run/igbt
dd if=/dev/urandom of=/run/igbt/blob bs=1M count="$MB" status=none
transfer() {	# transfer tx|rx: prints Mbit/s
	local t0 t1
	if [ "$1" = tx ]; then
		timeout 300 ip netns exec $NS socat -u TCP-LISTEN:5001,reuseaddr OPEN:/dev/null &
		sleep 0.5; t0=$(date +%s.%N)
		timeout 300 socat -u OPEN:/run/igbt/blob TCP:$PEER_IP:5001 || { kill %1; wait; echo failed; return; }
	else
		timeout 300 socat -u TCP-LISTEN:5001,reuseaddr OPEN:/dev/null &
		sleep 0.5; t0=$(date +%s.%N)
		timeout 300 ip netns exec $NS socat -u OPEN:/run/igbt/blob TCP:$DUT_IP:5001 || { kill %1; wait; echo failed; return; }
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
udevadm settle -t 10 2>/dev/null
C_IF=$(netdev_of "$DUT")
ip addr add $DUT_IP/24 dev "$C_IF"
ip link set "$C_IF" up
wait_carrier "$C_IF" 1
ip neigh replace $PEER_IP lladdr "$PEER_MAC" dev "$C_IF" nud permanent
ip -n $NS neigh flush dev "$PEER_IF"
ip -n $NS neigh replace $DUT_IP lladdr "$DUT_MAC" dev "$PEER_IF" nud permanent
ping -c 1 -W 3 $PEER_IP >/dev/null
c_tx=$(transfer tx); c_rx=$(transfer rx)
echo
echo "same setup, same run ($(nproc) guest CPUs, $MB MB over TCP):"
printf '  %-10s TX %8s Mbit/s   RX %8s Mbit/s\n' igb_rust "$rust_tx" "$rust_rx" igb "$c_tx" "$c_rx"
umount /run/igbt
