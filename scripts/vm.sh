#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot the built kernel under QEMU with virtme-ng and run one command in the
# guest. Two 82576 NICs sit behind their own PCIe root ports, wired to each
# other through QEMU's internal hub 0: no host network, no user-mode network.
#
# usage: vm.sh [--timeout SEC] [--log FILE] [--append ARGS] -- COMMAND...
#        vm.sh --interactive -- SCRIPT  (SCRIPT sets up, then runs the shell
#                                        on this terminal; no time limit)
#        vm.sh --print-accel    (prints kvm or tcg: what a boot would use)
#
# Boots the production kernel ($CACHE/current, or the build in VM_BUILD,
# which `make patches CHECK=1` boots for each step); with KVARIANT=debug in the
# environment, the debug kernel (KVARIANT=debug scripts/build.sh); with
# ARCH=arm64, the arm64 board kernel (ARCH=arm64 scripts/build.sh) on QEMU's
# virt machine with a Cortex-A53, from an initramfs of Debian's arm64
# userspace to which each boot adds the modules and the tests: the modules
# are copied in and loaded with insmod, as on a board.
#
# VM_ROOT_CACHE=none mounts the host's root without the guest caching it
# (virtme-ng's default; see below).
#
# Exits with the guest command's status; 124 when the boot or the command
# overran its time limit (the end of the console log is printed then).
set -euo pipefail
. "$(dirname "$0")/env.sh"

timeout_s=900
logf=""
append=""
print_accel=""
interactive=""
while [ $# -gt 0 ]; do
	case "$1" in
	--timeout) timeout_s=$2; shift 2;;
	--log) logf=$2; shift 2;;
	--append) append=$2; shift 2;;
	--print-accel) print_accel=1; shift; break;;
	--interactive) interactive=1; shift;;
	--) shift; break;;
	*) die "vm.sh: unknown option $1";;
	esac
