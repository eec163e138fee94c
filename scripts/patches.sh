#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# `make patches`: everything this repository changes in the kernel, as two
# `git format-patch` series with a cover letter each against the pristine
# linux-source tree, ordered so that every step builds:
#
#   1-abstractions/: each patch of patches/ with the new files it wires in
#     (patches/files says which), one module per patch, in an order in which
#     nothing uses what a later patch adds (no module uses one above it);
#     a file's declarations of submodules that land later are withheld
#     until then;
#   2-igb_rust/: the driver in steps (tools/igb_rust/steps.py: probe and
#     reset, with the Kconfig entry and Makefile line of patches/0010, the
#     in-tree build that scripts/build.sh also builds; then PHY and link,
#     the data path, ethtool, XDP, power management, statistics, PTP,
#     AF_XDP zero-copy, SR-IOV), each of which builds, and the documentation: the
#     overview of the abstractions (the first series has as many patches as
#     netdev takes) and the driver's.
#
# Each patch that adds files adds them to a MAINTAINERS entry of the series
# (tools/igb_rust/maintainers.py).
#
# Every patch carries a Signed-off-by of $SIGNOFF ("Name <address>"; default:
# this clone's git user.name and user.email; a placeholder address, such as
# one at localhost or example.com, is refused unless DRY_RUN=1, which make
# check sets, and which marks the cover letters as such) and is checked with
# `checkpatch.pl --strict`; the emitted files are applied with `git am` to the
# pristine files and must end at the tree they were made from (make check
# also compares that end with the tree its kernels were built from:
# VERIFY_TREE). CHECK=1 also builds every step as netdev's CI would: the
# kernel with the test configuration (without DWARF and BTF) in a build tree
# of its own (the first step builds it whole; later ones are incremental),
# with CONFIG_IGB_RUST off until the driver's patch and on from it, and no
# compiler warning; for a step that changes Rust code, the kernel crate (and
# the driver, once it is there) through clippy and `make rustdoc`, both
# without a warning; the C helpers with W=1; and the kernel crate's
# doctests, built in (KUnit) and run as the step's kernel boots in the
# guest (scripts/vm.sh with VM_BUILD). The last tree is also built
# with CONFIG_IGB_RUST off again. The table of checks per patch goes to
# checks.md beside the series.
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
DRY=""
case "${AUTHOR_MAIL##*@}" in
localhost | localhost.* | *.localdomain | example.com | example.org | example.net | *.example | *.invalid | *.test)
	[ "${DRY_RUN:-0}" = 1 ] ||
		die "$SIGNOFF is a placeholder identity: set SIGNOFF=\"Name <address>\" (or git user.name/user.email), or DRY_RUN=1 for a series not to be sent"
	DRY="DRY RUN (placeholder identity $SIGNOFF): not to be sent.

";;
esac

