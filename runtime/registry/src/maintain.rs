//! `registry verify` and `registry add`: the checks that make a registry
//! trustworthy, and the only way untrusted modules get in.

use crate::family::{FAMILY_FILE, ROWS_FILE};
use crate::lock::{Lock, files_under};
use crate::{
    INSTANCE_DIR, ITEM_FILE, Item, ItemKind, ModuleEntry, Registry, RegistryError, instance_owner,
    module_path, write_index,
};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use verigate_sandbox::{Limits, Outcome, Request, Sandbox, Verifier, sha256_hex};

/// Largest module `registry add` accepts, in bytes.
pub const MAX_MODULE_BYTES: usize = 16 << 20;

/// The most generous limits a contributed item may ask for.
pub const MAX_CONTRIBUTED_LIMITS: Limits = Limits {
    fuel: 100_000_000_000,
    memory_bytes: 1 << 30,
    timeout_ms: 60_000,
    max_output_bytes: 1 << 20,
    max_payload_bytes: 16 << 20,
};

/// One problem found by `verify` or `add`: what it concerns and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The item id, module name or file concerned.
    pub subject: String,
    /// What is wrong.
    pub reason: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.subject, self.reason)
    }
}

/// A [`Problem`] about `subject`.
pub fn problem(subject: impl Into<String>, reason: impl Into<String>) -> Problem {
    Problem {
        subject: subject.into(),
        reason: reason.into(),
    }
}

/// What `verify` looked at, and what it found wrong.
#[derive(Debug, Default)]
pub struct VerifyReport {
    /// Modules checked (imports, compilation).
    pub modules: usize,
    /// Items checked.
    pub items: usize,
    /// Reference witnesses and counterexamples run.
    pub witnesses: usize,
    /// Modules rebuilt from source (the Python interpreter among them) and compared.
    pub rebuilt: usize,
    /// What could not be checked as asked, and why (not problems of the registry).
    pub skipped: Vec<String>,
    /// Everything that failed.
    pub problems: Vec<Problem>,
}

/// Runs an item's reference witness (must pass, or reach its `reference_score`)
/// and counterexamples (must not pass), under the item's own limits and instance
/// directory.
pub fn check_witnesses(
    sandbox: &Sandbox,
    verifier: &Verifier,
    item: &Item,
    instance_dir: Option<&Path>,
) -> (usize, Vec<Problem>) {
    let run = |payload: &str| {
        sandbox.run(
            verifier,
            &Request {
                payload: payload.as_bytes().to_vec(),
                item_dir: instance_dir.map(Path::to_owned),
                limits: item.limits,
                protocol: item.protocol,
                row: item.row.clone(),
            },
        )
    };
    let mut problems = Vec::new();
    let mut runs = 0;
    if let Some(reference) = &item.reference {
        runs += 1;
        match (run(reference), item.reference_score) {
            (Ok(report), None) if report.passed => {}
            (Ok(report), Some(least))
                if matches!(report.outcome, Outcome::Pass | Outcome::Fail)
                    && report.score >= least => {}
            (Ok(report), Some(least)) => problems.push(problem(
                &item.id,
                format!(
                    "reference witness scores {} ({}), under its reference_score {least}",
                    report.score, report.outcome
                ),
            )),
            (Ok(report), None) => problems.push(problem(
                &item.id,
                format!(
                    "reference witness does not pass: {} ({}){}",
                    report.outcome,
                    report.message,
                    instance_hint(&report.message, &report.stderr, instance_dir)
                ),
            )),
            (Err(e), _) => problems.push(problem(&item.id, format!("reference witness: {e}"))),
        }
    }
    for (i, counter) in item.counterexamples.iter().enumerate() {
        runs += 1;
        match run(&counter.payload) {
            Ok(report) if !report.passed && report.outcome != Outcome::Timeout => {}
            Ok(report) => problems.push(problem(
                &item.id,
                format!(
                    "counterexample {}{} is not rejected: {}",
                    i + 1,
                    counter
                        .why
                        .as_ref()
                        .map_or(String::new(), |why| format!(" ({why})")),
                    report.outcome
                ),
            )),
            Err(e) => problems.push(problem(&item.id, format!("counterexample {}: {e}", i + 1))),
        }
    }
    (runs, problems)
}

