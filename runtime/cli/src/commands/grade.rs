//! `verigate grade`: grade JSONL model responses against the registry and
//! print the benchmark tables.
//!
//! Streams: the result lines go to `--out` (stdout by default; on a terminal
//! they go to a new `results.jsonl` instead of flooding it), the tables and
//! every message to stderr, `--summary FILE` gets the tables in `--format`.

use super::CacheArgs;
use super::registry::RegistryArgs;
use super::report::TableArgs;
use crate::render::render;
use anyhow::{Context, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use verigate_grading::grade::{GradeRecord, Grader, InputError, Judgments, Origin};

/// The bundled example benchmark: the main job's input.
pub const EXAMPLE_RESPONSES: &str = "examples/responses.jsonl";
const EXAMPLE_JUDGMENTS: &str = "examples/judgments.jsonl";

#[derive(Args)]
pub struct GradeArgs {
    /// Responses, one JSON object per line: {"id", "sample", "response"};
    /// `-` reads stdin; gzip is read transparently [default: the bundled
    /// example benchmark, with its judgments].
    #[arg(long)]
    responses: Option<PathBuf>,
    /// Proof judgments, one JSON object per line: {"id", "sample", "proof_score"}
    /// or {"id", "sample", "judge_output"}.
    #[arg(long)]
    judgments: Option<PathBuf>,
    /// Where to write one JSON result per response, in input order (`-`:
    /// stdout; when stdout is a terminal, a new results.jsonl is written
    /// instead and named).
    #[arg(long, default_value = "-")]
    out: String,
    /// Also write the tables (in `--format`) to FILE; they always go to stderr.
    #[arg(long)]
    summary: Option<PathBuf>,
    /// Continue an interrupted run: keep the results already in `--out` and
    /// grade only the responses after them.
    #[arg(long)]
    resume: bool,
    /// Worker threads, 1 to 256 [default: one per core].
    #[arg(short, long)]
    jobs: Option<usize>,
    /// Also write the HTML report (tables, charts, sample browser, figures) to FILE.
    #[arg(long)]
    html: Option<PathBuf>,
    /// The tables (printed on stderr).
    #[command(flatten)]
    tables: TableArgs,
    #[command(flatten)]
    location: RegistryArgs,
    #[command(flatten)]
    cache: CacheArgs,
}

/// Prints a bad input line as `file:line: message`.
fn complain(path: &Path, bad_lines: &mut usize) -> impl FnMut(InputError) {
    move |error| {
        *bad_lines += 1;
        eprintln!(
            "verigate: {}:{}: {}",
            path.display(),
            error.line,
            error.message
        );
    }
}

fn open(path: &Path, what: &str) -> anyhow::Result<BufReader<File>> {
    let file =
        File::open(path).with_context(|| format!("cannot open {what} {}", path.display()))?;
    Ok(BufReader::new(file))
}

/// The most worker threads `--jobs` takes: each holds a pooled instance slot
/// and an alternate signal stack, so a huge number is a typo, refused before
/// any file is touched.
pub const MAX_JOBS: usize = 256;

/// The worker count: `--jobs`, else one per core.
fn workers(jobs: Option<usize>) -> anyhow::Result<usize> {
    match jobs {
        Some(0) => bail!("--jobs 0: at least one worker is needed"),
        Some(n) if n > MAX_JOBS => bail!("--jobs {n}: at most {MAX_JOBS} workers"),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, usize::from)),
    }
}

/// A name for the results when stdout is a terminal: `results.jsonl`, else
/// the first `results-N.jsonl` that does not exist (nothing is overwritten).
fn fresh_results_name() -> String {
    std::iter::once("results.jsonl".to_owned())
        .chain((2..).map(|n| format!("results-{n}.jsonl")))
        .find(|name| !Path::new(name).exists())
        .expect("some name is free")
}

/// A progress bar over the response lines, drawn only on a terminal.
fn progress(path: &Path) -> anyhow::Result<ProgressBar> {
    if !std::io::stderr().is_terminal() || path == Path::new("-") {
        return Ok(ProgressBar::hidden());
    }
    let lines = crate::files::open_input(path, "responses")?.lines().count();
    let bar = ProgressBar::new(lines as u64).with_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} responses ({per_sec}, eta {eta})",
        )
        .expect("a valid template"),
    );
    Ok(bar)
}

