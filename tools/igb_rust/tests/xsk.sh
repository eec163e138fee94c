# SPDX-License-Identifier: GPL-2.0
# AF_XDP zero-copy (ndo_bpf XDP_SETUP_XSK_POOL, ndo_xsk_wakeup): a socket
# bound to queue 0 with XDP_ZEROCOPY gets the UDP datagrams the program
# (tools/igb_rust/xdp/xdp_xsk.bpf.c) redirects to it, every one intact and
# none twice, and sends its own, which the peer receives intact, while other
# frames still reach the stack (copied out of the socket's buffers); the
# queue goes back to the page pool when
# the program goes, when the socket is killed under traffic, and when the
# driver is unloaded with a socket bound; copy mode keeps working. The
# receiver is tools/igb_rust/xsk_rx.c.

setup_pair v4only
XSK_RX=$IGB_RUST_BUILD/xsk_rx
XSK_PROG=$IGB_RUST_BUILD/xdp/xsk.o
IFX=$(cat /sys/class/net/$DUT_IF/ifindex)
XSK_N=${XSK_N:-400}
kmsg_mark xsk
# Every frame to queue 0: the socket binds there.
ethtool -X "$DUT_IF" equal 1
xsk_attach() { ip -force link set dev "$DUT_IF" xdpdrv obj "$XSK_PROG" sec xdp; }
xsk_detach() { ip link set dev "$DUT_IF" xdpdrv off; }
# The XSKMAP of the attached program.
xsk_map() {
	local prog
	prog=$(ip -d link show dev "$DUT_IF" | sed -n 's/.*prog\/xdp id \([0-9]*\).*/\1/p')
	bpftool -j prog show id "$prog" | python3 -c 'import json,sys; print(json.load(sys.stdin)["map_ids"][0])'
}
# xsk_start MODE COUNT SECONDS: a receiver on queue 0 in the background, its
# output in /run/xsk.out; waits until it is bound (0) or has failed.
xsk_start() {
	rm -f /run/xsk.out
	"$XSK_RX" "$IFX" 0 "$(xsk_map)" "$1" "$2" "$3" > /run/xsk.out 2>&1 &
	XSK_PID=$!
	local i
	for i in $(seq 100); do
		grep -q '^ready' /run/xsk.out 2>/dev/null && return 0
		kill -0 $XSK_PID 2>/dev/null || return 1
		sleep 0.2
	done
	return 1
}
# xsk_send COUNT SIZE: COUNT datagrams of SIZE bytes to port 4448 from the
# peer, each a sequence number and bytes that follow from it (xsk_rx.c).
xsk_send() {
	ip netns exec $NS python3 -c '
import socket, struct, sys, time
n, size = int(sys.argv[1]), int(sys.argv[2])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for seq in range(n):
    body = bytes((seq * 7 + j) & 0xff for j in range(4, size))
    s.sendto(struct.pack("!I", seq) + body, (sys.argv[3], 4448))
    if seq % 32 == 31:
        time.sleep(0.01)
' "$1" "$2" "$DUT_IP"
}
# xsk_result: the receiver's result line, once it has one (it stays bound).
xsk_result() {
	local i
	for i in $(seq 600); do
		grep -q '^received' /run/xsk.out && break
		kill -0 $XSK_PID 2>/dev/null || break
		sleep 0.2
	done
	sed -n 's/^received/received/p' /run/xsk.out
}
xsk_stop() { kill $XSK_PID 2>/dev/null; wait $XSK_PID 2>/dev/null; }
redirects() { ethtool_stat 'rx[0-9]+_xdp_redirect'; }
pings() {	# pings COUNT: every reply back, its payload intact
	local out
	out=$(ip netns exec $NS ping -c "$1" -i 0.02 -s 1000 -p a55a $DUT_IP 2>&1)
	echo "$out" | grep -q " $1 received" && ! echo "$out" | grep -q "wrong data"
}

# Page-pool buffers the rings took: a queue in zero-copy mode takes none, the
# socket's buffers are its own; in copy mode each frame redirected takes one.
bufs() { ethtool_stat 'rx[0-9]+_buf_(pages|frags)'; }
check "attach the AF_XDP program" xsk_attach
r0=$(redirects)
if xsk_start zc "$XSK_N" 120; then
	ok "an AF_XDP socket binds queue 0 in zero-copy mode"
	b0=$(bufs)
	xsk_send "$XSK_N" 1000
	res=$(xsk_result)
	b1=$(bufs)
	check "zero-copy: all $XSK_N datagrams reach the socket intact, none twice ($res)" \
		test "$res" = "received $XSK_N bad 0 dup 0"
	r1=$(redirects)
	check "zero-copy: rx_xdp_redirect counts them ($r0 -> $r1)" test $((r1 - r0)) -ge "$XSK_N"
	check "zero-copy: the ring took no page-pool buffer for them (rx_buf_pages $b0 -> $b1)" \
		test "$b1" = "$b0"
	xsk_stop
else
	fail "an AF_XDP socket binds queue 0 in zero-copy mode" "$(cat /run/xsk.out)"
fi
check "the socket gone, queue 0 is back on the page pool (pings intact)" pings 5

