//! The on-disk cache of compiled modules.
//!
//! Layout: `<root>/<engine fingerprint>/<module sha256>.cwasm`, directories
//! created with mode 0700. An entry is a fixed header followed by the
//! compiled bytes, written atomically (temporary file, then rename):
//!
//! | bytes | what |
//! |---|---|
//! | 16 | magic `verigate-cwasm-2` |
//! | 32 | sha256 of the module the code was compiled from |
//! | 32 | the engine fingerprint it was compiled for |
//! | 32 | digest of the [`ModuleLimits`](crate::compile::ModuleLimits) the module was checked against |
//! | 32 | sha256 of everything before it and everything after it |
//! | … | the compiled artefact (`Module::serialize`) |
//!
//! Entries are read into memory and checked — checksum, then that the entry
//! is the one for *this* module and *this* engine — and only then
//! deserialised, so a truncated, damaged, misplaced (another module's entry
//! copied under this module's name) or stale entry is recompiled instead of
//! running other code under this module's sha256.
//!
//! The whole root (every engine's entries) is kept under a size cap
//! ([`DEFAULT_MAX_BYTES`], or `$VERIGATE_CACHE_MAX_MB`): after each store the
//! least recently used entries are removed, recency being the entry's
//! modification time, which a hit refreshes. Other processes may share the
//! root: an entry that vanishes meanwhile is simply gone, never an error.
//!
//! Deserialising compiled code is still only safe for bytes this host
//! produced: whoever can write the cache directory can run native code in
//! the grader. The cache is refused (with a warning) when its directory is
//! writable by everyone or owned by another user; it must be writable by the
//! grader alone, never by contributors.

use serde::Serialize;
use sha2::{Digest, Sha256};
use std::ffi::OsString;
use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime};
use wasmtime::{Engine, Module};

/// Where a loaded module's machine code came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CacheStatus {
    /// Read from the on-disk cache; no compilation.
    Hit,
    /// Compiled now and written to the cache.
    Stored,
    /// Compiled now; the cache is disabled (or could not be written).
    Uncached,
}

/// The default cache root: `$VERIGATE_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/verigate`, else `$HOME/.cache/verigate` when `$HOME` is
/// an existing directory. Relative `XDG_CACHE_HOME` and `HOME` are ignored
/// (as the XDG spec says). With none of them usable it logs a warning and
/// returns `None` (no cache) rather than creating directories somewhere
/// unexpected.
pub fn default_cache_root() -> Option<PathBuf> {
    match cache_root_from(|name| std::env::var_os(name)) {
        Ok(root) => Some(root),
        Err(why) => {
            tracing::warn!("{why}; compiled modules will not be cached");
            None
        }
    }
}

/// [`default_cache_root`] over an environment; `Err` is the warning.
fn cache_root_from(var: impl Fn(&str) -> Option<OsString>) -> Result<PathBuf, String> {
    let var = |name| var(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(dir) = var("VERIGATE_CACHE_DIR") {
        return Ok(dir);
    }
    if let Some(dir) = var("XDG_CACHE_HOME").filter(|d| d.is_absolute()) {
        return Ok(dir.join("verigate"));
    }
    match var("HOME") {
        Some(home) if home.is_absolute() && home.is_dir() => {
            Ok(home.join(".cache").join("verigate"))
        }
        Some(home) => Err(format!(
            "HOME ({}) is not an existing directory and neither VERIGATE_CACHE_DIR nor \
             XDG_CACHE_HOME is set",
            home.display()
        )),
        None => Err("none of VERIGATE_CACHE_DIR, XDG_CACHE_HOME and HOME is set".to_owned()),
    }
}

/// The default cap on everything under a cache root: 2 GiB (the bundled
/// registry's 36 modules take about 95 MB).
pub const DEFAULT_MAX_BYTES: u64 = 2 << 30;

/// The environment variable setting the cap in MiB (`0`: no cap).
pub const MAX_MB_ENV: &str = "VERIGATE_CACHE_MAX_MB";

/// The default cap: `$VERIGATE_CACHE_MAX_MB` MiB, else [`DEFAULT_MAX_BYTES`];
/// `None` (no cap) when the variable is `0`. A value that is not a whole
/// number is ignored with a warning.
pub fn default_max_bytes() -> Option<u64> {
    max_bytes_from(std::env::var_os(MAX_MB_ENV)).unwrap_or_else(|why| {
        tracing::warn!("{why}; using the default cap");
        Some(DEFAULT_MAX_BYTES)
    })
}

/// [`default_max_bytes`] for the variable's value; `Err` is the warning.
fn max_bytes_from(value: Option<OsString>) -> Result<Option<u64>, String> {
    let Some(value) = value.filter(|v| !v.is_empty()) else {
        return Ok(Some(DEFAULT_MAX_BYTES));
    };
    match value.to_str().map(|v| v.trim().parse::<u64>()) {
        Some(Ok(0)) => Ok(None),
        Some(Ok(mib)) => Ok(Some(mib.saturating_mul(1 << 20))),
        _ => Err(format!(
            "{MAX_MB_ENV}={} is not a whole number of MiB",
            value.to_string_lossy()
        )),
    }
}

/// Entries and bytes under a cache root, or removed from one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheUsage {
    /// Compiled-module entries.
    pub entries: u64,
    /// Their total size in bytes.
    pub bytes: u64,
}

