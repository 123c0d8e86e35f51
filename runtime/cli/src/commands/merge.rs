//! `verigate merge`: the part files of `grade --shard` runs, checked and
//! concatenated into exactly the bytes a single `grade` writes.

use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct MergeArgs {
    /// The part files (`grade --shard I/N --out PART`), in any order.
    #[arg(required = true)]
    parts: Vec<PathBuf>,
    /// The results file to write.
    #[arg(long)]
    out: PathBuf,
}

pub fn run(args: &MergeArgs) -> anyhow::Result<ExitCode> {
    let merged =
        verigate_grading::grade::merge(&args.parts, &args.out).map_err(anyhow::Error::msg)?;
    eprintln!(
        "verigate: merged {} into {} ({})",
        crate::render::count(merged.parts, "part"),
        args.out.display(),
        crate::render::count(merged.records, "result")
    );
    Ok(ExitCode::SUCCESS)
}