# The order of the emitted series: patches/ entries by number, each with its
# files (patches/files); entries quoted together make one patch, with the
# subject and body of the first. The first series: bindings and helpers, streaming
# DMA, the page_pool change, the PCI, inlining and SR-IOV changes, PTP clocks, then one
# networking module per patch from the bottom up (skb; page_pool; xsk; rtnl
# and napi; netdev with ethtool; xdp; the TX ring with its slot mappings; dim;
# the PCI glue). The second: the driver, step by step (then the documentation). An entry
# without a diff (patches/0015, 0017) only adds its files.
SERIES1=("0001 0002" 0004 0005 "0006 0020" 0007 0018 0011 0012 0019 0013 0014 0008 "0015 0016" 0009 0017)
SERIES2=(0010)

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
# withhold: every file of the kernel crate placed in the tree, as in the
# repository but for its declarations of submodules (`pub mod x;`, with the
# attributes right above) whose file is not placed yet.
withhold() {
	(cd "$REPO" && git ls-files -co --exclude-standard 'rust/kernel/*.rs') |
	python3 -c '
import os, re, sys
repo, work = sys.argv[1:]
for f in sys.stdin.read().split():
    w = os.path.join(work, f)
    if not os.path.exists(w):
        continue
    if os.path.basename(f) in ("mod.rs", "lib.rs"):
        continue
    base = os.path.join(os.path.dirname(f), os.path.basename(f)[:-3])
    out = []
    removed = False
    for line in open(os.path.join(repo, f)).read().split("\n"):
        m = re.match(r"\s*(pub(\(crate\))? )?mod (\w+);$", line)
        if m and not any(os.path.exists(os.path.join(work, base, m.group(3) + x))
                         for x in (".rs", "/mod.rs")):
            while out and out[-1].lstrip().startswith("#["):
                out.pop()
            removed = True
            continue
        # No double blank line where a withheld block was.
        if removed and not line.strip() and out and not out[-1].strip():
            continue
        removed = False
        out.append(line)
    new = "\n".join(out)
    if open(w).read() != new:
        open(w, "w").write(new)
' "$REPO" "$WORK"
}
# The driver as of a step of its series: its sources less what later steps
# add (tools/igb_rust/steps.py), formatted as the kernel formats Rust.
STEPS=$REPO/tools/igb_rust/steps.py
DRV=drivers/net/ethernet/intel/igb_rust
mapfile -t DRIVER_STEPS < <(python3 "$STEPS" list)
RUSTFMT=$(rustup which rustfmt 2>/dev/null || command -v rustfmt)
driver_at() {	# driver_at NAME
	rm -rf "${WORK:?}/$DRV"
	python3 "$STEPS" write "$REPO/$DRV" "$1" "$WORK/$DRV" "$RUSTFMT" "$PRISTINE/.rustfmt.toml"
}
subject_of() { sed -n 's/^Subject: \[PATCH\] //p' "$REPO/patches/$1" | head -1; }
body_of() { sed -n '/^Subject:/,/^---$/p' "$REPO/patches/$1" | sed '1d;$d' | sed '/./,$!d'; }

step() {	# step NUMBER...: the patches/ entries NUMBER... and their files, as one commit
	local n p new first=""
	for n in "$@"; do
		p=$(patch_of "$n")
		[ -n "$first" ] || first=$p
		if grep -q '^--- a/' "$REPO/patches/$p"; then
			(cd "$WORK" && patch -s -p1 --no-backup-if-mismatch < "$REPO/patches/$p")
		fi
		new=$(awk -v p="$n" '$1 == p { $1 = ""; print }' "$REPO/patches/files")
		if [ "$n" = 0010 ]; then
			driver_at "${DRIVER_STEPS[0]}"
		else
			copy_files $new
		fi
		case "$n" in
		0010) maint "$IGB_RUST" $new;;
		*) [ -z "$new" ] || maint "$NET_RUST" $new;;
		esac
	done
	withhold
	commit "$(subject_of "$first")" "$(body_of "$first")"
}
for n in "${SERIES1[@]}"; do step $n; done
mid=$(git -C "$WORK" rev-parse HEAD)
for n in "${SERIES2[@]}"; do step $n; done
# The driver's later steps: what each adds (tools/igb_rust/steps.py).
for name in "${DRIVER_STEPS[@]:1}"; do
	driver_at "$name"
	commit "$(python3 "$STEPS" subject "$name")" "$(python3 "$STEPS" body "$name")"
done
# Files of the series not wired in by any patch would be left out: refuse.
missing=$(cd "$REPO" && git ls-files -co --exclude-standard rust drivers |
	while read -r f; do [ -f "$WORK/$f" ] || echo "$f"; done)
[ -z "$missing" ] || die "patches/files does not place: $missing"

# The overview of the abstractions comes with their first user: netdev takes
# at most 15 patches in one series, and the first has as many modules.
copy_files Documentation/rust/net-abstractions.rst
maint "$NET_RUST" Documentation/rust/net-abstractions.rst
commit "Documentation: rust: describe the networking abstractions" \
"An overview of the Rust networking modules of the first series, from
the bottom up: what each wraps, which rule of the C API its types
enforce, and which module builds on which."

