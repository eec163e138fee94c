// SPDX-License-Identifier: GPL-2.0

//! NAPI: polled receive and transmit completion.
//!
//! A [`Napi<P>`] embeds a `struct napi_struct` together with the driver's per-queue data `P`
//! (shared with any context), `P::State` (owned by the receive side of the poll) and,
//! optionally, a page pool bound to the instance. The instances of a net_device are created
//! and owned by its registration (the netdev module's `Registration`), which disables them
//! before it drops the driver's data and deletes them before it frees the device: a NAPI
//! instance can neither outlive its device nor be made by a driver on its own.
//!
//! The poll callback receives a [`NapiContext`], the token that functions only valid in NAPI
//! context require, `&mut P::TxState` (NAPI never runs two polls of one instance at once), and,
//! for a non-zero budget, an [`Rx`] with `&mut P::State`, the receive context and the
//! instance's pool.
//! Process context code (open, stop, MTU changes) has no token, so it cannot call them.
//!
//! The abstraction keeps the NAPI protocol itself:
//!
//! - the driver's [`Poll::poll`] only reports how much work it did; the abstraction calls
//!   `napi_complete_done()` when that is less than the budget, and only then, if the core
//!   agrees, calls [`Poll::rearm`], which gets no poll state: nothing can touch the rings
//!   after completion;
//! - a netpoll poll (budget 0, possibly in hard interrupt context) gets a token that only
//!   allows transmit completion, and the transmit state: the receive state, the page pool and
//!   every receive call come with [`Rx`], which exists only for a non-zero budget;
//! - tokens are branded with the poll they belong to (an invariant lifetime), so a value
//!   branded by one poll cannot be used with the token of another.
//!
//! C header: [`include/linux/netdevice.h`](srctree/include/linux/netdevice.h).

#[cfg(CONFIG_PAGE_POOL)]
use crate::net::page_pool;
#[cfg(CONFIG_XDP_SOCKETS)]
use crate::net::xsk;
use crate::{
    bindings, device,
    net::{rtnl::Rtnl, skb::SkBuff},
    prelude::*,
    sync::atomic::{Acquire, Atomic, Release},
    types::{NotThreadSafe, Opaque},
};
#[cfg(CONFIG_XDP_SOCKETS)]
use core::ptr::NonNull;
use core::{
    cell::{Cell, UnsafeCell},
    marker::PhantomData,
    marker::PhantomPinned,
    num::NonZeroU32,
};

/// The driver data of a net_device with NAPI instances: what their polls are handed the device
/// as.
///
/// The netdev module implements it for every driver's data, with its typed `Device`; the
/// trait lets this module, which the netdev module builds on, find the device of a poll
/// without depending on it.
///
/// # Safety
///
/// [`PollOwner::device`] must return the device whose net_device it is given, for any
/// net_device the netdev module's registration allocated for `Self` whose private data is
/// initialised.
pub unsafe trait PollOwner {
    /// The device, as the driver's callbacks see it.
    type Device;

    /// The device of the net_device `dev`.
    ///
    /// # Safety
    ///
    /// `dev` must be a net_device the netdev module's registration allocated for `Self`, whose
    /// private data is initialised and stays so for `'a`.
    unsafe fn device<'a>(dev: *mut bindings::net_device) -> &'a Self::Device;
}

/// A per-queue poll routine.
pub trait Poll: Send + Sync + Sized {
    /// The driver data of the net_device the instance belongs to.
    type Owner: PollOwner;
    /// State only the receive side of the poll touches (RX ring, buffers); with the instance
    /// disabled, also [`Napi::with_state`].
    type State: Send;
    /// State of the poll's transmit completion (the cleaning half of a TX ring,
    /// the netdev module's `ring::Consumer`): every poll gets it, a netpoll poll (budget 0)
    /// included; with the instance disabled, also [`Napi::with_tx_state`]. It starts as
    /// `Default`.
    type TxState: Default + Send;

    /// Does the instance's work and returns how many received frames it processed, at most
    /// `ctx.budget()` (more is clamped). Transmit completions do not count against the budget.
    ///
    /// `tx` is the instance's transmit state, whatever the budget. `rx` is `None` for a budget
    /// of 0 (netpoll, possibly in hard interrupt context): then only transmit completion is
    /// possible, and the poll never completes.
    ///
    /// Returning less than the budget ends the poll: the abstraction completes it
    /// (`napi_complete_done()`) and then calls [`Poll::rearm`].
    fn poll<'n>(
        &self,
        dev: &<Self::Owner as PollOwner>::Device,
        ctx: &NapiContext<'n>,
        tx: &mut Self::TxState,
        rx: Option<Rx<'_, 'n, Self>>,
    ) -> u32;

    /// Re-enables the instance's interrupt after a completed poll. It runs after
    /// `napi_complete_done()` returned true: the next interrupt may start a new poll on another
    /// CPU at once, so it has no access to the poll state.
    ///
    /// A poll, and so this, may also run once before the driver first enables the instance:
    /// while the registration gives instances their NAPI IDs (a busy poller naming the ID),
    /// before any interrupt line is requested.
    fn rearm(&self);
}

/// The poll routine of a net_device without NAPI instances.
pub struct NoPoll<T>(PhantomData<fn() -> T>, core::convert::Infallible);

impl<T: PollOwner> Poll for NoPoll<T> {
    type Owner = T;
    type State = ();
    type TxState = ();

    fn poll<'n>(
        &self,
        _: &T::Device,
        _: &NapiContext<'n>,
        _tx: &mut (),
        _: Option<Rx<'_, 'n, Self>>,
    ) -> u32 {
        match self.1 {}
    }

    fn rearm(&self) {
        match self.1 {}
    }
}

/// The page pool a NAPI instance may own ([`page_pool::PagePool`]; an uninhabited stand-in
/// without `CONFIG_PAGE_POOL`).
#[cfg(CONFIG_PAGE_POOL)]
pub type RxPool<'a> = page_pool::PagePool<'a>;

/// The page pool a NAPI instance may own (an uninhabited stand-in: no `CONFIG_PAGE_POOL`).
#[cfg(not(CONFIG_PAGE_POOL))]
pub struct RxPool<'a>(core::convert::Infallible, PhantomData<&'a ()>);

