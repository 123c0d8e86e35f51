//! The frozen, content-addressed verifier registry.
//!
//! Layout of a registry directory (documented for users in `registry/README.md`):
//! - `modules/<sha256>.wasm` — verifier modules, named by the sha256 of their bytes;
//! - `modules.toml` — verifier name → sha256 (and the crate it is built from);
//! - `items/<id>/item.toml` — one [`Item`] per benchmark item, with an optional
//!   `items/<id>/instance/` directory mounted read-only at `/item`;
//! - `items/<family>/family.toml` + `rows.jsonl` — a [`family::Family`] of
//!   items, one per row;
//! - `benchmarks/<benchmark>.toml` — a benchmark's own tabulation data (e.g.
//!   SCBench's task table), read by the grading library's benchmark module;
//! - `registry.lock` — the sha256 of every file above and one digest over them all.

#![deny(missing_docs)]

pub mod family;
pub mod item;
pub mod lock;
pub mod maintain;

pub use item::{Counterexample, Item, ItemKind, Metadata, PayloadMode};
pub use lock::Lock;

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use verigate_sandbox::{CacheStatus, ModuleError, Request, Sandbox, Verifier};

/// Name of the lock file at the registry's root.
pub const LOCK_FILE: &str = "registry.lock";

/// The environment variable naming the registry when none is given.
pub const REGISTRY_ENV: &str = "VERIGATE_REGISTRY";

/// The registry directory to use: `explicit`, else `$VERIGATE_REGISTRY`,
/// else `registry/` in the current directory when it holds a lock; never a
/// path fixed at build time. The error says how to name one.
pub fn locate(explicit: Option<&Path>) -> Result<PathBuf, RegistryError> {
    if let Some(dir) = explicit {
        return Ok(dir.to_owned());
    }
    if let Some(dir) = std::env::var_os(REGISTRY_ENV) {
        return Ok(dir.into());
    }
    let here = PathBuf::from("registry");
    if here.join(LOCK_FILE).is_file() {
        return Ok(here);
    }
    Err(RegistryError(format!(
        "no registry here: pass --registry DIR, set {REGISTRY_ENV}, or run from a \
         directory holding registry/ (with its {LOCK_FILE})"
    )))
}
/// Name of the module index at the registry's root.
pub const MODULES_FILE: &str = "modules.toml";
/// Name of an item's metadata file inside its directory.
pub const ITEM_FILE: &str = "item.toml";
/// Directory of the benchmarks' own data files (`<benchmark>.toml`).
pub const BENCHMARKS_DIR: &str = "benchmarks";
/// Name of an item's instance directory inside its directory.
pub const INSTANCE_DIR: &str = "instance";

/// A registry problem, naming the file (and line and field where known).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegistryError(pub String);

impl fmt::Display for RegistryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RegistryError {}

/// One entry of `modules.toml`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModuleEntry {
    /// sha256 of the module bytes (`modules/<sha256>.wasm`).
    pub sha256: String,
    /// The crate under `guest-verifiers/` it is built from; none for
    /// contributed modules, which are frozen as given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// For a Python verifier: its script, relative to the registry root,
    /// which the interpreter module `sha256` names (the registry's
    /// [`PYTHON_INTERPRETER`]) runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub python: Option<String>,
}

/// The name, in `modules.toml`, of the Python interpreter module every
/// Python verifier runs on (CPython 3.11, `registry/python/`).
pub const PYTHON_INTERPRETER: &str = "python3.11";

/// Verifier name → module entry.
pub type ModuleIndex = BTreeMap<String, ModuleEntry>;

/// One module's load, as [`Registry::load_module`] returns it: the outer
/// error the registry's (unknown name, unreadable or replaced file), the
/// inner one the module's refusal.
pub type ModuleLoad = Result<Result<Arc<Verifier>, ModuleError>, RegistryError>;

/// What [`Registry::load_modules`] reports as each module finishes loading.
#[derive(Clone, Copy)]
pub struct LoadEvent<'a> {
    /// The module's load.
    pub result: &'a ModuleLoad,
    /// Modules finished so far, this one included.
    pub done: usize,
    /// Modules to load in all.
    pub total: usize,
}

