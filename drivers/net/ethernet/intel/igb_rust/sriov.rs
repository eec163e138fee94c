// SPDX-License-Identifier: GPL-2.0

//! SR-IOV: the port as the physical function (PF) of up to seven virtual functions (VFs).
//!
//! With VFs the device sorts received frames into pools (VMDq): VF `n` is pool `n` with
//! queues `n` and `n + 8`, and the PF takes the pool after the last VF, of which it uses one
//! queue pair (the 82576 spreads over the queues of a pool only with RSS inside pools, which
//! QEMU's model does not do). A frame goes to the pools whose receive address slot holds its
//! destination (the pool bits of RAH), broadcast to the pools that accept it (VMOLR.BAM), and
//! multicast the multicast table matches to the pools that asked for it (VMOLR.ROMPE).
//! Frames between pools are switched inside the device (DTXSWC).
//!
//! The VFs' driver (the kernel's `igbvf`) asks the PF for everything else through a mailbox
//! of 16 words per VF: a reset (which hands the VF its MAC address and makes it "clear to
//! send"), its MAC address, its multicast hashes, its longest frame. The PF answers from the
//! interrupt of its "other" vector (ICR.VMMB), within the second `igbvf` waits. A VF that is
//! not clear to send (after a reset of the PF or of the VF) gets a NACK for anything but a
//! reset, which makes it reset itself.

use kernel::{
    io::{
        register::{Array, RegisterArrayLoc},
        Io,
    },
    net::{
        ethtool::{self, Channels},
        netdev,
    },
    prelude::*,
    sync::atomic::Relaxed,
    time::{Delta, Instant, Monotonic},
};

use crate::{hw, net::IgbNet, regs};

/// Most VFs: the device has 8 pools, of which the PF keeps one.
pub(crate) const MAX_VFS: u16 = 7;

/// Mailbox messages (the low 16 bits of word 0) and their flags.
const MSG_RESET: u32 = 0x01;
const MSG_SET_MAC: u32 = 0x02;
const MSG_SET_MULTICAST: u32 = 0x03;
const MSG_SET_VLAN: u32 = 0x04;
const MSG_SET_LPE: u32 = 0x05;
const MSG_PF_CONTROL: u32 = 0x0100;
const MSG_ACK: u32 = 1 << 31;
const MSG_NACK: u32 = 1 << 30;
const MSG_CTS: u32 = 1 << 29;
/// Bits 23:16 of word 0: a count or a sub-request.
const MSG_INFO_SHIFT: u32 = 16;
const MSG_INFO_MASK: u32 = 0xff << MSG_INFO_SHIFT;
/// Words of a VF's mailbox.
const MBX_WORDS: usize = 16;
/// Multicast hashes a VF may register; more make it receive every multicast frame.
const MAX_VF_MC: usize = 30;
/// The longest frame a VF may ask for, as C igb allows.
pub(crate) const MAX_VF_FRAME: u32 = 9728;
/// The frame limit of a pool that asked for none: 1518 bytes and a VLAN tag.
const DEFAULT_FRAME: u32 = 1522;
/// How often a VF that is not clear to send and reads its mailbox is told so (a bare NACK).
const NACK_INTERVAL: Delta = Delta::from_millis(2000);

/// The index of an enabled VF: below the number the PF is set up for, itself at most
/// [`MAX_VFS`], so its pool, mailbox and receive address slot exist.
///
/// # Invariants
///
/// `self.0 < MAX_VFS`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Vf(u8);

impl Vf {
    /// VF `i`, if it is below `count` (which is at most [`MAX_VFS`]).
    fn new(i: usize, count: u16) -> Option<Self> {
        let count = usize::from(count.min(MAX_VFS));
        // INVARIANT: `i < count <= MAX_VFS`.
        (i < count).then_some(Vf(i as u8))
    }

    fn index(self) -> usize {
        usize::from(self.0)
    }

    /// Its pool's bit (VFRE, VFTE, MBVFICR, VFLRE, RAH).
    fn bit(self) -> u32 {
        1 << self.0
    }

    /// Its receive address slot: from the last (23) down, below the PF's.
    fn rar_slot(self) -> usize {
        hw::UC_SLOTS - self.index()
    }

