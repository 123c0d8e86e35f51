//! The on-disk cache of compiled modules.
//!
//! Layout: `<root>/<engine fingerprint>/<module sha256>.cwasm`. Entries are
//! written atomically (temporary file, then rename). Deserialising compiled
//! code is only safe for bytes this host produced: the cache directory must be
//! writable by the grader alone, never by verifier contributors.

use serde::Serialize;
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
        if path.is_file() {
            // SAFETY: the file was written by `store` below from bytes that
            // `Module::serialize` produced in a process of this engine's
            // fingerprint; wasmtime checks version and configuration and
            // rejects anything incompatible with an error.
            match unsafe { Module::deserialize_file(engine, &path) } {
                Ok(module) => return Ok((module, CacheStatus::Hit)),
                Err(err) => {
                    tracing::warn!("ignoring unusable cache entry {}: {err:#}", path.display());
                }
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

fn store(module: &Module, dir: &Path, path: &Path) -> anyhow::Result<()> {
    fs::create_dir_all(dir)?;
    let bytes = module.serialize().map_err(|e| anyhow::anyhow!("{e:#}"))?;
    let tmp = dir.join(format!(".{}.{}.tmp", std::process::id(), path_stem(path)));
    fs::write(&tmp, bytes)?;
    fs::rename(&tmp, path)?;
    Ok(())
}

fn path_stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}
