// SPDX-License-Identifier: GPL-2.0
//! expect: builds
//! Control case: the correct versions of the snippets above build, so each failure comes
//! from the rule it shows, not from the harness.

use kernel::{
    device::{self as kdevice, Bound, Core},
    net::{
        napi::{Instance, Napi, NapiContext, NoPoll, Poll, Rx, RxContext, XskRx},
        netdev::{
            self, ring, Config, Device, FdbAdd, HwTstampConfig, HwTstampRx, IrqDevice, Operations,
            Rtnl, RxMode, TxRequest, Xmit, XmitQueue,
        },
        page_pool::{Layout, Page, PagePool, ParkedPage},
        skb::SkBuff,
        tx::{MapSlot, TxBuf},
        xdp::{
            self, Buff, DropReason, ExtAck, Features, Frame, OnVerdict, Prog, ProgRef, ProgSlot,
            RxMeta, RxQueue, Verdict, XskVerdict,
        },
    },
    pci,
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
fn xdp_rx(ctx: &RxContext<'_, '_>, rxq: &RxQueue, prog: ProgRef<'_>, page: Page<'_>) {
    match rxq.run(ctx, prog, page, 64, RxMeta::default()) {
        Verdict::Pass(buff) => match buff.build_skb(ctx) {
            Ok(skb) => ctx.gro_receive(skb),
            Err((page, dirty)) => page.recycle(ctx, dirty),
        },
        Verdict::Tx(frame) => drop(frame),
        Verdict::Redirected => {}
        Verdict::Drop { page, dirty, .. } => page.recycle(ctx, dirty),
    }
}

#[allow(dead_code)]
fn xsk_rx(ctx: &RxContext<'_, '_>, xsk: &XskRx, prog: Option<ProgRef<'_>>) -> u32 {
    let mut received = 0;
    for slot in 0..xsk.slots() {
        let Ok(buff) = xsk.take(slot, 64) else {
            continue;
        };
        received += 1;
        match prog {
            Some(prog) => match xdp::run_xsk(ctx, prog, buff, RxMeta::default) {
                XskVerdict::Pass { skb, .. } => ctx.gro_receive(skb),
                XskVerdict::Tx(frame) => drop(frame),
                XskVerdict::Redirected | XskVerdict::Dropped(_) | XskVerdict::Full => (),
            },
            None => {
                if let Some(skb) = xdp::xsk_pass(ctx, buff) {
                    ctx.gro_receive(skb);
                }
            }
        }
        let _ = xsk.fill_range(slot, 1, |_, _| ());
    }
    received
}

/// Counts drops and recycles their pages; passes frames on to the caller.
struct Dropper<'a, 'c, 'n> {
    ctx: &'a RxContext<'c, 'n>,
    dropped: &'a mut u32,
}

impl<'p> OnVerdict<'p> for Dropper<'_, '_, '_> {
    type Output = Option<Buff<'p>>;

    fn meta(&self) -> RxMeta {
        RxMeta::default()
    }

    fn pass(self, buff: Buff<'p>) -> Option<Buff<'p>> {
        Some(buff)
    }

    fn tx(self, frame: Frame) -> Option<Buff<'p>> {
        drop(frame);
        None
    }

    fn redirected(self) -> Option<Buff<'p>> {
        None
    }

    fn dropped(self, page: Page<'p>, dirty: u32, _why: DropReason) -> Option<Buff<'p>> {
        *self.dropped += 1;
        page.recycle(self.ctx, dirty);
        None
    }
}

#[allow(dead_code)]
fn xdp_rx_with(ctx: &RxContext<'_, '_>, rxq: &RxQueue, prog: ProgRef<'_>, page: Page<'_>) -> u32 {
    let mut dropped = 0;
    let on = Dropper {
        ctx,
        dropped: &mut dropped,
    };
    if let Some(buff) = rxq.run_with(ctx, prog, page, 64, RxMeta::default(), on) {
        match buff.build_skb(ctx) {
            Ok(skb) => ctx.gro_receive(skb),
            Err((page, dirty)) => page.recycle(ctx, dirty),
        }
    }
    dropped
}

