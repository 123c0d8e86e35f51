//! The compiled-module cache: `verigate cache size|clean`, the size cap's
//! least-recently-used eviction, and loading modules in parallel (each
//! compiled once).

use crate::common::*;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Barrier, Mutex};
use std::time::{Duration, SystemTime};
use verigate_registry::Registry;
use verigate_sandbox::cache::MAX_MB_ENV;
use verigate_sandbox::{
    CacheStatus, ChildCompiler, Compiler, RunReport, Sandbox, SandboxOptions, sha256_hex,
};

/// A valid verifier module, distinct for each `n`.
fn module(n: u32) -> Vec<u8> {
    wat::parse_str(format!(
        r#"(module (memory (export "memory") 1) (func (export "_start") (drop (i32.const {n}))))"#
    ))
    .unwrap()
}

/// A sandbox compiling in this process, caching under `root` with `cap`.
fn cached_sandbox(root: &Path, cap: Option<u64>) -> Sandbox {
    Sandbox::new(&SandboxOptions {
        cache_root: Some(root.to_owned()),
        cache_max_bytes: cap,
        ..SandboxOptions::default()
    })
    .unwrap()
}

/// The cache entry of `wasm` under `root` for `sandbox`'s engine.
fn entry(root: &Path, sandbox: &Sandbox, wasm: &[u8]) -> PathBuf {
    root.join(sandbox.fingerprint())
        .join(format!("{}.cwasm", sha256_hex(wasm)))
}

fn set_mtime(path: &Path, secs_after_epoch: u64) {
    std::fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(SystemTime::UNIX_EPOCH + Duration::from_secs(secs_after_epoch))
        .unwrap();
}

fn mtime(path: &Path) -> SystemTime {
    std::fs::metadata(path).unwrap().modified().unwrap()
}

