//! The sandbox: loads verifiers once and runs them under fuel, memory, output
//! and wall-clock limits; [`classify`] turns what happened into
//! exactly one outcome.

use crate::cache::{self, CacheStatus, ModuleCache};
use crate::classify::{self, Ended, Observed};
use crate::compile::{self, CompileFailure, Compiler, ModuleLimits};
use crate::engine::{
    Allocator, EngineOptions, GUEST_STACK_RED_ZONE, GUEST_THREAD_STACK, SandboxEngine,
    deadline_ticks,
};
use crate::error::{Error, ModuleError};
use crate::limits::Limits;
use crate::module::{Verifier, check_shape, declared_protocol, sha256_hex};
use crate::report::RunReport;
use crate::store::{HostState, RecordingLimiter};
use crate::wasi;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, OnceLock, PoisonError};
use std::time::Instant;
use verigate_contract::{ITEM_DIR, Outcome, Protocol, ROW_ENV, SCRIPT_ENV};
use wasmtime::{Linker, Module, Store, Trap};
use wasmtime_wasi::I32Exit;

/// Sandbox-wide settings.
#[derive(Clone, Debug)]
pub struct SandboxOptions {
    /// Engine settings (pooling, concurrency, memory ceiling).
    pub engine: EngineOptions,
    /// Root of the on-disk compiled-module cache; `None` disables it.
    pub cache_root: Option<PathBuf>,
    /// Cap on the bytes under `cache_root`, kept by evicting the least
    /// recently used entries after each store; `None`: no cap. Default
    /// [`cache::default_max_bytes`]: `$VERIGATE_CACHE_MAX_MB` MiB, else 2 GiB.
    pub cache_max_bytes: Option<u64>,
    /// Static limits on a module's shape, checked before it is compiled.
    pub module_limits: ModuleLimits,
    /// How modules missing from the cache are compiled.
    pub compiler: Compiler,
}

impl Default for SandboxOptions {
    fn default() -> Self {
        SandboxOptions {
            engine: EngineOptions::default(),
            cache_root: None,
            cache_max_bytes: cache::default_max_bytes(),
            module_limits: ModuleLimits::default(),
            compiler: Compiler::default(),
        }
    }
}

/// A load's result, kept for every caller asking for the same module: the
/// inner error a refusal, the outer one a host failure.
type LoadResult = Result<Result<Arc<Verifier>, ModuleError>, String>;

/// A module's load, shared by everyone who asks for it: the first caller
/// builds it, callers meanwhile wait for that result.
type SharedLoad = Arc<OnceLock<LoadResult>>;

/// One run's input: a payload for a verifier, with its item's directory and
/// row, its limits and protocol. The one request type of the sandbox, the
/// batch pool and the bench.
#[derive(Clone, Debug, Default)]
pub struct Request {
    /// Bytes given to the guest on stdin.
    pub payload: Vec<u8>,
    /// Host directory mounted read-only at `/item`.
    pub item_dir: Option<PathBuf>,
    /// The run's limits.
    pub limits: Limits,
    /// Protocol override; else the module's declared protocol; else `combench`.
    pub protocol: Option<Protocol>,
    /// The item's row (one JSON line of an item family), given to the guest
    /// in the environment variable `VERIGATE_ROW`.
    pub row: Option<Arc<str>>,
}

impl Request {
    /// A request for `payload` under the default limits, with no item.
    pub fn new(payload: impl Into<Vec<u8>>) -> Self {
        Request {
            payload: payload.into(),
            ..Request::default()
        }
    }
}

impl ModuleError {
    /// The `invalid_module` report for this error (for callers that report
    /// refused modules in the same stream as runs).
    pub fn report(&self, protocol: Protocol) -> RunReport {
        let mut report = RunReport::empty(Outcome::InvalidModule, protocol, &self.sha256);
        report.message = self.reason.clone();
        report
    }
}

/// Bounds the runs in flight to the pool's size; extra callers wait.
struct SlotGate {
    free: Mutex<usize>,
    released: Condvar,
}

struct Slot<'a>(&'a SlotGate);

impl SlotGate {
    fn acquire(&self) -> Slot<'_> {
        let mut free = self.free.lock().unwrap_or_else(PoisonError::into_inner);
        while *free == 0 {
            free = self
                .released
                .wait(free)
                .unwrap_or_else(PoisonError::into_inner);
        }
        *free -= 1;
        Slot(self)
    }
}

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        *self.0.free.lock().unwrap_or_else(PoisonError::into_inner) += 1;
        self.0.released.notify_one();
    }
}

