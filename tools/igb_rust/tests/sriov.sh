# SPDX-License-Identifier: GPL-2.0
# SR-IOV: igb_rust as the physical function (PF) of the 82576's virtual
# functions (VFs), bound to the kernel's igbvf. The PF moves to the pool
# after the VFs' with one queue pair and keeps moving traffic intact, serves
# the VFs' reset events from its mailbox interrupt, survives its own
# down/up, gets its queues back when the VFs go, and takes them with it
# when it is unloaded.
#
# QEMU 10.0's igb model maps a VF's 64-bit BAR at the low 32 bits of its
# address, and this guest's firmware puts the VF BARs above 4 GiB: the VFs'
# registers do not answer there. igbvf binds, but its reset through the
# mailbox times out ("PF still in reset state"), with C igb as the PF too, so
# no VF frame crosses the device here. The mailbox protocol is driven instead
# through the model's window on the VF side of the mailbox in the PF's BAR.

setup_pair v4only
lsmod | grep -q "^igbvf " || insmod "$IGBVF_KO"
SYS=/sys/bus/pci/devices/$DUT
mountpoint -q /run/igbt || { mkdir -p /run/igbt && mount -t tmpfs -o size=200m tmpfs /run/igbt; }
dd if=/dev/urandom of=/run/igbt/blob bs=1M count=8 status=none
want_sum=$(sha256sum < /run/igbt/blob)
pf_pairs() { ethtool -l "$DUT_IF" | awk '/^Current/ { c = 1 } c && /Combined:/ { print $2 }'; }
pairs_before=$(pf_pairs)

check "sriov_totalvfs is 7: the PF keeps a pool" test "$(cat "$SYS/sriov_totalvfs")" = 7
numvfs_refused() {	# numvfs_refused N ERRNO-TEXT
	local e
	e=$(bash -c "echo $1 > $SYS/sriov_numvfs" 2>&1) && return 1
	echo "$e"
	echo "$e" | grep -q "$2" && [ "$(cat "$SYS/sriov_numvfs")" = 0 ]
}
check "8 VFs refused (ERANGE), none enabled" numvfs_refused 8 "Numerical result out of range"

vf_addr() {	# vf_addr N: PCI address of VF N
	local l
	l=$(readlink "$SYS/virtfn$1" 2>/dev/null) && echo "${l##*/}"
}
vfs_bound() {	# vfs_bound N: VFs 0..N-1 have igbvf and an interface (20 s)
	local i v
	for i in $(seq 1 200); do
		for v in $(seq 0 $(($1 - 1))); do
			[ "$(driver_of "$(vf_addr $v)")" = igbvf ] && [ -n "$(netdev_of "$(vf_addr $v)")" ] || break
			[ "$v" = $(($1 - 1)) ] && return 0
		done
		sleep 0.1
	done
	dmesg | grep -E 'igbvf|igb_rust' | tail -8
	return 1
}
kmsg_mark sriov-on
check "2 VFs enabled" sh -c "echo 2 > $SYS/sriov_numvfs"
check "igbvf bound both VFs, each with an interface" vfs_bound 2
VF0=$(vf_addr 0)
pool_logged() { dmesg_since sriov-on | grep -q "$DUT: 2 VFs enabled; the PF uses pool 2"; }
check "the PF logged its pool" pool_logged
check "the PF uses one queue pair with VFs ($(pf_pairs))" test "$(pf_pairs)" = 1
check "ethtool -L combined 2 refused with VFs" sh -c "! ethtool -L $DUT_IF combined 2 2>/dev/null"

