# SPDX-License-Identifier: GPL-2.0
# Traffic both ways between igb_rust (DUT) and the C igb peer in its own
# network namespace, over QEMU's internal hub.

setup_pair
check "igb_rust registered an interface ($DUT_IF)" test -n "$DUT_IF"
check "interface MAC is the permanent MAC" \
	test "$(cat /sys/class/net/$DUT_IF/address)" = "$DUT_MAC"
nq=$(ls -d /sys/class/net/$DUT_IF/queues/rx-* | wc -l)
ncpu=$(nproc)
want=$(( ncpu < 8 ? ncpu : 8 ))
check "one queue pair per CPU ($nq of $want)" test "$nq" = "$want"

check "TX checksum offload is on (IPv4 and IPv6)" sh -c "ethtool -k $DUT_IF | grep -q 'tx-checksum-ipv4: on' && ethtool -k $DUT_IF | grep -q 'tx-checksum-ipv6: on'"
check "DUT carrier comes up" wait_carrier "$DUT_IF" 1
check "peer carrier comes up" wait_carrier "$PEER_IF" 1 $NS

check "ping DUT -> peer (IPv4)" ping -c 3 -i 0.2 -W 2 $PEER_IP
check "ping peer -> DUT (IPv4)" ip netns exec $NS ping -c 3 -i 0.2 -W 2 $DUT_IP
check "ping DUT -> peer (IPv6)" ping -6 -c 3 -i 0.2 -W 2 $PEER_IP6
check "ping peer -> DUT (IPv6)" ip netns exec $NS ping -6 -c 3 -i 0.2 -W 2 $DUT_IP6

# Frame sizes from the 60-byte minimum to the MTU, unfragmented.
sizes_ok() {	# sizes_ok MTU PAYLOADS...
	local s
	shift
	for s in "$@"; do
		ping -c 1 -W 2 -M do -s "$s" $PEER_IP >/dev/null || { echo "DUT->peer $s bytes"; return 1; }
		ip netns exec $NS ping -c 1 -W 2 -M do -s "$s" $DUT_IP >/dev/null ||
			{ echo "peer->DUT $s bytes"; return 1; }
	done
}
check "frames 60..1514 bytes both ways" sizes_ok 1500 18 19 100 255 256 257 512 1000 1400 1471 1472