/// A hint for a verifier that failed reading its item's files while the
/// item has no instance directory: `registry add` needs `--instance DIR`.
fn instance_hint(message: &str, stderr: &str, instance_dir: Option<&Path>) -> &'static str {
    let mentions_item = |text: &str| text.contains(verigate_contract::ITEM_DIR);
    if instance_dir.is_none() && (mentions_item(message) || mentions_item(stderr)) {
        "; the verifier reads /item but the item has no instance files: give them with \
         `registry add --instance DIR`"
    } else {
        ""
    }
}

/// Checks a registry: lock against files, every module (imports, compiles)
/// and every item's witnesses. (Rebuilding modules from source is the
/// CLI's `registry verify --rebuild`: it needs cargo.)
pub fn verify(root: &Path, sandbox: &Sandbox) -> VerifyReport {
    let mut report = VerifyReport::default();
    let registry = match Registry::open(root).and_then(|r| r.check_all_files().map(|()| r)) {
        Ok(registry) => registry,
        Err(e) => {
            report
                .problems
                .push(problem(root.display().to_string(), e.0));
            return report;
        }
    };
    let mut loaded: BTreeMap<&str, Arc<Verifier>> = BTreeMap::new();
    for name in registry.modules().keys() {
        report.modules += 1;
        // Hashed again as read: the bytes checked are the bytes the lock names.
        match registry.load_module(sandbox, name) {
            Ok(Ok(verifier)) => {
                loaded.insert(name, verifier);
            }
            Ok(Err(refused)) => report.problems.push(problem(name, refused.reason)),
            Err(e) => report.problems.push(problem(name, e.0)),
        }
    }
    report.problems.extend(layout_problems(&registry));
    for item in registry.items().values() {
        report.items += 1;
        if item.metadata.kind == ItemKind::Construction
            && item.row.is_none()
            && item.counterexamples.is_empty()
        {
            report.problems.push(problem(&item.id, NO_COUNTEREXAMPLE));
        }
        let Some(verifier) = item.module.as_deref().and_then(|m| loaded.get(m)) else {
            continue;
        };
        let instance = registry.instance_dir(item);
        let (runs, problems) = check_witnesses(sandbox, verifier, item, instance.as_deref());
        report.witnesses += runs;
        report.problems.extend(problems);
    }
    report
}

const NO_COUNTEREXAMPLE: &str = "a construction item needs at least one `[[counterexample]]` its \
     verifier must reject: without one, a verifier that accepts everything passes every check";

/// Names no instance file may have:
/// `verify` would take them for an item nested in another item's mount.
const ITEM_FILE_NAMES: [&str; 2] = [ITEM_FILE, FAMILY_FILE];

