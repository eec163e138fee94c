// SPDX-License-Identifier: GPL-2.0
//! expect: E0277
//! The guard of a TX queue's xmit lock stays on the CPU that took it: it cannot be kept in
//! the NAPI state, the queue data or anything else that may move to another CPU (where
//! releasing the lock, with bottom halves as the context left them, would be wrong).

use kernel::{
    net::{
        napi::NapiContext,
        netdev::{Device, Operations, XmitGuard},
    },
    prelude::*,
};

module! {
    type: M,
    name: "cf",
    license: "GPL",
}

struct M;

fn keep_for_later<G: Send>(_guard: G) {}

#[allow(dead_code)]
fn lock<T: Operations>(dev: &Device<T>, ctx: &NapiContext<'_>) {
    if let Some(guard) = dev.lock_tx(0, ctx) {
        keep_for_later::<XmitGuard<'_, T>>(guard);
    }
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
