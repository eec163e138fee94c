// SPDX-License-Identifier: GPL-2.0

//! AF_XDP buffer pools (`struct xsk_buff_pool`): memory an AF_XDP socket bound in zero-copy
//! mode lends one queue of a device, for the device to receive into directly.
//!
//! The pool belongs to the socket; a queue only borrows it, from the core's command that
//! binds it (`ndo_bpf` with `XDP_SETUP_XSK_POOL`) to the command that unbinds it. The NAPI
//! module keeps the borrow in the instance of the queue: a driver never holds the pool
//! itself, so it cannot keep it past the unbind.
//!
//! - [`Rx`] is the binding, named for its receive side: the queue's `xdp_rxq_info` with the
//!   pool as its memory model, and one parking place per descriptor of the driver's ring,
//!   where the buffers the device owns wait. The binding owns what is parked and gives it
//!   back to the pool when it goes, so no buffer can outlive its pool. Its transmit side
//!   takes the frames the socket queued ([`Rx::tx_take`]) and counts them until the driver
//!   reports them sent ([`Rx::tx_completed`]); the ones never reported are completed when
//!   the binding goes, so the socket gets every buffer back.
//! - [`Buff`] is a received buffer, borrowed from the binding for one poll. It goes back to
//!   the pool when dropped; the XDP module runs programs on it and redirects it to the
//!   socket. It is never a page of a page pool, and never the data of an skb: a frame for the
//!   stack is copied ([`Buff::copy_to_skb`]). Its bytes are user memory, which user space
//!   may write at any time: no Rust reference is ever made to them.
//!
//! C header: [`include/net/xdp_sock_drv.h`](srctree/include/net/xdp_sock_drv.h).

use crate::{
    bindings, dma::DmaAddress, error::to_result, net::skb::SkBuff, prelude::*, types::Opaque,
};
use core::{cell::Cell, marker::PhantomData, ptr::NonNull};

/// The DMA attributes of a pool's mapping: the syncs are done per buffer, and the device
/// may order its writes as it likes (what is read is synced first).
const DMA_ATTRS: usize =
    (bindings::DMA_ATTR_SKIP_CPU_SYNC | bindings::DMA_ATTR_WEAK_ORDERING) as usize;

/// Maps the pages of `pool` for DMA by `dev` (`xsk_pool_dma_map()`).
///
/// # Safety
///
/// `pool` must be a live pool being bound to a queue of a device whose parent is `dev`,
/// bound to its driver; [`dma_unmap`] must be called before the pool is unbound.
pub unsafe fn dma_map(
    pool: NonNull<bindings::xsk_buff_pool>,
    dev: *mut bindings::device,
) -> Result {
    // SAFETY: Per the safety requirements.
    to_result(unsafe { bindings::xsk_pool_dma_map(pool.as_ptr(), dev, DMA_ATTRS) })
}

/// Unmaps what [`dma_map`] mapped (`xsk_pool_dma_unmap()`).
///
/// # Safety
///
/// `pool` must be mapped by [`dma_map`], and no buffer of it may be in use by the device or
/// parked in an [`Rx`].
pub unsafe fn dma_unmap(pool: NonNull<bindings::xsk_buff_pool>) {
    // SAFETY: Per the safety requirements.
    unsafe { bindings::xp_dma_unmap(pool.as_ptr(), DMA_ATTRS) };
}

/// The receive side of a queue's binding to an AF_XDP buffer pool in zero-copy mode.
///
/// Made and dropped by the NAPI module, with the instance of the queue disabled; its poll
/// borrows it.
///
/// # Invariants
///
/// - `rxq` is registered for a device and one of its RX queues with the memory model
///   `MEM_TYPE_XSK_BUFF_POOL`, and is the `xdp_rxq_info` of every buffer of `pool`
///   (`xsk_pool_set_rxq_info()`).
/// - `pool` is bound to that queue of that device in zero-copy mode and mapped for DMA by the
///   device's parent, for as long as `self` lives.
/// - Each non-null entry of `parked` is a buffer allocated from `pool` that `self` owns.
/// - `frame` is the pool's receive frame size: the room of every buffer after its headroom.
/// - `taking` is set while [`Rx::tx_take`] hands out a batch from the pool's descriptor array.
/// - `tx_out` counts the frames taken from the socket's transmit ring, whose place in the
///   completion ring is reserved, and not completed yet.
pub struct Rx {
    pool: NonNull<bindings::xsk_buff_pool>,
    rxq: KBox<Opaque<bindings::xdp_rxq_info>>,
    parked: KVec<Cell<*mut bindings::xdp_buff>>,
    frame: u32,
    tx_out: Cell<u32>,
    taking: Cell<bool>,
}

