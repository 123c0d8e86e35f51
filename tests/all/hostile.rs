//! The hostile-guest suite: each misbehaving guest gets the right outcome, and
//! the next job on the same sandbox still runs normally.

use crate::common::*;
use std::path::Path;
use verigate_sandbox::{Limits, Outcome, Protocol, RunReport, Sandbox, Verifier};

struct Hostile {
    sandbox: std::sync::Arc<Sandbox>,
    verifier: std::sync::Arc<Verifier>,
}

impl Hostile {
    fn new() -> Self {
        let sandbox = sandbox();
        let verifier = load(&sandbox, hostile_wasm());
        Hostile { sandbox, verifier }
    }

    fn run_in(&self, payload: &str, item_dir: Option<&Path>, limits: Limits) -> RunReport {
        let report = run_with(
            &self.sandbox,
            &self.verifier,
            payload,
            item_dir,
            limits,
            Some(Protocol::Combench),
        );
        // Whatever the guest did, the next job on the same sandbox runs normally.
        let control = run_with(
            &self.sandbox,
            &self.verifier,
            "true",
            None,
            tight_limits(),
            Some(Protocol::Combench),
        );
        assert_eq!(
            control.outcome,
            Outcome::Pass,
            "control after {payload:?}: {control:?}"
        );
        report
    }

    fn run(&self, payload: &str) -> RunReport {
        self.run_in(payload, None, tight_limits())
    }
}

fn assert_outcome(report: &RunReport, outcome: Outcome) {
    assert_eq!(report.outcome, outcome, "{report:#?}");
    assert!(!report.passed || outcome == Outcome::Pass);
    if !matches!(outcome, Outcome::Pass | Outcome::Fail) {
        assert_eq!(report.score, 0.0, "only a judged run has a score");
    }
}

#[test]
fn infinite_loop_exhausts_fuel_deterministically() {
    let h = Hostile::new();
    let first = h.run("loop");
    assert_outcome(&first, Outcome::FuelExhausted);
    assert_eq!(first.fuel_consumed, tight_limits().fuel);
}

#[test]
fn infinite_loop_with_unbounded_fuel_hits_the_deadline() {
    let h = Hostile::new();
    let limits = Limits {
        fuel: u64::MAX / 2,
        timeout_ms: 200,
        ..tight_limits()
    };
    let report = h.run_in("loop", None, limits);
    assert_outcome(&report, Outcome::Timeout);
}

#[test]
fn memory_bomb_is_memory_exceeded_not_trap() {
    let h = Hostile::new();
    let report = h.run("membomb");
    assert_outcome(&report, Outcome::MemoryExceeded);
    assert!(report.message.contains("memory cap"), "{}", report.message);
}

#[test]
fn memory_just_under_the_cap_passes() {
    let h = Hostile::new();
    let limits = Limits {
        memory_bytes: 48 << 20,
        fuel: 2_000_000_000,
        ..tight_limits()
    };
    assert_outcome(&h.run_in("alloc 40", None, limits), Outcome::Pass);
    assert_outcome(&h.run_in("alloc 60", None, limits), Outcome::MemoryExceeded);
}

#[test]
fn module_whose_minimum_memory_exceeds_the_cap_is_memory_exceeded() {
    let sandbox = sandbox();
    let verifier = sandbox
        .load(&wat_module("memory-huge-min.wat"))
        .expect("valid module");
    let report = run_with(&sandbox, &verifier, "", None, tight_limits(), None);
    assert_outcome(&report, Outcome::MemoryExceeded);
}

#[test]
fn limits_already_apply_while_instantiating() {
    let sandbox = sandbox();
    let verifier = sandbox
        .load(&wat_module("start-loop.wat"))
        .expect("valid module");
    let report = run_with(&sandbox, &verifier, "", None, tight_limits(), None);
    assert_outcome(&report, Outcome::FuelExhausted);
}

#[test]
fn deep_recursion_traps() {
    let h = Hostile::new();
    let report = h.run("recurse");
    assert_outcome(&report, Outcome::Trap);
    assert!(
        report.message.contains("call stack exhausted"),
        "{}",
        report.message
    );
}

#[test]
fn stdout_floods_are_output_overflow() {
    let h = Hostile::new();
    for mode in ["flood", "flood-raw"] {
        let report = h.run(mode);
        assert_outcome(&report, Outcome::OutputOverflow);
        assert!(report.stdout.len() <= tight_limits().max_output_bytes as usize);
    }
}

#[test]
fn host_files_are_out_of_reach() {
    let h = Hostile::new();
    let item = tempdir_with(&[("instance.json", "{}")]);
    let report = h.run_in("read-host-file", Some(item.path()), tight_limits());
    assert_outcome(&report, Outcome::Fail);
    assert!(!report.stdout.contains("root:"), "{}", report.stdout);
    assert!(
        !report.stdout.to_lowercase().contains("path="),
        "{}",
        report.stdout
    );
}

#[test]
fn only_the_item_directory_is_visible() {
    let h = Hostile::new();
    let item = tempdir_with(&[("instance.json", "{}"), ("grid.txt", "1 0\n0 1\n")]);
    let report = h.run_in("list-root", Some(item.path()), tight_limits());
    assert_outcome(&report, Outcome::Fail);
    assert!(report.stdout.contains("instance.json"), "{}", report.stdout);
    assert!(!report.stdout.contains("etc"), "{}", report.stdout);
    assert!(!report.stdout.contains("proc"), "{}", report.stdout);
}

