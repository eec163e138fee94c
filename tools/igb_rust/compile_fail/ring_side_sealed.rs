// SPDX-License-Identifier: GPL-2.0
//! expect: E0277
//! A ring's slot views come in two sides, the producer's and the consumer's, each moving its own
//! index: a driver cannot add a third that would move one of them from the other handle.

use kernel::{net::netdev::ring::Side, prelude::*};

module! {
    type: M,
    name: "cf",
    license: "GPL",
}

struct M;

enum Mine {}

impl Side for Mine {}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
