//! ComBench's response format and scoring rules: section and `<construct>`
//! extraction, proof-judge output parsing and the verifier-gated score.

pub mod extract;
pub mod score;

pub use extract::{ExtractError, Extraction, extract_analysis, extract_construction};
pub use score::{ProofScore, gated_score, parse_judge_output};

use super::Benchmark;

/// ComBench: proofs scored by a judge (0, 1, 6 or 7 points), constructions
/// by verifiers, combined by the verifier-gated rule.
pub struct Combench;

impl Benchmark for Combench {
    fn name(&self) -> &'static str {
        "combench"
    }

    fn judges_proofs(&self) -> bool {
        true
    }
}
