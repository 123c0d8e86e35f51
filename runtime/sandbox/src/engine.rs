//! The wasmtime engine: deterministic configuration, pooling, the epoch ticker
//! and the configuration fingerprint.

use sha2::{Digest, Sha256};
use std::hash::{Hash, Hasher};
use std::thread;
use std::time::Duration;
use wasmtime::{Config, Enabled, Engine, InstanceAllocationStrategy, PoolingAllocationConfig};

/// How often the wall-clock backstop advances the engine's epoch.
pub const EPOCH_TICK: Duration = Duration::from_millis(5);

/// Version of what a guest observes (clocks, random seed, argv, mounts,
/// `poll_oneoff`). Part of the fingerprint: changing the guest's world changes results.
const GUEST_WORLD_VERSION: &str = "verigate-guest-world-2";

/// Engine-wide settings.
#[derive(Clone, Debug)]
pub struct EngineOptions {
    /// Use the pooling instance allocator (falls back to on-demand allocation
    /// when the host cannot reserve the pool's address space).
    pub pooling: bool,
    /// Most runs in flight at once; sizes the pool. Extra runs wait for a slot.
    pub max_concurrent_runs: usize,
    /// Largest per-run memory cap the engine supports, in bytes.
    pub max_memory_bytes: u64,
    /// Count fuel (the deterministic instruction budget). Only `verigate
    /// bench` turns it off, to measure its cost: without it a looping guest
    /// is stopped by the wall-clock deadline alone.
    pub fuel_metering: bool,
}

impl Default for EngineOptions {
    fn default() -> Self {
        let cores = thread::available_parallelism().map_or(1, usize::from);
        EngineOptions {
            pooling: true,
            max_concurrent_runs: (cores * 4).max(16),
            max_memory_bytes: 4 << 30,
            fuel_metering: true,
        }
    }
}

/// A configured engine and the facts about it that results record.
pub struct SandboxEngine {
    /// The wasmtime engine.
    pub engine: Engine,
    /// The instance allocator in use.
    pub allocator: Allocator,
    /// Hex sha256 naming everything that makes compiled code and guest-visible
    /// behaviour interchangeable: wasmtime's compatibility hash plus our guest world.
    pub fingerprint: String,
    /// Whether runs count fuel.
    pub fuel_metering: bool,
}

/// How instance memory is provided, best first; the first one the host
/// supports is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Allocator {
    /// Pooling, resetting only the pages a run dirtied (Linux `PAGEMAP_SCAN`,
    /// kernel 6.7+) while keeping them resident. Avoiding `madvise` avoids
    /// the TLB shoot-downs that otherwise make parallel workers slower than
    /// one: measured here 7 µs a run and 1.35x on two workers, against
    /// 19 µs and 0.7x.
    PoolingWithPagemap,
    /// Pooling, returning memory to the kernel after each run.
    Pooling,
    /// Plain `mmap` per instance (when the pool's address space cannot be reserved).
    OnDemand,
}

/// Native stack a guest's own frames may take, past which a call traps
/// (`call stack exhausted`): enough for CPython to reach its recursion
/// limit of 1000 through C calls. Every thread that runs guests needs this
/// much stack and more ([`GUEST_THREAD_STACK`]).
pub const MAX_WASM_STACK: usize = 4 << 20;

/// Stack size of the threads verigate starts to run guests on, and of the
/// stack a run is lent on a thread with less than [`GUEST_STACK_RED_ZONE`]
/// left: the guest's [`MAX_WASM_STACK`] plus room for the host's own frames.
pub const GUEST_THREAD_STACK: usize = MAX_WASM_STACK + (4 << 20);

/// Stack a run needs left on its thread: the guest's [`MAX_WASM_STACK`]
/// and 1 MiB for the host functions it calls.
pub const GUEST_STACK_RED_ZONE: usize = MAX_WASM_STACK + (1 << 20);

/// Pool slots released to the kernel together.
const DECOMMIT_BATCH: usize = 16;
/// Linear memory kept resident per slot when dirty pages can be found.
const KEEP_RESIDENT_MEMORY: usize = 4 << 20;
/// Table bytes kept resident per slot (funcref tables of typical guests fit).
const KEEP_RESIDENT_TABLE: usize = 64 << 10;