#[allow(dead_code)]
fn xdp_runner(
    ctx: &RxContext<'_, '_>,
    slot: &ProgSlot,
    rxq: &RxQueue,
    pages: [Page<'_>; 2],
) -> u32 {
    let mut dropped = 0;
    let Some(prog) = slot.get(ctx) else {
        return 0;
    };
    // One runner for the frames of the poll.
    let mut runner = rxq.runner(prog);
    for page in pages {
        let on = Dropper {
            ctx,
            dropped: &mut dropped,
        };
        if let Some(buff) = runner.run_with(ctx, page, 64, on) {
            match buff.build_skb(ctx) {
                Ok(skb) => ctx.gro_receive(skb),
                Err((page, dirty)) => page.recycle(ctx, dirty),
            }
        }
    }
    dropped
}

#[allow(dead_code)]
fn xdp_rx_frags<'p>(
    ctx: &RxContext<'_, '_>,
    rxq: &RxQueue,
    prog: ProgRef<'_>,
    head: Page<'p>,
    frag: Page<'p>,
) {
    if let Verdict::Drop { page, dirty, .. } =
        rxq.run_frags(ctx, prog, (head, 2048), [(frag, 64)], RxMeta::default())
    {
        page.recycle(ctx, dirty);
    }
}

#[allow(dead_code)]
fn xdp_prog<'a>(slot: &ProgSlot, rx: &'a RxContext<'_, '_>) -> Option<ProgRef<'a>> {
    slot.get(rx)
}

#[allow(dead_code)]
fn poll<'n, P: Poll>(ctx: &NapiContext<'n>, rx: Option<Rx<'_, 'n, P>>, skb: SkBuff) -> u32 {
    ctx.consume_skb(skb);
    match rx {
        Some(rx) => rx.ctx.budget() - 1,
        None => 0,
    }
}

#[allow(dead_code)]
fn xmit<'x>(txq: &XmitQueue<'x>, req: TxRequest<'x>, room: bool) -> Xmit<'x> {
    if !room {
        return Xmit::Busy(req);
    }
    txq.sent(req.len());
    drop(req.accept());
    Xmit::Ok
}

/// A slot is filled before it is published; the queue's data is used while its lock is held.
#[allow(dead_code)]
fn send<T: Operations<XmitData = Option<ring::Producer<u32, ()>>>>(
    dev: &Device<T>,
    ctx: &NapiContext<'_>,
) -> Option<u32> {
    let mut guard = dev.lock_tx(0, ctx)?;
    let data = &mut *guard;
    let producer = data.as_mut()?;
    let mut free = producer.free_slots();
    let slot = free.slot_mut(0)?;
    *slot = 7;
    free.publish(1);
    let slot = free.first_mut()?;
    *slot = 8;
    free.publish(1);
    Some(producer.free())
}

#[allow(dead_code)]
fn shrink<T: Operations>(dev: &Device<T>, rtnl: &Rtnl) -> Result {
    dev.set_real_num_queues(1, 1, rtnl)
}

#[allow(dead_code)]
fn fill<P: Poll>(napi: &Napi<P>, rtnl: &mut Rtnl) -> Result {
    let half = Layout::new(2048, 192, 1536).ok_or(EINVAL)?;
    napi.set_pool_layout(rtnl, half)?;
    napi.with_state(rtnl, |_data, _state, _pool| {})?;
    napi.enable(rtnl);
    Ok(())
}

#[allow(dead_code)]
fn ring(pool: PagePool<'_>) -> Option<ParkedPage> {
    let page = pool.alloc()?;
    let _ = page.dma_addr();
    let parked = page.park();
    let back = pool.unpark(parked).ok()?;
    let parked = back.park();
    drop(pool);
    Some(parked)
}

fn stay_in_context<T>(_page: T) {}

#[allow(dead_code)]
fn same_context(pool: &PagePool<'_>) {
    stay_in_context(pool.alloc());
}

#[allow(dead_code)]
fn handle<T: Operations>(dev: &IrqDevice<T>) -> bool {
    dev.napi(0).is_some_and(|n| n.schedule())
}

/// A ring slot lives as long as the device it maps for; the skb is changed only once out.
#[allow(dead_code)]
fn slot_in_ring<'a>(dev: &'a kdevice::Device<Bound>, skb: SkBuff) -> MapSlot<'a, 4> {
    let mut slot = MapSlot::new(dev);
    if let Err((mut skb, _)) = slot.map(skb) {
        let _ = skb.linearize();
    }
    if let Some(TxBuf::Skb(mut skb)) = slot.take() {
        let _ = skb.linearize();
    }
    slot
}

/// A driver whose private data borrows from the binding registers through the adapter.
struct Net<'a> {
    _pdev: &'a pci::Device,
}

