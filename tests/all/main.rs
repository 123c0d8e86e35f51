//! verigate's integration tests, one module per area, in one test binary
//! (one link of wasmtime instead of one per area).

mod batch;
mod cache;
mod cli;
mod common;
mod first_verifier;
mod grade;
mod hardening;
mod hostile;
mod operator;
mod python;
mod registry;
mod scbench;
mod shard;
mod sphyr;
mod tangram;
mod verifiers;
