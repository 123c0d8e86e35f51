//! The outcome vocabulary and the report produced by every run.

use crate::protocol::Protocol;
use serde::{Deserialize, Serialize};
use std::fmt;

/// How a run ended. Every run yields exactly one outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The verifier accepted the payload.
    Pass,
    /// The verifier ran to completion and rejected the payload.
    Fail,
    /// The guest trapped (panic, `unreachable`, stack overflow, bad access...).
    Trap,
    /// The guest used up its fuel (instruction budget).
    FuelExhausted,
    /// The guest asked for more memory than its cap and then failed.
    MemoryExceeded,
    /// The wall-clock deadline passed.
    Timeout,
    /// The guest wrote more stdout or stderr than its cap.
    OutputOverflow,
    /// The guest exited with a non-zero status.
    ExitNonzero,
    /// The module was refused before it ran (bad bytes, foreign imports, no `_start`).
    InvalidModule,
    /// The payload was larger than the payload cap; the guest never ran.
    PayloadTooLarge,
    /// The guest exited normally but its output does not follow the protocol.
    ProtocolError,
}

impl Outcome {
    /// Every outcome, in documentation order.
    pub const ALL: [Outcome; 11] = [
        Outcome::Pass,
        Outcome::Fail,
        Outcome::Trap,
        Outcome::FuelExhausted,
        Outcome::MemoryExceeded,
        Outcome::Timeout,
        Outcome::OutputOverflow,
        Outcome::ExitNonzero,
        Outcome::InvalidModule,
        Outcome::PayloadTooLarge,
        Outcome::ProtocolError,
    ];

    /// The outcome's spelling in reports, e.g. `fuel_exhausted`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Fail => "fail",
            Outcome::Trap => "trap",
            Outcome::FuelExhausted => "fuel_exhausted",
            Outcome::MemoryExceeded => "memory_exceeded",
            Outcome::Timeout => "timeout",
            Outcome::OutputOverflow => "output_overflow",
            Outcome::ExitNonzero => "exit_nonzero",
            Outcome::InvalidModule => "invalid_module",
            Outcome::PayloadTooLarge => "payload_too_large",
            Outcome::ProtocolError => "protocol_error",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Everything known about one run.
///
/// All fields but `wall_ms` are a deterministic function of the module, the
/// payload, the item directory and the limits (a `timeout` outcome excepted).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunReport {
    /// How the run ended.
    pub outcome: Outcome,
    /// `true` iff `outcome` is `pass`.
    pub passed: bool,
    /// Score in [0, 1]: the verifier's own for `verdict-json`, 1 or 0 otherwise.
    pub score: f64,
    /// Why the run ended the way it did, in one line where possible.
    pub message: String,
    /// Structured details a `verdict-json` verifier attached to its verdict.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub details: Option<serde_json::Value>,
    /// The protocol the output was judged by.
    pub protocol: Protocol,
    /// Fuel units the guest consumed.
    pub fuel_consumed: u64,
    /// Largest linear memory the guest had, in bytes.
    pub memory_bytes: u64,
    /// The guest's exit status, when it exited through `proc_exit`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    /// Wall-clock time of instantiation plus execution, in milliseconds.
    pub wall_ms: f64,
    /// sha256 of the module's bytes, lowercase hex.
    pub module_sha256: String,
    /// Captured stdout (at most the output cap; invalid UTF-8 replaced).
    pub stdout: String,
    /// Captured stderr (at most the output cap; invalid UTF-8 replaced).
    pub stderr: String,
}
