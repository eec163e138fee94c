// SPDX-License-Identifier: GPL-2.0

//! MAC-level bring-up of the 82576: reset and NVM access.

use kernel::{
    device::Bound,
    io::{
        poll::read_poll_timeout,
        register::{Array, RegisterArray},
        Io,
    },
    pci,
    prelude::*,
    time::{delay::fsleep, Delta},
};

use crate::regs::{self, BAR0_SIZE};

/// BAR0 of an 82576, valid while the device is bound.
pub(crate) type Bar0<'bound> = pci::Bar<'bound, BAR0_SIZE>;

/// How long CTRL.RST may take to self-clear before the reset counts as failed.
const RESET_TIMEOUT: Delta = Delta::from_millis(100);

/// How long one NVM word read may take.
const NVM_TIMEOUT: Delta = Delta::from_millis(10);

/// An Ethernet MAC address.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct MacAddr(pub(crate) [u8; 6]);

impl MacAddr {
    /// A unicast address that is not all zeroes (`is_valid_ether_addr()`).
    pub(crate) fn is_valid(&self) -> bool {
        self.0[0] & 1 == 0 && self.0 != [0; 6]
    }
}

impl kernel::fmt::Display for MacAddr {
    fn fmt(&self, f: &mut kernel::fmt::Formatter<'_>) -> kernel::fmt::Result {
        let a = &self.0;
        write!(
            f,
            "{:02x}:{:02x}:{:02x}:{:02x}:{:02x}:{:02x}",
            a[0], a[1], a[2], a[3], a[4], a[5]
        )
    }
}

/// Masks every interrupt cause, legacy and extended.
pub(crate) fn disable_interrupts(bar: &Bar0<'_>) {
    bar.write_reg(regs::IMC::zeroed().with_mask(u32::MAX));
    bar.write_reg(regs::EIMC::zeroed().with_mask(u32::MAX));
    // Reading ICR acknowledges whatever was pending.
    let _ = bar.read(regs::ICR);
}

/// PCI command register, in the configuration space header.
const PCI_COMMAND: usize = 0x04;
/// Its bus master enable bit: without it, the function starts no DMA.
const PCI_COMMAND_MASTER: u16 = 0x04;

/// Takes away the device's bus mastering, so that it writes to and reads from no buffer any
/// more: for a device that confirmed no stop (its queues did not stop and its MAC did not
/// reset), before its buffers are freed. [`dma_is_on`] tells, [`dma_on`] gives it back.
/// False if the function does not answer (its command register reads all ones): writing that
/// value back would set every other bit of the register.
pub(crate) fn dma_off(pdev: &pci::Device<Bound>) -> bool {
    let cfg = pdev.config_space();
    let cmd = cfg.read16(PCI_COMMAND);
    if cmd == u16::MAX {
        return false;
    }
    cfg.write16(cmd & !PCI_COMMAND_MASTER, PCI_COMMAND);
    // The read's completion follows every write the device posted before the bit was clear
    // (PCIe ordering; the driver leaves the 82576's relaxed-ordering enables as they are, so
    // this holds for the writes it sends strictly ordered).
    let _ = cfg.read16(PCI_COMMAND);
    true
}

/// Whether the device may start DMA: false after [`dma_off`], and for a function that does
/// not answer (its state is unknown).
pub(crate) fn dma_is_on(pdev: &pci::Device<Bound>) -> bool {
    let cmd = pdev.config_space().read16(PCI_COMMAND);
    cmd != u16::MAX && cmd & PCI_COMMAND_MASTER != 0
}

/// Gives the device its bus mastering back after [`dma_off`] (probe turned it on with
/// `pci_set_master()`, which the PCI core still records as on). Only for a device whose MAC
/// reset has completed since: it holds nothing of the buffers it was given before.
pub(crate) fn dma_on(pdev: &pci::Device<Bound>) {
    let cfg = pdev.config_space();
    let cmd = cfg.read16(PCI_COMMAND);
    if cmd != u16::MAX && cmd & PCI_COMMAND_MASTER == 0 {
        cfg.write16(cmd | PCI_COMMAND_MASTER, PCI_COMMAND);
    }
}

