#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Install everything the build and the guest need, idempotently. Heavy
# downloads land in the cache directory outside the clone. The system's apt
# sources are never edited: a private deb822 list reuses the mirror the
# machine is already configured with.
set -euo pipefail
. "$(dirname "$0")/env.sh"
# The build passes KARCH; `make setup ARCH=arm64` passes ARCH.
[ -n "${KARCH:-}" ] || arch_from_env

mkdir -p "$APT_DIR/lists/partial" "$DEB_DIR" "$TOOLS"

mirror_of() {	# first URIs: line of the stanza whose Suites mention $1
	awk -v want="$1" '
		/^URIs:/ { u=$2 }
		/^Suites:/ { for (i = 2; i <= NF; i++) if ($i == want) { print u; exit } }
		/^$/ { u="" }' /etc/apt/sources.list.d/*.sources 2>/dev/null
}

write_lists() {
	local deb sec
	deb=$(mirror_of bookworm)
	sec=$(mirror_of bookworm-security)
	[ -n "$deb" ] || die "no bookworm mirror found in /etc/apt/sources.list.d/*.sources"
	cat > "$APT_DIR/bookworm.sources" <<EOL
Types: deb
URIs: $deb
Suites: bookworm bookworm-updates bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOL
	if [ -n "$sec" ]; then
		cat >> "$APT_DIR/bookworm.sources" <<EOL

Types: deb
URIs: $sec
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOL
	fi
	cat > "$APT_DIR/trixie.sources" <<EOL
Types: deb
URIs: $deb
Suites: trixie trixie-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOL
	cat > "$APT_DIR/forky.sources" <<EOL
Types: deb
URIs: $deb
Suites: forky
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOL
}

apt_b() {	# apt with the bookworm(+backports) list only
	apt-get -q -o APT::Sandbox::User=root \
		-o Dir::Etc::sourcelist="$APT_DIR/bookworm.sources" \
		-o Dir::Etc::sourceparts=- -o Dir::State::Lists="$APT_DIR/lists" \
		-o APT::Get::List-Cleanup=0 "$@"
}
apt_t() {	# apt with the trixie list only, for downloads, never installs
	local tool=apt-get
	case "$1" in policy|madison) tool=apt-cache;; esac
	mkdir -p "$APT_DIR/tlists/partial"
	$tool -q -o APT::Sandbox::User=root -o Dir::Etc::sourcelist="$APT_DIR/trixie.sources" \
		-o Dir::Etc::sourceparts=- -o Dir::State::Lists="$APT_DIR/tlists" \
		-o APT::Get::List-Cleanup=0 "$@"
}

apt_f() {	# apt with the forky list only, for one download (ethtool), never installs
	mkdir -p "$APT_DIR/flists/partial"
	apt-get -q -o APT::Sandbox::User=root -o Dir::Etc::sourcelist="$APT_DIR/forky.sources" \
		-o Dir::Etc::sourceparts=- -o Dir::State::Lists="$APT_DIR/flists" \
		-o APT::Get::List-Cleanup=0 "$@"
}

HOST_PKGS="clang-22 lld-22 llvm-22 libclang-22-dev flex bison bc libelf-dev
libssl-dev cpio kmod xz-utils zstd pahole rsync busybox-static udev ethtool
iputils-ping sysstat socat netcat-openbsd iperf3 python3-venv python3-yaml python3-jsonschema
patch libbpf-dev bpftool/bookworm-backports linuxptp
gcc libc6-dev binutils python3-matplotlib"
# The arm64 run (ARCH=arm64 in the environment) also needs qemu-system-aarch64.
[ "${KARCH:-x86}" != arm64 ] || HOST_PKGS+=" qemu-system-arm/bookworm-backports"
QEMU_PKGS="qemu-system-x86/bookworm-backports qemu-system-common/bookworm-backports
qemu-system-data/bookworm-backports seabios/bookworm-backports ipxe-qemu"