// SAFETY: The binding may be made and dropped on any thread; its poll, the only user meanwhile,
// is one context at a time (it is not `Sync`).
unsafe impl Send for Rx {}

impl Rx {
    /// Binds the receive side of queue `queue` of `dev` to `pool`, with `slots` parking places.
    ///
    /// # Safety
    ///
    /// `pool` must be bound to that queue in zero-copy mode and mapped for DMA by `dev`'s
    /// parent until the result is dropped; `dev` must have more than `queue` RX queues and
    /// outlive the result. The result must be dropped before another `Rx` is made for `pool`.
    pub unsafe fn new(
        pool: NonNull<bindings::xsk_buff_pool>,
        dev: *mut bindings::net_device,
        queue: u32,
        napi_id: u32,
        slots: u32,
    ) -> Result<Self> {
        let mut parked = KVec::with_capacity(slots as usize, GFP_KERNEL)?;
        for _ in 0..slots {
            parked.push(Cell::new(core::ptr::null_mut()), GFP_KERNEL)?;
        }
        // Zeroed: `xdp_rxq_info_reg` reads the registration state first.
        let rxq = KBox::new(Opaque::<bindings::xdp_rxq_info>::zeroed(), GFP_KERNEL)?;
        // SAFETY: `rxq` is a zeroed info that does not move (boxed); `dev` is live with that
        // queue (safety requirement). A fragment size of 0: programs cannot grow fragments.
        to_result(unsafe { bindings::__xdp_rxq_info_reg(rxq.get(), dev, queue, napi_id, 0) })?;
        // SAFETY: Registered just above; this memory model takes no allocator.
        let r = to_result(unsafe {
            bindings::xdp_rxq_info_reg_mem_model(
                rxq.get(),
                bindings::xdp_mem_type_MEM_TYPE_XSK_BUFF_POOL,
                core::ptr::null_mut(),
            )
        });
        if let Err(e) = r {
            // SAFETY: Registered above, without a memory model.
            unsafe { bindings::xdp_rxq_info_unreg(rxq.get()) };
            return Err(e);
        }
        // SAFETY: `pool` is live (safety requirement); its buffers point at `rxq`, which
        // outlives their use by this binding (dropped last, in `drop`).
        unsafe { bindings::xp_set_rxq_info(pool.as_ptr(), rxq.get()) };
        // SAFETY: `pool` is live.
        let frame = unsafe { bindings::xsk_pool_get_rx_frame_size(pool.as_ptr()) };
        // INVARIANT: per the safety requirements and the registration above; nothing parked.
        Ok(Self {
            pool,
            rxq,
            parked,
            frame,
            tx_out: Cell::new(0),
            taking: Cell::new(false),
        })
    }

    /// The bound pool, for the NAPI module to tell which binding is which.
    #[inline]
    pub fn pool(&self) -> NonNull<bindings::xsk_buff_pool> {
        self.pool
    }

    /// The number of parking places, one per descriptor of the driver's ring.
    #[inline]
    pub fn slots(&self) -> u32 {
        // At most the `u32` the binding was made with.
        self.parked.len() as u32
    }

    /// The room for a frame in each buffer (`xsk_pool_get_rx_frame_size()`): what the device
    /// may be told to write, at most, and what [`Rx::take`] accepts.
    #[inline]
    pub fn frame_size(&self) -> u32 {
        self.frame
    }

