#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# `make check`: build everything, run the static checks on the host and the
# test suite inside the guest, print one closing line "N passed, N failed".
#
# The whole guest suite runs on the production kernel; the debug kernel
# (scripts/kconfig/debug.config: KASAN, lockdep, UBSAN, DMA-API debugging, ...)
# runs the parts that drive every lock and DMA path: boot (the Rust doctests),
# probe, XDP, AF_XDP, SR-IOV (the mailbox lock), PTP and the stress part (netpoll, shared skbs, allocation failures, every
# reconfiguration racing traffic and netlink dumps, teardown under traffic),
# with fewer repetitions and 16 MB transfers. Measured under TCG on a 2-core
# host (2026-12-02): the production suite takes 11 to 13 minutes, the debug
# part 15 to 16, the same suite on the debug kernel over 70, so the whole of
# it on the debug kernel is an option, not the default. From an empty cache
# the whole run took 45 minutes (the timings.txt of each run has its
# checkpoints), a warm run 32. Since the kernel's xdp.py runs (2026-12-03) a
# warm run takes 58 minutes: the production suite 28 to 31 (xdp.py 9 of
# them; its guest limit is 2700 s since one CI run used 1824 s of 1800), the
# debug part 23 to 25; the production kernel's build from nothing went from 6
# to 13 minutes (DWARF and BTF).
# The page_pool benchmark with swiotlb, a boot with pci=nomsi (INTx) and the
# bench harness follow the production suite. The kernel's selftests that need
# one CPU (xdp.py among them) run in a one-vCPU guest of their own, beside the
# host checks and the production suite (2026-12-06: those took 29 minutes
# instead of 34, on a host 10% slower). Since the guests cache the host's root
# (scripts/vm.sh), the whole run from an empty cache took 53 minutes
# (2026-12-07; 76 the day before), the debug suite 13 of them.
#
# From an empty cache the debug kernel is built in the background at the
# lowest CPU priority, from the moment the production build has laid out
# the kernel tree: it takes the CPU the production build leaves idle in its
# serial steps, then the time the production kernel's guests leave (a TCG
# guest leaves about 40% of the two host cores idle), instead of adding its
# own 15 minutes on 2 cores to the run. The debug kernel's guest runs last.
#   TESTS="a b"                        only those guest parts, on each kernel
#                                      (TESTS=intx: only the INTx boot)
#   CHECK_KERNELS="production debug"   which kernels run the guest suite (default both)
#   DEBUG_SUITE=full                   the whole suite on the debug kernel too
#   INTX_KERNEL=debug                  the INTx boot on the debug kernel
#                                      (default production)
#   STRESS_CYCLES, STRESS_PARTS, ...  passed on to the guest (tools/igb_rust/tests/stress.sh)
#   CHECK_TIMEOUT=seconds              limit of one guest suite run (default
#                                      3300 production, 3000 debug, 6000 full debug)
#   ARCH=arm64                         instead of all of the above: the arm64
#                                      board kernel and module (cross built
#                                      with LLVM), the host checks against
#                                      them, and the board part of the suite
#                                      (boot probe datapath copybreak) on
#                                      QEMU's virt machine with a Cortex-A53,
#                                      then datapath and copybreak again with
#                                      every DMA bounced (swiotlb=force)
set -uo pipefail
. "$(dirname "$0")/env.sh"
unset KVARIANT	# each step below names its kernel itself
arch_from_env
if [ "$KARCH" = arm64 ]; then
	CHECK_KERNELS=arm64
	INTX_KERNEL=none
	TESTS=${TESTS:-boot probe datapath copybreak}
	for t in $TESTS; do
		case $t in boot|probe|datapath|copybreak) ;;
		*) die "TESTS: $t does not run on arm64 (boot probe datapath copybreak do)";;
		esac
	done
fi

CHECK_KERNELS=${CHECK_KERNELS:-production debug}
DEBUG_SUITE=${DEBUG_SUITE:-proof}
INTX_KERNEL=${INTX_KERNEL:-production}
for kv in $CHECK_KERNELS; do
	case $kv in production|debug|arm64) ;; *) die "CHECK_KERNELS: unknown kernel $kv";; esac
