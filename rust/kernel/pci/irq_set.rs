// SPDX-License-Identifier: GPL-2.0

//! A set of PCI interrupt vectors together with their handlers.

use super::Device;
use crate::{
    bindings,
    device::Bound,
    irq::{self, IrqRequest},
    prelude::*,
};

/// `count` interrupt vectors of a PCI device, each with a registered handler `H`.
///
/// Unlike [`IrqVectorRegistration`](super::IrqVectorRegistration), the vectors and the handlers
/// are one object, so it can be stored in driver data without borrowing a sibling field.
/// Dropping it frees every handler (waiting for running ones) before the vectors.
///
/// # Invariants
///
/// The device has `handlers.len()` vectors allocated by this object, and `handlers[i]` is the
/// registration for vector `i`.
pub struct IrqSet<'a, H: irq::Handler + 'a> {
    dev: &'a Device<Bound>,
    handlers: KVec<Pin<KBox<irq::Registration<'a, H>>>>,
}

impl<'a, H: irq::Handler + 'a> IrqSet<'a, H> {
    /// Allocates exactly `count` MSI-X vectors and registers `init(i)` as the handler of
    /// vector `i`.
    pub fn new_msix<F, I>(
        dev: &'a Device<Bound>,
        count: u32,
        name: &'static CStr,
        mut init: F,
    ) -> Result<Self>
    where
        F: FnMut(u32) -> I,
        I: PinInit<H, Error> + 'a,
    {
        // SAFETY: `dev` is bound.
        let ret = unsafe {
            bindings::pci_alloc_irq_vectors(dev.as_raw(), count, count, bindings::PCI_IRQ_MSIX)
        };
        crate::error::to_result(ret)?;
        let mut this = Self {
            dev,
            handlers: KVec::new(),
        };
        this.handlers.reserve(count as usize, GFP_KERNEL)?;
        for i in 0..count {
            // SAFETY: `i < count` vectors were allocated above.
            let irq = unsafe { bindings::pci_irq_vector(dev.as_raw(), i) };
            if irq < 0 {
                return Err(Error::from_errno(irq));
            }
            // SAFETY: `irq` is vector `i` of `dev`, not requested yet.
            let request = unsafe { IrqRequest::new(dev.as_ref(), irq as u32) };
            let flags = irq::Flags::TRIGGER_NONE;
            // SAFETY: The registration is boxed and owned by `self`, which drops it before
            // freeing the vectors; it is never forgotten while its memory could be freed.
            let reg = unsafe { irq::Registration::new(request, flags, name, init(i)) };
            this.handlers
                .push(KBox::pin_init(reg, GFP_KERNEL)?, GFP_KERNEL)?;
        }
        Ok(this)
    }

    /// Number of vectors.
    pub fn len(&self) -> usize {
        self.handlers.len()
    }

    /// Whether there are no vectors.
    pub fn is_empty(&self) -> bool {
        self.handlers.is_empty()
    }

    /// The handler of vector `i`.
    pub fn handler(&self, i: usize) -> Option<&H> {
        self.handlers.get(i).map(|r| r.handler())
    }

    /// Waits for running handlers of every vector to finish.
    pub fn synchronize(&self) {
        for r in self.handlers.iter() {
            r.synchronize();
        }
    }
}

impl<H: irq::Handler> Drop for IrqSet<'_, H> {
    fn drop(&mut self) {
        // Free the handlers first: `free_irq` must run while the vectors exist.
        self.handlers.clear();
        // SAFETY: We allocated the vectors (type invariant); no handler uses them any more.
        unsafe { bindings::pci_free_irq_vectors(self.dev.as_raw()) };
    }
}
