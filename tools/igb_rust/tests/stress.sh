# SPDX-License-Identifier: GPL-2.0
# Stress under the debug kernel: netconsole (netpoll) during bulk TX, pktgen
# with shared skbs, page allocation failures during RX, link flaps and every
# runtime reconfiguration racing TCP, page_pool pages returned after rmmod, and load/unload
# cycles under traffic. Every transfer is checked with sha256, every packet
# count exactly; the final dmesg test of check.sh catches any splat.
#
#   STRESS_CYCLES   load/unload cycles (default 20: one took 13 s on the
#                   debug kernel under TCG on a busy 2-core host; 200 would
#                   add about 45 minutes)
#   STRESS_MB       size of the checked transfers in MB (default 40)
#   STRESS_ROUNDS   rounds of every reconfiguration racing the transfers
#                   (default 3; a round took about 80 s on the debug kernel)
#   STRESS_PARTS    which parts run (default: all of netconsole pktgen
#                   allocfail flap pagepool cycles)

STRESS_CYCLES=${STRESS_CYCLES:-20}
STRESS_MB=${STRESS_MB:-40}
STRESS_ROUNDS=${STRESS_ROUNDS:-3}
progress() { echo "igb_rust stress: $*" > /dev/kmsg; }
part() { case " ${STRESS_PARTS:-netconsole pktgen allocfail flap pagepool cycles} " in *" $1 "*) true;; *) false;; esac; }
KSRC=$(readlink -f "$IGB_RUST_BUILD/source")
DBGFS=/sys/kernel/debug
mountpoint -q $DBGFS || mount -t debugfs none $DBGFS

setup_pair v4only
# The peer's RX ring at its largest. On the debug kernel under TCG, C igb
# refills 256 descriptors too slowly while a TCP stream arrives, and QEMU's
# model drops what a full ring cannot take without counting it anywhere: TCP
# recovers, the datagrams of netconsole and pktgen would be lost.
ip netns exec $NS ethtool -G "$PEER_IF" rx 4096 && { wait_carrier "$PEER_IF" 1 $NS ||
	wait_carrier "$PEER_IF" 1 $NS || wait_carrier "$PEER_IF" 1 $NS; } ||
	note "the peer's RX ring stays at $(ip netns exec $NS ethtool -g "$PEER_IF" | awk '/^RX:/ { v = $2 } END { print v }')"
mkdir -p /run/igbt && mount -t tmpfs -o size=600m tmpfs /run/igbt
dd if=/dev/urandom of=/run/igbt/blob bs=1M count="$STRESS_MB" status=none
want_sum=$(sha256sum < /run/igbt/blob)

# --- a. netconsole over igb_rust while bulk TCP leaves through it --------
# netpoll transmits from whatever context printk runs in, and polls the
# NAPI instances with budget 0 when the TX ring is full.
netconsole_bulk() {
	progress netconsole
	local n=${1:-300} tag rc=0 got lvl dk
	tag=$(head -c 6 /dev/urandom | od -An -tx1 | tr -d ' \n')
	ip netns exec $NS socat -u UDP-RECV:6666 OPEN:/run/igbt/nc.out,creat,trunc &
	local rx=$! i tx0
	for i in $(seq 1 300); do
		ip netns exec $NS ss -Huln "sport = :6666" | grep -q . && break
		sleep 0.1
	done
	modprobe netconsole "netconsole=6665@$DUT_IP/$DUT_IF,6666@$PEER_IP/$PEER_MAC" ||
		{ kill $rx; echo "netconsole did not load"; return 1; }
	# Messages of level 4 must reach the consoles, /dev/kmsg must not be rate limited.
	lvl=$(awk '{print $1}' /proc/sys/kernel/printk)
	[ "$lvl" -gt 4 ] || dmesg -n 5
	dk=$(cat /proc/sys/kernel/printk_devkmsg)
	echo on > /proc/sys/kernel/printk_devkmsg
	tx0=$(stat_of "$DUT_IF" tx packets)
	txd0=$(stat_of "$DUT_IF" tx dropped)
	pd0=$(peer_drops)
	( bulk tx > /run/igbt/nc.bulk 2>&1; echo $? > /run/igbt/nc.bulkrc ) &
	local bp=$!
	# The messages go out while the transfer is under way.
	for i in $(seq 1 300); do
		[ $(( $(stat_of "$DUT_IF" tx packets) - tx0 )) -gt 2000 ] && break
		sleep 0.1
	done
	for i in $(seq 1 "$n"); do
		echo "<4>igbnc $tag $i" > /dev/kmsg
		[ $((i % 50)) = 0 ] && sleep 0.2
	done
	wait $bp
	sleep 2
	kill $rx 2>/dev/null
	wait $rx 2>/dev/null
	rmmod netconsole || rc=1
	echo "$dk" > /proc/sys/kernel/printk_devkmsg
	dmesg -n "$lvl"
	got=$(grep -ao "igbnc $tag [0-9]*" /run/igbt/nc.out | sort -u | wc -l)
	txd=$(( $(stat_of "$DUT_IF" tx dropped) - txd0 ))
	pd=$(( $(peer_drops) - pd0 ))
	note "netconsole: $got of $n messages at the peer; DUT tx_dropped +$txd; frames the peer counted as dropped +$pd; bulk: $(cat /run/igbt/nc.bulk)"
	[ "$(cat /run/igbt/nc.bulkrc)" = 0 ] || { echo "bulk transfer failed"; rc=1; }
	[ "$txd" = 0 ] || { echo "the DUT dropped $txd frames"; rc=1; }
	# UDP over netpoll: the peer (C igb under TCG, debug kernel) may lose the
	# odd datagram; 98% must arrive.
	[ "$got" -ge $((n - n / 50)) ] || rc=1
	return $rc
}
peer_drops() {	# frames the peer counted as dropped: NIC, stack, UDP layer
	local m f u
	m=$(stat_of "$PEER_IF" rx missed_errors "$NS")
	f=$(stat_of "$PEER_IF" rx fifo_errors "$NS")
	u=$(ip netns exec "$NS" awk '/^Udp:/ { if (!h) { for (i = 1; i <= NF; i++) c[$i] = i; h = 1 }
		else print $c["InErrors"] + 0 }' /proc/net/snmp)
	echo $((m + f + u))
}
if ! part netconsole; then
	:
