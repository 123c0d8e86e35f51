//! `verigate wrap-python`: a Python verifier script as a verifier module.

use super::bundled;
use anyhow::Context;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use verigate::python::{PythonRuntime, wrap};

/// Where `registry/python/build.py` leaves the runner and the standard library.
const RUNNER: &str = "target/python/runner.wasm";
const HOME: &str = "target/python/home";

#[derive(Args)]
pub struct WrapArgs {
    /// The verifier script: reads the payload on stdin, prints its verdict.
    script: PathBuf,
    /// Where to write the module.
    #[arg(long)]
    out: PathBuf,
    /// The CPython runner module [default: target/python/runner.wasm, from
    /// `python3 registry/python/build.py`].
    #[arg(long)]
    runner: Option<PathBuf>,
    /// Directory holding `lib/python3.11` [default: target/python/home].
    #[arg(long)]
    home: Option<PathBuf>,
}

pub fn wrap_python(args: &WrapArgs) -> anyhow::Result<ExitCode> {
    let runner_path = args.runner.clone().unwrap_or_else(|| bundled(RUNNER));
    let home = args.home.clone().unwrap_or_else(|| bundled(HOME));
    let runner = std::fs::read(&runner_path).with_context(|| {
        format!(
            "cannot read the Python runner {} (build it with `python3 registry/python/build.py`)",
            runner_path.display()
        )
    })?;
    let script = std::fs::read_to_string(&args.script)
        .with_context(|| format!("cannot read {} as UTF-8 text", args.script.display()))?;
    let runtime = PythonRuntime {
        runner: &runner,
        home: &home,
    };
    let module =
        wrap(&runtime, &script).map_err(|e| anyhow::anyhow!("{}: {e}", args.script.display()))?;
    std::fs::write(&args.out, &module)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    eprintln!(
        "{}: {} bytes, sha256 {}",
        args.out.display(),
        module.len(),
        verigate::verifier::sha256_hex(&module)
    );
    Ok(ExitCode::SUCCESS)
}
