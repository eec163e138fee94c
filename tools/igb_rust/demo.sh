#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make run`, inside the guest: load igb_rust and show what it does.
set -u
. "$(dirname "$0")/lib.sh"

step() { printf '\n$ %s\n' "$*"; "$@"; }

setup_modules || { echo "no 82576 found"; exit 1; }
echo "igb_rust demo: DUT $DUT (QEMU mac=$DUT_MAC), peer $PEER"
step insmod "$IGB_RUST_KO"
step sh -c "dmesg | grep igb_rust"
step readlink "/sys/bus/pci/devices/$DUT/driver"
step rmmod igb_rust
step sh -c "dmesg | grep igb_rust | tail -1"
