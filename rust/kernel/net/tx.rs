// SPDX-License-Identifier: GPL-2.0

//! Frames mapped for a device to send: the slot of a TX ring.
//!
//! A [`MapSlot`] keeps one frame, an skb from the stack or an XDP frame ([`TxBuf`]), mapped
//! for the device to read (streaming DMA, `ToDevice`) from when it is queued until the
//! device has sent it, and lists its pieces as [`Segment`]s for the descriptors. Taking the
//! frame out, or dropping the slot, unmaps it first.
//!
//! C headers: [`include/linux/skbuff.h`](srctree/include/linux/skbuff.h),
//! [`include/linux/dma-mapping.h`](srctree/include/linux/dma-mapping.h).

use crate::{
    bindings, device,
    dma::{streaming, DataDirection, DmaAddress},
    net::{
        skb::{SkBuff, MAX_FRAGS},
        xdp,
    },
    prelude::*,
};
use core::mem::MaybeUninit;

/// Most DMA segments a mapped skb has: the linear data plus every fragment.
pub const MAX_SEGMENTS: usize = MAX_FRAGS as usize + 1;

/// One device-readable piece of a mapped skb.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    /// Bus address of the piece.
    pub addr: DmaAddress,
    /// Length of the piece in bytes (never 0).
    pub len: u32,
}

/// The DMA mappings of an skb's pieces; unmapped on drop.
///
/// # Invariants
///
/// `n <= N`; each of `seg[..n]` is initialised and is a live `ToDevice` mapping on `dev` of
/// `seg[i].len` bytes at `seg[i].addr`: `seg[0]` of the linear data of an skb or the data of
/// an XDP frame (`dma_map_single()`) if `head`, the others of page fragments
/// (`dma_map_page()`).
struct Segments<'a, const N: usize> {
    dev: &'a device::Device<device::Bound>,
    head: bool,
    n: u8,
    seg: [MaybeUninit<Segment>; N],
}

impl<'a, const N: usize> Segments<'a, N> {
    /// No mappings yet. Only the first `n` entries are ever written, so a frame of one piece
    /// costs one entry, whatever `N` is. `N` above [`MAX_SEGMENTS`] does not build.
    #[inline]
    fn new(dev: &'a device::Device<device::Bound>) -> Self {
        const { assert!(N <= MAX_SEGMENTS && N <= u8::MAX as usize) };
        // INVARIANT: `n == 0`.
        Self {
            dev,
            head: false,
            n: 0,
            seg: [const { MaybeUninit::uninit() }; N],
        }
    }

    /// The live mappings.
    #[inline]
    fn as_slice(&self) -> &[Segment] {
        // SAFETY: `seg[..n]` are initialised (type invariant) and `MaybeUninit<Segment>` has the
        // layout of `Segment`.
        unsafe { core::slice::from_raw_parts(self.seg.as_ptr().cast(), usize::from(self.n)) }
    }

