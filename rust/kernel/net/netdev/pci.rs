// SPDX-License-Identifier: GPL-2.0

//! Network interfaces of PCI functions.
//!
//! A network driver's private data usually borrows from the device binding (`'bound`: the
//! BAR mapping, the `pci::Device` reference). A [`Registration`] holding such data must be
//! dropped before the binding ends, or its callbacks would run on dangling data; `mem::forget`
//! is safe, so the constructor that accepts borrowed data,
//! [`Registration::new_with_lt`], is `unsafe` (the kernel crate's pattern, as for
//! `auxiliary::Registration::new_with_lt`).
//!
//! [`Adapter`] keeps a driver free of that `unsafe`: it is the PCI driver, and the
//! registration (with the MSI-X vectors whose handlers it owns) becomes the PCI driver data,
//! which the PCI core keeps pinned and drops at unbind. The network driver implements
//! [`Driver`] and never holds the registration, so it cannot forget it.

use crate::{
    device::{Bound, Core},
    dma::{Device as _, DmaMask},
    irq::IrqRequest,
    net::netdev::{Config, Device, NapiInit, Operations, Registration},
    pci,
    prelude::*,
    sync::atomic::{Atomic, Relaxed},
};
use core::marker::PhantomData;

/// A PCI driver whose every bound function is one network interface.
pub trait Driver {
    /// The type holding information about each device id supported by the driver.
    type IdInfo: 'static;

    /// The interface's private data, which may borrow from the binding.
    type Net<'bound>: Operations + 'bound;

    /// The table of device ids supported by the driver.
    const ID_TABLE: pci::IdTable<Self::IdInfo>;

    /// The addresses the function can reach by DMA, streaming and coherent: set before
    /// [`Driver::probe`] runs, which does not run if the platform cannot give it. Always set,
    /// since a mask survives the unbind of the driver that set it.
    const DMA_MASK: DmaMask = DmaMask::new::<32>();

    /// Sets the function up and registers its interface through `registrar`, whose proof of
    /// registration it returns.
    fn probe<'bound>(
        pdev: &'bound pci::Device<Core<'_>>,
        id_info: Option<&'bound Self::IdInfo>,
        registrar: Registrar<'bound, '_, Self::Net<'bound>>,
    ) -> Result<Registered>;

    /// Called once the interface is registered, e.g. to log its name.
    fn registered(pdev: &pci::Device<Core<'_>>, dev: &Device<Self::Net<'_>>) {
        let _ = (pdev, dev);
    }

    /// System sleep and shutdown: called after the interface was detached (and stopped, if it
    /// was up), before the function is powered down (by the PCI core for sleep; by the
    /// adapter at power-off, with PME from D3hot as `device_may_wakeup()` says, unless this
    /// failed); e.g. to arm wake-up filters, power the PHY down or hand the device to its
    /// firmware. Otherwise errors are ignored at shutdown.
    fn suspend(pdev: &pci::Device<Core<'_>>, dev: &Device<Self::Net<'_>>) -> Result {
        let _ = (pdev, dev);
        Ok(())
    }

    /// System sleep and error recovery: called once the function is powered up again, or its
    /// link was reset after an error (`slot_reset`), before the interface is attached (and
    /// opened, if it was up); e.g. to reset the device, whose state may be lost. On error the
    /// interface stays detached (after an error, the device is given up).
    fn resume(pdev: &pci::Device<Core<'_>>, dev: &Device<Self::Net<'_>>) -> Result {
        let _ = (pdev, dev);
        Ok(())
    }

    /// Whether the driver implements [`Driver::sriov_configure`].
    const HAS_SRIOV: bool = false;

    /// SR-IOV (`sriov_numvfs`): set the function up for `num_vfs` virtual functions (0: none)
    /// and enable or disable them through `sriov`; returns how many are enabled. Called with
    /// the device lock held, while the interface is attached, and without RTNL: the drivers of
    /// the virtual functions, which may probe before `sriov.enable()` returns, take it.
    fn sriov_configure(
        pdev: &pci::Device<Core<'_>>,
        dev: &Device<Self::Net<'_>>,
        sriov: &pci::Sriov<'_>,
        num_vfs: u16,
    ) -> Result<u16> {
        let _ = (pdev, dev, sriov, num_vfs);
        Err(EOPNOTSUPP)
    }
}

