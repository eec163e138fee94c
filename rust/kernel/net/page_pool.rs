// SPDX-License-Identifier: GPL-2.0

//! Page pools: recycled, pre-mapped receive buffers.
//!
//! A [`PagePool`] hands out [`Page`]s that are DMA-mapped for the device and synced for it by
//! the pool. A page is owned by value: it goes back to its pool when it is recycled with the
//! number of bytes the device wrote ([`Page::recycle`]), when it becomes part of an skb
//! ([`Page::build_skb`]), or when it is dropped. Because each of those consumes the page, a
//! page cannot be read after it was recycled.
//!
//! C headers: [`include/net/page_pool/types.h`](srctree/include/net/page_pool/types.h),
//! [`include/net/page_pool/helpers.h`](srctree/include/net/page_pool/helpers.h).

use crate::{
    bindings, device,
    dma::DmaAddress,
    net::{napi::NapiContext, skb::SkBuff},
    prelude::*,
};
use core::ptr::NonNull;

/// Size of one page, the unit a pool hands out (order-0 pools only).
pub const PAGE_SIZE: u32 = bindings::PAGE_SIZE as u32;

/// Tail room `build_skb` needs after the data for `struct skb_shared_info`.
pub const SKB_SHINFO_SIZE: u32 = bindings::SKB_SHINFO_SIZE as u32;

/// Parameters of a [`PagePool`].
pub struct Params {
    /// Number of pages the pool keeps ready (usually the ring size).
    pub pool_size: u32,
    /// Offset in the page where the device starts writing (the headroom).
    pub offset: u32,
    /// The most bytes the device may write from `offset`: the pool syncs at most this much.
    pub max_len: u32,
}

/// A page pool that maps its pages for the device and syncs them before reuse
/// (`PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV`), for device-to-memory DMA.
///
/// # Invariants
///
/// `self.0` is a page pool created by [`PagePool::new`] and destroyed on drop.
pub struct PagePool(NonNull<bindings::page_pool>);

// SAFETY: A page pool may be used from any CPU; the allocation fast path is only used through
// `&mut self` or the NAPI context of its owner (see `alloc`).
unsafe impl Send for PagePool {}
// SAFETY: `&PagePool` only reads pool statistics and the pool pointer.
unsafe impl Sync for PagePool {}

impl PagePool {
    /// Creates a pool for `dev`.
    #[inline]
    pub fn new(dev: &device::Device<device::Bound>, params: &Params) -> Result<Self> {
        if params.offset.checked_add(params.max_len).ok_or(EINVAL)? > PAGE_SIZE {
            return Err(EINVAL);
        }
        // SAFETY: All-zero is a valid `page_pool_params` (no callbacks, no napi).
        let mut p: bindings::page_pool_params = unsafe { core::mem::zeroed() };
        p.__bindgen_anon_1.fast = bindings::page_pool_params__bindgen_ty_1_page_pool_params_fast {
            order: 0,
            pool_size: params.pool_size,
            nid: bindings::NUMA_NO_NODE,
            dev: dev.as_raw(),
            napi: core::ptr::null_mut(),
            dma_dir: bindings::dma_data_direction::DMA_FROM_DEVICE,
            max_len: params.max_len,
            offset: params.offset,
        };
        // SAFETY: Reading the zeroed slow group as a whole is valid.
        let mut slow = unsafe { p.__bindgen_anon_2.slow };
        slow.flags = bindings::PP_FLAG_DMA_MAP | bindings::PP_FLAG_DMA_SYNC_DEV;
        p.__bindgen_anon_2.slow = slow;
        // SAFETY: `p` is fully initialised; `dev` outlives the pool's use by the driver, and
        // the pool keeps its own reference for in-flight pages.
        let pool = unsafe { bindings::page_pool_create(&p) };
        if pool.is_null() {
            return Err(ENOMEM);
        }
        let pool = crate::error::from_err_ptr(pool)?;
        // INVARIANT: created above.
        Ok(Self(NonNull::new(pool).ok_or(ENOMEM)?))
    }

    /// Takes a page from the pool, mapped and synced for the device; `None` when memory is
    /// short (the caller must count the failure).
    ///
    /// `&mut self` makes the single-consumer fast path exclusive: a pool is refilled only by
    /// its owner.
    #[inline]
    pub fn alloc(&mut self) -> Option<Page> {
        // SAFETY: `self.0` is a live pool; exclusive access per `&mut self`.
        let page = unsafe { bindings::page_pool_dev_alloc_pages(self.0.as_ptr()) };
        // INVARIANT: a non-null page came from this pool and is ours.
        NonNull::new(page).map(Page)
    }

    /// Returns the raw pool.
    #[inline]
    pub fn as_raw(&self) -> *mut bindings::page_pool {
        self.0.as_ptr()
    }

    /// A handle that reads this pool's statistics from any context, for as long as the
    /// handle lives (it keeps the pool alive).
    #[inline]
    pub fn stats_handle(&self) -> StatsHandle {
        // SAFETY: `self.0` is live; the extra user reference is dropped by `StatsHandle`.
        unsafe { bindings::page_pool_get(self.0.as_ptr()) };
        StatsHandle(self.0)
    }
}

