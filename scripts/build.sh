#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Prepare the kernel tree (pristine source + patches/ + the project's rust/,
# drivers/ and Documentation/ files), configure it from the committed
# fragment, build bzImage and modules, then build igb_rust as an external
# module the way a board integrator would. Everything lands in the cache;
# a rerun rebuilds only what changed.
#
#   KVARIANT=debug   build the debug kernel instead (igb_rust.config plus
#                    debug.config: KASAN, lockdep, UBSAN, DMA-API debug, ...)
#                    in its own build tree, linked as $CACHE/current-debug;
#                    the production kernel stays at $CACHE/current.
#   ARCH=arm64       cross build the board kernel for arm64 with LLVM
#                    (igb_rust.config plus arm64.config) and the module,
#                    linked as $CACHE/current-arm64 (ARCH=arm64 scripts/vm.sh
#                    boots it)
#
# The driver is built twice: in-tree (CONFIG_IGB_RUST=m, the Kconfig entry
# of patches/0010), as a board vendor's kernel has it, and as an external
# module, which is what the tests load (and what an integrator copies).
set -euo pipefail
. "$(dirname "$0")/env.sh"
arch_from_env	# sets KARCH and KIMAGE; ARCH itself is passed to make explicitly

# IGB_RUST_TREE_LAID_OUT=1 (make check's second build): another build has
# set up the toolchain and laid out the tree; take both as they are.
LAID_OUT=${IGB_RUST_TREE_LAID_OUT:-}
[ -n "$LAID_OUT" ] || KARCH=$KARCH bash "$REPO/scripts/setup.sh"

PRISTINE=$CACHE/linux-source-$KSERIES
if [ ! -f "$PRISTINE/.unpacked-$KVER_DEB" ]; then
	log "unpacking linux-source-$KSERIES $KVER_DEB"
	rm -rf "$PRISTINE" "$CACHE/x"
	mkdir -p "$CACHE/x"
	dpkg-deb -x "$(ls "$DEB_DIR"/linux-source-"$KSERIES"_*.deb | head -1)" "$CACHE/x"
	tar -C "$CACHE" -xf "$CACHE/x/usr/src/linux-source-$KSERIES.tar.xz"
	rm -rf "$CACHE/x"
	touch "$PRISTINE/.unpacked-$KVER_DEB"
fi
KVERSION=$(make -s -C "$PRISTINE" kernelversion)

# The working tree is a hard-link farm of the pristine one: patch and rsync
# replace the files they change, so the pristine copy stays untouched.
TREE=$CACHE/linux-$KVERSION
if [ -n "$LAID_OUT" ]; then
	[ -f "$TREE/.igb_rust-series" ] || die "IGB_RUST_TREE_LAID_OUT: no tree at $TREE"
else
	series_id=$(cd "$REPO/patches" && cat series $(grep -v '^#' series) | sha1sum | cut -c1-12)
	if [ "$(cat "$TREE/.igb_rust-series" 2>/dev/null)" != "$series_id" ]; then
		log "laying out $TREE (patch series $series_id)"
		rm -rf "$TREE"
		cp -al "$PRISTINE" "$TREE"
		rm -f "$TREE/.unpacked-$KVER_DEB"
		if [ -f "$REPO/patches/series" ]; then
			while read -r p; do
				case "$p" in ''|'#'*) continue;; esac
				patch -s -p1 -d "$TREE" --no-backup-if-mismatch < "$REPO/patches/$p" ||
					die "patch $p does not apply to $KVERSION"
			done < "$REPO/patches/series"
		fi
		echo "$series_id" > "$TREE/.igb_rust-series"
	fi
	# New files of the project: copied only when their content changed, so
	# an unchanged file keeps its timestamp and is not rebuilt.
	(cd "$REPO" && git ls-files -co --exclude-standard rust drivers Documentation 2>/dev/null ||
		find rust drivers Documentation -type f) > "$CACHE/overlay.list"
	rsync -rc --files-from="$CACHE/overlay.list" "$REPO/" "$TREE/"
	# The driver in the tree as its patch series ends: without the comments
	# that mark what each step of the series adds (tools/igb_rust/steps.py).
	DRV=drivers/net/ethernet/intel/igb_rust
	rm -rf "$CACHE/driver-last"
	python3 "$REPO/tools/igb_rust/steps.py" write "$REPO/$DRV" last "$CACHE/driver-last" \
		"$(rustup which rustfmt 2>/dev/null || command -v rustfmt)" "$TREE/.rustfmt.toml"
	rsync -rc "$CACHE/driver-last/" "$TREE/$DRV/"
