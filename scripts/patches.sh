#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# `make patches`: everything this repository changes in the kernel, as a
# `git format-patch` series with a cover letter against the pristine
# linux-source tree, ordered so that every step builds:
#
#   - each patch of patches/ with the new files it wires in (patches/files
#     says which), in an order in which nothing uses what a later patch adds;
#   - the driver with its Kconfig entry and Makefile line (patches/0010, the
#     in-tree build; scripts/build.sh builds it so, besides the external
#     module);
#   - the documentation.
#
# Each patch that adds files adds them to a MAINTAINERS entry of the series
# (tools/igb_rust/maintainers.py).
#
# Every patch carries a Signed-off-by of $SIGNOFF ("Name <address>"; default:
# this clone's git user.name and user.email) and is checked with
# `checkpatch.pl --strict`; the emitted files are applied with `git am` to the
# pristine files and must end at the tree they were made from (make check
# also compares that end with the tree its kernels were built from:
# VERIFY_TREE). CHECK=1 also builds every step: the kernel with the test
# configuration (without DWARF and BTF) in a build tree of its own (the first
# step builds it whole; later ones are incremental), and the driver in-tree
# once it is there.
set -euo pipefail
. "$(dirname "$0")/env.sh"

PRISTINE=$CACHE/linux-source-$KSERIES
[ -d "$PRISTINE" ] || bash "$REPO/scripts/build.sh"
OUTDIR=${PATCH_OUT:-$REPO/results/patches}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

if [ -z "${SIGNOFF:-}" ]; then
	name=$(git -C "$REPO" config user.name || true)
	mail=$(git -C "$REPO" config user.email || true)
	[ -n "$name" ] && [ -n "$mail" ] ||
		die "set SIGNOFF=\"Name <address>\" (or git user.name/user.email) for the Signed-off-by"
	SIGNOFF="$name <$mail>"
fi
case "$SIGNOFF" in *" <"*@*">") ;; *) die "SIGNOFF must read \"Name <address>\": $SIGNOFF";; esac
AUTHOR_NAME=${SIGNOFF% <*}
AUTHOR_MAIL=${SIGNOFF##*<}
AUTHOR_MAIL=${AUTHOR_MAIL%>}

# The order of the emitted series: patches/ entries by number, or a group of
# them that only builds together (the net modules use each other). Each
# group's files (patches/files) come with it.
ORDER=(
	"0001"
	"0002"
	"0004"
	"0005"
	"0006"
	"0007"
	"0003 0008 0009"
	"0010"
)

git -C "$WORK" init -q
git -C "$WORK" config user.name "$AUTHOR_NAME"
git -C "$WORK" config user.email "$AUTHOR_MAIL"
# Base: the pristine versions of every upstream file the series touches.
series=$(grep -v '^#' "$REPO/patches/series" | grep -v '^$')
files=$( (cd "$REPO/patches" && cat $series | sed -n 's#^+++ b/##p'
	  echo MAINTAINERS) | sort -u)
for f in $files; do
	mkdir -p "$WORK/$(dirname "$f")"
	cp "$PRISTINE/$f" "$WORK/$f"
done
git -C "$WORK" add -A
git -C "$WORK" commit -qm "linux $(make -s -C "$PRISTINE" kernelversion) (pristine files)"
base=$(git -C "$WORK" rev-parse HEAD)

copy_files() {	# copy_files PATHS...: the repository's files under PATHS into the tree
	[ $# -gt 0 ] || return 0
	(cd "$REPO" && git ls-files -co --exclude-standard "$@") | while read -r f; do
		mkdir -p "$WORK/$(dirname "$f")"
		cp "$REPO/$f" "$WORK/$f"
	done
}
commit() {	# commit SUBJECT BODY
	git -C "$WORK" add -A
	git -C "$WORK" commit -q -m "$1" -m "$2" -m "Signed-off-by: $SIGNOFF"
}
# MAINTAINERS: every patch that adds files names them in an entry (checkpatch
# asks for it): the Rust networking abstractions and the driver get entries
# of their own, with $SIGNOFF as maintainer.
NET_RUST="NETWORK DEVICE ABSTRACTIONS [RUST]"
IGB_RUST="INTEL 82576 ETHERNET DRIVER [RUST] (igb_rust)"
maint() {	# maint TITLE PATTERN...
	local title=$1
	shift
	python3 "$REPO/tools/igb_rust/maintainers.py" "$WORK/MAINTAINERS" "$title" \
		--header "M:	$SIGNOFF" --header "L:	netdev@vger.kernel.org" \
		--header "L:	rust-for-linux@vger.kernel.org" --header "S:	Maintained" "$@"
}
patch_of() { (cd "$REPO/patches" && ls "$1"-*.patch); }
subject_of() { sed -n 's/^Subject: \[PATCH\] //p' "$REPO/patches/$1" | head -1; }
body_of() { sed -n '/^Subject:/,/^---$/p' "$REPO/patches/$1" | sed '1d;$d' | sed '/./,$!d'; }

for group in "${ORDER[@]}"; do
	subject="" body=""
	for n in $group; do
		p=$(patch_of "$n")
		(cd "$WORK" && patch -s -p1 --no-backup-if-mismatch < "$REPO/patches/$p")
		new=$(awk -v p="$n" '$1 == p { $1 = ""; print }' "$REPO/patches/files")
		copy_files $new
		case "$n" in
		0010) maint "$IGB_RUST" $new;;
		*) [ -z "$new" ] || maint "$NET_RUST" $new;;
		esac
		if [ -z "$subject" ]; then
			subject=$(subject_of "$p")
			body=$(body_of "$p")
		fi
	done
	if [ "$group" = "0003 0008 0009" ]; then
		subject="rust: net: add net_device, NAPI, sk_buff, page_pool, XDP and DIM abstractions"
		body="Abstractions that let an Ethernet driver be written without unsafe code:
a registered net_device with its operations and ethtool_ops, NAPI
instances with their poll state and page pool, sk_buffs built and sent
through owned handles, page_pool pages, XDP programs, buffers and frames,
and the DIM library. The modules use each other (the NAPI poll hands
XDP its receive queue, a registration announces XDP features), so they
come in one patch; Documentation/rust/net-abstractions.rst describes each.

Also wired in: linux/filter.h, net/xdp.h and linux/dim.h for bindgen,
the XDP helpers, the adaptive-RX coalescing flag, and the modules in
the net module list (dim only where the library is built in)."
	fi
	commit "$subject" "$body"
done
# Files of the series not wired in by any patch would be left out: refuse.
missing=$(cd "$REPO" && git ls-files -co --exclude-standard rust drivers |
	while read -r f; do [ -f "$WORK/$f" ] || echo "$f"; done)
[ -z "$missing" ] || die "patches/files does not place: $missing"

copy_files Documentation
maint "$IGB_RUST" Documentation/networking/device_drivers/ethernet/intel/igb_rust.rst
maint "$NET_RUST" Documentation/rust/net-abstractions.rst
commit "Documentation: describe igb_rust and the Rust networking abstractions" \
"The driver's user guide (tuning with ethtool, measuring, its limits and
the selftests it passes) and an overview of the Rust networking modules:
what each wraps and which rule of the C API its types enforce."

rm -rf "$OUTDIR"
git -C "$WORK" format-patch -q --cover-letter -o "$OUTDIR" "$base"..HEAD
n=$(git -C "$WORK" rev-list --count "$base"..HEAD)
KVERSION=$(make -s -C "$PRISTINE" kernelversion)

# The cover letter: what and why, the benchmark table of the documentation
# and the test summary of the last `make check`.
cover=$(ls "$OUTDIR"/0000-*.patch)
bench=$(awk '/^Where it stands/ { on = 1 } /^Debug kernel and stress tests/ { on = 0 }
	on && /^==+ / { print "  " $0; if (++b % 3 == 0) print ""; next }
	on && b % 3 { print "  " $0 }' \
	"$REPO/Documentation/networking/device_drivers/ethernet/intel/igb_rust.rst")
# The closing line of the newest finished default (x86) make check.
last=$(ls -td "$CACHE"/results/check-*/summary-x86.txt 2>/dev/null | head -1 || true)
summary=$( [ -n "$last" ] && cat "$last" || true)
blurb="This series adds igb_rust, an Ethernet driver for the Intel 82576
written in Rust with no unsafe code, and the Rust abstractions it needs
over net_device, NAPI, sk_buff, page_pool, XDP, DIM and streaming DMA.
Each abstraction keeps a rule of the C API by its types (the poll's
budget and context, buffer ownership across XDP_TX and redirect, RTNL
for reconfiguration, the flush of redirects); the documentation patch
lists them.

The series applies to Linux $KVERSION and builds at every step. One
patch is a plain C change to page_pool: skip the sync for device when
nothing was written (dma_sync_size 0).

Benchmark against igb on the same emulated 82576 (QEMU, TCG; guest
instructions per packet are the trusted figure):

${bench:-  (see Documentation/networking/device_drivers/ethernet/intel/igb_rust.rst)}

Tests: the project's make check (guest suite on a production and a
debug kernel with KASAN, lockdep and DMA-API debugging, and the kernel's
drivers/net selftests against the driver)${summary:+: $summary}."
python3 - "$cover" "igb_rust: a Rust driver for the Intel 82576" "$blurb" <<'EOF'
import sys
path, subject, blurb = sys.argv[1:]
s = open(path).read()
s = s.replace("*** SUBJECT HERE ***", subject).replace("*** BLURB HERE ***", blurb)
open(path, "w").write(s)
EOF

# checkpatch --strict on every patch.
bad=0
for p in "$OUTDIR"/0*.patch; do
	case "$p" in */0000-*) continue;; esac
	out=$("$PRISTINE/scripts/checkpatch.pl" --strict --no-tree -q "$p" 2>&1 || true)
	if [ -n "$out" ]; then
		bad=$((bad + 1))
		echo "checkpatch --strict: $(basename "$p"):"
		echo "$out" | sed 's/^/  /'
	fi
