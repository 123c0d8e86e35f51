//! `registry build`: compile the crates of `guest-verifiers/` to
//! `wasm32-wasip1` reproducibly and freeze them into the registry.

use crate::python::{PYTHON_RUNTIME_DIR, PythonRuntime, interpreter};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use verigate_registry::Registry;
use verigate_registry::lock::Lock;
use verigate_registry::maintain::{VerifyReport, problem};
use verigate_registry::{
    MODULES_FILE, ModuleEntry, ModuleIndex, PYTHON_INTERPRETER, RegistryError, module_path,
    read_toml,
};
use verigate_sandbox::{Sandbox, sha256_hex};

/// The directory of the guest crates, relative to the repository root.
pub const GUEST_WORKSPACE: &str = "guest-verifiers";
/// The cargo profile verifier modules are built with.
pub const GUEST_PROFILE: &str = "guest";
const TARGET: &str = "wasm32-wasip1";

#[derive(serde::Deserialize)]
struct Manifest {
    package: Package,
}

#[derive(serde::Deserialize)]
struct Package {
    name: String,
}

fn err(context: impl std::fmt::Display, e: impl std::fmt::Display) -> RegistryError {
    RegistryError(format!("{context}: {e}"))
}

/// Package names of the crates under `guest-verifiers/`, sorted.
fn guest_crates(repo_root: &Path) -> Result<Vec<String>, RegistryError> {
    let dir = repo_root.join(GUEST_WORKSPACE);
    let mut names = Vec::new();
    for entry in std::fs::read_dir(&dir).map_err(|e| err(dir.display(), e))? {
        let manifest = entry
            .map_err(|e| err(dir.display(), e))?
            .path()
            .join("Cargo.toml");
        if manifest.is_file() {
            names.push(read_toml::<Manifest>(&manifest)?.package.name);
        }
    }
    names.sort();
    Ok(names)
}

/// Builds every crate under `guest-verifiers/` into `target_dir` with the
/// workspace's `guest` profile and returns crate name → module bytes.
///
/// The guest crates and the SDK are members of the repository's workspace,
/// so their crate hashes do not depend on where the checkout lives; build
/// paths are remapped (`<repo>` → `/verigate`, `$CARGO_HOME` → `/cargo`) and
/// the profile strips debug info. The bytes are therefore the same on any
/// machine with the pinned toolchain.
pub fn build_modules(
    repo_root: &Path,
    target_dir: &Path,
) -> Result<BTreeMap<String, Vec<u8>>, RegistryError> {
    let crates = guest_crates(repo_root)?;
    let repo = std::fs::canonicalize(repo_root).map_err(|e| err(repo_root.display(), e))?;
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cargo")));
    let mut flags = vec![format!("--remap-path-prefix={}=/verigate", repo.display())];
    if let Some(home) = cargo_home {
        flags.push(format!("--remap-path-prefix={}=/cargo", home.display()));
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    // One cargo invocation per crate: features of shared dependencies are
    // unified within an invocation, so building them together would make
    // each module's bytes depend on its siblings' dependencies (adding a
    // verifier would change every other module).
    for name in &crates {
        let status = Command::new(&cargo)
            .current_dir(&repo)
            .args([
                "build",
                "--locked",
                "--profile",
                GUEST_PROFILE,
                "--target",
                TARGET,
                "--package",
                name,
            ])
            .arg("--target-dir")
            .arg(target_dir)
            .env_remove("RUSTFLAGS")
            .env("CARGO_ENCODED_RUSTFLAGS", flags.join("\u{1f}"))
            .status()
            .map_err(|e| err("cannot run cargo", e))?;
        if !status.success() {
            return Err(RegistryError(format!(
                "building {GUEST_WORKSPACE}/{name} failed ({status})"
            )));
        }
    }
    let out = target_dir.join(TARGET).join(GUEST_PROFILE);
    crates
        .into_iter()
        .map(|name| {
            let path = out.join(format!("{name}.wasm"));
            let bytes = std::fs::read(&path).map_err(|e| err(path.display(), e))?;
            Ok((name, bytes))
        })
        .collect()
}

/// What `registry build` changed for one module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuiltModule {
    /// Verifier name (the crate's name).
    pub name: String,
    /// sha256 of the built bytes.
    pub sha256: String,
    /// Whether the bytes differ from what the registry held before.
    pub changed: bool,
}

