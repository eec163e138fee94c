# SPDX-License-Identifier: GPL-2.0
# The driver as each earlier step of its patch series leaves it (make check
# builds them from tools/igb_rust/steps.py into igb_rust-steps/N-NAME of the
# build): each loads, registers the interface with the permanent address and
# unloads; it has what its step and the ones before it add (the link from the
# link step on, traffic both ways from the data path on, ...), and none of
# what later steps add. The last step is the driver the other parts test.

STEPS_DIR=$IGB_RUST_BUILD/igb_rust-steps
# An XDP program that passes every frame (make patches CHECK=1 names the
# production build's, for a kernel built without BTF).
xdp_obj=${STEPS_XDP_OBJ:-$IGB_RUST_BUILD/xdp/pass.o}
full_ko=$IGB_RUST_KO
mapfile -t step_dirs < <(ls -d "$STEPS_DIR"/[0-9]*-* 2>/dev/null | sort -V)
nsteps=$(python3 "$(dirname "$0")/steps.py" list | wc -l)
check "every step of the driver's series is built ($nsteps in $STEPS_DIR)" \
	test "${#step_dirs[@]}" = "$nsteps" -a "$nsteps" -ge 2
check "an XDP program to attach is there ($xdp_obj)" test -f "$xdp_obj"
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
# absent PATTERN CMD...: CMD fails, saying PATTERN (not for another reason).
absent() {
	local want=$1 o
	shift
	if o=$("$@" 2>&1); then echo "succeeded: $o"; return 1; fi
	echo "$o" | grep -qE "$want" || { echo "failed otherwise: $o"; return 1; }
}
# feature TEXT NUM NAME PATTERN CMD...: from step NAME on CMD succeeds; before
# it, CMD fails with PATTERN in what it says.
feature() {
	local text=$1 num=$2 name=$3 want=$4
	shift 4
	if has "$num" "$name"; then
		check "step $num: $text" "$@"
	else
		check "step $num: no $text before the $name step" absent "$want" "$@"
	fi
}
pings() {	# pings SIZE: three datagrams each way, unfragmented
	ping -c 3 -i 0.2 -W 2 -M do -s "$1" "$PEER_IP" &&
		ip netns exec "$NS" ping -c 3 -i 0.2 -W 2 -M do -s "$1" "$DUT_IP"
}
carrier_both() {	# setup_pair waited for both
	[ "$(cat "/sys/class/net/$DUT_IF/carrier" 2>/dev/null)" = 1 ] || { echo "no carrier on $DUT_IF"; return 1; }
	[ "$(ip netns exec "$NS" cat "/sys/class/net/$PEER_IF/carrier" 2>/dev/null)" = 1 ] ||
		{ echo "no carrier on the peer"; return 1; }
}
wol_shown() {	# ethtool DEV fails where an earlier step lacks other settings
	local o
	o=$(ethtool "$DUT_IF" 2>&1)
	echo "$o" | grep 'Supports Wake-on' || { echo "no Wake-on-LAN line"; return 1; }
}
stats_shown() {
	local o
	o=$(ethtool -S "$DUT_IF" 2>&1)
	echo "$o" | grep -q rx0_packets || { echo "$o"; return 1; }
}
phc_shown() {
	local o
	o=$(ethtool -T "$DUT_IF" 2>&1)
	echo "$o" | grep -q 'PTP Hardware Clock: [0-9]' || { echo "no PTP hardware clock: $o"; return 1; }
}
no_splat() { ! dmesg_since "$1" | grep -E 'WARNING:|BUG:|Oops|RIP:'; }
lsmod | grep -q '^igb_rust ' && rmmod igb_rust
for i in "${!step_dirs[@]}"; do
	num=$((i + 1))
	[ "$num" -lt "${#step_dirs[@]}" ] || break
	IGB_RUST_KO=${step_dirs[$i]}/drivers/net/ethernet/intel/igb_rust/igb_rust.ko
	# setup_pair loads the module only if none is: the one of the step before
	# must be gone.
	if lsmod | grep -q '^igb_rust '; then
		fail "step $num: the module of the step before is unloaded"
		break
	fi
	kmsg_mark "step-$num"
	# Not through `check`: setup_pair sets DUT_IF and PEER_IF for what follows
	# (and fails, once they are set, where there is no link: before the link
	# step, which the check of the carrier below tells).
	setup_pair v4only
	if [ -n "${DUT_IF:-}" ] && [ "$(cat "/sys/class/net/$DUT_IF/address")" = "$DUT_MAC" ]; then
		ok "step $num (${names[$i]}): loads, registers the interface with the permanent MAC"
	else
		fail "step $num (${names[$i]}): loads, registers the interface with the permanent MAC" \
			"$(dmesg_since "step-$num" | tail -n 20)"
	fi
	feature "the link comes up on both ends" "$num" link "no carrier" carrier_both
	feature "ping both ways" "$num" datapath "100% packet loss|unreachable" pings 56
	feature "1472-byte datagrams both ways" "$num" datapath "100% packet loss|unreachable" pings 1472
	feature "ethtool ring sizes (ethtool -g)" "$num" ethtool "Operation not supported" ethtool -g "$DUT_IF"
	feature "XDP in driver mode" "$num" xdp "not support" \
		ip -force link set dev "$DUT_IF" xdpdrv obj "$xdp_obj" sec xdp
	ip link set dev "$DUT_IF" xdpdrv off 2>/dev/null
	feature "Wake-on-LAN settings (ethtool DEV: Supports Wake-on)" "$num" pm "no Wake-on-LAN line" wol_shown
	feature "ethtool -S" "$num" stats "no stats available" stats_shown
	feature "PTP hardware clock (ethtool -T)" "$num" ptp "no PTP hardware clock" phc_shown
	teardown_pair
	check "step $num: rmmod" rmmod igb_rust
	check "step $num: no WARN, BUG or oops" no_splat "step-$num"
done
IGB_RUST_KO=$full_ko
