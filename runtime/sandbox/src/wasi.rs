//! The guest's view of the world: a deterministic, capability-free WASI preview 1.
//!
//! What a guest sees:
//! - argv = `["verifier"]`, no network, no environment variables except
//!   [`verigate_contract::ROW_ENV`] for an item of a family (its row, one JSON line)
//!   and [`verigate_contract::SCRIPT_ENV`] for a script an interpreter runs;
//! - stdin = the payload; stdout and stderr are captured up to the output cap;
//! - no files, except an item directory mounted read-only at `/item` when given;
//! - the wall clock always reads 2000-01-01T00:00:00Z and the monotonic clock
//!   always reads 0;
//! - `random_get` (and so hash-map seeds) is a ChaCha stream with a fixed seed;
//! - `poll_oneoff` never blocks: every subscription (a sleep, a read, a write)
//!   fires at once, so a guest that sleeps does not hold a worker.

use crate::error::Error;
use crate::limits::Limits;
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::path::Path;
use std::time::Duration;
use verigate_contract::WASI_MODULE;
use wasmtime::{Caller, Extern, Linker};
use wasmtime_wasi::p1::WasiP1Ctx;
use wasmtime_wasi::p2::pipe::{MemoryInputPipe, MemoryOutputPipe};
use wasmtime_wasi::{FsPerms, HostMonotonicClock, HostWallClock, WasiCtxBuilder};

/// The program name the guest sees as `argv[0]`.
pub const PROGRAM_NAME: &str = "verifier";
/// Seconds since the Unix epoch of the guest's wall clock (2000-01-01T00:00:00Z).
pub const FIXED_WALL_CLOCK_SECS: u64 = 946_684_800;
/// Seed of the guest's random stream.
const RANDOM_SEED: u64 = 0x7665_7269_6761_7465; // "verigate"

struct FixedWallClock;

impl HostWallClock for FixedWallClock {
    fn resolution(&self) -> Duration {
        Duration::from_nanos(1)
    }
    fn now(&self) -> Duration {
        Duration::from_secs(FIXED_WALL_CLOCK_SECS)
    }
}

struct FixedMonotonicClock;

impl HostMonotonicClock for FixedMonotonicClock {
    fn resolution(&self) -> u64 {
        1
    }
    fn now(&self) -> u64 {
        0
    }
}

/// The captured output streams of one run.
pub struct CapturedOutput {
    /// The guest's stdout, capped.
    pub stdout: MemoryOutputPipe,
    /// The guest's stderr, capped.
    pub stderr: MemoryOutputPipe,
}

/// What a guest is given besides its payload: host directories mounted
/// read-only (host path, guest path) and environment variables.
#[derive(Default)]
pub struct GuestWorld<'a> {
    /// Host directories and where the guest sees them, read-only.
    pub mounts: Vec<(&'a Path, &'a str)>,
    /// Environment variables, name and value.
    pub env: Vec<(&'a str, &'a str)>,
}

/// Builds the WASI context for one run.
///
/// Output pipes get one byte more than the cap, so a guest that tries to write
/// past the cap is seen to have done so.
pub fn build_context(
    payload: &[u8],
    world: &GuestWorld<'_>,
    limits: &Limits,
) -> Result<(WasiP1Ctx, CapturedOutput), Error> {
    let capacity = usize::try_from(limits.max_output_bytes)
        .unwrap_or(usize::MAX - 1)
        .saturating_add(1);
    let stdout = MemoryOutputPipe::new(capacity);
    let stderr = MemoryOutputPipe::new(capacity);
    let mut builder = WasiCtxBuilder::new();
    builder
        .stdin(MemoryInputPipe::new(payload.to_vec()))
        .stdout(stdout.clone())
        .stderr(stderr.clone())
        .arg(PROGRAM_NAME)
        .wall_clock(FixedWallClock)
        .monotonic_clock(FixedMonotonicClock)
        .secure_random(StdRng::seed_from_u64(RANDOM_SEED))
        .insecure_random(StdRng::seed_from_u64(RANDOM_SEED.rotate_left(32)))
        .insecure_random_seed(u128::from(RANDOM_SEED))
        .allow_blocking_current_thread(true)
        .allow_tcp(false)
        .allow_udp(false)
        .allow_ip_name_lookup(false);
    for (name, value) in &world.env {
        builder.env(name, value);
    }
    for (dir, guest) in &world.mounts {
        builder
            .preopened_dir(dir, guest, FsPerms::ReadOnly)
            .map_err(|e| Error::input(dir, std::io::Error::other(format!("{e:#}"))))?;
    }
    Ok((builder.build_p1(), CapturedOutput { stdout, stderr }))
}

