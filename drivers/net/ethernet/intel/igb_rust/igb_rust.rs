// SPDX-License-Identifier: GPL-2.0

//! Intel(R) 82576 Gigabit Ethernet driver, in Rust.
//!
//! The driver is entirely safe Rust: everything it needs from the kernel
//! comes through the safe abstractions in `kernel::pci`, `kernel::io` and
//! `kernel::net`.

use kernel::{
    device::Core,
    net::netdev::{self, Config},
    pci,
    prelude::*,
    sync::Arc,
};

mod hw;
mod net;
mod queue;
mod regs;

use hw::MacAddr;
use net::{IgbNet, MAX_MTU};
use queue::Hw;

/// Offloads: RX checksum and hash, TX checksum (IPv4 and IPv6, TCP and UDP).
const FEATURES: u64 = netdev::NETIF_F_RXCSUM
    | netdev::NETIF_F_RXHASH
    | netdev::NETIF_F_IP_CSUM
    | netdev::NETIF_F_IPV6_CSUM
    | netdev::NETIF_F_SG
    | netdev::NETIF_F_TSO
    | netdev::NETIF_F_TSO6;

/// Version reported by `ethtool -i`.
pub(crate) const DRV_VERSION: &str = "0.3";

/// Most queue pairs the 82576 offers a PF without VMDq.
const MAX_QUEUES: u32 = 8;

/// PCI device ID of the 82576 copper NIC (the one QEMU's `-device igb` models).
const E1000_DEV_ID_82576: u32 = 0x10c9;

/// Per-device state, alive from a successful probe until unbind.
struct IgbData<'bound> {
    pdev: &'bound pci::Device,
    /// Dropping it unregisters the interface, then resets the MAC and frees the rings.
    _netdev: netdev::Registration<IgbNet<'bound>>,
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

        let nq = netdev::num_online_cpus().clamp(1, MAX_QUEUES);
        let hw = Arc::new(Hw { bar, pdev }, GFP_KERNEL)?;
        let config = Config {
            ethtool: Some(kernel::net::ethtool::table::<IgbNet<'bound>>()),
            mac: perm_addr.0,
            min_mtu: 68,
            max_mtu: MAX_MTU,
            hw_features: FEATURES,
            features: FEATURES,
            real_tx_queues: nq,
            real_rx_queues: nq,
        };
        // `nq` is at most 8.
        let netdev = netdev::Registration::new(pdev.as_ref(), nq, nq, &config, |unreg| {
            IgbNet::new(unreg, hw, nq as u16)
        })
        .inspect_err(|e| dev_err!(pdev, "cannot register the interface: {:?}\n", e))?;

        dev_info!(
            pdev,
            "Intel 82576 (rev {:#x}), permanent MAC {}, {} queue pairs, interface {}\n",
            pdev.revision_id(),
            perm_addr,
            nq,
            netdev.device().name()
        );

        Ok(IgbData {
            pdev,
            _netdev: netdev,
            perm_addr,
        })
    }

    fn unbind<'bound>(pdev: &'bound pci::Device<Core<'_>>, _this: Pin<&Self::Data<'bound>>) {
        dev_dbg!(pdev, "unbinding\n");
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
    params: {
        bench_drop_rx: bool {
            default: false,
            description: "Benchmark only: free every received frame in the driver (RX ceiling)",
        },
    },
}