impl CacheUsage {
    fn add(&mut self, entry: &Entry) {
        self.entries += 1;
        self.bytes += entry.bytes;
    }
}

/// One entry file found under a cache root.
struct Entry {
    path: PathBuf,
    sha256: String,
    bytes: u64,
    modified: SystemTime,
}

fn is_hex_sha256(name: &str) -> bool {
    name.len() == 64 && name.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// Every entry under `root`, of every engine: the files
/// `<root>/<engine>/<sha256>.cwasm` (nothing else there is touched). A
/// missing root holds none; a file that vanishes while listed is skipped.
fn list_entries(root: &Path) -> std::io::Result<Vec<Entry>> {
    let engines = match fs::read_dir(root) {
        Ok(engines) => engines,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut entries = Vec::new();
    for engine in engines {
        // Not a directory, or removed meanwhile: nothing of ours in it.
        let Ok(files) = fs::read_dir(engine?.path()) else {
            continue;
        };
        for file in files.flatten() {
            let name = file.file_name();
            let Some(sha256) = name.to_str().and_then(|n| n.strip_suffix(".cwasm")) else {
                continue;
            };
            // `DirEntry::metadata` does not follow a symbolic link.
            let Ok(meta) = file.metadata() else { continue };
            if is_hex_sha256(sha256) && meta.is_file() {
                entries.push(Entry {
                    path: file.path(),
                    sha256: sha256.to_owned(),
                    bytes: meta.len(),
                    modified: meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
                });
            }
        }
    }
    Ok(entries)
}

/// What the cache under `root` holds, every engine's entries together.
pub fn usage(root: &Path) -> Result<CacheUsage, crate::Error> {
    let mut usage = CacheUsage::default();
    for entry in list_entries(root).map_err(|e| crate::Error::input(root, e))? {
        usage.add(&entry);
    }
    Ok(usage)
}

/// Removes every entry under `root`, or with `older_than` only those not
/// written or loaded for that long, and returns what it removed. An entry
/// another process removes first is skipped; a sandbox using one removed
/// meanwhile recompiles it.
pub fn clean(root: &Path, older_than: Option<Duration>) -> Result<CacheUsage, crate::Error> {
    let mut removed = CacheUsage::default();
    let cutoff = match older_than.map(|age| SystemTime::now().checked_sub(age)) {
        None => None,
        Some(Some(cutoff)) => Some(cutoff),
        // Older than the clock goes back: nothing is.
        Some(None) => return Ok(removed),
    };
    for entry in list_entries(root).map_err(|e| crate::Error::input(root, e))? {
        if cutoff.is_some_and(|cutoff| entry.modified >= cutoff) {
            continue;
        }
        match fs::remove_file(&entry.path) {
            Ok(()) => removed.add(&entry),
            Err(e) if e.kind() == ErrorKind::NotFound => {}
            Err(e) => return Err(crate::Error::input(&entry.path, e)),
        }
    }
    Ok(removed)
}

/// Compiled-module cache for one engine.
#[derive(Clone, Debug)]
pub struct ModuleCache {
    dir: Option<PathBuf>,
    fingerprint: [u8; 32],
    /// Cap on the bytes under the root (every engine's entries); `None`: no cap.
    max_bytes: Option<u64>,
    /// Whether the untrusted-directory warning was given.
    warned: Arc<AtomicBool>,
}

const MAGIC: &[u8; 16] = b"verigate-cwasm-2";
const DIGEST: usize = 32;
/// Magic, module sha256, fingerprint, limits digest, checksum.
const HEADER: usize = MAGIC.len() + 4 * DIGEST;

impl ModuleCache {
    /// A cache under `root` for the engine with `fingerprint` (hex sha256),
    /// with no size cap; `None` disables caching.
    pub fn new(root: Option<&Path>, fingerprint: &str) -> Self {
        let mut digest = [0; 32];
        if hex::decode_to_slice(fingerprint, &mut digest).is_err() {
            digest = Sha256::digest(fingerprint.as_bytes()).into();
        }
        ModuleCache {
            dir: root.map(|root| root.join(fingerprint)),
            fingerprint: digest,
            max_bytes: None,
            warned: Arc::default(),
        }
    }

    /// This cache with a cap of `max_bytes` on everything under its root
    /// (`None`: no cap), enforced by [`evict`](Self::evict).
    pub fn with_max_bytes(mut self, max_bytes: Option<u64>) -> Self {
        self.max_bytes = max_bytes;
        self
    }

    /// Whether compiled modules are cached.
    pub fn enabled(&self) -> bool {
        self.dir.is_some()
    }

    /// Whether there is an entry for the module with `sha256`, without
    /// reading it (a damaged or stale one is still recompiled when loaded).
    pub fn contains(&self, sha256: &str) -> bool {
        self.entry_path(sha256).is_some_and(|path| path.is_file())
    }

    /// Brings everything under the root, every engine's entries, within the
    /// cap: removes the least recently used entries first (oldest
    /// modification time; a hit refreshes it), skipping this engine's
    /// entries whose module `in_use` says is in use. Returns what it
    /// removed; a failure to list or remove is logged, and an entry another
    /// process removes first counts as gone.
    pub fn evict(&self, in_use: impl Fn(&str) -> bool) -> CacheUsage {
        let mut removed = CacheUsage::default();
        let (Some(max), Some(dir)) = (self.max_bytes, self.dir.as_deref()) else {
            return removed;
        };
        let Some(root) = dir.parent() else {
            return removed;
        };
        let mut entries = match list_entries(root) {
            Ok(entries) => entries,
            Err(e) => {
                tracing::warn!(
                    "cannot list the compiled-module cache {}: {e}",
                    root.display()
                );
                return removed;
            }
        };
        let mut total: u64 = entries.iter().map(|entry| entry.bytes).sum();
        if total <= max {
            return removed;
        }
        entries.sort_by(|a, b| (a.modified, &a.path).cmp(&(b.modified, &b.path)));
        for entry in entries {
            if total <= max {
                break;
            }
            if entry.path.parent() == Some(dir) && in_use(&entry.sha256) {
                continue;
            }
            match fs::remove_file(&entry.path) {
                Ok(()) => removed.add(&entry),
                Err(e) if e.kind() == ErrorKind::NotFound => {}
                Err(e) => {
                    tracing::warn!("cannot evict cache entry {}: {e}", entry.path.display());
                    continue;
                }
            }
            total = total.saturating_sub(entry.bytes);
        }
        if removed.entries > 0 {
            tracing::info!(
                "evicted {} compiled modules ({} bytes) from {} to stay within its {max}-byte cap",
                removed.entries,
                removed.bytes,
                root.display()
            );
        }
        removed
    }

    fn entry_path(&self, sha256: &str) -> Option<PathBuf> {
        let dir = self.dir.as_ref()?;
        match untrusted(dir) {
            None => Some(dir.join(format!("{sha256}.cwasm"))),
            Some(why) => {
                if !self.warned.swap(true, Ordering::Relaxed) {
                    tracing::warn!(
                        "not using the compiled-module cache {}: {why} (whoever can write it \
                         can run native code here)",
                        dir.display()
                    );
                }
                None
            }
        }
    }

    /// The cached compiled form of the module with `sha256`, if there is a
    /// sound entry for it, and whether it was checked against the limits
    /// with digest `limits`. A damaged or foreign entry is ignored, with a warning.
    pub fn lookup(
        &self,
        engine: &Engine,
        sha256: &str,
        limits: &[u8; 32],
    ) -> Option<(Module, bool)> {
        let path = self.entry_path(sha256)?;
        let entry = fs::read(&path).ok()?;
        match self.read_entry(engine, sha256, &entry) {
            Ok((module, checked)) => {
                touch(&path);
                Some((module, &checked == limits))
            }
            Err(why) => {
                tracing::warn!("ignoring cache entry {}: {why}", path.display());
                None
            }
        }
    }

    /// Stores `compiled`, the compiled form of the module with `sha256`
    /// checked against the limits with digest `limits`.
    pub fn store(&self, sha256: &str, limits: &[u8; 32], compiled: &[u8]) -> CacheStatus {
        let Some(path) = self.entry_path(sha256) else {
            return CacheStatus::Uncached;
        };
        match self.write_entry(&path, sha256, limits, compiled) {
            Ok(()) => CacheStatus::Stored,
            Err(err) => {
                tracing::warn!("cannot write cache entry {}: {err:#}", path.display());
                CacheStatus::Uncached
            }
        }
    }

    fn header(&self, sha256: &str, limits: &[u8; 32]) -> Result<Vec<u8>, String> {
        let mut module = [0; 32];
        hex::decode_to_slice(sha256, &mut module)
            .map_err(|_| format!("`{sha256}` is not a hex sha256"))?;
        let mut header = Vec::with_capacity(HEADER);
        header.extend_from_slice(MAGIC);
        header.extend_from_slice(&module);
        header.extend_from_slice(&self.fingerprint);
        header.extend_from_slice(limits);
        Ok(header)
    }

    fn read_entry(
        &self,
        engine: &Engine,
        sha256: &str,
        entry: &[u8],
    ) -> Result<(Module, [u8; 32]), String> {
        if entry.len() < HEADER || &entry[..MAGIC.len()] != MAGIC {
            return Err("not a verigate cache entry (truncated, or an older format)".to_owned());
        }
        let checksum_at = HEADER - DIGEST;
        let compiled = &entry[HEADER..];
        let mut hasher = Sha256::new();
        hasher.update(&entry[..checksum_at]);
        hasher.update(compiled);
        if hasher.finalize().as_slice() != &entry[checksum_at..HEADER] {
            return Err("checksum mismatch (damaged or modified)".to_owned());
        }
        let field = |n: usize| &entry[MAGIC.len() + n * DIGEST..][..DIGEST];
        if hex::encode(field(0)) != sha256 {
            return Err(format!(
                "it holds the code of module {}, not of {sha256}",
                hex::encode(field(0))
            ));
        }
        if field(1) != self.fingerprint {
            return Err(format!(
                "it was compiled for engine {}, not this one",
                hex::encode(field(1))
            ));
        }
        let limits: [u8; 32] = field(2).try_into().expect("32 bytes");
        // SAFETY: the bytes match the checksum written by `write_entry` below,
        // which wrote what this host's compiler produced for exactly this
        // module and engine; wasmtime itself rejects artefacts of another
        // version or configuration with an error.
        let module =
            unsafe { Module::deserialize(engine, compiled) }.map_err(|e| format!("{e:#}"))?;
        Ok((module, limits))
    }

    fn write_entry(
        &self,
        path: &Path,
        sha256: &str,
        limits: &[u8; 32],
        compiled: &[u8],
    ) -> anyhow::Result<()> {
        let dir = path
            .parent()
            .expect("an entry lives in the cache directory");
        create_private_dir(dir)?;
        let mut entry = self.header(sha256, limits).map_err(anyhow::Error::msg)?;
        let mut hasher = Sha256::new();
        hasher.update(&entry);
        hasher.update(compiled);
        entry.extend_from_slice(&hasher.finalize());
        entry.extend_from_slice(compiled);
        let tmp = dir.join(format!(".{}.{}.tmp", std::process::id(), path_stem(path)));
        fs::write(&tmp, entry)?;
        fs::rename(&tmp, path)?;
        Ok(())
    }
}

/// Marks the entry at `path` as just used: sets its modification time,
/// which eviction goes by (access times are often not kept). Failing only
/// makes the entry look older.
fn touch(path: &Path) {
    let touched = fs::File::options()
        .write(true)
        .open(path)
        .and_then(|file| file.set_modified(SystemTime::now()));
    if let Err(e) = touched {
        tracing::debug!("cannot mark cache entry {} as used: {e}", path.display());
    }
}

/// Creates `dir` and its missing parents, each with mode 0700.
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// Why the cache directory `dir` (or its parent, the cache root) must not
/// be trusted: writable by everyone, or owned by another user. `None` when
/// fine or not yet created.
fn untrusted(dir: &Path) -> Option<String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // SAFETY: geteuid has no preconditions and cannot fail.
        let me = unsafe { libc::geteuid() };
        for path in [Some(dir), dir.parent()].into_iter().flatten() {
            let Ok(meta) = fs::metadata(path) else {
                continue;
            };
            if meta.uid() != me {
                return Some(format!("{} is owned by uid {}", path.display(), meta.uid()));
            }
            // World-writable is fine with the sticky bit (`/tmp`): others
            // cannot then replace what we created in it.
            if meta.mode() & 0o002 != 0 && meta.mode() & 0o1000 == 0 {
                return Some(format!("{} is writable by everyone", path.display()));
            }
        }
    }
    #[cfg(not(unix))]
    let _ = dir;
    None
}

