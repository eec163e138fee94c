// SPDX-License-Identifier: GPL-2.0
/*
 * An AF_XDP receiver and sender for the igb_rust tests: binds a socket to one
 * queue of an interface (zero-copy or copy mode), puts it into an XSKMAP,
 * and counts the UDP datagrams to port 4448 it receives, checking each one's
 * payload: a 32-bit sequence number, then bytes that follow from it. With
 * "send", it sends COUNT such datagrams of 600 bytes to port 4449 instead
 * (MAP_ID 0: no map), and counts those the kernel completes. Uses the raw
 * socket API only (no libxdp).
 *
 *   xsk_rx IFINDEX QUEUE MAP_ID zc|copy COUNT SECONDS [send SRCMAC DSTMAC SRCIP DSTIP]
 *   xsk_rx IFINDEX QUEUE MAP_ID zc|copy 0 SECONDS rxdrop|l2fwd
 *   xsk_rx IFINDEX QUEUE MAP_ID zc|copy 0 SECONDS txpush SRCMAC DSTMAC SRCIP DSTIP SIZE
 *
 * In send mode the last line is "sent N completed C".
 *
 * The last three are the benchmark's (scripts/bench.sh): once bound, they wait
 * for SIGUSR1, then drop every frame received ("rxdrop"), send each back with
 * its MAC addresses swapped ("l2fwd"), or send frames of SIZE bytes on the
 * wire (with FCS) as fast as the ring takes them ("txpush"), without checking
 * anything, until SIGUSR2 or SECONDS; then print "rxdrop N", "l2fwd N" (frames
 * received) or "txpush sent N completed C", and stay bound until killed.
 *
 * Prints "ready" once bound (and flushes), then, after COUNT datagrams or
 * SECONDS, one line: "received N bad B dup D" (distinct sequence numbers
 * received, datagrams whose payload was wrong, repeated numbers), and stays
 * bound until killed. Exits 2 if the bind failed (errno printed), 1 on any
 * other error.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <errno.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/if_xdp.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef AF_XDP
#define AF_XDP 44
#endif
#ifndef SOL_XDP
#define SOL_XDP 283
#endif

#define FRAMES 2048
#define CHUNK 4096
#define RING 1024
#define MAX_SEQ (1 << 20)

struct ring {
	uint32_t *producer, *consumer, *flags;
	void *descs;
};

static int sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

static void map_ring(int fd, struct xdp_ring_offset *off, size_t desc_size,
		     off_t pgoff, struct ring *r)
{
	size_t len = off->desc + RING * desc_size;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, pgoff);

	if (p == MAP_FAILED) {
		perror("mmap ring");
		exit(1);
	}
	r->producer = (uint32_t *)(p + off->producer);
	r->consumer = (uint32_t *)(p + off->consumer);
	r->flags = (uint32_t *)(p + off->flags);
	r->descs = p + off->desc;
}

static unsigned short ip_csum(const unsigned char *p, int len)
{
	unsigned long sum = 0;
	int i;

	for (i = 0; i < len; i += 2)
		sum += (p[i] << 8) | p[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return ~sum & 0xffff;
}

/* A datagram of PLEN payload bytes to port 4449, numbered SEQ, at F. */
static uint32_t build(unsigned char *f, const unsigned char *src, const unsigned char *dst,
		      struct in_addr sip, struct in_addr dip, uint32_t seq, uint32_t plen)
{
	struct iphdr *ip = (void *)(f + sizeof(struct ethhdr));
	struct udphdr *udp = (void *)(ip + 1);
	unsigned char *pl = (unsigned char *)(udp + 1);
	uint32_t j, nseq = htonl(seq);

	memcpy(f, dst, 6);
	memcpy(f + 6, src, 6);
	f[12] = 0x08;
	f[13] = 0x00;
	memset(ip, 0, sizeof(*ip));
	ip->version = 4;
	ip->ihl = 5;
	ip->tot_len = htons(sizeof(*ip) + sizeof(*udp) + plen);
	ip->ttl = 64;
	ip->protocol = 17;
	ip->saddr = sip.s_addr;
	ip->daddr = dip.s_addr;
	ip->check = htons(ip_csum((unsigned char *)ip, sizeof(*ip)));
	udp->source = htons(4449);
	udp->dest = htons(4449);
	udp->len = htons(sizeof(*udp) + plen);
	udp->check = 0;
	memcpy(pl, &nseq, 4);
	for (j = 4; j < plen; j++)
		pl[j] = (unsigned char)(seq * 7 + j);
	return sizeof(struct ethhdr) + sizeof(*ip) + sizeof(*udp) + plen;
}

