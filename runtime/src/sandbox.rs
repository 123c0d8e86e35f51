//! The sandbox: loads verifiers once and runs them under fuel, memory, output
//! and wall-clock limits, classifying every run into exactly one outcome.

use crate::cache::ModuleCache;
use crate::engine::{Allocator, EngineOptions, SandboxEngine, deadline_ticks};
use crate::limits::Limits;
use crate::outcome::{Outcome, RunReport};
use crate::protocol::{Protocol, truncate_chars};
use crate::verifier::{Verifier, check_shape, declared_protocol, sha256_hex};
use crate::wasi;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Instant;
use wasmtime::{Linker, ResourceLimiter, Store, StoreLimits, StoreLimitsBuilder, Trap};
use wasmtime_wasi::I32Exit;
use wasmtime_wasi::p1::WasiP1Ctx;

/// Sandbox-wide settings.
#[derive(Clone, Debug, Default)]
pub struct SandboxOptions {
    /// Engine settings (pooling, concurrency, memory ceiling).
    pub engine: EngineOptions,
    /// Root of the on-disk compiled-module cache; `None` disables it.
    pub cache_root: Option<PathBuf>,
}

/// A module that was refused before it ran (`invalid_module`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModuleError {
    /// sha256 of the refused bytes.
    pub sha256: String,
    /// Why it was refused, naming the offending import or export where there is one.
    pub reason: String,
}

impl std::fmt::Display for ModuleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "invalid module {}: {}", self.sha256, self.reason)
    }
}

impl std::error::Error for ModuleError {}

impl ModuleError {
    /// The `invalid_module` report for this error (for callers that report
    /// refused modules in the same stream as runs).
    pub fn report(&self, protocol: Protocol) -> RunReport {
        RunReport {
            outcome: Outcome::InvalidModule,
            passed: false,
            score: 0.0,
            message: self.reason.clone(),
            details: None,
            protocol,
            fuel_consumed: 0,
            memory_bytes: 0,
            exit_code: None,
            wall_ms: 0.0,
            module_sha256: self.sha256.clone(),
            stdout: String::new(),
            stderr: String::new(),
        }
    }
}

/// One run: a payload for a verifier, with an optional item directory.
#[derive(Clone, Debug)]
pub struct RunRequest<'a> {
    /// Bytes given to the guest on stdin.
    pub payload: &'a [u8],
    /// Host directory mounted read-only at `/item`.
    pub item_dir: Option<&'a Path>,
    /// The run's limits.
    pub limits: Limits,
    /// Protocol override; else the module's declared protocol; else `combench`.
    pub protocol: Option<Protocol>,
    /// The item's row (one JSON line of an item family), given to the guest
    /// in the environment variable `VERIGATE_ROW`.
    pub row: Option<&'a str>,
}

/// Per-store state: the guest's WASI context and its memory limiter.
pub struct HostState {
    wasi: WasiP1Ctx,
    limiter: RecordingLimiter,
}

/// `StoreLimits` that remembers the first denied growth, so a guest that
/// aborts after a refused `memory.grow` is reported as `memory_exceeded`,
/// and the largest memory it granted.
struct RecordingLimiter {
    inner: StoreLimits,
    denied: Option<usize>,
    peak: usize,
}

impl ResourceLimiter for RecordingLimiter {
    fn memory_growing(
        &mut self,
        current: usize,
        desired: usize,
        maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        let allowed = self.inner.memory_growing(current, desired, maximum)?;
        if allowed {
            self.peak = self.peak.max(desired);
        } else {
            self.denied.get_or_insert(desired);
        }
        Ok(allowed)
    }

    fn table_growing(
        &mut self,
        current: usize,
        desired: usize,
        maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        self.inner.table_growing(current, desired, maximum)
    }

