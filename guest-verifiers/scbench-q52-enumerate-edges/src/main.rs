//! `scbench-q52-enumerate-edges` (verdict-json): SCBench Q52 "VGB2 — Topology Edge Tasks:
//! Enumerate Edges", a port of the benchmark's `52.py` wrapper (index id 53447799866) and
//! VisGeomBench's `verify_topology_edge_tasks` (enumerate subtask).
//!
//! The instance holds the dataset row's `ground_truth`: one list of `[i, j]` edge pairs per
//! square. The payload is the model answer as the runner stored it:
//! `{'edges': [[[i, j], ...], ...]}` (the wrapper then passes `json.dumps(edges)` to the
//! verifier, so tuples count as lists and a set makes it raise), a bare list, or free text
//! (read through VisGeomBench's `PythonLiteralParser`, ported in `parser`).
//!
//! The verifier's rules, in its order: the text parses (JSON, else a Python literal) as a
//! list, else `parse_failure`; it has one entry per square (`length_mismatch`); then for
//! every square (all are checked, errors collected): the entry is a list (`not a list`),
//! each pair a 2-item list (`invalid pair format`) of ints (`non-integer in pair`; `True`
//! is an int, `1.0` is not) with i < j (`pair not sorted`), and the sorted pair list equals
//! the ground truth's (else the square's index is `missing`). It passes with no error and
//! nothing missing. The message is the wrapper's explanation, exactly:
//! `<b>passed:</b> False<br><b>missing:</b> [2]<br><b>errors:</b> []`.

#[cfg(test)]
mod tests;

use serde::Deserialize;
use verigate_sdk::Verdict;
use verigate_sdk::python::literal::{json_roundtrip, parse_answer};
use verigate_sdk::python::{BigInt, Value};
use verigate_sdk::serde_json::json;

#[derive(Deserialize)]
pub struct Instance {
    ground_truth: Vec<Vec<[i64; 2]>>,
}

/// What reaches the verifier.
enum Input {
    /// A list that went through `json.dumps` / `json.loads`.
    List(Value),
    /// Text for `_parse_list`.
    Text(String),
}

/// `_extract_edges` and the wrapper's fallback; `Err` where the wrapper raises.
fn input(answer: &Value, text: &str) -> Result<Input, String> {
    let edges = if let Some(d) = answer.as_dict() {
        d.get("edges").filter(|e| e.as_list().is_some()).cloned()
    } else if answer.as_str().is_some() {
        // The whole text did not parse: the parser's extract, parsed: a dict's list of
        // edges, or a list.
        parse_answer(text)
            .map_err(raised)?
            .filter(|s| !s.is_empty())
            .and_then(|s| parse_structured(&s))
            .and_then(|v| match v.as_dict() {
                Some(d) => d.get("edges").filter(|e| e.as_list().is_some()).cloned(),
                None => Some(v).filter(|v| v.as_list().is_some()),
            })
    } else {
        None
    };
    match edges {
        Some(list) => json_roundtrip(&list)
            .map(Input::List)
            .map_err(|e| format!("json.dumps(edges) raises TypeError: {e}")),
        None => {
            let raw = match answer.as_str() {
                Some(_) => text.to_owned(),
                None => answer.to_string(),
            };
            // `PARSER.parse_answer(raw) or raw`
            let extracted = parse_answer(&raw)
                .map_err(raised)?
                .filter(|s| !s.is_empty())
                .unwrap_or(raw);
            Ok(Input::Text(extracted))
        }
    }
}

/// The answer parser's `ast.literal_eval` raised something it does not catch.
fn raised(why: String) -> String {
    format!("ast.literal_eval raises {why} in the answer parser")
}

/// `_parse_structured_payload`: JSON, else a Python literal.
fn parse_structured(text: &str) -> Option<Value> {
    let t = text.trim();
    verigate_sdk::serde_json::from_str::<verigate_sdk::serde_json::Value>(t)
        .ok()
        .map(|json| verigate_sdk::python::from_json(&json))
        .or_else(|| verigate_sdk::python::eval(t).ok())
}

