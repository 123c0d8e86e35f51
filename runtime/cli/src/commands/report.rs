//! `verigate report`: recompute the benchmark tables from a results file.

use super::registry::RegistryArgs;
use crate::render::{Format, render};
use anyhow::Context;
use clap::Args;
use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;
use std::process::ExitCode;
use verigate_grading::grade::GradeRecord;
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
    for (line, record) in verigate_grading::jsonl::read::<GradeRecord>(BufReader::new(file)) {
        match record {
            Ok(record) => report.add(&record),
            Err(e) => {
                bad_lines += 1;
                eprintln!("verigate: {}:{line}: {e}", args.results.display());
            }
        }
    }
    print!("{}", render(&report.summary(), args.tables.format));
    if bad_lines > 0 {
        eprintln!("verigate: {bad_lines} bad line(s) skipped");
        return Ok(ExitCode::from(super::EXIT_HOST_ERROR));
    }
    Ok(ExitCode::SUCCESS)
}
