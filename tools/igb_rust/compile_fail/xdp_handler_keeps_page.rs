// SPDX-License-Identifier: GPL-2.0
//! expect: E0505
//! The page an XDP handler is given on a drop still borrows its pool: a handler that keeps it
//! cannot hand it past the pool's end (its DMA mapping ends with the pool).

use kernel::{
    net::{
        napi::RxContext,
        page_pool::{Page, PagePool},
        xdp::{Buff, DropReason, Frame, OnVerdict, ProgRef, RxMeta, RxQueue},
    },
    prelude::*,
};

module! {
    type: M,
    name: "cf",
    license: "GPL",
}

struct M;

/// Keeps the page of a dropped frame.
struct Keeper<'k, 'p> {
    kept: &'k mut Option<Page<'p>>,
}

impl<'p> OnVerdict<'p> for Keeper<'_, 'p> {
    type Output = ();

    fn meta(&self) -> RxMeta {
        RxMeta::default()
    }

    fn pass(self, buff: Buff<'p>) {
        drop(buff);
    }

    fn tx(self, frame: Frame) {
        drop(frame);
    }

    fn redirected(self) {}

    fn dropped(self, page: Page<'p>, _dirty: u32, _why: DropReason) {
        *self.kept = Some(page);
    }
}

#[allow(dead_code)]
fn stale(ctx: &RxContext<'_, '_>, rxq: &RxQueue, prog: ProgRef<'_>, pool: PagePool<'_>) -> u64 {
    let Some(page) = pool.alloc() else {
        return 0;
    };
    let mut kept = None;
    rxq.run_with(
        ctx,
        prog,
        page,
        64,
        RxMeta::default(),
        Keeper { kept: &mut kept },
    );
    drop(pool);
    kept.map_or(0, |p| p.dma_addr())
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
