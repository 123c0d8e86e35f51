//! Python verifiers, run unchanged: the CPython runner module
//! (`registry/python/runner`, CPython 3.11 for wasm32-wasip1) pre-initialised
//! with one script becomes an ordinary verifier module.
//!
//! Wrapping runs the runner's `wizer-initialize` once in this crate's guest
//! world (same deterministic clocks, random stream and argv as any run), with
//! the script on stdin and the standard library mounted at `/item`: CPython
//! starts, imports the modules verifiers use and those the script imports, and
//! compiles the script. `wasmtime-wizer` then writes the instance's memory and
//! globals out as a new module whose `_start` only executes the compiled
//! script — a run costs the script's own work, not an interpreter start. The
//! same inputs give the same bytes.

use std::path::Path;
use std::pin::pin;
use std::task::{Context, Poll, Waker};
use verigate_sandbox::{Limits, wasi};
use wasmtime::{Config, Engine, Instance, Linker, Module, Store, Val};
use wasmtime_wasi::p1::WasiP1Ctx;
use wasmtime_wizer::{InstanceState, SnapshotVal, ValType, Wizer};

/// Where `registry/python/build.py` leaves the runner (`runner.wasm`) and the
/// standard library (`home/lib/python3.11`), relative to the repository root.
pub const PYTHON_RUNTIME_DIR: &str = "target/python";

/// The runner's pre-initialisation export.
const INIT_FUNC: &str = "wizer-initialize";

/// Bounds of the pre-initialisation run: the script is untrusted, though only
/// compiled (and its imports imported) there, never executed.
const WRAP_LIMITS: Limits = Limits {
    fuel: 50_000_000_000,
    memory_bytes: 512 << 20,
    timeout_ms: 120_000,
    max_output_bytes: 1 << 20,
    max_payload_bytes: 16 << 20,
};

/// What wrapping needs: the runner module and the standard library.
pub struct PythonRuntime<'a> {
    /// The runner module's bytes.
    pub runner: &'a [u8],
    /// A directory holding `lib/python3.11/`.
    pub home: &'a Path,
}

/// Reads a pre-initialised instance's state for the snapshot.
struct Initialised<'a> {
    store: &'a mut Store<WasiP1Ctx>,
    instance: Instance,
}

impl InstanceState for Initialised<'_> {
    async fn global_get(&mut self, name: &str, _: ValType) -> SnapshotVal {
        let global = (self.instance.get_global(&mut *self.store, name))
            .expect("wizer asks only for the globals it exported");
        match global.get(&mut *self.store) {
            Val::I32(x) => SnapshotVal::I32(x),
            Val::I64(x) => SnapshotVal::I64(x),
            Val::F32(x) => SnapshotVal::F32(x),
            Val::F64(x) => SnapshotVal::F64(x),
            Val::V128(x) => SnapshotVal::V128(x.as_u128()),
            other => panic!(
                "a global of type {:?} cannot be snapshot",
                other.ty(&*self.store)
            ),
        }
    }

    async fn memory_contents(&mut self, name: &str, contents: impl FnOnce(&[u8]) + Send) {
        let memory = (self.instance.get_memory(&mut *self.store, name))
            .expect("wizer asks only for the memories it exported");
        contents(memory.data(&*self.store));
    }
}

/// Polls a future that never waits (the snapshot reads a synchronous store).
fn complete<F: Future>(future: F) -> F::Output {
    match pin!(future).poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(output) => output,
        Poll::Pending => unreachable!("snapshotting a synchronous store does not wait"),
    }
}

/// The runner pre-initialised with `script`: a verifier module that runs the
/// script with the payload on stdin. Errors say what failed, with the
/// interpreter's output (a syntax error in the script, for instance).
pub fn wrap(runtime: &PythonRuntime<'_>, script: &str) -> Result<Vec<u8>, String> {
    let fail = |what: &str, e: wasmtime::Error| format!("{what}: {e:#}");
    let mut wizer = Wizer::new();
    wizer.init_func(INIT_FUNC);
    let (cx, instrumented) = wizer
        .instrument(runtime.runner)
        .map_err(|e| fail("the Python runner is not a module wizer can instrument", e))?;
    let mut config = Config::new();
    config
        .consume_fuel(true)
        .cranelift_nan_canonicalization(true)
        .relaxed_simd_deterministic(true);
    let engine = Engine::new(&config).map_err(|e| fail("engine", e))?;
    let module =
        Module::new(&engine, &instrumented).map_err(|e| fail("compiling the runner", e))?;
    let mut linker = Linker::new(&engine);
    wasi::add_to_linker(&mut linker, |ctx: &mut WasiP1Ctx| ctx).map_err(|e| fail("WASI", e))?;
    let (ctx, output) =
        wasi::build_context(script.as_bytes(), Some(runtime.home), None, &WRAP_LIMITS).map_err(
            |e| {
                fail(
                    "mounting the standard library",
                    wasmtime::Error::msg(e.to_string()),
                )
            },
        )?;
    let mut store = Store::new(&engine, ctx);
    store
        .set_fuel(WRAP_LIMITS.fuel)
        .map_err(|e| fail("fuel", e))?;
    let instance = linker
        .instantiate(&mut store, &module)
        .map_err(|e| fail("instantiating the runner", e))?;
    let init = instance
        .get_typed_func::<(), ()>(&mut store, INIT_FUNC)
        .map_err(|e| fail("the runner's initialisation export", e))?;
    if let Err(e) = init.call(&mut store, ()) {
        let stderr = String::from_utf8_lossy(&output.stderr.contents()).into_owned();
        let reason = match e.downcast_ref::<wasmtime_wasi::I32Exit>() {
            Some(_) => "the script could not be compiled".to_owned(),
            None => format!("the interpreter failed: {e:#}"),
        };
        return Err(format!("{reason}\n{}", stderr.trim_end()));
    }
    let mut state = Initialised {
        store: &mut store,
        instance,
    };
    complete(wizer.snapshot(&cx, &mut state)).map_err(|e| fail("writing the snapshot", e))
}
