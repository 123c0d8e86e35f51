//! The report JSON as HTML tables, read generically from its structure.
//!
//! - `benchmarks`: one section per entry; in it every array of objects with
//!   a string `group` is a table (`by_type`, `by_category`, `by_family`, and
//!   any later `by_*`), its columns the union of the rows' keys (nested
//!   objects such as `details` flattened to `details.iou`), columns that are
//!   `null` throughout left out; every object of counts (`outcomes`,
//!   `proof_status`) is a two-column table; other scalars are listed.
//! - A top-level object named after a benchmark (`scbench`) with `runs` and
//!   `rows` is a per-run table in that benchmark's section: scalar fields as
//!   columns, each per-run array (`accuracy`, `graded`, …) as one column per
//!   run, the first float array (`accuracy`) in the main table and as a heat
//!   map, the rest in collapsed tables.
//! - Anything else is shown as JSON text.
//!
//! Every number cell carries `data-path` (a JSON pointer into the report)
//! and `data-value` (the number exactly as the JSON has it); a standard
//! error found next to it adds `data-se-path` and `data-se`.

use crate::{Options, charts, escape};
use serde_json::{Map, Value};
use std::fmt::Write;

/// The tables' HTML: the navigation links and the sections.
pub(crate) struct Rendered {
    pub nav: String,
    pub body: String,
}

const RATES: &[&str] = &[
    "avg",
    "best_at_k",
    "pass_at_k",
    "pass_all_k",
    "proof",
    "construction",
    "accuracy",
];

const HEADERS: &[(&str, &str)] = &[
    ("items", "Items"),
    ("samples", "Samples"),
    ("k_min", "k min"),
    ("k_max", "k max"),
    ("avg", "Avg."),
    ("best_at_k", "Best@k"),
    ("pass_at_k", "Pass@k"),
    ("pass_all_k", "Pass^k"),
    ("proof", "Proof"),
    ("construction", "Construction"),
    ("details.tse", "TSE"),
    ("details.rge", "RGE"),
    ("details.pe", "PE"),
    ("details.vpr", "VPR"),
    ("details.iou", "IoU"),
    ("details.hausdorff", "Hausdorff"),
    ("details.success", "Success"),
    ("details.exact", "EM"),
    ("details.raw_score", "Score"),
    ("details.normalized_score", "Norm."),
    ("details.strict.score", "Strict"),
    ("details.corrected.score", "Corrected"),
    ("task", "Task"),
    ("number", "No."),
    ("subtasks", "N"),
    ("accuracy", "Accuracy"),
    ("graded", "Subtasks graded"),
    (
        "zeroed_by_harness",
        "Non-zero scores zeroed by the harness rules",
    ),
    ("outcomes", "Outcome"),
    ("scbench", "SCBench per task (the paper's Table 2)"),
    ("proof_status", "Proof status"),
];

/// Keys that hold a standard error rather than a value.
const SE_SUFFIXES: &[&str] = &["_se", "_stderr", "_sem", "_std_err"];
const SE_OBJECTS: &[&str] = &["se", "stderr", "sem", "std_err"];
const MEAN_KEYS: &[&str] = &["mean", "value", "estimate"];

fn is_se_key(key: &str) -> bool {
    SE_OBJECTS.contains(&key) || SE_SUFFIXES.iter().any(|s| key.ends_with(s))
}

/// A JSON pointer from its tokens.
fn pointer(tokens: &[String]) -> String {
    tokens
        .iter()
        .map(|t| format!("/{}", t.replace('~', "~0").replace('/', "~1")))
        .collect()
}

/// Where a key goes among its siblings: the order of [`HEADERS`] (the order
/// of the report's structs; a `Value` keeps its keys sorted instead), then
/// the rest by name.
fn rank(key: &str) -> (usize, String) {
    let known = HEADERS.iter().position(|(k, _)| *k == key);
    let known = known.or_else(|| {
        ORDER
            .iter()
            .position(|k| *k == key)
            .map(|i| i + HEADERS.len())
    });
    (known.unwrap_or(usize::MAX), key.to_owned())
}

/// Benchmark-level keys, in the order their tables are shown.
const ORDER: &[&str] = &["by_type", "by_category", "by_family"];