/// A user reference to a page pool that only reads its statistics.
///
/// # Invariants
///
/// Holds one user reference (`page_pool_get()`) to the pool, released on drop.
pub struct StatsHandle(NonNull<bindings::page_pool>);

// SAFETY: Reading statistics is safe from any CPU; the reference keeps the pool alive.
unsafe impl Send for StatsHandle {}
// SAFETY: As above; only reads.
unsafe impl Sync for StatsHandle {}

impl StatsHandle {
    /// Adds this pool's counters to `stats`.
    #[cfg(CONFIG_PAGE_POOL_STATS)]
    #[inline]
    pub fn add_to(&self, stats: &mut Stats) {
        // SAFETY: The pool is alive (type invariant); `stats` is valid for writes.
        unsafe { bindings::page_pool_get_stats(self.0.as_ptr(), &mut stats.0) };
    }
}

impl Drop for StatsHandle {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: Drops our user reference; the pool is released with its last user.
        unsafe { bindings::page_pool_destroy(self.0.as_ptr()) };
    }
}

/// Accumulated page pool statistics (`struct page_pool_stats`), as `ethtool -S` shows them.
#[cfg(CONFIG_PAGE_POOL_STATS)]
pub struct Stats(bindings::page_pool_stats);

#[cfg(CONFIG_PAGE_POOL_STATS)]
impl Default for Stats {
    #[inline]
    fn default() -> Self {
        // SAFETY: All-zero counters are valid.
        Self(unsafe { core::mem::zeroed() })
    }
}

#[cfg(CONFIG_PAGE_POOL_STATS)]
impl Stats {
    /// Number of counters `ethtool -S` shows for page pools.
    #[inline]
    pub fn count() -> u32 {
        // SAFETY: Returns a constant.
        let n = unsafe { bindings::page_pool_ethtool_stats_get_count() };
        u32::try_from(n).unwrap_or(0)
    }

    /// Writes the counter names (`page_pool_ethtool_stats_get_strings()`).
    #[inline]
    pub fn write_names(w: &mut crate::net::ethtool::StringWriter<'_>) {
        let n = Self::count() as usize;
        if let Some(buf) = w.reserve(n) {
            // SAFETY: `buf` holds `n * ETH_GSTRING_LEN` writable bytes, what C writes.
            unsafe { bindings::page_pool_ethtool_stats_get_strings(buf.as_mut_ptr()) };
        }
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

impl Drop for PagePool {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: `self.0` is live; C defers the release until every in-flight page came back.
        unsafe { bindings::page_pool_destroy(self.0.as_ptr()) };
    }
}

/// A page owned by the driver, taken from a [`PagePool`].
///
/// # Invariants
///
/// `self.0` is a page allocated from a live page pool (`page->pp`), with one reference owned by
/// this object.
pub struct Page(NonNull<bindings::page>);

// SAFETY: Page ownership can move between CPUs.
unsafe impl Send for Page {}
// SAFETY: `&Page` only reads.
unsafe impl Sync for Page {}

impl Page {
    #[inline]
    fn pool(&self) -> *mut bindings::page_pool {
        // SAFETY: `self.0` is a page pool page (type invariant).
        unsafe { bindings::page_pool_of(self.0.as_ptr()) }
    }

    /// The DMA address of the start of the page.
    #[inline]
    pub fn dma_addr(&self) -> DmaAddress {
        // SAFETY: The page belongs to a DMA-mapping pool.
        unsafe { bindings::page_pool_get_dma_addr(self.0.as_ptr()) }
    }

    /// Makes the `len` bytes the device wrote at the pool's offset visible to the CPU and
    /// returns them. Fails with `EINVAL` if they do not fit in the page: a device reporting a
    /// longer frame than its buffer is stopped here, before anything reads it.
    #[inline]
    pub fn sync_for_cpu(&mut self, len: u32) -> Result<&[u8]> {
        let pool = self.pool();
        // SAFETY: `pool` is the live pool of this page.
        let offset = unsafe { (*pool).p.offset };
        if offset.checked_add(len).ok_or(EINVAL)? > PAGE_SIZE {
            return Err(EINVAL);
        }
        // SAFETY: The range is inside the page; the pool mapped it.
        unsafe { bindings::page_pool_dma_sync_for_cpu(pool, self.0.as_ptr(), 0, len) };
        // SAFETY: The page is in the kernel's linear map (order-0 pool pages), we own it, and
        // the range is inside it.
        Ok(unsafe {
            let base = bindings::page_pool_page_address(self.0.as_ptr()).cast::<u8>();
            core::slice::from_raw_parts(base.add(offset as usize), len as usize)
        })
    }

