// SPDX-License-Identifier: GPL-2.0

//! The PTP hardware clock: the 82576's system timer (SYSTIM).
//!
//! SYSTIM is a 64-bit counter to which the MAC adds TIMINCA's increment every 16 ns. With an
//! increment of 16 << 19 it counts nanoseconds in units of 2^-19 ns, and wraps after 2^45 ns
//! (about 9.8 hours). The clock's time is kept from it as a timecounter does: the time at the
//! last read, plus how far SYSTIM advanced since, scaled by the clock's rate. The clock's
//! worker reads it every [`AUX_PERIOD_MS`], far more often than it wraps. Setting or stepping
//! the clock changes only that time; steering its frequency changes only the scale.
//!
//! TIMINCA keeps the nominal increment. Steering it instead would move SYSTIM itself, but
//! QEMU's model makes SYSTIM jump whenever TIMINCA changes (by twice the change times its
//! uptime, or by 2^60 for a smaller increment), which under `ptp4l`'s servo, steering a few
//! times a second, left the clock at the system's rate whatever it asked. A scale in software
//! is as fine (0.5 ppb) on the 82576, and timestamps of frames go through the same scale.
//!
//! A MAC reset (every `ip link set down`, a ring or channel change, a self-test, a recovery,
//! resume, a reset by the PCI core) clears TIMINCA, and SYSTIM stops and starts over. Every
//! read checks TIMINCA before and after it reads SYSTIM and, if the MAC lost the increment,
//! programs it again; the time since the last read is then the system's (boot time, which
//! counts a sleep too), so that the clock runs on across the reset at the system's rate. So
//! is a read that SYSTIM cannot have advanced to at the fastest rate (a reset between the
//! register reads, or all-ones from a device that is not there).

use kernel::{
    ffi::c_long,
    io::{register::Array, Io},
    net::{
        netdev::{self, ExtAck, HwTstampConfig, HwTstampRx, HwTstampTx},
        skb::{SkBuff, TxTimestamp},
    },
    new_spinlock_irq,
    num::Bounded,
    prelude::*,
    ptp::{self, Nanos, SystemTimestamps},
    sync::{
        atomic::{Atomic, Relaxed},
        SpinLockIrq,
    },
    time::{msecs_to_jiffies, BootTime, Delta, Instant, Jiffies, Monotonic},
};

use crate::{hw::Bar0, net::IgbNet, regs};

/// SYSTIM counts nanoseconds shifted left by this many bits.
const SHIFT: u32 = 19;
/// The clock's rate is `mult / MULT_NOMINAL` of SYSTIM's.
const MULT_SHIFT: u32 = 31;
const MULT_NOMINAL: u64 = 1 << MULT_SHIFT;
/// SYSTIM's advance times `mult` is in units of 2^-(SHIFT + MULT_SHIFT) ns.
const SCALE_SHIFT: u32 = SHIFT + MULT_SHIFT;
/// The fraction of a nanosecond in those units.
const FRAC_MASK: u128 = (1 << SCALE_SHIFT) - 1;
/// TIMINCA's period: one increment per 16 ns.
const INC_PERIOD: u32 = 1;
/// TIMINCA's increment field.
type Inc = Bounded<u32, 24>;
/// The increment at the nominal frequency: 16 ns in SYSTIM's units.
const INC_NOMINAL: u32 = 16 << SHIFT;
/// The largest frequency adjustment, in parts per billion, as C igb's (TIMINCA's range).
pub(crate) const MAX_ADJ: i32 = 999_999_881;
/// How often the clock's worker reads SYSTIM: every 9 minutes.
pub(crate) const AUX_PERIOD_MS: u32 = 9 * 60 * 1000;
/// What a read may add beyond twice the system's time since the last (the fastest rate):
/// the jitter between the two clocks' reads.
const SLACK_NS: u64 = 1_000_000_000;

/// The clock's time as of the last read of SYSTIM.
struct Time {
    /// SYSTIM at the last read.
    last: u64,
    /// The clock's time at the last read.
    ns: Nanos,
    /// The fraction of a nanosecond (2^-SCALE_SHIFT ns units) carried from read to read.
    frac: u64,
    /// The clock's rate: `MULT_NOMINAL` is SYSTIM's.
    mult: u64,
    /// When the last read was, on the system's boot time clock.
    at: Instant<BootTime>,
    /// No read yet: `last` means nothing.
    fresh: bool,
}

