// SPDX-License-Identifier: GPL-2.0
//! expect: E0521
//! Virtual functions are enabled only through the `pci::Sriov` handle lent to
//! `sriov_configure`, so that the bus disables them before the driver unbinds: the handle
//! cannot be kept past the callback (nor made: its field is private).

use kernel::{pci, prelude::*};

module! {
    type: M,
    name: "cf",
    license: "GPL",
}

struct M;

/// What a driver would need to enable VFs later, e.g. from its probe or a work item.
fn keep(_sriov: &'static pci::Sriov<'static>) {}

#[allow(dead_code)]
fn sriov_configure(sriov: &pci::Sriov<'_>, num_vfs: u16) -> Result<u16> {
    keep(sriov);
    Ok(num_vfs)
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
