# SPDX-License-Identifier: GPL-2.0
# What a user of C igb tunes with ethtool: interrupt coalescing (-c/-C), pause
# frames (-a/-A, -I), the register dump (-d), RSS (-x/-X), ring sizes (-g/-G),
# channels (-l/-L), and the queue statistics of netdev netlink. Each value is read back, checked in the
# hardware register it programs (through the BAR in sysfs), survives down/up,
# and traffic still crosses intact; bad values get their errno and change
# nothing.

setup_pair v4only
if [ ! -s /run/igbt/blob ]; then
	mkdir -p /run/igbt
	mountpoint -q /run/igbt || mount -t tmpfs -o size=200m tmpfs /run/igbt
	dd if=/dev/urandom of=/run/igbt/blob bs=1M count=16 status=none
fi
want_sum=$(sha256sum < /run/igbt/blob)
KSRC=$(readlink -f "$IGB_RUST_BUILD/source")
YNL=(/usr/bin/python3 "$KSRC/tools/net/ynl/pyynl/cli.py" --no-schema --output-json
     --spec "$KSRC/Documentation/netlink/specs/netdev.yaml")

errno_of() {	# errno_of CMD...: rc and what the command printed, on one line
	local out rc
	out=$("$@" 2>&1)
	rc=$?
	echo "rc=$rc $(echo "$out" | tr '\n' ' ')"
}
traffic() {	# pings both ways and 16 MB peer -> DUT, intact
	ping -q -c 5 -i 0.1 -W 2 $PEER_IP >/dev/null || { echo "ping DUT -> peer failed"; return 1; }
	ip netns exec $NS ping -q -c 5 -i 0.1 -W 2 -p 5aa5c33c $DUT_IP >/dev/null ||
		{ echo "ping peer -> DUT failed"; return 1; }
	head -c 16M /run/igbt/blob > /run/igbt/eth16
	SRC=/run/igbt/eth16 WANT=$(sha256sum < /run/igbt/eth16) bulk rx
}
downup() {
	ip link set "$DUT_IF" down && ip link set "$DUT_IF" up && wait_carrier "$DUT_IF" 1
}
nq=$(ethtool -l "$DUT_IF" | awk '/^Combined:/ {v = $2} END {print v}')
carrier0=$(cat /sys/class/net/$DUT_IF/carrier_changes)

# --- interrupt coalescing: EITR of every queue vector ------------------------
usecs() { ethtool -c "$DUT_IF" | awk -v k="$1:" '$1 == k {print $2}'; }
eitr_usecs() {	# the interval field of EITR(1) (the first queue vector), in us
	echo $(( ($(bar_read $((0x1680 + 4))) >> 2) & 0x1fff ))
}
check "ethtool -c: rx-usecs and tx-usecs 162 by default ($(usecs rx-usecs)/$(usecs tx-usecs))" \
	test "$(usecs rx-usecs)/$(usecs tx-usecs)/$(eitr_usecs)" = 162/162/162
ethtool -C "$DUT_IF" rx-usecs 50 2>/dev/null
check "rx-usecs 50 reads back for both directions, EITR(1) = 50 us ($(usecs rx-usecs)/$(usecs tx-usecs)/$(eitr_usecs))" \
	test "$(usecs rx-usecs)/$(usecs tx-usecs)/$(eitr_usecs)" = 50/50/50
ethtool -C "$DUT_IF" tx-usecs 300 2>/dev/null
check "tx-usecs 300 (the vector serves both): reads 300/300, EITR(1) = 300 us" \
	test "$(usecs rx-usecs)/$(usecs tx-usecs)/$(eitr_usecs)" = 300/300/300
e=$(errno_of ethtool -C "$DUT_IF" rx-usecs 8192)
check "rx-usecs 8192 (over the 13-bit field) -> EINVAL ($e)" sh -c "echo '$e' | grep -q 'Invalid argument'"
e=$(errno_of ethtool -C "$DUT_IF" rx-usecs 20 tx-usecs 30)
check "rx-usecs 20 tx-usecs 30 (one vector) -> EINVAL ($e)" sh -c "echo '$e' | grep -q 'Invalid argument'"
e=$(errno_of ethtool -C "$DUT_IF" rx-frames 8)
# The ethtool core refuses a parameter outside supported_coalesce_params itself.
check "rx-frames (not supported by the driver) -> EINVAL from the core ($e)" \
	sh -c "echo '$e' | grep -q 'unsupported parameter' && echo '$e' | grep -q 'Invalid argument'"
check "refused values change nothing (300/300, EITR 300)" \
	test "$(usecs rx-usecs)/$(usecs tx-usecs)/$(eitr_usecs)" = 300/300/300
check "coalescing changes kept the link (no carrier change)" \
	test "$(cat /sys/class/net/$DUT_IF/carrier_changes)" = "$carrier0"
downup
check "after down/up: still 300 us, in EITR too" test "$(usecs rx-usecs)/$(eitr_usecs)" = 300/300
ethtool -C "$DUT_IF" rx-usecs 0 2>/dev/null
check "rx-usecs 0 (no throttling) reads back, EITR(1) interval 0" \
	test "$(usecs rx-usecs)/$(eitr_usecs)" = 0/0
check "rx-usecs 0: pings and 16 MB peer -> DUT intact" traffic
ethtool -C "$DUT_IF" rx-usecs 162 2>/dev/null

# --- adaptive moderation (DIM): each queue vector's poll writes its EITR ------
adaptive() { ethtool -c "$DUT_IF" | awk '/^Adaptive RX:/ {print $3}'; }
eitrs() {	# the interval of every queue vector's EITR, in us
	local v out=""
	for v in $(seq 1 "$nq"); do
		out="$out $(( ($(bar_read $((0x1680 + 4 * v))) >> 2) & 0x1fff ))"
	done
	echo $out
}
dim_ok() {	# every queue vector holds a DIM profile (1 8 64 128 256 us) or, not
		# polled since, the fixed 162; at least one holds a profile
	local e hit=0
	for e in $(eitrs); do
		case " 1 8 64 128 256 " in *" $e "*) hit=1 ;; *) [ "$e" = 162 ] || return 1 ;; esac
	done
	[ $hit = 1 ]
}
fixed_all() { printf "${1:-162} %.0s" $(seq 1 "$nq") | sed 's/ $//'; }	# [US]: US in every vector
adaptive_up() { [ "$(adaptive)" = on ] && traffic; }
fixed_kept() { traffic && test "$(eitrs)" = "$(fixed_all)"; }
dim_updates() { ethtool_stat 'rx[0-9]+_dim_updates'; }
carrier1=$(cat /sys/class/net/$DUT_IF/carrier_changes)
check "adaptive-rx off by default" test "$(adaptive)" = off
ethtool -C "$DUT_IF" adaptive-rx on 2>/dev/null
check "adaptive-rx on reads back, rx-usecs stays 162 ($(adaptive)/$(usecs rx-usecs))" \
	test "$(adaptive)/$(usecs rx-usecs)" = on/162