/// Items nested in another item's or family's directory, and files under
/// `items/` that no item owns: not an item's `item.toml`, not a family's
/// `family.toml`/`rows.jsonl`, not under an item's `instance/` directory — or
/// an item file inside an instance directory, where a contribution with an
/// id like `<other item>/instance` would have put its own.
fn layout_problems(registry: &Registry) -> Vec<Problem> {
    let mut problems = Vec::new();
    let items = registry.items();
    let families = registry.families();
    let is_dir_of_item = |id: &str| items.get(id).is_some_and(|item| item.row.is_none());
    for item in items.values() {
        let dir = match &item.row {
            Some(_) => item.id.rsplit_once('/').map_or("", |(family, _)| family),
            None => item.id.as_str(),
        };
        let mut prefix = String::new();
        for segment in dir.split('/') {
            if !prefix.is_empty() && (is_dir_of_item(&prefix) || families.contains(&prefix)) {
                problems.push(problem(
                    &item.id,
                    format!("lies inside the directory of `{prefix}` (items/{prefix}/)"),
                ));
                break;
            }
            if !prefix.is_empty() {
                prefix.push('/');
            }
            prefix.push_str(segment);
        }
    }
    let files = match files_under(registry.root(), "items") {
        Ok(files) => files,
        Err(e) => return vec![problem("items/", e.0)],
    };
    let root = registry.root().join("items");
    for path in files {
        let relative = path
            .strip_prefix(&root)
            .expect("listed under items/")
            .to_string_lossy()
            .replace('\\', "/");
        let (dir, name) = relative.rsplit_once('/').unwrap_or(("", relative.as_str()));
        let stray = match instance_owner(&relative) {
            Some(owner) if !items.contains_key(&owner) => Some(format!(
                "instance file of `{owner}`, which is not an item: no item owns it"
            )),
            Some(owner) if ITEM_FILE_NAMES.contains(&name) => Some(format!(
                "an item file inside the instance directory of `{owner}` (its /item mount): \
                 no item owns it"
            )),
            Some(_) => None,
            None if name == ITEM_FILE && is_dir_of_item(dir) => None,
            None if (name == FAMILY_FILE || name == ROWS_FILE) && families.contains(dir) => None,
            None => Some(
                "not an item's item.toml, a family's files or an item's instance file: \
                 no item owns it"
                    .to_owned(),
            ),
        };
        if let Some(why) = stray {
            problems.push(problem(format!("items/{relative}"), why));
        }
    }
    problems
}

/// Why `name` cannot name a contributed module, if it cannot.
pub fn bad_module_name(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some("the module name (`--name`) is empty".to_owned());
    }
    let valid = name.len() <= 100
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        && name.starts_with(|c: char| c.is_ascii_alphanumeric());
    (!valid).then(|| {
        format!(
            "module name `{name}`: at most 100 ASCII letters, digits, `-`, `_` and `.`, \
             starting with a letter or digit"
        )
    })
}

/// Why a new item `id` cannot go into `registry`: its directory would be,
/// contain, or lie inside another item's or family's directory (compared
/// ignoring case, as some file systems do). With `replacing`, the item of
/// exactly this id is the one being replaced, not a collision.
fn id_collision(registry: &Registry, id: &str, replacing: bool) -> Option<String> {
    let new = id.to_ascii_lowercase();
    let nested = |outer: &str, inner: &str| {
        inner.len() > outer.len()
            && inner.starts_with(outer)
            && inner.as_bytes()[outer.len()] == b'/'
    };
    let families = registry.families().iter().map(|f| (f, "family"));
    let items = registry
        .items()
        .values()
        .filter(|item| item.row.is_none())
        .map(|item| (&item.id, "item"));
    for (other, kind) in items.chain(families) {
        if replacing && kind == "item" && other == id {
            continue;
        }
        let old = other.to_ascii_lowercase();
        if old == new && other != id {
            return Some(format!("differs only in case from the {kind} `{other}`"));
        }
        if old == new {
            return Some(format!("a {kind} with this id is already in the registry"));
        }
        if nested(&old, &new) {
            return Some(format!(
                "would lie inside the directory of the {kind} `{other}` (items/{other}/): \
                 its files would land in that {kind}'s data"
            ));
        }
        if nested(&new, &old) {
            return Some(format!(
                "its directory would contain the {kind} `{other}` (items/{other}/)"
            ));
        }
    }
    None
}

/// A contributed verifier and the item it checks.
pub struct Contribution<'a> {
    /// The verifier's name in `modules.toml`.
    pub name: &'a str,
    /// The module bytes (any language targeting `wasm32-wasip1`).
    pub wasm: &'a [u8],
    /// The item's `item.toml` text, stored as given.
    pub item_toml: &'a str,
    /// Instance files to mount at `/item`.
    pub instance_dir: Option<&'a Path>,
    /// For a Python verifier (`wasm` then the registry's interpreter module,
    /// [`crate::PYTHON_INTERPRETER`]): the script, stored as
    /// `instance/verifier.py` of the item and named in `modules.toml`.
    pub python: Option<&'a str>,
}

/// Where a Python verifier's script is kept, in its item's directory.
const PYTHON_SCRIPT: &str = "verifier.py";

