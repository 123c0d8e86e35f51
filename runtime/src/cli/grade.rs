//! `verigate grade`: grade a JSONL file of model responses against the registry.

use super::CacheArgs;
use super::bundled;
use super::registry::RegistryArgs;
use anyhow::Context;
use clap::Args;
use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use verigate::grade::{Summary, grade};

#[derive(Args)]
pub struct GradeArgs {
    /// Responses, one JSON object per line: {"id", "sample", "response"}
    /// [default: the bundled example benchmark].
    responses: Option<PathBuf>,
    /// Where to write one JSON result per response, in input order (`-` for stdout).
    #[arg(long, default_value = "-")]
    out: String,
    /// Worker threads [default: one per core].
    #[arg(long)]
    jobs: Option<usize>,
    #[command(flatten)]
    location: RegistryArgs,
    #[command(flatten)]
    cache: CacheArgs,
}

fn print_summary(summary: &Summary, digest: &str) {
    eprintln!();
    eprintln!(
        "{:<14} {:>8} {:>8} {:>9} {:>10}  outcomes",
        "benchmark", "graded", "passed", "pass rate", "mean score"
    );
    for (benchmark, tally) in summary {
        let outcomes: Vec<String> = tally
            .outcomes
            .iter()
            .map(|(o, n)| format!("{o}={n}"))
            .collect();
        eprintln!(
            "{:<14} {:>8} {:>8} {:>8.1}% {:>10.3}  {}",
            benchmark,
            tally.graded,
            tally.passed,
            100.0 * tally.pass_rate(),
            tally.mean_score(),
            outcomes.join(" ")
        );
    }
    eprintln!("registry digest {digest}");
}

pub fn run(args: &GradeArgs) -> anyhow::Result<ExitCode> {
    let registry = args.location.open()?;
    let path = args
        .responses
        .clone()
        .unwrap_or_else(|| bundled("examples/toy/responses.jsonl"));
    let input =
        File::open(&path).with_context(|| format!("cannot open responses {}", path.display()))?;
    let mut out: Box<dyn Write> = if args.out == "-" {
        Box::new(std::io::stdout().lock())
    } else {
        let file =
            File::create(&args.out).with_context(|| format!("cannot create {}", args.out))?;
        Box::new(BufWriter::new(file))
    };
    let sandbox = args.cache.sandbox()?;
    let workers = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
    let mut write_error = None;
    let mut bad_lines = 0;
    let summary = grade(
        &registry,
        &sandbox,
        BufReader::new(input),
        workers,
        |record| {
            if write_error.is_none() {
                let written = serde_json::to_writer(&mut out, record)
                    .map_err(std::io::Error::from)
                    .and_then(|()| writeln!(out));
                write_error = written.err();
            }
        },
        |error| {
            bad_lines += 1;
            eprintln!(
                "verigate: {}:{}: {}",
                path.display(),
                error.line,
                error.message
            );
        },
    );
    out.flush()?;
    if let Some(e) = write_error {
        return Err(e).with_context(|| format!("cannot write results to {}", args.out));
    }
    print_summary(&summary, registry.digest());
    if bad_lines > 0 {
        eprintln!("verigate: {bad_lines} bad input line(s) skipped; every other line was graded");
        return Ok(ExitCode::from(super::EXIT_HOST_ERROR));
    }
    Ok(ExitCode::SUCCESS)
}
