// SPDX-License-Identifier: GPL-2.0

//! Socket buffers (`struct sk_buff`).
//!
//! [`SkBuff`] is an owned reference to an skb: it is freed when dropped (as a drop, with
//! `dev_kfree_skb_any()`), so an skb can neither leak nor be freed twice. Functions that are
//! only valid in NAPI context (building, allocating or consuming skbs through the per-CPU NAPI
//! cache) live on the NAPI module's contexts (`napi::NapiContext`, `napi::RxContext`), not
//! here.
//!
//! An owned reference is not an owned skb: the stack may hand a driver a *shared* skb (more
//! than one reference, e.g. pktgen with `clone_skb`) or a *cloned* one (its data shared with
//! another skb, e.g. TCP's retransmit copy). Every method that changes the skb respects that:
//! those that may reallocate the head first take a private reference (`skb_share_check()`),
//! those that write into the data demand a private skb, and the metadata setters leave a
//! shared skb alone.
//!
//! C header: [`include/linux/skbuff.h`](srctree/include/linux/skbuff.h).

use crate::{bindings, error::to_result, prelude::*};
use core::ptr::NonNull;

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
    /// and byte queue limits; wrapping past `u32::MAX` as such counters do (the fields are
    /// public: any values are accepted, none panics).
    #[inline]
    pub fn wire_bytes(&self, skb_len: u32) -> u32 {
        skb_len.wrapping_add(self.segs.saturating_sub(1).wrapping_mul(self.hdr_len))
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

    /// Sets the time the device received the frame, in nanoseconds of the device's PTP clock
    /// (`skb_hwtstamps(skb)->hwtstamp`). A shared or cloned skb is left alone: the timestamp
    /// lives in the shared info, which a clone shares.
    #[inline]
    pub fn set_hw_timestamp(&mut self, ns: i64) {
        if !self.is_private() {
            return;
        }
        // SAFETY: `self.0` is valid and private (above): no one else reads its shared info.
        unsafe { bindings::skb_set_hwtstamp(self.as_raw(), ns) };
    }

    /// Whether [`SkBuff::tx_timestamp`] or a hardware timestamp may have anything to do for
    /// this frame: its socket (or a BPF program) asked for a software or hardware TX timestamp,
    /// or PHY timestamping is built in (it looks at every frame). A driver may leave
    /// `tx_timestamp` out for a frame for which this is `false`, e.g. to keep its hot path
    /// free of timestamps.
    #[inline]
    pub fn wants_tx_timestamp(&self) -> bool {
        let any = bindings::SKBTX_HW_TSTAMP_NOBPF | bindings::SKBTX_SW_TSTAMP | bindings::SKBTX_BPF;
        // SAFETY: As in `wants_hw_tx_timestamp`.
        cfg!(CONFIG_NETWORK_PHY_TIMESTAMPING)
            || u32::from(unsafe { bindings::skb_tx_flags(self.as_raw()) }) & any != 0
    }

    /// Whether the socket or a BPF program asked for a hardware timestamp of this frame's
    /// transmission (`SKBTX_HW_TSTAMP`).
    #[inline]
    pub fn wants_hw_tx_timestamp(&self) -> bool {
        let hw = bindings::SKBTX_HW_TSTAMP_NOBPF | bindings::SKBTX_BPF;
        // SAFETY: `self.0` is valid (type invariant); the stack sets `tx_flags` before it
        // hands the skb to the driver.
        u32::from(unsafe { bindings::skb_tx_flags(self.as_raw()) }) & hw != 0
    }

    /// Marks a hardware TX timestamp in progress (`SKBTX_IN_PROGRESS`): for
    /// `netdev`'s `start_hw_tx_timestamp`, which says when.
    #[inline]
    pub(crate) fn mark_tx_in_progress(&mut self) {
        // SAFETY: `self.0` is valid. As C drivers do, the driver transmitting the skb marks
        // the flag in the shared info, which clones share: the stack leaves `tx_flags` to the
        // driver the skb was handed to for transmission.
        unsafe { bindings::skb_tx_flags_add(self.as_raw(), bindings::SKBTX_IN_PROGRESS as u8) };
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

impl SkBuff {
    /// Checks that a page fragment can be added: the skb is private and has a free slot.
    #[inline]
    pub fn check_add_frag(&self) -> Result {
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
    pub unsafe fn add_rx_frag(
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

impl Drop for SkBuff {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: we own one reference; safe in any context.
        unsafe { bindings::dev_kfree_skb_any(self.as_raw()) };
    }
}

/// A transmitted frame waiting for its hardware timestamp: a reference to its skb that
/// `start_hw_tx_timestamp` (in `netdev`, which knows devices) took, and one to the device it
/// is sent on (whose index the timestamp reports). Delivering the timestamp consumes it;
/// dropping it (the device lost the timestamp, the frame was not sent) only gives both
/// references back, and the socket gets no timestamp. A `TxTimestamp` that is forgotten keeps
/// its device from being unregistered (`unregister_netdevice` waits for it), never freed under
/// it.
///
/// # Invariants
///
/// `skb` points to a valid skb of which this object owns one reference; `dev` points to a
/// net_device of which it owns one reference (`netdev_hold()`, tracked by `tracker`).
pub struct TxTimestamp {
    skb: NonNull<bindings::sk_buff>,
    dev: *mut bindings::net_device,
    tracker: bindings::netdevice_tracker,
}

// SAFETY: Both references are owned, and may be given back from any CPU.
unsafe impl Send for TxTimestamp {}

impl TxTimestamp {
    /// Takes a reference to `skb` and one to `dev`.
    ///
    /// # Safety
    ///
    /// `skb` must be a valid skb and `dev` a valid net_device.
    pub(crate) unsafe fn new(skb: &SkBuff, dev: *mut bindings::net_device) -> Self {
        // SAFETY: `skb` and `dev` are valid (safety requirement): `skb_get()` adds a reference
        // to the one, `netdev_hold()` to the other, in any context (`GFP_ATOMIC`).
        unsafe {
            bindings::skb_get(skb.as_raw());
            let mut t = TxTimestamp {
                skb: skb.0,
                dev,
                tracker: core::mem::zeroed(),
            };
            bindings::netdev_hold(
                dev,
                &mut t.tracker,
                crate::alloc::flags::GFP_ATOMIC.as_raw(),
            );
            // INVARIANT: the references taken above.
            t
        }
    }

    /// Delivers the time the device sent the frame, in nanoseconds of the device's PTP clock,
    /// to the socket's error queue (`skb_tstamp_tx()`), from softirq or process context (NAPI
    /// poll, netpoll, a worker), then gives the references back as a frame transmitted.
    pub fn complete(self, ns: i64) {
        let mut this = core::mem::ManuallyDrop::new(self);
        // SAFETY: The structure is plain data; all-zero is valid.
        let mut hw: bindings::skb_shared_hwtstamps = unsafe { core::mem::zeroed() };
        hw.__bindgen_anon_1.hwtstamp = ns;
        let p = this.skb.as_ptr();
        // SAFETY: `p` is a valid skb we hold a reference to (type invariant). `skb_tstamp_tx()`
        // clones it for the socket and reads the device through `skb->dev`: only if that is
        // the device we hold (compared, not read), which is alive. Then both references are
        // given back, once: `this` is not dropped.
        unsafe {
            if bindings::skb_dev(p) == this.dev {
                bindings::skb_tstamp_tx(p, &mut hw);
            }
            bindings::dev_consume_skb_any(p);
            bindings::netdev_put(this.dev, &mut this.tracker);
        }
    }
}

impl Drop for TxTimestamp {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: we own one reference to each (type invariant), given back once, here; safe
        // in any context.
        unsafe {
            bindings::dev_kfree_skb_any(self.skb.as_ptr());
            bindings::netdev_put(self.dev, &mut self.tracker);
        }
    }
}
