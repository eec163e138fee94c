// SPDX-License-Identifier: GPL-2.0

//! NAPI: polled receive and transmit completion.
//!
//! A [`Napi<P>`] embeds a `struct napi_struct` together with the driver's per-queue data `P`
//! (shared with any context) and `P::State` (owned by the poll loop). The poll callback
//! receives `&mut P::State` (NAPI never runs two polls of one instance at once) and a
//! [`NapiContext`]: the token that functions only valid in NAPI context require. Process
//! context code (open, stop, MTU changes) has no token, so it cannot call them.
//!
//! The abstraction keeps the NAPI protocol itself:
//!
//! - the driver's [`Poll::poll`] only reports how much work it did; the abstraction calls
//!   `napi_complete_done()` when that is less than the budget, and only then, if the core
//!   agrees, calls [`Poll::rearm`], which gets no poll state: nothing can touch the rings
//!   after completion;
//! - a netpoll poll (budget 0) gets a token that only allows transmit completion: receive
//!   calls need an [`RxContext`], which exists only for a non-zero budget;
//! - tokens are branded with the poll they belong to (an invariant lifetime), so a value
//!   branded by one poll cannot be used with the token of another.
//!
//! C header: [`include/linux/netdevice.h`](srctree/include/linux/netdevice.h).

use crate::{
    bindings,
    net::{netdev, skb::SkBuff},
    prelude::*,
    types::{NotThreadSafe, Opaque},
};
use core::{cell::UnsafeCell, marker::PhantomData, marker::PhantomPinned, num::NonZeroU32};

/// A per-queue poll routine.
pub trait Poll: Send + Sync + Sized {
    /// The driver data of the net_device the instance belongs to.
    type Owner: netdev::Operations;
    /// State only the poll routine touches (rings, page pool, buffers).
    type State: Send;

    /// Does the instance's work and returns how many received frames it processed, at most
    /// `ctx.budget()` (more is clamped). Transmit completions do not count against the budget.
    ///
    /// Returning less than the budget ends the poll: the abstraction completes it
    /// (`napi_complete_done()`) and then calls [`Poll::rearm`]. With a budget of 0 (netpoll)
    /// the poll never completes; only transmit completion is possible then.
    fn poll<'n>(
        &self,
        state: &mut Self::State,
        dev: &netdev::Device<Self::Owner>,
        ctx: &NapiContext<'n>,
    ) -> u32;

    /// Re-enables the instance's interrupt after a completed poll. It runs after
    /// `napi_complete_done()` returned true: the next interrupt may start a new poll on another
    /// CPU at once, so it has no access to the poll state.
    fn rearm(&self);
}

/// Proof of running in the poll routine of one NAPI instance, in softirq context or in netpoll.
///
/// Only [`Napi`]'s poll callback creates one and it cannot leave that call: it is neither
/// `Send`, `Sync` nor `Clone`, it is handed out by reference, and its lifetime `'n` is an
/// invariant brand chosen afresh for each poll.
///
/// It allows what is valid with any budget: freeing transmitted skbs. Receive work needs
/// [`NapiContext::rx`].
///
/// # Invariants
///
/// `napi` is the NAPI instance being polled on this CPU for as long as the token exists, with
/// `budget` as the budget the core passed.
pub struct NapiContext<'n> {
    napi: *mut bindings::napi_struct,
    budget: u32,
    _brand: PhantomData<fn(&'n ()) -> &'n ()>,
    _not_send: NotThreadSafe,
}

impl<'n> NapiContext<'n> {
    /// How many frames this poll may process. Zero means netpoll is only cleaning TX.
    #[inline]
    pub fn budget(&self) -> u32 {
        self.budget
    }

    /// The receive half of the context, or `None` when the budget is 0 (netpoll, possibly in
    /// hard interrupt context, where nothing but transmit completion is allowed).
    #[inline]
    pub fn rx(&self) -> Option<RxContext<'_, 'n>> {
        NonZeroU32::new(self.budget).map(|budget| RxContext { ctx: self, budget })
    }

