# SPDX-License-Identifier: GPL-2.0
# What a board user hits first and QEMU can show: the port's own MAC address,
# TSO over an 802.1Q device, full-size frames behind two VLAN tags, sendfile
# frames sent without a copy, a queue that never stalls under byte queue
# limits and bursts, `ethtool -K rx off` honoured, hardware counters, the
# PHY powered down while down and shared with the firmware, a suspend/resume
# cycle, recovery from PCIe errors (AER) and from a function reset, and a
# stalled TX ring recovered by the watchdog.

setup_pair v4only
mountpoint -q /run/igbt || { mkdir -p /run/igbt && mount -t tmpfs -o size=200m tmpfs /run/igbt; }
dd if=/dev/urandom of=/run/igbt/blob bs=1M count=24 status=none
want_sum=$(sha256sum < /run/igbt/blob)

# --- the port's own address ------------------------------------------------
# QEMU loads each NIC's mac= (scripts/vm.sh sets two non-default ones) into
# its receive address 0 at reset, and into its NVM words 0..2 as well, so
# QEMU cannot tell the two sources apart: this checks that each port gets
# its own address, not a default or the other port's.
check "DUT address and permanent address are its own mac= ($DUT_MAC)" sh -c "
	test \"\$(cat /sys/class/net/$DUT_IF/address)\" = '$DUT_MAC' &&
	ethtool -P $DUT_IF | grep -qi '$DUT_MAC'"
check "the peer's address is its own mac= ($PEER_MAC), not the DUT's" sh -c "
	test \"\$(ip netns exec $NS cat /sys/class/net/$PEER_IF/address)\" = '$PEER_MAC' &&
	test '$PEER_MAC' != '$DUT_MAC'"
flap() { ip link set "$DUT_IF" down && ip link set "$DUT_IF" up && wait_carrier "$DUT_IF" 1; }
mac_after_down() {	# an address set by the user survives ifdown/ifup (the MAC reset on stop)
	local want=02:1b:21:aa:bb:cc rc=0
	ip link set "$DUT_IF" address $want || return 1
	# The MAC reset on ifdown reloads the NVM's address: ifup must program the user's.
	flap
	ip -n $NS neigh replace $DUT_IP lladdr $want dev "$PEER_IF" nud permanent
	ip netns exec $NS ping -c 3 -i 0.2 -W 2 $DUT_IP >/dev/null ||
		{ echo "no traffic to $want after ifdown/ifup"; rc=1; }
	ip link set "$DUT_IF" address "$DUT_MAC"
	flap
	ip -n $NS neigh replace $DUT_IP lladdr "$DUT_MAC" dev "$PEER_IF" nud permanent
	ip netns exec $NS ping -c 3 -i 0.2 -W 2 $DUT_IP >/dev/null ||
		{ echo "no traffic back on $DUT_MAC"; rc=1; }
	return $rc
}
check "a MAC address set by the user still receives after ifdown/ifup" mac_after_down

# --- 802.1Q: TSO and checksum offload behind a tag --------------------------
VDUT_IP=198.51.100.1
VPEER_IP=198.51.100.2
vlan_up() {	# vlan_up: VLAN 100 on both ends
	ip link add link "$DUT_IF" name dut.100 type vlan id 100 &&
	ip -n $NS link add link "$PEER_IF" name peer.100 type vlan id 100 &&
	ip addr add $VDUT_IP/24 dev dut.100 &&
	ip -n $NS addr add $VPEER_IP/24 dev peer.100 &&
	ip link set dut.100 up && ip -n $NS link set peer.100 up
}
vlan_tso() {
	local tso0 drop0 tso1 drop1 rc=0
	tso0=$(ethtool_stat 'tx[0-9]+_tso_packets')
	drop0=$(stat_of "$DUT_IF" tx dropped)
	DUT_IP=$VDUT_IP PEER_IP=$VPEER_IP PORT=5011 bulk tx || { echo "data differs or transfer failed"; rc=1; }
	tso1=$(ethtool_stat 'tx[0-9]+_tso_packets')
	drop1=$(stat_of "$DUT_IF" tx dropped)
	note "TSO frames $tso0 -> $tso1, tx_dropped $drop0 -> $drop1"
	[ "$tso1" -gt "$tso0" ] && [ "$drop1" = "$drop0" ] && [ $rc = 0 ]
}
vlan_bulk_rx() { DUT_IP=$VDUT_IP PEER_IP=$VPEER_IP PORT=5012 bulk rx; }

