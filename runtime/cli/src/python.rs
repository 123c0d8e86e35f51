//! Python verifiers, run unchanged on one shared interpreter module: the
//! CPython runner (`registry/python/runner`, CPython 3.11 for wasm32-wasip1)
//! pre-initialised once. A verifier script is data the sandbox hands to it at
//! each run ([`verigate_sandbox::Verifier::with_script`]).
//!
//! Pre-initialising runs the runner's `wizer-initialize` once in this crate's
//! guest world (the same deterministic clocks, random stream and argv as any
//! run) with the standard library mounted at `/usr/local/lib`: CPython
//! starts, imports the modules verifiers use and moves the standard library
//! into memory. `wasmtime-wizer` then writes the instance's memory and
//! globals out as a new module whose `_start` only runs a script. File
//! metadata the guest reads meanwhile is replaced by fixed values (device,
//! inode and times of the host's files would otherwise linger in CPython's
//! heap), so the same inputs give the same bytes on every machine.
//!
//! [`wrap`] does the same with one script on stdin, kept compiled in the
//! module: a standalone verifier that needs no script at run time.

use std::path::Path;
use std::pin::pin;
use std::task::{Context, Poll, Waker};
use verigate_sandbox::Limits;
use verigate_sandbox::wasi::{self, FIXED_WALL_CLOCK_SECS, GuestWorld};
use wasmtime::{Caller, Config, Engine, Extern, Instance, Linker, Module, Store, Val};
use wasmtime_wasi::p1::wasi_snapshot_preview1::WasiSnapshotPreview1;
use wasmtime_wasi::p1::{WasiP1Ctx, types};
use wasmtime_wizer::{InstanceState, SnapshotVal, ValType, Wizer};
use wiggle::{GuestMemory, GuestPtr};

/// Where `registry/python/build.py` leaves the runner (`runner.wasm`) and the
/// standard library (`home/lib/python311.zip`), relative to the repository root.
pub const PYTHON_RUNTIME_DIR: &str = "target/python";

/// Where the guest sees the standard library's folder while pre-initialising.
const GUEST_LIB_DIR: &str = "/usr/local/lib";

/// The runner's pre-initialisation export.
const INIT_FUNC: &str = "wizer-initialize";

/// Bounds of the pre-initialisation run: a script given to [`wrap`] is
/// untrusted, though only compiled there, never executed.
const WRAP_LIMITS: Limits = Limits {
    fuel: 50_000_000_000,
    memory_bytes: 512 << 20,
    timeout_ms: 120_000,
    max_output_bytes: 1 << 20,
    max_payload_bytes: 16 << 20,
};

/// What pre-initialising needs: the runner module and the standard library.
pub struct PythonRuntime<'a> {
    /// The runner module's bytes.
    pub runner: &'a [u8],
    /// A directory holding `lib/python311.zip`.
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

/// The shared interpreter module: the runner pre-initialised with no
/// script. It runs the script each run hands it.
pub fn interpreter(runtime: &PythonRuntime<'_>) -> Result<Vec<u8>, String> {
    preinitialise(runtime, "")
}

/// A standalone verifier module: the runner pre-initialised with `script`
/// compiled and kept, run with the payload on stdin. Errors say what failed,
/// with the interpreter's output (a syntax error in the script, for instance).
pub fn wrap(runtime: &PythonRuntime<'_>, script: &str) -> Result<Vec<u8>, String> {
    if script.is_empty() {
        return Err("the script is empty".into());
    }
    preinitialise(runtime, script)
}

/// A WASI `filestat` as the guest reads it, with what it says of the host's
/// file replaced by fixed values (its type and size kept): device and inode
/// 0, one link, every time the guest's wall clock.
fn fixed_filestat(stat: &types::Filestat) -> [u8; 64] {
    const FIXED_NS: u64 = FIXED_WALL_CLOCK_SECS * 1_000_000_000;
    let mut bytes = [0u8; 64];
    bytes[16] = stat.filetype as u8;
    bytes[24..32].copy_from_slice(&1u64.to_le_bytes());
    bytes[32..40].copy_from_slice(&stat.size.to_le_bytes());
    for time in [40, 48, 56] {
        bytes[time..time + 8].copy_from_slice(&FIXED_NS.to_le_bytes());
    }
    bytes
}

