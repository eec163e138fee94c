// SPDX-License-Identifier: GPL-2.0
//! expect: lifetime may not live long enough
//! An AF_XDP buffer is borrowed from its queue's binding for one poll: it cannot be kept in
//! the poll state (or anywhere that outlives the poll's borrow of the binding), because the
//! core may unbind the pool, and the socket free it, once the poll is over.

use kernel::{net::napi::XskRx, net::xsk::Buff, prelude::*};

module! {
    type: M,
    name: "cf",
    license: "GPL",
}

struct M;

#[allow(dead_code)]
fn keep(state: &mut Option<Buff<'static>>, xsk: &XskRx) {
    *state = xsk.take(0, 64).ok();
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