done
case $INTX_KERNEL in production|debug|none) ;; *) die "INTX_KERNEL: debug, production or none";; esac
RES=${RESULTS:-$CACHE/results/check-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$RES"
T0=$(date +%s)
# timing NAME: a checkpoint, in seconds since the start, with how busy the
# host's CPUs were since the one before (from /proc/stat: the run is bound by
# the CPU of the 2 cores, so this says where CPU time can still be found).
cpu_stat() { awk '/^cpu /{ print $2 + $3 + $4 + $7 + $8 + $9, $5 + $6 }' /proc/stat; }
read -r CPU_BUSY0 CPU_IDLE0 < <(cpu_stat)
timing() {
	local b i
	read -r b i < <(cpu_stat)
	echo "$1 $(( $(date +%s) - T0 )) busy=$(( 100 * (b - CPU_BUSY0) / (b - CPU_BUSY0 + i - CPU_IDLE0 + 1) ))%" \
		>> "$RES/timings.txt"
	CPU_BUSY0=$b CPU_IDLE0=$i
}
debug_pid=""
prod_pid=""
# Builds in the background run in sessions of their own: an early exit (or
# Ctrl-C, which background jobs of a script do not see) stops them whole.
# The guest of the one-CPU selftests (below) runs in a subshell: its
# processes are found by the results folder on their command lines.
side_pid=""
trap 'for p in $prod_pid $debug_pid; do kill -- -"$p" 2>/dev/null; done
	[ -z "$side_pid" ] || { kill "$side_pid"; pkill -f -- "$RES/"; } 2>/dev/null' EXIT
start_debug_build() {
	log "building the debug kernel in the background (log: $RES/build-debug.log)"
	# A new session is a new scheduler autogroup (sched_autogroup_enabled),
	# which competes with the guest's as an equal whatever its tasks' nice
	# values: the group itself is niced, or the guests run at half speed.
	# The tree is the one the production build laid out: both kernels are
	# built from the same sources, and nothing changes under the other build.
	# Its exit status lands in .debug-rc, which debug_wait waits for.
	rm -f "$RES/.debug-rc"
	KVARIANT=debug IGB_RUST_TREE_LAID_OUT=1 setsid sh -c '[ ! -w /proc/self/autogroup ] ||
		echo 19 > /proc/self/autogroup
		nice -n 19 bash "$0"; echo $? > "$1"' "$REPO/scripts/build.sh" "$RES/.debug-rc" \
		> "$RES/build-debug.log" 2>&1 &
	debug_pid=$!
}
case " $CHECK_KERNELS $INTX_KERNEL " in
*" debug "*)
	# The debug build starts as soon as the production build has laid out
	# the shared tree: at the lowest priority it takes only the CPU the
	# production build leaves idle (its serial steps: the Rust crates, the
	# links), and then the time the production guests leave.
	ready=$RES/.tree-ready
	rm -f "$ready"
	IGB_RUST_TREE_READY=$ready setsid bash "$REPO/scripts/build.sh" &
	prod_pid=$!
	while [ ! -e "$ready" ] && kill -0 "$prod_pid" 2>/dev/null; do sleep 1; done
	[ ! -e "$ready" ] || start_debug_build
	wait "$prod_pid" || die "build failed"
	prod_pid=""
	[ -n "$debug_pid" ] || start_debug_build;;
*)
	ARCH=$KARCH bash "$REPO/scripts/build.sh" || die "build failed";;
