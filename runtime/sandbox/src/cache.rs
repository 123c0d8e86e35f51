//! The on-disk cache of compiled modules.
//!
//! Layout: `<root>/<engine fingerprint>/<module sha256>.cwasm`. An entry is the
//! sha256 of the compiled bytes followed by those bytes, written atomically
//! (temporary file, then rename). Entries are read into memory, checked
//! against their digest and only then deserialised, so a truncated or damaged
//! entry is recompiled instead of crashing or misbehaving. Deserialising
//! compiled code is still only safe for bytes this host produced: the cache
//! directory must be writable by the grader alone, never by contributors.

use serde::Serialize;
use sha2::{Digest, Sha256};
use std::fs;
use std::path::{Path, PathBuf};
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

/// The default cache root: `$VERIGATE_CACHE_DIR`, else `$XDG_CACHE_HOME/verigate`,
/// else `$HOME/.cache/verigate`.
pub fn default_cache_root() -> Option<PathBuf> {
    let var = |name| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    var("VERIGATE_CACHE_DIR")
        .or_else(|| var("XDG_CACHE_HOME").map(|d| d.join("verigate")))
        .or_else(|| var("HOME").map(|d| d.join(".cache").join("verigate")))
}

/// Compiled-module cache for one engine.
#[derive(Clone, Debug)]
pub struct ModuleCache {
    dir: Option<PathBuf>,
}

impl ModuleCache {
    /// A cache under `root` for the engine with `fingerprint`; `None` disables caching.
    pub fn new(root: Option<&Path>, fingerprint: &str) -> Self {
        ModuleCache {
            dir: root.map(|root| root.join(fingerprint)),
        }
    }

    /// Loads the compiled form of `wasm` (whose sha256 is `sha256`), compiling
    /// and storing it on a miss.
    pub fn load(
        &self,
        engine: &Engine,
        sha256: &str,
        wasm: &[u8],
    ) -> wasmtime::Result<(Module, CacheStatus)> {
        let Some(dir) = &self.dir else {
            return Ok((Module::new(engine, wasm)?, CacheStatus::Uncached));
        };
        let path = dir.join(format!("{sha256}.cwasm"));
        if let Ok(entry) = fs::read(&path) {
            match read_entry(engine, &entry) {
                Ok(module) => return Ok((module, CacheStatus::Hit)),
                Err(why) => tracing::warn!("ignoring cache entry {}: {why}", path.display()),
            }
        }
        let module = Module::new(engine, wasm)?;
        let status = match store(&module, dir, &path) {
            Ok(()) => CacheStatus::Stored,
            Err(err) => {
                tracing::warn!("cannot write cache entry {}: {err:#}", path.display());
                CacheStatus::Uncached
            }
        };
        Ok((module, status))
    }
}

const DIGEST_LEN: usize = 32;

fn read_entry(engine: &Engine, entry: &[u8]) -> Result<Module, String> {
    if entry.len() < DIGEST_LEN {
        return Err("truncated".to_owned());
    }
    let (digest, compiled) = entry.split_at(DIGEST_LEN);
    if Sha256::digest(compiled).as_slice() != digest {
        return Err("digest mismatch (damaged or modified)".to_owned());
    }
    // SAFETY: the bytes match the digest written by `store` below, which
    // wrote what `Module::serialize` produced; wasmtime itself rejects
    // artefacts of another version or configuration with an error.
    unsafe { Module::deserialize(engine, compiled) }.map_err(|e| format!("{e:#}"))
}

fn store(module: &Module, dir: &Path, path: &Path) -> anyhow::Result<()> {
    fs::create_dir_all(dir)?;
    let compiled = module.serialize().map_err(|e| anyhow::anyhow!("{e:#}"))?;
    let mut entry = Vec::with_capacity(DIGEST_LEN + compiled.len());
    entry.extend_from_slice(&Sha256::digest(&compiled));
    entry.extend_from_slice(&compiled);
    let tmp = dir.join(format!(".{}.{}.tmp", std::process::id(), path_stem(path)));
    fs::write(&tmp, entry)?;
    fs::rename(&tmp, path)?;
    Ok(())
}

fn path_stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}