# --- VLAN offloads: tag stripping (CTRL.VME), insertion, the filter (VFTA) ---
vfta_bit() {	# vfta_bit VID: that VLAN's bit in the DUT's filter table
	echo $(( ($(bar_read $((0x5600 + 4 * ($1 / 32)))) >> ($1 % 32)) & 1 ))
}
ctrl_vme() { echo $(( ($(bar_read 0x0) >> 30) & 1 )); }
vlan_quiet() {	# only test traffic on VLAN 100: no IPv6, static neighbours
	local d
	for d in dut.100; do echo 1 > /proc/sys/net/ipv6/conf/$d/disable_ipv6; done
	ip netns exec $NS sh -c 'echo 1 > /proc/sys/net/ipv6/conf/peer.100/disable_ipv6'
	ip neigh replace $VPEER_IP lladdr "$PEER_MAC" dev dut.100 nud permanent
	ip -n $NS neigh replace $VDUT_IP lladdr "$DUT_MAC" dev peer.100 nud permanent
}
bytes_per_ping() {	# bytes_per_ping rx|tx: what the DUT counts per 100-byte ping frame
	local p0 b0 p1 b1
	p0=$(stat_of "$DUT_IF" $1 packets); b0=$(stat_of "$DUT_IF" $1 bytes)
	if [ $1 = rx ]; then
		ip netns exec $NS ping -q -c 20 -i 0.05 -W 2 -s 100 $VDUT_IP >/dev/null || return 1
	else
		ping -q -c 20 -i 0.05 -W 2 -s 100 $VPEER_IP >/dev/null || return 1
	fi
	p1=$(stat_of "$DUT_IF" $1 packets); b1=$(stat_of "$DUT_IF" $1 bytes)
	[ $((p1 - p0)) = 20 ] || { echo "$((p1 - p0)) packets, not 20"; return 1; }
	echo $(( (b1 - b0) / 20 ))
}
vlan_bulk_both() {
	DUT_IP=$VDUT_IP PEER_IP=$VPEER_IP PORT=5014 bulk tx && vlan_bulk_rx
}
vlan_offloads() {
	vlan_quiet
	local k
	k=$(ethtool -k "$DUT_IF")
	check "ethtool -k: rx-vlan-offload and tx-vlan-offload on, rx-vlan-filter on [fixed]" sh -c \
		"echo '$k' | grep -q 'rx-vlan-offload: on$' && echo '$k' | grep -q 'tx-vlan-offload: on$' &&
		 echo '$k' | grep -q 'rx-vlan-filter: on \\[fixed\\]'"
	check "CTRL.VME set; VLAN 100 and 0 in VFTA, 200 not" \
		test "$(ctrl_vme)/$(vfta_bit 100)/$(vfta_bit 0)/$(vfta_bit 200)" = 1/1/1/0
	# A 100-byte ping is a 142-byte frame, 146 with its tag: stripped on receive, inserted
	# on transmit, the DUT counts 142; done in software, 146.
	local rx tx
	rx=$(bytes_per_ping rx); tx=$(bytes_per_ping tx)
	check "offloaded: tag stripped on receive and inserted on transmit (rx $rx, tx $tx bytes per ping)" \
		test "$rx/$tx" = 142/142
	ethtool -K "$DUT_IF" rxvlan off txvlan off
	rx=$(bytes_per_ping rx); tx=$(bytes_per_ping tx)
	check "rxvlan off txvlan off: CTRL.VME clear, tags in the frame both ways (rx $rx, tx $tx)" \
		test "$(ctrl_vme)/$rx/$tx" = 0/146/146
	check "rxvlan off txvlan off: 24 MB over VLAN 100 each way intact" vlan_bulk_both
	ethtool -K "$DUT_IF" rxvlan on txvlan on
	check "rxvlan on txvlan on again: CTRL.VME set, 142 bytes per ping" \
		test "$(ctrl_vme)/$(bytes_per_ping rx)" = 1/142
	# VLAN 200 exists on the peer only: the filter drops its frames in the MAC.
	ip -n $NS link add link "$PEER_IF" name peer.200 type vlan id 200 &&
	ip -n $NS addr add 203.0.113.2/24 dev peer.200 && ip -n $NS link set peer.200 up &&
	ip -n $NS neigh replace 203.0.113.1 lladdr "$DUT_MAC" dev peer.200 nud permanent
	vlan200_rx() {	# frames of 10 pings on VLAN 200 the DUT received
		local p0
		p0=$(stat_of "$DUT_IF" rx packets)
		ip netns exec $NS ping -q -c 10 -i 0.05 -W 1 203.0.113.1 >/dev/null
		echo $(( $(stat_of "$DUT_IF" rx packets) - p0 ))
	}
	local n
	n=$(vlan200_rx)
	check "VLAN 200 (not on the DUT): filtered out by the MAC ($n frames received)" test "$n" = 0
	ip link set "$DUT_IF" promisc on
	n=$(vlan200_rx)
	check "promiscuous: VLAN 200 frames received ($n of 10)" test "$n" -ge 10
	ip link set "$DUT_IF" promisc off
	n=$(vlan200_rx)
	check "promiscuous off: VLAN 200 filtered again ($n)" test "$n" = 0
	ip -n $NS link del peer.200
	ip link set "$DUT_IF" down && ip link set "$DUT_IF" up && wait_carrier "$DUT_IF" 1
	ip link set dut.100 up
	vlan_quiet
	check "after down/up: VFTA and CTRL.VME restored ($(vfta_bit 100)/$(ctrl_vme)), ping over VLAN 100" \
		sh -c "[ $(vfta_bit 100)/$(ctrl_vme) = 1/1 ] && ping -c 3 -i 0.2 -W 2 $VPEER_IP >/dev/null"
}
if check "VLAN 100 on both ends" vlan_up; then
	check "vlan device inherits TSO" sh -c "ethtool -k dut.100 | grep -q 'tcp-segmentation-offload: on'"
	check "ping over VLAN 100 both ways" sh -c "ping -c 3 -i 0.2 -W 2 $VPEER_IP >/dev/null &&
		ip netns exec $NS ping -c 3 -i 0.2 -W 2 $VDUT_IP >/dev/null"
	check "bulk TCP over 802.1Q: TSO used, nothing dropped, 24 MB intact" vlan_tso
	check "bulk TCP over 802.1Q peer -> DUT: 24 MB intact" vlan_bulk_rx
	vlan_offloads
fi
ip link del dut.100 2>/dev/null
ip -n $NS link del peer.100 2>/dev/null
check "VLAN 100 deleted: its VFTA bit cleared" test "$(vfta_bit 100)" = 0

