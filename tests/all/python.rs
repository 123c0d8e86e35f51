//! Python verifiers, run unchanged in the sandbox on the shared interpreter
//! module: CPython (the runner built by `registry/python/build.py`)
//! pre-initialised once by `verigate::python::interpreter`, each script
//! handed over at run time. The runner is built on first use when missing
//! (a download from PyPI); without network the tests are skipped, with the
//! reason printed.

use crate::common::{TempDir, copy_tree, repo_root, run_with, sandbox, tempdir_with, tight_limits};
use std::process::{Command, Stdio};
use std::sync::{Arc, OnceLock};
use verigate::python::{PythonRuntime, interpreter, wrap};
use verigate_registry::{PYTHON_INTERPRETER, Registry};
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
                let built = Command::new("python3")
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

/// The standard library copied into a fresh temporary directory.
fn home_copy() -> Option<TempDir> {
    let (_, home) = runtime()
        .map_err(|why| eprintln!("skipped: no Python runner: {why}"))
        .ok()?;
    let dir = tempdir_with(&[]);
    copy_tree(home, dir.path());
    Some(dir)
}

/// The interpreter module pre-initialised here, from a copy of the standard
/// library in a temporary directory, or `None` (the reason printed).
fn interpreter_module() -> Option<&'static Vec<u8>> {
    static MODULE: OnceLock<Option<Vec<u8>>> = OnceLock::new();
    MODULE
        .get_or_init(|| {
            let home = home_copy()?;
            let (runner, _) = runtime().ok()?;
            let runtime = PythonRuntime {
                runner,
                home: home.path(),
            };
            Some(interpreter(&runtime).expect("pre-initialising the interpreter"))
        })
        .as_ref()
}

struct Loaded {
    sandbox: Arc<Sandbox>,
    interpreter: Arc<Verifier>,
}

/// The interpreter, loaded once per test binary.
fn loaded() -> Option<&'static Loaded> {
    static LOADED: OnceLock<Option<Loaded>> = OnceLock::new();
    LOADED
        .get_or_init(|| {
            let sandbox = sandbox();
            let interpreter = sandbox
                .load(interpreter_module()?)
                .expect("the interpreter module loads");
            Some(Loaded {
                sandbox,
                interpreter,
            })
        })
        .as_ref()
}

/// Runs `script` on `payload` on the shared interpreter.
fn run_script(script: &str, payload: &str, limits: Limits) -> Option<RunReport> {
    let loaded = loaded()?;
    let verifier = loaded.interpreter.with_script(script).expect("a script");
    Some(run_with(
        &loaded.sandbox,
        &verifier,
        payload,
        None,
        limits,
        None,
    ))
}

fn run_program(program: &str, limits: Limits) -> Option<RunReport> {
    run_script(EXEC_PAYLOAD, program, limits)
}