esac
timing production-built
# debug_wait: waits for the background build of the debug kernel; false if
# it failed.
debug_wait() {
	[ -n "$debug_pid" ] || return 0
	while [ ! -e "$RES/.debug-rc" ] && kill -0 "$debug_pid" 2>/dev/null; do sleep 5; done
	if [ "$(cat "$RES/.debug-rc" 2>/dev/null)" = 0 ]; then
		timing debug-built
		return 0
	fi
	timing debug-build-failed
	return 1
}
if [ "$KARCH" = arm64 ]; then BUILD=$(readlink -f "$CACHE/current-arm64"); else BUILD=$(readlink -f "$CACHE/current"); fi
TAP=$RES/host-tap.txt
: > "$TAP"
n=0
hres() {	# hres ok|fail NAME [DETAIL]
	n=$((n + 1))
	if [ "$1" = ok ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi | tee -a "$TAP"
	[ -z "${3:-}" ] || printf '%s\n' "$3" | head -40 | sed 's/^/# /' | tee -a "$TAP"
}

# --- the suite in the guest -------------------------------------------------
# Each guest leaves its TAP and exit status in its own folder; they are
# counted, in a fixed order, once every guest is done.
gp=0
gf=0
guests=()	# the folder names (guest-NAME) of the suites run, in the order they are shown
run_suite() {	# run_suite production|debug|arm64 NAME [PARTS]: boots one guest
	local kv=$1 name=$2 parts=${3:-} variant limit GOUT genv
	# What each kernel runs: the whole suite, or (debug) the proof parts.
	genv=(TESTS="${parts:-${TESTS:-}}" STRESS_CYCLES="${STRESS_CYCLES:-}" PROBE_CYCLES="${PROBE_CYCLES:-}"
		SELFTEST_SCRIPTS="${SELFTEST_SCRIPTS:-}" SELFTEST_SKIP="${SELFTEST_SKIP:-}"
		STRESS_ROUNDS="${STRESS_ROUNDS:-}"
		STRESS_PARTS="${STRESS_PARTS:-}" STRESS_MB="${STRESS_MB:-}"
		XDP_MB="${XDP_MB:-}" XDP_SWAPS="${XDP_SWAPS:-}" XDP_N="${XDP_N:-}")
	case $kv in
	debug)
		variant=debug; limit=3000
		if [ "$DEBUG_SUITE" = full ]; then
			limit=6000
		else
			genv=(TESTS="${parts:-${TESTS:-boot probe xdp xsk sriov ptp stress}}"
				STRESS_CYCLES="${STRESS_CYCLES:-5}" PROBE_CYCLES="${PROBE_CYCLES:-3}"
				SELFTEST_SCRIPTS="${SELFTEST_SCRIPTS:-stats.py queues.py}"
				STRESS_ROUNDS="${STRESS_ROUNDS:-1}" STRESS_PARTS="${STRESS_PARTS:-}"
				STRESS_MB="${STRESS_MB:-16}"
				XDP_MB="${XDP_MB:-4}" XDP_SWAPS="${XDP_SWAPS:-10}" XDP_N="${XDP_N:-100}")
		fi;;
	# The production suite took 2,034 s on a quiet host, 2,420 s on a loaded one.
	production) variant=""; limit=3300;;
	arm64) variant=""; limit=2700;;
	esac
	GOUT=$RES/guest-$name
	mkdir -p "$GOUT"
	log "booting the $kv kernel for ${parts:-the test suite} (log: $RES/console-$name.log)"
	ARCH=$KARCH KVARIANT=$variant VM_RWDIR=$RES VM_QMP_DIR=$GOUT/qmp bash "$REPO/scripts/vm.sh" \
		--timeout "${CHECK_TIMEOUT:-$limit}" --log "$RES/console-$name.log" -- \
		env OUT="$GOUT" "${genv[@]}" bash "$REPO/tools/igb_rust/check.sh"
	echo $? > "$GOUT/rc"
	timing "suite-$name"
}
# count_suite NAME: shows (prefixed with NAME) and counts the TAP of the guest
# of $RES/guest-NAME, a suite's or an extra one's; a guest that failed or never
# closed its TAP counts as a failure.
count_suite() {
	local GOUT=$RES/guest-$1 rc
	rc=$(cat "$GOUT/rc" 2>/dev/null || echo 1)
	if [ -s "$GOUT/tap.txt" ]; then
		sed -n '/^\(not \)\{0,1\}ok /p; /^#/p' "$GOUT/tap.txt" | sed "s/^/$1: /" > "$RES/tap-$1.txt"
		cat "$RES/tap-$1.txt"
	fi
	gp=$((gp + $(grep -c '^ok ' "$GOUT/tap.txt" 2>/dev/null || true)))
	gf=$((gf + $(grep -c '^not ok ' "$GOUT/tap.txt" 2>/dev/null || true)))
	if [ "$rc" -ne 0 ] || ! grep -q '^1\.\.' "$GOUT/tap.txt" 2>/dev/null; then
		gf=$((gf + 1))
		echo "not ok - guest $1 ran to completion (rc=$rc); end of console:" | tee -a "$RES/incomplete.txt"
		tail -n 40 "$RES/console-$1.log" | sed 's/^/# /'
	fi
}
# --- the page_pool microbenchmark again, with bounce buffering -------------
run_swiotlb() {
	mkdir -p "$RES/guest-swiotlb"
	VM_RWDIR=$RES bash "$REPO/scripts/vm.sh" --timeout 600 --log "$RES/console-swiotlb.log" \
		--append "swiotlb=force" -- \
		env OUT="$RES/guest-swiotlb" TESTS=ppbench bash "$REPO/tools/igb_rust/check.sh"
	echo $? > "$RES/guest-swiotlb/rc"
	timing swiotlb
}
# --- without MSI-X: one INTx line (pci=nomsi) --------------------------------
run_intx() {
	local IOUT=$RES/guest-intx iv
	mkdir -p "$IOUT"
	case $INTX_KERNEL in debug) iv=debug;; *) iv="";; esac
	KVARIANT=$iv VM_RWDIR=$RES VM_QMP_DIR=$IOUT/qmp bash "$REPO/scripts/vm.sh" --timeout 900 \
		--log "$RES/console-intx.log" --append "pci=nomsi" -- \
		env OUT="$IOUT" TESTS=intx bash "$REPO/tools/igb_rust/check.sh"
	echo $? > "$IOUT/rc"
	timing intx
}
# --- arm64 with every DMA bounced (swiotlb=force) ---------------------------
# As on a board whose NIC reaches only part of RAM: every buffer the driver
# maps is copied through the bounce pool, so a missing or misdirected sync
# corrupts the data the sha256 checks compare. The pool is 128 MB: the
# default 4 MB of a 3 GB arm64 guest does not hold both NICs' rings.
run_arm64_swiotlb() {
	local AOUT=$RES/guest-arm64-swiotlb
	mkdir -p "$AOUT"
	ARCH=arm64 VM_RWDIR=$RES VM_QMP_DIR=$AOUT/qmp bash "$REPO/scripts/vm.sh" --timeout 1200 \
		--log "$RES/console-arm64-swiotlb.log" --append "swiotlb=65536,force,track_hiwater" -- \
		env OUT="$AOUT" TESTS="datapath copybreak" bash -c 'bash "$0" &&
			cat /sys/kernel/debug/swiotlb/io_tlb_used_hiwater > "$OUT/hiwater"' \
		"$REPO/tools/igb_rust/check.sh"
	echo $? > "$AOUT/rc"
	timing arm64-swiotlb
}
arm64_swiotlb_report() {
	# The bounce pool was the one asked for, and the transfers went through it.
	local hw
	hw=$(cat "$RES/guest-arm64-swiotlb/hiwater" 2>/dev/null)
	if grep -q 'software IO TLB: mapped .*(128MB)' "$RES/console-arm64-swiotlb.log" &&
		[ "${hw:-0}" -gt 0 ]; then
		hres ok "arm64 swiotlb=force: a 128 MB bounce pool, used by the transfers (high water $hw slots)"
	else
		hres fail "arm64 swiotlb=force: a 128 MB bounce pool, used by the transfers" \
			"$(grep -m2 'software IO TLB' "$RES/console-arm64-swiotlb.log"); high water: ${hw:-none}"
	fi
}
# --- the benchmark harness, once, tiny (benchmarks are not tests) ---------
run_bench() {
	mkdir -p "$RES/bench"
	QUICK=1 DUR=1 SIZES=64 PPBENCH=0 BENCH_OUT=$RES/bench BENCH_TIMEOUT=600 \
		bash "$REPO/scripts/bench.sh" > "$RES/bench.log" 2>&1
	echo $? > "$RES/bench/rc"
	timing bench
}
bench_report() {
	local BOUT=$RES/bench
	if [ "$(cat "$BOUT/rc" 2>/dev/null)" = 0 ]; then
		hres ok "make bench QUICK=1 runs (1 s cells, 64 B)"
	else
		hres fail "make bench QUICK=1 runs (1 s cells, 64 B)"
		tail -n 20 "$RES/bench.log" | sed 's/^/# /'
	fi
	# Every cell moved packets and has its rate, its CPU share and, under
	# TCG, its instruction counts; the report has its three outputs.
	bench_complete() {
		# QUICK=1's cells at one size: 5 RX variants (C, cb=0, ceiling, and the
		# XDP_DROP program on either driver), 2 TX, and an AF_XDP socket in
		# zero-copy mode on either driver, rxdrop and txpush.
		local accel want=11
		accel=$(sed -n 's/^accel=//p' "$BOUT/machine.txt" 2>/dev/null)
		[ -s "$BOUT/bench.md" ] && [ -s "$BOUT/bench.png" ] && [ -s "$BOUT/bench.csv" ] || return 1
		[ "$(tail -n +2 "$BOUT/raw.csv" | wc -l)" = $want ] || return 1
		awk -F, -v tcg="$([ "$accel" = tcg ] && echo 1)" 'NR > 1 {
			if ($5 <= 0 || $8 <= 0) bad = 1
			if ($9 <= 0) bad = 1
			if (tcg && $11 !~ /cpu1\.total=[1-9]/) bad = 1
			if (tcg && $11 !~ /cpu1\.drv=[1-9]/) bad = 1
		} END { exit bad }' "$BOUT/raw.csv" || return 1
		# And 4 bulk TCP cells (both drivers, both ways) with interrupts,
		# instruction counts and, for RX, the socket's memory for the bytes
		# it holds; their iperf3 reports made the report's TCP table.
		[ "$(tail -n +2 "$BOUT/tcp.csv" | wc -l)" = 4 ] || return 1
		grep -q '^| igb_rust cb=0 | [0-9]* ([0-9]*\.\.[0-9]*) | [0-9,]* (drv ' "$BOUT/bench.md" || return 1
		awk -F, -v tcg="$([ "$accel" = tcg ] && echo 1)" 'NR > 1 {
			if ($6 <= 0) bad = 1
			if ($2 == "rx" && ($7 <= 0 || $8 <= 0)) bad = 1
			if (tcg && $9 !~ /cpu1\.total=[1-9]/) bad = 1
		} END { exit bad }' "$BOUT/tcp.csv"
	}
	if bench_complete; then
		hres ok "bench: every cell (pktgen and TCP) has packets, interrupts, a rate and instruction counts; md, csv, png written"
	else
		hres fail "bench: every cell (pktgen and TCP) has packets, interrupts, a rate and instruction counts; md, csv, png written"
		sed 's/^/# /' "$BOUT/raw.csv" 2>/dev/null | head -20
	fi
}


