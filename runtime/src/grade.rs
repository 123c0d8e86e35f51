//! Grading a batch of model responses against registry items.

use crate::batch::{Job, run_batch};
use crate::outcome::{Outcome, RunReport};
use crate::registry::{Item, PayloadMode, Registry};
use crate::sandbox::{ModuleError, Sandbox};
use crate::verifier::Verifier;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::io::BufRead;
use std::sync::Arc;

/// One input line: a model's raw response to an item.
#[derive(Clone, Debug, Deserialize)]
pub struct ResponseLine {
    /// Registry item id.
    pub id: String,
    /// Sample index or label (several samples per item are usual).
    pub sample: serde_json::Value,
    /// The raw model output.
    pub response: String,
}

/// One output line: the verdict on one response, with everything needed to
/// reproduce it. Deterministic: no timings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GradeRecord {
    /// Registry item id.
    pub id: String,
    /// The response's sample.
    pub sample: serde_json::Value,
    /// The item's benchmark.
    pub benchmark: String,
    /// The run's outcome.
    pub outcome: Outcome,
    /// Whether the response passed.
    pub passed: bool,
    /// Score in [0, 1].
    pub score: f64,
    /// The verifier's message.
    pub message: String,
    /// Fuel the verifier used.
    pub fuel_consumed: u64,
    /// Verifier name.
    pub module: String,
    /// sha256 of the verifier module.
    pub module_sha256: String,
    /// Digest of the registry the item came from.
    pub registry_digest: String,
    /// verigate version.
    pub verigate_version: String,
    /// Engine configuration fingerprint.
    pub engine_fingerprint: String,
}

/// A bad input line, skipped; `line` is 1-based.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong, naming the field.
    pub message: String,
}

/// Pass counts and score sums.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Tally {
    /// Responses graded.
    pub graded: usize,
    /// Responses that passed.
    pub passed: usize,
    /// Sum of scores.
    pub score_sum: f64,
    /// Count per outcome.
    pub outcomes: BTreeMap<String, usize>,
}

impl Tally {
    fn add(&mut self, record: &GradeRecord) {
        self.graded += 1;
        self.passed += usize::from(record.passed);
        self.score_sum += record.score;
        *self.outcomes.entry(record.outcome.to_string()).or_default() += 1;
    }

    /// Fraction of responses that passed.
    pub fn pass_rate(&self) -> f64 {
        if self.graded == 0 {
            0.0
        } else {
            self.passed as f64 / self.graded as f64
        }
    }

    /// Mean score.
    pub fn mean_score(&self) -> f64 {
        if self.graded == 0 {
            0.0
        } else {
            self.score_sum / self.graded as f64
        }
    }
}

/// Per-benchmark tallies of a grading run.
pub type Summary = BTreeMap<String, Tally>;

/// What a parsed line turned into: a run to make, or a verdict known without running.
enum Planned {
    Run(Job, GradeRecord),
    Refused(ModuleError, GradeRecord),
}

struct Planner<'a> {
    registry: &'a Registry,
    sandbox: &'a Sandbox,
    verifiers: HashMap<String, Result<Arc<Verifier>, ModuleError>>,
}

