//! Benchmark metrics recomputed from grade records (ComBench App. E.4):
//! Avg., Best@k, Pass@k, Pass^k, proof score and construction pass rate, split
//! by problem type and by category, per benchmark.
//!
//! A record's `score` is what is averaged: the verifier-gated score over 7 for
//! construction-centric ComBench items, the proof score over 7 for analysis-
//! centric ones (unscored proofs count 0, so missing and unparsable outputs
//! stay in the denominator), the verifier's score elsewhere. A sample is
//! *solved* when its score is 1 (for ComBench: proof 7 and, for construction
//! items, an accepted construction).
//!
//! Rows are grouped by problem type, by category and, where a benchmark's
//! ids form several families (`scbench/q9/…`, `sphyr/<config>/…`), by family;
//! benchmarks whose papers tabulate verifier details get those columns too
//! ([`Benchmark::detail_columns`]). A benchmark may add a table of its own
//! ([`Benchmark::tabulator`]): SCBench's per-task table ([`ScbenchTable`]).
//!
//! [`Benchmark::detail_columns`]: crate::benchmark::Benchmark::detail_columns
//! [`Benchmark::tabulator`]: crate::benchmark::Benchmark::tabulator

mod columns;
mod stderr;

pub use columns::{DetailColumn, column};

use crate::benchmark::scbench::ScbenchTable;
use crate::benchmark::{BENCHMARKS, Table, Tabulator, benchmark};
use crate::grade::GradeRecord;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use verigate_registry::{ItemKind, Registry};

/// Accumulates records; [`Report::summary`] computes the tables.
#[derive(Default)]
pub struct Report {
    benchmarks: BTreeMap<String, Tally>,
    registry_digests: BTreeSet<String>,
    verigate_versions: BTreeSet<String>,
    duplicates: usize,
    tabulators: BTreeMap<&'static str, Box<dyn Tabulator>>,
    without_harness_rules: bool,
}

/// One benchmark's records, folded.
#[derive(Default)]
struct Tally {
    items: BTreeMap<String, ItemTally>,
    outcomes: BTreeMap<String, usize>,
    proof_status: BTreeMap<String, usize>,
}

/// One item's samples, folded.
struct ItemTally {
    kind: ItemKind,
    category: Option<String>,
    /// The id without its last segment (empty for one-segment ids).
    family: String,
    /// Per detail column of the benchmark: sum and count of its values.
    details: Vec<(f64, usize)>,
    samples: HashSet<String>,
    score_sum: f64,
    best: f64,
    solved: usize,
    proof_sum: f64,
    constructions: usize,
    constructions_passed: usize,
}

impl Report {
    /// A report with every benchmark's own tables, from the registry's
    /// benchmark data (`benchmarks/<name>.toml`); the error names the file.
    /// ([`Report::default`] has the generic tables only.)
    pub fn for_registry(registry: &Registry) -> Result<Report, String> {
        let mut tabulators = BTreeMap::new();
        for bench in BENCHMARKS {
            let data = registry.benchmark_data(bench.name());
            let data = data.as_ref().map(|(path, text)| (path.as_path(), *text));
            if let Some(tabulator) = bench.tabulator(data)? {
                tabulators.insert(bench.name(), tabulator);
            }
        }
        Ok(Report {
            tabulators,
            ..Report::default()
        })
    }

    /// A report whose SCBench table scores every subtask on its own, without the
    /// paper harness's early-fail rules (see [`ScbenchTable`]).
    pub fn without_harness_rules(mut self) -> Self {
        self.without_harness_rules = true;
        self
    }

    /// Adds one record. A second record of the same (id, sample) is counted
    /// as a duplicate and otherwise ignored.
    pub fn add(&mut self, record: &GradeRecord) {
        let bench = self.benchmarks.entry(record.benchmark.clone()).or_default();
        let columns = benchmark(&record.benchmark).detail_columns();
        let item = bench
            .items
            .entry(record.id.clone())
            .or_insert_with(|| ItemTally {
                kind: record.kind,
                category: record.category.clone(),
                family: record
                    .id
                    .rsplit_once('/')
                    .map_or("", |(family, _)| family)
                    .to_owned(),
                details: vec![(0.0, 0); columns.len()],
                samples: HashSet::new(),
                score_sum: 0.0,
                best: 0.0,
                solved: 0,
                proof_sum: 0.0,
                constructions: 0,
                constructions_passed: 0,
            });
        if !item.samples.insert(record.sample.to_string()) {
            self.duplicates += 1;
            return;
        }
        if let Some(tabulator) = self.tabulators.get_mut(record.benchmark.as_str()) {
            tabulator.add(record);
        }
        if let Some(details) = &record.details {
            for (column, tally) in columns.iter().zip(&mut item.details) {
                if let Some(value) = column.read(details) {
                    tally.0 += value;
                    tally.1 += 1;
                }
            }
        }
        item.score_sum += record.score;
        item.best = item.best.max(record.score);
        item.solved += usize::from(record.solved());
        if let Some(proof) = record.proof {
            item.proof_sum += f64::from(proof.points()) / 7.0;
        }
        if let Some(passed) = record.construction {
            item.constructions += 1;
            item.constructions_passed += usize::from(passed == 1);
        }
        *bench
            .outcomes
            .entry(record.outcome.to_string())
            .or_default() += 1;
        if let Some(status) = record.proof_status {
            let name = serde_json::to_value(status).expect("a unit variant serialises");
            let name = name.as_str().expect("as a string").to_owned();
            *bench.proof_status.entry(name).or_default() += 1;
        }
        self.registry_digests.insert(record.registry_digest.clone());
        self.verigate_versions
            .insert(record.verigate_version.clone());
    }

