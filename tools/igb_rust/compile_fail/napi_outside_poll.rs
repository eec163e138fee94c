// SPDX-License-Identifier: GPL-2.0
//! expect: E0451
//! Process context (here: module init, like an MTU change or teardown path) cannot make the
//! NAPI context token, so it cannot call `napi_build_skb`/`napi_alloc_skb`/`napi_consume_skb`.

use kernel::{net::napi::NapiContext, prelude::*};

module! {
    type: M,
    name: "cf",
    license: "GPL",
}

struct M;

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        let ctx = NapiContext {
            napi: core::ptr::null_mut(),
            budget: 64,
            _p: core::marker::PhantomData,
        };
        let _ = ctx.alloc_skb(64);
        Ok(M)
    }
}
