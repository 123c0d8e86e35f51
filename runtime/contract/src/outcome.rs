//! The outcome vocabulary: how every run ends.

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
