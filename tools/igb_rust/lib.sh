# SPDX-License-Identifier: GPL-2.0
#
# Guest-side helpers for the igb_rust tests: TAP output, device discovery,
# module handling. Sourced by the guest scripts; runs inside the QEMU guest.

: "${IGB_RUST_BUILD:?IGB_RUST_BUILD must point at the kernel build directory}"
OUT=${OUT:-/tmp/igb_rust-out}
MODDIR=$IGB_RUST_BUILD/igb_rust/drivers/net/ethernet/intel/igb_rust
IGB_RUST_KO=$MODDIR/igb_rust.ko
# The in-tree build of the same sources (CONFIG_IGB_RUST=m, patches/0010).
IGB_RUST_INTREE_KO=$IGB_RUST_BUILD/drivers/net/ethernet/intel/igb_rust/igb_rust.ko
# The copy `make bench` builds for the RX ceiling (recycles every frame).
IGB_RUST_BENCH_KO=$IGB_RUST_BUILD/igb_rust-bench/drivers/net/ethernet/intel/igb_rust/igb_rust.ko
PP_BENCH_KO=$IGB_RUST_BUILD/pp_bench/pp_bench.ko
# Takes one PCI device through a suspend/resume cycle (tools/igb_rust/pm_cycle).
PM_CYCLE_KO=$IGB_RUST_BUILD/pm_cycle/pm_cycle.ko
# The kernel's VF driver, built apart by scripts/build.sh (tests/sriov.sh).
IGBVF_KO=$IGB_RUST_BUILD/igbvf/igbvf.ko
NS=peer
DUT_IP=192.0.2.1
PEER_IP=192.0.2.2
DUT_IP6=2001:db8::1
PEER_IP6=2001:db8::2

mkdir -p "$OUT"
TAP=$OUT/tap.txt
: > "$TAP"
T_N=0
# Milliseconds each result took since the one before (bash's own clock: no process
# started), to see where the suite's time goes.
T_TIMES=$OUT/times.txt
: > "$T_TIMES"
T_LAST=$EPOCHREALTIME

# Every test result is one TAP line, on the console and in $TAP.
t_result() {	# t_result ok|not_ok NAME [DETAIL]
	T_N=$((T_N + 1))
	local line
	if [ "$1" = ok ]; then line="ok $T_N - $2"; else line="not ok $T_N - $2"; fi
	echo "$line" >> "$TAP"
	echo "$line"
	local now=$EPOCHREALTIME
	printf '%s %s %.60s\n' "$(( (${now//[.,]/} - ${T_LAST//[.,]/}) / 1000 ))" "$T_N" "$2" >> "$T_TIMES"
	T_LAST=$now
	if [ -n "${3:-}" ]; then
		printf '%s\n' "$3" | sed 's/^/# /' | tee -a "$TAP"
	fi
}
ok() { t_result ok "$@"; }
skip() { t_result ok "$1 # SKIP $2"; }	# skip NAME REASON
fail() { t_result not_ok "$@"; }
# check NAME CMD...: one test that passes when CMD succeeds.
check() {
	local name=$1 outp
	shift
	if outp=$("$@" 2>&1); then ok "$name"; else fail "$name" "$outp"; fi
}
note() { echo "# $*" | tee -a "$TAP"; }

# 82576 functions in PCI order: the first is the device under test (behind
# root port 1), the second its peer.
# The helpers below read sysfs with the shell's own `read`: on the debug
# kernel under TCG each process started costs about a quarter of a second.
igb_functions() {
	local d v i
	for d in /sys/bus/pci/devices/*; do
		read -r v < "$d/vendor" && read -r i < "$d/device" &&
			[ "$v/$i" = 0x8086/0x10c9 ] && echo "${d##*/}"
	done	# the glob sorts by PCI address
}

