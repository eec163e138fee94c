// SPDX-License-Identifier: GPL-2.0
//! expect: E0277
//! The request is lent on the thread of the core's `ndo_fdb_add` call, which holds RTNL and
//! may take the address list lock: it cannot be sent to another thread (a work item, a poll
//! on another CPU) to be read there.

use kernel::{net::netdev::FdbAdd, prelude::*};

module! {
    type: M,
    name: "cf",
    license: "GPL",
}

struct M;

fn send<T: Send>(_: T) {}

#[allow(dead_code)]
fn hand_off(req: &FdbAdd<'_>) {
    send(req);
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