/// Resets the MAC and waits until the device has reloaded its NVM.
///
/// Receive and transmit are stopped and DMA is quiesced first, so the reset
/// never lands in the middle of a bus transaction.
pub(crate) fn reset(bar: &Bar0<'_>) -> Result {
    disable_interrupts(bar);
    bar.write_reg(regs::RCTL::zeroed());
    bar.write_reg(regs::TCTL::zeroed().with_psp(true));

    // Stop new DMA and wait for outstanding requests to drain.
    bar.update(regs::CTRL, |r| r.with_gio_master_disable(true));
    if read_poll_timeout(
        || Ok(bar.read(regs::STATUS)),
        |s| !s.gio_master_enable(),
        Delta::from_micros(100),
        Delta::from_millis(10),
    )
    .is_err()
    {
        // The reset below clears it anyway; note it, as the C driver does.
        pr_debug!("igb_rust: master requests still pending before reset\n");
    }

    // Let in-flight descriptors settle before the reset.
    fsleep(Delta::from_millis(10));

    bar.update(regs::CTRL, |r| r.with_rst(true));
    fsleep(Delta::from_millis(1));

    read_poll_timeout(
        || Ok(bar.read(regs::CTRL)),
        |c| !c.rst(),
        Delta::from_micros(100),
        RESET_TIMEOUT,
    )?;
    // Real parts then reload their NVM and set EECD.AUTO_RD; parts without
    // an EEPROM (and QEMU's model) never set it, so, like the C driver, a
    // timeout here is not an error.
    if read_poll_timeout(
        || Ok(bar.read(regs::EECD)),
        |e| e.auto_rd(),
        Delta::from_millis(1),
        NVM_TIMEOUT,
    )
    .is_err()
    {
        pr_debug!("igb_rust: no NVM auto-read completion after reset\n");
    }

    // A reset re-enables nothing, but clear whatever it left pending.
    disable_interrupts(bar);
    Ok(())
}

/// Tells manageability firmware whether the driver owns the device (CTRL_EXT.DRV_LOAD): set
/// while the driver runs it, clear once it lets go (remove, suspend, shutdown).
pub(crate) fn set_driver_loaded(bar: &Bar0<'_>, loaded: bool) {
    bar.update(regs::CTRL_EXT, |c| c.with_drv_load(loaded));
}

/// How often [`SwFwLock::acquire`] tries for a resource held by someone else, and how long it
/// waits between tries: one second in all, as long as the firmware may hold it.
const SWFW_TRIES: u32 = 200;
const SWFW_RETRY: Delta = Delta::from_millis(5);

/// How often a release tries for the semaphore before it clears its bit without it.
const SWFW_RELEASE_TRIES: u32 = 20;

/// A resource the ports' drivers share with the manageability firmware.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Shared {
    /// The NVM (EERD).
    Nvm,
    /// This port's PHY (MDIC).
    Phy,
}

/// Takes the hardware semaphore that guards `SW_FW_SYNC`; `EBUSY` if it is not free within
/// about a millisecond (the caller waits and tries again).
fn swsm_acquire(bar: &Bar0<'_>) -> Result {
    // The read that finds SMBI clear sets it: that read is the acquisition.
    read_poll_timeout(
        || Ok(bar.read(regs::SWSM)),
        |s| !s.smbi(),
        Delta::from_micros(50),
        Delta::from_millis(1),
    )
    .map_err(|_| EBUSY)?;
    // Then the software/firmware half: owned once it reads back set (the firmware may hold
    // it for a moment).
    let owned = read_poll_timeout(
        || {
            bar.update(regs::SWSM, |s| s.with_swesmbi(true));
            Ok(bar.read(regs::SWSM))
        },
        |s| s.swesmbi(),
        Delta::from_micros(50),
        Delta::from_millis(1),
    );
    if owned.is_err() {
        swsm_release(bar);
        return Err(EBUSY);
    }
    Ok(())
}

/// Gives the `SW_FW_SYNC` semaphore back.
fn swsm_release(bar: &Bar0<'_>) {
    bar.update(regs::SWSM, |s| s.with_smbi(false).with_swesmbi(false));
}

/// Ownership of one [`Shared`] resource, released on drop (the hardware's `SW_FW_SYNC`
/// protocol: the firmware and the other ports' drivers keep off it meanwhile).
///
/// # Invariants
///
/// `mask` is set in `SW_FW_SYNC` of `bar`'s device, by this owner.
pub(crate) struct SwFwLock<'a, 'bound> {
    bar: &'a Bar0<'bound>,
    mask: u32,
}

