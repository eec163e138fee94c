// SPDX-License-Identifier: GPL-2.0
//! expect: E0521
//! `fdb_add` is lent the request for the core's `ndo_fdb_add` call only (it points into the
//! call's netlink message): a driver cannot keep it, say to look at it from a later callback.

use kernel::{
    net::{
        napi::NoPoll,
        netdev::{Device, ExtAck, FdbAdd, Operations, Rtnl, TxRequest, Xmit, XmitQueue},
    },
    prelude::*,
};

module! {
    type: M,
    name: "cf",
    license: "GPL",
}

struct M;

struct Net;

/// Where a driver would keep it: any storage outliving the call.
#[allow(dead_code)]
fn keep(_req: &'static FdbAdd<'static>) {}

#[vtable]
impl Operations for Net {
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

    fn fdb_add(
        _dev: &Device<Self>,
        _rtnl: &mut Rtnl,
        req: &FdbAdd<'_>,
        _extack: &mut ExtAck<'_>,
    ) -> Result {
        keep(req);
        Ok(())
    }
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
