// SPDX-License-Identifier: GPL-2.0

//! Intel(R) 82576 Gigabit Ethernet driver, in Rust.
//!
//! The driver is entirely safe Rust: everything it needs from the kernel
//! comes through the safe abstractions in `kernel::pci`, `kernel::io` and
//! `kernel::net`.

use kernel::{
    device::Core,
    dma::DmaMask,
    net::netdev::{self, pci::Interrupts, Config},
    pci,
    prelude::*,
    sync::Arc,
};

use core::num::NonZero; //@ sriov
use kernel::net::xdp; //@ xdp
use kernel::{net::netdev::Rtnl, sync::atomic::Atomic}; //@ sriov

mod hw;
mod hwstats; //@ stats
mod net;
mod ptp; //@ ptp
mod queue;
mod regs;
mod sriov; //@ sriov

use net::{IgbNet, MAX_MTU};
use queue::Hw;

//@ from datapath
/// Offloads the user may toggle: RX checksum and hash, TX checksum (IPv4 and IPv6, TCP and
/// UDP), scatter/gather, TSO, VLAN tag stripping and insertion.
const FEATURES: u64 = netdev::NETIF_F_RXCSUM
    | netdev::NETIF_F_RXHASH
    | netdev::NETIF_F_IP_CSUM
    | netdev::NETIF_F_IPV6_CSUM
    | netdev::NETIF_F_SG
    | netdev::NETIF_F_TSO
    | netdev::NETIF_F_TSO6
    | netdev::NETIF_F_HW_VLAN_CTAG_RX
    | netdev::NETIF_F_HW_VLAN_CTAG_TX;

/// Always on: the filter table follows the VLANs the stack adds.
const FIXED_FEATURES: u64 = netdev::NETIF_F_HW_VLAN_CTAG_FILTER;
//@ end

/// Most queue pairs the 82576 offers a PF without VMDq.
const MAX_QUEUES: u32 = 8;

/// The physical layer of an 82576 port, from its PCI device ID.
#[derive(Clone, Copy)]
enum Media {
    /// A copper PHY behind MDIO: what this driver drives.
    Copper,
    /// Fibre or SerDes (PCS link setup), which this driver does not do yet.
    Other(&'static str),
}

/// An Intel PCI device ID.
const fn id(device: u32) -> pci::DeviceId {
    pci::DeviceId::from_id(pci::Vendor::INTEL, device)
}

struct IgbDriver;

kernel::pci_device_table!(
    PCI_TABLE,
    <IgbDriver as netdev::pci::Driver>::IdInfo,
    [
        // 82576 copper: the one QEMU's `-device igb` models.
        (id(0x10c9), Media::Copper),
        // Quad-port copper, its ET2 variant, and the 82576NS copper.
        (id(0x10e8), Media::Copper),
        (id(0x1526), Media::Copper),
        (id(0x150a), Media::Copper),
        (id(0x10e6), Media::Other("fibre")),
        (id(0x10e7), Media::Other("SerDes")),
        (id(0x150d), Media::Other("SerDes")),
        (id(0x1518), Media::Other("SerDes")),
    ]
);

impl netdev::pci::Driver for IgbDriver {
    type IdInfo = Media;
    type Net<'bound> = IgbNet<'bound>;

    const ID_TABLE: pci::IdTable<Self::IdInfo> = &PCI_TABLE;
    // Descriptors and buffers take 64-bit addresses: no bounce buffers for memory above 4 GiB.
    const DMA_MASK: DmaMask = DmaMask::new::<64>();

