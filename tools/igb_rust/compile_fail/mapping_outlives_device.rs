// SPDX-License-Identifier: GPL-2.0
//! expect: lifetime may not live long enough
//! A mapped skb borrows the bound device: it cannot be kept past the binding (a TX ring
//! still holding mappings after remove() unmaps through a device that is gone).

use kernel::{
    device,
    net::skb::{MappedSkb, SkBuff},
    prelude::*,
};

module! {
    type: M,
    name: "cf",
    license: "GPL",
}

struct M;

#[allow(dead_code)]
fn keep_forever(dev: &device::Device<device::Bound>, skb: SkBuff) -> Option<MappedSkb<'static, 4>> {
    skb.dma_map(dev).ok()
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
