// SPDX-License-Identifier: GPL-2.0
/*
 * XDP programs for the igb_rust tests, one per object, chosen at build time:
 *
 *   XDP_TEST_PASS      every frame passes
 *   XDP_TEST_DROP      UDP/IPv4 to port 4444 is dropped
 *   XDP_TEST_TX        UDP/IPv4 to port 4445 is echoed back (XDP_TX)
 *   XDP_TEST_REDIRECT  UDP/IPv4 to port 4446 is echoed back through a
 *                      redirect to the receiving device (ndo_xdp_xmit)
 *   XDP_TEST_ABORT     UDP/IPv4 to port 4447 is aborted
 *   XDP_TEST_BENCH     UDP/IPv4 to port 9 (pktgen's, in make bench) is dropped
 *
 * Anything else passes. An echo swaps the MAC and IP addresses and the UDP
 * ports: both checksums stay valid, so the sender receives its own payload.
 * Each object has the program twice: in section "xdp", and in "xdp.frags" for
 * frames of several buffers (the headers are in the first one).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <bpf/bpf_helpers.h>

#define UDP_PORT(p) __builtin_bswap16(p)

/* The UDP header of an IPv4 frame without options, or NULL. */
static __always_inline struct udphdr *udp_of(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = data + sizeof(*eth);
	struct udphdr *udp = (void *)(ip + 1);

	if ((void *)(udp + 1) > end)
		return 0;
	if (eth->h_proto != __builtin_bswap16(ETH_P_IP) || ip->ihl != 5 ||
	    ip->protocol != IPPROTO_UDP)
		return 0;
	return udp;
}

static __always_inline void echo(struct xdp_md *ctx, struct udphdr *udp)
{
	struct ethhdr *eth = (void *)(long)ctx->data;
	struct iphdr *ip = (void *)(eth + 1);
	unsigned char mac[ETH_ALEN];
	__be32 addr;
	__be16 port;

	__builtin_memcpy(mac, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, eth->h_source, ETH_ALEN);
	__builtin_memcpy(eth->h_source, mac, ETH_ALEN);
	addr = ip->saddr;
	ip->saddr = ip->daddr;
	ip->daddr = addr;
	port = udp->source;
	udp->source = udp->dest;
	udp->dest = port;
}

static __always_inline int verdict(struct xdp_md *ctx)
{
	struct udphdr *udp = udp_of(ctx);

	if (!udp)
		return XDP_PASS;
#if defined(XDP_TEST_DROP)
	if (udp->dest == UDP_PORT(4444))
		return XDP_DROP;
#elif defined(XDP_TEST_TX)
	if (udp->dest == UDP_PORT(4445)) {
		echo(ctx, udp);
		return XDP_TX;
	}
#elif defined(XDP_TEST_REDIRECT)
	if (udp->dest == UDP_PORT(4446)) {
		echo(ctx, udp);
		return bpf_redirect(ctx->ingress_ifindex, 0);
	}
#elif defined(XDP_TEST_ABORT)
	if (udp->dest == UDP_PORT(4447))
		return XDP_ABORTED;
#elif defined(XDP_TEST_BENCH)
	if (udp->dest == UDP_PORT(9))
		return XDP_DROP;
#endif
	return XDP_PASS;
}

SEC("xdp")
int xdp_test(struct xdp_md *ctx)
{
	return verdict(ctx);
}

SEC("xdp.frags")
int xdp_test_frags(struct xdp_md *ctx)
{
	return verdict(ctx);
}

char _license[] SEC("license") = "GPL";
