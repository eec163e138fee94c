// SPDX-License-Identifier: GPL-2.0

//! XDP: BPF programs run on received frames before any skb exists.
//!
//! A driver keeps its attached program in a [`ProgSlot`], which [`Operations::setup`]
//! fills and empties while traffic flows. In its poll it reads the slot with the poll's
//! [`RxContext`], which proves the RCU read-side section that keeps a program alive after it
//! was replaced, and runs the program on a received page with [`RxQueue::run`]:
//!
//! - the page is consumed; what comes back is a [`Verdict`] that owns whatever is left of it:
//!   a [`Buff`] to build an skb from (`XDP_PASS`), a [`Frame`] to queue for transmission
//!   (`XDP_TX`), nothing (`XDP_REDIRECT`: the page went to the target), or the page itself
//!   with the length to sync for the device (`XDP_DROP`, `XDP_ABORTED`, or a redirect or
//!   conversion that failed). A page handed to `XDP_TX` or redirect cannot be touched again;
//! - [`RxQueue::run_with`] hands the same outcomes to the methods of an [`OnVerdict`]
//!   instead: each place that reaches a verdict calls its method directly, so a poll loop
//!   does not build a [`Verdict`] only to take it apart again;
//! - a poll that runs the program on many frames makes a [`Runner`] first: what is the same
//!   for every frame is set up once, and the frame's metadata is asked of the handler only
//!   for a program that can read it;
//! - a frame of several buffers goes to [`RxQueue::run_frags`], which takes every page and
//!   runs only programs that declared fragment support: the fragments follow the frame
//!   wherever it goes, and go back to their pool when it is dropped;
//! - the flush that redirects need (`xdp_do_flush()`) is done by the NAPI abstraction at the
//!   end of every poll that redirected, so it cannot be forgotten;
//! - the receive queue info ([`RxQueue`]) a program sees is registered by the NAPI instance
//!   that owns the page pool, with that pool as its memory model, so frames always return to
//!   their pool.
//!
//! Frames redirected to the device arrive through [`Operations::xmit`] as owned
//! [`Frame`]s: a frame taken is the driver's to send or drop, and the count the core sees is
//! the count the driver took.
//!
//! A driver implements the XDP callbacks in this module's [`Operations`], besides
//! [`netdev::Operations`], and gives [`table`] to its registration: the netdev module, which
//! this one builds on, knows nothing of XDP but how to install that table.
//!
//! C headers: [`include/net/xdp.h`](srctree/include/net/xdp.h),
//! [`include/linux/filter.h`](srctree/include/linux/filter.h).

#[cfg(CONFIG_XDP_SOCKETS)]
use crate::net::xsk;
use crate::{
    bindings,
    error::{from_result, VTABLE_DEFAULT_ERROR},
    net::{
        napi::RxContext,
        netdev::{self, Device, NETIF_F_HW_VLAN_CTAG_RX, NETIF_F_RXHASH},
        page_pool,
        rtnl::Rtnl,
        skb::{SkBuff, VlanProto, VlanTag},
    },
    prelude::*,
    sync::atomic::{Acquire, Atomic, Full},
};
use core::{marker::PhantomData, ptr::NonNull};

pub use crate::net::napi::{RxQueue, PACKET_HEADROOM};
pub use crate::net::netdev::ExtAck;

/// What a device can do with XDP (`xdp_features`, `enum netdev_xdp_act`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Features(u32);

impl Features {
    /// No XDP support.
    pub const NONE: Self = Self(0);
    /// `XDP_PASS`, `XDP_DROP`, `XDP_TX` and `XDP_ABORTED` (`NETDEV_XDP_ACT_BASIC`).
    pub const BASIC: Self = Self(bindings::netdev_xdp_act_NETDEV_XDP_ACT_BASIC);
    /// `XDP_REDIRECT` from this device (`NETDEV_XDP_ACT_REDIRECT`).
    pub const REDIRECT: Self = Self(bindings::netdev_xdp_act_NETDEV_XDP_ACT_REDIRECT);
    /// Frames redirected to this device (`NETDEV_XDP_ACT_NDO_XMIT`).
    pub const NDO_XMIT: Self = Self(bindings::netdev_xdp_act_NETDEV_XDP_ACT_NDO_XMIT);
    /// Programs that handle frames of several buffers run on frames of several buffers
    /// (`NETDEV_XDP_ACT_RX_SG`, [`RxQueue::run_frags`]).
    pub const RX_SG: Self = Self(bindings::netdev_xdp_act_NETDEV_XDP_ACT_RX_SG);
    /// Frames of several buffers redirected to this device (`NETDEV_XDP_ACT_NDO_XMIT_SG`):
    /// without it, the core hands [`XmitFrames`] frames of one buffer only.
    pub const NDO_XMIT_SG: Self = Self(bindings::netdev_xdp_act_NETDEV_XDP_ACT_NDO_XMIT_SG);
    /// AF_XDP sockets can bind queues in zero-copy mode: needs [`Operations::xsk_setup`] and
    /// [`Operations::xsk_wakeup`], and [`Features::BASIC`] and [`Features::REDIRECT`].
    pub const XSK_ZEROCOPY: Self = Self(bindings::netdev_xdp_act_NETDEV_XDP_ACT_XSK_ZEROCOPY);

    /// The raw `NETDEV_XDP_ACT_*` bits.
    #[inline]
    pub fn bits(self) -> u32 {
        self.0
    }

    /// Whether every feature of `other` is in `self`.
    #[inline]
    pub fn contains(self, other: Self) -> bool {
        self.0 & other.0 == other.0
    }
}

impl core::ops::BitOr for Features {
    type Output = Self;
    #[inline]
    fn bitor(self, rhs: Self) -> Self {
        Self(self.0 | rhs.0)
    }
}

crate::impl_flags!(
    /// What an RSS hash covers (`enum xdp_rss_hash_type`), as the metadata kfunc
    /// `bpf_xdp_metadata_rx_hash()` reports it: the IP version, whether its options or
    /// extension headers were parsed, and, for a hash over the ports, the transport protocol.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub struct RssHashType(u32);

    /// One part of an [`RssHashType`].
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum RssHashPart {
        /// Over IPv4 addresses (`XDP_RSS_L3_IPV4`).
        L3Ipv4 = bindings::xdp_rss_hash_type_XDP_RSS_L3_IPV4,
        /// Over IPv6 addresses (`XDP_RSS_L3_IPV6`).
        L3Ipv6 = bindings::xdp_rss_hash_type_XDP_RSS_L3_IPV6,
        /// IPv4 options or IPv6 extension headers were parsed (`XDP_RSS_L3_DYNHDR`).
        L3DynHdr = bindings::xdp_rss_hash_type_XDP_RSS_L3_DYNHDR,
        /// Over the transport ports too (`XDP_RSS_L4`): always with the protocol's part.
        L4 = bindings::xdp_rss_hash_type_XDP_RSS_L4,
        /// Of a TCP segment (`XDP_RSS_L4_TCP`).
        L4Tcp = bindings::xdp_rss_hash_type_XDP_RSS_L4_TCP,
        /// Of a UDP datagram (`XDP_RSS_L4_UDP`).
        L4Udp = bindings::xdp_rss_hash_type_XDP_RSS_L4_UDP,
    }
);

/// What a driver keeps of a received frame for the XDP metadata kfuncs
/// (`bpf_xdp_metadata_rx_hash()`, `bpf_xdp_metadata_rx_vlan_tag()`), in its own encoding:
/// typically the words of the receive descriptor that carry the hash and the tag. It is given
/// to [`RxQueue::run`] with the frame, or asked of the handler ([`OnVerdict::meta`]) by a
/// [`Runner`] for a program that can call the kfuncs, and decoded only when a program asks,
/// by [`Operations::rx_hash`] and [`Operations::rx_vlan_tag`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RxMeta(pub [u64; 2]);

/// The buffer description an XDP program runs on: the core's `xdp_buff` first, so that the
/// metadata kfuncs, which are given a pointer to it, find the frame's [`RxMeta`] behind it.
///
/// Every program the abstractions run, they run on one of these ([`Runner::run_frags_with`]).
#[repr(C)]
struct MetaBuff {
    xdp: bindings::xdp_buff,
    meta: RxMeta,
}

impl RxMeta {
    /// The metadata of the frame an XDP program runs on, and the device that received it.
    ///
    /// # Safety
    ///
    /// `ctx` must be the context of a running XDP program that [`Runner::run_frags_with`] or
    /// [`run_xsk`] runs; the results must not be used after the program returns. The metadata
    /// is the frame's if the program is bound to the device ([`ProgRef::dev_bound`]);
    /// otherwise it is an earlier frame's, the default, or zeroes.
    #[inline]
    pub(crate) unsafe fn from_ctx<'a>(
        ctx: *const bindings::xdp_md,
    ) -> (&'a Self, *mut bindings::net_device) {
        let b = ctx.cast::<MetaBuff>();
        // SAFETY: The context of a program `run_frags_with` runs is the `xdp` field, first in
        // a live `MetaBuff` (safety requirement, `#[repr(C)]`) whose `meta` is always
        // initialised, and whose pointer was derived from the whole `MetaBuff`; its `rxq` is
        // our registered `RxQueue`'s info, of a live device. That of a program `run_xsk` runs
        // is the `xdp` field of an `xdp_buff_xsk` (`__aligned_largest`, allocated zeroed with
        // the pool), whose control block, private to the driver, follows it where `MetaBuff`
        // keeps `meta` (`run_xsk` checks the offset and size at build time) and holds the
        // frame's metadata (written before a bound program runs) or zeroes; its `rxq` is the
        // registered info of the binding, of a live device.
        unsafe { (&(*b).meta, (*(*b).xdp.rxq).dev) }
    }
}

/// An XDP program, with one reference owned (`struct bpf_prog`).
///
/// Dropping it gives the reference up (`bpf_prog_put()`, valid in any context: the last put
/// frees the program only after an RCU grace period).
///
/// # Invariants
///
/// `self.0` is a loaded program of type `BPF_PROG_TYPE_XDP` of which this object owns one
/// reference.
pub struct Prog(NonNull<bindings::bpf_prog>);

