# SPDX-License-Identifier: GPL-2.0
# Common settings for the igb_rust scripts. Sourced, never run.

KVER_DEB="7.3.4-1~bpo13+1"          # pinned linux-source-7.3 package version
KSERIES="7.3"
BINDGEN_VERSION="0.72.1"
VNG_VERSION="1.42"
LLVM_SUFFIX="-22"                 # clang on the LLVM major of rustc: C helpers inline into Rust

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${IGB_RUST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/igb_rust}
APT_DIR=$CACHE/apt
DEB_DIR=$CACHE/debs
TOOLS=$CACHE/tools
VENV=$CACHE/venv
RUST_SRC_ROOT=$CACHE/rust-src

export PATH="$TOOLS/bin:$VENV/bin:$PATH"
# bindgen must parse the headers with the same libclang as the C compiler.
export LIBCLANG_PATH=/usr/lib/llvm${LLVM_SUFFIX}/lib

log() { printf '[igb_rust] %s\n' "$*" >&2; }
die() { printf '[igb_rust] error: %s\n' "$*" >&2; exit 1; }

# ARCH from the command line (make check ARCH=arm64) picks the target; the
# scripts pass the kernel's own name for it to make and remove the variable,
# so that no other make they run inherits it.
arch_from_env() {
	case "${ARCH:-x86_64}" in
	x86_64|x86) KARCH=x86 KIMAGE=bzImage;;
	arm64|aarch64) KARCH=arm64 KIMAGE=Image;;
	*) die "ARCH=$ARCH: x86_64 or arm64";;
	esac
	unset ARCH
	# `make check ARCH=arm64` also hands ARCH to every make below through
	# MAKEFLAGS.
	if [ -n "${MAKEFLAGS:-}" ]; then
		MAKEFLAGS=$(printf '%s' "$MAKEFLAGS" | sed -E 's/(^| )ARCH=[^ ]*//g')
		export MAKEFLAGS
	fi
}
