// SPDX-License-Identifier: GPL-2.0
/*
 * Metadata in front of the frame (bpf_xdp_adjust_meta()), for the igb_rust
 * tests: the XDP program (twice: in "xdp", and in "xdp.frags" for frames of
 * several buffers) puts 8 bytes of metadata in front of every UDP/IPv4
 * datagram to port 4450 and leaves those to 4451 alone; the TC ingress
 * program (clsact, direct action) lets a datagram to either port through
 * only if the metadata it finds in front of it (skb->data_meta) are those
 * bytes, and drops it otherwise. Everything else passes both.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/pkt_cls.h>
#include <linux/udp.h>
#include <bpf/bpf_helpers.h>

#define MAGIC 0x1b2a3c4d5e6f7a8bULL

/* The destination port of a UDP/IPv4 frame without options, or 0. */
static __always_inline __u16 udp_dport(void *data, void *end)
{
	struct ethhdr *eth = data;
	struct iphdr *ip = (void *)(eth + 1);
	struct udphdr *udp = (void *)(ip + 1);

	if ((void *)(udp + 1) > end || eth->h_proto != __builtin_bswap16(ETH_P_IP) ||
	    ip->ihl != 5 || ip->protocol != IPPROTO_UDP)
		return 0;
	return __builtin_bswap16(udp->dest);
}

static __always_inline int put_meta(struct xdp_md *ctx)
{
	__u64 *meta;

	if (udp_dport((void *)(long)ctx->data, (void *)(long)ctx->data_end) != 4450)
		return XDP_PASS;
	if (bpf_xdp_adjust_meta(ctx, -(int)sizeof(*meta)))
		return XDP_PASS;
	meta = (void *)(long)ctx->data_meta;
	if ((void *)(meta + 1) > (void *)(long)ctx->data)
		return XDP_PASS;
	*meta = MAGIC;
	return XDP_PASS;
}

SEC("xdp")
int xdp_put_meta(struct xdp_md *ctx)
{
	return put_meta(ctx);
}

/* The same, for frames of several buffers (the headers are in the first). */
SEC("xdp.frags")
int xdp_put_meta_frags(struct xdp_md *ctx)
{
	return put_meta(ctx);
}

SEC("tc")
int tc_check_meta(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data;
	__u64 *meta = (void *)(long)skb->data_meta;
	__u16 port = udp_dport(data, (void *)(long)skb->data_end);

	if (port != 4450 && port != 4451)
		return TC_ACT_OK;
	if ((void *)(meta + 1) > data || *meta != MAGIC)
		return TC_ACT_SHOT;
	return TC_ACT_OK;
}

char _license[] SEC("license") = "GPL";