    /// Gives parking places `start..start + n` (counted modulo the number of places) a buffer
    /// each from the pool's fill ring, in order, and hands `f` each place and where the
    /// device is to write into its buffer. A place that still holds a buffer keeps it and is
    /// handed out again. Stops when the fill ring is empty (user space has not given buffers
    /// back yet); returns how many places were handed out. Nothing if `start` is past the
    /// places.
    ///
    /// The range ends early if `f` takes back a buffer it has not been handed yet. The
    /// buffers come in batches (`xp_alloc_batch()`), written straight into the places; a
    /// buffer is set up when it is taken ([`Rx::take`]).
    #[inline]
    pub fn fill_range(&self, start: u32, n: u32, mut f: impl FnMut(u32, DmaAddress)) -> u32 {
        let len = self.slots();
        if start >= len {
            return 0;
        }
        let n = n.min(len);
        let mut done = 0u32;
        while done < n {
            // Both terms are below `len`, a place count far below 2^31 (one place per
            // descriptor of a ring): no wrap, and the result is below `len` too.
            let at = start.wrapping_add(done);
            let i = if at >= len { at.wrapping_sub(len) } else { at };
            // The places from `i` to the end of the range or of the places, whichever first.
            let run = &self.parked[i as usize..(i + (n - done).min(len - i)) as usize];
            let empty = run.iter().take_while(|p| p.get().is_null()).count();
            let done_before = done;
            let got = if empty == 0 {
                1
            } else {
                // SAFETY: `pool` is bound (type invariant); its fill ring has one consumer,
                // this binding, used by one context at a time (`Rx` is not `Sync`). The first
                // `empty` places of `run` hold nothing, and a `Cell<*mut xdp_buff>` is laid out
                // as a `*mut xdp_buff`: the batch writes at most `empty` buffers of `pool`
                // there, which are then ours (INVARIANT).
                unsafe {
                    bindings::xp_alloc_batch(
                        self.pool.as_ptr(),
                        run.as_ptr().cast::<*mut bindings::xdp_buff>().cast_mut(),
                        empty as u32,
                    )
                }
            };
            if got == 0 {
                break;
            }
            for place in run.iter().take(got as usize) {
                // `f` may have taken a buffer back meanwhile: stop there.
                let b = place.get();
                if b.is_null() {
                    return done;
                }
                // SAFETY: `b` is a buffer of `pool` we own (type invariant).
                let dma = unsafe { bindings::xsk_buff_xdp_get_dma(b) };
                // The place's index: below `len`, as is `done` (no wrap).
                f(i.wrapping_add(done.wrapping_sub(done_before)), dma);
                done = done.wrapping_add(1);
            }
        }
        done
    }

    /// Whether parking place `slot` holds a buffer.
    #[inline]
    pub fn is_filled(&self, slot: u32) -> bool {
        self.parked
            .get(slot as usize)
            .is_some_and(|p| !p.get().is_null())
    }

    /// Takes the buffer parked at `slot`, into which the device wrote a frame of `len` bytes,
    /// and makes it readable by the CPU. `ENOENT` if nothing is parked there; `EMSGSIZE` if
    /// `len` is more than [`Rx::frame_size`] (a device that wrote past its buffer): the
    /// buffer goes back to the pool.
    #[inline]
    pub fn take(&self, slot: u32, len: u32) -> Result<Buff<'_>> {
        let place = self.parked.get(slot as usize).ok_or(ENOENT)?;
        let b = NonNull::new(place.replace(core::ptr::null_mut())).ok_or(ENOENT)?;
        // INVARIANT: a buffer of `pool` we owned, now the `Buff`'s.
        let buff = Buff {
            xdp: b,
            _rx: PhantomData,
        };
        if len > self.frame {
            return Err(EMSGSIZE);
        }
        // SAFETY: `b` is ours (type invariant); `len` fits its frame room, checked above.
        unsafe {
            bindings::xsk_buff_set_size(b.as_ptr(), len);
            bindings::xsk_buff_dma_sync_for_cpu(b.as_ptr());
        }
        Ok(buff)
    }

    /// Whether the socket asked to be told when the queue needs waking up
    /// (`XDP_USE_NEED_WAKEUP`): without, a queue out of buffers keeps polling for more.
    #[inline]
    pub fn uses_need_wakeup(&self) -> bool {
        // SAFETY: `pool` is bound (type invariant).
        unsafe { bindings::xsk_uses_need_wakeup(self.pool.as_ptr()) }
    }

    /// Asks user space to wake the queue up (`sendto()` or `poll()`, which call the driver's
    /// `ndo_xsk_wakeup`) once it has refilled the fill ring (`xsk_set_rx_need_wakeup()`), or
    /// stops asking. Only for sockets that asked for the protocol (`XDP_USE_NEED_WAKEUP`).
    #[inline]
    pub fn need_wakeup(&self, on: bool) {
        if !self.uses_need_wakeup() {
            return;
        }
        // SAFETY: `pool` is bound (type invariant).
        unsafe {
            if on {
                bindings::xsk_set_rx_need_wakeup(self.pool.as_ptr());
            } else {
                bindings::xsk_clear_rx_need_wakeup(self.pool.as_ptr());
            }
        }
    }
}

