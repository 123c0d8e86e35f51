//! Argument parsing and dispatch. Exit status: 0 passed, 1 not passed,
//! 2 usage or host error.

mod run;

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use verigate::{Limits, Sandbox, SandboxOptions, default_cache_root};

/// Exit status for usage and host errors.
pub const EXIT_HOST_ERROR: u8 = 2;

#[derive(Parser)]
#[command(
    name = "verigate",
    version,
    about = "Run untrusted benchmark verifiers in a WebAssembly sandbox"
)]
struct Cli {
    /// More log output on stderr (-v info, -vv debug, -vvv trace).
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    verbose: u8,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run one verifier on one payload and print one JSON line.
    Run(run::RunArgs),
}

/// Limits flags shared by every command that runs verifiers.
#[derive(Args, Clone, Debug)]
pub struct LimitArgs {
    /// Fuel (instruction) budget.
    #[arg(long, default_value_t = Limits::DEFAULT_FUEL)]
    pub fuel: u64,
    /// Linear-memory cap in MiB.
    #[arg(long, default_value_t = Limits::DEFAULT_MEMORY_BYTES >> 20)]
    pub memory_mb: u64,
    /// Wall-clock deadline in milliseconds.
    #[arg(long, default_value_t = Limits::DEFAULT_TIMEOUT_MS)]
    pub timeout_ms: u64,
    /// Cap on captured stdout and on captured stderr, in KiB each.
    #[arg(long, default_value_t = Limits::DEFAULT_MAX_OUTPUT_BYTES >> 10)]
    pub max_output_kb: u64,
    /// Cap on the payload, in KiB.
    #[arg(long, default_value_t = Limits::DEFAULT_MAX_PAYLOAD_BYTES >> 10)]
    pub max_payload_kb: u64,
}

impl LimitArgs {
    /// The limits these flags describe.
    pub fn limits(&self) -> Limits {
        Limits {
            fuel: self.fuel,
            memory_bytes: self.memory_mb.saturating_mul(1 << 20),
            timeout_ms: self.timeout_ms,
            max_output_bytes: self.max_output_kb.saturating_mul(1 << 10),
            max_payload_bytes: self.max_payload_kb.saturating_mul(1 << 10),
        }
    }
}

/// Compiled-module cache flags.
#[derive(Args, Clone, Debug)]
pub struct CacheArgs {
    /// Compiled-module cache directory [default: $VERIGATE_CACHE_DIR, else
    /// $XDG_CACHE_HOME/verigate, else ~/.cache/verigate].
    #[arg(long)]
    pub cache_dir: Option<PathBuf>,
    /// Compile modules in memory only.
    #[arg(long, conflicts_with = "cache_dir")]
    pub no_cache: bool,
}

impl CacheArgs {
    /// A sandbox using this cache configuration.
    pub fn sandbox(&self) -> anyhow::Result<Sandbox> {
        let cache_root = if self.no_cache {
            None
        } else {
            self.cache_dir.clone().or_else(default_cache_root)
        };
        let options = SandboxOptions {
            cache_root,
            ..SandboxOptions::default()
        };
        Sandbox::new(&options).map_err(|e| anyhow::anyhow!("cannot create the sandbox: {e:#}"))
    }
}

fn init_logging(verbose: u8) {
    let level = match verbose {
        0 => "warn",
        1 => "info",
        2 => "debug",
        _ => "trace",
    };
    let filter = tracing_subscriber::EnvFilter::try_from_env("VERIGATE_LOG")
        // wasmtime-wasi logs guest misuse at `warn`; a hostile guest must not be
        // able to flood the host's log, so those stay quiet unless asked for.
        .unwrap_or_else(|_| {
            tracing_subscriber::EnvFilter::new(format!("{level},wasmtime_wasi=error"))
        });
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .init();
}

/// Parses arguments, runs the command and maps its result to an exit status.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    init_logging(cli.verbose);
    let result = match cli.command {
        Command::Run(args) => run::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("verigate: error: {err:#}");
            ExitCode::from(EXIT_HOST_ERROR)
        }
    }
}
