#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make shell`, inside the guest: the set-up a board user works with (igb_rust
# on the first 82576, C igb on the second in namespace "peer", addresses set,
# pktgen loaded), a banner with the commands for a measurement, then an
# interactive shell. Leaving the shell powers the guest off.
set -u
export OUT=${OUT:-/tmp/igb_rust-shell}
mkdir -p "$OUT"
. "$(dirname "$0")/lib.sh"

[ -n "$(igb_functions)" ] || { echo "no 82576 found"; exec bash -i; }
setup_pair >/dev/null || echo "set-up incomplete: see dmesg"
modprobe pktgen 2>/dev/null || echo "no pktgen module in this kernel"
PG=$(readlink -f "$IGB_RUST_BUILD/source")/samples/pktgen
export DUT_IF PEER_IF NS DUT_IP PEER_IP DUT_MAC PEER_MAC PG IGB_RUST_KO

cat <<EOF

igb_rust shell ($(uname -r), $(nproc) CPUs, under QEMU)
  DUT   $DUT_IF  $DUT_IP  $DUT_MAC  igb_rust  ($IGB_RUST_KO)
  peer  $PEER_IF  $PEER_IP  $PEER_MAC  C igb, in netns $NS:  ip netns exec $NS ...
  tools: ethtool, ip, sar, socat, iperf3; pktgen samples in \$PG

  Transmit 64-byte frames from the DUT for 10 s while sar reports per second:
    sar -n DEV 1 10 | grep -E "IFACE|$DUT_IF" &
    \$PG/pktgen_sample01_simple.sh -i $DUT_IF -d $PEER_IP -m $PEER_MAC -s 60 -n 0 &
    sleep 10; echo stop > /proc/net/pktgen/pgctrl; wait
  Receive: the same with the peer sending, from inside its namespace
  (pktgen is per namespace: stop it there too):
    ip netns exec $NS \$PG/pktgen_sample01_simple.sh -i $PEER_IF -d $DUT_IP -m $DUT_MAC -s 60 -n 0 &
    sleep 10; ip netns exec $NS sh -c 'echo stop > /proc/net/pktgen/pgctrl'; wait
  Tune and look:  ethtool -g/-G, -l/-L, -c/-C, -S $DUT_IF;  ip -s link show $DUT_IF
  Reload:  rmmod igb_rust && insmod \$IGB_RUST_KO
  Leave with exit (or Ctrl-D): the guest powers off.

EOF
cd /tmp || true
PS1="igb_rust:\w# " exec bash --norc -i