need_install() {
	local p
	for p in $HOST_PKGS; do
		p=${p%/*}
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || return 0
	done
	qemu-system-x86_64 -device help 2>/dev/null | grep -q '"igb"' || return 0
	# bookworm's bpftool (7.1) cannot load a program bound to a device (hw/xdp_metadata.py)
	bpftool prog help 2>&1 | grep -q xdpmeta_dev || return 0
	return 1
}

stamp=$CACHE/.lists-updated
if need_install || [ ! -f "$DEB_DIR/.have-$KVER_DEB" ]; then
	write_lists
	if [ ! -f "$stamp" ] || [ -n "$(find "$stamp" -mmin +720)" ]; then
		log "apt update (private lists)"
		apt_b update >/dev/null
		apt_t update >/dev/null
		touch "$stamp"
	fi
fi

if need_install; then
	log "installing host packages"
	DEBIAN_FRONTEND=noninteractive apt_b install -y --no-install-recommends \
		$HOST_PKGS $QEMU_PKGS >/dev/null
fi
qemu-system-x86_64 -device help | grep -q '"igb"' ||
	die "qemu-system-x86_64 $(qemu-system-x86_64 --version | head -1) has no -device igb"

# Kernel source and rust-src: downloaded from trixie-backports, unpacked only.
RUSTC_VER=$(rustc --version | awk '{print $2}')
if [ ! -f "$DEB_DIR/.have-$KVER_DEB" ]; then
	log "downloading linux-source-$KSERIES=$KVER_DEB"
	cd "$DEB_DIR"
	if ! apt_t download "linux-source-$KSERIES=$KVER_DEB" >/dev/null 2>&1; then
		newest=$(apt_t policy "linux-source-$KSERIES" | awk '/Candidate:/ {print $2}')
		[ -n "$newest" ] && [ "$newest" != "(none)" ] ||
			die "linux-source-$KSERIES is not in the registry"
		log "WARNING: pinned linux-source-$KSERIES $KVER_DEB is gone; using $newest"
		log "WARNING: update KVER_DEB in scripts/env.sh"
		apt_t download "linux-source-$KSERIES=$newest" >/dev/null
	fi
	touch "$DEB_DIR/.have-$KVER_DEB"
fi

if [ ! -f "$RUST_SRC_ROOT/.have-$RUSTC_VER" ]; then
	cd "$DEB_DIR"
	# Pick the rust-src build that matches the installed rustc exactly.
	rs_ver=$(apt_t madison rust-src | awk -F'|' '{gsub(/ /, "", $2); print $2}' |
		grep -E "^$RUSTC_VER[+-]" | sort -V | tail -1 || true)
	[ -n "$rs_ver" ] || die "no rust-src for rustc $RUSTC_VER in the registry (have: $(apt_t madison rust-src | awk -F'|' '{printf "%s ", $2}'))"
	rm -f rust-src_*.deb
	apt_t download "rust-src=$rs_ver" >/dev/null
	deb=$(ls rust-src_*.deb)
	debver=$(dpkg-deb -f "$deb" Version)
	[ "$debver" = "$rs_ver" ] || die "rust-src $debver does not match rustc $RUSTC_VER"
	rm -rf "$RUST_SRC_ROOT"; mkdir -p "$RUST_SRC_ROOT"
	dpkg-deb -x "$deb" "$RUST_SRC_ROOT"
	[ -d "$RUST_SRC_ROOT/usr/lib/rustlib/src/rust/library/core" ] ||
		die "rust-src $debver unpacked without library/core"
	touch "$RUST_SRC_ROOT/.have-$RUSTC_VER"
fi

if ! "$TOOLS/bin/bindgen" --version 2>/dev/null | grep -q "$BINDGEN_VERSION"; then
	log "cargo install bindgen-cli@$BINDGEN_VERSION"
	cargo install --quiet --locked --root "$TOOLS" "bindgen-cli@$BINDGEN_VERSION"
fi

# The kernel's driver selftests need an ethtool that prints JSON for -l, -g,
# -c and -x, which bookworm's 6.1 and trixie's 6.14 do not: forky's (7.x),
# unpacked next to the tools and used only by tools/igb_rust/tests/selftests.sh.
# It needs libc6 >= 2.34 and libmnl0 only.
if [ ! -x "$TOOLS/ethtool/usr/sbin/ethtool" ]; then
	log "unpacking ethtool from forky for the driver selftests"
	write_lists
	apt_f update >/dev/null
	rm -rf "$DEB_DIR/ethtool" "$TOOLS/ethtool"
	mkdir -p "$DEB_DIR/ethtool"
	(cd "$DEB_DIR/ethtool" && apt_f download ethtool >/dev/null)
	dpkg-deb -x "$DEB_DIR"/ethtool/ethtool_*.deb "$TOOLS/ethtool"
	"$TOOLS/ethtool/usr/sbin/ethtool" --json -l lo 2>&1 | grep -q 'JSON output not available' &&
		die "the ethtool unpacked for the selftests prints no JSON for -l"
	"$TOOLS/ethtool/usr/sbin/ethtool" --version >/dev/null ||
		die "forky's ethtool does not run here"
fi

# The arm64 guest's userspace: Debian's arm64 packages of the tools the
# tests use, with their dependencies, unpacked into a folder and packed as
# the initramfs base (scripts/vm.sh adds the modules and the tests at each
# boot). Nothing of it runs on the host; no maintainer script runs at all.
ARM64_PKGS="bash coreutils util-linux mount netbase iproute2 ethtool iputils-ping socat kmod procps
grep sed gawk findutils bc python3-minimal libpython3.11-stdlib busybox-static sysstat iperf3"
ARM64_ROOT=$CACHE/arm64-root
arm64_id=$(sha1sum < "$REPO/scripts/setup.sh" | cut -c1-12)	# any change here remakes it
if [ "${KARCH:-x86}" = arm64 ] && [ ! -f "$ARM64_ROOT.$arm64_id.cpio.gz" ]; then
	log "making the arm64 guest's userspace from Debian's arm64 packages"
	write_lists
	A64=$APT_DIR/arm64
	mkdir -p "$A64/lists/partial" "$A64/cache/archives/partial"
	: > "$A64/status"
	apt_a() {	# apt for arm64 packages, with a dpkg database of its own (empty)
		apt-get -q -o APT::Sandbox::User=root -o Dir::Etc::sourcelist="$APT_DIR/bookworm.sources" \
			-o Dir::Etc::sourceparts=- -o Dir::State::Lists="$A64/lists" \
			-o Dir::State::status="$A64/status" -o Dir::Cache="$A64/cache" \
			-o APT::Architecture=arm64 -o APT::Architectures::=arm64 \
			-o APT::Get::List-Cleanup=0 -o Debug::NoLocking=1 "$@"
	}
	apt_a update >/dev/null
	rm -f "$A64"/cache/archives/*.deb
	# With an empty dpkg database the download is the whole dependency closure.
	apt_a install -y --download-only --no-install-recommends $ARM64_PKGS >/dev/null
	rm -rf "$ARM64_ROOT"
	mkdir -p "$ARM64_ROOT"
	for d in "$A64"/cache/archives/*.deb; do
		dpkg-deb -x "$d" "$ARM64_ROOT"
	done
	(
		cd "$ARM64_ROOT"
		# What no test reads: documentation, translations, perl (which
		# usrmerge pulls in; nothing runs its maintainer scripts).
		rm -rf usr/share/doc usr/share/man usr/share/info usr/share/locale \
			usr/share/perl usr/share/perl5 usr/lib/aarch64-linux-gnu/perl* \
			usr/share/zoneinfo usr/share/i18n
		mkdir -p proc sys dev run tmp var lib/modules root etc
		rm -rf var/run
		ln -s /run var/run
		[ -e bin/sh ] || ln -s bash bin/sh
		printf 'root:x:0:0:root:/root:/bin/bash\n' > etc/passwd
		printf 'root:x:0:\n' > etc/group
		printf '127.0.0.1 localhost\n::1 localhost\n' > etc/hosts
		ln -sfn python3.11 usr/bin/python3
		# The links update-alternatives would make.
		ln -sfn gawk usr/bin/awk
		ln -sfn sar.sysstat usr/bin/sar
		find . -print0 | cpio --null -o -H newc --quiet
	) | gzip -1 > "$ARM64_ROOT.cpio.gz.tmp"
	for f in bin/bash bin/busybox bin/mount lib/ld-linux-aarch64.so.1 usr/bin/python3 \
		usr/bin/awk sbin/ip sbin/ethtool usr/bin/socat; do
		[ -e "$ARM64_ROOT/$f" ] || die "the arm64 userspace has no $f"
	done
	rm -f "$ARM64_ROOT".*.cpio.gz
	mv "$ARM64_ROOT.cpio.gz.tmp" "$ARM64_ROOT.$arm64_id.cpio.gz"
fi
[ "${KARCH:-x86}" != arm64 ] || ln -sfn "$ARM64_ROOT.$arm64_id.cpio.gz" "$ARM64_ROOT.cpio.gz"

if ! "$VENV/bin/vng" --version 2>/dev/null | grep -q "$VNG_VERSION"; then
	log "pip install virtme-ng==$VNG_VERSION"
	/usr/bin/python3 -m venv "$VENV"
	"$VENV/bin/pip" install -q "virtme-ng==$VNG_VERSION"
fi
log "toolchain ready"
