// SPDX-License-Identifier: GPL-2.0

//! PTP hardware clocks.
//!
//! A device with a clock of its own (a NIC's IEEE 1588 timer) implements [`Clock`] and
//! registers it with a [`Registration`]: the clock becomes `/dev/ptpN`, which user space reads,
//! sets and steers (`clock_gettime()`, `clock_adjtime()`, the `PTP_SYS_OFFSET*` ioctls) and
//! `ptp4l` or `phc2sys` discipline. Times are nanoseconds since the clock's epoch ([`Nanos`]).
//!
//! Clocks register only where the PTP core is built into the kernel (`PTP_1588_CLOCK=y`):
//! this crate is, and cannot call into a module. Elsewhere registering fails with
//! `EOPNOTSUPP`, as the C stubs make it fail without the PTP core.
//!
//! C header: [`include/linux/ptp_clock_kernel.h`](srctree/include/linux/ptp_clock_kernel.h).

use crate::{
    bindings, device,
    error::{from_err_ptr, from_result, VTABLE_DEFAULT_ERROR},
    ffi::{c_char, c_int, c_long, c_void},
    prelude::*,
    str::CStr,
    time::{Instant, Jiffies, RealTime},
    types::Opaque,
};
use core::{marker::PhantomData, ptr::NonNull};

/// The PTP core's calls, or, where it is not built in, what its C stubs do.
#[cfg(CONFIG_PTP_1588_CLOCK = "y")]
mod core_calls {
    pub(super) use crate::bindings::{
        ptp_cancel_worker_sync, ptp_clock_index, ptp_clock_register, ptp_clock_unregister,
        ptp_schedule_worker,
    };
}

/// The PTP core's calls, or, where it is not built in, what its C stubs do.
#[cfg(not(CONFIG_PTP_1588_CLOCK = "y"))]
#[allow(clippy::missing_safety_doc)]
mod core_calls {
    use crate::{
        bindings,
        ffi::{c_int, c_ulong},
    };

    pub(super) unsafe fn ptp_clock_register(
        _info: *mut bindings::ptp_clock_info,
        _parent: *mut bindings::device,
    ) -> *mut bindings::ptp_clock {
        core::ptr::null_mut()
    }
    pub(super) unsafe fn ptp_clock_unregister(_ptp: *mut bindings::ptp_clock) -> c_int {
        0
    }
    pub(super) unsafe fn ptp_clock_index(_ptp: *mut bindings::ptp_clock) -> c_int {
        -1
    }
    pub(super) unsafe fn ptp_schedule_worker(_ptp: *mut bindings::ptp_clock, _d: c_ulong) -> c_int {
        -(bindings::EOPNOTSUPP as c_int)
    }
    pub(super) unsafe fn ptp_cancel_worker_sync(_ptp: *mut bindings::ptp_clock) {}
}

/// A time on a clock in nanoseconds since its epoch, or a difference of two.
pub type Nanos = i64;

const NSEC_PER_SEC: i64 = 1_000_000_000;

/// The system's real time (`CLOCK_REALTIME`): where a clock may start.
#[inline]
pub fn real_time() -> Nanos {
    Instant::<RealTime>::now().as_nanos()
}

/// The readings of a system clock that [`Clock::gettimex`] takes right before and right after
/// it reads its own clock (`struct ptp_system_timestamp`), so that user space can tell the
/// offset between the two clocks (`PTP_SYS_OFFSET_EXTENDED`). For plain reads there is none
/// to take, and both methods do nothing.
///
/// # Invariants
///
/// `sts` is null or valid for writes for `'a`.
pub struct SystemTimestamps<'a> {
    sts: *mut bindings::ptp_system_timestamp,
    _p: PhantomData<&'a mut bindings::ptp_system_timestamp>,
}

impl SystemTimestamps<'static> {
    /// None to take: for a driver's own reads of its clock.
    #[inline]
    pub fn none() -> Self {
        // INVARIANT: null.
        Self {
            sts: core::ptr::null_mut(),
            _p: PhantomData,
        }
    }
}

