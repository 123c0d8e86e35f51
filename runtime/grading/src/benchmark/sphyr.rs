//! SPhyR: the dataset card's figures from the verifier's details.

use super::Benchmark;
use crate::report::{DetailColumn, column};

/// SPhyR (`sphyr/<config>/<index>` rows).
pub struct Sphyr;

impl Benchmark for Sphyr {
    fn name(&self) -> &'static str {
        "sphyr"
    }

    /// Exact match, score, normalised score; and the strict shape check's
    /// score beside the faithful one.
    fn detail_columns(&self) -> &'static [DetailColumn] {
        const COLUMNS: &[DetailColumn] = &[
            column("exact", "EM", true),
            column("raw_score", "Score", true),
            column("normalized_score", "Norm.", true),
            column("strict.score", "Strict", true),
        ];
        COLUMNS
    }
}
