//! verigate's grading library: model responses in, result records and
//! benchmark tables out.
//!
//! - [`grade`](mod@grade): streams a responses file through the registry's verifiers on
//!   a worker pool and yields one [`GradeRecord`](grade::GradeRecord) per
//!   line, in input order, resumable;
//! - [`benchmark`]: each benchmark's own rules (extraction, record fields,
//!   table columns, special tables), one module each;
//! - [`report`]: the tables recomputed from records;
//! - [`files`]: inputs (stdin, gzip) and outputs (never an input, one writer).
//!
//! ```no_run
//! use verigate_grading::grade::{Grader, Judgments};
//! use verigate_registry::Registry;
//! use verigate_sandbox::{Sandbox, SandboxOptions};
//!
//! let registry = Registry::open("registry".as_ref())?;
//! let sandbox = Sandbox::new(&SandboxOptions::default())?;
//! let mut judgments = Judgments::default();
//! let mut grader = Grader { registry: &registry, sandbox: &sandbox, judgments: &mut judgments, workers: 2 };
//! let input = std::io::BufReader::new(std::fs::File::open("responses.jsonl")?);
//! grader.grade(input, [], |record, _| println!("{}", record.score), |bad| eprintln!("{}", bad.message))?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

pub mod benchmark;
pub mod files;
pub mod grade;
pub mod jsonl;
pub mod report;
