// SPDX-License-Identifier: GPL-2.0
//! expect: E0621
//! A runner holds the program the poll read, which only the poll's RCU read-side section
//! keeps alive: it cannot be kept past the receive context the program was read with, and so
//! neither can the buffer description set up once for the poll.

use kernel::{
    net::{
        napi::RxContext,
        xdp::{ProgSlot, Runner, RxQueue},
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
fn keep<'a>(slot: &'a ProgSlot, rxq: &'a RxQueue, rx: &RxContext<'_, '_>) -> Option<Runner<'a>> {
    slot.get(rx).map(|prog| rxq.runner(prog))
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
