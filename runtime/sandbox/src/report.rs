//! The report of every run.

use serde::{Deserialize, Serialize};
use verigate_contract::{Outcome, Protocol};

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
    /// sha256 of the script the module ran, for an interpreter module.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script_sha256: Option<String>,
    /// Captured stdout (at most the output cap; invalid UTF-8 replaced).
    pub stdout: String,
    /// Captured stderr (at most the output cap; invalid UTF-8 replaced).
    pub stderr: String,
}

impl RunReport {
    /// A report of a run that did not get to execute: `outcome`, no output,
    /// nothing consumed.
    pub fn empty(outcome: Outcome, protocol: Protocol, module_sha256: &str) -> Self {
        RunReport {
            outcome,
            passed: false,
            score: 0.0,
            message: String::new(),
            details: None,
            protocol,
            fuel_consumed: 0,
            memory_bytes: 0,
            exit_code: None,
            wall_ms: 0.0,
            module_sha256: module_sha256.to_owned(),
            script_sha256: None,
            stdout: String::new(),
            stderr: String::new(),
        }
    }
}
