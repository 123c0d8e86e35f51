//! Batch runs keep input order and give identical verdicts whatever the
//! worker count; the compiled-module cache is used across sandboxes.

use crate::common::*;
use verigate_sandbox::{
    CacheStatus, Job, Outcome, Protocol, Request, RunReport, Sandbox, SandboxOptions, run_batch,
};

fn jobs(sandbox: &Sandbox, count: usize) -> Vec<Job> {
    let verifier = load(sandbox, hostile_wasm());
    (0..count)
        .map(|i| {
            let payload = match i % 5 {
                0 => "true".to_owned(),
                1 => format!("echo item {i}"),
                2 => "loop".to_owned(),
                3 => "nondet".to_owned(),
                _ => "membomb".to_owned(),
            };
            Job {
                verifier: verifier.clone(),
                request: Request {
                    limits: tight_limits(),
                    protocol: Some(Protocol::Combench),
                    ..Request::new(payload)
                },
            }
        })
        .collect()
}

fn batch(workers: usize, count: usize) -> Vec<RunReport> {
    let sandbox = sandbox();
    let mut reports = Vec::new();
    run_batch(&sandbox, jobs(&sandbox, count), workers, |report| {
        let mut report = report.expect("no host error");
        report.wall_ms = 0.0; // the one field that is not deterministic
        reports.push(report);
    });
    reports
}

#[test]
fn results_come_back_in_input_order_and_match_across_worker_counts() {
    let one = batch(1, 40);
    let three = batch(3, 40);
    assert_eq!(one.len(), 40);
    for (i, report) in one.iter().enumerate() {
        let expected = [
            Outcome::Pass,
            Outcome::Fail,
            Outcome::FuelExhausted,
            Outcome::Fail,
            Outcome::MemoryExceeded,
        ][i % 5];
        assert_eq!(report.outcome, expected, "job {i}: {report:?}");
        if i % 5 == 1 {
            assert_eq!(report.message, format!("item {i}"));
        }
    }
    assert_eq!(one, three);
}

#[test]
fn the_compiled_module_cache_is_shared_across_sandboxes() {
    let root = tempdir_with(&[]);
    let options = SandboxOptions {
        cache_root: Some(root.path().to_path_buf()),
        ..SandboxOptions::default()
    };
    let wasm = std::fs::read(hostile_wasm()).unwrap();
    let first = Sandbox::new(&options).unwrap();
    assert_eq!(first.load(&wasm).unwrap().cache, CacheStatus::Stored);
    assert_eq!(
        first.load(&wasm).unwrap().cache,
        CacheStatus::Stored,
        "loaded once per process"
    );
    let second = Sandbox::new(&options).unwrap();
    let cached = second.load(&wasm).unwrap();
    assert_eq!(cached.cache, CacheStatus::Hit);
    let report = run_with(&second, &cached, "true", None, tight_limits(), None);
    assert_eq!(report.outcome, Outcome::Pass);

    // A damaged entry is ignored and rewritten, never trusted.
    let entry = root
        .path()
        .join(second.fingerprint())
        .join(format!("{}.cwasm", cached.sha256));
    std::fs::write(&entry, b"not a compiled module").unwrap();
    let third = Sandbox::new(&options).unwrap();
    assert_eq!(third.load(&wasm).unwrap().cache, CacheStatus::Stored);
}
