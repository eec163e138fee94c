// SPDX-License-Identifier: GPL-2.0

//! Socket buffers (`struct sk_buff`).
//!
//! [`SkBuff`] is an owned reference to an skb: it is freed when dropped (as a drop, with
//! `dev_kfree_skb_any()`), so an skb can neither leak nor be freed twice. Functions that are
//! only valid in NAPI context (building, allocating or consuming skbs through the per-CPU NAPI
//! cache) live on [`NapiContext`](crate::net::napi::NapiContext) and
//! [`RxContext`](crate::net::napi::RxContext), not here.
//!
//! An owned reference is not an owned skb: the stack may hand a driver a *shared* skb (more
//! than one reference, e.g. pktgen with `clone_skb`) or a *cloned* one (its data shared with
//! another skb, e.g. TCP's retransmit copy). Every method that changes the skb respects that:
//! those that may reallocate the head first take a private reference (`skb_share_check()`),
//! those that write into the data demand a private skb, and the metadata setters leave a
//! shared skb alone.
//!
//! C header: [`include/linux/skbuff.h`](srctree/include/linux/skbuff.h).

use crate::{
    bindings, device,
    dma::{streaming, DataDirection, DmaAddress},
    error::to_result,
    net::{netdev, xdp},
    prelude::*,
};
use core::{mem::MaybeUninit, ptr::NonNull};

/// An owned socket buffer.
///
/// # Invariants
///
/// `self.0` points to a valid `struct sk_buff` of which this object owns one reference, except
/// for an `SkBuff` the abstractions lend as `&SkBuff` inside `ManuallyDrop` for a callback
/// (`ndo_features_check`), which stands for the caller's reference. Therefore no `&self`
/// method frees or writes the skb; what relies on owning the reference (writing once
/// [`SkBuff::is_private`] says so, freeing) takes `&mut self` or `self`, which a lent skb
/// never gives out. On a lent skb `is_private` may answer `true` for the caller's reference.
pub struct SkBuff(NonNull<bindings::sk_buff>);

// SAFETY: An skb may be handed between CPUs; this object owns its reference exclusively.
unsafe impl Send for SkBuff {}
// SAFETY: `&SkBuff` only reads.
unsafe impl Sync for SkBuff {}

/// Checksum state of a received frame.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RxChecksum {
    /// Nothing was verified (`CHECKSUM_NONE`): the stack checks it.
    None,
    /// The hardware verified the L4 checksum (`CHECKSUM_UNNECESSARY`).
    Unnecessary,
}

/// The protocol of a VLAN tag carried outside the frame data (`skb->vlan_proto`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum VlanProto {
    /// IEEE 802.1Q customer tag (`ETH_P_8021Q`).
    Ctag,
    /// IEEE 802.1ad service tag (`ETH_P_8021AD`).
    Stag,
    /// Any other tag protocol, in host byte order.
    Other(u16),
}

/// A VLAN tag the stack left outside the frame data for the device to insert
/// (`skb_vlan_tag_present()`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct VlanTag {
    /// The tag protocol identifier.
    pub proto: VlanProto,
    /// The tag control information: priority, drop eligibility and VLAN ID.
    pub tci: u16,
}

/// Transport protocol whose checksum the device must fill in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum L4 {
    /// TCP.
    Tcp,
    /// UDP.
    Udp,
}

/// What the device must do to complete the checksum of a frame to transmit
/// (`CHECKSUM_PARTIAL`), with every offset checked against the linear data.
#[derive(Clone, Copy, Debug)]
pub struct TxChecksum {
    /// Length of the link-layer header (offset of the IP header).
    pub mac_len: u32,
    /// Length of the IP header (with extension headers).
    pub ip_len: u32,
    /// Whether the network header is IPv4 (else IPv6).
    pub ipv4: bool,
    /// Transport protocol.
    pub l4: L4,
}

