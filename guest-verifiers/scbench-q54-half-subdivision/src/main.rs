//! `scbench-q54-half-subdivision` (verdict-json): SCBench Q54 "VGB4 — Half Subdivision
//! Neighbours", a port of the benchmark's `54.py` wrapper (commit 0ac70f2) and
//! VisGeomBench's `verify_half_subdivision_neighbours`.
//!
//! The instance holds the dataset row's `ground_truth`: the labels (strings of 0/1) of the
//! leaves sharing a face (3-D) or a boundary segment (2-D) with the target leaf. The
//! payload is the model answer as the runner stored it: `{'neighbors': [...]}` (the wrapper
//! passes `json.dumps(neighbors)` to the verifier, so a set in it makes the wrapper raise),
//! or anything else, whose text (the answer's `repr` if it is not a string) goes to the
//! verifier through VisGeomBench's `PythonLiteralParser` (ported in `parser`: fenced code,
//! the last balanced bracket, the whole text, or a plain comma-separated list), else as is.
//!
//! The verifier reads a token list by three strategies in turn — a JSON array, a Python
//! literal list or tuple, comma/newline-separated text — and takes the first whose tokens
//! all normalise: ints and integral floats become their decimal string (`101` → "101": a
//! leading zero is lost; bools are refused), strings are stripped, `""` and `'""'` are the
//! root, anything else must be a non-empty string of 0s and 1s; an invalid token **or a
//! duplicate** makes the strategy fail. If none succeeds it is a `parse_failure`. The answer
//! passes when its label set equals the ground truth's. The message is the wrapper's
//! explanation, exactly:
//! `<b>passed:</b> False<br><b>missing:</b> ['0110']<br><b>extra:</b> []<br><b>errors:</b> []`.

#[cfg(test)]
mod tests;

use std::collections::BTreeSet;

use serde::Deserialize;
use verigate_sdk::Verdict;
use verigate_sdk::python::literal::{Literal, json_roundtrip, literal_eval, parse_answer};
use verigate_sdk::python::{BigInt, Value};
use verigate_sdk::serde_json::json;

#[derive(Deserialize)]
pub struct Instance {
    ground_truth: Vec<String>,
}

/// CPython's `str(int)` refuses more digits than this.
const MAX_STR_DIGITS: usize = 4300;

use verigate_sdk::py_strip;

/// `_normalise_token`; `Err` where it raises (an int too long for `str`).
fn normalise(token: &Value) -> Result<Option<String>, String> {
    let text = if token.as_bool().is_some() || token.is_none() {
        return Ok(None);
    } else if let Some(i) = token.as_bigint() {
        decimal(&i)?
    } else if let Some(f) = token.as_f64() {
        if !f.is_finite() || f.fract() != 0.0 {
            return Ok(None);
        }
        decimal(&float_to_int(f))?
    } else if let Some(s) = token.as_str() {
        py_strip(s).to_owned()
    } else {
        return Ok(None);
    };
    Ok(label(&text))
}

/// The root for `""` / `'""'`, else a non-empty 0/1 string.
fn label(text: &str) -> Option<String> {
    if text.is_empty() || text == "\"\"" {
        Some(String::new())
    } else if text.chars().all(|c| c == '0' || c == '1') {
        Some(text.to_owned())
    } else {
        None
    }
}

fn decimal(i: &BigInt) -> Result<String, String> {
    let s = i.to_string();
    if s.trim_start_matches('-').len() > MAX_STR_DIGITS {
        return Err(format!(
            "str() of a {}-digit int raises ValueError",
            s.len()
        ));
    }
    Ok(s)
}

/// `int(f)` of an integral float, exactly.
fn float_to_int(f: f64) -> BigInt {
    let bits = f.to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as i64;
    if exponent == 0 {
        return BigInt::from(0);
    }
    let mantissa = (bits & ((1u64 << 52) - 1)) | (1u64 << 52);
    let shift = exponent - 1075;
    let magnitude = if shift >= 0 {
        BigInt::from(mantissa) << (shift as usize)
    } else {
        BigInt::from(mantissa >> ((-shift) as u32).min(63))
    };
    if f < 0.0 { -magnitude } else { magnitude }
}

/// `_from_iterable`: every token valid, no duplicate.
fn from_iterable<'a>(
    tokens: impl IntoIterator<Item = &'a Value>,
) -> Result<Option<Vec<String>>, String> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for token in tokens {
        match normalise(token)? {
            Some(l) if seen.insert(l.clone()) => out.push(l),
            _ => return Ok(None),
        }
    }
    Ok(Some(out))
}

