// SPDX-License-Identifier: GPL-2.0
//! expect: E0599
//! Byte queue limits count bytes sent only from `start_xmit`, under the queue's xmit lock:
//! `sent` exists on the queue the stack locked for the call, not on any queue (a `sent` from
//! another context races the xmit path and corrupts BQL).

use kernel::{
    net::netdev::{Device, Operations},
    prelude::*,
};

module! {
    type: M,
    name: "cf",
    license: "GPL",
}

struct M;

#[allow(dead_code)]
fn account<T: Operations>(dev: &Device<T>) {
    if let Some(q) = dev.tx_queue(0) {
        q.sent(1500);
    }
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