/// Checks a contribution; with `replace`, an item of the same id and a
/// module of the same name are replaced instead of refused, and every other
/// item naming the module must still pass its witnesses with the new bytes.
fn check_contribution(
    registry: &Registry,
    sandbox: &Sandbox,
    c: &Contribution<'_>,
    item: &Item,
    replace: bool,
) -> Result<(), Vec<Problem>> {
    let id = item.id.as_str();
    let mut problems = Vec::new();
    if let Some(why) = bad_module_name(c.name) {
        problems.push(problem("--name", why));
    }
    if let Err(e) = item.check() {
        problems.push(problem(id, e));
    }
    if item.metadata.kind == ItemKind::Construction && item.counterexamples.is_empty() {
        problems.push(problem(id, NO_COUNTEREXAMPLE));
    }
    if item.module.as_deref() != Some(c.name) {
        problems.push(problem(
            id,
            format!(
                "field `module` must name the contributed module `{}`",
                c.name
            ),
        ));
    }
    if c.python.is_some()
        && c.instance_dir
            .is_some_and(|dir| dir.join(PYTHON_SCRIPT).exists())
    {
        problems.push(problem(
            id,
            format!(
                "the instance directory already holds a `{PYTHON_SCRIPT}`, where the script goes"
            ),
        ));
    }
    match registry.items().get(id) {
        Some(_) if !replace => problems.push(problem(
            id,
            "an item with this id is already in the registry (`--replace` replaces it)",
        )),
        Some(old) if old.row.is_some() => problems.push(problem(
            id,
            "a row of an item family (its rows.jsonl), which `--replace` cannot replace",
        )),
        _ => {
            if let Some(why) = id_collision(registry, id, replace) {
                problems.push(problem(id, why));
            }
        }
    }
    let sha256 = sha256_hex(c.wasm);
    let replaced_module = (registry.modules().get(c.name)).filter(|old| old.sha256 != sha256);
    match replaced_module {
        Some(old) if !replace => problems.push(problem(
            c.name,
            format!(
                "name already used by module {} (`--replace` replaces it)",
                old.sha256
            ),
        )),
        Some(ModuleEntry {
            source: Some(source),
            ..
        }) => problems.push(problem(
            c.name,
            format!(
                "built from {source}: change the source and run `registry build` instead of \
                 replacing the module"
            ),
        )),
        _ => {}
    }
    let interpreter = registry.modules().get(crate::PYTHON_INTERPRETER);
    if c.python.is_some() && interpreter.is_none_or(|entry| entry.sha256 != sha256) {
        problems.push(problem(
            c.name,
            format!(
                "a Python verifier runs on the registry's interpreter module `{}`, which {}",
                crate::PYTHON_INTERPRETER,
                interpreter.map_or("this registry lacks".to_owned(), |e| format!(
                    "is {}, not {sha256}",
                    e.sha256
                ))
            ),
        ));
    } else if c.python.is_none() && c.wasm.len() > MAX_MODULE_BYTES {
        problems.push(problem(
            c.name,
            format!(
                "module is {} bytes; the cap is {MAX_MODULE_BYTES}",
                c.wasm.len()
            ),
        ));
    }
    let (l, max) = (item.limits, MAX_CONTRIBUTED_LIMITS);
    for (field, value, cap) in [
        ("fuel", l.fuel, max.fuel),
        ("memory_bytes", l.memory_bytes, max.memory_bytes),
        ("timeout_ms", l.timeout_ms, max.timeout_ms),
        ("max_output_bytes", l.max_output_bytes, max.max_output_bytes),
        (
            "max_payload_bytes",
            l.max_payload_bytes,
            max.max_payload_bytes,
        ),
    ] {
        if value > cap {
            problems.push(problem(
                id,
                format!("field `limits.{field}` = {value} exceeds the policy cap {cap}"),
            ));
        }
    }
    if let Some(dir) = c.instance_dir {
        match regular_files(dir) {
            Err(e) => problems.push(problem(id, e.0)),
            Ok(files) => {
                for file in files {
                    let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("");
                    if ITEM_FILE_NAMES.contains(&name) {
                        problems.push(problem(
                            id,
                            format!(
                                "instance file {}: no instance file may be named {}",
                                file.display(),
                                ITEM_FILE_NAMES.join(" or ")
                            ),
                        ));
                    }
                }
            }
        }
    }
    if problems.is_empty() {
        let loaded = sandbox.load_expected(c.wasm, &sha256).map(|loaded| {
            let with_script = |v: Arc<Verifier>| match c.python {
                Some(script) => v.with_script(script).map(Arc::new),
                None => Ok(v),
            };
            loaded.and_then(with_script)
        });
        match loaded {
            Ok(Ok(verifier)) => {
                problems.extend(check_witnesses(sandbox, &verifier, item, c.instance_dir).1);
                // New bytes under an old name judge every item naming it.
                let others = (registry.items().values())
                    .filter(|other| other.id != item.id && other.module.as_deref() == Some(c.name));
                for other in others.filter(|_| replaced_module.is_some()) {
                    let dir = registry.instance_dir(other);
                    problems.extend(check_witnesses(sandbox, &verifier, other, dir.as_deref()).1);
                }
            }
            Ok(Err(refused)) => problems.push(problem(c.name, refused.reason)),
            Err(e) => problems.push(problem(c.name, e.to_string())),
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

/// Every file under `dir` relative to it; refuses symbolic links and
/// anything that is not a regular file or directory.
fn regular_files(dir: &Path) -> Result<Vec<std::path::PathBuf>, RegistryError> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(current) = pending.pop() {
        let entries = std::fs::read_dir(&current)
            .map_err(|e| RegistryError(format!("{}: {e}", current.display())))?;
        for entry in entries {
            let entry = entry.map_err(|e| RegistryError(format!("{}: {e}", current.display())))?;
            let kind = entry
                .file_type()
                .map_err(|e| RegistryError(format!("{}: {e}", entry.path().display())))?;
            if kind.is_dir() {
                pending.push(entry.path());
            } else if kind.is_file() {
                files.push(
                    entry
                        .path()
                        .strip_prefix(dir)
                        .expect("under dir")
                        .to_path_buf(),
                );
            } else {
                return Err(RegistryError(format!(
                    "{}: instance files must be regular files (no links or devices)",
                    entry.path().display()
                )));
            }
        }
    }
    files.sort();
    Ok(files)
}

/// Validates a contribution completely and only then adds it: module by
/// hash, `modules.toml`, `items/<id>/` and the lock. A rejected contribution
/// leaves the registry untouched; an item id or module name already in the
/// registry is refused (see [`add_or_replace`]).
pub fn add(root: &Path, sandbox: &Sandbox, c: &Contribution<'_>) -> Result<Item, Vec<Problem>> {
    add_or_replace(root, sandbox, c, false).map(|added| added.item)
}

/// What [`add_or_replace`] put into the registry, and what it replaced.
#[derive(Debug)]
pub struct Added {
    /// The item now in the registry.
    pub item: Item,
    /// Whether an item of this id was there before, and was replaced.
    pub replaced_item: bool,
    /// The sha256 the module's name named before, where the bytes changed.
    /// Its file is removed unless another name still names it.
    pub replaced_module: Option<String>,
}

/// [`add`], or with `replace` an update: an item of the same id (its
/// `item.toml` and instance files) and a contributed module of the same name
/// are replaced instead of refused. Every other item naming the module must
/// pass its witnesses with the new bytes; a module built from
/// `guest-verifiers/` is refused (`registry build` owns it).
pub fn add_or_replace(
    root: &Path,
    sandbox: &Sandbox,
    c: &Contribution<'_>,
    replace: bool,
) -> Result<Added, Vec<Problem>> {
    let registry =
        Registry::open(root).map_err(|e| vec![problem(root.display().to_string(), e.0)])?;
    let item: Item =
        toml::from_str(c.item_toml).map_err(|e| vec![problem("item.toml", e.to_string())])?;
    check_contribution(&registry, sandbox, c, &item, replace)?;
    let replaced_module =
        write_contribution(&registry, c, &item).map_err(|e| vec![problem(&item.id, e.0)])?;
    Ok(Added {
        replaced_item: registry.items().contains_key(&item.id),
        item,
        replaced_module,
    })
}

/// Writes a checked contribution over whatever of the same id and name the
/// registry held; returns the sha256 of the module the name named before,
/// where it changed.
fn write_contribution(
    registry: &Registry,
    c: &Contribution<'_>,
    item: &Item,
) -> Result<Option<String>, RegistryError> {
    let root = registry.root();
    let io = |path: &Path, e: std::io::Error| RegistryError(format!("{}: {e}", path.display()));
    // Read first: the instance directory given may be the replaced item's own.
    let instance_files = match c.instance_dir {
        Some(source) => (regular_files(source)?.into_iter())
            .map(|relative| {
                let from = source.join(&relative);
                std::fs::read(&from)
                    .map(|bytes| (relative, bytes))
                    .map_err(|e| io(&from, e))
            })
            .collect::<Result<Vec<_>, _>>()?,
        None => Vec::new(),
    };
    let sha256 = sha256_hex(c.wasm);
    let module = module_path(root, &sha256);
    if !module.exists() {
        std::fs::write(&module, c.wasm).map_err(|e| io(&module, e))?;
    }
    let mut index = registry.modules().clone();
    let previous = index.insert(
        c.name.to_owned(),
        ModuleEntry {
            sha256: sha256.clone(),
            source: None,
            python: c
                .python
                .map(|_| format!("items/{}/{INSTANCE_DIR}/{PYTHON_SCRIPT}", item.id)),
        },
    );
    write_index(root, &index)?;
    let replaced_module = previous.map(|old| old.sha256).filter(|old| *old != sha256);
    if let Some(old) = &replaced_module
        && !index.values().any(|entry| entry.sha256 == *old)
    {
        let path = module_path(root, old);
        std::fs::remove_file(&path).map_err(|e| io(&path, e))?;
    }
    let item_dir = root.join("items").join(&item.id);
    let old_instance = item_dir.join(INSTANCE_DIR);
    if registry.items().contains_key(&item.id) && old_instance.exists() {
        std::fs::remove_dir_all(&old_instance).map_err(|e| io(&old_instance, e))?;
    }
    std::fs::create_dir_all(&item_dir).map_err(|e| io(&item_dir, e))?;
    if let Some(script) = c.python {
        let dir = item_dir.join(INSTANCE_DIR);
        std::fs::create_dir_all(&dir).map_err(|e| io(&dir, e))?;
        let path = dir.join(PYTHON_SCRIPT);
        std::fs::write(&path, script).map_err(|e| io(&path, e))?;
    }
    let item_file = item_dir.join(ITEM_FILE);
    std::fs::write(&item_file, c.item_toml).map_err(|e| io(&item_file, e))?;
    for (relative, bytes) in instance_files {
        let to = item_dir.join(INSTANCE_DIR).join(&relative);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(|e| io(parent, e))?;
        }
        std::fs::write(&to, bytes).map_err(|e| io(&to, e))?;
    }
    Lock::compute(root)?.write(root)?;
    Ok(replaced_module)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_names_must_be_plain_and_non_empty() {
        assert!(bad_module_name("").unwrap().contains("empty"));
        for bad in [" ", "a b", "-x", ".hidden", "x/y", "é"] {
            assert!(bad_module_name(bad).is_some(), "{bad:?}");
        }
        for good in ["h", "toy-derangement", "py_sum.v2", "Q28"] {
            assert_eq!(bad_module_name(good), None, "{good}");
        }
        assert!(bad_module_name(&"x".repeat(101)).is_some());
    }

    #[test]
    fn instance_files_belong_to_the_id_before_the_first_instance_directory() {
        assert_eq!(
            instance_owner("toy/a/instance/x.json").as_deref(),
            Some("toy/a")
        );
        assert_eq!(
            instance_owner("toy/a/instance/instance/item.toml").as_deref(),
            Some("toy/a")
        );
        assert_eq!(instance_owner("toy/a/item.toml"), None);
        assert_eq!(
            instance_owner("toy/instance"),
            None,
            "a file named instance"
        );
    }
}