/// How long a frame may wait for its TX timestamp before it is given up (and counted).
const TX_TIMEOUT: Delta = Delta::from_millis(1000);

/// How long a vector's poll keeps polling for a TX timestamp the frame's completion came
/// before: the 82576 reports a frame done once it fetched it, and latches the time as the frame
/// leaves, behind what its FIFO holds (at most about 300 us at 1 Gb/s).
const TX_REPOLL: Delta = Delta::from_millis(2);
/// How long the RX timestamp may stay latched with no frame taking it before the watchdog
/// frees it: two of its runs.
const RX_HANG_RUNS: u32 = 2;

/// The frame whose TX timestamp the device will latch: the 82576 latches one at a time.
struct TxWait {
    stamp: TxTimestamp,
    since: Instant<Monotonic>,
    /// Which claim this is ([`TxSlot::claims`] then).
    id: u32,
}

/// The port's one TX timestamp.
struct TxSlot {
    wait: Option<TxWait>,
    /// Claims so far (wrapping): tells a claim from the next.
    claims: u32,
}

/// The PTP hardware clock of a port, and the timestamping of its frames.
#[pin_data]
pub(crate) struct Phc {
    #[pin]
    time: SpinLockIrq<Time>,
    /// What `hwtstamp_set` applied ([`pack`]); changed under RTNL.
    config: Atomic<u32>,
    /// The frame waiting for its TX timestamp, if any.
    #[pin]
    tx: SpinLockIrq<TxSlot>,
    /// Whether `tx` holds a frame (written under its lock): the polls look here first,
    /// without it.
    tx_busy: Atomic<u32>,
    /// RX timestamps delivered (wrapping), and what the watchdog saw of them while RXSTMP was
    /// latched: see [`Phc::rx_check`].
    rx_stamps: Atomic<u32>,
    rx_watch: Atomic<u32>,
    rx_watch_runs: Atomic<u32>,
    /// RX timestamps latched for a frame that never took it (dropped), freed by the watchdog.
    pub(crate) rx_cleared: Atomic<u64>,
    /// Frames that asked for a TX timestamp while another one's was pending (not stamped).
    pub(crate) tx_skipped: Atomic<u64>,
    /// Frames whose TX timestamp did not come within [`TX_TIMEOUT`].
    pub(crate) tx_timeouts: Atomic<u64>,
}

impl Phc {
    /// The clock, starting at the system's real time; SYSTIM is programmed at its first read
    /// (the worker's, right after registration).
    pub(crate) fn new() -> impl PinInit<Self> {
        pin_init!(Phc {
            time <- new_spinlock_irq!(
                Time {
                    last: 0,
                    ns: ptp::real_time(),
                    frac: 0,
                    mult: MULT_NOMINAL,
                    at: Instant::now(),
                    fresh: true,
                },
                "igb_rust_phc"
            ),
            config: Atomic::new(pack(HwTstampConfig::OFF)),
            tx <- new_spinlock_irq!(
                TxSlot {
                    wait: None,
                    claims: 0
                },
                "igb_rust_tx_tstamp"
            ),
            tx_busy: Atomic::new(0),
            rx_stamps: Atomic::new(0),
            rx_watch: Atomic::new(0),
            rx_watch_runs: Atomic::new(0),
            rx_cleared: Atomic::new(0),
            tx_skipped: Atomic::new(0),
            tx_timeouts: Atomic::new(0),
        })
    }

    /// The time of a timestamp the device latched (`raw`, SYSTIM then), in the clock's
    /// nanoseconds. SYSTIM is read first, so that a reset since the last read is seen.
    fn time_of(&self, bar: &Bar0<'_>, raw: u64) -> Nanos {
        let mut t = self.time.lock();
        t.update(bar, &mut SystemTimestamps::none());
        // The timestamp was latched before this read, less than half of SYSTIM's range
        // (hours) ago: before `last`, or after it if the read missed a reset.
        let ahead = raw.wrapping_sub(t.last);
        if (ahead as i64) >= 0 {
            t.ns.saturating_add(scale(ahead, t.mult, 0).0)
        } else {
            t.ns.saturating_sub(scale(ahead.wrapping_neg(), t.mult, 0).0)
        }
    }

    /// Programs SYSTIM's increment if a reset cleared it, and the timestamping `hwtstamp_set`
    /// applied: at bring-up, after every MAC reset.
    pub(crate) fn restore(&self, bar: &Bar0<'_>) {
        self.time.lock().update(bar, &mut SystemTimestamps::none());
        program(bar, unpack(self.config.load(Relaxed)));
    }

