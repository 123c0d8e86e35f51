//! `registry.lock`: the sha256 of every registry file and one digest over them.
//!
//! The digest is the sha256 of the `sha256sum`-style listing of the files,
//! sorted by path, so it can be checked with standard tools:
//! `cd registry && find items modules modules.toml -type f | LC_ALL=C sort | xargs sha256sum | sha256sum`.

use crate::{BENCHMARKS_DIR, LOCK_FILE, MODULES_FILE, RegistryError, read_toml};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use verigate_sandbox::sha256_hex;

/// Version of the lock format.
const LOCK_FORMAT: u32 = 1;

/// The parsed lock file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lock {
    /// Lock format version.
    pub format: u32,
    /// sha256 over the listing of `files`.
    pub digest: String,
    /// Registry-relative path → sha256, for every covered file.
    pub files: BTreeMap<String, String>,
}

/// Every regular file under `root/sub`, recursively, sorted.
pub(crate) fn files_under(root: &Path, sub: &str) -> Result<Vec<PathBuf>, RegistryError> {
    let mut found = Vec::new();
    let mut pending = vec![root.join(sub)];
    while let Some(dir) = pending.pop() {
        if !dir.exists() {
            continue;
        }
        let entries = std::fs::read_dir(&dir)
            .map_err(|e| RegistryError(format!("{}: {e}", dir.display())))?;
        for entry in entries {
            let path = entry
                .map_err(|e| RegistryError(format!("{}: {e}", dir.display())))?
                .path();
            if path.is_dir() {
                pending.push(path);
            } else {
                found.push(path);
            }
        }
    }
    found.sort();
    Ok(found)
}

impl Lock {
    /// Reads and parses the lock at `path`.
    pub fn read(path: &Path) -> Result<Lock, RegistryError> {
        let lock: Lock = read_toml(path)?;
        if lock.format != LOCK_FORMAT {
            return Err(RegistryError(format!(
                "{}: field `format`: version {} is not supported (expected {LOCK_FORMAT})",
                path.display(),
                lock.format
            )));
        }
        Ok(lock)
    }

    /// Hashes every covered file under `root` into a new lock.
    pub fn compute(root: &Path) -> Result<Lock, RegistryError> {
        let files = scan(root, Check::Everything)?
            .into_iter()
            .map(|(path, sha)| (path, sha.expect("every file hashed")))
            .collect();
        Ok(Lock {
            format: LOCK_FORMAT,
            digest: digest_of(&files),
            files,
        })
    }

    /// Checks that the files under `root` are exactly those of the lock, with
    /// the same contents; the error names every file that differs.
    pub fn check_files(&self, root: &Path) -> Result<(), RegistryError> {
        self.check(root, Check::Everything)
    }

    /// What opening a registry checks: the lock's own digest, that the files
    /// are exactly the lock's, and the contents of every file but the module
    /// files, which are hashed when loaded (the bytes hashed are the bytes
    /// compiled), so opening does not read modules a run never uses.
    pub fn check_at_open(&self, root: &Path) -> Result<(), RegistryError> {
        self.check(root, Check::AllButModules)
    }

    fn check(&self, root: &Path, check: Check) -> Result<(), RegistryError> {
        let actual = scan(root, check)?;
        let mut problems = Vec::new();
        if digest_of(&self.files) != self.digest {
            problems.push(format!(
                "{LOCK_FILE}: field `digest` does not match its file list"
            ));
        }
        for (path, sha) in &self.files {
            match actual.get(path) {
                None => problems.push(format!("{path}: missing (listed in {LOCK_FILE})")),
                Some(Some(found)) if found != sha => problems.push(format!(
                    "{path}: modified (sha256 {found}, {LOCK_FILE} says {sha})"
                )),
                Some(_) => {}
            }
        }
        for path in actual.keys().filter(|p| !self.files.contains_key(*p)) {
            problems.push(format!("{path}: not listed in {LOCK_FILE}"));
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(RegistryError(format!(
                "registry at {} does not match its lock:\n  {}",
                root.display(),
                problems.join("\n  ")
            )))
        }
    }

    /// Writes the lock to `root/registry.lock`.
    pub fn write(&self, root: &Path) -> Result<(), RegistryError> {
        let body = toml::to_string(self).map_err(|e| RegistryError(e.to_string()))?;
        let text = format!(
            "# Written by `verigate registry build` / `registry add`; do not edit by hand.\n{body}"
        );
        let path = root.join(LOCK_FILE);
        std::fs::write(&path, text).map_err(|e| RegistryError(format!("{}: {e}", path.display())))
    }
}

/// Which files a scan hashes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Check {
    Everything,
    AllButModules,
}

/// Every covered file under `root`, registry-relative, with its sha256
/// (`None` for a module file when `check` leaves modules out).
fn scan(root: &Path, check: Check) -> Result<BTreeMap<String, Option<String>>, RegistryError> {
    let mut paths = files_under(root, "items")?;
    paths.extend(files_under(root, "modules")?);
    paths.extend(files_under(root, BENCHMARKS_DIR)?);
    let index = root.join(MODULES_FILE);
    if index.exists() {
        paths.push(index);
    }
    let mut files = BTreeMap::new();
    for path in paths {
        let name = relative(root, &path);
        let hashed = check == Check::Everything || !name.starts_with("modules/");
        let sha = match hashed {
            true => {
                Some(sha256_hex(&std::fs::read(&path).map_err(|e| {
                    RegistryError(format!("{}: {e}", path.display()))
                })?))
            }
            false => None,
        };
        files.insert(name, sha);
    }
    Ok(files)
}

fn relative(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .expect("file under the registry root")
        .to_string_lossy()
        .replace('\\', "/")
}

/// sha256 of the `sha256sum` listing (`<sha>  <path>\n`, sorted by path).
fn digest_of(files: &BTreeMap<String, String>) -> String {
    let listing: String = files
        .iter()
        .map(|(path, sha)| format!("{sha}  {path}\n"))
        .collect();
    sha256_hex(listing.as_bytes())
}