/// The PCI driver data of an [`Adapter`]: the registration, then the vectors its interrupt
/// handlers use (dropped in that order).
///
/// # Invariants
///
/// - The interrupt lines of `reg` are vectors of `vectors`.
/// - `state` is one of the `STATE_*` values and only changes in the PCI driver callbacks,
///   which the device lock serialises.
pub struct NetData<'bound, T: Operations> {
    reg: Registration<T>,
    _vectors: Option<pci::IrqVectorRegistration<'bound>>,
    state: Atomic<u32>,
}

/// [`NetData::state`]: the interface is attached (or being probed).
const STATE_RUNNING: u32 = 0;
/// Detached for system sleep or shutdown: error recovery leaves it to resume (or to nothing).
const STATE_SUSPENDED: u32 = 1;
/// Detached by error recovery or before a reset, to be set up again and attached when it
/// ends.
const STATE_ERR_DETACHED: u32 = 2;
/// Given up after an error: detached until the driver is unbound.
const STATE_FAILED: u32 = 3;

/// Registers the interface of a PCI function being probed; handed to [`Driver::probe`].
pub struct Registrar<'bound, 's, T: Operations> {
    pdev: &'bound pci::Device<Bound>,
    slot: &'s mut Option<NetData<'bound, T>>,
    vectors: Option<pci::IrqVectorRegistration<'bound>>,
}

/// The interrupts [`Registrar::alloc_irqs`] obtained for a function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interrupts {
    /// This many MSI-X vectors: handler vector `i` is MSI-X vector `i`.
    MsiX(u32),
    /// One MSI vector: handler vector 0.
    Msi,
    /// The legacy INTx line: handler vector 0. Other devices may share the line, so the
    /// handler must return [`IrqReturn::None`](crate::irq::IrqReturn::None) for an interrupt
    /// its device did not raise.
    Intx,
}

/// Proof that [`Registrar::register`] succeeded.
pub struct Registered(());

impl<'bound, T: Operations + 'bound> Registrar<'bound, '_, T> {
    /// Allocates the function's interrupts: between `min_msix` and `max_msix` MSI-X vectors;
    /// if the function or the system cannot give that many, one MSI vector; failing that, the
    /// INTx line. The interface requests a handler on each while it is open. Fails with
    /// `EBUSY` if called again.
    pub fn alloc_irqs(&mut self, min_msix: u32, max_msix: u32) -> Result<Interrupts> {
        if self.vectors.is_some() {
            return Err(EBUSY);
        }
        if min_msix == 0 || min_msix > max_msix {
            return Err(EINVAL);
        }
        let msix = pci::IrqTypes::default().with(pci::IrqType::MsiX);
        let single = pci::IrqTypes::default()
            .with(pci::IrqType::Msi)
            .with(pci::IrqType::Intx);
        let v = match self.pdev.alloc_irq_vectors(min_msix, max_msix, msix) {
            Ok(v) => v,
            Err(_) => self.pdev.alloc_irq_vectors(1, 1, single)?,
        };
        let got = match v.irq_type() {
            pci::IrqType::MsiX => Interrupts::MsiX(v.len().try_into()?),
            pci::IrqType::Msi => Interrupts::Msi,
            pci::IrqType::Intx => Interrupts::Intx,
        };
        self.vectors = Some(v);
        Ok(got)
    }

