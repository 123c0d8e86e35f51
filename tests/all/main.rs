//! verigate's integration tests, one module per area, in one test binary
//! (one link of wasmtime instead of one per area).

mod batch;
mod cli;
mod common;
mod grade;
mod hardening;
mod hostile;
mod operator;
mod python;
mod registry;
mod scbench;
mod sphyr;
mod tangram;
mod verifiers;
