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
        /// Device reset: self-clearing, resets the whole MAC.
        26:26 rst => bool;
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
        /// Link speed: 0 = 10, 1 = 100, 2 or 3 = 1000 Mb/s.
        7:6 speed;
        /// Link up.
        1:1 lu => bool;
        /// Full duplex.
        0:0 fd => bool;
    }

    /// EEPROM/Flash Control.
    pub(crate) EECD(u32) @ 0x0010 {
        /// Hardware finished loading the NVM after reset.
        9:9 auto_rd => bool;
        /// NVM present.
        8:8 pres => bool;
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
        /// PF reset done: VFs may proceed.
        14:14 pfrstd => bool;
    }

    /// Interrupt Cause Read (clear on read).
    pub(crate) ICR(u32) @ 0x00c0 {
        31:0 causes;
    }

    /// Interrupt Mask Clear.
    pub(crate) IMC(u32) @ 0x00d8 {
        31:0 mask;
    }

    /// Receive Control.
    pub(crate) RCTL(u32) @ 0x0100 {
        /// Receiver enable.
        1:1 en => bool;
    }

    /// Transmit Control.
    pub(crate) TCTL(u32) @ 0x0400 {
        /// Pad short packets.
        3:3 psp => bool;
        /// Transmitter enable.
        1:1 en => bool;
    }

    /// Extended Interrupt Mask Clear.
    pub(crate) EIMC(u32) @ 0x1528 {
        31:0 mask;
    }

    /// Receive Address Low, entry 0..15.
    pub(crate) RAL(u32)[16, stride = 8] @ 0x5400 {
        31:0 addr;
    }

    /// Receive Address High, entry 0..15.
    pub(crate) RAH(u32)[16, stride = 8] @ 0x5404 {
        /// Address valid.
        31:31 av => bool;
        15:0 addr;
    }
}
