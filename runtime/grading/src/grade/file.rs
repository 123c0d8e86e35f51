//! Grading a responses file into a results file: what `verigate grade` and
//! the Python package's `Grader.grade_file` both do, byte for byte.

use super::judgments::Unmatched;
use super::shard::{LineRange, Manifest, Shard, partial_path};
use super::{GradeRecord, Grader, InputError, Judgments, Origin};
use crate::files::{lock_for_writing, open_input, refuse_output_over_input};
use std::fmt;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::ops::Range;
use std::path::Path;
use verigate_registry::Registry;
use verigate_sandbox::Sandbox;

/// One grading run from files: responses (and judgments) in, one JSON
/// result line per good response out, in input order.
pub struct GradeFile<'a> {
    /// The responses (`-`: stdin; gzip is read transparently).
    pub responses: &'a Path,
    /// Proof judgments, when the benchmark has them.
    pub judgments: Option<&'a Path>,
    /// The results file; `None` writes to stdout.
    pub out: Option<&'a Path>,
    /// Keep the results already in `out` and grade only the responses after them.
    pub resume: bool,
    /// Grade only these input lines (0-based, end exclusive), numbering
    /// bad lines as in the whole input; judgments matching no response are
    /// then not reported (most match lines elsewhere).
    pub lines: Option<Range<usize>>,
}