# Zero-copy TX: the socket's frames go out of the queue's TX ring straight
# from its buffers, each completed back to it; the peer checks every one.
xsk_peer_recv() {	# xsk_peer_recv COUNT: the peer's receiver on port 4449, into /run/xsk.peer
	rm -f /run/xsk.peer
	ip netns exec $NS python3 -c '
import socket, struct, sys
n, got, bad = int(sys.argv[1]), set(), 0
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, 33, 1 << 23)  # SO_RCVBUFFORCE
s.bind(("", 4449))
s.settimeout(30)
print("listening", flush=True)
data = []
try:
    while len(data) < n:
        data.append(s.recv(2048))
except socket.timeout:
    pass
for d in data:
    seq = struct.unpack("!I", d[:4])[0]
    if len(d) == 600 and all(d[j] == (seq * 7 + j) & 0xff for j in range(4, 600)):
        got.add(seq)
    else:
        bad += 1
print("got %d bad %d" % (len(got), bad), flush=True)
' "$1" > /run/xsk.peer 2>&1 &
	PEER_PID=$!
	local i
	for i in $(seq 100); do
		grep -q listening /run/xsk.peer 2>/dev/null && return 0
		sleep 0.2
	done
	return 1
}
XSK_TX_N=${XSK_TX_N:-200}
tx0=$(ethtool_stat 'tx[0-9]+_packets')
if xsk_peer_recv "$XSK_TX_N"; then
	rm -f /run/xsk.out
	"$XSK_RX" "$IFX" 0 0 zc "$XSK_TX_N" 60 send "$(cat /sys/class/net/$DUT_IF/address)" \
		"$(ip netns exec $NS cat /sys/class/net/$PEER_IF/address)" $DUT_IP $PEER_IP \
		> /run/xsk.out 2>&1 &
	XSK_PID=$!
	for i in $(seq 600); do
		grep -q '^sent\|^bind' /run/xsk.out 2>/dev/null && break
		kill -0 $XSK_PID 2>/dev/null || break
		sleep 0.2
	done
	res=$(grep '^sent\|^bind' /run/xsk.out)
	check "zero-copy TX: the socket's $XSK_TX_N frames are sent and completed ($res)" \
		test "$res" = "sent $XSK_TX_N completed $XSK_TX_N"
	tx1=$(ethtool_stat 'tx[0-9]+_packets')
	check "zero-copy TX: tx_packets counts them ($tx0 -> $tx1)" test $((tx1 - tx0)) -ge "$XSK_TX_N"
	xsk_stop
	wait $PEER_PID
	res=$(cat /run/xsk.peer | tail -1)
	check "zero-copy TX: the peer received all $XSK_TX_N datagrams intact ($res)" \
		test "$res" = "got $XSK_TX_N bad 0"
else
	fail "the peer listens on port 4449" "$(cat /run/xsk.peer)"
fi
rm -f /run/xsk.peer

# Frames the program passes while a socket is bound are copied to the stack.
if xsk_start zc 1 60; then
	check "zero-copy bound: pings pass to the stack, copied out of the socket's buffers" pings 10
	# A program swap with the socket bound: the queue leaves zero-copy and
	# comes back to it.
	check "zero-copy bound: detach the program" xsk_detach
	check "zero-copy bound, no program: pings pass" pings 5
	check "zero-copy bound: attach the program again" xsk_attach
	check "zero-copy bound: pings pass again" pings 5
	# Killed under traffic: the core unbinds the pool while frames arrive.
	xsk_send 2000 200 &
	send_pid=$!
	sleep 1
	kill -9 $XSK_PID 2>/dev/null
	wait $XSK_PID 2>/dev/null
	wait $send_pid
	check "the socket killed under traffic: pings pass" pings 5
else
	fail "an AF_XDP socket binds queue 0 in zero-copy mode (second)" "$(cat /run/xsk.out)"
fi

# Copy mode on the same queue: the driver's page-pool path, redirected.
xsk_attach
if xsk_start copy 100 120; then
	b0=$(bufs)
	xsk_send 100 600
	res=$(xsk_result)
	b1=$(bufs)
	check "copy mode: all 100 datagrams reach the socket intact ($res)" \
		test "$res" = "received 100 bad 0 dup 0"
	check "copy mode: the ring took a page-pool buffer for each (rx_buf_pages $b0 -> $b1)" \
		test $((b1 - b0)) -ge 100
	xsk_stop
else
	fail "an AF_XDP socket binds queue 0 in copy mode" "$(cat /run/xsk.out)"
fi

# A socket bound while the driver goes away.
if xsk_start zc 1 120; then
	teardown_pair
	check "rmmod with an AF_XDP socket bound in zero-copy mode" rmmod igb_rust
	xsk_stop
	res=$(grep -c "AF_XDP pool still attached\|Failed to disable zero-copy" <(dmesg_since xsk))
	check "the driver gave every pool back itself (no forced detach, no core WARN)" test "$res" = 0
else
	fail "an AF_XDP socket binds queue 0 before rmmod" "$(cat /run/xsk.out)"
	teardown_pair
	rmmod igb_rust
fi
rm -f /run/xsk.out