# RX buffers: half pages (2 KiB, page fragments) up to MTU 1510, whole pages
# above. What a UDP socket is charged per unread 1000-byte datagram is the
# skb's truesize: about 2.3 KiB over a half page, 4.3 KiB over a whole one.
rx_bufs() {	# rx_bufs frags|pages: rxN_buf_KIND summed over the queues
	ethtool_stat "rx[0-9]+_buf_$1"
}
udp_charge() {	# bytes a DUT socket is charged per 1000-byte datagram (16 sent by the peer)
	python3 - "$DUT_IP" "$NS" <<'PY'
import socket, subprocess, sys, time
ip, ns = sys.argv[1], sys.argv[2]
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
s.bind((ip, 0))
port = s.getsockname()[1]
sh = "for i in $(seq 16); do printf '%%1000s' x > /dev/udp/%s/%d; done" % (ip, port)
subprocess.run(["ip", "netns", "exec", ns, "bash", "-c", sh], check=True)
def rmem():
    for line in open("/proc/net/udp").read().splitlines()[1:]:
        f = line.split()
        if int(f[1].split(":")[1], 16) == port:
            return int(f[4].split(":")[1], 16)
    return 0
got, last, n = 0, -1, 0
for _ in range(50):
    time.sleep(0.1)
    got = rmem()
    if got == last:
        break
    last = got
while True:
    try:
        s.recv(2048, socket.MSG_DONTWAIT)
        n += 1
    except BlockingIOError:
        break
print(got // n if n == 16 else "lost %d" % (16 - n))
PY
}
charge_below() {	# charge_below MAX
	local c
	c=$(udp_charge)
	note "truesize per datagram: $c"
	[ "$c" -lt "$1" ] 2>/dev/null
}
charge_above() {	# charge_above MIN
	local c
	c=$(udp_charge)
	note "truesize per datagram: $c"
	[ "$c" -gt "$1" ] 2>/dev/null
}
check "half-page RX buffers at MTU 1500 (rx_buf_frags $(rx_bufs frags), rx_buf_pages $(rx_bufs pages))" \
	sh -c "[ $(rx_bufs frags) -gt 0 ] && [ $(rx_bufs pages) -eq 0 ]"
check "a 1000-byte datagram is charged under 3 KiB (half page)" charge_below 3072
pages_before=$(rx_bufs pages)
check "MTU 9000 accepted" ip link set "$DUT_IF" mtu 9000
ip -n $NS link set "$PEER_IF" mtu 9000
check "peer carrier back after MTU change" wait_carrier "$PEER_IF" 1 $NS
check "jumbo frames up to 9014 bytes both ways" sizes_ok 9000 1473 2100 4000 8000 8972
check "MTU 9000 rebuilt the rings with whole pages ($pages_before -> $(rx_bufs pages))" \
	test "$(rx_bufs pages)" -gt "$pages_before"
check "a 1000-byte datagram is charged over 4 KiB (whole page)" charge_above 4096
check "MTU above 9216 refused" sh -c "! ip link set $DUT_IF mtu 9217 2>/dev/null"
check "MTU below 68 refused" sh -c "! ip link set $DUT_IF mtu 67 2>/dev/null"
frags_before=$(rx_bufs frags)
ip link set "$DUT_IF" mtu 1500
ip -n $NS link set "$PEER_IF" mtu 1500
wait_carrier "$PEER_IF" 1 $NS
half_again() { [ "$(rx_bufs frags)" -gt "$frags_before" ] && charge_below 3072; }
check "MTU 1500 again: half pages, a datagram charged under 3 KiB" half_again

# Bulk transfers, contents compared.
BULK_MB=${BULK_MB:-200}
mkdir -p /run/igbt && mount -t tmpfs -o size=1200m tmpfs /run/igbt
dd if=/dev/urandom of=/run/igbt/blob bs=1M count="$BULK_MB" status=none
want_sum=$(sha256sum < /run/igbt/blob)
check "bulk ${BULK_MB} MB DUT -> peer arrives intact" bulk tx
check "bulk ${BULK_MB} MB peer -> DUT arrives intact" bulk rx

tx_stat() {	# tx_stat NAME: txN_NAME summed over the queues
	ethtool_stat "tx[0-9]+_$1"
}
offload_carried() {	# offload_carried FEATURE STAT MIN: feature on, STAT above MIN
	local n
	n=$(tx_stat "$2")
	note "$2 so far: $n"
	ethtool -k "$DUT_IF" | grep -q "^$1: on" && [ "$n" -gt "$3" ]
}

# Scatter/gather: TCP hands the driver page fragments, each its own descriptor.
sg_frames() { tx_stat sg_packets; }
check "TX scatter/gather is on and carried the bulk transfer" \
	offload_carried scatter-gather sg_packets 1000
sg_off_linear() {
	local before rc=0
	ethtool -K "$DUT_IF" sg off || return 1
	before=$(sg_frames)
	head -c 20M /run/igbt/blob > /run/igbt/small
	SRC=/run/igbt/small WANT=$(sha256sum < /run/igbt/small) bulk tx || rc=1
	rm -f /run/igbt/small
	ethtool -K "$DUT_IF" sg on || rc=1
	[ $rc = 0 ] && [ "$(sg_frames)" = "$before" ]
}
check "with sg off every frame is linear and the data still arrives intact" sg_off_linear

# TSO: the device cuts TCP frames of up to 64 KiB, over IPv4 (the bulk run
# above) and IPv6; the data arrives intact and the peer sees MSS-sized frames.
tso_frames() { tx_stat tso_packets; }
check "TSO is on and carried the IPv4 bulk transfer" \
	offload_carried tcp-segmentation-offload tso_packets 100
tso_v6() {
	local before peer_before out=/run/igbt/out.v6 rc=0 want sent rcvd
	head -c 20M /run/igbt/blob > /run/igbt/small
	want=$(sha256sum < /run/igbt/small)
	before=$(tso_frames)
	peer_before=$(stat_of "$PEER_IF" rx packets $NS)
	ip netns exec $NS socat -u TCP6-LISTEN:5002,reuseaddr OPEN:"$out",creat,trunc &
	sleep 0.5
	timeout 120 socat -u OPEN:/run/igbt/small "TCP6:[$PEER_IP6]:5002" || rc=1
	wait
	[ "$(sha256sum < "$out")" = "$want" ] || rc=1
	sent=$(( $(tso_frames) - before ))
	rcvd=$(( $(stat_of "$PEER_IF" rx packets $NS) - peer_before ))
	note "IPv6: $sent TSO frames became $rcvd frames at the peer"
	rm -f "$out" /run/igbt/small
	# 20 MiB in frames of at most 1500 bytes: at least 14000 of them.
	[ $rc = 0 ] && [ "$sent" -gt 50 ] && [ "$rcvd" -gt 14000 ]
}
check "TSO over IPv6: 20 MB arrive intact, cut into MTU-sized frames" tso_v6

# The link/other vector fires for link events only, not once per packet or
# in a loop (a cause left pending would re-fire it at every unmask).
other_irqs() {
	msix_vectors "$DUT" | awk '$2 == 0 { print $3 }'
}
other_quiet() {
	local a b
	a=$(other_irqs)
	ping -q -c 100 -i 0.02 $PEER_IP >/dev/null || return 1
	b=$(other_irqs)
	echo "other-vector interrupts during 100 pings: $((b - a))"
	[ -n "$a" ] && [ $((b - a)) -lt 5 ]
}
check "the link vector stays quiet under traffic" other_quiet

# Counters: what the peer sent is what the DUT received, and back.
counters_match() {
	# Only the ping below crosses the wire: no IPv6 chatter, no ARP.
	sysctl -qw net.ipv6.conf.$DUT_IF.disable_ipv6=1
	ip netns exec $NS sysctl -qw net.ipv6.conf.$PEER_IF.disable_ipv6=1
	ip neigh replace $PEER_IP lladdr "$PEER_MAC" dev "$DUT_IF" nud permanent
	ip -n $NS neigh replace $DUT_IP lladdr "$DUT_MAC" dev "$PEER_IF" nud permanent
	sleep 1
	local a b c d e f g h rc=0
	a=$(stat_of "$DUT_IF" rx packets); b=$(stat_of "$DUT_IF" rx bytes)
	c=$(stat_of "$DUT_IF" tx packets); d=$(stat_of "$DUT_IF" tx bytes)
	e=$(stat_of "$PEER_IF" tx packets $NS); f=$(stat_of "$PEER_IF" tx bytes $NS)
	g=$(stat_of "$PEER_IF" rx packets $NS); h=$(stat_of "$PEER_IF" rx bytes $NS)
	ip netns exec $NS ping -q -c 50 -i 0.02 -s 1000 $DUT_IP >/dev/null || rc=1
	local drx=$(( $(stat_of "$DUT_IF" rx packets) - a )) drxb=$(( $(stat_of "$DUT_IF" rx bytes) - b ))
	local dtx=$(( $(stat_of "$DUT_IF" tx packets) - c )) dtxb=$(( $(stat_of "$DUT_IF" tx bytes) - d ))
	local ptx=$(( $(stat_of "$PEER_IF" tx packets $NS) - e )) ptxb=$(( $(stat_of "$PEER_IF" tx bytes $NS) - f ))
	local prx=$(( $(stat_of "$PEER_IF" rx packets $NS) - g )) prxb=$(( $(stat_of "$PEER_IF" rx bytes $NS) - h ))
	echo "DUT rx $drx/$drxb tx $dtx/$dtxb; peer tx $ptx/$ptxb rx $prx/$prxb"
	sysctl -qw net.ipv6.conf.$DUT_IF.disable_ipv6=0
	ip netns exec $NS sysctl -qw net.ipv6.conf.$PEER_IF.disable_ipv6=0
	ip addr add $DUT_IP6/64 dev "$DUT_IF" nodad 2>/dev/null
	ip -n $NS addr add $PEER_IP6/64 dev "$PEER_IF" nodad 2>/dev/null
	ip neigh del $PEER_IP dev "$DUT_IF" 2>/dev/null
	ip -n $NS neigh del $DUT_IP dev "$PEER_IF" 2>/dev/null
	[ $rc = 0 ] && [ "$drx" = 50 ] && [ "$dtx" = 50 ] && [ "$drx" = "$ptx" ] &&
		[ "$drxb" = "$ptxb" ] && [ "$dtx" = "$prx" ] && [ "$dtxb" = "$prxb" ] &&
		[ "$drxb" = $((50 * 1042)) ]
}
check "rx/tx packet and byte counters match the peer's exactly" counters_match

# Receive filters: unicast address, promiscuous mode, multicast list.
rx_delta() {	# rx_delta CMD...: frames the DUT received while CMD ran in the peer ns
	local a
	a=$(stat_of "$DUT_IF" rx packets)
	ip netns exec $NS "$@" >/dev/null 2>&1
	sleep 0.2
	echo $(( $(stat_of "$DUT_IF" rx packets) - a ))
}
quiet_v4() {	# only the test traffic on the wire
	sysctl -qw net.ipv6.conf.$DUT_IF.disable_ipv6=$1
	ip netns exec $NS sysctl -qw net.ipv6.conf.$PEER_IF.disable_ipv6=$1
}
quiet_v4 1
# Frames for a MAC that is not ours (a static neighbour on the peer).
ip -n $NS neigh replace 192.0.2.99 lladdr 02:11:22:33:44:55 dev "$PEER_IF" nud permanent
d=$(rx_delta ping -c 20 -i 0.02 -W 0.1 192.0.2.99)
check "frames for another MAC are filtered ($d received)" test "$d" = 0
ip link set "$DUT_IF" promisc on
d=$(rx_delta ping -c 20 -i 0.02 -W 0.1 192.0.2.99)
check "promiscuous mode receives them ($d of 20)" test "$d" = 20
ip link set "$DUT_IF" promisc off
d=$(rx_delta ping -c 20 -i 0.02 -W 0.1 192.0.2.99)
check "promiscuous off filters them again ($d received)" test "$d" = 0
# Secondary unicast addresses (IFF_UNICAST_FLT): receive address slots 1..23
# hold them, without promiscuous mode; beyond that unicast promiscuous mode
# (RCTL.UPE) receives them, and `bridge fdb add` is refused with ENOMEM.
promiscuity() { ip -d link show "$DUT_IF" | sed -n 's/.* promiscuity \([0-9]*\) .*/\1/p'; }
rctl_upe() { echo $(( ($(bar_read 0x100) >> 3) & 1 )); }
uc_state() {	# uc_state IP: frames the DUT received of 20 pings to IP, its promiscuity, RCTL.UPE
	echo "$(rx_delta ping -c 20 -i 0.02 -W 0.1 "$1") $(promiscuity) $(rctl_upe)"
}
fdb_count() { bridge fdb show dev "$DUT_IF" self | grep -c -e "^02:00:00:00:01:" -e "^$sec "; }
sec=02:11:22:33:44:55
bridge fdb add $sec dev "$DUT_IF" self permanent
read -r d p u < <(uc_state 192.0.2.99)
check "bridge fdb add ... self: frames for the secondary address arrive ($d of 20), promiscuity $p, RCTL.UPE $u" \
	test "$d" = 20 -a "$p" = 0 -a "$u" = 0
ip link set "$DUT_IF" down; ip link set "$DUT_IF" up; wait_carrier "$DUT_IF" 1
d=$(rx_delta ping -c 20 -i 0.02 -W 0.1 192.0.2.99)
check "the secondary address is programmed again after down/up ($d of 20)" test "$d" = 20
for i in $(seq 1 22); do
	bridge fdb add 02:00:00:00:01:$(printf %02x $i) dev "$DUT_IF" self permanent
done
# Slot 16, the first of the second bank (RAL/RAH 16..23), and slot 23, the last.
ip -n $NS neigh replace 192.0.2.97 lladdr 02:00:00:00:01:0f dev "$PEER_IF" nud permanent
ip -n $NS neigh replace 192.0.2.96 lladdr 02:00:00:00:01:16 dev "$PEER_IF" nud permanent
d=$(rx_delta ping -c 20 -i 0.02 -W 0.1 192.0.2.97)
d2=$(rx_delta ping -c 20 -i 0.02 -W 0.1 192.0.2.96)
check "23 secondary addresses: slots 16 and 23 receive too ($d and $d2 of 20)" test "$d" = 20 -a "$d2" = 20
e=$(bridge fdb add 02:00:00:00:01:99 dev "$DUT_IF" self permanent 2>&1)
rc=$?
# The same request straight over netlink, for the errno (bridge prints the
# netlink message instead): RTM_NEWNEIGH, AF_BRIDGE, NUD_PERMANENT, NTF_SELF.
errno_name=$(python3 -c '
import errno, socket, struct, sys
idx = socket.if_nametoindex(sys.argv[1])
mac = bytes.fromhex(sys.argv[2].replace(":", ""))
body = struct.pack("BBHiHBB", socket.AF_BRIDGE, 0, 0, idx, 0x80, 0x02, 0)
body += struct.pack("HH", 10, 2) + mac + bytes(2)
s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)
s.send(struct.pack("IHHII", 16 + len(body), 28, 0x605, 1, 0) + body)
err = -struct.unpack_from("i", s.recv(4096), 16)[0]
print(errno.errorcode.get(err, err) if err else "OK")' "$DUT_IF" 02:00:00:00:01:99)
n=$(fdb_count)
check "a 24th unicast address is refused ($errno_name, bridge rc $rc: $e), the 23 stay ($n)" \
	sh -c "test $rc != 0 && test '$errno_name' = ENOMEM &&
		echo '$e' | grep -q 'no receive address slot left' && test $n = 23 &&
		! bridge fdb show dev $DUT_IF self | grep -q 02:00:00:00:01:99"
e=$(bridge fdb replace $sec dev "$DUT_IF" self permanent 2>&1)
check "with 23, one already on the list is accepted again (bridge fdb replace: ${e:-no error})" \
	test -z "$e" -a "$(fdb_count)" = 23
ip -n $NS neigh replace 192.0.2.98 lladdr 02:11:22:33:44:66 dev "$PEER_IF" nud permanent
d=$(rx_delta ping -c 20 -i 0.02 -W 0.1 192.0.2.98)
check "with 23 secondary addresses, frames for another are still filtered ($d received)" test "$d" = 0
# A VLAN device with an address of its own adds a 24th (not through fdb_add).
ip link add link "$DUT_IF" name dut.uc type vlan id 77
ip link set dut.uc address 02:00:00:00:01:77 addrgenmode none
ip link set dut.uc up
read -r d p u < <(uc_state 192.0.2.98)
check "24 secondary addresses: unicast promiscuous (RCTL.UPE $u, promiscuity $p), other frames arrive ($d of 20)" \
	test "$d" = 20 -a "$p" = 0 -a "$u" = 1
# One fdb entry goes: the address left without a slot takes the freed one.
bridge fdb del 02:00:00:00:01:01 dev "$DUT_IF" self
ip -n $NS neigh replace 192.0.2.95 lladdr 02:00:00:00:01:77 dev "$PEER_IF" nud permanent
d=$(rx_delta ping -c 20 -i 0.02 -W 0.1 192.0.2.95)
d2=$(rx_delta ping -c 20 -i 0.02 -W 0.1 192.0.2.98)
u=$(rctl_upe)
check "back to 23: the unplaced address gets the freed slot ($d of 20), RCTL.UPE $u, other frames filtered ($d2)" \
	test "$d" = 20 -a "$u" = 0 -a "$d2" = 0
ip link del dut.uc
d=$(rx_delta ping -c 20 -i 0.02 -W 0.1 192.0.2.95)
d2=$(rx_delta ping -c 20 -i 0.02 -W 0.1 192.0.2.99)
check "the VLAN device gone: its address filtered ($d), the first secondary address still arrives ($d2 of 20)" \
	test "$d" = 0 -a "$d2" = 20
# Removing the first address leaves the others where they are, receiving.
bridge fdb del $sec dev "$DUT_IF" self
d=$(rx_delta ping -c 20 -i 0.02 -W 0.1 192.0.2.99)
d2=$(rx_delta ping -c 20 -i 0.02 -W 0.1 192.0.2.96)
# RAH(1) and RAH(23): slot 1 empty, slot 23 still valid (bit 31) for ..:01:16.
r=$(bar_read 0x540c 0x551c | tr '\n' ' ')
check "bridge fdb del of the first: its frames filtered ($d received), slot 23 unchanged ($r) and receiving ($d2 of 20)" \
	test "$d" = 0 -a "$d2" = 20 -a "$r" = "0 $((0x80001601)) "
for i in $(seq 2 22); do
	bridge fdb del 02:00:00:00:01:$(printf %02x $i) dev "$DUT_IF" self
done
d=$(rx_delta ping -c 20 -i 0.02 -W 0.1 192.0.2.96)
check "all removed: the last slot's address is filtered again ($d received)" test "$d" = 0
ip -n $NS neigh del 192.0.2.98 dev "$PEER_IF"
ip -n $NS neigh del 192.0.2.97 dev "$PEER_IF"
ip -n $NS neigh del 192.0.2.96 dev "$PEER_IF"
ip -n $NS neigh del 192.0.2.95 dev "$PEER_IF"
# The same for upper devices: a macvlan's address, and a bridge port that the
# bridge keeps out of promiscuous mode (vlan_filtering, the DUT its only port
# that floods and learns), which then programs the static entries of its other
# ports. Without IFF_UNICAST_FLT both would make the DUT promiscuous.
ip link add link "$DUT_IF" name dut.mv address 02:11:22:33:44:55 type macvlan mode bridge
ip link set dut.mv addrgenmode none up
read -r d p u < <(uc_state 192.0.2.99)
check "macvlan: frames for its address arrive ($d of 20), promiscuity $p, RCTL.UPE $u" \
	test "$d" = 20 -a "$p" = 0 -a "$u" = 0
ip link del dut.mv
d=$(rx_delta ping -c 20 -i 0.02 -W 0.1 192.0.2.99)
check "macvlan removed: its address is filtered again ($d received)" test "$d" = 0
bridge_port() {
	local p u d d2
	ip link add br.uc type bridge vlan_filtering 1 || return 1
	ip link add vb.uc type veth peer name vb.uc1 || return 1
	ip link set vb.uc master br.uc && ip link set "$DUT_IF" master br.uc || return 1
	bridge link set dev vb.uc learning off flood off mcast_flood off bcast_flood off || return 1
	ip link set vb.uc addrgenmode none up && ip link set vb.uc1 addrgenmode none up &&
		ip link set br.uc addrgenmode none up || return 1
	bridge fdb add 02:11:22:33:44:55 dev vb.uc master static || return 1
	d=$(rx_delta ping -c 20 -i 0.02 -W 0.1 192.0.2.99)
	ip -n $NS neigh replace 192.0.2.98 lladdr 02:11:22:33:44:66 dev "$PEER_IF" nud permanent
	d2=$(rx_delta ping -c 20 -i 0.02 -W 0.1 192.0.2.98)
	ip -n $NS neigh del 192.0.2.98 dev "$PEER_IF"
	p=$(promiscuity); u=$(rctl_upe)
	echo "promiscuity $p, RCTL.UPE $u; a static entry's frames: $d of 20; another address: $d2"
	test "$p" = 0 -a "$u" = 0 -a "$d" = 20 -a "$d2" = 0
}
check "bridge port (vlan_filtering, one auto port): not promiscuous, static entries received, others filtered" bridge_port
ip link set "$DUT_IF" nomaster; ip link del vb.uc; ip link del br.uc
d=$(rx_delta ping -c 20 -i 0.02 -W 0.1 192.0.2.99)
p=$(promiscuity)
check "out of the bridge: promiscuity $p, the static entry's address filtered again ($d received)" \
	test "$p" = 0 -a "$d" = 0
# Multicast: 239.1.2.3 is 01:00:5e:01:02:03 on the wire.
ip -n $NS route add 239.0.0.0/8 dev "$PEER_IF" 2>/dev/null
d=$(rx_delta ping -c 20 -i 0.02 -W 0.1 -t 1 239.1.2.3)
check "multicast frames of a group not joined are filtered ($d received)" test "$d" = 0
ip maddr add 01:00:5e:01:02:03 dev "$DUT_IF"
d=$(rx_delta ping -c 20 -i 0.02 -W 0.1 -t 1 239.1.2.3)
check "multicast frames of a joined group arrive ($d of 20)" test "$d" = 20
ip maddr del 01:00:5e:01:02:03 dev "$DUT_IF"
ip link set "$DUT_IF" allmulticast on
d=$(rx_delta ping -c 20 -i 0.02 -W 0.1 -t 1 239.1.2.4)
check "all-multicast receives any group ($d of 20)" test "$d" = 20
ip link set "$DUT_IF" allmulticast off
quiet_v4 0
ip addr add $DUT_IP6/64 dev "$DUT_IF" nodad 2>/dev/null
ip -n $NS addr add $PEER_IP6/64 dev "$PEER_IF" nodad 2>/dev/null

# MAC address change: the new address receives, a multicast one is refused.
new_mac=02:00:00:12:34:99
mac_change() {
	ip link set "$DUT_IF" address $new_mac || return 1
	ip -n $NS neigh del $DUT_IP dev "$PEER_IF" 2>/dev/null
	ip netns exec $NS ping -c 2 -W 3 $DUT_IP >/dev/null || { echo "no traffic to $new_mac"; return 1; }
	ip -n $NS neigh show dev "$PEER_IF" | grep -q "$new_mac" || { echo "peer did not learn $new_mac"; return 1; }
	ip link set "$DUT_IF" address "$DUT_MAC" || return 1
	ip -n $NS neigh del $DUT_IP dev "$PEER_IF" 2>/dev/null
	ip netns exec $NS ping -c 2 -W 3 $DUT_IP >/dev/null || { echo "no traffic after restoring"; return 1; }
}
check "MAC address change: traffic follows the new address" mac_change
ip link set "$DUT_IF" address "$DUT_MAC"
ip -n $NS neigh del $DUT_IP dev "$PEER_IF" 2>/dev/null
e=$(ip link set "$DUT_IF" address 01:00:5e:00:00:01 2>&1)
check "multicast MAC address refused (EADDRNOTAVAIL)" sh -c "echo '$e' | grep -q 'Cannot assign requested address'"
check "MAC unchanged after the refusal" test "$(cat /sys/class/net/$DUT_IF/address)" = "$DUT_MAC"

# Link flaps from the host side: the carrier really drops and comes back.
flap_qemu() {
	qmp_set_link h0 off || { echo "monitor request failed"; return 1; }
	wait_carrier "$DUT_IF" 0 || { echo "carrier did not drop"; return 1; }
	qmp_set_link h0 on || return 1
	wait_carrier "$DUT_IF" 1 || { echo "carrier did not return"; return 1; }
	ping -c 1 -W 3 $PEER_IP >/dev/null || { echo "no traffic after link up"; return 1; }
}
check "QEMU set_link off/on: carrier drops, returns, traffic resumes" flap_qemu

flap_ip() {
	local i
	for i in $(seq 1 50); do
		ip link set "$DUT_IF" down || return 1
		ip link set "$DUT_IF" up || return 1
	done
	wait_carrier "$DUT_IF" 1 || { echo "no carrier after flaps"; return 1; }
	ping -c 2 -W 3 $PEER_IP >/dev/null || { echo "no IPv4 after flaps"; return 1; }
	ip addr add $DUT_IP6/64 dev "$DUT_IF" nodad 2>/dev/null
	ping -6 -c 2 -W 3 $PEER_IP6 >/dev/null || { echo "no IPv6 after flaps"; return 1; }
}
check "50 x ip link down/up, traffic resumes" flap_ip

# Unloading while traffic flows both ways.
rmmod_busy() {
	ip netns exec $NS ping -f -s 1400 $DUT_IP >/dev/null 2>&1 &
	local p1=$!
	ping -f -s 1400 $PEER_IP >/dev/null 2>&1 &
	local p2=$!
	sleep 2
	rmmod igb_rust
	local rc=$?
	kill $p1 $p2 2>/dev/null
	wait $p1 $p2 2>/dev/null
	[ $rc = 0 ] && [ "$(driver_of "$DUT")" = none ]
}
check "rmmod while traffic flows" rmmod_busy
umount /run/igbt
teardown_pair