/// Loads verifier modules and runs them. Cheap to share across threads.
pub struct Sandbox {
    engine: SandboxEngine,
    linker: Linker<HostState>,
    cache: ModuleCache,
    module_limits: ModuleLimits,
    limits_digest: [u8; 32],
    compiler: Compiler,
    /// Modules loaded or being loaded, by sha256. Held only to look up or
    /// insert a load, never while one is built, so that different modules
    /// compile in parallel and the same module once.
    loaded: Mutex<HashMap<String, SharedLoad>>,
    slots: SlotGate,
}

impl Sandbox {
    /// Creates a sandbox: engine, WASI linker and compiled-module cache.
    pub fn new(options: &SandboxOptions) -> Result<Self, Error> {
        let engine = SandboxEngine::new(&options.engine).map_err(Error::host)?;
        let mut linker = Linker::new(&engine.engine);
        wasi::add_to_linker(&mut linker, |state: &mut HostState| &mut state.wasi)
            .map_err(Error::host)?;
        let cache = ModuleCache::new(options.cache_root.as_deref(), &engine.fingerprint)
            .with_max_bytes(options.cache_max_bytes);
        Ok(Sandbox {
            engine,
            linker,
            cache,
            module_limits: options.module_limits,
            limits_digest: options.module_limits.digest(),
            compiler: options.compiler.clone(),
            loaded: Mutex::new(HashMap::new()),
            slots: SlotGate {
                free: Mutex::new(options.engine.max_concurrent_runs.max(1)),
                released: Condvar::new(),
            },
        })
    }

    /// The engine configuration fingerprint (see [`SandboxEngine::fingerprint`]).
    pub fn fingerprint(&self) -> &str {
        &self.engine.fingerprint
    }

    /// The instance allocator in use.
    pub fn allocator(&self) -> Allocator {
        self.engine.allocator
    }

    /// The static limits modules are checked against before compiling.
    pub fn module_limits(&self) -> &ModuleLimits {
        &self.module_limits
    }

    /// Whether loading the module with this sha256 (lowercase hex) would
    /// not compile it: it is loaded in this sandbox, or the on-disk cache has
    /// an entry for it. Cheap (no entry is read), so a caller can say how
    /// many modules it is about to compile before loading them.
    pub fn is_cached(&self, sha256: &str) -> bool {
        let in_memory = self
            .loaded
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(sha256)
            .is_some_and(|load| matches!(load.get(), Some(Ok(Ok(_)))));
        in_memory || self.cache.contains(sha256)
    }

    /// Validates, compiles (once per process, through the on-disk cache) and
    /// pre-links the binary module `wasm`. The same bytes loaded again return
    /// the same verifier. Safe to call from many threads: different modules
    /// load in parallel, and the same module requested meanwhile is built
    /// once, the other callers waiting for it.
    ///
    /// A module over a [`ModuleLimits`] limit, or over the compiler child's
    /// limits, is refused without being compiled (or while compiling). A
    /// host failure while compiling (a compiler child that cannot be started)
    /// is also returned as a refusal, its reason starting `host error:`;
    /// [`load_expected`](Self::load_expected) tells the two apart.
    pub fn load(&self, wasm: &[u8]) -> Result<Arc<Verifier>, ModuleError> {
        let sha256 = sha256_hex(wasm);
        match self.load_hashed(wasm, sha256.clone()) {
            Ok(loaded) => loaded,
            Err(host) => Err(ModuleError {
                sha256,
                reason: host.to_string(),
            }),
        }
    }

    /// [`load`](Self::load) for bytes that must have the sha256 `expected`
    /// (lowercase hex), e.g. a registry module named by its lock: the bytes
    /// compiled or looked up in the cache are the ones hashed here. The
    /// outer error is [`Error::Mismatch`] for other bytes, or a host failure;
    /// the inner one an `invalid_module` refusal.
    pub fn load_expected(
        &self,
        wasm: &[u8],
        expected: &str,
    ) -> Result<Result<Arc<Verifier>, ModuleError>, Error> {
        self.load_named(wasm, expected, "module bytes")
    }