// SAFETY: Only a counted reference; the program is immutable once loaded and its reference
// count is atomic.
unsafe impl Send for Prog {}
// SAFETY: `&Prog` only reads the immutable program.
unsafe impl Sync for Prog {}

impl Prog {
    /// Takes a new reference to `prog`.
    ///
    /// # Safety
    ///
    /// `prog` must be a live XDP program on which the caller holds a reference for the
    /// duration of the call.
    #[inline]
    pub(crate) unsafe fn from_raw_get(prog: NonNull<bindings::bpf_prog>) -> Self {
        // SAFETY: `prog` is live (safety requirement), so its count is not zero.
        unsafe { bindings::bpf_prog_inc(prog.as_ptr()) };
        // INVARIANT: the reference taken above is ours.
        Self(prog)
    }

    /// Whether the program handles frames of several buffers (`BPF_F_XDP_HAS_FRAGS`).
    #[inline]
    pub fn has_frags(&self) -> bool {
        // SAFETY: The program is live (type invariant); `aux` is set at load time.
        unsafe { (*(*self.0.as_ptr()).aux).xdp_has_frags }
    }
}

impl Drop for Prog {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: We own one reference (type invariant) and give it up.
        unsafe { bindings::bpf_prog_put(self.0.as_ptr()) };
    }
}

/// The XDP program a device runs, replaced while traffic flows and read by every poll.
///
/// A poll reads it with its [`RxContext`] and may use the program until the poll returns,
/// even if it is replaced and its reference dropped meanwhile: NAPI polls run with bottom
/// halves disabled, an RCU read-side critical section, and a program whose last reference
/// is dropped is freed only after an RCU grace period.
///
/// # Invariants
///
/// `prog` is null or a program of which the slot owns one reference.
pub struct ProgSlot {
    prog: Atomic<*mut bindings::bpf_prog>,
}

// SAFETY: The slot owns program references (which are `Send + Sync`) and is changed atomically.
unsafe impl Send for ProgSlot {}
// SAFETY: As above: every access is an atomic operation.
unsafe impl Sync for ProgSlot {}

impl Default for ProgSlot {
    #[inline]
    fn default() -> Self {
        Self::new()
    }
}

impl ProgSlot {
    /// An empty slot.
    #[inline]
    pub const fn new() -> Self {
        // INVARIANT: null.
        Self {
            prog: Atomic::new(core::ptr::null_mut()),
        }
    }

    /// Puts `prog` (or nothing) in the slot and returns the program that was there. Polls
    /// that already read the old one may keep running it until they return.
    #[inline]
    pub fn replace(&self, prog: Option<Prog>, _rtnl: &Rtnl) -> Option<Prog> {
        self.swap(prog)
    }

    #[inline]
    fn swap(&self, prog: Option<Prog>) -> Option<Prog> {
        let new = prog.map_or(core::ptr::null_mut(), |p| {
            let raw = p.0.as_ptr();
            core::mem::forget(p);
            raw
        });
        // Full ordering: a poll that sees the new pointer sees the program it points to.
        let old = self.prog.xchg(new, Full);
        // INVARIANT: the slot owns the reference of `new`; that of `old` moves to the caller.
        NonNull::new(old).map(Prog)
    }

    /// Whether a program is attached.
    #[inline]
    pub fn is_set(&self) -> bool {
        !self.prog.load(Acquire).is_null()
    }

    /// Whether the attached program handles frames of several buffers; `None` if no program
    /// is attached.
    #[inline]
    pub fn has_frags(&self, _rtnl: &Rtnl) -> Option<bool> {
        let p = NonNull::new(self.prog.load(Acquire))?;
        // SAFETY: The slot owns a reference to `p` (type invariant), and only `replace`, which
        // needs the RTNL lock we hold, gives it up: it stays alive for this read.
        Some(unsafe { (*(*p.as_ptr()).aux).xdp_has_frags })
    }

    /// The program to run in this poll, if any; it stays usable until the poll returns.
    #[inline]
    pub fn get<'a>(&self, _rx: &'a RxContext<'_, '_>) -> Option<ProgRef<'a>> {
        let p = NonNull::new(self.prog.load(Acquire))?;
        // INVARIANT: a program the slot held a reference to when it was read, inside the
        // poll's RCU read-side section, which outlives `'a` (`_rx` lives inside the poll).
        Some(ProgRef(p, PhantomData))
    }
}

impl Drop for ProgSlot {
    #[inline]
    fn drop(&mut self) {
        drop(self.swap(None));
    }
}

/// An XDP program read from a [`ProgSlot`], usable until the poll that read it returns.
///
/// # Invariants
///
/// `self.0` is an XDP program that stays allocated for `'a`.
#[derive(Clone, Copy)]
pub struct ProgRef<'a>(NonNull<bindings::bpf_prog>, PhantomData<&'a ()>);

impl ProgRef<'_> {
    /// Whether the program handles frames of several buffers (`BPF_F_XDP_HAS_FRAGS`): only
    /// then may it see them ([`RxQueue::run_frags`]).
    #[inline]
    pub fn has_frags(self) -> bool {
        // SAFETY: The program is allocated for `'a` (type invariant); `aux` is set at load.
        unsafe { (*(*self.0.as_ptr()).aux).xdp_has_frags }
    }

    /// Whether the program was loaded bound to a device (`BPF_F_XDP_DEV_BOUND_ONLY`): only
    /// such a program can call the device's metadata kfuncs, which read the [`RxMeta`].
    #[inline]
    pub fn dev_bound(self) -> bool {
        // SAFETY: The program is allocated for `'a` (type invariant); `aux` is set at load,
        // and so is `dev_bound`, which never changes afterwards.
        unsafe { (*(*self.0.as_ptr()).aux).dev_bound }
    }
}

/// Why a frame was dropped: the driver counts each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropReason {
    /// The program returned `XDP_DROP`.
    Drop,
    /// `XDP_ABORTED`, an unknown action, or a frame that could not become an `XDP_TX` frame;
    /// traced (`xdp:xdp_exception`).
    Aborted,
    /// `XDP_REDIRECT` to a target that refused the frame; traced by the redirect code.
    Redirect,
    /// The frame does not leave the tail room XDP needs in its buffer, has more buffers than
    /// an skb takes, a buffer the device wrote nothing into or past its page, or buffers a
    /// program without fragment support would see.
    TooLong,
    /// A buffer of the frame is not cut as programs need (a whole page with XDP's headroom):
    /// the program came before the driver gave its pool that layout.
    Layout,
}

/// What is left of a received page after its XDP program ran.
pub enum Verdict<'p> {
    /// `XDP_PASS`: the frame, possibly moved or resized by the program, goes up the stack.
    Pass(Buff<'p>),
    /// `XDP_TX`: the frame is to be sent out of the device it came in on.
    Tx(Frame),
    /// `XDP_REDIRECT`: the redirect target has the frame (flushed at the end of the poll).
    Redirected,
    /// The frame is dropped: recycle the page with `dirty` as the length to sync.
    Drop {
        /// The page the frame was in.
        page: page_pool::Page<'p>,
        /// The length to sync for the device from the pool's offset: the bytes the device
        /// or the program may have written; where the device needs no sync it may be 0
        /// (nothing to sync).
        dirty: u32,
        /// Why.
        reason: DropReason,
    },
}

/// What a driver does with the outcome of an XDP program, for [`Runner::run_with`] and
/// [`Runner::run_frags_with`] (and the same methods of [`RxQueue`]), which call exactly one
/// method, once, with what the verdict leaves to the driver (the same as the variants of
/// [`Verdict`] carry), after asking [`OnVerdict::meta`] at most once.
///
/// The methods take `self` (so no more than one can run): a handler is typically a set of
/// borrows of the poll's state (the ring, the counters) made for one frame. Marking them
/// `#[inline(always)]` lets each place in `run_with` that reaches a verdict run the driver's
/// code for it directly.
pub trait OnVerdict<'p> {
    /// What `run_with` returns.
    type Output;

    /// The frame's metadata for the program's metadata kfuncs. Asked for before the program
    /// runs, and only if it is one that can call them ([`ProgRef::dev_bound`]): a driver
    /// reads the descriptor words it keeps here, not on every frame. A driver that keeps
    /// none (it implements neither `xdp_rx_hash` nor `xdp_rx_vlan_tag`) returns the default.
    fn meta(&self) -> RxMeta;

    /// `XDP_PASS`: the frame, possibly moved or resized by the program, goes up the stack.
    fn pass(self, buff: Buff<'p>) -> Self::Output;

    /// `XDP_TX`: the frame is to be sent out of the device it came in on.
    fn tx(self, frame: Frame) -> Self::Output;

    /// `XDP_REDIRECT`: the redirect target has the frame (flushed at the end of the poll).
    fn redirected(self) -> Self::Output;

    /// The frame is dropped: `page` is its first page, `dirty` the length to sync for the
    /// device from the pool's offset (the bytes the device or the program may have written;
    /// possibly 0 where the device needs no sync: not a count of bytes). The fragments are
    /// not the handler's: those attached went back to their pools, those not yet attached (a
    /// frame dropped as [`DropReason::TooLong`]) go back when the iterator is dropped.
    fn dropped(self, page: page_pool::Page<'p>, dirty: u32, reason: DropReason) -> Self::Output;
}

/// The handler that turns the outcome into a [`Verdict`] ([`RxQueue::run`]).
struct IntoVerdict;

impl<'p> OnVerdict<'p> for IntoVerdict {
    type Output = Verdict<'p>;

    /// Never asked: [`RxQueue::run`] wraps it in a [`WithMeta`].
    #[inline(always)]
    fn meta(&self) -> RxMeta {
        RxMeta::default()
    }

    #[inline(always)]
    fn pass(self, buff: Buff<'p>) -> Verdict<'p> {
        Verdict::Pass(buff)
    }

    #[inline(always)]
    fn tx(self, frame: Frame) -> Verdict<'p> {
        Verdict::Tx(frame)
    }

    #[inline(always)]
    fn redirected(self) -> Verdict<'p> {
        Verdict::Redirected
    }

    #[inline(always)]
    fn dropped(self, page: page_pool::Page<'p>, dirty: u32, reason: DropReason) -> Verdict<'p> {
        Verdict::Drop {
            page,
            dirty,
            reason,
        }
    }
}

/// A handler with the frame's metadata given up front ([`RxQueue::run_with`]).
struct WithMeta<H> {
    on: H,
    meta: RxMeta,
}

impl<'p, H: OnVerdict<'p>> OnVerdict<'p> for WithMeta<H> {
    type Output = H::Output;

    #[inline(always)]
    fn meta(&self) -> RxMeta {
        self.meta
    }

    #[inline(always)]
    fn pass(self, buff: Buff<'p>) -> H::Output {
        self.on.pass(buff)
    }

    #[inline(always)]
    fn tx(self, frame: Frame) -> H::Output {
        self.on.tx(frame)
    }

    #[inline(always)]
    fn redirected(self) -> H::Output {
        self.on.redirected()
    }

    #[inline(always)]
    fn dropped(self, page: page_pool::Page<'p>, dirty: u32, reason: DropReason) -> H::Output {
        self.on.dropped(page, dirty, reason)
    }
}

