// SPDX-License-Identifier: GPL-2.0

//! The network interface: `net_device` operations.

use kernel::{
    io::poll::read_poll_timeout,
    io::{register::Array, Io},
    irq::IrqReturn,
    net::{
        napi::Napi,
        netdev::{self, IrqDevice, Rtnl, TxRequest, XmitQueue},
    },
    prelude::*,
    sync::{
        atomic::{Atomic, Relaxed, Release},
        Arc,
    },
    time::Delta,
};

//@ from datapath
use kernel::{
    net::{
        netdev::{ExtAck, FdbAdd, MacAddress, RxMode, Stats64},
        page_pool::Layout,
        skb::{SkBuff, TxChecksum},
    },
    new_mutex,
    sync::Mutex,
    time::{Instant, Monotonic},
};
//@ end

//@ from ethtool
use kernel::net::ethtool::{
    self, Channels, Coalesce, DrvInfo, FlowType, LinkModes, LinkRequest, LinkSettings, Pause,
    PhysId, RingSizes, Ringparam, Tunable,
};
//@ end
use kernel::net::ethtool::TsInfo; //@ ptp
use kernel::net::ethtool::{PauseStats, StringSet, StringWriter}; //@ stats
use kernel::net::ethtool::{Wol, WolEvent, WolSettings}; //@ pm
use kernel::net::netdev::{HwTstampConfig, HwTstampRx, HwTstampTx}; //@ ptp
use kernel::net::netdev::{QueueStatsRx, QueueStatsTx}; //@ stats
use kernel::net::{skb::VlanTag, xdp}; //@ xdp
use kernel::{new_spinlock_irq, sync::SpinLockIrq}; //@ sriov

//@ from datapath
use crate::queue::{Role, TxQueueData, DEFAULT_RING_SIZE, RX_BUF_LEN};
//@ end
use crate::queue::{RxRing, MAX_RING_SIZE, MIN_RING_SIZE, RING_ALIGN}; //@ ethtool
use crate::{
    hw::{self, MacAddr},
    hwstats::HwStats, //@ stats
    ptp::Phc,         //@ ptp
    queue::{self, Hw, IrqOp, VectorData},
    regs,
    sriov::VfTable, //@ sriov
};

/// How long a queue may take to report itself stopped after its enable bit was cleared.
const QUEUE_STOP_TIMEOUT: Delta = Delta::from_millis(10);

/// Largest MTU: jumbo frames span several 2 KiB buffers.
pub(crate) const MAX_MTU: u32 = 9216;
//@ from link
/// Ethernet header, FCS and two VLAN tags (802.1ad outer, 802.1Q inner) on top of the MTU.
pub(crate) const FRAME_OVERHEAD: u32 = 14 + 4 + 2 * 4;
//@ end
//@ from datapath
/// A VLAN tag, which the core may push into a frame after `features_check` saw it.
const VLAN_HLEN: u32 = 4;
//@ end
//@ from datapath
/// The 802.1Q tag protocol identifier.
const ETH_P_8021Q: u32 = 0x8100;
//@ end
//@ from datapath
/// Default `rx-copybreak`: frames up to this many bytes are copied. 0 (never): in `make bench`
/// copying frames of 64..256 bytes cost 8-9% more instructions per packet than building the
/// skb around the page (a slab allocation and free more), at the same packet rate.
pub(crate) const DEFAULT_COPYBREAK: u32 = 0;
/// MTU a new Ethernet device starts with (`ether_setup()`).
const ETH_DATA_LEN: u32 = 1500;
//@ end
//@ from stats
/// Counters `ethtool -S` shows per queue pair.
const QUEUE_STATS: [&str; 22] = [
    "rx_packets",
    "rx_bytes",
    "rx_errors",
    "rx_alloc_failed",
    "rx_copybreak_packets",
    "rx_buf_frags",
    "rx_buf_pages",
    "rx_csum_good",
    "tx_packets",
    "tx_bytes",
    "tx_dropped",
    "tx_busy",
    "tx_sg_packets",
    "tx_linearized",
    "tx_tso_packets",
    "rx_xdp_drop",
    "rx_xdp_tx",
    "rx_xdp_redirect",
    "rx_xdp_aborted",
    "tx_xdp_xmit",
    "tx_xdp_errors",
    "rx_dim_updates",
];
//@ end

//@ from xdp
/// Largest MTU with an XDP program attached that does not handle frames of several buffers:
/// a frame must fit one receive buffer.
pub(crate) const XDP_MAX_MTU: u32 = RX_BUF_LEN - FRAME_OVERHEAD;
//@ end

//@ from link
/// How often the watchdog ([`netdev::Operations::service`]) runs while the interface is up.
const WATCHDOG_PERIOD: Delta = Delta::from_millis(2000);
//@ end
//@ from datapath
/// After `n` resets in a row failed, the watchdog tries again `2^(n-1)` periods later, at most
/// this many (64 s): a device that never comes back does not hold RTNL every period.
const RESET_BACKOFF_MAX: u32 = 32;
//@ end
//@ from stats
/// Device-wide counters `ethtool -S` shows after the queues'.
const DEVICE_STATS: &[&str] = &[
    "tx_timeout_count",
    "tx_hang_count",
    "reset_count",
    "device_reset_asserted",
    "tx_dma_out_of_sync",
    "rx_queue_drops",
    "tx_hwtstamp_timeouts", //@ ptp
    "tx_hwtstamp_skipped",  //@ ptp
    "rx_hwtstamp_cleared",  //@ ptp
];
//@ end

/// Interrupt throttling of the queue vectors: EITR as the C driver starts it (about 6k
/// interrupts/s on hardware; QEMU's model waits 663 us). Measured with `make bench`: fewer
/// interrupts per packet than 196 (20k/s), same packet rate.
const DEFAULT_EITR: u32 = 648;
/// [`DEFAULT_EITR`] as `ethtool -c` shows it: the interval field counts whole microseconds.
const DEFAULT_ITR_USECS: u32 = DEFAULT_EITR >> 2;
//@ from ethtool
/// Largest `rx-usecs`/`tx-usecs`: the 13-bit interval field of EITR.
const MAX_ITR_USECS: u32 = (1 << 13) - 1;
//@ end

//@ from datapath
/// Entries of the RSS redirection table (RETA).
const RSS_INDIR_LEN: usize = 128;
/// Bytes of the RSS hash key (RSSRK).
const RSS_KEY_LEN: usize = 40;

/// RSS hashes the TCP ports of IPv4 frames (`rx-flow-hash tcp4 sdfn`).
const HASH_TCP4: u32 = 1 << 0;
/// RSS hashes the UDP ports of IPv4 frames.
const HASH_UDP4: u32 = 1 << 1;
/// RSS hashes the TCP ports of IPv6 frames.
const HASH_TCP6: u32 = 1 << 2;
/// RSS hashes the UDP ports of IPv6 frames.
const HASH_UDP6: u32 = 1 << 3;
/// Addresses and TCP ports. UDP ports stay out by default: the fragments of one datagram
/// carry no ports and would land on another queue than its first part, reordering it.
const DEFAULT_L4_HASH: u32 = HASH_TCP4 | HASH_TCP6;
//@ end
//@ from ethtool
/// `rx-flow-hash` fields: the addresses alone, or with the ports.
const FIELDS_SD: u32 = ethtool::RXH_IP_SRC | ethtool::RXH_IP_DST;
const FIELDS_SDFN: u32 = FIELDS_SD | ethtool::RXH_L4_B_0_1 | ethtool::RXH_L4_B_2_3;
//@ end

//@ from link
/// Pause frames honoured (`ethtool -A rx`).
const PAUSE_RX: u32 = 1 << 0;
/// Pause frames sent (`ethtool -A tx`).
const PAUSE_TX: u32 = 1 << 1;
/// Pause frames as negotiated with the link partner, who must agree to [`PAUSE_RX`] and
/// [`PAUSE_TX`] (`ethtool -A autoneg on`).
const PAUSE_AUTONEG: u32 = 1 << 2;
//@ end

//@ from ethtool
/// The link modes the copper PHY and the MAC can do, in the order of their `AN_*` bits
/// (`hw::Advert`), with their ethtool link modes.
const LINK_MODES: [(u16, u32); 4] = [
    (hw::AN_10HALF, ethtool::LINK_MODE_10BASET_HALF),
    (hw::AN_10FULL, ethtool::LINK_MODE_10BASET_FULL),
    (hw::AN_100HALF, ethtool::LINK_MODE_100BASET_HALF),
    (hw::AN_100FULL, ethtool::LINK_MODE_100BASET_FULL),
];
//@ end
//@ from ethtool
/// What `ethtool DEV` lists as supported: the speed and duplex modes, 1000 Mb/s full duplex
/// included, autonegotiation, twisted pair and pause.
const SUPPORTED_MODES: LinkModes = LinkModes::EMPTY
    .with(ethtool::LINK_MODE_10BASET_HALF)
    .with(ethtool::LINK_MODE_10BASET_FULL)
    .with(ethtool::LINK_MODE_100BASET_HALF)
    .with(ethtool::LINK_MODE_100BASET_FULL)
    .with(ethtool::LINK_MODE_1000BASET_FULL)
    .with(ethtool::LINK_MODE_AUTONEG)
    .with(ethtool::LINK_MODE_TP)
    .with(ethtool::LINK_MODE_PAUSE)
    .with(ethtool::LINK_MODE_ASYM_PAUSE);
//@ end
//@ from link
/// `IgbNet::advertise`: 1000 Mb/s full duplex.
const ADVERTISE_1000FULL: u32 = 1 << 16;
/// `IgbNet::advertise` at probe: every mode.
const ADVERTISE_ALL: u32 =
    (hw::AN_10HALF | hw::AN_10FULL | hw::AN_100HALF | hw::AN_100FULL) as u32 | ADVERTISE_1000FULL;
/// Pause time sent in XOFF frames, in slot times: the longest, as the C driver uses.
const PAUSE_TIME: u32 = 0xffff;
//@ end

//@ from datapath
/// The RSS configuration, kept across resets and `ip link set down`.
struct Rss {
    key: [u8; RSS_KEY_LEN],
    /// Queue of each hash bucket.
    indir: [u8; RSS_INDIR_LEN],
}
//@ end

//@ from datapath
impl Rss {
    /// A random key and the buckets spread over `nq` queues.
    fn new(nq: u16) -> Self {
        let mut key = [0u8; RSS_KEY_LEN];
        netdev::rss_key_fill(&mut key);
        let mut rss = Rss {
            key,
            indir: [0; RSS_INDIR_LEN],
        };
        rss.spread(nq);
        rss
    }

    /// Spreads the buckets round-robin over `nq` queues, as the ethtool core's default table
    /// (`ethtool_rxfh_indir_default()`).
    fn spread(&mut self, nq: u16) {
        let mut q = 0u16;
        for e in self.indir.iter_mut() {
            *e = q as u8;
            q += 1;
            if q >= nq {
                q = 0;
            }
        }
    }
}
//@ end

//@ from ethtool
/// Registers in the `ethtool -d` dump (layout version 1), none of them cleared by a read: the
/// general and interrupt registers, the receive and transmit setup, then for queues 0..7 the
/// receive ring registers (RDBAL, RDBAH, RDLEN, SRRCTL, RDH, RDT, RXDCTL) and the transmit ring
/// registers (TDBAL, TDBAH, TDLEN, TDH, TDT, TXDCTL), then RETA[0..32] and RSSRK[0..10].
const REG_DUMP: [u32; REG_DUMP_LEN] = reg_dump();
const REG_DUMP_FIXED: [u32; 36] = [
    0x0000, 0x0008, 0x0018, 0x0020, 0x0028, 0x002c, 0x0030, 0x0170, // CTRL .. FCTTV
    0x00d0, 0x1514, 0x1524, 0x152c, 0x1530, // IMS, GPIE, EIMS, EIAC, EIAM
    0x0100, 0x0400, 0x0410, 0x5000, 0x5004, 0x5008, 0x5818, // RCTL .. MRQC
    0x2160, 0x2168, 0x2404, 0x3404, 0x5400, 0x5404, // FCRTL .. RAH0
    0x1680, 0x1684, 0x1688, 0x168c, 0x1690, 0x1694, 0x1698, 0x169c, 0x16a0, // EITR0..8
    0x1740, // IVAR_MISC
];
const REG_DUMP_RXQ: [u32; 7] = [0xc000, 0xc004, 0xc008, 0xc00c, 0xc010, 0xc018, 0xc028];
const REG_DUMP_TXQ: [u32; 6] = [0xe000, 0xe004, 0xe008, 0xe010, 0xe018, 0xe028];
const REG_DUMP_LEN: usize =
    REG_DUMP_FIXED.len() + 8 * (REG_DUMP_RXQ.len() + REG_DUMP_TXQ.len()) + 32 + 10;

const fn reg_dump() -> [u32; REG_DUMP_LEN] {
    let mut out = [0u32; REG_DUMP_LEN];
    let mut n = 0;
    let mut i = 0;
    while i < REG_DUMP_FIXED.len() {
        out[n] = REG_DUMP_FIXED[i];
        n += 1;
        i += 1;
    }
    let mut q = 0;
    while q < 8 {
        i = 0;
        while i < REG_DUMP_RXQ.len() {
            out[n] = REG_DUMP_RXQ[i] + 0x40 * q;
            n += 1;
            i += 1;
        }
        i = 0;
        while i < REG_DUMP_TXQ.len() {
            out[n] = REG_DUMP_TXQ[i] + 0x40 * q;
            n += 1;
            i += 1;
        }
        q += 1;
    }
    // RETA, then RSSRK.
    i = 0;
    while i < 32 + 10 {
        out[n] = if i < 32 {
            0x5c00 + 4 * i as u32
        } else {
            0x5c80 + 4 * (i - 32) as u32
        };
        n += 1;
        i += 1;
    }
    out
}
//@ end

