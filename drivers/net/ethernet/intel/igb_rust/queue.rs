// SPDX-License-Identifier: GPL-2.0

//@ until datapath: //! Interrupt vectors and NAPI.
//@ until datapath: //!
//@ until datapath: //! Vector 0 handles "other" causes (link changes); vector `q + 1` serves queue pair `q`,
//@ until datapath: //! whose rings come with the data path. Every vector is a NAPI instance of the device.
//@ from datapath
//! Interrupt vectors, NAPI and the descriptor rings.
//!
//! Vector 0 handles "other" causes (link changes); vector `q + 1` serves RX queue `q` and TX
//! queue `q`. Every vector is a NAPI instance of the device: the RX ring is its poll's state,
//! its page pool is bound to it. The TX ring has no lock of its own: its sending half belongs
//! to the TX queue's xmit lock (`start_xmit` holds it; `XDP_TX`, `ndo_xdp_xmit` and process
//! context take it), its cleaning half to the poll, and descriptors pass between the two
//! through the ring's indices ([`ring`]). The cleaning half needs no lock, so a netpoll poll
//! (budget 0), which may have interrupted a holder of the xmit lock on this CPU, cleans too.
//@ end

use kernel::net::netdev::Rtnl; //@ link
use kernel::{
    io::Io,
    irq::IrqReturn,
    net::{
        napi::{Instance, Napi, NapiContext, Poll, Rx},
        netdev,
    },
    prelude::*,
    sync::{
        atomic::{Atomic, Relaxed},
        Arc,
    },
};

//@ from datapath
use kernel::{
    dma::Coherent,
    io::{io_project, io_read, io_write},
    net::{
        dim::{self, Dim},
        napi::RxContext,
        netdev::{ring, TxRequest, XmitQueue},
        page_pool::{Layout, Page, PagePool, Params, ParkedPage, PAGE_SIZE, SKB_SHINFO_SIZE},
        skb::{HashType, RxChecksum, SkBuff, Tso, TxChecksum, VlanProto, VlanTag, L4, MAX_FRAGS},
        tx::{MapSlot, Segment, TxBuf, MAX_SEGMENTS},
        xdp,
    },
    sync::{
        atomic::Acquire,
        barrier::{dma_mb, Read, Write},
    },
};

use crate::{
    hw::TailReg,
    net::{throttle, FRAME_OVERHEAD, MAX_MTU},
};
//@ end
use kernel::dma::DmaAddress; //@ xsk
use kernel::net::xdp::{DropReason, Frame}; //@ xdp
use kernel::net::{napi::XskRx, xdp::XskVerdict}; //@ xsk

use crate::{hw::Bar0, regs, IgbNet};

use crate::ptp::Phc; //@ ptp

//@ from datapath
//@ from xdp
/// The RSS hash of a received frame for an XDP program (`bpf_xdp_metadata_rx_hash()`), from
/// its descriptor's write-back words ([`rx_meta`]): the low word's type field says what the
/// device hashed, its upper half is the hash.
pub(crate) fn xdp_rx_hash(meta: &xdp::RxMeta) -> Result<(u32, xdp::RssHashType)> {
    use xdp::RssHashPart::*;
    let [lo, _] = meta.0;
    let covers = match lo & 0xf {
        1 => L3Ipv4 | L4 | L4Tcp,
        2 => L3Ipv4.into(),
        3 => L3Ipv6 | L4 | L4Tcp,
        4 => L3Ipv6 | L3DynHdr,
        5 => L3Ipv6.into(),
        6 => L3Ipv6 | L3DynHdr | L4 | L4Tcp,
        7 => L3Ipv4 | L4 | L4Udp,
        8 => L3Ipv6 | L4 | L4Udp,
        9 => L3Ipv6 | L3DynHdr | L4 | L4Udp,
        // Not hashed (not IP, or a protocol MRQC leaves out), or a reserved type.
        _ => return Err(ENODATA),
    };
    Ok(((lo >> 32) as u32, covers))
}
//@ end

//@ from xdp
/// The 802.1Q tag the device took off a received frame for an XDP program
/// (`bpf_xdp_metadata_rx_vlan_tag()`), as for [`xdp_rx_hash`].
pub(crate) fn xdp_rx_vlan_tag(meta: &xdp::RxMeta) -> Result<VlanTag> {
    let [_, hi] = meta.0;
    if hi & RXD_STAT_VP == 0 {
        return Err(ENODATA);
    }
    Ok(VlanTag {
        proto: VlanProto::Ctag,
        tci: (hi >> 48) as u16,
    })
}
//@ end

//@ from xdp
/// What an XDP program's metadata kfuncs decode of a frame: the write-back words of the
/// descriptor that holds its status (its last).
#[inline(always)]
fn rx_meta(lo: u64, hi: u64) -> xdp::RxMeta {
    xdp::RxMeta([lo, hi])
}
//@ end

/// Descriptors per ring until `ethtool -G` changes it.
pub(crate) const DEFAULT_RING_SIZE: u32 = 256;
//@ from ethtool
/// Smallest ring `ethtool -G` accepts: room for two of the largest TX frames and more than the
/// wake threshold.
pub(crate) const MIN_RING_SIZE: u32 = 64;
//@ end
/// Largest ring (the 82576's limit).
pub(crate) const MAX_RING_SIZE: u32 = 4096;
//@ from ethtool
/// Ring sizes are multiples of this: RDLEN/TDLEN count 128-byte units.
pub(crate) const RING_ALIGN: u32 = 8;
//@ end
// A frame's last descriptor is kept as a `u16` (`TxSlot::last`), and RDLEN/TDLEN have 20 bits.
const _: () = assert!(MAX_RING_SIZE <= u16::MAX as u32 + 1 && MAX_RING_SIZE * 16 < 1 << 20);
/// Pages a queue's page pool keeps for recycling (the size of its ring of returned pages).
/// Fixed for the pool's life: rings larger than this take the rest from the page allocator.
const POOL_SIZE: u32 = 1024;

/// The index after `i` in a ring of `size` descriptors.
#[inline(always)]
fn ring_next(i: u32, size: u32) -> u32 {
    // `i` is below `size`, at most `MAX_RING_SIZE`: it cannot wrap.
    let n = i.wrapping_add(1);
    if n >= size {
        0
    } else {
        n
    }
}

//@ from xdp
/// The descriptor before `i` in a ring of `size`.
#[inline(always)]
fn ring_prev(i: u32, size: u32) -> u32 {
    if i == 0 {
        size - 1
    } else {
        i - 1
    }
}
//@ end

//@ from xdp
/// Where the rest of a frame whose first buffer is written stands.
enum FrameRest {
    /// Its other buffers (this many, fewer than `RX_MAX_BUFS`) are written, through the last.
    Done(u32),
    /// The device has not written all of them yet.
    Pending,
    /// It spans more buffers than a frame of the largest MTU.
    TooLong,
}
//@ end

/// Free descriptors of a ring of `size` between `next_to_use` and `next_to_clean`; one always
/// stays empty so that head == tail means "empty".
// Called twice per TX frame; the compiler keeps it out of line otherwise.
#[inline(always)]
fn ring_unused(next_to_clean: u32, next_to_use: u32, size: u32) -> u32 {
    // Both indices are below `size` (at most `MAX_RING_SIZE`), so the sum stays far from
    // wrapping; wrapping operations leave out the overflow checks (per TX frame).
    let d = next_to_clean
        .wrapping_add(size)
        .wrapping_sub(next_to_use)
        .wrapping_sub(1);
    if d >= size {
        d - size
    } else {
        d
    }
}
/// Bytes the device may write per RX buffer (SRRCTL.BSIZEPACKET = 2 KiB).
pub(crate) const RX_BUF_LEN: u32 = 2048;
/// Most buffers a received frame of the largest MTU spans.
const RX_MAX_BUFS: u32 = (MAX_MTU + FRAME_OVERHEAD).div_ceil(RX_BUF_LEN);
// Its fragments fit an skb (and an XDP frame).
const _: () = assert!(RX_MAX_BUFS - 1 <= MAX_FRAGS);
/// Headroom left in front of received frames in whole-page buffers: what XDP programs may
/// grow into, which is also room enough for the stack's headers.
pub(crate) const RX_HEADROOM: u32 = xdp::PACKET_HEADROOM;
/// Whole-page RX buffers, 2 KiB written in each: for XDP and for frames longer than
/// [`RX_HALF_MAX`] (which span buffers).
pub(crate) const RX_WHOLE: Option<Layout> = Layout::new(PAGE_SIZE, RX_HEADROOM, RX_BUF_LEN);
/// Longest frame a half-page RX buffer takes.
pub(crate) const RX_HALF_MAX: u32 = 1536;
/// Half-page RX buffers (2 KiB, two to a 4 KiB page, as C igb's): the frame, at most
/// [`RX_HALF_MAX`] bytes, then the skb's shared info; the rest is headroom (192 bytes where
/// the shared info takes 320). Only for frames that fit (the device's frame limit, RLPML,
/// keeps them there) and without XDP.
pub(crate) const RX_HALF: Option<Layout> =
    match (RX_BUF_LEN - SKB_SHINFO_SIZE).checked_sub(RX_HALF_MAX) {
        Some(headroom) => Layout::new(RX_BUF_LEN, headroom, RX_HALF_MAX),
        None => None,
    };
//@ from xdp
/// Shortest frame the device is given: QEMU's model ignores TCTL.PSP, so shorter ones are
/// padded in software (skbs) or dropped (XDP frames, which cannot grow).
const TX_MIN_LEN: u32 = 17;
//@ end
/// Refill the RX ring once this many descriptors are free.
const RX_REFILL_BATCH: u32 = 16;
/// Most buffers (descriptors) of one TX frame: the linear data and every fragment an skb can
/// have with the default `CONFIG_MAX_SKB_FRAGS`, so sendfile and splice frames are never
/// copied. The bound keeps each ring slot's inline segment list small; a kernel built with
/// more fragments per skb linearizes the rare larger frame.
const TX_MAX_SEGS: usize = if MAX_SEGMENTS < 18 { MAX_SEGMENTS } else { 18 };
/// Descriptors the largest frame can take: the context, and every piece split at
/// `TXD_MAX_DATA` (at most two more for a 64 KiB TSO frame).
const TX_DESC_NEEDED: u32 = 1 + TX_MAX_SEGS as u32 + 2;
/// Most bytes one data descriptor carries.
const TXD_MAX_DATA: u32 = 1 << 15;
/// Wake a stopped TX queue once this many descriptors are free.
const TX_WAKE_THRESHOLD: u32 = 32;

// Advanced descriptor bits.
const RXD_STAT_DD: u64 = 1 << 0;
const RXD_STAT_EOP: u64 = 1 << 1;
/// The MAC stripped an 802.1Q tag; the descriptor's VLAN field holds it.
const RXD_STAT_VP: u64 = 1 << 3;
const RXD_STAT_UDPCS: u64 = 1 << 4;
const RXD_STAT_L4CS: u64 = 1 << 5;
const RXD_STAT_TS: u64 = 1 << 16; //@ ptp
/// CE | SE | SEQ | CXE | RXE: the frame is corrupt.
const RXD_ERR_FRAME: u64 = 0x9700_0000;
const RXD_ERR_L4E: u64 = 1 << 29;
const RXD_ERR_IPE: u64 = 1 << 30;
const TXD_DTYP_DATA: u64 = 0x0030_0000;
const TXD_CMD_EOP: u64 = 1 << 24;
const TXD_CMD_IFCS: u64 = 1 << 25;
const TXD_CMD_RS: u64 = 1 << 27;
//@ from ptp
/// Latch the frame's TX timestamp (TXSTMP) as it goes out.
const TXD_MAC_TSTAMP: u64 = 1 << 19;
//@ end
const TXD_CMD_DEXT: u64 = 1 << 29;
/// What every data descriptor carries: an advanced data descriptor, FCS inserted.
const TXD_DATA: u64 = TXD_DTYP_DATA | TXD_CMD_DEXT | TXD_CMD_IFCS;
/// Insert the VLAN tag of the context descriptor.
const TXD_CMD_VLE: u64 = 1 << 30;
/// Where the VLAN tag sits in a context descriptor's first word.
const TXD_VLAN_SHIFT: u64 = 16;
/// Length of an Ethernet header without tags.
const ETH_HLEN: u32 = 14;
const TXD_PAYLEN_SHIFT: u64 = 14;
const TXD_STAT_DD: u64 = 1 << 32;
const TXD_POPTS_TXSM: u64 = 1 << 9;
const TXD_POPTS_IXSM: u64 = 1 << 8;
const TXD_CMD_TSE: u64 = 1 << 31;
const TXD_DTYP_CTXT: u64 = 0x0020_0000;
const TXD_TUCMD_IPV4: u64 = 1 << 10;
const TXD_TUCMD_L4T_TCP: u64 = 1 << 11;
const TXD_MACLEN_SHIFT: u64 = 9;

