// SPDX-License-Identifier: GPL-2.0
//! expect: E0308
//! An skb allocation can fail: its result is an `Option`, so using it as an skb without
//! checking (lantiq_xrx200's unchecked NULL) does not build.

use kernel::{
    net::{napi::RxContext, skb::SkBuff},
    prelude::*,
};

module! {
    type: M,
    name: "cf",
    license: "GPL",
}

struct M;

#[allow(dead_code)]
fn rx(ctx: &RxContext<'_, '_>) {
    let skb: SkBuff = ctx.alloc_skb(64);
    ctx.gro_receive(skb);
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