fn humanize(key: &str) -> String {
    let text = key.replace('_', " ");
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => text,
    }
}

struct Ctx<'a> {
    options: &'a Options<'a>,
}

impl Ctx<'_> {
    fn header(&self, key: &str) -> String {
        if let Some((_, h)) = self.options.headers.iter().find(|(k, _)| k == key) {
            return h.clone();
        }
        if let Some((_, h)) = HEADERS.iter().find(|(k, _)| *k == key) {
            return (*h).to_owned();
        }
        let last = key.rsplit('.').next().unwrap_or(key);
        humanize(last)
    }

    fn is_percent(&self, key: &str) -> bool {
        if self.options.plain_columns.iter().any(|k| k == key) {
            return false;
        }
        RATES.contains(&key) || key.starts_with("details.")
    }
}

/// A number as the table shows it: a rate as a percentage with one
/// decimal, an integer as is, another float with three decimals.
pub(crate) fn show_number(n: &serde_json::Number, percent: bool) -> String {
    if n.is_i64() || n.is_u64() {
        if percent {
            let v = n.as_f64().unwrap_or(0.0);
            return format!("{:.1}", 100.0 * v);
        }
        return n.to_string();
    }
    let v = n.as_f64().unwrap_or(f64::NAN);
    if percent {
        format!("{:.1}", 100.0 * v)
    } else {
        format!("{v:.3}")
    }
}

/// A number and its place in the report (JSON pointer tokens).
type Located<'v> = (&'v Value, Vec<String>);

/// A mean and where its standard error is, if any.
struct Cell<'v> {
    value: &'v Value,
    path: Vec<String>,
    se: Option<Located<'v>>,
}

/// Most runs drawn in a heat map or tabulated in a per-run table's
/// secondary arrays; the primary table always has every run.
pub(crate) const MAX_RUNS: usize = 60;

/// One table cell's HTML.
fn cell_html(cell: Option<&Cell>, percent: bool) -> String {
    cell_html_with(cell, percent, true)
}

/// One table cell's HTML, with the exact value as a tooltip or not (huge tables).
fn cell_html_with(cell: Option<&Cell>, percent: bool, tooltip: bool) -> String {
    let Some(cell) = cell else {
        return "<td class=\"na\">–</td>".to_owned();
    };
    match cell.value {
        Value::Number(n) => {
            let mut text = show_number(n, percent);
            let mut attrs = format!(
                " data-path=\"{}\" data-value=\"{}\"",
                escape(&pointer(&cell.path)),
                n
            );
            let mut title = n.to_string();
            if let Some((Value::Number(se), se_path)) = &cell.se {
                text = format!("{text} ± {}", show_number(se, percent));
                let _ = write!(
                    attrs,
                    " data-se-path=\"{}\" data-se=\"{se}\"",
                    escape(&pointer(se_path))
                );
                title = format!("{title} ± {se}");
            }
            if tooltip {
                let _ = write!(attrs, " title=\"{}\"", escape(&title));
            }
            format!("<td class=\"num\"{attrs}>{}</td>", escape(&text))
        }
        Value::Null => "<td class=\"na\">–</td>".to_owned(),
        Value::Bool(b) => format!("<td>{}</td>", if *b { "yes" } else { "no" }),
        Value::String(s) => format!("<td>{}</td>", escape(s)),
        other => format!("<td><code>{}</code></td>", escape(&other.to_string())),
    }
}

/// The standard error of `key` in `parent` (at `path`), by any of the
/// accepted spellings.
fn sibling_se<'v>(
    parent: &'v Map<String, Value>,
    parent_path: &[String],
    key: &str,
) -> Option<Located<'v>> {
    for suffix in SE_SUFFIXES {
        let name = format!("{key}{suffix}");
        if let Some(v @ Value::Number(_)) = parent.get(&name) {
            let mut path = parent_path.to_vec();
            path.push(name);
            return Some((v, path));
        }
    }
    for object in SE_OBJECTS {
        if let Some(v @ Value::Number(_)) = parent.get(*object).and_then(|o| o.get(key)) {
            let mut path = parent_path.to_vec();
            path.push((*object).to_owned());
            path.push(key.to_owned());
            return Some((v, path));
        }
    }
    None
}