impl SystemTimestamps<'_> {
    /// Takes the reading before the clock's.
    #[inline]
    pub fn pre(&mut self) {
        if let Some(sts) = NonNull::new(self.sts) {
            let sts = sts.as_ptr();
            // SAFETY: `sts` is valid for writes (type invariant); `clockid` is the one the core
            // asked for.
            unsafe { bindings::ktime_get_snapshot_id((*sts).clockid, &raw mut (*sts).pre_sts) };
        }
    }

    /// Takes the reading after the clock's.
    #[inline]
    pub fn post(&mut self) {
        if let Some(sts) = NonNull::new(self.sts) {
            let sts = sts.as_ptr();
            // SAFETY: As in `pre`.
            unsafe { bindings::ktime_get_snapshot_id((*sts).clockid, &raw mut (*sts).post_sts) };
        }
    }
}

/// A PTP hardware clock.
///
/// The callbacks run in process context (the clock's character device, the POSIX clock
/// calls, the clock's worker), possibly at the same time on several CPUs, from when the
/// clock is registered until its [`Registration`] is dropped. Errors reach user space as they
/// are.
#[vtable]
pub trait Clock: Sync {
    /// Reads the clock, calling [`SystemTimestamps::pre`] right before and
    /// [`SystemTimestamps::post`] right after the access that latches its time (a clock that
    /// does not leaves user space zero readings).
    fn gettimex(&self, sts: &mut SystemTimestamps<'_>) -> Result<Nanos>;

    /// Sets the clock to `time` (at least 0: the core refuses earlier times).
    fn settime(&self, time: Nanos) -> Result;

    /// Moves the clock by `delta`, forward if positive.
    fn adjtime(&self, delta: Nanos) -> Result;

    /// Makes the clock run faster by `scaled_ppm` parts per million with a 16-bit fraction
    /// (slower if negative) than its nominal frequency. The core checks the request against
    /// the registration's `max_adj` parts per billion before it narrows it to a `c_long`: on
    /// 32-bit systems the value passed can be any, which the clock must check itself.
    fn adjfine(&self, scaled_ppm: c_long) -> Result;

    /// Periodic work in the clock's worker thread (e.g. reading a counter before it wraps):
    /// first run right after registration, then again after the number of jiffies it returns,
    /// or never again for `None`.
    fn aux_work(&self) -> Option<Jiffies> {
        build_error!(VTABLE_DEFAULT_ERROR)
    }
}

/// How a [`Clock`] of data `T` is registered: its name and the largest frequency adjustment
/// it takes. It names `T` without requiring [`Clock`] of it, so that a framework registering
/// a driver's clock for it (a network device's, from its configuration) can hold one for any
/// driver; only [`ClockInfo::new`] does. It is invariant in `T`: one made for data of a
/// longer lifetime cannot register data of a shorter one.
///
/// # Invariants
///
/// `register` is [`Registration::<T>::new_erased`], for a `T` that implements [`Clock`];
/// `max_adj` is not negative.
pub struct ClockInfo<T> {
    name: &'static CStr,
    max_adj: i32,
    register: RegisterFn<T>,
    _invariant: PhantomData<fn(T) -> T>,
}

/// [`Registration::new`] for the clock of a [`ClockInfo`], its data type erased.
type RegisterFn<T> = unsafe fn(
    &ClockInfo<T>,
    NonNull<T>,
    &device::Device<device::Bound>,
) -> Result<ErasedRegistration>;

impl<T: Clock> ClockInfo<T> {
    /// A clock named `name` (at most 31 bytes; longer names are cut) that takes frequency
    /// adjustments of up to `max_adj` parts per billion (a negative value counts as 0).
    pub const fn new(name: &'static CStr, max_adj: i32) -> Self {
        // INVARIANT: `T: Clock`; `max_adj` at least 0.
        Self {
            name,
            max_adj: if max_adj < 0 { 0 } else { max_adj },
            register: Registration::<T>::new_erased,
            _invariant: PhantomData,
        }
    }
}

impl<T> ClockInfo<T> {
    /// Registers the clock, as [`Registration::new`] does.
    ///
    /// # Safety
    ///
    /// As for [`Registration::new`].
    pub unsafe fn register(
        &self,
        data: NonNull<T>,
        parent: &device::Device<device::Bound>,
    ) -> Result<ErasedRegistration> {
        // SAFETY: As the caller guarantees; `register` is `Registration::<T>::new_erased` for
        // a `T` that implements `Clock` (type invariant).
        unsafe { (self.register)(self, data, parent) }
    }
}

impl<T> Clone for ClockInfo<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for ClockInfo<T> {}

/// A [`Registration`] whose data type is erased: dropping it unregisters the clock.
///
/// # Invariants
///
/// `reg` is a `Pin<KBox<Registration<T>>>` turned into a raw pointer, and `drop_reg` the
/// function that turns it back and drops it, for the same `T`; `clock` is that
/// registration's clock, and `aux` whether `T` has [`Clock::aux_work`].
pub struct ErasedRegistration {
    reg: NonNull<c_void>,
    clock: NonNull<bindings::ptp_clock>,
    index: i32,
    aux: bool,
    drop_reg: unsafe fn(NonNull<c_void>),
}

// SAFETY: It only drops the registration, which is `Send`.
unsafe impl Send for ErasedRegistration {}

// SAFETY: Shared, it reads `index` and stops or starts the clock's worker, which the PTP
// core allows from any task.
unsafe impl Sync for ErasedRegistration {}

impl ErasedRegistration {
    /// The clock's index, as [`Registration::index`] gives it.
    pub fn index(&self) -> i32 {
        self.index
    }

