// SPDX-License-Identifier: GPL-2.0
//! expect: E0451
//! Process context (here: module init, like an MTU change or teardown path) cannot make the
//! NAPI context token, so it cannot call `napi_build_skb`/`napi_alloc_skb`/`napi_consume_skb`.

use kernel::{
    net::{napi::NapiContext, skb::SkBuff},
    prelude::*,
};

module! {
    type: M,
    name: "cf",
    license: "GPL",
}

struct M;

#[allow(dead_code)]
fn forge(skb: SkBuff) {
    let ctx = NapiContext {
        napi: core::ptr::null_mut(),
        budget: 64,
        redirected: core::cell::Cell::new(false),
        _brand: core::marker::PhantomData,
        _not_send: core::marker::PhantomData,
    };
    ctx.consume_skb(skb);
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
