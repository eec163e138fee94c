// SPDX-License-Identifier: GPL-2.0
//! expect: builds
//! Control case: the correct versions of the snippets above build, so each failure comes
//! from the rule it shows, not from the harness.

use kernel::{
    device,
    net::{
        napi::{Napi, NapiContext, Poll, RxContext},
        netdev::{Config, Device, Operations, Registration, Rtnl, TxRequest, Xmit},
        page_pool::{Page, PagePool, ParkedPage},
        skb::SkBuff,
    },
    prelude::*,
};

module! {
    type: M,
    name: "cf",
    license: "GPL",
}

struct M;

#[allow(dead_code)]
fn rx(ctx: &RxContext<'_, '_>, page: Page<'_>) {
    if let Some(mut skb) = ctx.alloc_skb(64) {
        let copied = page.copy_to_skb(&mut skb, 64);
        page.recycle(ctx, 64);
        if copied.is_ok() {
            ctx.gro_receive(skb);
        }
    }
}

#[allow(dead_code)]
fn poll(ctx: &NapiContext<'_>, skb: SkBuff) -> u32 {
    ctx.consume_skb(skb);
    match ctx.rx() {
        Some(rx) => rx.budget() - 1,
        None => 0,
    }
}

#[allow(dead_code)]
fn xmit<'x>(req: TxRequest<'x>, room: bool) -> Xmit<'x> {
    if !room {
        return Xmit::Busy(req);
    }
    drop(req.accept());
    Xmit::Ok
}

#[allow(dead_code)]
fn fill<P: Poll>(napi: &Napi<P>, rtnl: &mut Rtnl) -> Result {
    napi.with_state(rtnl, |_data, _state| {})?;
    napi.enable(rtnl);
    Ok(())
}

#[allow(dead_code)]
fn ring(pool: PagePool) -> Option<ParkedPage> {
    let page = pool.alloc()?;
    let _ = page.dma_addr();
    let parked = page.park();
    let back = pool.unpark(parked).ok()?;
    let parked = back.park();
    drop(pool);
    Some(parked)
}

struct Net {
    _owned: u32,
}

#[vtable]
impl Operations for Net {
    fn open(_dev: &Device<Self>, _rtnl: &mut Rtnl) -> Result {
        Ok(())
    }

    fn stop(_dev: &Device<Self>, _rtnl: &mut Rtnl) -> Result {
        Ok(())
    }

    fn start_xmit<'x>(_dev: &Device<Self>, _skb: TxRequest<'x>) -> Xmit<'x> {
        Xmit::Ok
    }
}

#[allow(dead_code)]
fn register(parent: &device::Device<device::Bound>, config: &Config<Net>) -> Result {
    let reg = Registration::new(parent, 1, 1, config, |_| Ok::<_, Error>(Net { _owned: 1 }))?;
    // Leaking owned data is safe: the interface just stays.
    core::mem::forget(reg);
    Ok(())
}

fn stay_in_context<T>(_page: T) {}

#[allow(dead_code)]
fn same_context(pool: &PagePool) {
    stay_in_context(pool.alloc());
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
