# SPDX-License-Identifier: GPL-2.0
# igb_rust probes the device under test, reports the MAC QEMU gave it,
# leaves the peer alone, and loads and unloads cleanly, repeatedly.
#
#   PROBE_CYCLES   load/unload cycles (default 20)

PROBE_CYCLES=${PROBE_CYCLES:-20}

if setup_modules; then ok "found DUT $DUT and peer $PEER"; else fail "found DUT and peer" "$(lspci -n 2>&1)"; fi

# The probe messages of this part, not those of the boot: the final check
# of check.sh reads the whole log, which must not be cleared.
kmsg_mark probe
check "insmod igb_rust" insmod "$IGB_RUST_KO"
check "igb_rust is bound to the DUT" test "$(driver_of "$DUT")" = igb_rust
check "igb_rust left the peer alone" test "$(driver_of "$PEER")" != igb_rust
probe_line=$(dmesg_since probe | grep "igb_rust $DUT: .*permanent MAC" || true)
if echo "$probe_line" | grep -qiE "permanent MAC $DUT_MAC(,|$)"; then
	ok "probe reports the MAC QEMU was given ($DUT_MAC)"
else
	fail "probe reports the MAC QEMU was given ($DUT_MAC)" "$(dmesg_since probe | grep -i igb_rust)"
fi
check "BAR0 is claimed by igb_rust" grep -q igb_rust /proc/iomem
# MSI-X vector 0 is the link's, vector q + 1 queue q's: each queue's line is
# on a CPU of its own (the guest has one NUMA node: queue q on CPU q, modulo
# the CPUs), not on every CPU.
queue_affinity() {
	local ncpu v irq want got bad="" n=0
	ncpu=$(nproc)
	while read -r irq v; do
		[ "$v" -ge 1 ] || continue
		want=$(( (v - 1) % ncpu ))
		got=$(cat /proc/irq/$irq/smp_affinity_list)
		n=$((n + 1))
		[ "$got" = "$want" ] || bad+=" vector $v (irq $irq): CPUs $got, want $want;"
	done < <(msix_vectors "$DUT" | cut -d' ' -f1,2)
	note "queue vectors: $n${bad:+;$bad}"
	[ "$n" -ge 1 ] && [ -z "$bad" ]
}
# The lines are requested while the interface is up, as C drivers do. udev
# may rename the interface just after the probe: let it finish first.
udevadm settle -t 120 2>/dev/null
DUT_IF=$(netdev_of "$DUT")
check "ifup $DUT_IF" ip link set "$DUT_IF" up
check "each queue's interrupt is on a CPU of its own (queue q on CPU q)" queue_affinity
irq_names() {	# irq_names IF: vector 0 named IF, vector q + 1 IF-TxRx-q
	local irq v cnt name want bad="" n=0
	while read -r irq v cnt name; do
		want=$1
		[ "$v" -ge 1 ] && want=$1-TxRx-$((v - 1))
		n=$((n + 1))
		[ "$name" = "$want" ] || bad+=" vector $v: '$name', want '$want';"
	done < <(msix_vectors "$DUT")
	[ "$n" -ge 2 ] && [ -z "$bad" ] || { echo "$n vectors:$bad"; return 1; }
}
no_irq_names() {	# no handler on any line of the DUT
	local names
	names=$(msix_vectors "$DUT" | awk '$4 != ""')
	[ -z "$names" ] || { echo "still requested: $names"; return 1; }
}
irq_renamed() {	# renamed while down, the lines take the new name at the next ifup
	local rc=0
	ip link set "$DUT_IF" down && no_irq_names || return 1
	ip link set "$DUT_IF" name igbr0 || return 1
	{ ip link set igbr0 up && irq_names igbr0; } || rc=1
	# Back to the old name whatever happened. udev may have given the renamed
	# interface its old name as an altname.
	udevadm settle -t 30 2>/dev/null
	ip link set igbr0 down
	ip link property del dev igbr0 altname "$DUT_IF" 2>/dev/null
	ip link set igbr0 name "$DUT_IF" && ip link set "$DUT_IF" up || return 1
	[ $rc = 0 ] && irq_names "$DUT_IF"
}
check "interrupts named after the interface: $DUT_IF, $DUT_IF-TxRx-<q>" irq_names "$DUT_IF"
check "lines freed on ifdown; renamed while down, named after the new name on ifup" irq_renamed
ifdown_frees() { ip link set "$DUT_IF" down && no_irq_names; }
check "ifdown frees every line" ifdown_frees

check "rmmod igb_rust" rmmod igb_rust
check "DUT unbound after rmmod" test "$(driver_of "$DUT")" = none
check "module gone after rmmod" sh -c '! grep -q "^igb_rust " /proc/modules'
check "BAR0 released after rmmod" sh -c '! grep -q igb_rust /proc/iomem'
check "unbind logged" grep -q "igb_rust $DUT: removed" <<< "$(dmesg_since probe)"

cycles_ok=0
for i in $(seq 1 "$PROBE_CYCLES"); do
	insmod "$IGB_RUST_KO" || break
	[ "$(driver_of "$DUT")" = igb_rust ] || break
	rmmod igb_rust || break
	[ "$(driver_of "$DUT")" = none ] || break
	cycles_ok=$i
