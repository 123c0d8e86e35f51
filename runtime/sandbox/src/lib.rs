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
//! Many runs: [`run_batch`] grades a stream of [`Job`]s on a pool of worker
//! threads and returns the reports in input order.

#![deny(missing_docs)]

pub mod batch;
pub mod cache;
pub mod classify;
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
pub use engine::EngineOptions;
pub use error::{Error, ModuleError};
pub use limits::Limits;
pub use module::{Verifier, sha256_hex};
pub use report::RunReport;
pub use run::{Request, Sandbox, SandboxOptions};
pub use store::HostState;
pub use verigate_contract::{Outcome, Protocol};

/// This crate's version, recorded in every result as `verigate_version`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
