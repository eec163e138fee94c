# SPDX-License-Identifier: GPL-2.0
# The kernel booted, and (on the debug kernel) the KUnit suites, the kernel
# crate's Rust doctests among them, that ran during boot all passed.

# The release the build wrote down (running make here took 40 s on the
# debug kernel).
want=""
read -r want 2>/dev/null < "$IGB_RUST_BUILD/include/config/kernel.release"
check "kernel $want booted" test "$(uname -r)" = "$want"

check "two 82576 functions are present" test "$(igb_functions | wc -l)" -ge 2

kunit_summary() {
	dmesg | sed -E 's/^\[[^]]*\] ?//' |
		sed -nE 's/^[[:space:]]*# ([A-Za-z0-9_]+): pass:([0-9]+) fail:([0-9]+) skip:([0-9]+) total:([0-9]+)$/\1 \2 \3 \4 \5/p'
}
suites=$(kunit_summary)
# The doctests are built into the debug kernel (KASAN and lockdep watch
# them there) and the arm64 board kernel (a second architecture); the x86
# production kernel has no KUnit.
if [ "${IGB_RUST_KVARIANT:-}" != debug ] &&
	! grep -q '^CONFIG_RUST_KERNEL_DOCTESTS=y' "$IGB_RUST_BUILD/.config" 2>/dev/null; then
	note "this kernel has no KUnit: the Rust doctests run on the debug and the arm64 kernels"
elif echo "$suites" | grep -q '^rust_doctests_kernel '; then
	ok "KUnit ran the kernel crate's Rust doctests"
else
	fail "KUnit ran the kernel crate's Rust doctests" "$(dmesg | grep -i kunit | tail -5)"
fi
while read -r suite pass nfail skip total; do
	[ -n "$suite" ] && [ "$suite" != Totals ] || continue
	if [ "$nfail" = 0 ] && [ "$total" -gt 0 ]; then
		ok "kunit $suite: $pass passed, $skip skipped of $total"
	else
		fail "kunit $suite: $nfail of $total failed" \
			"$(dmesg | sed -E 's/^\[[^]]*\] ?//' | grep -E '^[[:space:]]*not ok' | head -20)"
	fi
done <<< "$suites"
