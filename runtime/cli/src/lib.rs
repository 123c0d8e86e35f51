//! The `verigate` command-line tool, and what only it needs: argument
//! parsing, logging and progress ([`commands`]), the text and Markdown
//! tables ([`render`]), `verigate bench` ([`bench`]), `registry build` and
//! `verify --rebuild`, which run cargo ([`build`]), the dataset importers
//! ([`import`]) and the Python wrapper, which runs wasmtime-wizer ([`python`]).
//!
//! The engine itself is in the libraries: `verigate-contract` (the guest
//! contract), `verigate-sandbox`, `verigate-registry` and `verigate-grading`.

#![deny(missing_docs)]

pub mod bench;
pub mod build;
pub mod commands;
pub mod html;
pub mod import;
pub mod python;
pub mod render;
