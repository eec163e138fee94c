#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `make run`: boot the built kernel and show igb_rust at work, step by step,
# with the commands a user would type.
set -euo pipefail
. "$(dirname "$0")/env.sh"
RES=$CACHE/results/run-$(date +%Y%m%d-%H%M%S)
mkdir -p "$RES"
VM_TEE=1 VM_RWDIR=$RES bash "$REPO/scripts/vm.sh" --timeout 900 --log "$RES/console.log" -- \
	env OUT="$RES" bash "$REPO/tools/igb_rust/demo.sh" |
	grep --line-buffered -vE '^\[ *[0-9]+\.[0-9]+\]|^virtme|^\s*$' || true
echo "console log: $RES/console.log"