/// The receive side of an AF_XDP pool bound to an instance's queue ([`xsk::Rx`]).
#[cfg(CONFIG_XDP_SOCKETS)]
pub type XskRx = xsk::Rx;

/// The receive side of an AF_XDP pool bound to an instance's queue (an uninhabited stand-in:
/// no `CONFIG_XDP_SOCKETS`).
#[cfg(not(CONFIG_XDP_SOCKETS))]
pub enum XskRx {}

/// Parameters of the page pool a NAPI instance owns ([`page_pool::Params`]; uninhabited
/// without `CONFIG_PAGE_POOL`).
#[cfg(CONFIG_PAGE_POOL)]
pub type PoolParams = page_pool::Params;

/// Parameters of the page pool a NAPI instance owns (uninhabited: no `CONFIG_PAGE_POOL`).
#[cfg(not(CONFIG_PAGE_POOL))]
pub enum PoolParams {}

/// What a driver gives for each NAPI instance of a device being registered.
pub struct Instance<I, S> {
    /// Initialiser of the instance's shared data.
    pub data: I,
    /// The receive state of its poll.
    pub state: S,
    /// The page pool it owns, if any, bound to it and created for the device's parent.
    pub pool: Option<PoolParams>,
    /// The queue pair it polls, if any: RX and TX queue of this index are linked to the
    /// instance while it is enabled (netdev netlink `queue-get`), and its NAPI ID and
    /// settings (`napi-set`) persist in the device's config of this index across disable
    /// and enable. An index not below both queue counts the device is allocated with, or
    /// already taken by another instance, fails the registration with `EINVAL`. Without a
    /// queue the instance has no NAPI ID and no busy polling, and netdev netlink does not
    /// list it.
    pub queue: Option<u32>,
    /// The interrupt line that schedules it, as an index into the lines given to the
    /// registration (netdev netlink `napi-get`, for an instance with a queue); an index
    /// past them fails the registration with `EINVAL`.
    pub irq: Option<u32>,
}

/// The receive half of a poll with a non-zero budget: the poll-owned receive state, the
/// receive context and the instance's page pool.
pub struct Rx<'a, 'n, P: Poll> {
    /// The state only the receive side touches.
    pub state: &'a mut P::State,
    /// Proof of a softirq poll with a non-zero budget.
    pub ctx: RxContext<'a, 'n>,
    /// The page pool bound to this instance, if it has one.
    pub pool: Option<&'a RxPool<'a>>,
    /// The XDP info of the instance's RX queue, registered with its page pool: an instance
    /// with a queue and a pool has one.
    pub xdp: Option<&'a RxQueue>,
    /// The AF_XDP pool attached to the instance ([`Napi::attach_xsk`]), if any: while it is,
    /// the ring is to be filled from it rather than from `pool`.
    pub xsk: Option<&'a XskRx>,
}

/// Proof of running in the poll routine of one NAPI instance, in softirq context or in netpoll.
///
/// Only [`Napi`]'s poll callback creates one and it cannot leave that call: it is neither
/// `Send`, `Sync` nor `Clone`, it is handed out by reference, and its lifetime `'n` is an
/// invariant brand chosen afresh for each poll.
///
/// It allows what is valid with any budget: freeing transmitted skbs. Receive work needs the
/// [`Rx`] half, which only a poll with a non-zero budget gets.
///
/// # Invariants
///
/// `napi` is the NAPI instance being polled on this CPU for as long as the token exists, with
/// `budget` as the budget the core passed.
pub struct NapiContext<'n> {
    napi: *mut bindings::napi_struct,
    budget: u32,
    /// Set when XDP redirected a frame: the poll flushes before it completes.
    redirected: Cell<bool>,
    _brand: PhantomData<fn(&'n ()) -> &'n ()>,
    _not_send: NotThreadSafe,
}

impl<'n> NapiContext<'n> {
    /// How many frames this poll may process. Zero means netpoll is only cleaning TX.
    #[inline]
    pub fn budget(&self) -> u32 {
        self.budget
    }

    /// Records that XDP redirected a frame in this poll, so that it is flushed
    /// (`xdp_do_flush()`) when the driver's poll returns.
    #[inline]
    pub fn note_redirect(&self) {
        self.redirected.set(true);
    }