    /// What `hwtstamp_get` reports.
    pub(crate) fn config(&self) -> HwTstampConfig {
        unpack(self.config.load(Relaxed))
    }

    /// Applies `req` (`hwtstamp_set`, under RTNL), widened to what the 82576 can filter;
    /// refuses with `ERANGE` what it cannot do.
    pub(crate) fn set_config(
        &self,
        bar: &Bar0<'_>,
        req: &mut HwTstampConfig,
        extack: &mut ExtAck<'_>,
    ) -> Result {
        if !matches!(req.tx, HwTstampTx::Off | HwTstampTx::On) {
            extack.set_msg(c"the 82576 has no one-step TX timestamps");
            return Err(ERANGE);
        }
        req.rx = match req.rx {
            HwTstampRx::None | HwTstampRx::PtpV1L4Sync | HwTstampRx::PtpV1L4DelayReq => req.rx,
            HwTstampRx::PtpV2L4Event
            | HwTstampRx::PtpV2L4Sync
            | HwTstampRx::PtpV2L4DelayReq
            | HwTstampRx::PtpV2L2Event
            | HwTstampRx::PtpV2L2Sync
            | HwTstampRx::PtpV2L2DelayReq
            | HwTstampRx::PtpV2Event
            | HwTstampRx::PtpV2Sync
            | HwTstampRx::PtpV2DelayReq => HwTstampRx::PtpV2Event,
            // It timestamps one kind of PTP v1 message at a time, and not all frames.
            _ => {
                extack.set_msg(c"the 82576 timestamps PTP v1 Sync or Delay_Req, or PTP v2");
                return Err(ERANGE);
            }
        };
        if pack(*req) == self.config.load(Relaxed) {
            // Nothing to change: a frame waiting for its timestamp keeps waiting.
            return Ok(());
        }
        self.config.store(pack(*req), Relaxed);
        // Programming frees TXSTMP: the frame waiting for it would not get it.
        self.tx_abort();
        program(bar, *req);
        Ok(())
    }

    /// Claims the port's one TX timestamp for `skb`, which asked for it
    /// ([`SkBuff::wants_hw_tx_timestamp`]): the claim's ID if the frame's descriptor is to ask
    /// the device for it. [`Phc::tx_unclaim`] gives it back if the frame is not sent after all.
    #[cold]
    #[inline(never)]
    pub(crate) fn tx_claim(
        &self,
        dev: &netdev::Device<IgbNet<'_>>,
        skb: &mut SkBuff,
    ) -> Option<u32> {
        let bar = &dev.data().hw.bar;
        if unpack(self.config.load(Relaxed)).tx != HwTstampTx::On {
            return None;
        }
        let mut g = self.tx.lock();
        if g.wait.is_some() {
            self.tx_skipped.add(1, Relaxed);
            return None;
        }
        // A timestamp no frame waits for (one given up that came late): it would be this
        // frame's. Reading TXSTMPH frees it.
        if bar.read(regs::TSYNCTXCTL).valid() {
            let _ = bar.read(regs::TXSTMPH);
        }
        g.claims = g.claims.wrapping_add(1);
        let id = g.claims;
        g.wait = Some(TxWait {
            stamp: skb.start_hw_tx_timestamp(dev),
            since: Instant::now(),
            id,
        });
        self.tx_busy.store(1, Relaxed);
        Some(id)
    }

    /// Gives back claim `id` of [`Phc::tx_claim`], for a frame that was not sent.
    #[cold]
    #[inline(never)]
    pub(crate) fn tx_unclaim(&self, id: u32) {
        let mut g = self.tx.lock();
        if g.wait.as_ref().is_some_and(|w| w.id == id) {
            let w = g.wait.take();
            self.tx_busy.store(0, Relaxed);
            drop(g);
            // Outside the lock: freeing the skb may run its destructor.
            drop(w);
        }
    }

    /// Forgets the frame waiting for its TX timestamp, if any (the device was reset, or
    /// timestamping reprogrammed): its socket gets none.
    pub(crate) fn tx_abort(&self) {
        let mut g = self.tx.lock();
        let w = g.wait.take();
        self.tx_busy.store(0, Relaxed);
        drop(g);
        drop(w);
    }

    /// Whether a frame waits for its TX timestamp: then the vector's poll calls
    /// [`Phc::tx_poll`].
    #[inline(always)]
    pub(crate) fn tx_waiting(&self) -> bool {
        self.tx_busy.load(Relaxed) != 0
    }

