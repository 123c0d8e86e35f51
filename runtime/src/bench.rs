//! `verigate bench`: measured costs of the sandbox, printed as ratios against
//! baselines taken in the same process.

use crate::batch::{Job, run_batch};
use crate::limits::Limits;
use crate::sandbox::{RunRequest, Sandbox, SandboxOptions};
use serde::Serialize;
use std::path::Path;
use std::time::{Duration, Instant};

/// The smallest useful verifier: prints `True` with one `fd_write`.
const TRIVIAL_GUEST: &str = r#"(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 16) "True\n")
  (func (export "_start")
    (i32.store (i32.const 0) (i32.const 16))
    (i32.store (i32.const 4) (i32.const 5))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8)))))"#;

/// A typical verifier and a payload it accepts, for compile and run figures.
pub struct Workload<'a> {
    /// Module bytes.
    pub wasm: &'a [u8],
    /// A payload to run it on.
    pub payload: &'a [u8],
    /// Its item directory.
    pub item_dir: Option<&'a Path>,
}

/// The figures `verigate bench` prints.
#[derive(Debug, Serialize)]
pub struct BenchReport {
    /// Per-run overhead (instantiate + WASI setup + run + teardown) of the trivial guest, p50, µs.
    pub overhead_p50_us: f64,
    /// Same, p99.
    pub overhead_p99_us: f64,
    /// Load of the typical module with no cache (compile), median, ms.
    pub compile_ms: f64,
    /// Load of the typical module from the on-disk cache, median, ms.
    pub cached_load_ms: f64,
    /// `compile_ms / cached_load_ms`.
    pub cache_speedup: f64,
    /// One warm run of the typical module, median, µs.
    pub warm_us_per_item: f64,
    /// Batch throughput of the typical module by worker count.
    pub items_per_sec_by_workers: std::collections::BTreeMap<usize, f64>,
}

fn percentile(samples: &mut [Duration], p: f64) -> Duration {
    samples.sort_unstable();
    let index = ((samples.len() - 1) as f64 * p).round() as usize;
    samples[index]
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn time_runs(
    sandbox: &Sandbox,
    verifier: &crate::Verifier,
    request: &RunRequest<'_>,
    runs: usize,
) -> Vec<Duration> {
    (0..runs)
        .map(|_| {
            let started = Instant::now();
            let report = sandbox.run(verifier, request).expect("benchmark run");
            let elapsed = started.elapsed();
            assert!(
                report.passed,
                "benchmark payload must pass: {}",
                report.message
            );
            elapsed
        })
        .collect()
}

/// Measures everything; `quick` takes fewer samples.
pub fn run(
    workload: &Workload<'_>,
    cache_root: &Path,
    quick: bool,
) -> wasmtime::Result<BenchReport> {
    let (runs, loads, batch) = if quick {
        (2_000, 3, 2_000)
    } else {
        (20_000, 7, 20_000)
    };
    let sandbox = Sandbox::new(&SandboxOptions::default())?;
    let limits = Limits::default();

    let trivial = sandbox.load(&wat::parse_str(TRIVIAL_GUEST)?)?;
    let request = RunRequest {
        payload: b"",
        item_dir: None,
        limits,
        protocol: None,
    };
    time_runs(&sandbox, &trivial, &request, runs / 10); // warm-up
    let mut overhead = time_runs(&sandbox, &trivial, &request, runs);

    let mut compile = Vec::new();
    let mut cached = Vec::new();
    for _ in 0..loads {
        let _ = std::fs::remove_dir_all(cache_root);
        let options = SandboxOptions {
            cache_root: Some(cache_root.to_path_buf()),
            ..SandboxOptions::default()
        };
        compile.push(Sandbox::new(&options)?.load(workload.wasm)?.load_time);
        cached.push(Sandbox::new(&options)?.load(workload.wasm)?.load_time);
    }
    let _ = std::fs::remove_dir_all(cache_root);

    let typical = sandbox.load(workload.wasm)?;
    let request = RunRequest {
        payload: workload.payload,
        item_dir: workload.item_dir,
        limits,
        protocol: None,
    };
    let mut warm = time_runs(&sandbox, &typical, &request, runs / 4);

    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let mut worker_counts = vec![1, 2, cores];
    worker_counts.dedup();
    let mut items_per_sec_by_workers = std::collections::BTreeMap::new();
    for workers in worker_counts {
        let jobs = (0..batch).map(|_| Job {
            verifier: typical.clone(),
            payload: workload.payload.to_vec(),
            item_dir: workload.item_dir.map(Path::to_path_buf),
            limits,
            protocol: None,
        });
        let started = Instant::now();
        run_batch(&sandbox, jobs, workers, |report| {
            assert!(report.is_ok_and(|r| r.passed))
        });
        items_per_sec_by_workers.insert(workers, batch as f64 / started.elapsed().as_secs_f64());
    }

    let compile_ms = millis(percentile(&mut compile, 0.5));
    let cached_load_ms = millis(percentile(&mut cached, 0.5));
    Ok(BenchReport {
        overhead_p50_us: micros(percentile(&mut overhead, 0.5)),
        overhead_p99_us: micros(percentile(&mut overhead, 0.99)),
        compile_ms,
        cached_load_ms,
        cache_speedup: compile_ms / cached_load_ms,
        warm_us_per_item: micros(percentile(&mut warm, 0.5)),
        items_per_sec_by_workers,
    })
}
