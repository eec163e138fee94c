// SPDX-License-Identifier: GPL-2.0

//! Rings of slots handed from one producer to one consumer, without a lock of their own.
//!
//! A transmit ring has two users that C drivers keep apart by convention: whoever sends
//! (`start_xmit`, `XDP_TX`, `ndo_xdp_xmit`) holds the queue's xmit lock, and the queue's NAPI
//! poll, of which one runs at a time, cleans. A [`Ring`] makes that convention a type: it has
//! exactly one [`Producer`] and one [`Consumer`], each kept where its user has exclusive
//! access (the producer in the queue's [`XmitData`](super::Operations::XmitData), the
//! consumer in the poll's state), and a slot moves from one to the other only with the index
//! that publishes it: the producer stores `head` with release ordering after filling the
//! slots before it, the consumer stores `tail` with release ordering after emptying the slots
//! before it, and each loads the other's index with acquire ordering before touching a slot.
//!
//! One slot always stays between `head` and `tail`, so that equal indices mean empty. [`pair`]
//! makes a ring and returns its two handles. Slots are reached through a view of those free
//! ([`Producer::free_slots`]) or pending ([`Consumer::pending_slots`]) when it is taken, which
//! reads the other side's index once and borrows the handle: a slot reference borrows the
//! view, so a slot cannot be touched once the view has published or released it.

use crate::{
    alloc::{Flags, KVVec},
    prelude::*,
    sync::{
        atomic::{Acquire, Atomic, Relaxed, Release},
        Arc,
    },
};
use core::{cell::UnsafeCell, marker::PhantomData};

/// The slots and the two indices a [`Producer`] and a [`Consumer`] share, and data `S` both
/// may read.
///
/// # Invariants
///
/// - `slots.len() == size as usize`, `2 <= size <= u32::MAX / 2`, and `head` and `tail` are
///   always below `size`.
/// - Exactly one [`Producer`] and one [`Consumer`] of the ring exist; only the producer stores
///   `head`, only the consumer stores `tail`.
/// - The slots from `tail` up to, not including, `head` (wrapping at `size`) are the
///   consumer's, all others the producer's; a slot is only accessed through its owner's
///   handle.
pub struct Ring<T, S> {
    slots: KVVec<UnsafeCell<T>>,
    size: u32,
    /// The first slot the producer has not published.
    head: Atomic<u32>,
    /// The first slot the consumer has not released.
    tail: Atomic<u32>,
    shared: S,
}

// SAFETY: A slot is accessed by one side at a time (type invariant), so the ring only hands
// `T` values from one thread to another, which `T: Send` allows; `S` is only shared.
unsafe impl<T: Send, S: Sync> Sync for Ring<T, S> {}

/// The filling side of a [`Ring`].
///
/// # Invariants
///
/// It is the only producer of `ring`.
pub struct Producer<T, S> {
    ring: Arc<Ring<T, S>>,
}

/// The emptying side of a [`Ring`].
///
/// # Invariants
///
/// It is the only consumer of `ring`.
pub struct Consumer<T, S> {
    ring: Arc<Ring<T, S>>,
}

/// Makes a ring of `size` slots, each initialised with `init`, with `shared` for both sides,
/// and returns its two handles. The ring starts empty: every slot is the producer's. Fails
/// with `EINVAL` for fewer than 2 or more than `u32::MAX / 2` slots.
pub fn pair<T, S>(
    size: u32,
    shared: S,
    mut init: impl FnMut() -> T,
    flags: Flags,
) -> Result<(Producer<T, S>, Consumer<T, S>)> {
    if !(2..=u32::MAX / 2).contains(&size) {
        return Err(EINVAL);
    }
    let mut slots = KVVec::with_capacity(size as usize, flags)?;
    for _ in 0..size {
        slots.push(UnsafeCell::new(init()), flags)?;
    }
    // INVARIANT: `size` slots, both indices 0; the two handles made below are the only
    // ones, and nothing else can make one.
    let ring = Arc::new(
        Ring {
            slots,
            size,
            head: Atomic::new(0),
            tail: Atomic::new(0),
            shared,
        },
        flags,
    )?;
    Ok((Producer { ring: ring.clone() }, Consumer { ring }))
}

impl<T, S> Ring<T, S> {
    /// Number of slots.
    #[inline(always)]
    pub fn size(&self) -> u32 {
        self.size
    }

    /// The data both sides read.
    #[inline(always)]
    pub fn shared(&self) -> &S {
        &self.shared
    }

    /// How many slots the consumer holds, as a snapshot either side may change right after
    /// (e.g. for a watchdog).
    #[inline(always)]
    pub fn pending(&self) -> u32 {
        self.pending_between(self.head.load(Relaxed), self.tail.load(Relaxed))
    }

    /// `i` modulo `size`, for `i < 2 * size`.
    #[inline(always)]
    fn wrap(&self, i: u32) -> u32 {
        if i >= self.size {
            i.wrapping_sub(self.size)
        } else {
            i
        }
    }

