// SPDX-License-Identifier: GPL-2.0

//! Network devices.
//!
//! A [`Registration`] owns a `struct net_device` whose private area holds the driver's own
//! typed data `T`. The driver implements [`Operations`] for `T`; every callback receives a
//! [`Device<T>`], from which [`Device::data`] returns `&T`, so no driver ever casts
//! `netdev_priv()`.
//!
//! Ownership is in the types: [`Operations::start_xmit`] receives an owned [`SkBuff`] and either
//! consumes it or hands it back, a MAC address reaches the driver only after it was validated,
//! and the new MTU is stored by the abstraction only when the driver accepted it.
//!
//! C headers: [`include/linux/netdevice.h`](srctree/include/linux/netdevice.h),
//! [`include/linux/etherdevice.h`](srctree/include/linux/etherdevice.h).

use crate::{
    bindings, container_of, device,
    error::{from_result, to_result, VTABLE_DEFAULT_ERROR},
    irq::{self, IrqReturn},
    net::{
        napi::{self, Napi, Poll},
        skb::{SkBuff, TxTimestamp},
    },
    prelude::*,
    ptp,
    sync::{
        atomic::{Atomic, Relaxed},
        barrier::{smp_mb, Full},
        static_lock_class,
    },
    time::{msecs_to_jiffies, Delta},
    types::{NotThreadSafe, Opaque},
};
use core::{cell::UnsafeCell, marker::PhantomData, ptr::NonNull};

pub mod pci;
pub mod ring;

pub use crate::net::rtnl::Rtnl;

/// Length of an Ethernet (MAC) address.
pub const ETH_ALEN: usize = bindings::ETH_ALEN as usize;

/// An Ethernet MAC address.
pub type MacAddress = [u8; ETH_ALEN];

/// Returns whether `addr` is a valid unicast Ethernet address (`is_valid_ether_addr()`).
///
/// # Examples
///
/// ```
/// use kernel::net::netdev::is_valid_ether_addr;
///
/// assert!(is_valid_ether_addr(&[0x52, 0x54, 0, 0x12, 0x34, 0x56]));
/// assert!(!is_valid_ether_addr(&[0; 6]));
/// assert!(!is_valid_ether_addr(&[0x01, 0, 0x5e, 0, 0, 1])); // multicast
/// ```
#[inline]
pub fn is_valid_ether_addr(addr: &MacAddress) -> bool {
    // SAFETY: `addr` points to `ETH_ALEN` readable bytes.
    unsafe { bindings::is_valid_ether_addr(addr.as_ptr()) }
}

/// Fills `key` with the system-wide random RSS key (`netdev_rss_key_fill()`).
#[inline]
pub fn rss_key_fill(key: &mut [u8]) {
    // SAFETY: `key` is valid for writes of its length.
    unsafe { bindings::netdev_rss_key_fill(key.as_mut_ptr().cast(), key.len()) };
}

/// Waits until every NAPI poll and transmit running now has returned (`synchronize_net()`):
/// each runs with bottom halves disabled, an RCU read-side section. Process context; may
/// sleep (briefly with RTNL held, where the wait is expedited).
#[inline]
pub fn synchronize_net() {
    // SAFETY: No requirement beyond process context, which sleeping functions need anyway.
    unsafe { bindings::synchronize_net() };
}

/// Number of CPUs currently online.
#[inline]
pub fn num_online_cpus() -> u32 {
    // SAFETY: Reads a global counter.
    unsafe { bindings::num_online_cpus() }
}

/// Interface statistics, as reported by `ndo_get_stats64` (`struct rtnl_link_stats64`).
pub type Stats64 = bindings::rtnl_link_stats64;

/// An skb the stack asks the driver to transmit, not yet accepted.
///
/// The driver may read it (through `Deref`) to decide whether it has room, then either
/// [`accept`](TxRequest::accept)s it, taking ownership, or hands it back unchanged with
/// [`Xmit::Busy`]. The brand `'x` is an invariant lifetime chosen afresh for every
/// [`Operations::start_xmit`] call, so the only `TxRequest<'x>` a call can return is the one
/// it received: the stack never requeues an skb other than its own.
///
/// Dropping it frees the skb, which counts as transmitted-or-dropped (`NETDEV_TX_OK`).
///
/// # Invariants
///
/// `skb` is the skb the stack passed to the `ndo_start_xmit` call branded `'x`, unmodified.
pub struct TxRequest<'x> {
    skb: SkBuff,
    _brand: PhantomData<fn(&'x ()) -> &'x ()>,
}

impl TxRequest<'_> {
    /// Takes ownership of the skb: from now on the call can only return [`Xmit::Ok`].
    #[inline]
    pub fn accept(self) -> SkBuff {
        self.skb
    }
}

impl core::ops::Deref for TxRequest<'_> {
    type Target = SkBuff;

    #[inline]
    fn deref(&self) -> &SkBuff {
        &self.skb
    }
}

/// Result of [`Operations::start_xmit`].
pub enum Xmit<'x> {
    /// The skb was accepted or dropped (`NETDEV_TX_OK`).
    Ok,
    /// The device cannot take the skb now; it goes back to the stack unchanged, which retries
    /// later (`NETDEV_TX_BUSY`). The driver should have stopped the queue.
    Busy(TxRequest<'x>),
}

/// Network device operations (`struct net_device_ops`), implemented on the driver's private
/// data type.
///
/// `open`, `stop`, `set_mac_address`, `change_mtu`, `set_features` and the VLAN filter calls
/// run in process context with the RTNL lock held; `start_xmit` runs with bottom halves
/// disabled and the queue's xmit lock held; `set_rx_mode` runs under the device's address list
/// lock.
#[vtable]
pub trait Operations: Sized + Send + Sync {
    /// The poll routine of the device's NAPI instances ([`napi::NoPoll`] for none).
    type Poll: napi::Poll<Owner = Self>;

    /// The data of each transmit queue, protected by that queue's xmit lock: the sending half
    /// of a driver's TX ring, typically (`ring::Producer`). It starts as `Default` and is
    /// reached by [`Operations::start_xmit`] and through [`Device::lock_tx`].
    type XmitData: Default + Send;

    /// Brings the interface up (`ndo_open`).
    fn open(dev: &Device<Self>, rtnl: &mut Rtnl) -> Result;

    /// Takes the interface down (`ndo_stop`, or [`Registration::detach`]). Every TX queue is
    /// stopped before the call and again after it; in between, only a queue the driver wakes
    /// itself (e.g. from a TX completion poll it has not disabled yet) lets
    /// [`Operations::start_xmit`] run again.
    fn stop(dev: &Device<Self>, rtnl: &mut Rtnl) -> Result;