/// The fragments of a frame of several buffers, listed in the shared info at the end of the
/// frame's first page, where `napi_build_skb()` expects them.
///
/// Dropping it gives the fragments back to their pools through their locked rings (valid in
/// any context but hard interrupts); [`Frags::recycle`] gives them back directly from the
/// poll.
///
/// # Invariants
///
/// If `nr > 0`, `sinfo` is the shared info at the end of a page held by this object's owner,
/// which gives the page up only after this object (declared before it); its `frags[..nr]` are
/// pages (not net_iovs) of page pools held by this thread for `'p` (as those of a
/// [`page_pool::Page<'p>`]), each with one reference owned by this object.
struct Frags<'p> {
    sinfo: *mut bindings::skb_shared_info,
    nr: u32,
    _pools: PhantomData<page_pool::Page<'p>>,
}

impl<'p> Frags<'p> {
    /// Gives every fragment back to its pool, directly (`allow_direct`) or through its locked
    /// ring, syncing the whole buffer for the device: the program may have written any of it.
    ///
    /// # Safety
    ///
    /// With `direct`, the caller must be in softirq, in the thread that holds the fragments'
    /// pools.
    #[inline(never)]
    unsafe fn put(&mut self, direct: bool) {
        for i in 0..self.nr as usize {
            // SAFETY: `sinfo` is alive (its page outlives us) and `frags[i]`, `i < nr`, is an
            // owned page-pool page (type invariant), given back here once: `nr` is cleared
            // below. With `direct`, the caller is in softirq in the thread that holds the
            // page's pool (safety requirement).
            unsafe {
                let frag = (&raw mut (*self.sinfo).frags)
                    .cast::<bindings::skb_frag_t>()
                    .add(i);
                let page = bindings::skb_frag_page(frag);
                if !page.is_null() {
                    bindings::page_pool_put_page(
                        bindings::page_pool_of(page),
                        page,
                        u32::MAX,
                        direct,
                    );
                }
            }
        }
        // INVARIANT: nothing is owned any more.
        self.nr = 0;
    }

    /// Gives every fragment straight back to its pool's lockless cache, from the poll.
    #[inline(always)]
    fn recycle(mut self, _rx: &RxContext<'_, '_>) {
        if self.nr > 0 {
            // SAFETY: We are in softirq (`_rx`) in the thread that holds the pools (`Page<'p>`
            // borrows its `!Sync` pool, and `Frags<'p>` is `!Send` like it), as
            // `Page::recycle`.
            unsafe { self.put(true) };
        }
    }

    /// The bytes in the fragments.
    #[inline]
    fn bytes(&self) -> u32 {
        if self.nr == 0 {
            return 0;
        }
        // SAFETY: `sinfo` is alive and lists `nr` fragments (type invariant).
        unsafe {
            let list = (&raw const (*self.sinfo).frags).cast::<bindings::skb_frag_t>();
            core::slice::from_raw_parts(list, self.nr as usize)
                .iter()
                .map(|f| f.len)
                .sum()
        }
    }

    /// The fragments are someone else's now (an skb's or a frame's).
    #[inline(always)]
    fn handed_over(mut self) {
        // INVARIANT: nothing is owned any more.
        self.nr = 0;
    }
}

impl Drop for Frags<'_> {
    // Inlined: a frame of one buffer, the common case, has nothing to give back.
    #[inline(always)]
    fn drop(&mut self) {
        if self.nr > 0 {
            // SAFETY: Not direct.
            unsafe { self.put(false) };
        }
    }
}

/// A received frame an XDP program let pass, still in its page (and, for a frame of several
/// buffers, the pages of its fragments): where the program left its start and end.
///
/// # Invariants
///
/// `start + len + SKB_SHINFO_SIZE <= PAGE_SIZE`, and `start >= 0` inside the page; `frags` are
/// listed in the shared info at the end of `page` (and dropped before it); `flags` are the
/// `xdp_buff` flags the program left, with `XDP_FLAGS_HAS_FRAGS` set if and only if
/// `frags` has any; `meta_len <= start`: the `meta_len` bytes before `start` are the metadata
/// the program left in front of the frame (`bpf_xdp_adjust_meta()`).
pub struct Buff<'p> {
    // Declared first: dropped before the page that lists the fragments.
    frags: Frags<'p>,
    page: page_pool::Page<'p>,
    start: u32,
    len: u32,
    dirty: u32,
    moved: bool,
    meta_len: u8,
    flags: u32,
}

impl<'p> Buff<'p> {
    /// The length of the frame's part in its first buffer now (the fragments' bytes are not
    /// counted).
    #[inline]
    pub fn len(&self) -> u32 {
        self.len
    }

    /// Whether the program moved the frame's start or end: what the device reported about
    /// the frame (checksums, hash, VLAN) may then no longer describe it.
    #[inline]
    pub fn moved(&self) -> bool {
        self.moved
    }

    /// Whether the program cut the frame to nothing.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0 && self.frags.nr == 0
    }

    /// Builds an skb around the page holding the frame (`napi_build_skb()`), with the frame's
    /// other buffers as its page fragments and the metadata the program left in front of it
    /// (`skb_metadata_set()`, for TC programs); on allocation failure the fragments go back to
    /// their pool and the first page comes back with the length to sync, for recycling.
    #[inline]
    pub fn build_skb(
        self,
        rx: &RxContext<'_, '_>,
    ) -> core::result::Result<SkBuff, (page_pool::Page<'p>, u32)> {
        let Buff {
            page,
            start,
            len,
            dirty,
            frags,
            meta_len,
            flags,
            ..
        } = self;
        // The metadata, right in front of the data, which is where the MAC header starts.
        let with_meta = |skb: SkBuff| {
            if meta_len > 0 {
                // SAFETY: `skb` is new and ours, built with `start` bytes of headroom of which
                // the last `meta_len` are the program's metadata (type invariant).
                unsafe { bindings::skb_metadata_set(skb.as_raw(), meta_len) };
            }
            skb
        };
        // The range was synced for the CPU before the program ran, and the program's own
        // writes are the CPU's.
        if frags.nr == 0 {
            return page
                .build_skb_at(rx, start, len)
                .map(with_meta)
                .map_err(|page| (page, dirty));
        }
        // The fragments' bytes (what `xdp_frags_size` counts, kept by the program's helpers
        // in step with the list); each is a whole page.
        let size = frags.bytes();
        let truesize = frags.nr * page_pool::PAGE_SIZE;
        match page.build_skb_at(rx, start, len) {
            Ok(skb) => {
                // SAFETY: `skb` was built over the page whose shared info lists the `nr`
                // fragments we own (kept by `napi_build_skb`), which the skb takes over; it
                // is marked for page-pool recycling.
                unsafe {
                    bindings::xdp_update_skb_frags_info(
                        skb.as_raw(),
                        frags.nr as u8,
                        size,
                        truesize,
                        flags,
                    )
                };
                frags.handed_over();
                Ok(with_meta(skb))
            }
            Err(page) => {
                frags.recycle(rx);
                Err((page, dirty))
            }
        }
    }

    /// Gives the page back without building anything, with the length to sync; the
    /// fragments, if any, go back to their pool.
    #[inline]
    pub fn into_page(self) -> (page_pool::Page<'p>, u32) {
        drop(self.frags);
        (self.page, self.dirty)
    }
}

/// A frame made by XDP (`struct xdp_frame`), owning the buffer it lives in.
///
/// Dropping it gives the buffer back (`xdp_return_frame()`; a page-pool page to its pool),
/// which is valid in process and softirq context with interrupts enabled; dropped with
/// interrupts disabled, the page would be returned under a lock that must not be taken there,
/// so it is leaked instead and a warning is printed once.
///
/// # Invariants
///
/// `self.0` is an XDP frame whose buffer this object owns, with its `len` bytes at `data`
/// inside that buffer; if it has fragments, they are listed in the shared info at the end of
/// that buffer and owned too, each a page (not a net_iov) holding its `len` bytes at its
/// offset.
pub struct Frame(NonNull<bindings::xdp_frame>);

// SAFETY: The frame owns its page; returning it through its pool's locked ring works from any
// CPU.
unsafe impl Send for Frame {}
// SAFETY: `&Frame` only reads the frame's fixed description.
unsafe impl Sync for Frame {}

impl Frame {
    /// Whether `frame` has fragments.
    ///
    /// # Safety
    ///
    /// `frame` must be a valid XDP frame.
    #[inline]
    unsafe fn raw_has_frags(frame: NonNull<bindings::xdp_frame>) -> bool {
        // SAFETY: `frame` is valid (safety requirement).
        unsafe { frame.as_ref() }.flags & bindings::xdp_buff_flags_XDP_FLAGS_HAS_FRAGS != 0
    }

    /// The frame's length in bytes, fragments included.
    #[inline]
    pub fn len(&self) -> u32 {
        // SAFETY: The frame is valid (type invariant).
        unsafe { bindings::xdp_get_frame_len(self.0.as_ptr()) }
    }

