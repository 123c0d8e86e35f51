//! `verigate bench`: the sandbox against the Python pipeline and native code,
//! as a table or one JSON object.

use super::grade::EXAMPLE_RESPONSES;
use super::registry::RegistryArgs;
use crate::bench::external::{NativeVerifier, PythonVerifier, build_native, python_interpreter};
use crate::bench::python::PythonInputs;
use crate::bench::{BenchReport, Case, Inputs, run};
use anyhow::Context;
use clap::Args;
use std::collections::BTreeMap;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::Arc;
use verigate_grading::grade::ResponseLine;
use verigate_registry::{Item, PYTHON_INTERPRETER, Registry, RegistryError};

/// The workload the targets are stated for, and its Python twin.
const DEFAULT_ITEM: &str = "combench/IMO-2020-P4-33";
const DEFAULT_PYTHON: &str = "registry/items/combench/IMO-2020-P4-33-py/instance/verifier.py";
/// The registry's Python verifier of the same problem, on the shared interpreter.
const DEFAULT_PYTHON_ITEM: &str = "combench/IMO-2020-P4-33-py";

#[derive(Args)]
pub struct BenchArgs {
    /// Fewer samples (a minute or two).
    #[arg(long)]
    quick: bool,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    json: bool,
    /// Registry item whose verifier, reference witness and counterexamples are the workload.
    #[arg(long, default_value = DEFAULT_ITEM)]
    item: String,
    /// Python verifier for the workload (payload on stdin, prints `True`)
    /// [default: the bundled one for the default item].
    #[arg(long, conflicts_with = "no_python")]
    python: Option<PathBuf>,
    /// Leave out the Python pipeline (its processes dominate the run time).
    #[arg(long)]
    no_python: bool,
    /// The workload's verifier built for the host [default: built with cargo
    /// from the module's source crate].
    #[arg(long)]
    native: Option<PathBuf>,
    /// Time this module on the workload instead of the registry's (e.g. a
    /// build of the same crate with other settings).
    #[arg(long)]
    module: Option<PathBuf>,
    #[command(flatten)]
    location: RegistryArgs,
}

/// Module bytes read so far, by module name: items share their module's bytes.
type Modules = BTreeMap<String, Arc<Vec<u8>>>;

/// The item's payloads, reference witness first, as benchmark cases.
fn cases(registry: &Registry, item: &Item, modules: &mut Modules) -> anyhow::Result<Vec<Case>> {
    let Some(module) = item.module.as_deref() else {
        return Ok(Vec::new());
    };
    let wasm = match modules.get(module) {
        Some(wasm) => Arc::clone(wasm),
        None => {
            let wasm = Arc::new(registry.module_bytes(module)?);
            modules.insert(module.to_owned(), Arc::clone(&wasm));
            wasm
        }
    };
    let (_, entry) = registry.module(module)?;
    let script: Option<Arc<str>> = match &entry.python {
        Some(path) => Some(registry.script(path)?.into()),
        None => None,
    };
    Ok(payloads(item)
        .map(|payload| Case {
            wasm: Arc::clone(&wasm),
            script: script.clone(),
            request: registry.request(item, payload.clone().into_bytes()),
        })
        .collect())
}

/// An item's payloads, reference witness first.
fn payloads(item: &Item) -> impl Iterator<Item = &String> {
    item.reference
        .iter()
        .chain(item.counterexamples.iter().map(|c| &c.payload))
}

/// The Python verifier figures' inputs: the registry's interpreter and its
/// Python verifier for IMO-2020-P4, or why not.
fn python_verifier(args: &BenchArgs, registry: &Registry) -> Result<PythonInputs, String> {
    let why = |e: RegistryError| format!("Python verifier figures: {}", e.0);
    let item = registry.item(DEFAULT_PYTHON_ITEM).map_err(why)?;
    let module = item.module.as_deref().unwrap_or_default();
    let (_, entry) = registry.module(module).map_err(why)?;
    let script_path = registry
        .root()
        .join(entry.python.as_deref().unwrap_or_default());
    Ok(PythonInputs {
        interpreter: Arc::new(registry.module_bytes(PYTHON_INTERPRETER).map_err(why)?),
        script: registry
            .script(entry.python.as_deref().unwrap_or_default())
            .map_err(why)?,
        requests: payloads(item)
            .map(|p| registry.request(item, p.clone().into_bytes()))
            .collect(),
        script_path,
        native: if args.no_python {
            Err("left out (--no-python)".into())
        } else {
            python_interpreter()
        },
        registry_root: registry.root().to_path_buf(),
    })
}