    /// Transmits `skb` (`ndo_start_xmit`): accept it, or hand it back with [`Xmit::Busy`].
    ///
    /// Runs with bottom halves disabled, or, from netpoll, with interrupts disabled and
    /// possibly in hard interrupt context: locks taken here must not be taken with interrupts
    /// enabled anywhere else.
    ///
    /// `txq` is the queue the stack chose and locked for this skb: the only one whose byte
    /// queue limits this call may account; `data` is that queue's.
    fn start_xmit<'x>(
        dev: &Device<Self>,
        txq: &XmitQueue<'x>,
        data: &mut Self::XmitData,
        skb: TxRequest<'x>,
    ) -> Xmit<'x>;

    /// Handles an interrupt on vector `vector` of the lines given to
    /// [`Registration::new_with_lt`]. Hard interrupt context; the lines are requested while
    /// the device is open, from before [`Operations::open`] runs until after
    /// [`Operations::stop`] returned, so it only sees the private data and the NAPI instances
    /// ([`IrqDevice`]). On a shared line (INTx) it also runs for interrupts of
    /// other devices: it must return [`IrqReturn::None`] for those.
    #[inline]
    fn handle_irq(_dev: &IrqDevice<Self>, _vector: u32) -> IrqReturn {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Fills in the interface statistics (`ndo_get_stats64`). May run in any context.
    #[inline]
    fn get_stats64(_dev: &Device<Self>, _stats: &mut Stats64) {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Programs the unicast/multicast filters (`ndo_set_rx_mode`).
    #[inline]
    fn set_rx_mode(_dev: &Device<Self>, _mode: &RxMode<'_>) {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Accepts or refuses a forwarding entry for the device itself (`ndo_fdb_add` with
    /// `NTF_SELF`, e.g. `bridge fdb add ADDR dev DEV self permanent`), under RTNL, e.g. when
    /// its filters cannot hold another address; `extack` may explain a refusal to the user.
    /// On `Ok` the abstraction adds it as the core does for a device without this callback
    /// (`ndo_dflt_fdb_add()`): a unicast or link-local address (see
    /// [`FdbAdd::adds_unicast`]) goes on the unicast list, another multicast one on the
    /// multicast list, which [`Operations::set_rx_mode`] then programs before the request
    /// returns if the device is up (otherwise when it opens); it refuses with `EINVAL` a
    /// VLAN, extended flags or an entry that is neither permanent nor without state, and with
    /// `EEXIST` an address already there if the request said `NLM_F_EXCL`.
    #[inline]
    fn fdb_add(
        _dev: &Device<Self>,
        _rtnl: &mut Rtnl,
        _req: &FdbAdd<'_>,
        _extack: &mut ExtAck<'_>,
    ) -> Result {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Programs a new, already validated, unicast MAC address (`ndo_set_mac_address`). The
    /// abstraction stores it in the net_device only when this returns `Ok`.
    #[inline]
    fn set_mac_address(_dev: &Device<Self>, _rtnl: &mut Rtnl, _addr: &MacAddress) -> Result {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Switches to `new_mtu`, already checked against the device's MTU range
    /// (`ndo_change_mtu`). The abstraction stores it only when this returns `Ok`.
    #[inline]
    fn change_mtu(_dev: &Device<Self>, _rtnl: &mut Rtnl, _new_mtu: u32) -> Result {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Returns the `NETIF_F_*` offloads of `features` that the device can use for `skb`
    /// (`ndo_features_check`), for frames whose headers exceed what its descriptors can
    /// describe. The core calls it for frames it validates before transmit (not for those
    /// pktgen or netpoll hand to [`Operations::start_xmit`] directly, and before it pushes an
    /// out-of-band VLAN tag into the data), in any context: `start_xmit` must still check
    /// what it relies on. The skb may be shared, so it is only lent for reading.
    ///
    /// The abstraction has already applied the core's VLAN rules (`vlan_features_check()`,
    /// what the core does for devices without this callback), and keeps only the bits of
    /// `features` that the result also has: offloads can be removed here, never added.
    #[inline]
    fn features_check(_dev: &Device<Self>, _skb: &SkBuff, _features: u64) -> u64 {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Handles a transmit queue the stack found stopped for longer than the watchdog timeout
    /// (`ndo_tx_timeout`, five seconds): `queue` is the first such queue.
    ///
    /// Runs in softirq context with every TX queue of the device frozen: it can only record
    /// what happened and ask for [`Operations::service`] to recover, with
    /// [`Device::kick_service`].
    #[inline]
    fn tx_timeout(_dev: &Device<Self>, _queue: u32) {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// The driver's periodic work (a watchdog): checks the device, resets it if needed.
    ///
    /// Runs in process context with the RTNL lock held, only while the interface is up:
    /// first right after [`Operations::open`] succeeded, then after the delay it returns
    /// (`None`: not again until [`Device::kick_service`]), and as soon as possible after
    /// each [`Device::kick_service`]. Never during [`Operations::open`] or
    /// [`Operations::stop`], never after the device was unregistered.
    #[inline]
    fn service(_dev: &Device<Self>, _rtnl: &mut Rtnl) -> Option<Delta> {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Applies a change of the features the user may toggle (`ndo_set_features`, after
    /// `ethtool -K`): `features` is the whole new set, [`Device::features`] still the old one.
    /// The core stores `features` only when this returns `Ok`. Runs under RTNL, whether the
    /// interface is up or not.
    #[inline]
    fn set_features(_dev: &Device<Self>, _rtnl: &mut Rtnl, _features: u64) -> Result {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Lets frames tagged with 802.1Q VLAN `vid` (0..4095) through the receive filter
    /// (`ndo_vlan_rx_add_vid`). Called only for a device with `NETIF_F_HW_VLAN_CTAG_FILTER`,
    /// under RTNL, up or not; the core keeps the list and asks again for every VLAN after the
    /// feature is turned back on, but not after a reset of the device: the driver keeps what
    /// it must restore. While the device is detached ([`Registration::detach`]) the core calls
    /// neither: an addition fails with `ENODEV`, a removal only leaves the core's list, so
    /// after [`Registration::attach`] the driver may still let a removed VLAN through.
    #[inline]
    fn vlan_rx_add_vid(_dev: &Device<Self>, _rtnl: &mut Rtnl, _vid: u16) -> Result {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Filters frames of 802.1Q VLAN `vid` out again (`ndo_vlan_rx_kill_vid`), as for
    /// [`Operations::vlan_rx_add_vid`].
    #[inline]
    fn vlan_rx_kill_vid(_dev: &Device<Self>, _rtnl: &mut Rtnl, _vid: u16) -> Result {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// The hardware timestamping in effect (`ndo_hwtstamp_get`, `SIOCGHWTSTAMP`, ethtool's
    /// `tsconfig-get`), under RTNL.
    #[inline]
    fn hwtstamp_get(_dev: &Device<Self>) -> Result<HwTstampConfig> {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Applies a hardware timestamping request (`ndo_hwtstamp_set`, `SIOCSHWTSTAMP`, ethtool's
    /// `tsconfig-set`), under RTNL, interface up or down. The driver refuses what the device
    /// cannot do (`ERANGE` as C drivers do, with `extack` saying why) or widens the receive
    /// filter to one that covers the request, and leaves in `config` what it applied: the
    /// abstraction hands that back to the user, and nothing on an error.
    #[inline]
    fn hwtstamp_set(
        _dev: &Device<Self>,
        _rtnl: &mut Rtnl,
        _config: &mut HwTstampConfig,
        _extack: &mut ExtAck<'_>,
    ) -> Result {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Counters of RX queue `index` (`netdev_stat_ops.get_queue_stats_rx`, netlink
    /// `qstats-get`). `index` is below the number of RX queues in use. The driver sets the
    /// counters it keeps; those it leaves alone are reported as absent. Runs under RTNL, with
    /// the interface up or down (device-wide requests do not check): the counters must
    /// outlive what `stop` frees.
    #[inline]
    fn queue_stats_rx(_dev: &Device<Self>, _index: u32, _stats: &mut QueueStatsRx) {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Counters of TX queue `index` (`netdev_stat_ops.get_queue_stats_tx`), as for
    /// [`Operations::queue_stats_rx`].
    #[inline]
    fn queue_stats_tx(_dev: &Device<Self>, _index: u32, _stats: &mut QueueStatsTx) {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// What the device counted outside the queues in use (`get_base_stats`): events of queues
    /// that no longer exist, or of no queue. The device-wide figure of a counter is this plus
    /// the sum over the queues, and only counters set here are reported device-wide: set each
    /// counter the queues report, to 0 if the queues hold the whole history.
    #[inline]
    fn base_stats(_dev: &Device<Self>, _rx: &mut QueueStatsRx, _tx: &mut QueueStatsTx) {
        build_error!(VTABLE_DEFAULT_ERROR)
    }
}

/// Which transmitted frames the device timestamps (`enum hwtstamp_tx_types`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u32)]
pub enum HwTstampTx {
    /// None (`HWTSTAMP_TX_OFF`).
    Off = bindings::hwtstamp_tx_types_HWTSTAMP_TX_OFF,
    /// Those whose socket asked for it (`HWTSTAMP_TX_ON`, `SKBTX_HW_TSTAMP`).
    On = bindings::hwtstamp_tx_types_HWTSTAMP_TX_ON,
    /// As `On`, and the device writes Sync messages' timestamps into them
    /// (`HWTSTAMP_TX_ONESTEP_SYNC`).
    OneStepSync = bindings::hwtstamp_tx_types_HWTSTAMP_TX_ONESTEP_SYNC,
    /// As `OneStepSync`, and peer delay responses too (`HWTSTAMP_TX_ONESTEP_P2P`).
    OneStepP2p = bindings::hwtstamp_tx_types_HWTSTAMP_TX_ONESTEP_P2P,
}

impl HwTstampTx {
    const ALL: [Self; 4] = [Self::Off, Self::On, Self::OneStepSync, Self::OneStepP2p];

    /// The variant whose C value is `raw`, or `ERANGE`.
    fn from_raw(raw: c_int) -> Result<Self> {
        Self::ALL
            .into_iter()
            .find(|t| *t as c_int == raw)
            .ok_or(ERANGE)
    }
}

/// Which received frames the device timestamps (`enum hwtstamp_rx_filters`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u32)]
pub enum HwTstampRx {
    /// None (`HWTSTAMP_FILTER_NONE`).
    None = bindings::hwtstamp_rx_filters_HWTSTAMP_FILTER_NONE,
    /// All (`HWTSTAMP_FILTER_ALL`).
    All = bindings::hwtstamp_rx_filters_HWTSTAMP_FILTER_ALL,
    /// Some, chosen by the device (`HWTSTAMP_FILTER_SOME`).
    Some = bindings::hwtstamp_rx_filters_HWTSTAMP_FILTER_SOME,
    /// PTP v1 over UDP, any event message (`HWTSTAMP_FILTER_PTP_V1_L4_EVENT`).
    PtpV1L4Event = bindings::hwtstamp_rx_filters_HWTSTAMP_FILTER_PTP_V1_L4_EVENT,
    /// PTP v1 over UDP, Sync messages.
    PtpV1L4Sync = bindings::hwtstamp_rx_filters_HWTSTAMP_FILTER_PTP_V1_L4_SYNC,
    /// PTP v1 over UDP, Delay_Req messages.
    PtpV1L4DelayReq = bindings::hwtstamp_rx_filters_HWTSTAMP_FILTER_PTP_V1_L4_DELAY_REQ,
    /// PTP v2 over UDP, any event message.
    PtpV2L4Event = bindings::hwtstamp_rx_filters_HWTSTAMP_FILTER_PTP_V2_L4_EVENT,
    /// PTP v2 over UDP, Sync messages.
    PtpV2L4Sync = bindings::hwtstamp_rx_filters_HWTSTAMP_FILTER_PTP_V2_L4_SYNC,
    /// PTP v2 over UDP, Delay_Req messages.
    PtpV2L4DelayReq = bindings::hwtstamp_rx_filters_HWTSTAMP_FILTER_PTP_V2_L4_DELAY_REQ,
    /// PTP v2 over Ethernet (802.1AS), any event message.
    PtpV2L2Event = bindings::hwtstamp_rx_filters_HWTSTAMP_FILTER_PTP_V2_L2_EVENT,
    /// PTP v2 over Ethernet, Sync messages.
    PtpV2L2Sync = bindings::hwtstamp_rx_filters_HWTSTAMP_FILTER_PTP_V2_L2_SYNC,
    /// PTP v2 over Ethernet, Delay_Req messages.
    PtpV2L2DelayReq = bindings::hwtstamp_rx_filters_HWTSTAMP_FILTER_PTP_V2_L2_DELAY_REQ,
    /// PTP v2 over any transport, any event message.
    PtpV2Event = bindings::hwtstamp_rx_filters_HWTSTAMP_FILTER_PTP_V2_EVENT,
    /// PTP v2 over any transport, Sync messages.
    PtpV2Sync = bindings::hwtstamp_rx_filters_HWTSTAMP_FILTER_PTP_V2_SYNC,
    /// PTP v2 over any transport, Delay_Req messages.
    PtpV2DelayReq = bindings::hwtstamp_rx_filters_HWTSTAMP_FILTER_PTP_V2_DELAY_REQ,
    /// NTP over UDP, all packets (`HWTSTAMP_FILTER_NTP_ALL`).
    NtpAll = bindings::hwtstamp_rx_filters_HWTSTAMP_FILTER_NTP_ALL,
}

impl HwTstampRx {
    const ALL: [Self; 16] = [
        Self::None,
        Self::All,
        Self::Some,
        Self::PtpV1L4Event,
        Self::PtpV1L4Sync,
        Self::PtpV1L4DelayReq,
        Self::PtpV2L4Event,
        Self::PtpV2L4Sync,
        Self::PtpV2L4DelayReq,
        Self::PtpV2L2Event,
        Self::PtpV2L2Sync,
        Self::PtpV2L2DelayReq,
        Self::PtpV2Event,
        Self::PtpV2Sync,
        Self::PtpV2DelayReq,
        Self::NtpAll,
    ];

    /// The variant whose C value is `raw`, or `ERANGE`.
    fn from_raw(raw: c_int) -> Result<Self> {
        Self::ALL
            .into_iter()
            .find(|f| *f as c_int == raw)
            .ok_or(ERANGE)
    }
}

/// A hardware timestamping configuration (`struct kernel_hwtstamp_config`): what
/// [`Operations::hwtstamp_get`] reports and [`Operations::hwtstamp_set`] applies. Its flags
/// (a bonding master's PHC index) pass through the abstraction unchanged.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct HwTstampConfig {
    /// Which transmitted frames are timestamped.
    pub tx: HwTstampTx,
    /// Which received frames are timestamped.
    pub rx: HwTstampRx,
}

impl HwTstampConfig {
    /// Nothing timestamped: the state of a device that has not been asked.
    pub const OFF: Self = Self {
        tx: HwTstampTx::Off,
        rx: HwTstampRx::None,
    };
}

/// Receive counters of one queue, or of a whole device (`struct netdev_queue_stats_rx`).
///
/// Write-only: a counter that is not set is reported as absent.
#[repr(transparent)]
pub struct QueueStatsRx(bindings::netdev_queue_stats_rx);

impl QueueStatsRx {
    /// Frames received.
    #[inline]
    pub fn set_packets(&mut self, v: u64) {
        self.0.packets = v;
    }

    /// Bytes received.
    #[inline]
    pub fn set_bytes(&mut self, v: u64) {
        self.0.bytes = v;
    }

    /// Times a receive buffer could not be allocated.
    #[inline]
    pub fn set_alloc_fail(&mut self, v: u64) {
        self.0.alloc_fail = v;
    }

    /// Frames the device dropped.
    #[inline]
    pub fn set_hw_drops(&mut self, v: u64) {
        self.0.hw_drops = v;
    }

    /// Frames whose checksum the device verified (`CHECKSUM_UNNECESSARY`).
    #[inline]
    pub fn set_csum_unnecessary(&mut self, v: u64) {
        self.0.csum_unnecessary = v;
    }
}

/// Transmit counters of one queue, or of a whole device (`struct netdev_queue_stats_tx`).
///
/// Write-only: a counter that is not set is reported as absent.
#[repr(transparent)]
pub struct QueueStatsTx(bindings::netdev_queue_stats_tx);

impl QueueStatsTx {
    /// Frames sent.
    #[inline]
    pub fn set_packets(&mut self, v: u64) {
        self.0.packets = v;
    }

    /// Bytes sent.
    #[inline]
    pub fn set_bytes(&mut self, v: u64) {
        self.0.bytes = v;
    }

    /// Frames handed to the device for segmentation (TSO).
    #[inline]
    pub fn set_hw_gso_packets(&mut self, v: u64) {
        self.0.hw_gso_packets = v;
    }

    /// Times the driver stopped the queue.
    #[inline]
    pub fn set_stop(&mut self, v: u64) {
        self.0.stop = v;
    }

    /// Times the driver woke the queue.
    #[inline]
    pub fn set_wake(&mut self, v: u64) {
        self.0.wake = v;
    }
}

/// The address-list view handed to [`Operations::set_rx_mode`].
///
/// # Invariants
///
/// `dev` is a valid net_device whose address list lock is held for `'a`.
pub struct RxMode<'a> {
    dev: &'a Opaque<bindings::net_device>,
}

impl RxMode<'_> {
    #[inline]
    fn flags(&self) -> u32 {
        // SAFETY: `dev` is a valid net_device for the lifetime of `self`.
        unsafe { (*self.dev.get()).flags }
    }

    /// Whether the interface is in promiscuous mode (`IFF_PROMISC`).
    #[inline]
    pub fn promisc(&self) -> bool {
        self.flags() & bindings::net_device_flags_IFF_PROMISC != 0
    }

    /// Whether all multicast frames must be received (`IFF_ALLMULTI`).
    #[inline]
    pub fn allmulti(&self) -> bool {
        self.flags() & bindings::net_device_flags_IFF_ALLMULTI != 0
    }

    /// Calls `f` for each multicast address the stack subscribed to.
    #[inline]
    pub fn for_each_mc_addr(&self, f: impl FnMut(&MacAddress)) {
        self.for_each_addr(false, f)
    }

    /// How many secondary unicast addresses the device must receive (`netdev_uc_count()`):
    /// those of upper devices (a macvlan, a VLAN device with an address of its own, the static
    /// and local entries of a bridge that keeps the device out of promiscuous mode, the
    /// device's own address among them) and those of `bridge fdb add ... self`, which may be
    /// link-local multicast ones (`01:80:c2:00:00:0X`). Only a device registered with
    /// [`Config::unicast_filter`] gets any without being put in promiscuous mode.
    #[inline]
    pub fn uc_count(&self) -> usize {
        // SAFETY: `dev` is valid and its address list lock is held (type invariant), under
        // which the count changes.
        let n = unsafe { (*self.dev.get()).uc.count };
        // Never negative; were it, the list would count as full.
        usize::try_from(n).unwrap_or(usize::MAX)
    }

    /// Calls `f` for each of the [`uc_count`](Self::uc_count) secondary unicast addresses.
    #[inline]
    pub fn for_each_uc_addr(&self, f: impl FnMut(&MacAddress)) {
        self.for_each_addr(true, f)
    }

    /// Calls `f` for each address on the device's unicast (`uc`) or multicast list.
    #[inline]
    fn for_each_addr(&self, uc: bool, mut f: impl FnMut(&MacAddress)) {
        let dev = self.dev.get();
        // SAFETY: `dev` is valid and its address lists do not change while we walk them: the
        // address list lock is held (type invariant).
        let head = unsafe {
            if uc {
                &raw mut (*dev).uc.list
            } else {
                &raw mut (*dev).mc.list
            }
        };
        // SAFETY: `head` is an initialised list head.
        let mut pos = unsafe { (*head).next };
        while pos != head {
            // SAFETY: every entry on an address list is the `list` member of a
            // `struct netdev_hw_addr`.
            let ha = unsafe { crate::container_of!(pos, bindings::netdev_hw_addr, list) };
            // SAFETY: `ha` is valid while the lock is held; `addr` holds at least `ETH_ALEN`
            // bytes for an Ethernet device.
            let addr = unsafe { &*(&raw const (*ha).addr).cast::<MacAddress>() };
            f(addr);
            // SAFETY: `pos` is a valid list entry.
            pos = unsafe { (*pos).next };
        }
    }
}

/// A netlink extended acknowledgment (`struct netlink_ext_ack`) to explain an error to the
/// user.
///
/// # Invariants
///
/// `self.0` is null or a live `netlink_ext_ack` for `'a`, the duration of the callback.
pub struct ExtAck<'a>(*mut bindings::netlink_ext_ack, PhantomData<&'a mut ()>);

impl ExtAck<'_> {
    /// # Safety
    ///
    /// `p` must be null or a live `netlink_ext_ack` for `'a`, not used by others meanwhile.
    #[inline]
    pub(crate) unsafe fn from_raw(p: *mut bindings::netlink_ext_ack) -> Self {
        // INVARIANT: per the safety requirements.
        Self(p, PhantomData)
    }

    /// Sets the message the user sees with the error (`NL_SET_ERR_MSG()`).
    #[inline]
    pub fn set_msg(&mut self, msg: &'static CStr) {
        if !self.0.is_null() {
            // SAFETY: Live and ours for the callback (type invariant); the message is static.
            unsafe { (*self.0)._msg = msg.as_char_ptr() };
        }
    }
}

/// A request to add a forwarding entry to the device itself, lent to
/// [`Operations::fdb_add`] to accept or refuse: the address and VLAN the user gave.
///
/// # Invariants
///
/// `dev` is the registered device of one `ndo_fdb_add` call of the core, valid for `'a`,
/// which that call outlives; the call runs in process context under RTNL.
pub struct FdbAdd<'a> {
    dev: &'a Opaque<bindings::net_device>,
    addr: &'a MacAddress,
    vid: u16,
    _not_send: NotThreadSafe,
}

impl FdbAdd<'_> {
    /// The address to add.
    #[inline]
    pub fn addr(&self) -> &MacAddress {
        self.addr
    }

    /// The VLAN the user gave, 0 for none; the default way refuses any other with `EINVAL`.
    #[inline]
    pub fn vid(&self) -> u16 {
        self.vid
    }

    /// Whether the default way puts the address on the unicast list
    /// ([`RxMode::for_each_uc_addr`]): a unicast or a link-local (`01:80:c2:00:00:0X`)
    /// address; the other multicast addresses go on the multicast list.
    #[inline]
    pub fn adds_unicast(&self) -> bool {
        let a = self.addr;
        a[0] & 1 == 0 || (a[..5] == [0x01, 0x80, 0xc2, 0, 0] && a[5] & 0xf0 == 0)
    }

    /// How many secondary unicast addresses the device has now ([`RxMode::uc_count`]), and
    /// whether [`addr`](Self::addr) is one of them (then adding it again takes no room).
    #[inline]
    pub fn uc_state(&self) -> (usize, bool) {
        let dev = self.dev.get();
        // SAFETY: `dev` is valid for the call, made in process context (type invariant), where
        // the address list lock, which the list changes under, may be taken with bottom halves
        // off; released below.
        unsafe { bindings::netif_addr_lock_bh(dev) };
        let state = {
            // INVARIANT: the lock is held for as long as `mode` exists (this block).
            let mode = RxMode { dev: self.dev };
            let mut listed = false;
            mode.for_each_uc_addr(|a| listed |= a == self.addr);
            (mode.uc_count(), listed)
        };
        // SAFETY: Taken above.
        unsafe { bindings::netif_addr_unlock_bh(dev) };
        state
    }
}

/// The private area of a net_device allocated by [`Registration`].
///
/// # Invariants
///
/// - `napis` is never resized after the device is registered; `stats_count` only changes under
///   RTNL; `reg_detached` is only accessed under RTNL or with exclusive access.
/// - `netdev` is the net_device whose private area this is.
/// - `service` is initialised, with [`service_callback::<T>`] as its function when `T` has
///   [`Operations::service`], and is disabled and drained before `data` is dropped.
/// - `xmit` has one entry per TX queue the device was allocated with, never resized; entry
///   `i` is only accessed by a holder of the xmit lock of TX queue `i`, or with exclusive
///   access to the device while it is not registered. Its `data` is lent (`&mut`) only while
///   its `busy` flag is set, by whoever set it.
struct Priv<T: Operations> {
    /// The device, for the service work.
    netdev: *mut bindings::net_device,
    /// Runs [`Operations::service`].
    service: Opaque<bindings::delayed_work>,
    /// Number of `ethtool -S` statistics: the size of the buffers the ethtool core hands to
    /// `get_strings` and `get_ethtool_stats`.
    stats_count: Atomic<u32>,
    /// The interrupt lines, requested while the device is open.
    irqs: IrqLines,
    /// [`Registration::detach`] detached the device (and stopped it if it was up) and
    /// [`Registration::attach`] has not attached it since. Only accessed under RTNL.
    reg_detached: UnsafeCell<bool>,
    /// The index of the device's PTP clock, -1 while it has none registered.
    phc_index: Atomic<i32>,
    /// Dropped first: the driver's data may refer to the instances' work.
    data: T,
    /// The NAPI instances, owned here so that none outlives the device.
    napis: KVec<Pin<KBox<Napi<T::Poll>>>>,
    /// Each TX queue's [`Operations::XmitData`].
    xmit: KVec<XmitCell<T::XmitData>>,
}

/// One TX queue's [`Operations::XmitData`]; see [`Priv`] for who may access it.
///
/// The xmit lock alone does not make a holder's access unique: the stack may call
/// `start_xmit` for an skb whose queue mapping names another queue than the one it locked (a
/// bulk dequeue from a single-queue qdisc, after a classifier's `skbedit queue_mapping`), and
/// the holder of a queue's lock may end up in `start_xmit` again, nested in itself or in an
/// interrupt on its CPU. So the data is only lent by whoever finds `busy` clear, having
/// checked that it holds the queue's lock (`netif_tx_owned()`: its CPU, or on PREEMPT_RT, where
/// a holder may be preempted, its task), and `busy` stays set for as long as the loan.
struct XmitCell<D> {
    busy: UnsafeCell<bool>,
    data: UnsafeCell<D>,
}

impl<D> XmitCell<D> {
    /// Lends the data if it is not lent already: returns `None` if it is. Until
    /// [`XmitCell::give_back`], the caller is the only one to access it.
    ///
    /// # Safety
    ///
    /// The caller must hold the xmit lock of the cell's queue (as [`tx_owned`] tells), and call
    /// [`XmitCell::give_back`] once it no longer uses the data, before it releases the lock.
    #[inline(always)]
    unsafe fn lend(&self) -> Option<*mut D> {
        // SAFETY: Only the holder of the queue's lock touches `busy` (`Priv` invariant), which
        // is the caller (safety requirement). Its accesses are in program order: what else
        // runs as that holder is nested in it (a call, or an interrupt on its CPU) and done
        // before it resumes.
        let busy = unsafe { &mut *self.busy.get() };
        if *busy {
            return None;
        }
        *busy = true;
        // `busy` was clear, so no one holds a reference to `data` (`Priv` invariant), and
        // until `give_back` clears it no one else will.
        Some(self.data.get())
    }

    /// Ends the loan [`XmitCell::lend`] made.
    ///
    /// # Safety
    ///
    /// The caller must be the one `lend` lent the data to, still holding the lock, and no
    /// longer use the reference.
    #[inline(always)]
    unsafe fn give_back(&self) {
        // SAFETY: As in `lend`.
        unsafe { *self.busy.get() = false };
    }
}

/// Whether the caller holds the xmit lock of `txq` (`netif_tx_owned()`): on this CPU, where
/// bottom halves are disabled, or on PREEMPT_RT, where that does not keep other tasks off the
/// CPU, in this task.
///
/// # Safety
///
/// `txq` must be a valid queue, and the caller must run with bottom halves disabled (so that
/// it stays on this CPU).
#[inline(always)]
unsafe fn tx_owned(txq: *mut bindings::netdev_queue) -> bool {
    // SAFETY: `txq` is valid. Without PREEMPT_RT, holders record their CPU and clear it before
    // they release the lock, and only this CPU records its own number, so it is read here
    // exactly while this CPU holds the lock; with PREEMPT_RT the lock's owner task is compared
    // with the current one.
    unsafe { bindings::netif_tx_owned(txq, crate::cpu::CpuId::current().as_u32()) }
}

/// Releases the xmit lock of `txq`.
///
/// # Safety
///
/// This CPU must hold the lock, taken with `__netif_tx_lock_bh` exactly when `bh`.
#[inline]
unsafe fn tx_unlock(txq: &TxQueue, bh: bool) {
    // SAFETY: Reads the CPU's interrupt flag.
    if bh && unsafe { bindings::irqs_disabled() } {
        // The holder disabled interrupts after it took the lock (e.g. it holds an
        // interrupt-disabling lock now): enabling bottom halves the usual way would run
        // softirqs and turn interrupts on under it. Pending softirqs wait for the next
        // interrupt instead.
        crate::pr_warn_once!("netdev: xmit lock released with interrupts disabled\n");
        // SAFETY: We hold the lock (safety requirement); `_local_bh_enable()` undoes the
        // `local_bh_disable()` of `__netif_tx_lock_bh` without running softirqs, which is
        // valid with interrupts disabled.
        unsafe {
            bindings::__netif_tx_unlock(txq.as_raw());
            bindings::_local_bh_enable();
        }
    } else if bh {
        // SAFETY: We hold the lock, taken with `__netif_tx_lock_bh` (safety requirement).
        unsafe { bindings::__netif_tx_unlock_bh(txq.as_raw()) }
    } else {
        // SAFETY: We hold the lock, taken without touching bottom halves.
        unsafe { bindings::__netif_tx_unlock(txq.as_raw()) }
    }
}

/// A network device whose private area holds a `T`.
///
/// # Invariants
///
/// `self.0` is a `struct net_device` allocated by [`Registration::new_with_lt`] for this `T`:
/// its private area holds an initialised `Priv<T>` for as long as a `&Device<T>` exists. It has
/// no instance-lock operations (`request_ops_lock`, `queue_mgmt_ops` and `net_shaper_ops` stay
/// unset), so `netdev_need_ops_lock()` is false and the core takes RTNL around its ethtool and
/// netdev-netlink calls (`need_rtnl` in net/ethtool/netlink.c and ioctl.c).
#[repr(transparent)]
pub struct Device<T: Operations>(Opaque<bindings::net_device>, PhantomData<T>);

// SAFETY: `Device<T>` hands out `&T`, with `T: Sync + Send`, and `&mut T::XmitData` of a queue
// only to the holder of that queue's xmit lock (`Priv` invariant), which may be any CPU:
// `T::XmitData: Send`. The C side is thread-safe.
unsafe impl<T: Operations> Sync for Device<T> {}
// SAFETY: As for `Sync`; the C functions it calls may run on any CPU.
unsafe impl<T: Operations> Send for Device<T> {}

// SAFETY: `device` returns the `Device<T>` of the net_device it is given, which is one
// allocated for `T` (safety requirement of `device`): `Device<T>` wraps exactly that.
unsafe impl<T: Operations> napi::PollOwner for T {
    type Device = Device<T>;

    #[inline]
    unsafe fn device<'a>(dev: *mut bindings::net_device) -> &'a Device<T> {
        // SAFETY: A net_device allocated for `T` with its private data initialised for `'a`
        // (safety requirement), which is what `from_raw` needs: only
        // `Registration::new_with_lt` allocates net_devices for a `T: Operations`.
        unsafe { Device::from_raw(dev) }
    }
}

impl<T: Operations> Device<T> {
    /// # Safety
    ///
    /// `ptr` must be a net_device allocated by [`Registration::new_with_lt`] for `T`, valid and
    /// with initialised private data for `'a`.
    #[inline]
    pub(crate) unsafe fn from_raw<'a>(ptr: *mut bindings::net_device) -> &'a Self {
        // SAFETY: `Device<T>` is a transparent wrapper of `net_device`; validity per the
        // function's safety requirements.
        unsafe { &*ptr.cast() }
    }

    /// # Safety
    ///
    /// `ptr` must be a net_device registered by [`Registration`] for `T`, valid for `'a`.
    #[inline]
    pub(crate) unsafe fn from_ethtool<'a>(ptr: *mut bindings::net_device) -> &'a Self {
        // SAFETY: The ethtool table of `T` is only installed by `Registration::new_with_lt` for
        // `T`, which is what `ptr` is per the safety requirements.
        unsafe { Self::from_raw(ptr) }
    }

    /// Returns the raw `struct net_device`.
    #[inline]
    pub fn as_raw(&self) -> *mut bindings::net_device {
        self.0.get()
    }

    #[inline]
    fn priv_ptr(&self) -> *mut Priv<T> {
        // SAFETY: `self` is a valid net_device (type invariant).
        unsafe { bindings::netdev_priv(self.as_raw()) }.cast()
    }

    #[inline]
    fn priv_ref(&self) -> &Priv<T> {
        // SAFETY: The private area holds an initialised `Priv<T>` that is only ever shared
        // (type invariant).
        unsafe { &*self.priv_ptr() }
    }

    /// Number of `ethtool -S` statistics the device reports.
    #[inline]
    pub fn stats_count(&self) -> u32 {
        self.priv_ref().stats_count.load(Relaxed)
    }

    /// Changes the number of `ethtool -S` statistics. Under RTNL, like every ethtool request,
    /// so a request always sees one count from sizing its buffer to filling it.
    #[inline]
    pub fn set_stats_count(&self, count: u32, _rtnl: &Rtnl) {
        self.priv_ref().stats_count.store(count, Relaxed);
    }

    /// The driver's private data.
    #[inline]
    pub fn data(&self) -> &T {
        &self.priv_ref().data
    }

    /// NAPI instance `index` of the device.
    #[inline]
    pub fn napi(&self, index: usize) -> Option<&Napi<T::Poll>> {
        self.priv_ref().napis.get(index).map(|n| &**n)
    }

    /// The NAPI instances of the device, in the order they were created.
    #[inline]
    pub fn napis(&self) -> impl Iterator<Item = &Napi<T::Poll>> {
        self.priv_ref().napis.iter().map(|n| &**n)
    }

    /// The interface name, e.g. `eth0`.
    #[inline]
    pub fn name(&self) -> &CStr {
        // SAFETY: `name` is a NUL-terminated array inside the valid net_device.
        unsafe { CStr::from_char_ptr((*self.as_raw()).name.as_ptr()) }
    }

    /// The current MTU.
    #[inline]
    pub fn mtu(&self) -> u32 {
        // SAFETY: `self` is a valid net_device (type invariant); a volatile read of the `u32` is
        // `READ_ONCE(dev->mtu)`, which the core writes with `WRITE_ONCE`.
        unsafe { core::ptr::read_volatile(&raw const (*self.as_raw()).mtu) }
    }

    /// The current MAC address.
    #[inline]
    pub fn dev_addr(&self) -> MacAddress {
        let mut a = [0u8; ETH_ALEN];
        // SAFETY: `dev_addr` points to at least `ETH_ALEN` bytes for an Ethernet device.
        unsafe {
            core::ptr::copy_nonoverlapping((*self.as_raw()).dev_addr, a.as_mut_ptr(), ETH_ALEN)
        };
        a
    }

    /// The `NETIF_F_*` features currently enabled (`dev->features`), which `ethtool -K`
    /// changes at any time: read it where it applies, e.g. once per poll.
    #[inline]
    pub fn features(&self) -> u64 {
        // SAFETY: `self` is a valid net_device (type invariant); a volatile read of the `u64` is
        // `READ_ONCE(dev->features)`.
        unsafe { core::ptr::read_volatile(&raw const (*self.as_raw()).features) }
    }

    /// Whether the interface is up (`netif_running()`).
    #[inline]
    pub fn is_running(&self) -> bool {
        // SAFETY: `self` is a valid net_device (type invariant); `netif_running` reads a state bit.
        unsafe { bindings::netif_running(self.as_raw()) }
    }

    /// Whether the device is present: not detached for system sleep or shutdown
    /// (`netif_device_present()`).
    #[inline]
    pub fn is_present(&self) -> bool {
        // SAFETY: `self` is a valid net_device (type invariant); reads a state bit.
        unsafe { bindings::netif_device_present(self.as_raw()) }
    }

    /// Reports the link as up (`netif_carrier_on()`). Any context.
    #[inline]
    pub fn carrier_on(&self) {
        // SAFETY: `self` is a valid net_device (type invariant); carrier changes may be made from
        // any context.
        unsafe { bindings::netif_carrier_on(self.as_raw()) }
    }

    /// Reports the link as down (`netif_carrier_off()`). Any context.
    #[inline]
    pub fn carrier_off(&self) {
        // SAFETY: `self` is a valid net_device (type invariant); carrier changes may be made from
        // any context.
        unsafe { bindings::netif_carrier_off(self.as_raw()) }
    }

    /// The index of the device's PTP hardware clock (`/dev/ptp<index>`), registered from
    /// its [`Config::clock`]; `None` while it has none. A caller racing with the removal of
    /// the device may see the index of a clock just unregistered (as with C drivers).
    #[inline]
    pub fn phc_index(&self) -> Option<u32> {
        u32::try_from(self.priv_ref().phc_index.load(Relaxed)).ok()
    }

    /// Whether the link is reported as up.
    #[inline]
    pub fn carrier_ok(&self) -> bool {
        // SAFETY: `self` is a valid net_device (type invariant); reads a state bit.
        unsafe { bindings::netif_carrier_ok(self.as_raw()) }
    }

    /// The number of TX queues the stack currently uses.
    #[inline]
    pub fn real_num_tx_queues(&self) -> u32 {
        // SAFETY: `self` is a valid net_device (type invariant). The count changes under RTNL
        // while polls and transmits read it: a volatile read of the aligned `u32` is
        // `READ_ONCE()`, and a stale value only means a queue just added or removed.
        unsafe { core::ptr::read_volatile(&raw const (*self.as_raw()).real_num_tx_queues) }
    }

    /// The number of RX queues the stack currently uses.
    #[inline]
    pub fn real_num_rx_queues(&self) -> u32 {
        // SAFETY: As for `real_num_tx_queues`.
        unsafe { core::ptr::read_volatile(&raw const (*self.as_raw()).real_num_rx_queues) }
    }

    /// Changes how many of the device's TX and RX queues the stack uses
    /// (`netif_set_real_num_queues()`), up or down, at most those allocated at registration.
    ///
    /// Shrinking drops what the qdiscs of the removed TX queues hold; frames already handed
    /// to the driver on those queues still complete there. Growing can fail (`ENOMEM`), and
    /// then nothing changed. The RSS indirection table is not looked at: from
    /// `ethtool::Operations::set_channels` the core has already checked that a table the user
    /// set fits the new count; elsewhere that is the caller's to check
    /// ([`Device::rxfh_configured`]).
    pub fn set_real_num_queues(&self, tx: u32, rx: u32, _rtnl: &Rtnl) -> Result {
        if tx == 0 || rx == 0 {
            return Err(EINVAL);
        }
        // SAFETY: `self` is a valid net_device (type invariant), registered or not (the C
        // function only updates the queues' sysfs objects once registered), and the RTNL lock
        // is held (the token); it checks both counts against what was allocated and restores
        // the RX count if the TX one cannot be set.
        to_result(unsafe { bindings::netif_set_real_num_queues(self.as_raw(), tx, rx) })
    }

    /// Whether the user set the RSS indirection table (`netif_is_rxfh_configured()`): the
    /// driver then keeps it when the number of RX queues changes (the core refuses a change
    /// that would leave entries pointing past the new count), instead of spreading the
    /// default table over the new count.
    #[inline]
    pub fn rxfh_configured(&self) -> bool {
        // SAFETY: `self` is a valid net_device (type invariant); this reads `priv_flags`,
        // which changes under RTNL only (a stale read outside it is harmless).
        unsafe { bindings::netif_is_rxfh_configured(self.as_raw()) }
    }

    /// TX queue `index`, or `None` if the device has no such queue.
    #[inline]
    pub fn tx_queue(&self, index: u32) -> Option<&TxQueue> {
        // SAFETY: `self` is a valid net_device (type invariant); `num_tx_queues` is fixed at
        // allocation.
        if index >= unsafe { (*self.as_raw()).num_tx_queues } {
            return None;
        }
        // SAFETY: `index` is in range, so the returned queue lives as long as the device.
        Some(unsafe { TxQueue::from_raw(bindings::netdev_get_tx_queue(self.as_raw(), index)) })
    }

    /// Takes the xmit lock of TX queue `index`, for its [`Operations::XmitData`]: e.g. to queue
    /// frames from `XDP_TX` or the XDP module's `ndo_xdp_xmit`, or to install a new ring. `None`
    /// if the device has no such queue; in a netpoll poll (budget 0), if the lock is taken
    /// (netpoll may have interrupted its holder on this CPU); under RTNL, if interrupts are
    /// disabled; and if the data is lent already (to a guard forgotten with the lock held, or
    /// to a `start_xmit` this code runs nested in).
    ///
    /// `ctx` tells the context, and so how to lock: bottom halves are disabled in a NAPI poll
    /// and in `xdp_xmit`, and disabled by the lock under RTNL (process context). Taking the
    /// lock of a queue while holding it deadlocks (a bug, not a memory-safety one);
    /// [`Operations::start_xmit`] has no context to take any.
    #[inline]
    pub fn lock_tx<'a, C: TxLockContext>(
        &'a self,
        index: u32,
        ctx: &C,
    ) -> Option<XmitGuard<'a, T>> {
        let cell = self.priv_ref().xmit.get(index as usize)?;
        // One cell per queue the device was allocated with (`Priv` invariant): `index` is in
        // range, so the queue lives as long as the device.
        // SAFETY: `self` is a valid net_device (type invariant).
        let txq = unsafe { TxQueue::from_raw(bindings::netdev_get_tx_queue(self.as_raw(), index)) };
        let mode = ctx.tx_lock_mode();
        // Enabling bottom halves again with interrupts off would turn interrupts on under the
        // caller (e.g. inside an interrupt-disabling lock).
        // SAFETY: Reads the CPU's interrupt flag.
        if mode == TxLockMode::Bh && unsafe { bindings::irqs_disabled() } {
            return None;
        }
        match mode {
            // SAFETY: `txq` is valid; bottom halves are disabled (`TxLockContext`), and the CPU
            // number is only recorded as the owner.
            TxLockMode::Spin => unsafe {
                bindings::__netif_tx_lock(
                    txq.as_raw(),
                    crate::cpu::CpuId::current().as_u32() as c_int,
                )
            },
            TxLockMode::Try => {
                // SAFETY: As above; a failed try leaves the lock alone.
                if !unsafe { bindings::__netif_tx_trylock(txq.as_raw()) } {
                    return None;
                }
            }
            // SAFETY: `txq` is valid; process context, where disabling bottom halves is valid.
            TxLockMode::Bh => unsafe { bindings::__netif_tx_lock_bh(txq.as_raw()) },
        }
        let bh = mode == TxLockMode::Bh;
        // SAFETY: We hold the lock of the cell's queue on this CPU, and the guard gives the
        // data back on drop, before it releases the lock. The guard is not `Send`, so it is
        // dropped on this CPU.
        let Some(data) = (unsafe { cell.lend() }) else {
            // Lent already, which needs the lock: a guard was forgotten with the lock held, or
            // a `start_xmit` on this CPU holds it. Give up the lock just taken.
            // SAFETY: We took it above, as `bh` says.
            unsafe { tx_unlock(txq, bh) };
            return None;
        };
        // SAFETY: Lent to the guard alone until its drop gives it back; the reference lives
        // in the guard and cannot outlive it.
        let data = unsafe { &mut *data };
        // INVARIANT: the lock of queue `index`, taken as `mode` says, and its cell's data,
        // lent to the guard.
        Some(XmitGuard {
            txq,
            cell,
            data,
            bh,
            _not_send: PhantomData,
        })
    }

    /// Allows every TX queue to transmit (`netif_tx_start_all_queues()`).
    #[inline]
    pub fn tx_start_all_queues(&self) {
        // SAFETY: `self` is a valid net_device (type invariant); starting its queues is allowed in
        // any context.
        unsafe { bindings::netif_tx_start_all_queues(self.as_raw()) }
    }

    /// Allows every TX queue to transmit and reschedules the qdiscs of those that were stopped
    /// (`netif_tx_wake_all_queues()`), e.g. after a reset that stopped them.
    #[inline]
    pub fn tx_wake_all_queues(&self) {
        // SAFETY: `self` is a valid net_device (type invariant); waking its queues is allowed in
        // any context.
        unsafe { bindings::netif_tx_wake_all_queues(self.as_raw()) }
    }

    /// Runs [`Operations::service`] as soon as possible, if the interface is up then. Any
    /// context; nothing happens if `T` has no service, or once the device is being torn down.
    #[inline]
    pub fn kick_service(&self) {
        if T::HAS_SERVICE {
            self.queue_service(0, true);
        }
    }

    /// Queues the service work `delay` jiffies from now; `reschedule` moves an already queued
    /// run to that time (`mod_delayed_work()`), otherwise a queued run stays as it is.
    #[inline]
    fn queue_service(&self, delay: c_ulong, reschedule: bool) {
        let work = self.priv_ref().service.get();
        let cpu = bindings::wq_misc_consts_WORK_CPU_UNBOUND as c_int;
        // SAFETY: `service` is an initialised delayed work with a function that may run for
        // this device (type invariant of `Priv`); queueing it is allowed in any context (the
        // workqueue code disables interrupts), and is a no-op once it was disabled.
        // `system_dfl_long_wq` (unbound; the work may hold RTNL through a reset) is always
        // valid.
        unsafe {
            let wq = bindings::system_dfl_long_wq;
            if reschedule {
                bindings::mod_delayed_work_on(cpu, wq, work, delay);
            } else {
                bindings::queue_delayed_work_on(cpu, wq, work, delay);
            }
        }
    }

    /// Byte queue limits: forgets everything in flight on every TX queue
    /// (`netdev_tx_reset_queue()`), after the driver cleaned its rings. The queues are stopped
    /// first (`netif_tx_disable()`), so no transmit accounts bytes afterwards; fails with
    /// `EBUSY`, changing nothing, while a NAPI instance of the device is enabled, since its poll
    /// could be completing bytes.
    pub fn reset_tx_queues(&self, rtnl: &Rtnl) -> Result {
        if self.napis().any(|n| n.is_enabled(rtnl)) {
            return Err(EBUSY);
        }
        self.tx_disable(rtnl);
        // SAFETY: `self` is a valid net_device (type invariant).
        let n = unsafe { (*self.as_raw()).num_tx_queues };
        for i in 0..n {
            // SAFETY: `i` is a queue of `self`. BQL needs this serialised with `sent` and
            // `completed`: every queue is stopped under its xmit lock (above), so no
            // `start_xmit` runs until a wake; completions come only from polls of this device
            // (`TxQueue::completed`), which are all disabled, and RTNL keeps them so.
            unsafe {
                bindings::netdev_tx_reset_queue(bindings::netdev_get_tx_queue(self.as_raw(), i))
            };
        }
        Ok(())
    }

    /// Runs the driver's `set_rx_mode` again with the current address lists and flags, e.g.
    /// after a reset cleared the hardware filters. Does nothing for a driver without one.
    pub fn sync_rx_mode(&self, _rtnl: &Rtnl) {
        if T::HAS_SET_RX_MODE {
            // SAFETY: `self` is a valid net_device (type invariant); the address list lock is
            // what `ndo_set_rx_mode` runs under, taken here with bottom halves off as the core
            // does, and released below.
            unsafe { bindings::netif_addr_lock_bh(self.as_raw()) };
            let mode = RxMode { dev: &self.0 };
            T::set_rx_mode(self, &mode);
            // SAFETY: Taken above.
            unsafe { bindings::netif_addr_unlock_bh(self.as_raw()) };
        }
    }

    /// Marks the device absent (`netif_device_detach()`): its TX queues stop, the core's TX
    /// watchdog leaves them alone and the ethtool core refuses new requests, until
    /// [`Device::attach`]. For reconfiguring a running device while keeping its carrier.
    #[inline]
    pub fn detach(&self, _rtnl: &Rtnl) {
        // SAFETY: `self` is a valid net_device (type invariant); `netif_device_detach` only
        // clears a state bit and stops the queues, which any context may do. RTNL (`_rtnl`)
        // orders it against `open`, `stop` and the ethtool core, which test that bit.
        unsafe { bindings::netif_device_detach(self.as_raw()) }
    }

    /// Marks the device present again (`netif_device_attach()`): if it is up, its TX queues
    /// wake and the core's TX watchdog restarts. Does nothing if it was not detached.
    #[inline]
    pub fn attach(&self, _rtnl: &Rtnl) {
        // SAFETY: `self` is a valid net_device (type invariant); `netif_device_attach` sets a
        // state bit, wakes the queues and arms the watchdog timer, which any context may do;
        // RTNL (`_rtnl`) as for `detach`.
        unsafe { bindings::netif_device_attach(self.as_raw()) }
    }

    /// Stops every TX queue and waits for running transmits to finish (`netif_tx_disable()`).
    #[inline]
    pub fn tx_disable(&self, _rtnl: &Rtnl) {
        // SAFETY: `self` is a valid net_device (type invariant); `netif_tx_disable` takes each
        // queue's xmit lock and spins until running transmits finish, which any
        // context that does not hold one of those locks may do.
        unsafe { bindings::netif_tx_disable(self.as_raw()) }
    }
}

/// How [`Device::lock_tx`] takes a queue's xmit lock in a [`TxLockContext`].
#[doc(hidden)]
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum TxLockMode {
    /// Bottom halves are disabled: spin.
    Spin,
    /// Netpoll, which may have interrupted the holder on this CPU: only try.
    Try,
    /// Process context: disable bottom halves and spin.
    Bh,
}

pub(crate) mod sealed {
    pub trait Sealed {}
}

/// A context in which [`Device::lock_tx`] may take a transmit queue's xmit lock: a NAPI poll,
/// `ndo_xdp_xmit` (the XDP module's `XmitFrames`; both with bottom halves disabled) or a holder
/// of RTNL (process context).
pub trait TxLockContext: sealed::Sealed {
    #[doc(hidden)]
    fn tx_lock_mode(&self) -> TxLockMode;
}

impl sealed::Sealed for napi::NapiContext<'_> {}
impl TxLockContext for napi::NapiContext<'_> {
    #[inline]
    fn tx_lock_mode(&self) -> TxLockMode {
        // Netpoll polls with budget 0, possibly from an interrupt that arrived while this CPU
        // held the lock; a softirq poll (any other budget) runs with bottom halves disabled.
        if self.budget() == 0 {
            TxLockMode::Try
        } else {
            TxLockMode::Spin
        }
    }
}

impl sealed::Sealed for Rtnl {}
impl TxLockContext for Rtnl {
    #[inline]
    fn tx_lock_mode(&self) -> TxLockMode {
        // RTNL is a mutex: process context.
        TxLockMode::Bh
    }
}

/// A transmit queue's xmit lock, held, and the queue's [`Operations::XmitData`], reached
/// through `Deref`. Dropping it releases the lock.
///
/// # Invariants
///
/// This CPU holds the xmit lock of `txq`, taken with bottom halves disabled by the lock
/// exactly when `bh`; `cell` is that queue's cell, and `data` its data, lent to the guard.
pub struct XmitGuard<'a, T: Operations> {
    txq: &'a TxQueue,
    cell: &'a XmitCell<T::XmitData>,
    data: &'a mut T::XmitData,
    bh: bool,
    _not_send: NotThreadSafe,
}

impl<T: Operations> XmitGuard<'_, T> {
    /// The locked queue.
    #[inline]
    pub fn queue(&self) -> &TxQueue {
        self.txq
    }

    /// Records that the queue sent something now (`txq_trans_cond_update()`): frames a
    /// driver queues outside `start_xmit` (XDP) must refresh the time the core's TX watchdog
    /// judges a stopped queue by, or a queue kept busy by them looks stuck.
    #[inline]
    pub fn trans_update(&self) {
        // SAFETY: `txq` is a valid queue (type invariant). `trans_start` is written and read
        // with `WRITE_ONCE`/`READ_ONCE`, from any context; holding the queue's xmit lock only
        // makes this the queue's sender, as `txq_trans_cond_update()` expects.
        unsafe { bindings::txq_trans_cond_update(self.txq.0.get()) };
    }
}

impl<T: Operations> core::ops::Deref for XmitGuard<'_, T> {
    type Target = T::XmitData;

    #[inline]
    fn deref(&self) -> &T::XmitData {
        self.data
    }
}

impl<T: Operations> core::ops::DerefMut for XmitGuard<'_, T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut T::XmitData {
        self.data
    }
}

impl<T: Operations> Drop for XmitGuard<'_, T> {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: The data was lent to the guard, which still holds the lock; `data` is not
        // used after this (type invariant).
        unsafe { self.cell.give_back() };
        // SAFETY: This CPU holds the lock, taken as `bh` says (type invariant).
        unsafe { tx_unlock(self.txq, self.bh) };
    }
}

/// A transmit queue (`struct netdev_queue`).
///
/// # Invariants
///
/// A `&TxQueue` is a valid queue of a net_device that outlives the reference.
#[repr(transparent)]
pub struct TxQueue(Opaque<bindings::netdev_queue>);

impl TxQueue {
    /// # Safety
    ///
    /// `ptr` must be a valid netdev_queue for `'a`.
    #[inline]
    unsafe fn from_raw<'a>(ptr: *mut bindings::netdev_queue) -> &'a Self {
        // SAFETY: transparent wrapper; validity per the safety requirements.
        unsafe { &*ptr.cast() }
    }

    #[inline]
    fn as_raw(&self) -> *mut bindings::netdev_queue {
        self.0.get()
    }

    /// Stops the queue: the stack stops calling `start_xmit` for it.
    #[inline]
    pub fn stop(&self) {
        // SAFETY: `self` is a valid queue (type invariant); setting the stop bit is atomic.
        unsafe { bindings::netif_tx_stop_queue(self.as_raw()) }
    }

    /// Restarts a stopped queue and reschedules its qdisc.
    #[inline]
    pub fn wake(&self) {
        // SAFETY: `self` is a valid queue (type invariant); clearing the stop bit and scheduling
        // the qdisc may happen in any context.
        unsafe { bindings::netif_tx_wake_queue(self.as_raw()) }
    }

    /// Stops the queue because its ring is short of room, then asks `room` again: a TX clean
    /// that made room between the caller's check and the stop may have seen the queue running
    /// and left it so. If there is room now, the queue is started again. Returns whether it
    /// stays stopped. Pairs with [`TxQueue::wake_if`] on the cleaning side.
    #[inline]
    pub fn stop_unless(&self, room: impl FnOnce() -> bool) -> bool {
        self.stop();
        // The stop bit is visible before the ring's indices are read again; pairs with the
        // barrier in `wake_if`.
        smp_mb(Full);
        if room() {
            // SAFETY: `self` is a valid queue (type invariant); clearing the stop bit is atomic.
            unsafe { bindings::netif_tx_start_queue(self.as_raw()) };
            return false;
        }
        true
    }

    /// Wakes the queue if it is stopped and `room()` holds, after a TX clean made room: the
    /// counterpart of [`TxQueue::stop_unless`], with the barrier that orders the clean's
    /// index update before the read of the stop bit.
    #[inline]
    pub fn wake_if(&self, room: impl FnOnce() -> bool) {
        smp_mb(Full);
        if self.is_stopped() && room() {
            self.wake();
        }
    }

    /// Whether the driver stopped the queue.
    #[inline]
    pub fn is_stopped(&self) -> bool {
        // SAFETY: `self` is a valid queue (type invariant); reads its state bits.
        unsafe { bindings::netif_tx_queue_stopped(self.as_raw()) }
    }

    /// Whether the stack will not call `start_xmit` for this queue now: the driver stopped it,
    /// or byte queue limits did (`netif_xmit_stopped()`). A driver that postponed its doorbell
    /// because more skbs were coming must ring it when this is true.
    #[inline]
    pub fn xmit_stopped(&self) -> bool {
        // SAFETY: `self` is a valid queue (type invariant); reads its state bits.
        unsafe { bindings::netif_xmit_stopped(self.as_raw()) }
    }

    /// Byte queue limits: `pkts` packets of `bytes` in total completed
    /// (`netdev_tx_completed_queue()`). From a NAPI poll only, the one context that cleans the
    /// queue's ring.
    #[inline]
    pub fn completed(&self, pkts: u32, bytes: u32, _ctx: &napi::NapiContext<'_>) {
        // SAFETY: `self` is a valid queue (type invariant). BQL needs `completed` calls serialised
        // with each other: NAPI polls of one instance never overlap, and a driver completes a
        // queue from the instance that owns it.
        unsafe { bindings::netdev_tx_completed_queue(self.as_raw(), pkts, bytes) }
    }
}

/// The transmit queue the stack locked for one [`Operations::start_xmit`] call (branded like
/// the call's [`TxRequest`]).
///
/// # Invariants
///
/// `txq` is the queue of the call branded `'x`, whose xmit lock the caller holds for `'x`.
#[repr(transparent)]
pub struct XmitQueue<'x> {
    txq: TxQueue,
    _brand: PhantomData<fn(&'x ()) -> &'x ()>,
}

impl XmitQueue<'_> {
    /// The queue, for the operations allowed from any context.
    #[inline]
    pub fn queue(&self) -> &TxQueue {
        &self.txq
    }

    /// Byte queue limits: `bytes` were handed to the hardware (`netdev_tx_sent_queue()`).
    #[inline]
    pub fn sent(&self, bytes: u32) {
        // SAFETY: The queue is valid and we hold its xmit lock (type invariant), which
        // serialises `sent` calls as BQL requires.
        unsafe { bindings::netdev_tx_sent_queue(self.txq.as_raw(), bytes) }
    }

    /// Whether the stack will hand more skbs to `start_xmit` right away (`netdev_xmit_more()`):
    /// the driver may postpone its doorbell write.
    #[inline]
    pub fn more(&self) -> bool {
        // SAFETY: Reads per-CPU state; `start_xmit` runs with preemption disabled.
        unsafe { bindings::netdev_xmit_more() }
    }
}

