// SPDX-License-Identifier: GPL-2.0
//! expect: E0308
//! A frame in an AF_XDP buffer goes to the stack only as a copy (`xdp::xsk_pass`): the
//! buffer itself is never an skb, so it cannot be handed to GRO.

use kernel::{
    net::{napi::RxContext, napi::XskRx},
    prelude::*,
};

module! {
    type: M,
    name: "cf",
    license: "GPL",
}

struct M;

#[allow(dead_code)]
fn pass(ctx: &RxContext<'_, '_>, xsk: &XskRx) {
    if let Ok(buff) = xsk.take(0, 64) {
        ctx.gro_receive(buff);
    }
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
