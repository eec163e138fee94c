// SPDX-License-Identifier: GPL-2.0
//! expect: E0596
//! An skb held in a map slot is mapped for the device: it can be looked at, but not changed
//! (a linearize would free the mapped head while the device reads it). Take it out first.

use kernel::{net::tx::MapSlot, prelude::*};

module! {
    type: M,
    name: "cf",
    license: "GPL",
}

struct M;

#[allow(dead_code)]
fn flatten(slot: &mut MapSlot<'_, 4>) -> Result {
    match slot.skb() {
        Some(skb) => skb.linearize(),
        None => Ok(()),
    }
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
