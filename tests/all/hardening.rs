//! Hardening against hostile modules and registry contributions: each test fails without its fix.

use crate::common::*;
use std::path::Path;
use std::time::{Duration, Instant};
use verigate_registry::maintain::{Contribution, add, verify};
use verigate_registry::{Lock, Registry};
use verigate_sandbox::compile::{inspect, serve_child};
use verigate_sandbox::{
    CacheStatus, ChildCompiler, Compiler, Error, ModuleError, ModuleLimits, Outcome, Protocol,
    Request, Sandbox, SandboxOptions,
};

// ---- Hostile module shapes, emitted as bytes (fast even at millions of entries).

fn leb(mut n: u64, out: &mut Vec<u8>) {
    loop {
        let byte = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

fn vec_of(count: u64, items: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    leb(count, &mut out);
    out.extend_from_slice(items);
    out
}

/// A module of one type `() -> ()` and the function bodies `bodies`
/// (each given without its size prefix), repeated `copies` times.
fn module_of(bodies: &[Vec<u8>], copies: u64, custom: usize) -> Vec<u8> {
    let mut wasm = b"\0asm\x01\0\0\0".to_vec();
    let mut section = |id: u8, body: Vec<u8>| {
        wasm.push(id);
        leb(body.len() as u64, &mut wasm);
        wasm.extend_from_slice(&body);
    };
    if custom > 0 {
        let mut body = vec_of(4, b"junk");
        body.resize(body.len() + custom, 0);
        section(0, body);
    }
    section(1, vec_of(1, &[0x60, 0, 0]));
    let count = bodies.len() as u64 * copies;
    section(3, vec_of(count, &vec![0; count as usize]));
    let mut code = Vec::new();
    for body in bodies {
        let mut sized = Vec::new();
        leb(body.len() as u64, &mut sized);
        sized.extend_from_slice(body);
        for _ in 0..copies {
            code.extend_from_slice(&sized);
        }
    }
    section(10, vec_of(count, &code));
    wasm
}

/// A body: no locals, `ops`, `end`.
fn body(ops: &[u8]) -> Vec<u8> {
    let mut body = vec![0];
    body.extend_from_slice(ops);
    body.push(0x0b);
    body
}

fn nested_blocks(depth: usize) -> Vec<u8> {
    let mut ops = [0x02, 0x40].repeat(depth);
    ops.extend(std::iter::repeat_n(0x0b, depth));
    body(&ops)
}

/// One function with `locals` i64 locals, all live across a loop holding an
/// `if` per local for each of `branches` (the shape that makes Cranelift's
/// cost grow as locals × branches: 20,000 × 20,000 compile for minutes).
fn branchy(locals: usize, branches: usize) -> Vec<u8> {
    let mut text = format!(
        "(module (memory (export \"memory\") 1) (func (export \"_start\") (local{})\n(loop $l ",
        " i64".repeat(locals)
    );
    for j in 0..branches {
        let i = j % locals;
        text.push_str(&format!(
            "(if (i32.wrap_i64 (local.get {i})) (then (local.set {i} (i64.add (local.get {i}) (i64.const 1)))))"
        ));
    }
    text.push_str("(br_if $l (i32.wrap_i64 (local.get 0))))))");
    wat::parse_str(&text).unwrap()
}

/// Loads `wasm` and expects it refused, quickly, with `expected` in the reason.
fn refused(sandbox: &Sandbox, case: &str, wasm: &[u8], expected: &[&str]) -> ModuleError {
    let started = Instant::now();
    let err = sandbox
        .load(wasm)
        .err()
        .unwrap_or_else(|| panic!("{case}: loaded"));
    let took = started.elapsed();
    for part in expected {
        assert!(err.reason.contains(part), "{case}: {}", err.reason);
    }
    assert!(
        took < Duration::from_secs(3),
        "{case}: refused only after {took:?}"
    );
    let report = err.report(Protocol::Combench);
    assert_eq!(report.outcome, Outcome::InvalidModule, "{case}");
    assert_eq!(report.fuel_consumed, 0);
    err
}

/// Item 1: each shape that takes Cranelift minutes or gigabytes is refused in
/// milliseconds by the static limits, naming the limit and the value.
#[test]
fn modules_over_a_static_limit_are_refused_before_compiling() {
    let sandbox = sandbox();
    let nop_body = body(&vec![0x01; 2 << 20]);
    let cases: Vec<(&str, Vec<u8>, Vec<&str>)> = vec![
        (
            "2,500 nested blocks",
            module_of(&[nested_blocks(2_500)], 1, 0),
            vec!["nests blocks 2001 deep", "`max_nesting` = 2000"],
        ),
        (
            // 14 MB, two functions of 2.4 million nested blocks: 27 s and 3.9 GB to compile.
            "2.4 million nested blocks",
            module_of(&[nested_blocks(2_400_000)], 2, 0),
            vec!["code section is 14400", "`max_code_bytes` = 8388608"],
        ),
        (
            // 11 MB: 190 s and 5.7 GB to compile.
            "a million small functions",
            module_of(&[body(&[0x41, 7, 0x1a])], 1_000_000, 0),
            vec!["1000000 functions", "`max_functions` = 30000"],
        ),
        (
            "a 2 MiB function",
            module_of(std::slice::from_ref(&nop_body), 1, 0),
            vec![
                "function 0 is 2097154 bytes",
                "`max_function_bytes` = 1048576",
            ],
        ),
        (
            "9 MiB of code",
            module_of(&[body(&vec![0x01; 900_000])], 10, 0),
            vec!["the code section is 9000", "`max_code_bytes`"],
        ),
        (
            // 205 KB: about 110 s to compile.
            "20,000 locals live across a loop",
            branchy(20_000, 20_000),
            vec!["function 0 has 20000 locals", "`max_locals` = 5000"],
        ),
        (
            "3,000 locals across 30,000 branches",
            branchy(3_000, 30_000),
            vec![
                "the sum of locals × body bytes reaches",
                "`max_locals_times_bytes` = 500000000",
            ],
        ),
        (
            "a 40 MiB module",
            module_of(&[body(&[])], 1, 40 << 20),
            vec!["the module is 4194", "`max_module_bytes` = 33554432"],
        ),
        (
            "an operand stack of 3,000 values",
            module_of(
                &[body(&[[0x41, 0].repeat(3_000), vec![0x1a; 3_000]].concat())],
                1,
                0,
            ),
            vec![
                "2001 values on its operand stack",
                "`max_operand_stack` = 2000",
            ],
        ),
    ];
    for (case, wasm, expected) in cases {
        refused(&sandbox, case, &wasm, &expected);
    }
}

/// Item 1: the limits are the sandbox's options; the defaults hold every
/// registry module (the 28 MB Python interpreter included).
#[test]
fn module_limits_are_configurable_and_hold_the_registry() {
    let wasm = module_of(&[nested_blocks(50)], 3, 0);
    let strict = Sandbox::new(&SandboxOptions {
        module_limits: ModuleLimits {
            max_nesting: 10,
            ..ModuleLimits::default()
        },
        ..SandboxOptions::default()
    })
    .unwrap();
    refused(&strict, "nesting 50 > 10", &wasm, &["nests blocks 11 deep"]);
    assert!(inspect(&wasm, &ModuleLimits::default()).is_ok());
    let mut largest = 0;
    for entry in std::fs::read_dir(bundled_registry().join("modules")).unwrap() {
        let path = entry.unwrap().path();
        let wasm = std::fs::read(&path).unwrap();
        largest = largest.max(wasm.len());
        let shape = inspect(&wasm, &ModuleLimits::default())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(shape.functions > 0);
    }
    assert!(largest > 10 << 20, "the CPython runner was checked");
}

/// Item 1: `registry add` refuses an over-limit module without compiling it.
#[test]
fn registry_add_refuses_a_module_over_a_limit() {
    let root = scratch_registry();
    let before = snapshot(root.path());
    let wasm = branchy(20_000, 20_000);
    let toml = "id = \"contrib/slow\"\nmodule = \"slow\"\nreference = \"x\"\n\
                [metadata]\nbenchmark = \"contrib\"\ntype = \"construction\"\n\
                [[counterexample]]\npayload = \"y\"\n";
    let started = Instant::now();
    let problems = add(
        root.path(),
        &sandbox(),
        &Contribution {
            name: "slow",
            wasm: &wasm,
            item_toml: toml,
            instance_dir: None,
            python: None,
        },
    )
    .expect_err("refused");
    assert!(started.elapsed() < Duration::from_secs(20));
    let text = format!("{problems:?}");
    assert!(text.contains("`max_locals` = 5000"), "{text}");
    assert!(snapshot(root.path()) == before, "registry changed");
}

/// The child side of the compiler-child tests: this test binary, run by the
/// sandbox as `all hardening::compile_child --exact -- INPUT OUTPUT ENGINE`.
/// In a normal test run it has nothing to do.
#[test]
fn compile_child() {
    let args: Vec<String> = std::env::args().collect();
    let Some(at) = args.iter().position(|a| a == "--") else {
        return;
    };
    if let [input, output, engine] = &args[at + 1..]
        && engine.starts_with("verigate-engine-")
        && let Err(e) = serve_child(Path::new(input), Path::new(output), engine)
    {
        eprintln!("{e}");
        std::process::exit(1);
    }
}

fn child_compiler() -> ChildCompiler {
    ChildCompiler::new(
        std::env::current_exe().unwrap(),
        [
            "hardening::compile_child",
            "--exact",
            "--test-threads",
            "1",
            "--",
        ],
    )
}

fn sandbox_compiling_with(child: ChildCompiler, cache: Option<&Path>) -> Sandbox {
    Sandbox::new(&SandboxOptions {
        compiler: Compiler::Child(child),
        cache_root: cache.map(Path::to_owned),
        ..SandboxOptions::default()
    })
    .unwrap()
}

/// Item 1: compiled in a child process, a module runs as usual and is cached;
/// a compile past the child's CPU-time, address-space or wall-clock limit
/// is killed and the module refused, naming the limit.
#[test]
fn a_compiler_child_is_bounded_in_cpu_time_and_memory() {
    let cache = tempdir_with(&[]);
    let hostile = std::fs::read(hostile_wasm()).unwrap();
    let sandbox = sandbox_compiling_with(child_compiler(), Some(cache.path()));
    let verifier = sandbox.load(&hostile).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(verifier.cache, CacheStatus::Stored);
    let report = run_with(&sandbox, &verifier, "true", None, tight_limits(), None);
    assert_eq!(report.outcome, Outcome::Pass, "{report:?}");
    let again = sandbox_compiling_with(child_compiler(), Some(cache.path()));
    assert_eq!(again.load(&hostile).unwrap().cache, CacheStatus::Hit);

    // Within every static limit, yet seconds of CPU: 4,000 locals × 4,000 branches.
    let slow = branchy(4_000, 4_000);
    assert!(inspect(&slow, &ModuleLimits::default()).is_ok());
    let cases = [
        (
            ChildCompiler {
                cpu_seconds: 1,
                ..child_compiler()
            },
            "`cpu_seconds` = 1 s",
        ),
        (
            ChildCompiler {
                wall_seconds: 1,
                ..child_compiler()
            },
            "`wall_seconds` = 1 s",
        ),
        (
            ChildCompiler {
                // The child starts in 300 MB; this compile needs 560 MB resident.
                address_space_bytes: 384 << 20,
                ..child_compiler()
            },
            "`address_space_bytes` = 402653184",
        ),
    ];
    for (child, expected) in cases {
        let sandbox = sandbox_compiling_with(child, None);
        let started = Instant::now();
        let err = sandbox.load(&slow).err().expect("refused");
        assert!(err.reason.contains(expected), "{expected}: {}", err.reason);
        assert!(started.elapsed() < Duration::from_secs(30), "{expected}");
    }

    // A compiler that cannot be started is the host's fault, not the module's.
    let missing = sandbox_compiling_with(ChildCompiler::new("/nonexistent/verigate", ["x"]), None);
    let sha = verigate_sandbox::sha256_hex(&hostile);
    match missing.load_expected(&hostile, &sha) {
        Err(Error::Host(why)) => assert!(why.contains("/nonexistent/verigate"), "{why}"),
        other => panic!("expected a host error, got {:?}", other.map(|r| r.is_ok())),
    }
}

/// Item 9: the bytes compiled are the bytes the lock names: a module file
/// replaced after the registry was opened is refused, not run under the
/// locked digest.
#[test]
fn a_module_replaced_after_the_registry_was_opened_is_refused() {
    let root = scratch_registry();
    let registry = Registry::open(root.path()).unwrap();
    let sandbox = sandbox();
    let (path, entry) = registry.module("toy-derangement").unwrap();
    let genuine = std::fs::read(&path).unwrap();
    std::fs::write(&path, std::fs::read(hostile_wasm()).unwrap()).unwrap();
    let err = registry
        .load_module(&sandbox, "toy-derangement")
        .err()
        .expect("replaced module refused");
    assert!(
        err.0.contains("sha256") && err.0.contains(&entry.sha256),
        "{err}"
    );
    std::fs::write(&path, &genuine).unwrap();
    let verifier = registry.load_module(&sandbox, "toy-derangement").unwrap();
    assert_eq!(verifier.unwrap().sha256, entry.sha256);
    // The same check on bytes.
    match sandbox.load_expected(b"\0asm\x01\0\0\0", &entry.sha256) {
        Err(Error::Mismatch { expected, .. }) => assert_eq!(expected, entry.sha256),
        other => panic!("expected a mismatch, got {:?}", other.map(|r| r.is_ok())),
    }
}

/// A module printing `text` on stdout.
fn printer(text: &str) -> Vec<u8> {
    wat::parse_str(format!(
        r#"(module
            (import "wasi_snapshot_preview1" "fd_write" (func $w (param i32 i32 i32 i32) (result i32)))
            (memory (export "memory") 1)
            (data (i32.const 16) "{text}\n")
            (func (export "_start")
                (i32.store (i32.const 0) (i32.const 16))
                (i32.store (i32.const 4) (i32.const {}))
                (drop (call $w (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8)))))"#,
        text.len() + 1
    ))
    .unwrap()
}

/// Item 10: a cache entry is tied to its module and engine: another module's
/// entry copied under this module's sha256 is recompiled, never run.
#[test]
fn a_cache_entry_copied_under_another_module_is_not_run() {
    let cache = tempdir_with(&[]);
    let options = SandboxOptions {
        cache_root: Some(cache.path().to_owned()),
        ..SandboxOptions::default()
    };
    let (accepts, rejects) = (printer("True"), printer("False"));
    let first = Sandbox::new(&options).unwrap();
    let good = first.load(&accepts).unwrap();
    let bad = first.load(&rejects).unwrap();
    let dir = cache.path().join(first.fingerprint());
    std::fs::copy(
        dir.join(format!("{}.cwasm", bad.sha256)),
        dir.join(format!("{}.cwasm", good.sha256)),
    )
    .unwrap();
    let second = Sandbox::new(&options).unwrap();
    let loaded = second.load(&accepts).unwrap();
    assert_eq!(
        loaded.cache,
        CacheStatus::Stored,
        "the foreign entry was not used"
    );
    let report = second.run(&loaded, &Request::new(Vec::new())).unwrap();
    assert_eq!(report.outcome, Outcome::Pass, "{report:?}");
    assert_eq!(report.module_sha256, good.sha256);
    // Rewritten, the entry is a hit again.
    let third = Sandbox::new(&options).unwrap();
    assert_eq!(third.load(&accepts).unwrap().cache, CacheStatus::Hit);
}

fn item(id: &str, module: &str, counterexample: bool) -> String {
    let counter = if counterexample {
        "[[counterexample]]\npayload = \"false\"\n"
    } else {
        ""
    };
    format!(
        "id = \"{id}\"\nmodule = \"{module}\"\nprotocol = \"combench\"\nreference = \"true\"\n\n\
         [metadata]\nbenchmark = \"contrib\"\ntype = \"construction\"\n\n{counter}"
    )
}

/// Items 11 and 12: ids that collide with, nest in or contain another item's
/// directory, construction items without a counterexample and bad module
/// names are refused, and the registry is left unchanged.
#[test]
fn contributions_that_would_misplace_files_or_prove_nothing_are_refused() {
    let sandbox = sandbox();
    let root = scratch_registry();
    let before = snapshot(root.path());
    let hostile = std::fs::read(hostile_wasm()).unwrap();
    let instance = tempdir_with(&[("item.toml", "x = 1")]);
    let cases: [(&str, &str, String, Option<&Path>, &str); 8] = [
        (
            "inside another item's mount",
            "h",
            item("toy/derangement-9/instance", "h", true),
            None,
            "segment `instance` is reserved",
        ),
        (
            "inside another item's directory",
            "h",
            item("toy/derangement-9/extra", "h", true),
            None,
            "inside the directory of the item `toy/derangement-9`",
        ),
        (
            "containing other items",
            "h",
            item("toy", "h", true),
            None,
            "would contain the item `toy/",
        ),
        (
            "differing only in case",
            "h",
            item("Toy/Derangement-9", "h", true),
            None,
            "differs only in case",
        ),
        (
            "inside a family",
            "h",
            item("sphyr/10_random_cell_easy/new", "h", true),
            None,
            "family `sphyr/10_random_cell_easy`",
        ),
        (
            "no counterexample",
            "h",
            item("contrib/accepts-all", "h", false),
            None,
            "at least one `[[counterexample]]`",
        ),
        (
            "empty name",
            "",
            item("contrib/nameless", "", true),
            None,
            "`--name`) is empty",
        ),
        (
            "an item file among the instance files",
            "h",
            item("contrib/smuggler", "h", true),
            Some(instance.path()),
            "may be named item.toml",
        ),
    ];
    for (case, name, toml, instance_dir, expected) in cases {
        let problems = add(
            root.path(),
            &sandbox,
            &Contribution {
                name,
                wasm: &hostile,
                item_toml: &toml,
                instance_dir,
                python: None,
            },
        )
        .expect_err(case);
        let text = format!("{problems:?}");
        assert!(text.contains(expected), "{case}: {text}");
        assert!(snapshot(root.path()) == before, "{case}: registry changed");
    }
}

/// Item 11: `registry verify` reports files no item owns — what the old
/// `add` of `toy/derangement-9/instance` left inside derangement-9's mount,
/// an instance directory of no item, a stray file — and nested items.
#[test]
fn verify_reports_files_no_item_owns() {
    let root = toy_registry();
    let items = root.path().join("items");
    let files = [
        (
            "toy/derangement-9/instance/item.toml",
            "an item file inside",
        ),
        ("toy/derangement-9/instance/instance/extra.json", ""),
        ("ghost/instance/data.json", "`ghost`, which is not an item"),
        ("toy/notes.txt", "no item owns it"),
        ("toy/derangement-9/sub/item.toml", ""),
    ];
    for (file, _) in files {
        let path = items.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "{}").unwrap();
    }
    // A well-formed item nested in derangement-9's directory.
    let nested = std::fs::read_to_string(items.join("toy/derangement-9/item.toml"))
        .unwrap()
        .replace(
            "id = \"toy/derangement-9\"",
            "id = \"toy/derangement-9/sub\"",
        );
    std::fs::write(items.join("toy/derangement-9/sub/item.toml"), nested).unwrap();
    Lock::compute(root.path())
        .unwrap()
        .write(root.path())
        .unwrap();
    let report = verify(root.path(), &sandbox());
    let text = report
        .problems
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n");
    for (file, why) in files.iter().filter(|(_, why)| !why.is_empty()) {
        assert!(
            text.contains(&format!("items/{file}: ")) && text.contains(why),
            "{file}: {text}"
        );
    }
    assert!(
        text.contains("toy/derangement-9/sub: lies inside the directory of `toy/derangement-9`"),
        "{text}"
    );
    let layout = report
        .problems
        .iter()
        .filter(|p| !p.reason.contains("witness"))
        .count();
    assert_eq!(layout, 4, "{text}");
    // Before the additions: nothing to report.
    let clean = toy_registry();
    let report = verify(clean.path(), &sandbox());
    assert!(report.problems.is_empty(), "{:#?}", report.problems);
    assert!(report.witnesses >= 3);
}

/// A registry of the bundled `toy/*` items and their two modules alone
/// (verified in a second, where the whole registry takes a minute).
fn toy_registry() -> TempDir {
    let dir = tempdir_with(&[]);
    let bundled = bundled_registry();
    copy_tree(&bundled.join("items/toy"), &dir.path().join("items/toy"));
    let mut index = String::new();
    for name in ["toy-derangement", "toy-sum-square"] {
        let registry = Registry::open(&bundled).unwrap();
        let (path, entry) = registry.module(name).unwrap();
        let to = dir.path().join("modules").join(path.file_name().unwrap());
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(&path, to).unwrap();
        index.push_str(&format!("[{name}]\nsha256 = \"{}\"\n", entry.sha256));
    }
    std::fs::write(dir.path().join("modules.toml"), index).unwrap();
    Lock::compute(dir.path())
        .unwrap()
        .write(dir.path())
        .unwrap();
    dir
}
