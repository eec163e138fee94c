// SPDX-License-Identifier: GPL-2.0
//! expect: E0521
//! A registration whose private data borrows (here from the caller, in a driver from the
//! device binding) cannot be made with the safe constructor: forgetting it would leave the
//! interface registered with its callbacks reading dangling data. Such drivers register
//! through `netdev::pci::Adapter`, which owns the registration.

use kernel::{
    device,
    net::netdev::{Config, Device, Operations, Registration, Rtnl, TxRequest, Xmit},
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
    fn open(_dev: &Device<Self>, _rtnl: &mut Rtnl) -> Result {
        Ok(())
    }

    fn stop(_dev: &Device<Self>, _rtnl: &mut Rtnl) -> Result {
        Ok(())
    }

    fn start_xmit<'x>(_dev: &Device<Self>, _skb: TxRequest<'x>) -> Xmit<'x> {
        Xmit::Ok
    }
}

#[allow(dead_code)]
fn leak<'a>(
    parent: &device::Device<device::Bound>,
    config: &Config<Net<'a>>,
    borrowed: &'a u32,
) -> Result {
    let reg = Registration::new(parent, 1, 1, config, |_| {
        Ok::<_, Error>(Net {
            _borrowed: borrowed,
        })
    })?;
    core::mem::forget(reg);
    Ok(())
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
