//! Rendering a report [`Summary`] as text, Markdown or JSON.

use comfy_table::{CellAlignment, Table, presets};
use std::fmt::Write;
use verigate_grading::benchmark::benchmark;
use verigate_grading::benchmark::scbench::ScbenchTable;
use verigate_grading::report::{BenchmarkSummary, DetailColumn, Metrics, Row, Summary};

/// How `verigate report` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Aligned tables for a terminal.
    Text,
    /// One JSON object (rates as fractions in [0, 1]).
    Json,
    /// Markdown tables, ready for a paper's appendix or a pull request.
    Markdown,
    /// One self-contained HTML page (`--out FILE`): the tables, charts, a
    /// sample browser and the verifiers' figures.
    Html,
}

/// `summary` in `format`, ending with a newline.
pub fn render(summary: &Summary, format: Format) -> String {
    match format {
        Format::Json => {
            let mut text = serde_json::to_string_pretty(summary).expect("plain data serialises");
            text.push('\n');
            text
        }
        Format::Text | Format::Markdown | Format::Html => tables(summary, format),
    }
}

fn tables(summary: &Summary, format: Format) -> String {
    let markdown = format == Format::Markdown;
    let mut out = String::new();
    {
        let this = summary;
        for bench in &this.benchmarks {
            let heading = heading(bench);
            if markdown {
                let _ = writeln!(out, "### {heading}\n");
            } else {
                let _ = writeln!(out, "{heading}");
            }
            let columns = benchmark(&bench.benchmark).detail_columns();
            for (first, rows) in [
                ("Type", &bench.by_type),
                ("Category", &bench.by_category),
                ("Family", &bench.by_family),
            ] {
                if !rows.is_empty() {
                    let table = table(first, rows, bench.proof_judged, columns, markdown);
                    let _ = writeln!(out, "{table}\n");
                }
            }
            if let Some(scbench) = this
                .scbench
                .as_ref()
                .filter(|_| bench.benchmark == "scbench")
            {
                let _ = writeln!(out, "{}", scbench_table(scbench, markdown));
            }
            let _ = writeln!(out, "outcomes: {}", counts(&bench.outcomes));
            if bench.proof_judged {
                let _ = writeln!(out, "proof scores: {}", counts(&bench.proof_status));
            }
            out.push('\n');
        }
        if this.duplicates > 0 {
            let _ = writeln!(
                out,
                "{} duplicate (id, sample) record(s) ignored",
                this.duplicates
            );
        }
        let _ = writeln!(out, "registry digest: {}", this.registry_digests.join(", "));
        let _ = writeln!(
            out,
            "verigate version: {}",
            this.verigate_versions.join(", ")
        );
        out
    }
}

fn heading(bench: &BenchmarkSummary) -> String {
    {
        let Some(overall) = bench.by_type.last() else {
            return bench.benchmark.clone();
        };
        let m = &overall.metrics;
        let k = if m.k_min == m.k_max {
            format!("k = {}", m.k_max)
        } else {
            format!("k = {} to {}", m.k_min, m.k_max)
        };
        format!(
            "{}: {}, {}, {k}",
            bench.benchmark,
            count(m.items, "item"),
            count(m.samples, "sample")
        )
    }
}

/// The paper's Table 2 layout: task, N, accuracy (%) per run; and a line on the
/// harness rules.
fn scbench_table(this: &ScbenchTable, markdown: bool) -> String {
    {
        let mut header = vec!["Task".to_owned(), "N".to_owned()];
        header.extend(this.runs.iter().map(|r| format!("{r}(%)")));
        let mut table = Table::new();
        table.load_preset(if markdown {
            presets::ASCII_MARKDOWN
        } else {
            presets::NOTHING
        });
        table.set_header(header);
        for row in &this.rows {
            let mut cells = vec![row.task.clone(), row.subtasks.to_string()];
            cells.extend(row.accuracy.iter().map(|&a| percent(Some(a))));
            table.add_row(cells);
        }
        for column in table.column_iter_mut().skip(1) {
            column.set_cell_alignment(CellAlignment::Right);
        }
        let overall = this.rows.last().expect("an Overall row");
        let zeroed: u32 = overall.zeroed_by_harness.iter().sum();
        let missing: u32 = overall.graded.iter().map(|&g| overall.subtasks - g).sum();
        let mut notes = Vec::new();
        if this.harness_rules {
            notes.push(format!(
                "paper harness rules applied (early fail; Interlocking Parts stops at its first zero): \
                 {zeroed} non-zero subtask score(s) set to 0; --no-early-fail scores each subtask on its own"
            ));
        } else {
            notes.push("each subtask scored on its own (--no-early-fail)".to_owned());
        }
        if missing > 0 {
            notes.push(format!(
                "{missing} subtask(s) without a result count 0 (the rules apply only where \
                 the results decide them)"
            ));
        }
        format!(
            "SCBench per task (the paper's Table 2)\n{table}\n{}\n",
            notes.join("; ")
        )
    }
}

/// `n noun`, the noun in the plural unless `n` is 1.
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

fn counts(counts: &std::collections::BTreeMap<String, usize>) -> String {
    let parts: Vec<String> = counts.iter().map(|(k, n)| format!("{k} {n}")).collect();
    parts.join(", ")
}

fn percent(value: Option<f64>) -> String {
    value.map_or("-".to_owned(), |v| format!("{:.1}", 100.0 * v))
}

fn table(
    first: &str,
    rows: &[Row],
    proof_judged: bool,
    columns: &[DetailColumn],
    markdown: bool,
) -> String {
    let k = rows.iter().map(|r| r.metrics.k_max).max().unwrap_or(0);
    let mut header = vec![
        first.to_owned(),
        "Items".into(),
        "Samples".into(),
        "Avg.(%)".into(),
        format!("Best@{k}(%)"),
        format!("Pass@{k}(%)"),
        format!("Pass^{k}(%)"),
    ];
    if proof_judged {
        header.push("Proof(%)".into());
    }
    header.push("Construction(%)".into());
    header.extend(columns.iter().map(|c| {
        if c.percent {
            format!("{}(%)", c.header)
        } else {
            c.header.to_owned()
        }
    }));
    let mut table = Table::new();
    table
        .load_preset(if markdown {
            presets::ASCII_MARKDOWN
        } else {
            presets::NOTHING
        })
        .set_header(header);
    for row in rows {
        let m: &Metrics = &row.metrics;
        let mut cells = vec![
            row.group.clone(),
            m.items.to_string(),
            m.samples.to_string(),
            percent(Some(m.avg)),
            percent(Some(m.best_at_k)),
            percent(Some(m.pass_at_k)),
            percent(Some(m.pass_all_k)),
        ];
        if proof_judged {
            cells.push(percent(m.proof));
        }
        cells.push(percent(m.construction));
        cells.extend(columns.iter().map(|c| {
            let value = m.details.get(c.key).copied();
            if c.percent {
                percent(value)
            } else {
                value.map_or("-".to_owned(), |v| format!("{v:.3}"))
            }
        }));
        table.add_row(cells);
    }
    for column in table.column_iter_mut().skip(1) {
        column.set_cell_alignment(CellAlignment::Right);
    }
    table.to_string()
}
