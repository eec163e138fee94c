// SPDX-License-Identifier: GPL-2.0

//! Page pools: recycled, pre-mapped receive buffers.
//!
//! A [`PagePool`] hands out [`Page`]s that are DMA-mapped for the device and synced for it by
//! the pool. A page is owned by value: it goes back to its pool when it is recycled with the
//! number of bytes the device wrote ([`Page::recycle`]), when it becomes part of an skb
//! ([`Page::build_skb`]), or when it is dropped. Because each of those consumes the page, a
//! page cannot be used after it was recycled.
//!
//! A pool cuts its pages into receive buffers as its [`Layout`] says: one buffer per page, or
//! several (page fragments: the pool takes a whole page and sets its fragment reference count,
//! `page_pool_fragment_page()`, to the number of buffers in it), each with the same headroom in
//! front of what the device writes. A [`Page`] is one such buffer: it owns that part of the page
//! and nothing else. A buffer carries the size and headroom it was cut with, and every offset it
//! takes is checked against its own size: a pool's layout may change while buffers cut under
//! the old one are still out (the NAPI module changes it while its instance is disabled). A
//! [`ParkedPage`] keeps its size and headroom too, and a pool takes back only buffers cut
//! as its current layout says.
//!
//! A [`Page<'p>`](Page) borrows its pool: it cannot outlive it (once a pool is destroyed, the
//! C side unmaps the pages still in flight, so a page's DMA address would be stale). A page
//! that waits in a receive ring between polls is [`park`](Page::park)ed: a [`ParkedPage`]
//! has no lifetime and no DMA address, and only the pool it came from can
//! [`unpark`](PagePool::unpark) it again (or [`take_parked`](PagePool::take_parked) it from the
//! ring's slot).
//!
//! The pool's lockless cache is used by allocation and by direct recycling. A pool is not
//! `Sync` and every [`Page`] holds a shared borrow of it, so both only ever happen on the one
//! thread (CPU context) that holds the pool: a page of one pool recycled in the poll of another
//! NAPI instance cannot race that pool's own poll. Direct recycling also needs a
//! [`DirectContext`], proof of a NAPI poll in softirq, as the C side requires: the NAPI
//! module's receive context is one.
//!
//! No Rust reference to the bytes the device writes is ever created: received data reaches the
//! stack inside an skb (built around the page or copied by C), so a device that keeps writing
//! cannot invalidate a Rust borrow.
//!
//! C headers: [`include/net/page_pool/types.h`](srctree/include/net/page_pool/types.h),
//! [`include/net/page_pool/helpers.h`](srctree/include/net/page_pool/helpers.h).

use crate::{bindings, device, dma::DmaAddress, net::skb::SkBuff, prelude::*};
use core::{cell::Cell, marker::PhantomData, ptr::NonNull};

/// Size of one page, the unit a pool hands out (order-0 pools only).
pub const PAGE_SIZE: u32 = bindings::PAGE_SIZE as u32;

/// Tail room `build_skb` needs after the data for `struct skb_shared_info`.
pub const SKB_SHINFO_SIZE: u32 = bindings::SKB_SHINFO_SIZE as u32;

/// Proof of running in the poll of a NAPI instance with a non-zero budget, in softirq
/// context: where a pool's lockless cache may be used (direct recycling, `allow_direct`) and
/// skbs may be built from the per-CPU NAPI cache (`napi_build_skb()`).
///
/// The NAPI module's receive context (`napi::RxContext`) implements it; the trait lets this
/// module, which the NAPI module builds on, take that proof without depending on it.
///
/// # Safety
///
/// A value of an implementing type may exist only on the CPU that runs a NAPI poll with a
/// non-zero budget, in softirq context, and only during that poll: the type is neither `Send`
/// nor `Sync` and no value of it outlives the poll.
pub unsafe trait DirectContext {}

/// How a pool cuts its pages into receive buffers: buffers of `size` bytes (a whole page, or
/// a power-of-two part of one), the device writing at most `max_len` bytes from `offset` in
/// each. The tail of every buffer is left for `struct skb_shared_info`, so that an skb or an
/// XDP frame can be built around a buffer and the device never writes where the CPU lists
/// fragments.
///
/// `max_len` is the driver's promise: nothing here can stop a device writing more. The driver
/// programs its device to write at most that much into a buffer (a frame-length limit), or
/// the device may write into the shared info, or past a fragment into the next buffer.
///
/// # Invariants
///
/// `shape` is `Shape::of(size, offset)` for a `size` that is a power of two no larger than
/// `PAGE_SIZE` and an `offset` with `offset + max_len + SKB_SHINFO_SIZE <= size`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    max_len: u32,
    shape: Shape,
}

/// The size and headroom of a buffer in one word, as buffers carry them: the headroom above
/// the size's base-2 logarithm (5 bits).
///
/// # Invariants
///
/// The value is `offset << 5 | size.trailing_zeros()` for the size and offset of a valid
/// [`Layout`], so `1 << (value & 31)` is a power of two up to `PAGE_SIZE` and `value >> 5`
/// leaves room in it for the shared info.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Shape(u32);

// An offset below `PAGE_SIZE` fits above the 5 bits of the size's logarithm.
const _: () = assert!(PAGE_SIZE <= 1 << 27);

impl Shape {
    /// Only for a size and offset that [`Layout::new`] accepted.
    const fn of(size: u32, offset: u32) -> Self {
        Self(offset << 5 | size.trailing_zeros())
    }

    /// The buffer's size in bytes.
    #[inline(always)]
    const fn size(self) -> u32 {
        1 << (self.0 & 31)
    }