/// A descriptor ring in coherent DMA memory: two little-endian 64-bit words per descriptor.
pub(crate) struct DescRing(Coherent<[[u64; 2]]>);

impl DescRing {
    fn new(hw: &Hw<'_>, size: u32) -> Result<Self> {
        // No allocation warning: a failure is reported to whoever asked for the ring.
        Ok(Self(Coherent::<[u64; 2]>::zeroed_slice(
            hw.pdev.as_ref(),
            size as usize,
            GFP_KERNEL | __GFP_NOWARN,
        )?))
    }

    /// Word `w` (0 or 1) of descriptor `i`; out-of-range indices read as 0 (never DD).
    // Through the CPU view: no DMA address is computed for the projection.
    #[inline(always)]
    fn read(&self, i: usize, w: usize) -> u64 {
        let r = || -> Result<u64> {
            let d = io_project!((&self.0).as_view().as_sys_mem(), [try: i]);
            Ok(if w == 0 {
                io_read!(d, [build: 0])
            } else {
                io_read!(d, [build: 1])
            })
        };
        r().map_or(0, u64::from_le)
    }

    /// Writes both words of descriptor `i`, in order; out-of-range indices are ignored.
    #[inline(always)]
    fn write(&self, i: usize, lo: u64, hi: u64) {
        let r = || -> Result {
            let d = io_project!((&self.0).as_view().as_sys_mem(), [try: i]);
            io_write!(d, [build: 0], lo.to_le());
            io_write!(d, [build: 1], hi.to_le());
            Ok(())
        };
        let _ = r();
    }

    pub(crate) fn dma_base(&self) -> u64 {
        self.0.dma_address()
    }
}
//@ end

/// Hardware shared by the netdev and every vector.
pub(crate) struct Hw<'bound> {
    pub(crate) bar: Bar0<'bound>,
    pub(crate) pdev: &'bound kernel::pci::Device<kernel::device::Bound>,
    /// One MSI-X vector per NAPI instance; otherwise a single MSI or INTx interrupt for all,
    /// told apart by their ICR causes.
    pub(crate) msix: bool,
    //@ from sriov
    /// How many VFs the PF serves, also the number of its pool: 0 without SR-IOV. Changed
    /// under RTNL.
    pub(crate) vfs: Atomic<u32>,
    //@ end
}

//@ from sriov
impl Hw<'_> {
    /// The vector bits (EIMS) that are the PF's. With VFs the device routes the upper ones to
    /// the VFs (three each, from bit 24 down) and the PF uses two: "other" and its one queue
    /// pair. Without VFs, all.
    #[inline]
    pub(crate) fn pf_vectors(&self) -> u32 {
        if self.vfs.load(Relaxed) == 0 {
            u32::MAX
        } else {
            0b11
        }
    }
}
//@ end

/// What [`Hw::vector_irqs`] does to the interrupts of some vectors.
pub(crate) enum IrqOp {
    Unmask,
    Mask,
    Fire, //@ datapath
}

impl Hw<'_> {
    /// Unmasks, masks or fires the vectors whose bits (`VectorData::eims`) are in `bits`:
    /// EIMS/EIMC/EICS with MSI-X; IMS/IMC/ICS, where the bits are causes, with a single
    /// interrupt.
    #[inline]
    pub(crate) fn vector_irqs(&self, op: IrqOp, bits: u32) {
        let bar = &self.bar;
        let bits = bits & self.pf_vectors(); //@ sriov
        match (self.msix, op) {
            (true, IrqOp::Unmask) => bar.write_reg(regs::EIMS::zeroed().with_mask(bits)),
            (true, IrqOp::Mask) => bar.write_reg(regs::EIMC::zeroed().with_mask(bits)),
            (true, IrqOp::Fire) => bar.write_reg(regs::EICS::zeroed().with_mask(bits)), //@ datapath
            (false, IrqOp::Unmask) => bar.write_reg(regs::IMS::zeroed().with_mask(bits)),
            (false, IrqOp::Mask) => bar.write_reg(regs::IMC::zeroed().with_mask(bits)),
            (false, IrqOp::Fire) => bar.write_reg(regs::ICS::zeroed().with_causes(bits)), //@ datapath
        }
    }
}

/// ICR/IMS/IMC/ICS causes (single-interrupt mode): transmit descriptor written back.
pub(crate) const ICR_TXDW: u32 = 1 << 0;
/// Link status change.
pub(crate) const ICR_LSC: u32 = 1 << 2;
/// Receive descriptors below the minimum threshold.
pub(crate) const ICR_RXDMT0: u32 = 1 << 4;
/// Receive timer: frames were written back.
pub(crate) const ICR_RXT0: u32 = 1 << 7;
/// DMA out of sync.
pub(crate) const ICR_DOUTSYNC: u32 = 1 << 28;
/// Device reset asserted (firmware, a BMC, or a reset of the function): rings and masks are
/// gone.
pub(crate) const ICR_DRSTA: u32 = 1 << 30;
//@ from sriov
/// A VF's mailbox message, acknowledgment or reset.
pub(crate) const ICR_VMMB: u32 = 1 << 8;
//@ end
/// The causes vector 0 serves besides the queues' own.
pub(crate) const ICR_OTHER: u32 = ICR_LSC | ICR_DOUTSYNC | ICR_DRSTA;

//@ from datapath
/// Per-queue counters, read by `get_stats64` and `ethtool -S` at any time.
pub(crate) struct QueueStats {
    pub(crate) rx_packets: Atomic<u64>,
    pub(crate) rx_bytes: Atomic<u64>,
    pub(crate) rx_errors: Atomic<u64>,
    pub(crate) rx_alloc_failed: Atomic<u64>,
    pub(crate) rx_copybreak: Atomic<u64>,
    /// Buffers the queue took from its page pool as half pages (page fragments).
    pub(crate) rx_buf_frags: Atomic<u64>,
    /// Buffers the queue took from its page pool as whole pages.
    pub(crate) rx_buf_pages: Atomic<u64>,
    /// Frames whose L4 checksum the device verified (passed on as `CHECKSUM_UNNECESSARY`).
    pub(crate) rx_csum_good: Atomic<u64>,
    pub(crate) tx_packets: Atomic<u64>,
    pub(crate) tx_bytes: Atomic<u64>,
    pub(crate) tx_dropped: Atomic<u64>,
    pub(crate) tx_busy: Atomic<u64>,
    /// Frames sent from more than one buffer (linear data plus fragments).
    pub(crate) tx_sg_packets: Atomic<u64>,
    /// Frames of more pieces than a frame may use, copied into one buffer first.
    pub(crate) tx_linearized: Atomic<u64>,
    /// TCP frames the device cut into segments (TSO).
    pub(crate) tx_tso_packets: Atomic<u64>,
    //@ from xdp
    /// Frames XDP dropped (`XDP_DROP`).
    pub(crate) xdp_drop: Atomic<u64>,
    /// Frames XDP sent back out (`XDP_TX`), queued on the TX ring.
    pub(crate) xdp_tx: Atomic<u64>,
    /// Frames XDP redirected (`XDP_REDIRECT`).
    pub(crate) xdp_redirect: Atomic<u64>,
    /// Frames dropped on `XDP_ABORTED`, an invalid action, a refused redirect or TX, or one
    /// the program could not see whole.
    pub(crate) xdp_aborted: Atomic<u64>,
    /// Frames other devices redirected to this queue, queued (`ndo_xdp_xmit`).
    pub(crate) xdp_xmit: Atomic<u64>,
    /// XDP frames that found no room on the TX ring, or could not be mapped.
    pub(crate) xdp_tx_errors: Atomic<u64>,
    //@ end
    /// Intervals adaptive moderation (DIM) decided on and wrote to the vector.
    pub(crate) dim_updates: Atomic<u64>,
}

impl QueueStats {
    fn new() -> Self {
        Self {
            rx_packets: Atomic::new(0),
            rx_bytes: Atomic::new(0),
            rx_errors: Atomic::new(0),
            rx_alloc_failed: Atomic::new(0),
            rx_copybreak: Atomic::new(0),
            rx_buf_frags: Atomic::new(0),
            rx_buf_pages: Atomic::new(0),
            rx_csum_good: Atomic::new(0),
            tx_packets: Atomic::new(0),
            tx_bytes: Atomic::new(0),
            tx_dropped: Atomic::new(0),
            tx_busy: Atomic::new(0),
            tx_sg_packets: Atomic::new(0),
            tx_linearized: Atomic::new(0),
            tx_tso_packets: Atomic::new(0),
            //@ from xdp
            xdp_drop: Atomic::new(0),
            xdp_tx: Atomic::new(0),
            xdp_redirect: Atomic::new(0),
            xdp_aborted: Atomic::new(0),
            xdp_xmit: Atomic::new(0),
            xdp_tx_errors: Atomic::new(0),
            //@ end
            dim_updates: Atomic::new(0),
        }
    }
}
//@ end

/// What a vector serves.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// Link and other causes.
    Other,
    /// RX and TX queue `q`.
    Queue(u16),
}

//@ from datapath
/// Recycle every received frame without building an skb: only in the copy `make bench`
/// builds (`IGB_RUST_BENCH=y`) to measure the RX ceiling, never in the driver users load.
const DROP_ALL: bool = cfg!(igb_rust_bench);
//@ end

/// The NAPI instance of vector `index`: its shared data, its RX ring and the parameters of
/// its page pool.
pub(crate) fn vector_instance<'b>(
    hw: &Arc<Hw<'b>>,
    index: u32,
    //@ until datapath: ) -> Result<Instance<impl PinInit<VectorData<'b>, Error> + 'b, ()>> {
    //@ from datapath
) -> Result<Instance<impl PinInit<VectorData<'b>, Error> + 'b, Option<RxRing>>> {
    //@ end
    let role = match index.checked_sub(1) {
        None => Role::Other,
        // At most 8 queues.
        Some(q) => Role::Queue(q as u16),
    };
    //@ from datapath
    let state = match role {
        Role::Other => None,
        Role::Queue(q) => Some(RxRing::new(hw, q, DEFAULT_RING_SIZE)?),
    };
    // Whole pages until `open` picks the layout for the MTU (and XDP).
    let layout = RX_WHOLE.ok_or(EINVAL)?;
    let pool = state.as_ref().map(|_| Params {
        pool_size: POOL_SIZE,
        layout,
    });
    //@ end
    // What masks, unmasks and fires the vector: its EIMS bit, or, with a single interrupt,
    // its causes.
    let mask = match (hw.msix, role) {
        (true, _) => 1 << index,
        (false, Role::Other) => ICR_OTHER,
        (false, Role::Queue(_)) => ICR_TXDW | ICR_RXDMT0 | ICR_RXT0,
    };
    Ok(Instance {
        data: VectorData::new(hw.clone(), role, mask)?,
        //@ until datapath: state: (),
        //@ until datapath: pool: None,
        state, //@ datapath
        pool,  //@ datapath
        queue: match role {
            Role::Other => None,
            Role::Queue(q) => Some(u32::from(q)),
        },
        // Vector `index` is interrupt line `index`; a single line serves every instance.
        irq: Some(if hw.msix { index } else { 0 }),
    })
}

/// The interrupt handler of a vector: masks it and schedules its NAPI instance.
pub(crate) fn handle_irq(napi: &Napi<VectorData<'_>>) -> IrqReturn {
    //@ from ethtool
    if napi.data().role == Role::Other {
        napi.data().irqs.add(1, Relaxed);
    }
    //@ end
    // Mask this vector until the poll is done: EIAM is left clear, so the hardware does not
    // mask it on its own.
    napi.data().mask();
    napi.schedule();
    IrqReturn::Handled
}

/// The handler of the single MSI or INTx interrupt: reads (and so acknowledges) the causes,
/// masks and schedules the instances they belong to. The INTx line may be shared: only an
/// unmasked cause raises it, so an interrupt without one is someone else's.
pub(crate) fn handle_single_irq<'a, 'b: 'a>(
    hw: &Hw<'_>,
    napis: impl Iterator<Item = &'a Napi<VectorData<'b>>>,
) -> IrqReturn {
    let enabled = hw.bar.read(regs::IMS).mask().get();
    let causes = hw.bar.read(regs::ICR).causes().get();
    // All ones: the function does not answer (powered down or gone), nothing to serve.
    if causes == u32::MAX || enabled == u32::MAX {
        return IrqReturn::None;
    }
    let mut ours = IrqReturn::None;
    for napi in napis {
        let mine = causes & napi.data().eims;
        if mine == 0 {
            continue;
        }
        if mine & enabled != 0 {
            napi.data().mask();
            ours = IrqReturn::Handled;
        }
        // Reading ICR acknowledged them: the poll learns which from here.
        if napi.data().role == Role::Other {
            napi.data().irqs.add(1, Relaxed); //@ ethtool
            let causes = &napi.data().causes;
            let mut cur = causes.load(Relaxed);
            while let Err(now) = causes.cmpxchg(cur, cur | mine, Relaxed) {
                cur = now;
            }
        }
        // A masked cause belongs to a poll that is running: reading ICR acknowledged it, so
        // have that poll run once more (NAPI notes a schedule while it runs).
        napi.schedule();
    }
    ours
}