impl<'a, 'bound> SwFwLock<'a, 'bound> {
    /// Takes `what`, waiting up to a second while the firmware or another port holds it;
    /// `EBUSY` if it stays held.
    pub(crate) fn acquire(bar: &'a Bar0<'bound>, what: Shared) -> Result<Self> {
        let mask = match what {
            Shared::Nvm => 1 << 0,
            Shared::Phy => match bar.read(regs::STATUS).lan_id().get() {
                0 => 1 << 1,
                1 => 1 << 2,
                2 => 1 << 5,
                _ => 1 << 6,
            },
        };
        for _ in 0..SWFW_TRIES {
            if swsm_acquire(bar).is_err() {
                fsleep(SWFW_RETRY);
                continue;
            }
            let sync = bar.read(regs::SW_FW_SYNC).bits().get();
            if sync & (mask | mask << 16) == 0 {
                bar.write_reg(regs::SW_FW_SYNC::zeroed().with_bits(sync | mask));
                swsm_release(bar);
                // INVARIANT: `mask` was just set, under the semaphore.
                return Ok(Self { bar, mask });
            }
            swsm_release(bar);
            fsleep(SWFW_RETRY);
        }
        Err(EBUSY)
    }
}

impl Drop for SwFwLock<'_, '_> {
    fn drop(&mut self) {
        // Only our own bit changes, under the semaphore: a write without it could erase a bit
        // another owner just set.
        for _ in 0..SWFW_RELEASE_TRIES {
            if swsm_acquire(self.bar).is_ok() {
                self.bar.update(regs::SW_FW_SYNC, |s| {
                    s.with_bits(s.bits().get() & !self.mask)
                });
                swsm_release(self.bar);
                return;
            }
            fsleep(SWFW_RETRY);
        }
        // A semaphore that stays taken is a firmware fault: rather than hold the resource for
        // good, clear our bit without it.
        pr_warn!("igb_rust: SW_FW_SYNC released without its semaphore\n");
        self.bar.update(regs::SW_FW_SYNC, |s| {
            s.with_bits(s.bits().get() & !self.mask)
        });
    }
}

/// Reads one 16-bit word of the NVM through EERD.
pub(crate) fn read_nvm_word(bar: &Bar0<'_>, word: u16) -> Result<u16> {
    let _nvm = SwFwLock::acquire(bar, Shared::Nvm)?;
    let cmd = regs::EERD::zeroed()
        .try_with_addr(u32::from(word))?
        .with_start(true);
    bar.write_reg(cmd);
    let done = read_poll_timeout(
        || Ok(bar.read(regs::EERD)),
        |r| r.done(),
        Delta::from_micros(5),
        NVM_TIMEOUT,
    )?;
    // The field is 16 bits wide, so this cannot truncate.
    Ok(done.data().get() as u16)
}

/// NVM word holding the pointer to the alternate MAC address block.
const NVM_ALT_MAC_PTR: u16 = 0x37;

/// Reads the 3 NVM words at `word` as a MAC address (little-endian).
fn read_nvm_mac(bar: &Bar0<'_>, word: u16) -> Result<MacAddr> {
    let mut mac = [0u8; 6];
    for (i, pair) in (0u16..).zip(mac.chunks_exact_mut(2)) {
        let w = read_nvm_word(bar, word.checked_add(i).ok_or(EINVAL)?)?;
        pair.copy_from_slice(&w.to_le_bytes());
    }
    Ok(MacAddr(mac))
}

/// The alternate MAC address of this port, when the NVM has one: a board vendor's override
/// of the addresses the hardware derives from the NVM's base address.
fn read_alt_mac(bar: &Bar0<'_>) -> Result<Option<MacAddr>> {
    let ptr = read_nvm_word(bar, NVM_ALT_MAC_PTR)?;
    if ptr == 0 || ptr == 0xffff {
        return Ok(None);
    }
    // Three words per port, port 0 first.
    let port = bar.read(regs::STATUS).lan_id().get() as u16;
    let mac = read_nvm_mac(bar, ptr.checked_add(3 * port).ok_or(EINVAL)?)?;
    // An unprogrammed block reads as all ones (multicast), an erased one as zeroes.
    Ok(mac.is_valid().then_some(mac))
}

/// Reads receive address 0.
pub(crate) fn read_rar0(bar: &Bar0<'_>) -> MacAddr {
    let low = bar.read(regs::RAL::at(0)).addr().get().to_le_bytes();
    let high = (bar.read(regs::RAH::at(0)).addr().get() as u16).to_le_bytes();
    MacAddr([low[0], low[1], low[2], low[3], high[0], high[1]])
}

