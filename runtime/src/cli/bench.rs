//! `verigate bench`: sandbox costs, as a table or one JSON object.

use super::bundled;
use super::registry::RegistryArgs;
use anyhow::Context;
use clap::Args;
use std::process::ExitCode;
use verigate::bench::{Workload, run};

#[derive(Args)]
pub struct BenchArgs {
    /// Fewer samples (well under a minute).
    #[arg(long)]
    quick: bool,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    json: bool,
    /// Registry item whose verifier and reference witness are the typical workload.
    #[arg(long, default_value = "toy/derangement-9")]
    item: String,
    #[command(flatten)]
    location: RegistryArgs,
}

pub fn bench(args: &BenchArgs) -> anyhow::Result<ExitCode> {
    let registry = args.location.open()?;
    let item = registry.item(&args.item)?;
    let module = item
        .module
        .as_deref()
        .context("the benchmark item has no verifier")?;
    let (path, _) = registry.module(module)?;
    let wasm = std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
    let payload = item
        .reference
        .clone()
        .context("the benchmark item has no reference witness")?;
    let item_dir = registry.instance_dir(item);
    let workload = Workload {
        wasm: &wasm,
        payload: payload.as_bytes(),
        item_dir: item_dir.as_deref(),
    };
    let cache_root = bundled("target").join("bench-cache");
    let report = run(&workload, &cache_root, args.quick).map_err(|e| anyhow::anyhow!("{e:#}"))?;
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "workload: {} ({module}, {} bytes), reference witness",
        args.item,
        wasm.len()
    );
    println!(
        "per-run overhead, trivial guest   p50 {:>9.1} µs   p99 {:>9.1} µs",
        report.overhead_p50_us, report.overhead_p99_us
    );
    println!(
        "warm run, typical verifier        p50 {:>9.1} µs",
        report.warm_us_per_item
    );
    println!(
        "module load: compile {:.1} ms, from on-disk cache {:.2} ms  ({:.0}x faster)",
        report.compile_ms, report.cached_load_ms, report.cache_speedup
    );
    let one = report
        .items_per_sec_by_workers
        .get(&1)
        .copied()
        .unwrap_or(f64::NAN);
    for (workers, rate) in &report.items_per_sec_by_workers {
        println!(
            "batch, {workers:>2} worker(s): {rate:>10.0} items/s  ({:.2}x one worker)",
            rate / one
        );
    }
    Ok(ExitCode::SUCCESS)
}