copy_files Documentation
maint "$IGB_RUST" Documentation/networking/device_drivers/ethernet/intel/igb_rust.rst
commit "Documentation: networking: describe igb_rust" \
"The driver's user guide: tuning with ethtool, measuring, its limits and
the selftests it passes."

rm -rf "$OUTDIR"
S1=$OUTDIR/1-abstractions
S2=$OUTDIR/2-igb_rust
# Ready for git send-email: the lists netdev and Rust-for-Linux read.
FP=(format-patch -q --cover-letter --subject-prefix="PATCH net-next"
    --to=netdev@vger.kernel.org --cc=rust-for-linux@vger.kernel.org)
git -C "$WORK" "${FP[@]}" -o "$S1" "$base".."$mid"
git -C "$WORK" "${FP[@]}" -o "$S2" "$mid"..HEAD
n1=$(git -C "$WORK" rev-list --count "$base".."$mid")
n2=$(git -C "$WORK" rev-list --count "$mid"..HEAD)
n=$((n1 + n2))
KVERSION=$(make -s -C "$PRISTINE" kernelversion)
bad=0
for c in "$n1 $S1" "$n2 $S2"; do
	set -- $c
	if [ "$1" -gt 15 ]; then
		echo "$2: $1 patches, more than the 15 netdev takes in one series"
		bad=$((bad + 1))
	fi
done

# The cover letters: what and why, the module order, the tables of the
# newest benchmark (`make bench`, or make check's short one) with its date
# and commit, and the closing line of the last `make check`.
bench_md=$(ls -t "$REPO"/results/bench/*/bench.md "$CACHE"/results/check-*/bench/bench.md 2>/dev/null |
	head -1 || true)
bench=""
if [ -n "$bench_md" ]; then
	bench=$(awk 'NR > 2 && /^Frame sizes/ { exit } NR > 2 && NF { print "  " $0 }' "$bench_md"
		echo
		awk '/^## / { on = 1 } on && /^## (XDP|Copybreak|Notes)/ { on = 0 }
			on { print NF ? "  " $0 : "" }' "$bench_md" | cat -s)
fi
last=$(ls -td "$CACHE"/results/check-*/summary-x86.txt 2>/dev/null | head -1 || true)
summary=$( [ -n "$last" ] && cat "$last" || true)
tests="Tests: the project's make check (guest suite on a production and a
debug kernel with KASAN, lockdep and DMA-API debugging, and the kernel's
drivers/net selftests against the driver)${summary:+, last run: $summary}."
blurb1="${DRY}This series adds the Rust abstractions an Ethernet driver needs to be
written without unsafe code: net_device with its operations and
ethtool_ops, NAPI, sk_buff, page_pool, streaming DMA, XDP, DIM and PTP
hardware clocks, and a PCI glue for one net_device per function. Each keeps a rule of the C
API by its types (the poll's budget and context, buffer ownership
across XDP_TX and redirect, RTNL for reconfiguration, the flush of
redirects); the last patch describes them.

One concept per patch, PTP hardware clocks first (a network device
registers its clock), then the networking modules from the bottom up
(sk_buff; page_pool; RTNL and NAPI; net_device with ethtool; XDP; the TX
ring with its slot mappings; DIM; the PCI glue): no module uses one that
comes later, and every step builds.

One patch is a plain C change to page_pool: skip the sync for device
when nothing was written (dma_sync_size 0).

The user is igb_rust, a driver for the Intel 82576, sent as a series of
its own that applies on top of this one. The series applies to Linux
$KVERSION.

$tests"
blurb2="${DRY}This series adds igb_rust, an Ethernet driver for the Intel 82576
written in Rust with no unsafe code, and its documentation. It needs
the series \"Rust abstractions for Ethernet drivers\" ($n1 patches) and
applies to Linux $KVERSION with it.

