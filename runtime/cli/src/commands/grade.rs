//! `verigate grade`: grade JSONL model responses against the registry and
//! print the benchmark tables.

use super::CacheArgs;
use super::registry::RegistryArgs;
use super::report::TableArgs;
use crate::render::render;
use anyhow::{Context, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
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
    /// Responses, one JSON object per line: {"id", "sample", "response"}
    /// [default: the bundled example benchmark, with its judgments].
    #[arg(long)]
    responses: Option<PathBuf>,
    /// Proof judgments, one JSON object per line: {"id", "sample", "proof_score"}
    /// or {"id", "sample", "judge_output"}.
    #[arg(long)]
    judgments: Option<PathBuf>,
    /// Where to write one JSON result per response, in input order (`-` for stdout).
    #[arg(long, default_value = "-")]
    out: String,
    /// Continue an interrupted run: keep the results already in `--out` and
    /// grade only the responses after them.
    #[arg(long)]
    resume: bool,
    /// Worker threads [default: one per core].
    #[arg(long)]
    jobs: Option<usize>,
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

/// A progress bar over the response lines, drawn only on a terminal.
fn progress(path: &Path) -> anyhow::Result<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return Ok(ProgressBar::hidden());
    }
    let lines = open(path, "responses")?.lines().count();
    let bar = ProgressBar::new(lines as u64).with_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} responses ({per_sec}, eta {eta})",
        )
        .expect("a valid template"),
    );
    Ok(bar)
}

pub fn run(args: &GradeArgs) -> anyhow::Result<ExitCode> {
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
    let mut bad_lines = 0;
    let mut judged = match &judgments {
        Some(path) => Judgments::read(
            open(path, "judgments")?,
            &registry,
            complain(path, &mut bad_lines),
        ),
        None => Judgments::default(),
    };
    let input = open(&responses, "responses")?;
    let (mut out, done): (Box<dyn Write>, Option<BufReader<File>>) = match args.out.as_str() {
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
        .map(|(line, record)| record.map_err(|e| format!("{}:{line}: {e}", args.out)));
    let sandbox = args.cache.sandbox()?;
    let workers = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
    let bar = progress(&responses)?;
    let mut report = args.tables.report(Some(&registry))?;
    let (mut resumed, mut write_error) = (0, None);
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
        .with_context(|| format!("cannot write results to {}", args.out))?;
    if let Some(e) = write_error {
        return Err(e).with_context(|| format!("cannot write results to {}", args.out));
    }
    graded.map_err(anyhow::Error::msg)?;
    if resumed > 0 {
        eprintln!(
            "verigate: resumed after {resumed} result(s) already in {}",
            args.out
        );
    }
    let unused = judged.unused();
    if unused > 0 {
        eprintln!("verigate: {unused} judgment(s) match no response");
    }
    eprint!("\n{}", render(&report.summary(), args.tables.format));
    if bad_lines > 0 {
        eprintln!("verigate: {bad_lines} bad input line(s) skipped; every other line was graded");
        return Ok(ExitCode::from(super::EXIT_HOST_ERROR));
    }
    Ok(ExitCode::SUCCESS)
}