    fn instances(&self) -> usize {
        self.inner.instances()
    }
    fn tables(&self) -> usize {
        self.inner.tables()
    }
    fn memories(&self) -> usize {
        self.inner.memories()
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
    pub fn new(options: &SandboxOptions) -> wasmtime::Result<Self> {
        let engine = SandboxEngine::new(&options.engine)?;
        let mut linker = Linker::new(&engine.engine);
        wasi::add_to_linker(&mut linker, |state: &mut HostState| &mut state.wasi)?;
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

    /// Reads and loads a module file. The outer error is a host error (the
    /// file cannot be read); the inner one is an `invalid_module` refusal.
    pub fn load_file(&self, path: &Path) -> std::io::Result<Result<Arc<Verifier>, ModuleError>> {
        Ok(self.load(&std::fs::read(path)?))
    }

    /// Runs `verifier` on one request. The error is a host-side problem (for
    /// instance an item directory that cannot be opened), never a guest's fault.
    pub fn run(
        &self,
        verifier: &Verifier,
        request: &RunRequest<'_>,
    ) -> wasmtime::Result<RunReport> {
        let limits = &request.limits;
        let protocol = request
            .protocol
            .or(verifier.declared_protocol)
            .unwrap_or(Protocol::Combench);
        let mut report = RunReport {
            outcome: Outcome::PayloadTooLarge,
            passed: false,
            score: 0.0,
            message: String::new(),
            details: None,
            protocol,
            fuel_consumed: 0,
            memory_bytes: 0,
            exit_code: None,
            wall_ms: 0.0,
            module_sha256: verifier.sha256.clone(),
            stdout: String::new(),
            stderr: String::new(),
        };
        if request.payload.len() as u64 > limits.max_payload_bytes {
            report.message = format!(
                "payload of {} bytes exceeds the {}-byte payload cap",
                request.payload.len(),
                limits.max_payload_bytes
            );
            return Ok(report);
        }
        let (wasi, output) =
            wasi::build_context(request.payload, request.item_dir, request.row, limits)?;
        let memory_cap = usize::try_from(limits.memory_bytes).unwrap_or(usize::MAX);
        let limiter = RecordingLimiter {
            inner: StoreLimitsBuilder::new()
                .memory_size(memory_cap)
                .instances(1)
                .memories(1)
                .tables(4)
                .build(),
            denied: None,
            peak: 0,
        };
        let _slot = self.slots.acquire();
        let started = Instant::now();
        let mut store = Store::new(&self.engine.engine, HostState { wasi, limiter });
        store.limiter(|state| &mut state.limiter);
        if self.engine.fuel_metering {
            store.set_fuel(limits.fuel)?;
        }
        store.set_epoch_deadline(deadline_ticks(limits.timeout()));
        let result = verifier
            .pre
            .instantiate(&mut store)
            .and_then(|instance| instance.get_typed_func::<(), ()>(&mut store, "_start"))
            .and_then(|start| start.call(&mut store, ()));
        report.wall_ms = started.elapsed().as_secs_f64() * 1e3;
        report.fuel_consumed = store.get_fuel().map_or(0, |left| limits.fuel - left);
        let denied = store.data().limiter.denied;
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
        let (outcome, message) = match (overflow, denied, ended) {
            (Some(stream), _, _) => (
                Outcome::OutputOverflow,
                format!("{stream} exceeded the {cap}-byte output cap"),
            ),
            (None, Some(bytes), ended) if !matches!(ended, Ended::Exit(0)) => (
                Outcome::MemoryExceeded,
                format!(
                    "memory growth to {bytes} bytes denied by the {memory_cap}-byte memory cap"
                ),
            ),
            (None, _, Ended::Deadline) => (
                Outcome::Timeout,
                format!("wall-clock deadline of {} ms passed", limits.timeout_ms),
            ),
            (None, _, Ended::OutOfFuel) => (
                Outcome::FuelExhausted,
                format!("fuel budget of {} exhausted", limits.fuel),
            ),
            (None, _, Ended::Exit(code)) if code != 0 => (
                Outcome::ExitNonzero,
                with_stderr(format!("exited with status {code}"), &report.stderr),
            ),
            (None, _, Ended::Trap(trap)) => (Outcome::Trap, with_stderr(trap, &report.stderr)),
            (None, _, Ended::Exit(_)) => {
                let judgement = crate::protocol::judge(protocol, &report.stdout);
                report.score = judgement.score;
                report.details = judgement.details;
                (judgement.outcome, judgement.message)
            }
        };
        report.outcome = outcome;
        report.passed = outcome == Outcome::Pass;
        report.message = message;
        Ok(report)
    }
}

/// How guest execution ended, before classification.
enum Ended {
    Exit(i32),
    OutOfFuel,
    Deadline,
    Trap(String),
}

/// Lines of stderr kept in a trap or exit message.
const STDERR_TAIL_LINES: usize = 3;

/// `message`, followed by the last few non-blank lines of stderr (where a
/// panic message lands).
fn with_stderr(message: String, stderr: &str) -> String {
    let lines: Vec<&str> = stderr
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    if lines.is_empty() {
        return message;
    }
    let tail = lines[lines.len().saturating_sub(STDERR_TAIL_LINES)..].join(" | ");
    format!("{message}; stderr: {}", truncate_chars(&tail, 500))
}