# The device as the PF set it up (BAR0 registers; bit 2 is the PF's pool).
pools_set() {
	local r vt mrqc vfre vfte sw rah0 ext ims lre icr
	r=$(bar_read 0x581c 0x5818 0xc8c 0xc90 0x3500 0x5404 0x18 0xd0 0xc88 0xc80 | tr '\n' ' ')
	read -r vt mrqc vfre vfte sw rah0 ext ims lre icr <<< "$r"
	echo "VT_CTL $vt MRQC $mrqc VFRE $vfre VFTE $vfte DTXSWC $sw RAH0 $rah0 CTRL_EXT $ext IMS $ims VFLRE $lre MBVFICR $icr"
	[ $(( (vt >> 7) & 7 )) = 2 ] || { echo "unicast no address claims does not go to pool 2"; return 1; }
	[ $(( mrqc & 3 )) = 3 ] || { echo "not sorted into pools (VMDq)"; return 1; }
	[ $(( vfre & 4 )) = 4 ] && [ $(( vfte & 4 )) = 4 ] || { echo "the PF's pool is not enabled"; return 1; }
	[ $(( sw >> 31 )) = 1 ] || { echo "no switching between pools"; return 1; }
	[ $(( (rah0 >> 18) & 0xff )) = 4 ] || { echo "the PF's address is not in its pool"; return 1; }
	[ $(( ext & 0x4000 )) != 0 ] || { echo "the VFs were not told the PF is ready"; return 1; }
	[ $(( ims & 0x100 )) != 0 ] || { echo "the mailbox interrupt is off"; return 1; }
	# Enabling a VF resets it: the PF's mailbox interrupt served both events.
	[ "$lre" = 0 ] && [ "$icr" = 0 ] || { echo "VF events left unserved"; return 1; }
}
check "the PF's pool is set up: VMDq, default pool 2, enabled, switching, its address, mailbox served" pools_set
# The mailbox, driven as VF 0 would through the PF's window on the VF side of
# its mailbox (QEMU's model: 0xc40 + 4n is V2PMAILBOX(n), whose REQ bit raises
# the PF's mailbox interrupt): each request is written to VMBMEM(0) (0x800)
# and the PF's answer read back from there.
vf_msg() {	# vf_msg WORD...: posts the words as VF 0, prints the PF's answer (word 0)
	python3 -S - "/sys/bus/pci/devices/$DUT/resource0" "$@" <<'PY'
import mmap, os, struct, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_SYNC)
m = mmap.mmap(fd, 0x20000, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
words = [int(w, 0) for w in sys.argv[2:]]
for i, w in enumerate(words):
    struct.pack_into('<I', m, 0x800 + 4 * i, w)
struct.pack_into('<I', m, 0xc40, 1)
for _ in range(200):
    r = struct.unpack_from('<I', m, 0x800)[0]
    if r != words[0]:
        break
    time.sleep(0.01)
print(hex(r))
PY
}
mbx_is() {	# mbx_is WANT WORD...: the PF answers VF 0's message with word 0 WANT
	local got
	got=$(vf_msg "${@:2}")
	echo "answer $got, want $1"
	[ "$got" = "$1" ]
}
vf_mac_lo=0x00aa0002	# 02:00:aa:00:xx:xx in the two words of the mailbox
vf_mac_hi=0x0201
check "mailbox: a reset is answered (NACK: no address yet)" mbx_is 0x40000001 0x1
vf0_enabled() { [ $(( $(bar_read 0xc8c) & 1 )) = 1 ] && [ $(( $(bar_read 0xc90) & 1 )) = 1 ]; }
check "mailbox: VF 0's pool receives and sends after its reset (VFRE, VFTE)" vf0_enabled
check "mailbox: its MAC address is taken (ACK, clear to send)" mbx_is 0xa0000002 0x2 $vf_mac_lo $vf_mac_hi
rar23() {	# receive address 23 holds it, valid, in pool 0
	local l h
	read -r l h <<< "$(bar_read 0x5518 0x551c | tr '\n' ' ')"
	echo "RAL $l RAH $h"
	[ "$l" = $(( vf_mac_lo )) ] && [ $(( h & 0xffff )) = $(( vf_mac_hi )) ] &&
		[ $(( h >> 31 )) = 1 ] && [ $(( (h >> 18) & 0xff )) = 1 ]
}
check "mailbox: receive address 23 holds it, in VF 0's pool" rar23
pf_lo=$(printf '0x%02x%02x%02x%02x' $(echo "$DUT_MAC" | awk -F: '{ print "0x"$4, "0x"$3, "0x"$2, "0x"$1 }'))
pf_hi=$(printf '0x%02x%02x' $(echo "$DUT_MAC" | awk -F: '{ print "0x"$6, "0x"$5 }'))
check "mailbox: the PF's address refused (NACK)" mbx_is 0x60000002 0x2 $pf_lo $pf_hi
check "mailbox: a multicast address refused (NACK)" mbx_is 0x60000002 0x2 0x00aa0003 0x0201
check "mailbox: RAR 23 unchanged after the refusals" rar23
check "mailbox: an unknown request refused (NACK)" mbx_is 0x60000007 0x7 0 0
check "mailbox: a VLAN filter refused (NACK, the request echoed)" mbx_is 0x60010004 0x10004 100
lpe() {
	mbx_is 0xa0000005 0x5 20000 || return 1
	local v
	v=$(bar_read 0x5ad0)
	echo "VMOLR(0) $v"
	[ $(( v & 0x3fff )) = 9728 ] && [ $(( (v >> 16) & 1 )) = 1 ]
}
check "mailbox: frames up to 20000 bytes asked, 9728 given (VMOLR)" lpe
mc_all() {	# 255 hashes: multicast promiscuous for the pool (MPME), answered
	mbx_is 0xa0ff0003 0xff0003 0x00010002 0x00030004 || return 1
	local v
	v=$(bar_read 0x5ad0)
	echo "VMOLR(0) $v"
	[ $(( (v >> 28) & 1 )) = 1 ] && [ $(( (v >> 25) & 1 )) = 1 ]
}
check "mailbox: 255 multicast hashes: every multicast frame for the pool" mc_all
# A reset of the VF (QEMU: CTRL.RST through PVTCTRL(0), as an FLR would): what
# it asked for goes, and until it resets through the mailbox it is refused.
vf_flr() {
	bar_write 0x10000 0x04000000
	sleep 0.5
	local h
	h=$(bar_read 0x551c)
	echo "RAH(23) $h"
	[ $(( h >> 31 )) = 0 ]
}
check "mailbox: a reset of VF 0 empties its receive address" vf_flr
check "mailbox: then a request without a reset is refused, not clear to send (NACK)" \
	mbx_is 0x40000002 0x2 $vf_mac_lo $vf_mac_hi
