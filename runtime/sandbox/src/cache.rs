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
//! Deserialising compiled code is still only safe for bytes this host
//! produced: whoever can write the cache directory can run native code in
//! the grader. The cache is refused (with a warning) when its directory is
//! writable by everyone or owned by another user; it must be writable by the
//! grader alone, never by contributors.

use serde::Serialize;
use sha2::{Digest, Sha256};
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
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

/// Compiled-module cache for one engine.
#[derive(Clone, Debug)]
pub struct ModuleCache {
    dir: Option<PathBuf>,
    fingerprint: [u8; 32],
    /// Whether the untrusted-directory warning was given.
    warned: Arc<AtomicBool>,
}

const MAGIC: &[u8; 16] = b"verigate-cwasm-2";
const DIGEST: usize = 32;
/// Magic, module sha256, fingerprint, limits digest, checksum.
const HEADER: usize = MAGIC.len() + 4 * DIGEST;

impl ModuleCache {
    /// A cache under `root` for the engine with `fingerprint` (hex sha256);
    /// `None` disables caching.
    pub fn new(root: Option<&Path>, fingerprint: &str) -> Self {
        let mut digest = [0; 32];
        if hex::decode_to_slice(fingerprint, &mut digest).is_err() {
            digest = Sha256::digest(fingerprint.as_bytes()).into();
        }
        ModuleCache {
            dir: root.map(|root| root.join(fingerprint)),
            fingerprint: digest,
            warned: Arc::default(),
        }
    }

    /// Whether compiled modules are cached.
    pub fn enabled(&self) -> bool {
        self.dir.is_some()
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
            Ok((module, checked)) => Some((module, &checked == limits)),
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