    /// The tables.
    pub fn summary(&self) -> Summary {
        Summary {
            benchmarks: self
                .benchmarks
                .iter()
                .map(|(name, bench)| bench.summary(name))
                .collect(),
            registry_digests: self.registry_digests.iter().cloned().collect(),
            verigate_versions: self.verigate_versions.iter().cloned().collect(),
            duplicates: self.duplicates,
            scbench: (self.tabulators.values()).find_map(|t| {
                match t.table(!self.without_harness_rules)? {
                    Table::Scbench(table) => Some(table),
                }
            }),
        }
    }
}

impl Tally {
    fn summary(&self, name: &str) -> BenchmarkSummary {
        let proof_judged = !self.proof_status.is_empty();
        let columns = benchmark(name).detail_columns();
        let metrics = |keep: &dyn Fn(&ItemTally) -> bool| {
            Metrics::of(
                self.items.values().filter(|i| keep(i)),
                proof_judged,
                columns,
            )
        };
        let by_type = [
            ("Analysis-centric", Some(ItemKind::Analysis)),
            ("Construction-centric", Some(ItemKind::Construction)),
            ("Overall", None),
        ]
        .into_iter()
        .filter_map(|(group, kind)| {
            let m = metrics(&|i| kind.is_none_or(|k| i.kind == k))?;
            Some(Row {
                group: group.to_owned(),
                metrics: m,
            })
        })
        .collect();
        let categories: BTreeSet<Option<&String>> =
            self.items.values().map(|i| i.category.as_ref()).collect();
        let by_category = categories
            .into_iter()
            .filter_map(|category| {
                let m = metrics(&|i| i.category.as_ref() == category)?;
                Some(Row {
                    group: category.map_or("(none)".to_owned(), Clone::clone),
                    metrics: m,
                })
            })
            .collect();
        let families: BTreeSet<&String> = self.items.values().map(|i| &i.family).collect();
        let by_family = if families.len() > 1 {
            families
                .into_iter()
                .filter_map(|family| {
                    Some(Row {
                        group: family.clone(),
                        metrics: metrics(&|i| &i.family == family)?,
                    })
                })
                .collect()
        } else {
            Vec::new()
        };
        BenchmarkSummary {
            benchmark: name.to_owned(),
            proof_judged,
            by_type,
            by_category,
            by_family,
            outcomes: self.outcomes.clone(),
            proof_status: self.proof_status.clone(),
        }
    }
}

/// The tables of one benchmark.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BenchmarkSummary {
    /// Benchmark name.
    pub benchmark: String,
    /// Whether its records carry proof judgments.
    pub proof_judged: bool,
    /// Analysis-centric, construction-centric and overall rows (empty groups left out).
    pub by_type: Vec<Row>,
    /// One row per category.
    pub by_category: Vec<Row>,
    /// One row per id family (the id without its last segment), when there
    /// are several.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub by_family: Vec<Row>,
    /// Records per outcome.
    pub outcomes: BTreeMap<String, usize>,
    /// Records per proof status (proof-judged benchmarks only).
    pub proof_status: BTreeMap<String, usize>,
}

/// The metrics of one group of items.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// The group: a problem type, `Overall`, or a category.
    pub group: String,
    /// Its metrics.
    #[serde(flatten)]
    pub metrics: Metrics,
}