# --- QinQ: full-size frames behind an 802.1ad and an 802.1Q tag -------------
qinq_up() {
	ip link add link "$DUT_IF" name dut.s type vlan proto 802.1ad id 20 &&
	ip link add link dut.s name dut.sc type vlan id 30 &&
	ip -n $NS link add link "$PEER_IF" name peer.s type vlan proto 802.1ad id 20 &&
	ip -n $NS link add link peer.s name peer.sc type vlan id 30 &&
	ip addr add $VDUT_IP/24 dev dut.sc && ip -n $NS addr add $VPEER_IP/24 dev peer.sc &&
	ip link set dut.s up && ip link set dut.sc up &&
	ip -n $NS link set peer.s up && ip -n $NS link set peer.sc up
}
if check "QinQ (802.1ad 20, 802.1Q 30) on both ends" qinq_up; then
	# 1472 bytes of ICMP payload: a 1500-byte IP packet, a 1526-byte frame on the wire.
	check "full-size frames behind two tags arrive (peer -> DUT, 1500-byte IP packets)" \
		ip netns exec $NS ping -c 3 -i 0.2 -W 2 -M do -s 1472 $VDUT_IP
	check "full-size frames behind two tags leave (DUT -> peer)" \
		ping -c 3 -i 0.2 -W 2 -M do -s 1472 $VPEER_IP
fi
ip link del dut.sc 2>/dev/null; ip link del dut.s 2>/dev/null
ip -n $NS link del peer.sc 2>/dev/null; ip -n $NS link del peer.s 2>/dev/null

# --- sendfile: many page fragments per frame, no copy -----------------------
sendfile_tx() {
	local lin0 lin1 sg0 sg1 port=5013 out=/run/igbt/sf.out
	lin0=$(ethtool_stat 'tx[0-9]+_linearized')
	sg0=$(ethtool_stat 'tx[0-9]+_sg_packets')
	ip netns exec $NS timeout 120 socat -u TCP-LISTEN:$port,reuseaddr OPEN:$out,creat,trunc &
	local rx=$!
	wait_listen $port $NS || return 1
	timeout 120 python3 -c '
import socket, sys
s = socket.create_connection((sys.argv[1], int(sys.argv[2])))
with open(sys.argv[3], "rb") as f:
    s.sendfile(f)
s.close()' $PEER_IP $port /run/igbt/blob || { kill $rx; return 1; }
	wait $rx
	lin1=$(ethtool_stat 'tx[0-9]+_linearized')
	sg1=$(ethtool_stat 'tx[0-9]+_sg_packets')
	note "scatter-gather frames $sg0 -> $sg1, linearized $lin0 -> $lin1"
	[ "$(sha256sum < $out)" = "$want_sum" ] || { echo "data differs"; return 1; }
	rm -f $out
	[ "$sg1" -gt "$sg0" ] && [ "$lin1" = "$lin0" ]
}
check "sendfile 24 MB DUT -> peer: intact, no frame linearized" sendfile_tx

# --- byte queue limits with bursts: the queue never stalls ------------------
bql_burst() {
	local q rc=0 sent dtx tx0
	for q in /sys/class/net/$DUT_IF/queues/tx-*/byte_queue_limits; do
		echo 3000 > $q/limit_max
	done
	modprobe pktgen || return 1
	echo rem_device_all > /proc/net/pktgen/kpktgend_0
	echo "add_device $DUT_IF" > /proc/net/pktgen/kpktgend_0
	for c in "count 20000" "pkt_size 1000" "burst 32" "clone_skb 0" \
		"dst $PEER_IP" "dst_mac $PEER_MAC" "udp_dst_min 9" "udp_dst_max 9"; do
		echo "$c" > /proc/net/pktgen/$DUT_IF
	done
	tx0=$(stat_of "$DUT_IF" tx packets)
	timeout 120 sh -c 'echo start > /proc/net/pktgen/pgctrl' || { echo "pktgen did not finish in 120 s: the queue stalled"; rc=1; }
	sent=$(sed -n 's/.*pkts-sofar: \([0-9]*\).*/\1/p' "/proc/net/pktgen/$DUT_IF")
	sleep 1
	dtx=$(( $(stat_of "$DUT_IF" tx packets) - tx0 ))
	echo rem_device_all > /proc/net/pktgen/kpktgend_0
	rmmod pktgen
	for q in /sys/class/net/$DUT_IF/queues/tx-*/byte_queue_limits; do
		echo max > $q/limit_max 2>/dev/null || echo 1879048192 > $q/limit_max
	done
	note "pktgen sent $sent, DUT counted $dtx"
	# Every frame pktgen counts as sent leaves (a stray ARP may add one).
	[ $rc = 0 ] && [ "$sent" -ge 20000 ] && [ "$dtx" -ge "$sent" ] &&
		ping -c 3 -i 0.2 -W 2 $PEER_IP >/dev/null
}
check "BQL limit 3000 B, pktgen bursts of 32: all 20000 frames leave, the queue keeps going" bql_burst

# --- ethtool -K rx off / rxhash off -----------------------------------------
# rxN_csum_good counts frames passed on as CHECKSUM_UNNECESSARY.
rx_off() {
	local g0 g1 g2 rc=0
	ethtool -K "$DUT_IF" rx off rxhash off || return 1
	if ethtool -k "$DUT_IF" | grep -q '^rx-checksumming: off'; then
		g0=$(ethtool_stat 'rx[0-9]+_csum_good')
		PORT=5014 bulk rx || { echo "transfer with rx off failed"; rc=1; }
		g1=$(ethtool_stat 'rx[0-9]+_csum_good')
	else
		echo "rx-checksumming still on"; rc=1
	fi
	ethtool -K "$DUT_IF" rx on rxhash on
	PORT=5015 bulk rx || { echo "transfer with rx on failed"; rc=1; }
	g2=$(ethtool_stat 'rx[0-9]+_csum_good')
	note "frames with a verified checksum: rx off $g0 -> $g1, rx on -> $g2"
	[ $rc = 0 ] && [ "$g1" = "$g0" ] && [ "$g2" -gt "$g1" ]
}
check "ethtool -K rx off: no frame passed as checksum-verified, 2 x 24 MB intact; rx on again verifies" rx_off

