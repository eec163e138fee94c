# SPDX-License-Identifier: GPL-2.0
# Without MSI-X: the guest boots with pci=nomsi, so the function gets its
# legacy INTx line, possibly shared. igb_rust falls back to one interrupt for
# the link and one queue pair, tells the causes apart from ICR, and must move
# traffic both ways, follow the link, and recover through its watchdog as
# with MSI-X.

setup_pair v4only
mountpoint -q /run/igbt || { mkdir -p /run/igbt && mount -t tmpfs -o size=200m tmpfs /run/igbt; }
dd if=/dev/urandom of=/run/igbt/blob bs=1M count=24 status=none
want_sum=$(sha256sum < /run/igbt/blob)

dut_lines() {	# /proc/interrupts lines with a handler named after the DUT's interface
	awk -v n="$DUT_IF" '{ for (j = 2; j <= NF; j++) { f = $j; sub(",$", "", f); if (f == n) { print; next } } }' /proc/interrupts
}
irq_count() {	# interrupts counted on the DUT's line, all CPUs
	dut_lines | awk '{ s = 0; for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+$/) s += $i; else break; t += s } END { print t + 0 }'
}
intx_fallback() {
	dmesg | grep -q "igb_rust $DUT: INTx interrupts instead of" || return 1
	[ "$(dut_lines | wc -l)" = 1 ] && ! dut_lines | grep -q MSI &&
		ethtool -l "$DUT_IF" | grep -A4 '^Current' | grep -q 'Combined:.*1'
}
check "probe fell back to INTx with one queue pair, its line named $DUT_IF" intx_fallback
i0=$(irq_count)
check "ping over INTx both ways" sh -c "ping -c 5 -i 0.2 -W 2 $PEER_IP >/dev/null &&
	ip netns exec $NS ping -c 5 -i 0.2 -W 2 $DUT_IP >/dev/null"
check "24 MB DUT -> peer intact over INTx" bulk tx
bulk_rx() { PORT=5002 bulk rx; }
check "24 MB peer -> DUT intact over INTx" bulk_rx
i1=$(irq_count)
note "INTx interrupts during the transfers: $i0 -> $i1"
check "the INTx line fired for the traffic" test "$i1" -gt "$i0"

link_follows() {	# the link interrupt arrives on the shared line
	qmp_set_link h0 off || { echo "QMP set_link failed"; return 1; }
	wait_carrier "$DUT_IF" 0 || { echo "carrier stayed up"; qmp_set_link h0 on; return 1; }
	qmp_set_link h0 on || return 1
	wait_carrier "$DUT_IF" 1 && ping -c 3 -i 0.2 -W 2 $PEER_IP >/dev/null
}
check "link down and up follow the QEMU link over INTx" link_follows

umount /run/igbt
teardown_pair
