// SPDX-License-Identifier: GPL-2.0
//! expect: lifetime may not live long enough
//! `start_xmit` may hand back with `Xmit::Busy` only the skb it received: a request of
//! another call (a stale or a foreign skb, which the stack would requeue after it was freed)
//! carries another brand.

use kernel::{
    net::netdev::{TxRequest, Xmit},
    prelude::*,
};

module! {
    type: M,
    name: "cf",
    license: "GPL",
}

struct M;

#[allow(dead_code)]
fn xmit<'x, 'y>(mine: TxRequest<'x>, other: TxRequest<'y>) -> Xmit<'x> {
    drop(mine);
    Xmit::Busy(other)
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