# --- the MAC's statistics registers ----------------------------------------
# QEMU counts good, multicast and undersized frames (it pads frames shorter
# than 60 bytes and counts them in RUC); they reach ip -s link through
# get_stats64 as multicast and rx_length_errors.
hw_counters() {
	local st=/sys/class/net/$DUT_IF/statistics m0 m1 l0 l1 g0 g1
	m0=$(cat $st/multicast); l0=$(cat $st/rx_length_errors); g0=$(ethtool_stat rx_good_packets)
	ip netns exec $NS ping -q -c 20 -i 0.05 -W 1 -I "$PEER_IF" 224.0.0.1 >/dev/null 2>&1
	ip netns exec $NS ping -q -c 20 -i 0.05 -W 1 -s 0 $DUT_IP >/dev/null || { echo "short pings unanswered"; return 1; }
	sleep 0.5
	m1=$(cat $st/multicast); l1=$(cat $st/rx_length_errors); g1=$(ethtool_stat rx_good_packets)
	note "hardware counters: multicast $m0 -> $m1, length errors $l0 -> $l1, good frames $g0 -> $g1"
	[ $((m1 - m0)) -ge 20 ] && [ $((l1 - l0)) -ge 20 ] && [ $((g1 - g0)) -ge 40 ]
}
check "hardware counters: 20 multicast and 20 undersized frames show in ip -s link, good frames in ethtool -S" hw_counters

# --- the PHY: powered down while the interface is down, shared with firmware --
# BMCR bit 11 (power down) read through MDIC while the driver leaves the PHY
# alone. QEMU's PHY keeps the link regardless, so this checks the register.
bmcr_pdown() { local b; b=$(phy_read 0) || return 2; echo $(( (b >> 11) & 1 )); }
phy_power() {
	local down up
	ip link set "$DUT_IF" down
	down=$(bmcr_pdown)
	ip link set "$DUT_IF" up
	wait_carrier "$DUT_IF" 1 || { echo "no carrier after ifup"; return 1; }
	up=$(bmcr_pdown)
	note "BMCR power-down bit: $down while down, $up while up"
	[ "$down/$up" = 1/0 ] && ping -c 3 -i 0.2 -W 2 $PEER_IP >/dev/null
}
check "PHY powered down by ifdown, powered up by ifup (BMCR.PDOWN 1, then 0), pings" phy_power
# The firmware's bit for this port's PHY in SW_FW_SYNC (bit 17 + port, ports 2
# and 3 at 21 and 22): the driver waits about a second for it, then gives up.
# One python process sets it, starts ifup, and clears it after SECONDS (or
# once ifup is done), so the timing does not include starting python.
fw_hold_during_ifup() {	# fw_hold_during_ifup MASK SECONDS|done: prints ifup's status and error
	python3 -S - "/sys/bus/pci/devices/$DUT/resource0" "$1" "$2" "$DUT_IF" <<'PY'
import mmap, os, struct, subprocess, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_SYNC)
m = mmap.mmap(fd, 0x20000, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
struct.pack_into('<I', m, 0x5b5c, int(sys.argv[2], 0))
p = subprocess.Popen(['ip', 'link', 'set', sys.argv[4], 'up'], stderr=subprocess.PIPE, text=True)
if sys.argv[3] != 'done':
    time.sleep(float(sys.argv[3]))
    struct.pack_into('<I', m, 0x5b5c, 0)
err = p.communicate()[1].strip()
struct.pack_into('<I', m, 0x5b5c, 0)
print(p.returncode, err)
PY
}
fw_holds_phy() {
	local lan fw out rc=0
	lan=$(( ($(bar_read 0x8) >> 2) & 3 ))
	fw=$(( 1 << (lan < 2 ? 17 + lan : 19 + lan) ))
	ip link set "$DUT_IF" down
	kmsg_mark fw_holds_phy
	out=$(fw_hold_during_ifup $fw done)
	note "PHY held throughout: ifup said '$out'"
	case "$out" in 0*) echo "ifup succeeded with the PHY held"; rc=1;; esac
	echo "$out" | grep -q "Device or resource busy" || rc=1
	dmesg_since fw_holds_phy | grep -Eq "cannot power the PHY up: (EBUSY|Error\(16\))" ||
		{ echo "no log line"; rc=1; }
	[ "$(cat /sys/class/net/$DUT_IF/operstate)" = down ] || { echo "operstate $(cat /sys/class/net/$DUT_IF/operstate)"; rc=1; }
	out=$(fw_hold_during_ifup $fw 0.4)
	note "PHY held for 0.4 s: ifup said '$out'"
	[ "$out" = "0 " ] || [ "$out" = 0 ] || { echo "ifup failed although the firmware let go"; rc=1; }
	wait_carrier "$DUT_IF" 1 && ping -c 3 -i 0.2 -W 2 $PEER_IP >/dev/null || { echo "no traffic"; rc=1; }
	[ $(( $(bar_read 0x5b5c) & 0xffff )) = 0 ] || { echo "SW_FW_SYNC software bits left set"; rc=1; }
	return $rc
}
check "firmware holding the PHY (SW_FW_SYNC): ifup fails with EBUSY and a log line; held 0.4 s, ifup waits and works" fw_holds_phy

