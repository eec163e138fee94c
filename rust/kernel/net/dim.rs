// SPDX-License-Identifier: GPL-2.0

//! Dynamic interrupt moderation: the kernel's DIM library, which picks an interrupt rate for a
//! vector from the traffic it sees.
//!
//! A driver keeps one [`Dim`] per interrupt vector where only that vector's poll reaches it
//! (its NAPI instance's receive state). At the end of each completed poll it hands DIM the
//! vector's running packet and byte counts with [`Dim::sample`], which returns the profile
//! DIM decided on, if it decided on one; the poll programs the device with it. Nothing runs
//! elsewhere: the library's work item, which C drivers use to apply a decision, is disabled
//! from the start, so `net_dim()` never queues it.
//!
//! The profiles are the library's defaults (`net_dim_get_rx_moderation()`,
//! `net_dim_get_tx_moderation()`).
//!
//! C header: [`include/linux/dim.h`](srctree/include/linux/dim.h).

use crate::{bindings, prelude::*, types::Opaque};

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

// The mode and the profile index are `u8` fields of `struct dim`.
const _: () = {
    assert!(bindings::dim_cq_period_mode_DIM_CQ_PERIOD_NUM_MODES <= u8::MAX as u32);
    assert!(bindings::NET_DIM_PARAMS_NUM_PROFILES <= u8::MAX as u32);
    assert!(bindings::NET_DIM_DEF_PROFILE_EQE < bindings::NET_DIM_PARAMS_NUM_PROFILES);
    assert!(bindings::NET_DIM_DEF_PROFILE_CQE < bindings::NET_DIM_PARAMS_NUM_PROFILES);
};

/// The DIM state of one interrupt vector (`struct dim`).
///
/// Made only in a [`KBox`]: its work item is initialised for the heap.
///
/// # Invariants
///
/// - `inner` was zeroed, then its `work` initialised with `Dim::work_fn` and its `mode` set
///   to a valid mode; `inner.profile_ix` is a valid index into the library's profile tables.
/// - Outside [`Dim::sample`], `inner.state` is never `DIM_APPLY_NEW_PROFILE`.
/// - The work item is disabled (`disable_work()`) and never enabled again: the `schedule_work()`
///   of `net_dim()` leaves it unqueued, so nothing but the owner of the `Dim` touches it.
/// - `table` names the profile table the decisions index.
///
/// # Examples
///
/// ```
/// use kernel::net::dim::{Dim, Mode, Table};
///
/// let mut dim = Dim::new(Table::Rx, Mode::FromEvent)?;
/// // The library's default receive profile for an interval that starts at the interrupt.
/// assert_eq!(dim.current().usecs, 8);
/// for i in 1..=10u64 {
///     // Ten polls are fewer than the library measures over: nothing decided yet.
///     assert_eq!(dim.as_mut().sample(i * 64, i * 64 * 1500), None);
/// }
/// assert_eq!(dim.current().usecs, 8);
/// # Ok::<(), Error>(())
/// ```
#[pin_data]
pub struct Dim {
    #[pin]
    inner: Opaque<bindings::dim>,
    table: Table,
    /// Completed polls so far: the library's event counter (it wraps at 16 bits).
    events: u16,
}

// SAFETY: `&Dim` only reads `inner.mode` and `inner.profile_ix`, whose only writers after
// initialisation (`sample` and `restart`) need `&mut`; the work item never runs.
unsafe impl Sync for Dim {}
// SAFETY: Nothing in a `Dim` is tied to the thread that made it, and no work item of it is
// ever queued.
unsafe impl Send for Dim {}