    /// Word `w` of its mailbox memory.
    fn word(self, w: usize) -> Option<RegisterArrayLoc<regs::VMBMEM>> {
        regs::VMBMEM::try_at(self.index() * MBX_WORDS + w)
    }
}

/// What the PF keeps of one VF.
#[derive(Clone, Copy)]
struct VfState {
    /// Its MAC address: all zeroes until it asks for one (or a reset hands it a zero one,
    /// and `igbvf` picks a random one).
    mac: [u8; 6],
    /// It reset since the PF or it last did: it may ask for anything.
    cts: bool,
    /// The multicast hashes it registered (`n_mc` of them; with more than [`MAX_VF_MC`] its
    /// pool takes every multicast frame, VMOLR.MPME).
    mc: [u16; MAX_VF_MC],
    n_mc: u8,
    /// When it was last told it is not clear to send.
    nacked: Option<Instant<Monotonic>>,
}

impl VfState {
    const NEW: Self = Self {
        mac: [0; 6],
        cts: false,
        mc: [0; MAX_VF_MC],
        n_mc: 0,
        nacked: None,
    };
}

/// The VFs the PF serves, and the multicast table of the PF itself, which the VFs' hashes
/// are added to.
pub(crate) struct VfTable {
    /// How many VFs the PF is set up for (its pool number); 0 without SR-IOV.
    count: u16,
    vf: [VfState; MAX_VFS as usize],
    /// The PF's multicast table, as `set_rx_mode` computed it.
    pf_mta: [u32; 128],
    /// The queue pairs in use before the VFs came, given back when they go.
    active_before: u32,
}

impl VfTable {
    pub(crate) const fn new() -> Self {
        Self {
            count: 0,
            vf: [VfState::NEW; MAX_VFS as usize],
            pf_mta: [0; 128],
            active_before: 0,
        }
    }

    fn vfs(&self) -> impl Iterator<Item = Vf> + use<> {
        let count = self.count;
        (0..usize::from(count)).filter_map(move |i| Vf::new(i, count))
    }

    /// The pools of the VFs that are clear to send.
    fn live_pools(&self) -> u32 {
        self.vfs()
            .filter(|v| self.vf[v.index()].cts)
            .fold(0, |m, v| m | v.bit())
    }

    /// Sets the multicast table: the PF's addresses and every VF's hashes.
    pub(crate) fn write_mta(&self, bar: &hw::Bar0<'_>) {
        let mut mta = self.pf_mta;
        for v in self.vfs() {
            let s = &self.vf[v.index()];
            for &h in &s.mc[..usize::from(s.n_mc).min(MAX_VF_MC)] {
                mta[usize::from(h >> 5) & 127] |= 1 << (h & 31);
            }
        }
        hw::write_mta(bar, &mta);
    }

    /// Records the PF's own multicast table (from `set_rx_mode`) and writes the whole.
    pub(crate) fn set_pf_mta(&mut self, bar: &hw::Bar0<'_>, mta: &[u32; 128]) {
        self.pf_mta = *mta;
        self.write_mta(bar);
    }
}

/// The pool register value of a pool accepting untagged and broadcast frames, multicast as
/// asked, and frames up to `frame` bytes.
fn vmolr(frame: u32, rompe: bool, mpme: bool, strip: bool) -> Result<regs::VMOLR> {
    regs::VMOLR::zeroed()
        .with_aupe(true)
        .with_bam(true)
        .with_rompe(rompe)
        .with_mpme(mpme)
        .with_strvlan(strip)
        .with_lpe(true)
        .try_with_rlpml(frame.min(MAX_VF_FRAME))
}

/// Writes the pool bits of receive address slot `i` (the address is written already).
pub(crate) fn set_rar_pools(bar: &hw::Bar0<'_>, i: usize, pools: u32) -> Result {
    if let Some(j) = i.checked_sub(16) {
        let loc = || regs::RAH_HI::try_at(j).ok_or(EINVAL);
        let cur = bar.try_read(loc()?)?;
        bar.try_write(loc()?, cur.try_with_pools(pools)?)
    } else {
        let loc = || regs::RAH::try_at(i).ok_or(EINVAL);
        let cur = bar.try_read(loc()?)?;
        bar.try_write(loc()?, cur.try_with_pools(pools)?)
    }
}

