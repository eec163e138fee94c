# SPDX-License-Identifier: GPL-2.0
# The driver as each earlier step of its patch series leaves it (make check
# builds them from tools/igb_rust/steps.py into igb_rust-steps/N-NAME of the
# build): each loads with the permanent address, gets the link on both ends
# and unloads; it has what its step and the ones before it add (traffic both
# ways from the data path on, ...), and none of what later steps add. The
# last step is the driver the other parts test.

STEPS_DIR=$IGB_RUST_BUILD/igb_rust-steps
full_ko=$IGB_RUST_KO
mapfile -t step_dirs < <(ls -d "$STEPS_DIR"/[0-9]*-* 2>/dev/null | sort -V)
check "the driver's series has steps built ($STEPS_DIR)" test "${#step_dirs[@]}" -ge 2
names=()
for d in "${step_dirs[@]}"; do n=${d##*/}; names+=("${n#*-}"); done
# has STEP_NUMBER NAME: whether the step numbered STEP_NUMBER (from 1) has NAME.
has() {
	local i
	for i in "${!names[@]}"; do
		[ "${names[$i]}" = "$2" ] && { [ "$i" -lt "$1" ]; return; }
	done
	return 1
}
# feature TEXT NUM NAME CMD...: from step NAME on CMD succeeds, before it fails.
feature() {
	local text=$1 num=$2 name=$3
	shift 3
	if has "$num" "$name"; then
		check "step $num: $text" "$@"
	else
		check "step $num: no $text before the $name step" sh -c '! "$@" >/dev/null 2>&1' - "$@"
	fi
}
no_splat() { ! dmesg_since "$1" | grep -E 'WARNING:|BUG:|Oops|RIP:'; }
lsmod | grep -q '^igb_rust ' && rmmod igb_rust
for i in "${!step_dirs[@]}"; do
	num=$((i + 1))
	[ "$num" -lt "${#step_dirs[@]}" ] || break
	IGB_RUST_KO=${step_dirs[$i]}/drivers/net/ethernet/intel/igb_rust/igb_rust.ko
	kmsg_mark "step-$num"
	# Not through `check`: setup_pair sets DUT_IF and PEER_IF for what follows.
	if setup_pair v4only && [ "$(cat "/sys/class/net/$DUT_IF/address")" = "$DUT_MAC" ]; then
		ok "step $num (${names[$i]}): loads with the permanent MAC, the link comes up on both ends"
	else
		fail "step $num (${names[$i]}): loads with the permanent MAC, the link comes up on both ends" "$(dmesg_since "step-$num" | tail -n 20)"
	fi
	feature "ping both ways" "$num" datapath sh -c "ping -c 3 -i 0.2 -W 2 $PEER_IP >/dev/null &&
		ip netns exec $NS ping -c 3 -i 0.2 -W 2 $DUT_IP >/dev/null"
	feature "1472-byte datagrams both ways" "$num" datapath sh -c "ping -c 2 -W 2 -M do -s 1472 $PEER_IP >/dev/null &&
		ip netns exec $NS ping -c 2 -W 2 -M do -s 1472 $DUT_IP >/dev/null"
	feature "ethtool ring sizes (ethtool -g)" "$num" ethtool ethtool -g "$DUT_IF"
	feature "XDP in driver mode" "$num" xdp \
		ip -force link set dev "$DUT_IF" xdpdrv obj "$IGB_RUST_BUILD/xdp/pass.o" sec xdp
	ip link set dev "$DUT_IF" xdpdrv off 2>/dev/null
	feature "Wake-on-LAN settings (ethtool DEV: Supports Wake-on)" "$num" pm \
		sh -c "ethtool $DUT_IF | grep -q 'Supports Wake-on'"
	feature "ethtool -S" "$num" stats sh -c "ethtool -S $DUT_IF | grep -q rx_packets"
	teardown_pair
	check "step $num: rmmod" rmmod igb_rust
	check "step $num: no WARN, BUG or oops" no_splat "step-$num"
done
IGB_RUST_KO=$full_ko
