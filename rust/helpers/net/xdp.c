// SPDX-License-Identifier: GPL-2.0

#include <linux/filter.h>
#include <net/xdp.h>
#include <trace/events/xdp.h>

__rust_helper u32 rust_helper_bpf_prog_run_xdp(const struct bpf_prog *prog,
					       struct xdp_buff *xdp)
{
	return bpf_prog_run_xdp(prog, xdp);
}

__rust_helper void rust_helper_xdp_init_buff(struct xdp_buff *xdp, u32 frame_sz,
					     struct xdp_rxq_info *rxq)
{
	xdp_init_buff(xdp, frame_sz, rxq);
}

__rust_helper void rust_helper_xdp_prepare_buff(struct xdp_buff *xdp,
						unsigned char *hard_start,
						int headroom, int data_len,
						const bool meta_valid)
{
	xdp_prepare_buff(xdp, hard_start, headroom, data_len, meta_valid);
}

__rust_helper struct xdp_frame *
rust_helper_xdp_convert_buff_to_frame(struct xdp_buff *xdp)
{
	return xdp_convert_buff_to_frame(xdp);
}

__rust_helper bool rust_helper_xdp_buff_has_frags(const struct xdp_buff *xdp)
{
	return xdp_buff_has_frags(xdp);
}

__rust_helper u32 rust_helper_xdp_buff_get_skb_flags(const struct xdp_buff *xdp)
{
	return xdp_buff_get_skb_flags(xdp);
}

__rust_helper netmem_ref rust_helper_page_to_netmem(struct page *page)
{
	return page_to_netmem(page);
}

__rust_helper bool rust_helper_xdp_buff_add_frag(struct xdp_buff *xdp,
						 netmem_ref netmem, u32 offset,
						 u32 size, u32 truesize)
{
	return xdp_buff_add_frag(xdp, netmem, offset, size, truesize);
}

__rust_helper struct page *rust_helper_skb_frag_page(const skb_frag_t *frag)
{
	return skb_frag_page(frag);
}

__rust_helper void rust_helper_xdp_update_skb_frags_info(struct sk_buff *skb,
							 u8 nr_frags,
							 unsigned int size,
							 unsigned int truesize,
							 u32 xdp_flags)
{
	xdp_update_skb_frags_info(skb, nr_frags, size, truesize, xdp_flags);
}

__rust_helper struct skb_shared_info *
rust_helper_xdp_get_shared_info_from_frame(const struct xdp_frame *frame)
{
	return xdp_get_shared_info_from_frame(frame);
}

__rust_helper unsigned int
rust_helper_xdp_get_frame_len(const struct xdp_frame *xdpf)
{
	return xdp_get_frame_len(xdpf);
}

__rust_helper dma_addr_t rust_helper___skb_frag_dma_map(struct device *dev,
							const skb_frag_t *frag,
							size_t offset, size_t size,
							enum dma_data_direction dir)
{
	return __skb_frag_dma_map(dev, frag, offset, size, dir);
}

__rust_helper void rust_helper_trace_xdp_exception(const struct net_device *dev,
						   const struct bpf_prog *xdp,
						   u32 act)
{
	trace_xdp_exception(dev, xdp, act);
}

__rust_helper void rust_helper_skb_metadata_set(struct sk_buff *skb, u8 meta_len)
{
	skb_metadata_set(skb, meta_len);
}