    /// Delivers the waiting frame's TX timestamp if the device latched it; gives it up if it
    /// waited longer than [`TX_TIMEOUT`]. Called from the vectors' polls, which the frame's
    /// completion schedules, and from the watchdog. `true` if the frame still waits and was
    /// claimed less than [`TX_REPOLL`] ago: a poll then asks to be called again.
    #[cold]
    #[inline(never)]
    pub(crate) fn tx_poll(&self, bar: &Bar0<'_>) -> bool {
        let mut g = self.tx.lock();
        let Some(since) = g.wait.as_ref().map(|w| w.since) else {
            return false;
        };
        let ctl = bar.read(regs::TSYNCTXCTL);
        // All ones: the device is gone, and no timestamp comes.
        let raw = if ctl.valid() && ctl.into_raw() != u32::MAX {
            let lo = bar.read(regs::TXSTMPL).bits().get();
            // Frees TXSTMP for the next frame.
            let hi = bar.read(regs::TXSTMPH).bits().get();
            Some((u64::from(hi) << 32) | u64::from(lo))
        } else if since.elapsed() > TX_TIMEOUT {
            self.tx_timeouts.add(1, Relaxed);
            None
        } else {
            return since.elapsed() < TX_REPOLL;
        };
        let w = g.wait.take();
        self.tx_busy.store(0, Relaxed);
        drop(g);
        if let (Some(w), Some(raw)) = (w, raw) {
            w.stamp.complete(self.time_of(bar, raw));
        }
        false
    }

    /// Frees RXSTMP if it stayed latched with no frame taking it (the frame with the
    /// timestamp was dropped: no other is timestamped until it is read); called by the
    /// watchdog.
    pub(crate) fn rx_check(&self, bar: &Bar0<'_>) {
        let ctl = bar.read(regs::TSYNCRXCTL);
        if !ctl.en() || !ctl.valid() || ctl.into_raw() == u32::MAX {
            self.rx_watch_runs.store(0, Relaxed);
            return;
        }
        let seen = self.rx_stamps.load(Relaxed);
        if self.rx_watch_runs.load(Relaxed) == 0 || self.rx_watch.load(Relaxed) != seen {
            // Latched, but frames took timestamps since the last look: watch again.
            self.rx_watch.store(seen, Relaxed);
            self.rx_watch_runs.store(1, Relaxed);
            return;
        }
        let runs = self.rx_watch_runs.load(Relaxed) + 1;
        if runs < RX_HANG_RUNS {
            self.rx_watch_runs.store(runs, Relaxed);
            return;
        }
        let _ = bar.read(regs::RXSTMPH);
        let _ = bar.read(regs::RXSATRH);
        self.rx_cleared.add(1, Relaxed);
        self.rx_watch_runs.store(0, Relaxed);
    }

    /// Sets the RX timestamp the device latched for `skb`, whose descriptor says it has one.
    #[cold]
    #[inline(never)]
    pub(crate) fn rx_stamp(&self, bar: &Bar0<'_>, skb: &mut SkBuff) {
        if !bar.read(regs::TSYNCRXCTL).valid() {
            return;
        }
        let lo = bar.read(regs::RXSTMPL).bits().get();
        let hi = bar.read(regs::RXSTMPH).bits().get();
        // Frees RXSTMP for the next frame (QEMU frees it here, the 82576 at RXSTMPH).
        let _ = bar.read(regs::RXSATRH);
        self.rx_stamps.add(1, Relaxed);
        skb.set_hw_timestamp(self.time_of(bar, (u64::from(hi) << 32) | u64::from(lo)));
    }
}

/// TIMINCA at the nominal increment.
fn timinca() -> regs::TIMINCA {
    regs::TIMINCA::zeroed()
        .with_const_period::<INC_PERIOD>()
        .with_incvalue(Inc::new::<INC_NOMINAL>())
}

/// How far the clock advanced while SYSTIM advanced `delta` units at rate `mult`, plus
/// `frac`: whole nanoseconds (saturated) and the fraction left.
fn scale(delta: u64, mult: u64, frac: u64) -> (i64, u64) {
    // Below 2^64 * 2^32 + 2^50: no overflow.
    let x = u128::from(delta) * u128::from(mult) + u128::from(frac);
    let ns = i64::try_from(x >> SCALE_SHIFT).unwrap_or(i64::MAX);
    // Below 2^50.
    (ns, (x & FRAC_MASK) as u64)
}