/// What a device needs to cut a TCP GSO frame into segments itself (TSO), from
/// [`SkBuff::tso_prepare`].
#[derive(Clone, Copy, Debug)]
pub struct Tso {
    /// Header offsets, and the IP version, for the checksums of every segment.
    pub csum: TxChecksum,
    /// Length of the TCP header.
    pub l4_len: u32,
    /// Header bytes repeated in front of every segment (link, IP and TCP).
    pub hdr_len: u32,
    /// TCP payload bytes per segment (MSS).
    pub mss: u32,
    /// Number of segments the frame becomes.
    pub segs: u32,
}

impl Tso {
    /// Bytes the segments put on the wire (the headers once per segment), for byte counters
    /// and byte queue limits.
    #[inline]
    pub fn wire_bytes(&self, skb_len: u32) -> u32 {
        skb_len + self.segs.saturating_sub(1) * self.hdr_len
    }
}

/// Kind of RSS hash a received frame carries.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum HashType {
    /// Computed over L3 addresses only.
    L3,
    /// Computed over L3 addresses and L4 ports.
    L4,
}

impl SkBuff {
    /// Takes ownership of one reference to `ptr`.
    ///
    /// # Safety
    ///
    /// `ptr` must be a valid skb whose reference the caller gives up.
    #[inline]
    pub(crate) unsafe fn from_raw(ptr: *mut bindings::sk_buff) -> Self {
        // SAFETY: valid pointers are non-null.
        Self(unsafe { NonNull::new_unchecked(ptr) })
    }

    /// Gives up ownership and returns the raw pointer.
    #[inline]
    pub(crate) fn into_raw(self) -> *mut bindings::sk_buff {
        let p = self.0.as_ptr();
        core::mem::forget(self);
        p
    }

    /// Returns the raw pointer, still owned by `self`.
    #[inline]
    pub fn as_raw(&self) -> *mut bindings::sk_buff {
        self.0.as_ptr()
    }

    /// Whether other references to this skb exist (`skb_shared()`).
    #[inline]
    pub fn is_shared(&self) -> bool {
        // SAFETY: `self.0` is valid (type invariant). This is `refcount_read(&skb->users)`: a
        // racy read of an atomic counter, which only ever drops to 1 while we hold a reference.
        let users =
            unsafe { core::ptr::read_volatile(&raw const (*self.as_raw()).users.refs.counter) };
        users != 1
    }

    /// Whether this skb is the only user of its header and data: not shared, and its data not
    /// shared with a clone. Only such an skb may be written into.
    #[inline]
    pub fn is_private(&self) -> bool {
        // SAFETY: `self.0` is valid; `skb_cloned()` reads the clone bit and the data reference
        // count.
        !self.is_shared() && unsafe { bindings::skb_cloned(self.as_raw()) } == 0
    }

    /// Makes sure no one else holds a reference to the `struct sk_buff`, the step C's
    /// `skb_share_check()` does before a function that may reallocate the head: a shared skb is
    /// replaced by a clone (which shares the data but not the header) and the reference to the
    /// original is dropped. Atomic context is fine; fails with `ENOMEM`, leaving the skb as it
    /// was.
    #[inline]
    pub fn unshare(&mut self) -> Result {
        if !self.is_shared() {
            return Ok(());
        }
        // SAFETY: `self.0` is valid; `skb_clone` with `GFP_ATOMIC` may be called in any context.
        let clone =
            unsafe { bindings::skb_clone(self.as_raw(), crate::alloc::flags::GFP_ATOMIC.as_raw()) };
        let clone = NonNull::new(clone).ok_or(ENOMEM)?;
        let old = core::mem::replace(&mut self.0, clone);
        // SAFETY: We owned one reference to `old` and give it up; the clone is ours.
        unsafe { bindings::dev_consume_skb_any(old.as_ptr()) };
        Ok(())
    }
    /// Total length of the data (linear part and fragments).
    #[inline]
    pub fn len(&self) -> u32 {
        // SAFETY: `self.0` is valid (type invariant).
        unsafe { (*self.as_raw()).len }
    }

    /// Whether the skb carries no data.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Length of the linear part.
    #[inline]
    pub fn headlen(&self) -> u32 {
        // SAFETY: `self.0` is valid; `skb_headlen()` is `len - data_len`, both plain fields.
        let (len, data_len) = unsafe { ((*self.as_raw()).len, (*self.as_raw()).data_len) };
        // The skb is valid (type invariant), so its paged bytes are part of its length
        // (`data_len <= len`): exact, and no overflow branch.
        len.wrapping_sub(data_len)
    }

