//! Python verifiers, run unchanged in the sandbox: CPython (the runner built by
//! `registry/python/build.py`) pre-initialised with a script by
//! `verigate::python::wrap`. The runner is built on first use when missing
//! (a download from PyPI); without network the tests are skipped, with the
//! reason printed.

use crate::common::{repo_root, run_with, sandbox, tight_limits};
use std::sync::{Arc, OnceLock};
use verigate::python::{PythonRuntime, wrap};
use verigate_registry::Registry;
use verigate_sandbox::{Limits, Outcome, RunReport, Sandbox, Verifier};

/// A driver that runs the payload as a Python program: the hostile suite's
/// scripts are its payloads.
const EXEC_PAYLOAD: &str = "import sys\nexec(compile(sys.stdin.read(), 'payload.py', 'exec'))\n";

/// The runner and standard library, built by `registry/python/build.py` (run
/// here once if missing; it downloads the pinned sdist), or why not.
fn runtime() -> Result<&'static (Vec<u8>, std::path::PathBuf), &'static str> {
    static RUNTIME: OnceLock<Result<(Vec<u8>, std::path::PathBuf), String>> = OnceLock::new();
    RUNTIME
        .get_or_init(|| {
            let runner = repo_root().join("target/python/runner.wasm");
            if !runner.exists() {
                let built = std::process::Command::new("python3")
                    .arg(repo_root().join("registry/python/build.py"))
                    .status()
                    .map_err(|e| format!("cannot run registry/python/build.py: {e}"))?;
                if !built.success() {
                    return Err(format!("registry/python/build.py failed ({built})"));
                }
            }
            let bytes = std::fs::read(&runner).map_err(|e| format!("{}: {e}", runner.display()))?;
            Ok((bytes, repo_root().join("target/python/home")))
        })
        .as_ref()
        .map_err(String::as_str)
}

/// `script` wrapped, or `None` (with the reason printed) without a runner.
fn wrapped(script: &str) -> Option<Vec<u8>> {
    match runtime() {
        Ok((runner, home)) => {
            Some(wrap(&PythonRuntime { runner, home }, script).expect("wrapping the script"))
        }
        Err(why) => {
            eprintln!("skipped: no Python runner: {why}");
            None
        }
    }
}

struct Driver {
    sandbox: Arc<Sandbox>,
    verifier: Arc<Verifier>,
}

/// The payload-executing driver, wrapped and loaded once per test binary.
fn driver() -> Option<&'static Driver> {
    static DRIVER: OnceLock<Option<Driver>> = OnceLock::new();
    DRIVER
        .get_or_init(|| {
            let module = wrapped(EXEC_PAYLOAD)?;
            let sandbox = sandbox();
            let verifier = sandbox.load(&module).expect("the wrapped module loads");
            Some(Driver { sandbox, verifier })
        })
        .as_ref()
}

fn run_program(program: &str, limits: Limits) -> Option<RunReport> {
    let driver = driver()?;
    Some(run_with(
        &driver.sandbox,
        &driver.verifier,
        program,
        None,
        limits,
        None,
    ))
}

fn expect(program: &str, outcome: Outcome, message_part: &str) {
    let limits = Limits {
        fuel: 2_000_000_000,
        memory_bytes: 64 << 20,
        ..tight_limits()
    };
    let Some(report) = run_program(program, limits) else {
        return;
    };
    assert_eq!(report.outcome, outcome, "{program}: {report:?}");
    assert!(
        report.message.contains(message_part),
        "{program}: message {:?} lacks {message_part:?}",
        report.message
    );
}

#[test]
fn host_files_are_out_of_reach() {
    expect(
        "print(open('/etc/passwd').read())",
        Outcome::ExitNonzero,
        "FileNotFoundError",
    );
    expect(
        "import os\nprint(os.listdir('/'))",
        Outcome::ExitNonzero,
        "Error",
    );
}

#[test]
fn no_processes() {
    expect(
        "__import__('os').system('echo escaped')",
        Outcome::ExitNonzero,
        "AttributeError",
    );
    expect(
        "import subprocess\nsubprocess.run(['ls'])",
        Outcome::ExitNonzero,
        "Error",
    );
}

#[test]
fn an_endless_loop_exhausts_fuel() {
    expect("while True:\n    pass", Outcome::FuelExhausted, "fuel");
}

#[test]
fn a_memory_bomb_is_memory_exceeded() {
    // 10**10 bytes do not fit a 32-bit address space at all: CPython says so.
    expect(
        "x = bytearray(10**10)",
        Outcome::ExitNonzero,
        "OverflowError",
    );
    // 10**9 would: the growth is denied by the memory cap.
    expect(
        "x = bytearray(10**9)",
        Outcome::MemoryExceeded,
        "memory cap",
    );
    expect(
        "chunks = []\nwhile True:\n    chunks.append(bytearray(1 << 20))",
        Outcome::MemoryExceeded,
        "memory",
    );
}

#[test]
fn deep_recursion_is_contained() {
    expect(
        "def f(n):\n    return f(n + 1)\nf(0)",
        Outcome::ExitNonzero,
        "RecursionError",
    );
    // With Python's own limit lifted, the wasm stack is what stops it.
    let Some(report) = run_program(
        "import sys\nsys.setrecursionlimit(10**7)\ndef f(n):\n    return f(n + 1)\nf(0)",
        tight_limits(),
    ) else {
        return;
    };
    assert!(!report.passed);
    assert!(
        matches!(
            report.outcome,
            Outcome::Trap | Outcome::ExitNonzero | Outcome::FuelExhausted
        ),
        "{report:?}"
    );
}