/// Reads SYSTIM, the low half between `sts`'s readings.
fn read_systim(bar: &Bar0<'_>, sts: &mut SystemTimestamps<'_>) -> u64 {
    sts.pre();
    let lo = bar.read(regs::SYSTIML).bits().get();
    sts.post();
    let hi = bar.read(regs::SYSTIMH).bits().get();
    (u64::from(hi) << 32) | u64::from(lo)
}

impl Time {
    /// Whether TIMINCA holds the nominal increment.
    fn programmed(&self, bar: &Bar0<'_>) -> bool {
        let now = bar.read(regs::TIMINCA);
        now.period().get() == INC_PERIOD && now.incvalue().get() == INC_NOMINAL
    }

    /// Reads SYSTIM and brings the time up to it; programs TIMINCA again if a reset cleared
    /// it, and then goes on at the system's rate from the last read.
    fn update(&mut self, bar: &Bar0<'_>, sts: &mut SystemTimestamps<'_>) {
        let before = self.programmed(bar);
        if !before {
            bar.write_reg(timinca());
        }
        let c = read_systim(bar, sts);
        let after = self.programmed(bar);
        // Not negative: a monotonic clock.
        let since = self.at.elapsed().as_nanos().max(0) as u64;
        self.at = Instant::now();
        // Modulo 2^64: SYSTIM wrapped at most once since the last read (hours ago at most).
        let delta = c.wrapping_sub(self.last);
        let fresh = core::mem::replace(&mut self.fresh, false);
        self.last = c;
        // Twice the nominal rate plus the slack: SYSTIM runs at the nominal one.
        let bound = since.saturating_mul(2).saturating_add(SLACK_NS);
        if fresh || !before || !after || delta >> SHIFT > bound {
            // Where SYSTIM stood before is gone, or this read is not to be trusted: the
            // system's clock tells the time since the last read. The next read starts from
            // this one.
            self.frac = 0;
            if !fresh {
                self.ns = self.ns.saturating_add(since as i64);
            }
            return;
        }
        let (ns, frac) = scale(delta, self.mult, self.frac);
        self.frac = frac;
        self.ns = self.ns.saturating_add(ns);
    }
}

/// The rate `MULT_NOMINAL` made faster by `scaled_ppm` (parts per million, 16-bit fraction),
/// or `None` if it would stop the clock or more than double its rate.
fn adjusted(scaled_ppm: i64) -> Option<u64> {
    // MULT_NOMINAL * scaled_ppm / (10^6 << 16), with MULT_NOMINAL = 2^31. Within `i64` for
    // any `scaled_ppm` the core passes (within `MAX_ADJ` ppb: below 2^36); others refused.
    let diff = scaled_ppm.checked_mul(1 << (MULT_SHIFT - 16))? / 1_000_000;
    let mult = (MULT_NOMINAL as i64).checked_add(diff)?;
    u64::try_from(mult)
        .ok()
        .filter(|m| *m != 0 && *m <= 2 * MULT_NOMINAL)
}

#[vtable]
impl ptp::Clock for IgbNet<'_> {
    fn gettimex(&self, sts: &mut SystemTimestamps<'_>) -> Result<Nanos> {
        let mut t = self.phc.time.lock();
        t.update(&self.hw.bar, sts);
        Ok(t.ns)
    }

    fn settime(&self, time: Nanos) -> Result {
        let mut t = self.phc.time.lock();
        t.update(&self.hw.bar, &mut SystemTimestamps::none());
        t.ns = time;
        t.frac = 0;
        Ok(())
    }

    fn adjtime(&self, delta: Nanos) -> Result {
        let mut t = self.phc.time.lock();
        t.update(&self.hw.bar, &mut SystemTimestamps::none());
        t.ns = t.ns.checked_add(delta).ok_or(ERANGE)?;
        Ok(())
    }

    fn adjfine(&self, scaled_ppm: c_long) -> Result {
        // `c_long` is at most 64 bits.
        let mult = adjusted(scaled_ppm as i64).ok_or(ERANGE)?;
        let mut t = self.phc.time.lock();
        // The time so far at the old rate.
        t.update(&self.hw.bar, &mut SystemTimestamps::none());
        t.mult = mult;
        Ok(())
    }

    fn aux_work(&self) -> Option<Jiffies> {
        self.phc
            .time
            .lock()
            .update(&self.hw.bar, &mut SystemTimestamps::none());
        Some(msecs_to_jiffies(AUX_PERIOD_MS))
    }
}