fi

FRAGMENTS=("$REPO/scripts/kconfig/igb_rust.config")
case "${KVARIANT:-}" in
"") VARIANT_TAG=""; CURRENT=$CACHE/current;;
*) [ "$KARCH" = x86 ] || die "KVARIANT=$KVARIANT: the debug kernel is x86_64 only";;&
debug)
	FRAGMENTS+=("$REPO/scripts/kconfig/debug.config")
	VARIANT_TAG=debug-; CURRENT=$CACHE/current-debug;;
*) die "KVARIANT=$KVARIANT: only debug is known";;
esac
if [ "$KARCH" = arm64 ]; then
	FRAGMENTS+=("$REPO/scripts/kconfig/arm64.config")
	VARIANT_TAG=arm64-; CURRENT=$CACHE/current-arm64
fi
CONFIG_ID=$(cat "${FRAGMENTS[@]}" | sha1sum | cut -c1-12)
BUILD=$CACHE/build-$KVERSION-$VARIANT_TAG$CONFIG_ID
MAKE=(make -C "$TREE" O="$BUILD" ARCH="$KARCH" LLVM="$LLVM_SUFFIX"
      RUST_LIB_SRC="$RUST_SRC_ROOT/usr/lib/rustlib/src/rust/library"
      BINDGEN="$TOOLS/bin/bindgen" -j"$(nproc)")
"${MAKE[@]}" -s rustavailable >/dev/null || { "${MAKE[@]}" rustavailable; die "Rust toolchain not usable"; }
# The tree and the toolchain are in place: `make check` may start the other
# kernel's build now, beside this one (see scripts/check.sh).
[ -z "${IGB_RUST_TREE_READY:-}" ] || : > "$IGB_RUST_TREE_READY"

if [ ! -f "$BUILD/.config" ]; then
	log "configuring $BUILD"
	mkdir -p "$BUILD"
	"${MAKE[@]}" -s tinyconfig
	"$TREE/scripts/kconfig/merge_config.sh" -Q -O "$BUILD" -m "$BUILD/.config" \
		"${FRAGMENTS[@]}" >/dev/null
	"${MAKE[@]}" -s olddefconfig
	# Every option we asked for must have survived olddefconfig (a later
	# fragment overrides an earlier one).
	cat "${FRAGMENTS[@]}" | while read -r line; do
		case "$line" in
		CONFIG_*=*) opt=${line%%=*};;
		"# CONFIG_"*" is not set") opt=${line#\# }; opt=${opt%% *};;
		*) continue;;
		esac
		last=$(cat "${FRAGMENTS[@]}" | grep -E "^($opt=|# $opt is not set)" | tail -1)
		[ "$line" = "$last" ] || continue
		case "$line" in
		CONFIG_*=*) grep -qx "$line" "$BUILD/.config" || die "config: $line was not kept";;
		*) if grep -q "^$opt=[ym]" "$BUILD/.config"; then die "config: $opt must stay unset"; fi;;
		esac
	done || { rm -f "$BUILD/.config"; exit 1; }
fi