    /// Number of page fragments.
    #[inline]
    pub fn nr_frags(&self) -> u32 {
        // SAFETY: `self.0` is a valid skb (type invariant); reads `skb_shinfo(skb)->nr_frags`,
        // which only the owner of a private skb changes.
        u32::from(unsafe { bindings::skb_nr_frags(self.as_raw()) })
    }

    /// The linear data.
    #[inline]
    pub fn data(&self) -> &[u8] {
        // SAFETY: `data` points to `headlen` initialised bytes owned by the skb.
        unsafe { core::slice::from_raw_parts((*self.as_raw()).data, self.headlen() as usize) }
    }

    /// The TX queue the stack chose for this skb.
    #[inline]
    pub fn queue_mapping(&self) -> u16 {
        // SAFETY: `self.0` is a valid skb (type invariant); reads a header field.
        unsafe { bindings::skb_get_queue_mapping(self.as_raw()) }
    }

    /// Pads the frame with zeroes to at least `len` bytes (`skb_put_padto()`).
    ///
    /// On failure the skb has been freed, as the C function does; the caller only counts the
    /// drop.
    #[inline]
    pub fn put_padto(mut self, len: u32) -> Result<Self> {
        if self.len() >= len {
            return Ok(self);
        }
        // Padding may reallocate the head, which C refuses for a shared skb.
        self.unshare()?;
        let raw = self.into_raw();
        // SAFETY: `raw` is a valid skb of which we own the only reference (unshared above), so
        // a head reallocation is allowed; on error C frees it.
        to_result(unsafe { bindings::skb_put_padto(raw, len) })?;
        // SAFETY: On success we still own `raw`.
        Ok(unsafe { Self::from_raw(raw) })
    }

    /// Makes the skb linear (`skb_linearize()`); a shared skb is unshared first.
    #[inline]
    pub fn linearize(&mut self) -> Result {
        self.unshare()?;
        // SAFETY: `self.0` is valid and not shared (above), as `__pskb_pull_tail` requires; a
        // cloned head is copied by C before it is changed.
        to_result(unsafe { bindings::skb_linearize(self.as_raw()) })
    }

    /// Checks that `len` bytes can be appended to the linear data: the skb is private and has
    /// the tailroom. `EMSGSIZE` otherwise.
    #[inline]
    pub(crate) fn check_put(&self, len: u32) -> Result {
        // `skb_put()` only appends to a linear skb (`SKB_LINEAR_ASSERT`).
        if !self.is_private() || self.headlen() != self.len() {
            return Err(EMSGSIZE);
        }
        // SAFETY: `self.0` is a valid skb (type invariant); reads its tail and end offsets.
        if unsafe { bindings::skb_tailroom(self.as_raw()) } < len {
            return Err(EMSGSIZE);
        }
        Ok(())
    }

    /// Reserves `len` bytes of headroom in an empty, private skb.
    #[inline]
    pub fn reserve(&mut self, len: u32) -> Result {
        if !self.is_empty() {
            return Err(EINVAL);
        }
        self.check_put(len).map_err(|_| EINVAL)?;
        // SAFETY: Checked above that the skb is private, empty and has the room.
        unsafe { bindings::skb_reserve(self.as_raw(), len as c_int) };
        Ok(())
    }

    /// Appends a copy of `data` to the linear data (`skb_put_data()`), or fails with
    /// `EMSGSIZE` if the skb is not private and linear or lacks the tailroom.
    #[inline]
    pub fn put_slice(&mut self, data: &[u8]) -> Result {
        let len = u32::try_from(data.len())?;
        self.check_put(len)?;
        // SAFETY: The skb is private and linear with `len` bytes of tailroom (checked above);
        // `data` is valid for reads of `len` bytes.
        unsafe { bindings::skb_put_data(self.as_raw(), data.as_ptr().cast(), len) };
        Ok(())
    }

