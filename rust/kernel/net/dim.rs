// SPDX-License-Identifier: GPL-2.0

//! Dynamic interrupt moderation: the kernel's DIM library, which picks an interrupt rate for a
//! vector from the traffic it sees.
//!
//! A driver keeps one [`Dim`] per interrupt vector where only that vector's poll reaches it
//! (its NAPI instance's receive state). At the end of each completed poll it hands DIM the
//! vector's running packet and byte counts with [`Dim::sample`]; when DIM decides on another
//! profile, a work item of this module records it, and the next poll takes it with
//! [`Dim::take_update`] and programs the device. The work item touches nothing but the
//! [`Dim`], and dropping the [`Dim`] waits for it, so the driver's registers are only ever
//! written from its own poll.
//!
//! The profiles are the library's defaults (`net_dim_get_rx_moderation()`,
//! `net_dim_get_tx_moderation()`).
//!
//! C header: [`include/linux/dim.h`](srctree/include/linux/dim.h).

use crate::{
    bindings, container_of,
    prelude::*,
    sync::atomic::{Acquire, Atomic, Relaxed, Release},
    types::Opaque,
};

/// Which of the library's profile tables a [`Dim`] steps through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    /// The receive profiles.
    Rx,
    /// The transmit-completion profiles.
    Tx,
}

/// When the device's moderation timer starts, which selects the profile set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// From the last interrupt (`DIM_CQ_PERIOD_MODE_START_FROM_EQE`).
    FromEvent,
    /// From the last completion written (`DIM_CQ_PERIOD_MODE_START_FROM_CQE`).
    FromCompletion,
}

/// One moderation profile: the interval, and the completions to wait for where the device
/// counts them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Moderation {
    /// Microseconds between interrupts.
    pub usecs: u16,
    /// Completions (packets) per interrupt.
    pub packets: u16,
}

/// No profile waiting in [`Dim::next`]: a value no `u16` interval and count pair encodes.
const NO_UPDATE: u32 = u32::MAX;

/// The DIM state of one interrupt vector (`struct dim`).
///
/// # Invariants
///
/// - `inner` was zeroed, then its `work` initialised with [`Dim::work_fn`] and its `mode` set;
///   `inner.profile_ix` is always a valid index into the library's profile tables (the library
///   only steps between them).
/// - `table` names the profile table the decisions index.
/// - The work item touches only `inner.mode`, `inner.profile_ix` (read), `inner.state` (written)
///   and `next`; it may be queued only while `inner.state` is `DIM_APPLY_NEW_PROFILE`, a state
///   in which `net_dim()` reads nothing but `state`. Drop cancels it and waits for it.
/// - `next` is [`NO_UPDATE`] or a [`Moderation`] the work recorded, packed as
///   `usecs | packets << 16`.
///
/// # Examples
///
/// ```
/// use kernel::net::dim::{Dim, Mode, Table};
///
/// let mut dim = KBox::pin_init(Dim::new(Table::Rx, Mode::FromEvent), GFP_KERNEL)?;
/// // The library's default receive profile for an interval that starts at the interrupt.
/// assert_eq!(dim.current().usecs, 8);
/// for i in 1..=10u64 {
///     dim.as_mut().sample(i * 64, i * 64 * 1500);
/// }
/// // Ten polls are fewer than the library measures over: nothing decided yet.
/// assert!(dim.take_update().is_none());
/// assert_eq!(dim.current().usecs, 8);
/// # Ok::<(), Error>(())
/// ```
#[pin_data(PinnedDrop)]
pub struct Dim {
    #[pin]
    inner: Opaque<bindings::dim>,
    next: Atomic<u32>,
    table: Table,
    /// Completed polls so far: the library's event counter (it wraps at 16 bits).
    events: u16,
}

// SAFETY: The work item may run on another CPU; it only touches what the type invariant lists,
// through atomics or in a state where the library does not race it. `sample` needs `&mut`.
unsafe impl Sync for Dim {}
// SAFETY: Nothing in a `Dim` is tied to the thread that made it; drop waits for the work item
// from any thread.
unsafe impl Send for Dim {}

impl Dim {
    /// A DIM state that starts from the library's default profile of `table` and `mode`.
    pub fn new(table: Table, mode: Mode) -> impl PinInit<Self> {
        let init = move |slot: *mut Self| {
            // SAFETY: `slot` points to storage for `Self` (the closure's contract).
            let dim = Opaque::cast_into(unsafe { &raw const (*slot).inner });
            // The library's default profile of each mode (what `net_dim_get_def_*_moderation()`
            // return).
            let (cq_mode, def) = match mode {
                Mode::FromEvent => (
                    bindings::dim_cq_period_mode_DIM_CQ_PERIOD_MODE_START_FROM_EQE,
                    bindings::NET_DIM_DEF_PROFILE_EQE,
                ),
                Mode::FromCompletion => (
                    bindings::dim_cq_period_mode_DIM_CQ_PERIOD_MODE_START_FROM_CQE,
                    bindings::NET_DIM_DEF_PROFILE_CQE,
                ),
            };
            // SAFETY: `dim` and `slot` are valid for writes (the closure's contract). A zeroed
            // `struct dim` is in `DIM_START_MEASURE` with profile 0; the work function takes
            // only a `Dim`'s work, which this is. The lock class is one static for every
            // `Dim`, as for every work item of one `INIT_WORK()` site in C.
            unsafe {
                dim.write_bytes(0, 1);
                bindings::init_work_with_key(
                    &raw mut (*dim).work,
                    Some(Self::work_fn),
                    false,
                    c"net_dim".as_char_ptr(),
                    crate::static_lock_class!().as_ptr(),
                );
                (*dim).mode = cq_mode as u8;
                (*dim).profile_ix = def as u8;
                (&raw mut (*slot).next).write(Atomic::new(NO_UPDATE));
                (&raw mut (*slot).table).write(table);
                (&raw mut (*slot).events).write(0);
            }
            // INVARIANT: zeroed, work initialised, mode and a valid default profile set; no
            // update waiting.
            Ok(())
        };
        // SAFETY: `init` initialises every field and cannot fail; the work item is not queued
        // before `sample`, which needs the pinned value.
        unsafe { pin_init::pin_init_from_closure(init) }
    }

