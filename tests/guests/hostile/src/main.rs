//! `hostile`: one wasm32-wasip1 command module that misbehaves on request.
//!
//! Stdin is `COMMAND [ARGUMENT]`: leading whitespace is skipped, the command
//! is the first whitespace-delimited word, and the argument is everything
//! after the single whitespace byte that ends it (raw bytes; commands that
//! take a number or paths trim it). Every command prints what it observed,
//! one fact per stdout line, so tests can assert on it. An unknown or missing
//! command prints `hostile: ...` and exits with status 2.
//!
//! | command | behaviour |
//! |---|---|
//! | `true` | prints `True` |
//! | `debug-then-true` | prints a debug line, then `True` |
//! | `stderr-then-true` | prints a line on stderr, then `True` on stdout |
//! | `echo ARG` | writes ARG back byte for byte (no newline added) |
//! | `verdict JSON` | prints ARG, trimmed, as one line |
//! | `true-then-exit [CODE]` | prints `True`, then `exit(CODE)` (default 1) |
//! | `true-then-panic` | prints `True`, then panics (a trap: panic=abort) |
//! | `true-then-trap` | prints `True`, then executes `unreachable` |
//! | `loop` | spins forever, no output |
//! | `spin N` | N busy-loop iterations, then `True` |
//! | `membomb` | allocates and touches 1 MiB blocks forever; when an allocation is refused prints `membomb: allocation refused after N MiB` and aborts |
//! | `alloc MIB` | allocates and touches MIB MiB, then `True` (or `alloc: could not allocate MIB MiB`, exit 1) |
//! | `recurse` | unbounded non-tail recursion on the wasm call stack only (trap: call stack exhausted) |
//! | `recurse-shadow` | unbounded recursion with 4 KiB linear-memory frames (trap: out-of-bounds memory access) |
//! | `flood` | `println!` forever (panics, i.e. traps, once stdout fails) |
//! | `flood-raw` | writes 64 KiB blocks to stdout until a write fails, then exits 0 |
//! | `sleep [SECS]` | `thread::sleep(SECS)` (default 1), then `True` |
//! | `read-host-file [PATHS]` | tries to read each path; `read PATH: ok N bytes ...` / `read PATH: err ...` |
//! | `list-root [PATHS]` | `read_dir` of each path; `list PATH: ok [names]` / `list PATH: err ...` |
//! | `write-item` | tries to create, write, delete, rename, link in `/item` (and `/tmp`, cwd) |
//! | `probe-env` | env var count and list, args, cwd |
//! | `probe-network` | TCP connect / UDP bind / TCP bind, accept on fds 3..=9 |
//! | `probe-fds` | `fd_fdstat_get` / `fd_prestat_get` of fds 0..64 |
//! | `nondet` | one JSON line of clocks, randomness and hash-map order |

use std::collections::HashMap;
use std::collections::hash_map::RandomState;
use std::fmt::Write as _;
use std::hash::BuildHasher;
use std::hint::black_box;
use std::io::{self, Read, Write};
use std::process::exit;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

const MIB: usize = 1 << 20;
const PAGE: usize = 4096;

