#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The pktgen + sar benchmark matrix, run inside the guest by scripts/bench.sh.
#
# The DUT NIC is driven in turn by the C igb and by igb_rust (several
# rx-copybreak settings, and once as the IGB_RUST_BENCH=y copy that recycles
# every received frame, for the RX ceiling; "c-xdp" and "rust-xdp" run the
# same XDP program on either driver, which drops pktgen's frames);
# the peer NIC, in namespace "peer", always by the C igb. RX: pktgen on the
# peer (CPU 0) sends UDP to the DUT, whose interrupts are pinned to CPU 1.
# TX: pktgen on the DUT (CPU 1) sends to the peer. Each cell is one run of
# `sar -n DEV -u ALL -P ALL 1 $DUR`, between the two markers of the
# instruction-counting plugin when it is loaded.
#
# Bulk TCP (iperf3) both ways, for the TCP_VARIANTS, follows each variant's
# pktgen cells.
#
# AF_XDP (XSK_VARIANTS: c-zc, rust-zc, c-copy, rust-copy; XSK_MODES: rxdrop,
# txpush, l2fwd): an AF_XDP socket (tools/igb_rust/xsk_rx.c, on CPU 0) bound
# to queue 0 of the DUT in zero-copy or copy mode, every frame steered to
# queue 0 and the program tools/igb_rust/xdp/xdp_xsk.bpf.c attached. rxdrop:
# pktgen on the peer sends UDP to port 4448, which the program redirects to
# the socket, which drops it (the DUT's rx packets); l2fwd: the same, and the
# socket sends each frame back with its MAC addresses swapped (the DUT's tx
# packets); txpush: the socket sends UDP to the peer (the DUT's tx packets).
#
# Environment: OUT (results), DUR (s per cell), REPS, SIZES, RX_VARIANTS,
# TX_VARIANTS, TCP_VARIANTS, XSK_VARIANTS, XSK_MODES, XSK_SIZES (the AF_XDP
# cells' sizes), MARK_BEGIN/MARK_END (marker programs, optional).
set -u
. "$(dirname "$0")/../lib.sh"
BENCH=$(dirname "$0")
DUR=${DUR:-2}
REPS=${REPS:-3}
SIZES=${SIZES:-64 128 256 512 1024 1500}
RX_VARIANTS=${RX_VARIANTS:-c rust-cb0 rust-cb256 rust-cb512 ceiling}
TX_VARIANTS=${TX_VARIANTS:-c rust-cb0}
TCP_VARIANTS=${TCP_VARIANTS-c rust-cb0}
XSK_VARIANTS=${XSK_VARIANTS-c-zc rust-zc c-copy rust-copy}
XSK_MODES=${XSK_MODES:-rxdrop txpush l2fwd}
XSK_SIZES=${XSK_SIZES:-64 1500}
XSK_RX=$IGB_RUST_BUILD/xsk_rx
MARK_BEGIN=${MARK_BEGIN:-}
MARK_END=${MARK_END:-}
RAW=$OUT/raw.csv
INSN=$OUT/insn.txt
RANGES=$OUT/ranges.txt
export LC_ALL=C S_TIME_FORMAT=ISO

# This script and everything it starts stay on CPU 0; CPU 1 belongs to the
# DUT's interrupts and NAPI (and, for TX, to the DUT's pktgen thread).
taskset -pc 0 $$ >/dev/null

progress() { echo "[bench] $*"; }
die() { echo "[bench] error: $*"; exit 1; }