    /// The buffer's headroom, where the device starts writing.
    #[inline(always)]
    const fn offset(self) -> u32 {
        self.0 >> 5
    }
}

impl Layout {
    /// A layout of buffers of `size` bytes with `offset` bytes of headroom and at most
    /// `max_len` bytes written by the device; `None` if `size` is not a power of two up to
    /// `PAGE_SIZE` or the three do not fit in it with the shared info.
    #[inline]
    pub const fn new(size: u32, offset: u32, max_len: u32) -> Option<Self> {
        if !size.is_power_of_two() || size > PAGE_SIZE {
            return None;
        }
        let end = offset as u64 + max_len as u64 + SKB_SHINFO_SIZE as u64;
        if end > size as u64 {
            return None;
        }
        // INVARIANT: checked above; the offset is below the size, so below `PAGE_SIZE`.
        Some(Self {
            max_len,
            shape: Shape::of(size, offset),
        })
    }

    /// The size of one buffer: what an skb built around it is charged (its truesize).
    #[inline]
    pub const fn size(&self) -> u32 {
        self.shape.size()
    }

    /// Where the device starts writing in a buffer (the headroom).
    #[inline]
    pub const fn offset(&self) -> u32 {
        self.shape.offset()
    }

    /// The most bytes the device writes from the offset.
    #[inline]
    pub const fn max_len(&self) -> u32 {
        self.max_len
    }

    /// Whether a buffer is a whole page.
    #[inline]
    pub const fn is_whole_page(&self) -> bool {
        self.size() == PAGE_SIZE
    }
}

impl core::fmt::Debug for Layout {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Layout")
            .field("size", &self.size())
            .field("offset", &self.offset())
            .field("max_len", &self.max_len)
            .finish()
    }
}

/// Parameters of a [`PagePool`].
pub struct Params {
    /// Number of pages the pool keeps ready (usually the ring size).
    pub pool_size: u32,
    /// How its pages are cut into buffers at first.
    pub layout: Layout,
}

/// A page pool that maps its pages for the device and syncs them before reuse
/// (`PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV`), for device-to-memory DMA.
///
/// It borrows the bound device it maps pages for (`'dev`), so it cannot outlive the binding.
/// It is `Send` but not `Sync`: it can move to the NAPI poll that uses it, but it is only ever
/// used from one context at a time, which is what the pool's lockless cache requires. A pool a
/// NAPI instance owns is created by the instance
/// (the NAPI module's `Napi`, at the device's registration) and bound to it.
///
/// # Invariants
///
/// `pool` is a page pool created by [`PagePool::new`] or [`PagePool::new_for_napi`], of
/// order-0 pages mapped `DMA_FROM_DEVICE` (`p.dma_dir`) and synced for the device over the
/// whole page (C offset 0, `max_len` of `PAGE_SIZE`), holding the creation reference, which
/// is dropped (`page_pool_destroy()`) on drop. Its device (`p.dev`) stays bound, and so
/// alive, for as long as the pool lives: for `'dev`, or per the safety requirements of
/// [`PagePool::new_for_napi`]. The pool itself takes no reference to it.
///
/// If `cut` holds `(page, next)`, `page` is a page of `pool` being cut into buffers of the
/// current layout's size, which is below `PAGE_SIZE`, and `next < PAGE_SIZE` is a multiple of
/// that size: this object owns one of the page's fragment references for each buffer from
/// `next` to the end of the page, and nobody uses those bytes.
pub struct PagePool<'dev> {
    pool: NonNull<bindings::page_pool>,
    layout: Cell<Layout>,
    cut: Cell<Option<(NonNull<bindings::page>, u32)>>,
    _dev: PhantomData<&'dev device::Device<device::Bound>>,
    _not_sync: PhantomData<Cell<()>>,
}

// SAFETY: A pool may be handed to another CPU; every use of its lockless cache goes through
// `&PagePool` (allocation) or a `Page` borrowing it (direct recycling), and `PagePool: !Sync`
// keeps those on one context at a time. A pool bound to a NAPI instance is only reachable from
// that instance's poll or, while it is disabled, from process context. The page being cut
// (`cut`) is only owned page references, which may be used and given back from any CPU.
unsafe impl Send for PagePool<'_> {}

impl<'dev> PagePool<'dev> {
    /// Creates a pool for `dev`, not bound to any NAPI instance.
    #[inline]
    pub fn new(dev: &'dev device::Device<device::Bound>, params: &Params) -> Result<Self> {
        // SAFETY: No NAPI instance and no net_device; the pool borrows `dev` for `'dev`.
        unsafe { Self::create(dev, params, core::ptr::null_mut()) }
    }