    /// Frees a transmitted skb into the per-CPU NAPI cache (`napi_consume_skb()`), or, when
    /// polled by netpoll (budget 0), the way netpoll needs.
    #[inline]
    pub fn consume_skb(&self, skb: SkBuff) {
        // SAFETY: `skb` is an owned reference we give up. `napi_consume_skb` uses the NAPI
        // cache only for a non-zero budget, which the core passes only from the softirq poll
        // of `self.napi` (type invariant); with budget 0 it frees like `dev_consume_skb_any`.
        unsafe { bindings::napi_consume_skb(skb.into_raw(), self.budget as c_int) };
    }
}

/// Proof of running in the softirq poll of one NAPI instance with a non-zero budget: the
/// context in which skbs may be allocated from and built with the per-CPU NAPI caches and
/// handed to GRO, and in which the instance's page pools may recycle directly.
///
/// # Invariants
///
/// `ctx` has a non-zero budget, so the poll runs in softirq context (netpoll always polls with
/// budget 0).
pub struct RxContext<'a, 'n> {
    ctx: &'a NapiContext<'n>,
    budget: NonZeroU32,
}

impl<'n> RxContext<'_, 'n> {
    /// How many frames this poll may process (never 0).
    #[inline]
    pub fn budget(&self) -> u32 {
        self.budget.get()
    }

    /// The NAPI context this receive context belongs to.
    #[inline]
    pub fn napi(&self) -> &NapiContext<'n> {
        self.ctx
    }

    /// Allocates an skb with `len` bytes of room from the per-CPU NAPI cache
    /// (`napi_alloc_skb()`). `None` when memory is short: the caller must count and drop.
    #[inline]
    pub fn alloc_skb(&self, len: u32) -> Option<SkBuff> {
        // SAFETY: `napi_alloc_skb` must run in the softirq poll of the instance it is passed:
        // `self.ctx.napi` is polled on this CPU (`NapiContext` invariant) with a non-zero
        // budget, i.e. from softirq (`RxContext` invariant).
        let p = unsafe { bindings::napi_alloc_skb(self.ctx.napi, len) };
        // SAFETY: A non-null result is a new skb of which we own the only reference.
        (!p.is_null()).then(|| unsafe { SkBuff::from_raw(p) })
    }

    /// Hands a received frame to GRO (`napi_gro_receive()`).
    #[inline]
    pub fn gro_receive(&self, skb: SkBuff) {
        // SAFETY: GRO state is per instance and used only by its softirq poll, which is where
        // we are (both invariants); we give up our reference to `skb`.
        unsafe { bindings::napi_gro_receive(self.ctx.napi, skb.into_raw()) };
    }
}

/// The part of a [`Napi`] that does not depend on the driver's types, at the start of every
/// `Napi<P>`: the net_device can reach it from its NAPI list without knowing `P`.
///
/// # Invariants
///
/// `enabled` is only accessed with the RTNL lock held, or with exclusive access to the
/// net_device after it was unregistered (see [`disable_all`]); it is true exactly when
/// `napi_enable()` was called on `inner` more recently than `napi_disable()`.
#[repr(C)]
struct NapiCore {
    inner: Opaque<bindings::napi_struct>,
    enabled: UnsafeCell<bool>,
}

/// A NAPI instance with its queue data.
///
/// # Invariants
///
/// - Once initialised, `core.inner` is on the NAPI list of a net_device of `P::Owner` (added
///   with `netif_napi_add` as the last step of initialisation) until it is deleted on drop.
/// - `state` is only accessed by the poll callback, or by [`Napi::with_state`] while the
///   instance is disabled and RTNL is held exclusively.
#[repr(C)]
#[pin_data(PinnedDrop)]
pub struct Napi<P: Poll> {
    core: NapiCore,
    #[pin]
    data: P,
    state: UnsafeCell<P::State>,
    #[pin]
    _pin: PhantomPinned,
}

// SAFETY: `data` is `Sync`; `state` is only touched by the single running poll or under
// exclusive RTNL with polling disabled; `core.enabled` only under RTNL (`NapiCore` invariant).
unsafe impl<P: Poll> Sync for Napi<P> {}
// SAFETY: `P: Send` and `P::State: Send`; the C part may be released from any thread.
unsafe impl<P: Poll> Send for Napi<P> {}