# --- the kernel's selftests that need one CPU, in a guest of their own -----
# The kernel's xdp.py waits for most of its 7 minutes (117 exchanges, each
# ending in socat's 2 s inactivity timeout: QEMU at half a host core). It and
# the selftests that need no second queue (the same passes and skips with one
# vCPU) run in a guest of one vCPU, beside the host checks and the rest of the
# production suite, whose guest leaves that much of the 2 cores idle. Two
# guests of two vCPUs each slowed each other 2 to 3 times (vCPUs spinning on
# locks whose holders the other guest's QEMU had preempted). The queue, NAPI,
# IRQ and RSS selftests stay in the suite's guest, with two queues.
# With one queue, hw/xdp_metadata.py checks the RSS hash C igb computes for
# one queue too.
# (One line: the guest's command line cannot carry a newline.)
SIDE_SELFTESTS="xdp.py ping.py stats.py ring_reconfig.py hw/pp_alloc_fail.py"
SIDE_SELFTESTS+=" hw/csum.py hw/tso.py hw/xdp_metadata.py hw/nic_timestamp.py"
if [ "$KARCH" = x86 ] && [ -z "${TESTS:-}" ] && [ -z "${SELFTEST_SCRIPTS:-}" ] &&
	case " $CHECK_KERNELS " in *" production "*) true;; *) false;; esac; then
	(
		export VM_CPUS=1 SELFTEST_SCRIPTS="$SIDE_SELFTESTS"
		run_suite production production-selftests selftests
	) &
	side_pid=$!
	SELFTEST_SKIP=$SIDE_SELFTESTS	# for the production suite's guest