    /// Maps the linear data (if any) and every non-empty fragment of `skb`, in frame order.
    /// `EMSGSIZE` if the linear part and the fragments are more than `N` or the skb has a
    /// fragment list (which a linearize folds in), `ENOMEM` if a mapping fails; on failure
    /// nothing stays mapped.
    ///
    /// # Safety
    ///
    /// No mapping may be held (`n == 0`). On success, `skb` must stay alive and unchanged until
    /// these mappings are undone ([`Segments::unmap`] or drop), and must not be given up
    /// before.
    #[inline(always)]
    unsafe fn map(&mut self, skb: &SkBuff) -> Result {
        let head = skb.data();
        let nr_frags = skb.nr_frags();
        // SAFETY: `skb` is valid; reads `skb_shinfo(skb)->frag_list`.
        let frag_list = unsafe { bindings::skb_has_frag_list(skb.as_raw()) };
        if usize::from(!head.is_empty()) + nr_frags as usize > N || frag_list {
            return Err(EMSGSIZE);
        }
        self.head = !head.is_empty();
        if self.head {
            // SAFETY: The linear data stays valid and unwritten until the mapping is undone
            // (this function's safety requirement), which `unmap` does once, with
            // `unmap_single`.
            let addr = unsafe {
                streaming::map_single(self.dev, head.as_ptr(), head.len(), DataDirection::ToDevice)
            }?;
            // SAFETY: `n == 0 < N` (safety requirement; `N >= 1` since the skb has a piece).
            unsafe { self.push(addr, head.len() as u32) };
        }
        let dev = self.dev.as_raw();
        for i in 0..nr_frags {
            // SAFETY: `i` is below `nr_frags`; the skb is valid.
            let len = unsafe { bindings::skb_frag_size_nth(skb.as_raw(), i) };
            if len == 0 {
                continue;
            }
            // SAFETY: `i < nr_frags` of the valid skb; `dev` is bound. The fragment's page is
            // referenced by the skb, which stays alive until the mapping is undone (safety
            // requirement).
            let addr = unsafe { bindings::skb_frag_dma_map_nth(dev, skb.as_raw(), i) };
            // SAFETY: `addr` was just returned for `dev`.
            if unsafe { bindings::dma_mapping_error(dev, addr) } != 0 {
                self.unmap();
                return Err(ENOMEM);
            }
            // SAFETY: a live page mapping of `len` bytes, and `n <` the number of pieces
            // `<= N`: checked above, with `n == 0` on entry.
            unsafe { self.push(addr, len) };
        }
        Ok(())
    }

    /// Maps the data of `frame` in its first buffer, then each of its fragments. `EMSGSIZE`
    /// if they are more than `N` pieces or the first is empty, `ENOMEM` if a mapping fails; on
    /// failure nothing stays mapped.
    ///
    /// # Safety
    ///
    /// No mapping may be held (`n == 0`). On success, `frame` must stay alive and unchanged
    /// until the mappings are undone ([`Segments::unmap`] or drop).
    #[inline]
    unsafe fn map_frame(&mut self, frame: &xdp::Frame) -> Result {
        let len = frame.head_len();
        let frags = frame.frags();
        if len == 0 || 1 + frags.len() > N {
            return Err(EMSGSIZE);
        }
        // SAFETY: The frame's `len` bytes at its data lie in its buffer (`Frame` invariant),
        // which stays valid and unwritten until the mapping is undone (safety requirement),
        // which `unmap` does once, with `unmap_single` (`head` is set below).
        let addr = unsafe {
            streaming::map_single(
                self.dev,
                frame.data_ptr(),
                len as usize,
                DataDirection::ToDevice,
            )
        }?;
        self.head = true;
        // SAFETY: `n == 0 < N` (safety requirement, `N` checked above); a live single mapping
        // of `len` bytes, the first entry, with `head` set.
        unsafe { self.push(addr, len) };
        let dev = self.dev.as_raw();
        for f in frags {
            if f.len == 0 {
                continue;
            }
            // SAFETY: `f` is a fragment of the frame, whose pages it owns and which stays alive
            // until the mapping is undone (safety requirement); `dev` is bound.
            let addr = unsafe {
                bindings::__skb_frag_dma_map(
                    dev,
                    f,
                    0,
                    f.len as usize,
                    DataDirection::ToDevice.into(),
                )
            };
            // SAFETY: `addr` was just returned for `dev`.
            if unsafe { bindings::dma_mapping_error(dev, addr) } != 0 {
                self.unmap();
                return Err(ENOMEM);
            }
            // SAFETY: a live page mapping of `f.len` bytes, and `n < 1 + frags.len() <= N`
            // (checked above, with `n == 0` on entry).
            unsafe { self.push(addr, f.len) };
        }
        Ok(())
    }

    /// Records a live mapping.
    ///
    /// # Safety
    ///
    /// `n < N`, and `addr` is a live `ToDevice` mapping of `len` bytes on `dev`: of the linear
    /// data if it is the first entry and `head` is set, of a page fragment otherwise.
    #[inline]
    unsafe fn push(&mut self, addr: DmaAddress, len: u32) {
        // SAFETY: `n < N` (safety requirement).
        unsafe { self.seg.get_unchecked_mut(usize::from(self.n)) }.write(Segment { addr, len });
        // INVARIANT: the entry just written is a live mapping of that kind (safety
        // requirement), and `n` stays at most `N`, itself at most `u8::MAX` (`new`): the
        // increment cannot wrap.
        self.n = self.n.wrapping_add(1);
    }

