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
transfer() {	# transfer tx|rx: prints Mbit/s (MB megabytes of BLOB)
	local t0 t1
	local blob=${BLOB:-/run/igbt/blob}
	if [ "$1" = tx ]; then
		timeout 300 ip netns exec $NS socat -u TCP-LISTEN:5001,reuseaddr OPEN:/dev/null &
		sleep 0.5; t0=$(date +%s.%N)
		timeout 300 socat -u OPEN:$blob TCP:$PEER_IP:5001 || { kill %1; wait; echo failed; return; }
	else
		timeout 300 socat -u TCP-LISTEN:5001,reuseaddr OPEN:/dev/null &
		sleep 0.5; t0=$(date +%s.%N)
		timeout 300 ip netns exec $NS socat -u OPEN:$blob TCP:$DUT_IP:5001 || { kill %1; wait; echo failed; return; }
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

# The comparison: both drivers on the same emulated NIC, in alternating
# rounds, so that both see the same host. One TCP transfer under TCG moves
# by up to 2x from run to run, so only medians of several rounds, with
# their spread, are printed.
ROUNDS=${DEMO_ROUNDS:-3}
CMP_MB=${DEMO_CMP_MB:-20}
head -c "${CMP_MB}M" /run/igbt/blob > /run/igbt/cmp
use_dut() {	# use_dut igb_rust|igb: the DUT bound to that driver, up, addressed
	local cur
	cur=$(driver_of "$DUT")
	if [ "$cur" != "$1" ]; then
		[ "$cur" = none ] || echo "$DUT" > "/sys/bus/pci/devices/$DUT/driver/unbind"
		echo "$1" > "/sys/bus/pci/devices/$DUT/driver_override"
		if [ "$1" = igb_rust ] && ! lsmod | grep -q '^igb_rust '; then
			insmod "$IGB_RUST_KO"
		else
			echo "$DUT" > "/sys/bus/pci/drivers/$1/bind"
		fi
		udevadm settle -t 10 2>/dev/null
	fi
	DUT_IF=$(netdev_of "$DUT")
	ip addr flush dev "$DUT_IF"
	ip addr add $DUT_IP/24 dev "$DUT_IF"
	ip link set "$DUT_IF" up
	wait_carrier "$DUT_IF" 1
	ip neigh replace $PEER_IP lladdr "$PEER_MAC" dev "$DUT_IF" nud permanent
	ip -n $NS neigh flush dev "$PEER_IF"
	ip -n $NS neigh replace $DUT_IP lladdr "$DUT_MAC" dev "$PEER_IF" nud permanent
	ping -c 1 -W 3 $PEER_IP >/dev/null
}
summary() {	# summary RATES...: "median (min..max)" of the rates
	printf '%s\n' "$@" | grep -E '^[0-9]+(\.[0-9]*)?$' | sort -n | awk '{ v[NR] = $1 }
		END { if (!NR) { print "-"; exit }
			printf "%6.1f (%.1f..%.1f)", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2, v[1], v[NR] }'
}
echo
echo "comparison: $ROUNDS rounds of igb_rust and igb alternating on the DUT, $CMP_MB MB each way"
r_tx=() r_rx=() c_tx=() c_rx=()
for r in $(seq 1 "$ROUNDS"); do
	use_dut igb_rust
	r_tx+=("$(MB=$CMP_MB BLOB=/run/igbt/cmp transfer tx)") r_rx+=("$(MB=$CMP_MB BLOB=/run/igbt/cmp transfer rx)")
	use_dut igb
	c_tx+=("$(MB=$CMP_MB BLOB=/run/igbt/cmp transfer tx)") c_rx+=("$(MB=$CMP_MB BLOB=/run/igbt/cmp transfer rx)")
	echo "  round $r: igb_rust TX ${r_tx[-1]} RX ${r_rx[-1]}, igb TX ${c_tx[-1]} RX ${c_rx[-1]} Mbit/s"
done
echo
echo "same setup, same run ($(nproc) guest CPUs, TCP, Mbit/s, median (min..max) of $ROUNDS rounds):"
printf '  %-10s TX %-24s RX %s\n' igb_rust "$(summary "${r_tx[@]}")" "$(summary "${r_rx[@]}")"
printf '  %-10s TX %-24s RX %s\n' igb "$(summary "${c_tx[@]}")" "$(summary "${c_rx[@]}")"
echo "Under QEMU's software CPU (TCG) rates follow the host's scheduling: rounds of one"
echo "build differ by up to 2x, so a gap smaller than the spread above shows"
echo "nothing. The comparable figure is the driver's cost: 'make bench' counts"
echo "guest instructions per packet, which repeat to within a few percent."
umount /run/igbt