static int parse_mac(const char *s, unsigned char *m)
{
	return sscanf(s, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx",
		      &m[0], &m[1], &m[2], &m[3], &m[4], &m[5]) == 6;
}

/* Puts socket FD into the XSKMAP MAP_ID at QUEUE; nonzero on failure. */
static int put_in_map(uint32_t map_id, uint32_t queue, int fd)
{
	union bpf_attr attr;
	uint32_t value = fd;
	int map;

	memset(&attr, 0, sizeof(attr));
	attr.map_id = map_id;
	map = sys_bpf(BPF_MAP_GET_FD_BY_ID, &attr);
	memset(&attr, 0, sizeof(attr));
	attr.map_fd = map;
	attr.key = (uintptr_t)&queue;
	attr.value = (uintptr_t)&value;
	if (map < 0 || sys_bpf(BPF_MAP_UPDATE_ELEM, &attr)) {
		perror("xskmap");
		return 1;
	}
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Set by the signal handlers: atomics, which a handler may store to. */
static int go, stop;

static void on_go(int sig)
{
	(void)sig;
	__atomic_store_n(&go, 1, __ATOMIC_RELAXED);
}

static void on_stop(int sig)
{
	(void)sig;
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
}

static void kick_tx(int fd, struct ring *tx)
{
	if (__atomic_load_n(tx->flags, __ATOMIC_ACQUIRE) & XDP_RING_NEED_WAKEUP)
		sendto(fd, NULL, 0, MSG_DONTWAIT, NULL, 0);
}

/*
 * The benchmark's receive loop: every frame goes back to the fill ring
 * (rxdrop) or, its MAC addresses swapped, to the TX ring, and from the
 * completion ring back to the fill ring (l2fwd). Returns the frames received.
 */
static unsigned long bench_rx(int fd, unsigned char *umem, struct ring *fill, struct ring *rx,
			      struct ring *tx, struct ring *cq, int fwd, double end)
{
	unsigned long n = 0;
	uint32_t out = 0;

	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED) && now() < end) {
		uint32_t prod, cons, fprod, tprod = 0, tcons = 0;

		if (__atomic_load_n(fill->flags, __ATOMIC_ACQUIRE) & XDP_RING_NEED_WAKEUP)
			recvfrom(fd, NULL, 0, MSG_DONTWAIT, NULL, NULL);
		prod = __atomic_load_n(rx->producer, __ATOMIC_ACQUIRE);
		cons = *rx->consumer;
		/* Busy polling, as xdpsock does by default, but giving the
		 * CPU to the sender (pktgen on the peer, on the same CPU):
		 * poll() would put the socket's wait queue lock between the
		 * queue's CPU and this one.
		 */
		if (prod == cons && !out) {
			sched_yield();
			continue;
		}
		fprod = *fill->producer;
		if (fwd) {
			uint32_t cprod = __atomic_load_n(cq->producer, __ATOMIC_ACQUIRE);
			uint32_t ccons = *cq->consumer;

			out -= cprod - ccons;
			for (; ccons != cprod; ccons++)
				((uint64_t *)fill->descs)[fprod++ & (RING - 1)] =
					((uint64_t *)cq->descs)[ccons & (RING - 1)] & ~(uint64_t)(CHUNK - 1);
			__atomic_store_n(cq->consumer, ccons, __ATOMIC_RELEASE);
			tprod = *tx->producer;
			tcons = __atomic_load_n(tx->consumer, __ATOMIC_ACQUIRE);
		}
		for (; cons != prod; cons++, n++) {
			struct xdp_desc *d = &((struct xdp_desc *)rx->descs)[cons & (RING - 1)];

			if (fwd && tprod - tcons < RING && d->len >= 12) {
				unsigned char *f = umem + d->addr, mac[6];
				struct xdp_desc *t = &((struct xdp_desc *)tx->descs)[tprod++ & (RING - 1)];

				memcpy(mac, f, 6);
				memcpy(f, f + 6, 6);
				memcpy(f + 6, mac, 6);
				*t = *d;
				out++;
			} else {
				((uint64_t *)fill->descs)[fprod++ & (RING - 1)] =
					d->addr & ~(uint64_t)(CHUNK - 1);
			}
		}
		__atomic_store_n(rx->consumer, cons, __ATOMIC_RELEASE);
		__atomic_store_n(fill->producer, fprod, __ATOMIC_RELEASE);
		if (fwd) {
			__atomic_store_n(tx->producer, tprod, __ATOMIC_RELEASE);
			if (out)
				kick_tx(fd, tx);
		}
	}
	return n;
}

