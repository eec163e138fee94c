// SPDX-License-Identifier: GPL-2.0
//! expect: E0382
//! Running XDP consumes the page: after `XDP_TX` or a redirect it belongs to the frame or
//! the target, so touching it afterwards does not build.

use kernel::{
    net::{
        napi::RxContext,
        page_pool::Page,
        skb::SkBuff,
        xdp::{ProgRef, RxMeta, RxQueue, Verdict},
    },
    prelude::*,
};

module! {
    type: M,
    name: "cf",
    license: "GPL",
}

struct M;

#[allow(dead_code)]
fn rx(
    ctx: &RxContext<'_, '_>,
    rxq: &RxQueue,
    prog: ProgRef<'_>,
    page: Page<'_>,
    skb: &mut SkBuff,
) -> Result {
    if let Verdict::Tx(frame) = rxq.run(ctx, prog, page, 64, RxMeta::default()) {
        drop(frame);
    }
    page.copy_to_skb(skb, 64)
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