/// The driver's private data of its net_device.
#[pin_data(PinnedDrop)]
pub(crate) struct IgbNet<'bound> {
    pub(crate) hw: Arc<Hw<'bound>>,
    /// Number of queue pairs: every one has its rings, vector and NAPI instance from probe to
    /// removal.
    pub(crate) nq: u16,
    //@ from datapath
    /// How many of them the stack uses and RSS spreads over (`ethtool -L`). The others keep
    /// their vectors and rings; their RX rings are not refilled at the end of a poll, and get
    /// no pages at all from the time the rings are built until they are put to use.
    pub(crate) active: Atomic<u32>,
    //@ end
    /// The address the NVM holds for this port.
    pub(crate) perm_addr: MacAddr,
    //@ from datapath
    /// Received frames up to this length are copied into a fresh skb (`rx-copybreak`).
    pub(crate) copybreak: Atomic<u32>,
    //@ from xdp
    /// The XDP program every RX queue runs (`ip link set dev X xdp ...`).
    pub(crate) xdp_prog: xdp::ProgSlot,
    //@ end
    /// Descriptors of every RX ring and of every TX ring (`ethtool -G`); changed under RTNL.
    rx_ring_size: Atomic<u32>,
    tx_ring_size: Atomic<u32>,
    //@ end
    //@ from stats
    /// The MAC's statistics registers, added up.
    #[pin]
    pub(crate) hw_stats: HwStats,
    //@ end
    //@ from ptp
    /// The PTP hardware clock.
    #[pin]
    pub(crate) phc: Phc,
    //@ end
    //@ from datapath
    /// Set when the stack reported a TX timeout; the watchdog resets the device.
    reset_requested: Atomic<u32>,
    /// Resets in a row that failed, and when the next may be tried (nanoseconds after
    /// `created`); both cleared when the device is brought up. Changed under RTNL only.
    reset_failures: Atomic<u32>,
    reset_not_before: Atomic<i64>,
    /// When the device was set up: the origin of `reset_not_before`.
    created: Instant<Monotonic>,
    //@ end
    //@ from link
    /// Set by the link interrupt's poll; the watchdog reports the new link state.
    pub(crate) link_event: Atomic<u32>,
    //@ end
    //@ from datapath
    /// TX timeouts the stack reported.
    tx_timeouts: Atomic<u64>,
    /// TX rings the watchdog found stuck.
    tx_hangs: Atomic<u64>,
    /// Resets done to recover.
    resets: Atomic<u64>,
    /// Device resets the hardware reported (ICR.DRSTA): firmware, a BMC or a reset of the
    /// function cleared the rings and masks behind the driver's back.
    device_resets: Atomic<u64>,
    /// DMA out-of-sync events the hardware reported (ICR.DOUTSYNC).
    dma_out_of_sync: Atomic<u64>,
    //@ end
    //@ from pm
    /// What wakes the system while it sleeps (`ethtool -s wol`), as WUFC bits; changed under
    /// RTNL.
    wol: Atomic<u32>,
    //@ end
    //@ from pm
    /// Whether this port can wake the system at all: on quad-port cards only the first can.
    wol_capable: bool,
    //@ end
    //@ from ethtool
    /// LEDCTL as it was before `ethtool -p` took the LEDs over.
    led_saved: Atomic<u32>,
    //@ end
    /// Interrupt throttling of the queue vectors, in microseconds (`rx-usecs`).
    pub(crate) itr_usecs: Atomic<u32>,
    /// Bumped after every write of the fixed interval to the vectors: polls moderating
    /// adaptively write theirs again.
    pub(crate) itr_gen: Atomic<u32>,
    //@ from datapath
    /// The queue vectors' interval follows the traffic (`adaptive-rx`, DIM).
    pub(crate) adaptive_rx: Atomic<bool>,
    /// The MTU the device's frame limit (RLPML) and the RX buffers are set up for: the
    /// device's, except while `change_mtu` rebuilds the rings for a new one. Changed under
    /// RTNL.
    rx_mtu: Atomic<u32>,
    /// The RX rings hold half-page buffers (set by `open` with the layout it gives the
    /// pools): the frame limit must then stay within [`queue::RX_HALF_MAX`]. Under RTNL.
    rx_half: Atomic<bool>,
    //@ end
    //@ from link
    /// Pause frame settings: [`PAUSE_RX`], [`PAUSE_TX`], [`PAUSE_AUTONEG`].
    pause: Atomic<u32>,
    /// The speed and duplex modes the PHY advertises (`ethtool -s advertise`): ANAR's
    /// `hw::AN_*` bits, and bit 0 of the upper half for 1000 Mb/s full duplex. Only changed
    /// under RTNL.
    advertise: Atomic<u32>,
    /// What the PHY was last told to advertise ([`IgbNet::advert`] as `hw::Advert::bits`),
    /// `u32::MAX` before the first time. Only changed under RTNL.
    advertised: Atomic<u32>,
    //@ end
    //@ from datapath
    /// Which L4 ports RSS hashes: [`HASH_TCP4`], [`HASH_UDP4`], [`HASH_TCP6`], [`HASH_UDP6`].
    l4_hash: Atomic<u32>,
    /// RSS key and redirection table (`ethtool -x`/`-X`).
    #[pin]
    rss: Mutex<Rss>,
    /// The VLANs the stack added, one bit per VLAN ID as in VFTA: the MAC reset on `stop`
    /// clears the table, `open` writes it back.
    #[pin]
    vlans: Mutex<[u32; VFTA_WORDS]>,
    //@ end
    //@ from sriov
    /// The VFs the PF serves, and its own multicast table: used by the poll of the "other"
    /// vector (the mailboxes) and under RTNL.
    #[pin]
    pub(crate) vf_table: SpinLockIrq<VfTable>,
    //@ end
}

/// How far [`IgbNet::tear_down`] goes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Teardown {
    /// Carrier off, every queue stopped, the MAC reset: for `stop` and recovery.
    Full,
    /// Every queue stopped; the MAC, its link and the carrier left alone: to swap rings.
    Rings,
}

//@ from pm
/// WUFC: wake on a link change, a magic packet, a frame to the port's address, any multicast,
/// any broadcast frame.
const WUFC_LNKC: u32 = 1 << 0;
const WUFC_MAG: u32 = 1 << 1;
const WUFC_EX: u32 = 1 << 2;
const WUFC_MC: u32 = 1 << 3;
const WUFC_BC: u32 = 1 << 4;
/// The wake-up events the 82576 offers, with their WUFC bits.
const WOL_EVENTS: [(WolEvent, u32); 5] = [
    (WolEvent::Phy, WUFC_LNKC),
    (WolEvent::Magic, WUFC_MAG),
    (WolEvent::Unicast, WUFC_EX),
    (WolEvent::Multicast, WUFC_MC),
    (WolEvent::Broadcast, WUFC_BC),
];
//@ end

//@ from ethtool
/// LEDCTL with every LED forced on, or off (mode 0xe, 0xf), for `ethtool -p`.
const LEDCTL_ALL_ON: u32 = 0x0e0e_0e0e;
const LEDCTL_ALL_OFF: u32 = 0x0f0f_0f0f;
//@ end

//@ from datapath
/// Words of the VLAN filter table: 4096 bits.
const VFTA_WORDS: usize = 128;
//@ end

//@ from datapath
/// Word `i` of the VLAN filter table the MAC gets for `bits`, the VLANs the stack added there:
/// VLAN ID 0 is always admitted, so that priority-tagged (802.1p) frames are received whether
/// or not the 8021q module added it (C igb does the same).
fn vfta_word(i: usize, bits: u32) -> u32 {
    if i == 0 {
        bits | 1
    } else {
        bits
    }
}
//@ end

/// The NAPI instances of the device: vector 0 for other causes, vector `q + 1` for queue
/// pair `q`.
fn vectors<'a, 'b>(
    dev: &'a netdev::Device<IgbNet<'b>>,
) -> impl Iterator<Item = &'a Napi<VectorData<'b>>> {
    dev.napis()
}

//@ from datapath
/// The data of the queue vectors, with their queue pair.
fn queue_vectors<'a, 'b>(
    dev: &'a netdev::Device<IgbNet<'b>>,
) -> impl Iterator<Item = (u16, &'a VectorData<'b>)> {
    dev.napis()
        .skip(1)
        .enumerate()
        .map(|(q, v)| (q as u16, v.data()))
}
//@ end

/// Sets the interrupt throttling of vector `v` (EITR): at most one interrupt per `usecs`.
pub(crate) fn throttle(bar: &hw::Bar0<'_>, v: usize, usecs: u32) -> Result {
    let eitr = regs::EITR::try_at(v).ok_or(EINVAL)?;
    bar.try_write(
        eitr,
        regs::EITR::zeroed()
            .with_cnt_ignr(true)
            .try_with_interval(usecs)?,
    )
}

fn all_eims(dev: &netdev::Device<IgbNet<'_>>) -> u32 {
    //@ until sriov: vectors(dev).fold(0, |m, v| m | v.data().eims)
    vectors(dev).fold(0, |m, v| m | v.data().eims) & dev.data().hw.pf_vectors() //@ sriov
}

