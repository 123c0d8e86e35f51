//! `verigate run`: one verifier, one payload, one JSON line.

use super::{CacheArgs, LimitArgs};
use anyhow::Context;
use clap::Args;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use verigate::{Protocol, RunRequest};

#[derive(Args)]
pub struct RunArgs {
    /// The verifier: a `.wasm` file (or `.wat` text).
    target: PathBuf,
    /// Payload file, or `-` for stdin.
    #[arg(long, default_value = "-")]
    payload: String,
    /// Directory mounted read-only at `/item` inside the guest.
    #[arg(long)]
    item_dir: Option<PathBuf>,
    /// Verdict protocol [default: the module's `verigate.protocol` section, else combench].
    #[arg(long)]
    protocol: Option<Protocol>,
    #[command(flatten)]
    limits: LimitArgs,
    #[command(flatten)]
    cache: CacheArgs,
}

fn read_payload(source: &str) -> anyhow::Result<Vec<u8>> {
    if source == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .context("cannot read the payload from stdin")?;
        Ok(bytes)
    } else {
        std::fs::read(source).with_context(|| format!("cannot read payload file {source}"))
    }
}

pub fn run(args: &RunArgs) -> anyhow::Result<ExitCode> {
    let source = std::fs::read(&args.target)
        .with_context(|| format!("cannot read module {}", args.target.display()))?;
    let wasm = if args.target.extension().is_some_and(|ext| ext == "wat") {
        wat::parse_bytes(&source)
            .with_context(|| format!("cannot parse module text {}", args.target.display()))?
            .into_owned()
    } else {
        source
    };
    let payload = read_payload(&args.payload)?;
    if let Some(dir) = &args.item_dir
        && !dir.is_dir()
    {
        anyhow::bail!("item directory {} is not a directory", dir.display());
    }
    let sandbox = args.cache.sandbox()?;
    let report = match sandbox.load(&wasm) {
        Ok(verifier) => {
            tracing::info!(
                cache = ?verifier.cache,
                load_ms = verifier.load_time.as_secs_f64() * 1e3,
                pooled = sandbox.pooled(),
                "module loaded"
            );
            let request = RunRequest {
                payload: &payload,
                item_dir: args.item_dir.as_deref(),
                limits: args.limits.limits(),
                protocol: args.protocol,
            };
            sandbox
                .run(&verifier, &request)
                .map_err(|e| anyhow::anyhow!("{e:#}"))
                .with_context(|| format!("cannot run {}", args.target.display()))?
        }
        Err(refused) => refused.report(args.protocol.unwrap_or(Protocol::Combench)),
    };
    let mut stdout = std::io::stdout().lock();
    serde_json::to_writer(&mut stdout, &report)?;
    writeln!(stdout)?;
    Ok(if report.passed {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