/// The Python pipeline's verifier: `--python`, else the script a Python
/// module was wrapped from, else the bundled one for the default item.
fn python(args: &BenchArgs, registry: &Registry, item: &Item) -> Result<PythonVerifier, String> {
    if args.no_python {
        return Err("Python pipeline: left out (--no-python)".into());
    }
    let wrapped_from = (item.module.as_deref())
        .and_then(|module| registry.modules().get(module)?.python.as_deref());
    let script = match (&args.python, wrapped_from) {
        (Some(script), _) => script.clone(),
        (None, Some(script)) => registry.root().join(script),
        (None, None) if args.item == DEFAULT_ITEM => PathBuf::from(DEFAULT_PYTHON),
        (None, None) => {
            return Err(format!(
                "Python pipeline: no Python verifier for {} (pass --python)",
                args.item
            ));
        }
    };
    Ok(PythonVerifier {
        interpreter: python_interpreter().map_err(|e| format!("Python pipeline: {e}"))?,
        script,
    })
}

fn native(
    args: &BenchArgs,
    registry: &Registry,
    item: &Item,
    protocol: verigate_sandbox::Protocol,
) -> Result<NativeVerifier, String> {
    let binary = match &args.native {
        Some(binary) => binary.clone(),
        None => {
            let module = item.module.as_deref().unwrap_or_default();
            let source = registry
                .modules()
                .get(module)
                .and_then(|entry| entry.source.as_deref())
                .ok_or_else(|| format!("native floor: module {module} has no source crate"))?;
            let krate = Path::new(source)
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or(source);
            eprintln!("bench: building {krate} for the host (the native floor)");
            build_native(&PathBuf::from("."), krate).map_err(|e| format!("native floor: {e}"))?
        }
    };
    Ok(NativeVerifier { binary, protocol })
}

