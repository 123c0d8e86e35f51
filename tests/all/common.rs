//! Shared helpers for the integration tests: build the guest modules from
//! source (once per test binary) and run them in a sandbox.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, OnceLock};
use verigate_sandbox::{Limits, Protocol, Request, RunReport, Sandbox, SandboxOptions, Verifier};

/// The repository root.
pub fn repo_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("the CLI crate lives in runtime/cli/")
}

fn cargo() -> Command {
    let mut cargo = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned()));
    cargo.current_dir(repo_root());
    cargo
}

fn build(mut command: Command, what: &str) {
    let status = command
        .status()
        .expect("running cargo to build guest modules");
    assert!(status.success(), "building {what} failed");
}

/// Path of the hostile test guest built from `tests/guests` (its own workspace).
pub fn hostile_wasm() -> &'static Path {
    static OUT: OnceLock<PathBuf> = OnceLock::new();
    OUT.get_or_init(|| {
        let target_dir = repo_root().join("target/wasm-guests/hostile");
        let mut command = cargo();
        command
            .args([
                "build",
                "--release",
                "--quiet",
                "--locked",
                "--target",
                "wasm32-wasip1",
            ])
            .args(["--manifest-path", "tests/guests/Cargo.toml", "--target-dir"])
            .arg(&target_dir);
        build(command, "tests/guests");
        target_dir.join("wasm32-wasip1/release/hostile.wasm")
    })
}

/// Path of a verifier built from `guest-verifiers/<name>` with the `guest` profile.
pub fn verifier_wasm(name: &str) -> PathBuf {
    let target_dir = repo_root().join("target/wasm-guests/verifiers");
    let mut command = cargo();
    command
        .args([
            "build",
            "--profile",
            "guest",
            "--quiet",
            "--locked",
            "--target",
            "wasm32-wasip1",
        ])
        .args(["--package", name, "--target-dir"])
        .arg(&target_dir);
    build(command, name);
    target_dir.join(format!("wasm32-wasip1/guest/{name}.wasm"))
}

/// Bytes of a WAT file under `tests/guests/wat`, assembled.
pub fn wat_module(name: &str) -> Vec<u8> {
    let path = repo_root().join("tests/guests/wat").join(name);
    wat::parse_file(&path).unwrap_or_else(|e| panic!("assembling {}: {e}", path.display()))
}

/// A sandbox with no on-disk cache.
pub fn sandbox() -> Arc<Sandbox> {
    Arc::new(Sandbox::new(&SandboxOptions::default()).expect("creating the sandbox"))
}

/// Loads a module file into `sandbox`, panicking if it is refused.
pub fn load(sandbox: &Sandbox, path: &Path) -> Arc<Verifier> {
    sandbox
        .load_file(path)
        .expect("reading module")
        .unwrap_or_else(|e| panic!("module refused: {e}"))
}

/// Limits small enough that hostile guests end quickly.
pub fn tight_limits() -> Limits {
    Limits {
        fuel: 200_000_000,
        memory_bytes: 32 << 20,
        timeout_ms: 20_000,
        max_output_bytes: 16 << 10,
        max_payload_bytes: 1 << 20,
    }
}

/// Runs `verifier` on `payload` with `limits`, the protocol forced to `protocol`.
pub fn run_with(
    sandbox: &Sandbox,
    verifier: &Verifier,
    payload: &str,
    item_dir: Option<&Path>,
    limits: Limits,
    protocol: Option<Protocol>,
) -> RunReport {
    sandbox
        .run(
            verifier,
            &Request {
                payload: payload.as_bytes().to_vec(),
                item_dir: item_dir.map(Path::to_owned),
                limits,
                protocol,
                row: None,
            },
        )
        .expect("host error")
}

/// A temporary directory holding `files`, removed on drop.
pub struct TempDir(std::path::PathBuf);

impl TempDir {
    /// The directory's path.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub fn tempdir_with(files: &[(&str, &str)]) -> TempDir {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "verigate-test-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    TempDir(dir)
}

/// Relative paths and contents of every file under `dir`, sorted.
pub fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(current) = pending.pop() {
        for entry in std::fs::read_dir(&current).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else {
                let name = path
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                files.push((name, std::fs::read(&path).unwrap_or_default()));
            }
        }
    }
    files.sort();
    files
}

/// Copies the tree at `from` to `to`.
pub fn copy_tree(from: &Path, to: &Path) {
    for (name, bytes) in snapshot(from) {
        let target = to.join(name);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::write(target, bytes).unwrap();
    }
}

/// The bundled registry.
pub fn bundled_registry() -> PathBuf {
    repo_root().join("registry")
}

/// A copy of the bundled registry in a temporary directory.
pub fn scratch_registry() -> TempDir {
    let dir = tempdir_with(&[]);
    copy_tree(&bundled_registry(), dir.path());
    dir
}
