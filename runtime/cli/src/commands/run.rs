//! `verigate run`: one verifier, one payload, one JSON line.

use super::registry::RegistryArgs;
use super::{CacheArgs, LimitArgs};
use anyhow::Context;
use clap::Args;
use clap::builder::TypedValueParser;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use verigate_sandbox::{Protocol, Request, read_module_file};

#[derive(Args)]
pub struct RunArgs {
    /// The verifier: a `.wasm` file (or `.wat` text), or a registry item id,
    /// whose module, protocol, limits and instance directory are then used.
    target: String,
    /// Payload file, or `-` for stdin (the payload exactly as the verifier receives it).
    #[arg(long, default_value = "-")]
    payload: String,
    /// Directory mounted read-only at `/item` inside the guest [default: the item's instance directory].
    #[arg(long)]
    item_dir: Option<PathBuf>,
    /// Verdict protocol [default: the item's, else the module's `verigate.protocol` section, else combench].
    ///
    /// `combench`: stdout, each line stripped and blank lines dropped, must be exactly the single
    /// line `True`. `verdict-json`: the last stdout line is a JSON object with `pass` (bool),
    /// `score` (number in [0, 1]) and optional `message` (string) and `details`.
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(Protocol::NAMES)
        .try_map(|name| name.parse::<Protocol>()))]
    protocol: Option<Protocol>,
    #[command(flatten)]
    limits: LimitArgs,
    #[command(flatten)]
    location: RegistryArgs,
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

/// What `run` needs to know about its target: its module, and the request
/// its item makes (limits, protocol, instance directory, row) without the payload.
struct Target {
    wasm: Vec<u8>,
    request: Request,
}

fn read_module(path: &Path) -> anyhow::Result<Vec<u8>> {
    read_module_file(path).map_err(anyhow::Error::msg)
}

fn resolve(args: &RunArgs) -> anyhow::Result<Target> {
    let path = Path::new(&args.target);
    if path.is_file() || path.extension().is_some_and(|e| e == "wasm" || e == "wat") {
        return Ok(Target {
            wasm: read_module(path)?,
            request: Request::new(Vec::new()),
        });
    }
    let registry = args.location.open()?;
    let item = registry.item(&args.target)?;
    let module = item
        .module
        .as_deref()
        .with_context(|| format!("item `{}` is analysis-centric and has no verifier", item.id))?;
    Ok(Target {
        wasm: registry.module_bytes(module)?,
        request: registry.request(item, Vec::new()),
    })
}

pub fn run(args: &RunArgs) -> anyhow::Result<ExitCode> {
    let Target { wasm, request } = resolve(args)?;
    let payload = read_payload(&args.payload)?;
    let item_dir = args.item_dir.clone().or(request.item_dir);
    if let Some(dir) = &item_dir
        && !dir.is_dir()
    {
        anyhow::bail!("item directory {} is not a directory", dir.display());
    }
    let sandbox = args.cache.sandbox()?;
    let protocol = args.protocol.or(request.protocol);
    let report = match sandbox.load(&wasm) {
        Ok(verifier) => {
            tracing::info!(
                cache = ?verifier.cache,
                load_ms = verifier.load_time.as_secs_f64() * 1e3,
                allocator = ?sandbox.allocator(),
                "module loaded"
            );
            let request = Request {
                payload,
                item_dir,
                limits: args.limits.apply(request.limits),
                protocol,
                row: request.row,
            };
            sandbox
                .run(&verifier, &request)
                .map_err(|e| anyhow::anyhow!("{e:#}"))
                .with_context(|| format!("cannot run {}", args.target))?
        }
        Err(refused) => refused.report(protocol.unwrap_or(Protocol::Combench)),
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