#[vtable]
impl Operations for Net<'_> {
    type Poll = NoPoll<Self>;
    type XmitData = ();

    fn open(_dev: &Device<Self>, _rtnl: &mut Rtnl) -> Result {
        Ok(())
    }

    fn stop(_dev: &Device<Self>, _rtnl: &mut Rtnl) -> Result {
        Ok(())
    }

    fn start_xmit<'x>(
        dev: &Device<Self>,
        _txq: &XmitQueue<'x>,
        _data: &mut (),
        skb: TxRequest<'x>,
    ) -> Xmit<'x> {
        // Control of tx_timestamp_twice: delivered once.
        let mut skb = skb.accept();
        if skb.wants_hw_tx_timestamp() {
            skb.start_hw_tx_timestamp(dev).complete(0);
        }
        Xmit::Ok
    }

    fn hwtstamp_get(_dev: &Device<Self>) -> Result<HwTstampConfig> {
        Ok(HwTstampConfig::OFF)
    }

    fn hwtstamp_set(
        _dev: &Device<Self>,
        _rtnl: &mut Rtnl,
        config: &mut HwTstampConfig,
        _extack: &mut ExtAck<'_>,
    ) -> Result {
        config.rx = HwTstampRx::PtpV2Event;
        Ok(())
    }

    fn set_rx_mode(_dev: &Device<Self>, mode: &RxMode<'_>) {
        let mut n = mode.uc_count();
        mode.for_each_uc_addr(|_| n = n.saturating_sub(1));
    }

    fn fdb_add(
        _dev: &Device<Self>,
        _rtnl: &mut Rtnl,
        req: &FdbAdd<'_>,
        extack: &mut xdp::ExtAck<'_>,
    ) -> Result {
        if req.adds_unicast() && req.uc_state() == (15, false) {
            extack.set_msg(c"full");
            return Err(ENOMEM);
        }
        Ok(())
    }
}

/// Its PTP clock goes to the configuration: no `unsafe`, though it borrows from the binding.
#[vtable]
impl kernel::ptp::Clock for Net<'_> {
    fn gettimex(&self, sts: &mut kernel::ptp::SystemTimestamps<'_>) -> Result<kernel::ptp::Nanos> {
        sts.pre();
        sts.post();
        Ok(0)
    }

    fn settime(&self, _time: kernel::ptp::Nanos) -> Result {
        Ok(())
    }

    fn adjtime(&self, _delta: kernel::ptp::Nanos) -> Result {
        Ok(())
    }

    fn adjfine(&self, _scaled_ppm: kernel::ffi::c_long) -> Result {
        Ok(())
    }
}

/// The XDP and ethtool tables of the same type (any lifetime) as the registration.
#[vtable]
impl xdp::Operations for Net<'_> {
    fn setup(
        _dev: &Device<Self>,
        _rtnl: &mut Rtnl,
        _prog: Option<Prog>,
        _extack: &mut ExtAck<'_>,
    ) -> Result {
        Ok(())
    }
}

#[vtable]
impl kernel::net::ethtool::Operations for Net<'_> {
    fn get_drvinfo(_dev: &Device<Self>, _info: &mut kernel::net::ethtool::DrvInfo<'_>) {}
}

struct Drv;

kernel::pci_device_table!(
    PCI_TABLE,
    <Drv as netdev::pci::Driver>::IdInfo,
    [(pci::DeviceId::from_id(pci::Vendor::INTEL, 0xffff), ())]
);

impl netdev::pci::Driver for Drv {
    type IdInfo = ();
    type Net<'bound> = Net<'bound>;

    const ID_TABLE: pci::IdTable<Self::IdInfo> = &PCI_TABLE;

    fn probe<'bound>(
        pdev: &'bound pci::Device<Core<'_>>,
        _info: Option<&'bound Self::IdInfo>,
        registrar: netdev::pci::Registrar<'bound, '_, Net<'bound>>,
    ) -> Result<netdev::pci::Registered> {
        let config = Config {
            ethtool: Some(kernel::net::ethtool::table::<Net<'bound>>()),
            mac: [0x52, 0x54, 0, 0x12, 0x34, 0x56],
            min_mtu: 68,
            max_mtu: 1500,
            hw_features: 0,
            features: 0,
            real_tx_queues: 1,
            real_rx_queues: 1,
            spread_irqs: false,
            stats_count: 0,
            unicast_filter: true,
            clock: Some(kernel::ptp::ClockInfo::new(c"cf", 1000)),
            xdp: Some(xdp::table::<Net<'bound>>(Features::BASIC)?),
        };
        registrar.register(
            1,
            1,
            &config,
            0,
            &mut |_| Err::<Instance<Result<NoPoll<Net<'bound>>, Error>, ()>, _>(EINVAL),
            Ok::<_, Error>(Net { _pdev: pdev }),
        )
    }

    const HAS_SRIOV: bool = true;

    fn sriov_configure(
        _pdev: &pci::Device<Core<'_>>,
        _dev: &Device<Net<'_>>,
        sriov: &pci::Sriov<'_>,
        num_vfs: u16,
    ) -> Result<u16> {
        match core::num::NonZero::new(num_vfs) {
            Some(n) => sriov.enable(n)?,
            None => sriov.disable()?,
        }
        Ok(sriov.num_vfs())
    }
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
