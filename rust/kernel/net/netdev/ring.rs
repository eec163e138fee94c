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
//! makes a ring and returns its two handles.

use crate::{
    alloc::{Flags, KVVec},
    prelude::*,
    sync::{
        atomic::{Acquire, Atomic, Relaxed, Release},
        Arc,
    },
};
use core::cell::UnsafeCell;

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
    #[inline]
    pub fn size(&self) -> u32 {
        self.size
    }

    /// The data both sides read.
    #[inline]
    pub fn shared(&self) -> &S {
        &self.shared
    }

    /// How many slots the consumer holds, as a snapshot either side may change right after
    /// (e.g. for a watchdog).
    #[inline]
    pub fn pending(&self) -> u32 {
        self.wrap(self.head.load(Relaxed) + self.size - self.tail.load(Relaxed))
    }

    /// `i` modulo `size`, for `i < 2 * size`.
    #[inline(always)]
    fn wrap(&self, i: u32) -> u32 {
        if i >= self.size {
            i - self.size
        } else {
            i
        }
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
    #[inline]
    pub fn ring(&self) -> &Ring<T, S> {
        &self.ring
    }

    /// Index of the first slot not yet published.
    #[inline]
    pub fn head(&self) -> u32 {
        self.ring.head.load(Relaxed)
    }

    /// How many slots from the head on the producer may fill and publish: all that the
    /// consumer does not hold, but one.
    #[inline]
    pub fn free(&self) -> u32 {
        let r = &*self.ring;
        // Acquire: pairs with the consumer's release of these slots, which it no longer
        // touches.
        let tail = r.tail.load(Acquire);
        let head = r.head.load(Relaxed);
        // Both below `size`: the sum is below `2 * size` and does not underflow.
        r.wrap(tail + r.size - head - 1)
    }

    /// The slot `k` places after the head, if it is among the [`free`](Self::free) ones, and
    /// the shared data.
    #[inline]
    pub fn slot_mut(&mut self, k: u32) -> Option<(&mut T, &S)> {
        if k >= self.free() {
            return None;
        }
        let r = &*self.ring;
        // `head < size` and `k < size`.
        let i = r.wrap(r.head.load(Relaxed) + k);
        // SAFETY: `i < size`. Slot `i` is among the free ones, which lie outside the
        // consumer's range (it can only shrink that range meanwhile), so it is the producer's,
        // which is `self` (type invariant), borrowed mutably for the result: only the owner
        // accesses a slot, so no other reference to it exists.
        Some((unsafe { &mut *r.slot(i) }, &r.shared))
    }

    /// Hands the `n` slots from the head on to the consumer. Returns false, handing over
    /// nothing, if fewer than `n` are [`free`](Self::free).
    #[inline]
    pub fn publish(&mut self, n: u32) -> bool {
        if n > self.free() {
            return false;
        }
        let r = &*self.ring;
        // `n < size`, so the new head is the sum modulo `size`. Release: everything written
        // to those slots is visible to a consumer that sees the new head.
        r.head.store(r.wrap(r.head.load(Relaxed) + n), Release);
        true
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
    #[inline]
    pub fn ring(&self) -> &Ring<T, S> {
        &self.ring
    }

    /// Index of the first slot the consumer holds (if it holds any).
    #[inline]
    pub fn tail(&self) -> u32 {
        self.ring.tail.load(Relaxed)
    }

    /// How many slots from the tail on the producer has published.
    #[inline]
    pub fn pending(&self) -> u32 {
        let r = &*self.ring;
        // Acquire: pairs with the producer's publishing store, after which it no longer
        // touches these slots.
        let head = r.head.load(Acquire);
        let tail = r.tail.load(Relaxed);
        r.wrap(head + r.size - tail)
    }

    /// The slot `k` places after the tail, if it is among the [`pending`](Self::pending) ones,
    /// and the shared data.
    #[inline]
    pub fn slot_mut(&mut self, k: u32) -> Option<(&mut T, &S)> {
        if k >= self.pending() {
            return None;
        }
        let r = &*self.ring;
        let i = r.wrap(r.tail.load(Relaxed) + k);
        // SAFETY: `i < size`. Slot `i` lies in `tail..head`, which only the consumer, `self`
        // (type invariant), borrowed mutably for the result, can shrink: it is the consumer's,
        // and only the owner accesses a slot, so no other reference to it exists.
        Some((unsafe { &mut *r.slot(i) }, &r.shared))
    }

    /// Gives the `n` slots from the tail on back to the producer. Returns false, giving back
    /// nothing, if fewer than `n` are [`pending`](Self::pending).
    #[inline]
    pub fn release(&mut self, n: u32) -> bool {
        if n > self.pending() {
            return false;
        }
        let r = &*self.ring;
        // `n < size`. Release: the consumer is done with the slots before the producer sees
        // them as free.
        r.tail.store(r.wrap(r.tail.load(Relaxed) + n), Release);
        true
    }
}