setup_modules || die "no 82576 pair"
modprobe igb || die "no igb module"
modprobe pktgen || die "no pktgen module"
[ "$(driver_of "$PEER")" = igb ] || echo "$PEER" > /sys/bus/pci/drivers/igb/bind
udevadm settle -t 10 2>/dev/null
PEER_IF=$(netdev_of "$PEER")
ip netns add $NS
ip link set "$PEER_IF" netns $NS
ip netns exec $NS sysctl -qw net.ipv6.conf.$PEER_IF.disable_ipv6=1
ip -n $NS addr add $PEER_IP/24 dev "$PEER_IF"
ip -n $NS link set "$PEER_IF" up
ip -n $NS neigh replace $DUT_IP lladdr "$DUT_MAC" dev "$PEER_IF" nud permanent
pin_irqs() {	# pin_irqs PCI-ADDRESS CPU
	local irq
	for irq in $(ls "/sys/bus/pci/devices/$1/msi_irqs" 2>/dev/null); do
		echo "$2" > "/proc/irq/$irq/smp_affinity_list" 2>/dev/null
	done
}
pin_irqs "$PEER" 0
if [ -n "$MARK_BEGIN" ]; then
	python3 "$BENCH/ranges.py" kernel "$OUT/ranges.kernel"
	grep -v '\[' /proc/kallsyms > "$OUT/kallsyms.kernel"	# for profile.py
fi

# bind_dut VARIANT: give the DUT NIC to the variant's driver and bring it up.
bind_dut() {
	local v=$1 d=/sys/bus/pci/devices/$DUT
	[ -e "$d/driver" ] && echo "$DUT" > "$d/driver/unbind"
	lsmod | grep -q '^igb_rust ' && rmmod igb_rust
	case $v in
	c | c-xdp | c-zc | c-copy)
		echo igb > "$d/driver_override"
		echo "$DUT" > /sys/bus/pci/drivers/igb/bind || return 1
		;;
	rust-cb* | ceiling | rust-xdp | rust-zc | rust-copy)
		echo igb_rust > "$d/driver_override"
		insmod "$(ko_of "$v")" || return 1
		;;
	esac
	udevadm settle -t 10 2>/dev/null
	DUT_IF=$(netdev_of "$DUT")
	[ -n "$DUT_IF" ] || return 1
	case $v in
	rust-cb*) ethtool --set-tunable "$DUT_IF" rx-copybreak "${v#rust-cb}" || return 1 ;;
	esac
	case $v in
	rust-* | ceiling) [ -z "${RUST_COALESCE:-}" ] || ethtool -C "$DUT_IF" $RUST_COALESCE || return 1 ;;
	esac
	if [ -n "$MARK_BEGIN" ]; then
		python3 "$BENCH/ranges.py" module "$(module_of "$v")" "$(ko_of "$v")" "$OUT/ranges.$v"
		grep '\[' /proc/kallsyms > "$OUT/kallsyms.$v.$rep"	# every module
	fi
	sysctl -qw net.ipv6.conf.$DUT_IF.disable_ipv6=1
	ip addr add $DUT_IP/24 dev "$DUT_IF"
	ip link set "$DUT_IF" up
	ip neigh replace $PEER_IP lladdr "$PEER_MAC" dev "$DUT_IF" nud permanent
	pin_irqs "$DUT" 1
	wait_carrier "$DUT_IF" 1 && wait_carrier "$PEER_IF" 1 $NS || return 1
	case $v in
	*-xdp)
		# C igb reconfigures on attach: wait for the link again.
		ip link set dev "$DUT_IF" xdpdrv obj "$IGB_RUST_BUILD/xdp/bench.o" sec xdp || return 1
		pin_irqs "$DUT" 1
		wait_carrier "$DUT_IF" 1 && wait_carrier "$PEER_IF" 1 $NS
		;;
	*-zc | *-copy)
		# Every frame to queue 0, where the socket binds.
		ethtool -X "$DUT_IF" equal 1 || return 1
		ip link set dev "$DUT_IF" xdpdrv obj "$IGB_RUST_BUILD/xdp/xsk.o" sec xdp || return 1
		pin_irqs "$DUT" 1
		wait_carrier "$DUT_IF" 1 && wait_carrier "$PEER_IF" 1 $NS
		;;
	esac
}

module_of() { case $1 in c | c-*) echo igb ;; *) echo igb_rust ;; esac; }
ko_of() {
	case $1 in
	c | c-*) modinfo -n igb ;;
	ceiling) echo "$IGB_RUST_BENCH_KO" ;;
	*) echo "$IGB_RUST_KO" ;;
	esac
}