    /// # Safety
    ///
    /// If `napi` is not null, the pool must be dropped before the instance is deleted (and
    /// its net_device, `napi->dev`, is freed), at a time its poll cannot run on another CPU,
    /// and only be used from that poll or while the instance is disabled.
    unsafe fn create(
        dev: &device::Device<device::Bound>,
        params: &Params,
        napi: *mut bindings::napi_struct,
    ) -> Result<Self> {
        // SAFETY: All-zero is a valid `page_pool_params` (no callbacks, no napi).
        let mut p: bindings::page_pool_params = unsafe { core::mem::zeroed() };
        p.__bindgen_anon_1.fast = bindings::page_pool_params__bindgen_ty_1_page_pool_params_fast {
            order: 0,
            pool_size: params.pool_size,
            nid: bindings::NUMA_NO_NODE,
            dev: dev.as_raw(),
            napi,
            dma_dir: bindings::dma_data_direction::DMA_FROM_DEVICE,
            // The pool syncs whole pages for the device: when the last buffer of a page comes
            // back, it cannot know which of the others the device or the CPU wrote.
            max_len: PAGE_SIZE,
            offset: 0,
        };
        // SAFETY: The slow group was zeroed above, so reading it as a whole reads initialised
        // plain data.
        let mut slow = unsafe { p.__bindgen_anon_2.slow };
        slow.flags = bindings::PP_FLAG_DMA_MAP | bindings::PP_FLAG_DMA_SYNC_DEV;
        if !napi.is_null() {
            // The pool serves the instance's net_device: it is listed there, for netdev
            // netlink (`page-pool-get`) and the device's unregistration.
            // SAFETY: `napi` is a live instance (safety requirement), added to its device.
            slow.netdev = unsafe { (*napi).dev };
        }
        p.__bindgen_anon_2.slow = slow;
        // SAFETY: `p` is fully initialised and only read during the call; `dev` is bound and
        // stays so while the pool lives (`'dev` of the callers, or the safety requirements of
        // `new_for_napi`); `napi` per the safety requirements.
        let pool = unsafe { bindings::page_pool_create(&p) };
        let pool = crate::error::from_err_ptr(pool)?;
        // INVARIANT: created above with whole-page syncs; we own the creation reference.
        Ok(Self {
            pool: NonNull::new(pool).ok_or(ENOMEM)?,
            layout: Cell::new(params.layout),
            cut: Cell::new(None),
            _dev: PhantomData,
            _not_sync: PhantomData,
        })
    }

