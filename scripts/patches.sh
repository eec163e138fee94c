#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# `make patches`: emit everything this repository changes in the kernel as a
# `git format-patch` series against the pristine linux-source tree: first the
# patches/ series (edits to upstream files), then one patch per area adding
# the new files (abstractions, helpers, driver, documentation).
set -euo pipefail
. "$(dirname "$0")/env.sh"

PRISTINE=$CACHE/linux-source-$KSERIES
[ -d "$PRISTINE" ] || bash "$REPO/scripts/build.sh"
OUTDIR=${PATCH_OUT:-$REPO/results/patches}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

git -C "$WORK" init -q
git -C "$WORK" config user.name "igb_rust"
git -C "$WORK" config user.email "igb_rust@localhost"
# Base: the pristine versions of the upstream files the series touches.
files=$(cd "$REPO/patches" && grep -v '^#' series | xargs cat | sed -n 's#^+++ b/##p' | sort -u)
for f in $files; do
	mkdir -p "$WORK/$(dirname "$f")"
	cp "$PRISTINE/$f" "$WORK/$f"
done
git -C "$WORK" add -A
git -C "$WORK" commit -qm "linux $(make -s -C "$PRISTINE" kernelversion) (pristine files)"
base=$(git -C "$WORK" rev-parse HEAD)

add_area() {	# add_area SUBJECT PATHS...
	local subject=$1
	shift
	(cd "$REPO" && git ls-files -co --exclude-standard "$@") | while read -r f; do
		mkdir -p "$WORK/$(dirname "$f")"
		cp "$REPO/$f" "$WORK/$f"
	done
	git -C "$WORK" add -A
	git -C "$WORK" commit -q -m "$subject"
}
# New helper files first, so every step of the series builds.
add_area "rust: helpers: add net_device, sk_buff, page_pool and DMA mapping helpers" rust/helpers

while read -r p; do
	case "$p" in ''|'#'*) continue;; esac
	subject=$(sed -n 's/^Subject: \[PATCH\] //p' "$REPO/patches/$p" | head -1)
	body=$(sed -n '/^Subject:/,/^---$/p' "$REPO/patches/$p" | sed '1d;$d')
	(cd "$WORK" && patch -s -p1 < "$REPO/patches/$p")
	git -C "$WORK" add -A
	git -C "$WORK" commit -q -m "$subject" -m "$body"
done < "$REPO/patches/series"

add_area "rust: add networking abstractions, streaming DMA mappings and pci::IrqSet" rust/kernel
add_area "net: ethernet: intel: add igb_rust, a Rust driver for the 82576" drivers
add_area "Documentation: describe igb_rust and the Rust networking abstractions" Documentation

rm -rf "$OUTDIR"
git -C "$WORK" format-patch -q -o "$OUTDIR" "$base"..HEAD
ls "$OUTDIR"
