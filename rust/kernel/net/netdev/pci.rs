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
    irq::IrqRequest,
    net::netdev::{Config, Device, NapiInit, Operations, Registration},
    pci,
    prelude::*,
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
}

/// The PCI driver data of an [`Adapter`]: the registration, then the vectors its interrupt
/// handlers use (dropped in that order).
///
/// # Invariants
///
/// The interrupt lines of `reg` are vectors of `vectors`.
pub struct NetData<'bound, T: Operations> {
    reg: Registration<T>,
    _vectors: Option<pci::IrqVectorRegistration<'bound>>,
}

/// Registers the interface of a PCI function being probed; handed to [`Driver::probe`].
pub struct Registrar<'bound, 's, T: Operations> {
    pdev: &'bound pci::Device<Bound>,
    slot: &'s mut Option<NetData<'bound, T>>,
}

/// Proof that [`Registrar::register`] succeeded.
pub struct Registered(());

impl<'bound, T: Operations + 'bound> Registrar<'bound, '_, T> {
    /// Allocates `msix_vectors` MSI-X vectors (none if 0), then allocates the interface with
    /// `napis` NAPI instances made by `napi_init(i)`, initialises its private data with
    /// `init`, requests one handler per vector (calling [`Operations::handle_irq`] with the
    /// vector's index) and registers the interface with `config`. Everything is undone when
    /// the function is unbound.
    #[allow(clippy::too_many_arguments)]
    pub fn register<I>(
        self,
        txqs: u32,
        rxqs: u32,
        msix_vectors: u32,
        config: &Config<T>,
        napis: u32,
        napi_init: &mut NapiInit<'_, T, I>,
        init: impl PinInit<T, Error>,
    ) -> Result<Registered>
    where
        I: PinInit<T::Poll, Error>,
    {
        let vectors = match msix_vectors {
            0 => None,
            n => Some(self.pdev.alloc_irq_vectors(
                n,
                n,
                pci::IrqTypes::default().with(pci::IrqType::MsiX),
            )?),
        };
        let mut irqs = KVec::with_capacity(msix_vectors as usize, GFP_KERNEL)?;
        if let Some(v) = &vectors {
            for i in 0..v.len() {
                irqs.push(IrqRequest::from(v.index(i)?).irq(), GFP_KERNEL)?;
            }
        }
        // SAFETY: The registration goes into `self.slot`, which `Adapter::probe` turns into the
        // PCI driver data of `pdev`: the PCI core keeps that pinned and drops it when the
        // function is unbound, before anything of `'bound` ends and before the driver's module
        // can go, and never forgets it; the driver has no access to it. The lines are MSI-X
        // vectors of `pdev`, kept allocated by `vectors`, which `NetData` drops after the
        // registration.
        let reg = unsafe {
            Registration::new_with_lt(
                self.pdev.as_ref(),
                txqs,
                rxqs,
                config,
                &irqs,
                napis,
                napi_init,
                init,
            )?
        };
        // INVARIANT: the lines of `reg` come from `vectors`.
        *self.slot = Some(NetData {
            reg,
            _vectors: vectors,
        });
        Ok(Registered(()))
    }
}

/// The PCI driver of a network [`Driver`] `D`: pass `Adapter<D>` as the `type` of
/// [`module_pci_driver!`](crate::module_pci_driver).
pub struct Adapter<D: Driver>(PhantomData<D>);

impl<D: Driver> pci::Driver for Adapter<D> {
    type IdInfo = D::IdInfo;
    type Data<'bound> = NetData<'bound, D::Net<'bound>>;

    const ID_TABLE: pci::IdTable<Self::IdInfo> = D::ID_TABLE;

    fn probe<'bound>(
        pdev: &'bound pci::Device<Core<'_>>,
        id_info: Option<&'bound Self::IdInfo>,
    ) -> impl PinInit<Self::Data<'bound>, Error> + 'bound {
        let bound: &'bound pci::Device<Bound> = pdev;
        let mut slot = None;
        D::probe(
            pdev,
            id_info,
            Registrar {
                pdev: bound,
                slot: &mut slot,
            },
        )?;
        let data = slot.ok_or(EINVAL)?;
        D::registered(pdev, data.reg.device());
        Ok(data)
    }
}