check "adaptive-rx: pings and 16 MB peer -> DUT intact" traffic
check "adaptive-rx: the queue vectors' EITR hold DIM profiles ($(eitrs))" dim_ok
check "adaptive-rx: DIM decided and the polls wrote it (dim_updates $(dim_updates))" \
	test "$(dim_updates)" -gt 0
check "adaptive-rx on kept the link (no carrier change)" \
	test "$(cat /sys/class/net/$DUT_IF/carrier_changes)" = "$carrier1"
e=$(errno_of ethtool -C "$DUT_IF" adaptive-tx on)
check "adaptive-tx (one vector, moderated as a whole) -> refused by the core ($e)" \
	sh -c "echo '$e' | grep -q 'unsupported parameter'"
downup
carrier1=$(cat /sys/class/net/$DUT_IF/carrier_changes)
check "adaptive-rx survives down/up: still on, traffic intact" adaptive_up
check "after down/up the polls write DIM's interval again ($(eitrs))" dim_ok
c_flips() {	# adaptive-rx on/off and rx-usecs 50/162, five times; each
		# "off" leaves 50 in every EITR for good, traffic or not
	local i
	for i in 1 2 3 4 5; do
		ethtool -C "$DUT_IF" adaptive-rx off rx-usecs 50 || return 1
		sleep 0.2
		[ "$(eitrs)" = "$(fixed_all 50)" ] ||
			{ echo "after adaptive-rx off rx-usecs 50: EITR $(eitrs)"; return 1; }
		ethtool -C "$DUT_IF" adaptive-rx on rx-usecs 162 || return 1
		sleep 0.1
	done
	# The fixed interval back to 162 in EITR too: a vector that the check
	# below does not poll keeps it.
	ethtool -C "$DUT_IF" adaptive-rx off && ethtool -C "$DUT_IF" adaptive-rx on
}
c_under_traffic() {	# -C back and forth while 2 x 16 MB cross peer -> DUT
	local rc=0 flip
	head -c 16M /run/igbt/blob > /run/igbt/eth16
	c_flips &
	flip=$!
	SRC=/run/igbt/eth16 WANT=$(sha256sum < /run/igbt/eth16) PORT=5031 bulk rx || rc=1
	SRC=/run/igbt/eth16 WANT=$(sha256sum < /run/igbt/eth16) PORT=5032 bulk rx || rc=1
	wait $flip || { echo "an ethtool -C failed"; rc=1; }
	return $rc
}
after_flips() {	# the last setting holds; traffic brings DIM's intervals back
	[ "$(adaptive)/$(usecs rx-usecs)" = on/162 ] || { echo "$(adaptive)/$(usecs rx-usecs)"; return 1; }
	traffic && dim_ok || { echo "EITR: $(eitrs)"; return 1; }
}
check "adaptive-rx and rx-usecs switched ten times during 2 x 16 MB peer -> DUT: data intact, every off holds 50 us" \
	c_under_traffic
check "after the switches: adaptive-rx on, rx-usecs 162; with traffic, DIM profiles in EITR" \
	after_flips
ethtool -C "$DUT_IF" adaptive-rx off 2>/dev/null
check "adaptive-rx off: every queue vector back at 162 us at once ($(adaptive)/$(eitrs))" \
	test "$(adaptive)/$(eitrs)" = "off/$(fixed_all)"
check "adaptive-rx off: traffic intact, EITR stays 162" fixed_kept
check "adaptive-rx off kept the link (no carrier change)" \
	test "$(cat /sys/class/net/$DUT_IF/carrier_changes)" = "$carrier1"

# --- pause frames: CTRL.RFCE/TFCE, FCRTH/FCRTL -------------------------------
pause() { ethtool -a "$DUT_IF" | awk -v k="$1:" '$1 == k {print $2}'; }
ctrl_fc() {	# "RFCE/TFCE" from CTRL
	local c
	c=$(bar_read 0x0)
	echo "$(( (c >> 27) & 1 ))/$(( (c >> 28) & 1 ))"
}
# Negotiated by default, as C igb; QEMU's link partner advertises symmetric
# pause, so both directions resolve on.
check "ethtool -a: autoneg on (the default), rx on, tx on; CTRL.RFCE/TFCE set (QEMU's partner pauses)" \
	test "$(pause Autonegotiate)/$(pause RX)/$(pause TX)/$(ctrl_fc)" = on/on/on/1/1
fcrth=$(bar_read 0x2168)
check "XOFF threshold programmed (FCRTH $fcrth, 16-byte aligned, below the 64 KiB buffer)" \
	sh -c "[ $fcrth -gt 0 ] && [ $((fcrth % 16)) = 0 ] && [ $fcrth -lt 65536 ]"
carrier0=$(cat /sys/class/net/$DUT_IF/carrier_changes)
ethtool -A "$DUT_IF" autoneg off rx on tx on 2>/dev/null
check "ethtool -A autoneg off rx on tx on: forced, CTRL.RFCE/TFCE set" \
	test "$(pause Autonegotiate)/$(pause RX)/$(pause TX)/$(ctrl_fc)" = off/on/on/1/1
ethtool -A "$DUT_IF" rx off 2>/dev/null
check "ethtool -A rx off: reads rx off tx on, CTRL.RFCE clear" \
	test "$(pause RX)/$(pause TX)/$(ctrl_fc)" = off/on/0/1
ethtool -A "$DUT_IF" tx off 2>/dev/null
check "ethtool -A tx off: FCRTH cleared, CTRL.TFCE clear" \
	test "$(pause TX)/$(ctrl_fc)/$(bar_read 0x2168)" = off/0/0/0