    /// Creates a pool for `dev` bound to the NAPI instance `napi` (`page_pool_params.napi`):
    /// skbs freed in that instance's softirq return their pages to the lockless cache. The
    /// pool is listed on the instance's net_device (`page_pool_params.netdev`).
    ///
    /// # Safety
    ///
    /// The pool must be dropped before `dev` is unbound and before `napi` is deleted, while the
    /// instance's poll cannot run on another CPU; it must only be used from that poll or while
    /// the instance is disabled.
    pub unsafe fn new_for_napi(
        dev: &device::Device<device::Bound>,
        params: &Params,
        napi: *mut bindings::napi_struct,
    ) -> Result<PagePool<'static>> {
        // SAFETY: Per the safety requirements, which also stand in for `'dev`.
        unsafe { PagePool::create(dev, params, napi) }
    }

    /// Takes a buffer from the pool, cut as its layout says, mapped and synced for the device;
    /// `None` when memory is short (the caller must count the failure).
    ///
    /// A buffer smaller than a page is the next of the page the pool is cutting; the pool
    /// takes a new page when that one is used up, and gives back what is left of it when its
    /// layout changes or it is dropped.
    ///
    /// The buffer borrows the pool; [`Page::park`] turns it into a [`ParkedPage`] to keep it in
    /// a ring across polls.
    #[inline(always)]
    pub fn alloc(&self) -> Option<Page<'_>> {
        let mut page = None;
        self.alloc_each(1, |p| page = Some(p));
        page
    }

    /// Takes up to `n` buffers from the pool, as [`PagePool::alloc`] does, and hands each to
    /// `f`; stops at the first that cannot be had (memory is short: the caller must count the
    /// failure). Returns how many `f` got.
    ///
    /// What is the same for every buffer (the layout, the page being cut) is read once: the
    /// way to fill a ring. Should `f` change the pool's layout, the buffers after that are
    /// still cut as the layout was when the call began (each carries its shape, and the pool
    /// does not take such a buffer back once parked).
    #[inline(always)]
    pub fn alloc_each<'a>(&'a self, n: u32, mut f: impl FnMut(Page<'a>)) -> u32 {
        let shape = self.layout.get().shape;
        let size = shape.size();
        if size == PAGE_SIZE {
            for done in 0..n {
                let Some(page) = self.alloc_page() else {
                    return done;
                };
                // INVARIANT: a page of this pool whose only reference is ours: the buffer is
                // the whole page.
                f(Page {
                    page,
                    pool: self,
                    off: 0,
                    shape,
                });
            }
            return n;
        }
        // The page being cut is taken out of the pool for the loop, with the references it
        // holds: the pool has none meanwhile, should `f` use it.
        let mut cut = self.cut.take();
        let mut done = 0;
        while done < n {
            // The rest of the page being cut, or a new page cut into `PAGE_SIZE / size`
            // buffers: one allocation, and one plain store of its fragment count, for all.
            let (page, off) = match cut {
                Some(c) => c,
                None => match self.alloc_to_cut(size) {
                    Some(page) => (page, 0),
                    None => break,
                },
            };
            // `off` is below `PAGE_SIZE` and `size` at most half of it: no wrap.
            let next = off.wrapping_add(size);
            cut = (next < PAGE_SIZE).then_some((page, next));
            // INVARIANT: the buffer at `off`, inside the page, whose fragment reference moves
            // over to the `Page`, and no other owner has those bytes; `shape` is a layout's.
            f(Page {
                page,
                pool: self,
                off,
                shape,
            });
            done += 1;
        }
        if let Some(c) = cut {
            // INVARIANT: the rest of the page, with its references, is the pool's page being
            // cut again if the layout is still the one it was cut for (the same shape: stricter
            // than the same size, as `set_layout` is) and `f` left no other; otherwise its
            // references go back to the C pool.
            if self.layout.get().shape == shape && self.cut.get().is_none() {
                self.cut.set(Some(c));
            } else {
                self.release_cut(c, size);
            }
        }
        done
    }

    /// A whole page from the pool, its one reference the caller's; `None` when memory is short.
    #[inline(always)]
    fn alloc_page(&self) -> Option<NonNull<bindings::page>> {
        // SAFETY: `self.pool` is live (type invariant). The lockless cache it may use is only
        // touched from the context holding `&self` (`PagePool: !Sync`).
        NonNull::new(unsafe { bindings::page_pool_dev_alloc_pages(self.pool.as_ptr()) })
    }

    /// A page from the pool, with one fragment reference for each of its `PAGE_SIZE / size`
    /// buffers, all the caller's.
    #[inline(always)]
    fn alloc_to_cut(&self, size: u32) -> Option<NonNull<bindings::page>> {
        let page = self.alloc_page()?;
        // SAFETY: The page is fresh from the pool, with one fragment reference, ours: the pool
        // sets the count to 1 when it first takes a page, the last buffer given back leaves it
        // at 1, and a page is recycled into the pool only with no other (`struct page`)
        // reference; nobody else touches the count of a page in the pool, so the plain store
        // races with nothing. It now has one for each of its buffers, at least two (the
        // callers' `size` is a layout's, a power of two below `PAGE_SIZE`).
        unsafe { bindings::page_pool_fragment_page(page.as_ptr(), (PAGE_SIZE / size) as c_long) };
        Some(page)
    }

    /// Gives the references to the buffers of `size` bytes from `next` to the end of `page`,
    /// the rest of a page being cut, back to the pool.
    #[cold]
    #[inline(never)]
    fn release_cut(&self, (page, next): (NonNull<bindings::page>, u32), size: u32) {
        for _ in (next..PAGE_SIZE).step_by(size as usize) {
            // SAFETY: The caller owns one reference for each of those buffers, none used:
            // each goes back. The page is synced whole for the device when its last buffer is
            // back, since the others may have been written; `allow_direct = false` is valid in
            // any context but a hard interrupt, where no pool is used.
            unsafe {
                bindings::page_pool_put_page(self.pool.as_ptr(), page.as_ptr(), PAGE_SIZE, false)
            };
        }
    }

    /// Gives what is left of the page being cut, if any, back to the pool.
    #[inline]
    fn drop_cut(&self) {
        if let Some(c) = self.cut.take() {
            // Cut for the current layout's size (type invariant).
            self.release_cut(c, self.layout.get().size());
        }
    }

    /// Whether `page` is one of this pool's, cut as its current layout says (size and
    /// headroom).
    #[inline(always)]
    fn owns(&self, page: &ParkedPage) -> bool {
        // SAFETY: `page.page` is a page pool page (`ParkedPage` invariant).
        let pool = unsafe { bindings::page_pool_of(page.page.as_ptr()) };
        pool == self.pool.as_ptr() && page.shape == self.layout.get().shape
    }

    /// The pool's layout: how its pages are cut into buffers.
    #[inline]
    pub fn layout(&self) -> Layout {
        self.layout.get()
    }

    /// Cuts the pool's pages into buffers as `layout` says from now on. Buffers cut before
    /// keep their own size and headroom. Buffers parked under another layout are not taken
    /// back ([`PagePool::unpark`]): they go back to the pool when dropped, so a ring should be
    /// emptied, with its device stopped, before its pool's layout changes. What is left of the
    /// page being cut goes back to the pool, whatever the new layout.
    #[inline]
    pub fn set_layout(&self, layout: Layout) {
        // The page being cut was cut for the old size.
        self.drop_cut();
        self.layout.set(layout);
    }

    /// Takes a parked page back, if it belongs to this pool; otherwise hands it back.
    #[inline]
    pub fn unpark(&self, page: ParkedPage) -> core::result::Result<Page<'_>, ParkedPage> {
        if !self.owns(&page) {
            return Err(page);
        }
        let (raw, off, shape) = (page.page, page.off, page.shape);
        core::mem::forget(page);
        // INVARIANT: the buffer belongs to `self` (checked above), with its size, headroom
        // and reference.
        Ok(Page {
            page: raw,
            pool: self,
            off,
            shape,
        })
    }

    /// Takes the page parked in `slot` back, if it is one of this pool's: the receive ring's
    /// way to get the buffer of a completed descriptor, with one branch and no `Result`. A
    /// buffer of another pool, or of another layout of this one (the ring was not emptied
    /// when the layout changed), goes back to its pool, out of line, and `None` comes back as
    /// for an empty slot.
    #[inline(always)]
    pub fn take_parked(&self, slot: &mut Option<ParkedPage>) -> Option<Page<'_>> {
        let page = slot.as_ref()?;
        if !self.owns(page) {
            drop_foreign(slot.take());
            return None;
        }
        let (raw, off, shape) = (page.page, page.off, page.shape);
        // The slot's reference moves over to the `Page` made below.
        core::mem::forget(slot.take());
        // INVARIANT: the buffer belongs to `self` (checked above), with its size, headroom
        // and reference.
        Some(Page {
            page: raw,
            pool: self,
            off,
            shape,
        })
    }

    /// Returns the raw pool.
    #[inline]
    pub fn as_raw(&self) -> *mut bindings::page_pool {
        self.pool.as_ptr()
    }

    /// The device the pool maps its pages for.
    #[inline]
    fn dev(&self) -> *mut bindings::device {
        // SAFETY: The pool is live (type invariant); its fast parameters are written at
        // creation only.
        unsafe { (*self.pool.as_ptr()).p.dev }
    }

    /// Offset in a buffer where the device starts writing (the headroom).
    #[inline]
    pub fn offset(&self) -> u32 {
        self.layout.get().offset()
    }

    /// Most bytes the device writes from the offset in a buffer.
    #[inline]
    pub fn max_len(&self) -> u32 {
        self.layout.get().max_len
    }

    /// Adds this pool's counters to `stats`.
    #[cfg(CONFIG_PAGE_POOL_STATS)]
    #[inline]
    pub fn add_stats(&self, stats: &mut Stats) {
        // SAFETY: The pool is live (type invariant); the C side reads its per-CPU counters
        // racily by design, from any context; `stats.0` is valid for writes.
        unsafe { bindings::page_pool_get_stats(self.pool.as_ptr(), &mut stats.0) };
    }
}