/// Packs a configuration into [`Phc::config`]: TX in bit 8, the RX filter below.
fn pack(c: HwTstampConfig) -> u32 {
    (u32::from(c.tx == HwTstampTx::On) << 8) | c.rx as u32
}

/// The configuration [`pack`] packed; only those `set_config` accepts are ever packed.
fn unpack(v: u32) -> HwTstampConfig {
    HwTstampConfig {
        tx: if v & (1 << 8) != 0 {
            HwTstampTx::On
        } else {
            HwTstampTx::Off
        },
        rx: match v & 0xff {
            x if x == HwTstampRx::PtpV1L4Sync as u32 => HwTstampRx::PtpV1L4Sync,
            x if x == HwTstampRx::PtpV1L4DelayReq as u32 => HwTstampRx::PtpV1L4DelayReq,
            x if x == HwTstampRx::PtpV2Event as u32 => HwTstampRx::PtpV2Event,
            _ => HwTstampRx::None,
        },
    }
}

/// The UDP port of PTP event messages.
const PTP_EVENT_PORT: u16 = 319;
/// The EtherType of PTP over Ethernet.
const ETH_P_1588: u16 = 0x88f7;
/// The filters timestamping uses: EtherType filter 3 and five-tuple filter 3.
const FILTER: usize = 3;

/// Programs the device's timestamping for `c` (one `set_config` accepted).
fn program(bar: &Bar0<'_>, c: HwTstampConfig) {
    bar.update(regs::TSYNCTXCTL, |r| r.with_en(c.tx == HwTstampTx::On));
    // TSYNCRXCTL's kind, TSYNCRXCFG's PTP v1 control field (Sync 0, Delay_Req 1), and
    // whether the L2 and L4 filters timestamp.
    let (l2, l4) = match c.rx {
        HwTstampRx::PtpV1L4Sync => {
            bar.update(regs::TSYNCRXCTL, |r| r.with_en(true).with_const_kind::<1>());
            bar.write_reg(regs::TSYNCRXCFG::zeroed().with_const_v1_ctrl::<0>());
            (false, true)
        }
        HwTstampRx::PtpV1L4DelayReq => {
            bar.update(regs::TSYNCRXCTL, |r| r.with_en(true).with_const_kind::<1>());
            bar.write_reg(regs::TSYNCRXCFG::zeroed().with_const_v1_ctrl::<1>());
            (false, true)
        }
        HwTstampRx::PtpV2Event => {
            bar.update(regs::TSYNCRXCTL, |r| r.with_en(true).with_const_kind::<5>());
            bar.write_reg(regs::TSYNCRXCFG::zeroed());
            (true, true)
        }
        _ => {
            bar.update(regs::TSYNCRXCTL, |r| {
                r.with_en(false).with_const_kind::<0>()
            });
            bar.write_reg(regs::TSYNCRXCFG::zeroed());
            (false, false)
        }
    };
    let etqf = if l2 {
        regs::ETQF::zeroed()
            .with_en(true)
            .with_ts(true)
            .with_const_etype::<{ ETH_P_1588 as u32 }>()
    } else {
        regs::ETQF::zeroed()
    };
    bar.write(regs::ETQF::at(FILTER), etqf);
    // UDP from and to port 319 (in network order, as the device compares it): protocol and
    // source port compared, addresses not (mask 0b0110).
    let ftqf = if l4 {
        bar.write(
            regs::IMIR::at(FILTER),
            regs::IMIR::zeroed().with_const_port::<{ PTP_EVENT_PORT.swap_bytes() as u32 }>(),
        );
        bar.write(
            regs::IMIREXT::at(FILTER),
            regs::IMIREXT::zeroed()
                .with_size_bp(true)
                .with_ctrl_bp(true),
        );
        bar.write(
            regs::SPQF::at(FILTER),
            regs::SPQF::zeroed().with_const_port::<{ PTP_EVENT_PORT.swap_bytes() as u32 }>(),
        );
        regs::FTQF::zeroed()
            .with_const_protocol::<17>()
            .with_vf_bp(true)
            .with_ts(true)
            .with_const_mask::<0b0110>()
    } else {
        regs::FTQF::zeroed().with_const_mask::<0b1111>()
    };
    bar.write(regs::FTQF::at(FILTER), ftqf);
    // A timestamp latched under the old configuration would block the next: free both.
    let _ = bar.read(regs::TXSTMPH);
    let _ = bar.read(regs::RXSTMPH);
    let _ = bar.read(regs::RXSATRH);
}