#[test]
fn printing_forever_is_output_overflow() {
    expect(
        "while True:\n    print('x' * 1000)",
        Outcome::OutputOverflow,
        "stdout",
    );
}

#[test]
fn sleeping_for_an_hour_returns_at_once() {
    // The guest's clock never moves and sleeps do not block: the script goes on.
    expect(
        "import time\ntime.sleep(3600)\nprint(True)",
        Outcome::Pass,
        "",
    );
}

#[test]
fn the_payload_is_stdin_and_the_world_is_deterministic() {
    let program =
        "import random, time\nprint(sorted({'b', 'a', 'c'}), random.random(), time.time())";
    let (Some(first), Some(second)) = (
        run_program(program, tight_limits()),
        run_program(program, tight_limits()),
    ) else {
        return;
    };
    assert_eq!(first.stdout, second.stdout);
    assert_eq!(first.fuel_consumed, second.fuel_consumed);
    assert!(first.stdout.contains("946684800"), "{}", first.stdout);
}

/// The ComBench IMO-2020-P4 verifier written in Python (the benchmark's fixture)
/// gives the Rust guest's verdict on every payload of the item: its reference
/// witness and counterexamples, which the bundled examples are built from.
#[test]
fn the_python_imo_2020_p4_verifier_agrees_with_the_rust_guest() {
    let script = std::fs::read_to_string(
        repo_root().join("registry/items/combench/IMO-2020-P4-33-py/instance/verifier.py"),
    )
    .expect("the Python verifier");
    let Some(module) = wrapped(&script) else {
        return;
    };
    let sandbox = sandbox();
    let python = sandbox.load(&module).expect("the wrapped module loads");
    let registry = Registry::open(&repo_root().join("registry")).expect("the registry");
    let item = registry.item("combench/IMO-2020-P4-33").expect("the item");
    let (path, _) = registry.module(item.module.as_deref().unwrap()).unwrap();
    let rust = crate::common::load(&sandbox, &path);
    let payloads = item
        .reference
        .iter()
        .chain(item.counterexamples.iter().map(|c| &c.payload));
    for payload in payloads {
        let by_rust = run_with(&sandbox, &rust, payload, None, item.limits, None);
        let by_python = run_with(&sandbox, &python, payload, None, item.limits, None);
        assert_eq!(
            (by_python.outcome, by_python.passed),
            (by_rust.outcome, by_rust.passed),
            "{payload}\npython: {}\nrust: {}",
            by_python.stdout,
            by_rust.stdout
        );
    }
}

#[test]
fn wrapping_is_reproducible_and_reports_syntax_errors() {
    let (Some(a), Some(b)) = (wrapped("print(True)\n"), wrapped("print(True)\n")) else {
        return;
    };
    assert_eq!(a, b, "the same script gives the same module bytes");
    let (runner, home) = runtime().expect("built above");
    let err = wrap(&PythonRuntime { runner, home }, "def f(:\n").unwrap_err();
    assert!(err.contains("SyntaxError"), "{err}");
}

/// `registry add` of a script: the wrapped module goes in by hash, the script
/// into the item's instance directory, `modules.toml` names it, and
/// `verify --rebuild` re-wraps it to the same bytes on the same machine.
#[test]
fn a_python_verifier_is_added_to_the_registry_and_rewraps_identically() {
    use verigate_registry::maintain::{Contribution, add};
    let script = "a, b, c = map(int, input().split())\nprint(a + b == c)\n";
    let Some(module) = wrapped(script) else {
        return;
    };
    let root = crate::common::scratch_registry();
    let item_toml = "id = \"contrib/py-sum\"\nmodule = \"py-sum\"\nreference = \"3 4 7\"\n\n\
                     [metadata]\nbenchmark = \"contrib\"\ntype = \"construction\"\n\n\
                     [[counterexample]]\npayload = \"3 4 8\"\n";
    let sandbox = sandbox();
    let contribution = Contribution {
        name: "py-sum",
        wasm: &module,
        item_toml,
        instance_dir: None,
        python: Some(script),
    };
    add(root.path(), &sandbox, &contribution).expect("the contribution is accepted");
    let registry = Registry::open(root.path()).expect("the lock is rewritten");
    let entry = &registry.modules()["py-sum"];
    let kept = entry
        .python
        .as_deref()
        .expect("modules.toml names the script");
    assert_eq!(kept, "items/contrib/py-sum/instance/verifier.py");
    assert_eq!(
        std::fs::read_to_string(root.path().join(kept)).unwrap(),
        script
    );
    let report = verigate::build::verify_rebuild(root.path(), &sandbox, repo_root());
    assert!(report.problems.is_empty(), "{:#?}", report.problems);
    // Wrapped here, re-wrapped here: the same bytes. (The bundled Python
    // verifier, wrapped on another machine, may re-wrap to other bytes with
    // the same verdicts; that is noted in `skipped`.)
    assert!(
        !report.skipped.iter().any(|note| note.starts_with("py-sum")),
        "{:?}",
        report.skipped
    );
}
