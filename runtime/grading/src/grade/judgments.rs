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

    /// How many judgments no response asked for.
    pub fn unused(&self) -> usize {
        self.by_key.values().filter(|e| !e.used).count()
    }

    /// The (id, sample) of each judgment no response asked for, in file order.
    pub fn unused_keys(&self) -> Vec<(&str, serde_json::Value)> {
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