/// Metrics over a group of items; every rate is a fraction in [0, 1].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Metrics {
    /// Items in the group.
    pub items: usize,
    /// Samples (records) in the group.
    pub samples: usize,
    /// Fewest samples of any item.
    pub k_min: usize,
    /// Most samples of any item: the k of Best@k, Pass@k and Pass^k.
    pub k_max: usize,
    /// Mean score over all samples.
    pub avg: f64,
    /// Standard error of `avg` over items (see the README); null for one item.
    pub avg_se: Option<f64>,
    /// Mean over items of the item's best score.
    pub best_at_k: f64,
    /// Standard error of `best_at_k` over items.
    pub best_at_k_se: Option<f64>,
    /// Fraction of items solved by at least one sample.
    pub pass_at_k: f64,
    /// Standard error of `pass_at_k` over items.
    pub pass_at_k_se: Option<f64>,
    /// Fraction of items solved by every sample.
    pub pass_all_k: f64,
    /// Standard error of `pass_all_k` over items.
    pub pass_all_k_se: Option<f64>,
    /// The unbiased Pass@1 estimator: the mean over items of the fraction of
    /// their samples that solved them.
    pub pass_at_1: f64,
    /// Standard error of `pass_at_1` over items.
    pub pass_at_1_se: Option<f64>,
    /// Mean proof score over 7, over all samples (unscored counts 0); proof-judged benchmarks only.
    pub proof: Option<f64>,
    /// Fraction of constructions the verifier accepted; groups with constructions only.
    pub construction: Option<f64>,
    /// Means of the benchmark's detail columns, by key (see [`DetailColumn`]),
    /// over the samples whose details carry them.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub details: BTreeMap<String, f64>,
}

impl Metrics {
    fn of<'a>(
        items: impl Iterator<Item = &'a ItemTally>,
        proof_judged: bool,
        columns: &[DetailColumn],
    ) -> Option<Metrics> {
        let (mut n_items, mut samples, mut k_min, mut k_max) = (0, 0, usize::MAX, 0);
        let (mut score, mut best, mut any, mut all, mut proof) = (0.0, 0.0, 0, 0, 0.0);
        let (mut constructions, mut passed) = (0, 0);
        let mut details = vec![(0.0, 0); columns.len()];
        let items: Vec<&ItemTally> = items.collect();
        for &item in &items {
            for (sum, tally) in details.iter_mut().zip(&item.details) {
                sum.0 += tally.0;
                sum.1 += tally.1;
            }
            let k = item.samples.len();
            n_items += 1;
            samples += k;
            k_min = k_min.min(k);
            k_max = k_max.max(k);
            score += item.score_sum;
            best += item.best;
            any += usize::from(item.solved > 0);
            all += usize::from(item.solved == k);
            proof += item.proof_sum;
            constructions += item.constructions;
            passed += item.constructions_passed;
        }
        if n_items == 0 {
            return None;
        }
        let (n, s) = (n_items as f64, samples as f64);
        let per_item = |value: &dyn Fn(&ItemTally) -> f64| -> Vec<f64> {
            items.iter().map(|&i| value(i)).collect()
        };
        let sums: Vec<(f64, usize)> = items
            .iter()
            .map(|i| (i.score_sum, i.samples.len()))
            .collect();
        let solved_share = per_item(&|i| i.solved as f64 / i.samples.len() as f64);
        Some(Metrics {
            items: n_items,
            samples,
            k_min,
            k_max,
            avg: score / s,
            avg_se: stderr::of_clustered_mean(&sums, score / s),
            best_at_k: best / n,
            best_at_k_se: stderr::of_mean(&per_item(&|i| i.best)),
            pass_at_k: any as f64 / n,
            pass_at_k_se: stderr::of_mean(&per_item(&|i| f64::from(u8::from(i.solved > 0)))),
            pass_all_k: all as f64 / n,
            pass_all_k_se: stderr::of_mean(&per_item(&|i| {
                f64::from(u8::from(i.solved == i.samples.len()))
            })),
            pass_at_1: solved_share.iter().sum::<f64>() / n,
            pass_at_1_se: stderr::of_mean(&solved_share),
            proof: proof_judged.then_some(proof / s),
            construction: (constructions > 0).then(|| passed as f64 / constructions as f64),
            details: columns
                .iter()
                .zip(details)
                .filter(|(_, (_, n))| *n > 0)
                .map(|(column, (sum, n))| (column.key.to_owned(), sum / n as f64))
                .collect(),
        })
    }
}

/// Everything a report shows.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// One entry per benchmark, by name.
    pub benchmarks: Vec<BenchmarkSummary>,
    /// The registry digests the records name (one, unless results were mixed).
    pub registry_digests: Vec<String>,
    /// The verigate versions the records name.
    pub verigate_versions: Vec<String>,
    /// Records ignored because their (id, sample) came earlier.
    pub duplicates: usize,
    /// SCBench's per-task table, when SCBench items were graded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scbench: Option<ScbenchTable>,
}

#[cfg(test)]
mod tests;
