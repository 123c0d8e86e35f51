//! Turning one response line into a run to make, or into a grade known
//! without running anything.

use super::judgments::{Judgment, Judgments};
use super::record::{GradeOutcome, GradeRecord, NoVerifier, ProofStatus, ResponseLine};
use crate::benchmark::benchmark;
use crate::benchmark::combench::{ProofScore, gated_score};
use std::collections::HashMap;
use std::sync::Arc;
use verigate_registry::{Item, ItemKind, Registry};
use verigate_sandbox::{
    Error, Job, ModuleError, Outcome, Protocol, RunReport, Sandbox, Verifier, sha256_hex,
};

/// What a response line turned into.
pub(super) enum Planned {
    /// Run `Job`, then settle the record with its report.
    Run(Job, GradeRecord),
    /// The grade is known.
    Done(GradeRecord),
}

/// Plans response lines; loads each verifier once.
pub(super) struct Planner<'a> {
    pub registry: &'a Registry,
    pub sandbox: &'a Sandbox,
    pub judgments: &'a mut Judgments,
    verifiers: HashMap<String, Result<Arc<Verifier>, ModuleError>>,
    /// Unknown ids given suggestions so far (each costs a pass over the ids).
    suggested: usize,
}

/// Unknown ids that get "did you mean" suggestions; later ones get none.
const MAX_SUGGESTIONS: usize = 20;

/// Up to three registry ids nearest to `id` (Levenshtein distance at most a
/// third of its length), nearest first.
fn nearest_ids(registry: &Registry, id: &str) -> Vec<String> {
    let bound = (id.chars().count() / 3).max(2);
    let mut near: Vec<(usize, &String)> = registry
        .items()
        .keys()
        .map(|known| (strsim::levenshtein(id, known), known))
        .filter(|&(distance, _)| distance <= bound)
        .collect();
    near.sort();
    near.into_iter()
        .take(3)
        .map(|(_, known)| format!("`{known}`"))
        .collect()
}

impl<'a> Planner<'a> {
    pub fn new(registry: &'a Registry, sandbox: &'a Sandbox, judgments: &'a mut Judgments) -> Self {
        Planner {
            registry,
            sandbox,
            judgments,
            verifiers: HashMap::new(),
            suggested: 0,
        }
    }

    fn verifier(&mut self, name: &str) -> Result<Result<Arc<Verifier>, ModuleError>, String> {
        if let Some(known) = self.verifiers.get(name) {
            return Ok(known.clone());
        }
        let loaded = self
            .registry
            .load_module(self.sandbox, name)
            .map_err(|e| e.0)?;
        self.verifiers.insert(name.to_owned(), loaded.clone());
        Ok(loaded)
    }

    /// The item a response line names; `Err` names the field and, for an
    /// unknown id, the nearest ids the registry has.
    pub fn item(&mut self, response: &ResponseLine) -> Result<&'a Item, String> {
        self.registry.item(&response.id).map_err(|e| {
            let mut message = format!("field `id`: {e}");
            if self.suggested < MAX_SUGGESTIONS {
                self.suggested += 1;
                let near = nearest_ids(self.registry, &response.id);
                if !near.is_empty() {
                    message.push_str(&format!("; did you mean {}?", near.join(", ")));
                }
            }
            message
        })
    }

    /// Plans one response to `item`.
    pub fn plan(&mut self, item: &Item, response: ResponseLine) -> Result<Planned, String> {
        let mut record = self.draft(item, &response);
        let rules = benchmark(&item.metadata.benchmark);
        let extracted = rules.extract(item, response.response);
        if rules.judges_proofs() {
            // Taken even when the proof is not judged, so that it counts as matched.
            let judgment = self.judgments.take(&record.id, &record.sample);
            let (proof, status) = match extracted.proof {
                Err(_) => (None, ProofStatus::NotJudged),
                Ok(()) => match judgment {
                    Some(Judgment::Scored(score)) => (Some(score), ProofStatus::Judged),
                    Some(Judgment::Unparsable) => (None, ProofStatus::UnparsableJudgment),
                    None => (None, ProofStatus::NoJudgment),
                },
            };
            record.proof = proof;
            record.proof_status = Some(status);
        }
        let payload = match (extracted.payload, extracted.proof) {
            (Some(Ok(payload)), _) => payload,
            (Some(Err(error)), _) | (None, Err(error)) => {
                record.outcome = GradeOutcome::Extract(error);
                record.message = error.describe().to_owned();
                return Ok(Planned::Done(settle(record, None, 0.0)));
            }
            (None, Ok(())) => return Ok(Planned::Done(settle(record, None, 0.0))),
        };
        let module = record
            .module
            .clone()
            .expect("construction items name a module");
        Ok(match self.verifier(&module)? {
            Ok(verifier) => Planned::Run(
                Job {
                    verifier,
                    request: self.registry.request(item, payload),
                },
                record,
            ),
            Err(refused) => Planned::Done(judged(record, refused.report(Protocol::Combench))),
        })
    }

    fn draft(&self, item: &Item, response: &ResponseLine) -> GradeRecord {
        GradeRecord {
            id: response.id.clone(),
            sample: response.sample.clone(),
            benchmark: item.metadata.benchmark.clone(),
            kind: item.metadata.kind,
            category: item.metadata.category.clone(),
            outcome: GradeOutcome::NoVerifier(NoVerifier::NoVerifier),
            message: String::new(),
            details: None,
            construction: None,
            proof: None,
            proof_status: None,
            gated: None,
            score: 0.0,
            fuel_consumed: 0,
            module: item.module.clone(),
            module_sha256: None,
            script_sha256: None,
            response_sha256: Some(sha256_hex(response.response.as_bytes())),
            registry_digest: self.registry.digest().to_owned(),
            verigate_version: verigate_sandbox::VERSION.to_owned(),
            engine_fingerprint: self.sandbox.fingerprint().to_owned(),
        }
    }
}

/// Completes a record with its verifier's report; a host error (which no
/// guest can cause) counts as a trap.
pub(super) fn finish(record: GradeRecord, report: Result<RunReport, Error>) -> GradeRecord {
    match report {
        Ok(report) => judged(record, report),
        Err(e) => {
            let record = GradeRecord {
                outcome: GradeOutcome::Run(Outcome::Trap),
                message: e.to_string(),
                ..record
            };
            settle(record, Some(false), 0.0)
        }
    }
}

fn judged(mut record: GradeRecord, report: RunReport) -> GradeRecord {
    record.outcome = GradeOutcome::Run(report.outcome);
    record.message = report.message;
    record.details = report.details;
    record.fuel_consumed = report.fuel_consumed;
    record.module_sha256 = Some(report.module_sha256);
    record.script_sha256 = report.script_sha256;
    settle(record, Some(report.passed), report.score)
}

/// Fills in `construction`, `gated` and `score` from the verifier's verdict
/// (`None`: it did not run) and its score.
fn settle(mut record: GradeRecord, passed: Option<bool>, verifier_score: f64) -> GradeRecord {
    let passed = match record.kind {
        ItemKind::Construction => Some(passed.unwrap_or(false)),
        ItemKind::Analysis => None,
    };
    record.construction = passed.map(u8::from);
    if record.proof_status.is_some() {
        record.gated = match passed {
            Some(passed) => record.proof.map(|p| gated_score(p, passed)),
            None => record.proof,
        };
        record.score = record
            .gated
            .map_or(0.0, |g| f64::from(g.points()) / f64::from(ProofScore::MAX));
    } else {
        record.score = verifier_score;
    }
    record
}