/// Builds the guest crates (and pre-initialises the Python interpreter, when
/// its runner has been built), stores the modules by hash, updates
/// `modules.toml`, removes modules no longer named, and rewrites the lock.
pub fn build(repo_root: &Path, registry_root: &Path) -> Result<Vec<BuiltModule>, RegistryError> {
    let target_dir = repo_root.join("target").join("registry-build");
    let built = build_modules(repo_root, &target_dir)?;
    let index_path = registry_root.join(MODULES_FILE);
    let mut index: ModuleIndex = if index_path.exists() {
        read_toml(&index_path)?
    } else {
        ModuleIndex::new()
    };
    std::fs::create_dir_all(registry_root.join("modules"))
        .map_err(|e| err(registry_root.display(), e))?;
    let mut built: Vec<(String, Vec<u8>, ModuleEntry)> = built
        .into_iter()
        .map(|(name, bytes)| {
            let entry = ModuleEntry {
                sha256: sha256_hex(&bytes),
                source: Some(format!("{GUEST_WORKSPACE}/{name}")),
                python: None,
            };
            (name, bytes, entry)
        })
        .collect();
    built.extend(rebuild_python(repo_root, &index)?);
    let mut report = Vec::new();
    for (name, bytes, entry) in built {
        let sha256 = entry.sha256.clone();
        let path = module_path(registry_root, &sha256);
        if !path.exists() {
            std::fs::write(&path, &bytes).map_err(|e| err(path.display(), e))?;
        }
        let changed = index.get(&name) != Some(&entry);
        index.insert(name.clone(), entry);
        report.push(BuiltModule {
            name,
            sha256,
            changed,
        });
    }
    write_index(registry_root, &index)?;
    remove_unreferenced_modules(registry_root, &index)?;
    Lock::compute(registry_root)?.write(registry_root)?;
    Ok(report)
}

/// The runner pre-initialised into the shared interpreter module, from
/// where `registry/python/build.py` leaves it under `repo_root`; `None` when
/// it has not been built there.
pub fn build_interpreter(repo_root: &Path) -> Option<Result<Vec<u8>, String>> {
    let runtime_dir = repo_root.join(PYTHON_RUNTIME_DIR);
    let runner = std::fs::read(runtime_dir.join("runner.wasm")).ok()?;
    let runtime = PythonRuntime {
        runner: &runner,
        home: &runtime_dir.join("home"),
    };
    Some(interpreter(&runtime))
}

/// The Python interpreter module ([`PYTHON_INTERPRETER`]) built afresh, and
/// every Python verifier of `index` pointed at it; none (with a warning)
/// when the runner has not been built, the committed module then kept.
fn rebuild_python(
    repo_root: &Path,
    index: &ModuleIndex,
) -> Result<Vec<(String, Vec<u8>, ModuleEntry)>, RegistryError> {
    let Some(built) = build_interpreter(repo_root) else {
        tracing::warn!(
            "the Python interpreter module kept as it is: no runner in {}",
            repo_root.join(PYTHON_RUNTIME_DIR).display()
        );
        return Ok(Vec::new());
    };
    let bytes = built.map_err(|e| err("the Python interpreter", e))?;
    let sha256 = sha256_hex(&bytes);
    let mut entries = vec![(
        PYTHON_INTERPRETER.to_owned(),
        bytes.clone(),
        ModuleEntry {
            sha256: sha256.clone(),
            source: None,
            python: None,
        },
    )];
    for (name, entry) in index {
        if entry.python.is_some() {
            let entry = ModuleEntry {
                sha256: sha256.clone(),
                ..entry.clone()
            };
            entries.push((name.clone(), bytes.clone(), entry));
        }
    }
    Ok(entries)
}

