//! verigate runs untrusted benchmark verifiers — WASI preview 1 command modules —
//! in a wasmtime sandbox and turns what they print into verdicts.
//!
//! ```no_run
//! use verigate::{Limits, RunRequest, Sandbox, SandboxOptions};
//!
//! let sandbox = Sandbox::new(&SandboxOptions::default())?;
//! let verifier = sandbox.load(&std::fs::read("verifier.wasm")?)?;
//! let report = sandbox.run(&verifier, &RunRequest {
//!     payload: b"[3, 4, 5]",
//!     item_dir: None,
//!     limits: Limits::default(),
//!     protocol: None,
//!     row: None,
//! })?;
//! println!("{} {}", report.outcome, report.score);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod batch;
pub mod bench;
pub mod cache;
pub mod combench;
pub mod engine;
pub mod grade;
pub mod jsonl;
pub mod limits;
pub mod outcome;
pub mod protocol;
pub mod python;
pub mod registry;
pub mod report;
pub mod sandbox;
pub mod verifier;
pub mod wasi;

pub use batch::{Job, run_batch};
pub use cache::{CacheStatus, default_cache_root};
pub use engine::EngineOptions;
pub use limits::Limits;
pub use outcome::{Outcome, RunReport};
pub use protocol::Protocol;
pub use sandbox::{ModuleError, RunRequest, Sandbox, SandboxOptions};
pub use verifier::Verifier;

/// This crate's version, recorded in every result.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