impl<'bound> IgbNet<'bound> {
    pub(crate) fn new(
        hw: Arc<Hw<'bound>>,
        nq: u16,
        active: u16, //@ datapath
        perm_addr: MacAddr,
    ) -> impl PinInit<Self, Error> + 'bound {
        //@ from datapath
        let rss = Rss::new(active);
        //@ end
        //@ from pm
        // On quad-port cards only the first port can wake the system (as C igb decides).
        let quad = matches!(hw.pdev.device_id(), 0x10e8 | 0x1526);
        let wol_capable = !quad || hw::lan_id(&hw.bar) == 0;
        //@ end
        try_pin_init!(IgbNet {
            hw,
            nq,
            perm_addr,
            link_event: Atomic::new(0), //@ link
            hw_stats <- HwStats::new(), //@ stats
            phc <- Phc::new(), //@ ptp
            //@ from datapath
            active: Atomic::new(u32::from(active)),
            copybreak: Atomic::new(DEFAULT_COPYBREAK),
            rx_ring_size: Atomic::new(DEFAULT_RING_SIZE),
            tx_ring_size: Atomic::new(DEFAULT_RING_SIZE),
            reset_requested: Atomic::new(0),
            reset_failures: Atomic::new(0),
            reset_not_before: Atomic::new(0),
            created: Instant::now(),
            tx_timeouts: Atomic::new(0),
            tx_hangs: Atomic::new(0),
            resets: Atomic::new(0),
            device_resets: Atomic::new(0),
            dma_out_of_sync: Atomic::new(0),
            adaptive_rx: Atomic::new(false),
            rx_mtu: Atomic::new(ETH_DATA_LEN),
            rx_half: Atomic::new(false),
            l4_hash: Atomic::new(DEFAULT_L4_HASH),
            rss <- new_mutex!(rss, "igb_rust_rss"),
            vlans <- new_mutex!([0; VFTA_WORDS], "igb_rust_vlans"),
            //@ end
            xdp_prog: xdp::ProgSlot::new(), //@ xdp
            wol: Atomic::new(0), //@ pm
            wol_capable, //@ pm
            led_saved: Atomic::new(0), //@ ethtool
            itr_usecs: Atomic::new(DEFAULT_ITR_USECS),
            itr_gen: Atomic::new(0),
            //@ from link
            // What the link partner agrees to, as C igb: forced pause would be honoured
            // before the duplex and the partner are known.
            pause: Atomic::new(PAUSE_RX | PAUSE_TX | PAUSE_AUTONEG),
            advertise: Atomic::new(ADVERTISE_ALL),
            advertised: Atomic::new(u32::MAX),
            //@ end
            vf_table <- new_spinlock_irq!(VfTable::new(), "igb_rust_vfs"), //@ sriov
        }? Error)
    }

    /// The device's queue (its register block) for queue pair `q`, if the device is to read
    /// it: `q` itself.
    //@ from sriov
    /// With VFs, the first queue of the PF's pool for pair 0, and none for the others.
    //@ end
    fn queue_reg(&self, q: u16) -> Option<u16> {
        //@ until sriov: Some(q)
        //@ from sriov
        match self.vf_count() {
            0 => Some(q),
            n => (q == 0).then_some(n),
        }
        //@ end
    }

    //@ from datapath
    /// Receive address slots for the PF's secondary unicast addresses, from slot 1 on.
    //@ from sriov
    /// The VFs take theirs from the last down.
    //@ end
    fn uc_slots(&self) -> usize {
        //@ until sriov: hw::UC_SLOTS
        hw::UC_SLOTS - usize::from(self.vf_count()) //@ sriov
    }

    /// Puts secondary unicast address `a` in receive address slot `i`.
    //@ from sriov
    /// With VFs, in the PF's pool.
    //@ end
    fn set_uc_rar(&self, i: usize, a: &[u8; 6]) -> Result {
        hw::set_rar(&self.hw.bar, i, Some(a))?;
        //@ until sriov: Ok(())
        self.set_pf_pool(i) //@ sriov
    }
    //@ end

    /// The vectors that serve queues: 1..=nq with MSI-X, the single vector 0 otherwise.
    fn queue_vector_range(&self) -> core::ops::RangeInclusive<usize> {
        if self.hw.msix {
            //@ until sriov: 1..=usize::from(self.nq)
            1..=self.max_pairs() as usize //@ sriov
        } else {
            0..=0
        }
    }

    /// Programs the interrupt throttling of every queue vector from `itr_usecs`. With
    /// `adaptive-rx`, each vector's next completed poll writes DIM's interval over it.
    fn apply_itr(&self) -> Result {
        let usecs = self.itr_usecs.load(Relaxed);
        let r = self
            .queue_vector_range()
            .try_for_each(|v| throttle(&self.hw.bar, v, usecs));
        // The writes have reached the device before a poll can see the new count below (a
        // read flushes posted writes); also after a partial failure.
        let _ = self.hw.bar.read(regs::STATUS);
        // Paired with the polls' load: one that sees the new count sees the writes above.
        self.itr_gen.fetch_add(1, Release);
        r
    }

    //@ from link
    //@ until datapath: /// Acts on the causes vector 0's poll found in ICR (already acknowledged): a link
    //@ until datapath: /// change is the watchdog's to report. Any context.
    //@ from datapath
    /// Acts on the causes vector 0's poll found in ICR (already acknowledged): a link change
    /// is the watchdog's to report, and so is a device reset, which cleared the rings and the
    /// interrupt masks (nothing else would notice on an idle or receive-only port: the hang
    /// check needs frames pending); DMA out of sync is counted. Any context.
    //@ end
    pub(crate) fn other_causes(&self, dev: &netdev::Device<Self>, icr: u32) {
        //@ from sriov
        // A VF's mailbox: answered here, in the second its driver waits. Nothing for the
        // watchdog, unless another cause came with it.
        if icr & queue::ICR_VMMB != 0 {
            self.serve_mailboxes();
            if icr & queue::ICR_OTHER == 0 {
                return;
            }
        }
        //@ end
        //@ from datapath
        if icr & queue::ICR_DRSTA != 0 {
            self.device_resets.add(1, Relaxed);
            self.reset_requested.store(1, Relaxed);
        }
        if icr & queue::ICR_DOUTSYNC != 0 {
            self.dma_out_of_sync.add(1, Relaxed);
        }
        //@ end
        // Also when no cause is known (vector 0 fired for nothing): the link is looked at.
        if icr & queue::ICR_LSC != 0 || icr & queue::ICR_OTHER == 0 {
            self.link_event.store(1, Relaxed);
        }
        dev.kick_service();
    }
    //@ end

    //@ from pm
    /// Before the system sleeps or powers off, with the interface stopped: arms the wake-up
    /// filters `ethtool -s wol` asked for (the MAC receives again, with the port's address and
    /// the PHY up, the rings stay off) or, with none, clears WUC and WUFC, which firmware or
    /// an earlier driver may have left armed.
    pub(crate) fn arm_wake(&self, dev: &netdev::Device<Self>) {
        let bar = &self.hw.bar;
        let wufc = self.wol.load(Relaxed);
        if wufc == 0 {
            bar.write_reg(regs::WUC::zeroed());
            bar.write_reg(regs::WUFC::zeroed());
            return;
        }
        let r = (|| -> Result {
            hw::set_rar0(bar, &MacAddr(dev.dev_addr()))?;
            bar.write_reg(
                regs::RCTL::zeroed()
                    .with_en(true)
                    .with_bam(true)
                    .with_mpe(wufc & WUFC_MC != 0),
            );
            bar.update(regs::CTRL, |c| c.with_advd3wuc(true));
            // `stop` powered the PHY down: the link must come up to see any frame.
            hw::phy_power(bar, true)?;
            hw::start_link(bar, self.advert())
        })();
        if let Err(e) = r {
            dev_warn!(
                self.hw.pdev,
                "{}: wake-up link not set up: {:?}\n",
                dev.name(),
                e
            );
        }
        bar.write_reg(regs::WUC::zeroed().with_pme_en(true));
        bar.write_reg(regs::WUFC::zeroed().with_bits(wufc));
    }
    //@ end

    //@ from pm
    /// After a wake-up: the wake-up filters are off and what woke the system is acknowledged
    /// (WUS is written back, its bits are cleared by a write of 1).
    pub(crate) fn disarm_wake(&self) {
        let bar = &self.hw.bar;
        bar.write_reg(regs::WUC::zeroed());
        bar.write_reg(regs::WUFC::zeroed());
        let wus = bar.read(regs::WUS);
        if wus.bits().get() != 0 {
            bar.write_reg(wus);
        }
    }
    //@ end

    //@ from ethtool
    /// The offline self-tests (`ethtool -t offline`): registers, NVM, interrupt, as 0 for
    /// passed. The interface, if up, is stopped for them (queues, DMA, MAC) and opened again
    /// afterwards, detached meanwhile; the MAC is reset after them, whatever they wrote.
    fn offline_tests(&self, dev: &netdev::Device<Self>, rtnl: &mut Rtnl) -> [u64; 3] {
        let running = dev.is_running();
        if running {
            dev.detach(rtnl);
            let _ = self.tear_down(dev, rtnl, Teardown::Full);
        }
        let bar = &self.hw.bar;
        let regs = u64::from(!hw::test_registers(bar));
        let nvm = u64::from(hw::validate_nvm(bar).is_err());
        // The interrupt lines are the open interface's: without them there is nothing to
        // test, and nothing fails.
        let irq = if running {
            u64::from(!self.test_interrupt(dev))
        } else {
            0
        };
        self.hw_stats.freeze(bar); //@ stats
        if hw::reset(bar, self.hw.pdev).is_err() {
            // Not known to be stopped: `bring_up` resets it again before it gets DMA back.
            let _ = hw::dma_off(self.hw.pdev);
        }
        // The reset leaves the filters as the test left them: test patterns in receive
        // addresses still marked valid.
        let _ = hw::clear_filters(bar);
        if running {
            // Opened again, or left to the watchdog as after a failed reset.
            let _ = self.resume(dev, rtnl, true);
        }
        [regs, nvm, irq]
    }
    //@ end

    //@ from ethtool
    /// Fires vector 0 with its interrupt unmasked, then masked: it must arrive once, not
    /// twice. The interface's lines are requested; its instances are disabled (torn down).
    fn test_interrupt(&self, dev: &netdev::Device<Self>) -> bool {
        let bar = &self.hw.bar;
        if self.configure_interrupts(dev).is_err() {
            return false;
        }
        let Some(other) = dev.napi(0) else {
            return false;
        };
        let v = other.data();
        let seen = || v.irqs.load(Relaxed);
        // With a single interrupt, the vector's bits are its causes: only the link's is
        // fired, which asks nothing of the watchdog but a look at the link.
        let bits = if self.hw.msix { v.eims } else { queue::ICR_LSC };
        let fire = || self.hw.vector_irqs(IrqOp::Fire, bits);
        let before = seen();
        self.hw.vector_irqs(IrqOp::Unmask, bits);
        fire();
        let arrived = read_poll_timeout(
            || Ok(seen()),
            |&n| n != before,
            Delta::from_millis(1),
            Delta::from_millis(100),
        )
        .is_ok();
        // The handler masked it; a masked vector must stay quiet.
        self.hw.vector_irqs(IrqOp::Mask, bits);
        let after = seen();
        fire();
        kernel::time::delay::fsleep(Delta::from_millis(10));
        let quiet = seen() == after;
        hw::disable_interrupts(bar);
        arrived && quiet
    }
    //@ end

    //@ from ethtool
    /// Restarts autonegotiation with what [`IgbNet::advert`] says now. The link goes down and
    /// comes back, reported by the link status interrupt; flow control is settled again then.
    fn renegotiate(&self, dev: &netdev::Device<Self>) -> Result {
        dev.carrier_off();
        self.start_link()
    }
    //@ end

    //@ from link
    /// Starts link negotiation with what [`IgbNet::advert`] says now.
    fn start_link(&self) -> Result {
        let adv = self.advert();
        hw::start_link(&self.hw.bar, adv)?;
        self.advertised.store(adv.bits(), Relaxed);
        Ok(())
    }
    //@ end

    //@ from link
    /// What the PHY advertises: the speed and duplex modes of `advertise`, and the pause
    /// abilities that ask for `pause`'s directions (IEEE 802.3 annex 28B: both directions is
    /// symmetric pause; receive only, symmetric and asymmetric; send only, asymmetric).
    pub(crate) fn advert(&self) -> hw::Advert {
        let adv = self.advertise.load(Relaxed);
        let pause = self.pause.load(Relaxed);
        let fc = match (pause & PAUSE_RX != 0, pause & PAUSE_TX != 0) {
            (true, true) => hw::AN_PAUSE,
            (true, false) => hw::AN_PAUSE | hw::AN_ASYM_PAUSE,
            (false, true) => hw::AN_ASYM_PAUSE,
            (false, false) => 0,
        };
        hw::Advert {
            // The mask keeps the ANAR bits: this cannot truncate.
            anar: (adv & 0xffff) as u16 | fc,
            gig_full: adv & ADVERTISE_1000FULL != 0,
        }
    }
    //@ end

    //@ from link
    /// The pause directions in use: the forced ones, or, with `ethtool -A autoneg on` (the
    /// default), what the link partner agreed to (IEEE 802.3 table 28B-3); none before the
    /// link is up, and none at half duplex, where 802.3x pause does not exist (forced or
    /// not).
    fn resolve_fc(&self) -> Result<(bool, bool)> {
        let pause = self.pause.load(Relaxed);
        let (rx, tx) = (pause & PAUSE_RX != 0, pause & PAUSE_TX != 0);
        let bar = &self.hw.bar;
        if !hw::link_up(bar) || !hw::link_full_duplex(bar) {
            return Ok((false, false));
        }
        if pause & PAUSE_AUTONEG == 0 {
            return Ok((rx, tx));
        }
        // Best effort: a PHY the firmware holds reads as a partner without pause.
        let Some((lpa, _)) = hw::link_partner(bar).ok().flatten() else {
            return Ok((false, false));
        };
        let ours = self.advert().anar;
        let sym = |a: u16| a & hw::AN_PAUSE != 0;
        let asym = |a: u16| a & hw::AN_ASYM_PAUSE != 0;
        Ok(if sym(ours) && sym(lpa) {
            // Both can pause symmetrically; receive only if that is all we asked for.
            (true, tx)
        } else if !sym(ours) && asym(ours) && sym(lpa) && asym(lpa) {
            (false, true)
        } else if sym(ours) && asym(ours) && !sym(lpa) && asym(lpa) {
            (true, false)
        } else {
            (false, false)
        })
    }
    //@ end

    //@ from link
    /// Programs flow control: pause frames honoured and/or sent as [`IgbNet::resolve_fc`]
    /// says, with the receive buffer thresholds that trigger XOFF and XON.
    ///
    /// Autonegotiation completing sets CTRL.RFCE/TFCE to what the MAC resolved, so this runs
    /// again on every link up to keep the forced setting or apply the negotiated one.
    pub(crate) fn configure_fc(&self) -> Result {
        let bar = &self.hw.bar;
        let (rx, tx) = self.resolve_fc()?;
        // Where pause frames go and what they look like (IEEE 802.3x).
        bar.write_reg(regs::FCAL::zeroed().with_addr(0x00c2_8001u32));
        bar.write_reg(regs::FCAH::zeroed().try_with_addr(0x0100u32)?);
        bar.write_reg(regs::FCT::zeroed().try_with_ethertype(0x8808u32)?);
        bar.write_reg(regs::FCTTV::zeroed().try_with_ttv(PAUSE_TIME)?);
        if tx {
            // XOFF once the buffer holds 90% or leaves room for fewer than two largest
            // frames; XON 16 bytes below.
            let kib = match bar.read(regs::RXPBS).size().get() {
                0 => 64,
                k => k,
            };
            let size = kib * 1024;
            let high = (size * 9 / 10).min(size - 2 * (MAX_MTU + FRAME_OVERHEAD)) & !0xf;
            bar.write_reg(
                regs::FCRTL::zeroed()
                    .with_xone(true)
                    .try_with_rtl(high - 16)?,
            );
            bar.write_reg(regs::FCRTH::zeroed().try_with_rth(high)?);
        } else {
            bar.write_reg(regs::FCRTL::zeroed());
            bar.write_reg(regs::FCRTH::zeroed());
        }
        bar.update(regs::CTRL, |c| c.with_rfce(rx).with_tfce(tx));
        Ok(())
    }
    //@ end

    //@ from datapath
    /// Programs VLAN handling: the tag protocol, stripping as `features` asks, the filter
    /// table from `vlans`. Filtering itself follows the receive mode (off when promiscuous).
    fn configure_vlan(&self, features: u64) -> Result {
        let bar = &self.hw.bar;
        bar.write_reg(
            regs::VET::zeroed()
                .try_with_vet(ETH_P_8021Q)?
                .try_with_ext(ETH_P_8021Q)?,
        );
        bar.update(regs::CTRL, |c| {
            c.with_vme(features & netdev::NETIF_F_HW_VLAN_CTAG_RX != 0)
        });
        for (i, w) in self.vlans.lock().iter().enumerate() {
            bar.try_write(
                regs::VFTA::try_at(i).ok_or(EINVAL)?,
                regs::VFTA::zeroed().with_bits(vfta_word(i, *w)),
            )?;
        }
        //@ from sriov
        // With VFs the PF's pool strips tags as CTRL.VME says.
        self.pool_frame(self.rx_mtu.load(Relaxed).saturating_add(FRAME_OVERHEAD))?;
        //@ end
        Ok(())
    }
    //@ end

    //@ from datapath
    /// Adds or removes VLAN `vid` in the filter table, and in the hardware's.
    fn set_vlan(&self, vid: u16, on: bool) -> Result {
        let (word, bit) = (usize::from(vid / 32), 1u32 << (vid % 32));
        let mut vlans = self.vlans.lock();
        let w = vlans.get_mut(word).ok_or(EINVAL)?;
        if on {
            *w |= bit;
        } else {
            *w &= !bit;
        }
        // Written up or down: the MAC keeps the table until its next reset.
        self.hw.bar.try_write(
            regs::VFTA::try_at(word).ok_or(EINVAL)?,
            regs::VFTA::zeroed().with_bits(vfta_word(word, *w)),
        )
    }
    //@ end

    /// Routes every cause to its vector and sets throttling.
    fn configure_interrupts(&self, dev: &netdev::Device<Self>) -> Result {
        let bar = &self.hw.bar;
        if !self.hw.msix {
            // One interrupt for everything: the causes in ICR tell the vectors apart.
            bar.write_reg(regs::GPIE::zeroed().with_nsicr(true));
            return self.apply_itr();
        }
        // GPIE first: the E-registers are masked differently in MSI-X mode.
        bar.write_reg(
            regs::GPIE::zeroed()
                .with_nsicr(true)
                .with_msix_mode(true)
                .with_eiame(true)
                .with_pba(true),
        );
        // Other causes go to vector 0. So does the TCP timer, which is never started: QEMU's
        // model reports a device reset (ICR.DRSTA) through its entry.
        bar.write_reg(
            regs::IVAR_MISC::zeroed()
                .with_other_valid(true)
                .try_with_other(0u32)?
                .with_timer_valid(true)
                .try_with_timer(0u32)?,
        );
        // Each queue pair's vector serves the device's queue it is programmed into.
        for (q, r) in (0..self.nq).filter_map(|q| Some((q, self.queue_reg(q)?))) {
            let (v, r) = (u32::from(q) + 1, usize::from(r));
            let row = || regs::IVAR::try_at(r % 8).ok_or(EINVAL);
            let cur = bar.try_read(row()?)?;
            let new = if r < 8 {
                cur.with_rx_valid(true)
                    .try_with_rx(v)?
                    .with_tx_valid(true)
                    .try_with_tx(v)?
            } else {
                cur.with_rx_hi_valid(true)
                    .try_with_rx_hi(v)?
                    .with_tx_hi_valid(true)
                    .try_with_tx_hi(v)?
            };
            bar.try_write(row()?, new)?;
        }
        self.apply_itr()?;
        // Every vector, the "other" one included, clears its cause when it fires. A cause
        // left set would fire again each time the poll unmasks its vector: an interrupt storm.
        bar.write_reg(regs::EIAC::zeroed().with_mask(all_eims(dev)));
        Ok(())
    }

    fn enable_interrupts(&self, dev: &netdev::Device<Self>) {
        let bar = &self.hw.bar;
        let _ = bar.read(regs::ICR);
        self.hw.vector_irqs(IrqOp::Unmask, all_eims(dev));
        //@ from link
        if self.hw.msix {
            // The other causes, which reach vector 0: the link, and a device reset or DMA
            // out of sync, which the driver recovers from.
            bar.write_reg(
                regs::IMS::zeroed()
                    .with_lsc(true)
                    .with_drsta(true)
                    .with_doutsync(true),
            );
        }
        //@ end
        //@ from sriov
        // The VFs' mailboxes, served by the poll of the "other" vector.
        if self.vf_count() > 0 {
            bar.write_reg(regs::IMS::zeroed().with_vmmb(true));
        }
        //@ end
    }

    //@ from datapath
    fn configure_rss(&self) -> Result {
        let bar = &self.hw.bar;
        bar.write_reg(
            regs::RXCSUM::zeroed()
                .with_pcsd(true)
                .with_ipofl(true)
                .with_tuofl(true),
        );
        self.apply_rss(&self.rss.lock())
    }
    //@ end

    //@ from datapath
    /// Spreads received frames over the queues in use with `rss`. With one queue every bucket
    /// is queue 0, but RSS stays on, as in C igb: the hash still reaches the stack and XDP.
    fn apply_rss(&self, rss: &Rss) -> Result {
        self.write_rss(rss)?;
        self.write_mrqc()
    }
    //@ end

    //@ from datapath
    /// Turns RSS on, hashing the addresses and the ports `l4_hash` names.
    fn write_mrqc(&self) -> Result {
        let l4 = self.l4_hash.load(Relaxed);
        //@ until sriov: let mrqe = 2u32;
        //@ from sriov
        // With VFs, frames are sorted into pools (VMDq) and the PF's pool has one queue.
        let mrqe = if self.vf_count() > 0 { 3u32 } else { 2 };
        //@ end
        self.hw.bar.write_reg(
            regs::MRQC::zeroed()
                .try_with_mrqe(mrqe)?
                .with_ipv4(true)
                .with_tcp4(l4 & HASH_TCP4 != 0)
                .with_udp4(l4 & HASH_UDP4 != 0)
                .with_ipv6(true)
                .with_ipv6_ex(true)
                .with_tcp6(l4 & HASH_TCP6 != 0)
                .with_tcp6_ex(l4 & HASH_TCP6 != 0)
                .with_udp6(l4 & HASH_UDP6 != 0),
        );
        Ok(())
    }
    //@ end

    //@ from datapath
    /// Writes the RSS key and redirection table; the table is all queue 0 while fewer than two
    /// queues are in use.
    fn write_rss(&self, rss: &Rss) -> Result {
        let bar = &self.hw.bar;
        let one = self.active.load(Relaxed) < 2;
        for (i, k) in rss.key.chunks_exact(4).enumerate() {
            let w = u32::from_le_bytes([k[0], k[1], k[2], k[3]]);
            bar.try_write(
                regs::RSSRK::try_at(i).ok_or(EINVAL)?,
                regs::RSSRK::zeroed().with_key(w),
            )?;
        }
        for (r, e) in rss.indir.chunks_exact(4).enumerate() {
            bar.try_write(
                regs::RETA::try_at(r).ok_or(EINVAL)?,
                regs::RETA::zeroed().with_entries(if one {
                    0
                } else {
                    u32::from_le_bytes([e[0], e[1], e[2], e[3]])
                }),
            )?;
        }
        Ok(())
    }
    //@ end

    //@ from datapath
    fn set_max_frame(&self, mtu: u32) -> Result {
        let len = mtu.saturating_add(FRAME_OVERHEAD);
        // The device would write past a half-page buffer.
        if self.rx_half.load(Relaxed) && len > queue::RX_HALF_MAX {
            return Err(EINVAL);
        }
        self.hw
            .bar
            .write_reg(regs::RLPML::zeroed().try_with_len(len)?);
        //@ from sriov
        // With VFs the PF's pool has a limit of its own, and the device's is the VFs' largest.
        if self.vf_count() > 0 {
            self.hw
                .bar
                .write_reg(regs::RLPML::zeroed().try_with_len(crate::sriov::MAX_VF_FRAME)?);
            self.pool_frame(len)?;
        }
        //@ end
        Ok(())
    }

    /// Whether the RX buffers for `mtu` (and `xdp`: a program attached) are whole pages:
    /// frames longer than a half-page buffer takes span several 2 KiB buffers, and XDP
    /// programs see whole pages only.
    fn rx_whole_pages(mtu: u32, xdp: bool) -> bool {
        xdp || mtu.saturating_add(FRAME_OVERHEAD) > queue::RX_HALF_MAX || queue::RX_HALF.is_none()
    }

    /// Whether an XDP program is attached (never before the XDP step).
    fn xdp_attached(&self, rtnl: &Rtnl) -> bool {
        //@ until xdp: let _ = (self, rtnl);
        //@ until xdp: false
        self.xdp_prog.has_frags(rtnl).is_some() //@ xdp
    }

    /// The layout of the RX buffers `open` posts, for the MTU the device is set up for.
    fn rx_layout(&self, rtnl: &Rtnl) -> Result<Layout> {
        let whole = Self::rx_whole_pages(self.rx_mtu.load(Relaxed), self.xdp_attached(rtnl));
        let layout = if whole {
            queue::RX_WHOLE
        } else {
            queue::RX_HALF
        };
        layout.ok_or(EINVAL)
    }

    /// Runs `f`, then rebuilds the RX rings with buffers of the layout it leaves
    /// ([`Self::rx_layout`]), the device stopped meanwhile if it is running (its link and
    /// carrier kept, as for `ethtool -G`). `f` runs whether or not the rebuild can be done;
    /// an error means the device is down, waiting for the watchdog's reset.
    fn with_rx_rebuild(
        &self,
        dev: &netdev::Device<Self>,
        rtnl: &mut Rtnl,
        f: impl FnOnce(&Self, &Rtnl),
    ) -> Result {
        if !dev.is_running() {
            f(self, &*rtnl);
            return Ok(());
        }
        dev.detach(rtnl);
        if let Err(e) = self.tear_down(dev, rtnl, Teardown::Rings) {
            // DMA is off: `resume` resets the MAC first, and the device comes back as `f`
            // leaves it.
            dev_warn!(
                self.hw.pdev,
                "{}: RX rebuild: the queues did not stop ({:?}), MAC reset\n",
                dev.name(),
                e
            );
        }
        f(self, &*rtnl);
        self.resume(dev, rtnl, false)
    }
    //@ end

    //@ from datapath
    /// Programs TX queue `q` with the ring at `base` of `size` descriptors, empty, the device
    /// to start at descriptor `head`.
    fn configure_tx_ring(&self, q: u16, base: u64, size: u32, head: u32) -> Result {
        let bar = &self.hw.bar;
        let q = usize::from(q);
        bar.try_write(
            regs::TXDCTL::try_at(q).ok_or(EINVAL)?,
            regs::TXDCTL::zeroed(),
        )?;
        bar.try_write(
            regs::TDBAL::try_at(q).ok_or(EINVAL)?,
            regs::TDBAL::zeroed().with_addr(base as u32),
        )?;
        bar.try_write(
            regs::TDBAH::try_at(q).ok_or(EINVAL)?,
            regs::TDBAH::zeroed().with_addr((base >> 32) as u32),
        )?;
        bar.try_write(
            regs::TDLEN::try_at(q).ok_or(EINVAL)?,
            regs::TDLEN::zeroed().try_with_len(size * 16)?,
        )?;
        let head = u16::try_from(head)?;
        bar.try_write(
            regs::TDH::try_at(q).ok_or(EINVAL)?,
            regs::TDH::zeroed().with_head(head),
        )?;
        bar.try_write(
            regs::TDT::try_at(q).ok_or(EINVAL)?,
            regs::TDT::zeroed().with_tail(head),
        )?;
        bar.try_write(
            regs::TXDCTL::try_at(q).ok_or(EINVAL)?,
            regs::TXDCTL::zeroed()
                .with_enable(true)
                .try_with_pthresh(8u32)?
                .try_with_hthresh(1u32)?
                .try_with_wthresh(1u32)?,
        )?;
        Ok(())
    }
    //@ end

    //@ from datapath
    /// Whether a ring without free descriptors drops what reaches it (SRRCTL.DROP_EN). With
    /// several queue pairs a full ring would otherwise hold up the others' frames in the
    /// packet buffer; but with pause frames asked for, the frames stay in the buffer until it
    /// sends XOFF, which dropping would never let happen (as C igb decides).
    fn drop_en(&self) -> bool {
        self.nq > 1 && self.pause.load(Relaxed) & PAUSE_RX == 0
    }
    //@ end

    //@ from ethtool
    /// Writes [`IgbNet::drop_en`] to every RX queue, e.g. after `ethtool -A`.
    fn apply_drop_en(&self) -> Result {
        let drop = self.drop_en();
        for q in (0..self.nq)
            .filter_map(|q| self.queue_reg(q))
            .map(usize::from)
        {
            let loc = || regs::SRRCTL::try_at(q).ok_or(EINVAL);
            let cur = self.hw.bar.try_read(loc()?)?;
            self.hw.bar.try_write(loc()?, cur.with_drop_en(drop))?;
        }
        Ok(())
    }
    //@ end

    //@ from datapath
    //@ until xsk: fn configure_rx_ring(&self, q: u16, base: u64, size: u32) -> Result {
    //@ from xsk
    fn configure_rx_ring(&self, q: u16, base: u64, size: u32, buf_len: u32) -> Result {
        //@ end
        let bar = &self.hw.bar;
        let q = usize::from(q);
        bar.try_write(
            regs::RXDCTL::try_at(q).ok_or(EINVAL)?,
            regs::RXDCTL::zeroed(),
        )?;
        bar.try_write(
            regs::RDBAL::try_at(q).ok_or(EINVAL)?,
            regs::RDBAL::zeroed().with_addr(base as u32),
        )?;
        bar.try_write(
            regs::RDBAH::try_at(q).ok_or(EINVAL)?,
            regs::RDBAH::zeroed().with_addr((base >> 32) as u32),
        )?;
        bar.try_write(
            regs::RDLEN::try_at(q).ok_or(EINVAL)?,
            regs::RDLEN::zeroed().try_with_len(size * 16)?,
        )?;
        bar.try_write(
            regs::SRRCTL::try_at(q).ok_or(EINVAL)?,
            regs::SRRCTL::zeroed()
                .try_with_desctype(1u32)?
                //@ until xsk: .try_with_bsizepacket(RX_BUF_LEN >> 10)?
                .try_with_bsizepacket(buf_len >> 10)? //@ xsk
                .with_drop_en(self.drop_en()),
        )?;
        bar.try_write(regs::RDH::try_at(q).ok_or(EINVAL)?, regs::RDH::zeroed())?;
        bar.try_write(regs::RDT::try_at(q).ok_or(EINVAL)?, regs::RDT::zeroed())?;
        bar.try_write(
            regs::RXDCTL::try_at(q).ok_or(EINVAL)?,
            regs::RXDCTL::zeroed()
                .with_enable(true)
                .try_with_pthresh(8u32)?
                .try_with_hthresh(8u32)?
                .try_with_wthresh(1u32)?,
        )?;
        Ok(())
    }
    //@ end

    /// Stops RX and TX DMA, masks every interrupt, and with [`Teardown::Full`] (or when a queue
    /// does not stop) resets the MAC: afterwards no descriptor write-back or received frame can
    /// reach the rings' memory. `ETIMEDOUT` if the reset did not complete; bus mastering is
    /// then off, so that the same holds.
    fn quiesce(&self, mode: Teardown) -> Result {
        let mut r = Ok(());
        let bar = &self.hw.bar;
        bar.update(regs::RCTL, |r| r.with_en(false));
        bar.update(regs::TCTL, |t| t.with_en(false));
        //@ until sriov: hw::disable_interrupts(bar);
        //@ from sriov
        // The VFs' vectors are theirs.
        bar.write_reg(regs::IMC::zeroed().with_mask(u32::MAX));
        bar.write_reg(regs::EIMC::zeroed().with_mask(self.hw.pf_vectors()));
        let _ = bar.read(regs::ICR);
        //@ end
        // The device's queues the PF programmed.
        let regs_used = || {
            (0..self.nq)
                .filter_map(|q| self.queue_reg(q))
                .map(usize::from)
        };
        for q in regs_used() {
            if let Some(loc) = regs::RXDCTL::try_at(q) {
                let _ = bar.try_write(loc, regs::RXDCTL::zeroed());
            }
            if let Some(loc) = regs::TXDCTL::try_at(q) {
                let _ = bar.try_write(loc, regs::TXDCTL::zeroed());
            }
        }
        // A queue stops once its pending descriptor work is done: wait until each reports
        // its enable bit clear.
        for q in regs_used() {
            let stopped = read_poll_timeout(
                || {
                    let rx = bar.try_read(regs::RXDCTL::try_at(q).ok_or(EINVAL)?)?;
                    let tx = bar.try_read(regs::TXDCTL::try_at(q).ok_or(EINVAL)?)?;
                    Ok(!rx.enable() && !tx.enable())
                },
                |&off| off,
                Delta::from_micros(100),
                QUEUE_STOP_TIMEOUT,
            );
            if stopped.is_err() {
                dev_warn!(self.hw.pdev, "queue {} did not stop\n", q);
                r = Err(ETIMEDOUT);
            }
        }
        if mode == Teardown::Rings && r.is_ok() {
            return r;
        }
        // The reset stops whatever is left before the buffers are given back (a queue that
        // did not stop too).
        //@ from stats
        // It also clears the statistics registers: collect them first.
        self.hw_stats.freeze(bar);
        //@ end
        r = hw::reset(bar, self.hw.pdev);
        if r.is_err() {
            // Nothing confirmed that the device stopped: it may still write to the buffers
            // about to be given back. Without bus mastering it cannot; `bring_up` turns it
            // on again once a reset completes.
            if hw::dma_off(self.hw.pdev) {
                dev_err!(
                    self.hw.pdev,
                    "MAC reset on stop timed out: DMA off until the interface is brought up\n"
                );
            } else {
                dev_err!(
                    self.hw.pdev,
                    "MAC reset on stop timed out: the device does not answer\n"
                );
            }
        }
        r
    }

    /// Programs the device and starts its queues. `fresh`: the MAC was reset since it last
    /// ran (`open`, recovery), so what a MAC reset leaves as it was is set up again too: the
    /// PHY, forced speed and duplex, the receive filters.
    fn bring_up(&self, dev: &netdev::Device<Self>, rtnl: &mut Rtnl, fresh: bool) -> Result {
        let bar = &self.hw.bar;
        // A stop that the device did not confirm took its DMA away. It gets it back once a
        // MAC reset completes: the device then holds nothing of the old rings (descriptors it
        // fetched still point at pages given back since).
        if !hw::dma_is_on(self.hw.pdev) {
            //@ from stats
            // The reset clears the statistics registers (idempotent after a stop's freeze).
            self.hw_stats.freeze(bar);
            //@ end
            hw::reset(bar, self.hw.pdev).inspect_err(|_| {
                dev_err!(
                    self.hw.pdev,
                    "{}: MAC reset timed out again: DMA stays off\n",
                    dev.name()
                );
            })?;
            hw::dma_on(self.hw.pdev);
        }
        // A MAC reset leaves the PHY, the forced speed and duplex bits and the receive filters
        // as they were: firmware, a boot loader, another operating system or driver may have
        // left them so since.
        if fresh {
            bar.update(regs::CTRL, |c| c.with_frcspd(false).with_frcdpx(false));
            //@ from sriov
            // The reset undid what the VFs asked for: they ask again.
            self.pools_reset();
            //@ end
            hw::clear_filters(bar)?; //@ datapath
        }
        //@ from link
        // `stop` powered the PHY down (a MAC reset leaves the PHY as it was).
        let phy_up = || -> Result<bool> {
            let reset = fresh && hw::phy_reset(bar)?;
            hw::phy_power(bar, true)?;
            Ok(reset)
        };
        let phy_was_reset = phy_up().inspect_err(|e| {
            dev_err!(
                self.hw.pdev,
                "{}: cannot power the PHY up: {:?}\n",
                dev.name(),
                e
            );
        })?;
        //@ end
        //@ from datapath
        // `stop` resets the MAC, which reloads receive address 0 from the NVM.
        hw::set_rar0(bar, &MacAddr(dev.dev_addr()))?;
        //@ end
        hw::set_driver_loaded(bar, true);
        self.hw_stats.thaw(); //@ stats
        self.phc.restore(bar); //@ ptp
        self.configure_interrupts(dev)?;
        //@ from datapath
        // Read-modify-write: the other bits keep their reset values.
        let tctl = bar.read(regs::TCTL);
        bar.write_reg(
            tctl.with_en(true)
                .with_psp(true)
                .with_rtlc(true)
                .try_with_ct(15u32)?,
        );
        self.configure_rss()?;
        //@ end
        self.configure_fc()?; //@ link
                              //@ from datapath
        self.configure_vlan(dev.features())?;
        // The rings are refilled below with buffers of this layout; the frame limit is set for
        // them first.
        let layout = self.rx_layout(rtnl)?;
        self.rx_half.store(!layout.is_whole_page(), Relaxed);
        self.set_max_frame(self.rx_mtu.load(Relaxed))?;
        bar.update(regs::RCTL, |r| {
            r.with_en(true)
                .with_bam(true)
                .with_secrc(true)
                .with_lpe(true)
                .with_cfien(false)
        });
        //@ end
        //@ from sriov
        self.configure_pools(self.rx_mtu.load(Relaxed).saturating_add(FRAME_OVERHEAD))?;
        //@ end
        for v in vectors(dev) {
            //@ from datapath
            let data = v.data();
            if let Role::Queue(q) = data.role {
                self.make_tx_ring(dev, v, q, rtnl)?;
                // A queue pair the device is not to read keeps its rings, unused.
                let Some(reg) = self.queue_reg(q) else {
                    v.enable(rtnl);
                    continue;
                };
                // The ring is empty (new, or drained by `tear_down`), both halves at its head:
                // descriptor 0 unless the reset there failed.
                let (tx_base, tx_size, tx_head) = dev
                    .lock_tx(u32::from(q), &*rtnl)
                    .and_then(|g| {
                        g.ring
                            .as_ref()
                            .map(|r| (r.ring().shared().dma_base(), r.ring().size(), r.head()))
                    })
                    .ok_or(EINVAL)?;
                self.configure_tx_ring(reg, tx_base, tx_size, tx_head)?;
                if let Some(mut g) = dev.lock_tx(u32::from(q), &*rtnl) {
                    g.reg = reg;
                    g.live = true;
                }
                // The ring is cleared below, so it is filled with buffers of this layout only.
                v.set_pool_layout(rtnl, layout)?;
                let (base, size) = v
                    .with_state(rtnl, |_, st, _| {
                        st.as_mut().map(|rx| {
                            rx.clear();
                            rx.set_reg(reg);
                            (rx.dma_base(), rx.size())
                        })
                    })?
                    .ok_or(EINVAL)?;
                //@ until xsk: self.configure_rx_ring(reg, base, size)?;
                //@ from xsk
                // Zero-copy on a queue an AF_XDP socket bound, while a program is attached to
                // run on its frames (as C igb does); the device writes frames as long as the
                // pool's buffers take.
                let zc = if self.xdp_attached(rtnl) && v.xsk_bound(rtnl) {
                    v.attach_xsk(rtnl, size)?
                } else {
                    v.detach_xsk(rtnl)?;
                    false
                };
                let buf_len = if zc {
                    v.with_xsk(rtnl, |_, _, x| x.map(|x| x.frame_size()))?
                        .filter(|&n| n >= 1024)
                        .ok_or(EINVAL)?
                } else {
                    RX_BUF_LEN
                };
                self.configure_rx_ring(reg, base, size, buf_len)?;
                //@ end
                // A queue out of use gets its pages when `ethtool -L` puts it to use.
                if u32::from(q) < self.active.load(Relaxed) {
                    self.fill_rx(v, rtnl)?;
                }
            }
            //@ end
            v.enable(rtnl);
        }
        //@ from datapath
        for (_, v) in queue_vectors(dev) {
            v.tx_watch_reset();
        }
        //@ end
        self.enable_interrupts(dev);
        // Also reschedules the qdiscs of queues a reset stopped.
        dev.tx_wake_all_queues();
        //@ until link: // The link comes with the next patch.
        //@ until link: dev.carrier_off();
        //@ from link
        // The reset on stop cleared "set link up"; the PHY may still report the link.
        bar.update(regs::CTRL, |c| c.with_slu(true));
        // A link kept up (the PHY stays powered for the firmware) was negotiated with what the
        // PHY advertised then: negotiate again if that changed since. A PHY just reset forgot
        // what it advertised.
        if !phy_was_reset
            && hw::link_up(bar)
            && self.advertised.load(Relaxed) == self.advert().bits()
        {
            dev.carrier_on();
        } else {
            dev.carrier_off();
            self.start_link()?;
        }
        //@ end
        //@ from datapath
        // Freshly reset and up: a reset still pending (a TX timeout from before) has nothing
        // left to do, and failed ones are behind.
        self.reset_requested.store(0, Relaxed);
        self.reset_failures.store(0, Relaxed);
        self.reset_not_before.store(0, Relaxed);
        //@ end
        // The VFs may reset now.
        self.pools_ready(); //@ sriov
        Ok(())
    }

    //@ from datapath
    /// Gives TX queue `q` its ring, of the size `ethtool -G` set, unless it has one: the
    /// first `open` makes them. The instance `v` of the queue must be disabled.
    fn make_tx_ring(
        &self,
        dev: &netdev::Device<IgbNet<'bound>>,
        v: &Napi<VectorData<'bound>>,
        q: u16,
        rtnl: &mut Rtnl,
    ) -> Result {
        let has = dev
            .lock_tx(u32::from(q), &*rtnl)
            .is_some_and(|g| g.ring.is_some());
        if has {
            return Ok(());
        }
        // Allocated without the xmit lock, which disables bottom halves.
        let (send, clean) = queue::tx_ring(&self.hw, self.tx_ring_size.load(Relaxed))?;
        // The two halves of one ring, or neither: the lock first, then the poll's half.
        let mut g = dev.lock_tx(u32::from(q), &*rtnl).ok_or(EBUSY)?;
        v.with_tx_state(rtnl, |tx| *tx = Some(clean))?;
        g.ring = Some(send);
        Ok(())
    }
    //@ end

    //@ from datapath
    /// Gives the RX ring of queue vector `v` a page for every free descriptor, counting the
    /// allocations that failed (the vector's polls retry them). The instance must be disabled.
    fn fill_rx(&self, v: &Napi<VectorData<'bound>>, rtnl: &mut Rtnl) -> Result {
        let bar = &self.hw.bar;
        //@ from xsk
        // A queue with an AF_XDP pool attached takes the pool's buffers. What the pool does
        // not have yet, the polls ask for when user space gives buffers back.
        let zc = v.with_xsk(rtnl, |_, st, xsk| match (st, xsk) {
            (Some(rx), Some(xsk)) => {
                rx.refill_zc(xsk, bar);
                true
            }
            _ => false,
        })?;
        if zc {
            return Ok(());
        }
        //@ end
        let failed = v.with_state(rtnl, |_, st, pool| match (st, pool) {
            (Some(rx), Some(pool)) => rx.refill(pool, bar, &v.data().stats),
            _ => 0,
        })?;
        if failed > 0 {
            v.data()
                .stats
                .rx_alloc_failed
                .add(u64::from(failed), Relaxed);
        }
        Ok(())
    }
    //@ end

    //@ from datapath
    /// Rebuilds the rings and reprograms the device while the interface stays up: what is
    /// queued for transmit is dropped, the link is kept.
    fn reset(&self, dev: &netdev::Device<Self>, rtnl: &mut Rtnl) -> Result {
        self.resets.add(1, Relaxed);
        let _ = self.tear_down(dev, rtnl, Teardown::Full);
        self.bring_up(dev, rtnl, true).inspect_err(|_| {
            let _ = self.tear_down(dev, rtnl, Teardown::Full);
        })?;
        // The MAC reset cleared the promiscuous bits and the multicast table.
        dev.sync_rx_mode(rtnl);
        Ok(())
    }

    //@ from sriov
    /// Stops the device, makes `change` (which may change its queues and their layout) and
    /// brings it up again from a MAC reset, the link kept; as [`IgbNet::reset`], without
    /// counting one.
    pub(crate) fn reset_with(
        &self,
        dev: &netdev::Device<Self>,
        rtnl: &mut Rtnl,
        change: impl FnOnce(&mut Rtnl) -> Result,
    ) -> Result {
        let _ = self.tear_down(dev, rtnl, Teardown::Full);
        let r = change(rtnl);
        self.bring_up(dev, rtnl, true).inspect_err(|_| {
            let _ = self.tear_down(dev, rtnl, Teardown::Full);
        })?;
        dev.sync_rx_mode(rtnl);
        r
    }
    //@ end
    //@ end

    //@ from datapath
    /// Brings a device detached and torn down for a reconfiguration (`fresh`: with a MAC
    /// reset) back up and attaches it. If that fails, the rings stay down and the watchdog
    /// retries as after a failed reset.
    fn resume(&self, dev: &netdev::Device<Self>, rtnl: &mut Rtnl, fresh: bool) -> Result {
        let r = self.bring_up(dev, rtnl, fresh);
        match r {
            Ok(()) => dev.sync_rx_mode(rtnl),
            Err(_) => {
                let _ = self.tear_down(dev, rtnl, Teardown::Full);
                self.reset_requested.store(1, Relaxed);
                dev.kick_service();
            }
        }
        dev.attach(rtnl);
        r
    }
    //@ end

    //@ from link
    //@ until datapath: /// Reports the link state once per [`WATCHDOG_PERIOD`]; also runs early on a link
    //@ until datapath: /// change.
    //@ from datapath
    /// Checks the device once per [`WATCHDOG_PERIOD`] and recovers it when needed; also runs
    /// early on a link change or a TX timeout.
    //@ end
    fn watchdog(&self, dev: &netdev::Device<Self>, rtnl: &mut Rtnl) {
        let link_event = self.link_event.xchg(0, Relaxed) != 0;
        //@ until datapath: if let Some(other) = dev.napi(0) {
        //@ until datapath:     other.data().check_link(dev, rtnl, link_event);
        //@ until datapath: }
        //@ from datapath
        // After a failed reset the rings are down and the carrier off until a reset succeeds;
        // a device that does not answer reads all ones, which would say the link is up.
        if self.reset_failures.load(Relaxed) == 0 {
            if let Some(other) = dev.napi(0) {
                other.data().check_link(dev, rtnl, link_event);
            }
        }
        //@ from sriov
        // The VFs look at the link when the PF tells them something.
        if link_event {
            self.ping_vfs();
        }
        //@ end
        //@ from ptp
        // A frame that waits for its TX timestamp with no poll to come is given up here, and
        // an RX timestamp no frame took is freed.
        if self.phc.tx_waiting() {
            let _ = self.phc.tx_poll(&self.hw.bar);
        }
        self.phc.rx_check(&self.hw.bar);
        //@ end
        let mut reset = self.reset_requested.xchg(0, Relaxed) != 0;
        // Every run queues the next one a period later, so periodic runs are at least a period
        // apart; a run that came early must not judge TX progress.
        let periodic = !link_event && !reset;
        // A partner's XOFF holds transmission back (STATUS.TXOFF): no hang, as C igb judges.
        // At 10 Mb/s frames take longer: 14 s without progress, C igb's factor.
        let status = self.hw.bar.read(regs::STATUS);
        let paused = status.txoff();
        let periods = if status.lu() && status.speed().get() == 0 {
            7
        } else {
            1
        };
        for (q, v) in queue_vectors(dev).filter(|_| periodic) {
            if v.tx_hung(dev, q, rtnl, periods, paused) {
                self.tx_hangs.add(1, Relaxed);
                dev_warn!(
                    self.hw.pdev,
                    "{}: TX queue {} made no progress for {} ms\n",
                    dev.name(),
                    q,
                    WATCHDOG_PERIOD.as_millis()
                );
                reset = true;
            }
        }
        if reset {
            // After failed resets, wait the back-off out, whatever made this run.
            if self.created.elapsed().as_nanos() < self.reset_not_before.load(Relaxed) {
                self.reset_requested.store(1, Relaxed);
                return;
            }
            dev_warn!(self.hw.pdev, "{}: resetting the device\n", dev.name());
            if let Err(e) = self.reset(dev, rtnl) {
                // The rings are down; a later period tries again.
                let failures = self.reset_failures.load(Relaxed).saturating_add(1);
                self.reset_failures.store(failures, Relaxed);
                let periods = 1u32
                    .checked_shl(failures - 1)
                    .map_or(RESET_BACKOFF_MAX, |p| p.min(RESET_BACKOFF_MAX));
                let wait = Delta::from_nanos(i64::from(periods) * WATCHDOG_PERIOD.as_nanos());
                // Half a period early: the periodic run due then is not held back by the
                // timer's rounding.
                let not_before = self
                    .created
                    .elapsed()
                    .as_nanos()
                    .saturating_add(wait.as_nanos() - WATCHDOG_PERIOD.as_nanos() / 2);
                self.reset_not_before.store(not_before, Relaxed);
                dev_err!(
                    self.hw.pdev,
                    "{}: reset failed ({} in a row): {:?}; next try in {} s\n",
                    dev.name(),
                    failures,
                    e,
                    wait.as_millis() / 1000
                );
                self.reset_requested.store(1, Relaxed);
            }
            return;
        }
        if !periodic {
            return;
        }
        //@ from stats
        // Collect the counters before they can wrap.
        let _ = self.hw_stats.update(&self.hw.bar);
        //@ end
        // Fire every queue vector: a lost interrupt, or an RX ring that refills could not
        // fill, gets its poll.
        let queues = queue_vectors(dev).fold(0, |m, (_, v)| m | v.eims);
        self.hw.vector_irqs(IrqOp::Fire, queues);
        //@ end
    }
    //@ end

    /// Stops the device and empties the rings. `ETIMEDOUT` if the device did not confirm that
    /// it stopped (see [`Self::quiesce`]).
    fn tear_down(&self, dev: &netdev::Device<Self>, rtnl: &mut Rtnl, mode: Teardown) -> Result {
        if mode == Teardown::Full {
            dev.carrier_off();
        }
        // Polls first: a poll finishing after the interrupts were masked would unmask its
        // vector again. Once disabled, an interrupt only masks its vector.
        for v in vectors(dev) {
            v.disable(rtnl);
        }
        // No poll can wake a queue now; on `stop` the stack already did this, for a reset it
        // keeps `start_xmit` away from the rings until they are rebuilt.
        dev.tx_disable(rtnl);
        //@ from datapath
        // Nor is anything queued on the rings from here on (`ndo_xdp_xmit` too).
        for (q, _) in queue_vectors(dev) {
            if let Some(mut g) = dev.lock_tx(u32::from(q), &*rtnl) {
                g.live = false;
            }
        }
        //@ end
        //@ until datapath: self.quiesce(mode)
        //@ from datapath
        let stopped = self.quiesce(mode);
        // The frame waiting for its TX timestamp is freed below, or was never sent.
        self.phc.tx_abort(); //@ ptp
        for (q, v) in vectors(dev).skip(1).enumerate() {
            let _ = v.with_state(rtnl, |_, st, _| {
                if let Some(rx) = st {
                    rx.clear();
                }
            });
            // Every frame left on the TX ring is freed and both halves go back to descriptor
            // 0 (`open` starts the device at the ring's head, wherever that is).
            let mut g = dev.lock_tx(q as u32, &*rtnl);
            let _ = v.with_tx_state(rtnl, |tx| {
                if let Some(clean) = tx {
                    queue::drain_tx(clean);
                    if let Some(send) = g.as_mut().and_then(|g| g.ring.as_mut()) {
                        let _ = send.reset(clean);
                    }
                }
            });
        }
        // Every poll is disabled above, so this cannot fail.
        if let Err(e) = dev.reset_tx_queues(rtnl) {
            dev_warn!(self.hw.pdev, "byte queue limits not reset: {:?}\n", e);
        }
        stopped
        //@ end
    }
}

