//! Grading a batch of model responses against registry items.
//!
//! [`Grader::grade`] streams a JSONL file of [`ResponseLine`]s: each line is checked,
//! extracted (ComBench's section and `<construct>` rules for ComBench items),
//! matched with its proof judgment, run through its verifier on a pool of
//! workers, scored, and handed on as a [`GradeRecord`] — in input order, with
//! memory flat in the number of lines.

pub mod file;
pub mod judgments;
mod plan;
pub mod record;
pub mod resume;
pub mod shard;

pub use file::{FileError, FileSummary, GradeFile};
pub use judgments::{GradedSamples, Judgment, Judgments, Unmatched};
pub use record::{GradeOutcome, GradeRecord, NoVerifier, ProofStatus, ResponseLine};
pub use shard::{Manifest, Merged, Shard, merge};

use plan::{Planned, Planner, finish};
use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::io::BufRead;
use verigate_registry::Registry;
use verigate_sandbox::{Sandbox, run_batch, sha256_hex};

/// A bad input line, skipped; `line` is 1-based.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong, naming the field.
    pub message: String,
}

/// The most worker threads a run takes: each holds a pooled instance slot
/// and an alternate signal stack, so a huge number is a typo, refused before
/// any file is touched.
pub const MAX_WORKERS: usize = 256;

/// The worker count for `jobs` asked: one per core when `None`; 0 and more
/// than [`MAX_WORKERS`] are refused, saying why.
pub fn workers(jobs: Option<usize>) -> Result<usize, String> {
    match jobs {
        Some(0) => Err("jobs 0: at least one worker is needed".into()),
        Some(n) if n > MAX_WORKERS => Err(format!("jobs {n}: at most {MAX_WORKERS} workers")),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, usize::from)),
    }
}

/// The verifier modules the response lines of `input` need, each once, in
/// the order first needed (lines that do not parse or name no known item
/// are left to the grading run to report). Compiling these beforehand, in
/// parallel, is what makes a first run on a machine quick.
pub fn modules_needed(registry: &Registry, input: impl BufRead) -> Vec<String> {
    #[derive(serde::Deserialize)]
    struct Id {
        id: String,
    }
    let mut seen = std::collections::HashSet::new();
    crate::jsonl::read::<Id>(input)
        .filter_map(|(_, line)| line.ok())
        .filter_map(|line| registry.item(&line.id).ok()?.module.clone())
        .filter(|module| seen.insert(module.clone()))
        .collect()
}

/// What a grading run needs besides its input.
pub struct Grader<'a> {
    /// Where items and verifiers come from.
    pub registry: &'a Registry,
    /// Runs the verifiers.
    pub sandbox: &'a Sandbox,
    /// Proof judgments (empty for benchmarks without them).
    pub judgments: &'a mut Judgments,
    /// Worker threads.
    pub workers: usize,
}

/// Where a record reaches the caller from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Graded by this run.
    Graded,
    /// Taken from the earlier run being resumed.
    Resumed,
}

