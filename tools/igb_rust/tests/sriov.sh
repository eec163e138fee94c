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
# registers, their mailbox included, do not answer there. igbvf binds, but
# its reset through the mailbox times out ("PF still in reset state"), with
# C igb as the PF too, so no VF frame crosses the device here.

setup_pair v4only
modprobe igbvf
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

# Unloading the PF with VFs enabled removes them first.
check "2 VFs enabled again" sh -c "echo 2 > $SYS/sriov_numvfs"
vfs_bound 2 >/dev/null
teardown_pair
check "rmmod igb_rust with VFs enabled" rmmod igb_rust
check "the VFs went with the PF" sh -c "[ ! -e $SYS/virtfn0 ] && [ ! -e /sys/bus/pci/devices/$VF0 ]"
rmmod igbvf
umount /run/igbt