/// The view of a net_device an interrupt handler gets: the private data and the NAPI
/// instances, nothing that needs the device registered.
///
/// # Invariants
///
/// As for [`Device`]: a net_device allocated for `T` with initialised private data, possibly
/// not registered (yet or any more).
#[repr(transparent)]
pub struct IrqDevice<T: Operations>(Device<T>);

impl<T: Operations> IrqDevice<T> {
    /// The driver's private data.
    #[inline]
    pub fn data(&self) -> &T {
        self.0.data()
    }

    /// NAPI instance `index` of the device.
    #[inline]
    pub fn napi(&self, index: usize) -> Option<&Napi<T::Poll>> {
        self.0.napi(index)
    }

    /// The NAPI instances of the device, in order.
    #[inline]
    pub fn napis(&self) -> impl Iterator<Item = &Napi<T::Poll>> {
        self.0.napis()
    }
}

/// Settings applied to a net_device before it is registered.
pub struct Config<T: Operations> {
    /// Ethtool operations, from [`ethtool::table`](crate::net::ethtool::table).
    pub ethtool: Option<crate::net::ethtool::Table<T>>,
    /// Permanent and initial MAC address.
    pub mac: MacAddress,
    /// Smallest MTU the device accepts.
    pub min_mtu: u32,
    /// Largest MTU the device accepts.
    pub max_mtu: u32,
    /// `NETIF_F_*` features the device can do (`hw_features`).
    pub hw_features: u64,
    /// `NETIF_F_*` features enabled at registration.
    pub features: u64,
    /// Number of TX queues the stack uses at first.
    pub real_tx_queues: u32,
    /// Number of RX queues the stack uses at first.
    pub real_rx_queues: u32,
    /// Start the interrupt line of each NAPI instance with a queue on one CPU, the `q`-th by
    /// distance from the device's NUMA node for queue `q`, instead of on all CPUs, when the
    /// device is first opened. Only lines of one instance each, neither shared nor managed; a
    /// user or irqbalance may move them later.
    pub spread_irqs: bool,
    /// Number of `ethtool -S` statistics at first (see [`Device::set_stats_count`]).
    pub stats_count: u32,
    /// The driver's [`Operations::set_rx_mode`] receives the secondary unicast addresses
    /// ([`RxMode::for_each_uc_addr`]), falling back to unicast promiscuous mode itself when
    /// its filters cannot hold them all (`IFF_UNICAST_FLT`). Otherwise the core puts the
    /// device in promiscuous mode for as long as it has any. Needs `set_rx_mode`.
    pub unicast_filter: bool,
    /// The device's XDP operations and features, from the XDP module's `table`; `None` for a
    /// device without XDP (then no XDP callback of the driver is ever called, implemented or
    /// not).
    pub xdp: Option<XdpOps<T>>,
    /// The device's PTP hardware clock, whose callbacks are `T`'s [`ptp::Clock`] methods on
    /// the private data, registered right after the interface and unregistered right before
    /// it (see [`Device::phc_index`]); its worker is stopped while the interface is detached.
    /// `None` for a device without one. Without the PTP core built in, or if registering
    /// fails, the interface goes without it (logged).
    pub clock: Option<ptp::ClockInfo<T>>,
}

