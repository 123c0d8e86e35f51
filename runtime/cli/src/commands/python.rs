//! `verigate wrap-python`: a Python verifier script as a standalone module.

use crate::python::{PYTHON_RUNTIME_DIR, PythonRuntime, wrap};
use anyhow::Context;
use clap::Args;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

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
    /// Directory holding `lib/python311.zip` [default: target/python/home].
    #[arg(long)]
    home: Option<PathBuf>,
}

/// A script's text; the error names the file.
pub fn read_script(script: &Path) -> anyhow::Result<String> {
    std::fs::read_to_string(script)
        .with_context(|| format!("cannot read {} as UTF-8 text", script.display()))
}

pub fn wrap_python(args: &WrapArgs) -> anyhow::Result<ExitCode> {
    let runtime_dir = PathBuf::from(PYTHON_RUNTIME_DIR);
    let runner_path = (args.runner.clone()).unwrap_or_else(|| runtime_dir.join("runner.wasm"));
    let home = (args.home.clone()).unwrap_or_else(|| runtime_dir.join("home"));
    let runner = std::fs::read(&runner_path).with_context(|| {
        format!(
            "cannot read the Python runner {} (build it with `python3 registry/python/build.py`)",
            runner_path.display()
        )
    })?;
    let text = read_script(&args.script)?;
    let runtime = PythonRuntime {
        runner: &runner,
        home: &home,
    };
    let module =
        wrap(&runtime, &text).map_err(|e| anyhow::anyhow!("{}: {e}", args.script.display()))?;
    std::fs::write(&args.out, &module)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    eprintln!(
        "{}: {} bytes, sha256 {}",
        args.out.display(),
        module.len(),
        verigate_sandbox::sha256_hex(&module)
    );
    Ok(ExitCode::SUCCESS)
}
