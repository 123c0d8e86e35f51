//! Per-run resource limits and their documented defaults.

use serde::{Deserialize, Serialize};
use std::time::Duration;

/// The resource budget of one verifier run.
///
/// Fuel is the verdict-relevant budget: it counts WebAssembly instructions, so
/// the same run exhausts it at the same point on every machine. The wall-clock
/// deadline is only a backstop against host-side stalls; hitting it yields the
/// (inherently machine-dependent) `timeout` outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Limits {
    /// Instruction budget (wasmtime fuel units).
    pub fuel: u64,
    /// Cap on the guest's linear memory, in bytes.
    pub memory_bytes: u64,
    /// Wall-clock deadline, in milliseconds.
    pub timeout_ms: u64,
    /// Cap on captured stdout and (separately) stderr, in bytes.
    pub max_output_bytes: u64,
    /// Cap on the payload handed to the guest on stdin, in bytes.
    pub max_payload_bytes: u64,
}

impl Limits {
    /// 5 billion fuel units: a few seconds of straight-line guest code.
    pub const DEFAULT_FUEL: u64 = 5_000_000_000;
    /// 256 MiB of linear memory.
    pub const DEFAULT_MEMORY_BYTES: u64 = 256 << 20;
    /// 10 seconds of wall clock.
    pub const DEFAULT_TIMEOUT_MS: u64 = 10_000;
    /// 64 KiB of stdout and 64 KiB of stderr.
    pub const DEFAULT_MAX_OUTPUT_BYTES: u64 = 64 << 10;
    /// 4 MiB of payload.
    pub const DEFAULT_MAX_PAYLOAD_BYTES: u64 = 4 << 20;

    /// The wall-clock deadline as a [`Duration`].
    pub fn timeout(&self) -> Duration {
        Duration::from_millis(self.timeout_ms)
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            fuel: Self::DEFAULT_FUEL,
            memory_bytes: Self::DEFAULT_MEMORY_BYTES,
            timeout_ms: Self::DEFAULT_TIMEOUT_MS,
            max_output_bytes: Self::DEFAULT_MAX_OUTPUT_BYTES,
            max_payload_bytes: Self::DEFAULT_MAX_PAYLOAD_BYTES,
        }
    }
}
