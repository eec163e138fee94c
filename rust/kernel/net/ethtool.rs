// SPDX-License-Identifier: GPL-2.0

//! Ethtool operations (`struct ethtool_ops`).
//!
//! A driver implements [`Operations`] on the same private data type as its
//! [`netdev::Operations`] and passes [`table::<T>()`](table) in its
//! [`netdev::Config`]. The callbacks get typed views instead of raw C structures: strings are
//! copied with truncation, statistics are written into slices whose length is the count the
//! driver set with [`Device::set_stats_count`](netdev::Device::set_stats_count) under RTNL
//! (never a second callback that could return more), and tunables arrive already identified.
//!
//! C header: [`include/linux/ethtool.h`](srctree/include/linux/ethtool.h).

use crate::{
    bindings,
    error::{from_result, to_result, VTABLE_DEFAULT_ERROR},
    net::netdev::{self, Device, Rtnl},
    prelude::*,
};
use core::marker::PhantomData;

/// Length of one statistics name (`ETH_GSTRING_LEN`).
pub const GSTRING_LEN: usize = bindings::ETH_GSTRING_LEN as usize;

/// A tunable (`ethtool --get-tunable`/`--set-tunable`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Tunable {
    /// `rx-copybreak`: received frames up to this many bytes are copied into a fresh skb.
    RxCopybreak,
    /// `tx-copybreak`.
    TxCopybreak,
    /// Any other tunable id.
    Other(u32),
}

impl Tunable {
    /// The tunable `tuna` names, if it is one this abstraction passes on (the `u32`
    /// copybreak tunables, whose type and size the core has checked); `EOPNOTSUPP` otherwise.
    fn supported(tuna: &bindings::ethtool_tunable) -> Result<Self> {
        match Self::from_raw(tuna.id) {
            t @ (Tunable::RxCopybreak | Tunable::TxCopybreak) => Ok(t),
            Tunable::Other(_) => Err(EOPNOTSUPP),
        }
    }

    fn from_raw(id: u32) -> Self {
        match id {
            bindings::tunable_id_ETHTOOL_RX_COPYBREAK => Tunable::RxCopybreak,
            bindings::tunable_id_ETHTOOL_TX_COPYBREAK => Tunable::TxCopybreak,
            other => Tunable::Other(other),
        }
    }
}

/// A string set (`enum ethtool_stringset`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum StringSet {
    /// Names of the `ethtool -S` statistics.
    Stats,
    /// Names of the self-tests (`ethtool -t`): written by the abstraction from
    /// [`Operations::SELF_TESTS`], never asked of the driver.
    Test,
    /// Any other set.
    Other(u32),
}

impl StringSet {
    fn from_raw(set: u32) -> Self {
        match set {
            bindings::ethtool_stringset_ETH_SS_STATS => StringSet::Stats,
            bindings::ethtool_stringset_ETH_SS_TEST => StringSet::Test,
            other => StringSet::Other(other),
        }
    }
}

crate::impl_flags!(
    /// Events that wake the system up (`ethtool -s DEV wol ...`, `WAKE_*`). SecureOn
    /// passwords and filters cannot be represented, so they are never reported supported, and
    /// the core refuses them; a SecureOn password the ioctl passes along is ignored.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub struct Wol(u32);

    /// One wake-up event.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum WolEvent {
        /// A link change (`p`, `WAKE_PHY`).
        Phy = bindings::WAKE_PHY,
        /// A frame to the device's unicast address (`u`, `WAKE_UCAST`).
        Unicast = bindings::WAKE_UCAST,
        /// A multicast frame (`m`, `WAKE_MCAST`).
        Multicast = bindings::WAKE_MCAST,
        /// A broadcast frame (`b`, `WAKE_BCAST`).
        Broadcast = bindings::WAKE_BCAST,
        /// An ARP request (`a`, `WAKE_ARP`).
        Arp = bindings::WAKE_ARP,
        /// A magic packet (`g`, `WAKE_MAGIC`).
        Magic = bindings::WAKE_MAGIC,
    }
);

impl Wol {
    /// The events of `raw` (`WAKE_*` bits) this type can hold, and whether every bit was one.
    fn from_raw(raw: u32) -> (Self, bool) {
        let known = raw & Self::all_bits();
        (Self(known), known == raw)
    }
}

/// Wake-on-LAN as `ethtool DEV` shows it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WolSettings {
    /// The events the device can wake the system on.
    pub supported: Wol,
    /// The events it is to wake the system on.
    pub enabled: Wol,
}

/// What `ethtool -p` asks of the device's identification LED (`enum ethtool_phys_id_state`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PhysId {
    /// Identification starts.
    Active,
    /// Turn the LED on (between `Active` and `Inactive`, at the rate `Active` returned).
    On,
    /// Turn the LED off.
    Off,
    /// Identification ends: the LED goes back to its normal use.
    Inactive,
}

/// Driver information (`ethtool -i`).
pub struct DrvInfo<'a>(&'a mut bindings::ethtool_drvinfo);

fn copy_cstr(dst: &mut [c_char], src: &str) {
    let n = src.len().min(dst.len().saturating_sub(1));
    for (d, s) in dst.iter_mut().zip(src.as_bytes()[..n].iter()) {
        *d = *s as c_char;
    }
    if let Some(z) = dst.get_mut(n) {
        *z = 0;
    }
}

impl DrvInfo<'_> {
    /// Sets the driver name.
    pub fn set_driver(&mut self, s: &str) {
        copy_cstr(&mut self.0.driver, s);
    }
    /// Sets the driver version.
    pub fn set_version(&mut self, s: &str) {
        copy_cstr(&mut self.0.version, s);
    }
    /// Sets the bus address, e.g. `0000:01:00.0`.
    pub fn set_bus_info(&mut self, s: &str) {
        copy_cstr(&mut self.0.bus_info, s);
    }
}

/// Queue counts (`ethtool -l`).
#[derive(Default, Clone, Copy, Debug)]
pub struct Channels {
    /// Most combined (RX and TX) channels the device can have.
    pub max_combined: u32,
    /// Combined channels in use.
    pub combined_count: u32,
    /// Most channels for other causes (link, ...).
    pub max_other: u32,
    /// Channels for other causes in use.
    pub other_count: u32,
}

impl From<&bindings::ethtool_channels> for Channels {
    fn from(c: &bindings::ethtool_channels) -> Self {
        Self {
            max_combined: c.max_combined,
            combined_count: c.combined_count,
            max_other: c.max_other,
            other_count: c.other_count,
        }
    }
}

impl Channels {
    fn write_to(&self, c: &mut bindings::ethtool_channels) {
        c.max_combined = self.max_combined;
        c.combined_count = self.combined_count;
        c.max_other = self.max_other;
        c.other_count = self.other_count;
    }
}

/// Ring sizes (`ethtool -g`).
#[derive(Default, Clone, Copy, Debug)]
pub struct Ringparam {
    /// Largest RX ring.
    pub rx_max_pending: u32,
    /// Largest TX ring.
    pub tx_max_pending: u32,
    /// Current RX ring size.
    pub rx_pending: u32,
    /// Current TX ring size.
    pub tx_pending: u32,
}

/// Ring sizes requested with `ethtool -G`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RingSizes {
    /// RX descriptors.
    pub rx: u32,
    /// TX descriptors.
    pub tx: u32,
}

/// Words of a link mode mask (`__ETHTOOL_DECLARE_LINK_MODE_MASK`).
const LINK_MODE_WORDS: usize =
    (bindings::ethtool_link_mode_bit_indices___ETHTOOL_LINK_MODE_MASK_NBITS as usize)
        .div_ceil(c_ulong::BITS as usize);

/// A set of link modes (`ETHTOOL_LINK_MODE_*_BIT` numbers, e.g. [`LINK_MODE_TP`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LinkModes([c_ulong; LINK_MODE_WORDS]);

impl LinkModes {
    /// The empty set.
    pub const EMPTY: Self = Self([0; LINK_MODE_WORDS]);

    /// The set with `mode` added; a number past the last link mode adds nothing.
    #[inline]
    pub const fn with(mut self, mode: u32) -> Self {
        let (w, b) = (mode as usize / c_ulong::BITS as usize, mode % c_ulong::BITS);
        if w < LINK_MODE_WORDS {
            self.0[w] |= 1 << b;
        }
        self
    }

    /// Whether `mode` is in the set.
    #[inline]
    pub const fn contains(&self, mode: u32) -> bool {
        let (w, b) = (mode as usize / c_ulong::BITS as usize, mode % c_ulong::BITS);
        w < LINK_MODE_WORDS && self.0[w] & (1 << b) != 0
    }

    /// Whether every mode of `self` is in `other`.
    #[inline]
    pub fn is_subset(&self, other: &Self) -> bool {
        self.0.iter().zip(other.0.iter()).all(|(a, b)| a & !b == 0)
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|w| *w == 0)
    }
}

/// Link settings (`ethtool DEV`), for a twisted-pair device.
#[derive(Clone, Copy, Debug)]
pub struct LinkSettings {
    /// Speed in Mb/s, or `None` when unknown (link down).
    pub speed: Option<u32>,
    /// Full duplex.
    pub full_duplex: bool,
    /// Autonegotiation enabled.
    pub autoneg: bool,
    /// Link modes the device can do.
    pub supported: LinkModes,
    /// Link modes it advertises to its link partner.
    pub advertising: LinkModes,
    /// Link modes the link partner advertised, as far as known.
    pub lp_advertising: LinkModes,
}

