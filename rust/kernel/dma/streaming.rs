// SPDX-License-Identifier: GPL-2.0

//! Streaming DMA mappings of single buffers.
//!
//! A [`Mapping`] maps one CPU buffer for the device (`dma_map_single()`) and unmaps it when
//! dropped, so a mapping can neither leak nor be unmapped twice, and a mapping error is a
//! `Result`, never an address handed to the device.
//!
//! C header: [`include/linux/dma-mapping.h`](srctree/include/linux/dma-mapping.h).

use crate::{
    bindings, device,
    dma::{DataDirection, DmaAddress},
    prelude::*,
    sync::aref::ARef,
};

/// A streaming mapping of `len` bytes for `dir`.
///
/// # Invariants
///
/// `addr` is a live mapping of `len` bytes on `dev` in direction `dir`, unmapped on drop.
pub struct Mapping {
    dev: ARef<device::Device>,
    addr: DmaAddress,
    len: usize,
    dir: DataDirection,
}

impl Mapping {
    /// Maps `len` bytes at `ptr` for `dev`.
    ///
    /// # Safety
    ///
    /// `ptr..ptr + len` must stay valid, and must not be accessed by the CPU in a way that
    /// conflicts with `dir`, until the mapping is dropped.
    pub unsafe fn map_single(
        dev: &device::Device<device::Bound>,
        ptr: *const u8,
        len: usize,
        dir: DataDirection,
    ) -> Result<Self> {
        // SAFETY: Same requirements as this function's; `Drop` unmaps once.
        let addr = unsafe { map_single(dev, ptr, len, dir) }?;
        // INVARIANT: mapped above.
        Ok(Self {
            dev: dev.into(),
            addr,
            len,
            dir,
        })
    }

    /// The bus address to give the device.
    pub fn dma_addr(&self) -> DmaAddress {
        self.addr
    }

    /// Length of the mapping in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the mapping is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Drop for Mapping {
    fn drop(&mut self) {
        // SAFETY: `addr` is a live mapping on `dev` with these parameters (type invariant), and
        // it is not used again.
        unsafe { unmap_single(&self.dev, self.addr, self.len, self.dir) };
    }
}

/// Maps `len` bytes at `ptr` for `dev` (`dma_map_single()`) and returns the bus address: the
/// low-level half of [`Mapping`], for owners that keep the device reference elsewhere (such as
/// `net::tx::MapSlot`, which borrows it). A mapping error is `ENOMEM`.
///
/// # Safety
///
/// As for [`Mapping::map_single`], and the caller must unmap a successful mapping with
/// [`unmap_single`] exactly once.
// Always inlined: called once per transmitted frame, like `dma_map_single()` in C.
#[inline(always)]
pub unsafe fn map_single(
    dev: &device::Device<device::Bound>,
    ptr: *const u8,
    len: usize,
    dir: DataDirection,
) -> Result<DmaAddress> {
    // SAFETY: `dev` is bound; the buffer is valid per the safety requirements.
    let addr = unsafe {
        bindings::dma_map_single_attrs(dev.as_raw(), ptr.cast_mut().cast(), len, dir.into(), 0)
    };
    // SAFETY: `addr` was just returned for `dev`.
    if unsafe { bindings::dma_mapping_error(dev.as_raw(), addr) } != 0 {
        return Err(ENOMEM);
    }
    Ok(addr)
}

/// Undoes [`map_single`].
///
/// # Safety
///
/// `addr` must be a live mapping of `len` bytes on `dev` in direction `dir` from
/// [`map_single`], and must not be used afterwards.
#[inline]
pub unsafe fn unmap_single(dev: &device::Device, addr: DmaAddress, len: usize, dir: DataDirection) {
    // SAFETY: Per the safety requirements.
    unsafe { bindings::dma_unmap_single_attrs(dev.as_raw(), addr, len, dir.into(), 0) };
}

// SAFETY: The mapping is plain data plus a device reference; unmapping works from any CPU.
unsafe impl Send for Mapping {}
// SAFETY: `&Mapping` only reads plain data.
unsafe impl Sync for Mapping {}
