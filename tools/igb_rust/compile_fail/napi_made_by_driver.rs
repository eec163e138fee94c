// SPDX-License-Identifier: GPL-2.0
//! expect: E0133
//! A driver cannot make a NAPI instance of its own (one it could keep past the device, whose
//! deletion would then touch a freed net_device): the registration creates and owns them.
//! The constructor is public for the netdev module, which comes later in the series, but
//! `unsafe`, with preconditions only the registration meets; drivers have no `unsafe`.

use kernel::{
    net::napi::{Napi, Poll},
    prelude::*,
};

module! {
    type: M,
    name: "cf",
    license: "GPL",
}

struct M;

#[allow(dead_code)]
fn make<P: Poll>(data: P, state: P::State) -> Result<Pin<KBox<Napi<P>>>> {
    KBox::pin_init(
        Napi::new(
            core::ptr::null_mut(),
            Ok::<_, Error>(data),
            state,
            None,
            None,
        ),
        GFP_KERNEL,
    )
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