# --- what a MAC reset leaves as it was, set up again on ifup ------------------
# Firmware, a boot loader or another operating system can leave the PHY
# configured, speed and duplex forced, and receive filters set: a MAC reset
# (the driver's on ifdown) keeps them all. What QEMU shows: STATUS.PHYRA is
# set by a PHY reset (and cleared by writing 0), CTRL.FRCSPD/FRCDPX and the
# filter tables are plain registers. Each is forged while the interface is
# down, then ifup must undo it.
reg_bit() { echo $(( ($(bar_read "$1") >> $2) & 1 )); }	# reg_bit OFFSET BIT
after_reset_init() {
	local rc=0 st ctrl
	ip link set "$DUT_IF" down
	st=$(bar_read 0x8); ctrl=$(bar_read 0x0)
	bar_write 0x8 $(( st & ~0x400 ))		# STATUS.PHYRA cleared: no PHY reset since
	bar_write 0x0 $(( ctrl | 0x1800 ))		# CTRL.FRCSPD | FRCDPX
	bar_write 0x5428 0x33221100			# RAL/RAH[5]: 00:11:22:33:44:55, valid
	bar_write 0x542c $(( 0x80005544 ))
	bar_write 0x54f0 0x77665502			# RAL/RAH[22]: 02:55:66:77:..., valid
	bar_write 0x54f4 $(( 0x80009988 ))
	bar_write $((0x5600 + 4 * 10)) 1		# VFTA: VLAN 320
	bar_write $((0xa000 + 4 * 3)) $(( 0xffffffff ))	# UTA word 3
	note "forged while down: PHYRA $(reg_bit 0x8 10), FRCSPD $(reg_bit 0x0 11), RAH[5].AV $(reg_bit 0x542c 31)"
	ip link set "$DUT_IF" up && wait_carrier "$DUT_IF" 1 || { echo "no carrier"; rc=1; }
	[ "$(reg_bit 0x8 10)" = 1 ] || { echo "no PHY reset (STATUS.PHYRA clear)"; rc=1; }
	[ "$(reg_bit 0x0 11)$(reg_bit 0x0 12)" = 00 ] || { echo "speed or duplex still forced"; rc=1; }
	[ "$(bar_read 0x542c)" = 0 ] && [ "$(bar_read 0x5428)" = 0 ] ||
		{ echo "stale receive address 5 kept"; rc=1; }
	[ "$(bar_read 0x54f4)" = 0 ] || { echo "stale receive address 22 kept"; rc=1; }
	[ "$(bar_read $((0x5600 + 4 * 10)))" = 0 ] || { echo "stale VLAN 320 kept"; rc=1; }
	[ "$(bar_read $((0xa000 + 4 * 3)))" = 0 ] || { echo "stale unicast hash kept"; rc=1; }
	ping -c 3 -i 0.2 -W 2 $PEER_IP >/dev/null || { echo "no ping"; rc=1; }
	return $rc
}
check "ifup after a MAC reset: PHY reset, forced speed/duplex cleared, stale filters emptied" after_reset_init
# PCIe completion timeout: QEMU's GCR starts with resend on and a version 2
# capability (whose Device Control 2 it does not let anyone change).
check "GCR: completion timeout resend off (C igb's setting)" test "$(reg_bit 0x5b00 16)" = 0
# Flow control as C igb: negotiated by default; QEMU's PHY partner
# advertises symmetric pause, so both directions resolve on.
pause_default() {
	local a
	a=$(ethtool -a "$DUT_IF")
	echo "$a" | grep -Eq '^Autonegotiate:[[:space:]]+on' || { echo "$a"; return 1; }
	[ "$(reg_bit 0x0 27)$(reg_bit 0x0 28)" = 11 ] || { echo "CTRL.RFCE/TFCE not both set"; return 1; }
}
check "pause frames negotiated by default (ethtool -a autoneg on), resolved rx and tx with QEMU's partner" pause_default
# SRRCTL.DROP_EN only without RX pause: dropping at a full ring would keep
# the buffer from filling, and XOFF from being sent.
drop_en() {	# drop_en: DROP_EN of every queue, as a string of bits
	local q out=""
	for q in $(seq 0 $(( $(ls -d /sys/class/net/$DUT_IF/queues/rx-* | wc -l) - 1 ))); do
		out+=$(reg_bit $((0xc00c + 0x40 * q)) 31)
	done
	echo "$out"
}
drop_en_follows_pause() {
	local on off rc=0
	on=$(drop_en)
	ethtool -A "$DUT_IF" autoneg off rx off tx off || rc=1
	off=$(drop_en)
	ethtool -A "$DUT_IF" autoneg on rx on tx on || rc=1
	note "DROP_EN per queue: $on with rx pause, $off without, $(drop_en) with it again"
	[ -z "${on//0/}" ] && [ -z "${off//1/}" ] && [ -z "$(drop_en | tr -d 0)" ] && [ $rc = 0 ]
}
check "SRRCTL.DROP_EN clear with rx pause, set without (several queues), clear again" drop_en_follows_pause
wait_carrier "$DUT_IF" 1
# VLAN ID 0 in the filter without the 8021q module: priority-tagged (802.1p)
# frames are received. The peer sends them from a raw socket (a VLAN device
# would load 8021q, which adds VLAN 0 to every device that is up); the DUT
# listens on a UDP port.
prio_tagged() {
	local rc=0 got
	modprobe -r 8021q 2>/dev/null
	grep -q '^8021q ' /proc/modules && { echo "8021q still loaded"; return 1; }
	ip link set "$DUT_IF" down && ip link set "$DUT_IF" up && wait_carrier "$DUT_IF" 1
	[ "$(vfta_bit 0)" = 1 ] || { echo "VLAN 0 not in VFTA"; rc=1; }
	python3 - "$DUT_IP" 5070 > /run/igbt/prio.out <<'PY' &
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind((sys.argv[1], int(sys.argv[2])))
s.settimeout(5)
n = 0
try:
    while n < 5:
        s.recv(100)
        n += 1
except socket.timeout:
    pass
print(n)
PY
	sleep 1.5
	ip netns exec $NS python3 - "$PEER_IF" "$PEER_MAC" "$DUT_MAC" "$PEER_IP" "$DUT_IP" 5070 <<'PY'
import socket, struct, sys
ifname, src, dst, sip, dip, port = sys.argv[1:7]
mac = lambda m: bytes(int(x, 16) for x in m.split(':'))
payload = b'priority-tagged'
udp = struct.pack('!HHHH', 40000, int(port), 8 + len(payload), 0) + payload
ip = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 20 + len(udp), 0, 0, 64, 17, 0,
                 socket.inet_aton(sip), socket.inet_aton(dip))