# in_ns NS CMD...: run CMD in namespace NS ("-" is the initial one).
in_ns() {
	local ns=$1
	shift
	if [ "$ns" = - ]; then "$@"; else ip netns exec "$ns" "$@"; fi
}

# counters DIR: "PACKETS IRQS NOPORTS" in one process: the DUT's rx or tx
# packet counter, the interrupts its NIC raised (all vectors and CPUs) and
# the UDP datagrams its stack received for a closed port.
counters() {
	awk -v d="PCI-MSIX-$DUT" '
		FILENAME ~ /statistics/ { p = $1 }
		FILENAME == "/proc/interrupts" && $0 ~ d {
			for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) n += $i }
		FILENAME == "/proc/net/snmp" && $1 == "Udp:" && $2 ~ /^[0-9]+$/ { u = $3 }
		END { print p + 0, n + 0, u + 0 }' \
		"/sys/class/net/$DUT_IF/statistics/${1}_packets" /proc/interrupts /proc/net/snmp
}

# count_ranges LABEL VARIANT: tell the plugin the label and address ranges of
# the next counting window (nothing without the plugin).
count_ranges() {
	[ -n "$MARK_BEGIN" ] || return 0
	{ echo "label $1"; cat "$OUT/ranges.$2" "$OUT/ranges.kernel"; } > "$RANGES"
	sync "$RANGES"
}

# cpu1_share SAR-OUTPUT: "SOFT BUSY", CPU 1's softirq and busy share (Average row).
cpu1_share() {
	awk '$1 == "Average:" && $2 == "CPU" { for (k = 3; k <= NF; k++) c[$k] = k }
		$1 == "Average:" && $2 == "1" && ("%soft" in c) { print $c["%soft"], 100 - $c["%idle"] }' "$1"
}

# insn_of LABEL: the plugin's counts of window LABEL as "k=v;k=v;...", or
# nothing without the plugin.
insn_of() {
	[ -n "$MARK_END" ] || return 0
	grep -F "$1 " "$INSN" 2>/dev/null | tail -1 | cut -d' ' -f2- | tr ' ' ';'
}

# pktgen_setup DIR SIZE PORT: one pktgen device on the sender's CPU thread
# (the peer's for rx, the DUT's for tx): endless UDP to PORT, pkt_size
# without the FCS.
pktgen_setup() {
	local dir=$1 size=$2 port=$3 ns dev thr dst dmac
	if [ "$dir" = rx ]; then
		ns=$NS dev=$PEER_IF thr=kpktgend_0 dst=$DUT_IP dmac=$DUT_MAC
	else
		ns=- dev=$DUT_IF thr=kpktgend_1 dst=$PEER_IP dmac=$PEER_MAC
	fi
	in_ns "$ns" sh -c "cd /proc/net/pktgen && echo rem_device_all > $thr &&
		echo 'add_device $dev' > $thr && for c in 'count 0' 'clone_skb 0' \
		'pkt_size $((size - 4))' 'delay 0' 'dst $dst' 'dst_mac $dmac' \
		'udp_dst_min $port' 'udp_dst_max $port'; do echo \"\$c\" > $dev || exit 1; done" ||
		die "pktgen setup failed"
}

