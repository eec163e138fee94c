// SPDX-License-Identifier: GPL-2.0
//! expect: lifetime may not live long enough
//! A forwarding-entry request points into the core's `ndo_fdb_add` call (its netlink message
//! and the address it carries): the driver can add it or refuse it during the call, but
//! cannot keep it to add later.

use kernel::{net::netdev::FdbAdd, prelude::*};

module! {
    type: M,
    name: "cf",
    license: "GPL",
}

struct M;

#[allow(dead_code)]
fn keep(req: FdbAdd<'_>) -> FdbAdd<'static> {
    req
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