/// The permanent MAC address of this port, after a reset.
///
/// At reset the hardware loads each port's own address into receive address 0 (on a
/// dual-port card, port 1 gets the NVM's base address with its last bit flipped); an alternate
/// address in the NVM overrides it. Words 0..2 of the NVM are port 0's address only.
pub(crate) fn read_perm_addr(bar: &Bar0<'_>) -> Result<MacAddr> {
    if let Some(alt) = read_alt_mac(bar)? {
        set_rar0(bar, &alt)?;
    }
    Ok(read_rar0(bar))
}

/// Programs receive address 0 with `mac` and marks it valid.
pub(crate) fn set_rar0(bar: &Bar0<'_>, mac: &MacAddr) -> Result {
    let m = &mac.0;
    let low = u32::from_le_bytes([m[0], m[1], m[2], m[3]]);
    let high = u32::from(u16::from_le_bytes([m[4], m[5]]));
    bar.write(regs::RAL::at(0), regs::RAL::zeroed().with_addr(low));
    bar.write(
        regs::RAH::at(0),
        regs::RAH::zeroed().try_with_addr(high)?.with_av(true),
    );
    Ok(())
}

/// PHY register 0 (BMCR) value that restarts autonegotiation (speed and duplex bits as the
/// 1000 Mb/s full duplex the PHY resolves to when autonegotiation is off).
const BMCR_AUTONEG_RESTART: u32 = (1 << 12) | (1 << 9) | (1 << 8) | (1 << 6);

/// IEEE 802.3 clause 22 PHY registers.
const PHY_BMSR: u32 = 1;
const PHY_ANAR: u32 = 4;
const PHY_ANLPAR: u32 = 5;
const PHY_GBCR: u32 = 9;
const PHY_GBSR: u32 = 10;
/// BMSR: autonegotiation complete.
const BMSR_ANEG_DONE: u16 = 1 << 5;
/// ANAR/ANLPAR: 10BASE-T half and full, 100BASE-TX half and full, symmetric and asymmetric
/// pause; the selector field says IEEE 802.3.
pub(crate) const AN_10HALF: u16 = 1 << 5;
pub(crate) const AN_10FULL: u16 = 1 << 6;
pub(crate) const AN_100HALF: u16 = 1 << 7;
pub(crate) const AN_100FULL: u16 = 1 << 8;
pub(crate) const AN_PAUSE: u16 = 1 << 10;
pub(crate) const AN_ASYM_PAUSE: u16 = 1 << 11;
const AN_SELECTOR_8023: u16 = 0x01;
/// GBCR: advertise 1000BASE-T full and half duplex.
const GBCR_1000FULL: u16 = 1 << 9;
const GBCR_1000HALF: u16 = 1 << 8;
/// GBSR: the link partner can do 1000BASE-T full, half duplex.
pub(crate) const GBSR_LP_1000FULL: u16 = 1 << 11;
pub(crate) const GBSR_LP_1000HALF: u16 = 1 << 10;

/// What the PHY advertises: ANAR's ability bits (`AN_*`) and 1000BASE-T full duplex (the
/// MAC does not do 1000 half duplex).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Advert {
    pub(crate) anar: u16,
    pub(crate) gig_full: bool,
}

impl Advert {
    /// Both fields in one word, to compare with an earlier advertisement.
    pub(crate) fn bits(self) -> u32 {
        u32::from(self.anar) | u32::from(self.gig_full) << 16
    }
}

/// Address of the 82576's internal PHY on its MDIO bus.
const PHY_ADDR: u32 = 1;

/// Runs one MDIC operation on PHY register `reg` (a write of `val`, or a read) and returns
/// the data; the caller holds the PHY ([`Shared::Phy`]).
fn mdic(bar: &Bar0<'_>, reg: u32, write: Option<u32>) -> Result<u16> {
    let cmd = regs::MDIC::zeroed()
        .try_with_data(write.unwrap_or(0))?
        .try_with_regadd(reg)?
        .try_with_phyadd(PHY_ADDR)?
        .with_op_write(write.is_some())
        .with_op_read(write.is_none());
    bar.write_reg(cmd);
    let done = read_poll_timeout(
        || Ok(bar.read(regs::MDIC)),
        |m| m.ready(),
        Delta::from_micros(50),
        Delta::from_millis(100),
    )?;
    if done.error() {
        return Err(EIO);
    }
    // The field is 16 bits wide, so this cannot truncate.
    Ok(done.data().get() as u16)
}

/// PHY register 0 (BMCR) bit that powers the PHY down.
const BMCR_PDOWN: u16 = 1 << 11;