setup_modules() {
	# The guest runs the host's root: make the freshly built modules visible.
	if [ -d "$IGB_RUST_BUILD/mods/lib/modules/$(uname -r)" ]; then
		mount --bind "$IGB_RUST_BUILD/mods/lib/modules" /lib/modules
	fi
	set -- $(igb_functions)
	DUT=${1:-}
	PEER=${2:-}
	[ -n "$DUT" ] && [ -n "$PEER" ] || return 1
	# Each driver binds only its own NIC. udev may already have loaded the
	# C igb for both at boot: release them first. A NIC already with its
	# own driver is left alone.
	local d want
	for d in "$DUT" "$PEER"; do
		want=igb
		[ "$d" = "$DUT" ] && want=igb_rust
		if [ -e "/sys/bus/pci/devices/$d/driver" ] && [ "$(driver_of "$d")" != $want ]; then
			echo "$d" > "/sys/bus/pci/devices/$d/driver/unbind"
		fi
		echo $want > "/sys/bus/pci/devices/$d/driver_override"
		if [ -d /sys/bus/pci/drivers/$want ] && [ "$(driver_of "$d")" = none ]; then
			echo "$d" > /sys/bus/pci/drivers/$want/bind
		fi
	done
}

driver_of() {	# driver_of PCI-ADDRESS -> driver name or "none"
	local l=/sys/bus/pci/devices/$1/driver
	if [ -e "$l" ]; then basename "$(readlink "$l")"; else echo none; fi
}

netdev_of() {	# netdev_of PCI-ADDRESS -> interface name
	local n=(/sys/bus/pci/devices/$1/net/*)
	[ ! -e "${n[0]}" ] || echo "${n[0]##*/}"
}

# Kernel log lines that must never appear: WARN/BUG/Oops and leaks, and on
# the debug kernel (scripts/kconfig/debug.config) the reports of lockdep,
# KASAN, UBSAN, DMA-API debugging, the reference trackers and the
# atomic-sleep checks.
BAD_DMESG='WARNING:|BUG:|Oops|kernel BUG|general protection|unreferenced object|Call Trace|refcount_t:|list_(add|del) corruption|RCU stall|soft lockup|hung_task'
BAD_DMESG+='|INFO: |possible circular locking|inconsistent lock state|possible recursive locking|suspicious RCU usage'
BAD_DMESG+='|BUG: KASAN|KASAN:|UBSAN:|DMA-API: [^ ]+ [^ ]+: |DMA-API: debugging out of memory|ref_tracker'
BAD_DMESG+='|sleeping function called from invalid context|scheduling while atomic'

kmemleak_scan() {	# prints the leak report, if any
	local f=/sys/kernel/debug/kmemleak
	[ -e $f ] || mount -t debugfs none /sys/kernel/debug 2>/dev/null
	[ -w $f ] || { echo "kmemleak not available"; return 1; }
	echo scan > $f
	echo scan > $f	# twice: a young object is only reported on its second scan
	cat $f
}

ethtool_stat() {	# ethtool_stat REGEX: the DUT's ethtool -S counters whose whole name matches REGEX, summed (0 if none)
	ethtool -S "$DUT_IF" | awk -v p="$1" '$1 ~ "^(" p "):$" { s += $2 } END { print s + 0 }'
}

ethtool_value() {	# ethtool_value NAME: the DUT's ethtool -S counter NAME; nothing if it has none
	ethtool -S "$DUT_IF" | awk -v k="$1:" '$1 == k { print $2 }'
}

stat_of() {	# stat_of IF rx|tx packets|bytes [NS]
	if [ -n "${4:-}" ]; then
		ip netns exec "$4" cat /sys/class/net/$1/statistics/${2}_$3
	else
		local v
		read -r v < "/sys/class/net/$1/statistics/${2}_$3" && echo "$v"
	fi
}