/// `{mean, se}`-shaped objects: a value with its standard error.
fn mean_object<'v>(
    obj: &'v Map<String, Value>,
    path: &[String],
) -> Option<(&'v Value, Vec<String>, Option<Located<'v>>)> {
    let (mean_key, mean) = MEAN_KEYS
        .iter()
        .find_map(|k| obj.get(*k).filter(|v| v.is_number()).map(|v| (*k, v)))?;
    let se = SE_OBJECTS
        .iter()
        .find_map(|k| obj.get(*k).filter(|v| v.is_number()).map(|v| (*k, v)));
    let se = se?;
    let mut mean_path = path.to_vec();
    mean_path.push(mean_key.to_owned());
    let mut se_path = path.to_vec();
    se_path.push(se.0.to_owned());
    Some((mean, mean_path, Some((se.1, se_path))))
}

/// The leaves of a row: (`.`-joined key, cell), standard errors folded into
/// their means, in the row's order.
fn leaves<'v>(
    obj: &'v Map<String, Value>,
    path: &[String],
    prefix: &str,
    skip: &[&str],
    out: &mut Vec<(String, Cell<'v>)>,
) {
    for (key, value) in obj {
        if skip.contains(&key.as_str()) || is_se_key(key) {
            continue;
        }
        let name = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}.{key}")
        };
        let mut here = path.to_vec();
        here.push(key.clone());
        match value {
            Value::Object(inner) => {
                if let Some((mean, mean_path, se)) = mean_object(inner, &here) {
                    out.push((
                        name,
                        Cell {
                            value: mean,
                            path: mean_path,
                            se,
                        },
                    ));
                } else {
                    leaves(inner, &here, &name, &[], out);
                }
            }
            Value::Array(_) => {}
            _ => {
                let se = sibling_se(obj, path, key);
                out.push((
                    name,
                    Cell {
                        value,
                        path: here,
                        se,
                    },
                ));
            }
        }
    }
}

fn is_group_rows(value: &Value) -> bool {
    value.as_array().is_some_and(|rows| {
        !rows.is_empty()
            && rows
                .iter()
                .all(|r| r.get("group").is_some_and(Value::is_string))
    })
}

fn is_counts(value: &Value) -> bool {
    value
        .as_object()
        .is_some_and(|m| m.values().all(|v| v.is_u64() || v.is_i64()))
}

/// A table of `{"group": …}` rows.
fn group_table(ctx: &Ctx, key: &str, rows: &[Value], path: &[String]) -> String {
    let first = key
        .strip_prefix("by_")
        .map_or_else(|| humanize(key), humanize);
    let mut table_rows: Vec<(String, Vec<(String, Cell)>)> = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let Some(obj) = row.as_object() else { continue };
        let mut row_path = path.to_vec();
        row_path.push(i.to_string());
        let mut cells = Vec::new();
        leaves(obj, &row_path, "", &["group"], &mut cells);
        // A row-level `se` object mirroring the row's nesting (`se.details.iou`).
        for (name, cell) in &mut cells {
            if cell.se.is_some() {
                continue;
            }
            cell.se = SE_OBJECTS.iter().find_map(|object| {
                let parts: Vec<&str> = name.split('.').collect();
                let v = parts
                    .iter()
                    .try_fold(obj.get(*object)?, |at, part| at.get(part))?;
                let mut p = row_path.clone();
                p.push((*object).to_owned());
                p.extend(parts.iter().map(|s| (*s).to_owned()));
                v.is_number().then_some((v, p))
            });
        }
        let group = obj
            .get("group")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        table_rows.push((group, cells));
    }
    let mut columns: Vec<String> = Vec::new();
    for (_, cells) in &table_rows {
        for (name, _) in cells {
            if !columns.contains(name) {
                columns.push(name.clone());
            }
        }
    }
    columns.sort_by_key(|c| rank(c));
    columns.retain(|c| {
        table_rows.iter().any(|(_, cells)| {
            cells
                .iter()
                .any(|(n, cell)| n == c && !cell.value.is_null())
        })
    });
    // Best@k and friends: k is the largest k_max of the table's rows.
    let k = table_rows
        .iter()
        .flat_map(|(_, cells)| cells.iter())
        .filter(|(n, _)| n == "k_max")
        .filter_map(|(_, c)| c.value.as_u64())
        .max();
    let mut html = format!(
        "<div class=\"table-wrap\"><table class=\"metrics\" data-table=\"{}\"><caption>{}</caption><thead><tr><th>{}</th>",
        escape(&pointer(path)),
        escape(&format!("By {}", first.to_lowercase())),
        escape(&first)
    );
    for column in &columns {
        let mut header = ctx.header(column);
        if let Some(k) = k {
            header = header
                .replace("@k", &format!("@{k}"))
                .replace("^k", &format!("^{k}"));
        }
        if ctx.is_percent(column) {
            header.push_str(" (%)");
        }
        let _ = write!(
            html,
            "<th class=\"num\" data-key=\"{}\">{}</th>",
            escape(column),
            escape(&header)
        );
    }
    html.push_str("</tr></thead><tbody>");
    for (group, cells) in &table_rows {
        let _ = write!(html, "<tr><th scope=\"row\">{}</th>", escape(group));
        for column in &columns {
            let cell = cells.iter().find(|(n, _)| n == column).map(|(_, c)| c);
            html.push_str(&cell_html(cell, ctx.is_percent(column)));
        }
        html.push_str("</tr>");
    }
    html.push_str("</tbody></table></div>\n");
    html
}