/// Powers the PHY up or down (BMCR); the link drops while it is down. The PHY stays powered
/// when the manageability firmware uses the port or forbids PHY resets.
pub(crate) fn phy_power(bar: &Bar0<'_>, up: bool) -> Result {
    let manc = bar.read(regs::MANC);
    if !up && (manc.rcv_tco_en() || manc.blk_phy_rst_on_ide()) {
        return Ok(());
    }
    let _phy = SwFwLock::acquire(bar, Shared::Phy)?;
    let bmcr = mdic(bar, 0, None)?;
    let new = if up {
        bmcr & !BMCR_PDOWN
    } else {
        bmcr | BMCR_PDOWN
    };
    if new != bmcr {
        mdic(bar, 0, Some(u32::from(new)))?;
        if !up {
            // Let the PHY settle before anything else touches it.
            fsleep(Delta::from_millis(1));
        }
    }
    Ok(())
}

/// Starts link negotiation, advertising `adv`: the link comes up later and is reported by a
/// link status change interrupt.
pub(crate) fn start_link(bar: &Bar0<'_>, adv: Advert) -> Result {
    bar.update(regs::CTRL, |c| c.with_slu(true));
    let _phy = SwFwLock::acquire(bar, Shared::Phy)?;
    mdic(bar, PHY_ANAR, Some(u32::from(adv.anar | AN_SELECTOR_8023)))?;
    // Read-modify-write: the master/slave bits keep their values.
    let gbcr = mdic(bar, PHY_GBCR, None)? & !(GBCR_1000FULL | GBCR_1000HALF);
    let gbcr = if adv.gig_full {
        gbcr | GBCR_1000FULL
    } else {
        gbcr
    };
    mdic(bar, PHY_GBCR, Some(u32::from(gbcr)))?;
    mdic(bar, 0, Some(BMCR_AUTONEG_RESTART)).map(|_| ())
}

/// What the link partner advertised (ANLPAR and GBSR), once autonegotiation completed.
pub(crate) fn link_partner(bar: &Bar0<'_>) -> Result<Option<(u16, u16)>> {
    let _phy = SwFwLock::acquire(bar, Shared::Phy)?;
    if mdic(bar, PHY_BMSR, None)? & BMSR_ANEG_DONE == 0 {
        return Ok(None);
    }
    Ok(Some((
        mdic(bar, PHY_ANLPAR, None)?,
        mdic(bar, PHY_GBSR, None)?,
    )))
}

/// Whether the link runs full duplex, as the MAC reports it.
pub(crate) fn link_full_duplex(bar: &Bar0<'_>) -> bool {
    bar.read(regs::STATUS).fd()
}

/// Whether the MAC reports the link up.
pub(crate) fn link_up(bar: &Bar0<'_>) -> bool {
    bar.read(regs::STATUS).lu()
}

/// Link speed in Mb/s as the MAC reports it.
pub(crate) fn link_speed(bar: &Bar0<'_>) -> u32 {
    match bar.read(regs::STATUS).speed().get() {
        0 => 10,
        1 => 100,
        _ => 1000,
    }
}

/// The bit of the 4096-bit multicast table that `addr` hashes to (filter type 0: address
/// bits 47:36).
pub(crate) fn mta_hash(addr: &[u8; 6]) -> u32 {
    ((u32::from(addr[4]) >> 4) | (u32::from(addr[5]) << 4)) & 0xfff
}

/// Which ring a tail register belongs to.
#[derive(Clone, Copy)]
pub(crate) enum TailReg {
    Rx,
    Tx,
}

/// Moves the tail of RX or TX queue `q` to `tail`: the doorbell.
// Always inlined, and without runtime checks of the register's place in the BAR: it runs once
// per transmitted frame.
#[inline(always)]
pub(crate) fn write_tail(bar: &Bar0<'_>, kind: TailReg, q: u16, tail: u32) {
    let q = usize::from(q);
    // Queue indices come from our own queue count (at most 8) and tails from ring indices
    // below the ring size (at most 4096), so neither check can fail. Past the first, the
    // compiler knows the register index in range, so the location and the BAR offset are
    // proven at build time (`at`, `write`) rather than checked at run time.
    let Ok(tail) = u16::try_from(tail) else {
        return;
    };
    match kind {
        TailReg::Rx if q < regs::RDT::SIZE => {
            bar.write(regs::RDT::at(q), regs::RDT::zeroed().with_tail(tail));
        }
        TailReg::Tx if q < regs::TDT::SIZE => {
            bar.write(regs::TDT::at(q), regs::TDT::zeroed().with_tail(tail));
        }
        _ => (),
    }
}