The driver comes in steps, each of which builds and runs: probe and
reset; the PHY and the link; the data path; ethtool operations; XDP;
power management with error recovery and Wake-on-LAN; statistics.

Benchmark against igb on the same emulated 82576 (QEMU, TCG; guest
instructions per packet are the trusted figure):

${bench:-  (no benchmark run yet: make bench)}

$tests"
fill() {	# fill COVER SUBJECT BLURB
	python3 - "$@" <<'EOF'
import sys
path, subject, blurb = sys.argv[1:]
s = open(path).read()
s = s.replace("*** SUBJECT HERE ***", subject).replace("*** BLURB HERE ***", blurb)
open(path, "w").write(s)
EOF
}
fill "$(ls "$S1"/0000-*.patch)" "Rust abstractions for Ethernet drivers" "$blurb1"
fill "$(ls "$S2"/0000-*.patch)" "igb_rust: a Rust driver for the Intel 82576" "$blurb2"

# checkpatch --strict on every patch, and its Signed-off-by.
for p in "$S1"/0*.patch "$S2"/0*.patch; do
	case "$p" in */0000-*) continue;; esac
	# A patch that adds files only under a folder a MAINTAINERS entry already
	# lists (a later step of the driver) has nothing to add there.
	ign=()
	added=$(awk '/^--- \/dev\/null/ { n = 1; next } n && /^\+\+\+ b\// { print substr($2, 3) } { n = 0 }' "$p")
	if [ -n "$added" ] && ! grep -q '^+++ b/MAINTAINERS' "$p" &&
		! echo "$added" | grep -qv "^$DRV/" && grep -qxF "F:	$DRV/" "$WORK/MAINTAINERS"; then
		ign=(--ignore FILE_PATH_CHANGES)
	fi
	out=$("$PRISTINE/scripts/checkpatch.pl" --strict --no-tree -q "${ign[@]}" "$p" 2>&1 || true)
	grep -qxF "Signed-off-by: $SIGNOFF" "$p" || out="${out}no Signed-off-by: $SIGNOFF"
	if [ -n "$out" ]; then
		bad=$((bad + 1))
		echo "checkpatch --strict: $(basename "$(dirname "$p")")/$(basename "$p"):"
		echo "$out" | sed 's/^/  /'
	fi
done
echo "$n1 + $n2 patches and their cover letters in $S1 and $S2; checkpatch --strict and Signed-off-by: $((n - bad)) of $n clean"

# The emitted files themselves: `git am` applies them, in order, to the
# pristine files, and ends at the tree the series was made from.
AM=$WORK/am
git init -q "$AM"
git -C "$AM" config user.name "$AUTHOR_NAME"
git -C "$AM" config user.email "$AUTHOR_MAIL"
git -C "$WORK" archive "$base" | tar -x -C "$AM"
git -C "$AM" add -A
git -C "$AM" commit -qm base
if ! git -C "$AM" am -q $(ls "$S1"/0*.patch "$S2"/0*.patch | grep -v '/0000-'); then
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
# build and check nothing about the series, and with the kernel crate's
# doctests; made again when the test configuration or these changes to it
# changed.
src_config=$(readlink -f "$CACHE/current")/.config
CONFIG_CHANGES=(-d DEBUG_INFO_BTF -d DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT -d DEBUG_INFO_DWARF4
	-d DEBUG_INFO_DWARF5 -e DEBUG_INFO_NONE -e KUNIT -e RUST_KERNEL_DOCTESTS)
