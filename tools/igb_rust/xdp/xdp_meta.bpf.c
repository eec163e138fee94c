// SPDX-License-Identifier: GPL-2.0
/*
 * The XDP metadata kfuncs, for the igb_rust tests. Loaded bound to the device
 * (bpftool prog load ... xdpmeta_dev IF), the program asks for the RSS hash
 * and the VLAN tag of every UDP/IPv4 datagram to port 4448, with or without
 * an 802.1Q tag left in the frame, and keeps in igb_meta what the last one
 * got:
 *
 *   0  datagrams seen            4  rx_vlan_tag's return value
 *   1  rx_hash's return value    5  the tag protocol, host byte order
 *   2  the hash                  6  the TCI
 *   3  the hash type             7  1 if the tag was still in the frame
 *
 * and under 8 what rx_hash returned for the last frame of EtherType 0x88b5
 * (local experimental: not IP, so never hashed). Every frame passes.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <bpf/bpf_helpers.h>

/* The kernel's enum (include/net/xdp.h), which is not UAPI: the kfunc's type. */
enum xdp_rss_hash_type {
	XDP_RSS_L3_IPV4 = 1U << 0,
};

extern int bpf_xdp_metadata_rx_hash(const struct xdp_md *ctx, __u32 *hash,
				    enum xdp_rss_hash_type *rss_type) __ksym;
extern int bpf_xdp_metadata_rx_vlan_tag(const struct xdp_md *ctx,
					__be16 *vlan_proto, __u16 *vlan_tci) __ksym;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 9);
	__type(key, __u32);
	__type(value, __s64);
} igb_meta SEC(".maps");

struct vlan_hdr {
	__be16 tci;
	__be16 proto;
};

static __always_inline void put(__u32 key, __s64 v)
{
	bpf_map_update_elem(&igb_meta, &key, &v, BPF_ANY);
}

SEC("xdp")
int xdp_meta(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	enum xdp_rss_hash_type type = 0;
	__u32 hash = 0, key = 0;
	__be16 proto, vproto = 0;
	struct udphdr *udp;
	struct iphdr *ip;
	__u16 tci = 0;
	__s64 *seen;
	int tagged = 0;
	int ret;

	if ((void *)(eth + 1) > end)
		return XDP_PASS;
	proto = eth->h_proto;
	if (proto == __builtin_bswap16(0x88b5)) {
		put(8, bpf_xdp_metadata_rx_hash(ctx, &hash, &type));
		return XDP_PASS;
	}
	ip = (void *)(eth + 1);
	if (proto == __builtin_bswap16(ETH_P_8021Q)) {
		struct vlan_hdr *vh = (void *)(eth + 1);

		if ((void *)(vh + 1) > end)
			return XDP_PASS;
		proto = vh->proto;
		ip = (void *)(vh + 1);
		tagged = 1;
	}
	udp = (void *)(ip + 1);
	if ((void *)(udp + 1) > end || proto != __builtin_bswap16(ETH_P_IP) ||
	    ip->ihl != 5 || ip->protocol != IPPROTO_UDP ||
	    udp->dest != __builtin_bswap16(4448))
		return XDP_PASS;

	ret = bpf_xdp_metadata_rx_hash(ctx, &hash, &type);
	put(1, ret);
	put(2, hash);
	put(3, type);
	ret = bpf_xdp_metadata_rx_vlan_tag(ctx, &vproto, &tci);
	put(4, ret);
	put(5, __builtin_bswap16(vproto));
	put(6, tci);
	put(7, tagged);
	seen = bpf_map_lookup_elem(&igb_meta, &key);
	if (seen)
		__sync_fetch_and_add(seen, 1);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
