// SPDX-License-Identifier: GPL-2.0
//! expect: E0599
//! An interrupt handler runs before registration and after unregistration: it only sees the
//! private data and the NAPI instances, not the calls that need a registered device (carrier,
//! queue wake-ups).

use kernel::{
    net::netdev::{IrqDevice, Operations},
    prelude::*,
};

module! {
    type: M,
    name: "cf",
    license: "GPL",
}

struct M;

#[allow(dead_code)]
fn handle<T: Operations>(dev: &IrqDevice<T>) {
    dev.carrier_on();
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
