// SPDX-License-Identifier: GPL-2.0
//! expect: E0382
//! A TX timestamp is delivered once: `TxTimestamp::complete` consumes the reference that
//! `SkBuff::start_hw_tx_timestamp` took, so the skb can neither get a second timestamp nor
//! lose that reference twice (a use after free in C when a timeout races the delivery).

use kernel::{net::skb::TxTimestamp, prelude::*};

module! {
    type: M,
    name: "cf",
    license: "GPL",
}

struct M;

#[allow(dead_code)]
fn deliver(stamp: TxTimestamp, ns: i64) {
    stamp.complete(ns);
    stamp.complete(ns + 1);
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