#[vtable]
impl<'bound> netdev::Operations for IgbNet<'bound> {
    type Poll = VectorData<'bound>;
    //@ until datapath: type XmitData = ();
    type XmitData = TxQueueData<'bound>; //@ datapath

    fn open(dev: &netdev::Device<Self>, rtnl: &mut Rtnl) -> Result {
        let this = dev.data();
        let r = this.bring_up(dev, rtnl, true);
        if r.is_err() {
            let _ = this.tear_down(dev, rtnl, Teardown::Full);
            // The interface stays down: so does the PHY.
            let _ = hw::phy_power(&this.hw.bar, false);
        }
        r
    }

    fn stop(dev: &netdev::Device<Self>, rtnl: &mut Rtnl) -> Result {
        // A device that did not confirm the stop was warned about; nothing more to do.
        let this = dev.data();
        let _ = this.tear_down(dev, rtnl, Teardown::Full);
        // No link while the interface is down (`open` powers the PHY up again).
        if let Err(e) = hw::phy_power(&this.hw.bar, false) {
            dev_warn!(
                this.hw.pdev,
                "{}: PHY not powered down: {:?}\n",
                dev.name(),
                e
            );
        }
        Ok(())
    }

    //@ until datapath: fn start_xmit<'x>(_dev: &netdev::Device<Self>, _txq: &XmitQueue<'x>, _data: &mut (), _skb: TxRequest<'x>) -> netdev::Xmit<'x> {
    //@ until datapath:     // The data path comes with a later patch: the frame is dropped.
    //@ until datapath:     netdev::Xmit::Ok
    //@ until datapath: }
    //@ from datapath
    // Inlined into the callback of the abstraction: one call less per frame.
    #[inline(always)]
    fn start_xmit<'x>(
        dev: &netdev::Device<Self>,
        txq: &XmitQueue<'x>,
        data: &mut TxQueueData<'bound>,
        skb: TxRequest<'x>,
    ) -> netdev::Xmit<'x> {
        let q = skb.queue_mapping();
        queue::xmit(dev, txq, data, skb, q)
    }
    //@ end

    fn handle_irq(dev: &IrqDevice<Self>, vector: u32) -> IrqReturn {
        let hw = &dev.data().hw;
        if !hw.msix {
            return queue::handle_single_irq(hw, dev.napis());
        }
        match dev.napi(vector as usize) {
            Some(v) => queue::handle_irq(v),
            None => IrqReturn::None,
        }
    }

    //@ from datapath
    fn get_stats64(dev: &netdev::Device<Self>, stats: &mut Stats64) {
        for (_, d) in queue_vectors(dev) {
            let s = &d.stats;
            stats.rx_packets += s.rx_packets.load(Relaxed);
            stats.rx_bytes += s.rx_bytes.load(Relaxed);
            stats.rx_errors += s.rx_errors.load(Relaxed);
            stats.rx_dropped += s.rx_alloc_failed.load(Relaxed);
            stats.tx_packets += s.tx_packets.load(Relaxed);
            stats.tx_bytes += s.tx_bytes.load(Relaxed);
            stats.tx_dropped += s.tx_dropped.load(Relaxed);
        }
        //@ from stats
        // The MAC's counters: errors and drops the queues do not see.
        let this = dev.data();
        this.hw_stats.fill(&this.hw.bar, stats);
        //@ end
    }
    //@ end

    //@ from datapath
    fn set_rx_mode(dev: &netdev::Device<Self>, mode: &RxMode<'_>) {
        let this = dev.data();
        let bar = &this.hw.bar;
        let mut mta = [0u32; 128];
        mode.for_each_mc_addr(|a| {
            let h = hw::mta_hash(a);
            mta[(h >> 5) as usize & 127] |= 1 << (h & 31);
        });
        //@ until sriov: hw::write_mta(bar, &mta);
        //@ from sriov
        this.vf_table.lock().set_pf_mta(bar, &mta);
        //@ end
        // The secondary unicast addresses (upper devices', `bridge fdb add ... self`) take
        // receive address slots 1..23 (with VFs, those the VFs do not take). An address keeps
        // its slot while it stays on the list: only slots whose address comes or goes are
        // written, so that the others never stop matching. More addresses than slots turn on
        // unicast promiscuous mode. A slot that cannot be read counts as holding an address
        // no list has (broadcast), so that it is emptied.
        let mut slot: [Option<[u8; 6]>; hw::UC_SLOTS] =
            core::array::from_fn(|i| hw::read_rar(bar, i + 1).unwrap_or(Some([0xff; 6])));
        // The port's own address, which a bridge lists too, is slot 0's.
        let own = hw::read_rar0(bar).0;
        let slots = this.uc_slots();
        let mut kept = [false; hw::UC_SLOTS];
        let mut new = [[0u8; 6]; hw::UC_SLOTS];
        let mut n_new = 0;
        let mut overflow = false;
        mode.for_each_uc_addr(|a| {
            if *a == own {
                return;
            }
            if let Some(i) = (0..slots).find(|&i| !kept[i] && slot[i] == Some(*a)) {
                kept[i] = true;
            } else if n_new < slots {
                new[n_new] = *a;
                n_new += 1;
            } else {
                overflow = true;
            }
        });
        for i in 0..slots {
            if slot[i].is_some() && !kept[i] && hw::set_rar(bar, i + 1, None).is_ok() {
                slot[i] = None;
            }
        }
        // An address that finds no slot, or whose slot cannot be written, is received in
        // unicast promiscuous mode.
        for a in &new[..n_new] {
            match (0..slots).find(|&i| slot[i].is_none()) {
                Some(i) if this.set_uc_rar(i + 1, a).is_ok() => slot[i] = Some(*a),
                _ => overflow = true,
            }
        }
        let promisc = mode.promisc();
        let allmulti = promisc || mode.allmulti();
        // Promiscuous means every VLAN too; unicast promiscuous for want of slots does not.
        //@ until sriov: let vfe = !promisc;
        //@ from sriov
        // With VFs a tagged frame would reach a pool only through its VLAN pool entries (VLVF),
        // which are not programmed: the filter is off, the pools take tagged frames by address.
        let vfe = !promisc && this.vf_count() == 0;
        //@ end
        bar.update(regs::RCTL, |r| {
            r.with_upe(promisc || overflow)
                .with_mpe(allmulti)
                .with_vfe(vfe)
        });
        //@ from sriov
        // With VFs the pool's own bits count.
        let _ = this.pool_promisc(promisc || overflow, allmulti);
        //@ end
    }
    //@ end

    //@ from datapath
    fn fdb_add(
        dev: &netdev::Device<Self>,
        _rtnl: &mut Rtnl,
        req: &FdbAdd<'_>,
        extack: &mut ExtAck<'_>,
    ) -> Result {
        // As C igb does: a unicast address the receive address slots cannot hold is refused,
        // where `set_rx_mode` would receive it in unicast promiscuous mode. One already on the
        // list takes no room (C igb refuses it too).
        let (n, listed) = req.uc_state();
        if req.adds_unicast() && !listed && n >= dev.data().uc_slots() {
            extack.set_msg(c"no receive address slot left for another unicast address");
            dev_err!(
                dev.data().hw.pdev,
                "{}: no receive address slot left for another unicast address ({} in use)\n",
                dev.name(),
                n
            );
            return Err(ENOMEM);
        }
        Ok(())
    }
    //@ end

    //@ from datapath
    fn set_mac_address(dev: &netdev::Device<Self>, _rtnl: &mut Rtnl, addr: &MacAddress) -> Result {
        //@ until sriov: hw::set_rar0(&dev.data().hw.bar, &MacAddr(*addr))
        //@ from sriov
        hw::set_rar0(&dev.data().hw.bar, &MacAddr(*addr))?;
        // With VFs, in the PF's pool.
        dev.data().set_pf_pool(0)
        //@ end
    }
    //@ end

    //@ from datapath
    fn change_mtu(dev: &netdev::Device<Self>, rtnl: &mut Rtnl, new_mtu: u32) -> Result {
        let this = dev.data();
        //@ from xdp
        if new_mtu > XDP_MAX_MTU && this.xdp_prog.has_frags(rtnl) == Some(false) {
            dev_err!(
                this.hw.pdev,
                "{}: MTU {} too large for XDP (at most {} with a program without fragment support)\n",
                dev.name(),
                new_mtu,
                XDP_MAX_MTU
            );
            return Err(EINVAL);
        }
        //@ end
        let old_mtu = this.rx_mtu.load(Relaxed);
        let xdp = this.xdp_attached(rtnl);
        // Down, `open` sets the frame limit and the buffers from `rx_mtu`.
        if !dev.is_running() {
            this.rx_mtu.store(new_mtu, Relaxed);
            return Ok(());
        }
        // What the rings hold now, not what the old MTU would have given them.
        if this.rx_half.load(Relaxed) != Self::rx_whole_pages(new_mtu, xdp) {
            // Frames larger than one buffer use several descriptors (whole pages), and half
            // pages take any frame up to their limit: only the frame limit changes.
            this.set_max_frame(new_mtu)?;
            this.rx_mtu.store(new_mtu, Relaxed);
            return Ok(());
        }
        // Half-page buffers take frames up to `RX_HALF_MAX` only: the frame limit and the
        // buffers change together, with the device stopped (`open` sets both from `rx_mtu`).
        let r = this.with_rx_rebuild(dev, rtnl, |this, _| this.rx_mtu.store(new_mtu, Relaxed));
        if r.is_err() {
            // The device is down, waiting for the watchdog's reset: it comes back with the MTU
            // the core keeps.
            this.rx_mtu.store(old_mtu, Relaxed);
        }
        r
    }
    //@ end

    //@ from datapath
    fn set_features(dev: &netdev::Device<Self>, _rtnl: &mut Rtnl, features: u64) -> Result {
        // RX checksum and hash apply from the next poll on; stripping is a MAC setting, kept
        // over resets by `open`. Insertion is per frame.
        let strip = features & netdev::NETIF_F_HW_VLAN_CTAG_RX != 0;
        dev.data().hw.bar.update(regs::CTRL, |c| c.with_vme(strip));
        Ok(())
    }
    //@ end

    //@ from datapath
    fn vlan_rx_add_vid(dev: &netdev::Device<Self>, _rtnl: &mut Rtnl, vid: u16) -> Result {
        dev.data().set_vlan(vid, true)
    }
    //@ end

    //@ from datapath
    fn vlan_rx_kill_vid(dev: &netdev::Device<Self>, _rtnl: &mut Rtnl, vid: u16) -> Result {
        dev.data().set_vlan(vid, false)
    }
    //@ end

    //@ from datapath
    fn tx_timeout(dev: &netdev::Device<Self>, queue: u32) {
        let this = dev.data();
        this.tx_timeouts.add(1, Relaxed);
        dev_warn!(
            this.hw.pdev,
            "{}: TX queue {} timed out\n",
            dev.name(),
            queue
        );
        this.reset_requested.store(1, Relaxed);
        dev.kick_service();
    }
    //@ end

    //@ from link
    fn service(dev: &netdev::Device<Self>, rtnl: &mut Rtnl) -> Option<Delta> {
        dev.data().watchdog(dev, rtnl);
        Some(WATCHDOG_PERIOD)
    }
    //@ end

    //@ from datapath
    fn features_check(_dev: &netdev::Device<Self>, skb: &SkBuff, features: u64) -> u64 {
        // Checksum and segmentation offloads need headers the context descriptor can
        // describe; anything else is done in software before `start_xmit`.
        // A tag still out of band here is pushed in front of the IP header later: leave room.
        match skb.tx_checksum() {
            Ok(None) => features,
            Ok(Some(c))
                if queue::context_fits(&TxChecksum {
                    mac_len: c.mac_len + VLAN_HLEN,
                    ..c
                }) =>
            {
                features
            }
            _ => features & !(netdev::NETIF_F_CSUM_MASK | netdev::NETIF_F_GSO_MASK),
        }
    }
    //@ end

    //@ from stats
    fn queue_stats_rx(dev: &netdev::Device<Self>, index: u32, stats: &mut QueueStatsRx) {
        if let Some(v) = dev.napi(index as usize + 1) {
            let s = &v.data().stats;
            stats.set_packets(s.rx_packets.load(Relaxed));
            stats.set_bytes(s.rx_bytes.load(Relaxed));
            stats.set_alloc_fail(s.rx_alloc_failed.load(Relaxed));
            stats.set_csum_unnecessary(s.rx_csum_good.load(Relaxed));
            let this = dev.data();
            if let Some(d) = this.hw_stats.queue_drops(&this.hw.bar).get(index as usize) {
                stats.set_hw_drops(*d);
            }
        }
    }
    //@ end

    //@ from stats
    fn queue_stats_tx(dev: &netdev::Device<Self>, index: u32, stats: &mut QueueStatsTx) {
        if let Some(v) = dev.napi(index as usize + 1) {
            let s = &v.data().stats;
            stats.set_packets(s.tx_packets.load(Relaxed));
            stats.set_bytes(s.tx_bytes.load(Relaxed));
            stats.set_hw_gso_packets(s.tx_tso_packets.load(Relaxed));
        }
    }
    //@ end

    //@ from stats
    fn base_stats(dev: &netdev::Device<Self>, rx: &mut QueueStatsRx, tx: &mut QueueStatsTx) {
        // What the queues `ethtool -L` took out of use counted (all of it, as every queue
        // keeps its counters from probe to removal).
        let (nrx, ntx) = (dev.real_num_rx_queues(), dev.real_num_tx_queues());
        let (mut rp, mut rb, mut ra, mut rc) = (0, 0, 0, 0);
        let (mut tp, mut tb, mut tg) = (0, 0, 0);
        for (q, v) in queue_vectors(dev) {
            let s = &v.stats;
            if u32::from(q) >= nrx {
                rp += s.rx_packets.load(Relaxed);
                rb += s.rx_bytes.load(Relaxed);
                ra += s.rx_alloc_failed.load(Relaxed);
                rc += s.rx_csum_good.load(Relaxed);
            }
            if u32::from(q) >= ntx {
                tp += s.tx_packets.load(Relaxed);
                tb += s.tx_bytes.load(Relaxed);
                tg += s.tx_tso_packets.load(Relaxed);
            }
        }
        rx.set_packets(rp);
        rx.set_bytes(rb);
        rx.set_alloc_fail(ra);
        rx.set_csum_unnecessary(rc);
        tx.set_packets(tp);
        tx.set_bytes(tb);
        tx.set_hw_gso_packets(tg);
    }
    //@ end

    //@ from ptp
    fn hwtstamp_get(dev: &netdev::Device<Self>) -> Result<HwTstampConfig> {
        Ok(dev.data().phc.config())
    }

    fn hwtstamp_set(
        dev: &netdev::Device<Self>,
        _rtnl: &mut Rtnl,
        config: &mut HwTstampConfig,
        extack: &mut ExtAck<'_>,
    ) -> Result {
        let this = dev.data();
        this.phc.set_config(&this.hw.bar, config, extack)
    }
    //@ end
}