    /// Sets the protocol from the Ethernet header and pulls it (`eth_type_trans()`); also
    /// records the receiving device.
    #[inline]
    pub fn eth_type_trans<T: netdev::Operations>(&mut self, dev: &netdev::Device<T>) -> Result {
        if self.headlen() < bindings::ETH_HLEN || self.is_shared() {
            return Err(EINVAL);
        }
        // SAFETY: `self.0` is valid, not shared (its header fields are ours to change), with at
        // least an Ethernet header of linear data; `dev` is a valid net_device.
        unsafe {
            let proto = bindings::eth_type_trans(self.as_raw(), dev.as_raw());
            (*self.as_raw()).__bindgen_anon_4.headers.as_mut().protocol = proto;
        }
        Ok(())
    }

    /// Records what the hardware verified of the checksum. A shared skb is left alone (as by
    /// the other metadata setters): its header belongs to every holder.
    #[inline]
    pub fn set_rx_checksum(&mut self, csum: RxChecksum) {
        if self.is_shared() {
            return;
        }
        let v = match csum {
            RxChecksum::None => bindings::CHECKSUM_NONE,
            RxChecksum::Unnecessary => bindings::CHECKSUM_UNNECESSARY,
        };
        // SAFETY: `self.0` is valid and not shared, so no one else reads its header fields;
        // `ip_summed` is a 2-bit field of the header group.
        unsafe {
            (*self.as_raw())
                .__bindgen_anon_4
                .headers
                .as_mut()
                .set_ip_summed(v as u8)
        };
    }

    /// Records the queue the frame arrived on.
    #[inline]
    pub fn record_rx_queue(&mut self, queue: u16) {
        if self.is_shared() {
            return;
        }
        // SAFETY: `self.0` is valid and not shared: its header fields are ours.
        unsafe { bindings::skb_record_rx_queue(self.as_raw(), queue) };
    }

    /// Records the RSS hash the hardware computed.
    #[inline]
    pub fn set_hash(&mut self, hash: u32, kind: HashType) {
        let t = match kind {
            HashType::L3 => bindings::pkt_hash_types_PKT_HASH_TYPE_L3,
            HashType::L4 => bindings::pkt_hash_types_PKT_HASH_TYPE_L4,
        };
        if self.is_shared() {
            return;
        }
        // SAFETY: `self.0` is valid and not shared: its header fields are ours.
        unsafe { bindings::skb_set_hash(self.as_raw(), hash, t) };
    }

    /// Records the 802.1Q tag the hardware stripped from a received frame
    /// (`__vlan_hwaccel_put_tag()`): the stack then sees the frame as it came off the wire.
    /// A shared skb is left alone.
    #[inline]
    pub fn set_rx_vlan_ctag(&mut self, tci: u16) {
        if self.is_shared() {
            return;
        }
        // SAFETY: `self.0` is valid and not shared: its header fields are ours.
        unsafe {
            bindings::__vlan_hwaccel_put_tag(
                self.as_raw(),
                (bindings::ETH_P_8021Q as u16).to_be(),
                tci,
            )
        };
    }

    /// The VLAN tag the stack wants the device to insert, if any. The stack leaves a tag
    /// outside the data only to devices with `NETIF_F_HW_VLAN_CTAG_TX` (or `..._STAG_TX`);
    /// the frame data and the offsets of [`SkBuff::tx_checksum`] then start without it.
    #[inline]
    pub fn vlan_tag(&self) -> Option<VlanTag> {
        // SAFETY: `self.0` is a valid skb (type invariant); these only read header fields.
        let (present, tci, proto) = unsafe {
            (
                bindings::skb_vlan_tag_present(self.as_raw()),
                bindings::skb_vlan_tag_get(self.as_raw()),
                u16::from_be(bindings::skb_vlan_proto(self.as_raw())),
            )
        };
        if !present {
            return None;
        }
        let proto = match u32::from(proto) {
            bindings::ETH_P_8021Q => VlanProto::Ctag,
            bindings::ETH_P_8021AD => VlanProto::Stag,
            _ => VlanProto::Other(proto),
        };
        Some(VlanTag { proto, tci })
    }

