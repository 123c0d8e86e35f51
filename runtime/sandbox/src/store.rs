//! Per-store state of one run: the guest's WASI context and a memory
//! limiter that records what it granted and denied.

use wasmtime::{ResourceLimiter, StoreLimits, StoreLimitsBuilder};
use wasmtime_wasi::p1::WasiP1Ctx;

/// Per-store state: the guest's WASI context and its memory limiter.
pub struct HostState {
    pub(crate) wasi: WasiP1Ctx,
    pub(crate) limiter: RecordingLimiter,
}

/// `StoreLimits` that remembers the first denied growth, so a guest that
/// aborts after a refused `memory.grow` is reported as `memory_exceeded`,
/// and the largest memory it granted.
pub(crate) struct RecordingLimiter {
    inner: StoreLimits,
    /// The first denied memory size, in bytes.
    pub(crate) denied: Option<usize>,
    /// The largest memory granted, in bytes.
    pub(crate) peak: usize,
}

impl RecordingLimiter {
    /// A limiter for one instance with one memory of at most `memory_cap` bytes.
    pub(crate) fn new(memory_cap: usize) -> Self {
        RecordingLimiter {
            inner: StoreLimitsBuilder::new()
                .memory_size(memory_cap)
                .instances(1)
                .memories(1)
                .tables(4)
                .build(),
            denied: None,
            peak: 0,
        }
    }
}

impl ResourceLimiter for RecordingLimiter {
    fn memory_growing(
        &mut self,
        current: usize,
        desired: usize,
        maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        let allowed = self.inner.memory_growing(current, desired, maximum)?;
        if allowed {
            self.peak = self.peak.max(desired);
        } else {
            self.denied.get_or_insert(desired);
        }
        Ok(allowed)
    }

    fn table_growing(
        &mut self,
        current: usize,
        desired: usize,
        maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        self.inner.table_growing(current, desired, maximum)
    }

    fn instances(&self) -> usize {
        self.inner.instances()
    }
    fn tables(&self) -> usize {
        self.inner.tables()
    }
    fn memories(&self) -> usize {
        self.inner.memories()
    }
}