#[pinned_drop]
impl PinnedDrop for IgbNet<'_> {
    fn drop(self: Pin<&mut Self>) {
        // Unregistered and stopped: reset the MAC so no DMA can reach the rings, which are
        // freed right after this; if the reset does not complete, take the DMA away.
        if hw::reset(&self.hw.bar, self.hw.pdev).is_err() {
            let _ = hw::dma_off(self.hw.pdev);
            dev_warn!(self.hw.pdev, "MAC reset on teardown timed out: DMA off\n");
        }
        hw::set_driver_loaded(&self.hw.bar, false);
        dev_info!(self.hw.pdev, "removed ({})\n", self.perm_addr);
    }
}

//@ from xdp
#[vtable]
impl<'bound> xdp::Operations for IgbNet<'bound> {
    fn setup(
        dev: &netdev::Device<Self>,
        rtnl: &mut Rtnl,
        prog: Option<xdp::Prog>,
        extack: &mut xdp::ExtAck<'_>,
    ) -> Result {
        if prog.as_ref().is_some_and(|p| !p.has_frags()) && dev.mtu() > XDP_MAX_MTU {
            extack.set_msg(c"MTU too large for a program without fragment support (xdp.frags)");
            return Err(EINVAL);
        }
        let this = dev.data();
        let mtu = this.rx_mtu.load(Relaxed);
        // Down, `open` gives the rings what the program needs; running, they change if what
        // they hold now is not that.
        let want_half = !IgbNet::rx_whole_pages(mtu, prog.is_some());
        //@ until xsk: if !dev.is_running() || this.rx_half.load(Relaxed) == want_half {
        //@ from xsk
        // A queue an AF_XDP socket bound goes zero-copy with a program, and back without.
        let zc_change =
            prog.is_some() != this.xdp_attached(rtnl) && vectors(dev).any(|v| v.xsk_bound(rtnl));
        if !dev.is_running() || (this.rx_half.load(Relaxed) == want_half && !zc_change) {
            //@ end
            // Polls pick the new program up with their next frame; the ones running the old
            // one finish with it (it is freed after they returned). Nothing else changes: the
            // RX buffers stay as they are (whole pages with XDP's headroom while a program is
            // attached), and XDP_TX shares the queue's TX ring.
            drop(this.xdp_prog.replace(prog, rtnl));
            return Ok(());
        }
        // From half-page buffers to whole pages or back: the program changes with the rings,
        // the device stopped (if it runs).
        let mut old = None;
        let r = this.with_rx_rebuild(dev, rtnl, |this, rtnl| {
            old = this.xdp_prog.replace(prog, rtnl);
        });
        drop(old);
        r
    }

