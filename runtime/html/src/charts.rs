//! Inline SVG charts drawn from the report JSON's numbers (never recomputed):
//! bars of a rate per group, bars of counts, and a heat map of a per-run
//! table. Every mark carries the `data-value` it shows.

use crate::escape;
use crate::tables::show_number;
use serde_json::{Map, Value};
use std::fmt::Write;

const WIDTH: f64 = 640.0;
const LABEL_W: f64 = 210.0;
const VALUE_W: f64 = 110.0;
const ROW_H: f64 = 22.0;
/// Most bars in one chart; the rest are named in a note.
const MAX_BARS: usize = 80;

/// Cuts a label for a chart axis (the whole label is in the mark's tooltip).
fn short(label: &str, max: usize) -> String {
    if label.chars().count() <= max {
        label.to_owned()
    } else {
        let mut s: String = label.chars().take(max - 1).collect();
        s.push('…');
        s
    }
}

fn fmt(x: f64) -> String {
    format!("{x:.1}")
}

fn frame(title: &str, height: f64, body: &str, note: &str) -> String {
    format!(
        "<figure class=\"chart\"><figcaption>{}</figcaption><svg class=\"chart-svg\" viewBox=\"0 0 {} {}\" width=\"{}\" height=\"{}\" role=\"img\" aria-label=\"{}\">{}</svg>{}</figure>\n",
        escape(title),
        WIDTH,
        fmt(height),
        WIDTH,
        fmt(height),
        escape(title),
        body,
        note
    )
}

fn overflow_note(total: usize) -> String {
    if total > MAX_BARS {
        format!(
            "<p class=\"note\">first {MAX_BARS} of {total} shown; the table above has them all</p>"
        )
    } else {
        String::new()
    }
}

/// Horizontal bars of the rate `key` (a fraction in [0, 1]) of each
/// `{"group": …}` row, with its standard error as a whisker when the row has one.
pub(crate) fn score_bars(title: &str, rows: &[Value], key: &str) -> String {
    let bar_w = WIDTH - LABEL_W - VALUE_W;
    let mut body = String::new();
    let mut y = 6.0;
    let mut shown = 0;
    for row in rows.iter().take(MAX_BARS) {
        let Some(group) = row.get("group").and_then(Value::as_str) else {
            continue;
        };
        let Some(n) = row.get(key).and_then(|v| match v {
            Value::Number(n) => Some(n),
            _ => None,
        }) else {
            continue;
        };
        let v = n.as_f64().unwrap_or(0.0);
        let w = bar_w * v.clamp(0.0, 1.0);
        let se = ["_se", "_stderr", "_sem"]
            .iter()
            .find_map(|s| row.get(format!("{key}{s}")))
            .or_else(|| row.get("se").and_then(|o| o.get(key)))
            .or_else(|| row.get("stderr").and_then(|o| o.get(key)))
            .and_then(|v| match v {
                Value::Number(n) => Some(n),
                _ => None,
            });
        let mut text = show_number(n, true);
        if let Some(se) = se {
            text = format!("{text} ± {}", show_number(se, true));
        }
        let _ = write!(
            body,
            "<g class=\"bar\" data-group=\"{g}\" data-value=\"{n}\"><title>{g}: {t} %</title>\
             <text class=\"axis\" x=\"{lx}\" y=\"{ty}\" text-anchor=\"end\">{gs}</text>\
             <rect class=\"track\" x=\"{x0}\" y=\"{y}\" width=\"{bw}\" height=\"{h}\"></rect>\
             <rect class=\"fill\" x=\"{x0}\" y=\"{y}\" width=\"{w}\" height=\"{h}\"></rect>",
            g = escape(group),
            t = escape(&text),
            gs = escape(&short(group, 30)),
            lx = fmt(LABEL_W - 8.0),
            ty = fmt(y + 15.0),
            x0 = fmt(LABEL_W),
            y = fmt(y),
            bw = fmt(bar_w),
            w = fmt(w),
            h = fmt(ROW_H - 6.0),
        );
        if let Some(se) = se.and_then(serde_json::Number::as_f64) {
            let (a, b) = (
                LABEL_W + bar_w * (v - se).clamp(0.0, 1.0),
                LABEL_W + bar_w * (v + se).clamp(0.0, 1.0),
            );
            let cy = y + (ROW_H - 6.0) / 2.0;
            let _ = write!(
                body,
                "<path class=\"whisker\" d=\"M{} {}H{}M{} {}V{}M{} {}V{}\"></path>",
                fmt(a),
                fmt(cy),
                fmt(b),
                fmt(a),
                fmt(cy - 4.0),
                fmt(cy + 4.0),
                fmt(b),
                fmt(cy - 4.0),
                fmt(cy + 4.0)
            );
        }
        let _ = write!(
            body,
            "<text class=\"value\" x=\"{}\" y=\"{}\">{}</text></g>",
            fmt(LABEL_W + bar_w + 6.0),
            fmt(y + 15.0),
            escape(&text)
        );
        y += ROW_H;
        shown += 1;
    }
    if shown == 0 {
        return String::new();
    }
    frame(
        &format!("{title} (%)"),
        y + 6.0,
        &body,
        &overflow_note(rows.len()),
    )
}