/// Data of a vector shared between its interrupt handler, its poll and `start_xmit` (which
/// only counts frames out of the ordinary here). The vector's TX ring is not here: its
/// sending half is its queue's [`XmitData`](netdev::Operations::XmitData), its cleaning half
/// in the poll state.
#[pin_data]
pub(crate) struct VectorData<'bound> {
    pub(crate) hw: Arc<Hw<'bound>>,
    pub(crate) role: Role,
    /// EIMS/EIMC/EICS bit of this vector, or with a single interrupt its IMS/IMC/ICS causes.
    pub(crate) eims: u32,
    //@ from datapath
    pub(crate) stats: QueueStats,
    /// What the watchdog saw last: the TX packets completed so far if frames were pending,
    /// `NOT_PENDING` if none were.
    tx_watch: Atomic<u64>,
    /// Watchdog periods in a row that found frames pending and none completed.
    tx_stalls: Atomic<u32>,
    //@ end
    /// With a single interrupt, the "other" causes its handler read from ICR (which cleared
    /// them) for vector 0's poll.
    causes: Atomic<u32>,
    //@ from ethtool
    /// Interrupts of vector 0 (link and other causes) handled: the self-test's witness.
    pub(crate) irqs: Atomic<u32>,
    //@ end
    //@ from xsk
    /// Frames of the queue's AF_XDP socket the TX clean of this poll found sent, for the
    /// socket's completion ring (only the poll uses it).
    xsk_sent: Atomic<u32>,
    //@ end
}

//@ from datapath
/// [`VectorData::tx_watch`] when the ring was empty.
const NOT_PENDING: u64 = u64::MAX;

/// The sending half of a TX ring: descriptors from its head on are free for new frames.
pub(crate) type TxSend<'bound> = ring::Producer<TxSlot<'bound>, DescRing>;
/// The cleaning half of a TX ring: descriptors from its tail to the head are the device's
/// until it reports them done.
pub(crate) type TxClean<'bound> = ring::Consumer<TxSlot<'bound>, DescRing>;

/// What the xmit lock of TX queue `q` protects: the sending half of the queue's ring, once
/// the first `open` made one, and whether the device reads it.
///
/// Invariants of the ring (kept by `xmit_frame`, `push_frame`, `clean_tx` and `drain_tx`, which
/// are all that change it, and by `reset`, which only moves an empty ring's indices): each frame
/// published to the cleaning half has its buffers mapped in the slot of its first descriptor,
/// with `last` naming its last descriptor and `descs` counting its descriptors; every other
/// slot is empty.
#[derive(Default)]
pub(crate) struct TxQueueData<'bound> {
    pub(crate) ring: Option<TxSend<'bound>>,
    /// Whether the device reads the ring: set once it is programmed, cleared before it is
    /// stopped. Nothing is queued while it is clear.
    pub(crate) live: bool,
    /// The device's queue (register block) the ring is programmed into.
    //@ from sriov
    /// The queue's, or with VFs the PF's pool's.
    //@ end
    /// Set with `live`.
    pub(crate) reg: u16,
}

//@ from xdp
/// Why a ring refused an XDP frame.
enum Refused {
    /// The device does not read the ring.
    Down(Frame),
    /// No descriptor free, or the mapping failed: the frames after it fare no better.
    Full(Frame),
    /// Not a frame the device can send (too short or too long): dropped.
    Dropped,
}
//@ end

/// What a TX descriptor slot holds. A frame lives in the slot of its first descriptor
/// (context or data) from `xmit` until the device reports its last descriptor done; the
/// slots of its other descriptors stay empty.
// The ring's slots are allocated once and a frame is mapped in place in its slot, so that
// transmitting allocates and copies nothing.
pub(crate) struct TxSlot<'bound> {
    /// The frame, mapped, or nothing.
    frame: MapSlot<'bound, TX_MAX_SEGS>,
    /// Index of the frame's last descriptor, the one whose completion the device reports.
    last: u16,
    /// Number of descriptors (and slots) the frame takes, from this slot on.
    descs: u16,
    /// Packets and bytes the frame puts on the wire (several packets with TSO).
    wire: Wire,
    //@ from xsk
    /// A frame of the queue's AF_XDP socket, in the socket's mapped buffers (`frame` is then
    /// empty): counted for the socket's completion ring once sent.
    xsk: bool,
    //@ end
}

/// Packets (low 32 bits) and bytes (high 32 bits) sent, in one word: a clean sums both of a
/// frame in one add.
///
/// A clean adds at most a ring of frames ([`MAX_RING_SIZE`], 2^12) of fewer than 2^16
/// packets each (a TSO frame's segment count): the packets never carry into the bytes. The
/// bytes wrap as a `u32` would (a frame injected with a tiny GSO size counts tens of
/// megabytes), their carry falling off the top.
#[derive(Clone, Copy, Default)]
struct Wire(u64);

impl Wire {
    #[inline(always)]
    fn new(pkts: u32, bytes: u32) -> Self {
        Self((u64::from(bytes) << 32) | u64::from(pkts))
    }

    /// Adds `other`'s counts (wrapping: a miscount at worst, never a panic).
    #[inline(always)]
    fn add(&mut self, other: Wire) {
        self.0 = self.0.wrapping_add(other.0);
    }

    #[inline(always)]
    fn pkts(self) -> u32 {
        self.0 as u32
    }

    #[inline(always)]
    fn bytes(self) -> u32 {
        (self.0 >> 32) as u32
    }
}

/// A TX ring of `size` descriptors, in its two halves.
pub(crate) fn tx_ring<'bound>(
    hw: &Hw<'bound>,
    size: u32,
) -> Result<(TxSend<'bound>, TxClean<'bound>)> {
    let desc = DescRing::new(hw, size)?;
    let pdev: &'bound kernel::device::Device<kernel::device::Bound> = hw.pdev.as_ref();
    ring::pair(
        size,
        desc,
        || TxSlot {
            frame: MapSlot::new(pdev),
            last: 0,
            descs: 0,
            wire: Wire::default(),
            xsk: false, //@ xsk
        },
        GFP_KERNEL | __GFP_NOWARN,
    )
}

/// Empties a TX ring the device no longer reads: frees every frame queued on it and gives
/// back every descriptor. Process context.
pub(crate) fn drain_tx(tx: &mut TxClean<'_>) {
    let mut pending = tx.pending_slots();
    while let Some(slot) = pending.first_mut() {
        drop(slot.frame.take());
        //@ from xsk
        // The socket's frames are completed when its binding goes.
        slot.xsk = false;
        //@ end
        pending.release(1);
    }
}

impl<'bound> TxQueueData<'bound> {
    /// Tells the device about every descriptor queued on this data's TX queue, if it reads
    /// the ring.
    fn ring_doorbell(&self, bar: &Bar0<'_>) {
        if let Some(ring) = self.ring.as_ref().filter(|_| self.live) {
            // Descriptors must be visible before the doorbell.
            dma_mb(Write);
            crate::hw::write_tail(bar, TailReg::Tx, self.reg, ring.head());
        }
    }

    //@ from xdp
    /// Queues an XDP frame, one data descriptor per buffer; the caller rings the doorbell.
    /// The frame comes back if the device does not read the ring, the ring lacks the
    /// descriptors or the mapping fails; it is dropped if it is too short or too long.
    fn push_frame(&mut self, frame: Frame) -> core::result::Result<(), Refused> {
        let len = frame.len();
        let ring = match self.ring.as_mut() {
            Some(r) if self.live => r,
            _ => return Err(Refused::Down(frame)),
        };
        // Each piece must fit one data descriptor, and the whole frame the ring's free ones.
        let (mut pieces, mut fits) = (0u32, true);
        for l in frame.piece_lens() {
            fits &= l <= TXD_MAX_DATA;
            pieces += 1;
        }
        if !fits || !(TX_MIN_LEN..=TXD_MAX_DATA).contains(&len) {
            return Err(Refused::Dropped);
        }
        let mut free = ring.free_slots();
        let room = free.len();
        if pieces > room {
            return Err(Refused::Full(frame));
        }
        let (size, first, desc) = (free.size(), free.head(), free.shared());
        let Some(slot) = free.first_mut() else {
            return Err(Refused::Full(frame));
        };
        // The pieces checked above, in the same order.
        let segs = match slot.frame.map_frame(frame) {
            Ok(segs) => segs,
            Err((_, e)) if e == EMSGSIZE => return Err(Refused::Dropped),
            Err((f, _)) => return Err(Refused::Full(f)),
        };
        // The mapping has a piece per segment, which were counted: checked again before a
        // descriptor is written, since one the device owns must never be.
        if segs.len() as u32 > room {
            drop(slot.frame.take());
            return Err(Refused::Dropped);
        }
        let olinfo = u64::from(len) << TXD_PAYLEN_SHIFT;
        let mut i = first;
        for (n, seg) in segs.iter().enumerate() {
            let mut cmd = u64::from(seg.len) | TXD_DATA;
            if n + 1 == segs.len() {
                cmd |= TXD_CMD_EOP | TXD_CMD_RS;
                slot.last = i as u16;
            }
            desc.write(i as usize, seg.addr, cmd | (olinfo << 32));
            i = ring_next(i, size);
        }
        let n = segs.len() as u32;
        // At most `room`, below the ring's size.
        slot.descs = n as u16;
        slot.wire = Wire::new(1, len);
        // At most `pieces`, which were free.
        if !free.publish(n) {
            if let Some(slot) = free.first_mut() {
                drop(slot.frame.take());
            }
            return Err(Refused::Dropped);
        }
        Ok(())
    }
    //@ end

    //@ from xsk
    /// Queues a frame of the queue's AF_XDP socket, `len` bytes at `addr` in the socket's
    /// mapped buffers, in one data descriptor; the caller rings the doorbell. `false` if the
    /// device does not read the ring or it has no free descriptor.
    fn push_xsk(&mut self, addr: DmaAddress, len: u32) -> bool {
        let ring = match self.ring.as_mut() {
            Some(r) if self.live => r,
            _ => return false,
        };
        let mut free = ring.free_slots();
        let (i, desc) = (free.head(), free.shared());
        let Some(slot) = free.first_mut() else {
            return false;
        };
        let olinfo = u64::from(len) << TXD_PAYLEN_SHIFT;
        let cmd = u64::from(len) | TXD_DATA | TXD_CMD_EOP | TXD_CMD_RS;
        desc.write(i as usize, addr, cmd | (olinfo << 32));
        // Below the ring's size.
        slot.last = i as u16;
        slot.descs = 1;
        slot.wire = Wire::new(1, len);
        slot.xsk = true;
        if !free.publish(1) {
            if let Some(slot) = free.first_mut() {
                slot.xsk = false;
            }
            return false;
        }
        true
    }
    //@ end
}

/// The RX ring of a queue vector: owned by its NAPI poll.
pub(crate) struct RxRing {
    queue: u16,
    /// The device's queue (register block) it is programmed into, if any: set by `bring_up`,
    /// cleared with the ring. No tail is written without one.
    //@ from sriov
    /// The queue, or with VFs the PF's pool's; none for the queues the PF then gives up.
    //@ end
    reg: Option<u16>,
    /// Two 64-bit words per descriptor (read format: buffer, header buffer; write-back:
    /// packet info and RSS hash, then status/errors and length).
    desc: DescRing,
    /// The buffer posted at each descriptor (the device's from `tail` back to
    /// `next_to_clean`), until the device reports it done.
    pages: KVVec<Option<ParkedPage>>,
    /// Descriptors in the ring.
    size: u32,
    next_to_clean: u32,
    next_to_use: u32,
    /// First part of a frame spanning several descriptors.
    partial: Option<SkBuff>,
    /// The tail the device was last given: descriptors from there to `next_to_use` are
    /// written but not yet the device's.
    tail: u32,
    /// Drop descriptors up to the next end of frame.
    discard: bool,
    /// Adaptive interrupt moderation of the vector, fed at the end of each completed poll
    /// while `adaptive-rx` is on.
    dim: Pin<KBox<Dim>>,
    /// The [`IgbNet::itr_gen`] after which this poll last wrote the vector's interval from
    /// `dim`, `None` while `adaptive-rx` is off: when they differ, the fixed interval was
    /// written since.
    dim_gen: Option<u32>,
}

