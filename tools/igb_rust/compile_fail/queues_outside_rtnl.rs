// SPDX-License-Identifier: GPL-2.0
//! expect: E0624
//! The stack's queue counts change only under RTNL: `set_real_num_queues` takes the `Rtnl`
//! token, which only the abstractions create: in the callbacks the core runs under the lock
//! (`open`, `stop`, `set_channels`, ...), and in `Rtnl::with_lock`, which takes it. A driver
//! cannot forge one without the lock to call it from, say, a work item or a poll.

use kernel::{
    net::netdev::{Device, Operations, Rtnl},
    prelude::*,
};

module! {
    type: M,
    name: "cf",
    license: "GPL",
}

struct M;

#[allow(dead_code)]
fn shrink<T: Operations>(dev: &Device<T>) -> Result {
    // SAFETY: Wrong: nothing holds RTNL here.
    let rtnl = unsafe { Rtnl::assume_held() };
    dev.set_real_num_queues(1, 1, &rtnl)
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