/// Adds WASI preview 1 to `linker`, with the non-blocking `poll_oneoff`.
pub fn add_to_linker<T: Send + 'static>(
    linker: &mut Linker<T>,
    wasi: impl Fn(&mut T) -> &mut WasiP1Ctx + Copy + Send + Sync + 'static,
) -> wasmtime::Result<()> {
    wasmtime_wasi::p1::add_to_linker_sync(linker, wasi)?;
    linker.allow_shadowing(true);
    linker.func_wrap(
        WASI_MODULE,
        "poll_oneoff",
        |mut caller: Caller<'_, T>, subs: i32, events: i32, count: i32, nevents: i32| {
            let Some(Extern::Memory(memory)) = caller.get_export("memory") else {
                return ERRNO_INVAL;
            };
            poll_oneoff_now(memory.data_mut(&mut caller), subs, events, count, nevents)
        },
    )?;
    linker.allow_shadowing(false);
    Ok(())
}

const ERRNO_SUCCESS: i32 = 0;
const ERRNO_FAULT: i32 = 21;
const ERRNO_INVAL: i32 = 28;
const SUBSCRIPTION_SIZE: usize = 48;
const EVENT_SIZE: usize = 32;

/// WASI `poll_oneoff` in which every subscription is ready at once.
///
/// Each event echoes its subscription's userdata and type with no error; clock
/// subscriptions "expire" immediately and fd subscriptions report readiness.
fn poll_oneoff_now(memory: &mut [u8], subs: i32, events: i32, count: i32, nevents: i32) -> i32 {
    let (subs, events, count, nevents) = (
        subs as u32 as usize,
        events as u32 as usize,
        count as u32 as usize,
        nevents as u32 as usize,
    );
    if count == 0 {
        return ERRNO_INVAL;
    }
    let in_bounds = |start: usize, len: Option<usize>| {
        len.and_then(|len| start.checked_add(len))
            .is_some_and(|end| end <= memory.len())
    };
    if !in_bounds(subs, count.checked_mul(SUBSCRIPTION_SIZE))
        || !in_bounds(events, count.checked_mul(EVENT_SIZE))
        || !in_bounds(nevents, Some(4))
    {
        return ERRNO_FAULT;
    }
    for i in 0..count {
        let at = subs + i * SUBSCRIPTION_SIZE;
        let mut userdata = [0u8; 8];
        userdata.copy_from_slice(&memory[at..at + 8]);
        let kind = memory[at + 8];
        if kind > 2 {
            return ERRNO_INVAL;
        }
        let event = &mut memory[events + i * EVENT_SIZE..][..EVENT_SIZE];
        event.fill(0);
        event[..8].copy_from_slice(&userdata);
        event[10] = kind;
    }
    memory[nevents..nevents + 4].copy_from_slice(&(count as u32).to_le_bytes());
    ERRNO_SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_subscription_fires_at_once() {
        let mut memory = vec![0u8; 256];
        // Two subscriptions at 0: a clock (kind 0) and an fd_read (kind 1).
        memory[..8].copy_from_slice(&7u64.to_le_bytes());
        memory[8] = 0;
        memory[48..56].copy_from_slice(&9u64.to_le_bytes());
        memory[56] = 1;
        assert_eq!(poll_oneoff_now(&mut memory, 0, 100, 2, 200), ERRNO_SUCCESS);
        assert_eq!(&memory[100..108], &7u64.to_le_bytes());
        assert_eq!(memory[110], 0);
        assert_eq!(&memory[132..140], &9u64.to_le_bytes());
        assert_eq!(memory[142], 1);
        assert_eq!(&memory[200..204], &2u32.to_le_bytes());
    }

    #[test]
    fn bad_arguments_are_errors_not_panics() {
        let mut memory = vec![0u8; 64];
        assert_eq!(poll_oneoff_now(&mut memory, 0, 0, 0, 0), ERRNO_INVAL);
        assert_eq!(poll_oneoff_now(&mut memory, 0, 48, 1, 0), ERRNO_FAULT);
        assert_eq!(poll_oneoff_now(&mut memory, -1, 0, 1, 0), ERRNO_FAULT);
        assert_eq!(poll_oneoff_now(&mut memory, 0, 0, i32::MAX, 0), ERRNO_FAULT);
        let mut big = vec![0u8; 128];
        big[8] = 9;
        assert_eq!(poll_oneoff_now(&mut big, 0, 48, 1, 80), ERRNO_INVAL);
    }
}