impl Rx {
    /// Takes up to `max` frames the socket queued for sending, in one batch
    /// (`xsk_tx_peek_release_desc_batch()`), each synced for the device, and hands `f` where
    /// the device is to read each and its length (at least 1 byte, and inside one chunk of
    /// the pool's mapping: the core checked the descriptor). `f` must give each to the
    /// device; the driver then reports them sent, in the order taken, with
    /// [`Rx::tx_completed`] (they count as taken from the start: a completion `f` reports
    /// may already cover them). Returns how many were taken; nothing when called from `f`.
    #[inline]
    pub fn tx_take(&self, max: u32, mut f: impl FnMut(DmaAddress, u32)) -> u32 {
        if max == 0 || self.taking.get() {
            return 0;
        }
        let pool = self.pool.as_ptr();
        // SAFETY: `pool` is bound (type invariant); its transmit rings have one consumer,
        // this binding, used by one context at a time (`Rx` is not `Sync`).
        let n = unsafe { bindings::xsk_tx_peek_release_desc_batch(pool, max) };
        if n == 0 {
            return 0;
        }
        // INVARIANT: `n` more taken, each with its place reserved in the completion ring.
        // (At most the completion ring's size are outstanding: no wrap.)
        self.tx_out.set(self.tx_out.get().wrapping_add(n));
        // SAFETY: `pool` is bound (type invariant).
        let descs = unsafe { (*pool).tx_descs };
        // INVARIANT: set while the batch is handed out; `f` cannot take another over it.
        self.taking.set(true);
        for i in 0..n as usize {
            // SAFETY: The batch wrote `n` valid descriptors, each inside one chunk, at the start
            // of the pool's descriptor array (at most its size). Only its consumer, this binding,
            // writes the array, and not before the batch is handed out (`taking`). Read by value.
            let desc = unsafe { descs.add(i).read() };
            // SAFETY: `pool` is bound and mapped (type invariant); the core checked that the
            // descriptor lies inside one chunk of it.
            let dma = unsafe { bindings::xsk_buff_raw_get_dma(pool, desc.addr) };
            // SAFETY: As above: the range is inside the mapping.
            unsafe { bindings::xsk_buff_raw_dma_sync_for_device(pool, dma, desc.len as usize) };
            f(dma, desc.len);
        }
        self.taking.set(false);
        n
    }

    /// Reports `n` of the frames taken with [`Rx::tx_take`] sent, the oldest first
    /// (`xsk_tx_completed()`): their buffers go back to the socket. More than are
    /// outstanding counts as all of them.
    #[inline]
    pub fn tx_completed(&self, n: u32) {
        let n = n.min(self.tx_out.get());
        if n > 0 {
            // INVARIANT: `n` fewer outstanding.
            self.tx_out.set(self.tx_out.get() - n);
            // SAFETY: `pool` is bound (type invariant); `n` places of its completion ring
            // were reserved by the peeks of frames not completed yet.
            unsafe { bindings::xsk_tx_completed(self.pool.as_ptr(), n) };
        }
    }

    /// Asks user space to wake the queue up to send (`sendto()`), or stops asking; only for
    /// sockets that asked for the protocol (`XDP_USE_NEED_WAKEUP`).
    #[inline]
    pub fn tx_need_wakeup(&self, on: bool) {
        if !self.uses_need_wakeup() {
            return;
        }
        // SAFETY: `pool` is bound (type invariant).
        unsafe {
            if on {
                bindings::xsk_set_tx_need_wakeup(self.pool.as_ptr());
            } else {
                bindings::xsk_clear_tx_need_wakeup(self.pool.as_ptr());
            }
        }
    }
}