    /// Allocates the interface with `napis` NAPI instances made by `napi_init(i)`, initialises
    /// its private data with `init` and registers the interface with `config`. While it is
    /// open, a handler calling [`Operations::handle_irq`] with the vector's index is requested
    /// on each interrupt from [`Registrar::alloc_irqs`]. Everything is undone when the
    /// function is unbound.
    pub fn register<I>(
        self,
        txqs: u32,
        rxqs: u32,
        config: &Config<T>,
        napis: u32,
        napi_init: &mut NapiInit<'_, T, I>,
        init: impl PinInit<T, Error>,
    ) -> Result<Registered>
    where
        I: PinInit<T::Poll, Error>,
    {
        let vectors = self.vectors;
        let mut irqs = KVec::new();
        let mut shared = false;
        if let Some(v) = &vectors {
            irqs.reserve(v.len(), GFP_KERNEL)?;
            for i in 0..v.len() {
                irqs.push(IrqRequest::from(v.index(i)?).irq(), GFP_KERNEL)?;
            }
            shared = matches!(v.irq_type(), pci::IrqType::Intx);
        }
        // SAFETY: The registration goes into `self.slot`, which `Adapter::probe` turns into the
        // PCI driver data of `pdev`: the PCI core keeps that pinned and drops it when the
        // function is unbound, before anything of `'bound` ends and before the driver's module
        // can go, and never forgets it; the driver has no access to it. The lines are the
        // interrupt vectors of `pdev` (MSI-X, MSI or INTx, requested shared only if INTx),
        // kept allocated by `vectors`, which `NetData` drops after the registration.
        let reg = unsafe {
            Registration::new_with_lt(
                self.pdev.as_ref(),
                txqs,
                rxqs,
                config,
                &irqs,
                shared,
                napis,
                napi_init,
                init,
            )?
        };
        // INVARIANT: the lines of `reg` come from `vectors`.
        *self.slot = Some(NetData {
            reg,
            _vectors: vectors,
            state: Atomic::new(STATE_RUNNING),
        });
        Ok(Registered(()))
    }
}

/// The PCI driver of a network [`Driver`] `D`: pass `Adapter<D>` as the `type` of
/// [`module_pci_driver!`](crate::module_pci_driver).
pub struct Adapter<D: Driver>(PhantomData<D>);

impl<D: Driver> Adapter<D> {
    /// Attaches the interface that error recovery or a reset detached (`what` says which):
    /// running again, or given up if that fails.
    fn attach_after(pdev: &pci::Device<Core<'_>>, this: Pin<&NetData<'_, D::Net<'_>>>, what: &str) {
        match this.reg.attach() {
            Ok(()) => {
                this.state.store(STATE_RUNNING, Relaxed);
                dev_info!(pdev.as_ref(), "interface attached after {}\n", what);
            }
            Err(e) => {
                this.state.store(STATE_FAILED, Relaxed);
                dev_err!(
                    pdev.as_ref(),
                    "interface stays detached after {}: {:?}\n",
                    what,
                    e
                );
            }
        }
    }
}

/// The D3hot power state (`PCI_D3hot`, a macro bindgen does not see).
const PCI_D3HOT: bindings::pci_power_t = 3;

impl<D: Driver> pci::Driver for Adapter<D> {
    type IdInfo = D::IdInfo;
    type Data<'bound> = NetData<'bound, D::Net<'bound>>;

    const HAS_SHUTDOWN: bool = true;
    const HAS_PM: bool = true;
    const HAS_ERR_HANDLER: bool = true;
    const HAS_SRIOV: bool = D::HAS_SRIOV;

    const ID_TABLE: pci::IdTable<Self::IdInfo> = D::ID_TABLE;