fi

# --- static checks on the host ---------------------------------------------
u=$(grep -rnw --include='*.rs' unsafe "$REPO/drivers" | grep -v '^\S*:\s*//' || true)
[ -z "$u" ] && hres ok "driver contains no unsafe" || hres fail "driver contains no unsafe" "$u"

RUSTFMT=$(rustup which rustfmt 2>/dev/null || command -v rustfmt)
fmt=$(cd "$REPO" && git ls-files -co --exclude-standard '*.rs' |
	xargs -r "$RUSTFMT" --edition 2021 --config-path "$CACHE/linux-$(cat "$BUILD/include/config/kernel.release")/.rustfmt.toml" --check 2>&1)
[ -z "$fmt" ] && hres ok "rustfmt clean" || hres fail "rustfmt clean" "$fmt"

KTREE=$CACHE/linux-$(cat "$BUILD/include/config/kernel.release")
cp_out=$(cd "$REPO" && git ls-files -co --exclude-standard 'rust/helpers/*.c' 'tools/igb_rust/*.c' |
	xargs -r "$KTREE/scripts/checkpatch.pl" --no-tree --quiet -f 2>&1)
[ -z "$cp_out" ] && hres ok "C helpers and the bench plugin pass checkpatch" ||
	hres fail "C helpers and the bench plugin pass checkpatch" "$cp_out"