done
[ $# -gt 0 ] || [ -n "$print_accel" ] || die "vm.sh: no command"
arch_from_env

# Not QEMU's defaults: each NIC must show the address it was given.
DUT_MAC=${DUT_MAC:-52:54:00:a1:b2:01}
PEER_MAC=${PEER_MAC:-52:54:00:a1:b2:02}
nic_opts() {	# the two 82576s behind their PCIe root ports, on hub 0
	local o="-nic none"
	# rp1 and rp2 are also the ids the AER test injects errors into. Their
	# links are the 82576's (2.5 GT/s, x1): after a link reset, the kernel
	# then waits for the device to answer instead of for the Data Link Layer
	# Link Active bit, which QEMU's root port does not set again.
	o+=" -device pcie-root-port,id=rp1,chassis=1,bus=pcie.0,addr=0x10,x-speed=2_5,x-width=1"
	o+=" -device pcie-root-port,id=rp2,chassis=2,bus=pcie.0,addr=0x11,x-speed=2_5,x-width=1"
	o+=" -netdev hubport,id=h0,hubid=0 -device igb,id=dut,netdev=h0,bus=rp1,mac=$DUT_MAC"
	o+=" -netdev hubport,id=h1,hubid=0 -device igb,id=peer,netdev=h1,bus=rp2,mac=$PEER_MAC"
	echo "$o ${VM_QEMU_EXTRA:-}"
}
# QEMU monitor requests from the guest (link up/down), relayed through files.
relay_pid=""
start_relay() {	# appends the -qmp option to qopts
	[ -n "${VM_QMP_DIR:-}" ] || return 0
	mkdir -p "$VM_QMP_DIR"
	local qsock=$VM_QMP_DIR/qmp.sock
	rm -f "$qsock"
	qopts+=" -qmp unix:$qsock,server=on,wait=off"
	python3 "$REPO/tools/igb_rust/qmp-relay.py" "$qsock" "$VM_QMP_DIR" &
	relay_pid=$!
}

if [ "$KARCH" = arm64 ]; then
	[ -z "${KVARIANT:-}" ] || die "KVARIANT=$KVARIANT: the arm64 guest runs the board kernel only"
	if [ -n "$print_accel" ]; then echo tcg; exit 0; fi
	BUILD=$(readlink -f "$CACHE/current-arm64")
	KIMG=$BUILD/arch/arm64/boot/Image
	[ -f "$KIMG" ] || die "no arm64 kernel at $KIMG: run ARCH=arm64 scripts/build.sh first"
	BASE=$CACHE/arm64-root.cpio.gz
	[ -f "$BASE" ] || die "no arm64 userspace at $BASE: run KARCH=arm64 scripts/setup.sh"
	[ -n "$logf" ] || logf=$(mktemp /tmp/igb_rust-vm.XXXXXX.log)
	RW=$(readlink -f "${VM_RWDIR:-/tmp}")
	# The guest's init mounts a tmpfs on /run, which would hide them.
	case "$REPO/ $BUILD/" in /run/*|*" /run/"*) die "arm64: the clone and the cache cannot be under /run";; esac
	boot_id=$$.$(date +%s%N)
	stage=$(mktemp -d)
	initrd=$(mktemp /tmp/igb_rust-initrd.XXXXXX)
	trap 'rm -rf "$stage" "$initrd"; rm -f "$RW/.igb_rust-rc.$boot_id"' EXIT
	# This boot's files at their host paths: the modules (the external
	# build, the in-tree one and the kernel's, for the C igb on the peer),
	# the kernel release, the tests and the kernel's pktgen scripts.
	ko=drivers/net/ethernet/intel/igb_rust/igb_rust.ko
	mkdir -p "$stage$BUILD/igb_rust/${ko%/*}" "$stage$BUILD/${ko%/*}" \
		"$stage$BUILD/include/config" "$stage$BUILD/mods" "$stage$REPO"
	cp "$BUILD/igb_rust/$ko" "$stage$BUILD/igb_rust/$ko"
	cp "$BUILD/$ko" "$stage$BUILD/$ko"
	cp "$BUILD/include/config/kernel.release" "$stage$BUILD/include/config/"
	cp "$BUILD/.config" "$stage$BUILD/"
	cp -a "$BUILD/mods/lib" "$stage$BUILD/mods/"
	(cd "$REPO" && { git ls-files -co --exclude-standard tools/igb_rust 2>/dev/null ||
		find tools/igb_rust -type f; } | grep -v '^tools/igb_rust/\(bench\|pp_bench\|pm_cycle\|compile_fail\)/' |
		cpio -pdm --quiet "$stage$REPO")
	src=$(readlink -f "$BUILD/source")
	mkdir -p "$stage$src/samples"
	cp -a "$src/samples/pktgen" "$stage$src/samples/"
	ln -s "$src" "$stage$BUILD/source"
	cp "$REPO/tools/igb_rust/arm64-init.sh" "$stage/init"
	{
		printf 'export VM_RWDIR=%q VM_BOOT_ID=%q VM_INTERACTIVE=%q\n' "$RW" "$boot_id" "$interactive"
		printf 'export IGB_RUST_BUILD=%q IGB_RUST_KVARIANT= DUT_MAC=%q PEER_MAC=%q\n' \
			"$BUILD" "$DUT_MAC" "$PEER_MAC"
	} > "$stage/igb_rust-env"
	printf 'cd /root\nexec %s\n' "$(printf '%q ' "$@")" > "$stage/igb_rust-cmd"
	# Two archives, one after the other: the kernel unpacks both.
	{ cat "$BASE"; (cd "$stage" && find . -print0 | cpio --null -o -H newc --quiet | gzip -1); } > "$initrd"
	qopts=$(nic_opts)
	qopts+=" -fsdev local,id=rw,path=$RW,security_model=none"
	qopts+=" -device virtio-9p-pci,fsdev=rw,mount_tag=igbrw"
	start_relay
	log "accelerator: TCG (software emulation), arm64 virt machine, Cortex-A53"
	qemu=(qemu-system-aarch64 -M virt,gic-version=3 -cpu cortex-a53 -smp "${VM_CPUS:-2}"
		-m "${VM_MEM:-3G}" -nographic -no-reboot -kernel "$KIMG" -initrd "$initrd")
	cmdline="console=ttyAMA0 rdinit=/init panic=-1 log_buf_len=1M"
	set +e
	if [ -n "$interactive" ]; then
		"${qemu[@]}" -append "$cmdline quiet $append" $qopts
	else
		timeout -k 10 "$timeout_s" "${qemu[@]}" \
			-append "$cmdline oops=panic softlockup_panic=1 $append" $qopts </dev/null 2>&1 |
			if [ -n "${VM_TEE:-}" ]; then tee "$logf"; else cat > "$logf"; fi
		qrc=${PIPESTATUS[0]}
	fi
	set -e
	[ -z "$relay_pid" ] || kill "$relay_pid" 2>/dev/null || true
	if [ -z "$interactive" ] && { [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; }; then
		log "guest timed out after ${timeout_s}s; end of its console ($logf):"
		tail -n 40 "$logf" >&2
		exit 124
	fi
	# The guest command's status, which the guest's init left in the shared
	# folder; none means it never ran to the end (a panic, say).
	rc=$(cat "$RW/.igb_rust-rc.$boot_id" 2>/dev/null || echo 1)
	exit "$rc"
fi

case "${KVARIANT:-}" in
"") BUILD=$(readlink -f "${VM_BUILD:-$CACHE/current}");;
debug) BUILD=$(readlink -f "$CACHE/current-debug");;
*) die "KVARIANT=$KVARIANT: only debug is known";;
esac
KIMG=$BUILD/arch/x86/boot/bzImage
[ -f "$KIMG" ] || die "no kernel at $KIMG: run ${KVARIANT:+KVARIANT=$KVARIANT }scripts/build.sh first"
[ -n "$logf" ] || logf=$(mktemp /tmp/igb_rust-vm.XXXXXX.log)

# KVM: use it only where it demonstrably boots this kernel. The answer is
# cached per host kernel and CPU model.
accel_args=(--disable-kvm)
kvm_stamp=$CACHE/kvm-$(uname -r)-$(grep -m1 'model name' /proc/cpuinfo | md5sum | cut -c1-8)
if [ -z "${IGB_RUST_NO_KVM:-}" ] && [ -w /dev/kvm ]; then
	if [ ! -f "$kvm_stamp" ]; then
		log "probing whether KVM boots this kernel (once per machine)"
		if timeout -k 5 60 vng -r "$KIMG" --cpus 1 --memory 512M \
			--qemu-opts="-nic none" --exec "true" </dev/null >/dev/null 2>&1; then
			echo yes > "$kvm_stamp"
		else
			echo no > "$kvm_stamp"
		fi
	fi
	[ "$(cat "$kvm_stamp")" = yes ] && accel_args=()
fi
if [ -n "$print_accel" ]; then
	if [ ${#accel_args[@]} -eq 0 ]; then echo kvm; else echo tcg; fi
	exit 0
fi
if [ ${#accel_args[@]} -eq 0 ]; then
	log "accelerator: KVM"
else
	log "accelerator: TCG (software emulation)"
fi

qopts=$(nic_opts)
start_relay
# virtme-ng gives the guest the modules of the build tree, the in-tree
# igb_rust among them: udev must not load it for the 82576s it sees (the
# tests load the driver themselves; the blacklist binds udev only).
append="modprobe.blacklist=igb_rust $append"

# The guest sees the host's root read-only; results go to a shared folder.
# The final test of a suite reads the whole kernel log: 1 MB of it keeps
# every line of a run (the default 128 KB is about one suite's worth).
export IGB_RUST_BUILD=$BUILD DUT_MAC PEER_MAC
IGB_RUST_KVARIANT=${KVARIANT:-}
cmd=$(printf '%q ' "$@")
if [ -n "$interactive" ]; then
	# virtme-ng runs the user's shell on the console: ours is a script that
	# sets the environment and runs SCRIPT, which ends in the real shell.
	entry=$(mktemp "${VM_RWDIR:-/tmp}/igb_rust-shell.XXXXXX")
	printf '#!/bin/bash\nexport IGB_RUST_BUILD=%q IGB_RUST_KVARIANT=%q DUT_MAC=%q PEER_MAC=%q\nexec %s\n' \
		"$BUILD" "$IGB_RUST_KVARIANT" "$DUT_MAC" "$PEER_MAC" "$cmd" > "$entry"
	chmod +x "$entry"
	trap 'rm -f "$entry"' EXIT
	set +e
	# As root, like --exec (for an interactive session vng would keep the
	# caller's user).
	vng -r "$KIMG" "${accel_args[@]}" --cpus "${VM_CPUS:-2}" --memory "${VM_MEM:-3G}" \
		--disable-monitor --append "panic=-1 log_buf_len=1M quiet $append" \
		--rwdir "${VM_RWDIR:-/tmp}" --qemu-opts="$qopts" --user root --shell "$entry"
	rc=$?
	set -e
	[ -z "$relay_pid" ] || kill "$relay_pid" 2>/dev/null || true
	exit $rc
fi
# The root filesystem is the host's, over 9p, which virtme-ng mounts without
# any cache: every lookup, stat and read crosses to QEMU, and under TCG a
# process start costs 30 ms, a Python start 0.6 s, the debug kernel's boot
# 150 s. cache=loose keeps what the guest has seen (a later rootflags= wins):
# the debug kernel boots in 70 s, its probe part runs 2.5 times as fast. It
# is right while nothing the guest reads changes on the host during the boot,
# as in make check, where the host builds only what a later guest reads (the
# results folder, VM_RWDIR, is a mount of its own, uncached); the interactive
# shell, beside which one may rebuild, keeps the default. 9p, not virtiofs,
# which virtme-ng would pick if virtiofsd were installed.
root_cache=(--force-9p)
append="rootflags=version=9p2000.L,trans=virtio,access=any,msize=524288,cache=loose $append"
[ "${VM_ROOT_CACHE:-loose}" = loose ] || { root_cache=(); append=${append#rootflags=* }; }
set +e
timeout -k 10 "$timeout_s" vng -r "$KIMG" "${accel_args[@]}" "${root_cache[@]}" --cpus "${VM_CPUS:-2}" \
	--memory "${VM_MEM:-3G}" --verbose --disable-monitor \
	--append "panic=-1 oops=panic softlockup_panic=1 log_buf_len=1M $append" \
	--rwdir "${VM_RWDIR:-/tmp}" \
	--qemu-opts="$qopts" \
	--exec "IGB_RUST_BUILD=$BUILD IGB_RUST_KVARIANT=$IGB_RUST_KVARIANT DUT_MAC=$DUT_MAC PEER_MAC=$PEER_MAC $cmd" \
	</dev/null 2>&1 | if [ -n "${VM_TEE:-}" ]; then tee "$logf"; else cat > "$logf"; fi
rc=${PIPESTATUS[0]}
set -e
[ -z "$relay_pid" ] || kill "$relay_pid" 2>/dev/null || true
if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
	log "guest timed out after ${timeout_s}s; end of its console ($logf):"
	tail -n 40 "$logf" >&2
	exit 124
fi
exit $rc