/// `_parse_list`: JSON, else a Python literal; only a list counts.
fn parse_list(text: &str) -> Option<Value> {
    let t = text.trim();
    if let Ok(json) = verigate_sdk::serde_json::from_str::<verigate_sdk::serde_json::Value>(t) {
        let v = verigate_sdk::python::from_json(&json);
        if v.as_list().is_some() {
            return Some(v);
        }
    }
    verigate_sdk::python::eval(t)
        .ok()
        .filter(|v| v.as_list().is_some())
}

/// `isinstance(x, int)` (bools included) as an integer.
fn int_of(v: &Value) -> Option<BigInt> {
    v.as_bool()
        .map(|b| BigInt::from(u8::from(b)))
        .or_else(|| v.as_bigint())
}

/// Python's repr of a list of strings without quotes in them.
fn repr_strs(items: &[String]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| format!("'{s}'")).collect();
    format!("[{}]", quoted.join(", "))
}

fn explanation(passed: bool, missing: &[usize], errors: &[String]) -> String {
    let missing: Vec<String> = missing.iter().map(ToString::to_string).collect();
    format!(
        "<b>passed:</b> {}<br><b>missing:</b> [{}]<br><b>errors:</b> {}",
        if passed { "True" } else { "False" },
        missing.join(", "),
        repr_strs(errors)
    )
}

/// `verify_topology_edge_tasks(..., return_diff=True)` on a parsed list.
fn verify(parsed: &[Value], truth: &[Vec<[i64; 2]>]) -> (bool, Vec<usize>, Vec<String>) {
    if parsed.len() != truth.len() {
        let e = format!(
            "length_mismatch: expected {}, got {}",
            truth.len(),
            parsed.len()
        );
        return (false, vec![], vec![e]);
    }
    if truth.is_empty() {
        return (true, vec![], vec![]);
    }
    let (mut missing, mut errors) = (Vec::new(), Vec::new());
    'square: for (idx, (pred, gt)) in parsed.iter().zip(truth).enumerate() {
        let Some(pairs) = pred.as_list() else {
            errors.push(format!("idx_{idx}: not a list"));
            continue;
        };
        let mut norm: Vec<(BigInt, BigInt)> = Vec::with_capacity(pairs.len());
        for pair in pairs {
            let Some(items) = pair.as_list().filter(|p| p.len() == 2) else {
                errors.push(format!("idx_{idx}: invalid pair format"));
                continue 'square;
            };
            let (Some(i), Some(j)) = (int_of(&items[0]), int_of(&items[1])) else {
                errors.push(format!("idx_{idx}: non-integer in pair"));
                continue 'square;
            };
            if i >= j {
                errors.push(format!("idx_{idx}: pair not sorted (i < j required)"));
                continue 'square;
            }
            norm.push((i, j));
        }
        norm.sort();
        let mut want: Vec<(BigInt, BigInt)> = gt
            .iter()
            .map(|p| (BigInt::from(p[0]), BigInt::from(p[1])))
            .collect();
        want.sort();
        if norm != want {
            missing.push(idx);
        }
    }
    (errors.is_empty() && missing.is_empty(), missing, errors)
}

pub fn grade(instance: &Instance, text: &str) -> Verdict {
    let answer = verigate_sdk::python::answer(text);
    if !answer.truthy() {
        return Verdict::falsy_answer();
    }
    let parsed = match input(&answer, text) {
        Err(why) => {
            return Verdict::raised(why);
        }
        Ok(Input::List(list)) => Some(list),
        Ok(Input::Text(t)) => parse_list(&t),
    };
    let Some(parsed) = parsed else {
        return Verdict::fail(explanation(false, &[], &["parse_failure".to_owned()]))
            .with_details(json!({"parse_failure": true}));
    };
    let items = parsed.as_list().unwrap_or_default();
    let (passed, missing, errors) = verify(items, &instance.ground_truth);
    let message = explanation(passed, &missing, &errors);
    let details = json!({
        "squares": instance.ground_truth.len(),
        "answered": items.len(),
        "wrong_squares": missing,
        "errors": errors.len(),
    });
    if passed {
        Verdict::pass().with_message(message)
    } else {
        Verdict::fail(message)
    }
    .with_details(details)
}

verigate_sdk::main!(verdict_json, grade_instance(grade));