/// Fills `cache` with every module `responses` need, by grading them in a child
/// `verigate grade`: the grading-memory figures then load compiled modules as
/// a user's warm cache does, without compiling (and the memory it keeps) in
/// this process.
fn warm_cache(registry: &Path, responses: &Path, cache: &Path) -> anyhow::Result<()> {
    eprintln!(
        "bench: compiling the bundled examples' modules into {}",
        cache.display()
    );
    let exe = std::env::current_exe().context("cannot find the verigate executable")?;
    let out = Command::new(exe)
        .arg("grade")
        .arg("--registry")
        .arg(registry)
        .arg("--responses")
        .arg(responses)
        .args(["--format", "json"])
        .env("VERIGATE_CACHE_DIR", cache)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .context("cannot start verigate grade")?;
    anyhow::ensure!(
        out.status.success(),
        "verigate grade failed while filling the module cache: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(())
}

pub fn bench(args: &BenchArgs) -> anyhow::Result<ExitCode> {
    let registry = args.location.open()?;
    let item = registry.item(&args.item)?;
    let mut modules = Modules::new();
    let mut workload = cases(&registry, item, &mut modules)?;
    if let Some(path) = &args.module {
        let wasm = Arc::new(
            std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?,
        );
        for case in &mut workload {
            case.wasm = Arc::clone(&wasm);
        }
    }
    anyhow::ensure!(
        !workload.is_empty(),
        "{} has no verifier or no reference witness",
        args.item
    );
    let protocol = item.protocol.unwrap_or(
        verigate_sandbox::module::declared_protocol(&workload[0].wasm)
            .map_err(anyhow::Error::msg)?
            .unwrap_or(verigate_sandbox::Protocol::Combench),
    );
    let mut mix = Vec::new();
    for item in registry.items().values() {
        mix.extend(cases(&registry, item, &mut modules)?);
    }
    let examples = PathBuf::from(EXAMPLE_RESPONSES);
    let file = std::fs::File::open(&examples)
        .with_context(|| format!("cannot open {}", examples.display()))?;
    let responses = verigate_grading::jsonl::read::<ResponseLine>(BufReader::new(file))
        .map(|(line, parsed)| {
            parsed.map_err(|e| anyhow::anyhow!("{}:{line}: {e}", examples.display()))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let grading_cache = PathBuf::from("target").join("bench-grading-cache");
    warm_cache(&args.location.root()?, &examples, &grading_cache)?;
    let inputs = Inputs {
        item: args.item.clone(),
        python: python(args, &registry, item),
        native: native(args, &registry, item, protocol),
        workload,
        mix,
        registry: &registry,
        responses,
        cache_root: PathBuf::from("target").join("bench-cache"),
        grading_cache,
        python_verifier: python_verifier(args, &registry),
        quick: args.quick,
    };
    let report = run(&inputs, |phase| eprintln!("bench: {phase}")).map_err(anyhow::Error::msg)?;
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        print_table(&report);
    }
    Ok(ExitCode::SUCCESS)
}

fn or_dash(value: Option<f64>, precision: usize) -> String {
    value.map_or_else(|| "—".to_owned(), |v| format!("{v:.precision$}"))
}

fn print_table(r: &BenchReport) {
    println!(
        "workload: {} — {} payloads (reference witness first)",
        r.item,
        r.payloads.len()
    );
    println!(
        "{:>8} {:>6} {:>12} {:>7} {:>10} {:>10} {:>11} {:>10}",
        "bytes", "pass", "fuel", "MiB", "native µs", "warm µs", "no-fuel µs", "python ms"
    );
    for p in &r.payloads {
        println!(
            "{:>8} {:>6} {:>12} {:>7.1} {:>10} {:>10.1} {:>11.1} {:>10}",
            p.bytes,
            p.passed,
            p.fuel,
            p.guest_memory_mb,
            or_dash(p.native_us, 1),
            p.warm_us,
            p.warm_no_fuel_us,
            or_dash(p.python_ms, 2)
        );
    }
    println!("\nper item (mean over the payloads), one item at a time:");
    let rows = [
        (
            "python3 process per item",
            or_dash(r.python_ms_per_item, 2),
            "ms",
            "spawn to exit",
        ),
        (
            "  of which start-up and exit",
            or_dash(r.python_startup_ms, 2),
            "ms",
            "an empty program",
        ),
        (
            "native (same crate, host)",
            or_dash(r.native_us_per_item, 1),
            "µs",
            "in-process",
        ),
        (
            "verigate warm",
            format!("{:.1}", r.warm_us_per_item),
            "µs",
            "fuel metered",
        ),
        (
            "verigate warm, no fuel",
            format!("{:.1}", r.warm_no_fuel_us_per_item),
            "µs",
            "for comparison only",
        ),
        (
            "verigate cold, no cache",
            format!("{:.1}", r.cold_ms_first_item),
            "ms",
            "engine + compile + first run",
        ),
        (
            "verigate cold, cache present",
            format!("{:.1}", r.cached_ms_first_item),
            "ms",
            "engine + cached load + first run",
        ),
    ];
    for (what, value, unit, note) in rows {
        println!("  {what:<30} {value:>10} {unit}  ({note})");
    }
    println!(
        "  ratios: verigate warm / native {}x;  python / verigate warm {}x",
        or_dash(r.ratio_vs_native, 2),
        or_dash(r.speedup_vs_python, 0)
    );

    println!("\nwhere a warm run's time goes:");
    println!(
        "  sandbox overhead (trivial guest: instantiate + WASI + teardown): p50 {:.1} µs, p99 {:.1} µs",
        r.overhead_p50_us, r.overhead_p99_us
    );
    println!(
        "  the verifier's own code: {:.1} µs of {:.1} µs; fuel metering adds {:+.0}% to it",
        r.warm_us_per_item - r.overhead_p50_us,
        r.warm_us_per_item,
        (r.warm_us_per_item / r.warm_no_fuel_us_per_item - 1.0) * 100.0
    );
    if let Some(startup) = r.python_startup_ms {
        println!(
            "  (the Python pipeline pays {startup:.1} ms of start-up per item: {:.0}x verigate's per-run overhead)",
            startup * 1e3 / r.overhead_p50_us
        );
    }
    println!(
        "  module compile {:.1} ms; load from the on-disk cache {:.2} ms",
        r.compile_ms, r.cached_load_ms
    );
    println!(
        "  registry open {:.1} ms (module files hashed when loaded); opening with every file \
         hashed, as before: {:.1} ms ({:.1}x)",
        r.registry_open_ms,
        r.registry_open_ms + r.registry_full_check_ms,
        (r.registry_open_ms + r.registry_full_check_ms) / r.registry_open_ms
    );

    println!("\nbatch throughput:");
    let table = |title: &str, rates: &std::collections::BTreeMap<usize, f64>| {
        let one = rates.get(&1).copied().unwrap_or(f64::NAN);
        for (workers, rate) in rates {
            println!(
                "  {title:<22} {workers:>2} worker(s): {rate:>8.0} items/s  ({:.2}x one worker)",
                rate / one
            );
        }
    };
    table("workload", &r.workload_items_per_sec_by_workers);
    table(
        &format!("{} verifiers mixed", r.mixed_verifiers),
        &r.items_per_sec_by_workers,
    );
    if let Some(python) = r.python_ms_per_item {
        let best = r
            .workload_items_per_sec_by_workers
            .values()
            .copied()
            .fold(0.0, f64::max);
        println!(
            "  python pipeline, one process at a time: {:.0} items/s (verigate's best on the workload: {:.0}x that)",
            1e3 / python,
            best * python / 1e3
        );
    }

    let [short, long] = &r.grading_memory;
    println!(
        "\ngrading the bundled examples over and over (all workers, modules loaded): peak host memory {} MiB at {} lines, {} MiB at {} lines; {:.0} lines/s",
        or_dash(short.peak_rss_mb, 1),
        short.lines,
        or_dash(long.peak_rss_mb, 1),
        long.lines,
        long.lines_per_sec
    );
    if let Some(p) = &r.python_verifier {
        println!(
            "\na Python verifier on the shared interpreter (IMO-2020-P4's script, {} bytes):",
            p.script_bytes
        );
        println!(
            "  disk: the script, {} bytes; the interpreter module, {:.1} MiB once per registry",
            p.script_bytes,
            p.interpreter_bytes as f64 / f64::from(1 << 20)
        );
        println!(
            "  a new script's first verdicts (every payload of its item, interpreter compiled): {:.1} ms; \
             compiling the interpreter, once per machine: {:.0} ms",
            p.new_script_checks_ms, p.interpreter_compile_ms
        );
        println!(
            "  warm check {:.0} µs; the same script in one native CPython process {} µs ({}x)",
            p.warm_us,
            or_dash(p.native_us, 0),
            or_dash(p.native_us.map(|n| p.warm_us / n), 2)
        );
        println!(
            "  trivial script (print(True)) warm {:.0} µs; natively {} µs",
            p.trivial_warm_us,
            or_dash(p.trivial_native_us, 1)
        );
        println!(
            "  {} payloads through one `verigate run script.py --payloads` process: {:.2} s; \
             one process per payload: {:.0} ms each, {:.1} s for all ({:.0}x)",
            p.batch_payloads,
            p.batch_s,
            p.process_per_payload_ms,
            p.process_per_payload_ms * p.batch_payloads as f64 / 1e3,
            p.process_per_payload_ms * p.batch_payloads as f64 / 1e3 / p.batch_s
        );
    }
    for reason in &r.skipped {
        println!("not measured: {reason}");
    }
}
