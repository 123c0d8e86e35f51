//! `verigate report`: recompute the benchmark tables from a results file.

use anyhow::Context;
use clap::Args;
use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;
use std::process::ExitCode;
use verigate::grade::GradeRecord;
use verigate::report::{Format, Report};

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
    /// An empty report computed as asked.
    pub fn report(&self) -> Report {
        let report = Report::default();
        if self.no_early_fail {
            report.without_harness_rules()
        } else {
            report
        }
    }
}

#[derive(Args)]
pub struct ReportArgs {
    /// Results written by `verigate grade` (JSONL).
    results: PathBuf,
    #[command(flatten)]
    tables: TableArgs,
}

pub fn run(args: &ReportArgs) -> anyhow::Result<ExitCode> {
    let file = File::open(&args.results)
        .with_context(|| format!("cannot open results {}", args.results.display()))?;
    let mut report = args.tables.report();
    let mut bad_lines = 0;
    for (line, record) in verigate::jsonl::read::<GradeRecord>(BufReader::new(file)) {
        match record {
            Ok(record) => report.add(&record),
            Err(e) => {
                bad_lines += 1;
                eprintln!("verigate: {}:{line}: {e}", args.results.display());
            }
        }
    }
    print!("{}", report.summary().render(args.tables.format));
    if bad_lines > 0 {
        eprintln!("verigate: {bad_lines} bad line(s) skipped");
        return Ok(ExitCode::from(super::EXIT_HOST_ERROR));
    }
    Ok(ExitCode::SUCCESS)
}