    /// The lengths of the frame's pieces as `tx::MapSlot::map_frame` maps them: its data in its
    /// first buffer, then each fragment that is not empty.
    #[inline]
    pub fn piece_lens(&self) -> impl Iterator<Item = u32> + '_ {
        Iterator::chain(
            core::iter::once(self.head_len()),
            self.frags().iter().map(|f| f.len).filter(|&l| l > 0),
        )
    }

    /// The length of the frame's data in its first buffer.
    #[inline]
    pub fn head_len(&self) -> u32 {
        // SAFETY: The frame is valid (type invariant).
        unsafe { (*self.0.as_ptr()).len }
    }

    /// The frame's fragments (empty for a frame of one buffer).
    #[inline]
    pub fn frags(&self) -> &[bindings::skb_frag_t] {
        // SAFETY: The frame is valid (type invariant).
        if !unsafe { Self::raw_has_frags(self.0) } {
            return &[];
        }
        // SAFETY: A frame with fragments lists `nr_frags` of them in the shared info at the
        // end of its buffer (type invariant), which lives and is not changed while we own it.
        unsafe {
            let si = bindings::xdp_get_shared_info_from_frame(self.0.as_ptr());
            let frags = (&raw const (*si).frags).cast::<bindings::skb_frag_t>();
            core::slice::from_raw_parts(frags, usize::from((*si).nr_frags))
        }
    }

    /// Whether the frame is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The frame's data, for mapping it.
    #[inline]
    pub fn data_ptr(&self) -> *const u8 {
        // SAFETY: The frame is valid (type invariant).
        unsafe { (*self.0.as_ptr()).data.cast::<u8>().cast_const() }
    }
}

impl Drop for Frame {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: Reads the CPU's interrupt flag.
        if unsafe { bindings::irqs_disabled() } {
            crate::pr_warn_once!("xdp: a frame dropped with interrupts disabled was leaked\n");
            return;
        }
        // SAFETY: We own the frame (type invariant) and give it back, with interrupts enabled
        // (checked above).
        unsafe { bindings::xdp_return_frame(self.0.as_ptr()) };
    }
}

/// The frames of one `ndo_xdp_xmit` call: each frame taken is the driver's; the ones left
/// when the driver returns are the core's again.
///
/// # Invariants
///
/// `frames[next..]` are valid XDP frames owned by the caller of `ndo_xdp_xmit` that nobody
/// took yet. A frame's fragments, if any, are listed in its shared info; those not marked
/// unreadable (`XDP_FLAGS_FRAGS_UNREADABLE`) are pages: the core attaches no XDP program, and
/// so builds no frame, on a device whose queues take memory from a provider, and AF_XDP
/// builds frames of one buffer.
pub struct XmitFrames<'a> {
    frames: &'a [*mut bindings::xdp_frame],
    next: usize,
}

impl<'a> XmitFrames<'a> {
    /// # Safety
    ///
    /// Every pointer in `frames` must be a valid XDP frame owned by the caller, who gives up
    /// those the driver takes ([`XmitFrames::taken`] of them, from the start), with its
    /// fragments as the core builds them (the type invariant).
    #[inline]
    pub(crate) unsafe fn new(frames: &'a [*mut bindings::xdp_frame]) -> Self {
        // INVARIANT: none taken; validity and context per the safety requirements.
        Self { frames, next: 0 }
    }

    /// How many frames were taken.
    #[inline]
    pub fn taken(&self) -> usize {
        self.next
    }

    /// Gives back the frame taken last, unsent: it returns to the core with the ones not
    /// taken and is not counted as sent. Any other frame comes back as `Err`.
    #[inline]
    pub fn give_back(&mut self, frame: Frame) -> core::result::Result<(), Frame> {
        let last = self.next.checked_sub(1).and_then(|i| self.frames.get(i));
        if last != Some(&frame.0.as_ptr()) {
            return Err(frame);
        }
        self.next -= 1;
        // INVARIANT: the frame at `next` is the one just given back, which nobody owns but
        // the caller of `ndo_xdp_xmit` again.
        core::mem::forget(frame);
        Ok(())
    }

    /// How many frames are left.
    #[inline]
    pub fn remaining(&self) -> usize {
        self.frames.len() - self.next
    }
}

impl Iterator for XmitFrames<'_> {
    type Item = Frame;

    /// The next frame, now the caller's. It has fragments only if the device announced
    /// [`Features::NDO_XMIT_SG`]; [`Frame::piece_lens`] tells how many buffers it takes. A
    /// frame with unreadable fragments (which the CPU and this device cannot map) ends the
    /// batch: it and the ones after it stay the core's.
    #[inline]
    fn next(&mut self) -> Option<Frame> {
        let p = NonNull::new(*self.frames.get(self.next)?)?;
        // SAFETY: A valid frame nobody took (type invariant).
        if unsafe { p.as_ref() }.flags & bindings::xdp_buff_flags_XDP_FLAGS_FRAGS_UNREADABLE != 0 {
            return None;
        }
        self.next += 1;
        // INVARIANT: a valid frame nobody took (type invariant), now the caller's, counted in
        // `next` above; the core builds frames with their data inside their buffer, and its
        // fragments, readable (checked above), are pages (type invariant).
        Some(Frame(p))
    }
}

impl RxQueue {
    /// Makes ready to run `prog` on this queue's frames, for as long as the poll that read it
    /// runs.
    #[inline(always)]
    pub fn runner<'a>(&'a self, prog: ProgRef<'a>) -> Runner<'a> {
        // SAFETY: All-zero is a valid `xdp_buff` (null pointers, zero sizes).
        let mut xdp: bindings::xdp_buff = unsafe { core::mem::zeroed() };
        // SAFETY: `xdp` is a local buffer description; `self` is registered (type invariant)
        // and outlives the runner that uses it (a frame made from it carries the memory
        // type, not the info).
        unsafe { bindings::xdp_init_buff(&mut xdp, page_pool::PAGE_SIZE, self.raw()) };
        // INVARIANT: set up for `self`; the metadata is not this frame's, but there is none
        // yet.
        Runner {
            mb: MetaBuff {
                xdp,
                meta: RxMeta::default(),
            },
            rxq: self,
            prog,
            dev_bound: prog.dev_bound(),
            layout: None,
        }
    }

    /// Runs `prog` on the `len` bytes the device wrote into `page` at its pool's offset.
    ///
    /// The page is consumed: see [`Verdict`] for what comes back. `XDP_REDIRECT` is flushed
    /// by the NAPI abstraction when the poll returns. `meta` is what the program's metadata
    /// kfuncs decode (see [`RxMeta`]). A poll running the program on many frames does so with
    /// one [`Runner`].
    #[inline]
    pub fn run<'p>(
        &self,
        rx: &RxContext<'_, '_>,
        prog: ProgRef<'_>,
        page: page_pool::Page<'p>,
        len: u32,
        meta: RxMeta,
    ) -> Verdict<'p> {
        self.run_with(rx, prog, page, len, meta, IntoVerdict)
    }

    /// [`Self::run`], with the outcome handed to `on` instead of returned as a [`Verdict`].
    /// The program's kfuncs see `meta`: `on`'s own [`OnVerdict::meta`] is not asked.
    #[inline(always)]
    pub fn run_with<'p, H: OnVerdict<'p>>(
        &self,
        rx: &RxContext<'_, '_>,
        prog: ProgRef<'_>,
        page: page_pool::Page<'p>,
        len: u32,
        meta: RxMeta,
        on: H,
    ) -> H::Output {
        self.run_frags_with(rx, prog, (page, len), core::iter::empty(), meta, on)
    }

    /// Runs `prog` on a frame of several buffers: see [`Runner::run_frags_with`].
    #[inline]
    pub fn run_frags<'p, I>(
        &self,
        rx: &RxContext<'_, '_>,
        prog: ProgRef<'_>,
        head: (page_pool::Page<'p>, u32),
        frags: I,
        meta: RxMeta,
    ) -> Verdict<'p>
    where
        I: IntoIterator<Item = (page_pool::Page<'p>, u32)>,
    {
        self.run_frags_with(rx, prog, head, frags, meta, IntoVerdict)
    }

    /// [`Self::run_frags`], with the outcome handed to `on` instead of returned as a
    /// [`Verdict`].
    #[inline(always)]
    pub fn run_frags_with<'p, I, H>(
        &self,
        rx: &RxContext<'_, '_>,
        prog: ProgRef<'_>,
        head: (page_pool::Page<'p>, u32),
        frags: I,
        meta: RxMeta,
        on: H,
    ) -> H::Output
    where
        I: IntoIterator<Item = (page_pool::Page<'p>, u32)>,
        H: OnVerdict<'p>,
    {
        self.runner(prog)
            .run_frags_with(rx, head, frags, WithMeta { on, meta })
    }
}

/// An XDP program made ready to run on the frames of one RX queue during one poll
/// ([`RxQueue::runner`]): what is the same for every frame is set up once.
///
/// # Invariants
///
/// `mb.xdp` is a buffer description whose frame size is `PAGE_SIZE` and whose queue info is
/// `rxq`'s; `dev_bound` is `prog.dev_bound()`. While a program runs, `mb.meta` is the
/// frame's if `dev_bound`. If `layout` holds a layout, its buffers are whole pages with at
/// least [`PACKET_HEADROOM`] of headroom.
pub struct Runner<'a> {
    mb: MetaBuff,
    rxq: &'a RxQueue,
    prog: ProgRef<'a>,
    dev_bound: bool,
    layout: Option<page_pool::Layout>,
}

