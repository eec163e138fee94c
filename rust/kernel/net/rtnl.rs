// SPDX-License-Identifier: GPL-2.0

//! The routing netlink lock (RTNL), as a token.
//!
//! The networking core calls most of a net_device's callbacks with RTNL held; an [`Rtnl`]
//! token stands for that lock, so that what may only be done under it (enabling a NAPI
//! instance, replacing an XDP program, changing a device's configuration) takes the token and
//! cannot be done from any other context.
//!
//! C header: [`include/linux/rtnetlink.h`](srctree/include/linux/rtnetlink.h).

use crate::{bindings, types::NotThreadSafe};

/// Proof that the RTNL lock is held.
///
/// Only the callbacks the networking core calls under RTNL receive one (as `&mut Rtnl`), and
/// [`Rtnl::with_lock`] while it holds the lock; functions that need the lock take `&Rtnl`, so
/// calling them from any other context does not compile. Functions that must keep others from
/// running under the same lock hold, such as the NAPI module's `Napi::with_state`, borrow it
/// mutably.
///
/// # Invariants
///
/// The RTNL lock is held for as long as the token exists.
pub struct Rtnl(NotThreadSafe);

impl Rtnl {
    /// Takes the RTNL lock, runs `f` with the token, and releases the lock (`rtnl_lock()`,
    /// `rtnl_unlock()`).
    ///
    /// May sleep: calling it from atomic context, or with RTNL held (it is not recursive, so
    /// e.g. from a callback that got a token), is a bug (a deadlock), though not a
    /// memory-safety one: no second token can exist while the lock is held.
    #[inline]
    pub fn with_lock<R>(f: impl FnOnce(&mut Rtnl) -> R) -> R {
        // SAFETY: `rtnl_lock()` has no memory-safety precondition (see the doc above for its
        // context rules).
        unsafe { bindings::rtnl_lock() };
        let r = {
            // SAFETY: Held until after the token is dropped at the end of this block.
            let mut rtnl = unsafe { Rtnl::assume_held() };
            f(&mut rtnl)
        };
        // SAFETY: Taken above; the token is gone.
        unsafe { bindings::rtnl_unlock() };
        r
    }

    /// # Safety
    ///
    /// The caller must hold the RTNL lock for the lifetime of the returned value.
    #[inline]
    pub(crate) unsafe fn assume_held() -> Self {
        // INVARIANT: per the safety requirements.
        Rtnl(NotThreadSafe)
    }
}