    /// How many slots from `head` on the producer may fill, given the consumer's `tail`: all
    /// that the consumer does not hold, but one.
    #[inline(always)]
    fn free_between(&self, head: u32, tail: u32) -> u32 {
        // Both below `size`: `tail + size - head - 1` is below `2 * size` and does not
        // underflow, so the wrapping operations compute it exactly.
        self.wrap(
            tail.wrapping_add(self.size)
                .wrapping_sub(head)
                .wrapping_sub(1),
        )
    }

    /// How many slots from `tail` on the producer has published, given its `head`.
    #[inline(always)]
    fn pending_between(&self, head: u32, tail: u32) -> u32 {
        // Both below `size`: exact, as in `free_between`.
        self.wrap(head.wrapping_add(self.size).wrapping_sub(tail))
    }

    /// Slot `i`.
    ///
    /// # Safety
    ///
    /// `i` must be below `size`.
    #[inline(always)]
    unsafe fn slot(&self, i: u32) -> *mut T {
        // SAFETY: `i < size == slots.len()` (safety requirement, type invariant).
        unsafe { self.slots.get_unchecked(i as usize) }.get()
    }
}

impl<T, S> Producer<T, S> {
    /// The ring, for what both sides may read.
    #[inline(always)]
    pub fn ring(&self) -> &Ring<T, S> {
        &self.ring
    }

    /// Index of the first slot not yet published.
    #[inline(always)]
    pub fn head(&self) -> u32 {
        self.ring.head.load(Relaxed)
    }

    /// How many slots from the head on the producer may fill and publish: all that the
    /// consumer does not hold, but one.
    #[inline(always)]
    pub fn free(&self) -> u32 {
        let r = &*self.ring;
        // Acquire: pairs with the consumer's release of these slots, which it no longer
        // touches.
        let tail = r.tail.load(Acquire);
        r.free_between(r.head.load(Relaxed), tail)
    }

    /// The [`free`](Self::free) slots as they are now, to fill and publish without reading
    /// the consumer's index again: the view borrows the producer, so there is one at a time.
    #[inline(always)]
    pub fn free_slots(&mut self) -> FreeSlots<'_, T, S> {
        let r = &*self.ring;
        let head = r.head.load(Relaxed);
        // Acquire: as in `free`.
        let len = r.free_between(head, r.tail.load(Acquire));
        // INVARIANT: the consumer can only release slots meanwhile, so these stay free.
        Slots {
            ring: r,
            start: head,
            len,
            _handle: PhantomData,
        }
    }

    /// Moves both indices back to slot 0, e.g. for a device that restarts its ring there.
    /// Only with the ring empty ([`Consumer::pending`] is 0) and with `consumer` being this
    /// ring's; fails with `EINVAL` otherwise. The slots keep their contents.
    pub fn reset(&mut self, consumer: &mut Consumer<T, S>) -> Result {
        if !Arc::ptr_eq(&self.ring, &consumer.ring) || consumer.pending() != 0 {
            return Err(EINVAL);
        }
        let r = &*self.ring;
        // INVARIANT: both handles are borrowed mutably, so neither side looks at the indices
        // while they move; equal indices keep every slot the producer's.
        r.tail.store(0, Relaxed);
        r.head.store(0, Relaxed);
        Ok(())
    }
}

impl<T, S> Consumer<T, S> {
    /// The ring, for what both sides may read.
    #[inline(always)]
    pub fn ring(&self) -> &Ring<T, S> {
        &self.ring
    }

    /// How many slots from the tail on the producer has published.
    #[inline(always)]
    pub fn pending(&self) -> u32 {
        let r = &*self.ring;
        // Acquire: pairs with the producer's publishing store, after which it no longer
        // touches these slots.
        let head = r.head.load(Acquire);
        r.pending_between(head, r.tail.load(Relaxed))
    }

    /// The [`pending`](Self::pending) slots as they are now, to empty and release without
    /// reading the producer's index again: the view borrows the consumer, so there is one at
    /// a time.
    #[inline(always)]
    pub fn pending_slots(&mut self) -> PendingSlots<'_, T, S> {
        let r = &*self.ring;
        // Acquire: as in `pending`.
        let head = r.head.load(Acquire);
        let tail = r.tail.load(Relaxed);
        // INVARIANT: the producer can only publish more meanwhile, so these stay pending.
        Slots {
            ring: r,
            start: tail,
            len: r.pending_between(head, tail),
            _handle: PhantomData,
        }
    }
}

mod private {
    /// Keeps [`Side`](super::Side) to this module. It tells which index a side moves, and
    /// nothing more: a method returning the index would let any code holding a `&Ring` (through
    /// [`Producer::ring`](super::Producer::ring)) store it, by naming `D::index` under a
    /// `D: Side` bound.
    pub trait Sealed {
        /// Whether the side is the producer's (it moves `head`) rather than the consumer's
        /// (`tail`).
        const PRODUCER: bool;
    }

