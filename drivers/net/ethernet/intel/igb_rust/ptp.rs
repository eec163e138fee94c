// SPDX-License-Identifier: GPL-2.0

//! The PTP hardware clock: the 82576's system timer (SYSTIM).
//!
//! SYSTIM is a 64-bit counter to which the MAC adds TIMINCA's increment every 16 ns. With an
//! increment of 16 << 19 it counts nanoseconds in units of 2^-19 ns, and wraps after 2^45 ns
//! (about 9.8 hours at the nominal rate, 4.9 at the fastest). The clock's time is kept from it
//! as a timecounter does: the time at the last read, plus how far SYSTIM advanced since. The
//! clock's worker reads it every [`AUX_PERIOD_MS`], far more often than it wraps. Setting or
//! stepping the clock changes only that time; steering its frequency changes the increment.
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
    io::Io,
    new_spinlock_irq,
    num::Bounded,
    prelude::*,
    ptp::{self, Nanos, SystemTimestamps},
    sync::SpinLockIrq,
    time::{msecs_to_jiffies, BootTime, Instant, Jiffies},
};

use crate::{hw::Bar0, net::IgbNet, regs};

/// SYSTIM counts nanoseconds shifted left by this many bits.
const SHIFT: u32 = 19;
/// The fraction of a nanosecond below SYSTIM's nanoseconds.
const FRAC_MASK: u64 = (1 << SHIFT) - 1;
/// TIMINCA's period: one increment per 16 ns.
const INC_PERIOD: u32 = 1;
/// TIMINCA's increment field.
type Inc = Bounded<u32, 24>;
/// The increment at the nominal frequency: 16 ns in SYSTIM's units.
const INC_NOMINAL: u32 = 16 << SHIFT;
/// The largest frequency adjustment, in parts per billion: up to almost twice the nominal
/// rate, which the increment's 24 bits hold.
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
    /// The fraction of a nanosecond (2^-19 ns units) carried from read to read.
    frac: u64,
    /// The increment programmed in TIMINCA.
    inc: Inc,
    /// When the last read was, on the system's boot time clock.
    at: Instant<BootTime>,
    /// No read yet: `last` means nothing.
    fresh: bool,
}

/// The PTP hardware clock of a port.
#[pin_data]
pub(crate) struct Phc {
    #[pin]
    time: SpinLockIrq<Time>,
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
                    inc: Inc::new::<INC_NOMINAL>(),
                    at: Instant::now(),
                    fresh: true,
                },
                "igb_rust_phc"
            ),
        })
    }
}

/// TIMINCA for increment `inc`.
fn timinca(inc: Inc) -> regs::TIMINCA {
    regs::TIMINCA::zeroed()
        .with_const_period::<INC_PERIOD>()
        .with_incvalue(inc)
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
    /// Whether TIMINCA holds the increment last programmed.
    fn programmed(&self, bar: &Bar0<'_>) -> bool {
        let now = bar.read(regs::TIMINCA);
        now.period().get() == INC_PERIOD && now.incvalue().get() == self.inc.get()
    }

    /// Reads SYSTIM and brings the time up to it; programs TIMINCA again if a reset cleared
    /// it, and then goes on at the system's rate from the last read.
    fn update(&mut self, bar: &Bar0<'_>, sts: &mut SystemTimestamps<'_>) {
        let before = self.programmed(bar);
        if !before {
            bar.write_reg(timinca(self.inc));
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
        // At most twice the nominal rate (the largest increment) plus the slack.
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
        let frac = (delta & FRAC_MASK) + self.frac;
        self.frac = frac & FRAC_MASK;
        // At most `bound` plus one: far below `i64::MAX`.
        let ns = (delta >> SHIFT) + (frac >> SHIFT);
        self.ns = self.ns.saturating_add(ns as i64);
    }
}

/// `INC_NOMINAL` made faster by `scaled_ppm` (parts per million, 16-bit fraction), or `None`
/// if TIMINCA cannot hold it.
fn adjusted(scaled_ppm: i64) -> Option<Inc> {
    // Within `i64` for any `scaled_ppm` the core passes (it keeps them within `MAX_ADJ`
    // ppb, below 2^36); others are refused.
    let diff = i64::from(INC_NOMINAL).checked_mul(scaled_ppm)? / (1_000_000 << 16);
    let inc = u32::try_from(i64::from(INC_NOMINAL).checked_add(diff)?).ok()?;
    Inc::try_new(inc).filter(|i| i.get() != 0)
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
        let inc = adjusted(scaled_ppm as i64).ok_or(ERANGE)?;
        let mut t = self.phc.time.lock();
        // The time so far at the old rate; SYSTIM itself runs on.
        t.update(&self.hw.bar, &mut SystemTimestamps::none());
        t.inc = inc;
        self.hw.bar.write_reg(timinca(inc));
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