#[test]
fn environment_args_and_network_are_empty() {
    let h = Hostile::new();
    let env = h.run("probe-env");
    assert_outcome(&env, Outcome::Fail);
    assert!(!env.stdout.contains("PATH"), "{}", env.stdout);
    assert!(!env.stdout.contains("HOME"), "{}", env.stdout);
    assert!(
        env.stdout.contains("verifier"),
        "argv[0] is the program name: {}",
        env.stdout
    );
    let net = h.run("probe-network");
    assert_outcome(&net, Outcome::Fail);
    assert!(
        !net.stdout.to_lowercase().contains("connected"),
        "{}",
        net.stdout
    );
}

#[test]
fn sleeping_for_an_hour_does_not_hold_a_worker() {
    let h = Hostile::new();
    let report = h.run("sleep 3600");
    assert_outcome(&report, Outcome::Pass);
}

#[test]
fn the_item_directory_is_read_only() {
    let h = Hostile::new();
    let item = tempdir_with(&[("instance.json", "{\"n\": 3}")]);
    let before = snapshot(item.path());
    let report = h.run_in("write-item", Some(item.path()), tight_limits());
    assert_outcome(&report, Outcome::Fail);
    assert_eq!(
        snapshot(item.path()),
        before,
        "guest output: {}",
        report.stdout
    );
}

#[test]
fn true_then_exit_nonzero_does_not_pass() {
    let h = Hostile::new();
    let report = h.run("true-then-exit 3");
    assert_outcome(&report, Outcome::ExitNonzero);
    assert_eq!(report.exit_code, Some(3));
    assert_outcome(&h.run("true-then-exit 0"), Outcome::Pass);
}

#[test]
fn true_then_panic_or_trap_does_not_pass() {
    let h = Hostile::new();
    let panic = h.run("true-then-panic");
    assert_outcome(&panic, Outcome::Trap);
    assert!(
        panic.message.contains("panicked"),
        "panic message kept: {}",
        panic.message
    );
    assert_outcome(&h.run("true-then-trap"), Outcome::Trap);
}

#[test]
fn combench_rejects_a_debug_line_before_true() {
    let h = Hostile::new();
    assert_outcome(&h.run("debug-then-true"), Outcome::Fail);
    assert_outcome(&h.run("true"), Outcome::Pass);
}

#[test]
fn verdict_json_protocol() {
    let h = Hostile::new();
    let run = |payload: &str| {
        run_with(
            &h.sandbox,
            &h.verifier,
            payload,
            None,
            tight_limits(),
            Some(Protocol::VerdictJson),
        )
    };
    let partial =
        run(r#"verdict {"pass": false, "score": 0.5, "message": "half", "details": {"k": 2}}"#);
    assert_outcome(&partial, Outcome::Fail);
    assert_eq!((partial.score, partial.message.as_str()), (0.5, "half"));
    assert_eq!(partial.details, Some(serde_json::json!({"k": 2})));
    assert_outcome(&run(r#"verdict {"pass": true, "score": 1}"#), Outcome::Pass);
    assert_outcome(&run("verdict not json"), Outcome::ProtocolError);
    assert_outcome(&run("true"), Outcome::ProtocolError);
}

#[test]
fn foreign_imports_and_bad_bytes_are_refused_before_running() {
    let sandbox = sandbox();
    let err = sandbox
        .load(&wat_module("unknown-import.wat"))
        .err()
        .expect("refused");
    assert!(err.reason.contains("env::host_escape"), "{}", err.reason);
    let err = sandbox
        .load(b"\0asm\x01\0\0\0garbage")
        .err()
        .expect("refused");
    assert!(
        err.reason.contains("not a valid WebAssembly module"),
        "{}",
        err.reason
    );
    let err = sandbox
        .load(&wat_module("no-start.wat"))
        .err()
        .expect("refused");
    assert!(err.reason.contains("_start"), "{}", err.reason);
    assert_eq!(
        err.report(Protocol::Combench).outcome,
        Outcome::InvalidModule
    );
}

#[test]
fn payload_over_the_cap_never_runs() {
    let h = Hostile::new();
    let limits = Limits {
        max_payload_bytes: 8,
        ..tight_limits()
    };
    let report = h.run_in("echo 0123456789", None, limits);
    assert_outcome(&report, Outcome::PayloadTooLarge);
    assert_eq!(report.fuel_consumed, 0);
}

#[test]
fn clocks_randomness_and_hash_seeds_are_fixed() {
    let h = Hostile::new();
    let first = h.run("nondet");
    let again = h.run("nondet");
    assert_eq!(first.stdout, again.stdout);
    assert_eq!(first.fuel_consumed, again.fuel_consumed);
    let other = sandbox();
    let third = run_with(
        &other,
        &load(&other, hostile_wasm()),
        "nondet",
        None,
        tight_limits(),
        None,
    );
    assert_eq!(first.stdout, third.stdout, "same output in another sandbox");
    assert!(
        first.stdout.contains("946684800"),
        "wall clock is 2000-01-01: {}",
        first.stdout
    );
}
