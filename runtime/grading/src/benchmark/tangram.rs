//! TangramPuzzle: Task 1's (Table 1: Acc, Invalid) and Task 2's metrics
//! (Table 2) from the verifiers' details.

use super::Benchmark;
use crate::report::{DetailColumn, column};

/// TangramPuzzle (`tangram/*` items).
pub struct Tangram;

impl Benchmark for Tangram {
    fn name(&self) -> &'static str {
        "tangram"
    }

    fn detail_columns(&self) -> &'static [DetailColumn] {
        const COLUMNS: &[DetailColumn] = &[
            column("tse", "TSE", true),
            column("rge", "RGE", true),
            column("pe", "PE", true),
            column("vpr", "VPR", true),
            column("iou", "IoU", true),
            column("hausdorff", "Hausdorff", false),
            column("success", "Success", true),
            column("correct", "Acc", true),
            column("invalid", "Invalid", true),
        ];
        COLUMNS
    }
}