log "building kernel $KVERSION in $BUILD"
t0=$(date +%s)
# pahole 1.24 reports every DWARF tag of clang 22 it has no use for ("not
# handled", or a name it cannot find) while it makes the kernel's BTF: those
# lines are dropped.
"${MAKE[@]}" -s "$KIMAGE" modules 2> >(grep -vE '^(die__|tag__recode_dwarf_type)' >&2)
"${MAKE[@]}" -s INSTALL_MOD_PATH="$BUILD/mods" modules_install >/dev/null
# The in-tree igb_rust stays in the build tree: in the guest's module tree,
# udev would load it for every 82576 it sees, before the tests load theirs.
KREL=$(cat "$BUILD/include/config/kernel.release")
INTREE_KO=drivers/net/ethernet/intel/igb_rust/igb_rust.ko
[ -f "$BUILD/$INTREE_KO" ] || die "the in-tree build made no $INTREE_KO"
rm -f "$BUILD/mods/lib/modules/$KREL/kernel/$INTREE_KO"
PATH=$PATH:/usr/sbin:/sbin depmod -b "$BUILD/mods" -F "$BUILD/System.map" "$KREL"
log "kernel built in $(( $(date +%s) - t0 )) s"

if [ "$KARCH" = x86 ]; then
# The programs the kernel's driver selftests need live in the shared tree,
# and both kernels' builds may make them at once: each is written under a
# name of its own and renamed into place.
ST=$TREE/tools/testing/selftests
bpf_obj() {	# bpf_obj SRC OBJ [CLANG-ARGS...]: builds the BPF object OBJ from SRC unless it is newer
	local src=$1 obj=$2
	shift 2
	[ -f "$obj" ] && [ ! "$src" -nt "$obj" ] && return 0
	clang$LLVM_SUFFIX -O2 -g -target bpf "$@" -I "$TREE/tools/include/uapi" \
		-I "/usr/include/$(gcc -dumpmachine)" -c "$src" -o "$obj.$$" ||
		die "cannot build the BPF program $obj"
	mv -f "$obj.$$" "$obj"
}
# The XDP programs the kernel's driver selftests attach (ping.py, xdp.py,
# hw/xdp_metadata.py).
for x in xdp_dummy xdp_native xdp_metadata; do
	bpf_obj "$ST/net/lib/$x.bpf.c" "$ST/net/lib/$x.bpf.o"
done
# The XDP programs of the igb_rust tests (tools/igb_rust/xdp), in this build:
# one object per mode of xdp_test.bpf.c, then the one that asks for the XDP
# metadata (xdp_meta.bpf.c), the one that puts metadata in front of a
# frame for TC (xdp_datameta.bpf.c) and the one that hands frames to AF_XDP
# sockets (xdp_xsk.bpf.c).
mkdir -p "$BUILD/xdp"
for m in pass drop tx redirect abort bench; do
	bpf_obj "$REPO/tools/igb_rust/xdp/xdp_test.bpf.c" "$BUILD/xdp/$m.o" -D "XDP_TEST_${m^^}"
done
for m in meta datameta xsk; do
	bpf_obj "$REPO/tools/igb_rust/xdp/xdp_$m.bpf.c" "$BUILD/xdp/$m.o"
done
# The AF_XDP receiver of the zero-copy tests.
if [ ! -x "$BUILD/xsk_rx" ] || [ "$REPO/tools/igb_rust/xsk_rx.c" -nt "$BUILD/xsk_rx" ]; then
	gcc -O2 -Wall -I "$TREE/tools/include/uapi" -o "$BUILD/xsk_rx.$$" "$REPO/tools/igb_rust/xsk_rx.c" ||
		die "cannot build the AF_XDP receiver"
	mv -f "$BUILD/xsk_rx.$$" "$BUILD/xsk_rx"
fi
# The AF_XDP socket helper (queues.py) and those of the other selftests
# that run in make check.
for h in net/lib/xdp_helper drivers/net/napi_id_helper net/lib/csum net/lib/gro; do
	if [ ! -x "$ST/$h" ] || [ "$ST/$h.c" -nt "$ST/$h" ]; then
		gcc -O2 -Wall -I "$ST" -I "$TREE/tools/include/uapi" -o "$ST/$h.$$" "$ST/$h.c" ||
			die "cannot build the selftest helper $h"
		mv -f "$ST/$h.$$" "$ST/$h"
	fi