/// The XDP part of a device's operations: a `net_device_ops` of `T` with the XDP callbacks
/// (`ndo_bpf`, `ndo_xdp_xmit`) the driver implements, its `xdp_metadata_ops` and its
/// `xdp_features`. Only the XDP module makes one (its `table`), which checks that the features
/// and the callbacks agree; this module only installs it.
///
/// # Invariants
///
/// `ops` is this module's `net_device_ops` of `T` with at most `ndo_bpf` and `ndo_xdp_xmit`
/// set in addition; those and the callbacks of `meta` are valid for a device registered by
/// [`Registration`] for `T`, and `features` are `NETDEV_XDP_ACT_*` bits the device honours
/// with them.
pub struct XdpOps<T: Operations> {
    ops: &'static bindings::net_device_ops,
    meta: Option<&'static bindings::xdp_metadata_ops>,
    features: u32,
    // Invariant in `T`: a table of `Net<'static>` must not pass for one of `Net<'bound>`, whose
    // callbacks would then see borrows of the binding as `'static`.
    _t: PhantomData<fn(T) -> T>,
}

impl<T: Operations> XdpOps<T> {
    /// # Safety
    ///
    /// The arguments must satisfy the type invariants.
    #[inline]
    pub const unsafe fn new(
        ops: &'static bindings::net_device_ops,
        meta: Option<&'static bindings::xdp_metadata_ops>,
        features: u32,
    ) -> Self {
        // INVARIANT: per the safety requirements.
        Self {
            ops,
            meta,
            features,
            _t: PhantomData,
        }
    }
}