    //@ from xsk
    fn xsk_setup(
        dev: &netdev::Device<Self>,
        rtnl: &mut Rtnl,
        queue: u32,
        frame: Option<u32>,
    ) -> Result {
        let this = dev.data();
        let on = frame.is_some();
        // Only queues the stack uses (the core checked the socket's queue against them), and
        // buffers of at least the 1 KiB the device counts in: refused now, not at each
        // bring-up while the socket stays bound.
        if on && (queue >= this.active.load(Relaxed) || frame.is_some_and(|n| n < 1024)) {
            return Err(EINVAL);
        }
        // Zero-copy needs a program too; without one, the pool waits for it (`setup`).
        if !dev.is_running() || !this.xdp_attached(rtnl) {
            // Down, the queue may still hold the pool's buffers from when it was up: they
            // go back now.
            if let Some(v) = dev.napi(queue as usize + 1) {
                if !on && !v.is_enabled(rtnl) {
                    v.detach_xsk(rtnl)?;
                }
            }
            return Ok(());
        }
        // The rings are rebuilt, the queue's from the pool (or back from the page pool).
        this.with_rx_rebuild(dev, rtnl, |_, _| ())
    }

    fn xsk_wakeup(dev: &netdev::Device<Self>, queue: u32, rx: bool, tx: bool) -> Result {
        if !dev.is_running() {
            return Err(ENETDOWN);
        }
        // Zero-copy only with a program (`xsk_setup`): without, nothing would send.
        if !dev.data().xdp_prog.is_set() {
            return Err(ENXIO);
        }
        let v = dev.napi(queue as usize + 1).ok_or(EINVAL)?.data();
        // The vector's interrupt schedules its poll, on its CPU, which receives and sends.
        if rx || tx {
            v.hw.vector_irqs(IrqOp::Fire, v.eims);
        }
        Ok(())
    }
    //@ end

