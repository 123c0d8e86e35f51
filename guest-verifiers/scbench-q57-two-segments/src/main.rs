//! `scbench-q57-two-segments` (verdict-json): SCBench Q57 "VGB5 — Two Segments", a port of
//! the benchmark's `57.py` (commit 0ac70f2) and VisGeomBench's
//! `visual_geometry_bench/verification/two_segments.py` (8acfef2, unchanged since),
//! with the answer parser `evaluation/answer_parser.py` for free-text answers.
//!
//! The instance is the record's `datagen_args`: `counts` (shape → count), `snap_decimals`
//! d (default 2), optional `coordinate_grid` and `corners`. The payload is the model
//! answer as the runner replays it: a Python literal (`{'segments': [[[x, y], [x, y]],
//! [[x, y], [x, y]]]}` as stored), else JSON, else free text.
//!
//! As in `57.py`: a dict holding a list under `segments` goes through `json.dumps` and back
//! through `ast.literal_eval`, so a `True`, `None`, NaN or infinity anywhere in it is a
//! parse failure (and a set raises); anything else is `repr`'d (text stays text) and goes
//! through the parser (last code fence, last balanced bracket, whole text, scalar list),
//! where bools count as numbers. Then the verifier: a list of exactly two pairs of
//! `[x, y]` numbers; with tol = 0.5·10^−d, per segment in order, mapped to the unit
//! square by corners 0, 1 and 3: not degenerate, each endpoint on the grid (original
//! coordinates), inside [−tol, 1+tol]² and within tol of the boundary, not lying along
//! one edge; then the endpoints are rounded to d decimals (a rounded endpoint off the
//! boundary is `invalid_segments`), the two segments and the four edges are unioned and
//! polygonized as GEOS does (see `arrangement`), each face's vertices are rounded to d
//! decimals, repeated ones dropped, and the first vertex whose rounded cross product
//! is 0 removed until none is; faces of 3–6 vertices are counted and the counts must equal
//! `counts`. Score 1 or 0; the message is the original's explanation (`_format_diff`,
//! HTML and all) and `details.reason` says what failed in words. Where the original
//! raises (a set or a huge int in the answer), the verdict fails saying so.
//!
//! Floats matter to the last bit (rounding at d decimals, the tolerance tests), so
//! `instance.json` and JSON answers are read as Python reads them (through the SDK's
//! evaluator: correctly rounded floats, key order kept), not with `serde_json`, whose
//! default float parsing can be one ulp off. Checked against the original run with
//! shapely 2.2 / GEOS 3.14: 62,392 random and adversarial answers on the 27 rows and five
//! extra instances agree on score and explanation, as do all 19 stored paper answers.

mod arrangement;
mod pyfloat;
mod verify;

use verify::{Diff, Instance, counts_repr, verify};
use verigate_sdk::Verdict;
use verigate_sdk::python::literal::{Literal, literal_eval, parse_answer};
use verigate_sdk::python::{Value, from_json};
use verigate_sdk::serde_json::{self, json};

fn raises(why: &str) -> Verdict {
    Verdict::raised(why)
}

/// JSON text as Python's `json.loads` reads it (floats correctly rounded, key
/// order kept): valid JSON is rewritten as the equal Python literal
/// (`true`/`false`/`null` → `True`/`False`/`None`, `\/` → `/`) and evaluated.
fn json_loads(text: &str) -> Option<Value> {
    let parsed = serde_json::from_str::<serde_json::Value>(text).ok()?;
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            match c {
                '\\' if chars.peek() == Some(&'/') => {
                    chars.next();
                    out.push('/');
                }
                '\\' => {
                    out.push(c);
                    out.extend(chars.next());
                }
                '"' => {
                    in_string = false;
                    out.push(c);
                }
                _ => out.push(c),
            }
        } else if c == '"' {
            in_string = true;
            out.push(c);
        } else if c.is_ascii_alphabetic() {
            let mut word = String::from(c);
            while let Some(&n) = chars.peek().filter(|n| n.is_ascii_alphabetic()) {
                word.push(n);
                chars.next();
            }
            out.push_str(match word.as_str() {
                "true" => "True",
                "false" => "False",
                "null" => "None",
                other => other,
            });
        } else {
            out.push(c);
        }
    }
    Some(verigate_sdk::python::eval(&out).unwrap_or_else(|_| from_json(&parsed)))
}

/// The answer as the runner replays it: a Python literal, else JSON (a
/// structured-output answer), else the text.
fn replay(text: &str) -> Value {
    let trimmed = text.trim();
    if let Literal::Value(v) = literal_eval(trimmed) {
        return v;
    }
    json_loads(trimmed).unwrap_or_else(|| Value::from(text))
}

/// `_format_diff`: the explanation string the runner stored.
fn explanation(diff: &Diff, inst: &Instance) -> String {
    let errors: Vec<String> = diff.errors.iter().map(|e| format!("'{e}'")).collect();
    let mut lines = vec![
        format!(
            "<b>passed:</b> {}",
            if diff.passed { "True" } else { "False" }
        ),
        format!("<b>errors:</b> [{}]", errors.join(", ")),
    ];
    match &diff.raw_output {
        Some(raw) => lines.push(format!("<b>details.raw_output:</b> {raw}")),
        None => {
            let corners = &inst.corners_repr;
            lines.push(format!(
                "<b>details.counts_expected:</b> {}",
                counts_repr(&inst.counts)
            ));
            lines.push(format!(
                "<b>details.counts_observed:</b> {}",
                counts_repr(&diff.observed)
            ));
            lines.push(format!("<b>details.used_corners:</b> {corners}"));
        }
    }
    lines.join("<br>")
}

fn grade(inst: &Instance, text: &str) -> Verdict {
    let result = replay(text);
    if !result.truthy() {
        return Verdict::falsy_answer();
    }
    let listed = result
        .as_dict()
        .and_then(|d| d.get("segments"))
        .filter(|s| s.as_list().is_some());
    let extracted = match listed {
        Some(segments) => match pyfloat::json_dumps(segments) {
            Ok(s) => s,
            Err(why) => return raises(&format!("json.dumps(segments): TypeError: {why}")),
        },
        None => {
            let raw = match result.as_str() {
                Some(s) => s.to_owned(),
                None => result.to_string(),
            };
            match parse_answer(&raw) {
                Ok(Some(found)) => found,
                Ok(None) => raw,
                Err(why) => return raises(&format!("the answer parser: {why}")),
            }
        }
    };
    let diff = match verify(&extracted, inst) {
        Ok(diff) => diff,
        Err(why) => return raises(&why),
    };
    let message = explanation(&diff, inst);
    let details = json!({
        "errors": diff.errors,
        "reason": diff.reason,
        "counts_observed": diff.observed.iter().map(|(k, v)| json!([k, v])).collect::<Vec<_>>(),
        "face_vertices": diff.faces,
    });
    let verdict = if diff.passed {
        Verdict::pass().with_message(message)
    } else {
        Verdict::fail(message)
    };
    verdict.with_details(details)
}

/// The instance, read from `instance.json` as Python would read it.
fn load_instance(text: &str) -> Result<Instance, String> {
    let value = json_loads(text).ok_or("instance.json is not valid JSON")?;
    Instance::from_value(&value)
}

verigate_sdk::main!(verdict_json, || {
    let instance = load_instance(&verigate_sdk::item_string("instance.json")?)
        .map_err(verigate_sdk::Error::msg)?;
    Ok(grade(&instance, verigate_sdk::payload()?))
});

#[cfg(test)]
mod tests;