    /// Undoes every mapping.
    // The first piece is handled apart from the others: it is the only one that may be a
    // single mapping, and most frames have no other (one test per frame, not per piece).
    #[inline]
    fn unmap(&mut self) {
        let dev = self.dev.as_raw();
        let dir = DataDirection::ToDevice;
        let Some((first, rest)) = self.as_slice().split_first() else {
            return;
        };
        if self.head {
            // SAFETY: The first entry with `head` set is a live `map_single` mapping of
            // `first.len` bytes on `dev` (type invariant), forgotten below.
            unsafe { streaming::unmap_single(self.dev, first.addr, first.len as usize, dir) };
        } else {
            // SAFETY: A live page mapping of `first.len` bytes on `dev` (type invariant),
            // forgotten below.
            unsafe {
                bindings::dma_unmap_page_attrs(dev, first.addr, first.len as usize, dir.into(), 0)
            };
        }
        for s in rest {
            // SAFETY: Entries past the first are live page mappings of `s.len` bytes on `dev`
            // (type invariant), forgotten below.
            unsafe { bindings::dma_unmap_page_attrs(dev, s.addr, s.len as usize, dir.into(), 0) };
        }
        // INVARIANT: no mapping is live any more.
        self.n = 0;
    }
}

impl<const N: usize> Drop for Segments<'_, N> {
    #[inline]
    fn drop(&mut self) {
        self.unmap();
    }
}

/// A place for one skb mapped for the device to read, filled and emptied in place: the slot
/// of a TX ring, which keeps each frame where it was queued until the device has sent it.
///
/// It maps the linear data (`dma_map_single()`) and every page fragment (`skb_frag_dma_map()`)
/// and lists the pieces as [`Segment`]s in frame order. Nothing of it moves when a frame is
/// queued or completed (the segment list of an skb of many pieces is a few hundred bytes), and
/// only the pieces a frame has are written. An skb in the slot is mapped; taking it out unmaps
/// it first, and so does dropping the slot. The slot borrows the bound device, so it cannot
/// outlive the binding.
///
/// # Examples
///
/// ```
/// use kernel::{device, net::{skb::SkBuff, tx::{MapSlot, TxBuf}}};
///
/// /// Queues `skb` in a free slot; `write` stands in for filling a descriptor.
/// fn queue(slot: &mut MapSlot<'_, 4>, skb: SkBuff, mut write: impl FnMut(u64, u32)) -> Result {
///     // A full slot or an skb of too many pieces comes back with the error.
///     let segs = slot.map(skb).map_err(|(_skb, e)| e)?;
///     for s in segs {
///         write(s.addr, s.len);
///     }
///     Ok(())
/// }
///
/// /// Once the device reports the frame sent: unmapped, ready to be freed.
/// fn complete(slot: &mut MapSlot<'_, 4>) -> Option<TxBuf> {
///     slot.take()
/// }
///
/// /// A slot of a ring on `dev`: empty until a frame is queued in it.
/// fn new_slot(dev: &device::Device<device::Bound>) -> MapSlot<'_, 4> {
///     let mut slot = MapSlot::new(dev);
///     assert!(slot.is_empty() && slot.segments().is_empty());
///     assert!(complete(&mut slot).is_none());
///     slot
/// }
/// ```
///
/// # Invariants
///
/// If `buf` holds an skb, `segs` maps exactly its linear data (if not empty) and its non-empty
/// fragments, for `ToDevice`, and the skb is not changed while there; if it holds an XDP
/// frame, `segs` maps exactly its data in its first buffer and its non-empty fragments; if it
/// is `None`, `segs` holds no mapping. `segs` is
/// dropped before `buf`.
pub struct MapSlot<'a, const N: usize = MAX_SEGMENTS> {
    // Declared first: dropped (unmapped) before `buf`.
    segs: Segments<'a, N>,
    buf: Option<TxBuf>,
}

