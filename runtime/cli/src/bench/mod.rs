//! `verigate bench`: what grading costs, measured side by side in one
//! process on the same payloads, and printed as ratios against the baselines
//! (the papers' one-Python-process-per-item pipeline, and the same verifier
//! compiled natively).

pub mod external;
pub mod memory;
pub mod python;

use external::{NativeVerifier, PythonVerifier};
use memory::GradingMemory;
use python::{PythonFigures, PythonInputs};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};
use verigate_grading::grade::ResponseLine;
use verigate_registry::Registry;
use verigate_sandbox::{
    EngineOptions, Job, Request, RunReport, Sandbox, SandboxOptions, Verifier, run_batch,
};

/// The smallest useful verifier: prints `True` with one `fd_write`.
const TRIVIAL_GUEST: &str = r#"(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 16) "True\n")
  (func (export "_start")
    (i32.store (i32.const 0) (i32.const 16))
    (i32.store (i32.const 4) (i32.const 5))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8)))))"#;

/// One run of a module: what to load and what to give it.
#[derive(Clone)]
pub struct Case {
    /// Module bytes.
    pub wasm: Arc<Vec<u8>>,
    /// The script an interpreter module runs (a Python verifier's).
    pub script: Option<Arc<str>>,
    /// What to run it on.
    pub request: Request,
}

impl Case {
    fn job(&self, verifier: &Arc<Verifier>) -> Job {
        Job {
            verifier: Arc::clone(verifier),
            request: self.request.clone(),
        }
    }
}

/// Everything the benchmark measures.
pub struct Inputs<'a> {
    /// Name of the workload item (printed).
    pub item: String,
    /// The workload: one item's payloads (its reference witness and
    /// counterexamples), timed one by one against the baselines.
    pub workload: Vec<Case>,
    /// The papers' pipeline on the same verifier, or why it is not measured.
    pub python: Result<PythonVerifier, String>,
    /// The same verifier compiled natively, or why it is not measured.
    pub native: Result<NativeVerifier, String>,
    /// Several verifiers mixed, for batch throughput.
    pub mix: Vec<Case>,
    /// The registry and response lines for the grading-memory measurement.
    pub registry: &'a Registry,
    /// Response lines cycled through to make long grading inputs.
    pub responses: Vec<ResponseLine>,
    /// A scratch directory for the compiled-module cache.
    pub cache_root: PathBuf,
    /// A compiled-module cache that already holds every module `responses`
    /// need, so that the grading-memory figures leave compiling out.
    pub grading_cache: PathBuf,
    /// A Python verifier on the shared interpreter, or why it is not measured.
    pub python_verifier: Result<PythonInputs, String>,
    /// Fewer samples (a run of a minute or two).
    pub quick: bool,
}

/// Figures for one payload of the workload.
#[derive(Debug, Serialize)]
pub struct PayloadFigures {
    /// Payload size.
    pub bytes: usize,
    /// The sandbox's verdict (the baselines must agree with it).
    pub passed: bool,
    /// Fuel one run consumed.
    pub fuel: u64,
    /// The guest's largest linear memory, MiB.
    pub guest_memory_mb: f64,
    /// One warm sandbox run, median, µs.
    pub warm_us: f64,
    /// The same without fuel metering, µs.
    pub warm_no_fuel_us: f64,
    /// One native check, median, µs.
    pub native_us: Option<f64>,
    /// One Python process, mean, ms.
    pub python_ms: Option<f64>,
}

