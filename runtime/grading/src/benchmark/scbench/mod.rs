//! SCBench: the corrected judgement beside the faithful score, and the
//! paper's per-task table (Table 2), whose tasks, buckets and harness rules
//! are registry data (`benchmarks/scbench.toml`).

mod table;

pub use table::{ScbenchTable, TaskRow};

use super::{Benchmark, Tabulator};
use crate::report::{DetailColumn, column};
use std::path::Path;

/// SCBench (`scbench/q<task>/<subtask>` items).
pub struct Scbench;

impl Benchmark for Scbench {
    fn name(&self) -> &'static str {
        "scbench"
    }

    /// Where a task's original grader has a documented quirk, the verifier
    /// scores faithfully and reports the corrected judgement beside it.
    fn detail_columns(&self) -> &'static [DetailColumn] {
        const COLUMNS: &[DetailColumn] = &[column("corrected.score", "Corrected", true)];
        COLUMNS
    }

    fn tabulator(&self, data: Option<(&Path, &str)>) -> Result<Option<Box<dyn Tabulator>>, String> {
        let Some((path, text)) = data else {
            return Ok(None);
        };
        let tasks = table::Tasks::parse(path, text)?;
        Ok(Some(Box::new(table::Scores::new(tasks))))
    }
}