csum = sum(struct.unpack('!10H', ip))
csum = (csum & 0xffff) + (csum >> 16)
ip = ip[:10] + struct.pack('!H', ~((csum & 0xffff) + (csum >> 16)) & 0xffff) + ip[12:]
# 802.1Q tag: priority 5, VLAN 0.
frame = mac(dst) + mac(src) + struct.pack('!HH', 0x8100, 5 << 13) + struct.pack('!H', 0x0800) + ip + udp
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((ifname, 0))
for _ in range(5):
    s.send(frame)
PY
	wait
	got=$(cat /run/igbt/prio.out)
	note "priority-tagged datagrams received: ${got:-none} of 5"
	[ "${got:-0}" = 5 ] || rc=1
	return $rc
}
check "VLAN 0 admitted without 8021q: priority-tagged (802.1p) frames from the peer received" prio_tagged
# Causes of vector 0 forged through ICS: a device reset (DRSTA), which
# cleared rings and masks on real hardware, makes the driver reset and
# rebuild; DMA out of sync (DOUTSYNC) is counted.
device_reset_cause() {
	local r0 d0 o0 i
	r0=$(ethtool_stat reset_count); d0=$(ethtool_stat device_reset_asserted)
	o0=$(ethtool_stat tx_dma_out_of_sync)
	bar_write 0xc8 $(( 0x10000000 ))
	for i in $(seq 1 50); do [ "$(ethtool_stat tx_dma_out_of_sync)" -gt "$o0" ] && break; sleep 0.1; done
	[ "$(ethtool_stat tx_dma_out_of_sync)" = $((o0 + 1)) ] || { echo "DOUTSYNC not counted"; return 1; }
	[ "$(ethtool_stat reset_count)" = "$r0" ] || { echo "DOUTSYNC reset the device"; return 1; }
	bar_write 0xc8 $(( 0x40000000 ))
	for i in $(seq 1 100); do [ "$(ethtool_stat reset_count)" -gt "$r0" ] && break; sleep 0.1; done
	note "device resets asserted $d0 -> $(ethtool_stat device_reset_asserted), resets $r0 -> $(ethtool_stat reset_count)"
	[ "$(ethtool_stat device_reset_asserted)" = $((d0 + 1)) ] && [ "$(ethtool_stat reset_count)" = $((r0 + 1)) ] ||
		return 1
	wait_carrier "$DUT_IF" 1 && ping -c 3 -i 0.2 -W 2 $PEER_IP >/dev/null
}
check "ICR.DRSTA (device reset) makes the driver reset and recover; DOUTSYNC counted, no reset" device_reset_cause