impl RxRing {
    //@ from xdp
    /// How many more descriptors after `i`, the written first one of a frame, hold the rest
    /// of that frame, if the device has written them all.
    fn frame_rest(&self, i: usize) -> FrameRest {
        let mut j = ring_next(i as u32, self.size);
        for n in 1..RX_MAX_BUFS {
            if j == self.next_to_use {
                return FrameRest::Pending;
            }
            let hi = self.desc.read(j as usize, 1);
            if hi & RXD_STAT_DD == 0 {
                return FrameRest::Pending;
            }
            if hi & RXD_STAT_EOP != 0 {
                return FrameRest::Done(n);
            }
            j = ring_next(j, self.size);
        }
        FrameRest::TooLong
    }
    //@ end
    /// A ring of `size` descriptors for RX queue `queue`.
    pub(crate) fn new(hw: &Hw<'_>, queue: u16, size: u32) -> Result<Self> {
        let desc = DescRing::new(hw, size)?;
        let mut pages = KVVec::with_capacity(size as usize, GFP_KERNEL | __GFP_NOWARN)?;
        for _ in 0..size {
            pages.push(None, GFP_KERNEL)?;
        }
        Ok(Self {
            queue,
            reg: None,
            desc,
            pages,
            size,
            next_to_clean: 0,
            next_to_use: 0,
            partial: None,
            tail: 0,
            discard: false,
            dim: Dim::new(dim::Table::Rx, dim::Mode::FromEvent)?,
            dim_gen: None,
        })
    }

    pub(crate) fn dma_base(&self) -> u64 {
        self.desc.dma_base()
    }

    /// Which of the device's queues the ring is programmed into (`bring_up`).
    pub(crate) fn set_reg(&mut self, reg: u16) {
        self.reg = Some(reg);
    }

    pub(crate) fn size(&self) -> u32 {
        self.size
    }

    #[inline]
    fn unused(&self) -> u32 {
        ring_unused(self.next_to_clean, self.next_to_use, self.size)
    }

    /// Gives the device fresh buffers for every unused descriptor and moves the tail, counting
    /// the buffers taken from the pool in `stats`. Returns 1 if the pool ran dry before the
    /// ring was full, else 0 (counted by the caller).
    pub(crate) fn refill(
        &mut self,
        pool: &PagePool<'_>,
        bar: &Bar0<'_>,
        stats: &QueueStats,
    ) -> u32 {
        let n = self.unused();
        // Slots from `next_to_use` on are empty (`clean_rx` takes each page out); one that is
        // not gives its page back (`post`). A full ring leaves the pool alone.
        let taken = if n > 0 {
            pool.alloc_each(n, |page| {
                self.post(page, ring_next(self.next_to_use, self.size))
            })
        } else {
            0
        };
        // Also gives the device what `repost` wrote since the last refill.
        self.give_tail(bar);
        // Counted per refill, not per buffer: at most one atomic add each.
        if taken > 0 {
            if pool.layout().is_whole_page() {
                stats.rx_buf_pages.add(u64::from(taken), Relaxed);
            } else {
                stats.rx_buf_frags.add(u64::from(taken), Relaxed);
            }
        }
        // The pool ran dry: one failure per refill.
        u32::from(taken < n)
    }

    /// Gives the device the descriptors written up to `next_to_use`, if any since the last
    /// time: moves the tail.
    #[inline]
    fn give_tail(&mut self, bar: &Bar0<'_>) {
        if self.next_to_use != self.tail {
            // Descriptors must be visible before the device sees the new tail.
            dma_mb(Write);
            if let Some(reg) = self.reg {
                crate::hw::write_tail(bar, TailReg::Rx, reg, self.next_to_use);
            }
            self.tail = self.next_to_use;
        }
    }

    /// Posts the page of a frame nobody else will see at `next_to_use` again, synced for the
    /// device over the `dirty` bytes written, without a round trip through the pool; the
    /// device gets it when the next refill moves the tail (at most `RX_REFILL_BATCH` frames
    /// later, or at the end of the poll). A page the pool would not recycle goes back to it.
    ///
    /// Every frame frees its first descriptor before its page comes back here, and only that
    /// page does, so there is always room.
    #[inline(always)]
    fn repost(&mut self, pool: &PagePool<'_>, page: Page<'_>, ctx: &RxContext<'_, '_>, dirty: u32) {
        let next = ring_next(self.next_to_use, self.size);
        // Full: posting would make the ring look empty. A page of another pool is mapped for
        // whatever that pool serves: it goes back there.
        if next == self.next_to_clean || !page.is_from(pool) {
            page.recycle(ctx, dirty);
            return;
        }
        if let Some(page) = page.keep(ctx, dirty) {
            self.post(page, next);
        }
    }

    /// Gives `page`, synced for the device, to the descriptor at `next_to_use` and moves on to
    /// `next`, the one after it; the caller has checked that the ring has room.
    #[inline(always)]
    fn post(&mut self, page: Page<'_>, next: u32) {
        let i = self.next_to_use as usize;
        // Inside the page's mapping, which does not wrap.
        let addr = page.write_addr();
        let Some(slot) = self.pages.get_mut(i) else {
            return;
        };
        // Slots from `next_to_use` on are empty; one that is not gives its page back.
        if let Some(old) = slot.replace(page.park()) {
            release_parked(old);
        }
        // A zero header address and zero status: the descriptor is not done.
        self.desc.write(i, addr, 0);
        self.next_to_use = next;
    }

    //@ from xsk
    /// Gives the device a buffer of the AF_XDP pool `xsk` for every unused descriptor, and
    /// moves the tail. Returns whether the ring is full: `false` when user space has not
    /// given enough buffers back yet.
    pub(crate) fn refill_zc(&mut self, xsk: &XskRx, bar: &Bar0<'_>) -> bool {
        let want = self.unused();
        let start = self.next_to_use;
        let desc = &self.desc;
        // The parking places are the descriptors: the buffer of place `i` is written into
        // descriptor `i`.
        let got = xsk.fill_range(start, want, |i, addr| {
            // A zero header address and zero status: the descriptor is not done.
            desc.write(i as usize, addr, 0);
        });
        // At most `unused`: the sum is below twice the ring's size.
        let next = start + got;
        self.next_to_use = if next >= self.size {
            next - self.size
        } else {
            next
        };
        self.give_tail(bar);
        got == want
    }
    //@ end

    /// Releases every buffer (the device is stopped). Process context.
    pub(crate) fn clear(&mut self) {
        for p in self.pages.iter_mut() {
            // Unused buffers: dropping a parked page gives it back unsynced.
            *p = None;
        }
        self.partial = None;
        self.discard = false;
        self.next_to_clean = 0;
        self.next_to_use = 0;
        self.tail = 0;
        // Programmed again, if at all, by the next `bring_up`.
        self.reg = None;
    }
}

/// Gives back a page found where none should be, out of the hot path.
#[cold]
#[inline(never)]
fn release_parked(page: ParkedPage) {
    drop(page);
}

/// What the RX loop counts over one poll, added to the queue's statistics at its end.
#[derive(Default)]
struct RxTotals {
    /// Frames received: up the stack, or taken by XDP whatever it did with them.
    done: u32,
    bytes: u64,
    errors: u64,
    copied: u64,
    csum_good: u64,
}

/// What the RX path applies to an skb, read once per poll: `ethtool -K rx off` and the
/// like apply from the next poll on.
#[derive(Clone, Copy)]
struct RxOffloads {
    csum: bool,
    hash: bool,
    vlan: bool,
    /// The queue recorded in each skb; `None` while `ethtool -L` has the queue out of use: a
    /// frame that still reaches it is passed up without it, which the stack no longer knows,
    /// and the ring is not refilled.
    queue: Option<u16>,
}

impl RxOffloads {
    /// The offloads of `features` for RX queue `q` of `dev`.
    #[inline(always)]
    fn of(features: u64, q: u16, dev: &netdev::Device<IgbNet<'_>>) -> Self {
        Self {
            csum: features & netdev::NETIF_F_RXCSUM != 0,
            hash: features & netdev::NETIF_F_RXHASH != 0,
            vlan: features & netdev::NETIF_F_HW_VLAN_CTAG_RX != 0,
            queue: (u32::from(q) < dev.data().active.load(Relaxed)).then_some(q),
        }
    }
}

//@ from xdp
/// What XDP did with the frames of one poll, counted as the poll goes.
#[derive(Default)]
struct XdpCounts {
    drop: u64,
    redirect: u64,
    aborted: u64,
    /// Frames were queued for `XDP_TX`: the TX doorbell is rung at the end of the poll.
    tx: bool,
}
//@ end

//@ from xdp
/// What the RX loop does with the verdict on one frame: a frame the program passed is built
/// into an skb and goes up the stack (out of line); any other is counted as received
/// (whatever became of it) and its page reposted in the ring, sent back out, or left to the
/// redirect.
struct XdpOutcome<'a, 'b, 'c, 'n, 'd> {
    vector: &'a VectorData<'b>,
    rx: &'a mut RxRing,
    pool: &'a PagePool<'a>,
    ctx: &'a RxContext<'c, 'n>,
    dev: &'a netdev::Device<IgbNet<'d>>,
    /// The frame's bytes in all its buffers.
    total: u32,
    /// The status word of the frame's last descriptor, and where that descriptor is.
    hi: u64,
    last: usize,
    offloads: RxOffloads,
    totals: &'a mut RxTotals,
    counts: &'a mut XdpCounts,
}
//@ end

//@ from xdp
impl XdpOutcome<'_, '_, '_, '_, '_> {
    #[inline(always)]
    fn received(&mut self) {
        // Neither can wrap: bytes of one poll, frames below the budget.
        self.totals.bytes = self.totals.bytes.wrapping_add(u64::from(self.total));
        self.totals.done = self.totals.done.wrapping_add(1);
    }
}
//@ end

//@ from xdp
impl<'p> xdp::OnVerdict<'p> for XdpOutcome<'_, '_, '_, '_, '_> {
    type Output = ();

    #[inline(always)]
    fn meta(&self) -> xdp::RxMeta {
        // Still the device's write-back: nothing was posted at `last` since.
        rx_meta(self.rx.desc.read(self.last, 0), self.hi)
    }

    #[inline(always)]
    fn pass(self, buff: xdp::Buff<'p>) {
        self.vector.xdp_pass(
            self.rx,
            buff,
            self.hi,
            self.last,
            self.offloads,
            self.totals,
            self.dev,
            self.ctx,
        );
    }

    #[inline(always)]
    fn tx(mut self, frame: Frame) {
        self.received();
        self.vector
            .xdp_tx(self.dev, self.rx.queue, frame, self.ctx.napi());
        self.counts.tx = true;
    }

    #[inline(always)]
    fn redirected(mut self) {
        self.received();
        self.counts.redirect = self.counts.redirect.wrapping_add(1);
    }

    #[inline(always)]
    fn dropped(mut self, page: Page<'p>, dirty: u32, reason: DropReason) {
        self.received();
        self.rx.repost(self.pool, page, self.ctx, dirty);
        match reason {
            DropReason::Drop => self.counts.drop = self.counts.drop.wrapping_add(1),
            _ => self.counts.aborted = self.counts.aborted.wrapping_add(1),
        }
    }
}
//@ end
//@ end

/// Poll routine of a vector.
impl<'bound> Poll for VectorData<'bound> {
    type Owner = IgbNet<'bound>;
    //@ until datapath: type State = ();
    //@ until datapath: type TxState = ();
    //@ from datapath
    type State = Option<RxRing>;
    /// The cleaning half of the queue's TX ring, made by the first `open`.
    type TxState = Option<TxClean<'bound>>;
    //@ end

