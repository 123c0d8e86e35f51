//! `--format html`: the report page ([`verigate_html`]) for a results file,
//! its samples' responses and what their verifiers saw.

use anyhow::Context;
use serde_json::Value;
use std::io::BufRead;
use std::path::Path;
use verigate_grading::benchmark::benchmark;
use verigate_grading::report::Summary;
use verigate_registry::Registry;

/// The non-blank lines of a JSONL file as JSON values (a bad line becomes
/// `null`, which the page skips; the tables already reported it).
pub fn read_values(path: &Path) -> anyhow::Result<Vec<Value>> {
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let mut values = Vec::new();
    for line in std::io::BufReader::new(file).lines() {
        let line = line.with_context(|| format!("cannot read {}", path.display()))?;
        if !line.trim().is_empty() {
            values.push(serde_json::from_str(&line).unwrap_or(Value::Null));
        }
    }
    Ok(values)
}

/// Writes the page for `summary` and `records` to `out`; `responses` (the
/// responses file's lines) and `registry` let each sample show its response
/// and the payload its benchmark's rules extracted from it.
pub fn write(
    out: &Path,
    summary: &Summary,
    records: &[Value],
    responses: &[Value],
    registry: Option<&Registry>,
    subtitle: String,
) -> anyhow::Result<()> {
    let report = serde_json::to_value(summary).context("the report as JSON")?;
    let payload = |record: &Value, response: &str| -> Option<String> {
        let item = registry?.item(record["id"].as_str()?).ok()?;
        let extracted = benchmark(&item.metadata.benchmark).extract(item, response.to_owned());
        let bytes = extracted.payload?.ok()?;
        Some(String::from_utf8_lossy(&bytes).into_owned())
    };
    let options = verigate_html::Options {
        subtitle: Some(subtitle),
        responses,
        payload: Some(&payload),
        ..verigate_html::Options::default()
    };
    let page = verigate_html::render(&report, records, &options);
    std::fs::write(out, page).with_context(|| format!("cannot write {}", out.display()))?;
    eprintln!("verigate: wrote the HTML report {}", out.display());
    Ok(())
}