# make in the built kernel tree, with the toolchain it was built with.
kmake() {
	make -C "$KTREE" O="$BUILD" ARCH="$KARCH" LLVM="$LLVM_SUFFIX" BINDGEN="$TOOLS/bin/bindgen" \
		RUST_LIB_SRC="$RUST_SRC_ROOT/usr/lib/rustlib/src/rust/library" "$@"
}
clippy=$(kmake M="$REPO" MO="$BUILD/igb_rust-clippy" CLIPPY=1 W=1 modules 2>&1 | grep -iE 'warning|error' || true)
[ -z "$clippy" ] && hres ok "igb_rust builds warning-free with CLIPPY=1" ||
	hres fail "igb_rust builds warning-free with CLIPPY=1" "$clippy"
# The abstractions live in the kernel crate, which the module's check does not
# lint: rust/ again through clippy-driver (about 20 s; same objects, so only
# the next kernel build relinks).
kclippy=$(kmake -j"$(nproc)" -s CLIPPY=1 rust/ 2>&1 | grep -E '^(warning|error)' || true)
[ -z "$kclippy" ] && hres ok "rust/ (the kernel crate, with the abstractions) builds warning-free with CLIPPY=1" ||
	hres fail "rust/ (the kernel crate, with the abstractions) builds warning-free with CLIPPY=1" "$kclippy"

# The driver as each step of its series leaves it (tools/igb_rust/steps.py)
# builds warning-free with CLIPPY=1 and W=1; the guest's part "steps" loads
# the modules of the steps before the last ($BUILD/igb_rust-steps/N-NAME).
steps_out=""
mapfile -t dsteps < <(python3 "$REPO/tools/igb_rust/steps.py" list)
rm -rf "$BUILD/igb_rust-steps"
for i in "${!dsteps[@]}"; do
	name=${dsteps[$i]}
	sd=$BUILD/igb_rust-steps/src-$name
	mkdir -p "$sd/drivers/net/ethernet/intel"
	cp "$REPO/Kbuild" "$sd/"
	o=$(python3 "$REPO/tools/igb_rust/steps.py" write "$REPO/drivers/net/ethernet/intel/igb_rust" "$name" \
		"$sd/drivers/net/ethernet/intel/igb_rust" "$RUSTFMT" "$KTREE/.rustfmt.toml" 2>&1 &&
		kmake M="$sd" MO="$BUILD/igb_rust-steps/$((i + 1))-$name" CLIPPY=1 W=1 modules 2>&1)
	src=$?
	w=$(echo "$o" | grep -iE 'warning|error' || true)
	[ $src = 0 ] && [ -z "$w" ] ||
		steps_out+="step $((i + 1)) ($name): ${w:-$o}"$'\n'
done
[ -z "$steps_out" ] && hres ok "each of the ${#dsteps[@]} steps of the driver's series builds warning-free with CLIPPY=1 and W=1" ||
	hres fail "each of the ${#dsteps[@]} steps of the driver's series builds warning-free with CLIPPY=1 and W=1" "$steps_out"

# The upstream series: made from this tree, checkpatch-clean, applied with
# git am to the pristine kernel, ending at the tree both kernels were built
# from (a fast form of `make patches CHECK=1`, which builds every step).
pout=$(SIGNOFF=${SIGNOFF:-"igb_rust make check <igb_rust@localhost>"} DRY_RUN=1 PATCH_OUT=$RES/patches \
	VERIFY_TREE=$KTREE bash "$REPO/scripts/patches.sh" 2>&1)
if [ $? = 0 ]; then
	hres ok "make patches: both series are checkpatch --strict clean and signed off, apply with git am and end at the built tree" \
		"$(echo "$pout" | tail -n 3)"
else
	hres fail "make patches: both series are checkpatch --strict clean and signed off, apply with git am and end at the built tree" \
		"${pout:-make patches failed without a message}"
