// SPDX-License-Identifier: GPL-2.0

//! Intel(R) 82576 Gigabit Ethernet driver, in Rust.
//!
//! The driver contains no `unsafe` code: everything it needs from the kernel
//! comes through the safe abstractions in `kernel::pci`, `kernel::io` and
//! `kernel::net`.

use kernel::{
    device::Core,
    pci,
    prelude::*, //
};

mod hw;
mod regs;

use hw::{Bar0, MacAddr};

/// PCI device ID of the 82576 copper NIC (the one QEMU's `-device igb` models).
const E1000_DEV_ID_82576: u32 = 0x10c9;

/// Per-device state, alive from a successful probe until unbind.
struct IgbData<'bound> {
    pdev: &'bound pci::Device,
    bar: Bar0<'bound>,
    perm_addr: MacAddr,
}

struct IgbDriver;

kernel::pci_device_table!(
    PCI_TABLE,
    <IgbDriver as pci::Driver>::IdInfo,
    [(
        pci::DeviceId::from_id(pci::Vendor::INTEL, E1000_DEV_ID_82576),
        ()
    )]
);

impl pci::Driver for IgbDriver {
    type IdInfo = ();
    type Data<'bound> = IgbData<'bound>;

    const ID_TABLE: pci::IdTable<Self::IdInfo> = &PCI_TABLE;

    fn probe<'bound>(
        pdev: &'bound pci::Device<Core<'_>>,
        _info: Option<&'bound Self::IdInfo>,
    ) -> impl PinInit<Self::Data<'bound>, Error> + 'bound {
        pdev.enable_device_mem()?;
        pdev.set_master();

        let bar = pdev.iomap_region_sized::<{ regs::BAR0_SIZE }>(0, c"igb_rust")?;

        hw::reset(&bar).inspect_err(|e| {
            dev_err!(pdev, "MAC reset did not complete: {:?}\n", e);
        })?;

        let perm_addr = hw::read_perm_addr(&bar).inspect_err(|e| {
            dev_err!(pdev, "cannot read the NVM: {:?}\n", e);
        })?;
        if !perm_addr.is_valid() {
            dev_err!(pdev, "invalid permanent MAC address {}\n", perm_addr);
            return Err(EIO);
        }
        hw::set_rar0(&bar, &perm_addr)?;

        dev_info!(
            pdev,
            "Intel 82576 (rev {:#x}), permanent MAC {}\n",
            pdev.revision_id(),
            perm_addr
        );

        Ok(IgbData {
            pdev,
            bar,
            perm_addr,
        })
    }

    fn unbind<'bound>(_pdev: &'bound pci::Device<Core<'_>>, this: Pin<&Self::Data<'bound>>) {
        // Leave the device as reset left it: no interrupts, no DMA.
        hw::disable_interrupts(&this.bar);
        if hw::reset(&this.bar).is_err() {
            dev_warn!(this.pdev, "MAC reset on unbind timed out\n");
        }
    }
}

impl Drop for IgbData<'_> {
    fn drop(&mut self) {
        dev_info!(self.pdev, "removed ({})\n", self.perm_addr);
    }
}

kernel::module_pci_driver! {
    type: IgbDriver,
    name: "igb_rust",
    authors: ["igb_rust developers"],
    description: "Intel(R) 82576 Gigabit Ethernet driver (Rust)",
    license: "GPL v2",
}
