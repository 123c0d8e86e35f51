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

/// Limits a caller gives in human units (a command line's flags, a Python
/// call's keywords); each one given replaces the base limit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LimitOverrides {
    /// Fuel units.
    pub fuel: Option<u64>,
    /// Linear-memory cap in MiB.
    pub memory_mb: Option<u64>,
    /// Wall-clock deadline in milliseconds.
    pub timeout_ms: Option<u64>,
    /// Cap on captured stdout and on captured stderr, in KiB each.
    pub max_output_kb: Option<u64>,
    /// Cap on the payload, in KiB.
    pub max_payload_kb: Option<u64>,
}

impl LimitOverrides {
    /// `base` with the limits given here applied.
    pub fn apply(&self, base: Limits) -> Limits {
        let mib = |v: u64| v.saturating_mul(1 << 20);
        let kib = |v: u64| v.saturating_mul(1 << 10);
        Limits {
            fuel: self.fuel.unwrap_or(base.fuel),
            memory_bytes: self.memory_mb.map_or(base.memory_bytes, mib),
            timeout_ms: self.timeout_ms.unwrap_or(base.timeout_ms),
            max_output_bytes: self.max_output_kb.map_or(base.max_output_bytes, kib),
            max_payload_bytes: self.max_payload_kb.map_or(base.max_payload_bytes, kib),
        }
    }
}