fn main() {
    let mut input = Vec::new();
    if let Err(e) = io::stdin().read_to_end(&mut input) {
        println!("hostile: cannot read stdin: {e}");
        exit(2);
    }
    let (command, arg) = split_command(&input);
    match command {
        b"true" => println!("True"),
        b"debug-then-true" => {
            println!("debug: checked 3 of 3 constraints");
            println!("True");
        }
        b"stderr-then-true" => {
            eprintln!("hostile: some diagnostic noise on stderr");
            println!("True");
        }
        b"echo" => {
            let mut out = io::stdout().lock();
            let _ = out.write_all(arg);
            let _ = out.flush();
        }
        b"verdict" => println!("{}", text(arg)),
        b"true-then-exit" => {
            let code = number(arg, 1i32);
            println!("True");
            let _ = io::stdout().flush();
            exit(code);
        }
        b"true-then-panic" => {
            println!("True");
            let _ = io::stdout().flush();
            panic!("hostile: deliberate panic after printing True");
        }
        b"true-then-trap" => {
            println!("True");
            let _ = io::stdout().flush();
            core::arch::wasm32::unreachable();
        }
        b"loop" => spin_forever(),
        b"spin" => {
            let n = number(arg, 1_000_000u64);
            let mut acc = 0u64;
            for i in 0..n {
                acc = black_box(acc.wrapping_add(i));
            }
            black_box(acc);
            println!("True");
        }
        b"membomb" => membomb(),
        b"alloc" => alloc(number(arg, 1usize)),
        b"recurse" => println!("recurse: returned {}", recurse(0)),
        b"recurse-shadow" => println!("recurse-shadow: returned {}", recurse_shadow(0)),
        b"flood" => {
            let mut i = 0u64;
            loop {
                println!("flood line {i}: the quick brown fox jumps over the lazy dog");
                i += 1;
            }
        }
        b"flood-raw" => flood_raw(),
        b"sleep" => {
            let secs = number(arg, 1.0f64);
            let Ok(duration) = Duration::try_from_secs_f64(secs) else {
                println!("hostile: bad duration {secs}");
                exit(2);
            };
            let start = Instant::now();
            std::thread::sleep(duration);
            eprintln!("sleep: {:?} observed", start.elapsed());
            println!("True");
        }
        b"read-host-file" => {
            let defaults = [
                "/etc/passwd",
                "/proc/self/environ",
                "../",
                "../etc/passwd",
                "/item/../etc/passwd",
                "/item/../../etc/passwd",
                "/item/instance.json",
            ];
            for path in paths(arg, &defaults) {
                match std::fs::read(&path) {
                    Ok(bytes) => {
                        let head = String::from_utf8_lossy(&bytes[..bytes.len().min(24)]);
                        println!("read {path}: ok {} bytes, starts {head:?}", bytes.len());
                    }
                    Err(e) => println!("read {path}: err {e}"),
                }
            }
        }
        b"list-root" => {
            for path in paths(arg, &["/", ".", "/item", "..", "/item/.."]) {
                match list_dir(&path) {
                    Ok(names) => println!("list {path}: ok {names:?}"),
                    Err(e) => println!("list {path}: err {e}"),
                }
            }
        }
        b"write-item" => write_item(),
        b"probe-env" => {
            let vars: Vec<_> = std::env::vars_os().collect();
            println!("env count={}", vars.len());
            for (k, v) in &vars {
                println!("env {}={}", k.to_string_lossy(), v.to_string_lossy());
            }
            let args: Vec<_> = std::env::args_os().collect();
            println!("args count={}", args.len());
            for (i, a) in args.iter().enumerate() {
                println!("arg {i}={:?}", a.to_string_lossy());
            }
            match std::env::current_dir() {
                Ok(dir) => println!("cwd ok {:?}", dir.display().to_string()),
                Err(e) => println!("cwd err {e}"),
            }
        }
        b"probe-network" => probe_network(),
        b"probe-fds" => probe_fds(),
        b"nondet" => nondet(),
        b"" => {
            println!("hostile: empty stdin (expected a command word)");
            exit(2);
        }
        other => {
            println!(
                "hostile: unknown command `{}`",
                String::from_utf8_lossy(other)
            );
            exit(2);
        }
    }
}

/// Splits stdin into the command word and its raw argument.
fn split_command(input: &[u8]) -> (&[u8], &[u8]) {
    let start = input
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(input.len());
    let rest = &input[start..];
    let end = rest
        .iter()
        .position(u8::is_ascii_whitespace)
        .unwrap_or(rest.len());
    let (word, after) = rest.split_at(end);
    (word, after.get(1..).unwrap_or(&[]))
}