impl Planner<'_> {
    fn verifier(&mut self, name: &str) -> Result<Result<Arc<Verifier>, ModuleError>, String> {
        if let Some(known) = self.verifiers.get(name) {
            return Ok(known.clone());
        }
        let (path, _) = self.registry.module(name).map_err(|e| e.0)?;
        let loaded = self
            .sandbox
            .load_file(&path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        self.verifiers.insert(name.to_owned(), loaded.clone());
        Ok(loaded)
    }

    fn plan(&mut self, line: &str) -> Result<Planned, String> {
        let response: ResponseLine = serde_json::from_str(line).map_err(|e| e.to_string())?;
        let item: &Item = self
            .registry
            .item(&response.id)
            .map_err(|e| format!("field `id`: {e}"))?;
        let Some(module) = item.module.clone() else {
            return Err(format!(
                "field `id`: item `{}` is analysis-centric and has no verifier",
                item.id
            ));
        };
        if item.payload != PayloadMode::Raw {
            return Err(format!(
                "field `id`: item `{}` uses payload mode `construct`, which `grade` does not extract yet",
                item.id
            ));
        }
        let record = GradeRecord {
            id: response.id.clone(),
            sample: response.sample,
            benchmark: item.metadata.benchmark.clone(),
            outcome: Outcome::Fail,
            passed: false,
            score: 0.0,
            message: String::new(),
            fuel_consumed: 0,
            module: module.clone(),
            module_sha256: String::new(),
            registry_digest: self.registry.digest().to_owned(),
            verigate_version: crate::VERSION.to_owned(),
            engine_fingerprint: self.sandbox.fingerprint().to_owned(),
        };
        Ok(match self.verifier(&module)? {
            Ok(verifier) => Planned::Run(
                Job {
                    verifier,
                    payload: response.response.into_bytes(),
                    item_dir: self.registry.instance_dir(item),
                    limits: item.limits,
                    protocol: item.protocol,
                },
                record,
            ),
            Err(refused) => Planned::Refused(refused, record),
        })
    }
}

fn finish(mut record: GradeRecord, report: RunReport) -> GradeRecord {
    record.outcome = report.outcome;
    record.passed = report.passed;
    record.score = report.score;
    record.message = report.message;
    record.fuel_consumed = report.fuel_consumed;
    record.module_sha256 = report.module_sha256;
    record
}

/// Grades every line of `input` (JSONL of [`ResponseLine`]) on `workers`
/// threads, streaming: records reach `on_record` in input order as soon as
/// they and every earlier record are ready, and memory stays flat in the
/// number of lines. Bad lines reach `on_error` and are skipped. Returns the
/// per-benchmark tallies.
pub fn grade(
    registry: &Registry,
    sandbox: &Sandbox,
    input: impl BufRead,
    workers: usize,
    mut on_record: impl FnMut(&GradeRecord),
    mut on_error: impl FnMut(InputError),
) -> Summary {
    let mut planner = Planner {
        registry,
        sandbox,
        verifiers: HashMap::new(),
    };
    // Records in input order: `Err` ones are complete, `Ok` ones wait for
    // their run's report (reports arrive in the same order as the jobs).
    let pending: RefCell<VecDeque<Result<GradeRecord, GradeRecord>>> = RefCell::default();
    let mut summary = Summary::new();
    let mut emit = |record: GradeRecord| {
        summary
            .entry(record.benchmark.clone())
            .or_default()
            .add(&record);
        on_record(&record);
    };
    let jobs = input.lines().enumerate().filter_map(|(index, line)| {
        let planned = match line {
            Ok(line) if line.trim().is_empty() => return None,
            Ok(line) => planner.plan(&line),
            Err(e) => Err(e.to_string()),
        };
        match planned {
            Ok(Planned::Run(job, record)) => {
                pending.borrow_mut().push_back(Ok(record));
                Some(job)
            }
            Ok(Planned::Refused(refused, record)) => {
                let report = refused.report(crate::Protocol::Combench);
                pending.borrow_mut().push_back(Err(finish(record, report)));
                None
            }
            Err(message) => {
                on_error(InputError {
                    line: index + 1,
                    message,
                });
                None
            }
        }
    });
    run_batch(sandbox, jobs, workers, |report| {
        loop {
            let next = pending.borrow_mut().pop_front().expect("a record per job");
            match next {
                Err(done) => emit(done),
                Ok(record) => {
                    emit(match report {
                        Ok(report) => finish(record, report),
                        Err(e) => GradeRecord {
                            outcome: Outcome::Trap,
                            message: format!("host error: {e:#}"),
                            ..record
                        },
                    });
                    break;
                }
            }
        }
    });
    for done in pending.into_inner() {
        emit(done.expect_err("every job was reported"));
    }
    summary
}