impl Allocator {
    fn config(self, slots: u32, max_memory: usize, fuel_metering: bool) -> Config {
        let mut config = Config::new();
        config
            .consume_fuel(fuel_metering)
            .epoch_interruption(true)
            .cranelift_nan_canonicalization(true)
            .relaxed_simd_deterministic(true)
            .parallel_compilation(true)
            // Traps are reported by kind plus the guest's stderr; capturing
            // wasm backtraces would only slow down every trapping run.
            .wasm_backtrace_max_frames(None)
            .max_wasm_stack(MAX_WASM_STACK)
            // wasmtime asks for it even where no guest runs asynchronously.
            .async_stack_size(GUEST_THREAD_STACK);
        if self == Allocator::OnDemand {
            return config;
        }
        let mut pool = PoolingAllocationConfig::new();
        pool.total_core_instances(slots)
            .total_memories(slots)
            .total_tables(slots)
            .total_stacks(slots)
            .max_memory_size(max_memory)
            .decommit_batch_size(DECOMMIT_BATCH.min(slots as usize));
        if self == Allocator::PoolingWithPagemap {
            pool.pagemap_scan(Enabled::Yes)
                .linear_memory_keep_resident(KEEP_RESIDENT_MEMORY)
                .table_keep_resident(KEEP_RESIDENT_TABLE);
        }
        config.allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
        config
    }
}

impl SandboxEngine {
    /// Builds the engine and starts its epoch ticker thread (which stops when
    /// the engine is dropped).
    pub fn new(options: &EngineOptions) -> wasmtime::Result<Self> {
        let slots = u32::try_from(options.max_concurrent_runs.max(1)).unwrap_or(u32::MAX);
        let max_memory = usize::try_from(options.max_memory_bytes).unwrap_or(usize::MAX);
        let mut allocators = Vec::new();
        if options.pooling {
            allocators.push(Allocator::PoolingWithPagemap);
            allocators.push(Allocator::Pooling);
        }
        allocators.push(Allocator::OnDemand);
        let mut last_error = None;
        let mut chosen = None;
        for allocator in allocators {
            match Engine::new(&allocator.config(slots, max_memory, options.fuel_metering)) {
                Ok(engine) => {
                    chosen = Some((engine, allocator));
                    break;
                }
                Err(err) => {
                    tracing::info!("{allocator:?} allocator unavailable: {err:#}");
                    last_error = Some(err);
                }
            }
        }
        let Some((engine, allocator)) = chosen else {
            return Err(last_error.expect("at least one allocator was tried"));
        };
        let fingerprint = fingerprint(&engine);
        start_epoch_ticker(&engine);
        Ok(SandboxEngine {
            engine,
            allocator,
            fingerprint,
            fuel_metering: options.fuel_metering,
        })
    }
}

/// An engine that only compiles — no pool, no epoch ticker — configured like
/// every sandbox engine with the same `fuel_metering`, so that what it
/// compiles loads into them (the compiler child's engine).
pub(crate) fn compile_only_engine(fuel_metering: bool) -> wasmtime::Result<Engine> {
    Engine::new(&Allocator::OnDemand.config(1, 0, fuel_metering))
}

/// Feeds `Hash` output into sha256, so the fingerprint is a stable digest
/// rather than a process-seeded hash.
struct Sha256Hasher(Sha256);

impl Hasher for Sha256Hasher {
    fn finish(&self) -> u64 {
        let digest = self.0.clone().finalize();
        u64::from_le_bytes(digest[..8].try_into().expect("sha256 has 32 bytes"))
    }
    fn write(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }
}

fn fingerprint(engine: &Engine) -> String {
    let mut hasher = Sha256Hasher(Sha256::new());
    engine.precompile_compatibility_hash().hash(&mut hasher);
    hasher.write(GUEST_WORLD_VERSION.as_bytes());
    hex::encode(hasher.0.finalize())
}

fn start_epoch_ticker(engine: &Engine) {
    let weak = engine.weak();
    thread::Builder::new()
        .name("verigate-epoch".to_owned())
        .spawn(move || {
            while let Some(engine) = weak.upgrade() {
                engine.increment_epoch();
                drop(engine);
                thread::sleep(EPOCH_TICK);
            }
        })
        .expect("spawning the epoch ticker thread");
}

/// Epoch ticks that cover `timeout`, rounded up, plus one for the partial tick
/// in progress when the run starts.
pub fn deadline_ticks(timeout: Duration) -> u64 {
    let tick = EPOCH_TICK.as_nanos();
    u64::try_from(timeout.as_nanos().div_ceil(tick))
        .unwrap_or(u64::MAX)
        .saturating_add(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_compile_only_engine_compiles_for_every_allocator() {
        let compiler = compile_only_engine(true).unwrap();
        for allocator in [Allocator::PoolingWithPagemap, Allocator::Pooling] {
            let Ok(engine) = Engine::new(&allocator.config(2, 1 << 30, true)) else {
                continue;
            };
            assert_eq!(
                fingerprint(&engine),
                fingerprint(&compiler),
                "{allocator:?}"
            );
        }
        assert_ne!(
            fingerprint(&compile_only_engine(false).unwrap()),
            fingerprint(&compiler),
            "fuel metering changes the code"
        );
    }
}