/// The bit of the PF's pool when it serves `count` VFs.
fn pool_of(count: u16) -> u32 {
    1 << count
}

impl IgbNet<'_> {
    /// How many VFs the PF is set up for: 0 without SR-IOV. Also the PF's pool.
    pub(crate) fn vf_count(&self) -> u16 {
        self.hw.vfs.load(Relaxed) as u16
    }

    /// Programs the pools after a MAC reset, with the interface coming up (`bring_up`): the
    /// PF's pool, the switch between pools, what the VFs that are clear to send may do.
    /// Nothing without VFs.
    pub(crate) fn configure_pools(&self, frame: u32) -> Result {
        let bar = &self.hw.bar;
        let t = self.vf_table.lock();
        let n = t.count;
        if n == 0 {
            return Ok(());
        }
        // VMDq: frames are sorted into pools; unicast frames no address claims go to the PF.
        bar.write_reg(regs::MRQC::zeroed().try_with_mrqe(3u32)?);
        bar.write_reg(
            regs::VT_CTL::zeroed()
                .with_repl_en(true)
                .try_with_def_pool(u32::from(n))?,
        );
        // The VFs send from their own addresses only; a VF that stops refilling its ring
        // drops its frames instead of stalling the others (both on real hardware: QEMU's model
        // does neither).
        let vfs = (1u32 << n) - 1;
        bar.write_reg(
            regs::DTXSWC::zeroed()
                .with_loopback(true)
                .try_with_mac_spoof(vfs)?,
        );
        bar.write_reg(regs::QDE::zeroed().with_queues(0xffffu32));
        bar.try_write(
            regs::VMOLR::try_at(usize::from(n)).ok_or(EINVAL)?,
            vmolr(frame, true, false, bar.read(regs::CTRL).vme())?,
        )?;
        // A VF left from before this reset is not clear to send: it asks again.
        let pools = pool_of(n) | t.live_pools();
        bar.write_reg(regs::VFRE::zeroed().with_pools(pools));
        bar.write_reg(regs::VFTE::zeroed().with_pools(pools));
        set_rar_pools(bar, 0, pool_of(n))?;
        bar.write_reg(regs::MBVFIMR::zeroed().with_mask(0xffu32));
        t.write_mta(bar);
        Ok(())
    }

    /// Rewrites the PF's pool register (VMOLR) with `f`; nothing without VFs.
    fn update_pf_pool(&self, f: impl FnOnce(regs::VMOLR) -> Result<regs::VMOLR>) -> Result {
        let n = self.vf_count();
        if n == 0 {
            return Ok(());
        }
        let bar = &self.hw.bar;
        let loc = || regs::VMOLR::try_at(usize::from(n)).ok_or(EINVAL);
        let cur = bar.try_read(loc()?)?;
        bar.try_write(loc()?, f(cur)?)
    }

    /// The PF's pool accepts frames up to `frame` bytes and strips VLAN tags as CTRL.VME
    /// says (the MTU or the features changed).
    pub(crate) fn pool_frame(&self, frame: u32) -> Result {
        let strip = self.hw.bar.read(regs::CTRL).vme();
        self.update_pf_pool(|cur| Ok(vmolr(frame, true, cur.mpme(), strip)?.with_rope(cur.rope())))
    }

    /// The PF's pool receives every unicast frame the hash table matches (`upe`: promiscuous
    /// on real hardware), every multicast frame (`mpe`).
    pub(crate) fn pool_promisc(&self, upe: bool, mpe: bool) -> Result {
        self.update_pf_pool(|cur| Ok(cur.with_rope(upe).with_mpme(mpe)))
    }

    /// Puts the address in receive address slot `i` in the PF's pool, with VFs.
    pub(crate) fn set_pf_pool(&self, i: usize) -> Result {
        match self.vf_count() {
            0 => Ok(()),
            n => set_rar_pools(&self.hw.bar, i, pool_of(n)),
        }
    }

    /// The queue pairs the PF may use: one with VFs.
    pub(crate) fn max_pairs(&self) -> u32 {
        if self.vf_count() > 0 {
            1
        } else {
            u32::from(self.nq)
        }
    }

    /// Tells the VFs the PF is ready (at the end of `bring_up`): they may reset and ask
    /// again. Each write with the bit set tells them the PF reset, which the device
    /// announced to them (RSTI) when it did.
    pub(crate) fn pools_ready(&self) {
        if self.vf_count() > 0 {
            self.hw.bar.update(regs::CTRL_EXT, |c| c.with_pfrstd(true));
        }
    }

    /// The MAC was reset (the interface stops or recovers): no VF is clear to send.
    pub(crate) fn pools_reset(&self) {
        let mut t = self.vf_table.lock();
        for s in t.vf.iter_mut() {
            s.cts = false;
        }
    }

    /// Tells every VF the link changed (or that it must reset, if it is not clear to send):
    /// `igbvf` then reads the link again.
    pub(crate) fn ping_vfs(&self) {
        let bar = &self.hw.bar;
        let t = self.vf_table.lock();
        // A request in the buffer is served first (the mailbox interrupt follows).
        let pending = bar.read(regs::MBVFICR).bits().get();
        for v in t.vfs().filter(|v| pending & v.bit() == 0) {
            let cts = if t.vf[v.index()].cts { MSG_CTS } else { 0 };
            let _ = self.post(bar, v, &[MSG_PF_CONTROL | cts]);
        }
    }

    /// Sets the PF up for `n` VFs (0: none) under RTNL: one queue pair with VFs, the pools on
    /// the next bring-up. A running device is stopped first and brought up again for the new
    /// layout: nothing runs meanwhile on queues the PF gives up or takes. If that fails with
    /// VFs, the PF goes back to none.
    pub(crate) fn set_vf_count(
        &self,
        dev: &netdev::Device<Self>,
        rtnl: &mut netdev::Rtnl,
        n: u16,
    ) -> Result {
        // A socket would stay bound to a queue the device no longer reads.
        let xsk =
            (1..usize::from(self.nq)).any(|q| dev.napi(q + 1).is_some_and(|v| v.xsk_bound(rtnl)));
        if n > 0 && xsk {
            dev_err!(
                self.hw.pdev,
                "{}: an AF_XDP socket is bound to a queue other than 0: no VFs\n",
                dev.name()
            );
            return Err(EBUSY);
        }
        let r = if dev.is_running() {
            self.reset_with(dev, rtnl, |rtnl| self.apply_vf_count(dev, rtnl, n))
        } else {
            self.apply_vf_count(dev, rtnl, n)
        };
        if r.is_err() && n > 0 {
            let _ = if dev.is_running() {
                self.reset_with(dev, rtnl, |rtnl| self.apply_vf_count(dev, rtnl, 0))
            } else {
                self.apply_vf_count(dev, rtnl, 0)
            };
        }
        r
    }

    /// Records `n` VFs and gives the stack and RSS the queue pairs that go with it; the
    /// device is stopped or down.
    fn apply_vf_count(
        &self,
        dev: &netdev::Device<Self>,
        rtnl: &mut netdev::Rtnl,
        n: u16,
    ) -> Result {
        let active = {
            let mut t = self.vf_table.lock();
            if n > 0 && t.count == 0 {
                t.active_before = self.active.load(Relaxed);
            }
            t.count = n;
            t.vf = [VfState::NEW; MAX_VFS as usize];
            if n > 0 {
                1
            } else {
                t.active_before.clamp(1, u32::from(self.nq))
            }
        };
        self.hw.vfs.store(u32::from(n), Relaxed);
        let now = <Self as ethtool::Operations>::get_channels(dev);
        if now.combined_count == active {
            return Ok(());
        }
        let want = Channels {
            combined_count: active,
            ..now
        };
        <Self as ethtool::Operations>::set_channels(dev, rtnl, want)
    }

    /// Posts `msg` to VF `v`: takes the buffer unless the PF holds it already, writes the
    /// words and tells the VF. `EBUSY` if the VF holds the buffer.
    fn post(&self, bar: &hw::Bar0<'_>, v: Vf, msg: &[u32]) -> Result {
        let mbx = || regs::P2VMAILBOX::try_at(v.index()).ok_or(EINVAL);
        bar.try_write(mbx()?, regs::P2VMAILBOX::zeroed().with_pfu(true))?;
        if !bar.try_read(mbx()?)?.pfu() {
            return Err(EBUSY);
        }
        for (w, &m) in msg.iter().enumerate().take(MBX_WORDS) {
            bar.try_write(
                v.word(w).ok_or(EINVAL)?,
                regs::VMBMEM::zeroed().with_word(m),
            )?;
        }
        // Also gives the buffer back.
        bar.try_write(mbx()?, regs::P2VMAILBOX::zeroed().with_sts(true))
    }

    /// Serves the VFs' mailboxes: resets, messages, and reads of a VF that is not clear to
    /// send. From the poll of the "other" vector, on ICR.VMMB.
    pub(crate) fn serve_mailboxes(&self) {
        let bar = &self.hw.bar;
        let mut t = self.vf_table.lock();
        // Events are acknowledged by writing them back: only those read here.
        let resets = bar.read(regs::VFLRE).bits().get();
        bar.write_reg(regs::VFLRE::zeroed().with_bits(resets));
        let events = bar.read(regs::MBVFICR).bits().get();
        bar.write_reg(regs::MBVFICR::zeroed().with_bits(events));
        for v in t.vfs() {
            if resets & v.bit() != 0 {
                // A reset of the VF (its FLR, its own reset, or enabling it): the device
                // stopped its queues and its pool; it resets through the mailbox next. What
                // its previous driver asked for goes, its address too (as C igb does): the
                // next may be another guest's.
                t.vf[v.index()] = VfState::NEW;
                let _ = hw::set_rar(bar, v.rar_slot(), None);
            }
            if events & v.bit() != 0 {
                let _ = self.serve_message(bar, &mut t, v);
            }
            if resets & v.bit() != 0 {
                t.write_mta(bar);
            }
            if events & (v.bit() << 16) != 0 {
                // The VF read a message of the PF while not clear to send: tell it, at most
                // every two seconds.
                let s = &mut t.vf[v.index()];
                let due = s.nacked.is_none_or(|at| at.elapsed() >= NACK_INTERVAL);
                if !s.cts && due {
                    s.nacked = Some(Instant::now());
                    let _ = self.post(bar, v, &[MSG_NACK]);
                }
            }
        }
    }

    /// Reads and answers VF `v`'s message.
    fn serve_message(&self, bar: &hw::Bar0<'_>, t: &mut VfTable, v: Vf) -> Result {
        let mbx = || regs::P2VMAILBOX::try_at(v.index()).ok_or(EINVAL);
        bar.try_write(mbx()?, regs::P2VMAILBOX::zeroed().with_pfu(true))?;
        if !bar.try_read(mbx()?)?.pfu() {
            // The VF holds the buffer: it times out and asks again.
            return Err(EBUSY);
        }
        let mut msg = [0u32; MBX_WORDS];
        for (w, m) in msg.iter_mut().enumerate() {
            *m = bar.try_read(v.word(w).ok_or(EINVAL)?)?.word().get();
        }
        // Received; the PF keeps the buffer for its answer.
        bar.try_write(
            mbx()?,
            regs::P2VMAILBOX::zeroed().with_ack(true).with_pfu(true),
        )?;
        let w0 = msg[0];
        if w0 & (MSG_ACK | MSG_NACK | MSG_CTS) != 0 || w0 & 0xffff == MSG_PF_CONTROL {
            // A word of the PF's own, read back: nothing to answer.
            return bar.try_write(mbx()?, regs::P2VMAILBOX::zeroed());
        }
        if w0 == MSG_RESET {
            return self.vf_reset(bar, t, v);
        }
        let ok = t.vf[v.index()].cts && self.vf_request(bar, t, v, &msg).is_ok();
        let cts = if t.vf[v.index()].cts { MSG_CTS } else { 0 };
        let answer = w0 | cts | if ok { MSG_ACK } else { MSG_NACK };
        self.post(bar, v, &[answer])
    }

    /// VF `v` reset: its pool is set up again, with the MAC address it had (or none), and it
    /// is clear to send.
    fn vf_reset(&self, bar: &hw::Bar0<'_>, t: &mut VfTable, v: Vf) -> Result {
        let s = &mut t.vf[v.index()];
        s.cts = false;
        s.n_mc = 0;
        let mac = s.mac;
        let valid = mac != [0; 6];
        hw::set_rar(bar, v.rar_slot(), valid.then_some(&mac))?;
        if valid {
            set_rar_pools(bar, v.rar_slot(), v.bit())?;
        }
        bar.try_write(
            regs::VMOLR::try_at(v.index()).ok_or(EINVAL)?,
            vmolr(DEFAULT_FRAME, false, false, false)?,
        )?;
        bar.update(regs::VFRE, |r| r.with_pools(r.pools().get() | v.bit()));
        bar.update(regs::VFTE, |r| r.with_pools(r.pools().get() | v.bit()));
        t.write_mta(bar);
        t.vf[v.index()].cts = true;
        let lo = u32::from_le_bytes([mac[0], mac[1], mac[2], mac[3]]);
        let hi = u32::from(u16::from_le_bytes([mac[4], mac[5]]));
        let w0 = MSG_RESET | if valid { MSG_ACK } else { MSG_NACK };
        self.post(bar, v, &[w0, lo, hi])
    }

    /// A request of VF `v`, clear to send: `EINVAL` (a NACK) if it is refused.
    fn vf_request(
        &self,
        bar: &hw::Bar0<'_>,
        t: &mut VfTable,
        v: Vf,
        msg: &[u32; MBX_WORDS],
    ) -> Result {
        let info = (msg[0] & MSG_INFO_MASK) >> MSG_INFO_SHIFT;
        match msg[0] & 0xffff {
            // Its MAC address (not further filters, which the PF does not give VFs yet).
            MSG_SET_MAC if info == 0 => {
                let a = msg[1].to_le_bytes();
                let b = msg[2].to_le_bytes();
                let mac = [a[0], a[1], a[2], a[3], b[0], b[1]];
                // A unicast address of its own: not the PF's, nor another VF's, whose frames
                // it would receive too.
                let taken = hw::read_rar0(bar).0 == mac
                    || t.vfs().any(|o| o != v && t.vf[o.index()].mac == mac);
                if mac == [0; 6] || mac[0] & 1 != 0 || taken {
                    return Err(EINVAL);
                }
                hw::set_rar(bar, v.rar_slot(), Some(&mac))?;
                set_rar_pools(bar, v.rar_slot(), v.bit())?;
                t.vf[v.index()].mac = mac;
                Ok(())
            }
            MSG_SET_MULTICAST => {
                let n = info as usize;
                let s = &mut t.vf[v.index()];
                for (i, h) in s.mc.iter_mut().enumerate().take(n.min(MAX_VF_MC)) {
                    let w = msg[1 + i / 2];
                    *h = if i % 2 == 0 {
                        w as u16
                    } else {
                        (w >> 16) as u16
                    };
                }
                s.n_mc = n.min(MAX_VF_MC) as u8;
                let (rompe, mpme) = (n > 0, n > MAX_VF_MC);
                let loc = || regs::VMOLR::try_at(v.index()).ok_or(EINVAL);
                let cur = bar.try_read(loc()?)?;
                bar.try_write(loc()?, cur.with_rompe(rompe).with_mpme(mpme))?;
                t.write_mta(bar);
                Ok(())
            }
            MSG_SET_LPE => {
                let frame = msg[1].clamp(DEFAULT_FRAME, MAX_VF_FRAME);
                let loc = || regs::VMOLR::try_at(v.index()).ok_or(EINVAL);
                let cur = bar.try_read(loc()?)?;
                bar.try_write(loc()?, cur.with_lpe(true).try_with_rlpml(frame)?)
            }
            // VLAN 0 (priority tags) is received untagged anyway; VLAN filters for VFs are
            // not done yet.
            MSG_SET_VLAN if msg[1] & 0xfff == 0 => Ok(()),
            _ => Err(EINVAL),
        }
    }
}