/// A change of the link settings (`ethtool -s`): over netlink, the current settings with the
/// user's changes applied; through the ioctl, the settings the user passed whole.
#[derive(Clone, Copy, Debug)]
pub struct LinkRequest {
    /// Autonegotiation on.
    pub autoneg: bool,
    /// Speed in Mb/s to force with autonegotiation off, `None` if unknown.
    pub speed: Option<u32>,
    /// Duplex to force with autonegotiation off, `None` if unknown.
    pub full_duplex: Option<bool>,
    /// Link modes to advertise (with autonegotiation on).
    pub advertising: LinkModes,
}

/// Link mode bit: 10baseT half duplex.
pub const LINK_MODE_10BASET_HALF: u32 =
    bindings::ethtool_link_mode_bit_indices_ETHTOOL_LINK_MODE_10baseT_Half_BIT;
/// Link mode bit: 10baseT full duplex.
pub const LINK_MODE_10BASET_FULL: u32 =
    bindings::ethtool_link_mode_bit_indices_ETHTOOL_LINK_MODE_10baseT_Full_BIT;
/// Link mode bit: 100baseT half duplex.
pub const LINK_MODE_100BASET_HALF: u32 =
    bindings::ethtool_link_mode_bit_indices_ETHTOOL_LINK_MODE_100baseT_Half_BIT;
/// Link mode bit: 100baseT full duplex.
pub const LINK_MODE_100BASET_FULL: u32 =
    bindings::ethtool_link_mode_bit_indices_ETHTOOL_LINK_MODE_100baseT_Full_BIT;
/// Link mode bit: 1000baseT half duplex.
pub const LINK_MODE_1000BASET_HALF: u32 =
    bindings::ethtool_link_mode_bit_indices_ETHTOOL_LINK_MODE_1000baseT_Half_BIT;
/// Link mode bit: symmetric pause frames.
pub const LINK_MODE_PAUSE: u32 =
    bindings::ethtool_link_mode_bit_indices_ETHTOOL_LINK_MODE_Pause_BIT;
/// Link mode bit: asymmetric pause frames.
pub const LINK_MODE_ASYM_PAUSE: u32 =
    bindings::ethtool_link_mode_bit_indices_ETHTOOL_LINK_MODE_Asym_Pause_BIT;
/// Link mode bit: 1000baseT full duplex.
pub const LINK_MODE_1000BASET_FULL: u32 =
    bindings::ethtool_link_mode_bit_indices_ETHTOOL_LINK_MODE_1000baseT_Full_BIT;
/// Link mode bit: autonegotiation.
pub const LINK_MODE_AUTONEG: u32 =
    bindings::ethtool_link_mode_bit_indices_ETHTOOL_LINK_MODE_Autoneg_BIT;
/// Link mode bit: twisted pair.
pub const LINK_MODE_TP: u32 = bindings::ethtool_link_mode_bit_indices_ETHTOOL_LINK_MODE_TP_BIT;

/// Interrupt coalescing (`ethtool -c`/`-C`): the parameters this abstraction passes on. The
/// ethtool core refuses requests that set any other (`EINVAL` over netlink, `EOPNOTSUPP`
/// through the ioctl).
#[derive(Default, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Coalesce {
    /// Microseconds to wait after a receive before interrupting (`rx-usecs`).
    pub rx_usecs: u32,
    /// Microseconds to wait after a transmit completion before interrupting (`tx-usecs`).
    pub tx_usecs: u32,
    /// The receive interval is picked from the traffic (`adaptive-rx`). Changeable only where
    /// [`Operations::ADAPTIVE_RX`] says so.
    pub adaptive_rx: bool,
}

/// Flow control by pause frames (`ethtool -a`/`-A`).
#[derive(Default, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pause {
    /// Negotiated with the link partner rather than forced.
    pub autoneg: bool,
    /// Honour received pause frames.
    pub rx: bool,
    /// Send pause frames when receive buffers fill.
    pub tx: bool,
}

/// Pause frame counters (`ethtool -I -a`), write-only: a counter not set is reported as
/// absent.
#[repr(transparent)]
pub struct PauseStats(bindings::ethtool_pause_stats);

impl PauseStats {
    /// Pause frames sent.
    #[inline]
    pub fn set_tx_frames(&mut self, v: u64) {
        self.0.__bindgen_anon_1.stats.tx_pause_frames = v;
    }

    /// Pause frames received.
    #[inline]
    pub fn set_rx_frames(&mut self, v: u64) {
        self.0.__bindgen_anon_1.stats.rx_pause_frames = v;
    }
}

/// A flow type of `ethtool -n/-N rx-flow-hash` (`*_FLOW`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FlowType {
    /// TCP over IPv4 (`tcp4`).
    Tcp4,
    /// UDP over IPv4 (`udp4`).
    Udp4,
    /// TCP over IPv6 (`tcp6`).
    Tcp6,
    /// UDP over IPv6 (`udp6`).
    Udp6,
    /// Any other IPv4 traffic: SCTP, AH, ESP, other protocols (`sctp4`, `ah4`, `ip4`, ...).
    OtherIp4,
    /// Any other IPv6 traffic.
    OtherIp6,
    /// A flow type that is not IP (e.g. `ether`), or unknown.
    Other(u32),
}

impl FlowType {
    fn from_raw(v: u32) -> Self {
        match v {
            bindings::TCP_V4_FLOW => FlowType::Tcp4,
            bindings::UDP_V4_FLOW => FlowType::Udp4,
            bindings::TCP_V6_FLOW => FlowType::Tcp6,
            bindings::UDP_V6_FLOW => FlowType::Udp6,
            bindings::SCTP_V4_FLOW
            | bindings::AH_ESP_V4_FLOW
            | bindings::AH_V4_FLOW
            | bindings::ESP_V4_FLOW
            | bindings::IPV4_FLOW => FlowType::OtherIp4,
            bindings::SCTP_V6_FLOW
            | bindings::AH_ESP_V6_FLOW
            | bindings::AH_V6_FLOW
            | bindings::ESP_V6_FLOW
            | bindings::IPV6_FLOW => FlowType::OtherIp6,
            other => FlowType::Other(other),
        }
    }
}

/// Hash field: IP source address (`RXH_IP_SRC`).
pub const RXH_IP_SRC: u32 = bindings::RXH_IP_SRC;
/// Hash field: IP destination address (`RXH_IP_DST`).
pub const RXH_IP_DST: u32 = bindings::RXH_IP_DST;
/// Hash field: L4 bytes 0 and 1, the source port (`RXH_L4_B_0_1`).
pub const RXH_L4_B_0_1: u32 = bindings::RXH_L4_B_0_1;
/// Hash field: L4 bytes 2 and 3, the destination port (`RXH_L4_B_2_3`).
pub const RXH_L4_B_2_3: u32 = bindings::RXH_L4_B_2_3;

/// Writes statistics names, `GSTRING_LEN` bytes each, into the buffer the core sized from
/// the device's statistics count. Names beyond that count are dropped.
pub struct StringWriter<'a> {
    buf: &'a mut [u8],
    pos: usize,
}

impl StringWriter<'_> {
    /// Appends one name, truncated to `GSTRING_LEN - 1` bytes.
    pub fn push(&mut self, name: &str) {
        let Some(slot) = self.buf.get_mut(self.pos..self.pos + GSTRING_LEN) else {
            return;
        };
        slot.fill(0);
        let n = name.len().min(GSTRING_LEN - 1);
        slot[..n].copy_from_slice(&name.as_bytes()[..n]);
        self.pos += GSTRING_LEN;
    }

    /// Hands out the next `n` name slots as raw bytes, for C functions that write names
    /// themselves; `None` if fewer are left.
    pub(crate) fn reserve(&mut self, n: usize) -> Option<&mut [u8]> {
        let end = self.pos.checked_add(n.checked_mul(GSTRING_LEN)?)?;
        let start = self.pos;
        let slot = self.buf.get_mut(start..end)?;
        self.pos = end;
        Some(slot)
    }

    /// Appends `prefix` followed by the decimal `index` and `suffix`, e.g. `rx0_packets`.
    pub fn push_indexed(&mut self, prefix: &str, index: u32, suffix: &str) {
        let mut tmp = [0u8; GSTRING_LEN];
        let mut len = 0;
        let mut put = |b: &[u8]| {
            for &c in b {
                if len < GSTRING_LEN - 1 {
                    tmp[len] = c;
                    len += 1;
                }
            }
        };
        put(prefix.as_bytes());
        let mut digits = [0u8; 10];
        let mut n = 0;
        let mut v = index;
        loop {
            digits[n] = b'0' + (v % 10) as u8;
            n += 1;
            v /= 10;
            if v == 0 {
                break;
            }
        }
        digits[..n].reverse();
        put(&digits[..n]);
        put(suffix.as_bytes());
        // `tmp[..len]` is ASCII built from `&str` pieces and digits.
        if let Ok(s) = core::str::from_utf8(&tmp[..len]) {
            self.push(s);
        }
    }
}

/// What [`Operations::get_ts_info`] reports (`struct kernel_ethtool_ts_info`), as the core
/// set it up: no PTP clock, no flag.
pub struct TsInfo<'a>(&'a mut bindings::kernel_ethtool_ts_info);

