#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# `make bench`: pktgen + sar matrix, C igb against igb_rust on the same
# emulated 82576, with guest instructions per packet counted by a TCG plugin.
# Results (raw.csv, bench.csv, bench.md, bench.png) go to results/bench/STAMP
# (results/bench/latest points at the newest).
#
#   QUICK=1       a short run (2 sizes, 1 repetition, 1 s per cell)
#   DUR, REPS, SIZES, RX_VARIANTS, TX_VARIANTS   override the matrix
#   TCP_VARIANTS  the drivers of the bulk TCP cells (iperf3, both ways; default
#                 "c rust-cb0", empty for none)
#   XSK_VARIANTS  the AF_XDP cells' drivers and modes (default "c-zc rust-zc
#                 c-copy rust-copy", QUICK "c-zc rust-zc", empty for none)
#   XSK_MODES     what their socket does (default "rxdrop txpush l2fwd", QUICK
#                 "rxdrop txpush"), see tools/igb_rust/bench/guest.sh
#   XSK_SIZES     their frame sizes (default "64 1500", QUICK the first of SIZES)
#   BENCH_OUT=DIR write the results there instead
#   RUST_COALESCE=ARGS  `ethtool -C` arguments for the igb_rust variants
#                 (e.g. "rx-usecs 245", "adaptive-rx on"); C igb keeps its own
set -euo pipefail
. "$(dirname "$0")/env.sh"
arch_from_env
[ "$KARCH" = x86 ] || die "make bench runs on the x86_64 guest only: leave ARCH unset"

if [ "${QUICK:-0}" = 1 ]; then
	: "${DUR:=1}" "${REPS:=1}" "${SIZES:=64 1500}"
	: "${RX_VARIANTS:=c rust-cb0 ceiling c-xdp rust-xdp}" "${TX_VARIANTS:=c rust-cb0}" "${PPBENCH:=0}"
	: "${XSK_VARIANTS=c-zc rust-zc}" "${XSK_MODES:=rxdrop txpush}" "${XSK_SIZES:=${SIZES%% *}}"
fi
: "${DUR:=2}" "${REPS:=3}" "${SIZES:=64 128 256 512 1024 1500}"
: "${RX_VARIANTS:=c rust-cb0 rust-cb256 rust-cb512 ceiling c-xdp rust-xdp}" "${TX_VARIANTS:=c rust-cb0}"
: "${PPBENCH:=1}" "${TCP_VARIANTS=c rust-cb0}"
: "${XSK_VARIANTS=c-zc rust-zc c-copy rust-copy}" "${XSK_MODES:=rxdrop txpush l2fwd}" "${XSK_SIZES:=64 1500}"

stamp=$(date +%Y%m%d-%H%M%S)
RES=${BENCH_OUT:-$REPO/results/bench/$stamp}
mkdir -p "$RES"
RES=$(cd "$RES" && pwd)
[ -n "${BENCH_OUT:-}" ] || ln -sfn "$stamp" "$REPO/results/bench/latest"

# The plugin and the two marker programs, rebuilt when their sources change.
SRC=$REPO/tools/igb_rust/bench
BT=$CACHE/bench-tools/$(cat "$SRC/insn_count.c" "$SRC/qemu_plugin_abi.h" "$SRC/mark.S" | sha256sum | cut -c1-12)
if [ ! -f "$BT/insn_count.so" ]; then
	mkdir -p "$BT"
	gcc -O2 -Wall -Wextra -Werror -fPIC -shared -fvisibility=hidden \
		-o "$BT/insn_count.so" "$SRC/insn_count.c"
	gcc -nostdlib -static -Wl,--build-id=none -Wl,-Ttext=0x3b1e0000 -o "$BT/mark-begin" "$SRC/mark.S"
	gcc -nostdlib -static -Wl,--build-id=none -Wl,-Ttext=0x3b2e0000 -o "$BT/mark-end" "$SRC/mark.S"
