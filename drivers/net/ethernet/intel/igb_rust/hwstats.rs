// SPDX-License-Identifier: GPL-2.0

//! The MAC's statistics registers: what the wire saw, including frames the MAC dropped
//! before they reached a descriptor (missed, CRC, length errors).

use kernel::{
    io::{register::Array, Io},
    net::netdev::Stats64,
    new_spinlock_irq,
    prelude::*,
    sync::SpinLockIrq,
};

use crate::{hw::Bar0, regs};

/// One counter: its `ethtool -S` name, its register, and whether a high half follows it.
struct Counter {
    name: &'static str,
    reg: usize,
    wide: bool,
}

const fn c(name: &'static str, reg: usize) -> Counter {
    Counter {
        name,
        reg,
        wide: false,
    }
}

const fn wide(name: &'static str, reg: usize) -> Counter {
    Counter {
        name,
        reg,
        wide: true,
    }
}

/// The counters read, in `ethtool -S` order. All are cleared when read; the 64-bit ones
/// are read low half first.
const COUNTERS: [Counter; 32] = [
    c("rx_good_packets", 0x4074),
    wide("rx_good_bytes", 0x4088),
    c("rx_broadcast", 0x4078),
    c("rx_multicast", 0x407c),
    c("rx_crc_errors", 0x4000),
    c("rx_align_errors", 0x4004),
    c("rx_symbol_errors", 0x4008),
    c("rx_hw_errors", 0x400c),
    c("rx_missed_errors", 0x4010),
    c("rx_no_buffer_count", 0x40a0),
    c("rx_short_length_errors", 0x40a4),
    c("rx_fragments", 0x40a8),
    c("rx_long_length_errors", 0x40ac),
    c("rx_jabbers", 0x40b0),
    c("rx_carrier_ext_errors", 0x403c),
    c("rx_flow_control_xon", 0x4048),
    c("rx_flow_control_xoff", 0x4050),
    c("tx_good_packets", 0x4080),
    wide("tx_good_bytes", 0x4090),
    c("tx_broadcast", 0x40f4),
    c("tx_multicast", 0x40f0),
    c("tx_flow_control_xon", 0x404c),
    c("tx_flow_control_xoff", 0x4054),
    c("tx_tcp_seg_good", 0x40f8),
    c("tx_tcp_seg_failed", 0x40fc),
    c("collisions", 0x4028),
    c("tx_single_coll_ok", 0x4014),
    c("tx_multi_coll_ok", 0x401c),
    c("tx_aborted_errors", 0x4018),
    c("tx_window_errors", 0x4020),
    c("tx_deferred_ok", 0x4030),
    c("tx_carrier_errors", 0x4034),
];

/// Index of the counter named `name` in [`COUNTERS`]; a name not in the table does not build.
const fn at(name: &str) -> usize {
    let mut i = 0;
    while i < COUNTERS.len() {
        if str_eq(COUNTERS[i].name, name) {
            return i;
        }
        i += 1;
    }
    panic!("no such hardware counter")
}

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The counters since probe: the registers clear when read, so every read adds to these.
#[pin_data]
pub(crate) struct HwStats {
    #[pin]
    sums: SpinLockIrq<Sums>,
}

/// Queues whose drop counters (RQDPC) are read: every queue pair the driver can have.
pub(crate) const DROP_QUEUES: usize = 8;

struct Sums {
    vals: [u64; COUNTERS.len()],
    /// Frames each RX queue dropped for want of a descriptor (RQDPC).
    drops: [u64; DROP_QUEUES],
    /// The MAC is being reset or stays reset (interface down): its registers are not read.
    frozen: bool,
}

impl HwStats {
    pub(crate) fn new() -> impl PinInit<Self> {
        pin_init!(HwStats {
            sums <- new_spinlock_irq!(
                Sums {
                    vals: [0; COUNTERS.len()],
                    drops: [0; DROP_QUEUES],
                    frozen: true,
                },
                "igb_rust_hwstats"
            ),
        })
    }

    /// Number of `ethtool -S` entries.
    pub(crate) const COUNT: u32 = COUNTERS.len() as u32;