/// Why a file run stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileError {
    /// An input cannot be read, or the results to resume belong to other input.
    Input(String),
    /// The output is refused (it is an input, or another run writes it) or
    /// cannot be written.
    Output(String),
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Input(why) | FileError::Output(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for FileError {}

/// What a file run did.
#[derive(Debug, Default)]
pub struct FileSummary {
    /// Results written by this run.
    pub graded: usize,
    /// Results kept from the run being resumed.
    pub resumed: usize,
    /// Bytes of an unfinished last line cut off the results before resuming.
    pub dropped_bytes: u64,
    /// Bad input lines (responses and judgments), skipped.
    pub bad_lines: usize,
    /// Judgments that matched no response.
    pub unmatched: Option<Unmatched>,
    /// For a shard: its part was already complete, so nothing was graded.
    pub part_exists: bool,
}

impl FileSummary {
    /// Whether the run is a failure although its results were written: a
    /// bad input line, or most judgments matching no response.
    pub fn failed(&self) -> bool {
        self.bad_lines > 0 || self.unmatched.as_ref().is_some_and(|u| u.fatal)
    }
}

impl GradeFile<'_> {
    /// Grades the responses with `workers` threads, writing each result line
    /// to the output as soon as it and every earlier one are ready (so an
    /// interrupted run loses nothing already graded). Every record — kept
    /// or new — also reaches `on_record`; each bad input line reaches
    /// `on_error` with its file, and is skipped.
    pub fn run(
        &self,
        registry: &Registry,
        sandbox: &Sandbox,
        workers: usize,
        mut on_record: impl FnMut(&GradeRecord, Origin),
        mut on_error: impl FnMut(&Path, InputError),
    ) -> Result<FileSummary, FileError> {
        let mut inputs = vec![("responses", self.responses)];
        inputs.extend(self.judgments.map(|path| ("judgments", path)));
        let _lock = match self.out {
            Some(out) => {
                refuse_output_over_input(out, &inputs).map_err(FileError::Output)?;
                Some(lock_for_writing(out).map_err(FileError::Output)?)
            }
            None if self.resume => {
                return Err(FileError::Output(
                    "--resume needs --out FILE: there is nothing to resume on stdout".into(),
                ));
            }
            None => None,
        };
        let mut summary = FileSummary::default();
        let mut judged = match self.judgments {
            Some(path) => Judgments::read(
                open_input(path, "judgments").map_err(FileError::Input)?,
                registry,
                |error| {
                    summary.bad_lines += 1;
                    on_error(path, error);
                },
            ),
            None => Judgments::default(),
        };
        let input = open_input(self.responses, "responses").map_err(FileError::Input)?;
        let input: Box<dyn BufRead> = match &self.lines {
            Some(lines) => Box::new(LineRange::new(input, lines.clone())),
            None => input,
        };
        let (mut out, done) = self.open_output(&mut summary)?;
        let out_name = self
            .out
            .map_or("stdout".into(), |p| p.display().to_string());
        let done = done
            .into_iter()
            .flat_map(crate::jsonl::read::<GradeRecord>)
            .map(|(line, record)| record.map_err(|e| format!("{out_name}:{line}: {e}")));
        let mut write_error = None;
        let mut grader = Grader {
            registry,
            sandbox,
            judgments: &mut judged,
            workers,
        };
        let (mut graded, mut resumed, mut bad_lines) = (0, 0, 0);
        let result = grader.grade(
            input,
            done,
            |record, origin| {
                on_record(record, origin);
                if origin == Origin::Resumed {
                    resumed += 1;
                } else if write_error.is_none() {
                    graded += 1;
                    write_error = write_line(&mut out, record).err();
                }
            },
            |error| {
                bad_lines += 1;
                on_error(self.responses, error);
            },
        );
        let flushed = out.flush();
        if let Some(e) = write_error.or(flushed.err()) {
            return Err(FileError::Output(format!(
                "cannot write results to {out_name}: {e}"
            )));
        }
        summary.unmatched = result
            .map_err(FileError::Input)?
            .filter(|_| self.lines.is_none());
        summary.graded = graded;
        summary.resumed = resumed;
        summary.bad_lines += bad_lines;
        Ok(summary)
    }

    /// Grades `shard` of the responses into the part file `out`: into
    /// `out.partial` (resumed if an earlier try left it), then writes the
    /// manifest and renames it to `out`. An existing `out` is a complete
    /// part: nothing is graded (`part_exists`).
    pub fn run_shard(
        &self,
        shard: &Shard,
        registry: &Registry,
        sandbox: &Sandbox,
        workers: usize,
        on_record: impl FnMut(&GradeRecord, Origin),
        on_error: impl FnMut(&Path, InputError),
    ) -> Result<FileSummary, FileError> {
        let out = self.out.ok_or_else(|| {
            FileError::Output("a shard needs --out PART: its results go to a part file".into())
        })?;
        if out.exists() {
            return Ok(FileSummary {
                part_exists: true,
                ..FileSummary::default()
            });
        }
        let partial = partial_path(out);
        let part = GradeFile {
            out: Some(&partial),
            resume: true,
            lines: Some(shard.lines.clone()),
            ..*self
        };
        let summary = part.run(registry, sandbox, workers, on_record, on_error)?;
        let manifest = Manifest {
            shard: shard.clone(),
            records: summary.graded + summary.resumed,
            registry_digest: registry.digest().to_owned(),
            verigate_version: verigate_sandbox::VERSION.to_owned(),
        };
        manifest.complete(out).map_err(FileError::Output)?;
        Ok(summary)
    }

    /// The writer for new results and, when resuming, a reader of the ones
    /// already there (an unfinished last line is cut off first).
    fn open_output(&self, summary: &mut FileSummary) -> Result<Output, FileError> {
        let Some(path) = self.out else {
            return Ok((Box::new(std::io::stdout().lock()), None));
        };
        let cannot = |what: &str, e: std::io::Error| {
            FileError::Output(format!("cannot {what} {}: {e}", path.display()))
        };
        if !self.resume {
            let file = File::create(path).map_err(|e| cannot("create", e))?;
            return Ok((Box::new(BufWriter::new(file)), None));
        }
        let (file, cut) = super::resume::open_for_append(path).map_err(|e| cannot("resume", e))?;
        summary.dropped_bytes = cut;
        let earlier = File::open(path).map_err(|e| cannot("read", e))?;
        Ok((
            Box::new(BufWriter::new(file)),
            Some(BufReader::new(earlier)),
        ))
    }
}

/// The writer for new results, and a reader of the results being resumed.
type Output = (Box<dyn Write>, Option<BufReader<File>>);

/// Writes `record` as one JSON line, exactly as every results file holds it.
pub fn write_line(out: &mut impl Write, record: &GradeRecord) -> std::io::Result<()> {
    serde_json::to_writer(&mut *out, record)?;
    out.write_all(b"\n")
}