    fn probe<'bound>(
        pdev: &'bound pci::Device<Core<'_>>,
        info: Option<&'bound Self::IdInfo>,
        registrar: netdev::pci::Registrar<'bound, '_, IgbNet<'bound>>,
    ) -> Result<netdev::pci::Registered> {
        match info {
            Some(Media::Copper) => {}
            Some(Media::Other(media)) => {
                dev_err!(
                    pdev,
                    "82576 {} port (device {:#06x}) not supported (copper only); use igb\n",
                    media,
                    pdev.device_id()
                );
                return Err(ENODEV);
            }
            None => return Err(ENODEV),
        }
        pdev.enable_device_mem()?;

        let bar = pdev.iomap_region_sized::<{ regs::BAR0_SIZE }>(0, c"igb_rust")?;

        // A copper device ID can be strapped to SGMII or SerDes by its NVM (read at power-up,
        // as C igb reads it before its first reset): this driver drives the internal PHY only.
        let mode = hw::link_mode(&bar);
        if mode != 0 {
            let media = match mode {
                1 => "1000BASE-KX",
                2 => "SGMII",
                _ => "SerDes",
            };
            dev_err!(
                pdev,
                "port strapped to {} (CTRL_EXT.LINK_MODE {}): copper only, use igb\n",
                media,
                mode
            );
            return Err(ENODEV);
        }

        hw::reset(&bar, pdev).inspect_err(|e| {
            dev_err!(pdev, "MAC reset did not complete: {:?}\n", e);
        })?;
        // Counts left by the firmware or a previous driver are not this one's.
        hw::clear_counters(&bar);
        // As C igb: a corrupt NVM means a MAC address and a configuration not to be trusted.
        hw::validate_nvm(&bar).inspect_err(|e| {
            dev_err!(
                pdev,
                "the NVM checksum is not valid ({:?}): refusing the device\n",
                e
            );
        })?;
        // DMA only for a device that reset: a previous binding may have left descriptors
        // in it that point at pages given back since.
        pdev.set_master();

        let perm_addr = hw::read_perm_addr(&bar).inspect_err(|e| {
            dev_err!(pdev, "cannot read the NVM: {:?}\n", e);
        })?;
        if !perm_addr.is_valid() {
            dev_err!(pdev, "invalid permanent MAC address {}\n", perm_addr);
            return Err(EIO);
        }
        hw::set_rar0(&bar, &perm_addr)?;
        // The interface starts down: no link until it is opened.
        if let Err(e) = hw::phy_power(&bar, false) {
            dev_warn!(pdev, "PHY not powered down: {:?}\n", e);
        }

        // Vector 0 for link and other causes, one per queue pair (8, what RSS spreads over),
        // each with its NAPI instance. With fewer MSI-X vectors, fewer queue pairs; without
        // MSI-X, one MSI or INTx interrupt for everything and one queue pair. One pair per CPU
        // is in use at first.
        //@ from ethtool
        // `ethtool -L` puts the others to use.
        //@ end
        let want = MAX_QUEUES;
        let mut registrar = registrar;
        let irqs = registrar
            .alloc_irqs(2, want + 1)
            .inspect_err(|e| dev_err!(pdev, "no interrupt: {:?}\n", e))?;
        let (nq, msix, kind) = match irqs {
            Interrupts::MsiX(n) => (n - 1, true, "fewer MSI-X"),
            Interrupts::Msi => (1, false, "MSI"),
            Interrupts::Intx => (1, false, "INTx"),
        };
        if irqs != Interrupts::MsiX(want + 1) {
            dev_info!(
                pdev,
                "{} interrupts instead of {} MSI-X vectors: {} queue pair(s)\n",
                kind,
                want + 1,
                nq
            );
        }
        let active = netdev::num_online_cpus().clamp(1, nq);
        //@ until sriov: let hw = Arc::new(Hw { bar, pdev, msix }, GFP_KERNEL)?;
        //@ from sriov
        let hw = Hw {
            bar,
            pdev,
            msix,
            vfs: Atomic::new(0),
        };
        let hw = Arc::new(hw, GFP_KERNEL)?;
        //@ end
        let config = Config {
            //@ until ethtool: ethtool: None,
            ethtool: Some(kernel::net::ethtool::table::<IgbNet<'bound>>()), //@ ethtool
            mac: perm_addr.0,
            min_mtu: 68,
            max_mtu: MAX_MTU,
            //@ until datapath: hw_features: 0,
            //@ until datapath: features: 0,
            hw_features: FEATURES,               //@ datapath
            features: FEATURES | FIXED_FEATURES, //@ datapath
            real_tx_queues: active,
            real_rx_queues: active,
            spread_irqs: true,
            //@ until stats: stats_count: 0,
            stats_count: net::stats_count(nq), //@ stats
            //@ until datapath: unicast_filter: false,
            unicast_filter: true, //@ datapath
            //@ until xdp: xdp: None,
            //@ from xdp
            xdp: Some(xdp::table::<IgbNet<'bound>>(
                xdp::Features::BASIC
                    | xdp::Features::REDIRECT
                    | xdp::Features::NDO_XMIT
                    | xdp::Features::NDO_XMIT_SG
                    //@ until xsk: | xdp::Features::RX_SG,
                    | xdp::Features::RX_SG //@ xsk
                    | xdp::Features::XSK_ZEROCOPY, //@ xsk
            )?),
            //@ end
            //@ until ptp: clock: None,
            clock: Some(kernel::ptp::ClockInfo::new(c"igb_rust", ptp::MAX_ADJ)), //@ ptp
        };
        let registered = registrar
            .register(
                nq,
                nq,
                &config,
                nq + 1,
                &mut |i| queue::vector_instance(&hw, i),
                //@ until datapath: IgbNet::new(hw.clone(), nq as u16, perm_addr),
                IgbNet::new(hw.clone(), nq as u16, active as u16, perm_addr), //@ datapath
            )
            .inspect_err(|e| dev_err!(pdev, "cannot register the interface: {:?}\n", e))?;
        // Ours from now on (`open` sets it again after each MAC reset; remove clears it).
        hw::set_driver_loaded(&hw.bar, true);
        //@ from sriov
        // The PF keeps a pool of the 8 for itself, and VFs need its MSI-X "other" vector. Set
        // once registered: a probe that fails leaves no limit behind.
        if msix && pdev.sriov_get_totalvfs().is_some() {
            if let Err(e) = pdev.sriov_set_totalvfs(sriov::MAX_VFS) {
                dev_warn!(
                    pdev,
                    "cannot limit the VFs to {}: {:?}\n",
                    sriov::MAX_VFS,
                    e
                );
            }
        }
        //@ end
        Ok(registered)
    }

