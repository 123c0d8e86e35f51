//! `verigate build`: one guest crate, wherever it lives, to a `wasm32-wasip1`
//! module with the `guest` profile of `registry build`.

use crate::build::GUEST_PROFILE;
use anyhow::{Context, bail};
use clap::Args;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

#[derive(Args)]
pub struct BuildArgs {
    /// The crate's directory (holding its Cargo.toml).
    #[arg(default_value = ".")]
    dir: PathBuf,
}

const TARGET: &str = "wasm32-wasip1";

/// The workspace's `[profile.guest]` as `--config` settings, for a crate
/// outside the workspace (inside it they change nothing).
const GUEST_SETTINGS: [&str; 7] = [
    "inherits=\"release\"",
    "opt-level=3",
    "lto=true",
    "codegen-units=1",
    "panic=\"abort\"",
    "strip=true",
    "incremental=false",
];

/// Refuses, naming the command that fixes it, when the toolchain that builds
/// in `dir` has no standard library for the target.
fn check_target(dir: &Path) -> anyhow::Result<()> {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let Ok(out) = Command::new(rustc)
        .current_dir(dir)
        .args(["--print", "target-libdir", "--target", TARGET])
        .output()
    else {
        return Ok(()); // cargo will say what is wrong
    };
    let libdir = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    if out.status.success() && !Path::new(&libdir).is_dir() {
        bail!(
            "the Rust toolchain that builds {0} has no {TARGET} target; install it (in {0}) \
             with\n\n    rustup target add {TARGET}\n",
            dir.display()
        );
    }
    Ok(())
}

/// The `.wasm` files of the binaries in cargo's `--message-format json` output.
fn built_modules(messages: &[u8]) -> Vec<String> {
    let artifacts = (messages.split(|&b| b == b'\n'))
        .filter_map(|line| serde_json::from_slice::<serde_json::Value>(line).ok())
        .filter(|message| message["reason"] == "compiler-artifact");
    artifacts
        .filter_map(|message| message["executable"].as_str().map(str::to_owned))
        .filter(|path| path.ends_with(".wasm"))
        .collect()
}

pub fn run(args: &BuildArgs) -> anyhow::Result<ExitCode> {
    let dir = &args.dir;
    if !dir.join("Cargo.toml").is_file() {
        bail!("no Cargo.toml in {}", dir.display());
    }
    check_target(dir)?;
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let mut command = Command::new(&cargo);
    command.current_dir(dir).args([
        "build",
        "--manifest-path",
        "Cargo.toml",
        "--profile",
        GUEST_PROFILE,
        "--target",
        TARGET,
        "--message-format",
        "json-render-diagnostics",
    ]);
    for setting in GUEST_SETTINGS {
        command
            .arg("--config")
            .arg(format!("profile.{GUEST_PROFILE}.{setting}"));
    }
    let out = command
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .output()
        .with_context(|| format!("cannot run {cargo}"))?;
    if !out.status.success() {
        bail!("building {} failed ({})", dir.display(), out.status);
    }
    let modules = built_modules(&out.stdout);
    if modules.is_empty() {
        bail!(
            "{} has no binary target: a verifier is a program (src/main.rs)",
            dir.display()
        );
    }
    for module in modules {
        println!("{module}");
    }
    Ok(ExitCode::SUCCESS)
}