    fn probe<'bound>(
        pdev: &'bound pci::Device<Core<'_>>,
        id_info: Option<&'bound Self::IdInfo>,
    ) -> impl PinInit<Self::Data<'bound>, Error> + 'bound {
        let mask = D::DMA_MASK;
        // SAFETY: Nothing can allocate or map DMA for `pdev` concurrently: the kernel crate's
        // DMA calls need a `&Device<Bound>`, which only this driver's callbacks get for the
        // function and none of them has run for this binding yet (`probe` runs with the device
        // lock held); a previous binding's mappings and work ended at its unbind, and the
        // allocations that outlive it can only be freed.
        unsafe { pdev.dma_set_mask_and_coherent(mask) }.inspect_err(|e| {
            dev_err!(
                pdev.as_ref(),
                "no usable DMA mask {:#x}: {:?}\n",
                mask.value(),
                e
            )
        })?;
        let bound: &'bound pci::Device<Bound> = pdev;
        let mut slot = None;
        D::probe(
            pdev,
            id_info,
            Registrar {
                pdev: bound,
                slot: &mut slot,
                vectors: None,
            },
        )?;
        let data = slot.ok_or(EINVAL)?;
        D::registered(pdev, data.reg.device());
        Ok(data)
    }

    fn shutdown<'bound>(pdev: &'bound pci::Device<Core<'_>>, this: Pin<&Self::Data<'bound>>) {
        // Stops DMA and interrupts of an interface that is up; the interface stays
        // registered and detached until the system goes down, whatever error recovery says.
        this.state.store(STATE_SUSPENDED, Relaxed);
        this.reg.detach();
        let suspended = D::suspend(pdev, this.reg.device()).is_ok();
        // SAFETY: A plain read of the system's state, which the core set before it called the
        // shutdown callbacks.
        let state = unsafe { core::ptr::addr_of!(bindings::system_state).read_volatile() };
        // A driver whose suspend failed armed nothing to wake on: the bus leaves it be.
        if suspended && state == bindings::system_states_SYSTEM_POWER_OFF {
            // Powering off: the function may wake the system from D3hot if its driver armed
            // a wake-up (Wake-on-LAN) and the user let it (`device_may_wakeup()`); the bus
            // does this for sleep, not for shutdown.
            let dev: &crate::device::Device = pdev.as_ref();
            let raw = dev.as_raw();
            // SAFETY: `raw` is the bound function's device, live for the call.
            let wake = unsafe { bindings::device_may_wakeup(raw) };
            // SAFETY: `raw` is the `dev` field of the bound function's `pci_dev`.
            let pci = unsafe { crate::container_of!(raw, bindings::pci_dev, dev) };
            // SAFETY: `pci` is the `pci_dev` around `raw`; the driver core holds its device
            // lock for the call, so nothing else changes its power state.
            unsafe {
                bindings::pci_wake_from_d3(pci, wake);
                bindings::pci_set_power_state(pci, PCI_D3HOT);
            }
        }
    }

    fn suspend<'bound>(
        pdev: &'bound pci::Device<Core<'_>>,
        this: Pin<&Self::Data<'bound>>,
    ) -> Result {
        if this.state.load(Relaxed) == STATE_FAILED {
            return Ok(());
        }
        let before = this.state.xchg(STATE_SUSPENDED, Relaxed);
        this.reg.detach();
        let r = D::suspend(pdev, this.reg.device());
        if r.is_err() {
            // The PM core will not resume a device whose suspend failed: leave it usable.
            this.state.store(before, Relaxed);
            if before == STATE_RUNNING {
                let _ = this.reg.attach();
            }
        }
        r
    }

    fn resume<'bound>(
        pdev: &'bound pci::Device<Core<'_>>,
        this: Pin<&Self::Data<'bound>>,
    ) -> Result {
        if this.state.load(Relaxed) == STATE_FAILED {
            return Ok(());
        }
        D::resume(pdev, this.reg.device())?;
        this.reg.attach()?;
        this.state.store(STATE_RUNNING, Relaxed);
        Ok(())
    }

    /// After a non-fatal error the device still works: it goes on, as C network drivers do
    /// (a reset would cost the link and every queued frame). After a fatal one the interface
    /// is detached, as for system sleep, and a reset asked for; if the link is gone for good
    /// it stays detached. A suspended interface is left to its resume, which resets the
    /// device anyway.
    fn error_detected<'bound>(
        pdev: &'bound pci::Device<Core<'_>>,
        this: Pin<&Self::Data<'bound>>,
        state: pci::ChannelState,
    ) -> pci::ErsResult {
        match (this.state.load(Relaxed), state) {
            (STATE_FAILED, _) => return pci::ErsResult::Disconnect,
            (STATE_SUSPENDED, pci::ChannelState::PermFailure) => {
                this.state.store(STATE_FAILED, Relaxed);
                return pci::ErsResult::Disconnect;
            }
            (STATE_SUSPENDED, _) => return pci::ErsResult::CanRecover,
            (STATE_RUNNING, pci::ChannelState::Normal) => {
                dev_warn!(
                    pdev.as_ref(),
                    "non-fatal PCIe error: the interface keeps running\n"
                );
                return pci::ErsResult::CanRecover;
            }
            _ => (),
        }
        dev_warn!(
            pdev.as_ref(),
            "PCIe error ({:?}): interface detached\n",
            state
        );
        this.reg.detach();
        if state == pci::ChannelState::PermFailure {
            this.state.store(STATE_FAILED, Relaxed);
            return pci::ErsResult::Disconnect;
        }
        this.state.store(STATE_ERR_DETACHED, Relaxed);
        pci::ErsResult::NeedReset
    }

    /// Sets the function up again after the reset, as after system sleep
    /// ([`Driver::resume`]); the interface is attached in `error_resume`. The reset may also
    /// come for another device below the same link while this one kept running: then it is
    /// detached first.
    fn slot_reset<'bound>(
        pdev: &'bound pci::Device<Core<'_>>,
        this: Pin<&Self::Data<'bound>>,
    ) -> pci::ErsResult {
        match this.state.load(Relaxed) {
            STATE_FAILED => return pci::ErsResult::Disconnect,
            // Its resume sets it up.
            STATE_SUSPENDED => return pci::ErsResult::Recovered,
            STATE_RUNNING => {
                this.reg.detach();
                this.state.store(STATE_ERR_DETACHED, Relaxed);
            }
            _ => (),
        }
        pdev.restore_state();
        pdev.save_state();
        pdev.set_master();
        match D::resume(pdev, this.reg.device()) {
            Ok(()) => {
                dev_info!(pdev.as_ref(), "set up again after the reset\n");
                pci::ErsResult::Recovered
            }
            Err(e) => {
                dev_err!(pdev.as_ref(), "no recovery after the reset: {:?}\n", e);
                this.state.store(STATE_FAILED, Relaxed);
                pci::ErsResult::Disconnect
            }
        }
    }

    /// A reset the user asked for (e.g. `echo 1 > /sys/bus/pci/devices/.../reset`): the
    /// interface is detached before it and set up again and attached after it, as around
    /// system sleep.
    fn reset_prepare<'bound>(pdev: &'bound pci::Device<Core<'_>>, this: Pin<&Self::Data<'bound>>) {
        if this.state.load(Relaxed) != STATE_RUNNING {
            return;
        }
        dev_info!(pdev.as_ref(), "function reset: interface detached\n");
        this.reg.detach();
        this.state.store(STATE_ERR_DETACHED, Relaxed);
    }

    fn reset_done<'bound>(pdev: &'bound pci::Device<Core<'_>>, this: Pin<&Self::Data<'bound>>) {
        if this.state.load(Relaxed) != STATE_ERR_DETACHED {
            return;
        }
        if let Err(e) = D::resume(pdev, this.reg.device()) {
            dev_err!(pdev.as_ref(), "no recovery after the reset: {:?}\n", e);
            this.state.store(STATE_FAILED, Relaxed);
            return;
        }
        Self::attach_after(pdev, this, "the reset");
    }

    fn error_resume<'bound>(pdev: &'bound pci::Device<Core<'_>>, this: Pin<&Self::Data<'bound>>) {
        // Only an interface error recovery detached and set up again.
        if this.state.load(Relaxed) != STATE_ERR_DETACHED {
            return;
        }
        Self::attach_after(pdev, this, "error recovery");
    }

    fn sriov_configure<'bound>(
        pdev: &'bound pci::Device<Core<'_>>,
        this: Pin<&Self::Data<'bound>>,
        sriov: &pci::Sriov<'_>,
        num_vfs: u16,
    ) -> Result<u16> {
        // Not while the interface is detached for sleep or error recovery, or given up.
        if this.state.load(Relaxed) != STATE_RUNNING {
            return Err(EBUSY);
        }
        D::sriov_configure(pdev, this.reg.device(), sriov, num_vfs)
    }
}