impl<'a> Runner<'a> {
    /// The program this runner runs.
    #[inline]
    pub fn prog(&self) -> ProgRef<'a> {
        self.prog
    }

    /// The runner, told that the buffers it will see are cut as `layout` says (the pool's
    /// layout for the poll, [`PagePool::layout`](page_pool::PagePool::layout)): if programs
    /// can run on buffers of that layout, a buffer cut that way, with no more than the
    /// layout's `max_len` written, takes one test of its layout and length instead of the
    /// full checks of its size, headroom and end. Any other buffer still takes the full
    /// checks, so a wrong `layout` costs time, never safety.
    #[inline(always)]
    pub fn expecting(mut self, layout: page_pool::Layout) -> Self {
        let xdp_ready = layout.is_whole_page() && layout.offset() >= PACKET_HEADROOM;
        // INVARIANT: whole pages with XDP's headroom, checked just above.
        self.layout = xdp_ready.then_some(layout);
        self
    }

    /// Runs the program on the `len` bytes the device wrote into `page` at its pool's
    /// offset, with the outcome handed to `on` ([`RxQueue::run`]).
    #[inline(always)]
    pub fn run_with<'p, H: OnVerdict<'p>>(
        &mut self,
        rx: &RxContext<'_, '_>,
        page: page_pool::Page<'p>,
        len: u32,
        on: H,
    ) -> H::Output {
        self.run_frags_with(rx, (page, len), core::iter::empty(), on)
    }

    /// Runs the program on a frame of several buffers: `head`, a page and the length the
    /// device wrote into it at its pool's offset, then each fragment's bytes, written the
    /// same way into its page.
    ///
    /// Every page is consumed. The fragments go wherever the frame goes: into the skb of
    /// [`Verdict::Pass`], the [`Frame`] of [`Verdict::Tx`] or the redirect; a dropped frame's
    /// fragments go straight back to their pool, and only `head` comes back in
    /// [`Verdict::Drop`]. A frame of more buffers than an skb takes (`MAX_SKB_FRAGS + 1`), with
    /// an empty fragment or one that does not fit in its page, or whose program does not
    /// handle fragments ([`ProgRef::has_frags`]) is dropped as [`DropReason::TooLong`]
    /// without running the program; one with a buffer that is not a whole page with XDP's
    /// headroom, as [`DropReason::Layout`].
    #[inline(always)]
    pub fn run_frags_with<'p, I, H>(
        &mut self,
        rx: &RxContext<'_, '_>,
        head: (page_pool::Page<'p>, u32),
        frags: I,
        on: H,
    ) -> H::Output
    where
        I: IntoIterator<Item = (page_pool::Page<'p>, u32)>,
        H: OnVerdict<'p>,
    {
        let (page, len) = head;
        let offset = match self.layout {
            // A whole page with XDP's headroom (type invariant), holding `len` bytes from
            // its offset before the shared info: `offset + max_len + SKB_SHINFO_SIZE <= size`
            // (the layout's invariant) with `len <= max_len`.
            Some(l) if page.is_cut_as(&l) && len <= l.max_len() => l.offset(),
            _ => {
                let offset = page.pool_offset();
                // Programs see whole pages only, with XDP's headroom: the buffer description,
                // the queue info's fragment size and the frame conversion assume them. A
                // driver gives its pool that layout before it attaches a program; a buffer of
                // another is dropped.
                if page.size() != page_pool::PAGE_SIZE || offset < PACKET_HEADROOM {
                    return on.dropped(page, len, DropReason::Layout);
                }
                if !page.fits(offset, len) {
                    return on.dropped(page, len, DropReason::TooLong);
                }
                offset
            }
        };
        // Read once: a device whose buffers need no sync (most) skips the head's sync and the
        // dirty length below (a fragment asks for itself).
        let sync = page.needs_sync();
        if sync {
            page.sync_for_cpu_asked(len);
        }
        let hard_start = page.address();
        // INVARIANT: the metadata is this frame's for a program that can read it.
        if self.dev_bound {
            self.mb.meta = on.meta();
        }
        let prog = self.prog;
        let mb = &mut self.mb;
        // No fragments yet: `xdp_buff_add_frag()` below sets the flag again for a frame that
        // has them. (`flags`, beside `frame_sz`, shares a union with the word `xdp_init_buff()`
        // writes both through.)
        mb.xdp.__bindgen_anon_1.__bindgen_anon_1.flags = 0;
        // SAFETY: `xdp` is our buffer description, whose size and queue info `runner` set.
        // The page is ours, in the linear map, `PAGE_SIZE` long, and `offset + len` plus the
        // shared info fit in it (checked above). The metadata area (`data_meta`) starts empty,
        // right before the data; the program may grow it into the headroom
        // (`bpf_xdp_adjust_meta()`).
        unsafe {
            bindings::xdp_prepare_buff(
                &mut mb.xdp,
                hard_start.cast(),
                offset as c_int,
                len as c_int,
                true,
            );
        }
        // The shared info at the end of the first page (`xdp_get_shared_info_from_buff()`),
        // where the fragments are listed.
        let sinfo = hard_start
            .cast::<u8>()
            .wrapping_add((page_pool::PAGE_SIZE - page_pool::SKB_SHINFO_SIZE) as usize)
            .cast::<bindings::skb_shared_info>();
        // INVARIANT: the fragments attached to `xdp` so far (none while `frag_bytes` is 0:
        // every fragment attached is not empty), listed in our page's shared info and owned
        // here until the verdict. Only `xdp_buff_add_frag()` sets the buffer's fragment flag
        // (the reset to 0 above clears it, as C's `xdp_reinit_buff()` would; BPF helpers only
        // keep or clear it), so a frame of one buffer need not read it.
        let attached = |xdp: &bindings::xdp_buff, frag_bytes: u32| Frags {
            sinfo,
            // SAFETY: Reads the flags of our local, initialised buffer description.
            nr: if frag_bytes > 0 && unsafe { bindings::xdp_buff_has_frags(xdp) } {
                // SAFETY: With fragments attached, `sinfo` was set up by `xdp_buff_add_frag`
                // in our page.
                u32::from(unsafe { (*sinfo).nr_frags })
            } else {
                0
            },
            _pools: PhantomData,
        };
        let mut frag_bytes = 0u32;
        for (frag, flen) in frags {
            let foff = frag.pool_offset();
            let whole = frag.size() == page_pool::PAGE_SIZE;
            let fits = flen > 0
                && whole
                && foff
                    .checked_add(flen)
                    .is_some_and(|n| n <= page_pool::PAGE_SIZE);
            let added = fits && prog.has_frags() && {
                // Asked per fragment: it may be of another pool, for another device.
                frag.sync_for_cpu(flen);
                // SAFETY: `xdp` describes our page, whose shared info lies past the data (`fits`
                // above); `frag` is a page-pool page we own, of which `flen` bytes at `foff` lie
                // inside it (checked above). On success the fragment list owns the page's
                // reference. It is never merged into the previous fragment (which would give
                // that reference back): every fragment starts at its pool's offset and is not
                // empty, so none starts where the one before it ends in the same page.
                unsafe {
                    bindings::xdp_buff_add_frag(
                        &mut mb.xdp,
                        bindings::page_to_netmem(frag.as_raw_page()),
                        foff,
                        flen,
                        page_pool::PAGE_SIZE,
                    )
                }
            };
            if !added {
                // This fragment and those not attached yet go back to the pool when dropped.
                attached(&mb.xdp, frag_bytes).recycle(rx);
                let reason = if whole {
                    DropReason::TooLong
                } else {
                    DropReason::Layout
                };
                return on.dropped(page, len, reason);
            }
            let _ = frag.into_raw();
            frag_bytes += flen;
        }
        // SAFETY: `prog.0` is an XDP program alive for the poll (`ProgRef` invariant), and we
        // are in the poll's softirq with bottom halves disabled (`rx`), where XDP programs
        // run; `mb.xdp` describes memory we own. A program without fragment support never sees
        // fragments (checked above). The context is `mb.xdp` through a pointer to the whole
        // `mb`, behind which the metadata kfuncs find `meta` (`RxMeta::from_ctx`).
        let act =
            unsafe { bindings::bpf_prog_run_xdp(prog.0.as_ptr(), core::ptr::from_mut(mb).cast()) };
        // INVARIANT: a program cannot write its context's fields (`xdp_is_valid_access()`
        // refuses it for any program not offloaded to a device), and its helpers, the frame
        // conversion and the redirect below write only the data pointers, `flags` and the
        // shared info: the buffer's size and queue info stay as `runner` set them.
        // The program's helpers keep the list and the flag true when they drop or pull
        // fragments.
        let frags = attached(&mb.xdp, frag_bytes);
        // The program may have moved both ends, within the buffer (the BPF helpers check).
        let end_of =
            |x: &bindings::xdp_buff| (x.data_end as usize).wrapping_sub(hard_start as usize) as u32;
        // What to sync for the device again: the whole buffer, headroom included, for a device
        // that needs syncs (the program may have written anywhere in the page: metadata and
        // a grown head before the data, a tail grown, written and shrunk again after it);
        // nothing for the others: 0 syncs nothing.
        let dirty = |_: &bindings::xdp_buff| if sync { page_pool::PAGE_SIZE } else { 0 };
        // SAFETY: `rxq` is registered, so its `dev` is the live receiving device. Read through
        // `self` where used (the cold verdicts), not kept across the program's call.
        let dev = || unsafe { (*self.rxq.raw()).dev };
        // Tested first: a drop is the verdict whose per-frame cost matters most (filtering).
        if act == bindings::xdp_action_XDP_DROP {
            frags.recycle(rx);
            return on.dropped(page, dirty(&mb.xdp), DropReason::Drop);
        }
        match act {
            bindings::xdp_action_XDP_PASS => {
                let start = (mb.xdp.data as usize).wrapping_sub(hard_start as usize) as u32;
                let end = end_of(&mb.xdp);
                // What `bpf_xdp_adjust_meta()` put in front of the data: at most 252 bytes
                // (`skb_shared_info.meta_len` is a `u8`), in the headroom.
                let meta_len = (mb.xdp.data as usize).wrapping_sub(mb.xdp.data_meta as usize);
                if start <= end
                    && end <= page_pool::PAGE_SIZE - page_pool::SKB_SHINFO_SIZE
                    && meta_len <= start.min(u8::MAX.into()) as usize
                {
                    let moved =
                        start != offset || end - start != len || frags.bytes() != frag_bytes;
                    // SAFETY: Reads the flags of our local, initialised buffer description.
                    let flags = unsafe { bindings::xdp_buff_get_skb_flags(&mb.xdp) };
                    // INVARIANT: `start <= end` and `end` leaves the shared info room, the
                    // metadata fits in front of `start` (checked); the fragments are listed in
                    // the page's shared info.
                    return on.pass(Buff {
                        page,
                        start,
                        len: end - start,
                        dirty: dirty(&mb.xdp),
                        moved,
                        meta_len: meta_len as u8,
                        frags,
                        flags,
                    });
                }
            }
            bindings::xdp_action_XDP_TX => {
                // SAFETY: `xdp` describes our page (and fragments), registered with a
                // page-pool memory model; the frame is written into the page's headroom and
                // shares the page's shared info.
                let frame = unsafe { bindings::xdp_convert_buff_to_frame(&mut mb.xdp) };
                if let Some(f) = NonNull::new(frame) {
                    // The frame owns the page and the fragments now.
                    let _ = page.into_raw();
                    frags.handed_over();
                    // INVARIANT: made from a page-pool buffer; its data is the program's
                    // range, inside the page, and its fragments are those listed there.
                    return on.tx(Frame(f));
                }
            }
            bindings::xdp_action_XDP_REDIRECT => {
                rx.napi().note_redirect();
                // Taken before the redirect looks at the buffer.
                let dirty_len = dirty(&mb.xdp);
                // SAFETY: `dev` is the receiving device; `xdp` describes our page and
                // fragments and `prog` is live; softirq with bottom halves disabled, and the
                // poll flushes (noted above) before it completes. On success the page and the
                // fragments belong to the redirect.
                if unsafe { bindings::xdp_do_redirect(dev(), &mut mb.xdp, prog.0.as_ptr()) } == 0 {
                    let _ = page.into_raw();
                    frags.handed_over();
                    return on.redirected();
                }
                frags.recycle(rx);
                return on.dropped(page, dirty_len, DropReason::Redirect);
            }
            bindings::xdp_action_XDP_ABORTED => (),
            _ => {
                // SAFETY: Only reads the device and the program, both live.
                unsafe { bindings::bpf_warn_invalid_xdp_action(dev(), prog.0.as_ptr(), act) };
            }
        }
        // `XDP_ABORTED`, an unknown action, a frame the program moved out of its buffer, or
        // one that could not become an `XDP_TX` frame.
        // SAFETY: Tracing only reads the device and the program, both live.
        unsafe { bindings::trace_xdp_exception(dev(), prog.0.as_ptr(), act) };
        frags.recycle(rx);
        on.dropped(page, dirty(&mb.xdp), DropReason::Aborted)
    }
}

