//! The sandbox: loads verifiers once and runs them under fuel, memory, output
//! and wall-clock limits; [`classify`] turns what happened into
//! exactly one outcome.

use crate::cache::ModuleCache;
use crate::classify::{self, Ended, Observed};
use crate::engine::{Allocator, EngineOptions, SandboxEngine, deadline_ticks};
use crate::error::{Error, ModuleError};
use crate::limits::Limits;
use crate::module::{Verifier, check_shape, declared_protocol, sha256_hex};
use crate::report::RunReport;
use crate::store::{HostState, RecordingLimiter};
use crate::wasi;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Instant;
use verigate_contract::{Outcome, Protocol};
use wasmtime::{Linker, Store, Trap};
use wasmtime_wasi::I32Exit;

/// Sandbox-wide settings.
#[derive(Clone, Debug, Default)]
pub struct SandboxOptions {
    /// Engine settings (pooling, concurrency, memory ceiling).
    pub engine: EngineOptions,
    /// Root of the on-disk compiled-module cache; `None` disables it.
    pub cache_root: Option<PathBuf>,
}

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
    loaded: Mutex<HashMap<String, Arc<Verifier>>>,
    slots: SlotGate,
}

impl Sandbox {
    /// Creates a sandbox: engine, WASI linker and compiled-module cache.
    pub fn new(options: &SandboxOptions) -> Result<Self, Error> {
        let engine = SandboxEngine::new(&options.engine).map_err(Error::host)?;
        let mut linker = Linker::new(&engine.engine);
        wasi::add_to_linker(&mut linker, |state: &mut HostState| &mut state.wasi)
            .map_err(Error::host)?;
        let cache = ModuleCache::new(options.cache_root.as_deref(), &engine.fingerprint);
        Ok(Sandbox {
            engine,
            linker,
            cache,
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

    /// Validates, compiles (once per process, through the on-disk cache) and
    /// pre-links the binary module `wasm`. The same bytes loaded again return
    /// the same verifier.
    pub fn load(&self, wasm: &[u8]) -> Result<Arc<Verifier>, ModuleError> {
        let sha256 = sha256_hex(wasm);
        let mut loaded = self.loaded.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(verifier) = loaded.get(&sha256) {
            return Ok(Arc::clone(verifier));
        }
        let refuse = |reason: String| ModuleError {
            sha256: sha256.clone(),
            reason: reason.split_whitespace().collect::<Vec<_>>().join(" "),
        };
        let started = Instant::now();
        let (module, cache) = self
            .cache
            .load(&self.engine.engine, &sha256, wasm)
            .map_err(|e| refuse(format!("not a valid WebAssembly module: {e:#}")))?;
        check_shape(&module).map_err(refuse)?;
        let declared_protocol = declared_protocol(wasm).map_err(refuse)?;
        let pre = self
            .linker
            .instantiate_pre(&module)
            .map_err(|e| refuse(format!("{e:#}")))?;
        let verifier = Arc::new(Verifier {
            sha256: sha256.clone(),
            declared_protocol,
            cache,
            load_time: started.elapsed(),
            pre,
        });
        loaded.insert(sha256, Arc::clone(&verifier));
        Ok(verifier)
    }

    /// Reads and loads a module file. The outer error is the caller's (the
    /// file cannot be read); the inner one is an `invalid_module` refusal.
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
        if request.payload.len() as u64 > limits.max_payload_bytes {
            report.message = format!(
                "payload of {} bytes exceeds the {}-byte payload cap",
                request.payload.len(),
                limits.max_payload_bytes
            );
            return Ok(report);
        }
        let (wasi, output) = wasi::build_context(
            &request.payload,
            request.item_dir.as_deref(),
            request.row.as_deref(),
            limits,
        )?;
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
        let result = verifier
            .pre
            .instantiate(&mut store)
            .and_then(|instance| instance.get_typed_func::<(), ()>(&mut store, "_start"))
            .and_then(|start| start.call(&mut store, ()));
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
