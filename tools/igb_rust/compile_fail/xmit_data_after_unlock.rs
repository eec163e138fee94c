// SPDX-License-Identifier: GPL-2.0
//! expect: E0505
//! A TX queue's data (the sending half of its ring) is reached only through the guard of
//! the queue's xmit lock: a reference to it cannot outlive the lock.

use kernel::{
    net::{
        napi::NapiContext,
        netdev::{Device, Operations},
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
fn count<T: Operations<XmitData = u32>>(dev: &Device<T>, ctx: &NapiContext<'_>) -> Option<()> {
    let mut guard = dev.lock_tx(0, ctx)?;
    let sent: &mut u32 = &mut guard;
    // Releases the lock.
    drop(guard);
    *sent += 1;
    Some(())
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