if ! cmp -s "$src_config" "$CBUILD/.config.source" ||
	[ "$(cat "$CBUILD/.config.changes" 2>/dev/null)" != "${CONFIG_CHANGES[*]}" ]; then
	cp "$src_config" "$CBUILD/.config"
	cp "$src_config" "$CBUILD/.config.source"
	"$CTREE/scripts/config" --file "$CBUILD/.config" "${CONFIG_CHANGES[@]}"
	echo "${CONFIG_CHANGES[*]}" > "$CBUILD/.config.changes"
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
# warns LOG: the warnings a build log has (rustc's and the C compiler's).
warns() { grep -cE '^(warning|error)|: (warning|error):' "$1" || true; }
cell() {	# cell LOG: REPLY is "ok" or the count of warnings, counted as a failure
	local w
	w=$(warns "$1")
	if [ "$w" = 0 ]; then REPLY=ok; else bad=$((bad + 1)); REPLY="$w warnings ($(basename "$1"))"; fi
}
TABLE=$OUTDIR/checks.md
{
	echo "| step | patch | build | clippy | rustdoc | helpers W=1 | doctests (KUnit) |"
	echo "|---|---|---|---|---|---|---|"
} > "$TABLE"
i=0
dstep=0
rm -rf "$CBUILD/igb_rust-steps"
for c in $(git -C "$WORK" rev-list --reverse "$base"..HEAD); do
	i=$((i + 1))
	subj=$(git -C "$WORK" log -1 --format=%s "$c")
	# Changed files are replaced, never written through the hard links, by
	# their version at this step (not the work tree's, which is the last).
	git -C "$WORK" diff --name-only "$c~1" "$c" | while read -r f; do
		rm -f "$CTREE/$f"
		git -C "$WORK" cat-file -e "$c:$f" 2>/dev/null || continue
		mkdir -p "$CTREE/$(dirname "$f")"
		git -C "$WORK" show "$c:$f" > "$CTREE/$f"
	done
	"${MK[@]}" olddefconfig >/dev/null
	drv=""
	if git -C "$WORK" show --stat "$c" | grep -q 'drivers/net/ethernet/intel/igb_rust/'; then
		"$CTREE/scripts/config" --file "$CBUILD/.config" -m IGB_RUST
		"${MK[@]}" olddefconfig >/dev/null
	fi
	grep -q '^CONFIG_IGB_RUST=m' "$CBUILD/.config" && drv=drivers/net/ethernet/intel/igb_rust/
	L=$CBUILD/step-$i
	if "${MK[@]}" -s >"$L.log" 2>&1; then
		cell "$L.log"; build=$REPLY
		echo "step $i/$n builds: $subj"
	else
		build="FAILS ($(basename "$L.log"))"
		bad=$((bad + 1))
		echo "step $i/$n does not build: $subj ($L.log)"
	fi
	clippy=- rdoc=- helpers=-
	if git -C "$WORK" diff --name-only "$c~1" "$c" | grep -qE '\.rs$|bindings_helper|helpers'; then
		"${MK[@]}" -s CLIPPY=1 rust/ $drv >"$L-clippy.log" 2>&1 || echo "error: clippy" >>"$L-clippy.log"
		cell "$L-clippy.log"; clippy=$REPLY
		"${MK[@]}" -s rustdoc >"$L-rustdoc.log" 2>&1 || echo "error: rustdoc" >>"$L-rustdoc.log"
		cell "$L-rustdoc.log"; rdoc=$REPLY
	fi
	if git -C "$WORK" diff --name-only "$c~1" "$c" | grep -q '^rust/helpers/'; then
		"${MK[@]}" -s W=1 rust/helpers/helpers.o >"$L-helpers.log" 2>&1 ||
			echo "error: helpers" >>"$L-helpers.log"
		cell "$L-helpers.log"; helpers=$REPLY
	fi
	# The kernel crate's doctests of this step, run by KUnit as the step's
	# kernel boots, for a step that changes the kernel crate.
	kunit=-
	if [ "$build" = ok ] && git -C "$WORK" diff --name-only "$c~1" "$c" | grep -q '^rust/kernel/'; then
		# The guest writes only to its shared folder.
		K=$CBUILD/kunit/step-$i.txt
		mkdir -p "$CBUILD/kunit"
		rm -f "$K"
		VM_BUILD=$CBUILD VM_RWDIR=$CBUILD/kunit bash "$REPO/scripts/vm.sh" --timeout 900 \
			--log "$L-kunit.log" -- sh -c "dmesg > $K" >/dev/null 2>&1 || true
		res=$(cat "$K" "$L-kunit.log" 2>/dev/null |
			sed -nE 's/.*# rust_doctests_kernel: pass:([0-9]+) fail:([0-9]+) skip:([0-9]+) total:([0-9]+).*/\1 \2 \3 \4/p' |
			tail -1)
		set -- $res
		if [ $# = 4 ] && [ "$2" = 0 ] && [ "$4" -gt 0 ]; then
			kunit="$1 of $4 passed"
		else
			kunit="FAILS ($K)"
			bad=$((bad + 1))
		fi
	fi
	# The driver's module of this step, numbered by its place in the series,
	# for the guest run below (a step that does not build has none there).
	if git -C "$WORK" diff --name-only "$c~1" "$c" | grep -q "^$DRV/"; then
		dstep=$((dstep + 1))
		d=$CBUILD/igb_rust-steps/$dstep-${DRIVER_STEPS[$((dstep - 1))]}/$DRV
		mkdir -p "$d"
		[ "$build" != ok ] || cp "$CBUILD/$DRV/igb_rust.ko" "$d/"
	fi
	echo "  build: $build; clippy: $clippy; rustdoc: $rdoc; helpers W=1: $helpers; doctests: $kunit"
	echo "| $i | $subj | $build | $clippy | $rdoc | $helpers | $kunit |" >> "$TABLE"
done
# Each step of the driver before the last in the guest, on the kernel of
# the whole series (the driver's patches change nothing else): the guest's
# part "steps" (tools/igb_rust/tests/steps.sh), as make check runs it.
G=$CBUILD/guest
rm -rf "$G" "$CBUILD/mods"
mkdir -p "$G"
"${MK[@]}" -s INSTALL_MOD_PATH="$CBUILD/mods" modules_install >/dev/null 2>&1 || true
VM_BUILD=$CBUILD VM_RWDIR=$G VM_QMP_DIR=$G/qmp bash "$REPO/scripts/vm.sh" --timeout 900 \
	--log "$CBUILD/steps-console.log" -- env OUT="$G" TESTS=steps \
	STEPS_XDP_OBJ="$(readlink -f "$CACHE/current")/xdp/pass.o" bash "$REPO/tools/igb_rust/check.sh" \
	>/dev/null 2>&1
gp=$(grep -c '^ok ' "$G/tap.txt" 2>/dev/null || true)
gf=$(grep -c '^not ok ' "$G/tap.txt" 2>/dev/null || true)
if [ "${gp:-0}" -gt 0 ] && [ "${gf:-0}" = 0 ] && grep -q '^1\.\.' "$G/tap.txt"; then
	gres="ok ($gp tests)"
else
	gres="FAILS (${gf:-?} of $((gp + gf)) tests; $G/tap.txt)"
	bad=$((bad + 1))
fi
echo "the driver's steps before the last in the guest: $gres"
echo "| - | the driver's steps before the last, in the guest (part steps) | $gres | - | - | - | - |" >> "$TABLE"

# The whole series with the driver's option off again: nothing of it may
# warn when the driver is not built.
"$CTREE/scripts/config" --file "$CBUILD/.config" -d IGB_RUST
"${MK[@]}" olddefconfig >/dev/null
L=$CBUILD/step-off
if "${MK[@]}" -s >"$L.log" 2>&1; then
	cell "$L.log"; off=$REPLY
else
	off="FAILS ($(basename "$L.log"))"
	bad=$((bad + 1))
fi
echo "the whole series with CONFIG_IGB_RUST off: $off"
echo "| - | the whole series, CONFIG_IGB_RUST off | $off | - | - | - | - |" >> "$TABLE"
echo "checks per patch: $TABLE"
exit $((bad > 0))