/// Accumulated page pool statistics (`struct page_pool_stats`), as `ethtool -S` shows them.
#[cfg(CONFIG_PAGE_POOL_STATS)]
pub struct Stats(bindings::page_pool_stats);

#[cfg(CONFIG_PAGE_POOL_STATS)]
impl Default for Stats {
    #[inline]
    fn default() -> Self {
        // SAFETY: `page_pool_stats` is plain counters: all-zero is valid.
        Self(unsafe { core::mem::zeroed() })
    }
}

#[cfg(CONFIG_PAGE_POOL_STATS)]
impl Stats {
    /// Number of counters `ethtool -S` shows for page pools.
    #[inline]
    pub fn count() -> u32 {
        // SAFETY: No preconditions; returns a constant.
        let n = unsafe { bindings::page_pool_ethtool_stats_get_count() };
        u32::try_from(n).unwrap_or(0)
    }

    /// Writes the counter values into `out`, returning how many were written (0 if `out` is
    /// too short).
    #[inline]
    pub fn write_values(&self, out: &mut [u64]) -> usize {
        let n = Self::count() as usize;
        if out.len() < n {
            return 0;
        }
        // SAFETY: `out` holds at least `n` values, what C writes; `self.0` is valid.
        unsafe {
            bindings::page_pool_ethtool_stats_get(out.as_mut_ptr(), (&raw const self.0).cast())
        };
        n
    }
}

impl Drop for PagePool<'_> {
    #[inline]
    fn drop(&mut self) {
        // `page_pool_destroy` may wait for an RCU grace period.
        crate::task::might_sleep();
        self.drop_cut();
        // SAFETY: We own the creation reference (type invariant). No `Page` borrows the pool any
        // more, so nothing uses its lockless cache; pages still in skbs or parked keep the C
        // pool allocated until they come back; the device is still bound (`'dev`).
        unsafe { bindings::page_pool_destroy(self.pool.as_ptr()) };
    }
}

/// A receive buffer owned by the driver, a whole page or a fragment of one, taken from a
/// [`PagePool`] that it borrows.
///
/// It is not `Send`: it stays in the context that holds its pool.
///
/// # Invariants
///
/// `page` was allocated from `pool` (its `pp` is `pool`); the buffer is the `shape.size()`
/// bytes at `off` in it, `off + shape.size() <= PAGE_SIZE`, with the headroom
/// `shape.offset()`, as a layout of the pool cut it. This object owns one reference to the
/// page: the only one the pool gave out if the buffer is the whole page (its size is
/// `PAGE_SIZE`, so `off == 0`), otherwise one of the page's fragment references, and no other
/// owner uses the buffer's bytes. The pool is live for `'p`, so the page is DMA-mapped.
pub struct Page<'p> {
    page: NonNull<bindings::page>,
    pool: &'p PagePool<'p>,
    off: u32,
    shape: Shape,
}

/// The length a buffer's owner gives the pool back with, for its sync for the device: the
/// `dirty` bytes written from the buffer's headroom on, and the headroom before them (an XDP
/// program may write there), up to the end of the page, for a whole page; the whole page for a
/// fragment, whose pool syncs when the page's last buffer comes back and cannot know what the
/// others held.
#[inline(always)]
fn put_len(shape: Shape, dirty: u32) -> u32 {
    if shape.size() < PAGE_SIZE {
        PAGE_SIZE
    } else if dirty == 0 {
        0
    } else {
        shape.offset().saturating_add(dirty).min(PAGE_SIZE)
    }
}

impl<'p> Page<'p> {
    /// The DMA address of the start of the buffer.
    #[inline(always)]
    pub fn dma_addr(&self) -> DmaAddress {
        // SAFETY: The page belongs to the live, DMA-mapping `pool` (type invariant), so it has
        // a mapping and its address is stored in the page.
        let page = unsafe { bindings::page_pool_get_dma_addr(self.page.as_ptr()) };
        // Inside the page's mapping, which does not wrap.
        page.wrapping_add(u64::from(self.off))
    }

    /// The DMA address where the device writes into the buffer: after its headroom.
    #[inline(always)]
    pub fn write_addr(&self) -> DmaAddress {
        self.dma_addr().wrapping_add(u64::from(self.shape.offset()))
    }

    /// The buffer's size: what an skb built around it is charged.
    #[inline]
    pub fn size(&self) -> u32 {
        self.shape.size()
    }

    /// Whether this buffer was cut as `layout` says: its size and headroom are the layout's.
    #[inline(always)]
    pub fn is_cut_as(&self, layout: &Layout) -> bool {
        self.shape == layout.shape
    }

    /// Whether the page belongs to `pool`.
    #[inline]
    pub fn is_from(&self, pool: &PagePool<'_>) -> bool {
        core::ptr::eq(self.pool.as_raw(), pool.as_raw())
    }

    /// Gives the buffer to a ring slot until the device has written it: a parked buffer has no
    /// lifetime, no DMA address and can only come back through its own pool.
    #[inline(always)]
    pub fn park(self) -> ParkedPage {
        let (off, shape) = (self.off, self.shape);
        // INVARIANT: a page pool buffer whose reference moves over, with its place and shape.
        ParkedPage {
            page: self.into_raw(),
            off,
            shape,
        }
    }