elif modinfo netconsole >/dev/null 2>&1; then
	check "netconsole: 300 messages (98% at least) arrive at the peer during a ${STRESS_MB} MB TCP transfer, data intact" \
		netconsole_bulk 300
else
	skip "netconsole during a TCP transfer" "no netconsole in this kernel"
fi

# --- b. pktgen with clone_skb: the driver gets shared skbs -----------------
pg() {	# pg FILE CMD: one pktgen command, its result checked
	echo "$2" > "/proc/net/pktgen/$1" || return 1
	[ "$1" = pgctrl ] || grep -q 'Result: OK' "/proc/net/pktgen/$1" ||
		{ echo "pktgen $1 '$2': $(grep Result "/proc/net/pktgen/$1")"; return 1; }
}
udp_noports() { ip netns exec $NS awk '/^Udp: [0-9]/ { print $3 }' /proc/net/snmp; }
pktgen_shared() {	# pktgen_shared COUNT SIZE CLONE BURST [FLAG]
	local count=$1 sent tx0 rx0 u0 dtx drx du c
	progress "pktgen $*"
	modprobe pktgen || return 1
	pg kpktgend_0 rem_device_all && pg kpktgend_0 "add_device $DUT_IF" || return 1
	# Paced at 5000 frames/s: the emulated peer NIC drops silently what its
	# driver cannot take in time, and the count at the peer must be exact.
	for c in "count $count" "pkt_size $2" "clone_skb $3" "burst $4" "delay $((200000 * $4))" \
		"dst $PEER_IP" "dst_mac $PEER_MAC" "udp_dst_min 9" "udp_dst_max 9" ${5:+"flag $5"}; do
		pg "$DUT_IF" "$c" || return 1
	done
	tx0=$(stat_of "$DUT_IF" tx packets)
	rx0=$(stat_of "$PEER_IF" rx packets $NS)
	u0=$(udp_noports)
	pg pgctrl start || return 1
	sleep 1
	sent=$(sed -n 's/.*pkts-sofar: \([0-9]*\).*/\1/p' "/proc/net/pktgen/$DUT_IF")
	# The DUT counts a frame when its send completes, and the peer may still
	# be working through its ring (on the debug kernel under TCG it lags by
	# seconds), its two counters read a process start apart: read them again
	# until they agree, or for 10 s.
	for c in $(seq 20); do
		dtx=$(( $(stat_of "$DUT_IF" tx packets) - tx0 ))
		drx=$(( $(stat_of "$PEER_IF" rx packets $NS) - rx0 ))
		du=$(( $(udp_noports) - u0 ))
		[ "$dtx" = "$sent" ] && [ "$du" = "$drx" ] && break
		sleep 0.5
	done
	pg kpktgend_0 rem_device_all
	note "pktgen sent $sent, DUT counted $dtx, the peer received $drx, its UDP layer $du"
	# With burst, pktgen may overshoot the count by part of a burst. The DUT
	# must put every shared skb on the wire; the emulated peer NIC drops what
	# its driver cannot take in time (on the debug kernel under TCG 20 to 30%
	# of the 60-byte frames arrived: 4143 and 6131 of 20000), but every frame
	# it receives must reach UDP with a good checksum, and at least a tenth
	# must arrive for that comparison to mean something.
	[ "$sent" -ge "$count" ] && [ "$dtx" = "$sent" ] && [ "$du" = "$drx" ] &&
		[ "$drx" -ge $((sent / 10)) ]
}
if part pktgen; then
	check "pktgen clone_skb 100: 20000 x 60 B shared skbs all sent, what the peer receives reaches its UDP layer" \
		pktgen_shared 20000 60 100 1
	check "pktgen clone_skb 1000 burst 8, UDP checksum offload: 10000 x 1400 B all sent, received ones with good checksums" \
		pktgen_shared 10000 1400 1000 8 UDPCSUM
	rmmod pktgen 2>/dev/null
fi

