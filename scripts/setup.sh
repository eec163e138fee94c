#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Install everything the build and the guest need, idempotently. Heavy
# downloads land in the cache directory outside the clone. The system's apt
# sources are never edited: a private deb822 list reuses the mirror the
# machine is already configured with.
set -euo pipefail
. "$(dirname "$0")/env.sh"

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
iputils-ping sysstat socat netcat-openbsd iperf3 python3-venv python3-yaml patch libbpf-dev bpftool
gcc libc6-dev binutils python3-matplotlib"
QEMU_PKGS="qemu-system-x86/bookworm-backports qemu-system-common/bookworm-backports
qemu-system-data/bookworm-backports seabios/bookworm-backports ipxe-qemu"

need_install() {
	local p
	for p in $HOST_PKGS; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || return 0
	done
	qemu-system-x86_64 -device help 2>/dev/null | grep -q '"igb"' || return 0
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

if ! "$VENV/bin/vng" --version 2>/dev/null | grep -q "$VNG_VERSION"; then
	log "pip install virtme-ng==$VNG_VERSION"
	/usr/bin/python3 -m venv "$VENV"
	"$VENV/bin/pip" install -q "virtme-ng==$VNG_VERSION"
fi
log "toolchain ready"