    /// Reads and loads a module file whose bytes must have the sha256
    /// `expected` (see [`load_expected`](Self::load_expected)); a mismatch
    /// names the file.
    pub fn load_file_expected(
        &self,
        path: &Path,
        expected: &str,
    ) -> Result<Result<Arc<Verifier>, ModuleError>, Error> {
        let wasm = std::fs::read(path).map_err(|e| Error::input(path, e))?;
        self.load_named(&wasm, expected, &path.display().to_string())
    }

    fn load_named(
        &self,
        wasm: &[u8],
        expected: &str,
        what: &str,
    ) -> Result<Result<Arc<Verifier>, ModuleError>, Error> {
        let sha256 = sha256_hex(wasm);
        if sha256 != expected {
            return Err(Error::Mismatch {
                what: what.to_owned(),
                expected: expected.to_owned(),
                actual: sha256,
            });
        }
        self.load_hashed(wasm, sha256)
    }

    fn load_hashed(
        &self,
        wasm: &[u8],
        sha256: String,
    ) -> Result<Result<Arc<Verifier>, ModuleError>, Error> {
        let load = Arc::clone(
            self.loaded
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .entry(sha256.clone())
                .or_default(),
        );
        let result = load.get_or_init(|| self.build(wasm, &sha256));
        if !matches!(result, Ok(Ok(_))) {
            // A refusal or a host failure is not kept: a later load tries again.
            let mut loaded = self.loaded.lock().unwrap_or_else(PoisonError::into_inner);
            if loaded
                .get(&sha256)
                .is_some_and(|kept| Arc::ptr_eq(kept, &load))
            {
                loaded.remove(&sha256);
            }
        }
        result.clone().map_err(Error::Host)
    }

    /// Looks the module up in the cache or compiles it, checks it and
    /// pre-links it; called with no lock held.
    fn build(&self, wasm: &[u8], sha256: &str) -> LoadResult {
        let refuse = |reason: String| ModuleError {
            sha256: sha256.to_owned(),
            reason: reason.split_whitespace().collect::<Vec<_>>().join(" "),
        };
        let started = Instant::now();
        let engine = &self.engine.engine;
        let (module, cache) = match self.cache.lookup(engine, sha256, &self.limits_digest) {
            Some((module, checked)) => {
                // An entry written under other limits: check against these.
                if !checked && let Err(why) = compile::inspect(wasm, &self.module_limits) {
                    return Ok(Err(refuse(why)));
                }
                (module, CacheStatus::Hit)
            }
            None => {
                if let Err(why) = compile::inspect(wasm, &self.module_limits) {
                    return Ok(Err(refuse(why)));
                }
                match self.compile(wasm, sha256) {
                    Ok(compiled) => compiled,
                    Err(CompileFailure::Module(why)) => return Ok(Err(refuse(why))),
                    Err(CompileFailure::Host(why)) => return Err(why),
                }
            }
        };
        if let Err(why) = check_shape(&module) {
            return Ok(Err(refuse(why)));
        }
        let declared_protocol = match declared_protocol(wasm) {
            Ok(protocol) => protocol,
            Err(why) => return Ok(Err(refuse(why))),
        };
        let pre = match self.linker.instantiate_pre(&module) {
            Ok(pre) => pre,
            Err(e) => return Ok(Err(refuse(format!("{e:#}")))),
        };
        Ok(Ok(Arc::new(Verifier {
            sha256: sha256.to_owned(),
            declared_protocol,
            cache,
            load_time: started.elapsed(),
            script: None,
            pre,
        })))
    }

    /// Stores a compiled module in the on-disk cache, then brings the cache
    /// back within its cap, keeping the entries of every module this sandbox
    /// has loaded or is loading (this one among them).
    fn store(&self, sha256: &str, compiled: &[u8]) -> CacheStatus {
        let status = self.cache.store(sha256, &self.limits_digest, compiled);
        if status == CacheStatus::Stored {
            let in_use: HashSet<String> = self
                .loaded
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .keys()
                .cloned()
                .collect();
            self.cache.evict(|sha256| in_use.contains(sha256));
        }
        status
    }