/// What became of a frame in an AF_XDP buffer after its XDP program ran ([`run_xsk`]).
#[cfg(CONFIG_XDP_SOCKETS)]
pub enum XskVerdict {
    /// `XDP_PASS`: the frame, copied into an skb for the stack (not yet through
    /// `eth_type_trans()`); the buffer went back to its pool. `moved` if the program moved
    /// the frame's start or end: the device's checksum verdict is not the skb's.
    Pass {
        /// The copy.
        skb: SkBuff,
        /// Whether the program moved the frame.
        moved: bool,
    },
    /// `XDP_TX`: the frame, copied into a page of its own, to send; the buffer went back to
    /// its pool.
    Tx(Frame),
    /// `XDP_REDIRECT`: the target has the frame (an AF_XDP socket of the buffer's pool has
    /// the buffer itself), flushed at the end of the poll.
    Redirected,
    /// The frame is dropped and the buffer went back to its pool.
    Dropped(DropReason),
    /// A redirect failed for want of room (`ENOBUFS`: the socket's receive ring is full) and
    /// the socket asked to be woken up (`XDP_USE_NEED_WAKEUP`): the buffer went back to its
    /// pool, and the driver should stop receiving for this poll so that user space catches up.
    Full,
}

/// Runs `prog` on a frame received into an AF_XDP buffer. `meta` is asked once, for a program
/// bound to the device (its metadata kfuncs read it, as for [`Runner::run_with`]).
#[cfg(CONFIG_XDP_SOCKETS)]
#[inline]
pub fn run_xsk(
    rx: &RxContext<'_, '_>,
    prog: ProgRef<'_>,
    buff: xsk::Buff<'_>,
    meta: impl FnOnce() -> RxMeta,
) -> XskVerdict {
    const {
        assert!(
            core::mem::offset_of!(bindings::xdp_buff_xsk, cb)
                == core::mem::offset_of!(MetaBuff, meta)
        );
        assert!(core::mem::size_of::<RxMeta>() <= bindings::XSK_PRIV_MAX as usize);
    }
    let xdp = buff.as_raw();
    // SAFETY: The queue info of a set-up buffer is its binding's, registered (`xsk::Rx`
    // invariant), so its `dev` is the live receiving device. Read before the buffer may go.
    let dev = unsafe { (*(*xdp).rxq).dev };
    // SAFETY: `xdp` is ours and set up (`xsk::Buff` invariant).
    let (start, end) = unsafe { ((*xdp).data, (*xdp).data_end) };
    if prog.dev_bound() {
        // The buffer's control block follows its `xdp_buff` where `MetaBuff` keeps the
        // metadata (checked above), which is where the metadata kfuncs look for it.
        // SAFETY: `xdp` is the `xdp` field of an `xdp_buff_xsk` (a buffer of an AF_XDP pool,
        // `xsk::Buff` invariant) that we own; its control block is the pool driver's to use,
        // 8-aligned (it follows the `xdp_buff`, whose size is a multiple of 8).
        unsafe {
            xdp.cast::<u8>()
                .add(core::mem::offset_of!(MetaBuff, meta))
                .cast::<RxMeta>()
                .write(meta())
        };
    }
    // SAFETY: `prog` is alive for the poll (`ProgRef` invariant); we are in the poll's
    // softirq (`rx`); `xdp` is a set-up buffer we own, whose queue info is its binding's,
    // registered (`xsk::Rx` invariant).
    let act = unsafe { bindings::bpf_prog_run_xdp(prog.0.as_ptr(), xdp) };
    match act {
        bindings::xdp_action_XDP_DROP => return XskVerdict::Dropped(DropReason::Drop),
        bindings::xdp_action_XDP_REDIRECT => {
            // SAFETY: In the poll's softirq, whose BPF context the program just set the
            // redirect target in.
            let to_xsk = unsafe { (*bindings::bpf_net_ctx_get_ri()).map_type }
                == bindings::bpf_map_type_BPF_MAP_TYPE_XSKMAP;
            if !to_xsk {
                // Anywhere but a socket, the frame goes as a copy, made here so that what
                // a failure leaves is known: the copy (the conversion freed the buffer), or
                // the buffer (it failed).
                // SAFETY: `xdp` is ours, registered with the AF_XDP memory model: on success
                // the buffer was copied into a new page and freed.
                let Some(f) = NonNull::new(unsafe { bindings::xdp_convert_buff_to_frame(xdp) })
                else {
                    // SAFETY: As for the program. Without a frame the core only clears the
                    // redirect target and traces the failure (`EOVERFLOW`).
                    unsafe {
                        bindings::xdp_do_redirect_frame(
                            dev,
                            xdp,
                            core::ptr::null_mut(),
                            prog.0.as_ptr(),
                        )
                    };
                    return XskVerdict::Dropped(DropReason::Redirect);
                };
                let _ = buff.into_raw();
                // INVARIANT: a frame of one order-0 page it owns, the data inside it.
                let frame = Frame(f);
                // SAFETY: As for the program; the target is not a socket (checked above), so
                // only the frame is used (the freed buffer is not read), which the target owns
                // on success.
                let r = unsafe {
                    bindings::xdp_do_redirect_frame(dev, xdp, frame.0.as_ptr(), prog.0.as_ptr())
                };
                if r != 0 {
                    drop(frame);
                    return XskVerdict::Dropped(DropReason::Redirect);
                }
                core::mem::forget(frame);
                rx.napi().note_redirect();
                return XskVerdict::Redirected;
            }
            // SAFETY: As for the program; on success the socket has the buffer, on failure
            // it is still ours.
            let r = unsafe { bindings::xdp_do_redirect(dev, xdp, prog.0.as_ptr()) };
            if r == 0 {
                rx.napi().note_redirect();
                let _ = buff.into_raw();
                return XskVerdict::Redirected;
            }
            // SAFETY: `xdp` is the first field of the `xdp_buff_xsk` of a buffer of a bound
            // pool (`xsk::Buff` invariant).
            let pool = unsafe { (*xdp.cast::<bindings::xdp_buff_xsk>()).pool };
            // SAFETY: The pool is bound.
            if r == ENOBUFS.to_errno() && unsafe { bindings::xsk_uses_need_wakeup(pool) } {
                return XskVerdict::Full;
            }
            return XskVerdict::Dropped(DropReason::Redirect);
        }
        bindings::xdp_action_XDP_PASS => {
            // SAFETY: `xdp` is still ours.
            let moved = unsafe { (*xdp).data != start || (*xdp).data_end != end };
            return match xsk_pass(rx, buff) {
                Some(skb) => XskVerdict::Pass { skb, moved },
                None => XskVerdict::Dropped(DropReason::Aborted),
            };
        }
        bindings::xdp_action_XDP_TX => {
            // SAFETY: `xdp` is ours, registered with the AF_XDP memory model: the conversion
            // copies the frame into a new page and frees the buffer on success.
            let frame = unsafe { bindings::xdp_convert_buff_to_frame(xdp) };
            if let Some(f) = NonNull::new(frame) {
                let _ = buff.into_raw();
                // INVARIANT: a frame of one order-0 page it owns, the data inside it.
                return XskVerdict::Tx(Frame(f));
            }
        }
        bindings::xdp_action_XDP_ABORTED => (),
        _ => {
            // SAFETY: Only reads the device and the program, both live.
            unsafe { bindings::bpf_warn_invalid_xdp_action(dev, prog.0.as_ptr(), act) };
        }
    }
    // SAFETY: Tracing only reads the device and the program, both live.
    unsafe { bindings::trace_xdp_exception(dev, prog.0.as_ptr(), act) };
    XskVerdict::Dropped(DropReason::Aborted)
}

/// Copies a frame received into an AF_XDP buffer, with the metadata a program put in front
/// of it, into a new skb from the NAPI cache, for the stack (not yet through
/// `eth_type_trans()`); the buffer goes back to its pool. `None` if memory is short: the
/// caller counts the drop.
#[cfg(CONFIG_XDP_SOCKETS)]
#[inline]
pub fn xsk_pass(rx: &RxContext<'_, '_>, buff: xsk::Buff<'_>) -> Option<SkBuff> {
    let mut skb = rx.alloc_skb(buff.meta_len() + buff.len())?;
    buff.copy_to_skb(&mut skb).ok()?;
    Some(skb)
}