    /// Stops the clock's worker and waits for it, e.g. before its device is put to sleep or
    /// reset, when it must not touch the device; [`ErasedRegistration::resume_aux_work`] starts
    /// it again. Nothing for a clock without one. May sleep.
    pub fn pause_aux_work(&self) {
        if self.aux {
            // SAFETY: `clock` is registered (type invariant).
            unsafe { core_calls::ptp_cancel_worker_sync(self.clock.as_ptr()) };
        }
    }

    /// Runs the clock's worker again, at once.
    pub fn resume_aux_work(&self) {
        if self.aux {
            // SAFETY: `clock` is registered (type invariant). The result only says whether the
            // work was queued already.
            unsafe { core_calls::ptp_schedule_worker(self.clock.as_ptr(), 0) };
        }
    }
}

impl Drop for ErasedRegistration {
    fn drop(&mut self) {
        // SAFETY: `drop_reg` matches `reg` (type invariant), which is dropped once, here.
        unsafe { (self.drop_reg)(self.reg) };
    }
}

/// A registered PTP hardware clock whose callbacks call `T`'s [`Clock`] methods on `data`.
/// Dropping it unregisters the clock, after which no callback runs.
///
/// # Invariants
///
/// - `info` holds this module's callbacks for `T`, and `clock` is what
///   `ptp_clock_register()` returned for it, registered until the registration is dropped.
/// - `data` is valid for shared access for as long as the clock is registered.
#[pin_data(PinnedDrop)]
pub struct Registration<T: Clock> {
    #[pin]
    info: Opaque<bindings::ptp_clock_info>,
    clock: NonNull<bindings::ptp_clock>,
    data: NonNull<T>,
}

// SAFETY: The registration only unregisters the clock when dropped, which any thread may do;
// the callbacks share `data` across threads, which `T: Sync` (`Clock`) allows.
unsafe impl<T: Clock> Send for Registration<T> {}

// SAFETY: Shared, the registration only reads the clock's index.
unsafe impl<T: Clock> Sync for Registration<T> {}

impl<T: Clock> Registration<T> {
    /// Registers a clock as `info` says, whose callbacks use `data`, as a child of `parent`;
    /// its worker, if `T` has [`Clock::aux_work`], runs at once.
    ///
    /// # Safety
    ///
    /// `data` must stay valid for shared access until the registration is dropped, and the
    /// registration must be dropped (not forgotten) before anything `data` refers to ends and
    /// before the module that implements `T`'s [`Clock`] is unloaded: the callbacks run until
    /// then. It must not be dropped from one of the clock's own callbacks (unregistering
    /// waits for them).
    pub unsafe fn new(
        info: &ClockInfo<T>,
        data: NonNull<T>,
        parent: &device::Device<device::Bound>,
    ) -> Result<Pin<KBox<Self>>> {
        let mut raw = bindings::ptp_clock_info::default();
        let name = info.name.to_bytes();
        let n = name.len().min(raw.name.len() - 1);
        for (d, s) in raw.name.iter_mut().zip(&name[..n]) {
            *d = *s as c_char;
        }
        raw.max_adj = info.max_adj;
        // `owner` stays NULL: only the PPS source, which this module does not offer, uses it.
        raw.adjfine = Some(adjfine::<T>);
        raw.adjtime = Some(adjtime::<T>);
        raw.gettimex64 = Some(gettimex64::<T>);
        raw.settime64 = Some(settime64::<T>);
        if T::HAS_AUX_WORK {
            raw.do_aux_work = Some(do_aux_work::<T>);
        }
        let parent = parent.as_raw();
        // SAFETY: On success every field is initialised; on failure nothing needs dropping
        // (the fields are plain data), the clock is not registered, and the registration is
        // never dropped (`drop` only runs for a registered clock). Once the clock is
        // registered its callbacks may run at once; they reach `data` through raw pointers
        // only, so the writes of the other fields here do not conflict with them.
        let init = unsafe {
            pin_init::pin_init_from_closure(move |slot: *mut Self| -> Result {
                let info = Opaque::cast_into(&raw const (*slot).info);
                info.write(raw);
                (&raw mut (*slot).data).write(data);
                // `info` is pinned in `slot`, which stays allocated until after `drop` has
                // unregistered the clock; `parent` is a bound device.
                let clock = from_err_ptr(core_calls::ptp_clock_register(info, parent))?;
                // Null without PTP support in the kernel.
                let clock = NonNull::new(clock).ok_or(EOPNOTSUPP)?;
                // INVARIANT: the clock of `info`, registered until `drop`; `data` as the
                // caller guarantees.
                (&raw mut (*slot).clock).write(clock);
                Ok(())
            })
        };
        let reg = KBox::pin_init(init, GFP_KERNEL)?;
        if T::HAS_AUX_WORK {
            // SAFETY: `clock` is registered (type invariant). The result only says whether the
            // work was queued already, which it cannot be.
            unsafe { core_calls::ptp_schedule_worker(reg.clock.as_ptr(), 0) };
        }
        Ok(reg)
    }