fi

# --- type-system guarantees: these must not build ---------------------------
for src in "$REPO"/tools/igb_rust/compile_fail/*.rs; do
	name=$(basename "$src" .rs)
	want=$(sed -n 's#^//! expect: ##p' "$src")
	d=$(mktemp -d)
	cp "$src" "$d/cf.rs"
	echo 'obj-m += cf.o' > "$d/Kbuild"
	out=$(kmake M="$d" modules 2>&1)
	brc=$?
	rm -rf "$d"
	if [ "$want" = builds ]; then
		[ $brc = 0 ] && hres ok "compile control $name builds" ||
			hres fail "compile control $name builds" "$(echo "$out" | grep -E 'error' | head)"
	elif [ $brc != 0 ] && echo "$out" | grep -qF -e "error[$want]" -e "error: $want"; then
		hres ok "does not compile: $name ($want)"
	else
		hres fail "does not compile: $name ($want)" "$(echo "$out" | grep -E '^error' | head)"
	fi
done

# --- the harness itself must notice a failing guest ------------------------
if ARCH=$KARCH bash "$REPO/scripts/vm.sh" --timeout 300 --log "$RES/selftest.log" -- \
	sh -c 'insmod /nonexistent/igb_rust.ko'; then
	hres fail "a failing guest command fails the run"
else
	hres ok "a failing guest command fails the run"
fi

# --- the order ----------------------------------------------------------------
want() { [ -z "${TESTS:-}" ] || [ "${TESTS:-}" = "$1" ]; }
main_kernels=" $CHECK_KERNELS "
[ "${TESTS:-}" = intx ] && main_kernels=""	# intx.sh needs its own boot
has() { case $main_kernels in *" $1 "*) return 0;; esac; return 1; }
extras=()	# the extra guests run (swiotlb, INTx, arm64 swiotlb), counted after the suites
if [ "$KARCH" = x86 ]; then
	want ppbench && extras+=(swiotlb)
	[ "$INTX_KERNEL" != none ] && want intx && extras+=(intx)
fi
# One kernel after the other, the debug kernel's guest last; the one-CPU
# selftests in a guest of their own beside them (started before the host
# checks).
if has production; then
	guests+=(production)
	[ -z "$side_pid" ] || guests+=(production-selftests)
	run_suite production production
fi
if has arm64; then
	guests+=(arm64)
	run_suite arm64 arm64
	run_arm64_swiotlb
	arm64_swiotlb_report
	extras+=(arm64-swiotlb)
fi
if [ "$KARCH" = x86 ]; then
	want ppbench && run_swiotlb
	[ "$INTX_KERNEL" = production ] && want intx && run_intx
	if want bench; then run_bench; bench_report; fi
fi
[ -z "$side_pid" ] || wait "$side_pid"
if debug_wait; then
	has debug && guests+=(debug) && run_suite debug debug
	[ "$INTX_KERNEL" = debug ] && want intx && run_intx
fi
if [ -n "$debug_pid" ] && [ "$(cat "$RES/.debug-rc" 2>/dev/null)" != 0 ]; then
	hres fail "the debug kernel builds" "$(tail -n 30 "$RES/build-debug.log")"
fi
for g in "${guests[@]}"; do count_suite "$g"; done
for g in "${extras[@]}"; do count_suite "$g"; done
hp=$(grep -c '^ok ' "$TAP" || true)
hf=$(grep -c '^not ok ' "$TAP" || true)
passed=$((hp + gp))
failed=$((hf + gf))
if [ "$failed" -gt 0 ]; then	# the failures again, next to the closing line
	# Each with the first lines of its detail (what a CI log keeps when it
	# cuts the middle of the run).
	echo "failed:"
	{
		awk '/^not ok/ { print; n = 6; next } n && /^# / { print; n--; next } { n = 0 }' "$TAP"
		awk '/^[a-z0-9-]*: not ok/ { print; n = 6; next }
			n && /^[a-z0-9-]*: # / { print; n--; next } { n = 0 }' "$RES"/tap-*.txt
		cat "$RES/incomplete.txt"
	} 2>/dev/null | sed 's/^/  /'
fi
echo "results: $RES"
echo "$passed passed, $failed failed" | tee "$RES/summary-$KARCH.txt"
[ "$failed" -eq 0 ]
