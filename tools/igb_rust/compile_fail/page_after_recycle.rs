// SPDX-License-Identifier: GPL-2.0
//! expect: E0382
//! Recycling consumes the page: using it afterwards (dpaa2-eth beb1930f966d read a
//! recycled buffer) does not build.

use kernel::{
    net::{napi::RxContext, page_pool::Page, skb::SkBuff},
    prelude::*,
};

module! {
    type: M,
    name: "cf",
    license: "GPL",
}

struct M;

#[allow(dead_code)]
fn rx(ctx: &RxContext<'_, '_>, page: Page<'_>, skb: &mut SkBuff) -> Result {
    page.recycle(ctx, 64);
    page.copy_to_skb(skb, 64)
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