done
# hw/toeplitz.py's helper talks ethtool netlink through the tree's YNL C
# library, generated and built in the shared tree: one build at a time, with
# this tree's UAPI headers (installed into this build) rather than the host's.
TZ=$ST/drivers/net/hw/toeplitz
if [ ! -x "$TZ" ] || [ "$TZ.c" -nt "$TZ" ]; then
	"${MAKE[@]}" -s headers_install INSTALL_HDR_PATH="$BUILD/st-hdr" ||
		die "cannot install the UAPI headers for the selftest helpers"
	mkdir -p "$BUILD/st-hw"
	# The YNL code generator wants PyYAML and jsonschema: the system's Python has
	# them (scripts/setup.sh), the tools' venv does not.
	PATH=/usr/bin:$PATH flock "$ST/.igb_rust-ynl.lock" make -s -C "$ST/drivers/net/hw" OUTPUT="$BUILD/st-hw" \
		KHDR_INCLUDES="-isystem $BUILD/st-hdr/include" "$BUILD/st-hw/toeplitz" \
		>/dev/null 2> >(grep -v 'excluding iouring tests' >&2) ||
		die "cannot build the selftest helper drivers/net/hw/toeplitz"
	cp -f "$BUILD/st-hw/toeplitz" "$TZ.$$"
	mv -f "$TZ.$$" "$TZ"
fi
fi

log "building igb_rust as an external module"
mkdir -p "$BUILD/igb_rust"
"${MAKE[@]}" -s M="$REPO" MO="$BUILD/igb_rust" modules
if [ "$KARCH" = x86 ]; then
mkdir -p "$BUILD/pp_bench"
"${MAKE[@]}" -s M="$REPO/tools/igb_rust/pp_bench" MO="$BUILD/pp_bench" modules
mkdir -p "$BUILD/pm_cycle"
"${MAKE[@]}" -s M="$REPO/tools/igb_rust/pm_cycle" MO="$BUILD/pm_cycle" modules
# The kernel's driver of the 82576 VFs (tests/sriov.sh), built apart: the kernels'
# configuration, and with it their cached builds, stays as it is.
mkdir -p "$BUILD/igbvf"
"${MAKE[@]}" -s M="$TREE/drivers/net/ethernet/intel/igbvf" MO="$BUILD/igbvf" CONFIG_IGBVF=m modules
# The kernel's PTP clock tester, against the UAPI headers of this kernel.
PT=$TREE/tools/testing/selftests/ptp/testptp
if [ ! -x "$BUILD/testptp" ] || [ "$PT.c" -nt "$BUILD/testptp" ]; then
	[ -f "$BUILD/usr/include/linux/ptp_clock.h" ] || "${MAKE[@]}" -s headers
	gcc -O2 -Wall -isystem "$BUILD/usr/include" -o "$BUILD/testptp.$$" "$PT.c" -lrt ||
		die "cannot build testptp"
	mv -f "$BUILD/testptp.$$" "$BUILD/testptp"
fi
# The tests' sender and receiver of hardware-timestamped PTP frames.
HT=$REPO/tools/igb_rust/hwtstamp/hwtstamp
if [ ! -x "$BUILD/hwtstamp" ] || [ "$HT.c" -nt "$BUILD/hwtstamp" ]; then
	[ -f "$BUILD/usr/include/linux/net_tstamp.h" ] || "${MAKE[@]}" -s headers
	gcc -O2 -Wall -isystem "$BUILD/usr/include" -o "$BUILD/hwtstamp.$$" "$HT.c" ||
		die "cannot build hwtstamp"
	mv -f "$BUILD/hwtstamp.$$" "$BUILD/hwtstamp"
fi
fi
ln -sfn "$BUILD" "$CURRENT"
log "done: $BUILD"
