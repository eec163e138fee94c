// SPDX-License-Identifier: GPL-2.0
//! expect: E0599
//! The driver cannot complete a poll itself (and then keep touching the rings, or return the
//! full budget): the abstraction calls `napi_complete_done()` from the poll's return value.

use kernel::{
    net::napi::{Napi, NapiContext, Poll},
    prelude::*,
};

module! {
    type: M,
    name: "cf",
    license: "GPL",
}

struct M;

#[allow(dead_code)]
fn poll<P: Poll>(ctx: &NapiContext<'_>) -> u32 {
    let _ = Napi::<P>::complete_done(ctx, 0);
    0
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
