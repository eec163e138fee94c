// SPDX-License-Identifier: GPL-2.0
//! expect: E0599
//! A netpoll poll (budget 0, maybe in hard interrupt context) may only complete
//! transmissions: the plain NAPI token has no receive calls; they need `ctx.rx()`, which is
//! `None` for budget 0.

use kernel::{
    net::{napi::NapiContext, skb::SkBuff},
    prelude::*,
};

module! {
    type: M,
    name: "cf",
    license: "GPL",
}

struct M;

#[allow(dead_code)]
fn poll(ctx: &NapiContext<'_>, skb: SkBuff) {
    ctx.gro_receive(skb);
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
