//! `verigate report`: recompute the benchmark tables from a results file.

use anyhow::Context;
use clap::Args;
use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;
use std::process::ExitCode;
use verigate::grade::GradeRecord;
use verigate::report::{Format, Report};

#[derive(Args)]
pub struct ReportArgs {
    /// Results written by `verigate grade` (JSONL).
    results: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

pub fn run(args: &ReportArgs) -> anyhow::Result<ExitCode> {
    let file = File::open(&args.results)
        .with_context(|| format!("cannot open results {}", args.results.display()))?;
    let mut report = Report::default();
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
    print!("{}", report.summary().render(args.format));
    if bad_lines > 0 {
        eprintln!("verigate: {bad_lines} bad line(s) skipped");
        return Ok(ExitCode::from(super::EXIT_HOST_ERROR));
    }
    Ok(ExitCode::SUCCESS)
}
