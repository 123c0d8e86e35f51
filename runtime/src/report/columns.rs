//! Benchmark-specific columns read from verifier `details`: the figures a
//! benchmark's paper tabulates beyond the generic score metrics.

use serde_json::Value;

/// One column: a number or boolean in each record's `details`, averaged
/// over the samples that carry it.
#[derive(Debug, PartialEq, Eq)]
pub struct DetailColumn {
    /// Where the value sits in `details`, `.`-separated for nested objects.
    pub key: &'static str,
    /// The column's header, as the paper names it.
    pub header: &'static str,
    /// Shown as a percentage (rates and booleans) rather than as is.
    pub percent: bool,
}

const fn column(key: &'static str, header: &'static str, percent: bool) -> DetailColumn {
    DetailColumn {
        key,
        header,
        percent,
    }
}

/// TangramPuzzle, Task 2 (paper's Table 2).
const TANGRAM: &[DetailColumn] = &[
    column("tse", "TSE", true),
    column("rge", "RGE", true),
    column("pe", "PE", true),
    column("vpr", "VPR", true),
    column("iou", "IoU", true),
    column("hausdorff", "Hausdorff", false),
    column("success", "Success", true),
];

/// SPhyR (dataset card): exact match, score, normalised score; and the
/// strict shape check's score beside the faithful one.
const SPHYR: &[DetailColumn] = &[
    column("exact", "EM", true),
    column("raw_score", "Score", true),
    column("normalized_score", "Norm.", true),
    column("strict.score", "Strict", true),
];

/// SCBench: where a task's original grader has a documented quirk, the verifier scores
/// faithfully and reports the corrected judgement beside it.
const SCBENCH: &[DetailColumn] = &[column("corrected.score", "Corrected", true)];

/// The detail columns of `benchmark` (none for most).
pub fn for_benchmark(benchmark: &str) -> &'static [DetailColumn] {
    match benchmark {
        "tangram" => TANGRAM,
        "sphyr" => SPHYR,
        "scbench" => SCBENCH,
        _ => &[],
    }
}

impl DetailColumn {
    /// The column's value in `details`, booleans as 0 or 1.
    pub fn read(&self, details: &Value) -> Option<f64> {
        let value = self
            .key
            .split('.')
            .try_fold(details, |at, part| at.get(part))?;
        match value {
            Value::Bool(b) => Some(f64::from(u8::from(*b))),
            other => other.as_f64(),
        }
    }
}
