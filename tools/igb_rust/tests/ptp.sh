# SPDX-License-Identifier: GPL-2.0
# The PTP hardware clock (the 82576's SYSTIM): ethtool -T reports it, the
# kernel's testptp reads, sets, steps and steers it through /dev/ptpN, the
# system/PHC offset ioctls work, bad requests get their errno, and the clock
# keeps running across down/up and a MAC reset; rmmod takes it away cleanly.
# QEMU's SYSTIM runs on the guest's virtual clock, so rates are compared with
# the system's own clock over the same interval.

setup_pair v4only
TESTPTP=$IGB_RUST_BUILD/testptp

tsinfo() { ethtool -T "$DUT_IF" 2>&1; }
phc=$(tsinfo | awk -F': ' '/PTP Hardware Clock/ {print $2}')
check "ethtool -T: a PTP hardware clock ($phc) and software TX timestamps" \
	sh -c "[ -n '$phc' ] && [ '$phc' != none ] && ethtool -T $DUT_IF | grep -q software-transmit"
PTP=/dev/ptp$phc
check "$PTP is igb_rust's clock (sysfs clock_name igb_rust, under the DUT)" \
	sh -c "[ -c $PTP ] && [ \"\$(cat /sys/class/ptp/ptp$phc/clock_name)\" = igb_rust ] &&
		[ \"\$(readlink -f /sys/class/ptp/ptp$phc/device)\" = \"\$(readlink -f /sys/bus/pci/devices/$DUT)\" ]"
check "testptp -c: maximum frequency adjustment 999999881 ppb" \
	sh -c "$TESTPTP -d $PTP -c | grep -q '999999881 maximum frequency adjustment (ppb)'"

phc_s() {	# the clock's time in seconds (with fraction), from testptp -g
	$TESTPTP -d $PTP -g | awk '/clock time:/ {print $3}'
}
sys_s() { date +%s.%N; }
# rate_of: how many seconds the clock advanced per second of CLOCK_REALTIME
# over a 1 s interval.
rate_of() {
	local p0 s0 p1 s1
	p0=$(phc_s); s0=$(sys_s)
	sleep 1
	p1=$(phc_s); s1=$(sys_s)
	awk -v a="$p0" -v b="$p1" -v c="$s0" -v d="$s1" 'BEGIN {printf "%.3f", (b - a) / (d - c)}'
}
in_range() { awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN {exit !(v >= lo && v <= hi)}'; }
# Rates are the production kernel's to check: the debug kernel runs the same
# code, three times slower, for its sanitizers.
rate_check() {	# rate_check NAME LO HI: the clock's rate (shown after NAME) in [LO, HI]
	[ "${IGB_RUST_KVARIANT:-}" != debug ] || return 0
	local r
	r=$(rate_of)
	check "$1 ($r)" in_range "$r" "$2" "$3"
}

$TESTPTP -d $PTP -T 1000000 >/dev/null
t=$(phc_s)
check "testptp -T 1000000 sets the clock: it reads 1000000 s and a little ($t)" in_range "$t" 1000000 1000030
rate_check "the clock runs at the system clock's rate (s per s)" 0.9 1.1
$TESTPTP -d $PTP -t 100 >/dev/null
t2=$(phc_s)
check "testptp -t 100 steps it 100 s forward ($t -> $t2)" \
	awk -v a="$t" -v b="$t2" 'BEGIN {exit !(b - a >= 100 && b - a < 130)}'
$TESTPTP -d $PTP -t -50 >/dev/null
t3=$(phc_s)
check "testptp -t -50 steps it 50 s back ($t2 -> $t3)" \
	awk -v a="$t2" -v b="$t3" 'BEGIN {exit !(a - b > 40 && a - b <= 50)}'
$TESTPTP -d $PTP -n 500000000 >/dev/null
t4=$(phc_s)
check "testptp -n 500000000 steps it half a second forward ($t3 -> $t4)" \
	awk -v a="$t3" -v b="$t4" 'BEGIN {exit !(b - a >= 0.5 && b - a < 10)}'
$TESTPTP -d $PTP -f 500000000 >/dev/null
rate_check "testptp -f 500000000 (+50%): the clock runs 1.5 times as fast" 1.35 1.65
inc=$(( $(bar_read $((0xb608))) & 0xffffff ))
check "TIMINCA keeps the nominal 8388608 = 16 << 19: the rate is the timecounter's ($inc)" test "$inc" = 8388608
$TESTPTP -d $PTP -f -250000000 >/dev/null
rate_check "testptp -f -250000000 (-25%): 0.75 times as fast" 0.6 0.9
$TESTPTP -d $PTP -f 0 >/dev/null
rate_check "testptp -f 0: back to the nominal rate" 0.9 1.1
inc=$(( $(bar_read $((0xb608))) & 0xffffff ))
check "TIMINCA still 8388608 ($inc)" test "$inc" = 8388608
e=$($TESTPTP -d $PTP -f 1000000000 2>&1)
check "testptp -f 1000000000 (over max_adj) -> ERANGE ($e)" \
	sh -c "echo '$e' | grep -q 'Numerical result out of range'"
inc=$(( $(bar_read $((0xb608))) & 0xffffff ))
check "the refused adjustment left TIMINCA alone ($inc)" test "$inc" = 8388608
rate_check "  ... and the rate" 0.9 1.1
e=$($TESTPTP -d $PTP -T -5 2>&1)
check "testptp -T -5 (before the epoch) -> EINVAL ($e)" sh -c "echo '$e' | grep -q 'Invalid argument'"
out=$($TESTPTP -d $PTP -k 5 2>&1)
check "testptp -k 5: PTP_SYS_OFFSET gives 5 samples" \
	sh -c "echo '$out' | grep -q 'system and phc clock time offset request okay' &&
		[ \$(echo '$out' | grep -c 'system time:') -ge 5 ]"
out=$($TESTPTP -d $PTP -x 5 2>&1)
check "testptp -x 5: PTP_SYS_OFFSET_EXTENDED (system time around the SYSTIM read) gives 5 samples" \
	sh -c "echo '$out' | grep -q 'extended timestamp request returned 5 samples'"

# SYSTIM wraps after 2^45 ns (9.8 hours). QEMU adds what TIMADJH and TIMADJL
# hold to its SYSTIM when TIMADJH is written: bring it to 1.5 s before the wrap.
systim() { local v; v=($(bar_read $((0xb600)) $((0xb604)))); echo $(( (v[1] << 32) | v[0] )); }
add=$(( -$(systim) - (1500000000 << 19) ))
bar_write $((0xb60c)) $(( add & 0xffffffff ))
bar_write $((0xb610)) $(( (add >> 32) & 0xffffffff ))
$TESTPTP -d $PTP -T 3000000 >/dev/null
s0=$(sys_s)
sleep 3
t=$(phc_s)
s1=$(sys_s)
after=$(systim)
check "across SYSTIM's wrap the clock runs on (3000000 + $(awk -v a="$s0" -v b="$s1" 'BEGIN {printf "%.2f", b - a}') s of system time: $t; SYSTIM now $after)" \
	sh -c "[ $after -ge 0 ] && [ $after -lt \$((10000000000 << 19)) ] &&
		awk -v t=$t -v a=$s0 -v b=$s1 'BEGIN {d = t - 3000000 - (b - a); exit !(d > -0.5 && d < 0.5)}'"

# The MAC reset of down/up clears TIMINCA: the clock goes on at the system's rate.
$TESTPTP -d $PTP -T 2000000 >/dev/null
s0=$(sys_s)
ip link set "$DUT_IF" down
ip link set "$DUT_IF" up
wait_carrier "$DUT_IF" 1
t=$(phc_s)
s1=$(sys_s)
r=$(rate_of)
check "after down/up (a MAC reset) the clock went on: 2000000 + the $(awk -v a="$s0" -v b="$s1" 'BEGIN {printf "%.2f", b - a}') s that passed ($t), at the nominal rate ($r)" \
	sh -c "awk -v t=$t -v a=$s0 -v b=$s1 'BEGIN {d = t - 2000000 - (b - a); exit !(d > -0.5 && d < 0.5)}' &&
		awk -v v=$r 'BEGIN {exit !(v >= 0.9 && v <= 1.1)}'"
check "pings cross with the clock running" ping -q -c 3 -i 0.2 -W 2 $PEER_IP

# --- hardware timestamps of frames ------------------------------------------
# QEMU latches SYSTIM for a TX frame whose descriptor asks for it, and for a
# received PTP v2 Sync message over Ethernet (the EtherType filter); the 82576
# holds one timestamp each way until it is read.
HWTS=$IGB_RUST_BUILD/hwtstamp
ts=$(ethtool -T "$DUT_IF" 2>&1)
check "ethtool -T: hardware TX, RX and raw clock; TX types off and on; RX filters none, PTP v1 L4 Sync and Delay_Req, PTP v2 events" \
	sh -c "echo '$ts' | grep -q hardware-transmit && echo '$ts' | grep -q hardware-receive &&
		echo '$ts' | grep -q hardware-raw-clock &&
		[ \"\$(echo '$ts' | sed -n '/Hardware Transmit Timestamp Modes/,/Hardware Receive Filter Modes/p' | grep -cE '^\s+(off|on)')\" = 2 ] &&
		[ \"\$(echo '$ts' | sed -n '/Hardware Receive Filter Modes/,\$p' | grep -cE '^\s+(none|ptpv1-l4-sync|ptpv1-l4-delay-req|ptpv2-event)')\" = 4 ]"
check "SIOCGHWTSTAMP: nothing timestamped yet (tx 0 rx 0)" sh -c "[ \"\$($HWTS get $DUT_IF)\" = 'tx 0 rx 0' ]"
e1=$($HWTS config "$DUT_IF" 2 0)
e2=$($HWTS config "$DUT_IF" 1 1)
check "SIOCSHWTSTAMP refuses one-step TX ($e1) and all-frames RX ($e2) with ERANGE, changing nothing" \
	sh -c "[ '$e1' = 'error 34' ] && [ '$e2' = 'error 34' ] && [ \"\$($HWTS get $DUT_IF)\" = 'tx 0 rx 0' ]"
a=$($HWTS config "$DUT_IF" 1 9)
check "SIOCSHWTSTAMP tx on, rx PTP v2 L2 events: widened to PTP v2 events ($a), as SIOCGHWTSTAMP reports" \
	sh -c "[ '$a' = 'tx 1 rx 12' ] && [ \"\$($HWTS get $DUT_IF)\" = 'tx 1 rx 12' ]"
# Every stamp between the clock's readings around its frame, and increasing.
stamps_ok() {	# stamps_ok FILE N KIND
	awk -v n="$2" -v k="$3" '
		$1 != k || $3 == "none" { bad = 1; next }
		k == "tx" && !($4 <= $3 && $3 <= $5) { bad = 1 }
		k == "rx" && !($3 <= $4 && $4 - $3 < 2000000000) { bad = 1 }
		$3 <= last { bad = 1 } { last = $3; seen++ }
		END { exit bad || seen != n }' "$1"
}
out=$OUT/hwtstamp
mkdir -p "$out"
$HWTS send "$DUT_IF" "$PEER_MAC" 5 "$PTP" > "$out/tx" 2>&1
check "TX: 5 PTP Sync frames sent, 5 hardware timestamps, each between the clock's readings around its send ($(tr '\n' ';' < "$out/tx" | cut -c1-120))" \
	stamps_ok "$out/tx" 5 tx
$HWTS recv "$DUT_IF" 5 "$PTP" 20 > "$out/rx" 2>&1 &
rpid=$!
sleep 0.5
ip netns exec $NS "$HWTS" send "$PEER_IF" "$DUT_MAC" 5
wait $rpid
check "RX: 5 PTP Sync frames from the peer, 5 hardware timestamps, each at most 2 s before the clock's reading after it ($(tr '\n' ';' < "$out/rx" | cut -c1-120))" \
	stamps_ok "$out/rx" 5 rx
# Under bulk traffic (a ping flood both ways) each frame still gets its stamp
# from the vector's poll, and none times out.
ip netns exec $NS ping -q -f -w 2 $DUT_IP > /dev/null 2>&1 &
fpid=$!
ping -q -f -w 2 $PEER_IP > /dev/null 2>&1 &
$HWTS send "$DUT_IF" "$PEER_MAC" 5 "$PTP" > "$out/tx-bulk" 2>&1
wait $fpid; wait
tmo=$(ethtool_value tx_hwtstamp_timeouts)
skp=$(ethtool_value tx_hwtstamp_skipped)
check "TX under a ping flood: 5 stamps in order, tx_hwtstamp_timeouts $tmo, tx_hwtstamp_skipped $skp" \
	sh -c "awk '\$3 == \"none\" { b = 1 } END { exit b || NR != 5 }' $out/tx-bulk && [ '$tmo' = 0 ] && [ '$skp' = 0 ]"
# A PTP frame the port does not accept (to another host's address) still
# latches RXSTMP in QEMU's model, which stamps before it filters addresses (the
# 82576 too drops frames it stamped, an erratum C igb handles alike): no other
# frame is stamped until the watchdog, after two runs, frees it.
cleared() { ethtool_value rx_hwtstamp_cleared; }
c0=$(cleared)
ip netns exec $NS "$HWTS" send "$PEER_IF" 02:00:00:00:00:99 1
for i in $(seq 30); do [ "$(cleared)" != "$c0" ] && break; sleep 0.5; done
c1=$(cleared)
$HWTS recv "$DUT_IF" 2 "$PTP" 20 > "$out/rx-after" 2>&1 &
rpid=$!
sleep 0.5
ip netns exec $NS "$HWTS" send "$PEER_IF" "$DUT_MAC" 2
wait $rpid
check "a timestamp latched for a frame the port dropped is freed by the watchdog (rx_hwtstamp_cleared $c0 -> $c1)" \
	test "$c1" = $((c0 + 1))
check "  ... and the next frames are stamped again ($(tr '\n' ';' < "$out/rx-after" | cut -c1-100))" \
	stamps_ok "$out/rx-after" 2 rx
# The configuration outlives the MAC reset of down/up.
ip link set "$DUT_IF" down
ip link set "$DUT_IF" up
wait_carrier "$DUT_IF" 1
$HWTS send "$DUT_IF" "$PEER_MAC" 2 "$PTP" > "$out/tx-reset" 2>&1
check "after down/up: still tx 1 rx 12" sh -c "[ \"\$($HWTS get $DUT_IF)\" = 'tx 1 rx 12' ]"
check "  ... and TX frames are stamped, between the clock's readings ($(tr '\n' ';' < "$out/tx-reset" | cut -c1-80))" \
	stamps_ok "$out/tx-reset" 2 tx
$HWTS config "$DUT_IF" 0 0 > /dev/null
$HWTS recv "$DUT_IF" 2 "$PTP" 20 > "$out/rx-off" 2>&1 &
rpid=$!
sleep 0.5
ip netns exec $NS "$HWTS" send "$PEER_IF" "$DUT_MAC" 2
wait $rpid
check "timestamping off again: received frames carry no hardware timestamp ($(tr '\n' ';' < "$out/rx-off"))" \
	sh -c "[ \"\$(grep -c ' none\$' $out/rx-off)\" = 2 ]"

# --- ptp4l and phc2sys --------------------------------------------------------
# igb_rust's port, slave only with hardware timestamps, follows the peer's C igb
# port. QEMU timestamps one kind of PTP message on RX (TSYNCRXCFG's message ID,
# 0: Sync), so a master with hardware timestamps would never see its
# Delay_Req messages stamped: the peer's ptp4l uses software timestamps (its
# time is the guest's CLOCK_REALTIME). The slave needs exactly what QEMU does:
# Sync stamped on RX, Delay_Req on TX. Under TCG the TX timestamp can take more
# than ptp4l's default 1 ms to reach the socket.
# Each runs until it reported enough locked updates (at most 30 s).
until_locked() {	# until_locked LOG N
	local i
	for i in $(seq 60); do
		[ "$(grep -c ' s2 ' "$1")" -ge "$2" ] && break
		sleep 0.5
	done
}
ip netns exec $NS ptp4l -i "$PEER_IF" -2 -S -m --priority1=1 --uds_address=/run/ptp4l-peer \
	--logSyncInterval=-3 --logAnnounceInterval=-2 > "$out/ptp4l-master" 2>&1 &
mpid=$!
ptp4l -i "$DUT_IF" -2 -H -s -m --summary_interval=-3 --tx_timestamp_timeout=200 \
	> "$out/ptp4l-slave" 2>&1 &
spid=$!
until_locked "$out/ptp4l-slave" 12
# The master first: its Sync messages to a group the slave left would latch
# RXSTMP for frames the port drops (see above).
kill $mpid 2>/dev/null; wait $mpid 2>/dev/null
kill $spid 2>/dev/null; wait $spid 2>/dev/null
locked=$(grep -c 'master offset .* s2 ' "$out/ptp4l-slave")
check "ptp4l: igb_rust's port becomes SLAVE with hardware timestamps and locks (s2) to the peer's clock ($locked locked updates; last: $(grep ' s2 ' "$out/ptp4l-slave" | tail -1 | cut -d' ' -f2-))" \
	sh -c "grep -q 'to SLAVE on MASTER_CLOCK_SELECTED' $out/ptp4l-slave && [ $locked -ge 12 ] &&
		! grep -qE 'SYNCHRONIZATION_FAULT|timed out while polling for tx timestamp|without timestamp|driver rejected' $out/ptp4l-slave"
offs=$(grep 'master offset .* s2 ' "$out/ptp4l-slave" | tail -10 | awk '{for (i = 1; i < NF; i++) if ($i == "offset") {v = $(i + 1); print (v < 0 ? -v : v)}}' | sort -n | tail -1)
check "  ... its offset to the master stays within 20 ms once locked (largest of the last 10: $offs ns; the master's timestamps are software ones under TCG)" \
	sh -c "[ -n '$offs' ] && [ '$offs' -lt 20000000 ]"
# phc2sys steers the system clock to the PHC that ptp4l locked.
phc2sys -s "$DUT_IF" -c CLOCK_REALTIME -O 0 -m -R 8 > "$out/phc2sys" 2>&1 &
ppid=$!
until_locked "$out/phc2sys" 10
kill $ppid 2>/dev/null; wait $ppid 2>/dev/null
n=$(grep -c 'CLOCK_REALTIME phc offset .* s2 ' "$out/phc2sys")
check "phc2sys locks CLOCK_REALTIME to igb_rust's PHC ($n locked updates; last: $(grep ' s2 ' "$out/phc2sys" | tail -1 | cut -d' ' -f2-))" \
	sh -c "[ $n -ge 10 ]"
# The system clock's frequency as it was, for the parts after this one.
phc_ctl CLOCK_REALTIME freq 0 > /dev/null
cnt=$(ethtool -S "$DUT_IF" | awk '$1 ~ /^(tx_hwtstamp_timeouts|tx_hwtstamp_skipped|rx_hwtstamp_cleared):$/ {printf "%s %s ", $1, $2}')
check "in the whole part no TX timestamp timed out or was skipped, and only the RX timestamp above was left latched ($cnt)" \
	sh -c "[ '$cnt' = 'tx_hwtstamp_timeouts: 0 tx_hwtstamp_skipped: 0 rx_hwtstamp_cleared: 1 ' ]"

teardown_pair
rmmod igb_rust
check "rmmod takes the clock away ($PTP gone)" sh -c "[ ! -e /sys/class/ptp/ptp$phc ]"
insmod "$IGB_RUST_KO"
udevadm settle -t 60 2>/dev/null
