// SPDX-License-Identifier: GPL-2.0
//! expect: lifetime may not live long enough
//! A TX ring's map slot borrows the bound device like a mapped skb does: a ring still holding
//! a mapped frame cannot be kept past the binding.

use kernel::{device, net::tx::MapSlot, prelude::*};

module! {
    type: M,
    name: "cf",
    license: "GPL",
}

struct M;

#[allow(dead_code)]
fn keep_forever(dev: &device::Device<device::Bound>) -> MapSlot<'static, 4> {
    MapSlot::new(dev)
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