/// The figures `verigate bench` prints. Per-item figures are means over the
/// workload's payloads of each payload's figure.
#[derive(Debug, Serialize)]
pub struct BenchReport {
    /// The workload item.
    pub item: String,
    /// Per-payload figures.
    pub payloads: Vec<PayloadFigures>,
    /// One `python3 verifier.py < payload` process, spawn to exit, ms.
    pub python_ms_per_item: Option<f64>,
    /// Of which start-up and exit (an empty program), ms.
    pub python_startup_ms: Option<f64>,
    /// The verifier compiled natively, in-process, µs.
    pub native_us_per_item: Option<f64>,
    /// One warm sandbox run (module compiled, pool warm), µs.
    pub warm_us_per_item: f64,
    /// The same without fuel metering, µs: what the deterministic budget costs.
    pub warm_no_fuel_us_per_item: f64,
    /// A fresh sandbox without a compiled-module cache: engine, compile,
    /// first run (median), ms.
    pub cold_ms_first_item: f64,
    /// A fresh sandbox with the cache present: engine, load, first run, ms.
    pub cached_ms_first_item: f64,
    /// Module compile alone, ms.
    pub compile_ms: f64,
    /// Module load from the on-disk cache alone, ms.
    pub cached_load_ms: f64,
    /// Opening the registry (every file but the modules hashed), median, ms.
    pub registry_open_ms: f64,
    /// The full sweep on top (module files hashed too, as every open did
    /// before), median, ms.
    pub registry_full_check_ms: f64,
    /// Per-run overhead (instantiate + WASI setup + run + teardown) of a
    /// trivial guest, p50, µs.
    pub overhead_p50_us: f64,
    /// Same, p99.
    pub overhead_p99_us: f64,
    /// `python_ms_per_item / warm_us_per_item`, one item at a time each.
    pub speedup_vs_python: Option<f64>,
    /// `warm_us_per_item / native_us_per_item`.
    pub ratio_vs_native: Option<f64>,
    /// Batch throughput over several verifiers mixed, by worker count.
    pub items_per_sec_by_workers: BTreeMap<usize, f64>,
    /// How many distinct verifiers the mix holds.
    pub mixed_verifiers: usize,
    /// Batch throughput on the workload's payloads, by worker count.
    pub workload_items_per_sec_by_workers: BTreeMap<usize, f64>,
    /// Host memory while grading long generated inputs, shorter one first.
    pub grading_memory: [GradingMemory; 2],
    /// A Python verifier on the shared interpreter.
    pub python_verifier: Option<PythonFigures>,
    /// Why a baseline was not measured.
    pub skipped: Vec<String>,
}

fn percentile(samples: &mut [Duration], p: f64) -> Duration {
    samples.sort_unstable();
    let index = ((samples.len() - 1) as f64 * p).round() as usize;
    samples[index]
}

fn mean(samples: &[Duration]) -> Duration {
    samples.iter().sum::<Duration>() / samples.len().max(1) as u32
}

fn median_us(samples: &mut [Duration]) -> f64 {
    micros(percentile(samples, 0.5))
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn mean_of(values: impl Iterator<Item = f64>) -> f64 {
    let (sum, n) = values.fold((0.0, 0), |(s, n), v| (s + v, n + 1));
    sum / f64::from(n.max(1))
}

/// Times `runs` runs; every run must reach the same verdict as the first.
fn time_runs(
    sandbox: &Sandbox,
    verifier: &Verifier,
    case: &Case,
    runs: usize,
) -> Result<(Vec<Duration>, RunReport), String> {
    let run = || {
        let started = Instant::now();
        let report = sandbox
            .run(verifier, &case.request)
            .map_err(|e| format!("{e:#}"))?;
        Ok::<_, String>((started.elapsed(), report))
    };
    let (_, first) = run()?;
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let (elapsed, report) = run()?;
        if report.outcome != first.outcome {
            return Err(format!(
                "unstable verdict: {} then {}",
                first.outcome, report.outcome
            ));
        }
        times.push(elapsed);
    }
    Ok((times, first))
}

/// Median times of opening `registry` anew and of the full file sweep, ms.
fn registry_open(registry: &Registry, runs: usize) -> Result<(f64, f64), String> {
    let (mut open, mut sweep) = (Vec::new(), Vec::new());
    for _ in 0..runs.max(1) {
        let started = Instant::now();
        let reopened = Registry::open(registry.root()).map_err(|e| e.0)?;
        open.push(started.elapsed());
        let started = Instant::now();
        reopened.check_all_files().map_err(|e| e.0)?;
        sweep.push(started.elapsed());
    }
    Ok((
        millis(percentile(&mut open, 0.5)),
        millis(percentile(&mut sweep, 0.5)),
    ))
}

/// `wasm` loaded, running `script` when it is an interpreter given one.
fn load(sandbox: &Sandbox, wasm: &[u8], script: Option<&str>) -> Result<Arc<Verifier>, String> {
    let verifier = sandbox.load(wasm).map_err(|e| e.to_string())?;
    match script {
        Some(source) => verifier
            .with_script(source)
            .map(Arc::new)
            .map_err(|e| e.to_string()),
        None => Ok(verifier),
    }
}

