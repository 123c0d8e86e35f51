//! SCBench's per-task table (the paper's Table 2): per-task accuracy = the sum of the
//! subtask scores over the task's subtask count, bucket subtotals and the overall figure
//! weighting every subtask equally, one column per run (a grade *sample*: name samples
//! after the model or run they come from).
//!
//! The paper's harness did not grade every subtask on its own: for some tasks it graded the
//! first k subtasks, and when their mean fell under a threshold it scored every later
//! subtask 0 without asking the model ("early fail"); Interlocking Parts grades one answer
//! as nine subtasks and stops at the first that scores 0. Published scores include these
//! rules, so the table applies them by default (faithful) and can be computed without them.
//! Results files always hold each subtask's own verdict.

use crate::benchmark::{Table, Tabulator};
use crate::grade::GradeRecord;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A paper bucket.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Bucket {
    Axiomatic,
    Constructive,
    Planning,
}

impl Bucket {
    fn subtotal(self) -> &'static str {
        match self {
            Bucket::Axiomatic => "Axiomatic subtotal",
            Bucket::Constructive => "Constructive subtotal",
            Bucket::Planning => "Planning subtotal",
        }
    }
}

/// How the paper's harness graded a task's subtasks (SCBench `LLMBenchCore` runner).
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
enum Harness {
    /// Every subtask on its own.
    Independent,
    /// Subtasks `0..k` first; if their mean is under `threshold`, later subtasks score 0.
    EarlyFail { k: u32, threshold: f64 },
    /// One answer graded as every subtask in order; after the first score ≤ 0, the rest are 0.
    StopAtZero,
}

/// One SCBench task as the paper tabulates it (a `[[task]]` of
/// `benchmarks/scbench.toml`).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Task {
    number: u32,
    name: String,
    bucket: Bucket,
    subtasks: u32,
    harness: Harness,
}

/// The task table: the tasks in the paper table's order.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Tasks {
    task: Vec<Task>,
}