# measure DIR SIZE VARIANT REP: one cell, one CSV row.
measure() {
	local dir=$1 size=$2 v=$3 rep=$4 ns label tmp p0 p1 i0 i1 u0 u1 pps soft busy insn
	ns=-
	[ "$dir" = rx ] && ns=$NS
	pktgen_setup "$dir" "$size" 9
	label="$dir,$size,$v,$rep"
	tmp=$OUT/sar.$dir.$size.$v.$rep.txt
	count_ranges "$label" "$v"
	# The counting window holds the whole burst: the counters are read with
	# no traffic in flight, so every instruction counted belongs to a counted
	# packet (or to idle, which executes none).
	[ -n "$MARK_BEGIN" ] && "$MARK_BEGIN"
	read -r p0 i0 u0 < <(counters "$dir")
	in_ns "$ns" sh -c 'echo start > /proc/net/pktgen/pgctrl' &
	local pgpid=$!
	sleep 0.5
	sar -n DEV -u ALL -P ALL 1 "$DUR" > "$tmp" 2>&1
	in_ns "$ns" sh -c 'echo stop > /proc/net/pktgen/pgctrl'
	wait $pgpid 2>/dev/null
	sleep 0.5
	read -r p1 i1 u1 < <(counters "$dir")
	[ -n "$MARK_END" ] && "$MARK_END"
	record "$dir" "$dir" "$size" "$v" "$rep" "$label" "$tmp" $((p1 - p0)) $((i1 - i0)) $((u1 - u0))
	progress "$(printf '%-2s %4sB %-10s rep %s: %10s pps  cpu1 soft %5s%%  busy %5s%%  %s pkts/irq' \
		"$dir" "$size" "$v" "$rep" "${pps:-?}" "${soft:-?}" "${busy:-?}" \
		"$(( (p1 - p0) / (i1 - i0 > 0 ? i1 - i0 : 1) ))")"
}

# record ROWDIR DIR SIZE VARIANT REP LABEL SAR-OUTPUT PACKETS IRQS NOPORTS: one
# CSV row of a cell (its dir column ROWDIR), from the sar output's Average
# rows (the DUT's rx or tx packets per second as DIR says, CPU 1's softirq
# and busy share, left in pps, soft and busy for the caller) and the
# plugin's counts of window LABEL.
record() {
	local insn
	pps=$(awk -v i="$DUT_IF" -v d="$2" '$1 == "Average:" && $2 == i {
		print (d == "rx" ? $3 : $4) }' "$7")
	read -r soft busy < <(cpu1_share "$7")
	insn=$(insn_of "$6")
	echo "$5,$1,$3,$4,${pps:-0},${soft:-0},${busy:-0},$8,$9,${10},$insn" >> "$RAW"
}