    fn rx_hash(meta: &xdp::RxMeta) -> Result<(u32, xdp::RssHashType)> {
        queue::xdp_rx_hash(meta)
    }

    fn rx_vlan_tag(meta: &xdp::RxMeta) -> Result<VlanTag> {
        queue::xdp_rx_vlan_tag(meta)
    }

    fn xmit(dev: &netdev::Device<Self>, frames: &mut xdp::XmitFrames<'_>, flush: bool) -> Result {
        // Over every ring, not only those `ethtool -L` leaves to the stack: all are programmed
        // while the interface is up, and a change of the count between a call and the one
        // that flushes cannot leave frames without a doorbell.
        if !dev.carrier_ok() {
            return Err(ENETDOWN);
        }
        //@ until sriov: let nq = u32::from(dev.data().nq).max(1);
        //@ from sriov
        // With VFs, only the PF's pair is programmed.
        let nq = dev.data().max_pairs().max(1);
        //@ end
        let q = kernel::cpu::CpuId::current().as_u32() % nq;
        let v = dev.napi(q as usize + 1).ok_or(ENXIO)?.data();
        v.xdp_xmit(dev, q as u16, frames, flush)
    }
}
//@ end

//@ from ethtool
#[vtable]
impl<'bound> ethtool::Operations for IgbNet<'bound> {
    fn get_drvinfo(dev: &netdev::Device<Self>, info: &mut DrvInfo<'_>) {
        info.set_driver("igb_rust");
        if let Ok(name) = dev.data().hw.pdev.as_ref().name().to_str() {
            info.set_bus_info(name);
        }
    }

    fn get_channels(dev: &netdev::Device<Self>) -> Channels {
        let this = dev.data();
        // The link has a vector of its own only with MSI-X.
        let other = u32::from(this.hw.msix);
        Channels {
            //@ until sriov: max_combined: u32::from(this.nq),
            max_combined: this.max_pairs(), //@ sriov
            combined_count: this.active.load(Relaxed),
            max_other: other,
            other_count: other,
        }
    }

    /// Every queue pair keeps its rings, vector and NAPI instance: changing how many the stack
    /// and RSS use resets nothing, and the link stays up. A queue put to use gets the pages of
    /// its RX ring first; allocations that fail are counted and retried by its polls, as on
    /// `open`.
    fn set_channels(dev: &netdev::Device<Self>, rtnl: &mut Rtnl, channels: Channels) -> Result {
        let this = dev.data();
        let now = Self::get_channels(dev);
        let n = channels.combined_count;
        if channels.other_count != now.other_count || n == 0 || n > now.max_combined {
            dev_err!(
                this.hw.pdev,
                "{}: combined 1..{} and other {} only\n",
                dev.name(),
                now.max_combined,
                now.other_count
            );
            return Err(EINVAL);
        }
        let old = now.combined_count;
        if n == old {
            return Ok(());
        }
        // The vectors of the queues filled, fired once the queues are in use.
        let mut filled = 0;
        // Growing: the queues get their pages and the stack gets the queues before frames are
        // steered to them; shrinking: frames are steered away first. Frames already on a queue
        // taken out of use still complete there; its ring is not refilled.
        if n > old && dev.is_running() {
            for v in vectors(dev).skip(1 + old as usize).take((n - old) as usize) {
                // Disabled: the rings are down after a reset that failed, and the bring-up
                // that rebuilds them fills the RX rings of the queues then in use.
                if !v.is_enabled(rtnl) {
                    continue;
                }
                // Nothing polls the idle queue's ring meanwhile: no frame is steered to it.
                v.disable(rtnl);
                let r = this.fill_rx(v, rtnl);
                v.enable(rtnl);
                // An interrupt that came while the instance was disabled left the vector
                // masked, with no poll to re-arm it.
                this.hw.vector_irqs(IrqOp::Unmask, v.data().eims);
                r?;
                filled |= v.data().eims;
            }
        }
        if n > old {
            dev.set_real_num_queues(n, n, rtnl)?;
        }
        let keep = dev.rxfh_configured();
        let steer = |count: u32| -> Result {
            let mut rss = this.rss.lock();
            // A table the user set only names queues below `n` (the core checked).
            if !keep {
                rss.spread(count as u16);
            }
            this.active.store(count, Relaxed);
            if dev.is_running() {
                this.apply_rss(&rss)?;
            }
            Ok(())
        };
        let r = steer(n).and_then(|()| {
            if n < old {
                dev.set_real_num_queues(n, n, rtnl)
            } else {
                Ok(())
            }
        });
        if let Err(e) = r {
            // Back to the old layout; shrinking the stack's count again cannot fail.
            let _ = steer(old);
            let _ = dev.set_real_num_queues(old, old, rtnl);
            return Err(e);
        }
        // A poll of each queue now in use retries what its fill could not allocate.
        if filled != 0 {
            this.hw.vector_irqs(IrqOp::Fire, filled);
        }
        Ok(())
    }

    fn get_ringparam(dev: &netdev::Device<Self>) -> Ringparam {
        let this = dev.data();
        Ringparam {
            rx_max_pending: MAX_RING_SIZE,
            tx_max_pending: MAX_RING_SIZE,
            rx_pending: this.rx_ring_size.load(Relaxed),
            tx_pending: this.tx_ring_size.load(Relaxed),
        }
    }

    fn set_ringparam(dev: &netdev::Device<Self>, rtnl: &mut Rtnl, sizes: RingSizes) -> Result {
        let this = dev.data();
        let valid = |n: u32| (MIN_RING_SIZE..=MAX_RING_SIZE).contains(&n) && n % RING_ALIGN == 0;
        if !valid(sizes.rx) || !valid(sizes.tx) {
            dev_err!(
                this.hw.pdev,
                "{}: ring sizes are {}..{} in steps of {} (asked rx {} tx {})\n",
                dev.name(),
                MIN_RING_SIZE,
                MAX_RING_SIZE,
                RING_ALIGN,
                sizes.rx,
                sizes.tx
            );
            return Err(EINVAL);
        }
        let rx_new = sizes.rx != this.rx_ring_size.load(Relaxed);
        let tx_new = sizes.tx != this.tx_ring_size.load(Relaxed);
        if !rx_new && !tx_new {
            return Ok(());
        }
        // Everything the new rings need is allocated before the device is touched: on
        // failure the interface goes on as it was.
        let mut rings = KVec::with_capacity(usize::from(this.nq), GFP_KERNEL)?;
        for (q, _) in queue_vectors(dev) {
            let rx = rx_new
                .then(|| RxRing::new(&this.hw, q, sizes.rx))
                .transpose()?;
            let tx = tx_new
                .then(|| queue::tx_ring(&this.hw, sizes.tx))
                .transpose()?;
            rings.push((rx, tx), GFP_KERNEL)?;
        }
        let running = dev.is_running();
        if running {
            // The MAC, its link and the carrier stay up, so the qdiscs keep their frames for
            // the new rings; detached, the device's stopped queues do not look like a TX hang
            // to the core's watchdog.
            dev.detach(rtnl);
            if let Err(e) = this.tear_down(dev, rtnl, Teardown::Rings) {
                // Not even a MAC reset stopped the device (its DMA is off now): keep the old
                // rings, and try them again.
                this.resume(dev, rtnl, false)?;
                return Err(e);
            }
        }
        // Every instance is disabled now (torn down, or the interface is down), so `with_state`
        // cannot fail below and every ring of a kind gets the new size.
        if vectors(dev).any(|v| v.is_enabled(rtnl)) {
            if running {
                this.resume(dev, rtnl, false)?;
            }
            return Err(EBUSY);
        }
        let mut swapped = Ok(());
        for (q, (v, (rx, tx))) in vectors(dev).skip(1).zip(rings).enumerate() {
            // The old rings are dropped here, in process context, after the device stopped
            // (the old TX ring's sending half after the xmit lock is released).
            if let Some(rx) = rx {
                swapped = swapped.and(v.with_state(rtnl, |_, st, _| *st = Some(rx)));
            }
            if let Some((send, clean)) = tx {
                // The two halves of one ring, or neither: the lock first, then the poll's half.
                let Some(mut g) = dev.lock_tx(q as u32, &*rtnl) else {
                    swapped = swapped.and(Err(EBUSY));
                    continue;
                };
                match v.with_tx_state(rtnl, |tx| tx.replace(clean)) {
                    Ok(old_clean) => {
                        let old_send = g.ring.replace(send);
                        drop(g);
                        drop((old_clean, old_send));
                    }
                    Err(e) => swapped = swapped.and(Err(e)),
                }
            }
        }
        if swapped.is_ok() {
            this.rx_ring_size.store(sizes.rx, Relaxed);
            this.tx_ring_size.store(sizes.tx, Relaxed);
        }
        if running {
            this.resume(dev, rtnl, false)?;
        }
        swapped
    }

    fn get_link_ksettings(dev: &netdev::Device<Self>) -> Result<LinkSettings> {
        let bar = &dev.data().hw.bar;
        let up = dev.carrier_ok() && hw::link_up(bar);
        let adv = dev.data().advert();
        let mut advertising = LinkModes::EMPTY
            .with(ethtool::LINK_MODE_AUTONEG)
            .with(ethtool::LINK_MODE_TP);
        let mut lp_advertising = LinkModes::EMPTY;
        // Best effort: a PHY the firmware holds shows no partner.
        let partner = if up {
            hw::link_partner(bar).ok().flatten()
        } else {
            None
        };
        for (bit, mode) in LINK_MODES {
            if adv.anar & bit != 0 {
                advertising = advertising.with(mode);
            }
            if partner.is_some_and(|(lpa, _)| lpa & bit != 0) {
                lp_advertising = lp_advertising.with(mode);
            }
        }
        if adv.gig_full {
            advertising = advertising.with(ethtool::LINK_MODE_1000BASET_FULL);
        }
        for (bit, mode) in [
            (hw::AN_PAUSE, ethtool::LINK_MODE_PAUSE),
            (hw::AN_ASYM_PAUSE, ethtool::LINK_MODE_ASYM_PAUSE),
        ] {
            if adv.anar & bit != 0 {
                advertising = advertising.with(mode);
            }
            if partner.is_some_and(|(lpa, _)| lpa & bit != 0) {
                lp_advertising = lp_advertising.with(mode);
            }
        }
        if let Some((_, gbsr)) = partner {
            if gbsr & hw::GBSR_LP_1000FULL != 0 {
                lp_advertising = lp_advertising.with(ethtool::LINK_MODE_1000BASET_FULL);
            }
            if gbsr & hw::GBSR_LP_1000HALF != 0 {
                lp_advertising = lp_advertising.with(ethtool::LINK_MODE_1000BASET_HALF);
            }
            lp_advertising = lp_advertising.with(ethtool::LINK_MODE_AUTONEG);
        }
        Ok(LinkSettings {
            speed: up.then(|| hw::link_speed(bar)),
            full_duplex: !up || hw::link_full_duplex(bar),
            autoneg: true,
            supported: SUPPORTED_MODES,
            advertising,
            lp_advertising,
        })
    }

    fn set_link_ksettings(dev: &netdev::Device<Self>, req: LinkRequest) -> Result {
        let this = dev.data();
        if !req.autoneg {
            dev_err!(
                this.hw.pdev,
                "{}: only autonegotiation is supported; choose modes with advertise\n",
                dev.name()
            );
            return Err(EINVAL);
        }
        // Pause and the port are not speed modes: the user changes them with -A, or cannot.
        let asked = req.advertising;
        let any_speed = LINK_MODES.iter().any(|(_, m)| asked.contains(*m))
            || asked.contains(ethtool::LINK_MODE_1000BASET_FULL);
        if !asked.is_subset(&SUPPORTED_MODES) || !any_speed {
            dev_err!(
                this.hw.pdev,
                "{}: advertised modes must be among 10/100 half/full and 1000 full, at least one\n",
                dev.name()
            );
            return Err(EINVAL);
        }
        let mut adv = 0u32;
        for (bit, mode) in LINK_MODES {
            if asked.contains(mode) {
                adv |= u32::from(bit);
            }
        }
        if asked.contains(ethtool::LINK_MODE_1000BASET_FULL) {
            adv |= ADVERTISE_1000FULL;
        }
        let old = this.advertise.xchg(adv, Relaxed);
        if old != adv && dev.is_running() {
            // A failure changes nothing.
            this.renegotiate(dev)
                .inspect_err(|_| this.advertise.store(old, Relaxed))?;
        }
        Ok(())
    }

    fn get_tunable(dev: &netdev::Device<Self>, tunable: Tunable) -> Result<u32> {
        match tunable {
            Tunable::RxCopybreak => Ok(dev.data().copybreak.load(Relaxed)),
            _ => Err(EOPNOTSUPP),
        }
    }

    fn set_tunable(dev: &netdev::Device<Self>, tunable: Tunable, value: u32) -> Result {
        match tunable {
            // Up to the whole RX buffer; 0 turns copying off. Takes effect at the next poll.
            Tunable::RxCopybreak if value <= RX_BUF_LEN => {
                dev.data().copybreak.store(value, Relaxed);
                Ok(())
            }
            Tunable::RxCopybreak => Err(EINVAL),
            _ => Err(EOPNOTSUPP),
        }
    }

    fn get_coalesce(dev: &netdev::Device<Self>) -> Result<Coalesce> {
        // One vector serves both directions of a queue pair: one interval for both.
        let usecs = dev.data().itr_usecs.load(Relaxed);
        Ok(Coalesce {
            rx_usecs: usecs,
            tx_usecs: usecs,
            adaptive_rx: dev.data().adaptive_rx.load(Relaxed),
        })
    }

    fn set_coalesce(dev: &netdev::Device<Self>, c: Coalesce) -> Result {
        let this = dev.data();
        let cur = this.itr_usecs.load(Relaxed);
        // The request holds the current values with the user's changes: take the one that
        // changed; both changed to different values cannot be done with one vector.
        let usecs = if c.rx_usecs == c.tx_usecs || c.tx_usecs == cur {
            c.rx_usecs
        } else if c.rx_usecs == cur {
            c.tx_usecs
        } else {
            dev_err!(
                this.hw.pdev,
                "{}: rx-usecs and tx-usecs share one vector and must be equal\n",
                dev.name()
            );
            return Err(EINVAL);
        };
        if usecs > MAX_ITR_USECS {
            dev_err!(
                this.hw.pdev,
                "{}: rx-usecs/tx-usecs {} out of range 0..{}\n",
                dev.name(),
                usecs,
                MAX_ITR_USECS
            );
            return Err(EINVAL);
        }
        this.itr_usecs.store(usecs, Relaxed);
        let was_adaptive = this.adaptive_rx.xchg(c.adaptive_rx, Relaxed);
        // Down, the MAC is held in reset: `open` programs it. With `adaptive-rx` on, the polls
        // write DIM's interval (again, when it was just turned on: see `VectorData::moderate`).
        if dev.is_running() && !c.adaptive_rx {
            if was_adaptive {
                // Polls that still saw it on have returned: none writes DIM's interval after
                // the fixed one below.
                netdev::synchronize_net();
            }
            this.apply_itr()?;
        }
        Ok(())
    }

    const ADAPTIVE_RX: bool = true;

    const REGS_LEN: usize = REG_DUMP_LEN;

