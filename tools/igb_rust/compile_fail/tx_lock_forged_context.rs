// SPDX-License-Identifier: GPL-2.0
//! expect: E0277
//! The contexts that may take a TX queue's xmit lock are the abstraction's: a driver cannot
//! declare its own (e.g. a hard interrupt handler that would spin on a lock its CPU holds).

use kernel::{
    net::netdev::{TxLockContext, TxLockMode},
    prelude::*,
};

module! {
    type: M,
    name: "cf",
    license: "GPL",
}

struct M;

struct InIrq;

impl TxLockContext for InIrq {
    fn tx_lock_mode(&self) -> TxLockMode {
        TxLockMode::Spin
    }
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
