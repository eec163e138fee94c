// SPDX-License-Identifier: GPL-2.0
//! expect: E0382
//! Once the driver accepted the skb (and may have changed or queued it), it cannot hand it
//! back to the stack as busy: `NETDEV_TX_BUSY` is only for an skb the driver did not touch.

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
fn xmit<'x>(req: TxRequest<'x>) -> Xmit<'x> {
    let skb = req.accept();
    drop(skb);
    Xmit::Busy(req)
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
