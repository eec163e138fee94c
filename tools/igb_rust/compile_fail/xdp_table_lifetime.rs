// SPDX-License-Identifier: GPL-2.0
//! expect: lifetime may not live long enough
//! The XDP table of a driver type is invariant in it: a table built for `Net<'static>`
//! cannot pass for one of `Net<'a>`, whose callbacks would then see borrows of the
//! binding as `'static` (and keep them past unbind).

use kernel::{
    net::{
        napi::NoPoll,
        netdev::{Config, Device, Operations, Rtnl, TxRequest, Xmit, XmitQueue},
        xdp::{self, ExtAck, Features, Prog},
    },
    prelude::*,
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
impl xdp::Operations for Net<'static> {
    fn setup(
        dev: &Device<Self>,
        _rtnl: &mut Rtnl,
        _prog: Option<Prog>,
        _extack: &mut ExtAck<'_>,
    ) -> Result {
        // A borrow of the binding, as long as the type says.
        let _kept: &'static u32 = dev.data()._borrowed;
        Ok(())
    }
}

/// The configuration of a device whose data borrows for `'a` only.
#[allow(dead_code)]
fn config<'a>() -> Result<Config<Net<'a>>> {
    Ok(Config {
        xdp: Some(xdp::table::<Net<'static>>(Features::BASIC)?),
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
        clock: None,
    })
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