/// The argument as trimmed (lossy) text.
fn text(arg: &[u8]) -> String {
    String::from_utf8_lossy(arg).trim().to_owned()
}

/// The argument parsed as a number, or `default` when it is empty.
fn number<T: std::str::FromStr>(arg: &[u8], default: T) -> T {
    let s = text(arg);
    if s.is_empty() {
        return default;
    }
    s.parse().unwrap_or_else(|_| {
        println!("hostile: bad number `{s}`");
        exit(2)
    })
}

/// Whitespace-separated paths from the argument, else the defaults.
fn paths(arg: &[u8], defaults: &[&str]) -> Vec<String> {
    let given: Vec<String> = text(arg).split_whitespace().map(str::to_owned).collect();
    if given.is_empty() {
        defaults.iter().map(|s| (*s).to_owned()).collect()
    } else {
        given
    }
}

fn spin_forever() -> ! {
    let mut i = 0u64;
    loop {
        i = black_box(i.wrapping_add(1));
    }
}

/// Fills `block` with a non-zero pattern (so every page is really written)
/// and returns a checksum the optimiser cannot drop.
fn touch(block: &mut [u8]) -> u64 {
    block.fill(0xA5);
    block.iter().step_by(PAGE).map(|&b| u64::from(b)).sum()
}

/// Writes to fd 1 without Rust's stdout buffer (which might need an allocation).
fn raw_stdout_line(line: std::fmt::Arguments<'_>) {
    use std::os::fd::FromRawFd;
    // SAFETY: fd 1 is stdout for the whole run; ManuallyDrop never closes it.
    let mut out = std::mem::ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(1) });
    let _ = out.write_fmt(format_args!("{line}\n"));
}

fn membomb() -> ! {
    let mut blocks: Vec<Vec<u8>> = Vec::new();
    loop {
        let mut block: Vec<u8> = Vec::new();
        if block.try_reserve_exact(MIB).is_err() || blocks.try_reserve(1).is_err() {
            let _ = io::stdout().flush();
            raw_stdout_line(format_args!(
                "membomb: allocation refused after {} MiB",
                blocks.len()
            ));
            std::process::abort();
        }
        block.resize(MIB, 0);
        black_box(touch(&mut block));
        blocks.push(black_box(block));
        if blocks.len().is_multiple_of(64) {
            eprintln!("membomb: {} MiB", blocks.len());
        }
    }
}

fn alloc(mib: usize) {
    let mut block: Vec<u8> = Vec::new();
    let reserved = mib
        .checked_mul(MIB)
        .is_some_and(|bytes| block.try_reserve_exact(bytes).is_ok());
    if !reserved {
        println!("alloc: could not allocate {mib} MiB");
        exit(1);
    }
    block.resize(mib * MIB, 0);
    let sum = touch(&mut block);
    eprintln!("alloc: touched {mib} MiB (checksum {sum})");
    println!("True");
}

static mut RECURSE_LIMIT: u64 = u64::MAX;
static mut RECURSE_SINK: u64 = 0;

/// Non-tail recursion whose frames live only on the wasm call stack: no
/// address-taken locals (so no linear-memory shadow-stack frame), and the
/// volatile accesses keep LLVM from turning it into a loop.
#[inline(never)]
fn recurse(depth: u64) -> u64 {
    // SAFETY: single-threaded; volatile accesses through raw pointers to plain statics.
    if depth == unsafe { (&raw const RECURSE_LIMIT).read_volatile() } {
        return depth;
    }
    let below = recurse(depth + 1);
    // SAFETY: as above.
    unsafe { (&raw mut RECURSE_SINK).write_volatile(below) };
    below ^ depth
}