impl Dim {
    /// A DIM state that starts from the library's default profile of `table` and `mode`.
    pub fn new(table: Table, mode: Mode) -> Result<Pin<KBox<Self>>> {
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
            // `struct dim` is in `DIM_START_MEASURE`; the work is on the heap (`KBox` below),
            // not on a stack. The lock class is one static for every `Dim`, as for every
            // work item of one `INIT_WORK()` site in C. Disabling an initialised, idle work
            // item neither sleeps nor waits. Mode and index fit `u8` and are valid (checked at
            // compile time above).
            unsafe {
                dim.write_bytes(0, 1);
                bindings::init_work_with_key(
                    &raw mut (*dim).work,
                    Some(Self::work_fn),
                    false,
                    c"net_dim".as_char_ptr(),
                    crate::static_lock_class!().as_ptr(),
                );
                bindings::disable_work(&raw mut (*dim).work);
                (*dim).mode = cq_mode as u8;
                (*dim).profile_ix = def as u8;
                (&raw mut (*slot).table).write(table);
                (&raw mut (*slot).events).write(0);
            }
            // INVARIANT: zeroed, work initialised, a valid mode and profile, not deciding.
            Ok(())
        };
        // SAFETY: `init` initialises every field and cannot fail; the work item is never
        // queued, and the value is pinned in its box before anything uses it.
        let init = unsafe { pin_init::pin_init_from_closure::<_, Error>(init) };
        KBox::pin_init(init, GFP_KERNEL)
    }

    /// The profile of index `ix` in `table` for `mode`.
    ///
    /// # Safety
    ///
    /// `mode` must be a valid mode (below `DIM_CQ_PERIOD_NUM_MODES`).
    unsafe fn profile(table: Table, mode: u8, ix: u8) -> Moderation {
        // The library indexes its tables unchecked; it never leaves them, but a stray index
        // must not read past them either.
        let ix = c_int::from(ix.min((bindings::NET_DIM_PARAMS_NUM_PROFILES - 1) as u8));
        // SAFETY: `mode` is valid (safety requirement) and `ix` within the tables.
        let m = unsafe {
            match table {
                Table::Rx => bindings::net_dim_get_rx_moderation(mode, ix),
                Table::Tx => bindings::net_dim_get_tx_moderation(mode, ix),
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
        // SAFETY: `sample` and `restart`, the only writers of `profile_ix` and `mode` after
        // initialisation, need `&mut`, which this `&` excludes; the mode is valid (type
        // invariant).
        unsafe { Self::profile(self.table, (*dim).mode, (*dim).profile_ix) }
    }

    /// Feeds DIM the counts at the end of a completed poll: the running totals of packets and
    /// bytes the vector handled (they may wrap). Returns the profile DIM decided to move to,
    /// if it did; it is [`Dim::current`] from then on.
    #[must_use = "the state already measures the decided profile: apply it"]
    pub fn sample(self: Pin<&mut Self>, packets: u64, bytes: u64) -> Option<Moderation> {
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
        let dim = this.inner.get();
        // SAFETY: `inner` is initialised (type invariant); `&mut` makes this the only access
        // to it (its work item is disabled: the library's `schedule_work()` does not queue
        // it).
        unsafe { bindings::net_dim(dim, &s) };
        // SAFETY: As above: nothing else reads or writes `inner` now.
        unsafe {
            if (*dim).state != bindings::dim_state_DIM_APPLY_NEW_PROFILE as u8 {
                return None;
            }
            // INVARIANT: out of `DIM_APPLY_NEW_PROFILE` again: the decision is the caller's
            // to apply, and the next sample measures the new profile, as a C driver's work
            // item does once it applied one.
            (*dim).state = bindings::dim_state_DIM_START_MEASURE as u8;
        }
        Some(this.current())
    }

    /// Starts a new measurement at the next [`Dim::sample`], keeping the profile: after a
    /// pause in sampling (moderation turned off and on, the interface down and up), whose
    /// length says nothing about the traffic.
    pub fn restart(self: Pin<&mut Self>) {
        // SAFETY: `&mut` makes this the only access to `inner` (its work item never runs);
        // out of `sample`, the state is not `DIM_APPLY_NEW_PROFILE`, and
        // `DIM_START_MEASURE` keeps that so.
        unsafe { (*self.inner.get()).state = bindings::dim_state_DIM_START_MEASURE as u8 };
    }

    /// The function of the work item, which is disabled and never runs: the decision is taken
    /// in [`Dim::sample`].
    extern "C" fn work_fn(_work: *mut bindings::work_struct) {}
}