/// A two-column table of counts.
fn counts_table(ctx: &Ctx, key: &str, counts: &Map<String, Value>, path: &[String]) -> String {
    let mut html = format!(
        "<div class=\"table-wrap\"><table class=\"counts\" data-table=\"{}\"><thead><tr><th>{}</th><th class=\"num\">Records</th></tr></thead><tbody>",
        escape(&pointer(path)),
        escape(&ctx.header(key))
    );
    for (name, value) in counts {
        let mut here = path.to_vec();
        here.push(name.clone());
        let cell = Cell {
            value,
            path: here,
            se: None,
        };
        let _ = write!(
            html,
            "<tr><th scope=\"row\">{}</th>{}</tr>",
            escape(name),
            cell_html(Some(&cell), false)
        );
    }
    html.push_str("</tbody></table></div>\n");
    html
}

/// A per-run table (`runs` + `rows`), e.g. SCBench's Table 2.
fn run_tables(ctx: &Ctx, name: &str, obj: &Map<String, Value>, path: &[String]) -> Option<String> {
    let runs: Vec<String> = obj
        .get("runs")?
        .as_array()?
        .iter()
        .map(|r| match r {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        })
        .collect();
    let rows = obj.get("rows")?.as_array()?;
    let objects: Vec<&Map<String, Value>> = rows.iter().filter_map(Value::as_object).collect();
    let first = objects.first()?;
    let label_key = first
        .iter()
        .find(|(_, v)| v.is_string())
        .map(|(k, _)| k.clone());
    let mut scalars: Vec<String> = Vec::new();
    let mut arrays: Vec<String> = Vec::new();
    for row in &objects {
        for (key, value) in *row {
            if Some(key) == label_key.as_ref() || is_se_key(key) {
                continue;
            }
            let list = if value.is_array() {
                &mut arrays
            } else {
                &mut scalars
            };
            if !list.contains(key) {
                list.push(key.clone());
            }
        }
    }
    scalars.sort_by_key(|c| rank(c));
    arrays.sort_by_key(|c| rank(c));
    let primary = arrays
        .iter()
        .position(|a| a == "accuracy")
        .or_else(|| {
            arrays.iter().position(|a| {
                objects.iter().any(|r| {
                    r.get(a)
                        .and_then(Value::as_array)
                        .is_some_and(|v| v.iter().any(|x| x.is_f64()))
                })
            })
        })
        .unwrap_or(0);
    let label_header = label_key
        .as_deref()
        .map_or("Row".to_owned(), |k| ctx.header(k));
    let table = |array: &str, with_scalars: bool| -> String {
        let percent = ctx.is_percent(array);
        let mut html = format!(
            "<div class=\"table-wrap\"><table class=\"metrics runs\" data-table=\"{}\"><caption>{}</caption><thead><tr><th>{}</th>",
            escape(&pointer(path)),
            escape(&format!(
                "{}{}",
                ctx.header(array),
                if percent { " (%) per run" } else { " per run" }
            )),
            escape(&label_header)
        );
        if with_scalars {
            for s in &scalars {
                let _ = write!(html, "<th class=\"num\">{}</th>", escape(&ctx.header(s)));
            }
        }
        for run in &runs {
            let _ = write!(html, "<th class=\"num run\">{}</th>", escape(run));
        }
        html.push_str("</tr></thead><tbody>");
        for (i, row) in rows.iter().enumerate() {
            let Some(row) = row.as_object() else { continue };
            let mut row_path = path.to_vec();
            row_path.push("rows".into());
            row_path.push(i.to_string());
            let label = label_key
                .as_ref()
                .and_then(|k| row.get(k))
                .and_then(Value::as_str)
                .unwrap_or("");
            let subtotal = row.get("number").is_some_and(Value::is_null);
            let _ = write!(
                html,
                "<tr{}><th scope=\"row\">{}</th>",
                if subtotal { " class=\"subtotal\"" } else { "" },
                escape(label)
            );
            if with_scalars {
                for s in &scalars {
                    let mut here = row_path.clone();
                    here.push(s.clone());
                    let cell = row.get(s).map(|value| Cell {
                        value,
                        path: here,
                        se: sibling_se(row, &row_path, s),
                    });
                    html.push_str(&cell_html(cell.as_ref(), ctx.is_percent(s)));
                }
            }
            let values = row.get(array).and_then(Value::as_array);
            let se = SE_SUFFIXES.iter().find_map(|suffix| {
                let key = format!("{array}{suffix}");
                row.get(&key).and_then(Value::as_array).map(|v| (key, v))
            });
            for r in 0..runs.len() {
                let mut here = row_path.clone();
                here.push(array.to_owned());
                here.push(r.to_string());
                let cell = values.and_then(|v| v.get(r)).map(|value| Cell {
                    value,
                    path: here,
                    se: se.as_ref().and_then(|(key, list)| {
                        let mut p = row_path.clone();
                        p.push(key.clone());
                        p.push(r.to_string());
                        list.get(r).map(|v| (v, p))
                    }),
                });
                html.push_str(&cell_html_with(
                    cell.as_ref(),
                    percent,
                    runs.len() <= MAX_RUNS,
                ));
            }
            html.push_str("</tr>");
        }
        html.push_str("</tbody></table></div>\n");
        html
    };
    let heading = if HEADERS.iter().any(|(k, _)| *k == name) {
        ctx.header(name)
    } else {
        format!("{} per run", humanize(name))
    };
    let mut html = format!("<h3>{}</h3>\n", escape(&heading));
    let notes: Vec<String> = obj
        .iter()
        .filter(|(k, v)| *k != "runs" && *k != "rows" && !v.is_array() && !v.is_object())
        .map(|(k, v)| format!("{}: {}", humanize(k), scalar_text(v)))
        .collect();
    if !notes.is_empty() {
        let _ = writeln!(html, "<p class=\"note\">{}</p>", escape(&notes.join("; ")));
    }
    if let Some(array) = arrays.get(primary) {
        if runs.len() > MAX_RUNS {
            // Closed, a huge table costs the page no layout until it is opened.
            let _ = writeln!(
                html,
                "<details><summary>{} per run: {} runs (open the table)</summary>{}</details>",
                escape(&ctx.header(array)),
                runs.len(),
                table(array, true)
            );
        } else {
            html.push_str(&table(array, true));
        }
        html.push_str(&charts::heat_map(
            &format!("{} per run", ctx.header(array)),
            &runs,
            rows,
            label_key.as_deref(),
            array,
            ctx.is_percent(array),
            &pointer(path),
        ));
    }
    for (i, array) in arrays.iter().enumerate() {
        if i != primary && runs.len() > MAX_RUNS {
            let _ = writeln!(
                html,
                "<p class=\"note\">{} per run: {} runs, too many to tabulate here (see the report JSON)</p>",
                escape(&ctx.header(array)),
                runs.len()
            );
        } else if i != primary {
            let _ = writeln!(
                html,
                "<details><summary>{} per run</summary>{}</details>",
                escape(&ctx.header(array)),
                table(array, false)
            );
        }
    }
    Some(html)
}