/// Items per second of `cases` cycled `count` times, by worker count.
fn throughput(
    sandbox: &Sandbox,
    cases: &[(Case, Arc<Verifier>)],
    count: usize,
) -> BTreeMap<usize, f64> {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let mut worker_counts = vec![1, 2, cores];
    worker_counts.sort_unstable();
    worker_counts.dedup();
    worker_counts
        .into_iter()
        .map(|workers| {
            let jobs = (0..count).map(|i| {
                let (case, verifier) = &cases[i % cases.len()];
                case.job(verifier)
            });
            let started = Instant::now();
            run_batch(sandbox, jobs, workers, |report| {
                assert!(report.is_ok(), "benchmark batch run failed");
            });
            (workers, count as f64 / started.elapsed().as_secs_f64())
        })
        .collect()
}

/// How many times each thing is measured.
struct Samples {
    trivial: usize,
    warm: usize,
    python: usize,
    loads: usize,
    batch: usize,
    /// Lengths of the two generated grading inputs.
    grade_lines: [usize; 2],
}

/// Runs the whole benchmark.
pub fn run(inputs: &Inputs<'_>, progress: impl Fn(&str)) -> Result<BenchReport, String> {
    let samples = if inputs.quick {
        Samples {
            trivial: 2_000,
            warm: 50,
            python: 5,
            loads: 3,
            batch: 2_000,
            grade_lines: [2_000, 20_000],
        }
    } else {
        Samples {
            trivial: 20_000,
            warm: 300,
            python: 20,
            loads: 7,
            batch: 20_000,
            grade_lines: [10_000, 100_000],
        }
    };
    let mut skipped = Vec::new();
    let sandbox_with = |cache_root: Option<&Path>, fuel_metering: bool| {
        Sandbox::new(&SandboxOptions {
            engine: EngineOptions {
                fuel_metering,
                ..EngineOptions::default()
            },
            cache_root: cache_root.map(Path::to_path_buf),
            ..SandboxOptions::default()
        })
        .map_err(|e| format!("{e:#}"))
    };
    let new_sandbox = |cache_root: Option<&Path>| sandbox_with(cache_root, true);

    // Memory first, while the process is small; modules come from a warm
    // cache, so that the peaks measure grading, not compiling.
    let [short, long] = samples.grade_lines;
    progress(&format!(
        "grading {short} and {long} generated lines (peak memory)"
    ));
    let workers = std::thread::available_parallelism().map_or(1, usize::from);
    let grading_memory = {
        let sandbox = new_sandbox(Some(&inputs.grading_cache))?;
        let grade = |count| {
            memory::grade_stream(inputs.registry, &sandbox, &inputs.responses, count, workers)
        };
        [grade(short)?, grade(long)?]
    };

    progress("opening the registry");
    let (registry_open_ms, registry_full_check_ms) = registry_open(inputs.registry, samples.loads)?;

    progress("per-run overhead of a trivial guest");
    let sandbox = new_sandbox(None)?;
    let trivial = Case {
        wasm: Arc::new(wat::parse_str(TRIVIAL_GUEST).map_err(|e| e.to_string())?),
        script: None,
        request: Request::default(),
    };
    let trivial_verifier = load(&sandbox, &trivial.wasm, None)?;
    let (mut overhead, _) = time_runs(&sandbox, &trivial_verifier, &trivial, samples.trivial)?;

    progress("the workload: sandbox, native and Python, payload by payload");
    let mut payloads = Vec::new();
    let mut workload = Vec::new();
    let unmetered = sandbox_with(None, false)?;
    for case in &inputs.workload {
        let verifier = load(&sandbox, &case.wasm, case.script.as_deref())?;
        let (mut warm, report) = time_runs(&sandbox, &verifier, case, samples.warm)?;
        let unmetered_verifier = load(&unmetered, &case.wasm, case.script.as_deref())?;
        let (mut no_fuel, _) = time_runs(&unmetered, &unmetered_verifier, case, samples.warm)?;
        let native_us = match &inputs.native {
            Ok(native) => {
                let (median, _, passed) = native.time(&case.request.payload, samples.warm)?;
                if passed != report.passed {
                    return Err(format!(
                        "the native build disagrees with the sandbox on a {}-byte payload",
                        case.request.payload.len()
                    ));
                }
                Some(micros(median))
            }
            Err(_) => None,
        };
        let python_ms = match &inputs.python {
            Ok(python) => {
                let (times, passed) = python.time(&case.request.payload, samples.python)?;
                if passed != report.passed {
                    return Err(format!(
                        "the Python verifier disagrees with the sandbox on a {}-byte payload",
                        case.request.payload.len()
                    ));
                }
                Some(millis(mean(&times)))
            }
            Err(_) => None,
        };
        payloads.push(PayloadFigures {
            bytes: case.request.payload.len(),
            passed: report.passed,
            fuel: report.fuel_consumed,
            guest_memory_mb: report.memory_bytes as f64 / f64::from(1 << 20),
            warm_us: micros(percentile(&mut warm, 0.5)),
            warm_no_fuel_us: micros(percentile(&mut no_fuel, 0.5)),
            native_us,
            python_ms,
        });
        workload.push((case.clone(), verifier));
    }
    let python_startup_ms = match &inputs.python {
        Ok(python) => Some(millis(mean(&python.time_startup(samples.python * 4)?))),
        Err(_) => None,
    };
    skipped.extend(inputs.python.as_ref().err().cloned());
    skipped.extend(inputs.native.as_ref().err().cloned());

    progress("cold start: compile versus the on-disk cache");
    let first = inputs
        .workload
        .first()
        .ok_or("the workload has no payload")?;
    let (mut cold, mut cached, mut compile, mut cached_load) = (vec![], vec![], vec![], vec![]);
    for _ in 0..samples.loads {
        let _ = std::fs::remove_dir_all(&inputs.cache_root);
        for (firsts, loads) in [(&mut cold, &mut compile), (&mut cached, &mut cached_load)] {
            let started = Instant::now();
            let sandbox = new_sandbox(Some(&inputs.cache_root))?;
            let verifier = load(&sandbox, &first.wasm, first.script.as_deref())?;
            sandbox
                .run(&verifier, &first.request)
                .map_err(|e| format!("{e:#}"))?;
            firsts.push(started.elapsed());
            loads.push(verifier.load_time);
        }
    }
    let _ = std::fs::remove_dir_all(&inputs.cache_root);

    progress("batch throughput");
    let workload_items_per_sec_by_workers = throughput(&sandbox, &workload, samples.batch / 4);
    let mix = inputs
        .mix
        .iter()
        .map(|case| {
            Ok((
                case.clone(),
                load(&sandbox, &case.wasm, case.script.as_deref())?,
            ))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let mixed_verifiers = {
        let mut shas: Vec<_> = mix.iter().map(|(_, v)| v.sha256.as_str()).collect();
        shas.sort_unstable();
        shas.dedup();
        shas.len()
    };
    let items_per_sec_by_workers = throughput(&sandbox, &mix, samples.batch);

    progress("a Python verifier on the shared interpreter");
    let python_verifier = match &inputs.python_verifier {
        Ok(python) => Some(python::measure(
            python,
            &inputs.cache_root.with_extension("python"),
            inputs.quick,
        )?),
        Err(why) => {
            skipped.push(why.clone());
            None
        }
    };

    let warm_us_per_item = mean_of(payloads.iter().map(|p| p.warm_us));
    let native_us_per_item = payloads
        .iter()
        .map(|p| p.native_us)
        .collect::<Option<Vec<_>>>()
        .map(|v| mean_of(v.into_iter()));
    let python_ms_per_item = payloads
        .iter()
        .map(|p| p.python_ms)
        .collect::<Option<Vec<_>>>()
        .map(|v| mean_of(v.into_iter()));
    Ok(BenchReport {
        warm_no_fuel_us_per_item: mean_of(payloads.iter().map(|p| p.warm_no_fuel_us)),
        item: inputs.item.clone(),
        payloads,
        speedup_vs_python: python_ms_per_item.map(|ms| ms * 1e3 / warm_us_per_item),
        ratio_vs_native: native_us_per_item.map(|us| warm_us_per_item / us),
        python_ms_per_item,
        python_startup_ms,
        native_us_per_item,
        warm_us_per_item,
        cold_ms_first_item: millis(percentile(&mut cold, 0.5)),
        cached_ms_first_item: millis(percentile(&mut cached, 0.5)),
        compile_ms: millis(percentile(&mut compile, 0.5)),
        cached_load_ms: millis(percentile(&mut cached_load, 0.5)),
        registry_open_ms,
        registry_full_check_ms,
        overhead_p50_us: micros(percentile(&mut overhead, 0.5)),
        overhead_p99_us: micros(percentile(&mut overhead, 0.99)),
        items_per_sec_by_workers,
        mixed_verifiers,
        workload_items_per_sec_by_workers,
        grading_memory,
        python_verifier,
        skipped,
    })
}