    /// Compiles a module that passed the static limits, and caches it.
    fn compile(&self, wasm: &[u8], sha256: &str) -> Result<(Module, CacheStatus), CompileFailure> {
        let engine = &self.engine.engine;
        let invalid = |e: wasmtime::Error| {
            CompileFailure::Module(format!("not a valid WebAssembly module: {e:#}"))
        };
        match &self.compiler {
            Compiler::InProcess => {
                let module = Module::new(engine, wasm).map_err(invalid)?;
                if !self.cache.enabled() {
                    return Ok((module, CacheStatus::Uncached));
                }
                let status = match module.serialize() {
                    Ok(compiled) => self.store(sha256, &compiled),
                    Err(e) => {
                        tracing::warn!("cannot serialise module {sha256}: {e:#}");
                        CacheStatus::Uncached
                    }
                };
                Ok((module, status))
            }
            Compiler::Child(child) => {
                let arg = compile::engine_arg(self.engine.fuel_metering);
                let compiled = child.compile(wasm, &arg)?;
                // SAFETY: the artefact is what the embedder's own compiler
                // program (the child) produced for these bytes, as trusted
                // as a cache entry; wasmtime checks that it was compiled for
                // this engine's configuration and version.
                let module = unsafe { Module::deserialize(engine, &compiled) }.map_err(|e| {
                    CompileFailure::Host(format!(
                        "the compiler child's output does not load: {e:#}"
                    ))
                })?;
                Ok((module, self.store(sha256, &compiled)))
            }
        }
    }

    /// Reads and loads a module file. The outer error is the caller's (the
    /// file cannot be read); the inner one is an `invalid_module` refusal.
    /// Prefer [`load_file_expected`](Self::load_file_expected) for a file
    /// whose digest is known, such as a registry module.
    pub fn load_file(&self, path: &Path) -> Result<Result<Arc<Verifier>, ModuleError>, Error> {
        let wasm = std::fs::read(path).map_err(|e| Error::input(path, e))?;
        Ok(self.load(&wasm))
    }

    /// Runs `verifier` on one request. The error is never the guest's fault:
    /// an item directory that cannot be opened ([`Error::Input`]) or a host
    /// failure ([`Error::Host`]).
    pub fn run(&self, verifier: &Verifier, request: &Request) -> Result<RunReport, Error> {
        let limits = &request.limits;
        let protocol = request
            .protocol
            .or(verifier.declared_protocol)
            .unwrap_or(Protocol::Combench);
        let mut report = RunReport::empty(Outcome::PayloadTooLarge, protocol, &verifier.sha256);
        report.script_sha256 = verifier.script.as_ref().map(|s| s.sha256.clone());
        if request.payload.len() as u64 > limits.max_payload_bytes {
            report.message = format!(
                "payload of {} bytes exceeds the {}-byte payload cap",
                request.payload.len(),
                limits.max_payload_bytes
            );
            return Ok(report);
        }
        let mut world = wasi::GuestWorld::default();
        if let Some(dir) = &request.item_dir {
            world.mounts.push((dir, ITEM_DIR));
        }
        if let Some(row) = &request.row {
            world.env.push((ROW_ENV, row));
        }
        if let Some(script) = &verifier.script {
            world.env.push((SCRIPT_ENV, &script.source));
        }
        let (wasi, output) = wasi::build_context(&request.payload, &world, limits)?;
        let memory_cap = usize::try_from(limits.memory_bytes).unwrap_or(usize::MAX);
        let limiter = RecordingLimiter::new(memory_cap);
        let _slot = self.slots.acquire();
        let started = Instant::now();
        let mut store = Store::new(&self.engine.engine, HostState { wasi, limiter });
        store.limiter(|state| &mut state.limiter);
        if self.engine.fuel_metering {
            store.set_fuel(limits.fuel).map_err(Error::host)?;
        }
        store.set_epoch_deadline(deadline_ticks(limits.timeout()));
        // A guest may take MAX_WASM_STACK of this thread's stack: a caller's
        // thread with less left (a test harness's, an embedder's) lends the
        // run a fresh stack rather than overflow its own.
        let result = stacker::maybe_grow(GUEST_STACK_RED_ZONE, GUEST_THREAD_STACK, || {
            verifier
                .pre
                .instantiate(&mut store)
                .and_then(|instance| instance.get_typed_func::<(), ()>(&mut store, "_start"))
                .and_then(|start| start.call(&mut store, ()))
        });
        report.wall_ms = started.elapsed().as_secs_f64() * 1e3;
        report.fuel_consumed = store.get_fuel().map_or(0, |left| limits.fuel - left);
        let denied_memory = store.data().limiter.denied;
        report.memory_bytes = store.data().limiter.peak as u64;
        drop(store);

        let cap = usize::try_from(limits.max_output_bytes).unwrap_or(usize::MAX);
        let (stdout, stderr) = (output.stdout.contents(), output.stderr.contents());
        let overflow = [("stdout", &stdout), ("stderr", &stderr)]
            .into_iter()
            .find(|(_, bytes)| bytes.len() > cap)
            .map(|(name, _)| name);
        report.stdout = String::from_utf8_lossy(&stdout[..stdout.len().min(cap)]).into_owned();
        report.stderr = String::from_utf8_lossy(&stderr[..stderr.len().min(cap)]).into_owned();
        let ended = match result {
            Ok(()) => Ended::Exit(0),
            Err(err) => match (err.downcast_ref::<I32Exit>(), err.downcast_ref::<Trap>()) {
                (Some(exit), _) => Ended::Exit(exit.0),
                (None, Some(Trap::OutOfFuel)) => Ended::OutOfFuel,
                (None, Some(Trap::Interrupt)) => Ended::Deadline,
                (None, Some(trap)) => Ended::Trap(trap.to_string()),
                (None, None) => Ended::Trap(err.root_cause().to_string()),
            },
        };
        if let Ended::Exit(code) = ended {
            report.exit_code = Some(code);
        }
        let classified = classify::classify(&Observed {
            ended,
            overflow,
            denied_memory,
            stdout: &report.stdout,
            stderr: &report.stderr,
            protocol,
            limits,
        });
        report.outcome = classified.outcome;
        report.passed = classified.outcome == Outcome::Pass;
        report.score = classified.score;
        report.message = classified.message;
        report.details = classified.details;
        Ok(report)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `_start` burns a known amount of fuel in a loop, then ends as `end` says.
    fn module(end: &str) -> Vec<u8> {
        wat::parse_str(format!(
            r#"(module
                (memory (export "memory") 1)
                (func $oob (drop (i32.load (i32.const -1))))
                (func $nothing)
                (func (export "_start") (local i32)
                    (loop $l
                        (local.set 0 (i32.add (local.get 0) (i32.const 1)))
                        (br_if $l (i32.lt_u (local.get 0) (i32.const 1000))))
                    {end}))"#
        ))
        .unwrap()
    }