/// `_parse_sequence`: JSON array, Python literal, then comma/newline-separated tokens.
fn parse_sequence(raw: &str) -> Result<Option<Vec<String>>, String> {
    let text = py_strip(raw);
    if text.is_empty() {
        return Ok(Some(Vec::new()));
    }
    if let Ok(json) = verigate_sdk::serde_json::from_str::<verigate_sdk::serde_json::Value>(text) {
        let v = verigate_sdk::python::from_json(&json);
        if let Some(items) = v.as_list()
            && let Some(labels) = from_iterable(items)?
        {
            return Ok(Some(labels));
        }
    }
    if let Literal::Value(v) = literal_eval(text)
        && let Some(items) = v.as_sequence()
        && let Some(labels) = from_iterable(items)?
    {
        return Ok(Some(labels));
    }
    let candidates: Vec<Value> = text
        .replace('\n', ",")
        .split(',')
        .map(py_strip)
        .filter(|t| !t.is_empty())
        .map(Value::from)
        .collect();
    if candidates.is_empty() {
        return Ok(None);
    }
    from_iterable(&candidates)
}

/// The labels the verifier reads from the stored answer (`Ok(None)`: `parse_failure`;
/// `Err`: the original raises).
fn labels(answer: &Value, text: &str) -> Result<Option<Vec<String>>, String> {
    if let Some(list) = answer
        .as_dict()
        .and_then(|d| d.get("neighbors"))
        .filter(|v| v.as_list().is_some())
    {
        // json.dumps(neighbors): the JSON strategy reads the same values back; when it
        // fails the literal strategy reads the same values and the comma split starts
        // with "[", so nothing else can succeed.
        let list = json_roundtrip(list)
            .map_err(|e| format!("json.dumps(neighbors) raises TypeError: {e}"))?;
        return from_iterable(list.as_list().unwrap_or_default());
    }
    let raw = match answer.as_str() {
        Some(_) => text.to_owned(),
        None => answer.to_string(),
    };
    // `PARSER.parse_answer(raw) or raw`
    let extracted = parse_answer(&raw)
        .map_err(|why| format!("ast.literal_eval raises {why} in the answer parser"))?
        .filter(|s| !s.is_empty())
        .unwrap_or(raw);
    parse_sequence(&extracted)
}

/// Python's repr of a list of labels (0/1 strings: no quoting subtleties).
fn repr(labels: &[&String]) -> String {
    let quoted: Vec<String> = labels.iter().map(|l| format!("'{l}'")).collect();
    format!("[{}]", quoted.join(", "))
}

fn explanation(passed: bool, missing: &[&String], extra: &[&String], errors: &str) -> String {
    format!(
        "<b>passed:</b> {}<br><b>missing:</b> {}<br><b>extra:</b> {}<br><b>errors:</b> {errors}",
        if passed { "True" } else { "False" },
        repr(missing),
        repr(extra)
    )
}

pub fn grade(instance: &Instance, text: &str) -> Verdict {
    let answer = verigate_sdk::python::answer(text);
    if !answer.truthy() {
        return Verdict::falsy_answer();
    }
    let predicted = match labels(&answer, text) {
        Err(why) => {
            return Verdict::raised(why);
        }
        Ok(None) => {
            return Verdict::fail(explanation(false, &[], &[], "['parse_failure']"))
                .with_details(json!({"parse_failure": true}));
        }
        Ok(Some(p)) => p,
    };
    let truth: BTreeSet<String> = instance
        .ground_truth
        .iter()
        .filter_map(|l| label(py_strip(l)))
        .collect();
    let predicted: BTreeSet<String> = predicted.into_iter().collect();
    // sorted(): code-point order, as BTreeSet<String> iterates.
    let missing: Vec<&String> = truth.difference(&predicted).collect();
    let extra: Vec<&String> = predicted.difference(&truth).collect();
    let passed = missing.is_empty() && extra.is_empty();
    let message = explanation(passed, &missing, &extra, "[]");
    let details = json!({
        "neighbours": truth.len(),
        "answered": predicted.len(),
        "missing": missing.len(),
        "extra": extra.len(),
    });
    if passed {
        Verdict::pass().with_message(message)
    } else {
        Verdict::fail(message)
    }
    .with_details(details)
}

verigate_sdk::main!(verdict_json, grade_instance(grade));
