// SPDX-License-Identifier: GPL-2.0
//! expect: E0505
//! A page borrows its pool: it cannot be used once the pool is gone (the C side unmaps the
//! pages in flight when a pool is destroyed, so the DMA address would be stale).

use kernel::{net::page_pool::PagePool, prelude::*};

module! {
    type: M,
    name: "cf",
    license: "GPL",
}

struct M;

#[allow(dead_code)]
fn stale(pool: PagePool<'_>) -> u64 {
    let Some(page) = pool.alloc() else {
        return 0;
    };
    drop(pool);
    page.dma_addr()
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
