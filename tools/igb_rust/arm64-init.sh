#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# /init of the arm64 guest (scripts/vm.sh with ARCH=arm64): the initramfs is
# Debian's arm64 userspace plus, for this boot, the modules and the tests at
# the paths they have on the host. Mounts what a board's init would, the
# host's results folder over 9p at its host path, then runs /igb_rust-cmd
# (written by vm.sh) on the console, records its exit status for the host
# and powers off.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
ln -s /proc/self/fd /dev/fd
ln -s /proc/self/fd/0 /dev/stdin
ln -s /proc/self/fd/1 /dev/stdout
ln -s /proc/self/fd/2 /dev/stderr
# /tmp stays on the initramfs (in RAM already): vm.sh may have put this
# boot's files under it, at their host paths.
mount -t tmpfs tmpfs /run
mount -t debugfs debugfs /sys/kernel/debug
busybox hostname igb-arm64

. /igb_rust-env
mkdir -p "$VM_RWDIR"
if ! mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 igbrw "$VM_RWDIR"; then
	echo "igb_rust arm64 init: cannot mount the results folder $VM_RWDIR"
	busybox poweroff -f
fi

if [ -n "${VM_INTERACTIVE:-}" ]; then
	# A shell with the serial line as its controlling terminal (job control,
	# Ctrl-C), as on a board's console.
	setsid -c bash /igb_rust-cmd <> /dev/ttyAMA0 >&0 2>&1
	rc=$?
else
	bash /igb_rust-cmd
	rc=$?
fi
echo "$rc" > "$VM_RWDIR/.igb_rust-rc.$VM_BOOT_ID"
sync
umount "$VM_RWDIR" 2>/dev/null
busybox poweroff -f
