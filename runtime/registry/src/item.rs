//! One benchmark item: which verifier checks it, under which limits, with
//! which instance data, and the witnesses that prove the setup right.

use serde::{Deserialize, Serialize};
use std::sync::Arc;
use verigate_sandbox::{Limits, Protocol};

/// How a raw model response becomes the verifier's payload.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PayloadMode {
    /// The whole response is the payload.
    #[default]
    Raw,
    /// The interior of the response's single `<construct>…</construct>` block.
    Construct,
}

/// Whether an item asks for a proof only or also for a checkable construction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ItemKind {
    /// Proof only; no verifier.
    Analysis,
    /// A construction checked by the item's verifier.
    Construction,
}

/// Descriptive fields of an item, as its benchmark publishes them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Metadata {
    /// Benchmark name, e.g. `combench`.
    pub benchmark: String,
    /// Analysis-centric or construction-centric.
    #[serde(rename = "type")]
    pub kind: ItemKind,
    /// Where the problem comes from (competition, paper, dataset row).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Year of the source.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub year: Option<u32>,
    /// Category, e.g. `Graph Theory`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// The problem statement.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
    /// What the model must construct, and in which format.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub construction_instruction: Option<String>,
    /// The rubric for proof grading.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grading_guideline: Option<String>,
    /// The expected final answer, when the problem has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference_answer: Option<String>,
    /// A reference solution given to the proof judge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference_solution: Option<String>,
}

/// A payload the verifier must reject, with the reason it is wrong.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Counterexample {
    /// The payload (already extracted, as the verifier receives it).
    pub payload: String,
    /// Why it is wrong.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
}

/// A registry item, stored as `items/<id>/item.toml`; the optional directory
/// `items/<id>/instance/` is mounted read-only at `/item` for its runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Item {
    /// Stable id, equal to the item's directory under `items/`.
    pub id: String,
    /// Name of the verifier module (a key of `modules.toml`); none for analysis items.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub module: Option<String>,
    /// Protocol override; else the module's declared protocol.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol: Option<Protocol>,
    /// How a response becomes the payload.
    #[serde(default)]
    pub payload: PayloadMode,
    /// The item's limits; fields left out take the defaults.
    #[serde(default)]
    pub limits: Limits,
    /// Descriptive fields.
    pub metadata: Metadata,
    /// A payload the verifier must accept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
    /// For an item whose full marks no known witness reaches (a partial-credit task
    /// whose best answer scores under 1): the score the reference must reach at
    /// least, instead of passing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference_score: Option<f64>,
    /// Payloads the verifier must reject.
    #[serde(
        default,
        rename = "counterexample",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub counterexamples: Vec<Counterexample>,
    /// For an item of a family: its row of `rows.jsonl` (one JSON line),
    /// given to the guest as `VERIGATE_ROW`. Never written to `item.toml`.
    #[serde(skip)]
    pub row: Option<Arc<str>>,
}

impl Item {
    /// Checks the fields that the schema alone cannot: the id's shape and that
    /// construction items name a module and a reference witness.
    pub fn check(&self) -> Result<(), String> {
        let valid_segment = |s: &str| {
            !s.is_empty()
                && s != "."
                && s != ".."
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        };
        if !self.id.split('/').all(valid_segment) {
            return Err(format!(
                "id `{}`: segments separated by `/` may hold only ASCII letters, digits, `-`, `_` and `.`",
                self.id
            ));
        }
        if let Some(reserved) = self
            .id
            .split('/')
            .find(|s| s.eq_ignore_ascii_case(crate::INSTANCE_DIR))
        {
            return Err(format!(
                "id `{}`: the segment `{reserved}` is reserved (an item's files under \
                 items/<id>/{}/ are its instance data, mounted at /item)",
                self.id,
                crate::INSTANCE_DIR
            ));
        }
        if let Some(score) = self.reference_score
            && !(score > 0.0 && score < 1.0 && self.reference.is_some())
        {
            return Err(format!(
                "field `reference_score`: {score} must be in (0, 1), beside a `reference`"
            ));
        }
        match (self.metadata.kind, &self.module, &self.reference) {
            (ItemKind::Construction, None, _) => {
                Err("field `module`: a construction item needs a verifier".into())
            }
            (ItemKind::Construction, Some(_), None) => {
                Err("field `reference`: a construction item needs a reference witness".into())
            }
            (ItemKind::Analysis, Some(_), _) => {
                Err("field `module`: an analysis item has no verifier".into())
            }
            _ => Ok(()),
        }
    }
}