    /// The offset in the page of the `len` bytes the device wrote into the buffer, if they
    /// fit in it.
    #[inline(always)]
    fn check_len(&self, len: u32) -> Result<u32> {
        let offset = self.shape.offset();
        if u64::from(offset) + u64::from(len) > u64::from(self.shape.size()) {
            return Err(EINVAL);
        }
        // Inside the page (type invariant): does not wrap.
        Ok(self.off.wrapping_add(offset))
    }

    /// Copies the `len` bytes the device wrote at the pool's offset to the end of `skb`, after
    /// making them visible to the CPU. Fails with `EINVAL` if they do not fit in the buffer (a
    /// device reporting a longer frame than its buffer is stopped here), and with `EMSGSIZE`
    /// if `skb` lacks the room or is not the caller's own.
    #[inline]
    pub fn copy_to_skb(&self, skb: &mut SkBuff, len: u32) -> Result {
        let start = self.check_len(len)?;
        skb.check_put(len)?;
        // SAFETY: The range is inside the buffer (checked above), which `pool` mapped.
        unsafe {
            bindings::page_pool_dma_sync_for_cpu(self.pool.as_raw(), self.page.as_ptr(), start, len)
        };
        // SAFETY: The page is in the kernel's linear map (order-0 pool pages) and `start +
        // len` lies inside our buffer; `skb` has `len` bytes of tailroom and is private
        // (checked by `check_put`). C copies without any Rust reference to the page's bytes.
        unsafe {
            let base = bindings::page_pool_page_address(self.page.as_ptr()).cast::<u8>();
            bindings::skb_put_data(skb.as_raw(), base.add(start as usize).cast(), len);
        }
        Ok(())
    }

    /// Makes `len` bytes at the pool's offset, written by the CPU or to be written by the
    /// device, visible to the device again without going through the pool, with the headroom
    /// before them (where an XDP program may have written): what the pool itself does when a
    /// page is recycled with a dirty length. The range is clamped to the buffer.
    #[inline(always)]
    pub fn sync_for_device(&mut self, len: u32) {
        let dev = self.pool.dev();
        // SAFETY: `dev` is valid: the pool is live for `'p` (type invariant of `Page`) and its
        // device stays bound while it lives (type invariant of `PagePool`); this only reads
        // the device's flags. Most devices (DMA-coherent, no bounce buffers) need no sync: no
        // range to compute.
        if !unsafe { bindings::dma_dev_need_sync(dev) } {
            return;
        }
        let size = self.shape.size();
        // SAFETY: The page is mapped `DMA_FROM_DEVICE` by its live pool for `dev` (type
        // invariants of `Page` and `PagePool`); the range from the buffer's start is clamped
        // to the buffer, which is inside the page (type invariant). The pool's own `dma_sync`
        // flag and RCU re-check guard against a pool being scrubbed (destroyed) under a
        // concurrent return; a `Page` borrows its pool, so that cannot happen here, and every
        // pool of this module syncs for the device (`PP_FLAG_DMA_SYNC_DEV`).
        unsafe {
            sync_single(
                dev,
                self.dma_addr(),
                self.shape.offset().saturating_add(len).min(size),
                false,
            )
        };
    }

    /// Gives the buffer back to its pool from a NAPI poll, telling it that the device wrote
    /// `dirty_len` bytes from the buffer's headroom on: for a whole page, only those (and the
    /// headroom) are synced for the device again, and 0 (a page the device never wrote, or any
    /// page of a device that needs no sync) syncs nothing. A fragment's page is synced whole
    /// when its last buffer comes back, whatever `dirty_len` says, if the device needs syncs.
    /// The page goes straight to the pool's lockless cache.
    #[inline]
    pub fn recycle(self, _rx: &impl DirectContext, dirty_len: u32) {
        let pool = self.pool.as_raw();
        let len = put_len(self.shape, dirty_len);
        let page = self.into_raw();
        // SAFETY: We own `page`, a page of `pool`, and give the reference back. Direct
        // recycling touches the lockless cache: we are in softirq (what a `DirectContext`
        // proves) and hold the pool's only context (`Page` borrows the `!Sync` pool), so no
        // allocation from it runs concurrently.
        unsafe { bindings::page_pool_put_page(pool, page.as_ptr(), len, true) };
    }

    /// Keeps the buffer for the driver's ring instead of recycling it, from a NAPI poll: what
    /// [`Page::recycle`] would do, without the round trip through the pool. If the buffer's
    /// bytes are the driver's alone (for a whole page: the driver holds the page's only
    /// reference; a fragment's bytes were never lent out, only its page's other buffers) and
    /// the page is not from the emergency reserves, the `dirty_len` bytes the device or the
    /// CPU wrote from the buffer's headroom on are synced for the device and the buffer comes
    /// back, ready to be posted again; otherwise it goes back to the pool, which releases it,
    /// and `None` comes back.
    ///
    /// The CPU must not write the buffer's data area after this: what it wrote would not be
    /// synced for the device.
    #[inline(always)]
    pub fn keep(mut self, rx: &impl DirectContext, dirty_len: u32) -> Option<Self> {
        let page = self.page.as_ptr();
        let whole = self.shape.size() == PAGE_SIZE;
        // SAFETY: The page is ours and live (type invariant); both only read its flags and
        // reference count.
        let reusable = unsafe {
            (!whole || bindings::page_pool_page_ref_count(page) == 1)
                && !bindings::page_pool_page_is_pfmemalloc(page)
        };
        if !reusable {
            self.recycle(rx, dirty_len);
            return None;
        }
        if dirty_len > 0 {
            self.sync_for_device(dirty_len);
        }
        Some(self)
    }

