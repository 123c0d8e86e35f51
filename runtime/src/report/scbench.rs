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

use super::GradeRecord;
use serde::Serialize;
use std::collections::BTreeMap;

/// A paper bucket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
#[derive(Clone, Copy, Debug, PartialEq)]
enum Harness {
    /// Every subtask on its own.
    Independent,
    /// Subtasks `0..k` first; if their mean is under `threshold`, later subtasks score 0.
    EarlyFail { k: u32, threshold: f64 },
    /// One answer graded as every subtask in order; after the first score ≤ 0, the rest are 0.
    StopAtZero,
}

/// One SCBench task as the paper tabulates it.
struct Task {
    number: u32,
    name: &'static str,
    bucket: Bucket,
    subtasks: u32,
    harness: Harness,
}

const fn task(number: u32, name: &'static str, bucket: Bucket, subtasks: u32) -> Task {
    Task {
        number,
        name,
        bucket,
        subtasks,
        harness: Harness::Independent,
    }
}

const fn early(mut t: Task, k: u32, threshold: f64) -> Task {
    t.harness = Harness::EarlyFail { k, threshold };
    t
}

use Bucket::{Axiomatic as A, Constructive as C, Planning as P};

/// The 22 tasks in Table 2's order, with the early-fail settings of the paper runs
/// (`earlyFailSubpassSampleCount`, `earlyFailThreshold`; the VisGeomBench tasks gained
/// `earlyFail` only after the paper runs).
const TASKS: [Task; 22] = [
    task(51, "Topology Enumeration", A, 10),
    task(52, "Enumerate Edges", A, 8),
    task(53, "Classify Behaviour", A, 13),
    task(54, "Half-Subdivision Neighbours", A, 17),
    task(57, "Two Segments", A, 27),
    early(task(2, "Lego Hemispherical Shell", C, 8), 3, 0.1),
    early(task(3, "CSG Union", C, 22), 3, 0.1),
    task(4, "Tetrahedra Shadow Proj.", C, 20),
    task(6, "Voxel Grid Projection", C, 6),
    task(8, "Polynomial Curve Fitting", C, 9),
    task(55, "Delaunay Triangulation", C, 25),
    early(task(9, "Hamiltonian Loop", C, 10), 3, 0.5),
    early(task(12, "Pipe Loop Fitting", C, 40), 1, 0.5),
    task(13, "Hide and Seek", C, 6),
    early(task(16, "Pack Rectangular Prisms", C, 9), 1, 0.5),
    Task {
        harness: Harness::StopAtZero,
        ..task(29, "Interlocking Parts", C, 9)
    },
    task(30, "Largest 3D-Printable Prime", C, 1),
    task(56, "Shikaku Rectangles", C, 6),
    early(task(7, "3D Maze", P, 6), 1, 0.5),
    early(task(11, "Hyper-Snake", P, 13), 1, 0.5),
    early(task(23, "Fluid Simulation", P, 11), 1, 0.5),
    early(task(28, "Terrain Levelling", P, 9), 1, 0.5),
];

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
#[derive(Default)]
pub(super) struct Scores {
    runs: BTreeMap<String, BTreeMap<u32, BTreeMap<u32, f64>>>,
}

impl Scores {
    /// Records an SCBench record's score; other ids are ignored.
    pub(super) fn add(&mut self, record: &GradeRecord) {
        if let Some((task, subtask)) = task_and_subtask(&record.id) {
            self.runs
                .entry(run_name(&record.sample))
                .or_default()
                .entry(task)
                .or_default()
                .insert(subtask, record.score);
        }
    }

    /// The table, with the paper harness's rules when `harness_rules` is set; `None`
    /// when no SCBench task was graded.
    pub(super) fn table(&self, harness_rules: bool) -> Option<ScbenchTable> {
        let present: Vec<&Task> = TASKS
            .iter()
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
                rows.push(row(t.name.to_owned(), Some(t.number), &[i]));
            }
            rows.push(row(bucket.subtotal().to_owned(), None, &picked));
        }
        let all: Vec<usize> = (0..present.len()).collect();
        rows.push(row("Overall".to_owned(), None, &all));
        Some(ScbenchTable {
            harness_rules,
            runs,
            rows,
        })
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

    fn by_number(n: u32) -> &'static Task {
        TASKS.iter().find(|t| t.number == n).unwrap()
    }

    #[test]
    fn the_table_has_the_papers_285_subtasks_in_three_buckets() {
        let count = |b: Bucket| -> u32 {
            TASKS
                .iter()
                .filter(|t| t.bucket == b)
                .map(|t| t.subtasks)
                .sum()
        };
        assert_eq!(
            (count(A), count(C), count(P)),
            (75, 171, 39),
            "Table 2's N column"
        );
    }

    #[test]
    fn early_fail_zeroes_later_subtasks_when_the_first_ones_fall_short() {
        let maze = by_number(7); // k = 1, threshold 0.5
        let s = scores(&[(0, 0.0), (1, 1.0), (2, 1.0)]);
        assert_eq!(task_total(maze, &s, true), (0.0, 3, 2));
        assert_eq!(task_total(maze, &s, false), (2.0, 3, 0));
        let s = scores(&[(0, 0.5), (1, 1.0)]);
        assert_eq!(
            task_total(maze, &s, true),
            (1.5, 2, 0),
            "0.5 is not under 0.5"
        );
        // Q9: mean of the first three; 1 + 0 + 0 = 1/3 < 0.5.
        let s = scores(&[(0, 1.0), (1, 0.0), (2, 0.0), (3, 1.0), (5, 1.0)]);
        assert_eq!(task_total(by_number(9), &s, true), (1.0, 5, 2));
        // Q3: threshold 0.1, over subtasks 0..3; without all three, the rule cannot decide.
        let s = scores(&[(0, 0.1), (1, 0.0), (2, 0.0), (3, 1.0)]);
        assert_eq!(task_total(by_number(3), &s, true), (0.1, 4, 1));
        let s = scores(&[(0, 0.2), (3, 1.0)]);
        assert_eq!(task_total(by_number(3), &s, true), (1.2, 2, 0));
        // VisGeomBench tasks are graded independently.
        let s = scores(&[(0, 0.0), (1, 1.0)]);
        assert_eq!(task_total(by_number(51), &s, true), (1.0, 2, 0));
    }

    #[test]
    fn interlocking_parts_stop_at_the_first_zero() {
        let s = scores(&[(0, 1.0), (1, 0.3), (2, 0.0), (3, 1.0), (4, 1.0)]);
        assert_eq!(task_total(by_number(29), &s, true), (1.3, 5, 2));
        // A missing subtask before any zero: undecided, nothing is cut.
        let s = scores(&[(0, 1.0), (2, 0.0), (3, 1.0)]);
        assert_eq!(task_total(by_number(29), &s, true), (2.0, 3, 0));
    }

    #[test]
    fn rows_follow_the_paper_with_subtotals_weighting_every_subtask_equally() {
        let mut table = Scores::default();
        let mut add = |run: &str, task: u32, sub: u32, score: f64| {
            table
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
        let t = table.table(true).unwrap();
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
        let t = table.table(false).unwrap();
        assert_eq!(t.rows[3].accuracy, [1.25 / 13.0, 0.0]);
    }
}
