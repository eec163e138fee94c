// SPDX-License-Identifier: GPL-2.0

#include <linux/filter.h>
#include <net/xdp_sock_drv.h>

#ifdef CONFIG_XDP_SOCKETS

__rust_helper int rust_helper_xsk_pool_dma_map(struct xsk_buff_pool *pool,
					       struct device *dev,
					       unsigned long attrs)
{
	return xsk_pool_dma_map(pool, dev, attrs);
}

__rust_helper dma_addr_t rust_helper_xsk_buff_xdp_get_dma(struct xdp_buff *xdp)
{
	return xsk_buff_xdp_get_dma(xdp);
}

__rust_helper void rust_helper_xsk_buff_free(struct xdp_buff *xdp)
{
	xsk_buff_free(xdp);
}

__rust_helper void rust_helper_xsk_buff_set_size(struct xdp_buff *xdp, u32 size)
{
	xsk_buff_set_size(xdp, size);
}

__rust_helper void rust_helper_xsk_buff_dma_sync_for_cpu(struct xdp_buff *xdp)
{
	xsk_buff_dma_sync_for_cpu(xdp);
}

__rust_helper u32
rust_helper_xsk_pool_get_rx_frame_size(struct xsk_buff_pool *pool)
{
	return xsk_pool_get_rx_frame_size(pool);
}

__rust_helper dma_addr_t
rust_helper_xsk_buff_raw_get_dma(struct xsk_buff_pool *pool, u64 addr)
{
	return xsk_buff_raw_get_dma(pool, addr);
}

__rust_helper void
rust_helper_xsk_buff_raw_dma_sync_for_device(struct xsk_buff_pool *pool,
					     dma_addr_t dma, size_t size)
{
	xsk_buff_raw_dma_sync_for_device(pool, dma, size);
}

__rust_helper struct bpf_redirect_info *rust_helper_bpf_net_ctx_get_ri(void)
{
	return bpf_net_ctx_get_ri();
}

#endif /* CONFIG_XDP_SOCKETS */