impl TsInfo<'_> {
    /// Software TX timestamps: the driver calls `skb_tx_timestamp()` for each frame it queues.
    pub const TX_SOFTWARE: u32 = bindings::SOF_TIMESTAMPING_TX_SOFTWARE;

    /// Hardware TX timestamps, delivered on the socket's error queue.
    pub const TX_HARDWARE: u32 = bindings::SOF_TIMESTAMPING_TX_HARDWARE;
    /// Hardware RX timestamps.
    pub const RX_HARDWARE: u32 = bindings::SOF_TIMESTAMPING_RX_HARDWARE;
    /// Hardware timestamps are reported in the clock's own time.
    pub const RAW_HARDWARE: u32 = bindings::SOF_TIMESTAMPING_RAW_HARDWARE;

    /// Adds `SOF_TIMESTAMPING_*` flags ([`TsInfo::TX_SOFTWARE`]) to those reported.
    pub fn add_timestamping(&mut self, flags: u32) {
        self.0.so_timestamping |= flags;
    }

    /// Reports the device's PTP hardware clock (`/dev/ptp<index>`), e.g.
    /// [`netdev::Device::phc_index`]; `None` for none.
    pub fn set_phc_index(&mut self, index: Option<u32>) {
        self.0.phc_index = index.and_then(|i| i32::try_from(i).ok()).unwrap_or(-1);
    }

    /// Reports the TX timestamping modes [`netdev::Operations::hwtstamp_set`] accepts.
    pub fn set_tx_types(&mut self, types: &[netdev::HwTstampTx]) {
        // Every variant's value is below 32 (`__HWTSTAMP_TX_CNT`).
        self.0.tx_types = types.iter().fold(0, |m, t| m | (1 << (*t as u32)));
    }

    /// Reports the RX filters [`netdev::Operations::hwtstamp_set`] accepts as they are.
    pub fn set_rx_filters(&mut self, filters: &[netdev::HwTstampRx]) {
        // Every variant's value is below 32 (`__HWTSTAMP_FILTER_CNT`).
        self.0.rx_filters = filters.iter().fold(0, |m, f| m | (1 << (*f as u32)));
    }
}

