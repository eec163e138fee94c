// SPDX-License-Identifier: GPL-2.0
//! expect: builds
//! Control case: the checked, in-order versions of the three snippets build, so the
//! failures above come from the rule they show, not from the harness.

use kernel::{
    net::{napi::NapiContext, page_pool::Page},
    prelude::*,
};

module! {
    type: M,
    name: "cf",
    license: "GPL",
}

struct M;

#[allow(dead_code)]
fn rx(ctx: &NapiContext<'_>, mut page: Page) -> u8 {
    let first = page.sync_for_cpu(64).map_or(0, |d| d[0]);
    page.recycle(ctx, 64);
    if let Some(skb) = ctx.alloc_skb(64) {
        ctx.gro_receive(skb);
    }
    first
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