impl<P: Poll> Napi<P> {
    /// Creates a NAPI instance on `dev`, initially disabled.
    ///
    /// `data` is initialised first; the instance is added to the device only once everything
    /// else succeeded, so a failing initialiser leaves nothing behind on the device.
    #[inline]
    pub fn new(
        dev: &netdev::Unregistered<P::Owner>,
        data: impl PinInit<P, Error>,
        state: P::State,
    ) -> impl PinInit<Self, Error> {
        const { assert!(core::mem::offset_of!(Self, core) == 0) };
        let raw_dev = dev.as_raw();
        try_pin_init!(&this in Self {
            // Zeroed, as `netif_napi_add` expects.
            core: NapiCore {
                inner: Opaque::zeroed(),
                enabled: UnsafeCell::new(false),
            },
            data <- data,
            state: UnsafeCell::new(state),
            _pin: PhantomPinned,
            _: {
                // SAFETY: Every other field is initialised, so a poll could run right away.
                // `inner` is storage inside `*this`, which is pinned and stays valid until our
                // `PinnedDrop` deletes the instance; `raw_dev` is the live, unregistered
                // net_device of `P::Owner` the token stands for.
                unsafe {
                    let napi = Opaque::cast_into(&raw const (*this.as_ptr()).core.inner);
                    bindings::netif_napi_add(raw_dev, napi, Some(Self::poll_callback));
                }
            },
        }? Error)
    }

    #[inline]
    fn raw(&self) -> *mut bindings::napi_struct {
        self.core.inner.get()
    }

    /// The queue data shared with other contexts.
    #[inline]
    pub fn data(&self) -> &P {
        &self.data
    }

    /// Schedules the poll routine (`napi_schedule()`). Any context, typically the interrupt
    /// handler. Does nothing while the instance is disabled.
    #[inline]
    pub fn schedule(&self) -> bool {
        // SAFETY: `inner` is on its device's NAPI list (type invariant), which is all
        // `napi_schedule` needs; a disabled instance keeps its SCHED bit and is not scheduled.
        unsafe { bindings::napi_schedule(self.raw()) }
    }

    /// Enables polling. Idempotent.
    #[inline]
    pub fn enable(&self, _rtnl: &netdev::Rtnl) {
        // SAFETY: RTNL is held (`_rtnl`), which serialises every access to `enabled`.
        let en = unsafe { &mut *self.core.enabled.get() };
        if !*en {
            // SAFETY: `inner` is added (type invariant) and disabled (`enabled` is false).
            unsafe { bindings::napi_enable(self.raw()) };
            *en = true;
        }
    }

    /// Disables polling, waiting for a running poll to finish. Idempotent.
    #[inline]
    pub fn disable(&self, _rtnl: &netdev::Rtnl) {
        // SAFETY: RTNL is held (`_rtnl`), which serialises every access to `enabled`.
        let en = unsafe { &mut *self.core.enabled.get() };
        if *en {
            // SAFETY: `inner` is added and enabled; only one disable runs at a time (RTNL).
            unsafe { bindings::napi_disable(self.raw()) };
            *en = false;
        }
    }

    /// Runs `f` on the poll state while polling is disabled (e.g. to fill or drain rings from
    /// `open`/`stop`). Fails with `EBUSY` if the instance is enabled.
    ///
    /// It borrows the RTNL token mutably: `f` cannot enable this (or any) instance, so polling
    /// stays disabled for as long as `f` holds the state.
    #[inline]
    pub fn with_state<R>(
        &self,
        _rtnl: &mut netdev::Rtnl,
        f: impl FnOnce(&P, &mut P::State) -> R,
    ) -> Result<R> {
        // SAFETY: RTNL is held (`_rtnl`), which serialises every access to `enabled`.
        if unsafe { *self.core.enabled.get() } {
            return Err(EBUSY);
        }
        // SAFETY: The instance is disabled, so no poll runs (netpoll cannot claim a disabled
        // instance either: its SCHED bit stays set). It cannot be enabled while `f` runs: that
        // needs `&Rtnl`, and the only token in reach is borrowed mutably here. Other
        // `with_state` callers need the same token. The reference does not escape `f`.
        let state = unsafe { &mut *self.state.get() };
        Ok(f(&self.data, state))
    }