    //@ from pm
    fn suspend(_pdev: &pci::Device<Core<'_>>, dev: &netdev::Device<IgbNet<'_>>) -> Result {
        // Stopped already, if it was up (which powered the PHY down); if it was down, the
        // PHY is down since `stop` or probe. The wake-up filters `ethtool -s wol` asked for
        // are armed (with the PHY up), or cleared; then the device goes back to the firmware.
        let this = dev.data();
        this.arm_wake(dev);
        hw::set_driver_loaded(&this.hw.bar, false);
        Ok(())
    }

    fn resume(pdev: &pci::Device<Core<'_>>, dev: &netdev::Device<IgbNet<'_>>) -> Result {
        // Back from a low power state the MAC may hold power-on values: start from a reset,
        // as at probe. Opening the interface again programs everything else.
        let bar = &dev.data().hw.bar;
        // The PCI core restored bus mastering (and error recovery's slot reset set it, with
        // or without a reset of the link): none until the MAC reset completes.
        let _ = hw::dma_off(pdev);
        hw::reset(bar, pdev)
            .inspect_err(|e| dev_err!(pdev, "MAC reset on resume did not complete: {:?}\n", e))?;
        hw::clear_counters(bar);
        dev.data().disarm_wake();
        hw::dma_on(pdev);
        hw::set_driver_loaded(bar, true);
        // As at probe; opening the interface (if it was up) powers it up.
        if let Err(e) = hw::phy_power(bar, false) {
            dev_warn!(pdev, "PHY not powered down: {:?}\n", e);
        }
        Ok(())
    }
    //@ end

    //@ from sriov
    const HAS_SRIOV: bool = true;

    fn sriov_configure(
        pdev: &pci::Device<Core<'_>>,
        dev: &netdev::Device<IgbNet<'_>>,
        sriov: &pci::Sriov<'_>,
        num_vfs: u16,
    ) -> Result<u16> {
        let this = dev.data();
        let Some(n) = NonZero::new(num_vfs) else {
            sriov.disable().inspect_err(|e| {
                dev_err!(pdev, "VFs assigned to guests stay enabled: {:?}\n", e);
            })?;
            // The VFs are gone: whatever happens to the PF now, none is enabled.
            match Rtnl::with_lock(|rtnl| this.set_vf_count(dev, rtnl, 0)) {
                Ok(()) => dev_info!(pdev, "SR-IOV disabled\n"),
                Err(e) => dev_err!(pdev, "SR-IOV disabled; the PF did not come up: {:?}\n", e),
            }
            return Ok(0);
        };
        if !this.hw.msix {
            dev_err!(pdev, "SR-IOV needs MSI-X\n");
            return Err(EOPNOTSUPP);
        }
        if num_vfs > sriov::MAX_VFS {
            dev_err!(pdev, "at most {} VFs\n", sriov::MAX_VFS);
            return Err(ERANGE);
        }
        // The PF moves to its pool first, without RTNL held after: the VFs' driver probes
        // while they are enabled, asks the PF through the mailbox and registers an interface.
        Rtnl::with_lock(|rtnl| this.set_vf_count(dev, rtnl, num_vfs)).inspect_err(|e| {
            dev_err!(pdev, "cannot set the PF up for {} VFs: {:?}\n", num_vfs, e);
        })?;
        if let Err(e) = sriov.enable(n) {
            dev_err!(pdev, "cannot enable {} VFs: {:?}\n", num_vfs, e);
            let _ = Rtnl::with_lock(|rtnl| this.set_vf_count(dev, rtnl, 0));
            return Err(e);
        }
        dev_info!(
            pdev,
            "{} VFs enabled; the PF uses pool {} with one queue pair\n",
            num_vfs,
            num_vfs
        );
        Ok(num_vfs)
    }
    //@ end

    fn registered(pdev: &pci::Device<Core<'_>>, dev: &netdev::Device<IgbNet<'_>>) {
        let this = dev.data();
        dev_info!(
            pdev,
            "Intel 82576 (rev {:#x}), permanent MAC {}, {} queue pairs, interface {}\n",
            pdev.revision_id(),
            this.perm_addr,
            this.nq,
            dev.name()
        );
    }
}

kernel::module_pci_driver! {
    type: netdev::pci::Adapter<IgbDriver>,
    name: "igb_rust",
    authors: ["igb_rust developers"],
    description: "Intel(R) 82576 Gigabit Ethernet driver (Rust)",
    license: "GPL v2",
}
