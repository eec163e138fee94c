// SPDX-License-Identifier: GPL-2.0
//! expect: E0500
//! A NAPI instance's pool is recut (how its pages are cut into buffers) through
//! `Napi::set_pool_layout`, which borrows the RTNL token mutably: not while `with_state` lends
//! the pool and the ring state, so a driver cannot recut the pool while it holds buffers cut
//! the old way (each keeps its own size and headroom, but a ring would mix both).

use kernel::{
    net::{
        napi::{Napi, Poll},
        netdev::Rtnl,
        page_pool::Layout,
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
fn recut<P: Poll>(napi: &Napi<P>, rtnl: &mut Rtnl, whole: Layout) -> Result {
    napi.with_state(rtnl, |_data, _state, pool| {
        let page = pool.and_then(|p| p.alloc());
        let _ = napi.set_pool_layout(rtnl, whole);
        drop(page);
    })
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