    /// Frees a transmitted skb into the per-CPU NAPI cache (`napi_consume_skb()`), or, when
    /// polled by netpoll (budget 0) or called with interrupts disabled (under an
    /// interrupt-disabling lock, where skb destructors must not run), the deferred way
    /// `dev_consume_skb_any()` takes.
    #[inline]
    pub fn consume_skb(&self, skb: SkBuff) {
        // SAFETY: Reads the CPU's interrupt flag.
        let budget = if unsafe { bindings::irqs_disabled() } {
            0
        } else {
            self.budget
        };
        // SAFETY: `skb` is an owned reference we give up. `napi_consume_skb` uses the NAPI
        // cache only for a non-zero budget, which the core passes only from the softirq poll
        // of `self.napi` (type invariant), and we pass it only with interrupts enabled; with
        // budget 0 it frees like `dev_consume_skb_any`, valid in any context.
        unsafe { bindings::napi_consume_skb(skb.into_raw(), budget as c_int) };
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

#[cfg(CONFIG_PAGE_POOL)]
// SAFETY: An `RxContext` exists only in the poll of a NAPI instance with a non-zero budget,
// i.e. in softirq (type invariant), and cannot leave it: it is neither `Send` nor `Sync` (it
// holds a `&NapiContext`, which is neither) and it borrows the poll's context.
unsafe impl page_pool::DirectContext for RxContext<'_, '_> {}

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

    /// Hands a received frame to GRO (`napi_gro_receive()`). GRO may merge and free the skb
    /// and rewrite its data, so it must be private (not shared, data not cloned), as every skb
    /// a driver allocates or builds is; any other is dropped.
    #[inline]
    pub fn gro_receive(&self, skb: SkBuff) {
        if !skb.is_private() {
            return;
        }
        // SAFETY: GRO state is per instance and used only by its softirq poll, which is where
        // we are (both invariants); we give up our reference to `skb`, the only one to a skb
        // whose data no clone shares.
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
///
/// `xsk_pool` is only accessed with the RTNL lock held: it is the AF_XDP pool the core bound
/// to the instance's queue in zero-copy mode, from the bind command (`ndo_bpf`) to the unbind,
/// during which the pool is live and mapped for DMA by the device's parent. `xsk` is changed
/// only under RTNL while the instance is disabled, and read by the poll with a non-zero budget
/// (whose binding's parking places it changes), under RTNL, or with exclusive access; it is
/// only ever an [`xsk::Rx`] of a pool bound to the instance's queue, attached while that pool
/// was in `xsk_pool`, and it is dropped before the unbind command of that pool returns.
#[repr(C)]
struct NapiCore {
    inner: Opaque<bindings::napi_struct>,
    enabled: UnsafeCell<bool>,
    #[cfg(CONFIG_XDP_SOCKETS)]
    xsk_pool: UnsafeCell<Option<NonNull<bindings::xsk_buff_pool>>>,
    xsk: UnsafeCell<Option<XskRx>>,
}

/// A NAPI instance with its queue data.
///
/// # Invariants
///
/// - Once initialised, `core.inner` is on the NAPI list of a net_device of `P::Owner` (added
///   with `netif_napi_add_config`, or `netif_napi_add_tx` without a queue, as the last step of
///   initialisation) until it is deleted on drop.
/// - `state` and `pool` are only accessed by the poll callback with a non-zero budget,
///   `tx_state` by the poll callback with any budget; all three also by [`Napi::with_state`]
///   or [`Napi::with_tx_state`] (`pool` also by [`Napi::set_pool_layout`]) while the instance
///   is disabled and RTNL is held exclusively, or with exclusive access while the device is
///   not registered. Besides, [`Napi::pool_stats`] reads the C pool's counters, racy by
///   design, from any context: the only use of `pool` that is not exclusive.
/// - `pool`, once set, is bound to `core.inner` (`page_pool_params.napi`) and is destroyed
///   before the instance is deleted. `xdp` is set with it for an instance with a queue,
///   registered with it for that RX queue of the device, and dropped before it.
/// - `queue`, if set, is below the RX and TX queue counts the device was allocated with and
///   unique among the device's instances, which keeps its ID and settings in the device's
///   persistent NAPI config of that index; the queues of that index point at `core.inner`
///   exactly while the instance is enabled.
#[repr(C)]
#[pin_data(PinnedDrop)]
pub struct Napi<P: Poll> {
    core: NapiCore,
    #[pin]
    data: P,
    state: UnsafeCell<P::State>,
    tx_state: UnsafeCell<P::TxState>,
    /// 1 while a poll uses `tx_state`: the core's exclusion of polls has a window while
    /// netpoll is being set up (see `poll_callback`).
    tx_claimed: Atomic<u32>,
    /// Set once, before the device is registered; destroyed on drop before the instance is
    /// deleted, while it is disabled.
    pool: UnsafeCell<Option<RxPool<'static>>>,
    /// The XDP info of the queue, registered with `pool`: set with it, dropped before it.
    xdp: UnsafeCell<Option<Pin<KBox<RxQueue>>>>,
    /// The queue pair linked to the instance while it is enabled.
    queue: Option<u32>,
    /// Index of the interrupt line that schedules it.
    irq_line: Option<u32>,
    #[pin]
    _pin: PhantomPinned,
}

// SAFETY: `data` is `Sync`; `state`, `tx_state` and `pool` (not `Sync`) are only touched by
// the single running poll or under exclusive RTNL with polling disabled, except for the pool's
// racy counters (type invariant); `core.enabled` and `core.xsk_pool` only under RTNL, and
// `core.xsk` as `state` is, or read under RTNL where a poll changes none of what is read
// (`NapiCore` invariant).
unsafe impl<P: Poll> Sync for Napi<P> {}
// SAFETY: `P: Send`, `P::State: Send` and `P::TxState: Send`; the C part may be released from
// any thread.
unsafe impl<P: Poll> Send for Napi<P> {}

impl<P: Poll> Napi<P> {
    /// Creates a NAPI instance on `dev`, initially disabled.
    ///
    /// `data` is initialised first; the instance is added to the device only once everything
    /// else succeeded, so a failing initialiser leaves nothing behind on the device.
    ///
    /// # Safety
    ///
    /// `dev` must be a net_device allocated for `P::Owner` by the netdev registration, not
    /// registered yet, which drops the instance before it frees the device. `queue`, if set,
    /// must be below the RX and TX queue counts `dev` was allocated with, and no other instance
    /// of `dev` may have it.
    #[inline]
    pub unsafe fn new(
        dev: *mut bindings::net_device,
        data: impl PinInit<P, Error>,
        state: P::State,
        queue: Option<u32>,
        irq_line: Option<u32>,
    ) -> impl PinInit<Self, Error> {
        const { assert!(core::mem::offset_of!(Self, core) == 0) };
        try_pin_init!(&this in Self {
            // Zeroed, as `netif_napi_add_config` and `netif_napi_add_tx` expect.
            core: NapiCore {
                inner: Opaque::zeroed(),
                enabled: UnsafeCell::new(false),
                #[cfg(CONFIG_XDP_SOCKETS)]
                xsk_pool: UnsafeCell::new(None),
                xsk: UnsafeCell::new(None),
            },
            data <- data,
            state: UnsafeCell::new(state),
            tx_state: UnsafeCell::new(Default::default()),
            tx_claimed: Atomic::new(0),
            pool: UnsafeCell::new(None),
            xdp: UnsafeCell::new(None),
            queue,
            irq_line,
            _pin: PhantomPinned,
            _: {
                // SAFETY: Every other field is initialised, so a poll could run right away.
                // `inner` is storage inside `*this`, which is pinned and stays valid until our
                // `PinnedDrop` deletes the instance; `dev` is a live, unregistered net_device
                // of `P::Owner` (safety requirement). An instance of a queue keeps its ID and
                // settings in the device's persistent NAPI config of that index, which exists
                // because the index is below both queue counts `dev` was allocated with
                // (safety requirement; the core allocates one entry per queue of the larger
                // count) and which no other instance uses (one instance per queue pair).
                unsafe {
                    let napi = Opaque::cast_into(&raw const (*this.as_ptr()).core.inner);
                    // `queue` is the field, initialised above.
                    match *queue {
                        // Below the device's queue counts, so it fits a `c_int`. The
                        // config gets its ID at the instance's first enable.
                        Some(q) => bindings::netif_napi_add_config(
                            dev,
                            napi,
                            Some(Self::poll_callback),
                            q as c_int,
                        ),
                        // No queue, no busy polling, no ID: a plain instance would get a
                        // new one at each enable, out of order with the persistent ones.
                        None => {
                            bindings::netif_napi_add_tx(dev, napi, Some(Self::poll_callback))
                        }
                    }
                }
            },
        }? Error)
    }

    /// Creates the page pool of this instance for DMA by `parent`, bound to the instance
    /// (`page_pool_params.napi`): pages freed in its softirq go back to the pool's lockless
    /// cache.
    ///
    /// # Safety
    ///
    /// The caller must have exclusive access to the instance (never enabled: its device not
    /// registered yet and its ID not yet assigned by [`Napi::assign_id`]),
    /// and the instance must be dropped before `parent` is unbound.
    #[cfg(CONFIG_PAGE_POOL)]
    #[inline]
    pub unsafe fn create_pool(
        &self,
        parent: &device::Device<device::Bound>,
        params: &page_pool::Params,
    ) -> Result {
        // SAFETY: The pool is bound to `inner`, which outlives it: our `PinnedDrop` destroys
        // the pool before it deletes the instance, while the instance is disabled; and it is
        // destroyed before `parent` is unbound (both safety requirements).
        let pool = unsafe { page_pool::PagePool::new_for_napi(parent, params, self.raw()) }?;
        let rxq = match self.queue {
            Some(q) => {
                // SAFETY: `inner` is added, so its `dev` is the device, which outlives its
                // instances; `q` is below its RX queue count (type invariant). The info is
                // dropped before the pool (`PinnedDrop`).
                let init = unsafe { RxQueue::new((*self.raw()).dev, q, &pool) };
                Some(KBox::pin_init(init, GFP_KERNEL)?)
            }
            None => None,
        };
        // SAFETY: Exclusive access (safety requirement).
        unsafe {
            *self.pool.get() = Some(pool);
            *self.xdp.get() = rxq;
        }
        Ok(())
    }

    /// Makes this instance's page pool cut its pages as `layout` says from now on (see
    /// [`page_pool::PagePool::set_layout`]); does nothing for an instance without a pool.
    /// Fails with `EBUSY` if the instance is enabled: the pool is its poll's, and only while
    /// no poll can run may another context use it. It borrows the RTNL token mutably, as
    /// [`Napi::with_state`] does.
    #[cfg(CONFIG_PAGE_POOL)]
    #[inline]
    pub fn set_pool_layout(&self, _rtnl: &mut Rtnl, layout: page_pool::Layout) -> Result {
        // SAFETY: RTNL is held (`_rtnl`), which serialises every access to `enabled`.
        if unsafe { *self.core.enabled.get() } {
            return Err(EBUSY);
        }
        // SAFETY: `pool` is only written before the device is registered (type invariant).
        // The pool is not `Sync`: no other context uses it now, since its poll does not run
        // (the instance is disabled, and cannot be enabled while we hold the RTNL token
        // mutably) and `with_state` closures, its other users, need that token too.
        if let Some(pool) = unsafe { &*self.pool.get() } {
            pool.set_layout(layout);
        }
        Ok(())
    }

    /// Adds the counters of this instance's page pool to `stats`.
    #[cfg(CONFIG_PAGE_POOL_STATS)]
    #[inline]
    pub fn pool_stats(&self, stats: &mut page_pool::Stats) {
        // SAFETY: `pool` is only written before the device is registered (type invariant); the
        // `Option` is not changed after that. `add_stats` reads only the C pool's counters,
        // racy by design, never the layout that `set_pool_layout` writes (type invariant).
        if let Some(pool) = unsafe { &*self.pool.get() } {
            pool.add_stats(stats);
        }
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
    ///
    /// Instances may be enabled in any order: those with a queue got their NAPI IDs in the
    /// order they were added, at registration (`Napi::assign_id`).
    #[inline]
    pub fn enable(&self, _rtnl: &Rtnl) {
        // SAFETY: RTNL is held (`_rtnl`), which serialises every access to `enabled`.
        let en = unsafe { &mut *self.core.enabled.get() };
        if !*en {
            // SAFETY: `inner` is added (type invariant) and disabled (`enabled` is false).
            unsafe { bindings::napi_enable(self.raw()) };
            *en = true;
            // SAFETY: RTNL is held, which `netif_queue_set_napi` needs for a device without
            // instance-locked ops; the instance is enabled.
            unsafe { self.link_queues(true) };
        }
    }

    /// Gives an instance with a queue its NAPI ID, by enabling and disabling it: the ID is
    /// kept in the device's persistent config of its queue from then on. The device's NAPI
    /// list is sorted by the IDs its instances had when they were added (none yet, here), and
    /// the netlink `napi-get` dump needs it sorted: instances must get their IDs in the order
    /// they were added, which the registration does by calling this for each in turn, before
    /// any driver code can enable one.
    ///
    /// The instance may be polled before the disable returns (a busy poller that guessed the
    /// ID): the poll runs on the instance's own, valid state.
    ///
    /// # Safety
    ///
    /// The device must be unregistered with its private data initialised, and RTNL need not
    /// be held: nothing else can enable or disable the instance (no callback runs yet).
    #[inline]
    pub unsafe fn assign_id(&self) {
        if self.queue.is_none() {
            return;
        }
        // SAFETY: `inner` is added (type invariant) and disabled: only callbacks of the
        // registered device enable instances (safety requirement). A poll in between finds
        // the private data initialised (safety requirement), and the disable waits for it.
        unsafe {
            bindings::napi_enable(self.raw());
            bindings::napi_disable(self.raw());
        }
    }

    /// Points the RX and TX queue of `queue` at this instance, or at nothing.
    ///
    /// # Safety
    ///
    /// RTNL must be held or the device unregistered; with `on`, the instance must stay enabled
    /// until this is called again without.
    #[inline]
    unsafe fn link_queues(&self, on: bool) {
        let Some(q) = self.queue else { return };
        let napi = if on {
            self.raw()
        } else {
            core::ptr::null_mut()
        };
        // SAFETY: `inner` is added, so its `dev` is the device, still allocated (it outlives
        // its instances).
        let dev = unsafe { (*self.raw()).dev };
        // SAFETY: `q` is below both queue counts of `dev` (type invariant); locking per the
        // safety requirements; `napi` is NULL or an added instance of `dev`.
        unsafe {
            bindings::netif_queue_set_napi(
                dev,
                q,
                bindings::netdev_queue_type_NETDEV_QUEUE_TYPE_RX,
                napi,
            );
            bindings::netif_queue_set_napi(
                dev,
                q,
                bindings::netdev_queue_type_NETDEV_QUEUE_TYPE_TX,
                napi,
            );
        }
    }

    /// The queue pair of this instance.
    #[inline]
    pub fn queue(&self) -> Option<u32> {
        self.queue
    }

    /// Index of the interrupt line that schedules this instance.
    #[inline]
    pub fn irq_line(&self) -> Option<u32> {
        self.irq_line
    }

    /// Records the interrupt number that schedules this instance of a registered device, or
    /// none (-1), for netdev netlink (`netif_napi_set_irq()`, which takes the device's
    /// instance lock).
    ///
    /// # Safety
    ///
    /// `irq` must be requested for the device (or -1). Process context, without the device's
    /// instance lock held.
    #[inline]
    pub unsafe fn set_irq(&self, irq: c_int) {
        // SAFETY: `inner` is added; the helper takes the instance lock the caller does not hold.
        unsafe { bindings::netif_napi_set_irq(self.raw(), irq) };
    }

    /// Disables polling, waiting for a running poll to finish. Idempotent.
    #[inline]
    pub fn disable(&self, _rtnl: &Rtnl) {
        // SAFETY: RTNL is held (`_rtnl`), which serialises every access to `enabled`.
        let en = unsafe { &mut *self.core.enabled.get() };
        if *en {
            // SAFETY: RTNL is held (`_rtnl`).
            unsafe { self.link_queues(false) };
            // SAFETY: `inner` is added and enabled; only one disable runs at a time (RTNL).
            unsafe { bindings::napi_disable(self.raw()) };
            *en = false;
        }
    }

    /// Whether polling is enabled.
    #[inline]
    pub fn is_enabled(&self, _rtnl: &Rtnl) -> bool {
        // SAFETY: RTNL is held (`_rtnl`), which serialises every access to `enabled`.
        unsafe { *self.core.enabled.get() }
    }

    /// Runs `f` on the poll state while polling is disabled (e.g. to fill or drain rings from
    /// `open`/`stop`). Fails with `EBUSY` if the instance is enabled.
    ///
    /// It borrows the RTNL token mutably: `f` cannot enable this (or any) instance, so polling
    /// stays disabled for as long as `f` holds the state.
    #[inline]
    pub fn with_state<R>(
        &self,
        _rtnl: &mut Rtnl,
        f: impl FnOnce(&P, &mut P::State, Option<&RxPool<'_>>) -> R,
    ) -> Result<R> {
        // SAFETY: RTNL is held (`_rtnl`), which serialises every access to `enabled`.
        if unsafe { *self.core.enabled.get() } {
            return Err(EBUSY);
        }
        // SAFETY: The instance is disabled, so no poll runs (netpoll cannot claim a disabled
        // instance either: `napi_disable()` set its `NPSVC` bit). It cannot be enabled while
        // `f` runs: that needs `&Rtnl`, and the only token in reach is borrowed mutably here.
        // Other `with_state` callers need the same token. The reference does not escape `f`.
        let state = unsafe { &mut *self.state.get() };
        // SAFETY: As for `state`: no poll runs; process context has the pool alone.
        let pool = unsafe { &*self.pool.get() };
        Ok(f(&self.data, state, pool.as_ref()))
    }

    /// Runs `f` on the poll's transmit state while polling is disabled (e.g. to install or
    /// drain a TX ring from `open`/`stop`). Fails with `EBUSY` if the instance is enabled.
    /// It borrows the RTNL token mutably, as [`Napi::with_state`] does.
    #[inline]
    pub fn with_tx_state<R>(
        &self,
        _rtnl: &mut Rtnl,
        f: impl FnOnce(&mut P::TxState) -> R,
    ) -> Result<R> {
        // SAFETY: RTNL is held (`_rtnl`), which serialises every access to `enabled`.
        if unsafe { *self.core.enabled.get() } {
            return Err(EBUSY);
        }
        // SAFETY: As in `with_state`: no poll runs, netpoll's included (`NPSVC` is set), none
        // can start while `f` runs, and the reference does not escape `f`.
        Ok(f(unsafe { &mut *self.tx_state.get() }))
    }

    /// Whether the core has bound an AF_XDP pool in zero-copy mode to this instance's queue
    /// (a socket bound with `XDP_ZEROCOPY`, or one that did not ask for copy mode).
    #[cfg(CONFIG_XDP_SOCKETS)]
    #[inline]
    pub fn xsk_bound(&self, _rtnl: &Rtnl) -> bool {
        // SAFETY: RTNL is held (`_rtnl`), which serialises every access to `xsk_pool`.
        unsafe { (*self.core.xsk_pool.get()).is_some() }
    }

    /// Attaches the AF_XDP pool bound to this instance's queue, if there is one, with `slots`
    /// parking places for its buffers (one per descriptor of the RX ring): from the next
    /// enable the poll finds it in [`Rx::xsk`]. A previous attachment is dropped first, its
    /// parked buffers back to their pool. Returns whether a pool is attached; fails with
    /// `EBUSY` while the instance is enabled, as [`Napi::with_state`] does.
    #[cfg(CONFIG_XDP_SOCKETS)]
    pub fn attach_xsk(&self, _rtnl: &mut Rtnl, slots: u32) -> Result<bool> {
        // SAFETY: RTNL is held (`_rtnl`), which serialises every access to `enabled`.
        if unsafe { *self.core.enabled.get() } {
            return Err(EBUSY);
        }
        // SAFETY: Disabled, with the RTNL token borrowed mutably: no poll runs or can start
        // (as in `with_state`), and RTNL guards `xsk_pool`.
        let (xsk, bound) = unsafe { (&mut *self.core.xsk.get(), *self.core.xsk_pool.get()) };
        *xsk = None;
        let (Some(pool), Some(q)) = (bound, self.queue) else {
            return Ok(false);
        };
        // SAFETY: `inner` is added, so its `dev` is the device, and its NAPI ID is assigned.
        let (dev, id) = unsafe { ((*self.raw()).dev, (*self.raw()).napi_id) };
        // SAFETY: `pool` is bound to queue `q` of `dev` in zero-copy mode and mapped for DMA
        // by its parent until the unbind, before which `xsk_release` drops what is attached
        // (`NapiCore` invariant); `q` is below the device's RX queue count (type invariant);
        // the instance, which holds the result, is dropped before the device is freed. The
        // previous binding was dropped above.
        *xsk = Some(unsafe { xsk::Rx::new(pool, dev, q, id, slots) }?);
        Ok(true)
    }

    /// Drops the attached AF_XDP pool, if any: its parked buffers go back to it, and the poll
    /// gets `None` in [`Rx::xsk`] from the next enable. Fails with `EBUSY` while the instance
    /// is enabled.
    #[cfg(CONFIG_XDP_SOCKETS)]
    pub fn detach_xsk(&self, _rtnl: &mut Rtnl) -> Result {
        // SAFETY: RTNL is held (`_rtnl`), which serialises every access to `enabled`.
        if unsafe { *self.core.enabled.get() } {
            return Err(EBUSY);
        }
        // SAFETY: Disabled, with the RTNL token borrowed mutably, as in `attach_xsk`.
        unsafe { *self.core.xsk.get() = None };
        Ok(())
    }

    /// Runs `f` on the poll state and the attached AF_XDP pool, if any, while polling is
    /// disabled (to fill the ring from the pool). Fails with `EBUSY` if the instance is
    /// enabled, as [`Napi::with_state`] does.
    #[cfg(CONFIG_XDP_SOCKETS)]
    #[inline]
    pub fn with_xsk<R>(
        &self,
        _rtnl: &mut Rtnl,
        f: impl FnOnce(&P, &mut P::State, Option<&XskRx>) -> R,
    ) -> Result<R> {
        // SAFETY: RTNL is held (`_rtnl`), which serialises every access to `enabled`.
        if unsafe { *self.core.enabled.get() } {
            return Err(EBUSY);
        }
        // SAFETY: As in `with_state`: no poll runs or can start while `f` runs, and the
        // references do not escape `f`; `xsk` is only changed under the same token.
        let (state, xsk) = unsafe { (&mut *self.state.get(), &*self.core.xsk.get()) };
        Ok(f(&self.data, state, xsk.as_ref()))
    }

    /// # Safety
    ///
    /// Called by the NAPI core only, for an instance added by [`Napi::new`].
    unsafe extern "C" fn poll_callback(napi: *mut bindings::napi_struct, budget: c_int) -> c_int {
        // SAFETY: `napi` is `core.inner` of a pinned `Napi<P>` (`NapiCore` is the first field of
        // the `repr(C)` `Napi<P>` and `inner` the first of `NapiCore`), alive while on the list.
        let this = unsafe { &*napi.cast::<Self>() };
        // SAFETY: `napi->dev` is the net_device of `P::Owner` the instance was added to, with its
        // private data initialised: polls only happen between a `napi_enable` after the data
        // was initialised (in a callback of the registered device, or in `assign_id`) and the
        // `napi_disable` that `Registration` does before it drops the data.
        let dev = unsafe { P::Owner::device((*napi).dev) };
        let budget = u32::try_from(budget).unwrap_or(0);
        // INVARIANT: we are the poll of `napi`, with the budget the core passed.
        let ctx = NapiContext {
            napi,
            budget,
            redirected: Cell::new(false),
            _brand: PhantomData,
            _not_send: PhantomData,
        };
        // The core runs one softirq or busy poll of an instance at a time (the SCHED bit), and
        // netpoll (budget 0) claims `poll_owner` before it polls, which a softirq poll also
        // holds, but only if netpoll was set up when it started: a poll that started before
        // could overlap netpoll's. `tx_claimed` closes that window. Netpoll only tries it (it
        // may have interrupted the holder on this CPU) and skips the poll if it is taken; any
        // other poll waits for it, which only a netpoll poll on another CPU, with interrupts
        // off, can hold, briefly.
        if budget == 0 {
            if this.tx_claimed.xchg(1, Acquire) != 0 {
                return 0;
            }
        } else {
            while this.tx_claimed.xchg(1, Acquire) != 0 {
                crate::processor::cpu_relax();
            }
        }
        // SAFETY: We claimed `tx_claimed`, which every poll claims before it touches
        // `tx_state`; `with_tx_state` only runs while the instance is disabled (type
        // invariant), when no poll runs (netpoll skips an instance being disabled: `NPSVC`).
        // So this is the only reference to `tx_state`, until the release below.
        let tx = unsafe { &mut *this.tx_state.get() };
        let rx = NonZeroU32::new(budget).map(|budget| {
            // SAFETY: As for `tx_state`, and `with_state` only runs while the instance is
            // disabled too, so these are the only references to `state` and `pool`. Netpoll
            // (budget 0) never gets here.
            let (state, pool, rxq, xsk) = unsafe {
                (
                    &mut *this.state.get(),
                    &*this.pool.get(),
                    &*this.xdp.get(),
                    &*this.core.xsk.get(),
                )
            };
            // INVARIANT: a non-zero budget, so the core polls from softirq.
            Rx {
                state,
                ctx: RxContext { ctx: &ctx, budget },
                pool: pool.as_ref(),
                xdp: rxq.as_deref(),
                xsk: xsk.as_ref(),
            }
        });
        let done = this.data.poll(dev, &ctx, tx, rx).min(budget);
        // The driver is done with `tx_state`.
        this.tx_claimed.store(0, Release);
        if ctx.redirected.get() {
            // SAFETY: The poll that redirected runs on this CPU with bottom halves disabled,
            // which is where the per-CPU redirect queues are flushed; before completion.
            unsafe { bindings::xdp_do_flush() };
        }
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
            // SAFETY: Only the registration drops instances, after unregistering the device.
            unsafe { self.link_queues(false) };
            // SAFETY: `inner` is added and enabled.
            unsafe { bindings::napi_disable(self.raw()) };
        }
        // The pool goes first: it is bound to the instance and must not race its poll. The
        // XDP info registered with it goes before it. An AF_XDP binding is gone already: the
        // core unbinds every pool of a device when it unregisters it.
        // SAFETY: `&mut self` excludes every other access; the instance is disabled.
        unsafe {
            drop((*self.core.xsk.get()).take());
            drop((*self.xdp.get()).take());
            drop((*self.pool.get()).take());
        }
        // SAFETY: `inner` was added by `new` (an initialised `Napi` always is) and its
        // net_device is still allocated: only `Registration` makes instances, and it drops
        // them before it frees the device.
        unsafe { bindings::netif_napi_del(self.raw()) };
    }
}

impl<P: Poll> Napi<P> {
    /// Disables the instance if it is enabled, without the RTNL token.
    ///
    /// # Safety
    ///
    /// The caller must have exclusive access to `enabled`: the device is unregistered, so no
    /// callback that could hold an `Rtnl` token for it runs any more.
    #[inline]
    pub unsafe fn disable_unregistered(&self) {
        // SAFETY: Exclusive access to `enabled` per the safety requirements.
        let en = unsafe { &mut *self.core.enabled.get() };
        if *en {
            // SAFETY: The device is unregistered (safety requirement).
            unsafe { self.link_queues(false) };
            // SAFETY: The instance is added and enabled.
            unsafe { bindings::napi_disable(self.raw()) };
            *en = false;
        }
    }
}

/// The instance of `dev` whose queue is `queue`, if any.
///
/// # Safety
///
/// `dev` must be a net_device of the netdev registration, whose NAPI instances are all
/// `Napi`s (it makes them, before it registers the device, and deletes them only after
/// `unregister_netdev()` returned, which waits for the references AF_XDP pools hold: so an
/// unbind that comes while it unregisters still finds them), with RTNL held.
#[cfg(CONFIG_XDP_SOCKETS)]
unsafe fn core_of_queue<'a>(dev: *mut bindings::net_device, queue: u32) -> Option<&'a NapiCore> {
    // SAFETY: `dev` is live (safety requirement); its NAPI list does not change meanwhile (its
    // instances are added before it is registered and deleted after it is unregistered).
    let head = unsafe { &raw mut (*dev).napi_list };
    // SAFETY: As above: the list is initialised and stable.
    let mut p = unsafe { (*head).next };
    while p != head {
        // SAFETY: `p` is the `dev_list` link of an instance on the list.
        let napi = unsafe { p.byte_sub(core::mem::offset_of!(bindings::napi_struct, dev_list)) }
            .cast::<bindings::napi_struct>();
        // SAFETY: A live instance; `index` is set when it is added (-1 without a queue).
        if u32::try_from(unsafe { (*napi).index }) == Ok(queue) {
            // SAFETY: Every instance of `dev` is `core.inner` of a `Napi` (safety requirement),
            // and `NapiCore` starts with `inner` (`repr(C)`), and the `Napi` with `core`; it
            // lives while on the list.
            return Some(unsafe { &*napi.cast::<NapiCore>() });
        }
        // SAFETY: As above.
        p = unsafe { (*p).next };
    }
    None
}

/// Records that the core bound `pool` in zero-copy mode to queue `queue` of `dev`, for the
/// instance of that queue to attach ([`Napi::attach_xsk`]). `EINVAL` if no instance has the
/// queue, `EBUSY` if one is bound already.
///
/// # Safety
///
/// As for [`core_of_queue`]; `pool` must be bound to that queue and mapped for DMA by the
/// device's parent until [`xsk_forget`] and then [`xsk_release`] are called for it, which
/// must be before the unbind command returns.
#[cfg(CONFIG_XDP_SOCKETS)]
pub unsafe fn xsk_bind(
    dev: *mut bindings::net_device,
    queue: u32,
    pool: NonNull<bindings::xsk_buff_pool>,
) -> Result {
    // SAFETY: Per the safety requirements.
    let core = unsafe { core_of_queue(dev, queue) }.ok_or(EINVAL)?;
    // SAFETY: RTNL is held (safety requirement), which serialises every access to `xsk_pool`.
    let bound = unsafe { &mut *core.xsk_pool.get() };
    if bound.is_some() {
        return Err(EBUSY);
    }
    // INVARIANT: bound and mapped until `xsk_release` (safety requirement).
    *bound = Some(pool);
    Ok(())
}

/// Forgets the pool recorded for queue `queue` of `dev` ([`xsk_bind`]), which the core is
/// unbinding, and returns it: from now on the instance of the queue does not attach it. What
/// the instance has attached stays until [`xsk_release`].
///
/// # Safety
///
/// As for [`core_of_queue`].
#[cfg(CONFIG_XDP_SOCKETS)]
pub unsafe fn xsk_forget(
    dev: *mut bindings::net_device,
    queue: u32,
) -> Option<NonNull<bindings::xsk_buff_pool>> {
    // SAFETY: Per the safety requirements.
    let core = unsafe { core_of_queue(dev, queue) }?;
    // SAFETY: RTNL is held (safety requirement), which serialises every access to `xsk_pool`.
    unsafe { (*core.xsk_pool.get()).take() }
}

/// Drops what the instance of queue `queue` of `dev` has attached of `pool`, after its driver
/// was told to stop using it, whatever the driver did. An instance left enabled with the
/// pool attached is disabled for the drop and enabled again, with a warning: its device may
/// still write to the buffers that were parked, which only the driver can stop.
///
/// # Safety
///
/// As for [`core_of_queue`]; `pool` must still be bound and mapped, and [`xsk_forget`] must
/// have been called for it.
#[cfg(CONFIG_XDP_SOCKETS)]
pub unsafe fn xsk_release(
    dev: *mut bindings::net_device,
    queue: u32,
    pool: NonNull<bindings::xsk_buff_pool>,
) {
    // SAFETY: Per the safety requirements.
    let Some(core) = (unsafe { core_of_queue(dev, queue) }) else {
        return;
    };
    // SAFETY: RTNL is held (safety requirement). `xsk` itself is only written under RTNL with
    // the instance disabled, so reading it under RTNL does not race a write; a poll running
    // meanwhile only changes the parking places inside the binding (its `Cell`s), which this
    // does not read.
    let (enabled, attached) = unsafe {
        (
            *core.enabled.get(),
            (*core.xsk.get()).as_ref().is_some_and(|x| x.pool() == pool),
        )
    };
    if !attached {
        return;
    }
    crate::pr_warn!("AF_XDP pool still attached to queue {queue} after its driver let go\n");
    if enabled {
        // SAFETY: `inner` is added and enabled; RTNL serialises disables. No poll runs once
        // it returns, so the binding is ours to drop; the instance is enabled again below.
        unsafe { bindings::napi_disable(core.inner.get()) };
    }
    // SAFETY: No poll runs (disabled, here or by its driver) and RTNL is held. The pool is
    // still bound and mapped (safety requirement), so its buffers can be given back.
    unsafe { *core.xsk.get() = None };
    if enabled {
        // SAFETY: Disabled above.
        unsafe { bindings::napi_enable(core.inner.get()) };
    }
}

/// Headroom XDP programs may grow the frame into (`XDP_PACKET_HEADROOM`): programs run only
/// on buffers of a page pool whose offset is at least this.
pub const PACKET_HEADROOM: u32 = bindings::XDP_PACKET_HEADROOM;

/// The XDP receive queue info of one RX queue (`struct xdp_rxq_info`), registered with the
/// page pool of the NAPI instance that polls the queue as its memory model.
///
/// Only [`Napi`] makes one, and hands it to its poll. What XDP does with it (running
/// programs on the queue's frames) is in the XDP module, which builds on this one.
///
/// # Invariants
///
/// `inner` is registered (`__xdp_rxq_info_reg()`) for a net_device and queue, with a fragment
/// size of `PAGE_SIZE` and the `MEM_TYPE_PAGE_POOL` memory model of a pool; it is unregistered
/// on drop, while the pool is still alive. Programs run only on buffers that are whole pages
/// (the XDP module checks each: the fragment size lets a program grow a fragment up to the
/// end of its page).
#[cfg(CONFIG_PAGE_POOL)]
#[pin_data(PinnedDrop)]
pub struct RxQueue {
    #[pin]
    inner: Opaque<bindings::xdp_rxq_info>,
}

/// The XDP receive queue info of one RX queue (an uninhabited stand-in: no
/// `CONFIG_PAGE_POOL`, so no pool to register it with).
#[cfg(not(CONFIG_PAGE_POOL))]
pub enum RxQueue {}

// SAFETY: After registration the info is only read (by XDP programs and frame conversion).
#[cfg(CONFIG_PAGE_POOL)]
unsafe impl Sync for RxQueue {}
// SAFETY: Unregistering works from any thread.
#[cfg(CONFIG_PAGE_POOL)]
unsafe impl Send for RxQueue {}

#[cfg(CONFIG_PAGE_POOL)]
impl RxQueue {
    /// Registers the info of RX queue `queue` of `dev` with `pool`'s memory model.
    ///
    /// # Safety
    ///
    /// `dev` must be a live net_device with at least `queue + 1` RX queues, allocated for as
    /// long as the result lives; `pool` must outlive the result.
    pub unsafe fn new(
        dev: *mut bindings::net_device,
        queue: u32,
        pool: &page_pool::PagePool<'_>,
    ) -> impl PinInit<Self, Error> {
        let raw_pool = pool.as_raw();
        let init = move |slot: *mut Self| {
            // SAFETY: `slot` points to storage for `Self` (the closure's contract).
            let rxq = Opaque::cast_into(unsafe { &raw const (*slot).inner });
            // `xdp_rxq_info_reg` reads the registration state before it clears the info: it
            // must start zeroed (never registered).
            // SAFETY: `rxq` is valid for writes of one info (the closure's contract).
            unsafe { rxq.write_bytes(0, 1) };
            // SAFETY: `rxq` is a zeroed info; `dev` is live with that queue (safety
            // requirement). The fragment size lets programs grow the last fragment of a frame
            // up to the end of its page, which is the frame's.
            crate::error::to_result(unsafe {
                bindings::__xdp_rxq_info_reg(rxq, dev, queue, 0, page_pool::PAGE_SIZE)
            })?;
            // SAFETY: `rxq` was registered just above; `raw_pool` is a live pool.
            let r = crate::error::to_result(unsafe {
                bindings::xdp_rxq_info_reg_mem_model(
                    rxq,
                    bindings::xdp_mem_type_MEM_TYPE_PAGE_POOL,
                    raw_pool.cast(),
                )
            });
            if let Err(e) = r {
                // SAFETY: Registered above, without a memory model.
                unsafe { bindings::xdp_rxq_info_unreg(rxq) };
                return Err(e);
            }
            // INVARIANT: registered with the pool's memory model.
            Ok(())
        };
        // SAFETY: `init` initialises `slot` completely on success (the info is the only
        // field) and leaves nothing registered on failure; the info does not move once
        // registered (pinned).
        unsafe { pin_init::pin_init_from_closure(init) }
    }

    /// The registered `xdp_rxq_info`, for the C functions that take it.
    #[inline]
    pub fn raw(&self) -> *mut bindings::xdp_rxq_info {
        self.inner.get()
    }
}

#[cfg(CONFIG_PAGE_POOL)]
#[pinned_drop]
impl PinnedDrop for RxQueue {
    #[inline]
    fn drop(self: Pin<&mut Self>) {
        // SAFETY: Registered (type invariant) and unregistered only here; the pool is still
        // alive (type invariant), and unregistering drops the reference the memory model took
        // on it.
        unsafe { bindings::xdp_rxq_info_unreg(self.raw()) };
    }
}