done
echo "$n patches and a cover letter in $OUTDIR; checkpatch --strict: $((n - bad)) of $n clean"

# The emitted files themselves: `git am` applies them, in order, to the
# pristine files, and ends at the tree the series was made from.
AM=$WORK/am
git init -q "$AM"
git -C "$AM" config user.name "$AUTHOR_NAME"
git -C "$AM" config user.email "$AUTHOR_MAIL"
git -C "$WORK" archive "$base" | tar -x -C "$AM"
git -C "$AM" add -A
git -C "$AM" commit -qm base
if ! git -C "$AM" am -q $(ls "$OUTDIR"/0*.patch | grep -v '/0000-'); then
	echo "git am: the series does not apply to the pristine files"
	bad=$((bad + 1))
elif [ "$(git -C "$AM" rev-parse 'HEAD^{tree}')" != "$(git -C "$WORK" rev-parse 'HEAD^{tree}')" ]; then
	echo "git am: the applied series differs from the tree it was made from"
	bad=$((bad + 1))
else
	echo "git am applies all $n patches to pristine $KVERSION"
fi
# VERIFY_TREE=DIR (make check): the series ends at DIR, the kernel tree the
# tests ran on, file for file (but MAINTAINERS, which only the series edits).
if [ -n "${VERIFY_TREE:-}" ]; then
	differ=$(git -C "$WORK" ls-files | grep -vx MAINTAINERS | while read -r f; do
		cmp -s "$WORK/$f" "$VERIFY_TREE/$f" || echo "$f"
	done)
	if [ -n "$differ" ]; then
		echo "the series does not end at $VERIFY_TREE: $(echo $differ)"
		bad=$((bad + 1))
	else
		echo "the series ends at the tree in $VERIFY_TREE ($(git -C "$WORK" ls-files | grep -vxc MAINTAINERS) files compared)"
	fi
fi

[ "${CHECK:-0}" = 1 ] || exit $((bad > 0))
arch_from_env
[ "$KARCH" = x86 ] || die "CHECK=1 builds the x86_64 test configuration: leave ARCH unset"

# CHECK=1: build every step, from the pristine tree, with the test
# configuration, in a build tree of its own.
CTREE=$CACHE/patches-check/linux
CBUILD=$CACHE/patches-check/build
rm -rf "$CTREE"
mkdir -p "$CBUILD"
cp -al "$PRISTINE" "$CTREE"
# The test configuration without DWARF and BTF, which would double every
# build and check nothing about the series; made again when the test
# configuration changed.
src_config=$(readlink -f "$CACHE/current")/.config
if ! cmp -s "$src_config" "$CBUILD/.config.source"; then
	cp "$src_config" "$CBUILD/.config"
	cp "$src_config" "$CBUILD/.config.source"
	"$CTREE/scripts/config" --file "$CBUILD/.config" -d DEBUG_INFO_BTF \
		-d DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT -d DEBUG_INFO_DWARF4 -d DEBUG_INFO_DWARF5 \
		-e DEBUG_INFO_NONE
fi
MK=(make -C "$CTREE" O="$CBUILD" LLVM="$LLVM_SUFFIX" BINDGEN="$TOOLS/bin/bindgen"
    RUST_LIB_SRC="$RUST_SRC_ROOT/usr/lib/rustlib/src/rust/library" -j"$(nproc)")
# A build tree of an earlier run holds objects of later steps: every file
# the series changes starts as a new copy of its pristine version, newer
# than those objects, so that the first step rebuilds what depends on it.
git -C "$WORK" diff --name-only "$base" HEAD | while read -r f; do
	[ -f "$PRISTINE/$f" ] || continue
	rm -f "$CTREE/$f"
	cp "$PRISTINE/$f" "$CTREE/$f"
done
i=0
for c in $(git -C "$WORK" rev-list --reverse "$base"..HEAD); do
	i=$((i + 1))
	# Changed files are replaced, never written through the hard links, by
	# their version at this step (not the work tree's, which is the last).
	git -C "$WORK" diff --name-only "$c~1" "$c" | while read -r f; do
		rm -f "$CTREE/$f"
		git -C "$WORK" cat-file -e "$c:$f" 2>/dev/null || continue
		mkdir -p "$CTREE/$(dirname "$f")"
		git -C "$WORK" show "$c:$f" > "$CTREE/$f"
	done
	"${MK[@]}" olddefconfig >/dev/null
	if git -C "$WORK" show --stat "$c" | grep -q 'drivers/net/ethernet/intel/igb_rust/'; then
		"$CTREE/scripts/config" --file "$CBUILD/.config" -m IGB_RUST
		"${MK[@]}" olddefconfig >/dev/null
	fi
	if "${MK[@]}" -s >"$CBUILD/step-$i.log" 2>&1; then
		echo "step $i/$n builds: $(git -C "$WORK" log -1 --format=%s "$c")"
	else
		echo "step $i/$n does not build: $(git -C "$WORK" log -1 --format=%s "$c") ($CBUILD/step-$i.log)"
		bad=$((bad + 1))
	fi
done
exit $((bad > 0))