fn scalar_text(v: &Value) -> String {
    match v {
        Value::Bool(b) => (if *b { "yes" } else { "no" }).to_owned(),
        Value::String(s) => s.clone(),
        Value::Null => "–".to_owned(),
        other => other.to_string(),
    }
}

fn slug(text: &str, i: usize) -> String {
    let s: String = text
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .take(40)
        .collect();
    format!("b{i}-{s}")
}

/// One benchmark's section.
fn benchmark(
    ctx: &Ctx,
    report: &Map<String, Value>,
    i: usize,
    bench: &Map<String, Value>,
) -> (String, String) {
    let name = bench
        .get("benchmark")
        .or_else(|| bench.get("name"))
        .and_then(Value::as_str)
        .unwrap_or("benchmark");
    let id = slug(name, i);
    let path = vec!["benchmarks".to_owned(), i.to_string()];
    let mut html = format!(
        "<section class=\"bench\" id=\"{}\" data-benchmark=\"{}\">\n<h2>{}</h2>\n",
        escape(&id),
        escape(name),
        escape(name)
    );
    // The heading's figures: the overall row's items and samples.
    let overall = bench
        .get("by_type")
        .and_then(Value::as_array)
        .and_then(|rows| {
            rows.iter()
                .rposition(|r| r.get("group").and_then(Value::as_str) == Some("Overall"))
                .or(rows.len().checked_sub(1))
                .map(|j| (j, &rows[j]))
        });
    if let Some((j, row)) = overall {
        let mut parts = Vec::new();
        for (key, what) in [("items", "items"), ("samples", "samples")] {
            if let Some(n) = row.get(key).filter(|v| v.is_number()) {
                parts.push(format!(
                    "<span data-path=\"{}\" data-value=\"{n}\">{n}</span> {what}",
                    escape(&pointer(&[
                        "benchmarks".into(),
                        i.to_string(),
                        "by_type".into(),
                        j.to_string(),
                        key.into()
                    ]))
                ));
            }
        }
        if let (Some(lo), Some(hi)) = (row.get("k_min"), row.get("k_max")) {
            if lo == hi {
                parts.push(format!("k = {hi}"));
            } else {
                parts.push(format!("k = {lo} to {hi}"));
            }
        }
        if !parts.is_empty() {
            let _ = writeln!(html, "<p class=\"summary\">{}</p>", parts.join(", "));
        }
    }
    let mut charts_html = String::new();
    // Bars: the mean score by family, else by category.
    for key in ["by_family", "by_category"] {
        if let Some(rows) = bench
            .get(key)
            .and_then(Value::as_array)
            .filter(|r| r.len() > 1)
        {
            charts_html.push_str(&charts::score_bars(
                &format!("Avg. score by {}", key.trim_start_matches("by_")),
                rows,
                "avg",
            ));
            break;
        }
    }
    if let Some(outcomes) = bench.get("outcomes").and_then(Value::as_object) {
        charts_html.push_str(&charts::count_bars("Outcomes", outcomes));
    }
    let mut scalars = Vec::new();
    let mut tables_html = String::new();
    let mut counts_html = String::new();
    let mut keys: Vec<&String> = bench.keys().collect();
    keys.sort_by_key(|k| {
        let at = ORDER.iter().position(|o| o == k);
        (at.is_none(), at, !k.starts_with("by_"), (*k).clone())
    });
    for key in keys {
        let value = &bench[key.as_str()];
        if key == "benchmark" || key == "name" {
            continue;
        }
        let mut here = path.clone();
        here.push(key.clone());
        if is_group_rows(value) {
            tables_html.push_str(&group_table(
                ctx,
                key,
                value.as_array().unwrap_or(&Vec::new()),
                &here,
            ));
        } else if let Some(counts) = value.as_object().filter(|_| is_counts(value)) {
            if !counts.is_empty() {
                counts_html.push_str(&counts_table(ctx, key, counts, &here));
            }
        } else if value.is_array() && value.as_array().is_some_and(Vec::is_empty) {
        } else if !value.is_array() && !value.is_object() {
            scalars.push(format!("{}: {}", humanize(key), scalar_text(value)));
        } else {
            let _ = writeln!(
                tables_html,
                "<details><summary>{}</summary><pre>{}</pre></details>",
                escape(&humanize(key)),
                escape(&serde_json::to_string_pretty(value).unwrap_or_default())
            );
        }
    }
    if !scalars.is_empty() {
        let _ = writeln!(
            html,
            "<p class=\"note\">{}</p>",
            escape(&scalars.join("; "))
        );
    }
    html.push_str(&tables_html);
    if !counts_html.is_empty() {
        let _ = writeln!(html, "<div class=\"side-by-side\">{counts_html}</div>");
    }
    if !charts_html.is_empty() {
        let _ = writeln!(html, "<div class=\"charts\">{charts_html}</div>");
    }
    if let Some(extra) = report.get(name).and_then(Value::as_object)
        && let Some(runs) = run_tables(ctx, name, extra, &[name.to_owned()])
    {
        html.push_str(&runs);
    }
    html.push_str("</section>\n");
    let nav = format!("<a href=\"#{}\">{}</a>", escape(&id), escape(name));
    (nav, html)
}

