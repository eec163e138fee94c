// SPDX-License-Identifier: GPL-2.0
/*
 * The XDP program of the igb_rust AF_XDP tests: UDP/IPv4 to port 4448 goes
 * to the AF_XDP socket of the queue it came in on (the map "xsks", which the
 * test's socket puts itself into), or passes if the queue has none. Anything
 * else passes.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_XSKMAP);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u32);
} xsks SEC(".maps");

SEC("xdp")
int xdp_xsk(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = data + sizeof(*eth);
	struct udphdr *udp = (void *)(ip + 1);

	if ((void *)(udp + 1) > end)
		return XDP_PASS;
	if (eth->h_proto != __builtin_bswap16(ETH_P_IP) || ip->ihl != 5 ||
	    ip->protocol != IPPROTO_UDP || udp->dest != __builtin_bswap16(4448))
		return XDP_PASS;
	return bpf_redirect_map(&xsks, ctx->rx_queue_index, XDP_PASS);
}

char _license[] SEC("license") = "GPL";
