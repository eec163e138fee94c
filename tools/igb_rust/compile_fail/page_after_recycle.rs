// SPDX-License-Identifier: GPL-2.0
//! expect: E0382
//! Recycling consumes the page: reading it afterwards (dpaa2-eth beb1930f966d) does not build.

use kernel::{
    net::{napi::NapiContext, page_pool::Page},
    prelude::*,
};

module! {
    type: M,
    name: "cf",
    license: "GPL",
}

struct M;

#[allow(dead_code)]
fn rx(ctx: &NapiContext<'_>, mut page: Page) -> u8 {
    page.recycle(ctx, 64);
    page.sync_for_cpu(64).map_or(0, |d| d[0])
}

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}
