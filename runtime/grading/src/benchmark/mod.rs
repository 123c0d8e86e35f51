//! Benchmarks: each one's rules in one module — how a response becomes the
//! verifier's payload, which record fields it fills, which verifier details
//! its tables show and which tables of its own it has.
//!
//! Adding a benchmark is one module here implementing [`Benchmark`] (listed
//! in [`BENCHMARKS`]) plus its registry items; contributed verifiers whose
//! benchmark has no module are graded by [`Generic`] rules.

pub mod combench;
mod generic;
pub mod scbench;
mod sphyr;
mod tangram;

pub use generic::Generic;

use crate::grade::GradeRecord;
use crate::report::DetailColumn;
use combench::{ExtractError, extract_analysis, extract_construction};
use std::path::Path;
use verigate_registry::{Item, ItemKind, PayloadMode};

/// What a response's format yields before any verifier runs.
pub struct Extracted {
    /// Whether the proof part parses (and so is judged).
    pub proof: Result<(), ExtractError>,
    /// The verifier's stdin; `None` when the item has no verifier.
    pub payload: Option<Result<Vec<u8>, ExtractError>>,
}

/// One benchmark's rules.
pub trait Benchmark: Sync {
    /// The `metadata.benchmark` name of its items.
    fn name(&self) -> &'static str;

    /// Whether its responses carry proofs scored by a judge (the record's
    /// `proof`, `proof_status` and `gated` fields).
    fn judges_proofs(&self) -> bool {
        false
    }

    /// Splits a response into the verifier's payload and the proof part. By
    /// default the item's `payload` mode decides: the whole response, or
    /// its `<construct>` block; an analysis item has no payload.
    fn extract(&self, item: &Item, response: String) -> Extracted {
        match (item.metadata.kind, item.payload) {
            (ItemKind::Analysis, _) => Extracted {
                proof: extract_analysis(&response).map(drop),
                payload: None,
            },
            (ItemKind::Construction, PayloadMode::Construct) => {
                let parts = extract_construction(&response);
                Extracted {
                    proof: parts.proof.map(drop),
                    payload: Some(parts.payload.map(String::into_bytes)),
                }
            }
            (ItemKind::Construction, PayloadMode::Raw) => Extracted {
                proof: Ok(()),
                payload: Some(Ok(response.into_bytes())),
            },
        }
    }

    /// The verifier details its tables average, as its paper names them.
    fn detail_columns(&self) -> &'static [DetailColumn] {
        &[]
    }

    /// A table of its own, built from its records, given the benchmark's
    /// registry data file (`benchmarks/<name>.toml`) when there is one; the
    /// error names the file.
    fn tabulator(
        &self,
        _data: Option<(&Path, &str)>,
    ) -> Result<Option<Box<dyn Tabulator>>, String> {
        Ok(None)
    }
}

/// Accumulates a benchmark's records into its own table.
pub trait Tabulator {
    /// Takes one record of the benchmark.
    fn add(&mut self, record: &GradeRecord);
    /// The table (with the paper harness's rules when `harness_rules` is
    /// set); `None` when nothing was graded that it tabulates.
    fn table(&self, harness_rules: bool) -> Option<Table>;
}

/// A benchmark's own table.
#[derive(Clone, Debug, PartialEq)]
pub enum Table {
    /// SCBench's per-task table (the paper's Table 2).
    Scbench(scbench::ScbenchTable),
}

/// Every benchmark with rules of its own.
pub const BENCHMARKS: [&dyn Benchmark; 4] = [
    &combench::Combench,
    &scbench::Scbench,
    &sphyr::Sphyr,
    &tangram::Tangram,
];

/// The rules of `name`: its module, else the generic rules.
pub fn benchmark(name: &str) -> &'static dyn Benchmark {
    BENCHMARKS
        .into_iter()
        .find(|b| b.name() == name)
        .unwrap_or(&Generic)
}