impl LoadEvent<'_> {
    /// Where the verifier's code came from: [`CacheStatus::Hit`] read from
    /// the on-disk cache, otherwise compiled (see [`Verifier::load_time`]
    /// for how long it took); `None` when it was refused or not loaded.
    pub fn cache(&self) -> Option<CacheStatus> {
        match self.result {
            Ok(Ok(verifier)) => Some(verifier.cache),
            _ => None,
        }
    }
}

/// An opened registry whose files matched its lock.
#[derive(Debug)]
pub struct Registry {
    root: PathBuf,
    lock: Lock,
    modules: ModuleIndex,
    items: BTreeMap<String, Item>,
    families: BTreeSet<String>,
    benchmarks: BTreeMap<String, String>,
}

/// For a path under `items/` (relative to it, `/`-separated) inside an
/// instance directory, the id whose instance directory it is: the segments
/// before the first `instance` directory.
pub(crate) fn instance_owner(relative: &str) -> Option<String> {
    let segments: Vec<&str> = relative.split('/').collect();
    let (_, dirs) = segments.split_last()?;
    let at = dirs.iter().position(|s| *s == INSTANCE_DIR)?;
    Some(dirs[..at].join("/"))
}

/// Parses a TOML file, naming it (and the line and column) on error.
pub fn read_toml<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, RegistryError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| RegistryError(format!("{}: {e}", path.display())))?;
    toml::from_str(&text).map_err(|e| RegistryError(format!("{}: {e}", path.display())))
}

impl Registry {
    /// Opens the registry at `root`, refusing it unless its files are
    /// exactly those of `registry.lock`, every file but the module files
    /// matches it (a module is hashed when loaded: [`Registry::load_module`],
    /// [`Registry::module_bytes`]) and every item parses and checks.
    /// [`Registry::check_all_files`] hashes the module files too.
    pub fn open(root: &Path) -> Result<Registry, RegistryError> {
        let lock = Lock::read(&root.join(LOCK_FILE))?;
        lock.check_at_open(root)?;
        let modules_path = root.join(MODULES_FILE);
        let modules: ModuleIndex = if modules_path.exists() {
            read_toml(&modules_path)?
        } else {
            ModuleIndex::new()
        };
        let mut items = BTreeMap::new();
        let mut families = BTreeSet::new();
        let mut add = |item: Item, file: &dyn fmt::Display| {
            if let Some(module) = &item.module
                && !modules.contains_key(module)
            {
                return Err(RegistryError(format!(
                    "{file}: field `module`: no module `{module}` in {MODULES_FILE}"
                )));
            }
            let id = item.id.clone();
            if items.insert(id.clone(), item).is_some() {
                return Err(RegistryError(format!(
                    "{file}: item `{id}` is defined twice (an item.toml and a family row, or two rows)"
                )));
            }
            Ok(())
        };
        for path in lock::files_under(root, "items")? {
            let Some(dir) = path.parent() else { continue };
            let expected = dir
                .strip_prefix(root.join("items"))
                .expect("listed under items/")
                .to_string_lossy()
                .replace('\\', "/");
            // Anything inside an instance directory is an item's data
            // (mounted at `/item`), never an item or a family.
            let relative = format!("{expected}/x");
            if instance_owner(&relative).is_some() {
                continue;
            }
            let file = path.display();
            if path.file_name().is_some_and(|n| n == ITEM_FILE) {
                let item: Item = read_toml(&path)?;
                if item.id != expected {
                    return Err(RegistryError(format!(
                        "{file}: field `id` is `{}` but the item lives in items/{expected}",
                        item.id
                    )));
                }
                item.check()
                    .map_err(|e| RegistryError(format!("{file}: {e}")))?;
                add(item, &file)?;
            } else if path.file_name().is_some_and(|n| n == family::FAMILY_FILE) {
                let family = family::Family::read(dir, &expected)?;
                for item in family.items(dir)? {
                    add(item, &dir.join(family::ROWS_FILE).display())?;
                }
                families.insert(expected);
            }
        }
        let mut benchmarks = BTreeMap::new();
        for path in lock::files_under(root, BENCHMARKS_DIR)? {
            if let (Some(name), Some("toml")) = (
                path.file_stem().and_then(|s| s.to_str()),
                path.extension().and_then(|s| s.to_str()),
            ) {
                let text = std::fs::read_to_string(&path)
                    .map_err(|e| RegistryError(format!("{}: {e}", path.display())))?;
                benchmarks.insert(name.to_owned(), text);
            }
        }
        Ok(Registry {
            root: root.to_path_buf(),
            lock,
            modules,
            items,
            families,
            benchmarks,
        })
    }