    /// Lets the stack return the skb's page_pool pages to their pool when it frees the skb.
    #[inline]
    pub fn mark_for_recycle(&mut self) {
        if self.is_shared() {
            return;
        }
        // SAFETY: `self.0` is valid and not shared: its header fields are ours.
        unsafe { bindings::skb_mark_for_recycle(self.as_raw()) };
    }

    /// The checksum the stack left for the device, or `None` when the frame is complete
    /// (`CHECKSUM_NONE`/`CHECKSUM_UNNECESSARY`).
    ///
    /// Returns `Err` for `CHECKSUM_PARTIAL` frames the offload cannot describe (not IPv4/IPv6
    /// over Ethernet, possibly behind VLAN tags, not TCP or UDP, CRC32c, or offsets outside
    /// the linear data): the caller then uses [`SkBuff::checksum_help`]. `mac_len` includes
    /// the tags.
    // Always inlined: the common answer (nothing to offload) is one load and one compare in
    // the transmit path; only a `CHECKSUM_PARTIAL` frame calls out to read its headers.
    #[inline(always)]
    pub fn tx_checksum(&self) -> Result<Option<TxChecksum>> {
        // SAFETY: `self.0` is a valid skb (type invariant); a plain read of the header group.
        let summed = unsafe {
            (*self.as_raw())
                .__bindgen_anon_4
                .headers
                .as_ref()
                .ip_summed()
        };
        if u32::from(summed) != bindings::CHECKSUM_PARTIAL {
            return Ok(None);
        }
        self.partial_checksum().map(Some)
    }

    /// [`SkBuff::tx_checksum`] of a frame its caller found `CHECKSUM_PARTIAL`. Called for
    /// another frame, it reads the `csum_start`/`csum_offset` members of a union whose other
    /// member is live: plain integers, so nothing worse than a meaningless answer.
    fn partial_checksum(&self) -> Result<TxChecksum> {
        let raw = self.as_raw();
        // SAFETY: `raw` is valid; these are plain reads of the header group (`csum_start` and
        // `csum_offset` are the members of the union that `CHECKSUM_PARTIAL`, the caller's
        // case, uses), and `head <= data` point into one buffer.
        let (proto, csum_offset, csum_start, net_hdr, headroom) = unsafe {
            let h = (*raw).__bindgen_anon_4.headers.as_ref();
            (
                u16::from_be(h.protocol),
                h.__bindgen_anon_1.__bindgen_anon_1.csum_offset,
                h.__bindgen_anon_1.__bindgen_anon_1.csum_start,
                h.network_header,
                ((*raw).data as usize).wrapping_sub((*raw).head as usize) as i64,
            )
        };
        // SAFETY: `raw` is valid.
        if unsafe { bindings::skb_csum_is_sctp(raw) } {
            return Err(EOPNOTSUPP);
        }
        let proto = u32::from(proto);
        // Behind 802.1Q/802.1ad tags inserted in software, `protocol` names the outer tag; the
        // IP version is then read from the network header itself.
        let tagged = proto == bindings::ETH_P_8021Q || proto == bindings::ETH_P_8021AD;
        if !tagged && proto != bindings::ETH_P_IP && proto != bindings::ETH_P_IPV6 {
            return Err(EOPNOTSUPP);
        }
        // Offset of the checksum field inside the TCP and UDP headers.
        let l4 = match csum_offset {
            16 => L4::Tcp,
            6 => L4::Udp,
            _ => return Err(EOPNOTSUPP),
        };
        // `skb_checksum_start_offset()` and `skb_network_offset()`: header offsets are kept
        // from `head`, the linear data starts `headroom` bytes after it.
        let start = i64::from(csum_start) - headroom;
        let net = i64::from(net_hdr) - headroom;
        let mac_len = u32::try_from(net).map_err(|_| EINVAL)?;
        let ip_len = u32::try_from(start - net).map_err(|_| EINVAL)?;
        if mac_len + ip_len >= self.headlen() {
            return Err(EINVAL);
        }
        // In bounds: `mac_len < mac_len + ip_len < headlen`, checked above.
        let version = self.data().get(mac_len as usize).map_or(0, |b| b >> 4);
        let ipv4 = match version {
            4 if tagged || proto == bindings::ETH_P_IP => true,
            6 if tagged || proto == bindings::ETH_P_IPV6 => false,
            _ => return Err(EOPNOTSUPP),
        };
        Ok(TxChecksum {
            mac_len,
            ip_len,
            ipv4,
            l4,
        })
    }