    /// Gives the buffer back to its pool from any context, syncing `dirty_len` bytes (the whole
    /// page for a fragment's).
    #[inline]
    pub fn release(self, dirty_len: u32) {
        let pool = self.pool.as_raw();
        let len = put_len(self.shape, dirty_len);
        let page = self.into_raw();
        // SAFETY: We own `page`, a page of `pool`, and give the reference back;
        // `allow_direct = false` takes the pool's locked ring, valid in any context.
        unsafe { bindings::page_pool_put_page(pool, page.as_ptr(), len, false) };
    }

    /// Builds an skb around the buffer (`napi_build_skb()`) holding the `len` bytes the device
    /// wrote at the pool's offset, which stays as headroom; the page returns to its pool when
    /// the stack frees the skb. The skb is charged the buffer's size.
    ///
    /// On allocation failure, or if the frame does not fit in front of the skb's shared info,
    /// the buffer is handed back so the caller can recycle it and count the failure.
    #[inline(always)]
    pub fn build_skb(
        self,
        rx: &impl DirectContext,
        len: u32,
    ) -> core::result::Result<SkBuff, Self> {
        let headroom = self.shape.offset();
        if !self.fits(headroom, len) {
            return Err(self);
        }
        self.sync_for_cpu(len);
        self.build_skb_at(rx, headroom, len)
    }

    /// Whether `len` bytes at `start` from the buffer's beginning leave room for the skb's
    /// shared info in the buffer.
    #[inline(always)]
    pub(crate) fn fits(&self, start: u32, len: u32) -> bool {
        // In 64 bits the sum of two `u32` cannot overflow: one addition, one comparison. The
        // buffer holds at least the shared info (`Layout` invariant), so the subtraction does
        // not wrap.
        u64::from(start) + u64::from(len) <= u64::from(self.size().wrapping_sub(SKB_SHINFO_SIZE))
    }

    /// Builds an skb around the buffer whose data are the `len` bytes at `start` from the
    /// buffer's beginning, already visible to the CPU (no sync is done: after XDP ran, a sync
    /// would bring back what the device wrote over the program's changes where DMA bounces).
    /// The buffer comes back if they do not leave room for the shared info or on allocation
    /// failure.
    #[inline(always)]
    pub(crate) fn build_skb_at(
        self,
        _rx: &impl DirectContext,
        start: u32,
        len: u32,
    ) -> core::result::Result<SkBuff, Self> {
        if !self.fits(start, len) {
            return Err(self);
        }
        let va = self.address();
        // SAFETY: `napi_build_skb` must run in NAPI softirq context, which `_rx` proves (what a
        // `DirectContext` proves); `va` is the start of our buffer of `size()` bytes, whose
        // bytes are ours alone (type invariant).
        let skb = unsafe { bindings::napi_build_skb(va, self.size()) };
        if skb.is_null() {
            return Err(self);
        }
        // The skb owns the page reference now.
        let _ = self.into_raw();
        // SAFETY: `skb` is new and ours; headroom, data and shared info fit in the buffer
        // (checked above), so neither call can overrun.
        unsafe {
            bindings::skb_reserve(skb, start as c_int);
            bindings::skb_put(skb, len);
            bindings::skb_mark_for_recycle(skb);
            Ok(SkBuff::from_raw(skb))
        }
    }

    /// The buffer's headroom, where the device starts writing in it.
    #[inline]
    pub fn pool_offset(&self) -> u32 {
        self.shape.offset()
    }

    /// Makes the `len` bytes the device wrote at the pool's offset visible to the CPU,
    /// clamped to the buffer.
    #[inline]
    pub(crate) fn sync_for_cpu(&self, len: u32) {
        if self.needs_sync() {
            self.sync_for_cpu_asked(len);
        }
    }

    /// [`Page::sync_for_cpu`] for a caller that has just seen [`Page::needs_sync`] true: the
    /// device's flags are not read again. Called when the device needs no sync, it is wasted
    /// work, never a wrong result.
    #[inline(always)]
    pub(crate) fn sync_for_cpu_asked(&self, len: u32) {
        let (size, offset) = (self.shape.size(), self.shape.offset());
        // The headroom is below the size (`Shape` invariant), and the buffer inside the page
        // (type invariant): neither wraps.
        let len = len.min(size.wrapping_sub(offset));
        // SAFETY: The pool's device is valid (see `needs_sync`). The pool mapped the whole
        // page for it, `DMA_FROM_DEVICE` (type invariant of `PagePool`), and the range from
        // the headroom is inside our buffer (clamped above), which is inside the page (type
        // invariant). (The pool's C offset is 0, so this is the address
        // `page_pool_dma_sync_for_cpu()` would sync.)
        unsafe { sync_single(self.pool.dev(), self.write_addr(), len, true) };
    }

    /// Whether the device needs its buffers synced at all (no DMA coherence, or bounce
    /// buffers). False only while no mapping for the device has needed a sync, this page's
    /// included (a bounced mapping turns it true when it is made), so a page found not to
    /// need syncs never does; only a change of the DMA mask (`dma_set_mask()`, which a driver
    /// makes before it maps anything) sets it afresh.
    #[inline(always)]
    pub fn needs_sync(&self) -> bool {
        // SAFETY: The pool's device is valid: the pool is live for `'p` (type invariant of
        // `Page`) and its device stays bound while it lives (type invariant of `PagePool`);
        // this only reads the device's flags.
        unsafe { bindings::dma_dev_need_sync(self.pool.dev()) }
    }

    /// The buffer's kernel address (order-0 pool pages are in the linear map).
    #[inline(always)]
    pub(crate) fn address(&self) -> *mut c_void {
        // SAFETY: The page is ours and live.
        let page = unsafe { bindings::page_pool_page_address(self.page.as_ptr()) };
        // Inside the page (type invariant).
        page.cast::<u8>().wrapping_add(self.off as usize).cast()
    }