    /// [`Registration::new`], the result's data type erased.
    ///
    /// # Safety
    ///
    /// As for [`Registration::new`].
    unsafe fn new_erased(
        info: &ClockInfo<T>,
        data: NonNull<T>,
        parent: &device::Device<device::Bound>,
    ) -> Result<ErasedRegistration> {
        // SAFETY: As the caller guarantees.
        let reg = unsafe { Self::new(info, data, parent) }?;
        let (index, clock) = (reg.index(), reg.clock);
        // SAFETY: The box is turned back into a pinned box by `drop_erased`, and only dropped
        // there: it never moves.
        let raw = KBox::into_raw(unsafe { Pin::into_inner_unchecked(reg) });
        // INVARIANT: `drop_erased::<T>` turns `raw` back into the box of a `Registration<T>`.
        Ok(ErasedRegistration {
            // SAFETY: A box's pointer is not null.
            reg: unsafe { NonNull::new_unchecked(raw.cast()) },
            clock,
            index,
            aux: T::HAS_AUX_WORK,
            drop_reg: Self::drop_erased,
        })
    }

    /// Drops the registration whose box `reg` is.
    ///
    /// # Safety
    ///
    /// `reg` must be the raw pointer of the box of a `Registration<T>`, not used again.
    unsafe fn drop_erased(reg: NonNull<c_void>) {
        // SAFETY: `reg` is the box of a `Registration<T>` (safety requirement), which is
        // dropped in place: it was pinned, and still does not move.
        drop(unsafe { KBox::from_raw(reg.as_ptr().cast::<Self>()) });
    }