# measure_xsk MODE SIZE VARIANT REP: one AF_XDP cell (rxdrop, txpush or l2fwd),
# one CSV row: its dir column is the mode. The socket binds before the counting
# window opens and goes after it closes: the window holds only traffic. The
# instructions of both CPUs count (the socket's wakeups run the driver on CPU 0).
measure_xsk() {
	local mode=$1 size=$2 v=$3 rep=$4 dir=tx label tmp p0 p1 i0 i1 u0 u1 pps soft busy insn xpid res i
	local xout=$OUT/xsk.$1.$2.$3.$4.txt ifx prog map
	[ "$mode" = rxdrop ] && dir=rx
	ifx=$(cat "/sys/class/net/$DUT_IF/ifindex")
	prog=$(ip -d link show dev "$DUT_IF" | sed -n 's/.*prog\/xdp id \([0-9]*\).*/\1/p')
	map=$(bpftool -j prog show id "$prog" | python3 -c 'import json,sys; print(json.load(sys.stdin)["map_ids"][0])') ||
		die "no XSKMAP on $DUT_IF"
	if [ "$mode" = txpush ]; then
		taskset -c 0 "$XSK_RX" "$ifx" 0 0 "${v#*-}" 0 3600 txpush \
			"$DUT_MAC" "$PEER_MAC" "$DUT_IP" "$PEER_IP" "$size" > "$xout" 2>&1 &
	else
		pktgen_setup rx "$size" 4448
		taskset -c 0 "$XSK_RX" "$ifx" 0 "$map" "${v#*-}" 0 3600 "$mode" > "$xout" 2>&1 &
	fi
	xpid=$!
	for i in $(seq 100); do
		grep -q '^ready' "$xout" && break
		kill -0 $xpid 2>/dev/null || die "the AF_XDP socket of $v did not bind: $(cat "$xout")"
		sleep 0.2
	done
	grep -q '^ready' "$xout" || die "the AF_XDP socket of $v did not bind in time"
	# The queue settles after the bind (each driver restarts its rings).
	wait_carrier "$DUT_IF" 1 || die "no carrier after the bind"
	sleep 1
	label="$mode,$size,$v,$rep"
	tmp=$OUT/sar.$mode.$size.$v.$rep.txt
	count_ranges "$label" "$v"
	[ -n "$MARK_BEGIN" ] && "$MARK_BEGIN"
	read -r p0 i0 u0 < <(counters "$dir")
	kill -USR1 $xpid
	local pgpid=""
	if [ "$mode" != txpush ]; then
		in_ns "$NS" sh -c 'echo start > /proc/net/pktgen/pgctrl' &
		pgpid=$!
	fi
	sleep 0.5
	sar -n DEV -u ALL -P ALL 1 "$DUR" > "$tmp" 2>&1
	if [ -n "$pgpid" ]; then
		in_ns "$NS" sh -c 'echo stop > /proc/net/pktgen/pgctrl'
		wait $pgpid 2>/dev/null
		sleep 0.5
	fi
	kill -USR2 $xpid
	for i in $(seq 50); do
		res=$(grep -v '^ready' "$xout")
		[ -n "$res" ] && break
		sleep 0.1
	done
	sleep 0.5
	read -r p1 i1 u1 < <(counters "$dir")
	[ -n "$MARK_END" ] && "$MARK_END"
	kill $xpid
	wait $xpid 2>/dev/null
	record "$mode" "$dir" "$size" "$v" "$rep" "$label" "$tmp" $((p1 - p0)) $((i1 - i0)) 0
	progress "$(printf '%-6s %4sB %-9s rep %s: %10s pps  cpu1 soft %5s%%  busy %5s%%  socket: %s' \
		"$mode" "$size" "$v" "$rep" "${pps:-?}" "${soft:-?}" "${busy:-?}" "${res:-?}")"
}

# measure_tcp DIR VARIANT REP: one bulk TCP transfer of DUR s (iperf3), peer ->
# DUT ("rx") or DUT -> peer ("tx"), the DUT's end on CPU 1, the peer's on CPU 0.
# The client's JSON report (bytes delivered, the sender's retransmits) goes to
# iperf.DIR.VARIANT.REP.json, one row to tcp.csv: CPU 1's softirq and busy
# share, the DUT's interrupts and, under TCG, CPU 1's instructions (the DUT's
# NAPI, its stack and its iperf3 end). For rx, also the memory the DUT's
# socket is charged for 32 KB it holds unread (the truesize of the skbs that
# carry them): ss -m's rmem against the bytes queued.
measure_tcp() {
	local dir=$1 v=$2 rep=$3 srv_ns srv_cpu cli_ns cli_cpu dst spid cpid sarpid i0 i1 soft busy insn
	local label="tcp$1,0,$2,$3" json=$OUT/iperf.$1.$2.$3.json tmp=$OUT/sar.tcp$1.$2.$3.txt rmem=0 queued=0
	if [ "$dir" = rx ]; then
		srv_ns=- srv_cpu=1 cli_ns=$NS cli_cpu=0 dst=$DUT_IP
	else
		srv_ns=$NS srv_cpu=0 cli_ns=- cli_cpu=1 dst=$PEER_IP
	fi
	in_ns "$srv_ns" taskset -c $srv_cpu iperf3 -s -1 -p 5201 > /dev/null 2>&1 &
	spid=$!
	if [ "$srv_ns" = - ]; then wait_listen 5201; else wait_listen 5201 "$NS"; fi || die "no iperf3 server"
	count_ranges "$label" "$v"
	[ -n "$MARK_BEGIN" ] && "$MARK_BEGIN"
	read -r _ i0 _ < <(counters "$dir")
	sar -u ALL -P ALL 1 "$DUR" > "$tmp" 2>&1 &
	sarpid=$!
	in_ns "$cli_ns" taskset -c $cli_cpu iperf3 -c "$dst" -p 5201 -t "$DUR" -J > "$json" 2>&1 ||
		die "iperf3 $dir with $v failed: $(tail -n 3 "$json")"
	wait $sarpid
	read -r _ i1 _ < <(counters "$dir")
	[ -n "$MARK_END" ] && "$MARK_END"
	wait $spid 2>/dev/null
	read -r soft busy < <(cpu1_share "$tmp")
	insn=$(insn_of "$label")
	if [ "$dir" = rx ]; then
		taskset -c 1 python3 -c 'import socket, time
s = socket.create_server(("", 5301))
c, _ = s.accept()
time.sleep(4)' &
		spid=$!
		wait_listen 5301 || die "no holder socket"
		ip netns exec $NS sh -c "(head -c 32768 /dev/zero; sleep 3) | socat -u - TCP:$DUT_IP:5301" &
		cpid=$!
		sleep 1.5
		read -r queued rmem < <(ss -HtmnO state established '( sport = :5301 )' |
			awk '{ r = 0; if (match($0, /skmem:\(r[0-9]+/)) r = substr($0, RSTART + 8, RLENGTH - 8)
				print $1, r; exit }')
		wait $spid $cpid
	fi
	echo "$rep,$dir,$v,${soft:-0},${busy:-0},$((i1 - i0)),${queued:-0},${rmem:-0},$insn" >> "$OUT/tcp.csv"
	progress "$(printf 'tcp %s %-10s rep %s: %s' "$dir" "$v" "$rep" \
		"$(grep -o '"bits_per_second":[^,]*' "$json" | tail -1 | cut -d: -f2 |
			awk '{ printf "%.1f Mbit/s", $1 / 1e6 }'), rmem $rmem for $queued B queued")"
}

