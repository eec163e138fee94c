// SPDX-License-Identifier: GPL-2.0

//! MAC-level bring-up of the 82576: reset and NVM access.

use kernel::{
    device::Bound,
    io::{poll::read_poll_timeout, register::Array, Io},
    pci,
    prelude::*,
    time::{delay::fsleep, Delta},
};

use kernel::io::register::RegisterArray; //@ datapath

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
///
/// Afterwards the PCIe completion timeout is set ([`set_completion_timeout`]), as C igb does
/// after every reset: the reset put GCR back to its defaults.
pub(crate) fn reset(bar: &Bar0<'_>, pdev: &pci::Device<Bound>) -> Result {
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
    set_completion_timeout(bar, pdev);
    Ok(())
}

/// Tells manageability firmware whether the driver owns the device (CTRL_EXT.DRV_LOAD): set
/// while the driver runs it, clear once it lets go (remove, suspend, shutdown).
pub(crate) fn set_driver_loaded(bar: &Bar0<'_>, loaded: bool) {
    let c = bar.read(regs::CTRL_EXT);
    // Only a change is written: with VFs, each write of CTRL_EXT with PFRSTD set tells them
    // the PF reset.
    if c.drv_load() != loaded {
        bar.write_reg(c.with_drv_load(loaded));
    }
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
            Shared::Phy => match lan_id(bar) {
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

/// Reads one 16-bit word of the NVM through EERD; the caller holds the NVM ([`Shared::Nvm`]).
/// EERD addresses the first 16K words: `EINVAL` beyond.
fn eerd_read(bar: &Bar0<'_>, word: u32) -> Result<u16> {
    let cmd = regs::EERD::zeroed().try_with_addr(word)?.with_start(true);
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

/// Reads one 16-bit word of the NVM ([`read_nvm`]).
pub(crate) fn read_nvm_word(bar: &Bar0<'_>, word: u16) -> Result<u16> {
    let mut w = [0u16];
    read_nvm(bar, u32::from(word), &mut w)?;
    let [w] = w;
    Ok(w)
}

/// NVMs of this many words or more are read over SPI: EERD's 14-bit address field reaches
/// only the first half of them (as C igb decides).
const SPI_NVM_WORDS: u32 = 1 << 15;

/// The NVM's size in 16-bit words, as EECD reports it (at most 32K words, as C igb caps it).
pub(crate) fn nvm_words(bar: &Bar0<'_>) -> u32 {
    let size = bar.read(regs::EECD).size().get() + 6;
    1 << size.min(15)
}

/// Reads `out.len()` NVM words from word `first` on, holding the NVM once for all of them:
/// through EERD, or for an NVM of 32K words through its SPI pins ([`Spi`]). `EINVAL` for
/// words past the NVM.
pub(crate) fn read_nvm(bar: &Bar0<'_>, first: u32, out: &mut [u16]) -> Result {
    let end = first.checked_add(u32::try_from(out.len())?).ok_or(EINVAL)?;
    let words = nvm_words(bar);
    if end > words {
        return Err(EINVAL);
    }
    let _nvm = SwFwLock::acquire(bar, Shared::Nvm)?;
    if words >= SPI_NVM_WORDS {
        return Spi::acquire(bar)?.read(first, out);
    }
    for (w, o) in (first..end).zip(out.iter_mut()) {
        *o = eerd_read(bar, w)?;
    }
    Ok(())
}

/// SPI NVM opcodes: read, read status; the ninth address bit of NVMs with 8-bit addresses.
const SPI_READ: u16 = 0x03;
const SPI_RDSR: u16 = 0x05;
const SPI_A8: u16 = 0x08;
/// SPI status register: a write is in progress.
const SPI_STATUS_BUSY: u16 = 0x01;
/// How often the status register is read before the NVM counts as not answering (C igb's
/// count, 5 us apart: 25 ms).
const SPI_READY_TRIES: u32 = 5000;

/// The NVM's SPI pins, driven by software through EECD (clock, chip select, data in and out)
/// while it holds the grant (EECD.REQ/GNT); given back on drop. The caller holds the NVM
/// ([`Shared::Nvm`]) for as long.
///
/// Not reachable on QEMU's model, whose NVM is 256 words: written from the datasheet's SPI
/// protocol and C igb's `igb_read_nvm_spi()`, checked by reading only.
struct Spi<'a, 'b> {
    bar: &'a Bar0<'b>,
    /// What the driver last wrote to EECD.
    eecd: regs::EECD,
}

impl<'a, 'b> Spi<'a, 'b> {
    /// Asks for the pins and waits up to 5 ms for the grant; `EBUSY` without it.
    fn acquire(bar: &'a Bar0<'b>) -> Result<Self> {
        bar.update(regs::EECD, |e| e.with_req(true));
        match read_poll_timeout(
            || Ok(bar.read(regs::EECD)),
            |e| e.gnt(),
            Delta::from_micros(5),
            Delta::from_millis(5),
        ) {
            Ok(eecd) => Ok(Self { bar, eecd }),
            Err(_) => {
                bar.update(regs::EECD, |e| e.with_req(false));
                Err(EBUSY)
            }
        }
    }

    /// Writes `eecd` to the pins and waits a microsecond (the NVM's clock is slow).
    fn set(&mut self, eecd: regs::EECD) {
        self.eecd = eecd;
        self.bar.write_reg(eecd);
        // Flushed before the wait.
        let _ = self.bar.read(regs::STATUS);
        fsleep(Delta::from_micros(1));
    }

    /// One clock pulse.
    fn clock(&mut self) {
        self.set(self.eecd.with_sk(true));
        self.set(self.eecd.with_sk(false));
    }

    /// Shifts the low `bits` of `data` out to the NVM, most significant first.
    fn shift_out(&mut self, data: u16, bits: u32) {
        let mut e = self.eecd.with_dout(true);
        for i in (0..bits).rev() {
            e = e.with_di(data >> i & 1 != 0);
            self.set(e);
            self.clock();
            e = self.eecd;
        }
        self.set(e.with_di(false));
    }

    /// Shifts `bits` bits in from the NVM, most significant first.
    fn shift_in(&mut self, bits: u32) -> u16 {
        self.eecd = self.eecd.with_dout(false).with_di(false);
        let mut data = 0u16;
        for _ in 0..bits {
            self.set(self.eecd.with_sk(true));
            let bit = self.bar.read(regs::EECD).dout();
            data = data << 1 | u16::from(bit);
            self.set(self.eecd.with_sk(false));
        }
        data
    }

    /// Toggles chip select, which ends the command in progress.
    fn standby(&mut self) {
        self.set(self.eecd.with_cs(true));
        self.set(self.eecd.with_cs(false));
    }

    /// Reads `out.len()` words from word `first` on: waits until the NVM is not busy, then one
    /// read command, whose address advances by itself.
    fn read(mut self, first: u32, out: &mut [u16]) -> Result {
        self.set(self.eecd.with_cs(false).with_sk(false));
        let mut ready = false;
        for _ in 0..SPI_READY_TRIES {
            self.shift_out(SPI_RDSR, 8);
            if self.shift_in(8) & SPI_STATUS_BUSY == 0 {
                ready = true;
                break;
            }
            fsleep(Delta::from_micros(5));
            self.standby();
        }
        if !ready {
            return Err(EIO);
        }
        self.standby();
        let wide = self.bar.read(regs::EECD).addr_bits();
        // Byte address of the first word: NVMs of 32K words take 16-bit addresses.
        let addr = u16::try_from(first.checked_mul(2).ok_or(EINVAL)?)?;
        let op = if !wide && addr >= 256 {
            SPI_READ | SPI_A8
        } else {
            SPI_READ
        };
        self.shift_out(op, 8);
        self.shift_out(addr, if wide { 16 } else { 8 });
        for o in out.iter_mut() {
            // The NVM sends the low byte of each word first.
            *o = self.shift_in(16).swap_bytes();
        }
        Ok(())
    }
}

impl Drop for Spi<'_, '_> {
    fn drop(&mut self) {
        // Deselect the NVM, then give the pins back.
        self.set(self.eecd.with_cs(true).with_sk(false));
        self.set(self.eecd.with_req(false));
    }
}

/// Words 0..=0x3f of the NVM add up to this when its contents are valid.
const NVM_SUM: u16 = 0xbaba;
/// Words covered by the checksum (the last is the checksum word itself).
const NVM_CHECKSUM_WORDS: usize = 0x40;

/// Checks the NVM's checksum: the words that hold the port's configuration and MAC address
/// add up to [`NVM_SUM`]. `EIO` if they do not (C igb refuses such a device too).
pub(crate) fn validate_nvm(bar: &Bar0<'_>) -> Result {
    let mut words = [0u16; NVM_CHECKSUM_WORDS];
    read_nvm(bar, 0, &mut words)?;
    let sum = words.iter().fold(0u16, |s, w| s.wrapping_add(*w));
    if sum != NVM_SUM {
        return Err(EIO);
    }
    Ok(())
}

/// The port's link mode as the NVM straps it (CTRL_EXT.LINK_MODE): 0 for the internal copper
/// PHY, which is what this driver drives.
pub(crate) fn link_mode(bar: &Bar0<'_>) -> u32 {
    bar.read(regs::CTRL_EXT).link_mode().get()
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
    let port = lan_id(bar) as u16;
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

/// Programs receive address 0 with `mac` and marks it valid. The slot is invalid while it
/// changes, so that it never matches half of the old address and half of the new one.
pub(crate) fn set_rar0(bar: &Bar0<'_>, mac: &MacAddr) -> Result {
    let m = &mac.0;
    let low = u32::from_le_bytes([m[0], m[1], m[2], m[3]]);
    let high = u32::from(u16::from_le_bytes([m[4], m[5]]));
    bar.write(regs::RAH::at(0), regs::RAH::zeroed());
    bar.write(regs::RAL::at(0), regs::RAL::zeroed().with_addr(low));
    bar.write(
        regs::RAH::at(0),
        regs::RAH::zeroed().try_with_addr(high)?.with_av(true),
    );
    Ok(())
}

//@ from link
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
//@ from ethtool
/// GBSR: the link partner can do 1000BASE-T full, half duplex.
pub(crate) const GBSR_LP_1000FULL: u16 = 1 << 11;
pub(crate) const GBSR_LP_1000HALF: u16 = 1 << 10;
//@ end

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
//@ end

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

//@ from link
/// How long the NVM may take to configure the PHY after a reset (EEMNGCTL.CFG_DONE).
const PHY_CFG_TIMEOUT: Delta = Delta::from_millis(100);

/// EEMNGCTL bit that says the NVM configured port `lan`'s PHY.
fn cfg_done_bit(lan: u32) -> u32 {
    1 << (18 + lan.min(3))
}

/// Resets the PHY (CTRL.PHY_RST), unless the manageability firmware forbids PHY resets
/// (MANC.BLK_PHY_RST_ON_IDE); returns whether it did. Then waits until the NVM has
/// configured the PHY again, so that the driver's MDIC writes are not undone by it: state left
/// in the PHY by firmware, a boot loader or another operating system is gone afterwards, and
/// the link negotiates afresh.
pub(crate) fn phy_reset(bar: &Bar0<'_>) -> Result<bool> {
    if bar.read(regs::MANC).blk_phy_rst_on_ide() {
        return Ok(false);
    }
    {
        let _phy = SwFwLock::acquire(bar, Shared::Phy)?;
        bar.update(regs::CTRL, |c| c.with_phy_rst(true));
        // Reads flush the posted writes before the delays start.
        let _ = bar.read(regs::STATUS);
        fsleep(Delta::from_micros(100));
        bar.update(regs::CTRL, |c| c.with_phy_rst(false));
        let _ = bar.read(regs::STATUS);
        fsleep(Delta::from_micros(150));
    }
    let lan = lan_id(bar);
    if read_poll_timeout(
        || Ok(bar.read(regs::EEMNGCTL)),
        |e| e.bits().get() & cfg_done_bit(lan) != 0,
        Delta::from_millis(1),
        PHY_CFG_TIMEOUT,
    )
    .is_err()
    {
        // Parts whose NVM holds no PHY configuration (and QEMU's model) never set it.
        pr_debug!("igb_rust: no PHY configuration done after the PHY reset\n");
    }
    // The MAC goes on configuring the PHY from the NVM for a while (C igb waits as long).
    fsleep(Delta::from_millis(100));
    Ok(true)
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
//@ end

//@ from datapath
/// The bit of the 4096-bit multicast table that `addr` hashes to (filter type 0: address
/// bits 47:36).
pub(crate) fn mta_hash(addr: &[u8; 6]) -> u32 {
    ((u32::from(addr[4]) >> 4) | (u32::from(addr[5]) << 4)) & 0xfff
}

/// Writes the multicast table.
pub(crate) fn write_mta(bar: &Bar0<'_>, mta: &[u32; 128]) {
    for (i, w) in mta.iter().enumerate() {
        if let Some(loc) = regs::MTA::try_at(i) {
            let _ = bar.try_write(loc, regs::MTA::zeroed().with_bits(*w));
        }
    }
}
//@ end

/// Which port of its device this function is (STATUS.LAN_ID).
pub(crate) fn lan_id(bar: &Bar0<'_>) -> u32 {
    bar.read(regs::STATUS).lan_id().get()
}

//@ from datapath
/// Which ring a tail register belongs to.
#[derive(Clone, Copy)]
pub(crate) enum TailReg {
    Rx,
    Tx,
}
//@ end

//@ from datapath
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
//@ end

//@ from datapath
/// Receive address slots of the 82576 (RAL/RAH 0..23).
const RAR_ENTRIES: usize = 24;

/// Receive address slots for secondary unicast addresses: all but slot 0, the port's own.
pub(crate) const UC_SLOTS: usize = RAR_ENTRIES - 1;

/// Programs receive address slot `i` (1..23; [`set_rar0`] for slot 0) with `mac`, marked
/// valid, or empties it for `None`. The slot is invalid while it changes, so that it never
/// matches half of the old address and half of the new one.
pub(crate) fn set_rar(bar: &Bar0<'_>, i: usize, mac: Option<&[u8; 6]>) -> Result {
    let (low, high) = mac.map_or((0, 0), |m| {
        (
            u32::from_le_bytes([m[0], m[1], m[2], m[3]]),
            u32::from(u16::from_le_bytes([m[4], m[5]])),
        )
    });
    let valid = mac.is_some();
    if let Some(i) = i.checked_sub(16) {
        let rah = || regs::RAH_HI::try_at(i).ok_or(EINVAL);
        bar.try_write(rah()?, regs::RAH_HI::zeroed())?;
        bar.try_write(
            regs::RAL_HI::try_at(i).ok_or(EINVAL)?,
            regs::RAL_HI::zeroed().with_addr(low),
        )?;
        if valid {
            bar.try_write(
                rah()?,
                regs::RAH_HI::zeroed().try_with_addr(high)?.with_av(true),
            )?;
        }
    } else {
        let rah = || regs::RAH::try_at(i).filter(|_| i > 0).ok_or(EINVAL);
        bar.try_write(rah()?, regs::RAH::zeroed())?;
        bar.try_write(
            regs::RAL::try_at(i).ok_or(EINVAL)?,
            regs::RAL::zeroed().with_addr(low),
        )?;
        if valid {
            bar.try_write(
                rah()?,
                regs::RAH::zeroed().try_with_addr(high)?.with_av(true),
            )?;
        }
    }
    Ok(())
}
//@ end

//@ from datapath
/// The address receive address slot `i` (1..23) holds, if it is valid; `EINVAL` for another
/// slot, or the error of a failed read.
pub(crate) fn read_rar(bar: &Bar0<'_>, i: usize) -> Result<Option<[u8; 6]>> {
    let (low, high, valid) = if let Some(j) = i.checked_sub(16) {
        let h = bar.try_read(regs::RAH_HI::try_at(j).ok_or(EINVAL)?)?;
        let l = bar.try_read(regs::RAL_HI::try_at(j).ok_or(EINVAL)?)?;
        (l.addr().get(), h.addr().get(), h.av())
    } else {
        let h = bar.try_read(regs::RAH::try_at(i).filter(|_| i > 0).ok_or(EINVAL)?)?;
        let l = bar.try_read(regs::RAL::try_at(i).ok_or(EINVAL)?)?;
        (l.addr().get(), h.addr().get(), h.av())
    };
    let l = low.to_le_bytes();
    let h = (high as u16).to_le_bytes();
    Ok(valid.then_some([l[0], l[1], l[2], l[3], h[0], h[1]]))
}
//@ end

//@ from datapath
/// Empties every receive filter a reset leaves as it was: receive addresses 1..23 (slot 0
/// is the port's own, written right after), the multicast and unicast hash tables and the
/// VLAN filter table. A previous driver's entries would go on accepting frames; the caller
/// writes its own afterwards.
pub(crate) fn clear_filters(bar: &Bar0<'_>) -> Result {
    for i in 1..RAR_ENTRIES {
        set_rar(bar, i, None)?;
    }
    for i in 0..128 {
        bar.try_write(regs::MTA::try_at(i).ok_or(EINVAL)?, regs::MTA::zeroed())?;
        bar.try_write(regs::UTA::try_at(i).ok_or(EINVAL)?, regs::UTA::zeroed())?;
        bar.try_write(regs::VFTA::try_at(i).ok_or(EINVAL)?, regs::VFTA::zeroed())?;
    }
    Ok(())
}
//@ end

/// The MAC's statistics registers (0x4000..0x4124): all clear when read.
const STATS_FIRST: usize = 0x4000;
const STATS_END: usize = 0x4128;

/// Reads every statistics register once, so that what a previous driver or the firmware
/// left in them is not counted as this driver's.
pub(crate) fn clear_counters(bar: &Bar0<'_>) {
    for reg in (STATS_FIRST..STATS_END).step_by(4) {
        let _ = bar.try_read32(reg);
    }
}

/// PCI Express capability ID, and where its Device Control 2 register sits in it.
const PCI_CAP_ID_EXP: u8 = 0x10;
const PCI_EXP_DEVCTL2: usize = 0x28;
/// Device Control 2's completion timeout field, and its 16 ms..55 ms range.
const DEVCTL2_COMP_TIMEOUT: u16 = 0xf;
const DEVCTL2_COMP_TIMEOUT_16MS: u16 = 0x5;
/// Where the capability list starts, and the status bit that says there is one.
const PCI_CAPABILITY_LIST: usize = 0x34;
const PCI_STATUS: usize = 0x06;
const PCI_STATUS_CAP_LIST: u16 = 0x10;

/// The offset of the function's PCI Express capability in its configuration space.
fn pcie_cap(pdev: &pci::Device<Bound>) -> Option<usize> {
    let cfg = pdev.config_space();
    if cfg.try_read16(PCI_STATUS).ok()? & PCI_STATUS_CAP_LIST == 0 {
        return None;
    }
    let mut pos = usize::from(cfg.try_read8(PCI_CAPABILITY_LIST).ok()? & !3);
    // At most 48 capabilities fit in the 192 bytes after the header.
    for _ in 0..48 {
        if pos < 0x40 {
            return None;
        }
        if cfg.try_read8(pos).ok()? == PCI_CAP_ID_EXP {
            return Some(pos);
        }
        pos = usize::from(cfg.try_read8(pos + 1).ok()? & !3);
    }
    None
}

/// Sets a PCIe completion timeout when it is left at its default of 0 (50 us..50 ms):
/// 10 ms..200 ms in GCR for a version 1 capability, 16 ms..55 ms in Device Control 2 for a
/// version 2 one; and turns off the resending of requests whose completion timed out
/// (GCR). What C igb does after every reset (`igb_set_pcie_completion_timeout()`).
pub(crate) fn set_completion_timeout(bar: &Bar0<'_>, pdev: &pci::Device<Bound>) {
    let gcr = bar.read(regs::GCR);
    let mut new = gcr.with_cmpl_tmout_resend(false);
    if gcr.cmpl_tmout().get() == 0 {
        if !gcr.cap_ver2() {
            // 10 ms..200 ms.
            if let Ok(g) = new.try_with_cmpl_tmout(1u32) {
                new = g;
            }
        } else if let Some(pos) = pcie_cap(pdev) {
            let cfg = pdev.config_space();
            if let Ok(v) = cfg.try_read16(pos + PCI_EXP_DEVCTL2) {
                if v & DEVCTL2_COMP_TIMEOUT == 0 {
                    let _ = cfg.try_write16(v | DEVCTL2_COMP_TIMEOUT_16MS, pos + PCI_EXP_DEVCTL2);
                }
            }
        }
    }
    bar.write_reg(new);
}

//@ from ethtool
/// Registers the self-test writes patterns to and reads back (offset, bits that hold what is
/// written, count, stride): the queue 0 ring registers, the flow control registers, the
/// receive addresses 1..15 and the VLAN and multicast tables. The caller empties the filters
/// after the MAC reset that follows the test; an open interface sets them up again.
const TEST_REGS: [(usize, u32, usize, usize); 11] = [
    (0xc000, 0xffff_ff80, 1, 0),   // RDBAL(0)
    (0xc004, 0xffff_ffff, 1, 0),   // RDBAH(0)
    (0xc008, 0x000f_ff80, 1, 0),   // RDLEN(0)
    (0xe000, 0xffff_ff80, 1, 0),   // TDBAL(0)
    (0xe004, 0xffff_ffff, 1, 0),   // TDBAH(0)
    (0xe008, 0x000f_ff80, 1, 0),   // TDLEN(0)
    (0x0028, 0xffff_ffff, 1, 0),   // FCAL
    (0x002c, 0x0000_ffff, 1, 0),   // FCAH
    (0x5408, 0xffff_ffff, 15, 8),  // RAL(1..15)
    (0x5600, 0xffff_ffff, 128, 4), // VFTA
    (0x5200, 0xffff_ffff, 128, 4), // MTA
];
//@ end

//@ from ethtool
/// The register self-test: every register of [`TEST_REGS`] keeps each of four patterns. The
/// device must be stopped (no ring in use); the caller resets the MAC afterwards.
pub(crate) fn test_registers(bar: &Bar0<'_>) -> bool {
    const PATTERNS: [u32; 4] = [0x5a5a_5a5a, 0xa5a5_a5a5, 0, 0xffff_ffff];
    for (base, mask, count, stride) in TEST_REGS {
        for i in 0..count {
            let off = base + i * stride;
            for p in PATTERNS {
                let ok = bar.try_write32(p & mask, off).is_ok()
                    && bar.try_read32(off).is_ok_and(|v| v & mask == p & mask);
                if !ok {
                    pr_err!(
                        "igb_rust: register test: {:#x} does not keep {:#010x}\n",
                        off,
                        p & mask
                    );
                    return false;
                }
            }
        }
    }
    true
}
//@ end