/// Non-tail recursion with a 4 KiB linear-memory frame per call: overflows
/// Rust's 1 MiB shadow stack (an out-of-bounds memory trap) long before the
/// wasm call stack.
#[inline(never)]
fn recurse_shadow(depth: u64) -> u64 {
    let frame = black_box([depth as u8; 4096]);
    if black_box(depth) == u64::MAX {
        return 0;
    }
    let below = recurse_shadow(black_box(depth + 1));
    black_box(below.wrapping_add(u64::from(frame[(depth % 4096) as usize])))
}

fn flood_raw() -> ! {
    let mut block = vec![b'x'; 64 * 1024];
    if let Some(last) = block.last_mut() {
        *last = b'\n';
    }
    let mut out = io::stdout().lock();
    let mut written: u64 = 0;
    loop {
        if let Err(e) = out.write_all(&block).and_then(|()| out.flush()) {
            eprintln!("flood-raw: stdout failed after {written} bytes: {e}");
            exit(0);
        }
        written += block.len() as u64;
    }
}

fn list_dir(path: &str) -> io::Result<Vec<String>> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(path)? {
        names.push(entry?.file_name().to_string_lossy().into_owned());
    }
    names.sort();
    Ok(names)
}

fn report(what: &str, result: io::Result<()>) {
    match result {
        Ok(()) => println!("{what}: ok"),
        Err(e) => println!("{what}: err {e}"),
    }
}

fn write_item() {
    use std::fs::{self, File, OpenOptions};
    report(
        "create /item/new.txt",
        File::create("/item/new.txt").and_then(|mut f| f.write_all(b"pwned")),
    );
    report(
        "write /item/instance.json",
        OpenOptions::new()
            .write(true)
            .open("/item/instance.json")
            .and_then(|mut f| f.write_all(b"pwned")),
    );
    report(
        "append /item/instance.json",
        OpenOptions::new()
            .append(true)
            .open("/item/instance.json")
            .and_then(|mut f| f.write_all(b"pwned")),
    );
    report(
        "truncate /item/instance.json",
        File::create("/item/instance.json").map(drop),
    );
    report(
        "rename /item/instance.json -> /item/moved.json",
        fs::rename("/item/instance.json", "/item/moved.json"),
    );
    report(
        "hard-link /item/instance.json -> /item/link.json",
        fs::hard_link("/item/instance.json", "/item/link.json"),
    );
    report(
        "remove /item/instance.json",
        fs::remove_file("/item/instance.json"),
    );
    report("mkdir /item/newdir", fs::create_dir("/item/newdir"));
    report("rmdir /item", fs::remove_dir("/item"));
    report(
        "create /tmp/verigate-hostile.txt",
        File::create("/tmp/verigate-hostile.txt").map(drop),
    );
    report(
        "create verigate-hostile.txt",
        File::create("verigate-hostile.txt").map(drop),
    );
}

fn probe_network() {
    use std::net::{TcpListener, TcpStream, UdpSocket};
    use std::os::fd::FromRawFd;
    report(
        "tcp connect 127.0.0.1:80",
        TcpStream::connect("127.0.0.1:80").map(drop),
    );
    report("udp bind 0.0.0.0:0", UdpSocket::bind("0.0.0.0:0").map(drop));
    report(
        "tcp bind 127.0.0.1:0",
        TcpListener::bind("127.0.0.1:0").map(drop),
    );
    for fd in 3..=9 {
        // SAFETY: ManuallyDrop never closes the fd; accept on a non-socket just fails.
        let listener = std::mem::ManuallyDrop::new(unsafe { TcpListener::from_raw_fd(fd) });
        report(&format!("accept fd {fd}"), listener.accept().map(drop));
    }
}

mod wasi {
    //! The few raw preview-1 imports std does not expose (same signatures as std's own).
    #[link(wasm_import_module = "wasi_snapshot_preview1")]
    unsafe extern "C" {
        pub fn fd_fdstat_get(fd: i32, stat: i32) -> i32;
        pub fn fd_prestat_get(fd: i32, prestat: i32) -> i32;
        pub fn fd_prestat_dir_name(fd: i32, path: i32, len: i32) -> i32;
        pub fn random_get(buf: i32, len: i32) -> i32;
        pub fn clock_time_get(id: i32, precision: i64, time: i32) -> i32;
    }
}