fi
# The RX ceiling runs a copy of the driver built to recycle every frame
# (IGB_RUST_BENCH=y); the driver users load has no such switch.
BUILD=$(readlink -f "$CACHE/current")
make -C "$CACHE/linux-$(cat "$BUILD/include/config/kernel.release")" O="$BUILD" \
	LLVM="$LLVM_SUFFIX" BINDGEN="$TOOLS/bin/bindgen" \
	RUST_LIB_SRC="$RUST_SRC_ROOT/usr/lib/rustlib/src/rust/library" -j"$(nproc)" \
	-s M="$REPO" MO="$BUILD/igb_rust-bench" IGB_RUST_BENCH=y modules
addr_of() { printf '0x%s' "$(nm "$1" | awk '$3 == "_start" { print $1 }')"; }

accel=$(bash "$REPO/scripts/vm.sh" --print-accel)
extra=""
mark_args=()
if [ "$accel" = tcg ]; then
	extra="-plugin $BT/insn_count.so,begin=$(addr_of "$BT/mark-begin"),end=$(addr_of "$BT/mark-end")"
	extra+=",ranges=$RES/ranges.txt,out=$RES/insn.txt,profile=$RES/profile.txt"
	mark_args=(MARK_BEGIN="$BT/mark-begin" MARK_END="$BT/mark-end")
else
	log "KVM: no instruction counts (the plugin needs TCG); set IGB_RUST_NO_KVM=1 for them"
fi

{
	echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "commit=$(git -C "$REPO" describe --always --dirty 2>/dev/null || echo unknown)"
	echo "host_cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
	echo "host_cores=$(nproc)"
	echo "accel=$accel"
	echo "qemu=$(qemu-system-x86_64 --version | head -1)"
	echo "guest_cpus=${VM_CPUS:-2}"
	echo "kernel=$(make -s -C "$(readlink -f "$CACHE/current")" kernelversion 2>/dev/null || echo "$KSERIES")"
	echo "dur=$DUR reps=$REPS sizes=$SIZES"
	echo "rust_coalesce=${RUST_COALESCE:-default}"
} > "$RES/machine.txt"

n_rx=$(echo $RX_VARIANTS | wc -w)
n_tx=$(echo $TX_VARIANTS | wc -w)
n_xsk=$(( $(echo $XSK_VARIANTS | wc -w) * $(echo $XSK_MODES | wc -w) * $(echo $XSK_SIZES | wc -w) ))
cells=$(( REPS * ($(echo $SIZES | wc -w) * (n_rx + n_tx) + n_xsk + 2 * $(echo $TCP_VARIANTS | wc -w)) ))
# kmemleak=off: the test kernel's leak tracker records a stack trace per slab
# allocation, which would dominate the instruction counts.
log "bench: $cells cells of ${DUR}s ($accel), results in $RES"
VM_TEE=1 VM_RWDIR=$RES VM_QEMU_EXTRA="$extra" bash "$REPO/scripts/vm.sh" \
	--timeout "${BENCH_TIMEOUT:-1500}" --log "$RES/console.log" --append "kmemleak=off" -- \
	env OUT="$RES" DUR="$DUR" REPS="$REPS" SIZES="$SIZES" RX_VARIANTS="$RX_VARIANTS" \
	TX_VARIANTS="$TX_VARIANTS" TCP_VARIANTS="$TCP_VARIANTS" XSK_VARIANTS="$XSK_VARIANTS" \
	XSK_MODES="$XSK_MODES" XSK_SIZES="$XSK_SIZES" PPBENCH="$PPBENCH" RUST_COALESCE="${RUST_COALESCE:-}" "${mark_args[@]}" \
	bash "$REPO/tools/igb_rust/bench/guest.sh" |
	grep --line-buffered '^\[bench\]' || true
[ -f "$RES/done" ] || die "the benchmark did not finish (console: $RES/console.log)"
/usr/bin/python3 "$SRC/report.py" "$RES"
log "results: $RES/bench.md, bench.csv, bench.png"