    /// Why `fuel_consumed` cannot be exact after every trap: wasmtime keeps
    /// a function's running fuel count in a register and writes it to the
    /// store only at calls, returns and `unreachable` (and when it runs out).
    /// A trap raised by the hardware — an out-of-bounds access, a division by
    /// zero — loses what the trapping function consumed since its last call.
    /// What is reported is still deterministic: the write-back points are
    /// fixed by the module's code, not by timing.
    #[test]
    fn fuel_after_a_trap_is_exact_up_to_the_last_call_and_deterministic() {
        let sandbox = Sandbox::new(&SandboxOptions::default()).unwrap();
        let fuel = |end: &str| {
            let verifier = sandbox.load(&module(end)).unwrap();
            let runs: Vec<RunReport> = (0..2)
                .map(|_| sandbox.run(&verifier, &Request::new(Vec::new())).unwrap())
                .collect();
            assert_eq!(runs[0].fuel_consumed, runs[1].fuel_consumed, "{end}");
            (runs[0].outcome, runs[0].fuel_consumed)
        };
        let (outcome, loop_fuel) = fuel("");
        assert_eq!(outcome, Outcome::Fail);
        assert!(loop_fuel > 8000, "{loop_fuel}");
        // `unreachable` (a Rust panic) writes the count back: exact.
        assert_eq!(fuel("unreachable"), (Outcome::Trap, loop_fuel));
        // A call writes it back too, so a trap after one counts the loop.
        let (outcome, after_call) = fuel("call $nothing (drop (i32.load (i32.const -1)))");
        assert_eq!(outcome, Outcome::Trap);
        assert!(after_call > loop_fuel, "{after_call}");
        assert_eq!(fuel("call $oob").1, loop_fuel + 1);
        // A hardware trap in the function that ran the loop loses the loop.
        for end in [
            "(drop (i32.load (i32.const -1)))",
            "(drop (i32.div_u (i32.const 1) (i32.sub (local.get 0) (i32.const 1000))))",
        ] {
            assert_eq!(fuel(end), (Outcome::Trap, 0), "{end}");
        }
    }
}