/// A registered network device owning a `T` and its NAPI instances.
///
/// The interrupt handlers are requested when the device opens and freed when it stops.
/// Dropping it unregisters the device's PTP clock, then the device (running
/// [`Operations::stop`] and freeing the handlers if it is up and not detached), disables and
/// drains the service work, disables the NAPI
/// instances still enabled, drops `T`, drops the NAPI instances (and their page pools)
/// and frees the net_device, in that order.
///
/// # Invariants
///
/// `dev` points to a registered net_device allocated for `T` whose private data is
/// initialised.
pub struct Registration<T: Operations> {
    dev: NonNull<bindings::net_device>,
    /// The device's PTP clock, on the private data `T`: unregistered before the device.
    clock: Option<ptp::ErasedRegistration>,
    _p: PhantomData<T>,
}

/// Room for `<ifname>-TxRx-<queue>` and its NUL.
const IRQ_NAME_LEN: usize = bindings::IFNAMSIZ as usize + 16;

/// An interrupt line whose handler calls [`Operations::handle_irq`] of a net_device.
///
/// # Invariants
///
/// `name` is only written while the line is not requested, with RTNL held; the interrupt core
/// reads it (`/proc/interrupts`) while it is requested.
struct IrqLine {
    dev: *mut bindings::net_device,
    irq: u32,
    vector: u32,
    name: UnsafeCell<[u8; IRQ_NAME_LEN]>,
}

/// The interrupt lines of a device: requested when it opens, freed when it stops, as C
/// network drivers do, so that each is named after the interface as it is then
/// (`<ifname>-TxRx-<queue>` for the line of one queue's NAPI instance, `<ifname>` for the
/// others). Renaming needs the interface down.
///
/// # Invariants
///
/// - `requested` and `spread_done` are only accessed with RTNL held, or with exclusive access
///   to the device.
/// - While `requested` is true, every line of `lines` is requested with
///   [`irq_callback::<T>`] and its own address as the cookie (`IRQF_SHARED` if `shared`);
///   otherwise none is.
/// - `lines` is never resized after the device is allocated, and its lines are interrupts of
///   the device's parent that stay allocated until the registration is dropped.
/// - No line is requested when the private data is dropped (unregistering stopped the device,
///   or `Registration::detach` did, and `Registration`'s drop frees what would be left).
struct IrqLines {
    lines: KVec<IrqLine>,
    shared: bool,
    spread: bool,
    node: c_int,
    requested: UnsafeCell<bool>,
    spread_done: UnsafeCell<bool>,
}

/// Writes `<ifname>` or `<ifname>-TxRx-<q>` and a NUL into `buf`, cut short if need be.
fn irq_name(buf: &mut [u8; IRQ_NAME_LEN], ifname: &[u8], queue: Option<u32>) {
    struct W<'a>(&'a mut [u8; IRQ_NAME_LEN], usize);
    impl W<'_> {
        fn push(&mut self, b: u8) {
            // The last byte stays for the NUL.
            if self.1 + 1 < IRQ_NAME_LEN {
                if let Some(d) = self.0.get_mut(self.1) {
                    *d = b;
                    self.1 += 1;
                }
            }
        }
    }
    impl core::fmt::Write for W<'_> {
        fn write_str(&mut self, s: &str) -> core::fmt::Result {
            s.bytes().for_each(|b| self.push(b));
            Ok(())
        }
    }
    let mut w = W(buf, 0);
    ifname.iter().for_each(|&b| w.push(b));
    if let Some(q) = queue {
        let _ = core::fmt::Write::write_fmt(&mut w, format_args!("-TxRx-{q}"));
    }
    let end = w.1;
    if let Some(d) = w.0.get_mut(end) {
        *d = 0;
    }
}

// SAFETY: The registration may be dropped from any thread; `T: Send`.
unsafe impl<T: Operations> Send for Registration<T> {}
// SAFETY: `&Registration` only gives `&Device<T>`, which is `Sync`.
unsafe impl<T: Operations> Sync for Registration<T> {}

/// Builds the NAPI instance number `i` of a device being registered: its shared data, its
/// receive state and, optionally, the parameters of the page pool it owns.
pub type NapiInit<'a, T, I> =
    dyn FnMut(u32) -> Result<napi::Instance<I, <<T as Operations>::Poll as Poll>::State>> + 'a;