fn probe_fds() {
    for fd in 0..64 {
        let mut stat = [0u64; 3]; // filetype u8 @0, flags u16 @2, rights @8, inheriting @16
        // SAFETY: `stat` is 24 bytes, 8-aligned, as `fdstat` requires.
        let errno = unsafe { wasi::fd_fdstat_get(fd, stat.as_mut_ptr() as i32) };
        if errno != 0 {
            continue;
        }
        let bytes = stat[0].to_le_bytes();
        let mut line = format!(
            "fd {fd}: filetype={} flags={:#x} rights={:#x} inheriting={:#x}",
            bytes[0],
            u16::from_le_bytes([bytes[2], bytes[3]]),
            stat[1],
            stat[2]
        );
        let mut prestat = [0u32; 2]; // tag u8 @0, name length u32 @4
        // SAFETY: `prestat` is 8 bytes, 4-aligned.
        if unsafe { wasi::fd_prestat_get(fd, prestat.as_mut_ptr() as i32) } == 0 {
            let mut name = vec![0u8; prestat[1].min(4096) as usize];
            // SAFETY: `name` has exactly the length passed.
            let errno = unsafe {
                wasi::fd_prestat_dir_name(fd, name.as_mut_ptr() as i32, name.len() as i32)
            };
            let _ = write!(
                line,
                " preopen={:?} (errno {errno})",
                String::from_utf8_lossy(&name)
            );
        }
        println!("{line}");
    }
    println!("probe-fds: done");
}

fn nondet() {
    let system_time = match SystemTime::now().duration_since(UNIX_EPOCH) {
        Ok(d) => d.as_nanos().to_string(),
        Err(e) => format!("\"before epoch by {:?}\"", e.duration()),
    };
    let start = Instant::now();
    let mut acc = 0u64;
    for i in 0..5_000_000u64 {
        acc = black_box(acc.wrapping_add(i));
    }
    black_box(acc);
    let instant_elapsed = start.elapsed().as_nanos();

    let mut random = [0u8; 16];
    // SAFETY: `random` is 16 writable bytes.
    let errno = unsafe { wasi::random_get(random.as_mut_ptr() as i32, 16) };
    let random_get = if errno == 0 {
        format!("\"{}\"", hex(&random))
    } else {
        format!("\"errno {errno}\"")
    };

    // Two fresh RandomStates hashing the same value: 16 bytes of seed-derived output.
    let hashes: Vec<String> = (0..2)
        .map(|_| format!("\"{:016x}\"", RandomState::new().hash_one("verigate")))
        .collect();
    let map: HashMap<u32, ()> = (0..20).map(|k| (k, ())).collect();
    let order: Vec<String> = map.keys().map(u32::to_string).collect();

    let mut clocks = String::new();
    for (id, name) in [
        (0, "realtime"),
        (1, "monotonic"),
        (2, "process_cputime"),
        (3, "thread_cputime"),
    ] {
        let mut t = 0u64;
        // SAFETY: `t` is a writable, 8-aligned u64.
        let errno = unsafe { wasi::clock_time_get(id, 1, &mut t as *mut u64 as i32) };
        let value = if errno == 0 {
            t.to_string()
        } else {
            format!("\"errno {errno}\"")
        };
        let sep = if clocks.is_empty() { "" } else { "," };
        let _ = write!(clocks, "{sep}\"{name}\":{value}");
    }

    println!(
        "{{\"system_time_ns\":{system_time},\"instant_elapsed_ns\":{instant_elapsed},\
         \"random_get\":{random_get},\"random_state_hashes\":[{}],\
         \"hashmap_order\":[{}],\"clocks_ns\":{{{clocks}}}}}",
        hashes.join(","),
        order.join(",")
    );
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}
