// SPDX-License-Identifier: GPL-2.0
//! expect: E0382
//! A frame of several buffers takes its fragment pages too: whatever the verdict, a fragment
//! belongs to the skb, the frame, the redirect or its pool afterwards, so recycling it again
//! does not build.

use kernel::{
    net::{
        napi::RxContext,
        page_pool::Page,
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
fn rx<'p>(
    ctx: &RxContext<'_, '_>,
    rxq: &RxQueue,
    prog: ProgRef<'_>,
    head: Page<'p>,
    frag: Page<'p>,
) {
    if let Verdict::Drop { page, dirty, .. } =
        rxq.run_frags(ctx, prog, (head, 2048), [(frag, 64)], RxMeta::default())
    {
        page.recycle(ctx, dirty);
    }
    frag.recycle(ctx, 64);
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