    /// The registry's root directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The one digest naming every module and item file.
    pub fn digest(&self) -> &str {
        &self.lock.digest
    }

    /// The module index.
    pub fn modules(&self) -> &ModuleIndex {
        &self.modules
    }

    /// All items, by id.
    pub fn items(&self) -> &BTreeMap<String, Item> {
        &self.items
    }

    /// The item families (`items/<family>/family.toml`), by id prefix.
    pub fn families(&self) -> &BTreeSet<String> {
        &self.families
    }

    /// The text of `benchmarks/<benchmark>.toml`, the benchmark's own data,
    /// and that file's path (for error messages).
    pub fn benchmark_data(&self, benchmark: &str) -> Option<(PathBuf, &str)> {
        let text = self.benchmarks.get(benchmark)?;
        let path = self
            .root
            .join(BENCHMARKS_DIR)
            .join(format!("{benchmark}.toml"));
        Some((path, text))
    }

    /// The item with this id.
    pub fn item(&self, id: &str) -> Result<&Item, RegistryError> {
        self.items.get(id).ok_or_else(|| {
            RegistryError(format!(
                "no item `{id}` in the registry at {}",
                self.root.display()
            ))
        })
    }

    /// Path and entry of the module named `name`.
    pub fn module(&self, name: &str) -> Result<(PathBuf, &ModuleEntry), RegistryError> {
        let entry = self
            .modules
            .get(name)
            .ok_or_else(|| RegistryError(format!("no module `{name}` in {MODULES_FILE}")))?;
        Ok((module_path(&self.root, &entry.sha256), entry))
    }

    /// Hashes every file, module files included, against the lock (the
    /// full sweep of `registry verify`).
    pub fn check_all_files(&self) -> Result<(), RegistryError> {
        self.lock.check_files(&self.root)
    }

    /// The bytes of module `name`, refused unless their sha256 is the one
    /// `modules.toml` names.
    pub fn module_bytes(&self, name: &str) -> Result<Vec<u8>, RegistryError> {
        let (path, entry) = self.module(name)?;
        let bytes =
            std::fs::read(&path).map_err(|e| RegistryError(format!("{}: {e}", path.display())))?;
        let sha = verigate_sandbox::sha256_hex(&bytes);
        if sha != entry.sha256 {
            return Err(RegistryError(format!(
                "{}: sha256 {sha}, {MODULES_FILE} says {} (changed since it was locked?)",
                path.display(),
                entry.sha256
            )));
        }
        Ok(bytes)
    }

    /// Loads the verifier module `name` into `sandbox`, refusing bytes that
    /// are not the ones `modules.toml` names by sha256 (a module file
    /// replaced after the registry was opened): the bytes hashed are the
    /// bytes compiled. A Python verifier is the interpreter module (compiled
    /// once for all of them) with its script attached, the script refused
    /// unless it is the one the lock names. The outer error is the
    /// registry's (unknown name, unreadable or replaced file); the inner one
    /// the module's refusal.
    pub fn load_module(
        &self,
        sandbox: &Sandbox,
        name: &str,
    ) -> Result<Result<Arc<Verifier>, ModuleError>, RegistryError> {
        let (path, entry) = self.module(name)?;
        let loaded = sandbox
            .load_file_expected(&path, &entry.sha256)
            .map_err(|e| RegistryError(format!("module `{name}`: {e}")))?;
        let (Some(script), Ok(interpreter)) = (&entry.python, &loaded) else {
            return Ok(loaded);
        };
        let source = self.script(script)?;
        Ok(interpreter
            .with_script(&source)
            .map(Arc::new)
            .map_err(|e| ModuleError {
                reason: format!("{script}: {}", e.reason),
                ..e
            }))
    }

    /// The text of the script at `relative` (a Python verifier's), refused
    /// unless its sha256 is the one the lock names.
    pub fn script(&self, relative: &str) -> Result<String, RegistryError> {
        let path = self.root.join(relative);
        let bytes =
            std::fs::read(&path).map_err(|e| RegistryError(format!("{}: {e}", path.display())))?;
        let sha = verigate_sandbox::sha256_hex(&bytes);
        if self.lock.files.get(relative) != Some(&sha) {
            return Err(RegistryError(format!(
                "{}: sha256 {sha} is not the one the lock names (changed since it was locked?)",
                path.display()
            )));
        }
        String::from_utf8(bytes)
            .map_err(|_| RegistryError(format!("{}: not UTF-8 text", path.display())))
    }