    /// The profile of `ix` in this state's table.
    ///
    /// # Safety
    ///
    /// `mode` must be a valid mode and `ix` a valid index (as the type invariant keeps them).
    unsafe fn profile(table: Table, mode: u8, ix: u8) -> Moderation {
        // SAFETY: Valid mode and index (safety requirement).
        let m = unsafe {
            match table {
                Table::Rx => bindings::net_dim_get_rx_moderation(mode, c_int::from(ix)),
                Table::Tx => bindings::net_dim_get_tx_moderation(mode, c_int::from(ix)),
            }
        };
        Moderation {
            usecs: m.usec,
            packets: m.pkts,
        }
    }

    /// The profile DIM is at: where it started, or the last one it decided on.
    pub fn current(&self) -> Moderation {
        let dim = self.inner.get();
        // SAFETY: `sample`, the only writer of `profile_ix` after initialisation, needs
        // `&mut`, which excludes this `&`; the work item only reads it and `mode` (type
        // invariant). Both are valid (type invariant).
        unsafe { Self::profile(self.table, (*dim).mode, (*dim).profile_ix) }
    }

    /// Feeds DIM the counts at the end of a completed poll: the running totals of packets and
    /// bytes the vector handled (they may wrap). A decision to change the profile is
    /// recorded later, by a work item, for [`Dim::take_update`].
    pub fn sample(self: Pin<&mut Self>, packets: u64, bytes: u64) {
        // SAFETY: `events` is not structurally pinned, and nothing is moved out.
        let this = unsafe { self.get_unchecked_mut() };
        this.events = this.events.wrapping_add(1);
        // What `dim_update_sample()` fills in: the library keeps 32-bit counters and takes
        // their differences modulo 2^32, so the totals are truncated on purpose.
        let s = bindings::dim_sample {
            // SAFETY: Reading the monotonic clock has no requirements.
            time: unsafe { bindings::ktime_get() },
            pkt_ctr: packets as u32,
            byte_ctr: bytes as u32,
            event_ctr: this.events,
            comp_ctr: 0,
        };
        // SAFETY: `inner` is initialised (type invariant); `&mut` makes this the only `net_dim`
        // on it. The work item it may queue only touches what the type invariant lists, and
        // drop waits for it.
        unsafe { bindings::net_dim(this.inner.get(), &s) };
    }

    /// The profile DIM decided on since the last call, if any.
    #[inline]
    pub fn take_update(&self) -> Option<Moderation> {
        if self.next.load(Relaxed) == NO_UPDATE {
            return None;
        }
        let v = self.next.xchg(NO_UPDATE, Acquire);
        (v != NO_UPDATE).then_some(Moderation {
            usecs: v as u16,
            packets: (v >> 16) as u16,
        })
    }

    /// # Safety
    ///
    /// Only the workqueue calls this, for the work item of a `Dim`, which (its invariant) is
    /// waited for before the `Dim` is dropped.
    unsafe extern "C" fn work_fn(work: *mut bindings::work_struct) {
        // SAFETY: `work` is the `work` member of the `struct dim` in a `Dim` (safety
        // requirement); `Opaque` is a transparent wrapper.
        let this = unsafe {
            let dim = container_of!(work, bindings::dim, work);
            &*container_of!(dim.cast::<Opaque<bindings::dim>>(), Self, inner)
        };
        let dim = this.inner.get();
        // SAFETY: Queued by `net_dim()` in `DIM_APPLY_NEW_PROFILE` after it set `profile_ix`
        // (queueing orders the writes before this work runs); `net_dim` does not touch
        // `profile_ix` or `mode` in that state (type invariant), and both are valid.
        let m = unsafe { Self::profile(this.table, (*dim).mode, (*dim).profile_ix) };
        this.next
            .store(u32::from(m.usecs) | (u32::from(m.packets) << 16), Release);
        // SAFETY: In `DIM_APPLY_NEW_PROFILE`, `net_dim()` only reads `state` (type invariant);
        // a volatile write is the `WRITE_ONCE()` every DIM user does here. From the next
        // sample on, `net_dim()` owns the state again.
        unsafe {
            (&raw mut (*dim).state).write_volatile(bindings::dim_state_DIM_START_MEASURE as u8)
        };
    }
}

#[pinned_drop]
impl PinnedDrop for Dim {
    fn drop(self: Pin<&mut Self>) {
        // SAFETY: The work was initialised (type invariant); waiting for it here is what keeps
        // it from running on a freed `Dim`. Drop runs in process context like every other
        // place that frees a vector's state.
        unsafe { bindings::cancel_work_sync(&raw mut (*self.inner.get()).work) };
    }
}