/// Horizontal bars of counts (e.g. records per outcome).
pub(crate) fn count_bars(title: &str, counts: &Map<String, Value>) -> String {
    let bar_w = WIDTH - LABEL_W - VALUE_W;
    let max = counts
        .values()
        .filter_map(Value::as_f64)
        .fold(0.0, f64::max);
    if counts.is_empty() || max <= 0.0 {
        return String::new();
    }
    let mut body = String::new();
    let mut y = 6.0;
    for (name, value) in counts.iter().take(MAX_BARS) {
        let Some(v) = value.as_f64() else { continue };
        let class = match name.as_str() {
            "pass" => "fill ok",
            "fail" => "fill bad",
            "no_verifier" => "fill muted",
            _ => "fill warn",
        };
        let _ = write!(
            body,
            "<g class=\"bar\" data-group=\"{g}\" data-value=\"{value}\"><title>{g}: {value}</title>\
             <text class=\"axis\" x=\"{lx}\" y=\"{ty}\" text-anchor=\"end\">{gs}</text>\
             <rect class=\"{class}\" x=\"{x0}\" y=\"{y}\" width=\"{w}\" height=\"{h}\"></rect>\
             <text class=\"value\" x=\"{vx}\" y=\"{ty}\">{value}</text></g>",
            g = escape(name),
            gs = escape(&short(name, 30)),
            lx = fmt(LABEL_W - 8.0),
            ty = fmt(y + 15.0),
            x0 = fmt(LABEL_W),
            y = fmt(y),
            w = fmt((bar_w * v / max).max(1.0)),
            h = fmt(ROW_H - 6.0),
            vx = fmt(LABEL_W + bar_w * v / max + 6.0),
        );
        y += ROW_H;
    }
    frame(title, y + 6.0, &body, &overflow_note(counts.len()))
}

/// A colour from white (0) to deep blue (1).
fn heat(v: f64) -> String {
    let t = v.clamp(0.0, 1.0);
    let (a, b) = ((247.0, 251.0, 255.0), (8.0, 69.0, 148.0));
    let mix = |p: f64, q: f64| (p + (q - p) * t).round() as u8;
    format!(
        "#{:02x}{:02x}{:02x}",
        mix(a.0, b.0),
        mix(a.1, b.1),
        mix(a.2, b.2)
    )
}

/// A heat map of a per-run table: a row per task, a column per run, each
/// cell coloured by its value (a rate in [0, 1]) and labelled with it.
pub(crate) fn heat_map(
    title: &str,
    runs: &[String],
    rows: &[Value],
    label_key: Option<&str>,
    array: &str,
    percent: bool,
    base: &str,
) -> String {
    if runs.is_empty() || rows.is_empty() {
        return String::new();
    }
    let all_runs = runs.len();
    let runs = &runs[..all_runs.min(crate::tables::MAX_RUNS)];
    let cell_w = ((WIDTH + 260.0 - LABEL_W) / runs.len() as f64).clamp(44.0, 96.0);
    let header_h = 120.0;
    let width = LABEL_W + cell_w * runs.len() as f64 + 10.0;
    let mut body = String::new();
    for (r, run) in runs.iter().enumerate() {
        let x = LABEL_W + cell_w * (r as f64 + 0.5);
        let _ = write!(
            body,
            "<text class=\"axis run\" transform=\"translate({} {}) rotate(-40)\"><title>{}</title>{}</text>",
            fmt(x),
            fmt(header_h - 8.0),
            escape(run),
            escape(&short(run, 30))
        );
    }
    let mut y = header_h;
    for (i, row) in rows.iter().enumerate().take(MAX_BARS) {
        let label = label_key
            .and_then(|k| row.get(k))
            .and_then(Value::as_str)
            .unwrap_or("");
        let subtotal = row.get("number").is_some_and(Value::is_null);
        let _ = write!(
            body,
            "<text class=\"axis{}\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
            if subtotal { " subtotal" } else { "" },
            fmt(LABEL_W - 8.0),
            fmt(y + 15.0),
            escape(&short(label, 30))
        );
        let values = row.get(array).and_then(Value::as_array);
        for (r, run) in runs.iter().enumerate() {
            let x = LABEL_W + cell_w * r as f64;
            let Some(Value::Number(n)) = values.and_then(|v| v.get(r)) else {
                continue;
            };
            let v = n.as_f64().unwrap_or(0.0);
            let text = show_number(n, percent);
            let _ = write!(
                body,
                "<g class=\"heat-cell\" data-path=\"{base}/rows/{i}/{array}/{r}\" data-value=\"{n}\">\
                 <title>{label} · {run}: {text}</title>\
                 <rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" fill=\"{fill}\"></rect>\
                 <text x=\"{tx}\" y=\"{ty}\" text-anchor=\"middle\" class=\"{tc}\">{text}</text></g>",
                base = escape(base),
                array = escape(array),
                label = escape(label),
                run = escape(run),
                text = escape(&text),
                x = fmt(x + 1.0),
                y = fmt(y + 1.0),
                w = fmt(cell_w - 2.0),
                h = fmt(ROW_H - 2.0),
                fill = heat(if percent { v } else { 0.0 }),
                tx = fmt(x + cell_w / 2.0),
                ty = fmt(y + 15.0),
                tc = if percent && v > 0.55 { "light" } else { "dark" },
            );
        }
        y += ROW_H;
    }
    format!(
        "<figure class=\"chart heat\"><figcaption>{}</figcaption><div class=\"scroll\"><svg class=\"chart-svg\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" role=\"img\" aria-label=\"{}\">{}</svg></div>{}</figure>\n",
        escape(&format!("{title}{}", if percent { " (%)" } else { "" })),
        escape(title),
        body,
        {
            let mut note = overflow_note(rows.len());
            if all_runs > runs.len() {
                note.push_str(&format!(
                    "<p class=\"note\">first {} of {all_runs} runs drawn; the table above has them all</p>",
                    runs.len()
                ));
            }
            note
        },
        w = fmt(width),
        h = fmt(y + 6.0),
    )
}