    /// The clock's index: it is `/dev/ptp<index>`, and `ethtool -T` reports it.
    pub fn index(&self) -> i32 {
        // SAFETY: `clock` is registered (type invariant).
        unsafe { core_calls::ptp_clock_index(self.clock.as_ptr()) }
    }
}

#[pinned_drop]
impl<T: Clock> PinnedDrop for Registration<T> {
    fn drop(self: Pin<&mut Self>) {
        // SAFETY: `clock` is registered (type invariant) and unregistered once, here. When it
        // returns, no callback runs and the worker is stopped.
        unsafe { core_calls::ptp_clock_unregister(self.clock.as_ptr()) };
    }
}

/// The data of the clock whose `info` the core passes.
///
/// # Safety
///
/// `info` must be the `info` of a [`Registration<T>`] whose clock is registered.
unsafe fn data<'a, T: Clock>(info: *mut bindings::ptp_clock_info) -> &'a T {
    let info = info.cast::<Opaque<bindings::ptp_clock_info>>();
    // SAFETY: `info` is the `info` field of a `Registration<T>` (safety requirement).
    let reg = unsafe { crate::container_of!(info, Registration<T>, info) };
    // SAFETY: `data` was written before the clock was registered and does not change; it is
    // read through the pointer, without a reference to the registration, whose other fields
    // its owner may be writing.
    let data = unsafe { (*reg).data };
    // SAFETY: `data` is valid while the clock is registered (type invariant), which it is
    // for the callback's duration (safety requirement).
    unsafe { data.as_ref() }
}

/// Nanoseconds as a `timespec64`.
fn to_timespec(ns: Nanos) -> bindings::timespec64 {
    bindings::timespec64 {
        tv_sec: ns.div_euclid(NSEC_PER_SEC),
        tv_nsec: ns.rem_euclid(NSEC_PER_SEC) as c_long,
    }
}

/// # Safety
///
/// Only the PTP core calls this, with the `info` of a registered [`Registration<T>`] and
/// pointer arguments valid for the call.
unsafe extern "C" fn gettimex64<T: Clock>(
    info: *mut bindings::ptp_clock_info,
    ts: *mut bindings::timespec64,
    sts: *mut bindings::ptp_system_timestamp,
) -> c_int {
    // SAFETY: The core calls back with the `info` of a registered clock.
    let this = unsafe { data::<T>(info) };
    // INVARIANT: the core passes null or a timestamp valid for writes for the call.
    let mut sts = SystemTimestamps {
        sts,
        _p: PhantomData,
    };
    from_result(|| {
        let ns = T::gettimex(this, &mut sts)?;
        // SAFETY: The core passes a `ts` valid for writes.
        unsafe { ts.write(to_timespec(ns)) };
        Ok(0)
    })
}

/// # Safety
///
/// Only the PTP core calls this, with the `info` of a registered [`Registration<T>`] and
/// pointer arguments valid for the call.
unsafe extern "C" fn settime64<T: Clock>(
    info: *mut bindings::ptp_clock_info,
    ts: *const bindings::timespec64,
) -> c_int {
    // SAFETY: The core calls back with the `info` of a registered clock.
    let this = unsafe { data::<T>(info) };
    // SAFETY: The core passes a valid `ts`.
    let ts = unsafe { ts.read() };
    // The core checks the time (`timespec64_valid_settod()`), but the range is the clock's.
    from_result(|| {
        let ns = ts
            .tv_sec
            .checked_mul(NSEC_PER_SEC)
            .and_then(|s| s.checked_add(ts.tv_nsec as i64))
            .filter(|ns| *ns >= 0)
            .ok_or(ERANGE)?;
        T::settime(this, ns)?;
        Ok(0)
    })
}

/// # Safety
///
/// Only the PTP core calls this, with the `info` of a registered [`Registration<T>`] and
/// pointer arguments valid for the call.
unsafe extern "C" fn adjtime<T: Clock>(info: *mut bindings::ptp_clock_info, delta: i64) -> c_int {
    // SAFETY: The core calls back with the `info` of a registered clock.
    let this = unsafe { data::<T>(info) };
    from_result(|| T::adjtime(this, delta).map(|()| 0))
}

/// # Safety
///
/// Only the PTP core calls this, with the `info` of a registered [`Registration<T>`] and
/// pointer arguments valid for the call.
unsafe extern "C" fn adjfine<T: Clock>(
    info: *mut bindings::ptp_clock_info,
    scaled_ppm: c_long,
) -> c_int {
    // SAFETY: The core calls back with the `info` of a registered clock.
    let this = unsafe { data::<T>(info) };
    from_result(|| T::adjfine(this, scaled_ppm).map(|()| 0))
}

/// # Safety
///
/// Only the PTP core calls this, with the `info` of a registered [`Registration<T>`] and
/// pointer arguments valid for the call.
unsafe extern "C" fn do_aux_work<T: Clock>(info: *mut bindings::ptp_clock_info) -> c_long {
    // SAFETY: The core calls back with the `info` of a registered clock.
    let this = unsafe { data::<T>(info) };
    match T::aux_work(this) {
        // A negative delay stops the worker; a longer one than that is years.
        Some(delay) => delay.min(c_long::MAX as Jiffies) as c_long,
        None => -1,
    }
}
