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

__rust_helper int rust_helper_xdp_rxq_info_reg(struct xdp_rxq_info *xdp_rxq,
					       struct net_device *dev,
					       u32 queue_index,
					       unsigned int napi_id)
{
	return xdp_rxq_info_reg(xdp_rxq, dev, queue_index, napi_id);
}

__rust_helper void rust_helper_trace_xdp_exception(const struct net_device *dev,
						   const struct bpf_prog *xdp,
						   u32 act)
{
	trace_xdp_exception(dev, xdp, act);
}
