// SPDX-License-Identifier: GPL-2.0
//! expect: E0502
//! While `with_state` lends the poll state to process context, the RTNL token is borrowed
//! mutably: the closure cannot enable the instance, so no poll can start and alias the state.

use kernel::{
    net::{
        napi::{Napi, Poll},
        netdev::Rtnl,
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
fn fill<P: Poll>(napi: &Napi<P>, rtnl: &mut Rtnl) -> Result {
    napi.with_state(rtnl, |_data, _state, _pool| {
        napi.enable(rtnl);
    })
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
