//! `verigate run`: one verifier, one payload, one JSON line; or with
//! `--payloads`, every payload of a JSON Lines file on a warm pool, one JSON
//! line each, in order.

use super::registry::RegistryArgs;
use super::{CacheArgs, LimitArgs};
use anyhow::{Context, bail};
use clap::Args;
use clap::builder::TypedValueParser;
use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use verigate_registry::PYTHON_INTERPRETER;
use verigate_sandbox::{Job, Protocol, Request, RunReport, Sandbox, Verifier, read_module_file};

#[derive(Args)]
pub struct RunArgs {
    /// The verifier: a `.wasm` file (or `.wat` text), a Python script
    /// (`.py`, run on the registry's Python interpreter module), or a
    /// registry item id, whose module, protocol, limits and instance
    /// directory are then used.
    target: String,
    /// Payload file, or `-` for stdin (the payload exactly as the verifier receives it).
    #[arg(long, default_value = "-", conflicts_with = "payloads")]
    payload: String,
    /// A JSON Lines file of payloads (each line a JSON string, or an object
    /// with a string `payload`), or `-` for stdin: all are run in one
    /// process on a warm pool, and one report per line is printed, in order.
    /// Exits 0 when every payload ran, whatever the verdicts.
    #[arg(long, value_name = "FILE.jsonl")]
    payloads: Option<String>,
    /// With `--payloads`: worker threads, 1 to 256 [default: one per core].
    #[arg(short, long, requires = "payloads")]
    jobs: Option<usize>,
    /// For a `.py` target: the interpreter module [default: the registry's
    /// `python3.11`].
    #[arg(long, value_name = "FILE.wasm")]
    interpreter: Option<PathBuf>,
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

fn read_input(source: &str, what: &str) -> anyhow::Result<Vec<u8>> {
    if source == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .with_context(|| format!("cannot read the {what} from stdin"))?;
        Ok(bytes)
    } else {
        std::fs::read(source).with_context(|| format!("cannot read {what} file {source}"))
    }
}

/// The payloads of a `--payloads` file, each line a JSON string or an
/// object with a string `payload`; an error names the file, line and field.
fn read_payloads(source: &str) -> anyhow::Result<Vec<Vec<u8>>> {
    let name = if source == "-" { "<stdin>" } else { source };
    let text = read_input(source, "payloads")?;
    let mut payloads = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.with_context(|| format!("{name}:{}: not UTF-8 text", index + 1))?;
        if line.trim().is_empty() {
            continue;
        }
        let at = || format!("{name}:{}", index + 1);
        let value: serde_json::Value =
            serde_json::from_str(&line).with_context(|| format!("{}: not JSON", at()))?;
        let payload = match &value {
            serde_json::Value::String(text) => text,
            serde_json::Value::Object(fields) => match fields.get("payload") {
                Some(serde_json::Value::String(text)) => text,
                Some(_) => bail!("{}: field `payload` is not a string", at()),
                None => bail!("{}: no field `payload`", at()),
            },
            _ => bail!(
                "{}: a payload line is a JSON string or an object with `payload`",
                at()
            ),
        };
        payloads.push(payload.as_bytes().to_vec());
    }
    Ok(payloads)
}

/// What `run` runs its target on.
enum Payloads {
    /// `--payload`: one run, its verdict the exit status.
    One(Vec<u8>),
    /// `--payloads`: every line's payload, in order.
    File(Vec<Vec<u8>>),
}

/// What `run` needs to know about its target: its module, the script an
/// interpreter module runs, and the request its item makes (limits,
/// protocol, instance directory, row) without the payload.
struct Target {
    wasm: Vec<u8>,
    script: Option<String>,
    request: Request,
}

fn read_module(path: &Path) -> anyhow::Result<Vec<u8>> {
    read_module_file(path).map_err(anyhow::Error::msg)
}