/*
 * The benchmark's send loop: frames RING..2*RING-1, all built alike, go out
 * (LEN bytes each) as fast as the TX ring takes them. Returns the frames
 * sent; *completed gets those the kernel completed.
 */
static unsigned long bench_tx(int fd, struct ring *tx, struct ring *cq, uint32_t len,
			      double end, unsigned long *completed)
{
	unsigned long sent = 0;
	uint32_t out = 0;

	*completed = 0;
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED) && now() < end) {
		uint32_t cprod = __atomic_load_n(cq->producer, __ATOMIC_ACQUIRE);
		uint32_t ccons = *cq->consumer;
		uint32_t tprod = *tx->producer;
		uint32_t tcons = __atomic_load_n(tx->consumer, __ATOMIC_ACQUIRE);

		*completed += cprod - ccons;
		out -= cprod - ccons;
		__atomic_store_n(cq->consumer, cprod, __ATOMIC_RELEASE);
		while (out < RING && tprod - tcons < RING) {
			struct xdp_desc *d = &((struct xdp_desc *)tx->descs)[tprod & (RING - 1)];

			d->addr = (uint64_t)(RING + tprod % RING) * CHUNK;
			d->len = len;
			d->options = 0;
			tprod++;
			sent++;
			out++;
		}
		__atomic_store_n(tx->producer, tprod, __ATOMIC_RELEASE);
		kick_tx(fd, tx);
	}
	return sent;
}

