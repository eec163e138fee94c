// SPDX-License-Identifier: GPL-2.0
//! expect: E0308
//! An AF_XDP buffer is memory the socket lends, not a page of the queue's page pool: it
//! cannot be recycled into the pool (it goes back to its own when dropped).

use kernel::{
    net::{
        napi::{RxContext, XskRx},
        page_pool::Page,
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
fn recycle(ctx: &RxContext<'_, '_>, xsk: &XskRx) {
    if let Ok(buff) = xsk.take(0, 64) {
        Page::recycle(buff, ctx, 64);
    }
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