echo "rep,dir,size,variant,pps,soft_pct,busy_pct,packets,irqs,udp_noports,insn" > "$RAW"
echo "rep,dir,variant,soft_pct,busy_pct,irqs,queued,rmem,insn" > "$OUT/tcp.csv"
: > "$INSN"
variants=$(for v in $RX_VARIANTS $TX_VARIANTS $TCP_VARIANTS $XSK_VARIANTS; do echo "$v"; done | awk '!s[$0]++')
for rep in $(seq 1 "$REPS"); do
	for v in $variants; do
		bind_dut "$v" || die "cannot bring the DUT up with $v"
		for dir in rx tx; do
			want=$RX_VARIANTS
			[ $dir = tx ] && want=$TX_VARIANTS
			case " $want " in *" $v "*) ;; *) continue ;; esac
			for size in $SIZES; do
				measure $dir "$size" "$v" "$rep"
			done
		done
		case " $TCP_VARIANTS " in
		*" $v "*) for dir in rx tx; do measure_tcp $dir "$v" "$rep"; done ;;
		esac
		case " $XSK_VARIANTS " in
		*" $v "*)
			for mode in $XSK_MODES; do
				for size in $XSK_SIZES; do
					measure_xsk "$mode" "$size" "$v" "$rep"
				done
			done
			;;
		esac
	done
done
[ -e "/sys/bus/pci/devices/$DUT/driver" ] && echo "$DUT" > "/sys/bus/pci/devices/$DUT/driver/unbind"
lsmod | grep -q '^igb_rust ' && rmmod igb_rust

# The page_pool dma_sync_size microbenchmark on the same DUT.
if [ -n "${PPBENCH:-1}" ] && [ "${PPBENCH:-1}" != 0 ]; then
	echo pp_bench > "/sys/bus/pci/devices/$DUT/driver_override"
	dmesg -C
	if insmod "$PP_BENCH_KO"; then
		dmesg | sed -n 's/.*pp_bench: *//p' > "$OUT/pp_bench.txt"
		rmmod pp_bench
	fi
fi
dmesg > "$OUT/dmesg.txt"
progress "done"
echo BENCH-DONE > "$OUT/done"