check "mailbox: and a reset makes it clear to send again" mbx_is 0x40000001 0x1

check "ping PF -> peer with VFs" ping -c 3 -i 0.2 -W 2 $PEER_IP
check "8 MB DUT -> peer intact with VFs (the PF's pool)" bulk tx
check "8 MB peer -> DUT intact with VFs (the PF's pool)" bulk rx

# A MAC reset of the PF (down, up) clears the pools: it sets them up again.
ip link set "$DUT_IF" down
ip link set "$DUT_IF" up
check "DUT carrier back after down/up with VFs" wait_carrier "$DUT_IF" 1
check "the PF's pool is set up again after its down/up" pools_set
check "8 MB peer -> DUT intact after the PF's down/up" bulk rx

kmsg_mark sriov-off
check "VFs disabled" sh -c "echo 0 > $SYS/sriov_numvfs"
check "the VFs are gone" sh -c "[ ! -e $SYS/virtfn0 ] && [ ! -e /sys/bus/pci/devices/$VF0 ]"
check "the PF has its $pairs_before queue pairs back" test "$(pf_pairs)" = "$pairs_before"
no_pools() {	# RSS again, no pool
	local mrqc
	mrqc=$(bar_read 0x5818)
	echo "MRQC $mrqc"
	[ $(( mrqc & 3 )) = 2 ]
}
check "RSS again without VFs" no_pools
wait_carrier "$DUT_IF" 1
check "8 MB peer -> DUT intact after the VFs" bulk rx

# Unloading the PF with VFs enabled removes them first. Not on the debug
# kernel: there pci_stop_and_remove_bus_device() asserts (lockdep) the PCI
# rescan lock, which sysfs holds around sriov_configure but an unbind does not
# (C igb's remove disables its VFs the same way).
check "2 VFs enabled again" sh -c "echo 2 > $SYS/sriov_numvfs"
vfs_bound 2 >/dev/null
teardown_pair
if [ "${IGB_RUST_KVARIANT:-}" = debug ]; then
	echo 0 > "$SYS/sriov_numvfs"
	note "debug kernel: VFs disabled before rmmod (the unbind path holds no PCI rescan lock)"
fi
check "rmmod igb_rust with VFs enabled" rmmod igb_rust
check "the VFs went with the PF" sh -c "[ ! -e $SYS/virtfn0 ] && [ ! -e /sys/bus/pci/devices/$VF0 ]"
rmmod igbvf
umount /run/igbt
