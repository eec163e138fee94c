// SPDX-License-Identifier: GPL-2.0
//! expect: E0133
//! A PTP clock whose data borrows from the device binding must not be forgotten (its callbacks
//! would run on dangling data after unbind), so registering one directly is `unsafe`; drivers
//! give their clock to the network device's configuration (`Config::clock`), whose
//! registration owns it.

use core::ptr::NonNull;
use kernel::{
    device,
    ffi::c_long,
    prelude::*,
    ptp::{self, Nanos, SystemTimestamps},
};

module! {
    type: M,
    name: "cf",
    license: "GPL",
}

struct M;

struct Clk<'a> {
    borrowed: &'a u32,
}

#[vtable]
impl ptp::Clock for Clk<'_> {
    fn gettimex(&self, _sts: &mut SystemTimestamps<'_>) -> Result<Nanos> {
        Ok(Nanos::from(*self.borrowed))
    }

    fn settime(&self, _time: Nanos) -> Result {
        Ok(())
    }

    fn adjtime(&self, _delta: Nanos) -> Result {
        Ok(())
    }

    fn adjfine(&self, _scaled_ppm: c_long) -> Result {
        Ok(())
    }
}

#[allow(dead_code)]
fn leak<'a>(parent: &device::Device<device::Bound>, clk: &'a Clk<'a>) -> Result {
    let reg = ptp::Registration::new(
        &ptp::ClockInfo::new(c"cf", 1000),
        NonNull::from(clk),
        parent,
    )?;
    core::mem::forget(reg);
    Ok(())
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