# --- c. page allocation failures in the RX refill ---------------------------
# Only page_pool's slow path (the page allocator behind the RX refill) is
# made to fail: the stack filter requires __page_pool_alloc_netmems_slow in
# the call chain. A receiver that does not read keeps the pages in its
# socket, so the pool must keep allocating while the injection is on.
# A queue's pool lives as long as its NAPI instance and may hold up to 1152
# spare pages (its ring of returned pages and its cache) from the transfers
# before: 2304 half-page frames, which arrive without one allocation. Each
# test below holds more frames than that in one queue.
FPA=$DBGFS/fail_page_alloc
sym_range() {	# sym_range SYMBOL: "start end" of a kernel function
	local a b start
	# Its size from System.map, its address from kallsyms (sorting all of
	# kallsyms takes minutes on the debug kernel under TCG).
	read -r a b < <(awk -v s="$1" 'f { print $1; exit } $3 == s { printf "%s ", $1; f = 1 }' \
		"$IGB_RUST_BUILD/System.map")
	start=$(grep -m1 " [tT] $1\$" /proc/kallsyms | cut -d' ' -f1)
	[ -n "$a" ] && [ -n "$b" ] && [ -n "$start" ] || return 1
	printf '0x%s 0x%x\n' "$start" $(( 0x$start + 0x$b - 0x$a ))
}
fpa() { echo "$2" > "$FPA/$1"; }
# fpa_arm START END PERCENT: fail that share of the page allocations made with
# the code range START..END (a function) in the call chain; fpa_disarm: stop.
fpa_arm() {
	fpa task-filter N; fpa ignore-gfp-wait Y; fpa ignore-gfp-highmem Y; fpa min-order 0
	fpa verbose 0; fpa interval 1; fpa space 0
	fpa require-start "$1"; fpa require-end "$2"; fpa stacktrace-depth 32
	fpa times -1; fpa probability "$3"
}
fpa_disarm() {
	fpa probability 0
	fpa require-start 0; fpa require-end 0xffffffffffffffff
}
alloc_fail_rx() {
	local range start end f0 f1 slow0 slow1 rc=0 want port=5003 i
	progress "fail_page_alloc"
	range=$(sym_range __page_pool_alloc_netmems_slow)
	[ -n "$range" ] || { echo "__page_pool_alloc_netmems_slow not in kallsyms"; return 1; }
	read -r start end <<< "$range"
	head -c 8M /run/igbt/blob > /run/igbt/fpa.src
	want=$(sha256sum < /run/igbt/fpa.src)
	f0=$(ethtool_stat 'rx[0-9]+_alloc_failed')
	slow0=$(ethtool_stat rx_pp_alloc_slow)
	# The receiver reads nothing until told: 8 MB is about 5800 frames, which
	# its 16 MB of socket memory holds, more than the pool's spares carry.
	rmem=$(sysctl -n net.core.rmem_max)
	sysctl -qw net.core.rmem_max=$((16 << 20))
	rm -f /run/igbt/fpa.read
	python3 -c '
import hashlib, os, socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
s.bind(("0.0.0.0", int(sys.argv[1]))); s.listen(1); s.settimeout(60)
c, _ = s.accept()
for _ in range(900):
    if os.path.exists("/run/igbt/fpa.read"):
        break
    time.sleep(0.1)
h = hashlib.sha256(); c.settimeout(60)
while True:
    b = c.recv(65536)
    if not b: break
    h.update(b)
print(h.hexdigest() + "  -")' $port > /run/igbt/fpa.sum 2>/run/igbt/fpa.err &
	local recv=$!
	wait_listen $port || { echo "receiver did not start"; return 1; }
	fpa_arm "$start" "$end" 50
	ip netns exec $NS timeout 90 socat -u OPEN:/run/igbt/fpa.src TCP:$DUT_IP:$port &
	local send=$!
	# Armed until the refill has failed (then 2 s more of the stream under
	# failures), 60 s at most.
	for ((i = 0; i < 120; i++)); do
		[ "$(ethtool_stat 'rx[0-9]+_alloc_failed')" -gt "$f0" ] && break
		sleep 0.5
	done
	sleep 2
	fpa_disarm
	touch /run/igbt/fpa.read
	wait $send || { echo "sender failed"; rc=1; }
	wait $recv || { echo "receiver: $(tail -1 /run/igbt/fpa.err)"; rc=1; }
	sysctl -qw net.core.rmem_max="$rmem"
	f1=$(ethtool_stat 'rx[0-9]+_alloc_failed')
	slow1=$(ethtool_stat rx_pp_alloc_slow)
	note "rx_alloc_failed $f0 -> $f1, page_pool slow allocations $slow0 -> $slow1"
	echo "DUT rx_packets $(stat_of "$DUT_IF" rx packets), rx_missed_errors $(stat_of "$DUT_IF" rx missed_errors)"
	[ "$(cat /run/igbt/fpa.sum)" = "$want" ] || { echo "data differs"; rc=1; }
	rm -f /run/igbt/fpa.src /run/igbt/fpa.sum /run/igbt/fpa.read
	[ "$f1" -gt "$f0" ] || rc=1
	return $rc
}
# With RX-only traffic and the ring drained by failed refills, no TX
# completion or further frame raises an interrupt: the poll itself must keep
# retrying the refill. The receiver holds every page in its socket (it reads
# only at the end), so the pool cannot recycle its way out.
alloc_fail_rx_only() {
	local range start end port=5006 rc=0 got f0 f1
	progress "fail_page_alloc, RX only"
	range=$(sym_range __page_pool_alloc_netmems_slow) || { echo "no symbol range"; return 1; }
	read -r start end <<< "$range"
	rmem=$(sysctl -n net.core.rmem_max)
	sysctl -qw net.core.rmem_max=$((32 << 20))
	f0=$(ethtool_stat 'rx[0-9]+_alloc_failed')
	python3 -c '
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 32 << 20)
s.bind(("0.0.0.0", int(sys.argv[1])))
open("/run/igbt/rxonly.ready", "w").close()
while not __import__("os").path.exists("/run/igbt/rxonly.read"):
    time.sleep(0.2)
