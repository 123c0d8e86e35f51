//! The lines `grade` reads and writes.

use crate::benchmark::combench::{ExtractError, ProofScore};
use serde::{Deserialize, Serialize};
use std::fmt;
use verigate_registry::ItemKind;
use verigate_sandbox::Outcome;

/// One input line: a model's raw response to an item. Other fields are ignored.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ResponseLine {
    /// Registry item id.
    pub id: String,
    /// Sample index or label (several samples per item are usual).
    pub sample: serde_json::Value,
    /// The raw model output.
    pub response: String,
}

/// What happened to a response's construction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum GradeOutcome {
    /// The verifier ran (or was refused) with this outcome.
    Run(Outcome),
    /// The response's format yielded no payload; the verifier did not run.
    Extract(ExtractError),
    /// The item has no verifier (analysis-centric): `no_verifier`.
    NoVerifier(NoVerifier),
}

/// The outcome of a response to an item without a verifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NoVerifier {
    /// Spelled `no_verifier`.
    NoVerifier,
}

impl fmt::Display for GradeOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GradeOutcome::Run(outcome) => outcome.fmt(f),
            GradeOutcome::Extract(error) => error.fmt(f),
            GradeOutcome::NoVerifier(_) => f.write_str("no_verifier"),
        }
    }
}

/// Why a proof-judged response has the proof score it has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProofStatus {
    /// A judgment gave a score.
    Judged,
    /// No judgment names this (id, sample): unscored.
    NoJudgment,
    /// The judge's output holds no single valid `<points>N out of 7</points>`: unscored.
    UnparsableJudgment,
    /// The response's sections do not parse, so its proof is not judged: unscored.
    NotJudged,
}

/// One output line: the grade of one response, with everything needed to
/// reproduce it. Deterministic: no timings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GradeRecord {
    /// Registry item id.
    pub id: String,
    /// The response's sample.
    pub sample: serde_json::Value,
    /// The item's benchmark.
    pub benchmark: String,
    /// Analysis-centric or construction-centric.
    #[serde(rename = "type")]
    pub kind: ItemKind,
    /// The item's category, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// The verifier's outcome, or why it did not run.
    pub outcome: GradeOutcome,
    /// The verifier's message, or what went wrong.
    pub message: String,
    /// The verifier's structured details (`verdict-json`), when it gave any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub details: Option<serde_json::Value>,
    /// 1 when the verifier accepted the construction, else 0; null without a verifier.
    pub construction: Option<u8>,
    /// The judged proof score (0, 1, 6 or 7); null when unscored or not proof-judged.
    pub proof: Option<ProofScore>,
    /// Why `proof` is what it is; absent for benchmarks without proof judging.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof_status: Option<ProofStatus>,
    /// The item's score out of 7: the verifier-gated score for construction
    /// items, the proof score for analysis items; null when unscored or not proof-judged.
    pub gated: Option<ProofScore>,
    /// The normalised score in [0, 1] that metrics average: `gated / 7` for
    /// proof-judged benchmarks (0 when unscored), else the verifier's score.
    pub score: f64,
    /// Fuel the verifier used (0 when it did not run).
    pub fuel_consumed: u64,
    /// Verifier name; absent without a verifier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub module: Option<String>,
    /// sha256 of the verifier module; absent when no module ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub module_sha256: Option<String>,
    /// sha256 of the script the module ran, for a Python verifier (run by
    /// the shared interpreter module `module_sha256` names).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script_sha256: Option<String>,
    /// sha256 of the response text graded, so a resumed run can tell a
    /// result that no longer belongs to its response.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_sha256: Option<String>,
    /// Digest of the registry the item came from.
    pub registry_digest: String,
    /// verigate version.
    pub verigate_version: String,
    /// Engine configuration fingerprint.
    pub engine_fingerprint: String,
}

impl GradeRecord {
    /// Whether the response fully solved its item (a score of 1).
    pub fn solved(&self) -> bool {
        self.score >= 1.0
    }
}