check "forced pause changes kept the link (no carrier change)" \
	test "$(cat /sys/class/net/$DUT_IF/carrier_changes)" = "$carrier0"
downup
check "after down/up: rx off tx off kept in CTRL ($(ctrl_fc))" test "$(ctrl_fc)" = 0/0
ethtool -A "$DUT_IF" rx on tx on 2>/dev/null
check "ethtool -A rx on tx on: CTRL.RFCE/TFCE set again" test "$(ctrl_fc)" = 1/1

# Negotiated pause: the PHY advertises what is asked for (ANAR PAUSE/ASM_DIR,
# IEEE 802.3 annex 28B), and the MAC takes what both ends agreed to. QEMU's
# link partner's abilities (ANLPAR) decide the outcome; the expected one is
# computed from them.
anar_fc() { local a; a=$(phy_read 4) || return 1; echo "$(( (a >> 10) & 1 ))/$(( (a >> 11) & 1 ))"; }
pause_an() {	# pause_an RX TX WANT-ANAR: negotiate, then check the outcome
	local want_fc lpa sym asym rx=0 tx=0
	ethtool -A "$DUT_IF" autoneg on rx "$1" tx "$2" || return 1
	wait_carrier "$DUT_IF" 1 || { echo "no link after renegotiation"; return 1; }
	sleep 0.5
	[ "$(pause Autonegotiate)/$(pause RX)/$(pause TX)" = "on/$1/$2" ] || { echo "ethtool -a: $(ethtool -a "$DUT_IF" | tr '\n' ' ')"; return 1; }
	[ "$(anar_fc)" = "$3" ] || { echo "ANAR pause/asym $(anar_fc), want $3"; return 1; }
	lpa=$(phy_read 5) || return 1
	sym=$(( (lpa >> 10) & 1 )); asym=$(( (lpa >> 11) & 1 ))
	case "$3" in
	1/0) [ $sym = 1 ] && { rx=1; tx=1; } ;;
	1/1) if [ $sym = 1 ]; then rx=1; elif [ $asym = 1 ]; then rx=1; fi ;;
	0/1) [ $sym = 1 ] && [ $asym = 1 ] && tx=1 ;;
	esac
	want_fc=$rx/$tx
	note "partner ANLPAR $(printf %#x "$lpa"): pause $sym asym $asym; CTRL RFCE/TFCE $(ctrl_fc), want $want_fc"
	[ "$(ctrl_fc)" = "$want_fc" ] && ping -c 3 -i 0.2 -W 2 $PEER_IP >/dev/null
}
carrier1=$(cat /sys/class/net/$DUT_IF/carrier_changes)
check "ethtool -A autoneg on rx on tx on: advertises symmetric pause, CTRL takes the negotiated outcome, pings" \
	pause_an on on 1/0
check "the change renegotiated the link (carrier changes $carrier1 -> $(cat /sys/class/net/$DUT_IF/carrier_changes))" \
	test "$(cat /sys/class/net/$DUT_IF/carrier_changes)" -gt "$carrier1"
check "ethtool -A autoneg on rx on tx off: advertises symmetric and asymmetric pause" pause_an on off 1/1
check "ethtool -A autoneg on rx off tx on: advertises asymmetric pause only" pause_an off on 0/1
ethtool -A "$DUT_IF" autoneg off rx on tx on 2>/dev/null
check "ethtool -A autoneg off rx on tx on: forced again, CTRL.RFCE/TFCE set" \
	test "$(pause Autonegotiate)/$(ctrl_fc)" = off/1/1
# Back to the default for what follows.
ethtool -A "$DUT_IF" autoneg on rx on tx on 2>/dev/null
wait_carrier "$DUT_IF" 1
# --- advertised link modes (ethtool -s): PHY ANAR and 1000BASE-T control ----
modes_of() {	# modes_of Supported|Advertised|"Link partner advertised": the listed link modes, sorted
	ethtool "$DUT_IF" | awk -v k="$1 link modes:" '
		index($0, k) { on = 1; $0 = substr($0, index($0, k) + length(k)) }
		on && index($0, ":") { on = 0 }
		on { for (i = 1; i <= NF; i++) if ($i != "Not" && $i != "reported") print $i }' | sort | tr '\n' ' '
}
anar_modes() { local a; a=$(phy_read 4) || return 1; printf '%#x\n' $(( a & 0x1e0 )); }
gbcr_full() { local g; g=$(phy_read 9) || return 1; echo $(( (g >> 9) & 1 )); }
all_modes="1000baseT/Full 100baseT/Full 100baseT/Half 10baseT/Full 10baseT/Half "
check "ethtool: supported and advertised are 10/100 half/full and 1000 full" \
	test "$(modes_of Supported)|$(modes_of Advertised)" = "$all_modes|$all_modes"
check "PHY advertises them (ANAR 0x1e0, 1000BASE-T control full)" test "$(anar_modes)/$(gbcr_full)" = 0x1e0/1
lp=$(modes_of "Link partner advertised")
note "link partner advertised: ${lp:-nothing}"
check "the link partner's modes are reported (QEMU's PHY model)" test -n "$lp"
adv_only() {	# adv_only ETHTOOL-ARGS... -- WANT-MODES WANT-ANAR WANT-GBCR
	local args=() w
	while [ "$1" != -- ]; do args+=("$1"); shift; done
	shift
	ethtool -s "$DUT_IF" "${args[@]}" || return 1
	wait_carrier "$DUT_IF" 1 || { echo "no link after renegotiation"; return 1; }
	w="$(modes_of Advertised)|$(anar_modes)/$(gbcr_full)"
	[ "$w" = "$1|$2/$3" ] || { echo "got $w, want $1|$2/$3"; return 1; }
	ping -c 3 -i 0.2 -W 2 $PEER_IP >/dev/null || { echo "no ping"; return 1; }
}
check "ethtool -s advertise 0x008: only 100baseT/Full advertised (ANAR 0x100, no 1000), link back, pings" \
	adv_only advertise 0x008 -- "100baseT/Full " 0x100 0
check "ethtool -s speed 10 duplex half autoneg on: the core picks 10baseT/Half (ANAR 0x20)" \
	adv_only speed 10 duplex half autoneg on -- "10baseT/Half " 0x20 0