fn path_stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<OsString> + 'a {
        move |name| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| OsString::from(v))
        }
    }

    #[test]
    fn a_missing_home_means_no_cache_not_a_new_directory() {
        let missing = "/nonexistent/verigate-test-home";
        let err = cache_root_from(env(&[("HOME", missing)])).unwrap_err();
        assert!(err.contains(missing), "{err}");
        assert!(cache_root_from(env(&[("HOME", "relative/home")])).is_err());
        assert!(cache_root_from(env(&[])).is_err());
        let home = std::env::temp_dir();
        let home = home.to_str().unwrap();
        assert_eq!(
            cache_root_from(env(&[("HOME", home)])).unwrap(),
            Path::new(home).join(".cache/verigate")
        );
        // Explicit settings win, and are created when needed.
        assert_eq!(
            cache_root_from(env(&[("HOME", missing), ("VERIGATE_CACHE_DIR", "/x/y")])).unwrap(),
            Path::new("/x/y")
        );
        assert_eq!(
            cache_root_from(env(&[("HOME", missing), ("XDG_CACHE_HOME", "/x")])).unwrap(),
            Path::new("/x/verigate")
        );
        // A relative XDG_CACHE_HOME is ignored.
        assert_eq!(
            cache_root_from(env(&[("HOME", home), ("XDG_CACHE_HOME", "x")])).unwrap(),
            Path::new(home).join(".cache/verigate")
        );
    }

    #[test]
    fn the_cap_is_set_in_mib_and_zero_lifts_it() {
        let cap = |v: &str| max_bytes_from(Some(OsString::from(v)));
        assert_eq!(max_bytes_from(None), Ok(Some(DEFAULT_MAX_BYTES)));
        assert_eq!(cap(""), Ok(Some(DEFAULT_MAX_BYTES)));
        assert_eq!(cap("512"), Ok(Some(512 << 20)));
        assert_eq!(cap("0"), Ok(None));
        assert!(cap("2G").unwrap_err().contains("VERIGATE_CACHE_MAX_MB=2G"));
        assert!(cap("-1").is_err());
    }

    #[test]
    fn an_entry_names_its_module_and_engine() {
        let engine = crate::engine::compile_only_engine(true).unwrap();
        let wasm = wat::parse_str("(module (func (export \"f\")))").unwrap();
        let compiled = engine.precompile_module(&wasm).unwrap();
        let root = std::env::temp_dir().join(format!("verigate-cache-unit-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        let fingerprint = hex::encode([7u8; 32]);
        let cache = ModuleCache::new(Some(&root), &fingerprint);
        let (a, b) = (hex::encode([1u8; 32]), hex::encode([2u8; 32]));
        let limits = [3u8; 32];
        assert_eq!(cache.store(&a, &limits, &compiled), CacheStatus::Stored);
        let (_, checked) = cache.lookup(&engine, &a, &limits).expect("a hit");
        assert!(checked);
        assert!(
            !cache.lookup(&engine, &a, &[4u8; 32]).unwrap().1,
            "other limits"
        );
        // A's entry copied under B's name is not B's code.
        let dir = root.join(&fingerprint);
        fs::copy(
            dir.join(format!("{a}.cwasm")),
            dir.join(format!("{b}.cwasm")),
        )
        .unwrap();
        let entry = fs::read(dir.join(format!("{b}.cwasm"))).unwrap();
        let err = cache.read_entry(&engine, &b, &entry).err().unwrap();
        assert!(err.contains(&format!("module {a}")), "{err}");
        // Another engine's entry is refused too.
        let other = ModuleCache::new(Some(&root), &hex::encode([8u8; 32]));
        let err = other.read_entry(&engine, &a, &entry).err().unwrap();
        assert!(err.contains("engine"), "{err}");
        // One flipped bit anywhere is caught by the checksum.
        let mut damaged = fs::read(dir.join(format!("{a}.cwasm"))).unwrap();
        damaged[20] ^= 1;
        assert!(
            cache
                .read_entry(&engine, &a, &damaged)
                .err()
                .unwrap()
                .contains("checksum")
        );
        // The old format (digest + bytes) is not mistaken for an entry.
        let mut old = Sha256::digest(&compiled).to_vec();
        old.extend_from_slice(&compiled);
        assert!(cache.read_entry(&engine, &a, &old).is_err());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(&dir).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o700, "private cache directory");
            fs::set_permissions(&dir, fs::Permissions::from_mode(0o777)).unwrap();
            assert!(untrusted(&dir).unwrap().contains("writable by everyone"));
            assert!(cache.lookup(&engine, &a, &limits).is_none());
        }
        fs::remove_dir_all(&root).unwrap();
    }
}