pub fn run(args: &GradeArgs) -> anyhow::Result<ExitCode> {
    let workers = workers(args.jobs)?;
    if args.tables.format == crate::render::Format::Html {
        bail!(
            "grade prints its tables as text, json or markdown; --html FILE writes the HTML page"
        );
    }
    let registry = args.location.open()?;
    let (responses, judgments) = match &args.responses {
        Some(path) => (path.clone(), args.judgments.clone()),
        None => (
            PathBuf::from(EXAMPLE_RESPONSES),
            args.judgments
                .clone()
                .or_else(|| Some(PathBuf::from(EXAMPLE_JUDGMENTS))),
        ),
    };
    let out_name = match args.out.as_str() {
        "-" if !args.resume && std::io::stdout().is_terminal() => {
            let name = fresh_results_name();
            eprintln!(
                "verigate: writing the results to {name} (stdout is a terminal; --out FILE \
                 names the file, a pipe gets the JSON lines)"
            );
            name
        }
        other => other.to_owned(),
    };
    let mut inputs = vec![("responses", responses.as_path())];
    if let Some(path) = &judgments {
        inputs.push(("judgments", path.as_path()));
    }
    let _lock = match out_name.as_str() {
        "-" => None,
        path => {
            crate::files::refuse_output_over_input(Path::new(path), &inputs)?;
            Some(crate::files::lock_for_writing(Path::new(path))?)
        }
    };
    tracing::info!(
        registry = %registry.root().display(),
        digest = registry.digest(),
        cache = ?args.cache.root(),
        workers,
        "grading"
    );
    let mut bad_lines = 0;
    let mut judged = match &judgments {
        Some(path) => Judgments::read(
            crate::files::open_input(path, "judgments")?,
            &registry,
            complain(path, &mut bad_lines),
        ),
        None => Judgments::default(),
    };
    let input = crate::files::open_input(&responses, "responses")?;
    let (mut out, done): (Box<dyn Write>, Option<BufReader<File>>) = match out_name.as_str() {
        "-" if args.resume => {
            bail!("--resume needs --out FILE: there is nothing to resume on stdout")
        }
        "-" => (Box::new(std::io::stdout().lock()), None),
        path if args.resume => {
            let (file, cut) = verigate_grading::grade::resume::open_for_append(Path::new(path))
                .with_context(|| format!("cannot resume {path}"))?;
            if cut > 0 {
                eprintln!("verigate: {path}: dropped an unfinished last line ({cut} bytes)");
            }
            let earlier = open(Path::new(path), "results")?;
            (Box::new(BufWriter::new(file)), Some(earlier))
        }
        path => {
            let file = File::create(path).with_context(|| format!("cannot create {path}"))?;
            (Box::new(BufWriter::new(file)), None)
        }
    };
    let done = done
        .into_iter()
        .flat_map(verigate_grading::jsonl::read::<GradeRecord>)
        .map(|(line, record)| record.map_err(|e| format!("{out_name}:{line}: {e}")));
    let sandbox = args.cache.sandbox()?;
    let bar = progress(&responses)?;
    let mut report = args.tables.report(Some(&registry))?;
    let (mut resumed, mut write_error) = (0, None);
    let mut kept = Vec::new();
    let mut samples: HashMap<String, Vec<serde_json::Value>> = HashMap::new();
    let mut grader = Grader {
        registry: &registry,
        sandbox: &sandbox,
        judgments: &mut judged,
        workers,
    };
    let graded = grader.grade(
        input,
        done,
        |record, origin| {
            report.add(record);
            if judgments.is_some() {
                let of_item = samples.entry(record.id.clone()).or_default();
                of_item.push(record.sample.clone());
            }
            if args.html.is_some() {
                kept.push(serde_json::to_value(record).expect("a record serialises"));
            }
            bar.inc(1);
            if origin == Origin::Resumed {
                resumed += 1;
            } else if write_error.is_none() {
                let written = serde_json::to_writer(&mut out, record)
                    .map_err(std::io::Error::from)
                    .and_then(|()| writeln!(out));
                write_error = written.err();
            }
        },
        complain(&responses, &mut bad_lines),
    );
    bar.finish_and_clear();
    out.flush()
        .with_context(|| format!("cannot write results to {out_name}"))?;
    if let Some(e) = write_error {
        return Err(e).with_context(|| format!("cannot write results to {out_name}"));
    }
    graded.map_err(anyhow::Error::msg)?;
    if resumed > 0 {
        eprintln!("verigate: resumed after {resumed} result(s) already in {out_name}");
    }
    let unmatched = unmatched_judgments(&judged, &samples);
    let summary = report.summary();
    let tables = render(&summary, args.tables.format);
    eprint!("\n{tables}");
    if let Some(path) = &args.summary {
        std::fs::write(path, &tables)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some(page) = &args.html {
        let lines = crate::html::read_values(&responses)?;
        let subtitle = responses.display().to_string();
        crate::html::write(page, &summary, &kept, &lines, Some(&registry), subtitle)?;
    }
    if bad_lines > 0 {
        eprintln!(
            "verigate: {} skipped (not in the tables); every other line was graded",
            crate::render::count(bad_lines, "bad input line")
        );
    }
    if let Some(why) = &unmatched {
        eprintln!("verigate: {why}");
    }
    if bad_lines > 0 || unmatched.is_some() {
        return Ok(ExitCode::from(super::EXIT_HOST_ERROR));
    }
    Ok(ExitCode::SUCCESS)
}

/// Judgments that matched no response: above [`MAX_UNMATCHED_SHARE`] of them
/// (a judgments file for other samples zeroes every proof score), why it
/// fails the run, with a hint when only the sample's JSON type differs
/// (`"0"` against `0`); fewer are only noted.
fn unmatched_judgments(
    judged: &Judgments,
    samples: &HashMap<String, Vec<serde_json::Value>>,
) -> Option<String> {
    let unused = judged.unused_keys();
    if unused.is_empty() {
        return None;
    }
    let retyped = unused.iter().find(|(id, sample)| {
        samples.get(*id).is_some_and(|graded| {
            graded
                .iter()
                .any(|s| s != sample && unquoted(s) == unquoted(sample))
        })
    });
    let hint = retyped.map_or(String::new(), |(id, sample)| {
        format!(
            "; e.g. item `{id}` has a judgment for sample {sample} and a response whose sample \
             differs only in type: samples match by JSON value (`0` is not `\"0\"`)"
        )
    });
    let (n, total) = (unused.len(), judged.len());
    let message = format!("{n} of {total} judgment(s) match no response{hint}");
    if (n as f64) > MAX_UNMATCHED_SHARE * total as f64 {
        Some(message)
    } else {
        eprintln!("verigate: {message}");
        None
    }
}

/// Above this share of judgments matching no response, `grade` fails.
const MAX_UNMATCHED_SHARE: f64 = 0.1;

/// A sample as text: a string without its quotes, anything else as JSON.
fn unquoted(sample: &serde_json::Value) -> String {
    sample
        .as_str()
        .map_or_else(|| sample.to_string(), str::to_owned)
}