# --- system sleep ------------------------------------------------------------
# pm_cycle takes one device through the suspend-to-RAM callbacks (to D3hot) and
# back (a whole-system pm_test cycle kills the guest's 9p root). Run on the C
# igb peer first, as a control of the tool itself.
pm_cycle() {	# pm_cycle PCI-DEVICE
	insmod "$PM_CYCLE_KO" dev="$1" || return 1
	rmmod pm_cycle
}
suspend_peer() {
	pm_cycle "$PEER" || return 1
	wait_carrier "$PEER_IF" 1 $NS && wait_carrier "$DUT_IF" 1 &&
		ip netns exec $NS ping -c 3 -i 0.2 -W 2 $DUT_IP >/dev/null
}
check "control: C igb (peer) through a suspend/resume cycle, link back, pings" suspend_peer
suspend_cycle() {
	local r0 pid out i
	r0=$(ethtool_stat reset_count)
	kmsg_mark suspend_cycle
	insmod "$PM_CYCLE_KO" dev="$DUT" sleep_ms=3000 &
	pid=$!
	for i in $(seq 1 100); do
		dmesg_since suspend_cycle | grep -q "$DUT: pm_cycle: suspended" && break
		sleep 0.1
	done
	# Suspended, the interface is detached: ethtool gets ENODEV.
	out=$(ethtool -g "$DUT_IF" 2>&1) && { echo "ethtool answered while suspended"; wait $pid; return 1; }
	wait $pid || { echo "cycle failed"; return 1; }
	rmmod pm_cycle
	echo "$out" | grep -q "No such device" || { echo "ethtool while suspended: $out"; return 1; }
	dmesg_since suspend_cycle | grep -q "$DUT: pm_cycle: suspended (D3hot)" || { echo "not in D3hot"; return 1; }
	dmesg_since suspend_cycle | grep -q "$DUT: pm_cycle: resumed" || { echo "no resume in dmesg"; return 1; }
	wait_carrier "$DUT_IF" 1 || { echo "no carrier after resume"; return 1; }
	[ "$(cat /sys/class/net/$DUT_IF/operstate)" = up ] || { echo "operstate $(cat /sys/class/net/$DUT_IF/operstate)"; return 1; }
	[ "$(bmcr_pdown)" = 0 ] || { echo "PHY left powered down"; return 1; }
	ping -c 3 -i 0.2 -W 2 $PEER_IP >/dev/null || { echo "no ping after resume"; return 1; }
	PORT=5017 bulk tx && PORT=5018 bulk rx || return 1
	[ "$(ethtool_stat reset_count)" = "$r0" ] || { echo "the watchdog had to reset the device"; return 1; }
}
check "suspend/resume cycle (D3hot and back): detached while suspended, link back, 24 MB intact both ways, no reset" suspend_cycle
suspend_down() {	# an interface that was down stays down (PHY off), and comes up later
	local rc=0
	ip link set "$DUT_IF" down
	pm_cycle "$DUT" || rc=1
	[ "$(bmcr_pdown)" = 1 ] || { echo "PHY powered up while down"; rc=1; }
	ip link set "$DUT_IF" up
	wait_carrier "$DUT_IF" 1 && ping -c 3 -i 0.2 -W 2 $PEER_IP >/dev/null && [ $rc = 0 ]
}
check "suspend/resume while down: stays down with the PHY off, then comes up and pings" suspend_down
# Wake-on-LAN. Whether the bus can wake the system is the platform's say
# (PME support, ACPI): pm_cycle's wake_capable= sets it either way. Unable:
# nothing is offered, and WUC/WUFC armed by someone else (forged) are cleared
# at suspend. Able: the magic packet filter is armed at suspend, cleared
# after. pm_cycle logs the registers after the driver's suspend callbacks
# (QEMU unmaps the BARs of a function in D3hot).
suspended_regs() {	# suspended_regs NAME: "WUC WUFC RCTL" as the driver's suspend left them
	local mark=wol-$1
	kmsg_mark "$mark"
	insmod "$PM_CYCLE_KO" dev="$DUT" regs=0x5800,0x5808,0x100 || return 1
	rmmod pm_cycle
	for r in 0x5800 0x5808 0x100; do
		dmesg_since "$mark" | sed -n "s/.*$DUT: pm_cycle: suspended, register $r = \(0x[0-9a-f]*\|0\)$/\1/p" | tail -1
	done | xargs printf '%d '
}
wol_not_capable() {
	local rc=0 out
	insmod "$PM_CYCLE_KO" dev="$DUT" wake_capable=0 cycle=0 && rmmod pm_cycle || return 1
	ethtool "$DUT_IF" | grep -Eq 'Supports Wake-on: d$' || { echo "wake-up offered"; rc=1; }
	out=$(ethtool -s "$DUT_IF" wol g 2>&1) && { echo "wol g accepted"; rc=1; }
	# Nothing supported: the core refuses before the driver is asked.
	echo "$out" | grep -q "Invalid argument" || { echo "wol g: $out"; rc=1; }
	bar_write 0x5800 2; bar_write 0x5808 2		# WUC.PME_EN, WUFC.MAG: armed by someone else
	out=$(suspended_regs none) || { echo "cycle failed"; return 1; }
	note "cannot wake: WUC WUFC RCTL after suspend: $out"
	set -- $out
	[ "$#/$1/$2" = 3/0/0 ] || { echo "wake-up left armed"; rc=1; }
	wait_carrier "$DUT_IF" 1 && ping -c 3 -i 0.2 -W 2 $PEER_IP >/dev/null || { echo "no ping"; rc=1; }
	return $rc
}
check "Wake-on-LAN on a device that cannot wake: none offered, wol g refused (EINVAL); foreign WUC/WUFC cleared at suspend" wol_not_capable
wol_magic() {
	local rc=0 w out
	insmod "$PM_CYCLE_KO" dev="$DUT" wake_capable=1 cycle=0 && rmmod pm_cycle || return 1
	w=$(ethtool "$DUT_IF")
	echo "$w" | grep -Eq 'Supports Wake-on: pumbg$' || { echo "supported: $(echo "$w" | grep Supports)"; rc=1; }
	echo "$w" | grep -Eq '^[[:space:]]*Wake-on: d$' || { echo "enabled by default"; rc=1; }
	ethtool -s "$DUT_IF" wol s 2>/dev/null && { echo "SecureOn accepted"; rc=1; }
	ethtool -s "$DUT_IF" wol g || rc=1
	ethtool "$DUT_IF" | grep -Eq '^[[:space:]]*Wake-on: g$' || { echo "wol g not read back"; rc=1; }
	[ "$(cat /sys/bus/pci/devices/$DUT/power/wakeup)" = enabled ] || { echo "device wakeup not enabled"; rc=1; }
	out=$(suspended_regs g) || { echo "cycle failed"; return 1; }
	note "wol g: WUC WUFC RCTL after suspend: $out"
	set -- $out
	# WUC.PME_EN, WUFC.MAG; the receiver on (RCTL.EN, BAM).
	[ "$#/$1/$2" = 3/2/2 ] && [ $(( $3 & 0x8002 )) = $(( 0x8002 )) ] || { echo "magic packet wake-up not armed"; rc=1; }
	[ "$(bar_read 0x5800)/$(bar_read 0x5808)" = 0/0 ] || { echo "still armed after resume"; rc=1; }
	ethtool -s "$DUT_IF" wol d || rc=1
	[ "$(cat /sys/bus/pci/devices/$DUT/power/wakeup)" = disabled ] || { echo "device wakeup still enabled"; rc=1; }
	wait_carrier "$DUT_IF" 1 && ping -c 3 -i 0.2 -W 2 $PEER_IP >/dev/null || { echo "no ping"; rc=1; }
	return $rc
}
check "Wake-on-LAN where the device can wake: pumbg offered, wol g armed in WUC/WUFC at suspend, cleared after" wol_magic

