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
use std::io::{BufRead, IsTerminal};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use verigate_grading::files::open_input;
use verigate_grading::grade::{GradeFile, GradeRecord, InputError, Shard, modules_needed};
use verigate_registry::Registry;
use verigate_sandbox::{CacheStatus, Sandbox};

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
    /// Grade only shard I of N (0-based) of the responses into the part file
    /// `--out`; `verigate merge` joins the parts into the single-run bytes.
    /// An existing part is complete and skipped; an interrupted one resumes.
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    shard: Option<(usize, usize)>,
    /// With `--shard`: shards of K lines each (N must be ⌈lines/K⌉)
    /// [default: N near-equal ranges].
    #[arg(long, value_name = "K", requires = "shard")]
    shard_lines: Option<usize>,
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

/// `I/N` as (I, N).
fn parse_shard(text: &str) -> Result<(usize, usize), String> {
    let parse = |part: &str| part.trim().parse::<usize>().ok();
    match text.split_once('/').map(|(i, n)| (parse(i), parse(n))) {
        Some((Some(i), Some(n))) if i < n => Ok((i, n)),
        _ => Err(format!("`{text}`: give I/N with 0 <= I < N, e.g. 0/8")),
    }
}

/// Prints a bad input line as `file:line: message`.
fn complain(path: &Path, error: InputError) {
    eprintln!(
        "verigate: {}:{}: {}",
        path.display(),
        error.line,
        error.message
    );
}

/// The worker count: `--jobs`, else one per core.
fn workers(jobs: Option<usize>) -> anyhow::Result<usize> {
    verigate_grading::grade::workers(jobs).map_err(|why| anyhow::anyhow!("--{why}"))
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
    let lines = open_input(path, "responses")
        .map_err(anyhow::Error::msg)?
        .lines()
        .count();
    let bar = ProgressBar::new(lines as u64).with_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} responses ({per_sec}, eta {eta})",
        )
        .expect("a valid template"),
    );
    Ok(bar)
}

/// Loads the modules the responses need before grading, compiling the ones
/// not in the cache in parallel with a progress line ("first run only"),
/// and logs (`-v`) each module's cache hit or compile.
fn compile_first(
    registry: &Registry,
    sandbox: &Sandbox,
    responses: &Path,
    workers: usize,
) -> anyhow::Result<()> {
    // A warm cache holds every module: no scan of the responses is needed.
    let all: Vec<String> = registry.modules().keys().cloned().collect();
    if registry.modules_to_compile(sandbox, &all).is_empty() {
        tracing::info!(modules = all.len(), "module cache: every module cached");
        return Ok(());
    }
    let input = open_input(responses, "responses").map_err(anyhow::Error::msg)?;
    let needed = modules_needed(registry, input);
    let to_compile = registry.modules_to_compile(sandbox, &needed).len();
    let bar = if to_compile > 0 && std::io::stderr().is_terminal() {
        ProgressBar::new(needed.len() as u64).with_style(
            ProgressStyle::with_template("{spinner} [{elapsed_precise}] {wide_bar} {msg}")
                .expect("a valid template"),
        )
    } else {
        ProgressBar::hidden()
    };
    if to_compile > 0 {
        eprintln!(
            "verigate: compiling {} (first run only; later runs load them from the cache)",
            crate::render::count(to_compile, "verifier module")
        );
    }
    let started = std::time::Instant::now();
    let (hits, compiled) = (AtomicUsize::new(0), AtomicUsize::new(0));
    registry.load_modules(sandbox, &needed, workers, |name, event| {
        let hit = event.cache() == Some(CacheStatus::Hit);
        (if hit { &hits } else { &compiled }).fetch_add(1, Ordering::Relaxed);
        tracing::info!(module = name, cache = ?event.cache(), "module loaded");
        bar.set_position(event.done as u64);
        bar.set_message(format!("{}/{} modules ({name})", event.done, event.total));
    });
    bar.finish_and_clear();
    tracing::info!(
        hits = hits.load(Ordering::Relaxed),
        compiled = compiled.load(Ordering::Relaxed),
        "module cache"
    );
    if to_compile > 0 {
        eprintln!(
            "verigate: modules ready in {:.1} s",
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
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
    let out = match args.out.as_str() {
        "-" if !args.resume && std::io::stdout().is_terminal() => {
            let name = fresh_results_name();
            eprintln!(
                "verigate: writing the results to {name} (stdout is a terminal; --out FILE \
                 names the file, a pipe gets the JSON lines)"
            );
            Some(PathBuf::from(name))
        }
        "-" => None,
        other => Some(PathBuf::from(other)),
    };
    tracing::info!(
        registry = %registry.root().display(),
        digest = registry.digest(),
        cache = ?args.cache.root(),
        workers,
        "grading"
    );
    let sandbox = args.cache.sandbox()?;
    if responses != Path::new("-") {
        compile_first(&registry, &sandbox, &responses, workers)?;
    }
    let bar = progress(&responses)?;
    let mut report = args.tables.report(Some(&registry))?;
    let mut kept = Vec::new();
    let run = GradeFile {
        responses: &responses,
        judgments: judgments.as_deref(),
        out: out.as_deref(),
        resume: args.resume,
        lines: None,
    };
    let shard = match args.shard {
        Some((index, count)) => {
            if out.is_none() || responses == Path::new("-") {
                bail!("--shard needs --responses FILE and --out PART (files, not stdin/stdout)");
            }
            let shard = Shard::of_file(&responses, index, count, args.shard_lines)
                .map_err(anyhow::Error::msg)?;
            bar.set_length(shard.lines.len() as u64);
            Some(shard)
        }
        None => None,
    };
    let on_record = |record: &GradeRecord, _| {
        report.add(record);
        if args.html.is_some() {
            kept.push(serde_json::to_value(record).expect("a record serialises"));
        }
        bar.inc(1);
    };
    let on_error = |path: &Path, error| bar.suspend(|| complain(path, error));
    let graded = match &shard {
        Some(shard) => run.run_shard(shard, &registry, &sandbox, workers, on_record, on_error),
        None => run.run(&registry, &sandbox, workers, on_record, on_error),
    };
    bar.finish_and_clear();
    let out_name = out
        .as_ref()
        .map_or("stdout".into(), |p| p.display().to_string());
    let summary_of_run = graded.map_err(anyhow::Error::new)?;
    if summary_of_run.part_exists {
        eprintln!("verigate: {out_name} is complete (a part of an earlier run): skipped");
        return Ok(ExitCode::SUCCESS);
    }
    let out_name = out
        .as_ref()
        .map_or("stdout".into(), |p| p.display().to_string());
    if summary_of_run.dropped_bytes > 0 {
        eprintln!(
            "verigate: {out_name}: dropped an unfinished last line ({} bytes) before resuming",
            summary_of_run.dropped_bytes
        );
    }
    if summary_of_run.resumed > 0 {
        eprintln!(
            "verigate: resumed after {} result(s) already in {out_name}",
            summary_of_run.resumed
        );
    }
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
    if summary_of_run.bad_lines > 0 {
        eprintln!(
            "verigate: {} skipped (not in the tables); every other line was graded",
            crate::render::count(summary_of_run.bad_lines, "bad input line")
        );
    }
    if let Some(unmatched) = &summary_of_run.unmatched {
        eprintln!("verigate: {}", unmatched.message);
    }
    Ok(if summary_of_run.failed() {
        ExitCode::from(super::EXIT_HOST_ERROR)
    } else {
        ExitCode::SUCCESS
    })
}