impl<T: Operations> Registration<T> {
    /// Allocates an Ethernet device with `txqs`/`rxqs` queues under `parent`; creates `napis`
    /// NAPI instances with `napi_init(i)`, each with its page pool if asked for; initialises
    /// the private data with `init`; applies `config`; registers the device. On failure
    /// everything done so far is undone. Each open requests a handler calling
    /// [`Operations::handle_irq`] on each interrupt line of `irqs` (vector `i` for `irqs[i]`),
    /// named after the interface; each stop frees them.
    ///
    /// # Safety
    ///
    /// - The returned registration must be dropped (not forgotten, not leaked) before `parent`
    ///   is unbound and before any data `T` or the NAPI instances borrow becomes invalid:
    ///   callbacks keep running for as long as the device is registered, and the page pools
    ///   map pages for `parent`. It must also be dropped before the module of `T` is unloaded.
    /// - Every line in `irqs` must be an interrupt of `parent` that stays allocated (e.g. an
    ///   MSI-X vector) until the registration is dropped, with no handler of ours.
    ///   With `shared_irq` every line is requested `IRQF_SHARED` (an INTx line), and the
    ///   handler also runs for interrupts of other devices.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn new_with_lt<I>(
        parent: &device::Device<device::Bound>,
        txqs: u32,
        rxqs: u32,
        config: &Config<T>,
        irqs: &[u32],
        shared_irq: bool,
        napis: u32,
        napi_init: &mut NapiInit<'_, T, I>,
        init: impl PinInit<T, Error>,
    ) -> Result<Self>
    where
        I: PinInit<T::Poll, Error>,
    {
        const {
            assert!(core::mem::align_of::<Priv<T>>() <= bindings::NETDEV_ALIGN as usize);
            // `tx_timeout` can only recover through the service work.
            assert!(!T::HAS_TX_TIMEOUT || T::HAS_SERVICE);
        }
        if !irqs.is_empty() && !T::HAS_HANDLE_IRQ {
            return Err(EINVAL);
        }
        let mut lines = KVec::with_capacity(irqs.len(), GFP_KERNEL)?;
        for (vector, irq) in irqs.iter().enumerate() {
            lines.push(
                IrqLine {
                    // Set once the device is allocated, below.
                    dev: core::ptr::null_mut(),
                    irq: *irq,
                    vector: vector as u32,
                    name: UnsafeCell::new([0; IRQ_NAME_LEN]),
                },
                GFP_KERNEL,
            )?;
        }
        let mut instances: KVec<Pin<KBox<Napi<T::Poll>>>> =
            KVec::with_capacity(napis as usize, GFP_KERNEL)?;
        let mut xmit = KVec::with_capacity(txqs as usize, GFP_KERNEL)?;
        for _ in 0..txqs {
            xmit.push(
                XmitCell {
                    busy: UnsafeCell::new(false),
                    data: UnsafeCell::new(T::XmitData::default()),
                },
                GFP_KERNEL,
            )?;
        }
        let size = core::mem::size_of::<Priv<T>>().try_into()?;
        // SAFETY: No preconditions: allocates a device with the given private size and queue
        // counts, or returns NULL.
        let raw = unsafe { bindings::alloc_etherdev_mqs(size, txqs, rxqs) };
        let dev = NonNull::new(raw).ok_or(ENOMEM)?;
        // SAFETY: `raw` is a fresh net_device; `dev.parent` is what `SET_NETDEV_DEV()` sets.
        unsafe { (*raw).dev.parent = parent.as_raw() };
        for line in lines.iter_mut() {
            line.dev = raw;
        }

        // The NAPI instances come first: `T` and the interrupt handlers may use them.
        for i in 0..napis {
            let made = napi_init(i).and_then(|inst| {
                if inst.queue.is_some_and(|q| q >= txqs || q >= rxqs)
                    || inst.irq.is_some_and(|l| l as usize >= irqs.len())
                    || inst
                        .queue
                        .is_some_and(|q| instances.iter().any(|n| n.queue() == Some(q)))
                {
                    return Err(EINVAL);
                }
                // SAFETY: `raw` is allocated for `T` and not registered; the instances are
                // dropped by `Priv<T>`, which is dropped before the device is freed; `queue` was
                // checked against both queue counts `raw` was allocated with, and no other
                // instance has it.
                let napi = KBox::pin_init(
                    unsafe { Napi::new(raw, inst.data, inst.state, inst.queue, inst.irq) },
                    GFP_KERNEL,
                )?;
                if let Some(params) = &inst.pool {
                    // SAFETY: Nothing else reaches the instance yet; it is dropped before the
                    // registration, which is dropped before `parent` is unbound (safety
                    // requirement).
                    #[cfg(CONFIG_PAGE_POOL)]
                    unsafe { napi.create_pool(parent, params) }?;
                    #[cfg(not(CONFIG_PAGE_POOL))]
                    match *params {}
                }
                Ok(napi)
            });
            // Within the reserved capacity: cannot fail.
            match made.and_then(|n| instances.push(n, GFP_KERNEL).map_err(Error::from)) {
                Ok(()) => {}
                Err(e) => {
                    drop(instances);
                    // SAFETY: `raw` is unregistered and ours; its instances were just deleted.
                    unsafe { bindings::free_netdev(raw) };
                    return Err(e);
                }
            }
        }

        // SAFETY: `raw` is a valid net_device allocated with a private area.
        let priv_ptr = unsafe { bindings::netdev_priv(raw) }.cast::<Priv<T>>();
        // SAFETY: The private area is suitably sized and aligned (checked above) for
        // `Priv<T>`, and ours alone while the device is unregistered.
        unsafe {
            (&raw mut (*priv_ptr).stats_count).write(Atomic::new(config.stats_count));
            // INVARIANT: nothing is requested yet; the lines are interrupts of `parent` that
            // stay allocated (safety requirement).
            (&raw mut (*priv_ptr).irqs).write(IrqLines {
                lines,
                shared: shared_irq,
                spread: cfg!(CONFIG_SMP) && config.spread_irqs && !shared_irq,
                node: bindings::dev_to_node(parent.as_raw()),
                requested: UnsafeCell::new(false),
                spread_done: UnsafeCell::new(false),
            });
            (&raw mut (*priv_ptr).reg_detached).write(UnsafeCell::new(false));
            (&raw mut (*priv_ptr).phc_index).write(Atomic::new(-1));
            (&raw mut (*priv_ptr).napis).write(instances);
            (&raw mut (*priv_ptr).xmit).write(xmit);
            (&raw mut (*priv_ptr).netdev).write(raw);
            init_service::<T>((&raw mut (*priv_ptr).service).cast());
        }
        // SAFETY: As above: the area is sized, aligned and ours.
        let data_ptr = unsafe { &raw mut (*priv_ptr).data };
        // SAFETY: `data_ptr` is valid for writes and never moves: the private area lives as
        // long as the net_device. On error nothing was initialised.
        if let Err(e) = unsafe { init.__init(data_ptr) } {
            // SAFETY: `raw` is unregistered and owned by us; `napis`, `xmit` and `irqs` were
            // written above, no instance was enabled and no line requested (that needs a
            // callback of the registered device).
            unsafe {
                core::ptr::drop_in_place(&raw mut (*priv_ptr).napis);
                core::ptr::drop_in_place(&raw mut (*priv_ptr).xmit);
                core::ptr::drop_in_place(&raw mut (*priv_ptr).irqs);
                bindings::free_netdev(raw);
            }
            return Err(e);
        }

        // NAPI IDs in the order the instances were added, as the device's NAPI list needs,
        // before any callback can enable one and before an interrupt can schedule one.
        // SAFETY: `raw` is unregistered and its private data initialised above; no line of
        // it is requested yet.
        for napi in unsafe { Device::<T>::from_raw(raw) }.napis() {
            // SAFETY: As above.
            unsafe { napi.assign_id() };
        }

        // INVARIANT: `raw` is registered below before `this` is returned; until then `fail`
        // takes it apart without unregistering it.
        let mut this = Registration::<T> {
            dev,
            clock: None,
            _p: PhantomData,
        };
        // From here on, an error path frees everything but must not unregister a device that
        // was never registered.
        let fail = |this: Self, e: Error| -> Error {
            let this = core::mem::ManuallyDrop::new(this);
            let raw = this.dev.as_ptr();
            // SAFETY: The device is not registered (or `register_netdev` failed and undid it):
            // it was never opened, so no line is requested, no NAPI instance is enabled and
            // the service work was never queued (disabling it makes sure); a notifier may have
            // read statistics, which needs nothing freed here. Then nothing runs any more and
            // the private data and the device can go.
            unsafe {
                bindings::disable_delayed_work_sync(
                    (*bindings::netdev_priv(raw).cast::<Priv<T>>())
                        .service
                        .get(),
                );
                core::ptr::drop_in_place(bindings::netdev_priv(raw).cast::<Priv<T>>());
                bindings::free_netdev(raw);
            }
            e
        };

        if !is_valid_ether_addr(&config.mac) {
            return Err(fail(this, EADDRNOTAVAIL));
        }
        // The core warns ("Buggy VLAN acceleration") and misbehaves if a filtering device
        // cannot be told about VLANs.
        if (config.features | config.hw_features) & NETIF_F_HW_VLAN_CTAG_FILTER != 0
            && !(T::HAS_VLAN_RX_ADD_VID && T::HAS_VLAN_RX_KILL_VID)
        {
            return Err(fail(this, EINVAL));
        }
        if config.unicast_filter && !T::HAS_SET_RX_MODE {
            return Err(fail(this, EINVAL));
        }
        // SAFETY: `raw` is valid and not yet visible to anyone else.
        unsafe {
            (*raw).netdev_ops = match &config.xdp {
                Some(x) => x.ops,
                None => &OpsTable::<T>::VTABLE,
            };
            if let Some(t) = &config.ethtool {
                (*raw).ethtool_ops = t.as_raw();
            }
            if T::HAS_QUEUE_STATS_RX || T::HAS_QUEUE_STATS_TX || T::HAS_BASE_STATS {
                (*raw).stat_ops = &StatOps::<T>::VTABLE;
            }
            if let Some(x) = &config.xdp {
                (*raw).xdp_features = x.features;
                if let Some(m) = x.meta {
                    (*raw).xdp_metadata_ops = m;
                }
            }
            if config.unicast_filter {
                // `priv_flags` is a bitfield of the `priv_flags_fast` group.
                let fast = &mut (*raw).__bindgen_anon_1.priv_flags_fast;
                fast.set_priv_flags(
                    fast.priv_flags() | bindings::netdev_priv_flags_IFF_UNICAST_FLT as c_ulong,
                );
            }
            (*raw).min_mtu = config.min_mtu;
            (*raw).max_mtu = config.max_mtu;
            (*raw).hw_features = config.hw_features;
            (*raw).features = config.features;
            // What a VLAN device on top may use: the offloads, not the tag handling itself.
            (*raw).vlan_features = config.features & !NETIF_F_VLAN_OFFLOADS;
            bindings::eth_hw_addr_set(raw, config.mac.as_ptr());
            core::ptr::copy_nonoverlapping(
                config.mac.as_ptr(),
                (*raw).perm_addr.as_mut_ptr(),
                ETH_ALEN,
            );
        }
        // SAFETY: `raw` is valid; both counts are checked against the allocation by C.
        if let Err(e) = to_result(unsafe {
            bindings::netif_set_real_num_queues(raw, config.real_tx_queues, config.real_rx_queues)
        }) {
            return Err(fail(this, e));
        }
        // SAFETY: `raw` is fully initialised.
        if let Err(e) = to_result(unsafe { bindings::register_netdev(raw) }) {
            return Err(fail(this, e));
        }
        if let Some(info) = &config.clock {
            let p = this.device().priv_ref();
            // SAFETY: The private data lives until the device is freed, after `drop` has
            // dropped the clock's registration, which nothing else can reach or forget; this
            // registration is dropped before the driver's module can go (safety requirement
            // of `new_with_lt`), and never from a clock callback (none reaches it).
            match unsafe { info.register(NonNull::from(&p.data), parent) } {
                Ok(c) => {
                    p.phc_index.store(c.index(), Relaxed);
                    this.clock = Some(c);
                }
                Err(e) => dev_warn!(
                    parent,
                    "{}: no PTP hardware clock: {:?}\n",
                    this.device().name(),
                    e
                ),
            }
        }
        Ok(this)
    }

    /// Detaches the interface for system sleep or shutdown (`netif_device_detach()`): the
    /// stack stops using it, and if it is up, [`Operations::stop`] runs, as for `ip link set
    /// down`, while it stays administratively up. Doing it twice stops it once.
    ///
    /// Takes RTNL and may sleep: calling it from atomic context or with RTNL held (e.g. from a
    /// callback of this device) is a bug (it deadlocks), though not a memory-safety one.
    pub fn detach(&self) {
        let dev = self.device();
        // The clock stays registered, but its worker must not touch a device that sleeps or
        // is being reset.
        if let Some(c) = &self.clock {
            c.pause_aux_work();
        }
        Rtnl::with_lock(|rtnl| {
            // SAFETY: RTNL is held (`Priv` invariant).
            let detached = unsafe { &mut *dev.priv_ref().reg_detached.get() };
            if !*detached {
                // SAFETY: The device is registered (type invariant); RTNL is held.
                unsafe { bindings::netif_device_detach(dev.as_raw()) };
                *detached = true;
                if dev.is_running() {
                    if let Err(e) = stop_locked(dev, rtnl) {
                        pr_warn!("{}: stop before detach failed: {:?}\n", dev.name(), e);
                    }
                }
            }
        })
    }

    /// Attaches the interface again after [`Registration::detach`]: if it is up,
    /// [`Operations::open`] runs first, then the receive filters are programmed again; if
    /// `open` fails the interface stays detached (it can still be taken down) and the error is
    /// returned. Context rules as for [`Registration::detach`].
    pub fn attach(&self) -> Result {
        let dev = self.device();
        if let Some(c) = &self.clock {
            c.resume_aux_work();
        }
        Rtnl::with_lock(|rtnl| {
            let mut r = Ok(());
            // SAFETY: RTNL is held (`Priv` invariant); no other reference to the flag is live.
            if unsafe { *dev.priv_ref().reg_detached.get() } {
                if dev.is_running() {
                    r = open_locked(dev, rtnl);
                }
                if r.is_ok() {
                    // SAFETY: As above.
                    unsafe { *dev.priv_ref().reg_detached.get() = false };
                    // SAFETY: The device is registered (type invariant); RTNL is held. This
                    // also wakes the queues and restarts the stack's TX watchdog if it is up.
                    unsafe { bindings::netif_device_attach(dev.as_raw()) };
                    if dev.is_running() {
                        // Filter changes made while detached were not passed on.
                        dev.sync_rx_mode(rtnl);
                        dev.kick_service();
                    }
                }
            }
            r
        })
    }

    /// The registered device.
    #[inline]
    pub fn device(&self) -> &Device<T> {
        // SAFETY: By the type invariant the device is valid with initialised data while
        // `self` lives.
        unsafe { Device::from_raw(self.dev.as_ptr()) }
    }
}

/// Initialises the service work of a `Priv<T>`.
///
/// # Safety
///
/// `work` must be valid for writes and must not move or be freed before the work was disabled
/// with `disable_delayed_work_sync()`.
unsafe fn init_service<T: Operations>(work: *mut bindings::delayed_work) {
    let func: bindings::work_func_t = if T::HAS_SERVICE {
        Some(service_callback::<T>)
    } else {
        Some(service_none)
    };
    // SAFETY: `work` is valid for writes (safety requirement). The work function may run for
    // any work of a `Priv<T>` (`service_callback`'s safety requirement). The timer is the one
    // of a `delayed_work`, which only the workqueue code arms, and runs irq-safe as
    // `delayed_work_timer_fn` requires (as `INIT_DELAYED_WORK()` sets it up).
    unsafe {
        bindings::init_work_with_key(
            &raw mut (*work).work,
            func,
            false,
            c"netdev_service".as_char_ptr(),
            static_lock_class!().as_ptr(),
        );
        bindings::timer_init_key(
            &raw mut (*work).timer,
            Some(bindings::delayed_work_timer_fn),
            bindings::TIMER_IRQSAFE,
            c"netdev_service_timer".as_char_ptr(),
            static_lock_class!().as_ptr(),
        );
    }
}

/// The service work of a driver without [`Operations::service`] (never queued).
extern "C" fn service_none(_work: *mut bindings::work_struct) {}

/// Runs [`Operations::service`] under RTNL, if the interface is up, and queues the next run.
///
/// # Safety
///
/// Only the workqueue calls this, for the `service` work of a `Priv<T>`, which (its
/// invariant) is disabled and drained before the private data is dropped.
unsafe extern "C" fn service_callback<T: Operations>(work: *mut bindings::work_struct) {
    // SAFETY: `work` is the `work` member of the `delayed_work` in `Priv<T>::service` (safety
    // requirement); `Opaque` is a transparent wrapper.
    let priv_ptr = unsafe {
        let dwork = container_of!(work, bindings::delayed_work, work);
        container_of!(
            dwork.cast::<Opaque<bindings::delayed_work>>(),
            Priv<T>,
            service
        )
    };
    // SAFETY: The private data lives until the work was drained (safety requirement), and
    // `netdev` is its device (`Priv` invariant), valid for as long.
    let dev = unsafe { Device::<T>::from_raw((*priv_ptr).netdev) };
    // Process context (a work item) holding no lock.
    Rtnl::with_lock(|rtnl| {
        // Up means registered and opened, and not yet stopped: `__dev_close_many()` clears
        // the flag before `ndo_stop`, and unregistering closes the device first, both under
        // RTNL. Present means not detached for system sleep or shutdown, when the device is
        // stopped.
        if dev.is_running() && dev.is_present() {
            if let Some(next) = T::service(dev, rtnl) {
                let ms = u32::try_from(next.as_millis().max(0)).unwrap_or(u32::MAX);
                dev.queue_service(msecs_to_jiffies(ms), false);
            }
        }
    })
}

/// Stops transmitting, then calls [`Operations::stop`].
fn stop_locked<T: Operations>(dev: &Device<T>, rtnl: &mut Rtnl) -> Result {
    // Stopped queues keep `start_xmit` away, also for callers that bypass the qdisc layer
    // (netpoll, pktgen): they check the queue state under its lock.
    dev.tx_disable(rtnl);
    let r = T::stop(dev, rtnl);
    // A TX completion that ran before the driver disabled its polls may have woken a queue;
    // on the `ndo_stop` path the core has deactivated the qdiscs, but not on `detach`.
    dev.tx_disable(rtnl);
    // Also if `stop` failed: the lines are requested for one open.
    dev.free_irqs(rtnl);
    r
}

/// Requests the device's interrupt lines, then runs [`Operations::open`]; frees them again if
/// it fails. Only `ndo_open` and [`Registration::attach`] call it, under RTNL and never with
/// the device's instance lock held, as `netif_napi_set_irq()` needs.
fn open_locked<T: Operations>(dev: &Device<T>, rtnl: &mut Rtnl) -> Result {
    dev.request_irqs(rtnl)?;
    T::open(dev, rtnl).inspect_err(|_| dev.free_irqs(rtnl))
}

impl<T: Operations> Device<T> {
    /// Requests a handler on each interrupt line, named after the interface as it is now; the
    /// first time, also spreads the queues' lines over the CPUs ([`Config::spread_irqs`]).
    fn request_irqs(&self, _rtnl: &Rtnl) -> Result {
        let l = &self.priv_ref().irqs;
        // SAFETY: RTNL is held (`IrqLines` invariant).
        if unsafe { *l.requested.get() } {
            return Ok(());
        }
        let ifname = self.name().to_bytes();
        for (i, line) in l.lines.iter().enumerate() {
            let mut on_line = self.napis().filter(|n| n.irq_line() == Some(i as u32));
            let queue = match (on_line.next(), on_line.next()) {
                (Some(n), None) => n.queue(),
                _ => None,
            };
            // SAFETY: No line is requested (checked above) and RTNL is held: nothing reads or
            // writes the name (`IrqLine` invariant).
            let name = unsafe { &mut *line.name.get() };
            irq_name(name, ifname, queue);
            // SAFETY: `line.irq` is an interrupt of the device's parent, allocated, without a
            // handler of ours (`IrqLines` invariant: none is requested); the cookie is the
            // entry, which does not move while the device exists, and the name a
            // NUL-terminated buffer in it, unchanged while the line is requested; the private
            // data is initialised, so the handler may run at once.
            let r = to_result(unsafe {
                bindings::request_irq(
                    line.irq,
                    OpsTable::<T>::IRQ_HANDLER,
                    if l.shared {
                        irq::Flags::SHARED.into_inner()
                    } else {
                        0
                    },
                    name.as_ptr().cast(),
                    core::ptr::from_ref(line).cast_mut().cast(),
                )
            });
            if let Err(e) = r {
                // SAFETY: The lines before `i` were requested just now, with their own
                // addresses as cookies.
                unsafe { free_lines(l.lines.get(..i).unwrap_or(&[])) };
                return Err(e);
            }
        }
        // INVARIANT: every line is requested.
        // SAFETY: RTNL is held.
        unsafe { *l.requested.get() = true };
        for napi in self.napis() {
            if let Some(line) = napi.irq_line().and_then(|i| l.lines.get(i as usize)) {
                // SAFETY: `line.irq` is requested for this device; process context under
                // RTNL, without the instance lock: only `ndo_open` and `Registration::attach`
                // get here, and the core takes no instance lock around `ndo_open` of a device
                // without instance-lock operations (`Device` invariant).
                unsafe { napi.set_irq(line.irq as c_int) };
            }
        }
        // SAFETY: RTNL is held.
        if l.spread && !unsafe { *l.spread_done.get() } {
            #[cfg(CONFIG_SMP)]
            self.spread_irqs(l);
            // SAFETY: RTNL is held.
            unsafe { *l.spread_done.get() = true };
        }
        Ok(())
    }