    //@ until link: fn poll<'n>(&self, _dev: &netdev::Device<IgbNet<'bound>>, _ctx: &NapiContext<'n>, _tx: &mut (), _rx: Option<Rx<'_, 'n, Self>>) -> u32 {
    //@ from link
    //@ until datapath: fn poll<'n>(&self, dev: &netdev::Device<IgbNet<'bound>>, _ctx: &NapiContext<'n>, _tx: &mut (), _rx: Option<Rx<'_, 'n, Self>>) -> u32 {
    //@ end
    //@ from datapath
    fn poll<'n>(
        &self,
        dev: &netdev::Device<IgbNet<'bound>>,
        ctx: &NapiContext<'n>,
        tx: &mut Self::TxState,
        rx: Option<Rx<'_, 'n, Self>>,
    ) -> u32 {
        //@ end
        match self.role {
            //@ until link: // The link comes with the next patch.
            //@ until link: Role::Other => 0,
            //@ from link
            Role::Other => {
                // With GPIE.NSICR, reading ICR acknowledges every cause. With a single
                // interrupt the handler read ICR already and left this vector's causes here.
                let icr = if self.hw.msix {
                    self.hw.bar.read(regs::ICR).causes().get()
                } else {
                    self.causes.xchg(0, Relaxed)
                };
                dev.data().other_causes(dev, icr);
                0
            }
            //@ end
            //@ until datapath: // The data path comes with a later patch.
            //@ until datapath: Role::Queue(_) => 0,
            //@ from datapath
            Role::Queue(q) => {
                if let Some(tx) = tx {
                    self.clean_tx(dev, ctx, q, tx);
                }
                //@ from ptp
                // A frame's completion brought this poll: its timestamp is latched by now, or
                // within microseconds (then the poll asks to run again).
                let this = dev.data();
                let repoll = this.phc.tx_waiting() && this.phc.tx_poll(&this.hw.bar);
                //@ end
                match rx {
                    //@ from xsk
                    // A queue bound to an AF_XDP socket in zero-copy mode receives into the
                    // socket's buffers.
                    Some(Rx {
                        state: Some(ring),
                        ctx: rx_ctx,
                        xsk: Some(xsk),
                        ..
                    }) => {
                        // What the TX clean above found sent.
                        xsk.tx_completed(self.xsk_sent.xchg(0, Relaxed));
                        let budget = rx_ctx.budget();
                        let done = self.clean_rx_zc(ring, xsk, dev, &rx_ctx);
                        let sent = self.xsk_xmit(dev, q, xsk, rx_ctx.napi(), budget);
                        if done < budget && sent < budget {
                            self.moderate(ring, dev, q);
                            done
                        } else {
                            budget
                        }
                    }
                    //@ end
                    Some(Rx {
                        state: Some(ring),
                        ctx: rx_ctx,
                        pool: Some(pool),
                        xdp, //@ xdp
                        ..
                    }) => {
                        //@ until xdp: let done = self.clean_rx(ring, pool, dev, &rx_ctx);
                        let done = self.clean_rx(ring, pool, xdp, dev, &rx_ctx); //@ xdp
                                                                                 //@ from ptp
                        if repoll {
                            return rx_ctx.budget();
                        }
                        //@ end
                        if done < rx_ctx.budget() {
                            self.moderate(ring, dev, q);
                        }
                        done
                    }
                    // Netpoll (budget 0) gets no RX half, nor does a vector without a ring or
                    // a pool.
                    _ => 0,
                }
            } //@ end
        }
    }

    fn rearm(&self) {
        self.hw.vector_irqs(IrqOp::Unmask, self.eims);
    }
}

impl<'bound> VectorData<'bound> {
    //@ from datapath
    /// Adaptive interrupt moderation, at the end of a poll that completes: feeds the
    /// vector's counts to DIM and writes the interval it picks. With a single interrupt there
    /// is one queue pair, whose vector is 0.
    ///
    /// `ethtool -C` turning `adaptive-rx` off waits for running polls (`synchronize_net()`)
    /// between changing the setting and writing the fixed interval, so a poll that still saw
    /// it on cannot write after that. Each call reads the setting and writes EITR within
    /// itself.
    fn moderate(&self, rx: &mut RxRing, dev: &netdev::Device<IgbNet<'_>>, q: u16) {
        let this = dev.data();
        if !this.adaptive_rx.load(Relaxed) {
            rx.dim_gen = None;
            return;
        }
        let v = if self.hw.msix { usize::from(q) + 1 } else { 0 };
        // Paired with the bump after the fixed interval was written.
        let gen = this.itr_gen.load(Acquire);
        if rx.dim_gen != Some(gen) {
            // Just turned on, or the fixed interval was written over DIM's (`open`,
            // `ethtool -C`): put DIM's back, and measure afresh.
            rx.dim_gen = Some(gen);
            rx.dim.as_mut().restart();
            let _ = throttle(&self.hw.bar, v, u32::from(rx.dim.current().usecs));
        }
        let s = &self.stats;
        let packets = s
            .rx_packets
            .load(Relaxed)
            .wrapping_add(s.tx_packets.load(Relaxed));
        let bytes = s
            .rx_bytes
            .load(Relaxed)
            .wrapping_add(s.tx_bytes.load(Relaxed));
        if let Some(m) = rx.dim.as_mut().sample(packets, bytes) {
            // A profile's interval is far below the field's limit.
            if throttle(&self.hw.bar, v, u32::from(m.usecs)).is_ok() {
                s.dim_updates.add(1, Relaxed);
            }
        }
    }
    //@ end