# The helpers that reach the DUT's registers through BAR0 in sysfs run Python
# without the site module (-S): they need only the standard library, and under
# TCG site's start alone takes 0.3 s of the 0.6 s a Python start costs.
bar_read() {	# bar_read OFFSET...: DUT registers, in decimal, one per line (through BAR0 in sysfs)
	python3 -S - "/sys/bus/pci/devices/$DUT/resource0" "$@" <<'PY'
import mmap, os, struct, sys
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_SYNC)
m = mmap.mmap(fd, 0x20000, mmap.MAP_SHARED, mmap.PROT_READ)
for off in sys.argv[2:]:
    print(struct.unpack_from('<I', m, int(off, 0))[0])
PY
}

bar_watch() {	# bar_watch OFFSET CMD...: runs CMD; prints the distinct values the DUT register took meanwhile, then CMD's status
	# One process samples every 10 ms for as long as CMD runs: a Python start
	# per sample would take seconds under TCG.
	python3 -S - "/sys/bus/pci/devices/$DUT/resource0" "$@" <<'PY'
import mmap, os, struct, subprocess, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_SYNC)
m = mmap.mmap(fd, 0x20000, mmap.MAP_SHARED, mmap.PROT_READ)
off = int(sys.argv[2], 0)
seen = []
p = subprocess.Popen(sys.argv[3:], stdout=subprocess.DEVNULL)
while True:
    done = p.poll() is not None
    v = struct.unpack_from('<I', m, off)[0]
    if v not in seen:
        seen.append(v)
    if done:
        break
    time.sleep(0.01)
print(" ".join(map(str, seen)))
print(p.returncode)
PY
}

bar_write() {	# bar_write OFFSET VALUE: write a DUT register (through BAR0 in sysfs)
	python3 -S - "/sys/bus/pci/devices/$DUT/resource0" "$1" "$2" <<'PY'
import mmap, os, struct, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_SYNC)
m = mmap.mmap(fd, 0x20000, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
struct.pack_into('<I', m, int(sys.argv[2], 0), int(sys.argv[3], 0))
PY
}

# msix_vectors PCI-ADDRESS: "IRQ VECTOR COUNT NAME" for each MSI-X vector of
# the function, COUNT summed over the CPUs, NAME the handler's (none for a
# line without one that fired before). The vector follows the chip's name:
# "PCI-MSIX-<address> 1-edge" on x86, "ITS-PCI-MSIX-<address> 1 Edge" on arm64.
msix_vectors() {
	awk -v d="PCI-MSIX-$1\$" '{
		s = 0
		for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i
		for (; i < NF; i++) if ($i ~ d) {
			v = $(i + 1); n = i + 2
			if (v ~ /^[0-9]+-edge$/) sub("-edge", "", v)
			else if (v !~ /^[0-9]+$/ || $(i + 2) != "Edge") break
			else n = i + 3
			sub(":", "", $1); print $1, v, s, (n <= NF ? $n : ""); break
		}
	}' /proc/interrupts
}

dma_bits() {	# dma_bits PCI-ADDRESS -> streaming/coherent DMA mask widths, e.g. 64/64
	echo "$(cat /sys/bus/pci/devices/$1/dma_mask_bits)/$(cat /sys/bus/pci/devices/$1/consistent_dma_mask_bits)"
}

kmsg_mark() {	# kmsg_mark NAME: a line in the kernel log, for dmesg_since
	echo "igb_rust-test: mark $1" > /dev/kmsg
}

dmesg_since() {	# dmesg_since NAME: the kernel log after kmsg_mark NAME
	dmesg | sed -n "/igb_rust-test: mark $1\$/,\$p"
}

phy_read() {	# phy_read REG: a register of the DUT's PHY, through MDIC (only while the driver is idle)
	python3 -S - "/sys/bus/pci/devices/$DUT/resource0" "$1" <<'PY'
import mmap, os, struct, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_SYNC)
m = mmap.mmap(fd, 0x20000, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
struct.pack_into('<I', m, 0x20, (1 << 27) | (1 << 21) | (int(sys.argv[2], 0) << 16))
for _ in range(1000):
    v = struct.unpack_from('<I', m, 0x20)[0]
    if v & (1 << 28):
        sys.exit(print(v & 0xffff) if not v & (1 << 30) else "MDIC error")
    time.sleep(0.001)
sys.exit("MDIC timeout")
PY
}

