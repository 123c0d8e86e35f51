//! Contributed verifiers' benchmarks: the default rules of [`Benchmark`].

use super::Benchmark;

/// A benchmark with no module of its own (e.g. `toy`).
pub struct Generic;

impl Benchmark for Generic {
    fn name(&self) -> &'static str {
        "generic"
    }
}