impl Tasks {
    /// Parses `benchmarks/scbench.toml`; the error names the file, line and field.
    pub(super) fn parse(path: &std::path::Path, text: &str) -> Result<Tasks, String> {
        toml::from_str(text).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// The (task, subtask) of an SCBench item id `scbench/q<task>/<subtask>`.
fn task_and_subtask(id: &str) -> Option<(u32, u32)> {
    let rest = id.strip_prefix("scbench/q")?;
    let (task, subtask) = rest.split_once('/')?;
    Some((task.parse().ok()?, subtask.parse().ok()?))
}

/// A sample's name as shown: strings without quotes.
fn run_name(sample: &serde_json::Value) -> String {
    sample
        .as_str()
        .map_or_else(|| sample.to_string(), str::to_owned)
}

/// Subtask scores by run, task and subtask.
pub(super) struct Scores {
    tasks: Vec<Task>,
    runs: BTreeMap<String, BTreeMap<u32, BTreeMap<u32, f64>>>,
}

impl Scores {
    /// No scores yet, for the table of `tasks`.
    pub(super) fn new(tasks: Tasks) -> Self {
        Scores {
            tasks: tasks.task,
            runs: BTreeMap::new(),
        }
    }
}

impl Tabulator for Scores {
    fn add(&mut self, record: &GradeRecord) {
        if let Some((task, subtask)) = task_and_subtask(&record.id) {
            self.runs
                .entry(run_name(&record.sample))
                .or_default()
                .entry(task)
                .or_default()
                .insert(subtask, record.score);
        }
    }

    fn table(&self, harness_rules: bool) -> Option<Table> {
        let present: Vec<&Task> = (self.tasks.iter())
            .filter(|t| self.runs.values().any(|r| r.contains_key(&t.number)))
            .collect();
        if present.is_empty() {
            return None;
        }
        let runs: Vec<String> = self.runs.keys().cloned().collect();
        // Per task: per run, (sum of scores, subtasks graded, scores zeroed by a rule).
        let totals: Vec<Vec<(f64, u32, u32)>> = present
            .iter()
            .map(|t| {
                self.runs
                    .values()
                    .map(|run| {
                        run.get(&t.number)
                            .map_or((0.0, 0, 0), |s| task_total(t, s, harness_rules))
                    })
                    .collect()
            })
            .collect();
        let row = |name: String, number: Option<u32>, picked: &[usize]| {
            let subtasks: u32 = picked.iter().map(|&i| present[i].subtasks).sum();
            let column = |run: usize| {
                picked
                    .iter()
                    .fold((0.0, 0, 0), |(sum, graded, zeroed), &i| {
                        let (s, g, z) = totals[i][run];
                        (sum + s, graded + g, zeroed + z)
                    })
            };
            let cells: Vec<(f64, u32, u32)> = (0..runs.len()).map(column).collect();
            TaskRow {
                task: name,
                number,
                subtasks,
                graded: cells.iter().map(|c| c.1).collect(),
                zeroed_by_harness: cells.iter().map(|c| c.2).collect(),
                accuracy: cells.iter().map(|c| c.0 / f64::from(subtasks)).collect(),
            }
        };
        let mut rows = Vec::new();
        for bucket in [Bucket::Axiomatic, Bucket::Constructive, Bucket::Planning] {
            let picked: Vec<usize> = (0..present.len())
                .filter(|&i| present[i].bucket == bucket)
                .collect();
            if picked.is_empty() {
                continue;
            }
            for &i in &picked {
                let t = present[i];
                rows.push(row(t.name.clone(), Some(t.number), &[i]));
            }
            rows.push(row(bucket.subtotal().to_owned(), None, &picked));
        }
        let all: Vec<usize> = (0..present.len()).collect();
        rows.push(row("Overall".to_owned(), None, &all));
        Some(Table::Scbench(ScbenchTable {
            harness_rules,
            runs,
            rows,
        }))
    }
}

/// (sum of scores, subtasks graded, scores the harness rule zeroed) of one task in one run;
/// subtasks without a result count 0. A rule applies only where the results decide it: early
/// fail needs subtasks `0..k`, the stop at zero a zero before any missing subtask.
fn task_total(task: &Task, scores: &BTreeMap<u32, f64>, harness_rules: bool) -> (f64, u32, u32) {
    let graded = scores.len() as u32;
    // The first subtask the rule zeroes, if any.
    let cut = match (harness_rules, task.harness) {
        (true, Harness::EarlyFail { k, threshold }) if task.subtasks > 1 => {
            let first: Option<Vec<f64>> = (0..k).map(|s| scores.get(&s).copied()).collect();
            first
                .filter(|f| f.iter().sum::<f64>() / f64::from(k) < threshold)
                .map(|_| k)
        }
        (true, Harness::StopAtZero) => (0..task.subtasks)
            .map_while(|s| scores.get(&s).map(|&v| (s, v)))
            .find(|&(_, v)| v <= 0.0)
            .map(|(s, _)| s + 1),
        _ => None,
    };
    let cut = cut.unwrap_or(u32::MAX);
    scores
        .iter()
        .fold((0.0, graded, 0), |(sum, graded, zeroed), (&s, &v)| {
            if s >= cut {
                (sum, graded, zeroed + u32::from(v != 0.0))
            } else {
                (sum + v, graded, zeroed)
            }
        })
}

/// SCBench's Table 2 for the graded tasks.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScbenchTable {
    /// Whether the paper harness's early-fail rules were applied.
    pub harness_rules: bool,
    /// The runs (grade samples), one column each.
    pub runs: Vec<String>,
    /// Tasks in the paper's order, each bucket followed by its subtotal, then `Overall`.
    pub rows: Vec<TaskRow>,
}

/// One row of [`ScbenchTable`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TaskRow {
    /// The task's name in the paper, or a subtotal.
    pub task: String,
    /// The task number (`q<N>` in item ids); none for subtotals.
    pub number: Option<u32>,
    /// Subtasks (the paper's N): the denominator.
    pub subtasks: u32,
    /// Per run: subtasks with a result.
    pub graded: Vec<u32>,
    /// Per run: non-zero subtask scores set to 0 by the harness rules.
    pub zeroed_by_harness: Vec<u32>,
    /// Per run: the sum of subtask scores over `subtasks`, in [0, 1].
    pub accuracy: Vec<f64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scores(pairs: &[(u32, f64)]) -> BTreeMap<u32, f64> {
        pairs.iter().copied().collect()
    }

    /// The registry's task table.
    fn tasks() -> Tasks {
        let path = std::path::Path::new("registry/benchmarks/scbench.toml");
        let text = include_str!("../../../../../registry/benchmarks/scbench.toml");
        Tasks::parse(path, text).unwrap()
    }

    fn by_number(n: u32) -> Task {
        tasks().task.into_iter().find(|t| t.number == n).unwrap()
    }

    fn table(scores: &Scores, harness_rules: bool) -> ScbenchTable {
        match scores.table(harness_rules) {
            Some(Table::Scbench(table)) => table,
            None => panic!("no table"),
        }
    }