    /// Frees the handlers requested by [`Device::request_irqs`], waiting for running ones.
    fn free_irqs(&self, _rtnl: &Rtnl) {
        let l = &self.priv_ref().irqs;
        // SAFETY: RTNL is held (`IrqLines` invariant).
        if !unsafe { *l.requested.get() } {
            return;
        }
        for napi in self.napis() {
            if napi.irq_line().is_some() {
                // SAFETY: -1 is always allowed; process context under RTNL, without the
                // instance lock: only `ndo_stop`, a failed open, `Registration::detach` and
                // unregistering get here, none with it (`Device` invariant).
                unsafe { napi.set_irq(-1) };
            }
        }
        // SAFETY: Every line is requested with its own address as the cookie (`requested`).
        unsafe { free_lines(&l.lines) };
        // INVARIANT: none is requested any more.
        // SAFETY: RTNL is held.
        unsafe { *l.requested.get() = false };
    }

    /// Moves the line of each NAPI instance with a queue `q` and a line of its own to the
    /// `q`-th CPU by distance from the device's node ([`Config::spread_irqs`]): its polls then
    /// run where its interrupt does, and a device's queues do not all start on one CPU. Done
    /// at the first open only, so that an affinity set later by a user lasts (it survives the
    /// lines being freed and requested again). Best effort: a refusal leaves the line as it
    /// was.
    #[cfg(CONFIG_SMP)]
    fn spread_irqs(&self, l: &IrqLines) {
        // A CPU found online stays online until the affinity is set.
        // SAFETY: Process context (open); released below.
        #[cfg(CONFIG_HOTPLUG_CPU)]
        unsafe {
            bindings::cpus_read_lock()
        };
        for napi in self.napis() {
            let (Some(q), Some(i)) = (napi.queue(), napi.irq_line()) else {
                continue;
            };
            let Some(line) = l.lines.get(i as usize) else {
                continue;
            };
            // A line that schedules several instances (a single MSI vector) has no one CPU.
            if self.napis().filter(|n| n.irq_line() == Some(i)).count() > 1 {
                continue;
            }
            // SAFETY: `line.irq` is an interrupt that stays allocated while the device exists
            // (`IrqLines` invariant).
            let data = unsafe { bindings::irq_get_irq_data(line.irq) };
            // A managed line's affinity is the platform's spread, kept across CPU hotplug.
            // SAFETY: `data` is the live line's, or null.
            if data.is_null() || unsafe { bindings::irqd_affinity_is_managed(data) } {
                continue;
            }
            // SAFETY: Reads the online CPUs, which the hotplug lock keeps as they are.
            let cpu = unsafe { bindings::cpumask_local_spread(q, l.node) };
            if cpu >= crate::cpu::nr_cpu_ids() {
                continue;
            }
            // SAFETY: `line.irq` is allocated (above); `get_cpu_mask()` returns a static mask
            // of `cpu`, a possible CPU (checked), which `irq_set_affinity()` copies.
            let _ = unsafe { bindings::irq_set_affinity(line.irq, bindings::get_cpu_mask(cpu)) };
        }
        // SAFETY: Taken above.
        #[cfg(CONFIG_HOTPLUG_CPU)]
        unsafe {
            bindings::cpus_read_unlock()
        };
    }
}

/// Frees the handlers of `lines`, waiting for running ones to finish.
///
/// # Safety
///
/// Each line must have been requested with its own address as the cookie, and not freed yet.
unsafe fn free_lines(lines: &[IrqLine]) {
    for line in lines {
        // SAFETY: Requested with this cookie (safety requirement); `free_irq` waits for a
        // running handler, after which none runs for this cookie.
        unsafe { bindings::free_irq(line.irq, core::ptr::from_ref(line).cast_mut().cast()) };
    }
}

/// # Safety
///
/// Only the interrupt core calls this, with a cookie that points at an [`IrqLine`] of a device
/// allocated by [`Registration`] for `T`.
unsafe extern "C" fn irq_callback<T: Operations>(
    _irq: c_int,
    cookie: *mut c_void,
) -> bindings::irqreturn_t {
    // SAFETY: The cookie is an `IrqLine` in the private data of a device, alive until
    // `free_irq` returned (`IrqLines` invariant: the lines are freed before it is dropped).
    let line = unsafe { &*cookie.cast::<IrqLine>() };
    // SAFETY: `line.dev` was allocated by `Registration` for `T`; its private data is
    // initialised before the line is requested and dropped only after it was freed.
    let dev = unsafe { Device::<T>::from_raw(line.dev) };
    // SAFETY: `IrqDevice<T>` is a transparent wrapper of `Device<T>`.
    let dev = unsafe { &*core::ptr::from_ref(dev).cast::<IrqDevice<T>>() };
    bindings::irqreturn_t(T::handle_irq(dev, line.vector) as c_uint)
}

impl<T: Operations> Drop for Registration<T> {
    #[inline]
    fn drop(&mut self) {
        let raw = self.dev.as_ptr();
        // The clock goes first, as it came last: no clock callback runs after this.
        self.device().priv_ref().phc_index.store(-1, Relaxed);
        drop(self.clock.take());
        // SAFETY: `raw` is registered (type invariant); this unregisters it once.
        unsafe { bindings::unregister_netdev(raw) };
        // SAFETY: The work is initialised (`Priv` invariant). Disabling makes every later
        // queueing a no-op and waits for a running instance, which sees the device down and
        // does not call the driver. `unregister_netdev` returned, so we do not hold the RTNL
        // lock the work takes.
        unsafe { bindings::disable_delayed_work_sync(self.device().priv_ref().service.get()) };
        for napi in self.device().napis() {
            // SAFETY: After `unregister_netdev` no callback runs any more and the service work
            // is drained, so no `Rtnl` token for this device exists and nothing else reaches
            // the `enabled` flags.
            unsafe { napi.disable_unregistered() };
        }
        // Unregistering stopped the device, which freed its lines, or `detach` did; a line
        // still requested here would be a bug, and is freed all the same.
        let l = &self.device().priv_ref().irqs;
        // SAFETY: After `unregister_netdev` nothing else reaches `requested` (as above).
        if unsafe { *l.requested.get() } {
            // SAFETY: Every line is requested with its own address as the cookie (`IrqLines`
            // invariant); the device is unregistered, so nothing requests them again.
            unsafe { free_lines(&l.lines) };
        }
        // SAFETY: No callback, no poll, no interrupt handler and no service work runs any more,
        // so the private data (`T`, then the NAPI instances with their pools) can be dropped,
        // then the device freed.
        unsafe {
            core::ptr::drop_in_place(bindings::netdev_priv(raw).cast::<Priv<T>>());
            bindings::free_netdev(raw);
        }
    }
}

/// The `net_device_ops` of `T`.
pub(crate) struct OpsTable<T: Operations>(PhantomData<T>);

impl<T: Operations> OpsTable<T> {
    /// The interrupt handler, only when the driver has one (the default `handle_irq` must not
    /// be instantiated).
    const IRQ_HANDLER: bindings::irq_handler_t = if T::HAS_HANDLE_IRQ {
        Some(irq_callback::<T>)
    } else {
        None
    };

    pub(crate) const VTABLE: bindings::net_device_ops = bindings::net_device_ops {
        ndo_open: Some(Self::open),
        ndo_stop: Some(Self::stop),
        ndo_start_xmit: Some(Self::start_xmit),
        ndo_get_stats64: if T::HAS_GET_STATS64 {
            Some(Self::get_stats64)
        } else {
            None
        },
        ndo_set_rx_mode: if T::HAS_SET_RX_MODE {
            Some(Self::set_rx_mode)
        } else {
            None
        },
        ndo_fdb_add: if T::HAS_FDB_ADD {
            Some(Self::fdb_add)
        } else {
            None
        },
        ndo_set_mac_address: if T::HAS_SET_MAC_ADDRESS {
            Some(Self::set_mac_address)
        } else {
            None
        },
        ndo_change_mtu: if T::HAS_CHANGE_MTU {
            Some(Self::change_mtu)
        } else {
            None
        },
        ndo_features_check: if T::HAS_FEATURES_CHECK {
            Some(Self::features_check)
        } else {
            None
        },
        ndo_tx_timeout: if T::HAS_TX_TIMEOUT {
            Some(Self::tx_timeout)
        } else {
            None
        },
        ndo_set_features: if T::HAS_SET_FEATURES {
            Some(Self::set_features)
        } else {
            None
        },
        ndo_vlan_rx_add_vid: if T::HAS_VLAN_RX_ADD_VID {
            Some(Self::vlan_rx_add_vid)
        } else {
            None
        },
        ndo_vlan_rx_kill_vid: if T::HAS_VLAN_RX_KILL_VID {
            Some(Self::vlan_rx_kill_vid)
        } else {
            None
        },
        ndo_hwtstamp_get: if T::HAS_HWTSTAMP_GET {
            Some(Self::hwtstamp_get)
        } else {
            None
        },
        ndo_hwtstamp_set: if T::HAS_HWTSTAMP_SET {
            Some(Self::hwtstamp_set)
        } else {
            None
        },
        ndo_validate_addr: Some(bindings::eth_validate_addr),
        // SAFETY: All-zero is a valid `net_device_ops` (every member is an optional pointer).
        ..unsafe { core::mem::zeroed() }
    };

    /// # Safety
    ///
    /// `dev` must be a net_device registered by [`Registration`] for `T`.
    unsafe extern "C" fn open(dev: *mut bindings::net_device) -> c_int {
        from_result(|| {
            // SAFETY: `dev` was registered by `Registration` for `T` (safety requirement), so its
            // private data is initialised until after unregistration; `ndo_open` is called
            // with RTNL held for the whole call.
            let (dev, mut rtnl) = unsafe { (Device::<T>::from_raw(dev), Rtnl::assume_held()) };
            open_locked(dev, &mut rtnl)?;
            if T::HAS_SERVICE {
                // Runs once RTNL is released.
                dev.queue_service(0, true);
            }
            Ok(0)
        })
    }

    /// # Safety
    ///
    /// As for `open`.
    unsafe extern "C" fn stop(dev: *mut bindings::net_device) -> c_int {
        from_result(|| {
            // SAFETY: As in `open`: registered for `T`, and `ndo_stop` runs under RTNL.
            let (dev, mut rtnl) = unsafe { (Device::<T>::from_raw(dev), Rtnl::assume_held()) };
            // `Registration::detach` already stopped it: the driver sees one stop per open.
            // SAFETY: RTNL is held (`Priv` invariant).
            if unsafe { *dev.priv_ref().reg_detached.get() } {
                return Ok(0);
            }
            stop_locked(dev, &mut rtnl)?;
            Ok(0)
        })
    }

    /// # Safety
    ///
    /// As for `open`; `skb` is owned by the callee.
    unsafe extern "C" fn start_xmit(
        skb: *mut bindings::sk_buff,
        dev: *mut bindings::net_device,
    ) -> bindings::netdev_tx_t {
        // SAFETY: `dev` was registered by `Registration` for `T` (safety requirement).
        let dev = unsafe { Device::<T>::from_raw(dev) };
        // SAFETY: The stack hands over its reference to `skb` for the duration of the call and
        // takes it back only with `NETDEV_TX_BUSY`.
        let skb = unsafe { SkBuff::from_raw(skb) };
        let raw = skb.as_raw();
        // INVARIANT: the request holds the skb of this call, unmodified.
        let req = TxRequest {
            skb,
            _brand: PhantomData,
        };
        let index = u32::from(req.skb.queue_mapping());
        // One cell per queue the device was allocated with (`Priv` invariant).
        let Some(cell) = dev.priv_ref().xmit.get(index as usize) else {
            // Not a queue of ours: drop the frame (`req` frees it).
            return bindings::netdev_tx_NETDEV_TX_OK;
        };
        // SAFETY: `dev` is valid and `index` below its queue count (one cell per queue).
        let raw_txq = unsafe { bindings::netdev_get_tx_queue(dev.as_raw(), index) };
        // The stack locks the queue of the skb's mapping (`HARD_TX_LOCK`, which locks: the
        // device is not `lltx`, which nothing here sets), except that a bulk dequeue sends the
        // skbs after the first under the first one's lock. An skb of a queue this CPU does not
        // hold is dropped (`req` frees it).
        // SAFETY: `raw_txq` is valid; the stack calls `start_xmit` with bottom halves disabled.
        if !unsafe { tx_owned(raw_txq) } {
            return bindings::netdev_tx_NETDEV_TX_OK;
        }
        // SAFETY: We hold the queue's lock on this CPU (checked above) and give the data back
        // below, before the stack releases it.
        let Some(data) = (unsafe { cell.lend() }) else {
            // Lent already, to a caller this CPU interrupted or called us from: drop.
            return bindings::netdev_tx_NETDEV_TX_OK;
        };
        // SAFETY: Lent to us alone until `give_back` below, after its last use.
        let data = unsafe { &mut *data };
        // SAFETY: This CPU holds the xmit lock of queue `index` of `dev` for the call, which is
        // what `XmitQueue` needs; it is a transparent wrapper of the queue.
        let txq = unsafe { &*raw_txq.cast::<XmitQueue<'_>>() };
        let ret = T::start_xmit(dev, txq, data, req);
        // SAFETY: We are the borrower, the lock is still held, and the call is over.
        unsafe { cell.give_back() };
        match ret {
            Xmit::Ok => bindings::netdev_tx_NETDEV_TX_OK,
            Xmit::Busy(req) => {
                // The brand makes `req` the request of this call (`TxRequest` invariant).
                debug_assert!(req.skb.as_raw() == raw);
                // The stack keeps its reference and requeues the skb.
                let _ = req.skb.into_raw();
                bindings::netdev_tx_NETDEV_TX_BUSY
            }
        }
    }

    /// # Safety
    ///
    /// As for `open`; `cfg` must be valid for writes.
    unsafe extern "C" fn hwtstamp_get(
        dev: *mut bindings::net_device,
        cfg: *mut bindings::kernel_hwtstamp_config,
    ) -> c_int {
        // SAFETY: As in `open`: registered for `T`; the core passes a `cfg` valid for the
        // call, zeroed.
        let (d, cfg) = unsafe { (Device::<T>::from_raw(dev), &mut *cfg) };
        from_result(|| {
            let c = T::hwtstamp_get(d)?;
            cfg.tx_type = c.tx as c_int;
            cfg.rx_filter = c.rx as c_int;
            Ok(0)
        })
    }

    /// # Safety
    ///
    /// As for `open`; `cfg` must be valid for reads and writes, `extack` null or valid.
    unsafe extern "C" fn hwtstamp_set(
        dev: *mut bindings::net_device,
        cfg: *mut bindings::kernel_hwtstamp_config,
        extack: *mut bindings::netlink_ext_ack,
    ) -> c_int {
        // SAFETY: As in `open`: registered for `T`, and `dev_set_hwtstamp_phylib()` runs under
        // RTNL (the ioctl, ethtool's netlink request and upper devices' requests through
        // `generic_hwtstamp_set_lower()` take it); the core passes a `cfg` valid for the call
        // and an `extack` valid for it or null (its roll-back after a failed notification).
        let (d, mut rtnl, cfg, mut ack) = unsafe {
            (
                Device::<T>::from_raw(dev),
                Rtnl::assume_held(),
                &mut *cfg,
                ExtAck::from_raw(extack),
            )
        };
        from_result(|| {
            // The core validated the range (`net_hwtstamp_validate()`); a value added to the
            // UAPI after this abstraction is refused as one the device cannot do.
            let mut c = HwTstampConfig {
                tx: HwTstampTx::from_raw(cfg.tx_type)?,
                rx: HwTstampRx::from_raw(cfg.rx_filter)?,
            };
            T::hwtstamp_set(d, &mut rtnl, &mut c, &mut ack)?;
            cfg.tx_type = c.tx as c_int;
            cfg.rx_filter = c.rx as c_int;
            Ok(0)
        })
    }

    /// # Safety
    ///
    /// As for `open`; `stats` must be valid for writes.
    unsafe extern "C" fn get_stats64(
        dev: *mut bindings::net_device,
        stats: *mut bindings::rtnl_link_stats64,
    ) {
        // SAFETY: `dev` was registered by `Registration` for `T` (safety requirement); the core
        // passes a `stats` valid for writes for the call.
        let (dev, stats) = unsafe { (Device::<T>::from_raw(dev), &mut *stats) };
        T::get_stats64(dev, stats);
    }

    /// # Safety
    ///
    /// As for `open`; the caller holds the address list lock.
    unsafe extern "C" fn set_rx_mode(dev: *mut bindings::net_device) {
        // SAFETY: `dev` was registered by `Registration` for `T` (safety requirement);
        // `ndo_set_rx_mode` runs with the address list lock held, which `RxMode` relies on.
        let d = unsafe { Device::<T>::from_raw(dev) };
        let mode = RxMode { dev: &d.0 };
        T::set_rx_mode(d, &mode);
    }

    /// # Safety
    ///
    /// As for `open`; the arguments are those of the core's `ndo_fdb_add` call.
    #[allow(clippy::too_many_arguments)]
    unsafe extern "C" fn fdb_add(
        ndm: *mut bindings::ndmsg,
        tb: *mut *mut bindings::nlattr,
        dev: *mut bindings::net_device,
        addr: *const u8,
        vid: u16,
        flags: u16,
        _notified: *mut bool,
        extack: *mut bindings::netlink_ext_ack,
    ) -> c_int {
        from_result(|| {
            // SAFETY: The core calls a device's own `ndo_fdb_add` for it (`rtnl_fdb_add`, the
            // only caller; it calls a master's with the port, but only a bridge masters
            // `IFF_BRIDGE_PORT` devices, with its own ops), so `dev` was registered for `T`;
            // it does so from a netlink request, in process context under RTNL. `addr` points
            // to an Ethernet address and `extack` is null or live for the call.
            let (d, mut rtnl, addr, mut ack) = unsafe {
                (
                    Device::<T>::from_raw(dev),
                    Rtnl::assume_held(),
                    &*addr.cast::<MacAddress>(),
                    ExtAck::from_raw(extack),
                )
            };
            // INVARIANT: `dev` registered, for the duration of the core's call.
            let req = FdbAdd {
                dev: &d.0,
                addr,
                vid,
                _not_send: NotThreadSafe,
            };
            T::fdb_add(d, &mut rtnl, &req, &mut ack)?;
            // SAFETY: The core's arguments, passed on unchanged during its call, under RTNL:
            // what `ndo_dflt_fdb_add` expects. It sends no notification, so the core does
            // (`_notified` stays false).
            to_result(unsafe {
                bindings::ndo_dflt_fdb_add(ndm, tb, dev, addr.as_ptr(), vid, flags)
            })?;
            Ok(0)
        })
    }

    /// # Safety
    ///
    /// As for `open`; `addr` points to a `struct sockaddr`.
    unsafe extern "C" fn set_mac_address(
        dev: *mut bindings::net_device,
        addr: *mut c_void,
    ) -> c_int {
        from_result(|| {
            // SAFETY: As in `open`: registered for `T`, and `ndo_set_mac_address` runs under
            // RTNL.
            let (d, mut rtnl) = unsafe { (Device::<T>::from_raw(dev), Rtnl::assume_held()) };
            let sa = addr.cast::<bindings::sockaddr>();
            let mut mac = [0u8; ETH_ALEN];
            // SAFETY: `sa_data` holds at least `ETH_ALEN` bytes.
            unsafe {
                core::ptr::copy_nonoverlapping(
                    (&raw const (*sa).sa_data).cast::<u8>(),
                    mac.as_mut_ptr(),
                    ETH_ALEN,
                )
            };
            if !is_valid_ether_addr(&mac) {
                return Err(EADDRNOTAVAIL);
            }
            T::set_mac_address(d, &mut rtnl, &mac)?;
            // SAFETY: `dev` is valid and RTNL is held.
            unsafe { bindings::eth_hw_addr_set(dev, mac.as_ptr()) };
            Ok(0)
        })
    }

    /// # Safety
    ///
    /// As for `open`.
    unsafe extern "C" fn change_mtu(dev: *mut bindings::net_device, new_mtu: c_int) -> c_int {
        from_result(|| {
            // SAFETY: As in `open`: registered for `T`, and `ndo_change_mtu` runs under RTNL.
            let (d, mut rtnl) = unsafe { (Device::<T>::from_raw(dev), Rtnl::assume_held()) };
            let mtu = u32::try_from(new_mtu).map_err(|_| EINVAL)?;
            T::change_mtu(d, &mut rtnl, mtu)?;
            // SAFETY: `dev` is valid; this is `WRITE_ONCE(dev->mtu, new_mtu)`.
            unsafe { core::ptr::write_volatile(&raw mut (*dev).mtu, mtu) };
            Ok(0)
        })
    }
}

impl<T: Operations> OpsTable<T> {
    /// # Safety
    ///
    /// As for `open`.
    unsafe extern "C" fn tx_timeout(dev: *mut bindings::net_device, txqueue: c_uint) {
        // SAFETY: `dev` was registered by `Registration` for `T` (safety requirement).
        let dev = unsafe { Device::<T>::from_raw(dev) };
        T::tx_timeout(dev, txqueue);
    }

