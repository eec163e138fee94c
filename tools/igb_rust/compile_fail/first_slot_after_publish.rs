// SPDX-License-Identifier: GPL-2.0
//! expect: E0499
//! A TX ring slot published to the cleaning side (the NAPI poll, on another CPU) cannot be
//! written again by the sending side, also when it was reached as the first free slot
//! (`first_mut`): the slot borrows the free slots, which `publish` needs.

use kernel::{net::netdev::ring::Producer, prelude::*};

module! {
    type: M,
    name: "cf",
    license: "GPL",
}

struct M;

#[allow(dead_code)]
fn send(producer: &mut Producer<u32, ()>) -> Option<()> {
    let mut free = producer.free_slots();
    let slot = free.first_mut()?;
    *slot = 1;
    free.publish(1);
    *slot = 2;
    Some(())
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