    /// Whether the stack handed over a GSO frame (`skb_is_gso()`): one skb that stands for
    /// several frames of at most [`Tso::mss`] payload bytes each.
    #[inline]
    pub fn is_gso(&self) -> bool {
        // SAFETY: `self.0` is a valid skb (type invariant); reads `skb_shinfo(skb)->gso_size`.
        unsafe { bindings::skb_is_gso(self.as_raw()) }
    }

    /// Prepares a TCP GSO frame for a device that segments it itself (TSO).
    ///
    /// Returns `Ok(None)` for a frame that is not GSO. For TCP over IPv4 or IPv6 it makes the
    /// headers private (`skb_cow_head()`), clears the IP length fields (IPv4 total length and
    /// header checksum, IPv6 payload length) and takes the payload length out of the TCP
    /// pseudo-header checksum: the convention of devices that fill in each segment's lengths
    /// and checksums (the Intel one). It returns the offsets and sizes the device needs. Other
    /// GSO types fail with `EOPNOTSUPP` and headers outside the linear data with `EINVAL`,
    /// before any header is changed.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::net::skb::SkBuff;
    ///
    /// /// Descriptor fields for one frame: (MSS, header length, payload length).
    /// fn offload(skb: &mut SkBuff) -> kernel::error::Result<Option<(u32, u32, u32)>> {
    ///     Ok(skb
    ///         .tso_prepare()?
    ///         .map(|t| (t.mss, t.hdr_len, skb.len() - t.hdr_len)))
    /// }
    /// ```
    #[inline(always)]
    pub fn tso_prepare(&mut self) -> Result<Option<Tso>> {
        // Most frames are not GSO: that test stays in the caller, the rest out of line.
        if !self.is_gso() {
            return Ok(None);
        }
        self.tso_prepare_gso().map(Some)
    }

    #[inline(never)]
    fn tso_prepare_gso(&mut self) -> Result<Tso> {
        let raw = self.as_raw();
        // SAFETY: `raw` is valid; plain reads of the shared info.
        let (gso_type, mss, segs) = unsafe {
            (
                bindings::skb_gso_type(raw),
                u32::from(bindings::skb_gso_size(raw)),
                u32::from(bindings::skb_gso_segs(raw)),
            )
        };
        if gso_type & (bindings::SKB_GSO_TCPV4 | bindings::SKB_GSO_TCPV6) as u32 == 0 {
            return Err(EOPNOTSUPP);
        }
        let csum = match self.tx_checksum()? {
            Some(c) if c.l4 == L4::Tcp && mss > 0 => c,
            _ => return Err(EINVAL),
        };
        let l4_off = csum.mac_len + csum.ip_len;
        // The TCP data offset (header length in 32-bit words) is the high nibble of byte 12.
        let doff = *self.data().get(l4_off as usize + 12).ok_or(EINVAL)? >> 4;
        let l4_len = u32::from(doff) * 4;
        let hdr_len = l4_off + l4_len;
        if l4_len < 20 || hdr_len > self.headlen() {
            return Err(EINVAL);
        }
        self.unshare()?;
        let raw = self.as_raw();
        // SAFETY: `raw` is valid and not shared (above), as `skb_cow_head` requires before it
        // reallocates a cloned head.
        to_result(unsafe { bindings::skb_cow_head(raw, 0) })?;
        let paylen = self.len() - l4_off;
        // SAFETY: After `skb_cow_head()` the linear data is this skb's own and writable, the
        // offsets lie inside it (checked against `headlen` above, which the copy keeps), and no
        // reference to the data is alive here.
        unsafe {
            let ip = (*raw).data.add(csum.mac_len as usize);
            if csum.ipv4 {
                // Total length (offset 2) and header checksum (offset 10).
                ip.add(2).cast::<[u8; 2]>().write_unaligned([0; 2]);
                ip.add(10).cast::<[u8; 2]>().write_unaligned([0; 2]);
            } else {
                // Payload length (offset 4).
                ip.add(4).cast::<[u8; 2]>().write_unaligned([0; 2]);
            }
            let check = ip
                .add(csum.ip_len as usize + 16)
                .cast::<bindings::__sum16>();
            bindings::csum_replace_by_diff(check, paylen.to_be());
        }
        Ok(Tso {
            csum,
            l4_len,
            hdr_len,
            mss,
            segs: segs.max(1),
        })
    }