/// What a TX ring slot sends: an skb from the stack, or a frame from XDP (`XDP_TX` or a
/// redirect to the device).
pub enum TxBuf {
    /// A frame of the stack.
    Skb(SkBuff),
    /// A frame of XDP.
    Frame(xdp::Frame),
}

impl<'a, const N: usize> MapSlot<'a, N> {
    /// An empty slot for mappings on `dev`; holds up to `N` pieces (`N` above [`MAX_SEGMENTS`]
    /// does not build).
    #[inline]
    pub fn new(dev: &'a device::Device<device::Bound>) -> Self {
        // INVARIANT: empty, and `Segments::new` holds no mapping.
        Self {
            segs: Segments::new(dev),
            buf: None,
        }
    }

    /// Maps `skb` for the device to read and keeps it here; returns the mapped pieces in frame
    /// order. Fails with `EBUSY` if the slot is full, `EMSGSIZE` if the linear part and the
    /// fragments are more than `N` or the skb has a fragment list ([`SkBuff::linearize`] fixes
    /// both), and `ENOMEM` if a mapping fails; then the skb comes back and the slot is as it
    /// was.
    // Always inlined: called once per transmitted frame, and as a call it returned its result
    // through memory and saved six registers.
    #[inline(always)]
    pub fn map(&mut self, skb: SkBuff) -> core::result::Result<&[Segment], (SkBuff, Error)> {
        if self.buf.is_some() {
            return Err((skb, EBUSY));
        }
        // SAFETY: An empty slot holds no mapping (type invariant). On success the skb is kept
        // here, unchanged, until `take` or drop has unmapped it.
        if let Err(e) = unsafe { self.segs.map(&skb) } {
            return Err((skb, e));
        }
        // INVARIANT: `segs` now maps exactly the pieces of the skb kept here, which nothing
        // changes until `take` or drop unmaps it.
        // `buf` is still empty (checked above; mapping does not touch it): the old value needs
        // no drop, which the compiler cannot see across the mapping's calls.
        debug_assert!(self.buf.is_none());
        core::mem::forget(self.buf.replace(TxBuf::Skb(skb)));
        Ok(self.segs.as_slice())
    }

    /// Maps the XDP frame `frame` for the device to read and keeps it here; returns its
    /// mapped pieces in frame order (the first buffer, then each fragment). Fails with
    /// `EBUSY` if the slot is full, `EMSGSIZE` for an empty first buffer or more than `N`
    /// pieces, and `ENOMEM` if a mapping fails; then the frame comes back and the slot is as
    /// it was.
    #[inline]
    pub fn map_frame(
        &mut self,
        frame: xdp::Frame,
    ) -> core::result::Result<&[Segment], (xdp::Frame, Error)> {
        if self.buf.is_some() {
            return Err((frame, EBUSY));
        }
        // SAFETY: An empty slot holds no mapping (type invariant). On success the frame is
        // kept here, unchanged, until `take` or drop has unmapped it.
        if let Err(e) = unsafe { self.segs.map_frame(&frame) } {
            return Err((frame, e));
        }
        // INVARIANT: `segs` now maps exactly the pieces of the frame kept here.
        // `buf` is still empty (checked above): the old value needs no drop.
        debug_assert!(self.buf.is_none());
        core::mem::forget(self.buf.replace(TxBuf::Frame(frame)));
        Ok(self.segs.as_slice())
    }

    /// Unmaps the skb or frame held here and returns it; `None` if the slot is empty.
    #[inline]
    pub fn take(&mut self) -> Option<TxBuf> {
        self.buf.as_ref()?;
        self.segs.unmap();
        // INVARIANT: unmapped before the buffer leaves; the slot is empty again.
        self.buf.take()
    }

    /// Whether nothing is held.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.buf.is_none()
    }

    /// The pieces of the skb held here, as mapped; empty for an empty slot.
    #[inline]
    pub fn segments(&self) -> &[Segment] {
        self.segs.as_slice()
    }

    /// The skb held here, still mapped; `None` for an empty slot or an XDP frame.
    #[inline]
    pub fn skb(&self) -> Option<&SkBuff> {
        match &self.buf {
            Some(TxBuf::Skb(skb)) => Some(skb),
            _ => None,
        }
    }
}