fn expect(program: &str, outcome: Outcome, message_part: &str) {
    let limits = Limits {
        memory_bytes: 64 << 20,
        ..python_limits()
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

/// The item directory a run mounts is what the script reads at `/item`
/// (not the standard library's folder, mounted while pre-initialising).
#[test]
fn the_item_directory_is_read_at_item() {
    let Some(loaded) = loaded() else {
        return;
    };
    let dir = tempdir_with(&[("n.txt", "41")]);
    let script = "import os\nprint(int(open('/item/n.txt').read()) + 1, os.listdir('/item'))\n";
    let verifier = loaded.interpreter.with_script(script).unwrap();
    let report = run_with(
        &loaded.sandbox,
        &verifier,
        "",
        Some(dir.path()),
        python_limits(),
        None,
    );
    assert_eq!(report.stdout, "42 ['n.txt']\n", "{report:?}");
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
        python_limits(),
    ) else {
        return;
    };
    assert!(!report.passed);
    assert!(
        matches!(
            report.outcome,
            Outcome::Trap | Outcome::ExitNonzero | Outcome::FuelExhausted | Outcome::MemoryExceeded
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
        run_program(program, python_limits()),
        run_program(program, python_limits()),
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
    let Some(loaded) = loaded() else {
        return;
    };
    let python = loaded.interpreter.with_script(&script).unwrap();
    let registry = Registry::open(&repo_root().join("registry")).expect("the registry");
    let item = registry.item("combench/IMO-2020-P4-33").expect("the item");
    let (path, _) = registry.module(item.module.as_deref().unwrap()).unwrap();
    let rust = crate::common::load(&loaded.sandbox, &path);
    let payloads = item
        .reference
        .iter()
        .chain(item.counterexamples.iter().map(|c| &c.payload));
    for payload in payloads {
        let by_rust = run_with(&loaded.sandbox, &rust, payload, None, item.limits, None);
        let by_python = run_with(&loaded.sandbox, &python, payload, None, item.limits, None);
        assert_eq!(
            (by_python.outcome, by_python.passed),
            (by_rust.outcome, by_rust.passed),
            "{payload}\npython: {}\nrust: {}",
            by_python.stdout,
            by_rust.stdout
        );
    }
}

/// The interpreter pre-initialised from the standard library in two
/// different directories has the same bytes (no host file metadata in its
/// heap), and they are the registry's `python3.11` module.
#[test]
fn the_interpreter_is_the_same_bytes_wherever_it_is_built() {
    let (Some(first), Some(home)) = (interpreter_module(), home_copy()) else {
        return;
    };
    let (runner, _) = runtime().unwrap();
    let again = interpreter(&PythonRuntime {
        runner,
        home: home.path(),
    })
    .unwrap();
    assert!(first == &again, "two directories, two different modules");
    let registry = Registry::open(&repo_root().join("registry")).expect("the registry");
    let (_, entry) = registry
        .module(PYTHON_INTERPRETER)
        .expect("the interpreter entry");
    assert_eq!(entry.sha256, verigate_sandbox::sha256_hex(first));
}

/// A module first imported during a run comes from the standard library in
/// memory; one that does not exist is an `ImportError` naming it.
#[test]
fn modules_are_imported_lazily_and_missing_ones_are_named() {
    let script = "import datetime, importlib, sys\n\
                  print(datetime.datetime.strptime('2024-02-29', '%Y-%m-%d').date())\n\
                  print(importlib.import_module('tomllib').loads('a = 1'))\n\
                  print('_strptime' in sys.modules)\n";
    let Some(report) = run_script(script, "", python_limits()) else {
        return;
    };
    assert_eq!(report.stdout, "2024-02-29\n{'a': 1}\nTrue\n", "{report:?}");
    let report = run_script("import no_such_module\n", "", python_limits()).unwrap();
    assert_eq!(report.outcome, Outcome::ExitNonzero);
    assert!(
        report
            .stderr
            .ends_with("ModuleNotFoundError: No module named 'no_such_module'\n"),
        "{}",
        report.stderr
    );
    assert!(
        report.stderr.contains("File \"verifier.py\", line 1"),
        "{}",
        report.stderr
    );
}

/// Python recursion and parser nesting reach native CPython 3.11's limits:
/// 990 frames, 190 nested brackets (200 is the tokenizer's limit, as natively),
/// and recursion through C calls ends in a `RecursionError`, not a trap.
#[test]
fn recursion_and_nesting_reach_native_limits() {
    let script = "import sys\n\
                  def f(n):\n    return 0 if n == 0 else 1 + f(n - 1)\n\
                  print(sys.getrecursionlimit(), f(990))\n\
                  print(len(eval('[' * 190 + ']' * 190)))\n\
                  try:\n    eval('(' * 201 + ')' * 201)\n\
                  except SyntaxError as e:\n    print(e.msg)\n\
                  class R:\n    def __init__(s, n): s.n = n\n\
                  \x20   def __repr__(s): return 'x' if s.n == 0 else repr(R(s.n - 1))\n\
                  try:\n    repr(R(5000))\n\
                  except RecursionError:\n    print('RecursionError')\n";
    let Some(report) = run_script(script, "", python_limits()) else {
        return;
    };
    assert_eq!(
        report.stdout, "1000 990\n1\ntoo many nested parentheses\nRecursionError\n",
        "{report:?}"
    );
}

/// A script with a syntax error fails its run with CPython's message; a
/// standalone module (`wrap-python`) keeps its script compiled and refuses
/// one that does not compile.
#[test]
fn syntax_errors_are_reported_and_wrapped_scripts_run_alone() {
    let Some(report) = run_script("def f(:\n", "", python_limits()) else {
        return;
    };
    assert_eq!(report.outcome, Outcome::ExitNonzero);
    assert!(report.stderr.contains("SyntaxError"), "{}", report.stderr);
    let (runner, home) = runtime().unwrap();
    let runtime = PythonRuntime { runner, home };
    let err = wrap(&runtime, "def f(:\n").unwrap_err();
    assert!(err.contains("SyntaxError"), "{err}");
    let module = wrap(&runtime, "print(input()[::-1] == 'True')\n").unwrap();
    let sandbox = sandbox();
    let standalone = sandbox.load(&module).unwrap();
    let report = run_with(&sandbox, &standalone, "eurT", None, python_limits(), None);
    assert_eq!(report.outcome, Outcome::Pass, "{report:?}");
}

/// `registry add` of a script: no module is added (the registry's
/// interpreter runs it), the script goes into the item's instance directory,
/// `modules.toml` names it, and `verify --rebuild` finds nothing to mend.
#[test]
fn a_python_verifier_is_added_to_the_registry_without_a_module() {
    use verigate_registry::maintain::{Contribution, add};
    if loaded().is_none() {
        return;
    }
    let script = "a, b, c = map(int, input().split())\nprint(a + b == c)\n";
    let root = crate::common::scratch_registry();
    let modules_before = std::fs::read_dir(root.path().join("modules"))
        .unwrap()
        .count();
    let registry = Registry::open(root.path()).unwrap();
    let interpreter = registry.module_bytes(PYTHON_INTERPRETER).unwrap();
    let item_toml = "id = \"contrib/py-sum\"\nmodule = \"py-sum\"\nreference = \"3 4 7\"\n\n\
                     [metadata]\nbenchmark = \"contrib\"\ntype = \"construction\"\n\n\
                     [[counterexample]]\npayload = \"3 4 8\"\n";
    let sandbox = sandbox();
    let contribution = Contribution {
        name: "py-sum",
        wasm: &interpreter,
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
    assert_eq!(entry.sha256, registry.modules()[PYTHON_INTERPRETER].sha256);
    let modules_after = std::fs::read_dir(root.path().join("modules"))
        .unwrap()
        .count();
    assert_eq!(modules_before, modules_after, "no module file is added");
    let verifier = registry.load_module(&sandbox, "py-sum").unwrap().unwrap();
    let item = registry.item("contrib/py-sum").unwrap();
    let report = sandbox
        .run(&verifier, &registry.request(item, b"1 2 3".to_vec()))
        .unwrap();
    assert_eq!(report.outcome, Outcome::Pass, "{report:?}");
    assert!(report.script_sha256.is_some());
    // A module that is not the registry's interpreter cannot run a script.
    let contribution = Contribution {
        wasm: b"\0asm\x01\0\0\0",
        ..contribution
    };
    let problems = add(root.path(), &sandbox, &contribution).unwrap_err();
    assert!(
        problems
            .iter()
            .any(|p| p.to_string().contains(PYTHON_INTERPRETER)),
        "{problems:?}"
    );
    let report = verigate::build::verify_rebuild(root.path(), &sandbox, repo_root());
    assert!(report.problems.is_empty(), "{:#?}", report.problems);
}

/// Limits for a run on the interpreter: tight, but with room for its
/// memory image (about 34 MB).
fn python_limits() -> Limits {
    Limits {
        fuel: 2_000_000_000,
        memory_bytes: 128 << 20,
        ..tight_limits()
    }
}

/// The compiled-module cache shared by this file's command-line runs.
fn cache_dir() -> &'static TempDir {
    static DIR: OnceLock<TempDir> = OnceLock::new();
    DIR.get_or_init(|| tempdir_with(&[]))
}

/// `verigate ARGS` against the bundled registry, with `stdin`: exit status,
/// stdout, stderr.
fn cli(args: &[&str], stdin: &str) -> (i32, String, String) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_verigate"))
        .args(args)
        .arg("--registry")
        .arg(repo_root().join("registry"))
        .arg("--cache-dir")
        .arg(cache_dir().path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.as_bytes()).unwrap();
    drop(input);
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `verigate run script.py --payloads FILE.jsonl`: every payload in one
/// process, one report per line, in order; a bad line is named by file and
/// line before anything runs.
#[test]
fn run_grades_a_payload_file_through_a_script() {
    let dir = tempdir_with(&[
        (
            "check.py",
            "import json, sys\nn = json.loads(sys.stdin.read())\nprint(n % 7 == 0)\n",
        ),
        ("bad.jsonl", "\"14\"\n{\"payload\": 3}\n"),
    ]);
    let script = dir.path().join("check.py");
    let payloads: String = (0..60).map(|n| format!("\"{n}\"\n")).collect();
    let file = dir.path().join("payloads.jsonl");
    std::fs::write(&file, &payloads).unwrap();
    let (code, stdout, stderr) = cli(
        &[
            "run",
            script.to_str().unwrap(),
            "--payloads",
            file.to_str().unwrap(),
            "-j",
            "2",
        ],
        "",
    );
    assert_eq!(code, 0, "{stderr}");
    let outcomes: Vec<String> = stdout
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap()["outcome"].to_string())
        .collect();
    let expected: Vec<String> = (0..60)
        .map(|n| if n % 7 == 0 { "\"pass\"" } else { "\"fail\"" }.to_owned())
        .collect();
    assert_eq!(outcomes, expected);
    // A single payload, on stdin.
    let (code, stdout, _) = cli(&["run", script.to_str().unwrap()], "21");
    assert_eq!(code, 0, "{stdout}");
    let bad = dir.path().join("bad.jsonl");
    let (code, stdout, stderr) = cli(
        &[
            "run",
            script.to_str().unwrap(),
            "--payloads",
            bad.to_str().unwrap(),
        ],
        "",
    );
    assert_ne!(code, 0);
    assert!(stdout.is_empty(), "{stdout}");
    assert!(
        stderr.contains("bad.jsonl:2: field `payload` is not a string"),
        "{stderr}"
    );
}