    /// # Safety
    ///
    /// Called by the NAPI core only, for an instance added by [`Napi::new`].
    unsafe extern "C" fn poll_callback(napi: *mut bindings::napi_struct, budget: c_int) -> c_int {
        // SAFETY: `napi` is `core.inner` of a pinned `Napi<P>` (`NapiCore` is the first field of
        // the `repr(C)` `Napi<P>` and `inner` the first of `NapiCore`), alive while on the list.
        let this = unsafe { &*napi.cast::<Self>() };
        // SAFETY: The core runs at most one poll of an instance at a time (it owns the SCHED
        // bit while polling), and `with_state` only runs while the instance is disabled (type
        // invariant), so this is the only reference to `state`.
        let state = unsafe { &mut *this.state.get() };
        // SAFETY: `napi->dev` is the net_device of `P::Owner` the instance was added to; it is
        // registered (polls only happen between `napi_enable` in a callback of the registered
        // device and the `napi_disable` that `Registration` guarantees before it drops `T`).
        let dev = unsafe { netdev::Device::<P::Owner>::from_napi_dev((*napi).dev) };
        let budget = u32::try_from(budget).unwrap_or(0);
        // INVARIANT: we are the poll of `napi`, with the budget the core passed.
        let ctx = NapiContext {
            napi,
            budget,
            _brand: PhantomData,
            _not_send: PhantomData,
        };
        let done = this.data.poll(state, dev, &ctx).min(budget);
        // Netpoll (budget 0) must never complete; a poll that used its whole budget stays
        // scheduled and is called again.
        // SAFETY: We are in the poll of `napi`, after the driver's last access to `state`.
        if done < budget && unsafe { bindings::napi_complete_done(napi, done as c_int) } {
            this.data.rearm();
        }
        // `done <= budget`, which came from a `c_int`.
        done as c_int
    }
}

#[pinned_drop]
impl<P: Poll> PinnedDrop for Napi<P> {
    #[inline]
    fn drop(self: Pin<&mut Self>) {
        // SAFETY: `&mut self` excludes every other access to `enabled`.
        if unsafe { *self.core.enabled.get() } {
            // SAFETY: `inner` is added and enabled.
            unsafe { bindings::napi_disable(self.raw()) };
        }
        // SAFETY: `inner` was added by `new` (an initialised `Napi` always is) and its
        // net_device is still allocated: `Napi`s live in the device's private data, which
        // `Registration` drops before it frees the device.
        unsafe { bindings::netif_napi_del(self.raw()) };
    }
}

/// Disables every NAPI instance of `dev` that is still enabled.
///
/// # Safety
///
/// `dev` must be a net_device whose NAPI instances were all added by [`Napi::new`], and the
/// caller must have exclusive access to their `enabled` flags (RTNL held, or the device
/// unregistered so that no callback that could hold RTNL for it runs any more).
pub(crate) unsafe fn disable_all(dev: *mut bindings::net_device) {
    // SAFETY: `dev` is valid; its NAPI list only changes through `Napi::new` and `Napi::drop`,
    // neither of which can run concurrently with the exclusive access the caller has.
    let head = unsafe { &raw mut (*dev).napi_list };
    // SAFETY: `head` is an initialised list head.
    let mut pos = unsafe { (*head).next };
    while pos != head {
        // SAFETY: Every entry of `dev->napi_list` is the `dev_list` member of a `napi_struct`,
        // which (safety requirement) is the `inner` field at the start of a `NapiCore`.
        let core = unsafe {
            &*crate::container_of!(pos, bindings::napi_struct, dev_list).cast::<NapiCore>()
        };
        // SAFETY: Exclusive access to `enabled` per the safety requirements.
        let en = unsafe { &mut *core.enabled.get() };
        if *en {
            // SAFETY: The instance is added and enabled.
            unsafe { bindings::napi_disable(core.inner.get()) };
            *en = false;
        }
        // SAFETY: `pos` is a valid list entry.
        pos = unsafe { (*pos).next };
    }
}