downup
check "after down/up: still 10baseT/Half only" test "$(modes_of Advertised)|$(anar_modes)/$(gbcr_full)" = "10baseT/Half |0x20/0"
e=$(errno_of ethtool -s "$DUT_IF" advertise 0x1000)
check "ethtool -s advertise 10000baseT/Full -> EINVAL ($e)" sh -c "echo '$e' | grep -q 'Invalid argument'"
e=$(errno_of ethtool -s "$DUT_IF" autoneg off speed 100 duplex full)
check "ethtool -s autoneg off -> EINVAL ($e)" sh -c "echo '$e' | grep -q 'Invalid argument'"
check "the refused changes left 10baseT/Half (ANAR 0x20)" test "$(modes_of Advertised)|$(anar_modes)" = "10baseT/Half |0x20"
check "ethtool -s advertise 0x02f: every mode again, 1000 full included" \
	adv_only advertise 0x02f -- "$all_modes" 0x1e0 1
adv_while_down() {	# set while down, programmed at the next ifup
	ip link set "$DUT_IF" down && ethtool -s "$DUT_IF" advertise 0x008 && ip link set "$DUT_IF" up || return 1
	wait_carrier "$DUT_IF" 1 || { echo "no link"; return 1; }
	[ "$(anar_modes)/$(gbcr_full)" = 0x100/0 ] || { echo "ANAR $(anar_modes), 1000 full $(gbcr_full)"; return 1; }
	ethtool -s "$DUT_IF" advertise 0x02f && wait_carrier "$DUT_IF" 1 && [ "$(anar_modes)/$(gbcr_full)" = 0x1e0/1 ]
}
check "ethtool -s advertise while down: programmed at ifup (ANAR 0x100), then every mode again" adv_while_down

st=$(ethtool -I -a "$DUT_IF" 2>&1)
check "ethtool -I -a reports pause frame counters" \
	sh -c "echo '$st' | grep -q 'tx_pause_frames' && echo '$st' | grep -q 'rx_pause_frames'"

# --- register dump ----------------------------------------------------------
ethtool -d "$DUT_IF" raw on > /run/igbt/regs 2>/dev/null
check "ethtool -d: 182 registers (728 bytes)" test "$(stat -c %s /run/igbt/regs)" = 728
word() { od -An -tu4 -j $(($1 * 4)) -N 4 /run/igbt/regs | tr -d ' '; }
mac_hex=$(cat /sys/class/net/$DUT_IF/address | tr -d :)
ral=$(word 24); rah=$(word 25)
dump_mac=$(printf '%08x%04x' "$ral" $((rah & 0xffff)) | sed 's/\(..\)\(..\)\(..\)\(..\)\(..\)\(..\)/\4\3\2\1\6\5/')
check "the dump's RAL0/RAH0 hold the interface's MAC ($dump_mac)" test "$dump_mac" = "$mac_hex"
check "the dump's STATUS says link up, CTRL matches the register" \
	sh -c "[ $(( $(word 1) & 2 )) = 2 ] && [ $(word 0) = $(bar_read 0x0) ]"
check "the dump's EITR(1) holds rx-usecs 162" test $(( ($(word 27) >> 2) & 0x1fff )) = 162
check "ethtool -d leaves traffic working" traffic