    pub(crate) fn new<'b>(
        hw: Arc<Hw<'b>>,
        role: Role,
        eims: u32,
    ) -> Result<impl PinInit<VectorData<'b>, Error> + 'b> {
        Ok(try_pin_init!(VectorData {
            hw,
            role,
            eims,
            //@ from datapath
            stats: QueueStats::new(),
            tx_watch: Atomic::new(NOT_PENDING),
            tx_stalls: Atomic::new(0),
            //@ end
            causes: Atomic::new(0),
            irqs: Atomic::new(0), //@ ethtool
            xsk_sent: Atomic::new(0), //@ xsk
        }? Error))
    }

    //@ from xdp
    /// Queues a frame XDP sent back out (`XDP_TX`) on TX queue `q`, this vector's; the doorbell
    /// is rung by [`VectorData::kick_tx`] at the end of the poll.
    fn xdp_tx(
        &self,
        dev: &netdev::Device<IgbNet<'_>>,
        q: u16,
        frame: Frame,
        ctx: &NapiContext<'_>,
    ) {
        let queued = match dev.lock_tx(u32::from(q), ctx) {
            // A refused frame is dropped under the lock, in softirq: valid.
            Some(mut g) => g.push_frame(frame).is_ok(),
            None => false,
        };
        if queued {
            self.stats.xdp_tx.add(1, Relaxed);
        } else {
            self.stats.xdp_tx_errors.add(1, Relaxed);
        }
    }
    //@ end

    //@ from xdp
    /// Tells the device about the descriptors `XDP_TX` queued on TX queue `q` in this poll.
    fn kick_tx(&self, dev: &netdev::Device<IgbNet<'_>>, q: u16, ctx: &NapiContext<'_>) {
        let Some(g) = dev.lock_tx(u32::from(q), ctx) else {
            return;
        };
        // The queue sends: the stack's TX watchdog must not take it for stuck when `XDP_TX`
        // alone keeps its ring full (and `start_xmit` stops it).
        g.trans_update();
        g.ring_doorbell(&self.hw.bar);
    }
    //@ end

    //@ from xdp
    /// Queues frames redirected to the device (`ndo_xdp_xmit`) on TX queue `q`, this vector's.
    /// Softirq context. A frame the device cannot send is dropped, the first one the ring has
    /// no room for goes back to the core with the rest.
    pub(crate) fn xdp_xmit(
        &self,
        dev: &netdev::Device<IgbNet<'_>>,
        q: u16,
        frames: &mut xdp::XmitFrames<'_>,
        flush: bool,
    ) -> Result {
        let (mut sent, mut errors) = (0u64, 0u64);
        let mut down = false;
        let Some(mut g) = dev.lock_tx(u32::from(q), frames) else {
            return Err(ENXIO);
        };
        while let Some(f) = frames.next() {
            match g.push_frame(f) {
                Ok(()) => sent += 1,
                Err(Refused::Dropped) => errors += 1,
                Err(Refused::Full(f)) => {
                    // The last one taken: cannot fail.
                    let _ = frames.give_back(f);
                    errors += 1;
                    break;
                }
                Err(Refused::Down(f)) => {
                    let _ = frames.give_back(f);
                    down = true;
                    break;
                }
            }
        }
        if sent > 0 {
            // As for `XDP_TX` (`kick_tx`).
            g.trans_update();
        }
        if flush {
            // Also for frames queued by earlier calls without the flag.
            g.ring_doorbell(&self.hw.bar);
        }
        drop(g);
        self.stats.xdp_xmit.add(sent, Relaxed);
        self.stats.xdp_tx_errors.add(errors, Relaxed);
        if down {
            return Err(ENETDOWN);
        }
        Ok(())
    }
    //@ end

    /// Masks the vector's interrupt.
    fn mask(&self) {
        self.hw.vector_irqs(IrqOp::Mask, self.eims);
    }

    //@ from datapath
    /// Called by the watchdog once per period, after the queue vectors were kicked: whether
    /// frames were pending on TX queue `q`, this vector's, both now and at the previous call,
    /// with none completed in between. Process context.
    ///
    /// A hang is declared after `periods` such periods in a row (the time a frame may take
    /// grows at low link speeds), and never while `paused`: the link partner sent XOFF and the
    /// MAC is holding transmission back, as flow control asks.
    pub(crate) fn tx_hung(
        &self,
        dev: &netdev::Device<IgbNet<'_>>,
        q: u16,
        rtnl: &Rtnl,
        periods: u32,
        paused: bool,
    ) -> bool {
        let pending = dev
            .lock_tx(u32::from(q), rtnl)
            .is_some_and(|g| g.ring.as_ref().is_some_and(|r| r.ring().pending() != 0));
        // Completions only add to `tx_packets`, so an unchanged count means no progress (a
        // ring index could come back to the same value).
        let now = if pending {
            self.stats.tx_packets.load(Relaxed)
        } else {
            NOT_PENDING
        };
        if !pending || self.tx_watch.xchg(now, Relaxed) != now || paused {
            self.tx_stalls.store(0, Relaxed);
            return false;
        }
        let stalls = self.tx_stalls.load(Relaxed).saturating_add(1);
        self.tx_stalls.store(stalls, Relaxed);
        stalls >= periods
    }
    //@ end

    //@ from datapath
    /// Forgets what the watchdog saw, e.g. after the rings were reset.
    pub(crate) fn tx_watch_reset(&self) {
        self.tx_watch.store(NOT_PENDING, Relaxed);
        self.tx_stalls.store(0, Relaxed);
    }
    //@ end

    //@ from link
    /// Reports the link state the MAC sees to the stack. `event`: the link interrupt fired
    /// since the last run, so the link may have gone down and up in between.
    pub(crate) fn check_link(&self, dev: &netdev::Device<IgbNet<'_>>, _rtnl: &Rtnl, event: bool) {
        let bar = &self.hw.bar;
        let up = crate::hw::link_up(bar);
        if up && (event || !dev.carrier_ok()) {
            // The MAC took the flow control autonegotiation resolved; the user's is forced,
            // or negotiated with what this negotiation brought.
            if dev.data().configure_fc().is_err() {
                dev_warn!(self.hw.pdev, "{}: flow control not restored\n", dev.name());
            }
        }
        if up && !dev.carrier_ok() {
            dev.carrier_on();
            dev_info!(
                self.hw.pdev,
                "{}: link up, {} Mb/s {} duplex\n",
                dev.name(),
                crate::hw::link_speed(bar),
                if crate::hw::link_full_duplex(bar) {
                    "full"
                } else {
                    "half"
                }
            );
        } else if !up && dev.carrier_ok() {
            dev.carrier_off();
            dev_info!(self.hw.pdev, "{}: link down\n", dev.name());
        }
    }
    //@ end

    //@ from datapath
    /// Frees completed TX buffers and wakes the queue.
    fn clean_tx(
        &self,
        dev: &netdev::Device<IgbNet<'_>>,
        ctx: &NapiContext<'_>,
        q: u16,
        tx: &mut TxClean<'_>,
    ) {
        // Netpoll (budget 0) may run in hard interrupt context, where an XDP frame cannot be
        // returned: its loop leaves them to the next poll. Compiled apart, so that the softirq
        // poll does not test it per frame.
        if ctx.budget() == 0 {
            self.clean_tx_frames::<true>(dev, ctx, q, tx);
        } else {
            self.clean_tx_frames::<false>(dev, ctx, q, tx);
        }
    }

    /// The loop of [`Self::clean_tx`]; `NETPOLL` for a poll with budget 0.
    #[inline(always)]
    fn clean_tx_frames<const NETPOLL: bool>(
        &self,
        dev: &netdev::Device<IgbNet<'_>>,
        ctx: &NapiContext<'_>,
        q: u16,
        tx: &mut TxClean<'_>,
    ) {
        let Some(txq) = dev.tx_queue(u32::from(q)) else {
            return;
        };
        let mut sent = Wire::default();
        // XDP frames: sent, but never counted in the byte queue limits.
        let mut xdp_sent = Wire::default();
        let mut xsk_sent = 0u32; //@ xsk
        let mut pending = tx.pending_slots();
        let (size, desc, len) = (pending.size(), pending.shared(), pending.len());
        // Slots of the frames freed so far, given back together at the end: the oldest frame
        // in flight starts at the tail, each next one where the one before ends.
        let mut done = 0u32;
        while let Some(slot) = pending.slot_mut(done) {
            // Not a frame: the ring's invariant is broken. Stop rather than follow a stale
            // `last`; the watchdog sees the ring hang and resets it.
            //@ until xsk: if slot.frame.is_empty() {
            //@ from xsk
            if slot.frame.is_empty() && !slot.xsk {
                //@ end
                break;
            }
            // The device reports a frame done on its last descriptor (the one with RS).
            let last = u32::from(slot.last);
            if desc.read(last as usize, 1) & TXD_STAT_DD == 0 {
                break;
            }
            if NETPOLL && slot.frame.skb().is_none() {
                break;
            }
            // The frame's slots. A count past the pending ones is stale: stop before freeing a
            // frame whose slots could not be given back. (Below `len + 2^16`: no wrap.) A
            // count of 0 frees the frame, then stops the walk at its slot, which stays pending
            // until the watchdog resets the hung ring.
            let next = done.wrapping_add(u32::from(slot.descs));
            if next > len {
                break;
            }
            match slot.frame.take() {
                Some(TxBuf::Skb(skb)) => {
                    sent.add(slot.wire);
                    ctx.consume_skb(skb);
                }
                Some(TxBuf::Frame(f)) => {
                    xdp_sent.add(slot.wire);
                    drop(f);
                }
                //@ until xsk: None => (),
                //@ from xsk
                // A frame of the AF_XDP socket (netpoll stopped before it): its buffer goes
                // back to the socket through the completion ring, in this poll.
                None => {
                    xdp_sent.add(slot.wire);
                    slot.xsk = false;
                    xsk_sent += 1;
                } //@ end
            }
            done = next;
        }
        // At most `len`, checked frame by frame. Nothing to store when nothing completed (the
        // producer reads the index's cache line).
        if done != 0 {
            pending.release(done);
        }
        //@ from xsk
        if xsk_sent != 0 {
            self.xsk_sent.add(xsk_sent, Relaxed);
        }
        //@ end
        let (pkts, bytes) = (sent.pkts(), sent.bytes());
        let (xpkts, xbytes) = (xdp_sent.pkts(), xdp_sent.bytes());
        if pkts > 0 {
            txq.completed(pkts, bytes, ctx);
        }
        // Not `pkts + xpkts`: the counts wrap (above), an add could overflow.
        if pkts != 0 || xpkts != 0 {
            self.stats
                .tx_packets
                .add(u64::from(pkts) + u64::from(xpkts), Relaxed);
            self.stats
                .tx_bytes
                .add(u64::from(bytes) + u64::from(xbytes), Relaxed);
            // Never wake a queue of an interface going down: `stop` relies on it staying
            // stopped.
            // The free slots (the ring holds fewer than `size` pending); saturating, so that a
            // broken count never wakes the queue.
            if size.saturating_sub(1).saturating_sub(tx.pending()) >= TX_WAKE_THRESHOLD {
                txq.wake_if(|| dev.is_running());
            }
        }
    }

    /// Receives up to the budget of frames.
    fn clean_rx(
        &self,
        rx: &mut RxRing,
        pool: &PagePool<'_>,
        rxq: Option<&xdp::RxQueue>, //@ xdp
        dev: &netdev::Device<IgbNet<'_>>,
        ctx: &RxContext<'_, '_>,
    ) -> u32 {
        //@ from xdp
        // The program attached now runs on every frame of this poll. The loop is compiled
        // twice, with and without a program, so that neither carries the other's live state.
        match (rxq, dev.data().xdp_prog.get(ctx)) {
            (Some(q), Some(p)) => self.clean_rx_frames::<true>(rx, pool, Some((q, p)), dev, ctx),
            _ => self.clean_rx_frames::<false>(rx, pool, None, dev, ctx),
        }
        //@ end
        //@ until xdp: self.clean_rx_frames(rx, pool, dev, ctx)
    }

    //@ until xdp: /// The receive loop of [`Self::clean_rx`].
    //@ from xdp
    /// The receive loop of [`Self::clean_rx`]; `XDP` tells whether `xdp` holds a program.
    //@ end
    #[inline(never)]
    //@ until xdp: fn clean_rx_frames(
    //@ from xdp
    fn clean_rx_frames<const XDP: bool>(
        //@ end
        &self,
        rx: &mut RxRing,
        pool: &PagePool<'_>,
        xdp: Option<(&xdp::RxQueue, xdp::ProgRef<'_>)>, //@ xdp
        dev: &netdev::Device<IgbNet<'_>>,
        ctx: &RxContext<'_, '_>,
    ) -> u32 {
        //@ from xdp
        // What is the same for every frame of the poll is set up once.
        let mut xdp = if XDP {
            // The pool keeps its layout for the poll: its buffers take the runner's short
            // check.
            xdp.map(|(rxq, prog)| rxq.runner(prog).expecting(pool.layout()))
        } else {
            None
        };
        //@ end
        let budget = ctx.budget();
        // The most the device writes into one buffer of the pool's layout.
        let buf_len = pool.max_len();
        let copybreak = dev.data().copybreak.load(Relaxed);
        // `ethtool -K rx off` / `rxhash off` apply from the next poll on.
        let features = dev.features();
        let offloads = RxOffloads::of(features, rx.queue, dev);
        let mut t = RxTotals::default();
        let mut cleaned = 0u32;
        let mut xc = XdpCounts::default(); //@ xdp
        while t.done < budget {
            if cleaned >= RX_REFILL_BATCH {
                let failed = rx.refill(pool, &self.hw.bar, &self.stats);
                self.stats.rx_alloc_failed.add(u64::from(failed), Relaxed);
                cleaned = 0;
            }
            let i = rx.next_to_clean as usize;
            if rx.next_to_clean == rx.next_to_use {
                break;
            }
            let hi = rx.desc.read(i, 1);
            if hi & RXD_STAT_DD == 0 {
                break;
            }
            // Read the rest of the descriptor only after seeing DD.
            dma_mb(Read);
            //@ from xdp
            // The common case with a program: a whole frame in one buffer, with no error and
            // none unfinished before it. Anything else takes the general path below.
            // (Filtered on the constant `XDP`: in the loop compiled without a program this and
            // the program's paths below are dead code, and the runner's slot, whose buffer the
            // program's call would see, is not reloaded on every frame.)
            if let Some(runner) = xdp.as_mut().filter(|_| XDP) {
                if !DROP_ALL
                    && hi & (RXD_STAT_EOP | RXD_ERR_FRAME) == RXD_STAT_EOP
                    && !rx.discard
                    && rx.partial.is_none()
                {
                    rx.next_to_clean = ring_next(rx.next_to_clean, rx.size);
                    cleaned += 1;
                    let len = ((hi >> 32) & 0xffff) as u32;
                    // A page of another pool goes back to it (`take_parked`).
                    match pool.take_parked(&mut rx.pages[i]) {
                        Some(page) if len != 0 && len <= buf_len => {
                            let on = XdpOutcome {
                                vector: self,
                                rx: &mut *rx,
                                pool,
                                ctx,
                                dev,
                                total: len,
                                hi,
                                last: i,
                                offloads,
                                totals: &mut t,
                                counts: &mut xc,
                            };
                            runner.run_with(ctx, page, len, on);
                        }
                        // Nothing written, or past the buffer.
                        Some(page) => {
                            page.recycle(ctx, len.min(buf_len));
                            t.errors += 1;
                        }
                        // A descriptor completed without a buffer: the device is confused.
                        None => t.errors += 1,
                    }
                    continue;
                }
            }
            // The first buffer of a frame of several, for a program that takes them all: the
            // program sees the frame whole, or not yet.
            let mut more = 0;
            if hi & RXD_STAT_EOP == 0
                && !rx.discard
                && rx.partial.is_none()
                && XDP
                && xdp.as_ref().is_some_and(|r| r.prog().has_frags())
            {
                match rx.frame_rest(i) {
                    FrameRest::Done(n) => more = n,
                    // The device is still writing it: the next poll takes it.
                    FrameRest::Pending => break,
                    // Dropped below, buffer by buffer.
                    FrameRest::TooLong => (),
                }
            }
            //@ end
            rx.next_to_clean = ring_next(rx.next_to_clean, rx.size);
            cleaned += 1;

            let len = ((hi >> 32) & 0xffff) as u32;
            let eop = hi & RXD_STAT_EOP != 0;
            // A page of another pool goes back to it (`take_parked`).
            let Some(page) = pool.take_parked(&mut rx.pages[i]) else {
                // A descriptor completed without a buffer: the device is confused. The rest of
                // its frame goes too.
                if !rx.discard {
                    t.errors += 1;
                }
                rx.partial = None;
                rx.discard = !eop;
                continue;
            };
            if rx.discard || len == 0 || len > buf_len {
                page.recycle(ctx, len.min(buf_len));
                // One error per frame, not per buffer.
                if !rx.discard {
                    t.errors += 1;
                }
                rx.partial = None;
                rx.discard = !eop;
                continue;
            }
            if DROP_ALL {
                page.recycle(ctx, len);
                t.bytes += u64::from(len);
                t.done += u32::from(eop);
                continue;
            }

            //@ from xdp
            if let Some(runner) = xdp.as_mut().filter(|_| XDP) {
                // A program without fragment support sees whole frames in one buffer only:
                // `xdp_setup` and `change_mtu` keep the MTU there, so a longer frame is
                // dropped, and so is one longer than the largest MTU (`FrameRest::TooLong`).
                // `more` is 0 unless the buffer starts a frame the program takes whole.
                // A whole frame in one buffer without error took the straight path above: what
                // is left here is a buffer of a frame the program does not take whole (or that
                // began before it came), or a frame the device marked bad.
                if more == 0 {
                    page.recycle(ctx, len);
                    if !eop || rx.partial.is_some() {
                        rx.partial = None;
                        rx.discard = !eop;
                        xc.aborted = xc.aborted.wrapping_add(1);
                    } else {
                        t.errors += 1;
                    }
                    continue;
                }
                // The rest of the frame, all written (`frame_rest`).
                let mut frags: [Option<(Page<'_>, u32)>; RX_MAX_BUFS as usize - 1] =
                    core::array::from_fn(|_| None);
                let mut bad = false;
                let mut total = len;
                let mut hi = hi;
                for f in frags.iter_mut().take(more as usize) {
                    let j = rx.next_to_clean as usize;
                    hi = rx.desc.read(j, 1);
                    rx.next_to_clean = ring_next(rx.next_to_clean, rx.size);
                    cleaned += 1;
                    let flen = ((hi >> 32) & 0xffff) as u32;
                    total += flen;
                    match pool.take_parked(&mut rx.pages[j]) {
                        Some(p) if flen > 0 && flen <= buf_len => *f = Some((p, flen)),
                        Some(p) => {
                            p.recycle(ctx, flen.min(buf_len));
                            bad = true;
                        }
                        _ => bad = true,
                    }
                }
                // The frame's status, hash and errors are in its last descriptor, read after
                // its DD bit.
                dma_mb(Read);
                if bad || hi & RXD_ERR_FRAME != 0 {
                    page.recycle(ctx, len);
                    for (p, flen) in frags.into_iter().flatten() {
                        p.recycle(ctx, flen);
                    }
                    t.errors += 1;
                    continue;
                }
                let last = ring_prev(rx.next_to_clean, rx.size) as usize;
                let on = XdpOutcome {
                    vector: self,
                    rx: &mut *rx,
                    pool,
                    ctx,
                    dev,
                    total,
                    hi,
                    last,
                    offloads,
                    totals: &mut t,
                    counts: &mut xc,
                };
                let frags = frags.into_iter().flatten();
                runner.run_frags_with(ctx, (page, len), frags, on);
                continue;
            }
            //@ end
            let skb = match rx.partial.take() {
                // Small frame: copy it and give the page straight back for the next refill.
                None if eop && len <= copybreak => match ctx.alloc_skb(len) {
                    Some(mut skb) => {
                        let copied_ok = page.copy_to_skb(&mut skb, len).is_ok();
                        rx.repost(pool, page, ctx, len);
                        if !copied_ok {
                            t.errors += 1;
                            continue;
                        }
                        t.copied += 1;
                        skb
                    }
                    None => {
                        page.recycle(ctx, len);
                        self.stats.rx_alloc_failed.add(1, Relaxed);
                        continue;
                    }
                },
                None => match page.build_skb(ctx, len) {
                    Ok(skb) => skb,
                    Err(page) => {
                        page.recycle(ctx, len);
                        self.stats.rx_alloc_failed.add(1, Relaxed);
                        rx.discard = !eop;
                        continue;
                    }
                },
                Some(mut skb) => match page.add_to_skb(&mut skb, len) {
                    Ok(()) => skb,
                    Err(page) => {
                        page.recycle(ctx, len);
                        t.errors += 1;
                        rx.discard = !eop;
                        continue;
                    }
                },
            };
            if !eop {
                rx.partial = Some(skb);
                continue;
            }
            if hi & RXD_ERR_FRAME != 0 {
                t.errors += 1;
                continue;
            }
            // Still the device's write-back: a repost above wrote the descriptor at
            // `next_to_use`, which is not `i` (the loop stops where the two meet).
            let lo = rx.desc.read(i, 0);
            self.deliver(skb, hi, lo, true, offloads, &mut t, dev, ctx);
        }
        //@ from xdp
        if xc.tx {
            self.kick_tx(dev, rx.queue, ctx.napi());
        }
        if XDP && xdp.is_some() {
            self.stats.xdp_drop.add(xc.drop, Relaxed);
            self.stats.xdp_redirect.add(xc.redirect, Relaxed);
            self.stats.xdp_aborted.add(xc.aborted, Relaxed);
        }
        //@ end
        // A queue out of use gets no new pages: what it still receives completes, on the
        // buffers it holds (`ethtool -L` fills its ring when the queue is next put to use).
        // Too few frames reach it for the refills inside the loop to matter.
        let failed = if u32::from(rx.queue) < dev.data().active.load(Relaxed) {
            rx.refill(pool, &self.hw.bar, &self.stats)
        } else {
            0
        };
        self.stats.rx_alloc_failed.add(u64::from(failed), Relaxed);
        self.stats.rx_packets.add(u64::from(t.done), Relaxed);
        self.stats.rx_bytes.add(t.bytes, Relaxed);
        self.stats.rx_errors.add(t.errors, Relaxed);
        self.stats.rx_copybreak.add(t.copied, Relaxed);
        self.stats.rx_csum_good.add(t.csum_good, Relaxed);
        // A refill that failed with the ring nearly drained is retried by polling again: with
        // RX-only traffic no other interrupt would come to retry it. With buffers still
        // posted, the next frame's interrupt retries it.
        if failed > 0 && rx.size - 1 - rx.unused() < RX_REFILL_BATCH {
            budget
        } else {
            t.done
        }
    }

    //@ from xsk
    /// Sends up to `max` frames the queue's AF_XDP socket queued, as many as TX queue `q`'s
    /// ring has room for, and tells the device. Returns how many.
    fn xsk_xmit(
        &self,
        dev: &netdev::Device<IgbNet<'_>>,
        q: u16,
        xsk: &XskRx,
        ctx: &NapiContext<'_>,
        max: u32,
    ) -> u32 {
        let Some(mut g) = dev.lock_tx(u32::from(q), ctx) else {
            return 0;
        };
        let live = g.live;
        let room = match g.ring.as_mut() {
            Some(r) if live => r.free_slots().len(),
            _ => 0,
        };
        // Each frame taken has its descriptor: the room was counted under the lock.
        let n = xsk.tx_take(room.min(max), |addr, len| {
            let _ = g.push_xsk(addr, len);
        });
        if n > 0 {
            // The queue sends: the stack's TX watchdog must not take it for stuck.
            g.trans_update();
            g.ring_doorbell(&self.hw.bar);
        }
        // The socket wakes the queue when it queues more (`sendto()`).
        xsk.tx_need_wakeup(true);
        n
    }

    /// Receives up to the budget of frames into the buffers of the AF_XDP pool `xsk` attached
    /// to the queue (zero-copy): the attached program, if any, runs on each, and refills the
    /// ring from the pool. A frame the program passes (or every frame, while none is attached)
    /// is copied into an skb. A frame over several buffers is dropped: the device is told
    /// they are as large as the pool's frames (rounded down to KiB).
    #[inline(never)]
    fn clean_rx_zc(
        &self,
        rx: &mut RxRing,
        xsk: &XskRx,
        dev: &netdev::Device<IgbNet<'_>>,
        ctx: &RxContext<'_, '_>,
    ) -> u32 {
        let budget = ctx.budget();
        let prog = dev.data().xdp_prog.get(ctx);
        let offloads = RxOffloads::of(dev.features(), rx.queue, dev);
        let mut t = RxTotals::default();
        let mut xc = XdpCounts::default();
        let mut passed = RxTotals::default();
        let mut full_socket = false;
        while t.done < budget {
            let i = rx.next_to_clean;
            if i == rx.next_to_use {
                break;
            }
            let hi = rx.desc.read(i as usize, 1);
            if hi & RXD_STAT_DD == 0 {
                break;
            }
            // Read the rest of the descriptor only after seeing DD.
            dma_mb(Read);
            let lo = rx.desc.read(i as usize, 0);
            rx.next_to_clean = ring_next(i, rx.size);
            let len = ((hi >> 32) & 0xffff) as u32;
            // Taken whatever follows: a buffer not used goes back to the pool.
            let buff = xsk.take(i, len);
            let eop = hi & RXD_STAT_EOP != 0;
            if !eop || rx.discard {
                // One error per frame, counted at its first buffer.
                if !rx.discard {
                    t.errors += 1;
                }
                rx.discard = !eop;
                continue;
            }
            let buff = match buff {
                Ok(b) if hi & RXD_ERR_FRAME == 0 && len != 0 => b,
                _ => {
                    t.errors += 1;
                    continue;
                }
            };
            t.done += 1;
            t.bytes += u64::from(len);
            let verdict = match prog {
                Some(p) => xdp::run_xsk(ctx, p, buff, || rx_meta(lo, hi)),
                None => match xdp::xsk_pass(ctx, buff) {
                    Some(skb) => XskVerdict::Pass { skb, moved: false },
                    None => {
                        self.stats.rx_alloc_failed.add(1, Relaxed);
                        continue;
                    }
                },
            };
            match verdict {
                // Counted above: `passed` keeps what `deliver` counts again.
                XskVerdict::Pass { skb, moved } => {
                    self.deliver(skb, hi, lo, !moved, offloads, &mut passed, dev, ctx);
                }
                XskVerdict::Tx(frame) => {
                    self.xdp_tx(dev, rx.queue, frame, ctx.napi());
                    xc.tx = true;
                }
                XskVerdict::Redirected => xc.redirect += 1,
                XskVerdict::Dropped(DropReason::Drop) => xc.drop += 1,
                XskVerdict::Dropped(_) => xc.aborted += 1,
                XskVerdict::Full => {
                    // The socket's ring is full: user space catches up, then wakes the queue.
                    xc.aborted += 1;
                    full_socket = true;
                    break;
                }
            }
        }
        if xc.tx {
            self.kick_tx(dev, rx.queue, ctx.napi());
        }
        if prog.is_some() {
            self.stats.xdp_drop.add(xc.drop, Relaxed);
            self.stats.xdp_redirect.add(xc.redirect, Relaxed);
            self.stats.xdp_aborted.add(xc.aborted, Relaxed);
        }
        let full = rx.refill_zc(xsk, &self.hw.bar);
        // Short of buffers, or the socket's ring full: user space must catch up and wake the
        // queue (`recvfrom()` or `poll()`) if it asked to be told; otherwise keep polling.
        let wait = !full || full_socket;
        xsk.need_wakeup(wait);
        self.stats.rx_packets.add(u64::from(t.done), Relaxed);
        self.stats.rx_bytes.add(t.bytes, Relaxed);
        self.stats.rx_errors.add(t.errors + passed.errors, Relaxed);
        self.stats.rx_csum_good.add(passed.csum_good, Relaxed);
        if wait && !xsk.uses_need_wakeup() {
            budget
        } else {
            t.done
        }
    }
    //@ end

    //@ from xdp
    /// Builds the skb of a frame the XDP program passed and hands it up the stack. Out of
    /// line: the loop of the other verdicts carries none of it.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn xdp_pass(
        &self,
        rx: &RxRing,
        buff: xdp::Buff<'_>,
        hi: u64,
        last: usize,
        offloads: RxOffloads,
        t: &mut RxTotals,
        dev: &netdev::Device<IgbNet<'_>>,
        ctx: &RxContext<'_, '_>,
    ) {
        // The device's checksum verdict describes the frame it wrote, not one the program
        // moved.
        let csum_valid = !buff.moved();
        match buff.build_skb(ctx) {
            Ok(skb) => {
                let lo = rx.desc.read(last, 0);
                self.deliver(skb, hi, lo, csum_valid, offloads, t, dev, ctx);
            }
            Err((page, dirty)) => {
                page.recycle(ctx, dirty);
                self.stats.rx_alloc_failed.add(1, Relaxed);
            }
        }
    }
    //@ end

    /// Hands the skb of a whole frame to GRO with what the device wrote in the frame's last
    /// descriptor (`hi`, `lo`): its checksum verdict (if `csum_valid`), RSS hash and VLAN tag.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn deliver(
        &self,
        mut skb: SkBuff,
        hi: u64,
        lo: u64,
        csum_valid: bool,
        offloads: RxOffloads,
        t: &mut RxTotals,
        dev: &netdev::Device<IgbNet<'_>>,
        ctx: &RxContext<'_, '_>,
    ) {
        t.bytes += u64::from(skb.len());
        if offloads.csum
            && csum_valid
            && hi & (RXD_STAT_L4CS | RXD_STAT_UDPCS) != 0
            && hi & (RXD_ERR_L4E | RXD_ERR_IPE) == 0
        {
            skb.set_rx_checksum(RxChecksum::Unnecessary);
            t.csum_good += 1;
        }
        let rss_type = lo & 0xf;
        if offloads.hash && rss_type != 0 {
            // TCP over IPv4, IPv6 and IPv6 with extensions; UDP likewise.
            let kind = if matches!(rss_type, 1 | 3 | 6 | 7 | 8 | 9) {
                HashType::L4
            } else {
                HashType::L3
            };
            skb.set_hash((lo >> 32) as u32, kind);
        }
        if offloads.vlan && hi & RXD_STAT_VP != 0 {
            skb.set_rx_vlan_ctag((hi >> 48) as u16);
        }
        //@ from ptp
        if hi & RXD_STAT_TS != 0 {
            let this = dev.data();
            this.phc.rx_stamp(&this.hw.bar, &mut skb);
        }
        //@ end
        if let Some(q) = offloads.queue {
            skb.record_rx_queue(q);
        }
        if skb.eth_type_trans(dev).is_err() {
            t.errors += 1;
            return;
        }
        ctx.gro_receive(skb);
        t.done += 1;
    }
    //@ end
}
//@ from datapath