wait_listen() {	# wait_listen PORT [NS]: until a TCP socket listens on PORT (30 s)
	local i
	for i in $(seq 1 300); do
		if [ -n "${2:-}" ]; then
			ip netns exec "$2" ss -Htln "sport = :$1" | grep -q . && return 0
		else
			ss -Htln "sport = :$1" | grep -q . && return 0
		fi
		sleep 0.1
	done
	return 1
}

# bulk tx|rx: send SRC (default /run/igbt/blob) over TCP, DUT -> peer ("tx")
# or peer -> DUT ("rx"), on PORT (default 5001); true when what arrived has
# the sha256 WANT (default $want_sum).
bulk() {
	local port=${PORT:-5001} out=/run/igbt/out.$1.${PORT:-5001} src=${SRC:-/run/igbt/blob}
	local want=${WANT:-$want_sum} t0 t1 sum lp
	rm -f "$out"
	if [ "$1" = tx ]; then
		ip netns exec $NS socat -u TCP-LISTEN:$port,reuseaddr OPEN:"$out",creat,trunc &
		lp=$!
		wait_listen $port $NS || return 1
		t0=$(date +%s.%N)
		timeout 300 socat -u OPEN:"$src" TCP:$PEER_IP:$port || return 1
	else
		socat -u TCP-LISTEN:$port,reuseaddr OPEN:"$out",creat,trunc &
		lp=$!
		wait_listen $port || return 1
		t0=$(date +%s.%N)
		timeout 300 ip netns exec $NS socat -u OPEN:"$src" TCP:$DUT_IP:$port || return 1
	fi
	# Only the listener: a caller's own background jobs are the caller's to wait for.
	wait $lp
	t1=$(date +%s.%N)
	sum=$(sha256sum < "$out")
	rm -f "$out"
	note "bulk $1: $(( $(stat -c %s "$src") >> 20 )) MB in $(echo "$t1 - $t0" | bc) s"
	[ "$sum" = "$want" ]
}

# qmp_set_link NETDEV on|off: flip the link of one of QEMU's NIC backends
# through the host relay (scripts/vm.sh, VM_QMP_DIR).
QMP_N=0
qmp_request() {	# qmp_request JSON: run one QMP command, 0 if it returned
	local dir=$OUT/qmp i
	[ -d "$dir" ] || return 1
	QMP_N=$((QMP_N + 1))
	printf '%s\n' "$1" > "$dir/$QMP_N.tmp" && mv "$dir/$QMP_N.tmp" "$dir/$QMP_N.req"
	for i in $(seq 1 100); do
		if [ -f "$dir/$QMP_N.done" ]; then
			grep -q '"return"' "$dir/$QMP_N.done"
			return
		fi
		sleep 0.1
	done
	return 1
}
qmp_set_link() {
	local up=false
	[ "$2" = on ] && up=true
	qmp_request "$(printf '{"execute": "set_link", "arguments": {"name": "%s", "up": %s}}' "$1" "$up")"
}
# qmp_aer_inject ID ERROR [-c]: QEMU's pcie_aer_inject_error on a device
# (dut, peer, or their root ports rp1, rp2), uncorrectable unless -c; the
# monitor answers "OK id: ..." when it injected.
qmp_aer_inject() {
	local line="pcie_aer_inject_error ${3:+-c }$1 $2"
	qmp_request "$(printf '{"execute": "human-monitor-command", "arguments": {"command-line": "%s"}}' "$line")" &&
		grep -q '"return": "OK id: ' "$OUT/qmp/$QMP_N.done"
}