# --- RSS: RETA and RSSRK -----------------------------------------------------
rxq() { ethtool_value "rx$1_packets"; }
only_queue() {	# only_queue Q: 100 pings from the peer all land on queue Q
	local a0 a1 b0 b1
	# One ping first: after down/up the peer resolves the address again, and ARP,
	# which RSS does not hash, arrives on queue 0.
	ip netns exec $NS ping -q -c 1 -W 2 $DUT_IP >/dev/null
	a0=$(rxq 0); a1=$(rxq 1)
	ip netns exec $NS ping -q -c 100 -i 0.01 -W 2 $DUT_IP >/dev/null || { echo "pings lost"; return 1; }
	b0=$(rxq 0); b1=$(rxq 1)
	echo "rx0 +$((b0 - a0)), rx1 +$((b1 - a1))"
	if [ "$1" = 0 ]; then [ $((b0 - a0)) -ge 100 ] && [ $((b1 - a1)) = 0 ]
	else [ $((b1 - a1)) -ge 100 ] && [ $((b0 - a0)) = 0 ]; fi
}
if [ "${nq:-1}" -ge 2 ]; then
	indir() { ethtool -x "$DUT_IF" | awk '/^ *[0-9]+:/ {for (i = 2; i <= NF; i++) printf "%s ", $i}'; }
	key() { ethtool -x "$DUT_IF" | awk '/^RSS hash key:/ {getline; print; exit}'; }
	reta_word() { bar_read $((0x5c00 + 4 * $1)); }
	n=$(indir | wc -w)
	check "ethtool -x: 128 entries, spread over $nq queues, key of 40 bytes" sh -c \
		"[ $n = 128 ] && [ \"$(indir | tr ' ' '\n' | sort -u | grep -c .)\" = $nq ] &&
		 [ \"$(key | tr ':' '\n' | grep -c .)\" = 40 ] && ethtool -x $DUT_IF | grep -q 'toeplitz: on'"
	carrier0=$(cat /sys/class/net/$DUT_IF/carrier_changes)
	ethtool -X "$DUT_IF" weight 1 0 2>/dev/null
	check "ethtool -X weight 1 0: every entry 0, RETA all zero" sh -c \
		"[ \"$(indir | tr ' ' '\n' | sort -u | tr -d '\n')\" = 0 ] && [ $(reta_word 0) = 0 ] && [ $(reta_word 31) = 0 ]"
	check "weight 1 0: 100 pings from the peer all received on queue 0" only_queue 0
	ethtool -X "$DUT_IF" weight 0 1 2>/dev/null
	check "weight 0 1: RETA entries all 1" \
		test "$(reta_word 0)/$(reta_word 31)" = $((0x01010101))/$((0x01010101))
	check "weight 0 1: 100 pings from the peer all received on queue 1" only_queue 1
	k=$(seq 1 40 | awk '{printf "%s%02x", (NR > 1 ? ":" : ""), (NR * 7) % 256}')
	ethtool -X "$DUT_IF" hkey "$k" 2>/dev/null
	check "ethtool -X hkey: the key reads back, RSSRK(0) holds its first bytes" sh -c \
		"[ \"$(key)\" = '$k' ] && [ $(bar_read 0x5c80) = $(( 0x1c150e07 )) ]"
	e=$(errno_of ethtool -X "$DUT_IF" equal $((nq + 1)))
	check "ethtool -X equal $((nq + 1)) (more than the queues) -> EINVAL ($e)" \
		sh -c "echo '$e' | grep -q 'Invalid argument'"
	e=$(errno_of ethtool -X "$DUT_IF" hfunc xor)
	check "ethtool -X hfunc xor -> EOPNOTSUPP ($e)" sh -c "echo '$e' | grep -q 'Operation not supported'"
	check "refused changes left the table on queue 1" test "$(indir | tr ' ' '\n' | sort -u | tr -d '\n')" = 1
	check "RSS changes kept the link (no carrier change)" \
		test "$(cat /sys/class/net/$DUT_IF/carrier_changes)" = "$carrier0"
	downup
	check "after down/up: table and key kept, in RETA and RSSRK too" sh -c \
		"[ $(reta_word 5) = $((0x01010101)) ] && [ \"$(key)\" = '$k' ] && [ $(bar_read 0x5c80) = $(( 0x1c150e07 )) ]"
	check "after down/up: 100 pings all on queue 1" only_queue 1
	fh() { ethtool -n "$DUT_IF" rx-flow-hash "$1" | grep -cE '^(IP SA|IP DA|L4 bytes)'; }
	mrqc_bit() { echo $(( ($(bar_read 0x5818) >> $1) & 1 )); }
	check "rx-flow-hash: tcp4 hashes 4 fields, udp4 2 (addresses only), MRQC TCP4 on, UDP4 off" \
		test "$(fh tcp4)/$(fh udp4)/$(mrqc_bit 16)/$(mrqc_bit 22)" = 4/2/1/0
	ethtool -N "$DUT_IF" rx-flow-hash udp4 sdfn 2>/dev/null
	check "ethtool -N rx-flow-hash udp4 sdfn: 4 fields, MRQC UDP4 set" \
		test "$(fh udp4)/$(mrqc_bit 22)" = 4/1
	ethtool -N "$DUT_IF" rx-flow-hash tcp6 sd 2>/dev/null
	check "ethtool -N rx-flow-hash tcp6 sd: 2 fields, MRQC TCP6 clear" \
		test "$(fh tcp6)/$(mrqc_bit 21)" = 2/0
	e=$(errno_of ethtool -N "$DUT_IF" rx-flow-hash tcp4 s)
	check "rx-flow-hash tcp4 s (source address only) -> EINVAL ($e)" \
		sh -c "echo '$e' | grep -q 'Invalid argument'"
	check "the refused change left tcp4 at 4 fields" test "$(fh tcp4)" = 4
	ethtool -N "$DUT_IF" rx-flow-hash udp4 sd 2>/dev/null
	ethtool -N "$DUT_IF" rx-flow-hash tcp6 sdfn 2>/dev/null
	check "rx-flow-hash back to the defaults (udp4 2 fields, tcp6 4)" \
		test "$(fh udp4)/$(fh tcp6)/$(mrqc_bit 22)/$(mrqc_bit 21)" = 2/4/0/1
	ethtool -X "$DUT_IF" default 2>/dev/null
	check "ethtool -X default: spread over $nq queues again" \
		test "$(indir | tr ' ' '\n' | sort -u | grep -c .)" = "$nq"
	check "RSS changes: 16 MB peer -> DUT intact" traffic
else
	fail "RSS tests need 2 queues" "ethtool -l shows $nq"
fi

# --- queue statistics (netdev netlink qstats) --------------------------------
ifindex=$(cat /sys/class/net/$DUT_IF/ifindex)
qs() {	# qs rx|tx N KEY: one queue's counter from qstats-get
	"${YNL[@]}" --dump qstats-get --json "{\"ifindex\": $ifindex, \"scope\": \"queue\"}" |
		python3 -c "
import json, sys
for q in json.load(sys.stdin):
    if q['queue-type'] == '$1' and q['queue-id'] == $2:
        print(q.get('$3', 'absent'))"
}
qs_dev() {	# qs_dev KEY: the device's counter
	"${YNL[@]}" --dump qstats-get --json "{\"ifindex\": $ifindex}" |
		python3 -c "import json, sys; print(json.load(sys.stdin)[0].get('$1', 'absent'))"
}
# Quiet link: only what the test sends moves the counters.
a=$(qs rx 0 rx-packets)/$(ethtool_value rx0_packets)
check "qstats rx queue 0 rx-packets equals ethtool -S rx0_packets ($a)" \
	sh -c "[ '${a%/*}' = '${a#*/}' ]"
a=$(qs tx 1 tx-packets)/$(ethtool_value tx1_packets)
check "qstats tx queue 1 tx-packets equals ethtool -S tx1_packets ($a)" \
	sh -c "[ '${a%/*}' = '${a#*/}' ]"
check "qstats report rx-alloc-fail and rx-csum-unnecessary per queue" \
	sh -c "[ '$(qs rx 0 rx-alloc-fail)' != absent ] && [ '$(qs rx 1 rx-csum-unnecessary)' != absent ]"
p0=$(qs_dev rx-packets); s0=$(stat_of "$DUT_IF" rx packets)
check "device qstats rx-packets equals the interface's rx_packets ($p0 / $s0)" test "$p0" = "$s0"
ip netns exec $NS ping -q -c 50 -i 0.01 -W 2 $DUT_IP >/dev/null
p1=$(qs_dev rx-packets)
check "50 pings from the peer: device rx-packets +50 or more (+$((p1 - p0)))" test $((p1 - p0)) -ge 50

# --- rings: ethtool -G ----------------------------------------------------------
ring() { ethtool -g "$DUT_IF" | awk -v k="$1:" '$1 == k { v = $2 } END { print v }'; }
ring_max() { ethtool -g "$DUT_IF" | awk -v k="$1:" '$1 == k { print $2; exit }'; }
rdlen() { echo $(( $(bar_read $((0xc008 + 0x40 * $1))) / 16 ))/$(( $(bar_read $((0xe008 + 0x40 * $1))) / 16 )); }
tx_bulk() {	# 16 MB DUT -> peer, intact
	head -c 16M /run/igbt/blob > /run/igbt/eth16
	SRC=/run/igbt/eth16 WANT=$(sha256sum < /run/igbt/eth16) bulk tx
}
rings_carry() {	# rings_carry RX/TX: first and last queue use them; traffic both ways intact
	[ "$(rdlen 0)" = "$1" ] && [ "$(rdlen $((nq - 1)))" = "$1" ] ||
		{ echo "RDLEN/TDLEN $(rdlen 0) and $(rdlen $((nq - 1))), want $1"; return 1; }
	traffic && tx_bulk
}
check "ethtool -g: 256 descriptors each way, at most 4096 ($(ring RX)/$(ring TX), max $(ring_max RX)/$(ring_max TX))" \
	test "$(ring RX)/$(ring TX)/$(ring_max RX)/$(ring_max TX)" = 256/256/4096/4096
carrier0=$(cat /sys/class/net/$DUT_IF/carrier_changes)
ethtool -G "$DUT_IF" rx 512 tx 128
check "ethtool -G rx 512 tx 128 reads back ($(ring RX)/$(ring TX))" test "$(ring RX)/$(ring TX)" = 512/128
check "rx 512 tx 128: in RDLEN/TDLEN, pings and 16 MB each way intact" rings_carry 512/128
check "ethtool -G kept the link (no carrier change)" \
	test "$(cat /sys/class/net/$DUT_IF/carrier_changes)" = "$carrier0"
ethtool -G "$DUT_IF" rx 64 tx 64
check "rx 64 tx 64 (the smallest): in RDLEN/TDLEN, pings and 16 MB each way intact" rings_carry 64/64
ethtool -G "$DUT_IF" rx 4096 tx 4096
check "rx 4096 tx 4096 (the largest): in RDLEN/TDLEN, pings and 16 MB each way intact" rings_carry 4096/4096
ethtool -G "$DUT_IF" rx 256 tx 256
for bad in "rx 32" "tx 56" "rx 100" "tx 1001" "rx 8192" "tx 4104"; do
	e=$(errno_of ethtool -G "$DUT_IF" $bad)
	check "ethtool -G $bad -> EINVAL ($e)" sh -c "echo '$e' | grep -q 'Invalid argument'"
done
check "refused sizes changed nothing ($(ring RX)/$(ring TX), $(rdlen 0))" \
	test "$(ring RX)/$(ring TX)/$(rdlen 0)" = 256/256/256/256
check "dmesg names the accepted range" sh -c "dmesg | grep -q 'ring sizes are 64..4096 in steps of 8 (asked rx 32 tx 256)'"
ip link set "$DUT_IF" down
ethtool -G "$DUT_IF" rx 1024 tx 512
ip link set "$DUT_IF" up
wait_carrier "$DUT_IF" 1
check "-G while down (rx 1024 tx 512), then up: in RDLEN/TDLEN, traffic intact" rings_carry 1024/512
carrier0=$(cat /sys/class/net/$DUT_IF/carrier_changes)
g_flips() {	# three round trips 128/2048 <-> 2048/128
	local i
	for i in 1 2 3; do
		ethtool -G "$DUT_IF" rx 128 tx 2048 || return 1
		sleep 0.3
		ethtool -G "$DUT_IF" rx 2048 tx 128 || return 1
		sleep 0.3
	done
}
g_under_traffic() {	# -G back and forth while 16 MB cross each way
	local rc=0 flip dir port=5022
	head -c 16M /run/igbt/blob > /run/igbt/eth16
	for dir in rx tx; do
		g_flips &
		flip=$!
		SRC=/run/igbt/eth16 WANT=$(sha256sum < /run/igbt/eth16) PORT=$port bulk $dir || rc=1
		wait $flip || { echo "an ethtool -G failed"; rc=1; }
		port=$((port + 1))
	done
	return $rc
}
check "ethtool -G 128/2048 <-> 2048/128 six times during 16 MB each way: data intact" g_under_traffic
check "after -G under traffic: rx 2048 tx 128, carrier unchanged" \
	test "$(ring RX)/$(ring TX)/$(cat /sys/class/net/$DUT_IF/carrier_changes)" = "2048/128/$carrier0"
ethtool -G "$DUT_IF" rx 256 tx 256

# --- channels: ethtool -L ------------------------------------------------------
if [ "${nq:-1}" -ge 2 ]; then
	comb() { ethtool -l "$DUT_IF" | awk '/^Combined:/ {v = $2} END {print v}'; }
	nqueues() { ls -d /sys/class/net/$DUT_IF/queues/$1-* | wc -l; }
	mrqc() { bar_read 0x5818; }
	reta() { bar_read $(seq $((0x5c00)) 4 $((0x5c7c))) | sort -u | tr '\n' ' '; }	# its distinct words
	carrier0=$(cat /sys/class/net/$DUT_IF/carrier_changes)
	ethtool -L "$DUT_IF" combined 1
	# One queue still hashes every frame (for the stack and XDP), as C igb.
	check "ethtool -L combined 1: reads back 1; the stack has 1 RX and 1 TX queue; RSS on, every bucket queue 0" \
		sh -c "[ $(comb)/$(nqueues rx)/$(nqueues tx) = 1/1/1 ] && [ $(mrqc) != 0 ] && [ '$(reta)' = '0 ' ]"
	check "combined 1: 100 pings from the peer all received on queue 0" only_queue 0
	check "combined 1: pings and 16 MB peer -> DUT intact" traffic
	p0=$(qs_dev rx-packets); s0=$(stat_of "$DUT_IF" rx packets)
	check "combined 1: device qstats (queue 0 plus the idle queue's history) equal rx_packets ($p0 / $s0)" \
		test "$p0" = "$s0"
	# As C igb: 8 queue pairs at most (RSS spreads over 8; QEMU's model grants
	# the 9 MSI-X vectors), one per CPU in use at first (datapath checks that).
	nmax=$(ethtool -l "$DUT_IF" | awk '/^Combined:/ {print $2; exit}')
	check "ethtool -l: at most 8 combined ($nmax)" test "$nmax" = 8
	e=$(errno_of ethtool -L "$DUT_IF" combined $((nmax + 1)))
	check "combined $((nmax + 1)) (more than the queue pairs) -> EINVAL ($e)" \
		sh -c "echo '$e' | grep -q 'Invalid argument'"
	e=$(errno_of ethtool -L "$DUT_IF" other 0)
	check "other 0 (the link vector) -> EINVAL ($e)" sh -c "echo '$e' | grep -q 'Invalid argument'"
	check "refused changes left combined 1" test "$(comb)/$(nqueues rx)" = 1/1
	# Buffers the device holds on each RX ring from queue $nq on:
	# (RDT - RDH) mod the ring's descriptors (RDLEN / 16).
	posted_spare() {
		local q o=""
		for ((q = nq; q < nmax; q++)); do
			o+=" $((0xc008 + 0x40 * q)) $((0xc010 + 0x40 * q)) $((0xc018 + 0x40 * q))"
		done
		bar_read $o | paste - - - | awk '{ n = $1 / 16; printf "%d ", ($3 - $2 + n) % n }'
	}
	if [ "$nmax" -gt "$nq" ]; then
		r=$(posted_spare)
		check "queues $nq..$((nmax - 1)), out of use since the rings were built: no buffers posted ($r)" \
			sh -c "[ $(echo $r | wc -w) = $((nmax - nq)) ] && [ -z \"\$(echo '$r' | tr -d ' 0')\" ]"
		ethtool -L "$DUT_IF" combined "$nmax"
		r=$(posted_spare)
		check "combined $nmax: $nmax queues, RSS over all of them, the new RX rings filled ($r)" sh -c \
			"[ $(comb)/$(nqueues rx)/$(nqueues tx) = $nmax/$nmax/$nmax ] &&
			 [ \"$(indir | tr ' ' '\n' | sort -u | grep -c .)\" = $nmax ] &&
			 [ $(echo $r | wc -w) = $((nmax - nq)) ] && ! echo '$r' | tr ' ' '\n' | grep -qx 0"
		check "combined $nmax: pings and 16 MB peer -> DUT intact" traffic
	fi
	ethtool -L "$DUT_IF" combined "$nq"
	check "combined $nq again: $nq queues, RSS table spread over them, MRQC on" sh -c \
		"[ $(comb)/$(nqueues rx) = $nq/$nq ] && [ $(mrqc) != 0 ] &&
		 [ \"$(indir | tr ' ' '\n' | sort -u | grep -c .)\" = $nq ]"
	ethtool -X "$DUT_IF" weight 1 0
	ethtool -L "$DUT_IF" combined 1
	check "combined 1 with a user RSS table on queue 0 only: accepted, the table kept" \
		test "$(comb)/$(indir | tr ' ' '\n' | sort -u | tr -d '\n')" = 1/0
	ethtool -L "$DUT_IF" combined "$nq"
	check "combined $nq again: the user's table still on queue 0 only" \
		test "$(comb)/$(indir | tr ' ' '\n' | sort -u | tr -d '\n')" = $nq/0
	ethtool -X "$DUT_IF" weight 0 1
	e=$(errno_of ethtool -L "$DUT_IF" combined 1)
	check "combined 1 with a user RSS table naming queue 1 -> EINVAL, table too small ($e)" \
		sh -c "echo '$e' | grep -q 'too low for existing indirection table (1)' && [ $(comb) = $nq ]"
	ethtool -X "$DUT_IF" default
	check "ethtool -L kept the link (no carrier change)" \
		test "$(cat /sys/class/net/$DUT_IF/carrier_changes)" = "$carrier0"
	l_under_traffic() {	# -L back and forth while 16 MB cross peer -> DUT
		head -c 16M /run/igbt/blob > /run/igbt/eth16
		( for i in 1 2 3 4 5; do
			ethtool -L "$DUT_IF" combined 1; sleep 0.3
			ethtool -L "$DUT_IF" combined "$nq"; sleep 0.3
		done ) &
		local flip=$!
		SRC=/run/igbt/eth16 WANT=$(sha256sum < /run/igbt/eth16) PORT=5021 bulk rx
		local rc=$?
		wait $flip
		return $rc
	}
	check "ethtool -L 1 <-> $nq ten times during a 16 MB transfer: data intact" l_under_traffic
	check "after -L under traffic: combined $nq, carrier unchanged" \
		test "$(comb)/$(cat /sys/class/net/$DUT_IF/carrier_changes)" = "$nq/$carrier0"

	# NAPI in netdev netlink: each queue names its NAPI, each NAPI its IRQ;
	# the IDs and per-NAPI settings survive -L and down/up.
	queue_napis() {	# rx0=ID tx0=ID ... for the device's queues
		"${YNL[@]}" --dump queue-get --json "{\"ifindex\": $ifindex}" | python3 -c '
import json, sys
print(" ".join(sorted("%s%d=%s" % (q["type"], q["id"], q.get("napi-id")) for q in json.load(sys.stdin))))'
	}
	napis() {	# ID:IRQ:DEFER:GRO-FLUSH ... for the device's NAPI instances
		"${YNL[@]}" --dump napi-get --json "{\"ifindex\": $ifindex}" | python3 -c '
import json, sys
print(" ".join(sorted("%d:%s:%s:%s" % (n["id"], n.get("irq"), n.get("defer-hard-irqs"),
                                       n.get("gro-flush-timeout")) for n in json.load(sys.stdin))))'
	}
	napi_linked() {
		local q n id
		q=$(queue_napis); n=$(napis)
		note "queues: $q; NAPIs (id:irq:defer:gro-flush): $n"
		echo "$q" | grep -q "=None" && { echo "a queue without its NAPI"; return 1; }
		echo " $n" | grep -q ":None:\| [0-9]*:0:" && { echo "a NAPI without its IRQ"; return 1; }
		for id in $(echo "$q" | tr ' ' '\n' | sed 's/.*=//' | sort -u); do
			echo " $n" | grep -q " $id:" || { echo "queue NAPI $id not in napi-get"; return 1; }
		done
		# One instance per queue pair, in use or not; the link vector's has no ID
		# and is not listed.
		[ "$(echo "$q" | wc -w)" = $((2 * nq)) ] && [ "$(echo "$n" | wc -w)" = "$nmax" ]
	}
	check "netlink: every queue linked to its NAPI, every NAPI to its IRQ" napi_linked
	napi_persist() {
		local id q0 n0 q1 n1
		id=$(queue_napis | tr ' ' '\n' | sed -n 's/^rx1=//p')
		[ -n "$id" ] || { echo "no NAPI for rx queue 1"; return 1; }
		"${YNL[@]}" --do napi-set --json "{\"id\": $id, \"defer-hard-irqs\": 7, \"gro-flush-timeout\": 20000}" >/dev/null ||
			{ echo "napi-set failed"; return 1; }
		q0=$(queue_napis); n0=$(napis)
		echo " $n0" | grep -q " $id:[0-9][0-9]*:7:20000" || { echo "settings not applied: $n0"; return 1; }
		ethtool -L "$DUT_IF" combined 1 && ethtool -L "$DUT_IF" combined "$nq" &&
			ip link set "$DUT_IF" down && ip link set "$DUT_IF" up && wait_carrier "$DUT_IF" 1
		q1=$(queue_napis); n1=$(napis)
		note "NAPIs before: $n0; after: $n1"
		[ "$q0" = "$q1" ] || { echo "queue NAPIs changed: $q0 -> $q1"; return 1; }
		echo " $n1" | grep -q " $id:[0-9][0-9]*:7:20000" || { echo "settings of $id lost: $n1"; return 1; }
		traffic
	}
	napi_persist_reset() {	# napi_persist, then the NAPI's settings back to 0 whatever happened
		local rc id
		napi_persist
		rc=$?
		id=$(queue_napis | tr ' ' '\n' | sed -n 's/^rx1=//p')
		[ -z "$id" ] || "${YNL[@]}" --do napi-set --json "{\"id\": $id, \"defer-hard-irqs\": 0, \"gro-flush-timeout\": 0}" >/dev/null
		return $rc
	}
	check "NAPI IDs and settings (defer-hard-irqs 7, gro-flush-timeout 20 us) survive -L 1/$nq and down/up" napi_persist_reset
fi

# --- the board user's diagnostics: -r, -p, -e, -t --------------------------
nway() {
	local c0 c1 i
	c0=$(cat /sys/class/net/$DUT_IF/carrier_changes)
	ethtool -r "$DUT_IF" || return 1
	for i in $(seq 1 100); do
		c1=$(cat /sys/class/net/$DUT_IF/carrier_changes)
		[ $((c1 - c0)) -ge 2 ] && [ "$(cat /sys/class/net/$DUT_IF/carrier)" = 1 ] && break
		sleep 0.1
	done
	note "ethtool -r: carrier changes $c0 -> $c1"
	[ $((c1 - c0)) = 2 ] && ping -c 3 -i 0.2 -W 2 $PEER_IP >/dev/null
}
check "ethtool -r renegotiates: the link goes down and comes back, pings" nway
identify() {	# LEDCTL forced on and off in turn during ethtool -p, as it was after
	local before seen out
	before=$(bar_read 0xe00)
	# Sampled every 10 ms for as long as it runs (0.5 s on, 0.5 s off).
	out=$(bar_watch 0xe00 ethtool -p "$DUT_IF" 3)
	seen=$(echo "$out" | head -1)
	[ "$(echo "$out" | tail -1)" = 0 ] || { echo "ethtool -p failed"; return 1; }
	note "LEDCTL seen during ethtool -p: $seen; before $before, after $(bar_read 0xe00)"
	case " $seen " in *" $((0x0e0e0e0e)) "*) ;; *) echo "LEDs never on"; return 1;; esac
	case " $seen " in *" $((0x0f0f0f0f)) "*) ;; *) echo "LEDs never off"; return 1;; esac
	[ "$(bar_read 0xe00)" = "$before" ]
}
check "ethtool -p blinks the LEDs (LEDCTL on and off), puts LEDCTL back" identify
nvm_dump() {
	local len dump sum part
	len=$(ethtool -i "$DUT_IF" | awk '/^supports-eeprom-access:/ {print $2}')
	[ "$len" = yes ] || { echo "no EEPROM access"; return 1; }
	ethtool -e "$DUT_IF" raw on > /run/igbt/nvm || return 1
	len=$(stat -c %s /run/igbt/nvm)
	# QEMU's NVM: 256 words; words 0..2 the MAC address, 0..0x3f add up to 0xbaba.
	[ "$len" = 512 ] || { echo "$len bytes"; return 1; }
	[ "$(od -An -tx1 -N6 /run/igbt/nvm | tr -d ' \n')" = "$(echo "$DUT_MAC" | tr -d :)" ] ||
		{ echo "words 0..2 are not the MAC address"; return 1; }
	sum=$(od -An -tu2 -v -N128 /run/igbt/nvm | awk '{for (i = 1; i <= NF; i++) s += $i} END {print s % 65536}')
	[ "$sum" = $((0xbaba)) ] || { echo "checksum words add up to $sum"; return 1; }
	part=$(ethtool -e "$DUT_IF" raw on offset 3 length 5 | od -An -tx1 | tr -d ' \n')
	[ "$part" = "$(od -An -tx1 -j3 -N5 /run/igbt/nvm | tr -d ' \n')" ] || { echo "odd offset: $part"; return 1; }
}
check "ethtool -e: the NVM (512 bytes: MAC address, checksum 0xbaba), and from an odd offset" nvm_dump
selftest() {	# selftest online|offline: ethtool -t passes, the interface keeps working
	local out r0 c0
	r0=$(ethtool_value reset_count)
	c0=$(cat /sys/class/net/$DUT_IF/carrier_changes)
	out=$(ethtool -t "$DUT_IF" "$1") || { echo "$out"; return 1; }
	note "ethtool -t $1: $(echo "$out" | tr '\n\t' '  ')"
	echo "$out" | grep -q "The test result is PASS" || return 1
	[ "$(echo "$out" | grep -c 'test.*[[:space:]]0$')" = 4 ] || return 1
	wait_carrier "$DUT_IF" 1 && traffic || return 1
	[ "$(ethtool_value reset_count)" = "$r0" ] || { echo "a recovery reset ran"; return 1; }
	if [ "$1" = online ]; then
		[ "$(cat /sys/class/net/$DUT_IF/carrier_changes)" = "$c0" ] || { echo "the link went down"; return 1; }
	fi
}
check "ethtool -t online: the link test passes, the link stays, traffic intact" selftest online
check "ethtool -t offline: register, NVM, interrupt and link tests pass; interface back, traffic intact" selftest offline

teardown_pair