/// The counters of TX queue `q`, kept by its vector. Only frames that count something look
/// them up (drops, busy, linearized, SG, TSO): a plain frame needs nothing of the vector.
/// Not cold: SG and TSO frames, most of them under TCP, use it too.
#[inline(never)]
fn tx_stats<'a>(dev: &'a netdev::Device<IgbNet<'_>>, q: u16) -> Option<&'a QueueStats> {
    dev.napi(usize::from(q) + 1).map(|v| &v.data().stats)
}

/// Adds one to the counter `pick` chooses among the counters of TX queue `q`.
#[cold]
#[inline(never)]
fn tx_count(dev: &netdev::Device<IgbNet<'_>>, q: u16, pick: fn(&QueueStats) -> &Atomic<u64>) {
    if let Some(s) = tx_stats(dev, q) {
        pick(s).add(1, Relaxed);
    }
}

/// Counts a frame queued from several buffers (`sg`) and/or cut by the device (`tso`) on TX
/// queue `q`: one lookup for both. Not cold: under TCP most frames are both.
#[inline(never)]
fn count_sg_tso(dev: &netdev::Device<IgbNet<'_>>, q: u16, sg: bool, tso: bool) {
    if let Some(s) = tx_stats(dev, q) {
        if sg {
            s.tx_sg_packets.add(1, Relaxed);
        }
        if tso {
            s.tx_tso_packets.add(1, Relaxed);
        }
    }
}

/// The ring lacks room for the largest frame: stops the queue, unless a clean made room
/// meanwhile. Returns whether it stays stopped (counted as busy).
#[cold]
#[inline(never)]
fn xmit_full(
    dev: &netdev::Device<IgbNet<'_>>,
    q: u16,
    txq: &netdev::TxQueue,
    ring: &TxSend<'_>,
) -> bool {
    let stopped = txq.stop_unless(|| ring.free() >= TX_DESC_NEEDED);
    if stopped {
        tx_count(dev, q, |s| &s.tx_busy);
    }
    stopped
}

//@ from ptp
/// The port's TX timestamp, claimed for a frame being queued (with the claim's ID): given back
/// unless the frame is sent ([`TstampClaim::keep`]).
struct TstampClaim<'a>(Option<(&'a Phc, u32)>);

impl TstampClaim<'_> {
    /// The frame went to the device: its timestamp is delivered or timed out.
    #[inline(always)]
    fn keep(mut self) {
        self.0 = None;
    }
}

impl Drop for TstampClaim<'_> {
    #[inline(always)]
    fn drop(&mut self) {
        if let Some((phc, id)) = self.0 {
            phc.tx_unclaim(id);
        }
    }
}
//@ end

/// Queues the frame of `req` on TX queue `q`, whose xmit lock the caller holds with `data`.
#[inline(always)]
pub(crate) fn xmit<'x>(
    dev: &netdev::Device<IgbNet<'_>>,
    xq: &XmitQueue<'x>,
    data: &mut TxQueueData<'_>,
    req: TxRequest<'x>,
    q: u16,
) -> netdev::Xmit<'x> {
    //@ until ptp: match xmit_frame(dev, xq, data, req, q) {
    //@ from ptp
    // A frame that asks for a timestamp takes a copy of the path of its own, off the hot one.
    // An early return: one `match` over both paths' results cost 17 instructions per frame.
    if req.wants_tx_timestamp() {
        return xmit_stamped(dev, xq, data, req, q);
    }
    match xmit_frame::<false>(dev, xq, data, req, q) {
        //@ end
        Some(x) => x,
        None => xmit_dropped(dev, xq, data, q),
    }
}

