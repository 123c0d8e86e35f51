//! ComBench's response format and scoring rules: section and `<construct>`
//! extraction, proof-judge output parsing and the verifier-gated score.

pub mod extract;
pub mod score;

pub use extract::{ExtractError, Extraction, extract_analysis, extract_construction};
pub use score::{ProofScore, gated_score, parse_judge_output};