    #[test]
    fn the_table_has_the_papers_285_subtasks_in_three_buckets() {
        let tasks = tasks().task;
        let count = |b: Bucket| -> u32 {
            tasks
                .iter()
                .filter(|t| t.bucket == b)
                .map(|t| t.subtasks)
                .sum()
        };
        assert_eq!(
            (
                count(Bucket::Axiomatic),
                count(Bucket::Constructive),
                count(Bucket::Planning)
            ),
            (75, 171, 39),
            "Table 2's N column"
        );
    }

    #[test]
    fn early_fail_zeroes_later_subtasks_when_the_first_ones_fall_short() {
        let maze = by_number(7); // k = 1, threshold 0.5
        let s = scores(&[(0, 0.0), (1, 1.0), (2, 1.0)]);
        assert_eq!(task_total(&maze, &s, true), (0.0, 3, 2));
        assert_eq!(task_total(&maze, &s, false), (2.0, 3, 0));
        let s = scores(&[(0, 0.5), (1, 1.0)]);
        assert_eq!(
            task_total(&maze, &s, true),
            (1.5, 2, 0),
            "0.5 is not under 0.5"
        );
        // Q9: mean of the first three; 1 + 0 + 0 = 1/3 < 0.5.
        let s = scores(&[(0, 1.0), (1, 0.0), (2, 0.0), (3, 1.0), (5, 1.0)]);
        assert_eq!(task_total(&by_number(9), &s, true), (1.0, 5, 2));
        // Q3: threshold 0.1, over subtasks 0..3; without all three, the rule cannot decide.
        let s = scores(&[(0, 0.1), (1, 0.0), (2, 0.0), (3, 1.0)]);
        assert_eq!(task_total(&by_number(3), &s, true), (0.1, 4, 1));
        let s = scores(&[(0, 0.2), (3, 1.0)]);
        assert_eq!(task_total(&by_number(3), &s, true), (1.2, 2, 0));
        // VisGeomBench tasks are graded independently.
        let s = scores(&[(0, 0.0), (1, 1.0)]);
        assert_eq!(task_total(&by_number(51), &s, true), (1.0, 2, 0));
    }

    #[test]
    fn interlocking_parts_stop_at_the_first_zero() {
        let s = scores(&[(0, 1.0), (1, 0.3), (2, 0.0), (3, 1.0), (4, 1.0)]);
        assert_eq!(task_total(&by_number(29), &s, true), (1.3, 5, 2));
        // A missing subtask before any zero: undecided, nothing is cut.
        let s = scores(&[(0, 1.0), (2, 0.0), (3, 1.0)]);
        assert_eq!(task_total(&by_number(29), &s, true), (2.0, 3, 0));
    }

    #[test]
    fn rows_follow_the_paper_with_subtotals_weighting_every_subtask_equally() {
        let mut scores = Scores::new(tasks());
        let mut add = |run: &str, task: u32, sub: u32, score: f64| {
            scores
                .runs
                .entry(run.to_owned())
                .or_default()
                .entry(task)
                .or_default()
                .insert(sub, score);
        };
        add("m1", 53, 0, 1.0); // 1/13
        add("m1", 51, 0, 1.0); // 1/10
        add("m1", 11, 0, 0.25); // early fail zeroes the next one
        add("m1", 11, 1, 1.0);
        add("m2", 51, 1, 1.0);
        let t = table(&scores, true);
        let names: Vec<&str> = t.rows.iter().map(|r| r.task.as_str()).collect();
        assert_eq!(
            names,
            [
                "Topology Enumeration",
                "Classify Behaviour",
                "Axiomatic subtotal",
                "Hyper-Snake",
                "Planning subtotal",
                "Overall"
            ]
        );
        assert_eq!(t.runs, ["m1", "m2"]);
        assert_eq!(t.rows[2].subtasks, 23);
        assert_eq!(t.rows[2].accuracy, [2.0 / 23.0, 1.0 / 23.0]);
        assert_eq!(t.rows[3].accuracy, [0.25 / 13.0, 0.0]);
        assert_eq!(t.rows[3].zeroed_by_harness, [1, 0]);
        assert_eq!(t.rows[5].subtasks, 36);
        assert_eq!(t.rows[5].accuracy[0], 2.25 / 36.0);
        let t = table(&scores, false);
        assert_eq!(t.rows[3].accuracy, [1.25 / 13.0, 0.0]);
    }
}
