# SPDX-License-Identifier: GPL-2.0
# The page_pool recycle microbenchmark runs on the DUT and prints its table
# (numbers are for the notes, not thresholds).

setup_modules
lsmod | grep -q '^igb_rust ' && rmmod igb_rust
echo pp_bench > "/sys/bus/pci/devices/$DUT/driver_override"
kmsg_mark ppbench
swiotlb=no
grep -qw 'swiotlb=force' /proc/cmdline && swiotlb=force
check "pp_bench loads on the DUT (swiotlb=$swiotlb)" insmod "$PP_BENCH_KO"
table=$(dmesg_since ppbench | sed -n 's/.*pp_bench: *//p')
echo "$table" > "$OUT/pp_bench-swiotlb-$swiotlb.txt"
note "pp_bench, swiotlb=$swiotlb:"
echo "$table" | while read -r l; do note "  $l"; done
rows=$(echo "$table" | grep -cE '^[0-9]+(-unpatched)? +[0-9]+$')
check "pp_bench timed all 6 rows" test "$rows" = 6
rmmod pp_bench
echo igb_rust > "/sys/bus/pci/devices/$DUT/driver_override"
