//! Argument parsing and dispatch. Exit status: 0 passed, 1 not passed,
//! 2 usage or host error.

mod bench;
mod build_guest;
mod cache;
mod grade;
mod merge;
mod new;
mod python;
mod registry;
mod report;
mod reproduce;
mod run;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use verigate_sandbox::compile::{ChildCompiler, Compiler};
use verigate_sandbox::{LimitOverrides, Limits, Sandbox, SandboxOptions, default_cache_root};

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
    /// Grade model responses (JSONL) against the registry; the main job.
    Grade(grade::GradeArgs),
    /// Concatenate the part files of `grade --shard` runs into one results file, after checking them.
    Merge(merge::MergeArgs),
    /// Recompute the benchmark tables from a results file written by `grade`.
    Report(report::ReportArgs),
    /// Re-grade a results file's responses under its registry and list every line that differs.
    Reproduce(reproduce::ReproduceArgs),
    /// Run one verifier (a .wasm file or a registry item id) on one payload and print one JSON line.
    Run(run::RunArgs),
    /// Build, verify, extend and inspect the frozen verifier registry.
    Registry(registry::RegistryCli),
    /// Measure sandbox overhead, compile and cache times, and batch throughput.
    Bench(bench::BenchArgs),
    /// Turn a Python verifier script into a verifier module (CPython, pre-initialised).
    WrapPython(python::WrapArgs),
    /// Make a new verifier outside the workspace: a Rust crate (or Python script),
    /// its registry item, instance files and witnesses.
    New(new::NewArgs),
    /// Build a verifier crate into a wasm32-wasip1 module (guest profile); prints its path.
    Build(build_guest::BuildArgs),
    /// Show the size of the compiled-module cache, or clean it.
    Cache(cache::CacheCli),
    /// (internal) Compile one module for the sandbox, as a bounded child process.
    #[command(name = COMPILE_COMMAND, hide = true)]
    Compile {
        /// The module's bytes.
        input: PathBuf,
        /// Where to write the compiled module.
        output: PathBuf,
        /// The engine the parent expects.
        engine: String,
    },
}

/// The hidden subcommand the sandbox runs to compile a module out of process.
const COMPILE_COMMAND: &str = "__compile";

/// Limit flags; each one given overrides the item's (or the default) limit.
#[derive(Args, Clone, Debug)]
pub struct LimitArgs {
    /// Fuel (instruction) budget [default: 5000000000].
    #[arg(long)]
    pub fuel: Option<u64>,
    /// Linear-memory cap in MiB [default: 256].
    #[arg(long)]
    pub memory_mb: Option<u64>,
    /// Wall-clock deadline in milliseconds [default: 10000].
    #[arg(long)]
    pub timeout_ms: Option<u64>,
    /// Cap on captured stdout and on captured stderr, in KiB each [default: 64].
    #[arg(long)]
    pub max_output_kb: Option<u64>,
    /// Cap on the payload, in KiB [default: 4096].
    #[arg(long)]
    pub max_payload_kb: Option<u64>,
}

impl LimitArgs {
    /// `base` with the limits given on the command line applied.
    pub fn apply(&self, base: Limits) -> Limits {
        LimitOverrides {
            fuel: self.fuel,
            memory_mb: self.memory_mb,
            timeout_ms: self.timeout_ms,
            max_output_kb: self.max_output_kb,
            max_payload_kb: self.max_payload_kb,
        }
        .apply(base)
    }
}

/// Compiled-module cache flags.
#[derive(Args, Clone, Debug)]
pub struct CacheArgs {
    /// Compiled-module cache directory [default: $VERIGATE_CACHE_DIR, else
    /// $XDG_CACHE_HOME/verigate, else ~/.cache/verigate].
    #[arg(long, global = true)]
    pub cache_dir: Option<PathBuf>,
    /// Compile modules in memory only.
    #[arg(long, global = true, conflicts_with = "cache_dir")]
    pub no_cache: bool,
}

impl CacheArgs {
    /// The cache directory in use; `None` without a cache.
    pub fn root(&self) -> Option<PathBuf> {
        if self.no_cache {
            None
        } else {
            self.cache_dir.clone().or_else(default_cache_root)
        }
    }

    /// A sandbox using this cache configuration; modules are compiled in a
    /// child `verigate __compile` under CPU-time and address-space limits.
    pub fn sandbox(&self) -> anyhow::Result<Sandbox> {
        let compiler = match std::env::current_exe() {
            Ok(exe) => Compiler::Child(ChildCompiler::new(exe, [COMPILE_COMMAND])),
            Err(e) => {
                tracing::warn!("compiling in this process (cannot find this executable: {e})");
                Compiler::InProcess
            }
        };
        let options = SandboxOptions {
            cache_root: self.root(),
            compiler,
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
        .with_ansi(std::io::stderr().is_terminal())
        .init();
}

/// `command` and its subcommands with every flag allowed more than once,
/// the last one winning (a script may add a flag to a default command line).
fn last_flag_wins(command: clap::Command) -> clap::Command {
    command
        .args_override_self(true)
        .mut_subcommands(last_flag_wins)
}

/// Parses arguments, runs the command and maps its result to an exit status.
pub fn main() -> ExitCode {
    // A closed stdout (`verigate … | head`) ends the process quietly, as it
    // ends any Unix filter, instead of a panic in `println!`.
    // SAFETY: setting a signal's disposition to its default at start-up,
    // before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let matches = last_flag_wins(Cli::command()).get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    init_logging(cli.verbose);
    let result = match cli.command {
        Command::Grade(args) => grade::run(&args),
        Command::Merge(args) => merge::run(&args),
        Command::Report(args) => report::run(&args),
        Command::Reproduce(args) => reproduce::run(&args),
        Command::Run(args) => run::run(&args),
        Command::Registry(args) => registry::run(&args),
        Command::Bench(args) => bench::bench(&args),
        Command::WrapPython(args) => python::wrap_python(&args),
        Command::New(args) => new::run(&args),
        Command::Build(args) => build_guest::run(&args),
        Command::Cache(args) => cache::run(&args),
        Command::Compile {
            input,
            output,
            engine,
        } => {
            return match verigate_sandbox::compile::serve_child(&input, &output, &engine) {
                Ok(()) => ExitCode::SUCCESS,
                Err(why) => {
                    eprintln!("{why}");
                    ExitCode::FAILURE
                }
            };
        }
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("verigate: error: {err:#}");
            ExitCode::from(EXIT_HOST_ERROR)
        }
    }
}