    /// Makes `len` bytes at the pool's offset, written by the CPU or to be written by the
    /// device, visible to the device again without going through the pool: what the pool
    /// itself does when a page is recycled with a dirty length. `len` is clamped to the
    /// pool's `max_len`.
    #[inline]
    pub fn sync_for_device(&mut self, len: u32) {
        let pool = self.pool();
        // SAFETY: `pool` is the live pool of this page.
        let (dev, offset, max_len) =
            unsafe { ((*pool).p.dev, (*pool).p.offset, (*pool).p.max_len) };
        // SAFETY: The page is mapped by its pool for `dev`; the range is inside the mapping.
        unsafe {
            bindings::dma_sync_single_for_device(
                dev,
                self.dma_addr() + u64::from(offset),
                len.min(max_len) as usize,
                bindings::dma_data_direction::DMA_FROM_DEVICE,
            )
        };
    }

    /// Gives the page back to its pool from the pool's NAPI poll, telling it that the device
    /// wrote `dirty_len` bytes from the pool's offset: only those are synced for the device
    /// again. Pass 0 for a page the device never wrote (teardown, errored descriptor): then no
    /// sync is done at all.
    #[inline]
    pub fn recycle(self, _ctx: &NapiContext<'_>, dirty_len: u32) {
        let (pool, page) = (self.pool(), self.into_raw());
        // SAFETY: We own `page` and give it back; in NAPI context direct recycling is allowed.
        unsafe { bindings::page_pool_put_page(pool, page, dirty_len, true) };
    }

    /// Gives the page back to its pool from any context, syncing `dirty_len` bytes.
    #[inline]
    pub fn release(self, dirty_len: u32) {
        let (pool, page) = (self.pool(), self.into_raw());
        // SAFETY: We own `page` and give it back; `allow_direct = false` is safe anywhere.
        unsafe { bindings::page_pool_put_page(pool, page, dirty_len, false) };
    }

    /// Builds an skb around the page (`napi_build_skb()`) holding the `len` bytes the device
    /// wrote at the pool's offset, which stays as headroom; the page returns to its pool when
    /// the stack frees the skb.
    ///
    /// On allocation failure, or if the frame does not fit in front of the skb's shared info,
    /// the page is handed back so the caller can recycle it and count the failure.
    #[inline]
    pub fn build_skb(self, _ctx: &NapiContext<'_>, len: u32) -> core::result::Result<SkBuff, Page> {
        let mut page = self;
        // SAFETY: `pool` is the live pool of this page.
        let headroom = unsafe { (*page.pool()).p.offset };
        let fits = headroom
            .checked_add(len)
            .and_then(|n| n.checked_add(SKB_SHINFO_SIZE))
            .is_some_and(|n| n <= PAGE_SIZE);
        if !fits || page.sync_for_cpu(len).is_err() {
            return Err(page);
        }
        // SAFETY: The page is ours and mapped in the linear map.
        let va = unsafe { bindings::page_pool_page_address(page.0.as_ptr()) };
        // SAFETY: In NAPI context (token); `va` is a whole page we own.
        let skb = unsafe { bindings::napi_build_skb(va, PAGE_SIZE) };
        if skb.is_null() {
            return Err(page);
        }
        // The skb owns the page now.
        let _ = page.into_raw();
        // SAFETY: `skb` is new and ours; the sizes were checked above against the page.
        unsafe {
            bindings::skb_reserve(skb, headroom as c_int);
            bindings::skb_put(skb, len);
            bindings::skb_mark_for_recycle(skb);
            Ok(SkBuff::from_raw(skb))
        }
    }

    /// Adds the `len` bytes the device wrote at the pool's offset to `skb` as a page fragment;
    /// the page returns to its pool when the stack frees the skb. On failure (the skb has no
    /// fragment slot left, or `len` does not fit) the page is handed back.
    #[inline]
    pub fn add_to_skb(self, skb: &mut SkBuff, len: u32) -> core::result::Result<(), Page> {
        let mut page = self;
        if page.sync_for_cpu(len).is_err() {
            return Err(page);
        }
        // SAFETY: `pool` is the live pool of this page.
        let offset = unsafe { (*page.pool()).p.offset };
        if skb.nr_frags() >= crate::net::skb::MAX_FRAGS {
            return Err(page);
        }
        let raw = page.into_raw();
        // SAFETY: we give up our page reference; `offset + len` is inside the page (checked by
        // `sync_for_cpu`) and a fragment slot is free (checked above).
        let r = unsafe { skb.add_rx_frag(raw, offset, len, PAGE_SIZE) };
        // The slot was checked above, so this cannot fail; keep the page owned if it did.
        if r.is_err() {
            // SAFETY: the page reference was not taken by the skb.
            return Err(Page(unsafe { NonNull::new_unchecked(raw) }));
        }
        skb.mark_for_recycle();
        Ok(())
    }

    #[inline]
    fn into_raw(self) -> *mut bindings::page {
        let p = self.0.as_ptr();
        core::mem::forget(self);
        p
    }
}

impl Drop for Page {
    #[inline]
    fn drop(&mut self) {
        // A page dropped without being recycled was not written as far as we know: sync
        // nothing.
        // SAFETY: We own the page; `allow_direct = false` is safe in any context.
        unsafe { bindings::page_pool_put_page(self.pool(), self.0.as_ptr(), 0, false) };
    }
}
