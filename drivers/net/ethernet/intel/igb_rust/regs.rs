// SPDX-License-Identifier: GPL-2.0

//! 82576 register map.
//!
//! Offsets and bit positions follow the Intel 82576 GbE Controller datasheet
//! (section 8, "Programming Interface").

use kernel::io::register;

/// Size of BAR0 (memory-mapped CSR space) on the 82576.
pub(crate) const BAR0_SIZE: usize = 0x2_0000;

register! {
    /// Device Control.
    pub(crate) CTRL(u32) @ 0x0000 {
        /// PHY reset: held while set.
        31:31 phy_rst => bool;
        /// VLAN mode: strip 802.1Q tags from received frames (transmit insertion is per
        /// descriptor on the 82576).
        30:30 vme => bool;
        /// Transmit pause frames (flow control) when the receive buffer fills.
        28:28 tfce => bool;
        /// Honour received pause frames.
        27:27 rfce => bool;
        /// Device reset: self-clearing, resets the whole MAC.
        26:26 rst => bool;
        /// Advertise D3cold wake-up capability (PME from D3cold with auxiliary power).
        20:20 advd3wuc => bool;
        /// Force the duplex of CTRL.FD rather than take the PHY's.
        12:12 frcdpx => bool;
        /// Force the speed of CTRL.SPEED rather than take the PHY's.
        11:11 frcspd => bool;
        /// Set link up.
        6:6 slu => bool;
        /// Stop issuing new master (DMA) requests.
        2:2 gio_master_disable => bool;
    }

    /// Device Status.
    pub(crate) STATUS(u32) @ 0x0008 {
        /// The PF finished its reset sequence.
        21:21 pf_rst_done => bool;
        /// Master requests are still pending (0 once GIO master disable took effect).
        19:19 gio_master_enable => bool;
        /// A PHY reset was asserted (written 0 by software to clear it).
        10:10 phyra => bool;
        /// Link speed: 0 = 10, 1 = 100, 2 or 3 = 1000 Mb/s.
        7:6 speed;
        /// Transmission is paused: the link partner sent XOFF (flow control).
        4:4 txoff => bool;
        /// Which port of the device this function is (LAN ID).
        3:2 lan_id;
        /// Link up.
        1:1 lu => bool;
        /// Full duplex.
        0:0 fd => bool;
    }

    /// EEPROM/Flash Control.
    pub(crate) EECD(u32) @ 0x0010 {
        /// NVM size: 2^(size + 6) 16-bit words.
        14:11 size;
        /// The SPI NVM takes 16-bit addresses (8-bit ones otherwise).
        10:10 addr_bits => bool;
        /// Hardware finished loading the NVM after reset.
        9:9 auto_rd => bool;
        /// NVM present.
        8:8 pres => bool;
        /// Software's request to drive the NVM's pins is granted.
        7:7 gnt => bool;
        /// Software asks to drive the NVM's pins itself.
        6:6 req => bool;
        /// Data out of the NVM (its SO pin).
        3:3 dout => bool;
        /// Data into the NVM (its SI pin).
        2:2 di => bool;
        /// Chip select.
        1:1 cs => bool;
        /// Clock.
        0:0 sk => bool;
    }

    /// EEPROM Read: one 16-bit NVM word at a time.
    pub(crate) EERD(u32) @ 0x0014 {
        /// Word read.
        31:16 data;
        /// Word address.
        15:2 addr;
        /// Read done.
        1:1 done => bool;
        /// Start read.
        0:0 start => bool;
    }

    /// Extended Device Control.
    pub(crate) CTRL_EXT(u32) @ 0x0018 {
        /// Driver loaded: tells firmware the PF driver owns the device.
        28:28 drv_load => bool;
        /// Link mode (strapped by the NVM): 0 = internal copper PHY, 1 = 1000BASE-KX,
        /// 2 = SGMII, 3 = SerDes.
        23:22 link_mode;
        /// PF reset done: VFs may proceed.
        14:14 pfrstd => bool;
    }

    /// MDI Control: access to the PHY registers.
    pub(crate) MDIC(u32) @ 0x0020 {
        /// The PHY reported an error.
        30:30 error => bool;
        /// The operation completed.
        28:28 ready => bool;
        /// Read operation.
        27:27 op_read => bool;
        /// Write operation.
        26:26 op_write => bool;
        /// PHY address (the internal PHY is at 1).
        25:21 phyadd;
        /// PHY register.
        20:16 regadd;
        /// Data to write, or data read.
        15:0 data;
    }

    /// Flow Control Address Low: the pause frame destination 01:80:c2:00:00:01.
    pub(crate) FCAL(u32) @ 0x0028 {
        31:0 addr;
    }

    /// Flow Control Address High.
    pub(crate) FCAH(u32) @ 0x002c {
        15:0 addr;
    }

    /// Flow Control Type: the EtherType of pause frames.
    pub(crate) FCT(u32) @ 0x0030 {
        15:0 ethertype;
    }

    /// Flow Control Transmit Timer Value: the pause time sent in XOFF frames.
    pub(crate) FCTTV(u32) @ 0x0170 {
        15:0 ttv;
    }

    /// Flow Control Receive Threshold Low: below it, an XON frame is sent.
    pub(crate) FCRTL(u32) @ 0x2160 {
        /// Send XON frames.
        31:31 xone => bool;
        /// Threshold in bytes (16-byte units in bits 15:4).
        15:0 rtl;
    }

    /// Flow Control Receive Threshold High: above it, an XOFF frame is sent.
    pub(crate) FCRTH(u32) @ 0x2168 {
        /// Threshold in bytes (16-byte units in bits 17:4).
        17:0 rth;
    }

    /// Receive Packet Buffer Size.
    pub(crate) RXPBS(u32) @ 0x2404 {
        /// Size in KiB.
        6:0 size;
    }

    /// Interrupt Cause Read (clear on read, with GPIE.NSICR).
    pub(crate) ICR(u32) @ 0x00c0 {
        /// Device reset asserted: by firmware, a BMC or a PCIe reset of the function.
        30:30 drsta => bool;
        /// DMA out of sync.
        28:28 doutsync => bool;
        /// Link status change.
        2:2 lsc => bool;
        31:0 causes;
    }

    /// Interrupt Cause Set: raises the causes written.
    pub(crate) ICS(u32) @ 0x00c8 {
        31:0 causes;
    }

    /// Interrupt Mask Set/Read.
    pub(crate) IMS(u32) @ 0x00d0 {
        /// Device reset asserted.
        30:30 drsta => bool;
        /// DMA out of sync.
        28:28 doutsync => bool;
        //@ from sriov
        /// A virtual function's mailbox message, acknowledgment or reset.
        8:8 vmmb => bool;
        //@ end
        /// Link status change.
        2:2 lsc => bool;
        31:0 mask;
    }

    /// Interrupt Mask Clear.
    pub(crate) IMC(u32) @ 0x00d8 {
        31:0 mask;
    }

    /// Receive Control.
    pub(crate) RCTL(u32) @ 0x0100 {
        /// Strip the Ethernet CRC.
        26:26 secrc => bool;
        /// Canonical form indicator enable: drop tagged frames whose CFI bit is not `cfi`.
        19:19 cfien => bool;
        /// VLAN filter enable.
        18:18 vfe => bool;
        /// Accept broadcast.
        15:15 bam => bool;
        /// Long packet (jumbo) enable, limited by RLPML.
        5:5 lpe => bool;
        /// Multicast promiscuous.
        4:4 mpe => bool;
        /// Unicast promiscuous.
        3:3 upe => bool;
        /// Receiver enable.
        1:1 en => bool;
    }

    /// Transmit Control.
    pub(crate) TCTL(u32) @ 0x0400 {
        /// Retransmit on late collision.
        24:24 rtlc => bool;
        /// Collision threshold.
        11:4 ct;
        /// Pad short packets.
        3:3 psp => bool;
        /// Transmitter enable.
        1:1 en => bool;
    }

    /// General Purpose Interrupt Enable.
    pub(crate) GPIE(u32) @ 0x1514 {
        /// PBA support.
        31:31 pba => bool;
        /// Extended interrupt auto-mask enable.
        30:30 eiame => bool;
        /// MSI-X mode.
        4:4 msix_mode => bool;
        /// Non-selective interrupt clear on read of ICR.
        0:0 nsicr => bool;
    }

    /// Extended Interrupt Cause Set.
    pub(crate) EICS(u32) @ 0x1520 {
        31:0 mask;
    }

    /// Extended Interrupt Mask Set.
    pub(crate) EIMS(u32) @ 0x1524 {
        31:0 mask;
    }

    /// Extended Interrupt Mask Clear.
    pub(crate) EIMC(u32) @ 0x1528 {
        31:0 mask;
    }

    /// Extended Interrupt Auto Clear.
    pub(crate) EIAC(u32) @ 0x152c {
        31:0 mask;
    }

    /// Extended Interrupt Throttle, one per MSI-X vector.
    pub(crate) EITR(u32)[25] @ 0x1680 {
        /// Ignore the counter (write the interval only).
        31:31 cnt_ignr => bool;
        /// Minimum interval between interrupts, in 0.25 us units (bits 14:2 hold whole us).
        14:2 interval;
    }

    /// Interrupt Vector Allocation: row n maps RX n, TX n, RX n+8, TX n+8 to vectors.
    pub(crate) IVAR(u32)[8] @ 0x1700 {
        31:31 tx_hi_valid => bool;
        28:24 tx_hi;
        23:23 rx_hi_valid => bool;
        20:16 rx_hi;
        15:15 tx_valid => bool;
        12:8 tx;
        7:7 rx_valid => bool;
        4:0 rx;
    }

    /// Interrupt Vector Allocation for other causes (link, ...).
    pub(crate) IVAR_MISC(u32) @ 0x1740 {
        15:15 other_valid => bool;
        12:8 other;
        /// The TCP timer's vector (QEMU's model reports a device reset there too).
        7:7 timer_valid => bool;
        4:0 timer;
    }

    /// Receive Checksum Control.
    pub(crate) RXCSUM(u32) @ 0x5000 {
        /// Report the RSS hash instead of the fragment checksum.
        13:13 pcsd => bool;
        /// TCP/UDP checksum offload.
        9:9 tuofl => bool;
        /// IP checksum offload.
        8:8 ipofl => bool;
    }

    /// Receive Long Packet Maximum Length.
    pub(crate) RLPML(u32) @ 0x5004 {
        13:0 len;
    }

    /// VLAN Ether Type: the tag protocol identifiers the MAC recognises.
    pub(crate) VET(u32) @ 0x0038 {
        /// Outer tag of double-tagged frames.
        31:16 ext;
        /// 802.1Q tag.
        15:0 vet;
    }

    /// VLAN Filter Table Array: one bit per VLAN ID.
    pub(crate) VFTA(u32)[128] @ 0x5600 {
        31:0 bits;
    }

    /// Multicast Table Array: 4096 hash bits.
    pub(crate) MTA(u32)[128] @ 0x5200 {
        31:0 bits;
    }

    /// Management Control: what the manageability firmware uses the port for.
    pub(crate) MANC(u32) @ 0x5820 {
        /// The PHY must not be reset (or powered down) by the driver.
        18:18 blk_phy_rst_on_ide => bool;
        /// The firmware receives management traffic through this port.
        17:17 rcv_tco_en => bool;
    }

    /// Software Semaphore: guards [`SW_FW_SYNC`] between the ports' drivers and the firmware.
    pub(crate) SWSM(u32) @ 0x5b50 {
        /// Software/firmware semaphore: set by its owner, read back to confirm ownership.
        1:1 swesmbi => bool;
        /// Software semaphore: a read that finds it clear sets it and owns it.
        0:0 smbi => bool;
    }

    /// Software-Firmware Synchronization: one bit per shared resource (NVM, each port's PHY)
    /// for software (bits 15:0) and the firmware (bits 31:16).
    pub(crate) SW_FW_SYNC(u32) @ 0x5b5c {
        31:0 bits;
    }

    /// Multiple Receive Queues Command.
    pub(crate) MRQC(u32) @ 0x5818 {
        /// Hash over IPv6 UDP ports.
        23:23 udp6 => bool;
        /// Hash over IPv4 UDP ports.
        22:22 udp4 => bool;
        /// Hash over IPv6 TCP ports.
        21:21 tcp6 => bool;
        /// Hash over IPv6 addresses.
        20:20 ipv6 => bool;
        /// Hash over IPv6 addresses, with extension headers.
        19:19 ipv6_ex => bool;
        /// Hash over IPv6 TCP ports, with extension headers.
        18:18 tcp6_ex => bool;
        /// Hash over IPv4 addresses.
        17:17 ipv4 => bool;
        /// Hash over IPv4 TCP ports.
        16:16 tcp4 => bool;
        /// Queue selection: 2 = RSS.
        1:0 mrqe;
    }

    /// RSS redirection table: 128 one-byte entries, four per register.
    pub(crate) RETA(u32)[32] @ 0x5c00 {
        31:0 entries;
    }

    /// RSS random key, 40 bytes.
    pub(crate) RSSRK(u32)[10] @ 0x5c80 {
        31:0 key;
    }

    /// Receive Descriptor Base Address Low, per queue.
    pub(crate) RDBAL(u32)[16, stride = 0x40] @ 0xc000 {
        31:0 addr;
    }

    /// Receive Descriptor Base Address High, per queue.
    pub(crate) RDBAH(u32)[16, stride = 0x40] @ 0xc004 {
        31:0 addr;
    }

    /// Receive Descriptor Ring Length in bytes, per queue.
    pub(crate) RDLEN(u32)[16, stride = 0x40] @ 0xc008 {
        19:0 len;
    }

    /// Split and Replication Receive Control, per queue.
    pub(crate) SRRCTL(u32)[16, stride = 0x40] @ 0xc00c {
        /// Drop frames when no descriptor is free.
        31:31 drop_en => bool;
        /// Descriptor type: 1 = advanced, one buffer.
        27:25 desctype;
        /// Receive buffer size in 1 KiB units.
        6:0 bsizepacket;
    }

    /// Receive Descriptor Head, per queue.
    pub(crate) RDH(u32)[16, stride = 0x40] @ 0xc010 {
        15:0 head;
    }

    /// Receive Descriptor Tail, per queue.
    pub(crate) RDT(u32)[16, stride = 0x40] @ 0xc018 {
        15:0 tail;
    }

    /// Receive Descriptor Control, per queue.
    pub(crate) RXDCTL(u32)[16, stride = 0x40] @ 0xc028 {
        /// Queue enable.
        25:25 enable => bool;
        20:16 wthresh;
        12:8 hthresh;
        4:0 pthresh;
    }

    /// Transmit Descriptor Base Address Low, per queue.
    pub(crate) TDBAL(u32)[16, stride = 0x40] @ 0xe000 {
        31:0 addr;
    }

    /// Transmit Descriptor Base Address High, per queue.
    pub(crate) TDBAH(u32)[16, stride = 0x40] @ 0xe004 {
        31:0 addr;
    }

    /// Transmit Descriptor Ring Length in bytes, per queue.
    pub(crate) TDLEN(u32)[16, stride = 0x40] @ 0xe008 {
        19:0 len;
    }

    /// Transmit Descriptor Head, per queue.
    pub(crate) TDH(u32)[16, stride = 0x40] @ 0xe010 {
        15:0 head;
    }

    /// Transmit Descriptor Tail, per queue.
    pub(crate) TDT(u32)[16, stride = 0x40] @ 0xe018 {
        15:0 tail;
    }

    /// Transmit Descriptor Control, per queue.
    pub(crate) TXDCTL(u32)[16, stride = 0x40] @ 0xe028 {
        /// Queue enable.
        25:25 enable => bool;
        20:16 wthresh;
        12:8 hthresh;
        4:0 pthresh;
    }

    /// Receive Queue Drop Packet Count, per queue: frames dropped for want of a descriptor
    /// (SRRCTL.DROP_EN). Cleared when read.
    pub(crate) RQDPC(u32)[16, stride = 0x40] @ 0xc030 {
        11:0 count;
    }

    /// Receive Address Low, entry 0..15.
    pub(crate) RAL(u32)[16, stride = 8] @ 0x5400 {
        31:0 addr;
    }

    /// Receive Address High, entry 0..15.
    pub(crate) RAH(u32)[16, stride = 8] @ 0x5404 {
        /// Address valid.
        31:31 av => bool;
        //@ from sriov
        /// With VMDq: the pools (one bit each) that receive frames to this address.
        25:18 pools;
        //@ end
        15:0 addr;
    }

    /// Receive Address Low, entry 16..23.
    pub(crate) RAL_HI(u32)[8, stride = 8] @ 0x54e0 {
        31:0 addr;
    }

    /// Receive Address High, entry 16..23.
    pub(crate) RAH_HI(u32)[8, stride = 8] @ 0x54e4 {
        31:31 av => bool;
        25:18 pools; //@ sriov
        15:0 addr;
    }

    /// Unicast Table Array: 4096 hash bits for unicast addresses beyond the exact filters.
    pub(crate) UTA(u32)[128] @ 0xa000 {
        31:0 bits;
    }

    /// PCIe Control (GCR).
    pub(crate) GCR(u32) @ 0x5b00 {
        /// The device's PCIe capability is version 2: the completion timeout is set in its
        /// Device Control 2 register, not here.
        18:18 cap_ver2 => bool;
        /// Resend a request whose completion timed out.
        16:16 cmpl_tmout_resend => bool;
        /// Completion timeout (version 1 capability): 0 = the 50 us..50 ms default,
        /// 1 = 10 ms..200 ms.
        15:12 cmpl_tmout;
    }

    /// Management EEPROM Control: which ports' configuration the NVM loaded.
    pub(crate) EEMNGCTL(u32) @ 0x1010 {
        31:0 bits;
    }

    /// LED Control: the mode of each of the port's LEDs.
    pub(crate) LEDCTL(u32) @ 0x0e00 {
        31:0 bits;
    }

    /// Wake Up Control.
    pub(crate) WUC(u32) @ 0x5800 {
        /// Assert PME (wake the system) on a wake-up event.
        1:1 pme_en => bool;
        /// Advanced power management wake-up (magic packet, from the NVM).
        0:0 apme => bool;
    }

    /// Wake Up Filter Control: which frames wake the system.
    pub(crate) WUFC(u32) @ 0x5808 {
        31:0 bits;
    }

    /// Wake Up Status: which filter woke the system (write 1s to clear).
    pub(crate) WUS(u32) @ 0x5810 {
        31:0 bits;
    }
    //@ from ptp

    /// System Time, low half: reading it latches the high half.
    pub(crate) SYSTIML(u32) @ 0xb600 {
        31:0 bits;
    }

    /// System Time, high half, as latched by the last read of the low half.
    pub(crate) SYSTIMH(u32) @ 0xb604 {
        31:0 bits;
    }

    /// Time Increment: SYSTIM grows by the increment once per period (in 16 ns units).
    pub(crate) TIMINCA(u32) @ 0xb608 {
        31:24 period;
        23:0 incvalue;
    }

    /// TX Time Sync Control.
    pub(crate) TSYNCTXCTL(u32) @ 0xb614 {
        /// Timestamp frames whose data descriptor asks for it.
        4:4 en => bool;
        /// TXSTMP holds a timestamp; no other frame is timestamped until TXSTMPH is read.
        0:0 valid => bool;
    }

    /// TX timestamp, low half.
    pub(crate) TXSTMPL(u32) @ 0xb618 {
        31:0 bits;
    }

    /// TX timestamp, high half: reading it frees TXSTMP for the next frame.
    pub(crate) TXSTMPH(u32) @ 0xb61c {
        31:0 bits;
    }

    /// RX Time Sync Control.
    pub(crate) TSYNCRXCTL(u32) @ 0xb620 {
        /// Timestamp received frames of `kind`.
        4:4 en => bool;
        /// Which: 0 PTP v2 over L2, 1 PTP v1 over L4, 2 PTP v2 over both, 5 PTP v2 events.
        3:1 kind;
        /// RXSTMP holds a timestamp; no other frame is timestamped until it is read.
        0:0 valid => bool;
    }

    /// RX timestamp, low half.
    pub(crate) RXSTMPL(u32) @ 0xb624 {
        31:0 bits;
    }

    /// RX timestamp, high half.
    pub(crate) RXSTMPH(u32) @ 0xb628 {
        31:0 bits;
    }

    /// The timestamped frame's source ID and sequence ID (reading it frees RXSTMP on QEMU).
    pub(crate) RXSATRH(u32) @ 0xb630 {
        31:0 bits;
    }

    /// RX Time Sync Configuration: which PTP messages are timestamped.
    pub(crate) TSYNCRXCFG(u32) @ 0x5f50 {
        /// PTP v2 message ID.
        15:8 v2_msgid;
        /// PTP v1 control field.
        7:0 v1_ctrl;
    }

    /// EtherType Queue Filter.
    pub(crate) ETQF(u32)[8] @ 0x5cb0 {
        /// Timestamp frames of this EtherType (IEEE 1588).
        30:30 ts => bool;
        26:26 en => bool;
        15:0 etype;
    }

    /// Five-tuple Queue Filter.
    pub(crate) FTQF(u32)[8] @ 0x59e0 {
        /// Fields not compared: bit 0 protocol, 1 source address, 2 destination address,
        /// 3 source port.
        31:28 mask;
        /// Timestamp matching frames.
        27:27 ts => bool;
        /// Frames of any pool match.
        15:15 vf_bp => bool;
        7:0 protocol;
    }

    /// Immediate Interrupt RX: the destination port of a five-tuple filter.
    pub(crate) IMIR(u32)[8] @ 0x5a80 {
        15:0 port;
    }

    /// Immediate Interrupt RX Extended.
    pub(crate) IMIREXT(u32)[8] @ 0x5aa0 {
        /// TCP flags are not compared.
        19:19 ctrl_bp => bool;
        /// The frame size is not compared.
        12:12 size_bp => bool;
    }

    /// Source Port Queue Filter: the source port of a five-tuple filter.
    pub(crate) SPQF(u32)[8] @ 0x5960 {
        15:0 port;
    }
    //@ end

    //@ from sriov
    /// Mailbox memory: 16 words for each virtual function.
    pub(crate) VMBMEM(u32)[128] @ 0x0800 {
        31:0 word;
    }

    /// The PF's side of a virtual function's mailbox.
    pub(crate) P2VMAILBOX(u32)[8] @ 0x0c00 {
        /// The PF holds the buffer (reads back 0 while the VF holds it); a write without it
        /// releases it.
        3:3 pfu => bool;
        /// The VF holds the buffer.
        2:2 vfu => bool;
        /// Acknowledges the VF's message.
        1:1 ack => bool;
        /// Tells the VF a message is in the buffer.
        0:0 sts => bool;
    }

    /// Mailbox events per VF, cleared by writing them back: messages (bits 7:0) and
    /// acknowledgments (bits 23:16).
    pub(crate) MBVFICR(u32) @ 0x0c80 {
        31:0 bits;
    }

    /// Mailbox interrupt mask, one bit per VF.
    pub(crate) MBVFIMR(u32) @ 0x0c84 {
        31:0 mask;
    }

    /// VF function level reset events, one bit per VF, cleared by writing them back.
    pub(crate) VFLRE(u32) @ 0x0c88 {
        31:0 bits;
    }

    /// Receive enable, one bit per pool (the PF's pool included).
    pub(crate) VFRE(u32) @ 0x0c8c {
        31:0 pools;
    }

    /// Transmit enable, one bit per pool (the PF's pool included).
    pub(crate) VFTE(u32) @ 0x0c90 {
        31:0 pools;
    }

    /// Virtualization control.
    pub(crate) VT_CTL(u32) @ 0x581c {
        /// Replicate broadcast and multicast frames to every pool that accepts them.
        30:30 repl_en => bool;
        /// The pool of received unicast frames no address filter claimed.
        9:7 def_pool;
    }

    /// VM offload control, per pool: what the pool accepts.
    pub(crate) VMOLR(u32)[8] @ 0x5ad0 {
        /// Strip the VLAN tag.
        30:30 strvlan => bool;
        /// Accept every multicast frame.
        28:28 mpme => bool;
        /// Accept broadcast frames.
        27:27 bam => bool;
        /// Accept unicast frames the unicast hash table matches.
        26:26 rope => bool;
        /// Accept multicast frames the multicast table matches.
        25:25 rompe => bool;
        /// Accept untagged frames.
        24:24 aupe => bool;
        /// Frames up to `rlpml` bytes (rather than 1522).
        16:16 lpe => bool;
        /// Longest frame the pool accepts, with `lpe`.
        13:0 rlpml;
    }

    /// DMA TX switch control.
    pub(crate) DTXSWC(u32) @ 0x3500 {
        /// Frames from one pool to another's address are switched inside the device.
        31:31 loopback => bool;
        /// MAC anti-spoofing, one bit per pool: a frame whose source address is not one of
        /// its pool's receive addresses is dropped.
        7:0 mac_spoof;
    }

    /// Queue drop enable, one bit per queue: a full queue drops what reaches it, instead of
    /// holding up the packet buffer that every pool shares.
    pub(crate) QDE(u32) @ 0x2408 {
        31:0 queues;
    }
    //@ end
}