s.settimeout(2)
probes = 0
try:
    while True:
        if s.recv(2048).startswith(b"probe"):
            probes += 1
except socket.timeout:
    pass
print(probes)' $port > /run/igbt/rxonly.out 2>&1 &
	local recv=$!
	for _ in $(seq 1 100); do [ -e /run/igbt/rxonly.ready ] && break; sleep 0.1; done
	fpa_arm "$start" "$end" 100
	# 4000 datagrams, one queue's: more than its ring and its pool's spare
	# pages hold (2560 half-page frames), fewer than the socket holds.
	ip netns exec $NS python3 -c '
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(4000):
    s.sendto(b"x" * 1400, (sys.argv[1], int(sys.argv[2])))
    if i % 50 == 0:
        time.sleep(0.01)' $DUT_IP $port
	sleep 2
	fpa_disarm
	sleep 1
	# Only now, with memory back: do frames get in again?
	ip netns exec $NS python3 -c '
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(50):
    s.sendto(b"probe %d" % i, (sys.argv[1], int(sys.argv[2])))
    time.sleep(0.02)' $DUT_IP $port
	sleep 1
	touch /run/igbt/rxonly.read
	wait $recv
	sysctl -qw net.core.rmem_max="$rmem"
	got=$(cat /run/igbt/rxonly.out)
	f1=$(ethtool_stat 'rx[0-9]+_alloc_failed')
	rm -f /run/igbt/rxonly.*
	note "RX only: rx_alloc_failed $f0 -> $f1; after the failures, $got of 50 probe datagrams arrived"
	[ "$f1" -gt "$f0" ] && [ "$got" -ge 45 ]
}

