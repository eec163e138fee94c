// SPDX-License-Identifier: GPL-2.0

//! Microbenchmark of the page_pool recycle path, by the length it syncs.
//!
//! Binds an 82576 (through `driver_override`), creates a page pool on it exactly as igb_rust
//! does, and times `alloc` + recycle-with-length for several lengths. Run it with and without
//! `swiotlb=force`: with bounce buffering, a sync for the device is a real copy.
//!
//! Length 0 is what a driver passes for a buffer the device never wrote; with the page_pool
//! patch of this series that returns before any DMA call. The row `0-unpatched` adds, in
//! front of the same recycle, the zero-length sync for the device that page_pool did before
//! the patch: the difference between the two rows is what the early check saves. The other
//! lengths show that the non-zero path is not slower.

use kernel::{
    device::Core,
    net::page_pool::{Layout, PagePool, Params, PAGE_SIZE},
    pci,
    prelude::*,
    time::{Instant, Monotonic},
};

/// Recycles per timed batch.
const BATCH: u32 = 256;
/// Timed batches per length (the median is reported).
const ROUNDS: usize = 101;
/// Lengths timed.
const LENGTHS: [u32; 5] = [0, 1, 64, 1514, 2048];

struct PpBench;

kernel::pci_device_table!(
    PCI_TABLE,
    <PpBench as pci::Driver>::IdInfo,
    [(pci::DeviceId::from_id(pci::Vendor::INTEL, 0x10c9), ())]
);

/// Median nanoseconds per alloc + recycle of `len` bytes; with `unpatched`, each recycle
/// of length 0 is preceded by the zero-length sync the page_pool did before the patch.
fn time_len(
    pool: &mut PagePool<'_>,
    len: u32,
    unpatched: bool,
    samples: &mut KVec<u64>,
) -> Result<u64> {
    samples.clear();
    for _ in 0..ROUNDS {
        let t0 = Instant::<Monotonic>::now();
        for _ in 0..BATCH {
            let mut page = pool.alloc().ok_or(ENOMEM)?;
            if unpatched {
                page.sync_for_device(len);
            }
            page.release(len);
        }
        let ns = t0.elapsed().as_nanos();
        samples.push(u64::try_from(ns).unwrap_or(0), GFP_KERNEL)?;
    }
    samples.sort_unstable();
    let mid = samples.get(ROUNDS / 2).copied().unwrap_or(0);
    Ok(mid / u64::from(BATCH))
}

impl pci::Driver for PpBench {
    type IdInfo = ();
    type Data<'bound> = ();

    const ID_TABLE: pci::IdTable<Self::IdInfo> = &PCI_TABLE;

    fn probe<'bound>(
        pdev: &'bound pci::Device<Core<'_>>,
        _info: Option<&'bound Self::IdInfo>,
    ) -> impl PinInit<Self::Data<'bound>, Error> + 'bound {
        pdev.enable_device_mem()?;
        let mut pool = PagePool::new(
            pdev.as_ref(),
            &Params {
                pool_size: 256,
                // igb_rust's whole-page buffers: XDP's headroom, 2 KiB written.
                layout: Layout::new(PAGE_SIZE, 256, 2048).ok_or(EINVAL)?,
            },
        )?;
        let mut samples = KVec::with_capacity(ROUNDS, GFP_KERNEL)?;
        // Warm the pool and the caches.
        time_len(&mut pool, 2048, false, &mut samples)?;
        dev_info!(
            pdev,
            "pp_bench: len ns/recycle (median of {} x {})\n",
            ROUNDS,
            BATCH
        );
        let ns = time_len(&mut pool, 0, true, &mut samples)?;
        dev_info!(pdev, "pp_bench: 0-unpatched {:>6}\n", ns);
        for len in LENGTHS {
            let ns = time_len(&mut pool, len, false, &mut samples)?;
            dev_info!(pdev, "pp_bench: {:>5} {:>6}\n", len, ns);
        }
        dev_info!(pdev, "pp_bench: done\n");
        Ok(())
    }
}

kernel::module_pci_driver! {
    type: PpBench,
    name: "pp_bench",
    authors: ["igb_rust developers"],
    description: "page_pool recycle microbenchmark",
    license: "GPL v2",
}
