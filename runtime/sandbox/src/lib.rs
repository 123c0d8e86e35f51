//! verigate's sandbox: runs untrusted verifier modules — WASI preview 1
//! commands — under wasmtime, with fuel, memory, output and wall-clock
//! limits, in a deterministic world with no files but a read-only item
//! directory, and classifies every run into exactly one outcome.
//!
//! ```no_run
//! use verigate_sandbox::{Request, Sandbox, SandboxOptions};
//!
//! let sandbox = Sandbox::new(&SandboxOptions::default())?;
//! let verifier = sandbox.load(&std::fs::read("verifier.wasm")?)?;
//! let report = sandbox.run(&verifier, &Request::new(*b"[3, 4, 5]"))?;
//! println!("{} {}", report.outcome, report.score);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Compiling is bounded too, since Cranelift runs before any fuel is
//! counted: every module is checked against static [`ModuleLimits`] before it
//! is compiled, and [`Compiler::Child`] compiles in a child process under
//! CPU-time and address-space limits (see [`compile`]). Registry modules are
//! loaded with [`Sandbox::load_file_expected`], which hashes the bytes it
//! compiles against the digest the lock names.
//!
//! Many runs: [`run_batch`] grades a stream of [`Job`]s on a pool of worker
//! threads and returns the reports in input order.

#![deny(missing_docs)]

pub mod batch;
pub mod cache;
pub mod classify;
pub mod compile;
pub mod engine;
mod error;
pub mod limits;
pub mod module;
mod report;
mod run;
mod store;
pub mod wasi;

pub use batch::{Job, run_batch};
pub use cache::{CacheStatus, default_cache_root};
pub use compile::{ChildCompiler, Compiler, ModuleLimits, ModuleShape};
pub use engine::EngineOptions;
pub use error::{Error, ModuleError};
pub use limits::{LimitOverrides, Limits};
pub use module::{Script, Verifier, read_module_file, sha256_hex};
pub use report::RunReport;
pub use run::{Request, Sandbox, SandboxOptions};
pub use store::HostState;
pub use verigate_contract::{Outcome, Protocol};

/// This crate's version, recorded in every result as `verigate_version`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
