//! `scbench-q9-hamiltonian-loop` (verdict-json): SCBench Q9 "Hamiltonian Loop on Grid",
//! a port of `gradeAnswer` in the benchmark's `9.py` (index id 53491383584).
//!
//! The instance (`/item/instance.json`) gives the grid `size`, the `blocked` cells as
//! 1-based `[x, y]` pairs and the `expected_steps` (= size² − #blocked). The payload is the
//! model answer as the original grader saw it: a Python literal (the repository stores
//! answers as `repr`), usually `{'steps': [{'xy': [x, y]}, ...]}`; text that is not a
//! Python literal is graded as a plain string, as the original replay does.
//!
//! Scores are 0 or 1 and follow the original check order and quirks exactly:
//! the first step must be adjacent to the last (closure), only `xy[0]` and `xy[1]` are read
//! for bounds and adjacency, the blocked test truncates with `int()`, and the repeat test
//! compares the whole `tuple(xy)`. Where the original raises an exception (its runner then
//! records the sentinel score 10000), this verifier fails with a message saying so.

use serde::Deserialize;
use verigate_sdk::python::{BigInt, Value};
use verigate_sdk::serde_json::json;
use verigate_sdk::{Result, Verdict, fail};

#[derive(Deserialize)]
struct Instance {
    size: u32,
    blocked: Vec<(i64, i64)>,
    expected_steps: usize,
}

/// A failure where the original grader raises (runner score 10000, "framework error").
macro_rules! raises {
    ($($arg:tt)*) => {
        fail!("{} {}", format!($($arg)*), verigate_sdk::RAISED)
    };
}

/// A Python number (`int`, `bool` or `float`) as `f64`; ints beyond `i64` map to ±∞,
/// which preserves every comparison the grader makes against the grid size.
fn number(v: &Value) -> Option<f64> {
    if let Some(b) = v.as_bool() {
        return Some(f64::from(u8::from(b)));
    }
    if let Some(f) = v.as_f64() {
        return Some(f);
    }
    if let Some(i) = v.as_i64() {
        return Some(i as f64);
    }
    v.as_bigint().map(|b| {
        if b < BigInt::from(0) {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        }
    })
}

/// `step["xy"]` of step `index` (1-based in messages) with its first two coordinates.
fn coordinates(step: &Value, index: usize) -> Result<(&Value, f64, f64)> {
    let Some(xy) = step.as_dict().and_then(|d| d.get("xy")) else {
        raises!("step {index}: {} has no 'xy'", step.repr_short(60));
    };
    let Some(items) = xy.as_sequence() else {
        raises!("step {index}: xy = {} is not a list", xy.repr_short(60));
    };
    if items.len() < 2 {
        raises!(
            "step {index}: xy = {} has fewer than 2 coordinates",
            xy.repr_short(60)
        );
    }
    match (number(&items[0]), number(&items[1])) {
        (Some(x), Some(y)) => Ok((xy, x, y)),
        _ => raises!(
            "step {index}: xy = {} holds a non-number",
            xy.repr_short(60)
        ),
    }
}

fn verify() -> Result<Verdict> {
    let instance: Instance = verigate_sdk::instance()?;
    let text = verigate_sdk::payload()?;
    // The replay in the original harness falls back to the raw string when the stored
    // answer is not a Python literal.
    let answer = verigate_sdk::python::answer(text);
    if !answer.truthy() {
        return Ok(Verdict::falsy_answer());
    }
    let steps = match (answer.as_dict(), answer.as_str()) {
        (Some(d), _) => d.get("steps"),
        (None, Some(s)) if s.contains("steps") => {
            raises!("the answer is a string, not a dict with 'steps'")
        }
        (None, Some(_)) => None,
        (None, None)
            if answer
                .as_sequence()
                .is_some_and(|s| s.contains(&Value::from("steps"))) =>
        {
            raises!(
                "the answer is a {}, not a dict with 'steps'",
                answer.type_name()
            )
        }
        (None, None) => None,
    };
    let Some(steps) = steps else {
        fail!("No steps provided");
    };
    // `len(answer["steps"])` as Python computes it.
    let len = match (
        steps.as_sequence(),
        steps.as_str(),
        steps.as_dict(),
        steps.as_set(),
    ) {
        (Some(s), ..) => s.len(),
        (_, Some(s), ..) => s.chars().count(),
        (_, _, Some(d), _) => d.len(),
        (.., Some(s)) => s.len(),
        _ => raises!("'steps' is a {}, which has no len()", steps.type_name()),
    };
    if len == 0 {
        fail!("No steps provided");
    }
    if len != instance.expected_steps {
        fail!("Expected {} steps, got {len}", instance.expected_steps);
    }
    let Some(steps) = steps.as_sequence() else {
        raises!("'steps' is a {}, not a list", steps.type_name());
    };
    let size = f64::from(instance.size);
    // The loop must close: the first step is checked against the last.
    let last = steps.len();
    let (last_xy, mut loc_x, mut loc_y) = coordinates(&steps[last - 1], last)?;
    let mut location = last_xy.clone();
    let mut visited: Vec<Value> = Vec::with_capacity(last);
    for (i, step) in steps.iter().enumerate() {
        let n = i + 1;
        let (xy, x, y) = coordinates(step, n)?;
        if x <= 0.0 || x > size || y <= 0.0 || y > size {
            fail!(
                "Out of bounds! step {n} xy = {} is outside 1..={size}",
                xy.repr_short(60)
            );
        }
        // In bounds, so `int()` truncation is exact in i64.
        let cell = (x.trunc() as i64, y.trunc() as i64);
        if instance.blocked.contains(&cell) {
            fail!(
                "You visited an invalid cell {}! (step {n}: the cell is blocked)",
                xy.repr_short(60)
            );
        }
        if (x - loc_x).abs() + (y - loc_y).abs() != 1.0 {
            fail!(
                "didn't step side-adjacent {} from {} (step {n})",
                xy.repr_short(60),
                location.repr_short(60)
            );
        }
        location = Value::tuple(xy.as_sequence().unwrap_or_default().iter().cloned());
        (loc_x, loc_y) = (x, y);
        if visited.contains(&location) {
            fail!(
                "visited {} more than once! (step {n})",
                location.repr_short(60)
            );
        }
        visited.push(location.clone());
    }
    Ok(Verdict::pass()
        .with_message(format!("Valid Hamiltonian path with {last} steps"))
        .with_details(json!({ "steps": last })))
}

verigate_sdk::main!(verdict_json, verify);