impl Drop for Rx {
    fn drop(&mut self) {
        // What the device was given and never reported sent: the driver stopped it, and the
        // socket gets those buffers back.
        self.tx_completed(u32::MAX);
        for p in self.parked.iter() {
            let b = p.replace(core::ptr::null_mut());
            if !b.is_null() {
                // SAFETY: A buffer of `pool` we own (type invariant); `pool` is still bound. A
                // batch leaves a buffer's data pointers and flags as its last user did: set
                // first, so the free sees a buffer of one fragment.
                unsafe {
                    bindings::xsk_buff_set_size(b, 0);
                    bindings::xsk_buff_free(b)
                };
            }
        }
        // SAFETY: Registered (type invariant). The pool's buffers still point at it, but none
        // is in use by us any more (all given back above, and a `Buff` borrows `self`), and
        // the pool is only used again through a new binding, which points them at its own
        // info first.
        unsafe { bindings::xdp_rxq_info_unreg(self.rxq.get()) };
    }
}

/// A frame received into a buffer of an AF_XDP pool, taken from its [`Rx`] for one poll.
///
/// It goes back to the pool when dropped. The XDP module runs programs on it, and redirects
/// it to the socket without a copy; anything else copies it.
///
/// # Invariants
///
/// `xdp` is the head (`xdp_buff_xsk`) of a buffer of the pool of an [`Rx`] that outlives
/// `'a`, owned by `self`: set to the length the device wrote (within the buffer's room) and
/// synced for the CPU. The bytes it describes are shared with user space, which may write
/// them (or, with a hostile fill ring, give the same bytes to two heads): they are only ever
/// copied by C, never referenced from Rust.
pub struct Buff<'a> {
    xdp: NonNull<bindings::xdp_buff>,
    _rx: PhantomData<&'a Rx>,
}

impl Buff<'_> {
    /// The frame's length in bytes.
    #[inline]
    pub fn len(&self) -> u32 {
        // SAFETY: `xdp` is ours and set up (type invariant).
        let x = unsafe { self.xdp.as_ref() };
        // Within one buffer: `data_end` is after `data`, at most `frame` bytes on.
        (x.data_end as usize).wrapping_sub(x.data as usize) as u32
    }

    /// Whether the frame is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bytes in front of the frame that its XDP program put there for the stack
    /// (`bpf_xdp_adjust_meta()`): at most 32.
    #[inline]
    pub fn meta_len(&self) -> u32 {
        // SAFETY: `xdp` is ours and set up (type invariant).
        let x = unsafe { self.xdp.as_ref() };
        // `data_meta` is at most 32 bytes before `data` in the headroom (the BPF helper checks).
        (x.data as usize).wrapping_sub(x.data_meta as usize) as u32
    }

    /// Appends a copy of the frame, with the metadata its program put in front of it
    /// ([`Buff::meta_len`]; then recorded as the skb's, `skb_metadata_set()`), to an empty
    /// skb. `EMSGSIZE` if the skb is not private and linear or lacks the room, `EINVAL` if it
    /// is not empty.
    pub fn copy_to_skb(&self, skb: &mut SkBuff) -> Result {
        if !skb.is_empty() {
            return Err(EINVAL);
        }
        let meta = self.meta_len();
        let total = meta + self.len();
        skb.check_put(total)?;
        // SAFETY: `xdp` is ours and set up (type invariant): `data_meta..data_end` lies in its
        // buffer, synced for the CPU. `skb` is private and linear with the tailroom (checked);
        // C copies the bytes, which no Rust reference covers.
        unsafe {
            bindings::skb_put_data(skb.as_raw(), self.xdp.as_ref().data_meta, total);
        }
        if meta > 0 {
            // SAFETY: The skb holds `total >= meta` bytes, all in its linear part; the
            // metadata stays in the headroom right before the data, where `skb_metadata_set`
            // wants it. `meta` fits a `u8` (at most 32).
            unsafe {
                bindings::skb_pull(skb.as_raw(), meta);
                bindings::skb_metadata_set(skb.as_raw(), meta as u8);
            }
        }
        Ok(())
    }

    /// Gives up the buffer, for a C function that takes it over (or frees it).
    #[inline]
    pub fn into_raw(self) -> NonNull<bindings::xdp_buff> {
        let p = self.xdp;
        core::mem::forget(self);
        p
    }

    /// The buffer, for a C function that only borrows it.
    #[inline]
    pub fn as_raw(&self) -> *mut bindings::xdp_buff {
        self.xdp.as_ptr()
    }
}

impl Drop for Buff<'_> {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: Ours (type invariant); the pool is bound while its `Rx` lives, beyond `'a`.
        unsafe { bindings::xsk_buff_free(self.xdp.as_ptr()) };
    }
}
