// SPDX-License-Identifier: GPL-2.0
//! expect: E0133
//! A registration holding data borrowed from the device binding must not be forgotten (its
//! callbacks would run on dangling data after unbind), so its constructor is `unsafe`;
//! drivers register through `netdev::pci::Adapter`, which owns the registration.

use kernel::{
    device,
    net::{
        napi::{Instance, NoPoll},
        netdev::{Config, Device, Operations, Registration, Rtnl, TxRequest, Xmit, XmitQueue},
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

#[allow(dead_code)]
fn leak<'a>(
    parent: &device::Device<device::Bound>,
    config: &Config<Net<'a>>,
    borrowed: &'a u32,
) -> Result {
    let reg = Registration::new_with_lt(
        parent,
        1,
        1,
        config,
        &[],
        false,
        0,
        &mut |_| Err::<Instance<Result<NoPoll<Net<'a>>, Error>, ()>, _>(EINVAL),
        Ok::<_, Error>(Net {
            _borrowed: borrowed,
        }),
    )?;
    core::mem::forget(reg);
    Ok(())
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