fn verigate_cache(args: &[&str], root: &Path, cap_mb: Option<&str>) -> (i32, String, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_verigate"));
    command.arg("cache").args(args).arg("--cache-dir").arg(root);
    match cap_mb {
        Some(mb) => command.env(MAX_MB_ENV, mb),
        None => command.env_remove(MAX_MB_ENV),
    };
    let out = command.output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn cache_size_and_clean_report_and_remove_entries_only() {
    let root = tempdir_with(&[]);
    let (a, b) = ("a".repeat(64), "b".repeat(64));
    let engine = root.path().join("e".repeat(64));
    std::fs::create_dir_all(&engine).unwrap();
    std::fs::write(engine.join(format!("{a}.cwasm")), [0u8; 100]).unwrap();
    std::fs::write(engine.join(format!("{b}.cwasm")), [0u8; 250]).unwrap();
    // Not entries: never counted nor removed.
    std::fs::write(engine.join("notes.txt"), "keep me").unwrap();
    std::fs::write(root.path().join("README"), "keep me").unwrap();
    // A real entry, in the sandbox engine's directory.
    let sandbox = cached_sandbox(root.path(), None);
    assert_eq!(sandbox.load(&module(1)).unwrap().cache, CacheStatus::Stored);
    let real = std::fs::metadata(entry(root.path(), &sandbox, &module(1)))
        .unwrap()
        .len();

    let (code, stdout, _) = verigate_cache(&["size"], root.path(), None);
    assert_eq!(code, 0);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], format!("directory {}", root.path().display()));
    assert_eq!(lines[1], "entries   3");
    assert!(
        lines[2].starts_with(&format!("bytes     {} (", 350 + real)),
        "{stdout}"
    );
    assert_eq!(lines[3], "cap       2147483648 (2048.0 MiB, default)");
    let (_, stdout, _) = verigate_cache(&["size"], root.path(), Some("5"));
    assert!(
        stdout.contains("cap       5242880 (5.0 MiB, $VERIGATE_CACHE_MAX_MB)"),
        "{stdout}"
    );
    let (_, stdout, _) = verigate_cache(&["size"], root.path(), Some("0"));
    assert!(stdout.contains("cap       none"), "{stdout}");

    // Only the entry unused for ten days goes; none is older than the clock.
    set_mtime(&engine.join(format!("{a}.cwasm")), 1_000_000_000);
    let (code, _, stderr) = verigate_cache(
        &["clean", "--older-than-days", "100000000"],
        root.path(),
        None,
    );
    assert_eq!(code, 0);
    assert!(stderr.starts_with("removed 0 entries"), "{stderr}");
    let (code, _, stderr) =
        verigate_cache(&["clean", "--older-than-days", "10"], root.path(), None);
    assert_eq!(code, 0);
    assert!(
        stderr.starts_with("removed 1 entries (100 bytes"),
        "{stderr}"
    );
    assert!(!engine.join(format!("{a}.cwasm")).exists());
    assert!(engine.join(format!("{b}.cwasm")).exists());

    let (code, _, stderr) = verigate_cache(&["clean"], root.path(), None);
    assert_eq!(code, 0);
    assert!(
        stderr.starts_with(&format!("removed 2 entries ({} bytes", 250 + real)),
        "{stderr}"
    );
    let (_, stdout, _) = verigate_cache(&["size"], root.path(), None);
    assert!(stdout.contains("entries   0\nbytes     0 ("), "{stdout}");
    assert!(engine.join("notes.txt").exists() && root.path().join("README").exists());
    // The cleaned module is compiled again, not an error.
    let again = cached_sandbox(root.path(), None);
    assert_eq!(again.load(&module(1)).unwrap().cache, CacheStatus::Stored);

    // A missing directory holds nothing; `--no-cache` has no cache to show.
    let missing = root.path().join("missing");
    let (code, stdout, _) = verigate_cache(&["size"], &missing, None);
    assert_eq!(code, 0);
    assert!(stdout.contains("entries   0"), "{stdout}");
    let out = Command::new(env!("CARGO_BIN_EXE_verigate"))
        .args(["cache", "size", "--no-cache"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_cap_evicts_the_least_recently_used_entries_and_keeps_those_in_use() {
    let root = tempdir_with(&[]);
    let (a, b, c) = (module(1), module(2), module(3));
    // C's entry size, measured in another directory.
    let elsewhere = tempdir_with(&[]);
    let measure = cached_sandbox(elsewhere.path(), None);
    measure.load(&c).unwrap();
    let c_bytes = std::fs::metadata(entry(elsewhere.path(), &measure, &c))
        .unwrap()
        .len();

    let first = cached_sandbox(root.path(), None);
    first.load(&a).unwrap();
    first.load(&b).unwrap();
    let (a_entry, b_entry, c_entry) = (
        entry(root.path(), &first, &a),
        entry(root.path(), &first, &b),
        entry(root.path(), &first, &c),
    );
    // A is older than B ...
    set_mtime(&a_entry, 1_000_000_000);
    set_mtime(&b_entry, 1_100_000_000);
    // ... until a hit marks it as used.
    let second = cached_sandbox(root.path(), None);
    assert_eq!(second.load(&a).unwrap().cache, CacheStatus::Hit);
    assert!(mtime(&a_entry) > mtime(&b_entry));

    // Room for two entries: storing C evicts B, the least recently used.
    let a_bytes = std::fs::metadata(&a_entry).unwrap().len();
    let capped = cached_sandbox(root.path(), Some(a_bytes + c_bytes));
    assert_eq!(capped.load(&c).unwrap().cache, CacheStatus::Stored);
    assert!(
        !b_entry.exists(),
        "the least recently used entry is evicted"
    );
    assert!(a_entry.exists() && c_entry.exists());

    // A tiny cap keeps only what this process has loaded, the newest among them.
    let d = module(4);
    let tiny = cached_sandbox(root.path(), Some(1));
    assert_eq!(tiny.load(&c).unwrap().cache, CacheStatus::Hit);
    assert_eq!(tiny.load(&d).unwrap().cache, CacheStatus::Stored);
    assert!(!a_entry.exists(), "not in use by this process");
    assert!(c_entry.exists(), "in use by this process");
    assert!(entry(root.path(), &tiny, &d).exists(), "the newest");
    // An evicted module is compiled again.
    assert_eq!(
        cached_sandbox(root.path(), None).load(&a).unwrap().cache,
        CacheStatus::Stored
    );
}

/// Everything a run reports but its wall-clock time.
fn deterministic(mut report: RunReport) -> RunReport {
    report.wall_ms = 0.0;
    report
}

#[test]
fn modules_load_in_parallel_as_they_load_one_by_one() {
    let registry = Registry::open(&bundled_registry()).unwrap();
    let distinct = [
        "toy-derangement",
        "toy-sum-square",
        "sphyr",
        "tangram-outline",
    ];
    let mut names: Vec<String> = distinct.iter().map(|n| n.to_string()).collect();
    names.push("toy-sum-square".to_owned());
    names.push("no-such-module".to_owned());

    let parallel = sandbox();
    let events = Mutex::new(Vec::new());
    let loads = registry.load_modules(&parallel, &names, 2, |name, event| {
        assert_eq!(event.total, 5);
        let cache = event.cache();
        events
            .lock()
            .unwrap()
            .push((name.to_owned(), event.done, cache));
    });
    let mut events = events.into_inner().unwrap();
    assert_eq!(
        events.iter().map(|e| e.1).collect::<Vec<_>>(),
        [1, 2, 3, 4, 5]
    );
    events.sort_by(|x, y| x.0.cmp(&y.0));
    let mut expected: Vec<_> = distinct
        .iter()
        .map(|n| (n.to_string(), Some(CacheStatus::Uncached)))
        .collect();
    expected.push(("no-such-module".to_owned(), None));
    expected.sort_by(|x, y| x.0.cmp(&y.0));
    assert_eq!(
        events
            .into_iter()
            .map(|(name, _, cache)| (name, cache))
            .collect::<Vec<_>>(),
        expected
    );
    assert_eq!(loads.len(), 5);
    let unknown = loads["no-such-module"]
        .as_ref()
        .err()
        .expect("unknown name");
    assert!(unknown.0.contains("no-such-module"), "{unknown}");

    let sequential = sandbox();
    for name in distinct {
        let one = registry.load_module(&sequential, name).unwrap().unwrap();
        let many = loads[name].as_ref().unwrap().as_ref().unwrap();
        assert_eq!(one.sha256, many.sha256, "{name}");
        assert_eq!(one.declared_protocol, many.declared_protocol, "{name}");
        let item = registry
            .items()
            .values()
            .find(|item| item.module.as_deref() == Some(name))
            .unwrap();
        let payload = item
            .counterexamples
            .first()
            .map_or(Vec::new(), |c| c.payload.clone().into_bytes());
        let request = registry.request(item, payload);
        assert_eq!(
            deterministic(sequential.run(&one, &request).unwrap()),
            deterministic(parallel.run(many, &request).unwrap()),
            "{name}"
        );
    }
}

#[test]
fn a_module_requested_by_two_threads_at_once_is_compiled_once() {
    let dir = tempdir_with(&[]);
    let (root, count) = (dir.path().join("cache"), dir.path().join("compiles"));
    // The compiler child, counting its runs.
    let script = format!(
        "echo compiled >> \"$0\" && exec '{}' __compile \"$@\"",
        env!("CARGO_BIN_EXE_verigate")
    );
    let options = SandboxOptions {
        cache_root: Some(root.clone()),
        compiler: Compiler::Child(ChildCompiler::new(
            "/bin/sh",
            [OsString::from("-c"), script.into(), count.clone().into()],
        )),
        ..SandboxOptions::default()
    };
    let compiles = || {
        std::fs::read_to_string(&count)
            .unwrap_or_default()
            .lines()
            .count()
    };
    let wasm = std::fs::read(hostile_wasm()).unwrap();
    let sha256 = sha256_hex(&wasm);
    let sandbox = Sandbox::new(&options).unwrap();
    assert!(!sandbox.is_cached(&sha256));
    let barrier = Barrier::new(2);
    let [one, two] = std::thread::scope(|scope| {
        let load = || {
            barrier.wait();
            sandbox.load(&wasm).unwrap()
        };
        let threads = [scope.spawn(load), scope.spawn(load)];
        threads.map(|thread| thread.join().unwrap())
    });
    assert!(Arc::ptr_eq(&one, &two), "one verifier for both");
    assert_eq!(one.cache, CacheStatus::Stored);
    assert_eq!(compiles(), 1);
    assert!(sandbox.is_cached(&sha256));

    // Another sandbox finds it on disk and compiles nothing.
    let registry_names = ["toy-derangement".to_owned(), "no-such-module".to_owned()];
    let registry = Registry::open(&bundled_registry()).unwrap();
    let fresh = Sandbox::new(&options).unwrap();
    assert!(fresh.is_cached(&sha256));
    assert_eq!(fresh.load(&wasm).unwrap().cache, CacheStatus::Hit);
    assert_eq!(compiles(), 1);
    // Unknown names are not counted as modules to compile.
    assert_eq!(
        registry.modules_to_compile(&fresh, &registry_names),
        ["toy-derangement"]
    );
    registry.load_modules(&fresh, &registry_names, 2, |_, _| {});
    assert_eq!(compiles(), 2);
    assert!(
        registry
            .modules_to_compile(&Sandbox::new(&options).unwrap(), &registry_names)
            .is_empty()
    );
}