/// Writes `stat` (fixed, [`fixed_filestat`]) at `at` in the guest's memory,
/// or the errno of the failed call; returns the errno to hand back.
fn answer(
    memory: &mut [u8],
    at: i32,
    stat: Result<types::Filestat, types::Error>,
) -> wasmtime::Result<i32> {
    match stat {
        Ok(stat) => {
            let at = at as u32 as usize;
            let Some(slot) = memory.get_mut(at..at.saturating_add(64)) else {
                return Ok(types::Errno::Fault as i32);
            };
            slot.copy_from_slice(&fixed_filestat(&stat));
            Ok(0)
        }
        Err(e) => Ok(e.downcast()? as i32),
    }
}

/// Replaces the WASI functions that report file metadata by ones that give
/// only a file's type and size ([`fixed_filestat`]): no host metadata
/// reaches the guest's heap while pre-initialising.
fn fix_file_metadata(linker: &mut Linker<WasiP1Ctx>) -> wasmtime::Result<()> {
    const WASI: &str = verigate_contract::WASI_MODULE;
    fn memory(caller: &mut Caller<'_, WasiP1Ctx>) -> wasmtime::Result<wasmtime::Memory> {
        match caller.get_export("memory") {
            Some(Extern::Memory(memory)) => Ok(memory),
            _ => Err(wasmtime::Error::msg("the runner exports no memory")),
        }
    }
    linker.allow_shadowing(true);
    linker.func_wrap(
        WASI,
        "fd_filestat_get",
        |mut caller: Caller<'_, WasiP1Ctx>, fd: i32, at: i32| {
            let (bytes, ctx) = memory(&mut caller)?.data_and_store_mut(&mut caller);
            let mut guest = GuestMemory::Unshared(bytes);
            let stat = complete(ctx.fd_filestat_get(&mut guest, types::Fd::from(fd as u32)));
            answer(bytes_of(guest), at, stat)
        },
    )?;
    linker.func_wrap(
        WASI,
        "path_filestat_get",
        |mut caller: Caller<'_, WasiP1Ctx>, fd: i32, flags: i32, path: i32, len: i32, at: i32| {
            let (bytes, ctx) = memory(&mut caller)?.data_and_store_mut(&mut caller);
            let mut guest = GuestMemory::Unshared(bytes);
            let flags = types::Lookupflags::from_bits_truncate(flags as u32);
            let path = GuestPtr::<str>::new((path as u32, len as u32));
            let stat = complete(ctx.path_filestat_get(
                &mut guest,
                types::Fd::from(fd as u32),
                flags,
                path,
            ));
            answer(bytes_of(guest), at, stat)
        },
    )?;
    linker.allow_shadowing(false);
    Ok(())
}

/// The bytes of an unshared guest memory.
fn bytes_of(memory: GuestMemory<'_>) -> &mut [u8] {
    match memory {
        GuestMemory::Unshared(bytes) => bytes,
        GuestMemory::Shared(_) => unreachable!("the runner's memory is not shared"),
    }
}

/// Runs the runner's pre-initialisation with `script` on stdin and writes
/// the snapshot out as a module.
fn preinitialise(runtime: &PythonRuntime<'_>, script: &str) -> Result<Vec<u8>, String> {
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
    fix_file_metadata(&mut linker).map_err(|e| fail("WASI file metadata", e))?;
    let lib = runtime.home.join("lib");
    let world = GuestWorld {
        mounts: vec![(&lib, GUEST_LIB_DIR)],
        env: Vec::new(),
    };
    let (ctx, output) = wasi::build_context(script.as_bytes(), &world, &WRAP_LIMITS)
        .map_err(|e| format!("mounting the standard library: {e}"))?;
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