    /// Computes a `CHECKSUM_PARTIAL` checksum in software (`skb_checksum_help()`).
    #[inline]
    pub fn checksum_help(&mut self) -> Result {
        self.unshare()?;
        // SAFETY: `self.0` is valid and not shared (above); C copies a cloned head before it
        // writes the checksum.
        to_result(unsafe { bindings::skb_checksum_help(self.as_raw()) })
    }

    /// Takes the transmit timestamps the socket asked for (`skb_tx_timestamp()`): the software
    /// one, and the skb handed to PHY timestamping. A driver calls it in `start_xmit` once the
    /// frame's headers are final, right before the frame goes to the device.
    #[inline]
    pub fn tx_timestamp(&mut self) {
        // SAFETY: `self.0` is a valid skb we hold a reference to. A timestamp may clone it,
        // which only adds a reference to the data; every method of `SkBuff` that writes data
        // copies a cloned head first.
        unsafe { bindings::skb_tx_timestamp(self.as_raw()) }
    }

    /// Frees the skb as successfully transmitted, from any context (`dev_consume_skb_any()`).
    #[inline]
    pub fn consume(self) {
        // SAFETY: we own the reference and give it up.
        unsafe { bindings::dev_consume_skb_any(self.into_raw()) };
    }
}

/// Most page fragments an skb can hold.
pub const MAX_FRAGS: u32 = bindings::MAX_SKB_FRAGS;

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

impl SkBuff {
    /// Checks that a page fragment can be added: the skb is private and has a free slot.
    #[inline]
    pub(crate) fn check_add_frag(&self) -> Result {
        if !self.is_private() || self.nr_frags() >= MAX_FRAGS {
            return Err(EMSGSIZE);
        }
        Ok(())
    }

    /// Appends `len` bytes at `offset` of `page` as a fragment of `truesize` bytes
    /// (`skb_add_rx_frag()`), taking over the page reference.
    ///
    /// # Safety
    ///
    /// `page` must be a page reference the caller gives up, with `offset + len` inside it, and
    /// [`SkBuff::check_add_frag`] must have succeeded with no change to the skb since.
    #[inline]
    pub(crate) unsafe fn add_rx_frag(
        &mut self,
        page: *mut bindings::page,
        offset: u32,
        len: u32,
        truesize: u32,
    ) {
        let i = self.nr_frags();
        // SAFETY: `i` is a free slot of a private skb (safety requirement); page and range are
        // valid per the safety requirements.
        unsafe {
            bindings::skb_add_rx_frag(
                self.as_raw(),
                i as c_int,
                page,
                offset as c_int,
                len as c_int,
                truesize,
            )
        };
    }
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
    #[inline]
    fn unmap(&mut self) {
        let dev = self.dev.as_raw();
        let dir = DataDirection::ToDevice;
        for (i, s) in self.as_slice().iter().enumerate() {
            let (addr, len) = (s.addr, s.len as usize);
            if i == 0 && self.head {
                // SAFETY: A live `map_single` mapping of `len` bytes on `dev` (type invariant),
                // forgotten below.
                unsafe { streaming::unmap_single(self.dev, addr, len, dir) };
            } else {
                // SAFETY: A live page mapping of `len` bytes on `dev` (type invariant),
                // forgotten below.
                unsafe { bindings::dma_unmap_page_attrs(dev, addr, len, dir.into(), 0) };
            }
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
/// use kernel::{device, net::skb::{MapSlot, SkBuff, TxBuf}};
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

impl Drop for SkBuff {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: we own one reference; safe in any context.
        unsafe { bindings::dev_kfree_skb_any(self.as_raw()) };
    }
}