    fn get_regs(dev: &netdev::Device<Self>, out: &mut [u32]) -> u32 {
        let bar = &dev.data().hw.bar;
        for (slot, &off) in out.iter_mut().zip(REG_DUMP.iter()) {
            // Offsets are constants inside BAR0: the reads cannot fail.
            *slot = bar.try_read32(off as usize).unwrap_or(0);
        }
        1
    }

    fn get_pauseparam(dev: &netdev::Device<Self>) -> Pause {
        let pause = dev.data().pause.load(Relaxed);
        Pause {
            autoneg: pause & PAUSE_AUTONEG != 0,
            rx: pause & PAUSE_RX != 0,
            tx: pause & PAUSE_TX != 0,
        }
    }

    fn set_pauseparam(dev: &netdev::Device<Self>, p: Pause) -> Result {
        let this = dev.data();
        let bits = if p.rx { PAUSE_RX } else { 0 }
            | if p.tx { PAUSE_TX } else { 0 }
            | if p.autoneg { PAUSE_AUTONEG } else { 0 };
        let before = this.advert();
        let old = this.pause.xchg(bits, Relaxed);
        if dev.is_running() {
            let r = if p.autoneg && (old & PAUSE_AUTONEG == 0 || this.advert() != before) {
                // The partner must learn what we ask for: negotiate again.
                this.renegotiate(dev)
            } else {
                // Forced (or the same negotiation): the MAC takes it at once.
                this.configure_fc()
            };
            // A failure changes nothing.
            r.inspect_err(|_| this.pause.store(old, Relaxed))?;
            // Dropping frames with pause frames asked for would keep XOFF from being sent.
            this.apply_drop_en()?;
        }
        Ok(())
    }

    //@ from stats
    fn get_pause_stats(dev: &netdev::Device<Self>, stats: &mut PauseStats) {
        let this = dev.data();
        let (rx, tx) = this.hw_stats.pause_frames(&this.hw.bar);
        stats.set_rx_frames(rx);
        stats.set_tx_frames(tx);
    }
    //@ end

    const RSS_INDIR_SIZE: u32 = RSS_INDIR_LEN as u32;
    const RSS_KEY_SIZE: u32 = RSS_KEY_LEN as u32;

    fn get_rxfh(
        dev: &netdev::Device<Self>,
        indir: Option<&mut [u32]>,
        key: Option<&mut [u8]>,
    ) -> Result {
        let rss = dev.data().rss.lock();
        if let Some(indir) = indir {
            for (o, &q) in indir.iter_mut().zip(rss.indir.iter()) {
                *o = u32::from(q);
            }
        }
        if let Some(key) = key {
            for (o, &b) in key.iter_mut().zip(rss.key.iter()) {
                *o = b;
            }
        }
        Ok(())
    }

    fn set_rxfh(dev: &netdev::Device<Self>, indir: Option<&[u32]>, key: Option<&[u8]>) -> Result {
        let this = dev.data();
        let nq = this.active.load(Relaxed);
        // The core checked the entries against the queue count; check again what the
        // hardware's one-byte entries need, before changing anything.
        if indir.is_some_and(|t| t.len() != RSS_INDIR_LEN || t.iter().any(|&q| q >= nq)) {
            return Err(EINVAL);
        }
        if key.is_some_and(|k| k.len() != RSS_KEY_LEN) {
            return Err(EINVAL);
        }
        let mut rss = this.rss.lock();
        if let Some(t) = indir {
            for (e, &q) in rss.indir.iter_mut().zip(t.iter()) {
                *e = q as u8;
            }
        }
        if let Some(k) = key {
            for (e, &b) in rss.key.iter_mut().zip(k.iter()) {
                *e = b;
            }
        }
        // Down, the MAC is held in reset: `open` programs it.
        if dev.is_running() {
            this.write_rss(&rss)?;
        }
        Ok(())
    }

    fn get_rxfh_fields(dev: &netdev::Device<Self>, flow: FlowType) -> Result<u32> {
        let l4 = dev.data().l4_hash.load(Relaxed);
        let bit = match flow {
            FlowType::Tcp4 => HASH_TCP4,
            FlowType::Udp4 => HASH_UDP4,
            FlowType::Tcp6 => HASH_TCP6,
            FlowType::Udp6 => HASH_UDP6,
            FlowType::OtherIp4 | FlowType::OtherIp6 => 0,
            FlowType::Other(_) => return Err(EOPNOTSUPP),
        };
        Ok(if l4 & bit != 0 {
            FIELDS_SDFN
        } else {
            FIELDS_SD
        })
    }

    fn set_rxfh_fields(dev: &netdev::Device<Self>, flow: FlowType, fields: u32) -> Result {
        let this = dev.data();
        let bit = match flow {
            FlowType::Tcp4 => HASH_TCP4,
            FlowType::Udp4 => HASH_UDP4,
            FlowType::Tcp6 => HASH_TCP6,
            FlowType::Udp6 => HASH_UDP6,
            // Addresses only, always.
            FlowType::OtherIp4 | FlowType::OtherIp6 if fields == FIELDS_SD => return Ok(()),
            FlowType::OtherIp4 | FlowType::OtherIp6 => return Err(EINVAL),
            FlowType::Other(_) => return Err(EOPNOTSUPP),
        };
        // The 82576 hashes both addresses, with or without both ports: nothing in between.
        let on = match fields {
            FIELDS_SD => false,
            FIELDS_SDFN => true,
            _ => {
                dev_err!(
                    this.hw.pdev,
                    "{}: RSS hashes the IP addresses, with or without both ports (sd or sdfn)\n",
                    dev.name()
                );
                return Err(EINVAL);
            }
        };
        let old = this.l4_hash.load(Relaxed);
        this.l4_hash
            .store(if on { old | bit } else { old & !bit }, Relaxed);
        if dev.is_running() {
            this.write_mrqc()?;
        }
        Ok(())
    }

    //@ from pm
    fn get_wol(dev: &netdev::Device<Self>) -> WolSettings {
        let this = dev.data();
        let wufc = this.wol.load(Relaxed);
        let mut s = WolSettings::default();
        if this.wol_capable {
            for (event, bit) in WOL_EVENTS {
                s.supported |= event;
                if wufc & bit != 0 {
                    s.enabled |= event;
                }
            }
        }
        s
    }
    //@ end

    //@ from pm
    fn set_wol(dev: &netdev::Device<Self>, wol: Wol) -> Result {
        let wufc = WOL_EVENTS
            .iter()
            .filter(|(event, _)| wol.contains(*event))
            .fold(0, |w, (_, bit)| w | bit);
        // The filters are armed when the system goes to sleep.
        dev.data().wol.store(wufc, Relaxed);
        Ok(())
    }
    //@ end

    fn nway_reset(dev: &netdev::Device<Self>) -> Result {
        // A stopped interface negotiates when it is opened.
        if dev.is_running() {
            dev.data().renegotiate(dev)?;
        }
        Ok(())
    }

    fn set_phys_id(dev: &netdev::Device<Self>, state: PhysId) -> Result<u32> {
        let this = dev.data();
        let bar = &this.hw.bar;
        match state {
            PhysId::Active => {
                this.led_saved
                    .store(bar.read(regs::LEDCTL).bits().get(), Relaxed);
                // The core turns the LEDs on and off, once a second.
                return Ok(1);
            }
            PhysId::On => bar.write_reg(regs::LEDCTL::zeroed().with_bits(LEDCTL_ALL_ON)),
            PhysId::Off => bar.write_reg(regs::LEDCTL::zeroed().with_bits(LEDCTL_ALL_OFF)),
            PhysId::Inactive => {
                bar.write_reg(regs::LEDCTL::zeroed().with_bits(this.led_saved.load(Relaxed)))
            }
        }
        Ok(0)
    }

    //@ from ptp
    fn get_ts_info(dev: &netdev::Device<Self>, info: &mut TsInfo<'_>) -> Result {
        // `start_xmit` takes the software TX timestamp of every frame.
        info.add_timestamping(
            TsInfo::TX_SOFTWARE | TsInfo::TX_HARDWARE | TsInfo::RX_HARDWARE | TsInfo::RAW_HARDWARE,
        );
        info.set_phc_index(dev.phc_index());
        info.set_tx_types(&[HwTstampTx::Off, HwTstampTx::On]);
        // What `hwtstamp_set` keeps as it is; the other PTP v2 filters are widened to
        // `PtpV2Event`.
        info.set_rx_filters(&[
            HwTstampRx::None,
            HwTstampRx::PtpV1L4Sync,
            HwTstampRx::PtpV1L4DelayReq,
            HwTstampRx::PtpV2Event,
        ]);
        Ok(())
    }
    //@ end

    fn get_eeprom_len(dev: &netdev::Device<Self>) -> u32 {
        hw::nvm_words(&dev.data().hw.bar) * 2
    }

    fn get_eeprom(dev: &netdev::Device<Self>, offset: u32, buf: &mut [u8]) -> Result<u32> {
        let this = dev.data();
        // The words that hold the bytes asked for; `buf` is not empty and at most a page.
        let end = offset
            .checked_add(u32::try_from(buf.len())?)
            .ok_or(EINVAL)?;
        let first = offset / 2;
        let last = end.checked_sub(1).ok_or(EINVAL)? / 2;
        let mut words = KVec::from_elem(0u16, (last - first + 1) as usize, GFP_KERNEL)?;
        hw::read_nvm(&this.hw.bar, first, &mut words)?;
        let bytes = words.iter().flat_map(|w| w.to_le_bytes());
        for (b, v) in buf.iter_mut().zip(bytes.skip((offset % 2) as usize)) {
            *b = v;
        }
        // What C igb reports, for `ethtool -E` (which this driver does not offer).
        Ok(0x8086 | u32::from(this.hw.pdev.device_id()) << 16)
    }

    const SELF_TESTS: &'static [&'static str] = &[
        "Register test  (offline)",
        "Eeprom test    (offline)",
        "Interrupt test (offline)",
        "Link test   (on/offline)",
    ];

    fn self_test(
        dev: &netdev::Device<Self>,
        rtnl: &mut Rtnl,
        offline: bool,
        results: &mut [u64],
    ) -> bool {
        let this = dev.data();
        // First, before the offline tests reset the MAC and the link renegotiates.
        let link = u64::from(!hw::link_up(&this.hw.bar));
        //@ from sriov
        // The offline tests write the registers of queue 0, a VF's with VFs: not run, failed.
        if offline && this.vf_count() > 0 {
            dev_warn!(
                this.hw.pdev,
                "{}: offline tests not run with VFs enabled\n",
                dev.name()
            );
            let out = [1, 1, 1, link];
            for (slot, v) in results.iter_mut().zip(out) {
                *slot = v;
            }
            return false;
        }
        //@ end
        let [regs, nvm, irq] = if offline {
            this.offline_tests(dev, rtnl)
        } else {
            [0; 3]
        };
        let out = [regs, nvm, irq, link];
        for (slot, v) in results.iter_mut().zip(out) {
            *slot = v;
        }
        out.iter().all(|&v| v == 0)
    }

    //@ from stats
    fn get_strings(dev: &netdev::Device<Self>, set: StringSet, out: &mut StringWriter<'_>) {
        if set != StringSet::Stats {
            return;
        }
        for q in 0..u32::from(dev.data().nq) {
            for name in QUEUE_STATS {
                let (dir, rest) = name.split_at(2);
                out.push_indexed(dir, q, rest);
            }
        }
        for name in DEVICE_STATS {
            out.push(name);
        }
        for name in HwStats::names() {
            out.push(name);
        }
        pp_stats::write_names(out);
    }
    //@ end

    //@ from stats
    fn get_ethtool_stats(dev: &netdev::Device<Self>, data: &mut [u64]) {
        let mut pp = pp_stats::Sum::default();
        let mut it = data.iter_mut();
        for (q, v) in queue_vectors(dev) {
            let s = &v.stats;
            let vals = [
                s.rx_packets.load(Relaxed),
                s.rx_bytes.load(Relaxed),
                s.rx_errors.load(Relaxed),
                s.rx_alloc_failed.load(Relaxed),
                s.rx_copybreak.load(Relaxed),
                s.rx_buf_frags.load(Relaxed),
                s.rx_buf_pages.load(Relaxed),
                s.rx_csum_good.load(Relaxed),
                s.tx_packets.load(Relaxed),
                s.tx_bytes.load(Relaxed),
                s.tx_dropped.load(Relaxed),
                s.tx_busy.load(Relaxed),
                s.tx_sg_packets.load(Relaxed),
                s.tx_linearized.load(Relaxed),
                s.tx_tso_packets.load(Relaxed),
                s.xdp_drop.load(Relaxed),
                s.xdp_tx.load(Relaxed),
                s.xdp_redirect.load(Relaxed),
                s.xdp_aborted.load(Relaxed),
                s.xdp_xmit.load(Relaxed),
                s.xdp_tx_errors.load(Relaxed),
                s.dim_updates.load(Relaxed),
            ];
            // `vals` first: zip must not pull a slot it cannot fill.
            for (val, slot) in vals.into_iter().zip(&mut it) {
                *slot = val;
            }
            if let Some(napi) = dev.napi(usize::from(q) + 1) {
                pp.add(napi);
            }
        }
        let this = dev.data();
        // One read of the clear-on-read registers for both.
        let (hw, drops) = this.hw_stats.update(&this.hw.bar);
        let device = [
            this.tx_timeouts.load(Relaxed),
            this.tx_hangs.load(Relaxed),
            this.resets.load(Relaxed),
            this.device_resets.load(Relaxed),
            this.dma_out_of_sync.load(Relaxed),
            drops.iter().sum(),
            this.phc.tx_timeouts.load(Relaxed), //@ ptp
            this.phc.tx_skipped.load(Relaxed),  //@ ptp
            this.phc.rx_cleared.load(Relaxed),  //@ ptp
        ];
        for (val, slot) in device.into_iter().zip(&mut it) {
            *slot = val;
        }
        for (val, slot) in hw.into_iter().zip(&mut it) {
            *slot = val;
        }
        pp.write_values(it.into_slice());
    }
    //@ end
}
//@ end

//@ from stats
/// Number of `ethtool -S` counters of a device with `nq` queue pairs.
pub(crate) fn stats_count(nq: u32) -> u32 {
    nq * QUEUE_STATS.len() as u32 + DEVICE_STATS.len() as u32 + HwStats::COUNT + pp_stats::count()
}
//@ end

//@ from stats
/// The page pool counters of `ethtool -S`, when the kernel keeps them
/// (`CONFIG_PAGE_POOL_STATS`); nothing otherwise.
#[cfg(CONFIG_PAGE_POOL_STATS)]
mod pp_stats {
    use crate::queue::VectorData;
    use kernel::net::{ethtool::StringWriter, napi::Napi, page_pool::Stats};

    pub(super) fn count() -> u32 {
        Stats::count()
    }

    pub(super) fn write_names(out: &mut StringWriter<'_>) {
        Stats::write_names(out);
    }

    /// The counters of every pool added up.
    #[derive(Default)]
    pub(super) struct Sum(Stats);

    impl Sum {
        pub(super) fn add(&mut self, napi: &Napi<VectorData<'_>>) {
            napi.pool_stats(&mut self.0);
        }

        pub(super) fn write_values(&self, out: &mut [u64]) {
            self.0.write_values(out);
        }
    }
}

#[cfg(not(CONFIG_PAGE_POOL_STATS))]
mod pp_stats {
    use crate::queue::VectorData;
    use kernel::net::{ethtool::StringWriter, napi::Napi};

    pub(super) fn count() -> u32 {
        0
    }

    pub(super) fn write_names(_out: &mut StringWriter<'_>) {}

    #[derive(Default)]
    pub(super) struct Sum;

    impl Sum {
        pub(super) fn add(&mut self, _napi: &Napi<VectorData<'_>>) {}

        pub(super) fn write_values(&self, _out: &mut [u64]) {}
    }
}
//@ end