# ethtool -G allocates the new rings before it touches the device: when that
# fails, the interface must go on exactly as it was. /proc/self/fail-nth makes
# the Nth page allocation of the ethtool task under igb_rust's code fail (the
# stack filter of fail_page_alloc), N = 1..8. Measured: N = 1 and 3 (another
# run: 1, 3, 5 and 7) fail the change, in queue 0's rings; the others fall on
# an allocation with a fallback (kvmalloc's first try) or past the ones the
# filter sees, and -G succeeds and is undone.
ring_state() {	# sizes ethtool reports, then RDBAL/RDLEN/TDBAL/TDLEN of every queue
	local rxq=(/sys/class/net/$DUT_IF/queues/rx-*) sizes
	sizes=$(ethtool -g "$DUT_IF" | awk '$1 == "RX:" { r = $2 } $1 == "TX:" { t = $2 } END { print r "/" t }')
	echo -n "$sizes"
	# From the register dump (ethtool -d): 36 device registers, then 13 per
	# queue (7 RX from RDBAL, 6 TX from TDBAL). Reading BAR0 from Python
	# instead took seconds per call on the debug kernel. Fails when the dump
	# is short or its RDLEN/TDLEN do not match the sizes (16 bytes per
	# descriptor): equal empty or misread states must not pass for
	# unchanged rings.
	ethtool -d "$DUT_IF" raw on | od -An -v -tu4 -w4 |
		awk -v nq=${#rxq[@]} -v sizes="$sizes" '{ r[NR - 1] = $1 }
		END { if (NR < 36 + 13 * nq || split(sizes, s, "/") != 2) exit 1
		      for (q = 0; q < nq; q++) {
			b = 36 + 13 * q
			if (r[b + 2] != s[1] * 16 || r[b + 9] != s[2] * 16) exit 1
			printf " q%d:%s,%s,%s,%s", q, r[b], r[b + 2], r[b + 7], r[b + 9]
		      }
		      print "" }'
}
ring_enomem() {
	local start size e before after c0 n rc=0 failed=0 absorbed=""
	progress "ethtool -G, allocation failing"
	start=$(cat /sys/module/igb_rust/sections/.text)
	size=$(readelf -SW "$IGB_RUST_KO" | awk '{ for (i = 1; i <= NF; i++) if ($i == ".text") { print $(i + 4); exit } }')
	[ -n "$start" ] && [ -n "$size" ] || { echo "no .text range of igb_rust"; return 1; }
	c0=$(cat /sys/class/net/$DUT_IF/carrier_changes)
	before=$(ring_state) || { echo "no register dump, or one that does not match the rings: $before"; return 1; }
	# Probability 0: only fail-nth injects, and only into the task that asks.
	fpa_arm "$start" "$(printf '0x%x' $(( start + 0x$size )))" 0
	fpa ignore-gfp-wait N
	for n in 1 2 3 4 5 6 7 8; do
		if e=$(sh -c 'echo "$2" > /proc/self/fail-nth && exec ethtool -G "$1" rx 4096 tx 4096' \
			sh "$DUT_IF" "$n" 2>&1); then
			absorbed+=" $n"
			ethtool -G "$DUT_IF" rx 256 tx 256 || { echo "undoing -G failed"; rc=1; break; }
			before=$(ring_state) || { echo "no register dump"; rc=1; break; }
			continue
		fi
		failed=$((failed + 1))
		echo "$e" | grep -q 'Cannot allocate memory' || { echo "allocation $n: not ENOMEM: $e"; rc=1; break; }
		after=$(ring_state) || { echo "no register dump"; rc=1; break; }
		[ "$before" = "$after" ] || { echo "allocation $n failed, rings changed: $before -> $after"; rc=1; break; }
	done
	fpa_disarm
	fpa ignore-gfp-wait Y
	note "ethtool -G rx 4096 tx 4096 with its Nth allocation failing: $failed ENOMEM, rings unchanged; succeeded for N =$absorbed"
	[ "$failed" -ge 2 ] || { echo "only $failed of the allocations failed the change"; rc=1; }
	[ "$(cat /sys/class/net/$DUT_IF/carrier_changes)" = "$c0" ] || { echo "carrier changed"; rc=1; }
	ip netns exec $NS ping -q -c 20 -i 0.05 -W 2 $DUT_IP > /dev/null || { echo "pings lost"; rc=1; }
	ethtool -G "$DUT_IF" rx 4096 tx 4096 || { echo "-G without failures refused"; rc=1; }
	return $rc
}
ring_big_rx() {	# the 4096-descriptor rings carry a transfer; back to 256
	bulk rx
	local rc=$?
	ethtool -G "$DUT_IF" rx 256 tx 256 || rc=1
	return $rc
}

if ! part allocfail; then
	:
elif [ -d $FPA ]; then
	check "ethtool -G with each of its allocations failing in turn: ENOMEM, rings, carrier and traffic unchanged; then it succeeds" \
		ring_enomem
	check "rx 4096 tx 4096 after the failures: ${STRESS_MB} MB peer -> DUT intact" ring_big_rx
	check "fail_page_alloc in the RX refill: rx_alloc_failed counts, 8 MB arrive intact" alloc_fail_rx
	check "after the failures: 20 pings from the peer all answered" \
		ip netns exec $NS ping -q -c 20 -i 0.05 -W 2 $DUT_IP
	check "after the failures: ${STRESS_MB} MB peer -> DUT arrive intact" bulk rx
	check "RX only, every refill failing until the ring drains: the poll retries, frames arrive once memory is back" \
		alloc_fail_rx_only
else
	skip "fail_page_alloc in the RX refill" "no fail_page_alloc in this kernel"
fi

# --- e. link flaps and every runtime reconfiguration racing TCP ------------
# Each change below takes RTNL (and the driver's own locks) while the NAPI
# instances move data: on the debug kernel, lockdep sees every pairing.
# The transfer lasts as long as the changes: the sender repeats the blob
# until told to stop, the receiver checks every blob-sized piece by sha256.
race_stream() {	# race_stream tx|rx PORT: prints "N blobs intact" or what failed
	local dir=$1 port=$2 size sender recv rp
	size=$(stat -c %s /run/igbt/blob)
	sender="while :; do cat /run/igbt/blob; [ -e /run/igbt/race.stop ] && break; done"
	recv=(python3 -c '
import hashlib, sys
size, want, n = int(sys.argv[1]), sys.argv[2], 0
while True:
    b = sys.stdin.buffer.read(size)
    if not b:
        break
    if len(b) != size or hashlib.sha256(b).hexdigest() != want:
        sys.exit(f"piece {n + 1}: {len(b)} bytes, contents differ")
    n += 1
print(f"{n} blobs intact")
sys.exit(0 if n > 0 else "nothing arrived")' "$size" "${want_sum%% *}")
	if [ "$dir" = tx ]; then
		ip netns exec $NS sh -c "socat -u TCP-LISTEN:$port,reuseaddr STDOUT | \"\$@\"" sh "${recv[@]}" &
		rp=$!
		wait_listen $port $NS || return 1
		sh -c "$sender" | timeout 600 socat -u STDIN TCP:$PEER_IP:$port || return 1
	else
		sh -c "socat -u TCP-LISTEN:$port,reuseaddr STDOUT | \"\$@\"" sh "${recv[@]}" &
		rp=$!
		wait_listen $port || return 1
		ip netns exec $NS sh -c "$sender" | timeout 600 ip netns exec $NS socat -u STDIN TCP:$DUT_IP:$port ||
			return 1
	fi
	wait $rp
}
# netdev netlink dumps of the DUT's queue statistics, queues, NAPIs and page
# pools, in a loop until the race stops: each takes the locks the changes
# take. Prints "N rounds ..."; fails on the first dump that fails.
race_dumps() {	# race_dumps IFINDEX
	python3 - "$KSRC" "$1" <<'EOF2'
import os, sys, time
sys.path.append(sys.argv[1] + "/tools/net/ynl/pyynl")
from lib import YnlFamily
ynl = YnlFamily(sys.argv[1] + "/Documentation/netlink/specs/netdev.yaml", schema="")
ifindex, n = int(sys.argv[2]), 0
while not os.path.exists("/run/igbt/race.stop"):
    ynl.dump("qstats-get", {"ifindex": ifindex, "scope": "queue"})
    ynl.dump("queue-get", {"ifindex": ifindex})
    ynl.dump("napi-get", {"ifindex": ifindex})
    ynl.dump("page-pool-get", {})
    n += 1
    time.sleep(0.1)
print(f"{n} rounds of qstats, queue, napi and page-pool dumps")
sys.exit(0 if n > 0 else "no dump completed")
EOF2
}
flap_race() {	# both directions at once: DUT -> peer on port 5004, peer -> DUT on 5007
	local i tp rp dp rc=0 err="" nq nmax usecs pause
	progress "flap race"
	nq=$(ethtool -l "$DUT_IF" | awk '/^Combined:/ { v = $2 } END { print v }')
	nmax=$(ethtool -l "$DUT_IF" | awk '/^Combined:/ { print $2; exit }')
	usecs=$(ethtool -c "$DUT_IF" | awk '/^rx-usecs:/ { print $2 }')
	pause=$(ethtool -a "$DUT_IF" | awk '/^RX:/ { r = $2 } /^TX:/ { t = $2 } END { print "rx " r " tx " t }')
	rm -f /run/igbt/race.stop
	race_stream tx 5004 > /run/igbt/race.tx.log 2>&1 &
	tp=$!
	race_stream rx 5007 > /run/igbt/race.rx.log 2>&1 &
	rp=$!
	# The flaps race the transfers, not their set-up: a connect while the
	# link is down fails with ENETUNREACH. Start once both are established.
	for i in $(seq 1 300); do
		[ "$(ss -Htn state established '( dport = :5004 or sport = :5007 )' | wc -l)" -ge 2 ] && break
		sleep 0.1
	done
	race_dumps "$(cat /sys/class/net/$DUT_IF/ifindex)" > /run/igbt/dumps.log 2>&1 &
	dp=$!
	for i in $(seq 1 "$STRESS_ROUNDS"); do
		ethtool --set-tunable "$DUT_IF" rx-copybreak 256 || err+=" copybreak"
		ip link set "$DUT_IF" mtu 9000 || err+=" mtu9000"
		ethtool -L "$DUT_IF" combined 1 || err+=" channels1"
		ethtool -X "$DUT_IF" equal 1 || err+=" rxfh-equal"
		ethtool -C "$DUT_IF" rx-usecs 50 || err+=" coalesce"
		ethtool -A "$DUT_IF" rx off tx off || err+=" pause"
		ethtool -G "$DUT_IF" rx 128 tx 512 || err+=" rings"
		ip link add link "$DUT_IF" name race.7 type vlan id 7 || err+=" vlan-add"
		bridge fdb add 02:00:00:00:07:07 dev "$DUT_IF" self permanent || err+=" fdb-add"
		ethtool -K "$DUT_IF" rxvlan off txvlan off || err+=" vlan-offloads"
		sleep 0.5
		ip link set "$DUT_IF" down && ip link set "$DUT_IF" up || err+=" ip-flap"
		wait_carrier "$DUT_IF" 1 || err+=" carrier"
		# Every queue put to use (their RX rings filled while traffic flows), then
		# back to one per CPU.
		ethtool -L "$DUT_IF" combined "$nmax" || err+=" channels$nmax"
		sleep 0.3
		[ "$nq" != "$nmax" ] && { ethtool -L "$DUT_IF" combined "$nq" || err+=" channels$nq"; }
		ethtool -X "$DUT_IF" default || err+=" rxfh-default"
		ethtool -K "$DUT_IF" rxvlan on txvlan on || err+=" vlan-offloads"
		ip link del race.7 || err+=" vlan-del"
		bridge fdb del 02:00:00:00:07:07 dev "$DUT_IF" self || err+=" fdb-del"
		ethtool -C "$DUT_IF" rx-usecs "$usecs" || err+=" coalesce"
		ethtool -A "$DUT_IF" $pause || err+=" pause"
		ethtool -G "$DUT_IF" rx 256 tx 256 || err+=" rings"
		sleep 0.5
		ethtool --set-tunable "$DUT_IF" rx-copybreak 2048 || err+=" copybreak"
		if [ -d "$OUT/qmp" ]; then
			qmp_set_link h0 off && wait_carrier "$DUT_IF" 0 || err+=" qmp-off"
			sleep 0.3
			qmp_set_link h0 on && wait_carrier "$DUT_IF" 1 || err+=" qmp-on"
		fi
		sleep 0.5
		ip link set "$DUT_IF" mtu 1500 || err+=" mtu1500"
		ethtool --set-tunable "$DUT_IF" rx-copybreak 0 || err+=" copybreak"
		wait_carrier "$DUT_IF" 1 || err+=" carrier"
		sleep 0.5
	done
	touch /run/igbt/race.stop
	wait $dp || err+=" netlink-dumps($(tail -n 1 /run/igbt/dumps.log))"
	wait $tp || rc=1
	wait $rp || rc=1
	note "race: tx $(tail -n 1 /run/igbt/race.tx.log), rx $(tail -n 1 /run/igbt/race.rx.log); $(tail -n 1 /run/igbt/dumps.log)"
	echo "tx: $(cat /run/igbt/race.tx.log); rx: $(cat /run/igbt/race.rx.log)${err:+; failed:$err}"
	[ -z "$err" ] && [ $rc = 0 ]
}
if part flap; then
	[ -d "$OUT/qmp" ] || note "no QEMU monitor relay: link flaps by ip link only"
	what="link flaps, MTU, rx-copybreak, -L, -X, -C, -A, -G, VLAN and fdb add/del, rxvlan/txvlan, netlink dumps"
	check "$what racing ${STRESS_MB} MB blobs DUT -> peer and peer -> DUT at once: all intact" flap_race
	# The fdb entry gone, and with it every secondary receive address:
	# RCTL.UPE clear, the valid bit of RAH(1..15) and RAH(16..23) clear.
	uc_clean() {
		local offs v i=0 bad=""
		bridge fdb show dev "$DUT_IF" self | grep -q 02:00:00:00:07:07 && bad+=" fdb-entry"
		offs="0x100 $(for i in $(seq 1 15); do printf '0x%x ' $((0x5404 + 8 * i)); done)"
		offs+="$(for i in $(seq 0 7); do printf '0x%x ' $((0x54e4 + 8 * i)); done)"
		i=0
		for v in $(bar_read $offs); do
			if [ $i = 0 ]; then
				[ $((v & 8)) = 0 ] || bad+=" RCTL.UPE"
			else
				[ $((v >> 31)) = 0 ] || bad+=" RAH($i)"
			fi
			i=$((i + 1))
		done
		[ $i = 24 ] || bad+=" read $i registers"
		echo "${bad:-fdb entry gone, RCTL.UPE clear, RAH(1..23) invalid}"
		[ -z "$bad" ]
	}
	check "after the races: the fdb entry and its receive address gone" uc_clean
	check "after the races: channels, rings and VLAN offloads as before" \
		test "$(ethtool -l "$DUT_IF" | awk '/^Combined:/ { v = $2 } END { print v }')/$(ring_state | cut -d' ' -f1)/$(ethtool -k "$DUT_IF" | grep -c '^[rt]x-vlan-offload: on')" = "$(nproc | awk '{ print ($1 < 8 ? $1 : 8) }')/256/256/2"
fi

# --- f. page_pool pages in flight return after rmmod ------------------------
# One Python process does it all (each start takes seconds on the debug
# kernel): a receiver holds 32 KB from the peer unread in its socket, so
# pages are in flight; the driver is unloaded; netdev netlink must list the
# DUT's pools with pages in flight, and none of them once the socket closes.
# 32 KB fit the receive window a socket that is never read keeps open. More
# than the window depends on the peer's send buffer taking the rest: 256 KB
# did not, once in three runs, after a retransmission held its growth back.
# A pool is listed only when the driver names its net_device in
# page_pool_params (.netdev); without that no tool can watch it.
#
# TCP frees a closed socket's skbs with skb_attempt_defer_free(): those
# allocated on another CPU wait in that CPU's defer list until it next runs
# NET_RX, which with the DUT gone may be never. A loopback ping on each CPU
# raises NET_RX there and flushes the list.
pp_inflight_after_rmmod() {
	progress "page_pool after rmmod"
	rm -f /run/igbt/pp.note
	ip link set lo up
	ethtool --set-tunable "$DUT_IF" rx-copybreak 0
	python3 - "$KSRC" "$(cat /sys/class/net/$DUT_IF/ifindex)" "$NS" "$DUT_IP" "$DUT_IF" <<'EOF2'
import fcntl, os, socket, struct, subprocess, sys, termios, time
sys.path.append(sys.argv[1] + "/tools/net/ynl/pyynl")
from lib import YnlFamily
ynl = YnlFamily(sys.argv[1] + "/Documentation/netlink/specs/netdev.yaml", schema="")
ifindex, ns, dut_ip, dut_if, port = int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5], 5005
def pools():	# id -> attributes, of every page_pool of this netns
    return {p["id"]: p for p in ynl.dump("page-pool-get", {})}
def progress(m):
    with open("/dev/kmsg", "w") as k:
        k.write(f"igb_rust stress: {m}\n")
ids = [i for i, p in pools().items() if p.get("ifindex") == ifindex]
if not ids:
    sys.exit(f"no page_pool of ifindex {ifindex} in page-pool-get; all pools: {pools()}")
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("0.0.0.0", port))
s.listen(1)
want = 32 * 1024
snd = subprocess.Popen(["ip", "netns", "exec", ns, "sh", "-c",
                        f"head -c {want} /run/igbt/blob | timeout 30 socat -u - TCP:{dut_ip}:{port}"])
s.settimeout(60)
c, _ = s.accept()
queued = 0
for _ in range(300):	# until all of it waits unread in the socket
    queued = struct.unpack("i", fcntl.ioctl(c.fileno(), termios.FIONREAD, b"\0" * 4))[0]
    if queued >= want:
        break
    time.sleep(0.1)
if snd.wait() != 0 or queued < want:
    # What each end of the connection saw, and what the DUT's queues did.
    diag = subprocess.run(["sh", "-c", f"ss -tinm '( sport = :{port} )';"
                           f" ip netns exec {ns} ss -tinm '( dport = :{port} )';"
                           f" ethtool -S {dut_if} | grep -v ': 0$'"],
                          capture_output=True, text=True).stdout
    with open("/run/igbt/pp.note", "w") as f:
        f.write(f"{queued} of {want} bytes arrived in 30 s:\n" + diag)
    sys.exit(1)
if subprocess.run(["rmmod", "igb_rust"]).returncode != 0:
    sys.exit("rmmod failed")
held = sum(p.get("inflight", 0) for i, p in pools().items() if i in ids)
c.close()
s.close()
for rounds in range(1, 21):
    for cpu in sorted(os.sched_getaffinity(0)):
        subprocess.run(["taskset", "-c", str(cpu), "ping", "-q", "-c", "1", "-W", "1", "127.0.0.1"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    left = [i for i in pools() if i in ids]
    if not left:
        break
    time.sleep(0.5)
progress(f"page_pool: {rounds} rounds until the pools were gone")
with open("/run/igbt/pp.note", "w") as f:
    f.write(f"pools of the DUT: {' '.join(map(str, ids))}; in flight after rmmod, socket open: {held};"
            f" left after close: {' '.join(map(str, left)) or 'none'} (after {rounds} rounds)")
# 32 KB arrive as 23 full frames, two to a page (half-page buffers at MTU 1500,
# rx-copybreak 0): at least 16 frames of at most 2 KiB, so at least 8 pages, still held,
# whatever the peer's segment sizes.
sys.exit(0 if held >= want // 4096 and not left else "pages were not in flight after rmmod, or did not return")
EOF2
	local rc=$?
	[ ! -s /run/igbt/pp.note ] || sed -e 's/^/# /' -e '$a\' /run/igbt/pp.note | tee -a "$TAP"
	return $rc
}
part pagepool &&
	check "page_pool: pages held by a socket stay in flight after rmmod, all return once it closes" \
		pp_inflight_after_rmmod

# --- d. load/unload cycles under traffic -----------------------------------
# The peer floods the DUT's address; each cycle loads igb_rust, brings the
# link up, waits for frames from the peer, and unloads.
cycles_under_traffic() {
	local n=$1 i dev done_n=0 rx t0 t1 p
	progress "$n load/unload cycles"
	lsmod | grep -q '^igb_rust ' && rmmod igb_rust
	ip netns exec $NS ping -f -s 1000 $DUT_IP >/dev/null 2>&1 &
	p=$!
	t0=$(date +%s.%N)
	for i in $(seq 1 "$n"); do
		insmod "$IGB_RUST_KO" || { echo "cycle $i: insmod"; break; }
		udevadm settle -t 10 2>/dev/null
		dev=$(netdev_of "$DUT")
		[ -n "$dev" ] || { echo "cycle $i: no interface"; break; }
		# A rename may also land between the lookup and this command.
		ip link set "$dev" up 2>/dev/null ||
			{ udevadm settle -t 10 2>/dev/null; dev=$(netdev_of "$DUT"); ip link set "$dev" up; } ||
			{ echo "cycle $i: link up"; break; }
		# By the PCI device, not the name: on a loaded machine udev may
		# rename the interface only now, while it is up.
		for _ in $(seq 1 300); do
			[ "$(cat /sys/bus/pci/devices/$DUT/net/*/carrier 2>/dev/null)" = 1 ] && break
			sleep 0.1
		done
		[ "$(cat /sys/bus/pci/devices/$DUT/net/*/carrier 2>/dev/null)" = 1 ] ||
			{ echo "cycle $i: no carrier on $(netdev_of "$DUT") after 30 s"; break; }
		# Frames of the flood arrive: the peer's static ARP entry sends
		# them to the DUT's MAC, although the DUT holds no address here.
		# Read by the PCI device: udev may rename the interface meanwhile.
		rx=0
		for _ in $(seq 1 50); do
			rx=$(cat /sys/bus/pci/devices/$DUT/net/*/statistics/rx_packets 2>/dev/null)
			[ "${rx:-0}" -gt 0 ] && break
			sleep 0.1
		done
		[ "${rx:-0}" -gt 0 ] || { echo "cycle $i: no frames received"; break; }
		rmmod igb_rust || { echo "cycle $i: rmmod"; break; }
		[ "$(driver_of "$DUT")" = none ] || { echo "cycle $i: still bound"; break; }
		done_n=$i
	done
	t1=$(date +%s.%N)
	kill $p 2>/dev/null
	wait $p 2>/dev/null
	note "$done_n of $n cycles in $(echo "$t1 - $t0" | bc) s"
	[ "$done_n" = "$n" ] && ! grep -q '^igb_rust ' /proc/modules
}
# The pair stays: the peer, in its namespace, floods the DUT's address.
if part cycles; then
	if lsmod | grep -q '^igb_rust '; then
		ip link set "$DUT_IF" down
		ip addr flush dev "$DUT_IF"
	fi
	check "$STRESS_CYCLES load/up/unload cycles while the peer floods, each receives frames" \
		cycles_under_traffic "$STRESS_CYCLES"
	insmod "$IGB_RUST_KO"
	udevadm settle -t 10 2>/dev/null
	DUT_IF=$(netdev_of "$DUT")
	ip addr add $DUT_IP/24 dev "$DUT_IF"
	ip link set "$DUT_IF" up
	wait_carrier "$DUT_IF" 1
	check "after the cycles: ping DUT -> peer" ping -c 3 -i 0.2 -W 2 $PEER_IP
fi
umount /run/igbt
teardown_pair
