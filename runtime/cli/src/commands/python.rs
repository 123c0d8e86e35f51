//! `verigate wrap-python`: a Python verifier script as a verifier module.

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
    /// Directory holding `lib/python3.11` [default: target/python/home].
    #[arg(long)]
    home: Option<PathBuf>,
}

/// Wraps `script` with the runner and standard library at `runner`/`home`
/// (default: where `registry/python/build.py` leaves them); returns the
/// script's text and the module.
pub fn wrap_script(
    script: &Path,
    runner: Option<&Path>,
    home: Option<&Path>,
) -> anyhow::Result<(String, Vec<u8>)> {
    let runtime_dir = PathBuf::from(PYTHON_RUNTIME_DIR);
    let runner_path = runner.map_or_else(|| runtime_dir.join("runner.wasm"), Path::to_path_buf);
    let home = home.map_or_else(|| runtime_dir.join("home"), Path::to_path_buf);
    let runner = std::fs::read(&runner_path).with_context(|| {
        format!(
            "cannot read the Python runner {} (build it with `python3 registry/python/build.py`)",
            runner_path.display()
        )
    })?;
    let text = std::fs::read_to_string(script)
        .with_context(|| format!("cannot read {} as UTF-8 text", script.display()))?;
    let runtime = PythonRuntime {
        runner: &runner,
        home: &home,
    };
    let module = wrap(&runtime, &text).map_err(|e| anyhow::anyhow!("{}: {e}", script.display()))?;
    Ok((text, module))
}

pub fn wrap_python(args: &WrapArgs) -> anyhow::Result<ExitCode> {
    let (_, module) = wrap_script(&args.script, args.runner.as_deref(), args.home.as_deref())?;
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