wait_carrier() {	# wait_carrier IF 0|1 [NS]: up to 10 s
	local i v
	for i in $(seq 1 100); do
		if [ -n "${3:-}" ]; then
			v=$(ip netns exec "$3" cat /sys/class/net/$1/carrier 2>/dev/null)
		else
			v=""
			read -r v 2>/dev/null < "/sys/class/net/$1/carrier"
		fi
		[ "$v" = "$2" ] && return 0
		sleep 0.1
	done
	return 1
}

# setup_pair [v4only]: igb_rust on the DUT, the C igb on the peer, the peer
# moved into namespace $NS, both addressed and up, carrier waited for. Sets
# DUT_IF and PEER_IF. With v4only, IPv6 is off on both and ARP entries are
# static, so only test traffic crosses the wire.
setup_pair() {
	setup_modules
	modprobe igb
	[ "$(driver_of "$PEER")" = igb ] || echo "$PEER" > /sys/bus/pci/drivers/igb/bind
	lsmod | grep -q '^igb_rust ' || insmod "$IGB_RUST_KO"
	# Let udev give the interfaces their final names first: on the debug kernel
	# under load, renaming took 45 s after the probe.
	udevadm settle -t 120 2>/dev/null
	DUT_IF=$(netdev_of "$DUT")
	PEER_IF=$(netdev_of "$PEER")
	[ -n "$DUT_IF" ] && [ -n "$PEER_IF" ] ||
		{ echo "setup_pair: no interface (DUT '$DUT_IF', peer '$PEER_IF')" >&2; return 1; }
	ip netns add $NS
	ip link set "$PEER_IF" netns $NS
	local v6=0
	[ "${1:-}" = v4only ] && v6=1
	sysctl -qw net.ipv6.conf.$DUT_IF.disable_ipv6=$v6
	ip netns exec $NS sysctl -qw net.ipv6.conf.$PEER_IF.disable_ipv6=$v6
	ip -n $NS link set "$PEER_IF" up
	ip -n $NS addr add $PEER_IP/24 dev "$PEER_IF"
	ip addr add $DUT_IP/24 dev "$DUT_IF"
	if [ $v6 = 0 ]; then
		ip -n $NS addr add $PEER_IP6/64 dev "$PEER_IF" nodad
		ip addr add $DUT_IP6/64 dev "$DUT_IF" nodad
	else
		ip neigh replace $PEER_IP lladdr "$PEER_MAC" dev "$DUT_IF" nud permanent
		ip -n $NS neigh replace $DUT_IP lladdr "$DUT_MAC" dev "$PEER_IF" nud permanent
	fi
	ip link set "$DUT_IF" up
	wait_carrier "$DUT_IF" 1 && wait_carrier "$PEER_IF" 1 $NS
}

# teardown_pair: undo setup_pair (the peer returns to the initial namespace).
teardown_pair() {
	ip addr flush dev "$DUT_IF" 2>/dev/null
	ip neigh flush dev "$DUT_IF" 2>/dev/null
	sysctl -qw net.ipv6.conf.$DUT_IF.disable_ipv6=0 2>/dev/null
	# Move the peer back first: a namespace is only cleaned up (and its
	# devices returned) once its last socket is gone, and an orphaned TCP
	# socket still retransmitting to a DUT that was unloaded keeps it for
	# minutes.
	[ -n "${PEER_IF:-}" ] && ip -n $NS link set "$PEER_IF" netns 1 2>/dev/null
	ip netns del $NS 2>/dev/null
	local i
	for i in $(seq 1 600); do
		if [ -n "$(netdev_of "$PEER")" ] && ! ip netns list | grep -qw "$NS"; then
			[ "$i" = 1 ] || echo "teardown_pair: the peer came back after $i tries" > /dev/kmsg
			return 0
		fi
		sleep 0.1
	done
	echo "teardown_pair: $PEER did not return from namespace $NS" >&2
	return 1
}