const KNOWN_TOP: &[&str] = &[
    "benchmarks",
    "registry_digests",
    "verigate_versions",
    "duplicates",
];

/// The report's sections and navigation.
pub(crate) fn render(report: &Value, options: &Options) -> Rendered {
    let ctx = Ctx { options };
    let Some(top) = report.as_object() else {
        return Rendered {
            nav: String::new(),
            body: format!(
                "<section class=\"bench\"><h2>Report</h2><pre>{}</pre></section>\n",
                escape(&report.to_string())
            ),
        };
    };
    let mut nav = Vec::new();
    let mut body = String::new();
    let benches: Vec<&Map<String, Value>> = top
        .get("benchmarks")
        .and_then(Value::as_array)
        .map(|b| b.iter().filter_map(Value::as_object).collect())
        .unwrap_or_default();
    let names: Vec<&str> = benches
        .iter()
        .filter_map(|b| b.get("benchmark").and_then(Value::as_str))
        .collect();
    for (i, bench) in benches.iter().enumerate() {
        let (link, html) = benchmark(&ctx, top, i, bench);
        nav.push(link);
        body.push_str(&html);
    }
    // Provenance and anything else the report holds.
    let mut facts = String::new();
    for (key, label) in [
        ("registry_digests", "Registry digest"),
        ("verigate_versions", "verigate version"),
    ] {
        if let Some(list) = top.get(key).and_then(Value::as_array) {
            let items: Vec<String> = list.iter().map(scalar_text).collect();
            let _ = write!(
                facts,
                "<dt>{}</dt><dd><code>{}</code></dd>",
                escape(label),
                escape(&items.join(", "))
            );
        }
    }
    if let Some(n) = top.get("duplicates").filter(|v| v.is_number()) {
        let _ = write!(
            facts,
            "<dt>Duplicate (id, sample) records ignored</dt><dd><span data-path=\"/duplicates\" data-value=\"{n}\">{n}</span></dd>"
        );
    }
    let mut other = String::new();
    for (key, value) in top {
        if KNOWN_TOP.contains(&key.as_str()) || names.contains(&key.as_str()) {
            continue;
        }
        let run = value
            .as_object()
            .and_then(|obj| run_tables(&ctx, key, obj, std::slice::from_ref(key)));
        match run {
            Some(html) => other.push_str(&html),
            None => {
                let _ = writeln!(
                    other,
                    "<details><summary>{}</summary><pre>{}</pre></details>",
                    escape(&humanize(key)),
                    escape(&serde_json::to_string_pretty(value).unwrap_or_default())
                );
            }
        }
    }
    let _ = writeln!(
        body,
        "<section class=\"bench\" id=\"provenance\"><h2>Provenance</h2><dl class=\"facts\">{facts}</dl>{other}</section>"
    );
    nav.push("<a href=\"#samples\">Samples</a>".to_owned());
    nav.push("<a href=\"#provenance\">Provenance</a>".to_owned());
    Rendered {
        nav: format!("<nav>{}</nav>\n", nav.join(" ")),
        body,
    }
}