/// Ethtool operations of a network device.
#[vtable]
pub trait Operations: netdev::Operations {
    /// Driver name, version and bus address (`ethtool -i`).
    fn get_drvinfo(_dev: &Device<Self>, _info: &mut DrvInfo<'_>) {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Queue counts (`ethtool -l`).
    fn get_channels(_dev: &Device<Self>) -> Channels {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Changes the queue counts (`ethtool -L`); the core already checked them against the
    /// maxima from [`Operations::get_channels`] and against an RSS indirection table the user
    /// set. Runs under RTNL.
    fn set_channels(_dev: &Device<Self>, _rtnl: &mut Rtnl, _channels: Channels) -> Result {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Ring sizes (`ethtool -g`).
    fn get_ringparam(_dev: &Device<Self>) -> Ringparam {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Changes the ring sizes (`ethtool -G`). The core already refused sizes above the maxima
    /// from [`Operations::get_ringparam`] and every ring the device does not have (mini,
    /// jumbo) or setting it does not announce (buffer length, header split, push); the driver
    /// checks the lower bound and alignment itself. Runs under RTNL.
    fn set_ringparam(_dev: &Device<Self>, _rtnl: &mut Rtnl, _sizes: RingSizes) -> Result {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Current link settings (`ethtool DEV`).
    fn get_link_ksettings(_dev: &Device<Self>) -> Result<LinkSettings> {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Changes the link settings (`ethtool -s`). `EINVAL` for settings the device cannot do,
    /// changing nothing. Requests to change the port, the PHY address or MDI-X are refused
    /// before this is called (`EINVAL`, `EOPNOTSUPP`). Installed only with
    /// [`Operations::get_link_ksettings`].
    fn set_link_ksettings(_dev: &Device<Self>, _request: LinkRequest) -> Result {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Reads a tunable; `EOPNOTSUPP` for tunables the driver does not have.
    fn get_tunable(_dev: &Device<Self>, _tunable: Tunable) -> Result<u32> {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Sets a tunable; `EINVAL` for out-of-range values (changing nothing), `EOPNOTSUPP` for
    /// tunables the driver does not have.
    fn set_tunable(_dev: &Device<Self>, _tunable: Tunable, _value: u32) -> Result {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Writes the names of `set`.
    fn get_strings(_dev: &Device<Self>, _set: StringSet, _out: &mut StringWriter<'_>) {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Writes the values of the `ethtool -S` statistics, in the order of their names.
    fn get_ethtool_stats(_dev: &Device<Self>, _data: &mut [u64]) {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Interrupt coalescing (`ethtool -c`).
    fn get_coalesce(_dev: &Device<Self>) -> Result<Coalesce> {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Changes interrupt coalescing (`ethtool -C`): `coalesce` holds the current values with
    /// the user's changes applied. `EINVAL` for values the device cannot do, changing nothing.
    fn set_coalesce(_dev: &Device<Self>, _coalesce: Coalesce) -> Result {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Whether [`Operations::set_coalesce`] takes [`Coalesce::adaptive_rx`]; without it the
    /// ethtool core refuses requests that set it, as for any parameter not passed on.
    const ADAPTIVE_RX: bool = false;

    /// Number of 32-bit words of the register dump (`ethtool -d`); 0 for none.
    const REGS_LEN: usize = 0;

    /// Writes the register dump into `regs` ([`Operations::REGS_LEN`] words) and returns its
    /// layout version. Must not read registers whose read has side effects (clear-on-read).
    fn get_regs(_dev: &Device<Self>, _regs: &mut [u32]) -> u32 {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Pause frame settings (`ethtool -a`).
    fn get_pauseparam(_dev: &Device<Self>) -> Pause {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Changes the pause frame settings (`ethtool -A`).
    fn set_pauseparam(_dev: &Device<Self>, _pause: Pause) -> Result {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Pause frame counters (`ethtool -I -a`).
    fn get_pause_stats(_dev: &Device<Self>, _stats: &mut PauseStats) {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Wake-on-LAN (`ethtool DEV`). The abstraction reports nothing supported or enabled for
    /// a device whose bus says it cannot wake the system (`device_can_wakeup()`).
    fn get_wol(_dev: &Device<Self>) -> WolSettings {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Wakes the system on exactly `wol` from now on (`ethtool -s DEV wol ...`): the
    /// abstraction refused events [`Operations::get_wol`] does not report as supported
    /// (`EINVAL`) and any event for a device that cannot wake the system (`EOPNOTSUPP`), and
    /// records in the device whether it may wake the system (`device_set_wakeup_enable()`,
    /// which the bus's suspend reads) before the driver is called, putting it back if the
    /// driver fails. Installed only with `get_wol`.
    fn set_wol(_dev: &Device<Self>, _wol: Wol) -> Result {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Restarts autonegotiation (`ethtool -r`). Runs under RTNL.
    fn nway_reset(_dev: &Device<Self>) -> Result {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Identifies the port (`ethtool -p`): [`PhysId::Active`] returns how many times a second
    /// the core should turn the LED on and off ([`PhysId::On`], [`PhysId::Off`]; clamped to
    /// `HZ / 2`, the most the core can time), or 0 if the device blinks it by itself until
    /// [`PhysId::Inactive`]. Each call runs under RTNL; between them the core waits without
    /// it, holding only a reference, so `On`, `Off` and `Inactive` may come after the
    /// interface was stopped and its unregistration began (never after the driver's data is
    /// dropped: the reference holds that back).
    fn set_phys_id(_dev: &Device<Self>, _state: PhysId) -> Result<u32> {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// What timestamps the device gives (`ethtool -T`): the `SOF_TIMESTAMPING_*` flags it
    /// supports and its PTP hardware clock, if any ([`TsInfo`]). The core adds software RX
    /// timestamps itself. It may run under the RCU read lock: it must not sleep.
    fn get_ts_info(_dev: &Device<Self>, _info: &mut TsInfo<'_>) -> Result {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// The size in bytes of the device's EEPROM (NVM) that `ethtool -e` dumps; 0 for none.
    /// Installed only with [`Operations::get_eeprom`].
    fn get_eeprom_len(_dev: &Device<Self>) -> u32 {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Reads the EEPROM bytes from byte `offset` on into `buf` (`ethtool -e`), and returns the
    /// magic number a write would have to pass back. The range lies inside
    /// [`Operations::get_eeprom_len`] (the abstraction checked it); `buf` is not empty and at
    /// most a page (the core splits longer dumps), and every byte of it goes to the user:
    /// the driver fills all of it or fails.
    /// Installed only with `get_eeprom_len`. Runs under RTNL.
    fn get_eeprom(_dev: &Device<Self>, _offset: u32, _buf: &mut [u8]) -> Result<u32> {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// The names of the device's self-tests (`ethtool -t`), in the order of their results;
    /// their number is fixed, so the core's buffers always fit. Empty for none.
    const SELF_TESTS: &'static [&'static str] = &[];

    /// Runs the self-tests (`ethtool -t`) and writes one result per test into `results` (0
    /// means passed); returns whether all passed. `results` is [`Operations::SELF_TESTS`]
    /// long, or shorter where the core sized it otherwise (a DSA conduit's hook).
    /// `offline`: the user allows tests that interrupt traffic (the interface may be brought
    /// down and up again meanwhile). Runs under RTNL. Installed only with `SELF_TESTS`.
    fn self_test(
        _dev: &Device<Self>,
        _rtnl: &mut Rtnl,
        _offline: bool,
        _results: &mut [u64],
    ) -> bool {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Number of entries of the RSS indirection table (`ethtool -x`); 0 for none.
    const RSS_INDIR_SIZE: u32 = 0;
    /// Length in bytes of the RSS hash key; 0 for none.
    const RSS_KEY_SIZE: u32 = 0;

    /// Reads the RSS configuration (`ethtool -x`), Toeplitz hashing: the indirection table
    /// ([`Operations::RSS_INDIR_SIZE`] entries) and the key ([`Operations::RSS_KEY_SIZE`]
    /// bytes), each when asked for.
    fn get_rxfh(
        _dev: &Device<Self>,
        _indir: Option<&mut [u32]>,
        _key: Option<&mut [u8]>,
    ) -> Result {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Changes the RSS configuration (`ethtool -X`): each of the indirection table and the key
    /// when given. The core checked that every entry names an RX queue in use.
    fn set_rxfh(_dev: &Device<Self>, _indir: Option<&[u32]>, _key: Option<&[u8]>) -> Result {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// The header fields RSS hashes for `flow` (`ethtool -n rx-flow-hash`), as `RXH_*` bits;
    /// `EOPNOTSUPP` for flows the device does not hash.
    fn get_rxfh_fields(_dev: &Device<Self>, _flow: FlowType) -> Result<u32> {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Changes the header fields RSS hashes for `flow` (`ethtool -N rx-flow-hash`); `EINVAL`
    /// for a combination the device cannot hash, changing nothing.
    fn set_rxfh_fields(_dev: &Device<Self>, _flow: FlowType, _fields: u32) -> Result {
        build_error!(VTABLE_DEFAULT_ERROR)
    }
}

/// The indirection table and the key of an `ethtool_rxfh_param`, each if given.
type RxfhSlices<'a> = (Option<&'a mut [u32]>, Option<&'a mut [u8]>);

/// `ETHTOOL_COALESCE_RX_USECS | ETHTOOL_COALESCE_TX_USECS`: what [`Coalesce`] carries.
const COALESCE_USECS: u32 =
    bindings::ETHTOOL_COALESCE_RX_USECS | bindings::ETHTOOL_COALESCE_TX_USECS;

/// The `ethtool_ops` table of `T`, for [`netdev::Config::ethtool`].
///
/// Invariant in `T`: a table of `Net<'static>` must not pass for one of `Net<'bound>`, whose
/// callbacks would then see borrows of the binding as `'static`.
pub struct Table<T: netdev::Operations>(&'static bindings::ethtool_ops, PhantomData<fn(T) -> T>);

impl<T: netdev::Operations> Table<T> {
    pub(crate) fn as_raw(&self) -> *const bindings::ethtool_ops {
        self.0
    }
}

/// Returns the ethtool operations table of `T`.
pub const fn table<T: Operations>() -> Table<T> {
    Table(&Adapter::<T>::VTABLE, PhantomData)
}

struct Adapter<T: Operations>(PhantomData<T>);

impl<T: Operations> Adapter<T> {
    /// The driver has self-tests: a name for each, and the function that runs them (one
    /// without the other does not build, see `VTABLE`).
    const HAS_TESTS: bool = T::HAS_SELF_TEST && !T::SELF_TESTS.is_empty();

    const VTABLE: bindings::ethtool_ops = bindings::ethtool_ops {
        get_drvinfo: if T::HAS_GET_DRVINFO {
            Some(Self::get_drvinfo)
        } else {
            None
        },
        get_link: Some(bindings::ethtool_op_get_link),
        get_channels: if T::HAS_GET_CHANNELS {
            Some(Self::get_channels)
        } else {
            None
        },
        set_channels: if T::HAS_SET_CHANNELS {
            Some(Self::set_channels)
        } else {
            None
        },
        get_ringparam: if T::HAS_GET_RINGPARAM {
            Some(Self::get_ringparam)
        } else {
            None
        },
        // The core reads the maxima before it calls `set_ringparam`.
        set_ringparam: if T::HAS_SET_RINGPARAM && T::HAS_GET_RINGPARAM {
            Some(Self::set_ringparam)
        } else {
            None
        },
        get_link_ksettings: if T::HAS_GET_LINK_KSETTINGS {
            Some(Self::get_link_ksettings)
        } else {
            None
        },
        // A driver that can change the settings must be able to report them: the netlink path
        // reads them first, and users read them to build an ioctl request.
        set_link_ksettings: if T::HAS_SET_LINK_KSETTINGS && T::HAS_GET_LINK_KSETTINGS {
            Some(Self::set_link_ksettings)
        } else {
            None
        },
        get_tunable: if T::HAS_GET_TUNABLE {
            Some(Self::get_tunable)
        } else {
            None
        },
        set_tunable: if T::HAS_SET_TUNABLE {
            Some(Self::set_tunable)
        } else {
            None
        },
        get_sset_count: if T::HAS_GET_STRINGS || Self::HAS_TESTS {
            Some(Self::get_sset_count)
        } else {
            None
        },
        get_strings: if T::HAS_GET_STRINGS || Self::HAS_TESTS {
            Some(Self::get_strings)
        } else {
            None
        },
        self_test: if Self::HAS_TESTS {
            Some(Self::self_test)
        } else {
            assert!(
                T::HAS_SELF_TEST != T::SELF_TESTS.is_empty(),
                "self_test needs SELF_TESTS, and SELF_TESTS needs self_test"
            );
            None
        },
        get_wol: if T::HAS_GET_WOL {
            Some(Self::get_wol)
        } else {
            None
        },
        // The core asks `get_wol` what is supported before it calls `set_wol`.
        set_wol: if T::HAS_SET_WOL && T::HAS_GET_WOL {
            Some(Self::set_wol)
        } else {
            None
        },
        nway_reset: if T::HAS_NWAY_RESET {
            Some(Self::nway_reset)
        } else {
            None
        },
        set_phys_id: if T::HAS_SET_PHYS_ID {
            Some(Self::set_phys_id)
        } else {
            None
        },
        get_ts_info: if T::HAS_GET_TS_INFO {
            Some(Self::get_ts_info)
        } else {
            None
        },
        get_eeprom_len: if T::HAS_GET_EEPROM_LEN && T::HAS_GET_EEPROM {
            Some(Self::get_eeprom_len)
        } else {
            None
        },
        get_eeprom: if T::HAS_GET_EEPROM_LEN && T::HAS_GET_EEPROM {
            Some(Self::get_eeprom)
        } else {
            None
        },
        get_ethtool_stats: if T::HAS_GET_ETHTOOL_STATS {
            Some(Self::get_ethtool_stats)
        } else {
            None
        },
        supported_coalesce_params: if T::HAS_SET_COALESCE {
            if T::ADAPTIVE_RX {
                COALESCE_USECS | bindings::ETHTOOL_COALESCE_USE_ADAPTIVE_RX
            } else {
                COALESCE_USECS
            }
        } else {
            0
        },
        get_coalesce: if T::HAS_GET_COALESCE {
            Some(Self::get_coalesce)
        } else {
            None
        },
        set_coalesce: if T::HAS_SET_COALESCE {
            Some(Self::set_coalesce)
        } else {
            None
        },
        get_regs_len: if T::HAS_GET_REGS && T::REGS_LEN > 0 {
            Some(Self::get_regs_len)
        } else {
            None
        },
        get_regs: if T::HAS_GET_REGS && T::REGS_LEN > 0 {
            Some(Self::get_regs)
        } else {
            None
        },
        get_pauseparam: if T::HAS_GET_PAUSEPARAM {
            Some(Self::get_pauseparam)
        } else {
            None
        },
        set_pauseparam: if T::HAS_SET_PAUSEPARAM {
            Some(Self::set_pauseparam)
        } else {
            None
        },
        get_pause_stats: if T::HAS_GET_PAUSE_STATS {
            Some(Self::get_pause_stats)
        } else {
            None
        },
        get_rx_ring_count: if T::HAS_GET_RXFH {
            Some(Self::get_rx_ring_count)
        } else {
            None
        },
        get_rxfh_indir_size: if T::HAS_GET_RXFH && T::RSS_INDIR_SIZE > 0 {
            Some(Self::get_rxfh_indir_size)
        } else {
            None
        },
        get_rxfh_key_size: if T::HAS_GET_RXFH && T::RSS_KEY_SIZE > 0 {
            Some(Self::get_rxfh_key_size)
        } else {
            None
        },
        get_rxfh: if T::HAS_GET_RXFH {
            Some(Self::get_rxfh)
        } else {
            None
        },
        set_rxfh: if T::HAS_SET_RXFH && T::HAS_GET_RXFH {
            Some(Self::set_rxfh)
        } else {
            None
        },
        get_rxfh_fields: if T::HAS_GET_RXFH_FIELDS {
            Some(Self::get_rxfh_fields)
        } else {
            None
        },
        set_rxfh_fields: if T::HAS_SET_RXFH_FIELDS && T::HAS_GET_RXFH_FIELDS {
            Some(Self::set_rxfh_fields)
        } else {
            None
        },
        // SAFETY: All-zero is a valid `ethtool_ops`: no flags, no callbacks.
        ..unsafe { core::mem::zeroed() }
    };

    /// # Safety
    ///
    /// `dev` must be a net_device registered for `T` with this table.
    unsafe fn dev<'a>(dev: *mut bindings::net_device) -> &'a Device<T> {
        // SAFETY: `dev` is registered for `T` with this table (safety requirement): the table
        // of `T` is only installed by `Registration::new`.
        unsafe { Device::<T>::from_ethtool(dev) }
    }

    /// # Safety
    ///
    /// Only the ethtool core calls this, for a net_device registered with this table and
    /// with argument pointers valid for the call.
    unsafe extern "C" fn get_drvinfo(
        dev: *mut bindings::net_device,
        info: *mut bindings::ethtool_drvinfo,
    ) {
        // SAFETY: The core passes the device of this table and a valid, exclusive `info`.
        let (d, info) = unsafe { (Self::dev(dev), &mut *info) };
        T::get_drvinfo(d, &mut DrvInfo(info));
    }

    /// # Safety
    ///
    /// Only the ethtool core calls this, for a net_device registered with this table and
    /// with argument pointers valid for the call.
    unsafe extern "C" fn get_channels(
        dev: *mut bindings::net_device,
        ch: *mut bindings::ethtool_channels,
    ) {
        // SAFETY: The core calls us for a net_device with this table, as `Self::dev`
        // requires, with the argument pointer valid and not aliased for the call.
        let (d, ch) = unsafe { (Self::dev(dev), &mut *ch) };
        T::get_channels(d).write_to(ch);
    }

    /// # Safety
    ///
    /// Only the ethtool core calls this, for a net_device registered with this table and
    /// with argument pointers valid for the call.
    unsafe extern "C" fn set_channels(
        dev: *mut bindings::net_device,
        ch: *mut bindings::ethtool_channels,
    ) -> c_int {
        from_result(|| {
            // SAFETY: The core calls us for a net_device with this table, as `Self::dev`
            // requires, with the argument pointer valid and not aliased for the call.
            let (d, ch) = unsafe { (Self::dev(dev), &*ch) };
            if ch.rx_count != 0 || ch.tx_count != 0 {
                return Err(EINVAL);
            }
            // SAFETY: The core holds RTNL for the whole call: `dev` has no instance-lock
            // operations (`Device`'s invariants), so `netdev_need_ops_lock()` is false and both
            // the netlink and the ioctl path take RTNL.
            let mut rtnl = unsafe { Rtnl::assume_held() };
            T::set_channels(d, &mut rtnl, Channels::from(ch))?;
            Ok(0)
        })
    }

    /// # Safety
    ///
    /// Only the ethtool core calls this, for a net_device registered with this table and
    /// with argument pointers valid for the call.
    unsafe extern "C" fn get_ringparam(
        dev: *mut bindings::net_device,
        ring: *mut bindings::ethtool_ringparam,
        _kring: *mut bindings::kernel_ethtool_ringparam,
        _extack: *mut bindings::netlink_ext_ack,
    ) {
        // SAFETY: The core calls us for a net_device with this table, as `Self::dev`
        // requires, with the argument pointer valid and not aliased for the call.
        let (d, ring) = unsafe { (Self::dev(dev), &mut *ring) };
        let r = T::get_ringparam(d);
        ring.rx_max_pending = r.rx_max_pending;
        ring.tx_max_pending = r.tx_max_pending;
        ring.rx_pending = r.rx_pending;
        ring.tx_pending = r.tx_pending;
    }

    /// # Safety
    ///
    /// Only the ethtool core calls this, for a net_device registered with this table and
    /// with argument pointers valid for the call.
    unsafe extern "C" fn set_ringparam(
        dev: *mut bindings::net_device,
        ring: *mut bindings::ethtool_ringparam,
        _kring: *mut bindings::kernel_ethtool_ringparam,
        _extack: *mut bindings::netlink_ext_ack,
    ) -> c_int {
        from_result(|| {
            // SAFETY: The core calls us for a net_device with this table, as `Self::dev`
            // requires, with the argument pointer valid and not aliased for the call.
            let (d, ring) = unsafe { (Self::dev(dev), &*ring) };
            // The core checks these against maxima of 0; the ioctl path did not always.
            if ring.rx_mini_pending != 0 || ring.rx_jumbo_pending != 0 {
                return Err(EINVAL);
            }
            // SAFETY: The core holds RTNL for the whole call: `dev` has no instance-lock
            // operations (`Device`'s invariants), so `netdev_need_ops_lock()` is false and both
            // the netlink and the ioctl path take RTNL.
            let mut rtnl = unsafe { Rtnl::assume_held() };
            let sizes = RingSizes {
                rx: ring.rx_pending,
                tx: ring.tx_pending,
            };
            T::set_ringparam(d, &mut rtnl, sizes)?;
            Ok(0)
        })
    }

    /// # Safety
    ///
    /// Only the ethtool core calls this, for a net_device registered with this table and
    /// with argument pointers valid for the call.
    unsafe extern "C" fn get_link_ksettings(
        dev: *mut bindings::net_device,
        ks: *mut bindings::ethtool_link_ksettings,
    ) -> c_int {
        from_result(|| {
            // SAFETY: The core calls us for a net_device with this table, as `Self::dev`
            // requires, with the argument pointer valid and not aliased for the call.
            let (d, ks) = unsafe { (Self::dev(dev), &mut *ks) };
            let s = T::get_link_ksettings(d)?;
            ks.base.speed = s.speed.unwrap_or(bindings::SPEED_UNKNOWN as u32);
            ks.base.duplex = if s.speed.is_none() {
                bindings::DUPLEX_UNKNOWN as u8
            } else if s.full_duplex {
                bindings::DUPLEX_FULL as u8
            } else {
                bindings::DUPLEX_HALF as u8
            };
            ks.base.port = bindings::PORT_TP as u8;
            ks.base.autoneg = if s.autoneg {
                bindings::AUTONEG_ENABLE as u8
            } else {
                bindings::AUTONEG_DISABLE as u8
            };
            ks.link_modes.supported = s.supported.0;
            ks.link_modes.advertising = s.advertising.0;
            ks.link_modes.lp_advertising = s.lp_advertising.0;
            Ok(0)
        })
    }

    /// # Safety
    ///
    /// As for `get_link_ksettings`.
    unsafe extern "C" fn set_link_ksettings(
        dev: *mut bindings::net_device,
        ks: *const bindings::ethtool_link_ksettings,
    ) -> c_int {
        from_result(|| {
            // SAFETY: As in `get_link_ksettings`; only read.
            let (d, ks) = unsafe { (Self::dev(dev), &*ks) };
            // `get_link_ksettings` reports a twisted-pair port at PHY address 0 without MDI-X
            // control: only a change of one of them shows here, as does a bad autoneg value
            // through the ioctl.
            if u32::from(ks.base.port) != bindings::PORT_TP
                || ks.base.phy_address != 0
                || ks.base.autoneg > 1
            {
                return Err(EINVAL);
            }
            if ks.base.eth_tp_mdix_ctrl != 0 {
                return Err(EOPNOTSUPP);
            }
            let speed = ks.base.speed;
            T::set_link_ksettings(
                d,
                LinkRequest {
                    autoneg: u32::from(ks.base.autoneg) == bindings::AUTONEG_ENABLE,
                    speed: (speed != 0 && speed != bindings::SPEED_UNKNOWN as u32).then_some(speed),
                    full_duplex: match u32::from(ks.base.duplex) {
                        bindings::DUPLEX_FULL => Some(true),
                        bindings::DUPLEX_HALF => Some(false),
                        _ => None,
                    },
                    advertising: LinkModes(ks.link_modes.advertising),
                },
            )?;
            Ok(0)
        })
    }

    /// # Safety
    ///
    /// Only the ethtool core calls this, for a net_device registered with this table and
    /// with argument pointers valid for the call.
    unsafe extern "C" fn get_tunable(
        dev: *mut bindings::net_device,
        tuna: *const bindings::ethtool_tunable,
        data: *mut c_void,
    ) -> c_int {
        from_result(|| {
            // SAFETY: The core calls us for a net_device with this table, as `Self::dev`
            // requires, with `tuna` valid for the call.
            let (d, tuna) = unsafe { (Self::dev(dev), &*tuna) };
            let v = T::get_tunable(d, Tunable::supported(tuna)?)?;
            // SAFETY: The core validated that copybreak tunables are `u32` and sized `data`
            // accordingly.
            unsafe { data.cast::<u32>().write_unaligned(v) };
            Ok(0)
        })
    }

    /// # Safety
    ///
    /// Only the ethtool core calls this, for a net_device registered with this table and
    /// with argument pointers valid for the call.
    unsafe extern "C" fn set_tunable(
        dev: *mut bindings::net_device,
        tuna: *const bindings::ethtool_tunable,
        data: *const c_void,
    ) -> c_int {
        from_result(|| {
            // SAFETY: The core calls us for a net_device with this table, as `Self::dev`
            // requires, with the argument pointer valid and not aliased for the call.
            let (d, tuna) = unsafe { (Self::dev(dev), &*tuna) };
            let t = Tunable::supported(tuna)?;
            // SAFETY: The core validated the type (`u32`) and length of `data`.
            let v = unsafe { data.cast::<u32>().read_unaligned() };
            T::set_tunable(d, t, v)?;
            Ok(0)
        })
    }

    /// # Safety
    ///
    /// Only the ethtool core calls this, for a net_device registered with this table and
    /// with argument pointers valid for the call.
    unsafe extern "C" fn get_sset_count(dev: *mut bindings::net_device, set: c_int) -> c_int {
        from_result(|| {
            // SAFETY: The core calls us for a net_device with this table, as `Self::dev` requires.
            let d = unsafe { Self::dev(dev) };
            match StringSet::from_raw(set as u32) {
                StringSet::Stats if T::HAS_GET_STRINGS => Ok(c_int::try_from(d.stats_count())?),
                StringSet::Test if Self::HAS_TESTS => Ok(c_int::try_from(T::SELF_TESTS.len())?),
                _ => Err(EOPNOTSUPP),
            }
        })
    }

    /// # Safety
    ///
    /// Only the ethtool core calls this, for a net_device registered with this table and
    /// with argument pointers valid for the call.
    unsafe extern "C" fn get_strings(dev: *mut bindings::net_device, set: u32, data: *mut u8) {
        // SAFETY: The core calls us for a net_device with this table, as `Self::dev` requires.
        let d = unsafe { Self::dev(dev) };
        let set = StringSet::from_raw(set);
        if set == StringSet::Test && Self::HAS_TESTS {
            // Every caller sizes `data` from a `get_sset_count(ETH_SS_TEST)` call made under the
            // same hold of RTNL, but of the table installed on the device, which is not always
            // this one: a DSA conduit's hook adds its switch ports' counts, which may be
            // smaller or negative. So the installed function is asked again, and at most that
            // many names are written.
            // SAFETY: `dev` is live for the call; its `ethtool_ops` is a valid table, whose
            // `get_sset_count` is set (it was called to size `data`).
            let installed = unsafe {
                let ops = (*dev).ethtool_ops;
                match (*ops).get_sset_count {
                    Some(count) => count(dev, bindings::ethtool_stringset_ETH_SS_TEST as c_int),
                    None => 0,
                }
            };
            let n = usize::try_from(installed)
                .unwrap_or(0)
                .min(T::SELF_TESTS.len());
            // SAFETY: `data` holds `installed` names (see above), at least `n`.
            let buf = unsafe { core::slice::from_raw_parts_mut(data, n * GSTRING_LEN) };
            let mut w = StringWriter { buf, pos: 0 };
            for name in T::SELF_TESTS {
                w.push(name);
            }
            return;
        }
        if set != StringSet::Stats || !T::HAS_GET_STRINGS {
            return;
        }
        let n = d.stats_count() as usize;
        // SAFETY: Every caller of `get_strings` (the ioctl and netlink string requests, DSA,
        // private flags) sizes `data` from a `get_sset_count` call for the same set made under
        // the same hold of RTNL, and `get_sset_count` returns the stored count, which only
        // changes under RTNL (`Device::set_stats_count`): `n` entries of `ETH_GSTRING_LEN`.
        let buf = unsafe { core::slice::from_raw_parts_mut(data, n * GSTRING_LEN) };
        T::get_strings(d, set, &mut StringWriter { buf, pos: 0 });
    }

    /// # Safety
    ///
    /// Only the ethtool core calls this, for a net_device registered with this table and
    /// with argument pointers valid for the call.
    unsafe extern "C" fn get_ethtool_stats(
        dev: *mut bindings::net_device,
        stats: *mut bindings::ethtool_stats,
        data: *mut u64,
    ) {
        // SAFETY: The core calls us for a net_device with this table, as `Self::dev` requires.
        let d = unsafe { Self::dev(dev) };
        // SAFETY: `stats` is valid for the call; `n_stats` is the count the core sized `data`
        // with.
        let n = unsafe { (*stats).n_stats } as usize;
        // SAFETY: The core allocated `n_stats` `u64`s at `data` (`ethtool_get_stats()`).
        let buf = unsafe { core::slice::from_raw_parts_mut(data, n) };
        T::get_ethtool_stats(d, buf);
    }
}

impl<T: Operations> Adapter<T> {
    /// # Safety
    ///
    /// Only the ethtool core calls this, for a net_device registered with this table and
    /// with argument pointers valid for the call.
    unsafe extern "C" fn get_coalesce(
        dev: *mut bindings::net_device,
        ec: *mut bindings::ethtool_coalesce,
        _kec: *mut bindings::kernel_ethtool_coalesce,
        _extack: *mut bindings::netlink_ext_ack,
    ) -> c_int {
        from_result(|| {
            // SAFETY: The core calls us for a net_device with this table, as `Self::dev`
            // requires, with `ec` valid and exclusive for the call.
            let (d, ec) = unsafe { (Self::dev(dev), &mut *ec) };
            let c = T::get_coalesce(d)?;
            ec.rx_coalesce_usecs = c.rx_usecs;
            ec.tx_coalesce_usecs = c.tx_usecs;
            ec.use_adaptive_rx_coalesce = u32::from(c.adaptive_rx);
            Ok(0)
        })
    }

    /// # Safety
    ///
    /// As for `get_coalesce`.
    unsafe extern "C" fn set_coalesce(
        dev: *mut bindings::net_device,
        ec: *mut bindings::ethtool_coalesce,
        _kec: *mut bindings::kernel_ethtool_coalesce,
        _extack: *mut bindings::netlink_ext_ack,
    ) -> c_int {
        from_result(|| {
            // SAFETY: As in `get_coalesce`.
            let (d, ec) = unsafe { (Self::dev(dev), &*ec) };
            // The core refused changes to anything but `supported_coalesce_params`
            // (`COALESCE_USECS`, and `adaptive-rx` where the driver takes it), so the rest of
            // `ec` holds nothing the driver must act on.
            T::set_coalesce(
                d,
                Coalesce {
                    rx_usecs: ec.rx_coalesce_usecs,
                    tx_usecs: ec.tx_coalesce_usecs,
                    adaptive_rx: ec.use_adaptive_rx_coalesce != 0,
                },
            )?;
            Ok(0)
        })
    }

    /// # Safety
    ///
    /// Only the ethtool core calls this, for a net_device registered with this table.
    unsafe extern "C" fn get_regs_len(_dev: *mut bindings::net_device) -> c_int {
        // The dump's byte length must be a `c_int`; checked when the table is built, so the
        // multiplications here and in `get_regs` cannot wrap.
        const { assert!(T::REGS_LEN <= c_int::MAX as usize / 4) };
        // Fixed, so every caller sizes its buffer the same (see `get_regs`).
        (T::REGS_LEN * 4) as c_int
    }

    /// # Safety
    ///
    /// Only the ethtool core calls this, for a net_device registered with this table and
    /// with argument pointers valid for the call.
    unsafe extern "C" fn get_regs(
        dev: *mut bindings::net_device,
        regs: *mut bindings::ethtool_regs,
        data: *mut c_void,
    ) {
        const { assert!(T::REGS_LEN <= c_int::MAX as usize / 4) };
        // SAFETY: The core calls us for a net_device with this table, with `regs` valid and
        // exclusive for the call.
        let (d, regs) = unsafe { (Self::dev(dev), &mut *regs) };
        // SAFETY: Every caller (the `ETHTOOL_GREGS` ioctl, DSA's conduit hooks) allocates
        // `data` with the length `get_regs_len` returned, `REGS_LEN * 4` bytes (it fits in a
        // `c_int`, checked at build time above), and `vzalloc`/`kmalloc` align it for `u32`.
        let buf = unsafe { core::slice::from_raw_parts_mut(data.cast::<u32>(), T::REGS_LEN) };
        regs.version = T::get_regs(d, buf);
    }

    /// # Safety
    ///
    /// Only the ethtool core calls this, for a net_device registered with this table and
    /// with argument pointers valid for the call.
    unsafe extern "C" fn get_pauseparam(
        dev: *mut bindings::net_device,
        pp: *mut bindings::ethtool_pauseparam,
    ) {
        // SAFETY: The core calls us for a net_device with this table, with `pp` valid and
        // exclusive for the call.
        let (d, pp) = unsafe { (Self::dev(dev), &mut *pp) };
        let p = T::get_pauseparam(d);
        pp.autoneg = u32::from(p.autoneg);
        pp.rx_pause = u32::from(p.rx);
        pp.tx_pause = u32::from(p.tx);
    }

    /// # Safety
    ///
    /// As for `get_pauseparam`.
    unsafe extern "C" fn set_pauseparam(
        dev: *mut bindings::net_device,
        pp: *mut bindings::ethtool_pauseparam,
    ) -> c_int {
        from_result(|| {
            // SAFETY: As in `get_pauseparam`.
            let (d, pp) = unsafe { (Self::dev(dev), &*pp) };
            T::set_pauseparam(
                d,
                Pause {
                    autoneg: pp.autoneg != 0,
                    rx: pp.rx_pause != 0,
                    tx: pp.tx_pause != 0,
                },
            )?;
            Ok(0)
        })
    }

    /// # Safety
    ///
    /// As for `get_pauseparam`; the core initialised every counter of `stats` to "not set".
    unsafe extern "C" fn get_pause_stats(
        dev: *mut bindings::net_device,
        stats: *mut bindings::ethtool_pause_stats,
    ) {
        // SAFETY: The core calls us for a net_device with this table; `stats` is initialised
        // (`ethtool_stats_init()`) and exclusive for the call; `PauseStats` is a transparent
        // wrapper.
        let (d, stats) = unsafe { (Self::dev(dev), &mut *stats.cast::<PauseStats>()) };
        T::get_pause_stats(d, stats);
    }

    /// # Safety
    ///
    /// Only the ethtool core calls this, for a net_device registered with this table.
    unsafe extern "C" fn get_rx_ring_count(dev: *mut bindings::net_device) -> u32 {
        // SAFETY: The core calls us for a net_device registered with this table; it holds RTNL
        // for it (the device has no instance-lock operations, see `Device`'s invariants), and
        // `real_num_rx_queues` changes only under RTNL.
        unsafe { (*dev).real_num_rx_queues }
    }

    /// # Safety
    ///
    /// Only the ethtool core calls this.
    unsafe extern "C" fn get_rxfh_indir_size(_dev: *mut bindings::net_device) -> u32 {
        T::RSS_INDIR_SIZE
    }

    /// # Safety
    ///
    /// Only the ethtool core calls this.
    unsafe extern "C" fn get_rxfh_key_size(_dev: *mut bindings::net_device) -> u32 {
        T::RSS_KEY_SIZE
    }

    /// The indirection table and key that `rxfh` asks the driver to fill in, as slices of the
    /// sizes this table reports.
    ///
    /// # Safety
    ///
    /// `rxfh.indir`, when not NULL, must point to `T::RSS_INDIR_SIZE` `u32`s, and `rxfh.key`,
    /// when not NULL, to `T::RSS_KEY_SIZE` bytes, valid and not otherwise used for `'a`.
    unsafe fn rxfh_get_slices<'a>(
        rxfh: &bindings::ethtool_rxfh_param,
    ) -> (Option<&'a mut [u32]>, Option<&'a mut [u8]>) {
        let indir = (!rxfh.indir.is_null()).then(|| {
            // SAFETY: Per the safety requirements.
            unsafe { core::slice::from_raw_parts_mut(rxfh.indir, T::RSS_INDIR_SIZE as usize) }
        });
        let key = (!rxfh.key.is_null()).then(|| {
            // SAFETY: Per the safety requirements.
            unsafe { core::slice::from_raw_parts_mut(rxfh.key, T::RSS_KEY_SIZE as usize) }
        });
        (indir, key)
    }

    /// The indirection table and key of `rxfh`, as slices.
    ///
    /// # Safety
    ///
    /// `rxfh.indir`, when not NULL, must point to `rxfh.indir_size` `u32`s, and `rxfh.key`,
    /// when not NULL, to `rxfh.key_size` bytes, valid and not otherwise used for `'a`.
    unsafe fn rxfh_slices<'a>(rxfh: &bindings::ethtool_rxfh_param) -> Result<RxfhSlices<'a>> {
        let indir = if rxfh.indir.is_null() {
            None
        } else if rxfh.indir_size != T::RSS_INDIR_SIZE {
            return Err(EINVAL);
        } else {
            // SAFETY: Per the safety requirements.
            Some(unsafe { core::slice::from_raw_parts_mut(rxfh.indir, rxfh.indir_size as usize) })
        };
        let key = if rxfh.key.is_null() {
            None
        } else if rxfh.key_size != T::RSS_KEY_SIZE {
            return Err(EINVAL);
        } else {
            // SAFETY: Per the safety requirements.
            Some(unsafe { core::slice::from_raw_parts_mut(rxfh.key, rxfh.key_size as usize) })
        };
        Ok((indir, key))
    }

    /// # Safety
    ///
    /// Only the ethtool core calls this, for a net_device registered with this table and
    /// with argument pointers valid for the call.
    unsafe extern "C" fn get_rxfh(
        dev: *mut bindings::net_device,
        rxfh: *mut bindings::ethtool_rxfh_param,
    ) -> c_int {
        from_result(|| {
            // SAFETY: The core calls us for a net_device with this table, with `rxfh` valid
            // and exclusive for the call.
            let (d, rxfh) = unsafe { (Self::dev(dev), &mut *rxfh) };
            // SAFETY: Every caller sizes the arrays it asks for with `get_rxfh_indir_size()`
            // and `get_rxfh_key_size()`, this table's `RSS_INDIR_SIZE` and `RSS_KEY_SIZE`, for
            // the call: `rss_get_data_alloc()` (net/ethtool/rss.c), `ethtool_get_rxfh_indir()`
            // and `ethtool_get_rxfh()` (ioctl.c, which accept a user size of 0 or the
            // device's only) and `ethtool_get_max_rxfh_channel()` (common.c, which leaves
            // `indir_size` at 0, so the size fields cannot be relied on).
            let (indir, key) = unsafe { Self::rxfh_get_slices(rxfh) };
            T::get_rxfh(d, indir, key)?;
            rxfh.hfunc = bindings::ETH_RSS_HASH_TOP as u8;
            Ok(0)
        })
    }

    /// # Safety
    ///
    /// As for `get_rxfh`.
    unsafe extern "C" fn set_rxfh(
        dev: *mut bindings::net_device,
        rxfh: *mut bindings::ethtool_rxfh_param,
        _extack: *mut bindings::netlink_ext_ack,
    ) -> c_int {
        from_result(|| {
            // SAFETY: As in `get_rxfh`.
            let (d, rxfh) = unsafe { (Self::dev(dev), &*rxfh) };
            // Only Toeplitz, no input transformation, no additional contexts.
            let hfunc = u32::from(rxfh.hfunc);
            if hfunc != bindings::ETH_RSS_HASH_NO_CHANGE && hfunc != bindings::ETH_RSS_HASH_TOP {
                return Err(EOPNOTSUPP);
            }
            let xfrm = u32::from(rxfh.input_xfrm);
            if (xfrm != bindings::RXH_XFRM_NO_CHANGE && xfrm != 0) || rxfh.rss_context != 0 {
                return Err(EOPNOTSUPP);
            }
            // SAFETY: Every caller of `set_rxfh` (`ethtool_set_rxfh_indir()`,
            // `ethtool_set_rxfh()`, `ethnl_rss_set()`) allocates the arrays it passes with the
            // sizes it stores in `indir_size` and `key_size`, for the call; `rxfh_slices`
            // refuses sizes other than this table's.
            let (indir, key) = unsafe { Self::rxfh_slices(rxfh) }?;
            T::set_rxfh(d, indir.map(|s| &*s), key.map(|s| &*s))?;
            Ok(0)
        })
    }

    /// # Safety
    ///
    /// Only the ethtool core calls this, for a net_device registered with this table and
    /// with argument pointers valid for the call.
    unsafe extern "C" fn get_rxfh_fields(
        dev: *mut bindings::net_device,
        f: *mut bindings::ethtool_rxfh_fields,
    ) -> c_int {
        from_result(|| {
            // SAFETY: The core calls us for a net_device with this table, with `f` valid and
            // exclusive for the call.
            let (d, f) = unsafe { (Self::dev(dev), &mut *f) };
            // Only the default context (`rxfh_per_ctx_fields` is not set).
            if f.rss_context != 0 {
                return Err(EOPNOTSUPP);
            }
            f.data = T::get_rxfh_fields(d, FlowType::from_raw(f.flow_type))?;
            Ok(0)
        })
    }

    /// # Safety
    ///
    /// As for `get_rxfh_fields`.
    unsafe extern "C" fn set_rxfh_fields(
        dev: *mut bindings::net_device,
        f: *const bindings::ethtool_rxfh_fields,
        _extack: *mut bindings::netlink_ext_ack,
    ) -> c_int {
        from_result(|| {
            // SAFETY: As in `get_rxfh_fields`.
            let (d, f) = unsafe { (Self::dev(dev), &*f) };
            if f.rss_context != 0 {
                return Err(EOPNOTSUPP);
            }
            T::set_rxfh_fields(d, FlowType::from_raw(f.flow_type), f.data)?;
            Ok(0)
        })
    }
}

impl<T: Operations> Adapter<T> {
    /// The device the net_device was registered for, if its bus says it can wake the system.
    ///
    /// # Safety
    ///
    /// `dev` must be a live net_device.
    ///
    /// Without `CONFIG_PM_SLEEP` nothing sleeps, so nothing wakes: never.
    unsafe fn wake_parent(dev: *mut bindings::net_device) -> Option<*mut bindings::device> {
        if !cfg!(CONFIG_PM_SLEEP) {
            return None;
        }
        // SAFETY: `dev` is live (safety requirement); its parent, set before registration,
        // outlives it.
        let parent = unsafe { (*dev).dev.parent };
        // SAFETY: A non-null parent is a live device.
        (!parent.is_null() && unsafe { bindings::device_can_wakeup(parent) }).then_some(parent)
    }

    /// # Safety
    ///
    /// Only the ethtool core calls this, for a net_device registered with this table and
    /// with argument pointers valid for the call.
    unsafe extern "C" fn get_wol(
        dev: *mut bindings::net_device,
        wol: *mut bindings::ethtool_wolinfo,
    ) {
        // SAFETY: The core calls us for a net_device with this table, with `wol` valid and
        // exclusive for the call.
        let (d, wol) = unsafe { (Self::dev(dev), &mut *wol) };
        // SAFETY: `dev` is live for the call.
        let s = if unsafe { Self::wake_parent(dev) }.is_some() {
            T::get_wol(d)
        } else {
            WolSettings::default()
        };
        wol.supported = s.supported.into();
        // Only what is supported is reported enabled.
        wol.wolopts = u32::from(s.enabled) & wol.supported;
    }

    /// # Safety
    ///
    /// As for `get_wol`.
    unsafe extern "C" fn set_wol(
        dev: *mut bindings::net_device,
        wol: *mut bindings::ethtool_wolinfo,
    ) -> c_int {
        from_result(|| {
            // SAFETY: As in `get_wol`.
            let (d, wol) = unsafe { (Self::dev(dev), &*wol) };
            let (events, known) = Wol::from_raw(wol.wolopts);
            // SAFETY: `dev` is live for the call.
            let Some(parent) = (unsafe { Self::wake_parent(dev) }) else {
                return if wol.wolopts == 0 {
                    Ok(0)
                } else {
                    Err(EOPNOTSUPP)
                };
            };
            // The core checked against `get_wol`'s answer; checked again for any caller.
            let supported = u32::from(T::get_wol(d).supported);
            if !known || wol.wolopts & !supported != 0 {
                return Err(EINVAL);
            }
            // The device's wake-up policy first: the bus reads it at suspend, and it can fail
            // (no memory for the wakeup source, the capability gone meanwhile); events the
            // driver armed without it would never wake the system.
            // SAFETY: `parent` is a live device.
            let was = unsafe { bindings::device_may_wakeup(parent) };
            // Only a change: enabling what is enabled already (by C igb before, or through
            // `power/wakeup` in sysfs) fails with `EEXIST`.
            let on = wol.wolopts != 0;
            if on != was {
                // SAFETY: As above.
                unsafe { Self::set_wakeup(parent, on) }?;
            }
            T::set_wol(d, events).inspect_err(|_| {
                if on != was {
                    // SAFETY: As above. This puts back what was there; should it fail, the
                    // device is left unable to wake, the safe side.
                    let _ = unsafe { Self::set_wakeup(parent, was) };
                }
            })?;
            Ok(0)
        })
    }

    /// Records whether `parent` may wake the system (`device_set_wakeup_enable()`).
    ///
    /// # Safety
    ///
    /// `parent` must be a live device.
    #[cfg(CONFIG_PM_SLEEP)]
    unsafe fn set_wakeup(parent: *mut bindings::device, on: bool) -> Result {
        // SAFETY: `parent` is live (safety requirement).
        to_result(unsafe { bindings::device_set_wakeup_enable(parent, on) })
    }

    /// Without `CONFIG_PM_SLEEP` no device wakes the system ([`Self::wake_parent`]).
    ///
    /// # Safety
    ///
    /// None: nothing is touched.
    #[cfg(not(CONFIG_PM_SLEEP))]
    unsafe fn set_wakeup(_parent: *mut bindings::device, _on: bool) -> Result {
        Err(EOPNOTSUPP)
    }

    /// # Safety
    ///
    /// Only the ethtool core calls this, for a net_device registered with this table.
    unsafe extern "C" fn nway_reset(dev: *mut bindings::net_device) -> c_int {
        from_result(|| {
            // SAFETY: The core calls us for a net_device with this table.
            let d = unsafe { Self::dev(dev) };
            T::nway_reset(d)?;
            Ok(0)
        })
    }

    /// # Safety
    ///
    /// Only the ethtool core calls this, for a net_device registered with this table.
    unsafe extern "C" fn set_phys_id(
        dev: *mut bindings::net_device,
        state: bindings::ethtool_phys_id_state,
    ) -> c_int {
        from_result(|| {
            // SAFETY: The core calls us for a net_device with this table.
            let d = unsafe { Self::dev(dev) };
            let state = match state {
                bindings::ethtool_phys_id_state_ETHTOOL_ID_ACTIVE => PhysId::Active,
                bindings::ethtool_phys_id_state_ETHTOOL_ID_ON => PhysId::On,
                bindings::ethtool_phys_id_state_ETHTOOL_ID_OFF => PhysId::Off,
                _ => PhysId::Inactive,
            };
            let rate = T::set_phys_id(d, state)?;
            // Only `Active`'s answer means anything to the core; the others must be 0. The
            // core waits `HZ / (2 * rate)` jiffies between calls: above `HZ / 2` that is no
            // wait at all (and a large rate overflows its `int`), so the rate is clamped there.
            let hz = crate::time::msecs_to_jiffies(1000);
            let max = c_int::try_from(hz / 2).unwrap_or(1).max(1);
            Ok(if state == PhysId::Active {
                c_int::try_from(rate).unwrap_or(c_int::MAX).min(max)
            } else {
                0
            })
        })
    }

    /// # Safety
    ///
    /// Only the ethtool core calls this, for a net_device registered with this table and an
    /// `info` valid for the call.
    unsafe extern "C" fn get_ts_info(
        dev: *mut bindings::net_device,
        info: *mut bindings::kernel_ethtool_ts_info,
    ) -> c_int {
        from_result(|| {
            // SAFETY: The core calls us for a net_device with this table, with `info` valid and
            // exclusive for the call.
            let (d, info) = unsafe { (Self::dev(dev), &mut *info) };
            T::get_ts_info(d, &mut TsInfo(info))?;
            Ok(0)
        })
    }

    /// # Safety
    ///
    /// Only the ethtool core calls this, for a net_device registered with this table.
    unsafe extern "C" fn get_eeprom_len(dev: *mut bindings::net_device) -> c_int {
        // SAFETY: The core calls us for a net_device with this table.
        Self::eeprom_len_of(unsafe { Self::dev(dev) })
    }

    /// # Safety
    ///
    /// Only the ethtool core calls this, for a net_device registered with this table and
    /// with argument pointers valid for the call.
    unsafe extern "C" fn get_eeprom(
        dev: *mut bindings::net_device,
        ee: *mut bindings::ethtool_eeprom,
        bytes: *mut u8,
    ) -> c_int {
        from_result(|| {
            // SAFETY: The core calls us for a net_device with this table, with `ee` valid and
            // exclusive for the call.
            let (d, ee) = unsafe { (Self::dev(dev), &mut *ee) };
            // The core checked the range against `get_eeprom_len`; checked again here, since
            // the driver's slice is built from it.
            let len = u32::try_from(Self::eeprom_len_of(d))?;
            let end = ee.offset.checked_add(ee.len).ok_or(EINVAL)?;
            if ee.len == 0 || end > len || ee.len as usize > crate::page::PAGE_SIZE {
                return Err(EINVAL);
            }
            // SAFETY: The only caller (`ethtool_get_any_eeprom()`) passes a `PAGE_SIZE` buffer
            // for the call, and `ee.len` is at most that (checked above).
            let buf = unsafe { core::slice::from_raw_parts_mut(bytes, ee.len as usize) };
            ee.magic = T::get_eeprom(d, ee.offset, buf)?;
            Ok(0)
        })
    }

    /// The driver's EEPROM length, as the core's `int`.
    fn eeprom_len_of(d: &Device<T>) -> c_int {
        c_int::try_from(T::get_eeprom_len(d)).unwrap_or(c_int::MAX)
    }

    /// # Safety
    ///
    /// Only the ethtool core calls this, for a net_device registered with this table and
    /// with argument pointers valid for the call, under RTNL.
    unsafe extern "C" fn self_test(
        dev: *mut bindings::net_device,
        test: *mut bindings::ethtool_test,
        data: *mut u64,
    ) {
        // SAFETY: The core calls us for a net_device with this table, with `test` valid and
        // exclusive for the call.
        let (d, test) = unsafe { (Self::dev(dev), &mut *test) };
        // The only caller (`ethtool_self_test()`) allocates `data` with as many `u64`s as the
        // installed `get_sset_count(ETH_SS_TEST)` returned and stores that count in `test.len`;
        // it is this table's `SELF_TESTS.len()` unless a DSA conduit's hook changed it.
        let n = (test.len as usize).min(T::SELF_TESTS.len());
        // SAFETY: `data` holds `test.len` `u64`s, at least `n` (see above).
        let results = unsafe { core::slice::from_raw_parts_mut(data, n) };
        // SAFETY: The core holds RTNL around the ioctl for a device without instance-lock
        // operations (`Device`'s invariants), as for `set_channels`.
        let mut rtnl = unsafe { Rtnl::assume_held() };
        let offline = test.flags & bindings::ethtool_test_flags_ETH_TEST_FL_OFFLINE != 0;
        if !T::self_test(d, &mut rtnl, offline, results) {
            test.flags |= bindings::ethtool_test_flags_ETH_TEST_FL_FAILED;
        }
    }
}

// The names of the page pool counters are written here, where ethtool's string sets are: the
// page pool module stands alone below this one.
#[cfg(CONFIG_PAGE_POOL_STATS)]
impl crate::net::page_pool::Stats {
    /// Writes the counter names (`page_pool_ethtool_stats_get_strings()`).
    #[inline]
    pub fn write_names(w: &mut StringWriter<'_>) {
        let n = crate::net::page_pool::Stats::count() as usize;
        if let Some(buf) = w.reserve(n) {
            // SAFETY: `buf` holds `n * ETH_GSTRING_LEN` writable bytes, what C writes.
            unsafe { bindings::page_pool_ethtool_stats_get_strings(buf.as_mut_ptr()) };
        }
    }
}