    /// Adds the `len` bytes the device wrote at the pool's offset to `skb` as a page fragment;
    /// the page returns to its pool when the stack frees the skb. On failure (the skb has no
    /// fragment slot left, is not the caller's own, or `len` does not fit) the buffer is
    /// handed back.
    #[inline]
    pub fn add_to_skb(self, skb: &mut SkBuff, len: u32) -> core::result::Result<(), Self> {
        let Ok(start) = self.check_len(len) else {
            return Err(self);
        };
        if skb.check_add_frag().is_err() {
            return Err(self);
        }
        let size = self.size();
        // SAFETY: The range is inside the buffer (checked above), which `pool` mapped.
        unsafe {
            bindings::page_pool_dma_sync_for_cpu(self.pool.as_raw(), self.page.as_ptr(), start, len)
        };
        let raw = self.into_raw();
        // SAFETY: We give up our page reference; `start + len` is inside our buffer and the
        // skb is private with a free fragment slot (both checked above).
        unsafe { skb.add_rx_frag(raw.as_ptr(), start, len, size) };
        skb.mark_for_recycle();
        Ok(())
    }

    /// The page, still owned by this object.
    #[inline]
    pub fn as_raw_page(&self) -> *mut bindings::page {
        self.page.as_ptr()
    }

    /// Gives up the page without returning it: its reference now belongs to whatever the
    /// caller handed the page to.
    #[inline]
    pub(crate) fn into_raw(self) -> NonNull<bindings::page> {
        let p = self.page;
        core::mem::forget(self);
        p
    }
}

impl Drop for Page<'_> {
    #[inline]
    fn drop(&mut self) {
        // Nobody said what was written: all of the page may have been.
        // SAFETY: We own the page reference (type invariant) and give it back, syncing the
        // whole page; `allow_direct = false` is valid in any context.
        unsafe {
            bindings::page_pool_put_page(self.pool.as_raw(), self.page.as_ptr(), PAGE_SIZE, false)
        };
    }
}

/// Syncs `len` bytes at `addr`, a device-to-memory mapping of `dev`, for the CPU
/// (`for_cpu`) or for the device, without asking `dma_dev_need_sync()` first: its callers
/// have (a sync the device does not need is only wasted work, never a wrong result). Without
/// `CONFIG_DMA_NEED_SYNC` (or without DMA at all) no device needs syncs, and there is nothing
/// to do.
///
/// # Safety
///
/// `dev` is a valid device and `addr..addr + len` lies inside one of its live
/// `DMA_FROM_DEVICE` mappings.
#[inline(always)]
unsafe fn sync_single(dev: *mut bindings::device, addr: DmaAddress, len: u32, for_cpu: bool) {
    #[cfg(all(CONFIG_HAS_DMA, CONFIG_DMA_NEED_SYNC))]
    {
        let dir = bindings::dma_data_direction::DMA_FROM_DEVICE;
        // SAFETY: Per the safety requirements. These are what `dma_sync_single_for_cpu()`
        // and `_for_device()` call once the device's flags say it needs syncs; they keep the
        // DMA-API debugging checks.
        unsafe {
            if for_cpu {
                bindings::__dma_sync_single_for_cpu(dev, addr, len as usize, dir)
            } else {
                bindings::__dma_sync_single_for_device(dev, addr, len as usize, dir)
            }
        }
    }
    #[cfg(not(all(CONFIG_HAS_DMA, CONFIG_DMA_NEED_SYNC)))]
    let _ = (dev, addr, len, for_cpu);
}

/// Gives a parked page back to its own pool, away from the hot path of a ring that found it.
#[cold]
#[inline(never)]
fn drop_foreign(page: Option<ParkedPage>) {
    drop(page);
}

/// A buffer of a page pool kept in a ring between polls (see [`Page::park`]).
///
/// It only owns the buffer: no DMA address can be read from it (its pool may be gone, and with
/// it the mapping), and it goes back to its pool when dropped, the whole page synced for the
/// device (the CPU may have written it before it was parked). Its pool turns it back into a
/// [`Page`] with [`PagePool::unpark`] or [`PagePool::take_parked`], if the pool still cuts its
/// pages as it was cut (size and headroom).
///
/// # Invariants
///
/// `page` is a page allocated from a page pool, of which this object owns the `shape.size()`
/// bytes at `off` (`off + shape.size() <= PAGE_SIZE`), with the headroom `shape.offset()`,
/// and one reference, as a [`Page`] does.
pub struct ParkedPage {
    page: NonNull<bindings::page>,
    off: u32,
    shape: Shape,
}

// SAFETY: Only an owned page reference; dropping it returns it through the pool's locked ring,
// valid from any CPU.
unsafe impl Send for ParkedPage {}
// SAFETY: `&ParkedPage` gives access to nothing.
unsafe impl Sync for ParkedPage {}

impl Drop for ParkedPage {
    #[inline]
    fn drop(&mut self) {
        // Off the hot path (teardown, a slot found taken): the whole page is synced, whatever
        // the CPU wrote before the buffer was parked.
        // SAFETY: We own a reference to a page pool page (type invariant). `page->pp` keeps the
        // C pool allocated while the page is in flight, even after the owner destroyed it
        // (the pool's `dma_sync` flag, cleared then, stops the sync); `allow_direct = false` is
        // valid anywhere.
        unsafe {
            let page = self.page.as_ptr();
            bindings::page_pool_put_page(bindings::page_pool_of(page), page, PAGE_SIZE, false)
        };
    }
}
