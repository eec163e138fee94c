// SPDX-License-Identifier: GPL-2.0
//! expect: E0621
//! The program a poll reads is only kept alive by the poll's RCU read-side section: it
//! cannot be kept past the receive context it was read with.

use kernel::{
    net::{
        napi::RxContext,
        xdp::{ProgRef, ProgSlot},
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
fn keep<'a>(slot: &'a ProgSlot, rx: &RxContext<'_, '_>) -> Option<ProgRef<'a>> {
    slot.get(rx)
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