    /// The `ethtool -S` names, in order.
    pub(crate) fn names() -> impl Iterator<Item = &'static str> {
        COUNTERS.iter().map(|c| c.name)
    }

    /// Adds what the registers counted since the last read, and returns the totals: the
    /// counters of [`HwStats::names`], and the frames each RX queue dropped for want of a free
    /// descriptor. Any context; the lock makes each clear-on-read count land in exactly one
    /// total.
    pub(crate) fn update(&self, bar: &Bar0<'_>) -> ([u64; COUNTERS.len()], [u64; DROP_QUEUES]) {
        let mut sums = self.sums.lock();
        Self::collect(&mut sums, bar);
        (sums.vals, sums.drops)
    }

    /// Collects the registers one last time before a MAC reset, and stops reading them until
    /// [`HwStats::thaw`]: a reader racing the reset would see garbage.
    pub(crate) fn freeze(&self, bar: &Bar0<'_>) {
        let mut sums = self.sums.lock();
        Self::collect(&mut sums, bar);
        sums.frozen = true;
    }

    /// Reads the registers again (the MAC is configured and running).
    pub(crate) fn thaw(&self) {
        self.sums.lock().frozen = false;
    }

    fn collect(sums: &mut Sums, bar: &Bar0<'_>) {
        // A device that fell off the bus reads all ones, STATUS (0x8) included.
        if sums.frozen || bar.try_read32(0x8).unwrap_or(u32::MAX) == u32::MAX {
            return;
        }
        for (sum, ctr) in sums.vals.iter_mut().zip(COUNTERS.iter()) {
            // Offsets are constants inside BAR0: the reads cannot fail.
            let lo = bar.try_read32(ctr.reg).unwrap_or(0);
            let hi = if ctr.wide {
                bar.try_read32(ctr.reg + 4).unwrap_or(0)
            } else {
                0
            };
            *sum = sum.wrapping_add(u64::from(lo) | (u64::from(hi) << 32));
        }
        for (q, sum) in sums.drops.iter_mut().enumerate() {
            if let Some(loc) = regs::RQDPC::try_at(q) {
                let n = bar.try_read(loc).map_or(0, |r| r.count().get());
                *sum = sum.wrapping_add(u64::from(n));
            }
        }
    }

    /// Frames each RX queue dropped for want of a free descriptor, since probe.
    pub(crate) fn queue_drops(&self, bar: &Bar0<'_>) -> [u64; DROP_QUEUES] {
        self.update(bar).1
    }

    /// Pause frames received and sent (XON and XOFF), since probe.
    pub(crate) fn pause_frames(&self, bar: &Bar0<'_>) -> (u64, u64) {
        const XONRXC: usize = at("rx_flow_control_xon");
        const XOFFRXC: usize = at("rx_flow_control_xoff");
        const XONTXC: usize = at("tx_flow_control_xon");
        const XOFFTXC: usize = at("tx_flow_control_xoff");
        let (v, _) = self.update(bar);
        (v[XONRXC] + v[XOFFRXC], v[XONTXC] + v[XOFFTXC])
    }

    /// Adds the hardware's view to interface statistics built from the rings.
    pub(crate) fn fill(&self, bar: &Bar0<'_>, s: &mut Stats64) {
        // Indices resolved at compile time: a misspelt name does not build.
        const MPRC: usize = at("rx_multicast");
        const COLC: usize = at("collisions");
        const CRCERRS: usize = at("rx_crc_errors");
        const ALGNERRC: usize = at("rx_align_errors");
        const RXERRC: usize = at("rx_hw_errors");
        const CEXTERR: usize = at("rx_carrier_ext_errors");
        const RUC: usize = at("rx_short_length_errors");
        const ROC: usize = at("rx_long_length_errors");
        const MPC: usize = at("rx_missed_errors");
        const ECOL: usize = at("tx_aborted_errors");
        const LATECOL: usize = at("tx_window_errors");
        const TNCRS: usize = at("tx_carrier_errors");
        let (v, drops) = self.update(bar);
        let rx_length = v[RUC] + v[ROC];
        // Frames a queue without free descriptors dropped (SRRCTL.DROP_EN), as C igb counts
        // them.
        s.rx_fifo_errors += drops.iter().sum::<u64>();
        s.multicast += v[MPRC];
        s.collisions += v[COLC];
        s.rx_crc_errors += v[CRCERRS];
        s.rx_frame_errors += v[ALGNERRC];
        s.rx_length_errors += rx_length;
        s.rx_missed_errors += v[MPC];
        s.rx_errors += v[RXERRC] + v[CRCERRS] + v[ALGNERRC] + v[CEXTERR] + rx_length;
        s.tx_aborted_errors += v[ECOL];
        s.tx_window_errors += v[LATECOL];
        s.tx_carrier_errors += v[TNCRS];
        s.tx_errors += v[ECOL] + v[LATECOL] + v[TNCRS];
    }
}
