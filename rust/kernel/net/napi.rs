// SPDX-License-Identifier: GPL-2.0

//! NAPI: polled receive and transmit completion.
//!
//! A [`Napi<P>`] embeds a `struct napi_struct` together with the driver's per-queue data `P`
//! (shared with any context) and `P::State` (owned by the poll loop). The poll callback
//! receives `&mut P::State` (NAPI never runs two polls of one instance at once) and a
//! [`NapiContext`]: the token that functions only valid in NAPI context require. Process
//! context code (open, stop, MTU changes) has no token, so it cannot call them.
//!
//! C header: [`include/linux/netdevice.h`](srctree/include/linux/netdevice.h).

use crate::{
    bindings,
    net::{netdev, skb::SkBuff},
    prelude::*,
    types::Opaque,
};
use core::{cell::UnsafeCell, marker::PhantomData, marker::PhantomPinned};

/// A per-queue poll routine.
pub trait Poll: Send + Sync + Sized {
    /// The driver data of the net_device the instance belongs to.
    type Owner: netdev::Operations;
    /// State only the poll routine touches (rings, page pool, buffers).
    type State: Send;

    /// Processes at most `ctx.budget()` received frames and returns how many it processed.
    /// Transmit completions do not count against the budget.
    fn poll(
        &self,
        state: &mut Self::State,
        dev: &netdev::Device<Self::Owner>,
        ctx: &NapiContext<'_>,
    ) -> u32;
}

/// Proof of running in the poll routine of one NAPI instance, in softirq context.
///
/// Only [`Napi`]'s poll callback creates one and it cannot leave that call: it is neither
/// `Send` nor `Clone`, and it is handed out by reference. It has no public constructor.
pub struct NapiContext<'a> {
    napi: *mut bindings::napi_struct,
    budget: u32,
    _p: PhantomData<&'a ()>,
}

impl NapiContext<'_> {
    /// How many frames this poll may process. Zero means netpoll is only cleaning TX.
    #[inline]
    pub fn budget(&self) -> u32 {
        self.budget
    }

    /// Allocates an skb with `len` bytes of room from the per-CPU NAPI cache
    /// (`napi_alloc_skb()`). `None` when memory is short: the caller must count and drop.
    #[inline]
    pub fn alloc_skb(&self, len: u32) -> Option<SkBuff> {
        // SAFETY: `self.napi` is the NAPI instance being polled on this CPU.
        let p = unsafe { bindings::napi_alloc_skb(self.napi, len) };
        // SAFETY: a non-null result is a new skb we own.
        (!p.is_null()).then(|| unsafe { SkBuff::from_raw(p) })
    }

    /// Frees a transmitted skb into the per-CPU NAPI cache (`napi_consume_skb()`), or, when
    /// polled by netpoll (budget 0), the way netpoll needs.
    #[inline]
    pub fn consume_skb(&self, skb: SkBuff) {
        // SAFETY: we give up our reference; we are in NAPI context with this budget.
        unsafe { bindings::napi_consume_skb(skb.into_raw(), self.budget as c_int) };
    }

    /// Hands a received frame to GRO (`napi_gro_receive()`).
    #[inline]
    pub fn gro_receive(&self, skb: SkBuff) {
        // SAFETY: `self.napi` is being polled on this CPU; we give up our reference.
        unsafe { bindings::napi_gro_receive(self.napi, skb.into_raw()) };
    }

    #[inline]
    pub(crate) fn as_raw(&self) -> *mut bindings::napi_struct {
        self.napi
    }
}

/// A NAPI instance with its queue data.
///
/// # Invariants
///
/// `inner` was added to a net_device of `P::Owner` with `netif_napi_add` and is deleted on
/// drop. `state` is only accessed by the poll callback or by `&mut self`.
#[pin_data(PinnedDrop)]
pub struct Napi<P: Poll> {
    #[pin]
    inner: Opaque<bindings::napi_struct>,
    #[pin]
    data: P,
    state: UnsafeCell<P::State>,
    enabled: UnsafeCell<bool>,
    #[pin]
    _pin: PhantomPinned,
}

// SAFETY: `data` is `Sync`; `state` is only touched by the single running poll; `enabled` only
// under RTNL (`&Rtnl` required).
unsafe impl<P: Poll> Sync for Napi<P> {}
// SAFETY: All fields may move between threads.
unsafe impl<P: Poll> Send for Napi<P> {}