    /// [`load_module`](Self::load_module) for each of `names` (each name
    /// once), on up to `workers` threads, the calling thread among them:
    /// different modules compile in parallel (a compilation may itself use
    /// several cores), a module named twice or already loaded is built once.
    /// Calls `on_loaded` as each module finishes, one call at a time, in the
    /// order they finish; returns every name's load.
    ///
    /// To say beforehand how many modules must be compiled (a first run's
    /// cost), ask [`modules_to_compile`](Self::modules_to_compile).
    pub fn load_modules(
        &self,
        sandbox: &Sandbox,
        names: &[String],
        workers: usize,
        on_loaded: impl Fn(&str, &LoadEvent<'_>) + Sync,
    ) -> HashMap<String, ModuleLoad> {
        let mut seen = HashSet::new();
        let names: Vec<&str> = names
            .iter()
            .map(String::as_str)
            .filter(|name| seen.insert(*name))
            .collect();
        let next = AtomicUsize::new(0);
        let loads = Mutex::new(HashMap::with_capacity(names.len()));
        let work = || {
            while let Some(&name) = names.get(next.fetch_add(1, Ordering::Relaxed)) {
                let result = self.load_module(sandbox, name);
                let mut loads = loads.lock().unwrap_or_else(PoisonError::into_inner);
                let event = LoadEvent {
                    result: &result,
                    done: loads.len() + 1,
                    total: names.len(),
                };
                on_loaded(name, &event);
                loads.insert(name.to_owned(), result);
            }
        };
        std::thread::scope(|scope| {
            for _ in 1..workers.min(names.len()) {
                // A worker that cannot be started leaves its share to the
                // others, the calling thread among them.
                let spawned = std::thread::Builder::new()
                    .name("verigate-load".to_owned())
                    .spawn_scoped(scope, work);
                if spawned.is_err() {
                    break;
                }
            }
            work();
        });
        loads.into_inner().unwrap_or_else(PoisonError::into_inner)
    }

    /// The names among `names` (each once, in order) whose module `sandbox`
    /// would compile when loading it: neither loaded nor in its on-disk
    /// cache ([`Sandbox::is_cached`]). Unknown names are left out; loading
    /// reports them.
    pub fn modules_to_compile<'n>(&self, sandbox: &Sandbox, names: &'n [String]) -> Vec<&'n str> {
        let mut seen = HashSet::new();
        names
            .iter()
            .map(String::as_str)
            .filter(|name| seen.insert(*name))
            .filter(|name| {
                self.modules
                    .get(*name)
                    .is_some_and(|entry| !sandbox.is_cached(&entry.sha256))
            })
            .collect()
    }

    /// The instance directory of `item`, if it has one.
    pub fn instance_dir(&self, item: &Item) -> Option<PathBuf> {
        let dir = self.root.join("items").join(&item.id).join(INSTANCE_DIR);
        dir.is_dir().then_some(dir)
    }

    /// The request that runs `item`'s verifier on `payload`: the item's
    /// limits, protocol, instance directory and family row.
    pub fn request(&self, item: &Item, payload: Vec<u8>) -> Request {
        Request {
            payload,
            item_dir: self.instance_dir(item),
            limits: item.limits,
            protocol: item.protocol,
            row: item.row.clone(),
        }
    }
}

/// Where the module with `sha256` is stored under `root`.
pub fn module_path(root: &Path, sha256: &str) -> PathBuf {
    root.join("modules").join(format!("{sha256}.wasm"))
}

/// Writes `modules.toml`.
pub fn write_index(registry_root: &Path, index: &ModuleIndex) -> Result<(), RegistryError> {
    let path = registry_root.join(MODULES_FILE);
    let err = |e: &dyn fmt::Display| RegistryError(format!("{}: {e}", path.display()));
    let body = toml::to_string(index).map_err(|e| err(&e))?;
    let text = format!("# Verifier name -> module bytes (modules/<sha256>.wasm).\n\n{body}");
    std::fs::write(&path, text).map_err(|e| err(&e))
}
