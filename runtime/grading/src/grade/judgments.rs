//! Proof judgments: `{"id", "sample", "proof_score"}` or
//! `{"id", "sample", "judge_output"}` lines, looked up by (id, sample).

use crate::benchmark::combench::{ProofScore, parse_judge_output};
use crate::grade::InputError;
use serde::Deserialize;
use std::collections::HashMap;
use std::io::BufRead;
use verigate_registry::Registry;

/// One judgment line; other fields (a judge model name, say) are ignored.
#[derive(Deserialize)]
struct JudgmentLine {
    id: String,
    sample: serde_json::Value,
    #[serde(default)]
    proof_score: Option<ProofScore>,
    #[serde(default)]
    judge_output: Option<String>,
}

/// What a judgment says about a proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judgment {
    /// A score of 0, 1, 6 or 7.
    Scored(ProofScore),
    /// A judge output without exactly one valid `<points>N out of 7</points>`.
    Unparsable,
}

struct Entry {
    judgment: Judgment,
    line: usize,
    used: bool,
}

/// The judgments of a run, keyed by (id, sample). Only the parsed score is
/// kept, never the judge's text, so memory is a few dozen bytes per line.
#[derive(Default)]
pub struct Judgments {
    by_key: HashMap<(String, String), Entry>,
}

/// The lookup key of a sample: its JSON text, so `0` and `"0"` differ.
fn sample_key(sample: &serde_json::Value) -> String {
    sample.to_string()
}

impl Judgments {
    /// Reads judgment lines. A bad line — malformed JSON, a missing field,
    /// an id not in `registry`, both or neither of `proof_score` and
    /// `judge_output`, a score not in {0, 1, 6, 7}, or a repeated
    /// (id, sample) — goes to `on_error` and is skipped.
    pub fn read(
        reader: impl BufRead,
        registry: &Registry,
        mut on_error: impl FnMut(InputError),
    ) -> Judgments {
        let mut judgments = Judgments::default();
        for (line, parsed) in crate::jsonl::read::<JudgmentLine>(reader) {
            if let Err(message) = judgments.insert(line, parsed, registry) {
                on_error(InputError { line, message });
            }
        }
        judgments
    }

    fn insert(
        &mut self,
        line: usize,
        parsed: Result<JudgmentLine, String>,
        registry: &Registry,
    ) -> Result<(), String> {
        let parsed = parsed?;
        registry
            .item(&parsed.id)
            .map_err(|e| format!("field `id`: {e}"))?;
        let judgment = match (parsed.proof_score, parsed.judge_output) {
            (Some(score), None) => Judgment::Scored(score),
            (None, Some(output)) => {
                parse_judge_output(&output).map_or(Judgment::Unparsable, Judgment::Scored)
            }
            _ => {
                return Err(
                    "fields `proof_score` and `judge_output`: give exactly one of them".into(),
                );
            }
        };
        let key = (parsed.id, sample_key(&parsed.sample));
        if let Some(first) = self.by_key.get(&key) {
            return Err(format!(
                "field `sample`: a second judgment of item `{}` sample {} (the first is on line {})",
                key.0, key.1, first.line
            ));
        }
        let entry = Entry {
            judgment,
            line,
            used: false,
        };
        self.by_key.insert(key, entry);
        Ok(())
    }

    /// The judgment of (`id`, `sample`), marking it used.
    pub fn take(&mut self, id: &str, sample: &serde_json::Value) -> Option<Judgment> {
        let entry = self.by_key.get_mut(&(id.to_owned(), sample_key(sample)))?;
        entry.used = true;
        Some(entry.judgment)
    }

    /// The (id, sample) of each judgment no response asked for, in file order.
    fn unused_keys(&self) -> Vec<(&str, serde_json::Value)> {
        let mut unused: Vec<(usize, &str, serde_json::Value)> = (self.by_key.iter())
            .filter(|(_, e)| !e.used)
            .map(|((id, sample), e)| {
                let sample = serde_json::from_str(sample).unwrap_or(serde_json::Value::Null);
                (e.line, id.as_str(), sample)
            })
            .collect();
        unused.sort_by_key(|(line, _, _)| *line);
        unused.into_iter().map(|(_, id, s)| (id, s)).collect()
    }

    /// How many judgments were read.
    pub fn len(&self) -> usize {
        self.by_key.len()
    }

    /// Whether no judgment was read.
    pub fn is_empty(&self) -> bool {
        self.by_key.is_empty()
    }
}

/// The samples graded per item, so that judgments matching no response can
/// be told apart from judgments whose sample differs only in JSON type.
#[derive(Default)]
pub struct GradedSamples(HashMap<String, Vec<serde_json::Value>>);

impl GradedSamples {
    /// Notes that `id`'s `sample` was graded.
    pub fn add(&mut self, id: &str, sample: &serde_json::Value) {
        self.0
            .entry(id.to_owned())
            .or_default()
            .push(sample.clone());
    }
}

/// Judgments that matched no response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unmatched {
    /// How many and, when a sample differs from a response's only in JSON
    /// type (`"0"` against `0`), an example.
    pub message: String,
    /// Above [`MAX_UNMATCHED_SHARE`] of the judgments: a judgments file for
    /// other samples, which would zero every proof score; the run fails.
    pub fatal: bool,
}

/// Above this share of judgments matching no response, a run fails.
pub const MAX_UNMATCHED_SHARE: f64 = 0.1;

impl Judgments {
    /// The judgments no response asked for, given the samples `graded`;
    /// `None` when every judgment was used.
    pub fn unmatched(&self, graded: &GradedSamples) -> Option<Unmatched> {
        let unused = self.unused_keys();
        if unused.is_empty() {
            return None;
        }
        let retyped = unused.iter().find(|(id, sample)| {
            graded.0.get(*id).is_some_and(|samples| {
                (samples.iter()).any(|s| s != sample && unquoted(s) == unquoted(sample))
            })
        });
        let hint = retyped.map_or(String::new(), |(id, sample)| {
            format!(
                "; e.g. item `{id}` has a judgment for sample {sample} and a response whose \
                 sample differs only in type: samples match by JSON value (`0` is not `\"0\"`)"
            )
        });
        let (n, total) = (unused.len(), self.len());
        Some(Unmatched {
            message: format!("{n} of {total} judgment(s) match no response{hint}"),
            fatal: (n as f64) > MAX_UNMATCHED_SHARE * total as f64,
        })
    }
}

/// A sample as text: a string without its quotes, anything else as JSON.
fn unquoted(sample: &serde_json::Value) -> String {
    sample
        .as_str()
        .map_or_else(|| sample.to_string(), str::to_owned)
}