done
check "$PROBE_CYCLES load/unload cycles" test "$cycles_ok" = "$PROBE_CYCLES"
check "$PROBE_CYCLES cycles leave no module, no region" \
	sh -c '! grep -q "^igb_rust " /proc/modules && ! grep -q igb_rust /proc/iomem'
probes=$(dmesg_since probe | grep -c "igb_rust $DUT: .*permanent MAC" || true)
check "each cycle probed once ($((PROBE_CYCLES + 1)) probes)" test "$probes" = $((PROBE_CYCLES + 1))

# A copper device ID strapped to SerDes by its NVM (CTRL_EXT.LINK_MODE, read
# before the first reset as C igb reads it): refused with ENODEV and a clear
# line (ENODEV: the driver core logs no failure for it). QEMU keeps a value
# written while no driver is bound.
link_mode_refused() {
	local ext rc=0
	ext=$(bar_read 0x18)
	bar_write 0x18 $(( ext | (3 << 22) ))
	kmsg_mark link-mode
	insmod "$IGB_RUST_KO"
	[ "$(driver_of "$DUT")" = none ] || { echo "bound to a SerDes-strapped port"; rc=1; }
	dmesg_since link-mode | grep -q "igb_rust $DUT: port strapped to SerDes (CTRL_EXT.LINK_MODE 3): copper only, use igb" ||
		{ echo "no log line"; rc=1; }
	bar_write 0x18 "$ext"
	echo "$DUT" > /sys/bus/pci/drivers/igb_rust/bind
	[ "$(driver_of "$DUT")" = igb_rust ] || { echo "not bound once copper again"; rc=1; }
	rmmod igb_rust
	return $rc
}
check "a port strapped to SerDes (CTRL_EXT.LINK_MODE) is refused with ENODEV; copper again, it binds" link_mode_refused

# The peer is for the C driver; it must still probe with ours loaded.
insmod "$IGB_RUST_KO"
modprobe igb
[ "$(driver_of "$PEER")" = igb ] || echo "$PEER" > /sys/bus/pci/drivers/igb/bind
check "peer is driven by igb" test "$(driver_of "$PEER")" = igb
check "DUT stays with igb_rust" test "$(driver_of "$DUT")" = igb_rust
rmmod igb_rust

# The DMA mask. A mask outlives the driver that set it (C igb, bound to the
# DUT at boot, set 64 bits), so take a new device: remove the function and
# rescan with autoprobe off (nothing binds it; the PCI core gives it 32
# bits), then bind igb_rust by hand.
fresh_dma_mask() {
	local before after rc=0
	echo 0 > /sys/bus/pci/drivers_autoprobe
	echo 1 > "/sys/bus/pci/devices/$DUT/remove"
	echo 1 > /sys/bus/pci/rescan
	if [ -e "/sys/bus/pci/devices/$DUT" ]; then
		before=$(dma_bits "$DUT")
		insmod "$IGB_RUST_KO"
		echo igb_rust > "/sys/bus/pci/devices/$DUT/driver_override"
		echo "$DUT" > /sys/bus/pci/drivers/igb_rust/bind
		after=$(dma_bits "$DUT")
		note "DMA masks of a new DUT: $before before igb_rust, $after with it (peer, C igb: $(dma_bits "$PEER"))"
		[ "$before/$after" = 32/32/64/64 ] || rc=1
		rmmod igb_rust
	else
		echo "the DUT did not come back"; rc=1
	fi
	echo 1 > /sys/bus/pci/drivers_autoprobe
	return $rc
}
check "64-bit DMA masks, set by igb_rust on a new device (32 bits before, as the PCI core gives it)" fresh_dma_mask

# The in-tree build (CONFIG_IGB_RUST=m, the Kconfig entry of patches/0010),
# as a board vendor's kernel ships it: modpost marks it in-tree, loading it
# taints nothing (the external module taints O), and it drives the DUT.
intree_works() {
	local ko=$IGB_RUST_INTREE_KO taint
	[ -f "$ko" ] || { echo "no in-tree module at $ko"; return 1; }
	[ "$(modinfo -F intree "$ko")" = Y ] || { echo "$ko is not marked in-tree"; return 1; }
	[ -z "$(modinfo -F intree "$IGB_RUST_KO")" ] || { echo "the external module is marked in-tree"; return 1; }
	local rc=0
	if IGB_RUST_KO=$ko setup_pair v4only; then
		read -r taint < /sys/module/igb_rust/taint
		[ -z "$taint" ] || { echo "the in-tree module taints the kernel: $taint"; rc=1; }
		ping -c 3 -i 0.2 -W 2 $PEER_IP || rc=1
		ip netns exec $NS ping -c 3 -i 0.2 -W 2 $DUT_IP || rc=1
	else
		rc=1
	fi
	# Always undone: the next parts set the pair up again.
	teardown_pair || rc=1
	rmmod igb_rust || rc=1
	return $rc
}
# The same source as the external module, which the debug kernel checks: there
# (where one pair set-up takes 40 s) only the production kernel loads it.
if [ "${IGB_RUST_KVARIANT:-}" = debug ]; then
	note "the in-tree build is loaded on the production kernel only"
else
	check "the in-tree build (CONFIG_IGB_RUST=m) loads untainted and passes traffic" intree_works
fi
insmod "$IGB_RUST_KO"
check "the external module taints O (out of tree)" test "$(cat /sys/module/igb_rust/taint)" = O
rmmod igb_rust
