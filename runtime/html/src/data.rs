//! The records as the page's embedded JSON: compact rows of indices into one
//! table of distinct strings (ids, outcomes, provenance, responses and
//! details repeat a lot), figures validated and capped.

use crate::figure::{self, clean_text};
use crate::{Options, script_json};
use serde::Serialize;
use serde_json::{Value, json};
use std::collections::HashMap;

/// The fields of a row, in order (`page.js` reads them by these positions).
pub(crate) const COLUMNS: &[&str] = &[
    "id",
    "sample",
    "benchmark",
    "family",
    "outcome",
    "score",
    "fuel_consumed",
    "message",
    "details",
    "figure",
    "response",
    "payload",
    "type",
    "category",
    "module",
    "module_sha256",
    "registry_digest",
    "verigate_version",
    "engine_fingerprint",
    "construction",
    "proof",
    "proof_status",
    "gated",
    "line",
];

#[derive(Serialize)]
struct Embedded<'a> {
    columns: &'a [&'a str],
    strings: Vec<String>,
    rows: Vec<Vec<Value>>,
    page_size: usize,
    skipped: usize,
    truncated_texts: usize,
    figures: usize,
    figure_errors: usize,
    figures_dropped: usize,
    text_cut: usize,
}

#[derive(Default)]
struct Strings {
    index: HashMap<String, usize>,
    list: Vec<String>,
}

impl Strings {
    fn add(&mut self, s: String) -> Value {
        if let Some(&i) = self.index.get(&s) {
            return json!(i);
        }
        let i = self.list.len();
        self.index.insert(s.clone(), i);
        self.list.push(s);
        json!(i)
    }

    fn opt(&mut self, s: Option<String>) -> Value {
        s.map_or(Value::Null, |s| self.add(s))
    }
}

/// `text` cut to `max` characters, saying so at the end.
fn cap(text: &str, max: usize, truncated: &mut usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_owned(),
        Some((at, _)) => {
            *truncated += 1;
            let rest = text.len() - at;
            format!("{}\n… [cut: {rest} more bytes not shown]", &text[..at])
        }
    }
}

/// A JSON value as display text: strings as they are, the rest as JSON.
fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn number_or_null(v: Option<&Value>) -> Value {
    match v {
        Some(Value::Number(n)) => Value::Number(n.clone()),
        _ => Value::Null,
    }
}

/// The key a response line and a record share: id and sample (as JSON).
fn key(v: &Value) -> Option<(String, String)> {
    let id = v.get("id")?.as_str()?.to_owned();
    let sample = v.get("sample").map_or("null".to_owned(), Value::to_string);
    Some((id, sample))
}

/// The embedded JSON text (script-safe) for `records`.
pub(crate) fn embed(records: &[Value], options: &Options) -> String {
    let responses: HashMap<(String, String), &str> = options
        .responses
        .iter()
        .filter_map(|r| Some((key(r)?, r.get("response")?.as_str()?)))
        .collect();
    // The per-text cut: the texts share the page's budget.
    let texts: usize = records
        .iter()
        .map(|r| {
            let has = |k: &str| usize::from(r.get(k).is_some_and(|v| !v.is_null()));
            let response = usize::from(
                r.get("response").is_some_and(Value::is_string)
                    || key(r).is_some_and(|k| responses.contains_key(&k)),
            );
            has("message") + has("details") + 2 * response
        })
        .sum();
    let max = options
        .max_text_chars
        .min((options.text_budget / texts.max(1)).max(options.min_text_chars));
    let mut figure_bytes = 0usize;
    let mut strings = Strings::default();
    let mut rows = Vec::with_capacity(records.len());
    let (mut skipped, mut truncated, mut figures, mut figure_errors) = (0, 0, 0, 0);
    let mut figures_dropped = 0;
    for (line, record) in records.iter().enumerate() {
        let Some(obj) = record.as_object() else {
            skipped += 1;
            continue;
        };
        let Some(id) = obj.get("id").and_then(Value::as_str) else {
            skipped += 1;
            continue;
        };
        let str_field = |k: &str| obj.get(k).and_then(Value::as_str).map(str::to_owned);
        let family = id.rsplit_once('/').map_or("", |(f, _)| f).to_owned();
        let sample = obj.get("sample").map_or("null".to_owned(), text_of);
        let response: Option<String> = obj
            .get("response")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .or_else(|| {
                key(record)
                    .and_then(|k| responses.get(&k).copied())
                    .map(str::to_owned)
            });
        let payload = obj
            .get("payload")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .or_else(|| {
                let hook = options.payload?;
                hook(record, response.as_deref()?)
            });
        // The figure apart; the rest of the details as JSON text.
        let details = obj.get("details").filter(|d| !d.is_null());
        let mut figure_value = Value::Null;
        let details_text = details.map(|d| {
            let mut rest = d.clone();
            if let Some(f) = rest.as_object_mut().and_then(|m| m.remove("figure")) {
                figure_value = match figure::sanitize(&f, &options.figure_limits) {
                    Ok(fig) => {
                        figures += 1;
                        fig
                    }
                    Err(e) => {
                        figure_errors += 1;
                        json!({ "error": e.to_string() })
                    }
                };
            }
            cap(
                &serde_json::to_string_pretty(&rest).unwrap_or_default(),
                max,
                &mut truncated,
            )
        });
        let mut figure_text = (!figure_value.is_null()).then(|| figure_value.to_string());
        if let Some(text) = &figure_text
            && !strings.index.contains_key(text)
        {
            figure_bytes += text.len();
            if figure_bytes > options.figure_budget {
                figures_dropped += 1;
                let why = "not embedded: the page's figure budget is spent (see the results file)";
                figure_text = Some(json!({ "error": why }).to_string());
            }
        }
        let message = str_field("message").map(|m| cap(&m, max, &mut truncated));
        let response = response.map(|r| cap(&r, max, &mut truncated));
        let payload = payload.map(|p| cap(&p, max, &mut truncated));
        let short = |k: &str| str_field(k).map(|s| clean_text(&s, 200));
        let row = vec![
            strings.add(id.to_owned()),
            strings.add(sample),
            strings.opt(short("benchmark")),
            strings.add(family),
            strings.opt(short("outcome")),
            number_or_null(obj.get("score")),
            number_or_null(obj.get("fuel_consumed")),
            strings.opt(message),
            strings.opt(details_text),
            strings.opt(figure_text),
            strings.opt(response),
            strings.opt(payload),
            strings.opt(short("type")),
            strings.opt(short("category")),
            strings.opt(short("module")),
            strings.opt(short("module_sha256")),
            strings.opt(short("registry_digest")),
            strings.opt(short("verigate_version")),
            strings.opt(short("engine_fingerprint")),
            number_or_null(obj.get("construction")),
            number_or_null(obj.get("proof")),
            strings.opt(short("proof_status")),
            number_or_null(obj.get("gated")),
            json!(line + 1),
        ];
        debug_assert_eq!(row.len(), COLUMNS.len());
        rows.push(row);
    }
    script_json(&Embedded {
        columns: COLUMNS,
        strings: strings.list,
        rows,
        page_size: options.page_size.max(1),
        skipped,
        truncated_texts: truncated,
        figures,
        figure_errors,
        figures_dropped,
        text_cut: max,
    })
}