# --- PCIe error recovery (AER) ----------------------------------------------
# QEMU's monitor sets an uncorrectable error in the AER capability of the
# root port above a NIC, which reports it; the kernel's AER driver then runs
# the recovery for the devices below the port. (QEMU's 82576 cannot send
# error messages itself: its Device Control error reporting bits are read
# only.) A malformed TLP is fatal: error_detected, a reset of the link
# (secondary bus reset: the NIC loses its state), slot_reset, resume. A
# completion timeout is non-fatal: the driver goes on without a reset, as C
# igb does. First on the C igb peer, as a control of the injection, then on
# igb_rust.
root_port() { basename "$(readlink -f "/sys/bus/pci/devices/$1/..")"; }
aer_inject() {	# aer_inject dut|peer PCI ERROR: injects into the NIC's root port, waits for the outcome
	local rp i qid=rp1
	[ "$1" = peer ] && qid=rp2
	rp=$(root_port "$2")
	kmsg_mark "aer-$1-$3"
	qmp_aer_inject "$qid" "$3" || { echo "injection refused: $(cat "$OUT/qmp/$QMP_N.done" 2>/dev/null)"; return 1; }
	for i in $(seq 1 200); do
		dmesg_since "aer-$1-$3" | grep -q "$rp: AER: device recovery \(successful\|failed\)" && break
		sleep 0.1
	done
	dmesg_since "aer-$1-$3" | grep -q "$rp: AER: device recovery successful" ||
		{ echo "no recovery:"; dmesg_since "aer-$1-$3" | tail -20; return 1; }
}
aer_peer() {
	aer_inject peer "$PEER" COMP_TIME || return 1
	wait_carrier "$PEER_IF" 1 $NS && wait_carrier "$DUT_IF" 1 &&
		ip netns exec $NS ping -c 3 -i 0.2 -W 2 $DUT_IP >/dev/null
}
check "control: C igb (peer) recovers from a non-fatal PCIe error (AER), pings" aer_peer
aer_dut() {	# aer_dut ERROR fatal|non-fatal PORT
	local r0 log c0
	r0=$(ethtool_stat reset_count)
	c0=$(cat /sys/class/net/$DUT_IF/carrier_changes)
	aer_inject dut "$DUT" "$1" || return 1
	log=$(dmesg_since "aer-dut-$1")
	if [ "$2" = fatal ]; then
		echo "$log" | grep -q "igb_rust $DUT: PCIe error (Frozen): interface detached" ||
			{ echo "no error_detected (Frozen)"; return 1; }
		echo "$log" | grep -q "igb_rust $DUT: set up again after the reset" ||
			{ echo "no slot_reset"; return 1; }
		echo "$log" | grep -q "igb_rust $DUT: interface attached after error recovery" ||
			{ echo "not attached again"; return 1; }
	else
		echo "$log" | grep -q "igb_rust $DUT: non-fatal PCIe error: the interface keeps running" ||
			{ echo "no error_detected (Normal)"; return 1; }
		[ "$(cat /sys/class/net/$DUT_IF/carrier_changes)" = "$c0" ] ||
			{ echo "the link went down for a non-fatal error"; return 1; }
	fi
	wait_carrier "$DUT_IF" 1 || { echo "no carrier after recovery"; return 1; }
	[ "$(cat /sys/class/net/$DUT_IF/operstate)" = up ] || { echo "operstate $(cat /sys/class/net/$DUT_IF/operstate)"; return 1; }
	ping -c 3 -i 0.2 -W 2 $PEER_IP >/dev/null || { echo "no ping after recovery"; return 1; }
	PORT=$3 bulk tx && PORT=$(($3 + 1)) bulk rx || return 1
	[ "$(ethtool_stat reset_count)" = "$r0" ] || { echo "the watchdog had to reset the device"; return 1; }
}
check "non-fatal PCIe error (AER, completion timeout): keeps running, link kept; 24 MB intact both ways" aer_dut COMP_TIME non-fatal 5040
check "fatal PCIe error (AER, malformed TLP, link reset): detached, reset, attached; 24 MB intact both ways" aer_dut MALF_TLP fatal 5042
func_reset() {	# a reset the user asks for (FLR through sysfs): reset_prepare and reset_done
	local log
	kmsg_mark func-reset
	echo 1 > "/sys/bus/pci/devices/$DUT/reset" || { echo "reset refused"; return 1; }
	log=$(dmesg_since func-reset)
	echo "$log" | grep -q "igb_rust $DUT: function reset: interface detached" ||
		{ echo "no reset_prepare"; return 1; }
	echo "$log" | grep -q "igb_rust $DUT: interface attached after the reset" ||
		{ echo "not attached after the reset"; return 1; }
	wait_carrier "$DUT_IF" 1 || { echo "no carrier after the reset"; return 1; }
	ping -c 3 -i 0.2 -W 2 $PEER_IP >/dev/null || { echo "no ping after the reset"; return 1; }
	PORT=5044 bulk tx && PORT=5045 bulk rx
}
check "function reset through sysfs: detached, reset, attached; 24 MB intact both ways" func_reset

# --- a stalled TX ring: the watchdog recovers --------------------------------
# Clearing TCTL.EN behind the driver's back (through the BAR in sysfs) stops
# the MAC from sending: frames stay on the ring and nothing completes. The
# watchdog must notice, reset the device and get traffic going again, with
# the interface kept up.
bar_clear() {	# bar_clear OFFSET MASK: clear bits of a DUT register
	python3 -S - "/sys/bus/pci/devices/$DUT/resource0" "$1" "$2" <<'PY'
import mmap, os, struct, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_SYNC)
m = mmap.mmap(fd, 0x20000, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
off, mask = int(sys.argv[2], 0), int(sys.argv[3], 0)
struct.pack_into('<I', m, off, struct.unpack_from('<I', m, off)[0] & ~mask)
PY
}
tx_stall() {
	local h0 r0 h1 r1 i
	h0=$(ethtool_stat tx_hang_count); r0=$(ethtool_stat reset_count)
	bar_clear 0x400 0x2 || { echo "cannot clear TCTL.EN"; return 1; }
	ping -q -c 5 -i 0.2 -W 1 $PEER_IP >/dev/null 2>&1 && { echo "pings answered with TX off"; return 1; }
	# Two watchdog periods (2 s each) without progress, then the reset.
	for i in $(seq 1 300); do
		[ "$(ethtool_stat reset_count)" -gt "$r0" ] && break
		sleep 0.1
	done
	h1=$(ethtool_stat tx_hang_count); r1=$(ethtool_stat reset_count)
	note "TX stall: hangs seen $h0 -> $h1, resets $r0 -> $r1"
	[ "$h1" -gt "$h0" ] && [ "$r1" -gt "$r0" ] || return 1
	wait_carrier "$DUT_IF" 1 && [ "$(cat /sys/class/net/$DUT_IF/operstate)" = up ] &&
		ping -c 3 -i 0.2 -W 2 $PEER_IP >/dev/null && PORT=5016 bulk tx
}
check "TX stalled behind the driver's back: the watchdog resets, the link stays, 24 MB leave intact" tx_stall

umount /run/igbt
teardown_pair