/// Writes `modules.toml`.
pub(crate) fn write_index(registry_root: &Path, index: &ModuleIndex) -> Result<(), RegistryError> {
    let path = registry_root.join(MODULES_FILE);
    let body = toml::to_string(index).map_err(|e| err(path.display(), e))?;
    let text = format!("# Verifier name -> module bytes (modules/<sha256>.wasm).\n\n{body}");
    std::fs::write(&path, text).map_err(|e| err(path.display(), e))
}

fn remove_unreferenced_modules(
    registry_root: &Path,
    index: &ModuleIndex,
) -> Result<(), RegistryError> {
    let dir = registry_root.join("modules");
    let entries = std::fs::read_dir(&dir).map_err(|e| err(dir.display(), e))?;
    for entry in entries {
        let path = entry.map_err(|e| err(dir.display(), e))?.path();
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        if !index.values().any(|m| m.sha256 == stem) {
            std::fs::remove_file(&path).map_err(|e| err(path.display(), e))?;
        }
    }
    Ok(())
}

/// `registry verify --rebuild`: [`verigate_registry::maintain::verify`], then
/// a check that rebuilding `guest-verifiers/` from `repo_root` reproduces the
/// committed module bytes, the Python interpreter's included.
pub fn verify_rebuild(root: &Path, sandbox: &Sandbox, repo_root: &Path) -> VerifyReport {
    let mut report = verigate_registry::maintain::verify(root, sandbox);
    let Ok(registry) = Registry::open(root) else {
        return report;
    };
    let target_dir = repo_root.join("target").join("registry-rebuild");
    match build_modules(repo_root, &target_dir) {
        Ok(rebuilt) => {
            for (name, entry) in registry.modules() {
                let Some(source) = &entry.source else {
                    continue;
                };
                report.rebuilt += 1;
                match source
                    .strip_prefix(&format!("{GUEST_WORKSPACE}/"))
                    .and_then(|c| rebuilt.get(c))
                {
                    None => report
                        .problems
                        .push(problem(name, format!("source {source} was not rebuilt"))),
                    Some(bytes) if sha256_hex(bytes) != entry.sha256 => {
                        report.problems.push(problem(
                            name,
                            format!(
                                "rebuilding {source} gives sha256 {}, the registry holds {}",
                                sha256_hex(bytes),
                                entry.sha256
                            ),
                        ))
                    }
                    Some(_) => {}
                }
            }
        }
        Err(e) => report.problems.push(problem("rebuild", e.0)),
    }
    compare_interpreter(&registry, repo_root, &mut report);
    report
}

/// Rebuilds the Python interpreter module, when the runner has been built
/// (`registry/python/build.py`): it must give the committed bytes, which
/// every Python verifier must name.
fn compare_interpreter(registry: &Registry, repo_root: &Path, report: &mut VerifyReport) {
    let committed = registry.modules().get(PYTHON_INTERPRETER);
    for (name, entry) in registry.modules() {
        if entry.python.is_some() && committed.is_none_or(|c| c.sha256 != entry.sha256) {
            report.problems.push(problem(
                name,
                format!("a Python verifier whose module is not `{PYTHON_INTERPRETER}`"),
            ));
        }
    }
    let Some(committed) = committed else {
        return;
    };
    let Some(built) = build_interpreter(repo_root) else {
        report.skipped.push(format!(
            "{PYTHON_INTERPRETER} not rebuilt: no runner in {} (run registry/python/build.py)",
            repo_root.join(PYTHON_RUNTIME_DIR).display()
        ));
        return;
    };
    report.rebuilt += 1;
    match built {
        Err(e) => report.problems.push(problem(PYTHON_INTERPRETER, e)),
        Ok(bytes) if sha256_hex(&bytes) != committed.sha256 => report.problems.push(problem(
            PYTHON_INTERPRETER,
            format!(
                "rebuilding gives sha256 {}, the registry holds {}",
                sha256_hex(&bytes),
                committed.sha256
            ),
        )),
        Ok(_) => {}
    }
}
