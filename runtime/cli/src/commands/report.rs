//! `verigate report`: recompute the benchmark tables from a results file.

use super::registry::RegistryArgs;
use crate::render::{Format, render};
use anyhow::{Context, bail};
use clap::Args;
use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;
use std::process::ExitCode;
use verigate_grading::grade::{GradeRecord, ResponseLine};
use verigate_grading::jsonl::{Lines, MAX_LINE_BYTES, parse};
use verigate_grading::report::Report;
use verigate_registry::Registry;

/// How the tables are computed and printed (`report` and `grade`).
#[derive(Args)]
pub struct TableArgs {
    /// Output format of the tables.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// SCBench's per-task table: score every subtask on its own instead of applying
    /// the paper harness's early-fail rules.
    #[arg(long)]
    pub no_early_fail: bool,
}

impl TableArgs {
    /// An empty report computed as asked, with the benchmarks' own tables
    /// from `registry`'s benchmark data when there is a registry.
    pub fn report(&self, registry: Option<&Registry>) -> anyhow::Result<Report> {
        let report = match registry {
            Some(registry) => Report::for_registry(registry).map_err(anyhow::Error::msg)?,
            None => Report::default(),
        };
        Ok(if self.no_early_fail {
            report.without_harness_rules()
        } else {
            report
        })
    }
}

#[derive(Args)]
pub struct ReportArgs {
    /// Results written by `verigate grade` (JSONL).
    results: PathBuf,
    /// Where to write the report (required for `--format html`); else stdout.
    #[arg(long)]
    out: Option<PathBuf>,
    /// The responses the results were graded from, so the HTML page can show
    /// each sample's response and the payload its verifier saw.
    #[arg(long)]
    responses: Option<PathBuf>,
    #[command(flatten)]
    tables: TableArgs,
    #[command(flatten)]
    location: RegistryArgs,
}

pub fn run(args: &ReportArgs) -> anyhow::Result<ExitCode> {
    let file = File::open(&args.results)
        .with_context(|| format!("cannot open results {}", args.results.display()))?;
    // The registry holds the benchmarks' own tabulation data (SCBench's task table).
    let registry = match args.location.root() {
        Ok(_) => Some(args.location.open()?),
        Err(why) => {
            eprintln!("verigate: {why:#}; tables that need registry data are left out");
            None
        }
    };
    let mut report = args.tables.report(registry.as_ref())?;
    let mut bad_lines = 0;
    for (line, text) in Lines::new(BufReader::new(file), MAX_LINE_BYTES) {
        let parsed = text.and_then(|text| {
            if text.trim().is_empty() {
                return Ok(None);
            }
            parse::<GradeRecord>(&text)
                .map(Some)
                .map_err(|e| explain(e, &text))
        });
        match parsed {
            Ok(Some(record)) => report.add(&record),
            Ok(None) => {}
            Err(e) => {
                bad_lines += 1;
                eprintln!("verigate: {}:{line}: {e}", args.results.display());
            }
        }
    }
    let summary = report.summary();
    match (args.tables.format, &args.out) {
        (Format::Html, None) => bail!("--format html needs --out FILE"),
        (Format::Html, Some(out)) => {
            let responses = match &args.responses {
                Some(path) => crate::html::read_values(path)?,
                None => Vec::new(),
            };
            let records = crate::html::read_values(&args.results)?;
            let subtitle = args.results.display().to_string();
            crate::html::write(
                out,
                &summary,
                &records,
                &responses,
                registry.as_ref(),
                subtitle,
            )?;
        }
        (format, Some(out)) => std::fs::write(out, render(&summary, format))
            .with_context(|| format!("cannot write {}", out.display()))?,
        (format, None) => print!("{}", render(&summary, format)),
    }
    if bad_lines > 0 {
        eprintln!("verigate: {bad_lines} bad line(s) skipped");
        return Ok(ExitCode::from(super::EXIT_HOST_ERROR));
    }
    Ok(ExitCode::SUCCESS)
}

/// A results line's parse error, saying so when the line is a response
/// (a responses file given to `report` by mistake).
fn explain(error: String, text: &str) -> String {
    if parse::<ResponseLine>(text).is_ok() {
        format!(
            "{error}; this looks like a responses file (id, sample, response): `verigate report` \
             reads the results that `verigate grade` writes"
        )
    } else {
        error
    }
}
