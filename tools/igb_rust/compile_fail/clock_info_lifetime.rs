// SPDX-License-Identifier: GPL-2.0
//! expect: lifetime may not live long enough
//! A PTP clock's registration info is invariant in the driver type: one made for
//! `Net<'static>` cannot pass for one of `Net<'a>`, whose clock callbacks would then see
//! borrows of the binding as `'static` (and keep them past unbind).

use kernel::{
    ffi::c_long,
    net::{
        napi::NoPoll,
        netdev::{Config, Device, Operations, Rtnl, TxRequest, Xmit, XmitQueue},
    },
    prelude::*,
    ptp::{self, Nanos, SystemTimestamps},
};

module! {
    type: M,
    name: "cf",
    license: "GPL",
}

struct M;

struct Net<'a> {
    _borrowed: &'a u32,
}

#[vtable]
impl Operations for Net<'_> {
    type Poll = NoPoll<Self>;
    type XmitData = ();

    fn open(_dev: &Device<Self>, _rtnl: &mut Rtnl) -> Result {
        Ok(())
    }

    fn stop(_dev: &Device<Self>, _rtnl: &mut Rtnl) -> Result {
        Ok(())
    }

    fn start_xmit<'x>(
        _dev: &Device<Self>,
        _txq: &XmitQueue<'x>,
        _data: &mut (),
        _skb: TxRequest<'x>,
    ) -> Xmit<'x> {
        Xmit::Ok
    }
}

#[vtable]
impl ptp::Clock for Net<'static> {
    fn gettimex(&self, _sts: &mut SystemTimestamps<'_>) -> Result<Nanos> {
        // A borrow of the binding, as long as the type says.
        let kept: &'static u32 = self._borrowed;
        Ok(Nanos::from(*kept))
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

/// The configuration of a device whose data borrows for `'a` only.
#[allow(dead_code)]
fn config<'a>() -> Result<Config<Net<'a>>> {
    Ok(Config {
        xdp: None,
        ethtool: None,
        mac: [0x52, 0x54, 0, 0x12, 0x34, 0x56],
        min_mtu: 68,
        max_mtu: 1500,
        hw_features: 0,
        features: 0,
        real_tx_queues: 1,
        real_rx_queues: 1,
        spread_irqs: false,
        stats_count: 0,
        unicast_filter: false,
        clock: Some(ptp::ClockInfo::<Net<'static>>::new(c"cf", 1000)),
    })
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
