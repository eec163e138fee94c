// SPDX-License-Identifier: GPL-2.0
//! expect: E0451
//! A driver cannot make the `pci::Sriov` handle itself, e.g. in its probe, to enable virtual
//! functions where the bus would not disable them again: its field is private, and only the
//! bus's `sriov_configure` callback lends one.

use kernel::{device::Core, pci, prelude::*};

module! {
    type: M,
    name: "cf",
    license: "GPL",
}

struct M;

/// Whatever device the driver would name, the struct cannot be built outside the bus.
#[allow(dead_code, unreachable_code)]
fn probe_enables(_pdev: &pci::Device<Core<'_>>) -> Result {
    let sriov = pci::Sriov {
        pdev: unreachable!(),
    };
    sriov.enable(core::num::NonZero::new(2).ok_or(EINVAL)?)
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