    /// # Safety
    ///
    /// As for `open`; `skb` is a valid skb the caller holds a reference to for the call.
    unsafe extern "C" fn features_check(
        skb: *mut bindings::sk_buff,
        dev: *mut bindings::net_device,
        features: bindings::netdev_features_t,
    ) -> bindings::netdev_features_t {
        // SAFETY: `skb` is valid for the call (safety requirement). `vlan_features_check()` may
        // pull headers into the linear part (`pskb_may_pull()`, which can reallocate the head),
        // so it must run, as here, before any Rust view of the skb exists.
        let features = unsafe { bindings::vlan_features_check(skb, features) };
        // SAFETY: `dev` was registered by `Registration` for `T` (safety requirement).
        let dev = unsafe { Device::<T>::from_raw(dev) };
        // SAFETY: The caller's reference keeps `skb` alive for the call; `ManuallyDrop` keeps
        // it from being dropped here, and the callee only gets a shared reference: no `&self`
        // method of `SkBuff` frees, writes or hands out the reference it stands for (see its
        // invariants), and moving out needs the owned value.
        let skb = core::mem::ManuallyDrop::new(unsafe { SkBuff::from_raw(skb) });
        T::features_check(dev, &skb, features) & features
    }
}

impl<T: Operations> OpsTable<T> {
    /// # Safety
    ///
    /// As for `open`.
    unsafe extern "C" fn set_features(
        dev: *mut bindings::net_device,
        features: bindings::netdev_features_t,
    ) -> c_int {
        // SAFETY: As in `open`: registered for `T`, and `ndo_set_features` runs under RTNL
        // (`__netdev_update_features()` asserts it).
        let (d, mut rtnl) = unsafe { (Device::<T>::from_raw(dev), Rtnl::assume_held()) };
        from_result(|| T::set_features(d, &mut rtnl, features).map(|()| 0))
    }

    /// The VLAN ID of an `ndo_vlan_rx_{add,kill}_vid` call for an 802.1Q tag, or why not.
    fn ctag_vid(proto: u16, vid: u16) -> Result<u16> {
        if u32::from(u16::from_be(proto)) != bindings::ETH_P_8021Q {
            // Only a device with `NETIF_F_HW_VLAN_STAG_FILTER` is asked about service tags.
            return Err(EPROTONOSUPPORT);
        }
        // `VLAN_N_VID`: 12-bit VLAN IDs.
        if vid >= 4096 {
            return Err(EINVAL);
        }
        Ok(vid)
    }

    /// # Safety
    ///
    /// As for `open`.
    unsafe extern "C" fn vlan_rx_add_vid(
        dev: *mut bindings::net_device,
        proto: bindings::__be16,
        vid: u16,
    ) -> c_int {
        // SAFETY: As in `open`: registered for `T`; `vlan_vid_add()` asserts RTNL.
        let (d, mut rtnl) = unsafe { (Device::<T>::from_raw(dev), Rtnl::assume_held()) };
        from_result(|| T::vlan_rx_add_vid(d, &mut rtnl, Self::ctag_vid(proto, vid)?).map(|()| 0))
    }

    /// # Safety
    ///
    /// As for `open`.
    unsafe extern "C" fn vlan_rx_kill_vid(
        dev: *mut bindings::net_device,
        proto: bindings::__be16,
        vid: u16,
    ) -> c_int {
        // SAFETY: As in `open`: registered for `T`; `vlan_vid_del()` asserts RTNL.
        let (d, mut rtnl) = unsafe { (Device::<T>::from_raw(dev), Rtnl::assume_held()) };
        from_result(|| T::vlan_rx_kill_vid(d, &mut rtnl, Self::ctag_vid(proto, vid)?).map(|()| 0))
    }
}

/// The `netdev_stat_ops` of `T`.
struct StatOps<T: Operations>(PhantomData<T>);

impl<T: Operations> StatOps<T> {
    const VTABLE: bindings::netdev_stat_ops = bindings::netdev_stat_ops {
        get_queue_stats_rx: if T::HAS_QUEUE_STATS_RX {
            Some(Self::queue_stats_rx)
        } else {
            None
        },
        get_queue_stats_tx: if T::HAS_QUEUE_STATS_TX {
            Some(Self::queue_stats_tx)
        } else {
            None
        },
        get_base_stats: if T::HAS_BASE_STATS {
            Some(Self::base_stats)
        } else {
            None
        },
    };

    /// # Safety
    ///
    /// `dev` must be a net_device registered by [`Registration`] for `T`; `stats` must be valid
    /// for writes and initialised.
    unsafe extern "C" fn queue_stats_rx(
        dev: *mut bindings::net_device,
        idx: c_int,
        stats: *mut bindings::netdev_queue_stats_rx,
    ) {
        // SAFETY: `dev` was registered for `T` (safety requirement). `stats` is valid for
        // writes and exclusively ours for the call; the core fills it with 0xff ("not
        // reported", `netdev_nl_stats_queue()` and `netdev_nl_stats_by_netdev()`) first, and
        // any bits are a valid value of its `u64` counters in any case. `QueueStatsRx` is a
        // transparent wrapper.
        let (dev, stats) = unsafe { (Device::<T>::from_raw(dev), &mut *stats.cast()) };
        T::queue_stats_rx(dev, idx as u32, stats);
    }

    /// # Safety
    ///
    /// As for `queue_stats_rx`.
    unsafe extern "C" fn queue_stats_tx(
        dev: *mut bindings::net_device,
        idx: c_int,
        stats: *mut bindings::netdev_queue_stats_tx,
    ) {
        // SAFETY: As in `queue_stats_rx`: registered for `T`, `stats` initialised by the core
        // and exclusive for the call.
        let (dev, stats) = unsafe { (Device::<T>::from_raw(dev), &mut *stats.cast()) };
        T::queue_stats_tx(dev, idx as u32, stats);
    }

    /// # Safety
    ///
    /// As for `queue_stats_rx`, for both `rx` and `tx`.
    unsafe extern "C" fn base_stats(
        dev: *mut bindings::net_device,
        rx: *mut bindings::netdev_queue_stats_rx,
        tx: *mut bindings::netdev_queue_stats_tx,
    ) {
        // SAFETY: As in `queue_stats_rx`; `rx` and `tx` are two distinct structures.
        let (dev, rx, tx) =
            unsafe { (Device::<T>::from_raw(dev), &mut *rx.cast(), &mut *tx.cast()) };
        T::base_stats(dev, rx, tx);
    }
}

/// Scatter/gather: the device can transmit skbs with page fragments.
pub const NETIF_F_SG: u64 = bindings::NETIF_F_SG;
/// The device computes TCP/UDP checksums over IPv4.
pub const NETIF_F_IP_CSUM: u64 = bindings::NETIF_F_IP_CSUM;
/// The device computes TCP/UDP checksums over IPv6.
pub const NETIF_F_IPV6_CSUM: u64 = bindings::NETIF_F_IPV6_CSUM;
/// The device verifies received checksums.
pub const NETIF_F_RXCSUM: u64 = bindings::NETIF_F_RXCSUM;
/// The device reports an RSS hash for received frames.
pub const NETIF_F_RXHASH: u64 = bindings::NETIF_F_RXHASH;
/// The device segments TCP over IPv4 itself (TSO).
pub const NETIF_F_TSO: u64 = bindings::NETIF_F_TSO;
/// The device segments TCP over IPv6 itself (TSO).
pub const NETIF_F_TSO6: u64 = bindings::NETIF_F_TSO6;
/// The device strips 802.1Q tags from received frames and reports them beside the frame.
pub const NETIF_F_HW_VLAN_CTAG_RX: u64 = 1 << bindings::NETIF_F_HW_VLAN_CTAG_RX_BIT;
/// The device inserts the 802.1Q tag the stack leaves beside a frame ([`SkBuff::vlan_tag`]).
///
/// [`SkBuff::vlan_tag`]: crate::net::skb::SkBuff::vlan_tag
pub const NETIF_F_HW_VLAN_CTAG_TX: u64 = 1 << bindings::NETIF_F_HW_VLAN_CTAG_TX_BIT;
/// The device drops frames of 802.1Q VLANs not added with [`Operations::vlan_rx_add_vid`].
pub const NETIF_F_HW_VLAN_CTAG_FILTER: u64 = 1 << bindings::NETIF_F_HW_VLAN_CTAG_FILTER_BIT;
/// Every VLAN offload bit: a VLAN device on top of this one cannot use them.
const NETIF_F_VLAN_OFFLOADS: u64 = NETIF_F_HW_VLAN_CTAG_RX
    | NETIF_F_HW_VLAN_CTAG_TX
    | NETIF_F_HW_VLAN_CTAG_FILTER
    | (1 << bindings::NETIF_F_HW_VLAN_STAG_RX_BIT)
    | (1 << bindings::NETIF_F_HW_VLAN_STAG_TX_BIT)
    | (1 << bindings::NETIF_F_HW_VLAN_STAG_FILTER_BIT);
/// Every checksum offload bit (`NETIF_F_CSUM_MASK`).
pub const NETIF_F_CSUM_MASK: u64 =
    NETIF_F_IP_CSUM | NETIF_F_IPV6_CSUM | (1 << bindings::NETIF_F_HW_CSUM_BIT);
/// Every segmentation offload bit (`NETIF_F_GSO_MASK`).
pub const NETIF_F_GSO_MASK: u64 =
    ((1u64 << (bindings::NETIF_F_GSO_LAST + 1)) - 1) & !((1u64 << bindings::NETIF_F_GSO_SHIFT) - 1);

// Receiving into a device is a net_device concept: the skb module stands alone below this one.
impl SkBuff {
    /// Starts a hardware timestamp of this frame's transmission on `dev`: marks it in progress
    /// (`SKBTX_IN_PROGRESS`, so that the software timestamp of [`SkBuff::tx_timestamp`] is not
    /// also taken unless the socket asked for both) and takes references to the skb and to
    /// `dev` that deliver the timestamp once the device has it ([`TxTimestamp::complete`]).
    /// For the skb `start_xmit` was handed, before `tx_timestamp`: the flag is written into the
    /// shared info that clones of the skb share, non-atomically, as C drivers write it. The
    /// timestamp reaches the socket only if the skb is still `dev`'s then.
    #[inline]
    pub fn start_hw_tx_timestamp<T: Operations>(&mut self, dev: &Device<T>) -> TxTimestamp {
        self.mark_tx_in_progress();
        // SAFETY: `self` is a valid skb (type invariant of `SkBuff`); `dev` is a valid
        // net_device for the call (type invariant of `Device`).
        unsafe { TxTimestamp::new(self, dev.as_raw()) }
    }

    /// Sets the protocol from the Ethernet header and pulls it (`eth_type_trans()`); also
    /// records the receiving device.
    #[inline]
    pub fn eth_type_trans<T: Operations>(&mut self, dev: &Device<T>) -> Result {
        if self.headlen() < bindings::ETH_HLEN || self.is_shared() {
            return Err(EINVAL);
        }
        // SAFETY: `self` is a valid skb, not shared (its header fields are ours to change), with at
        // least an Ethernet header of linear data; `dev` is a valid net_device.
        unsafe {
            let proto = bindings::eth_type_trans(self.as_raw(), dev.as_raw());
            (*self.as_raw()).__bindgen_anon_4.headers.as_mut().protocol = proto;
        }
        Ok(())
    }
}
