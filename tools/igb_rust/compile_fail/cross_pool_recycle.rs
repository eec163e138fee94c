// SPDX-License-Identifier: GPL-2.0
//! expect: E0277
//! A page cannot move to another context (another NAPI instance's poll, a work item): it
//! borrows a pool that is not `Sync`, so the pool's lockless cache is only ever used by the
//! context that holds the pool.

use kernel::{
    net::page_pool::{Page, PagePool},
    prelude::*,
};

module! {
    type: M,
    name: "cf",
    license: "GPL",
}

struct M;

fn send_to_other_poll<T: Send>(_page: T) {}

#[allow(dead_code)]
fn share(pool: &PagePool) {
    let page: Option<Page<'_>> = pool.alloc();
    send_to_other_poll(page);
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