fn resolve(args: &RunArgs) -> anyhow::Result<Target> {
    let path = Path::new(&args.target);
    if path.extension().is_some_and(|e| e == "py") {
        let script = super::python::read_script(path)?;
        let wasm = match &args.interpreter {
            Some(file) => read_module(file)?,
            None => (args.location.open()?)
                .module_bytes(PYTHON_INTERPRETER)
                .context("a `.py` target runs on the registry's Python interpreter (or pass --interpreter)")?,
        };
        return Ok(Target {
            wasm,
            script: Some(script),
            request: Request::new(Vec::new()),
        });
    }
    if path.is_file() || path.extension().is_some_and(|e| e == "wasm" || e == "wat") {
        return Ok(Target {
            wasm: read_module(path)?,
            script: None,
            request: Request::new(Vec::new()),
        });
    }
    let registry = args.location.open()?;
    let item = registry.item(&args.target)?;
    let module = item
        .module
        .as_deref()
        .with_context(|| format!("item `{}` is analysis-centric and has no verifier", item.id))?;
    let (_, entry) = registry.module(module)?;
    let script = entry
        .python
        .as_deref()
        .map(|s| registry.script(s))
        .transpose()?;
    Ok(Target {
        wasm: registry.module_bytes(module)?,
        script,
        request: registry.request(item, Vec::new()),
    })
}

/// The target's verifier loaded, its script attached; `Err` a refusal,
/// reported as an `invalid_module` run.
fn load(
    sandbox: &Sandbox,
    target: &Target,
) -> Result<Arc<Verifier>, verigate_sandbox::ModuleError> {
    let verifier = sandbox.load(&target.wasm)?;
    tracing::info!(
        cache = ?verifier.cache,
        load_ms = verifier.load_time.as_secs_f64() * 1e3,
        allocator = ?sandbox.allocator(),
        "module loaded"
    );
    match &target.script {
        Some(source) => verifier.with_script(source).map(Arc::new),
        None => Ok(verifier),
    }
}

fn print_report(out: &mut impl Write, report: &RunReport) -> anyhow::Result<()> {
    serde_json::to_writer(&mut *out, report)?;
    writeln!(out)?;
    Ok(())
}

pub fn run(args: &RunArgs) -> anyhow::Result<ExitCode> {
    let target = resolve(args)?;
    let item_dir = args.item_dir.clone().or(target.request.item_dir.clone());
    if let Some(dir) = &item_dir
        && !dir.is_dir()
    {
        bail!("item directory {} is not a directory", dir.display());
    }
    let payloads = match &args.payloads {
        Some(file) => Payloads::File(read_payloads(file)?),
        None => Payloads::One(read_input(&args.payload, "payload")?),
    };
    let sandbox = args.cache.sandbox()?;
    let protocol = args.protocol.or(target.request.protocol);
    let request = |payload| Request {
        payload,
        item_dir: item_dir.clone(),
        limits: args.limits.apply(target.request.limits),
        protocol,
        row: target.request.row.clone(),
    };
    let refusal = |refused: &verigate_sandbox::ModuleError| {
        refused.report(protocol.unwrap_or(Protocol::Combench))
    };
    let mut stdout = std::io::stdout().lock();
    let payloads = match payloads {
        Payloads::File(payloads) => payloads,
        Payloads::One(payload) => {
            let report = match load(&sandbox, &target) {
                Ok(verifier) => sandbox
                    .run(&verifier, &request(payload))
                    .map_err(|e| anyhow::anyhow!("{e:#}"))
                    .with_context(|| format!("cannot run {}", args.target))?,
                Err(refused) => refusal(&refused),
            };
            print_report(&mut stdout, &report)?;
            return Ok(if report.passed {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            });
        }
    };
    let verifier = match load(&sandbox, &target) {
        Ok(verifier) => verifier,
        Err(refused) => {
            for _ in &payloads {
                print_report(&mut stdout, &refusal(&refused))?;
            }
            return Ok(ExitCode::FAILURE);
        }
    };
    let workers =
        verigate_grading::grade::workers(args.jobs).map_err(|why| anyhow::anyhow!("--{why}"))?;
    let jobs = payloads.into_iter().map(|payload| Job {
        verifier: Arc::clone(&verifier),
        request: request(payload),
    });
    let mut failure = None;
    verigate_sandbox::run_batch(&sandbox, jobs, workers, |report| {
        if failure.is_some() {
            return;
        }
        let printed = report
            .map_err(|e| anyhow::anyhow!("cannot run {}: {e:#}", args.target))
            .and_then(|report| print_report(&mut stdout, &report));
        failure = printed.err();
    });
    failure.map_or(Ok(ExitCode::SUCCESS), Err)
}
