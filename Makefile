# SPDX-License-Identifier: GPL-2.0
#
# igb_rust: one entry point. Kbuild (not this file) is what the kernel's
# build reads when it builds the driver as an external module.
#
#   make run      build everything, boot the guest, show igb_rust working
#   make check    build everything and run the test suite
#   make shell    build everything, boot the guest with both NICs set up,
#                 and give a prompt in it (exit powers it off)
#   make build    fetch the toolchain and kernel, apply, build kernel + module
#   make patches  emit the upstream changes as a git format-patch series
#   make bench    pktgen + sar matrix, C igb vs igb_rust, with instruction
#                 counts per packet (QUICK=1 for a short run)
#   make bench-pp page_pool recycle microbenchmark, with and without swiotlb
#
# Caches live in $(IGB_RUST_CACHE), default ~/.cache/igb_rust.

SHELL := /bin/bash

.PHONY: all build run shell check patches setup help bench bench-pp

all: run

help:
	@sed -n '3,16p' Makefile

setup:
	bash scripts/setup.sh

build:
	bash scripts/build.sh

run: build
	bash scripts/run.sh

shell: build
	bash scripts/vm.sh --interactive -- bash $(CURDIR)/tools/igb_rust/shell.sh

check:
	bash scripts/check.sh

patches:
	bash scripts/patches.sh

bench: build
	bash scripts/bench.sh

bench-pp: build
	TESTS=ppbench bash scripts/check.sh