    impl Sealed for super::Free {
        const PRODUCER: bool = true;
    }

    impl Sealed for super::Pending {
        const PRODUCER: bool = false;
    }
}

/// Which handle of a ring a [`Slots`] view belongs to: [`Free`] or [`Pending`].
pub trait Side: private::Sealed {}

/// The [`Producer`]'s slots: those it may fill and publish.
pub enum Free {}

/// The [`Consumer`]'s slots: those it may empty and release.
pub enum Pending {}

impl Side for Free {}
impl Side for Pending {}

/// The slots one handle of a ring holds, as it found them when the view was taken:
/// [`FreeSlots`] for the producer, [`PendingSlots`] for the consumer.
///
/// # Invariants
///
/// It borrows the ring's handle of side `D` mutably; `start` is the index that handle stores
/// (the head for [`Free`], the tail for [`Pending`]) and the `len` slots from there on are
/// that handle's (`len < size`).
pub struct Slots<'a, T, S, D: Side> {
    ring: &'a Ring<T, S>,
    start: u32,
    len: u32,
    _handle: PhantomData<(&'a mut Arc<Ring<T, S>>, D)>,
}

/// The slots a [`Producer`] may fill, as [`Producer::free_slots`] found them.
pub type FreeSlots<'a, T, S> = Slots<'a, T, S, Free>;

/// The slots a [`Consumer`] holds, as [`Consumer::pending_slots`] found them.
pub type PendingSlots<'a, T, S> = Slots<'a, T, S, Pending>;

impl<'a, T, S, D: Side> Slots<'a, T, S, D> {
    /// How many slots.
    #[inline(always)]
    pub fn len(&self) -> u32 {
        self.len
    }

    /// Whether there is none.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Number of slots in the ring.
    #[inline(always)]
    pub fn size(&self) -> u32 {
        self.ring.size
    }

    /// The data both sides read.
    #[inline(always)]
    pub fn shared(&self) -> &'a S {
        &self.ring.shared
    }

    /// Slot `k` of these, if `k` is below [`len`](Self::len).
    #[inline(always)]
    pub fn slot_mut(&mut self, k: u32) -> Option<&mut T> {
        if k >= self.len {
            return None;
        }
        let r = self.ring;
        // `start < size` and `k < len < size`.
        let i = r.wrap(self.start.wrapping_add(k));
        // SAFETY: `i < size`, and slot `i` is one of this side's (type invariant), whose
        // handle is borrowed mutably through `self` for the result: no other reference to it
        // exists.
        Some(unsafe { &mut *r.slot(i) })
    }

    /// The first of these, if there is one: [`slot_mut(0)`](Self::slot_mut) without the
    /// index arithmetic.
    #[inline(always)]
    pub fn first_mut(&mut self) -> Option<&mut T> {
        if self.len == 0 {
            return None;
        }
        // SAFETY: `start` is the index this side's handle stores (type invariant), below `size`
        // (`Ring` invariant), and with `len > 0` slot `start` is one of this side's (type
        // invariant); its handle is borrowed mutably through `self` for the result: no other
        // reference to it exists.
        Some(unsafe { &mut *self.ring.slot(self.start) })
    }

    /// Hands the first `n` of these to the other side; false, handing over nothing, if `n`
    /// is above `len`.
    #[inline(always)]
    fn hand_over(&mut self, n: u32) -> bool {
        if n > self.len {
            return false;
        }
        let r = self.ring;
        self.start = r.wrap(self.start.wrapping_add(n));
        self.len = self.len.wrapping_sub(n);
        // INVARIANT: the handle is borrowed, so `start` is its index again after the store.
        // Release: what this side did to those slots is visible to the other side once it
        // sees the new index.
        let index = if D::PRODUCER { &r.head } else { &r.tail };
        index.store(self.start, Release);
        true
    }
}

impl<'a, T, S> Slots<'a, T, S, Free> {
    /// Index of the first, the ring's head.
    #[inline(always)]
    pub fn head(&self) -> u32 {
        self.start
    }

    /// Hands the first `n` of these to the consumer; the rest stay free, from the new head on.
    /// Returns false, handing over nothing, if `n` is above [`len`](Self::len).
    #[inline(always)]
    pub fn publish(&mut self, n: u32) -> bool {
        self.hand_over(n)
    }
}

impl<'a, T, S> Slots<'a, T, S, Pending> {
    /// Index of the first, the ring's tail.
    #[inline(always)]
    pub fn tail(&self) -> u32 {
        self.start
    }

    /// Gives the first `n` of these back to the producer; the rest stay. Returns false,
    /// giving back nothing, if `n` is above [`len`](Self::len).
    #[inline(always)]
    pub fn release(&mut self, n: u32) -> bool {
        self.hand_over(n)
    }
}