/// The XDP operations of a network device: attaching programs (`ndo_bpf`), transmitting
/// redirected frames (`ndo_xdp_xmit`) and the metadata programs may read
/// (`xdp_metadata_ops`). A driver implements them besides [`netdev::Operations`] and hands
/// [`table`] to its registration.
#[vtable]
pub trait Operations: netdev::Operations {
    /// Attaches, replaces or detaches (`None`) the device's XDP program (`ndo_bpf` with
    /// `XDP_SETUP_PROG`), under RTNL, up or not, while traffic may flow. The driver owns the
    /// program it is given: it keeps it (typically in a [`ProgSlot`]) on success and
    /// may drop it on failure; the old one is the driver's to drop. `extack` explains an error
    /// to the user. Needs [`Features::BASIC`] in [`table`].
    #[inline]
    fn setup(
        _dev: &Device<Self>,
        _rtnl: &mut Rtnl,
        _prog: Option<Prog>,
        _extack: &mut ExtAck<'_>,
    ) -> Result {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Transmits frames that XDP redirected to the device (`ndo_xdp_xmit`); with `flush`, the
    /// device is told about them before the call returns. Runs in softirq context on any CPU,
    /// concurrently with everything but itself on that CPU, whether the interface is up or
    /// not.
    ///
    /// Each frame the driver takes from `frames` is its own, to send or drop; the others go
    /// back to the core, which counts them as dropped. An error with no frame taken is
    /// reported as such; after a frame was taken, only the count is. Frames of several
    /// buffers come only to a device that announced [`Features::NDO_XMIT_SG`].
    #[inline]
    fn xmit(_dev: &Device<Self>, _frames: &mut XmitFrames<'_>, _flush: bool) -> Result {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// An AF_XDP socket bound queue `queue` in zero-copy mode (`frame` is then the room for a
    /// frame in each of its pool's buffers, `xsk_pool_get_rx_frame_size()`), or is letting it
    /// go (`None`) (`ndo_bpf` with `XDP_SETUP_XSK_POOL`), under RTNL, up or not, while
    /// traffic flows.
    ///
    /// The abstraction has mapped the pool for DMA and recorded it with the NAPI instance of
    /// the queue before the call (an instance with that queue must exist, or the bind fails
    /// with `EINVAL`): the driver attaches it with [`crate::net::napi::Napi::attach_xsk`]
    /// while the instance is disabled, typically by restarting the queue, and fills the
    /// ring from it. An error refuses the bind (the socket falls back to copy mode unless it
    /// asked for zero-copy).
    ///
    /// When the socket lets go, the pool is already forgotten by the instance when the driver
    /// is called: the driver must stop its device's use of the buffers (and so must a driver
    /// that fails a bind after it attached the pool) and restart the queue without it. The
    /// call cannot fail: after it the abstraction drops whatever the instance still has
    /// attached, disabling the instance for that if the driver left it enabled (with a
    /// warning), and unmaps the pool.
    #[inline]
    fn xsk_setup(
        _dev: &Device<Self>,
        _rtnl: &mut Rtnl,
        _queue: u32,
        _frame: Option<u32>,
    ) -> Result {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// User space asks for queue `queue` to be serviced (`ndo_xsk_wakeup`, from `sendto()`
    /// or `poll()` on an AF_XDP socket): `rx` to receive into buffers it gave back, `tx` to
    /// send what it queued. Process context, in an RCU read-side section. The error goes to
    /// `sendto()` (`poll()` ignores it). A zero-copy socket's frames are sent only by its
    /// driver: one that cannot send them must fail `tx`, or the socket waits forever.
    #[inline]
    fn xsk_wakeup(_dev: &Device<Self>, _queue: u32, _rx: bool, _tx: bool) -> Result {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// The RSS hash of the frame an XDP program runs on and what it covers (`xmo_rx_hash`,
    /// the kfunc `bpf_xdp_metadata_rx_hash()`), decoded from the [`RxMeta`] the driver
    /// gave with the frame ([`OnVerdict::meta`]); `Err(ENODATA)` for a frame the device
    /// computed none for. Called from the program, in the poll's softirq, and only while
    /// `NETIF_F_RXHASH` is on: otherwise the program gets `ENODATA` without a call.
    /// Implementing it makes the device offer the kfunc (`xdp-rx-metadata-features`).
    #[inline]
    fn rx_hash(_meta: &RxMeta) -> Result<(u32, RssHashType)> {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// The VLAN tag the device took off the frame an XDP program runs on (`xmo_rx_vlan_tag`,
    /// the kfunc `bpf_xdp_metadata_rx_vlan_tag()`), as for [`Operations::rx_hash`];
    /// `Err(ENODATA)` for a frame that kept its tag or had none. Called only while the device
    /// strips tags (`NETIF_F_HW_VLAN_CTAG_RX` or `NETIF_F_HW_VLAN_STAG_RX`).
    #[inline]
    fn rx_vlan_tag(_meta: &RxMeta) -> Result<VlanTag> {
        build_error!(VTABLE_DEFAULT_ERROR)
    }
}

/// The XDP operations of `T` with the features the device announces (`xdp_features`), for
/// [`netdev::Config::xdp`]. `EINVAL` if they disagree: [`Features::BASIC`] and
/// [`Features::REDIRECT`] need [`Operations::setup`], which needs [`Features::BASIC`];
/// [`Features::NDO_XMIT`] needs [`Operations::xmit`]; [`Features::NDO_XMIT_SG`] needs
/// [`Features::NDO_XMIT`]; and metadata needs programs ([`Operations::setup`]).
pub fn table<T: Operations>(features: Features) -> Result<netdev::XdpOps<T>> {
    let f = features;
    if (f.contains(Features::BASIC) || f.contains(Features::REDIRECT)) && !T::HAS_SETUP
        || f.contains(Features::NDO_XMIT) && !T::HAS_XMIT
        || f.contains(Features::NDO_XMIT_SG) && !f.contains(Features::NDO_XMIT)
        || (T::HAS_SETUP && !f.contains(Features::BASIC))
        // Metadata for programs the device never runs.
        || ((T::HAS_RX_HASH || T::HAS_RX_VLAN_TAG) && !T::HAS_SETUP)
        || (T::HAS_XSK_SETUP || T::HAS_XSK_WAKEUP) && !cfg!(CONFIG_XDP_SOCKETS)
        || f.contains(Features::XSK_ZEROCOPY)
            && !(T::HAS_XSK_SETUP
                && T::HAS_XSK_WAKEUP
                && f.contains(Features::BASIC)
                && f.contains(Features::REDIRECT))
    {
        return Err(EINVAL);
    }
    let meta = if T::HAS_RX_HASH || T::HAS_RX_VLAN_TAG {
        Some(&XdpMetaOps::<T>::VTABLE)
    } else {
        None
    };
    // SAFETY: `OPS` is the netdev module's table of `T` with `ndo_bpf` and `ndo_xdp_xmit` added,
    // whose callbacks (and those of `meta`) are valid for a device registered for `T`; the
    // features were checked against the callbacks above.
    Ok(unsafe { netdev::XdpOps::new(&XdpNdoOps::<T>::OPS, meta, f.bits()) })
}

/// The `net_device_ops` of `T` with its XDP callbacks.
struct XdpNdoOps<T: Operations>(PhantomData<T>);

impl<T: Operations> XdpNdoOps<T> {
    const OPS: bindings::net_device_ops = bindings::net_device_ops {
        ndo_bpf: if T::HAS_SETUP { Some(Self::bpf) } else { None },
        ndo_xdp_xmit: if T::HAS_XMIT {
            Some(Self::xdp_xmit)
        } else {
            None
        },
        #[cfg(CONFIG_XDP_SOCKETS)]
        ndo_xsk_wakeup: if T::HAS_XSK_WAKEUP {
            Some(Self::xsk_wakeup)
        } else {
            None
        },
        ..netdev::OpsTable::<T>::VTABLE
    };

    /// # Safety
    ///
    /// `dev` must be a net_device registered by the netdev registration for `T`; `bpf` is a
    /// valid command for the call.
    unsafe extern "C" fn bpf(
        dev: *mut bindings::net_device,
        bpf: *mut bindings::netdev_bpf,
    ) -> c_int {
        from_result(|| {
            // SAFETY: Registered for `T` (safety requirement), so its private data is initialised
            // until after unregistration; `ndo_bpf` runs under RTNL.
            let (d, mut rtnl) = unsafe { (Device::<T>::from_raw(dev), Rtnl::assume_held()) };
            // SAFETY: `bpf` is valid for the call (safety requirement).
            let bpf = unsafe { &mut *bpf };
            #[cfg(CONFIG_XDP_SOCKETS)]
            if bpf.command == bindings::bpf_netdev_command_XDP_SETUP_XSK_POOL && T::HAS_XSK_SETUP {
                // SAFETY: The union member of `XDP_SETUP_XSK_POOL`.
                let (pool, q) = unsafe {
                    (
                        bpf.__bindgen_anon_1.xsk.pool,
                        bpf.__bindgen_anon_1.xsk.queue_id,
                    )
                };
                // SAFETY: `dev` is registered for `T`, under RTNL; `pool` is the core's
                // command for queue `q`.
                return unsafe { Self::xsk_pool(d, &mut rtnl, dev, pool, q.into()) }.map(|()| 0);
            }
            if bpf.command != bindings::bpf_netdev_command_XDP_SETUP_PROG {
                return Err(EOPNOTSUPP);
            }
            // SAFETY: The union member of `XDP_SETUP_PROG`.
            let (raw, ack) = unsafe {
                (
                    bpf.__bindgen_anon_1.__bindgen_anon_1.prog,
                    bpf.__bindgen_anon_1.__bindgen_anon_1.extack,
                )
            };
            // The core moved a reference to the new program to us, which it drops itself if
            // we fail. The driver gets a reference of its own, whatever it does with it; ours
            // is dropped once the driver succeeded.
            // SAFETY: A non-null `raw` is a live XDP program we hold a reference to.
            let prog = NonNull::new(raw).map(|p| unsafe { Prog::from_raw_get(p) });
            // SAFETY: The extack is null or valid for the call, and only we use it meanwhile.
            let mut ack = unsafe { ExtAck::from_raw(ack) };
            T::setup(d, &mut rtnl, prog, &mut ack)?;
            if let Some(p) = NonNull::new(raw) {
                // SAFETY: The reference the core moved to us, given up now that we succeeded.
                unsafe { bindings::bpf_prog_put(p.as_ptr()) };
            }
            Ok(0)
        })
    }

    /// Binds (`pool` not null) or unbinds AF_XDP pool `pool` on queue `q`.
    ///
    /// # Safety
    ///
    /// `raw` must be `d`'s net_device, registered by the netdev registration for `T`, with
    /// RTNL held; `pool` is null or a pool the core is binding to queue `q` of it
    /// (`xp_assign_dev()`), which stays bound until the core's unbind command for it.
    #[cfg(CONFIG_XDP_SOCKETS)]
    unsafe fn xsk_pool(
        d: &Device<T>,
        rtnl: &mut Rtnl,
        raw: *mut bindings::net_device,
        pool: *mut bindings::xsk_buff_pool,
        q: u32,
    ) -> Result {
        if let Some(pool) = NonNull::new(pool) {
            // SAFETY: A registered device's parent is bound to its driver while it is
            // registered: the registration unregisters it before the unbind completes.
            let parent = unsafe { (*raw).dev.parent };
            // SAFETY: `pool` is being bound to queue `q` of the device (safety requirement);
            // it is unmapped below on failure, or at the unbind.
            unsafe { xsk::dma_map(pool, parent) }?;
            // SAFETY: The pool is live (being bound).
            let frame = unsafe { bindings::xsk_pool_get_rx_frame_size(pool.as_ptr()) };
            // SAFETY: Registered, RTNL held; the pool stays bound and mapped until the unbind,
            // where `xsk_forget` and `xsk_release` run before the unmap.
            let r = unsafe { crate::net::napi::xsk_bind(raw, q, pool) }
                .and_then(|()| T::xsk_setup(d, rtnl, q, Some(frame)));
            if r.is_err() {
                // SAFETY: As above: recorded (or not) by `xsk_bind`, still bound and mapped;
                // the core will not send an unbind for a bind that failed.
                unsafe {
                    if crate::net::napi::xsk_forget(raw, q) == Some(pool) {
                        crate::net::napi::xsk_release(raw, q, pool);
                    }
                    xsk::dma_unmap(pool);
                }
            }
            return r;
        }
        // The pool being unbound is the one recorded for the queue: the core sends one unbind
        // for each bind that succeeded, and binds one pool per queue. (Its own table of pools
        // per queue is not asked: it only answers for the queues in use now.)
        // SAFETY: Registered, RTNL held.
        let Some(pool) = (unsafe { crate::net::napi::xsk_forget(raw, q) }) else {
            // None we bound in zero-copy mode: nothing to undo.
            return Ok(());
        };
        let _ = T::xsk_setup(d, rtnl, q, None);
        // SAFETY: Forgotten above; still bound and mapped until we return. Nothing of it is
        // attached once `xsk_release` returns, and the device was told to stop using it.
        unsafe {
            crate::net::napi::xsk_release(raw, q, pool);
            xsk::dma_unmap(pool);
        }
        Ok(())
    }

    /// # Safety
    ///
    /// `dev` must be a net_device registered by the netdev registration for `T`.
    #[cfg(CONFIG_XDP_SOCKETS)]
    unsafe extern "C" fn xsk_wakeup(
        dev: *mut bindings::net_device,
        queue: u32,
        flags: u32,
    ) -> c_int {
        // SAFETY: Registered for `T` (safety requirement): its private data is initialised.
        let d = unsafe { Device::<T>::from_raw(dev) };
        let rx = flags & bindings::XDP_WAKEUP_RX != 0;
        let tx = flags & bindings::XDP_WAKEUP_TX != 0;
        match T::xsk_wakeup(d, queue, rx, tx) {
            Ok(()) => 0,
            Err(e) => e.to_errno(),
        }
    }

    /// # Safety
    ///
    /// `dev` must be a net_device registered by the netdev registration for `T`; `frames`
    /// holds `n` valid XDP frames the caller owns; softirq context.
    unsafe extern "C" fn xdp_xmit(
        dev: *mut bindings::net_device,
        n: c_int,
        frames: *mut *mut bindings::xdp_frame,
        flags: u32,
    ) -> c_int {
        if flags & !bindings::XDP_XMIT_FLAGS_MASK != 0 {
            return EINVAL.to_errno();
        }
        let n = usize::try_from(n).unwrap_or(0);
        if n == 0 || frames.is_null() {
            return 0;
        }
        // SAFETY: `dev` is registered for `T` (safety requirement); redirects to it happen
        // from softirq while it is registered.
        let d = unsafe { Device::<T>::from_raw(dev) };
        // SAFETY: `frames` holds `n` pointers, valid for the call (safety requirement).
        let list = unsafe { core::slice::from_raw_parts(frames, n) };
        // SAFETY: The frames are the caller's, who takes back those we do not take (the ones
        // after the count we return), in softirq context.
        let mut it = unsafe { XmitFrames::new(list) };
        let r = T::xmit(d, &mut it, flags & bindings::XDP_XMIT_FLUSH != 0);
        match r {
            Err(e) if it.taken() == 0 => e.to_errno(),
            // At most `n`, which came from a `c_int`.
            _ => it.taken() as c_int,
        }
    }
}

/// The `xdp_metadata_ops` of `T`.
struct XdpMetaOps<T: Operations>(PhantomData<T>);

impl<T: Operations> XdpMetaOps<T> {
    const VTABLE: bindings::xdp_metadata_ops = bindings::xdp_metadata_ops {
        xmo_rx_timestamp: None,
        xmo_rx_hash: if T::HAS_RX_HASH {
            Some(Self::rx_hash)
        } else {
            None
        },
        xmo_rx_vlan_tag: if T::HAS_RX_VLAN_TAG {
            Some(Self::rx_vlan_tag)
        } else {
            None
        },
    };

    /// The metadata of the frame a program runs on, if the device has `features` on.
    ///
    /// # Safety
    ///
    /// `ctx` must be the context of a running XDP program that called a metadata kfunc of a
    /// device whose `xdp_metadata_ops` are these; the result must not outlive the call.
    #[inline]
    unsafe fn meta<'a>(ctx: *const bindings::xdp_md, features: u64) -> Option<&'a RxMeta> {
        // SAFETY: The core resolves the metadata kfuncs of a program to the ops of the device
        // it is bound to (`bpf_dev_bound_resolve_kfunc()`), and runs such a program only as
        // that device's program in driver mode: `dev_xdp_install()` refuses it for another
        // device and in generic mode, program maps and test runs refuse bound programs, and an
        // extension of one must be bound to the same device. These ops are set only on devices
        // registered by this abstraction for `T`, whose driver gets programs only through
        // `Operations::setup` and can run them only with `Runner::run_frags_with` or
        // `run_xsk`, so `ctx` is the context one of them set up, for the duration of the
        // call. Only a bound program resolves these ops, so the metadata is its frame's.
        let (meta, dev) = unsafe { RxMeta::from_ctx(ctx) };
        // SAFETY: `dev` is the live device that received the frame (`from_ctx`); a volatile
        // read of the `u64` is `READ_ONCE(dev->features)`.
        let on = unsafe { core::ptr::read_volatile(&raw const (*dev).features) };
        (on & features != 0).then_some(meta)
    }

    /// # Safety
    ///
    /// Called by the core only (`xmo_rx_hash`): `ctx` as for [`Self::meta`], `hash` and
    /// `rss_type` valid for writes (not necessarily aligned).
    unsafe extern "C" fn rx_hash(
        ctx: *const bindings::xdp_md,
        hash: *mut u32,
        rss_type: *mut bindings::xdp_rss_hash_type,
    ) -> c_int {
        // SAFETY: `ctx` is a running program's (safety requirement).
        let Some(meta) = (unsafe { Self::meta(ctx, NETIF_F_RXHASH) }) else {
            return ENODATA.to_errno();
        };
        match T::rx_hash(meta) {
            Ok((h, t)) => {
                // SAFETY: Both valid for writes (safety requirement). The verifier checks
                // their size, not their alignment: a program may pass any byte address.
                unsafe {
                    hash.write_unaligned(h);
                    rss_type.write_unaligned(t.into());
                }
                0
            }
            Err(e) => e.to_errno(),
        }
    }

    /// # Safety
    ///
    /// Called by the core only (`xmo_rx_vlan_tag`): `ctx` as for [`Self::meta`], `proto` and
    /// `tci` valid for writes (not necessarily aligned).
    unsafe extern "C" fn rx_vlan_tag(
        ctx: *const bindings::xdp_md,
        proto: *mut bindings::__be16,
        tci: *mut u16,
    ) -> c_int {
        let stripping = NETIF_F_HW_VLAN_CTAG_RX | (1 << bindings::NETIF_F_HW_VLAN_STAG_RX_BIT);
        // SAFETY: `ctx` is a running program's (safety requirement).
        let Some(meta) = (unsafe { Self::meta(ctx, stripping) }) else {
            return ENODATA.to_errno();
        };
        match T::rx_vlan_tag(meta) {
            Ok(tag) => {
                let p = match tag.proto {
                    VlanProto::Ctag => bindings::ETH_P_8021Q as u16,
                    VlanProto::Stag => bindings::ETH_P_8021AD as u16,
                    VlanProto::Other(p) => p,
                };
                // SAFETY: Both valid for writes (safety requirement), not necessarily aligned
                // (as in `rx_hash`).
                unsafe {
                    proto.write_unaligned(p.to_be());
                    tci.write_unaligned(tag.tci);
                }
                0
            }
            Err(e) => e.to_errno(),
        }
    }
}

impl netdev::sealed::Sealed for XmitFrames<'_> {}
impl netdev::TxLockContext for XmitFrames<'_> {
    #[inline]
    fn tx_lock_mode(&self) -> netdev::TxLockMode {
        // The core calls `ndo_xdp_xmit` from XDP flushes and bulk queues, with bottom halves
        // disabled.
        netdev::TxLockMode::Spin
    }
}