impl<P: Poll> Napi<P> {
    /// Creates a NAPI instance on `dev`, initially disabled.
    #[inline]
    pub fn new(
        dev: &netdev::Unregistered<P::Owner>,
        data: impl PinInit<P, Error>,
        state: P::State,
    ) -> impl PinInit<Self, Error> {
        let raw_dev = dev.as_raw();
        try_pin_init!(&this in Self {
            inner <- Opaque::ffi_init(move |napi| {
                // SAFETY: `napi` is zeroed-or-uninit storage that stays pinned; `raw_dev` is a
                // live net_device. The poll callback matches this type.
                unsafe {
                    core::ptr::write_bytes(napi, 0, 1);
                    bindings::netif_napi_add(raw_dev, napi, Some(Self::poll_callback));
                }
            }),
            data <- data,
            state: UnsafeCell::new(state),
            enabled: UnsafeCell::new(false),
            _pin: PhantomPinned,
            _: {
                let _ = this;
            },
        }? Error)
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
        // SAFETY: `inner` is an added NAPI instance (type invariant).
        unsafe { bindings::napi_schedule(self.inner.get()) }
    }

    /// Enables polling. Idempotent.
    #[inline]
    pub fn enable(&self, _rtnl: &netdev::Rtnl) {
        // SAFETY: `enabled` is only accessed under RTNL, which `_rtnl` proves.
        let en = unsafe { &mut *self.enabled.get() };
        if !*en {
            // SAFETY: `inner` is added and disabled.
            unsafe { bindings::napi_enable(self.inner.get()) };
            *en = true;
        }
    }

    /// Disables polling, waiting for a running poll to finish. Idempotent.
    #[inline]
    pub fn disable(&self, _rtnl: &netdev::Rtnl) {
        // SAFETY: `enabled` is only accessed under RTNL, which `_rtnl` proves.
        let en = unsafe { &mut *self.enabled.get() };
        if *en {
            // SAFETY: `inner` is added and enabled.
            unsafe { bindings::napi_disable(self.inner.get()) };
            *en = false;
        }
    }

    /// Runs `f` on the poll state while polling is disabled (e.g. to fill or drain rings from
    /// `open`/`stop`). Fails with `EBUSY` if the instance is enabled.
    #[inline]
    pub fn with_state<R>(
        &self,
        _rtnl: &netdev::Rtnl,
        f: impl FnOnce(&P, &mut P::State) -> R,
    ) -> Result<R> {
        // SAFETY: `enabled` is only accessed under RTNL.
        if unsafe { *self.enabled.get() } {
            return Err(EBUSY);
        }
        // SAFETY: Polling is disabled, so no poll runs; other `with_state` callers are
        // excluded by RTNL. The reference does not escape `f`.
        let state = unsafe { &mut *self.state.get() };
        Ok(f(&self.data, state))
    }

    /// # Safety
    ///
    /// Called by the NAPI core for an instance added by [`Napi::new`].
    unsafe extern "C" fn poll_callback(napi: *mut bindings::napi_struct, budget: c_int) -> c_int {
        // SAFETY: `napi` is the `inner` field of a pinned `Napi<P>`.
        let this = unsafe { &*crate::container_of!(Opaque::cast_from(napi), Self, inner) };
        // SAFETY: NAPI runs one poll of an instance at a time (NAPI_STATE_SCHED), so this is
        // the only access to `state`.
        let state = unsafe { &mut *this.state.get() };
        // SAFETY: `napi->dev` is the net_device of `P::Owner` the instance was added to, alive
        // while the instance is.
        let dev = unsafe { netdev::Device::<P::Owner>::from_napi_dev((*napi).dev) };
        let budget = u32::try_from(budget).unwrap_or(0);
        let ctx = NapiContext {
            napi,
            budget,
            _p: PhantomData,
        };
        let done = this.data.poll(state, dev, &ctx).min(budget);
        // `done <= budget`, which came from a `c_int`.
        done as c_int
    }

    /// Completes a poll that did less than its budget (`napi_complete_done()`); returns whether
    /// the driver may re-enable the queue's interrupt.
    #[inline]
    pub fn complete_done(ctx: &NapiContext<'_>, work_done: u32) -> bool {
        // SAFETY: `ctx` proves we are in this instance's poll.
        unsafe { bindings::napi_complete_done(ctx.as_raw(), work_done as c_int) }
    }
}

#[pinned_drop]
impl<P: Poll> PinnedDrop for Napi<P> {
    #[inline]
    fn drop(self: Pin<&mut Self>) {
        // SAFETY: `&mut self` excludes every other access.
        if unsafe { *self.enabled.get() } {
            // SAFETY: `inner` is added and enabled.
            unsafe { bindings::napi_disable(self.inner.get()) };
        }
        // SAFETY: `inner` was added by `new`; its net_device is still allocated.
        unsafe { bindings::netif_napi_del(self.inner.get()) };
    }
}