int main(int argc, char **argv)
{
	struct xdp_umem_reg reg = { 0 };
	struct sockaddr_xdp sxdp = { 0 };
	struct xdp_mmap_offsets off;
	socklen_t optlen = sizeof(off);
	unsigned long received = 0, bad = 0, dup = 0;
	struct ring fill, rx, tx, cq;
	unsigned char smac[6], dmac[6];
	struct in_addr sip, dip;
	int send_mode = 0, bench = 0;
	unsigned long size = 0;
	int ring = RING, fd;
	static unsigned char seen[MAX_SEQ];
	unsigned long count;
	double end;
	char *umem;
	uint32_t i;

	if (argc == 8 && (!strcmp(argv[7], "rxdrop") || !strcmp(argv[7], "l2fwd")))
		bench = argv[7][0];
	if ((argc == 12 && !strcmp(argv[7], "send")) ||
	    (argc == 13 && !strcmp(argv[7], "txpush"))) {
		send_mode = 1;
		if (argc == 13) {
			bench = 't';
			size = strtoul(argv[12], NULL, 0);
		}
		if (!parse_mac(argv[8], smac) || !parse_mac(argv[9], dmac) ||
		    inet_pton(AF_INET, argv[10], &sip) != 1 ||
		    inet_pton(AF_INET, argv[11], &dip) != 1 ||
		    (bench && (size < 64 || size > 1518))) {
			fprintf(stderr, "bad addresses or size\n");
			return 1;
		}
	} else if (argc != 7 && !bench) {
		fprintf(stderr, "usage: %s IFINDEX QUEUE MAP_ID zc|copy COUNT SECONDS %s\n",
			argv[0], "[send SRCMAC DSTMAC SRCIP DSTIP | rxdrop | l2fwd | txpush SRCMAC DSTMAC SRCIP DSTIP SIZE]");
		return 1;
	}
	count = strtoul(argv[5], NULL, 0);
	fd = socket(AF_XDP, SOCK_RAW, 0);
	if (fd < 0) {
		perror("socket");
		return 1;
	}
	umem = mmap(NULL, (size_t)FRAMES * CHUNK, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (umem == MAP_FAILED) {
		perror("mmap umem");
		return 1;
	}
	reg.addr = (uintptr_t)umem;
	reg.len = (uint64_t)FRAMES * CHUNK;
	reg.chunk_size = CHUNK;
	if (setsockopt(fd, SOL_XDP, XDP_UMEM_REG, &reg, sizeof(reg)) ||
	    setsockopt(fd, SOL_XDP, XDP_UMEM_FILL_RING, &ring, sizeof(ring)) ||
	    setsockopt(fd, SOL_XDP, XDP_UMEM_COMPLETION_RING, &ring, sizeof(ring)) ||
	    setsockopt(fd, SOL_XDP, XDP_RX_RING, &ring, sizeof(ring)) ||
	    ((send_mode || bench == 'l') &&
	     setsockopt(fd, SOL_XDP, XDP_TX_RING, &ring, sizeof(ring))) ||
	    getsockopt(fd, SOL_XDP, XDP_MMAP_OFFSETS, &off, &optlen)) {
		perror("setsockopt");
		return 1;
	}
	map_ring(fd, &off.fr, sizeof(uint64_t), XDP_UMEM_PGOFF_FILL_RING, &fill);
	map_ring(fd, &off.rx, sizeof(struct xdp_desc), XDP_PGOFF_RX_RING, &rx);
	if (send_mode || bench == 'l') {
		map_ring(fd, &off.tx, sizeof(struct xdp_desc), XDP_PGOFF_TX_RING, &tx);
		map_ring(fd, &off.cr, sizeof(uint64_t), XDP_UMEM_PGOFF_COMPLETION_RING, &cq);
	}
	/* Half the frames wait in the fill ring, the others come back from rx. */
	for (i = 0; i < RING; i++)
		((uint64_t *)fill.descs)[i] = (uint64_t)i * CHUNK;
	__atomic_store_n(fill.producer, RING, __ATOMIC_RELEASE);

	sxdp.sxdp_family = AF_XDP;
	sxdp.sxdp_ifindex = atoi(argv[1]);
	sxdp.sxdp_queue_id = atoi(argv[2]);
	sxdp.sxdp_flags = XDP_USE_NEED_WAKEUP |
		(strcmp(argv[4], "zc") ? XDP_COPY : XDP_ZEROCOPY);
	if (bind(fd, (struct sockaddr *)&sxdp, sizeof(sxdp))) {
		printf("bind: %s\n", strerror(errno));
		return 2;
	}
	if (bench) {
		unsigned long n, completed;
		uint32_t len = 0;
		sigset_t block, old;

		/* Blocked but while waiting: a signal cannot slip in between
		 * the test and the wait.
		 */
		sigemptyset(&block);
		sigaddset(&block, SIGUSR1);
		sigaddset(&block, SIGUSR2);
		sigprocmask(SIG_BLOCK, &block, &old);
		signal(SIGUSR1, on_go);
		signal(SIGUSR2, on_stop);
		if (bench == 't') {
			/* Every frame of the TX half alike, SIZE bytes on the wire. */
			for (i = RING; i < 2 * RING; i++)
				len = build((unsigned char *)umem + (uint64_t)i * CHUNK, smac,
					    dmac, sip, dip, 0, size - 4 - 42);
		} else if (put_in_map(atoi(argv[3]), sxdp.sxdp_queue_id, fd)) {
			return 1;
		}
		printf("ready\n");
		fflush(stdout);
		while (!__atomic_load_n(&go, __ATOMIC_RELAXED) &&
		       !__atomic_load_n(&stop, __ATOMIC_RELAXED))
			sigsuspend(&old);
		sigprocmask(SIG_SETMASK, &old, NULL);
		end = now() + atof(argv[6]);
		if (bench == 't') {
			n = bench_tx(fd, &tx, &cq, len, end, &completed);
			printf("txpush sent %lu completed %lu\n", n, completed);
		} else {
			n = bench_rx(fd, (unsigned char *)umem, &fill, &rx, &tx, &cq, bench == 'l', end);
			printf("%s %lu\n", argv[7], n);
		}
		fflush(stdout);
		for (;;)
			pause();
	}
	if (send_mode) {
		uint32_t next = 0, completed = 0, out = 0;

		printf("ready\n");
		fflush(stdout);
		count = count < MAX_SEQ ? count : MAX_SEQ;
		end = now() + atof(argv[6]);
		/* Frames RING..2*RING-1 carry what is sent, one per sequence number
		 * modulo RING: a chunk is written again only after it completed.
		 */
		while (completed < count && now() < end) {
			uint32_t cprod = __atomic_load_n(cq.producer, __ATOMIC_ACQUIRE);
			uint32_t ccons = *cq.consumer;
			uint32_t tprod = *tx.producer;
			uint32_t tcons = __atomic_load_n(tx.consumer, __ATOMIC_ACQUIRE);

			completed += cprod - ccons;
			out -= cprod - ccons;
			__atomic_store_n(cq.consumer, cprod, __ATOMIC_RELEASE);
			/* At most 32 in flight: the peer (C igb under TCG) drains
			 * its ring slower than a burst fills it.
			 */
			while (next < count && out < 32 && tprod - tcons < RING) {
				uint64_t addr = (uint64_t)(RING + next % RING) * CHUNK;
				struct xdp_desc *d = &((struct xdp_desc *)tx.descs)[tprod & (RING - 1)];

				d->addr = addr;
				d->len = build((unsigned char *)umem + addr, smac, dmac, sip, dip,
					       next, 600);
				d->options = 0;
				tprod++;
				next++;
				out++;
			}
			__atomic_store_n(tx.producer, tprod, __ATOMIC_RELEASE);
			if (__atomic_load_n(tx.flags, __ATOMIC_ACQUIRE) & XDP_RING_NEED_WAKEUP)
				sendto(fd, NULL, 0, MSG_DONTWAIT, NULL, 0);
			usleep(1000);
		}
		printf("sent %u completed %u\n", next, completed);
		fflush(stdout);
		for (;;)
			pause();
	}
	if (put_in_map(atoi(argv[3]), sxdp.sxdp_queue_id, fd))
		return 1;
	printf("ready\n");
	fflush(stdout);

	end = now() + atof(argv[6]);
	while (received < count && now() < end) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		uint32_t prod, cons, n, fprod;

		if (__atomic_load_n(fill.flags, __ATOMIC_ACQUIRE) & XDP_RING_NEED_WAKEUP)
			recvfrom(fd, NULL, 0, MSG_DONTWAIT, NULL, NULL);
		poll(&pfd, 1, 100);
		prod = __atomic_load_n(rx.producer, __ATOMIC_ACQUIRE);
		cons = *rx.consumer;
		fprod = *fill.producer;
		for (n = 0; cons != prod; cons++, n++) {
			struct xdp_desc *d = &((struct xdp_desc *)rx.descs)[cons & (RING - 1)];
			unsigned char *f = (unsigned char *)umem + d->addr;
			size_t hdr = sizeof(struct ethhdr) + sizeof(struct iphdr) +
				     sizeof(struct udphdr);
			uint32_t seq, j, plen;
			int ok = d->len >= hdr + 4;

			if (ok) {
				struct iphdr *ip = (void *)(f + sizeof(struct ethhdr));
				struct udphdr *udp = (void *)(ip + 1);

				plen = ntohs(udp->len) - sizeof(*udp);
				ok = ip->protocol == 17 && udp->dest == htons(4448) &&
				     hdr + plen <= d->len && plen >= 4;
			}
			if (ok) {
				memcpy(&seq, f + hdr, 4);
				seq = ntohl(seq);
				for (j = 4; ok && j < plen; j++)
					ok = f[hdr + j] == (unsigned char)(seq * 7 + j);
				ok = ok && seq < MAX_SEQ;
			}
			if (!ok)
				bad++;
			else if (seen[seq]++)
				dup++;
			else
				received++;
			/* The frame goes back to the fill ring, at its chunk's start. */
			((uint64_t *)fill.descs)[fprod++ & (RING - 1)] =
				d->addr - d->addr % CHUNK;
		}
		__atomic_store_n(rx.consumer, cons, __ATOMIC_RELEASE);
		__atomic_store_n(fill.producer, fprod, __ATOMIC_RELEASE);
	}
	printf("received %lu bad %lu dup %lu\n", received, bad, dup);
	fflush(stdout);
	/* Bound until killed: the caller reads what it needs meanwhile. */
	for (;;)
		pause();
}