impl Grader<'_> {
    /// Grades every line of `input` (JSONL of [`ResponseLine`]), streaming:
    /// records reach `on_record` in input order as soon as they and every
    /// earlier record are ready. Bad lines reach `on_error` and are skipped.
    ///
    /// A second line with the (id, sample) of an earlier one is a bad line
    /// (reported with the first one's number), not graded twice.
    ///
    /// `done` are the records of an earlier, interrupted run on the same
    /// input, in order: each stands for the next good line, which is then not
    /// graded again. A record that does not belong to its line (another id or
    /// sample, another response text, another registry, or an unreadable
    /// record) stops the run with `Err`.
    ///
    /// Returns the judgments that matched no response, if any.
    pub fn grade(
        &mut self,
        input: impl BufRead,
        done: impl IntoIterator<Item = Result<GradeRecord, String>>,
        mut on_record: impl FnMut(&GradeRecord, Origin),
        mut on_error: impl FnMut(InputError),
    ) -> Result<Option<Unmatched>, String> {
        let mut samples = GradedSamples::default();
        let mut on_record = |record: &GradeRecord, origin| {
            samples.add(&record.id, &record.sample);
            on_record(record, origin);
        };
        let digest = self.registry.digest().to_owned();
        let mut planner = Planner::new(self.registry, self.sandbox, self.judgments);
        let mut done = done.into_iter().fuse();
        let mut seen: HashMap<(String, String), usize> = HashMap::new();
        let mut mismatch = None;
        // Records in input order: `Err` ones are complete, `Ok` ones wait for
        // their run's report (reports arrive in the same order as the jobs).
        let pending: RefCell<VecDeque<Result<GradeRecord, (GradeRecord, Origin)>>> =
            RefCell::default();
        let jobs = crate::jsonl::read::<ResponseLine>(input)
            .map_while(|(line, parsed)| {
                let planned = parsed.and_then(|response| {
                    let item = planner.item(&response)?;
                    let key = (response.id.clone(), response.sample.to_string());
                    if let Some(first) = seen.get(&key) {
                        return Err(format!(
                            "item `{}` sample {} again: a duplicate of line {first}, not graded twice",
                            key.0, key.1
                        ));
                    }
                    seen.insert(key, line);
                    match done.next() {
                        None => planner.plan(item, response).map(Some),
                        Some(earlier) => match resumed(earlier, &response, line, &digest) {
                            Ok(record) => {
                                planner.judgments.take(&response.id, &response.sample);
                                pending
                                    .borrow_mut()
                                    .push_back(Err((record, Origin::Resumed)));
                                Ok(None)
                            }
                            Err(e) => {
                                mismatch = Some(e);
                                Ok(None)
                            }
                        },
                    }
                });
                if mismatch.is_some() {
                    return None;
                }
                Some(match planned {
                    Ok(Some(Planned::Run(job, record))) => {
                        pending.borrow_mut().push_back(Ok(record));
                        Some(job)
                    }
                    Ok(Some(Planned::Done(record))) => {
                        pending
                            .borrow_mut()
                            .push_back(Err((record, Origin::Graded)));
                        None
                    }
                    Ok(None) => None,
                    Err(message) => {
                        on_error(InputError { line, message });
                        None
                    }
                })
            })
            .flatten();
        run_batch(self.sandbox, jobs, self.workers, |report| {
            loop {
                let next = pending.borrow_mut().pop_front().expect("a record per job");
                match next {
                    Err((record, origin)) => on_record(&record, origin),
                    Ok(record) => {
                        on_record(&finish(record, report), Origin::Graded);
                        break;
                    }
                }
            }
        });
        for (record, origin) in pending.into_inner().into_iter().flat_map(Result::err) {
            on_record(&record, origin);
        }
        if let Some(e) = mismatch {
            return Err(e);
        }
        match done.next() {
            Some(_) => Err(
                "cannot resume: the results hold more records than the responses \
                 have good lines; were they graded from another file?"
                    .into(),
            ),
            None => Ok(self.judgments.unmatched(&samples)),
        }
    }
}

/// Checks that an earlier run's record belongs to the response on `line`,
/// graded under the registry with `digest`.
fn resumed(
    earlier: Result<GradeRecord, String>,
    response: &ResponseLine,
    line: usize,
    digest: &str,
) -> Result<GradeRecord, String> {
    let record = earlier.map_err(|e| format!("cannot resume: the results hold a bad line: {e}"))?;
    if record.id != response.id || record.sample != response.sample {
        return Err(format!(
            "cannot resume: the results continue with item `{}` sample {}, but the responses \
             continue (line {line}) with item `{}` sample {}; were they graded from another file?",
            record.id, record.sample, response.id, response.sample
        ));
    }
    if record.registry_digest != digest {
        return Err(format!(
            "cannot resume: the result for item `{}` sample {} was graded under registry {}, \
             this run uses registry {digest}; grade again without --resume",
            record.id, record.sample, record.registry_digest
        ));
    }
    let hash = sha256_hex(response.response.as_bytes());
    match &record.response_sha256 {
        Some(recorded) if *recorded == hash => Ok(record),
        Some(_) => Err(format!(
            "cannot resume: the response of item `{}` sample {} (line {line}) changed since it \
             was graded; grade again without --resume",
            record.id, record.sample
        )),
        None => Err(format!(
            "cannot resume: the result for item `{}` sample {} records no response hash \
             (an older verigate wrote it), so it cannot be matched to line {line}; grade again \
             without --resume",
            record.id, record.sample
        )),
    }
}