//@ from ptp
/// [`xmit`] for a frame that asks for a TX timestamp.
#[cold]
#[inline(never)]
fn xmit_stamped<'x>(
    dev: &netdev::Device<IgbNet<'_>>,
    xq: &XmitQueue<'x>,
    data: &mut TxQueueData<'_>,
    req: TxRequest<'x>,
    q: u16,
) -> netdev::Xmit<'x> {
    match xmit_frame::<true>(dev, xq, data, req, q) {
        Some(x) => x,
        None => xmit_dropped(dev, xq, data, q),
    }
}
//@ end

/// Counts a frame [`xmit_frame`] dropped. Frames queued before it in an `xmit_more` batch
/// wait for a doorbell that this frame would have rung: ring it unless a next frame follows.
#[cold]
#[inline(never)]
fn xmit_dropped<'x>(
    dev: &netdev::Device<IgbNet<'_>>,
    xq: &XmitQueue<'x>,
    data: &TxQueueData<'_>,
    q: u16,
) -> netdev::Xmit<'x> {
    tx_count(dev, q, |s| &s.tx_dropped);
    if !xq.more() || xq.queue().xmit_stopped() {
        data.ring_doorbell(&dev.data().hw.bar);
    }
    netdev::Xmit::Ok
}

/// The body of [`xmit`]: `None` if the frame was dropped.
//@ from ptp
/// `STAMP`: the frame may ask for a TX timestamp; otherwise it asks for none.
//@ end
#[inline(always)]
//@ until ptp: fn xmit_frame<'x>(
//@ from ptp
fn xmit_frame<'x, const STAMP: bool>(
    //@ end
    dev: &netdev::Device<IgbNet<'_>>,
    xq: &XmitQueue<'x>,
    data: &mut TxQueueData<'_>,
    req: TxRequest<'x>,
    q: u16,
) -> Option<netdev::Xmit<'x>> {
    let txq = xq.queue();
    let reg = data.reg;

    // A ring the device does not read (after a failed reset, until the watchdog's next)
    // takes nothing.
    let ring = match data.ring.as_mut() {
        Some(r) if data.live => r,
        _ => {
            core::mem::drop(req.accept());
            return None;
        }
    };
    // Room for the largest frame, checked before the skb is accepted: a frame sent back
    // with `Busy` is the one that came in, unchanged.
    let mut free = ring.free_slots();
    if free.len() < TX_DESC_NEEDED {
        // The view is not used again: `ring` is free for the check.
        if xmit_full(dev, q, txq, ring) {
            return Some(netdev::Xmit::Busy(req));
        }
        free = ring.free_slots();
    }
    // Short frames are padded in software: QEMU's model ignores TCTL.PSP.
    let Ok(mut skb) = req.accept().put_padto(17) else {
        return None;
    };
    // A tag left beside the frame: the device inserts it (only 802.1Q is advertised).
    let vlan = match skb.vlan_tag() {
        None => None,
        Some(VlanTag {
            proto: VlanProto::Ctag,
            tci,
        }) => Some(tci),
        Some(_) => return None,
    };
    // TSO: the device cuts the frame into MSS-sized segments.
    let Ok(tso) = skb.tso_prepare() else {
        return None;
    };
    // The device completes TCP/UDP checksums; anything it cannot describe is done here.
    // `features_check` keeps most such frames away, but pktgen calls in directly and a
    // VLAN tag may have been pushed into the data after it ran.
    let csum = match tso {
        Some(t) if context_fits(&t.csum) => Some(t.csum),
        Some(_) => return None,
        None => match skb.tx_checksum() {
            Ok(Some(c)) if context_fits(&c) => Some(c),
            Ok(None) => None,
            _ if skb.checksum_help().is_ok() => None,
            _ => return None,
        },
    };
    //@ until ptp: skb.tx_timestamp();
    //@ from ptp
    // The hardware timestamp is claimed before the software one, which it replaces, and given
    // back if the frame is not sent.
    let this = dev.data();
    let id = match STAMP && skb.wants_hw_tx_timestamp() {
        true => this.phc.tx_claim(dev, &mut skb),
        false => None,
    };
    let stamp = id.is_some();
    let claim = TstampClaim(id.map(|id| (&this.phc, id)));
    if STAMP {
        skb.tx_timestamp();
    }
    //@ end
    let len = skb.len();
    let (pkts, bytes) = match &tso {
        Some(t) => (t.segs, t.wire_bytes(len)),
        None => (1, len),
    };
    // At least `TX_DESC_NEEDED` free slots (checked above).
    let (size, first, desc) = (free.size(), free.head(), free.shared());
    let slot = free.first_mut()?;
    // The frame is mapped in place in the slot of its first descriptor.
    let segs = match slot.frame.map(skb) {
        Ok(segs) => segs,
        Err((mut skb, e)) if e == EMSGSIZE => {
            tx_count(dev, q, |s| &s.tx_linearized);
            if skb.linearize().is_err() {
                return None;
            }
            match slot.frame.map(skb) {
                Ok(segs) => segs,
                Err(_) => return None,
            }
        }
        Err(_) => return None,
    };
    let sg = segs.len() > 1;
    // The upper half of every data descriptor of the frame, and where they start: a frame
    // with offloads (TSO comes with a checksum) starts with its context descriptor.
    let (hi, i, mut descs) = if csum.is_none() && vlan.is_none() {
        (
            TXD_DATA | (u64::from(len) << (32 + TXD_PAYLEN_SHIFT)),
            first,
            0,
        )
    } else {
        let hi = offload_context(desc, first, len, vlan, csum.as_ref(), tso.as_ref());
        (hi, ring_next(first, size), 1)
    };
    //@ from ptp
    let hi = if stamp { hi | TXD_MAC_TSTAMP } else { hi };
    //@ end
    // A frame of one piece of at most 32 KiB, most frames, takes one data descriptor.
    // Otherwise they are counted as they are written: one per 32 KiB of every piece.
    let last = match segs {
        [seg] if seg.len <= TXD_MAX_DATA => {
            let cmd = u64::from(seg.len) | hi | TXD_CMD_EOP | TXD_CMD_RS;
            desc.write(i as usize, seg.addr, cmd);
            descs += 1;
            i
        }
        // The descriptors start right after the context descriptor, if any: `descs` of the
        // free slots from the head on are taken.
        _ => match write_pieces(desc, segs, hi, i, &mut descs, size) {
            Some(last) => last,
            None => {
                // Unmapped and freed.
                let _ = slot.frame.take();
                return None;
            }
        },
    };
    let i = ring_next(last, size);
    if sg || tso.is_some() {
        count_sg_tso(dev, q, sg, tso.is_some());
    }
    // Ring indices are below `MAX_RING_SIZE`, `descs` at most `TX_DESC_NEEDED`.
    slot.last = last as u16;
    slot.descs = descs as u16;
    slot.wire = Wire::new(pkts, bytes);
    // At most `TX_DESC_NEEDED`, which were free.
    if !free.publish(descs) {
        if let Some(slot) = free.first_mut() {
            core::mem::drop(slot.frame.take());
        }
        return None;
    }
    claim.keep(); //@ ptp
    xq.sent(bytes);
    // Room for the largest next frame, or stop until completions.
    if free.len() < TX_DESC_NEEDED {
        txq.stop_unless(|| ring.free() >= TX_DESC_NEEDED);
    }
    // Ring the doorbell unless more frames follow right away; also when the stack or byte
    // queue limits stopped the queue, since then no next frame comes to ring it.
    if !xq.more() || txq.xmit_stopped() {
        // Descriptors must be visible before the doorbell.
        dma_mb(Write);
        crate::hw::write_tail(&dev.data().hw.bar, TailReg::Tx, reg, i);
    }
    Some(netdev::Xmit::Ok)
}

/// Most bytes in front of the IP header a TX context descriptor can describe (MACLEN).
pub(crate) const TX_MAX_MAC_LEN: u32 = 127;
/// Most bytes of IP header, with extensions, a TX context descriptor can describe (IPLEN).
pub(crate) const TX_MAX_IP_LEN: u32 = 511;

/// Whether a context descriptor can carry these header lengths.
#[inline]
pub(crate) fn context_fits(c: &TxChecksum) -> bool {
    c.mac_len <= TX_MAX_MAC_LEN && c.ip_len <= TX_MAX_IP_LEN
}

/// Writes the data descriptors of a frame's pieces from descriptor `i` on, one per 32 KiB of
/// every piece, adding them to `*descs`, and returns the index of the last; `None` for a frame
/// that would need more than `TX_DESC_NEEDED` in all, or has no piece.
///
/// The caller has `TX_DESC_NEEDED` free slots from the ring's head on, of which the first
/// `*descs` are taken (`i` is the next): the descriptors written stay among those, and none
/// is the device's before the caller publishes them. After `None` some may have been written;
/// unpublished, they are never read.
#[inline(never)]
fn write_pieces(
    desc: &DescRing,
    segs: &[Segment],
    hi: u64,
    mut i: u32,
    descs: &mut u32,
    size: u32,
) -> Option<u32> {
    let mut last = None;
    for (n, seg) in segs.iter().enumerate() {
        // Pieces are never empty: one descriptor per 32 KiB, the last with the rest.
        let (mut addr, mut left) = (seg.addr, seg.len);
        let mut cmd = hi;
        if n + 1 == segs.len() {
            cmd |= TXD_CMD_EOP | TXD_CMD_RS;
        }
        loop {
            if *descs >= TX_DESC_NEEDED {
                return None;
            }
            *descs += 1;
            if left <= TXD_MAX_DATA {
                break;
            }
            desc.write(i as usize, addr, u64::from(TXD_MAX_DATA) | hi);
            addr = addr.wrapping_add(u64::from(TXD_MAX_DATA));
            left -= TXD_MAX_DATA;
            i = ring_next(i, size);
        }
        desc.write(i as usize, addr, u64::from(left) | cmd);
        last = Some(i);
        i = ring_next(i, size);
    }
    last
}

/// Writes the context descriptor of a frame with offloads at `i` (the VLAN tag to insert, the
/// L4 checksum to fill in, TSO) and returns the upper half of the frame's data descriptors.
// Out of line: a plain frame, the common case, then keeps its registers for the mapping.
#[inline(never)]
fn offload_context(
    desc: &DescRing,
    i: u32,
    len: u32,
    vlan: Option<u16>,
    csum: Option<&TxChecksum>,
    tso: Option<&Tso>,
) -> u64 {
    write_context(desc, i as usize, vlan, csum, tso);
    let payload = len.saturating_sub(tso.map_or(0, |t| t.hdr_len));
    let mut olinfo = u64::from(payload) << TXD_PAYLEN_SHIFT;
    let mut cmd_flags = TXD_DATA;
    if vlan.is_some() {
        cmd_flags |= TXD_CMD_VLE;
    }
    if let Some(c) = csum {
        olinfo |= TXD_POPTS_TXSM;
        if tso.is_some() {
            cmd_flags |= TXD_CMD_TSE;
            if c.ipv4 {
                olinfo |= TXD_POPTS_IXSM;
            }
        }
    }
    cmd_flags | (olinfo << 32)
}

/// Writes an advanced context descriptor for the next frame: the VLAN tag to insert, the
/// headers of the L4 checksum to fill in and, with `tso`, of its segmentation.
fn write_context(
    desc: &DescRing,
    i: usize,
    vlan: Option<u16>,
    c: Option<&TxChecksum>,
    tso: Option<&Tso>,
) {
    let mut tucmd = TXD_DTYP_CTXT | TXD_CMD_DEXT;
    // Without a checksum to fill in, only the tag matters; the lengths describe a plain
    // Ethernet header.
    let mut vlan_macip_lens = u64::from(ETH_HLEN) << TXD_MACLEN_SHIFT;
    if let Some(c) = c {
        vlan_macip_lens = (u64::from(c.mac_len) << TXD_MACLEN_SHIFT) | u64::from(c.ip_len);
        if c.ipv4 {
            tucmd |= TXD_TUCMD_IPV4;
        }
        if c.l4 == L4::Tcp {
            tucmd |= TXD_TUCMD_L4T_TCP;
        }
    }
    vlan_macip_lens |= u64::from(vlan.unwrap_or(0)) << TXD_VLAN_SHIFT;
    // mss_l4len_idx in the upper half; context slot 0.
    let mss_l4len = tso.map_or(0, |t| (u64::from(t.mss) << 16) | (u64::from(t.l4_len) << 8));
    desc.write(i, vlan_macip_lens, tucmd | (mss_l4len << 32));
}
//@ end
