//! `scbench-q12-pipe-loop` (verdict-json): SCBench Q12 "Fit a loop into a square that's
//! perimeter is smaller than the total length", a port of `gradeAnswer` in the benchmark's
//! `12.py` (index id 53410859140, 40 subpasses).
//!
//! Instance (`/item/instance.json`): `pipes` (the number of unit pipes = points), `boundary`
//! (the side of the square), `tolerance` (0.05), `preset` (the complication preset's name, or
//! null) and `complications` (the preset's list, each `{"type": …, parameters}` as in the
//! original). Payload: the model answer as the harness stored it (a Python literal, else JSON,
//! else text), `{'points': [{'x': …, 'y': …}, …]}`.
//!
//! Scores are 0 or 1, as in the original. Checks, in its order, with its messages: `points`
//! must be a list (not a tuple) of dicts whose `x` and `y` go through Python's `float()`
//! (numeric strings count; an int too large for a float raises); at least 3 points; then the
//! errors accumulate — point count, bounds, each segment's length within 1 ± 0.05 (the
//! closing one separately), duplicate vertices (coordinates rounded to 6 places), crossings of
//! non-adjacent segments by the original's strict float ccw test (pairs sharing an endpoint
//! within 1e-9 skipped), backtracking (consecutive unit directions with dot < −0.99), and the
//! preset's complications. Without complications any crossing returns the bare message
//! "Crossing detected"; otherwise the message lists the first 5 errors ("Validation failed:
//! …", with the `@ {…}` locations and the "... (truncated, N errors in total)" line).
//!
//! Reproduced quirks: the ccw test misses collinear overlaps and counts a vertex lying on
//! another segment only when the far end is on one side; NaN coordinates (from `float('nan')`
//! strings) pass the bounds and length tests, so an all-NaN loop passes; `min_point_separation`
//! returns at its first violation and skips the complications after it; the crossing limit of
//! a preset without `max_crossings` is 0. `details.corrected` judges the same loop with exact
//! contact detection (any shared point of non-adjacent segments is a crossing or a touch;
//! the forced-crossing presets need that many proper crossings and no touches) and finite
//! coordinates. Where the original raises (an int too large for a float, a coordinate whose
//! square overflows, a zero product of two non-zero lengths), the verdict fails and says so.
//!
//! Bounded work: the pair checks are quadratic, so answers of more than 600 points (every
//! subpass asks for at most 420, so they score 0 anyway) fail with the count error alone, and
//! the corrected judgement decides at most 2,000 near-degenerate orientations exactly (past that
//! they count as touches). Long crossing lists are cut from the message at 30,000 characters.
//!
//! Floating point: the operations are the original's, in its order, with Python's
//! compensated `sum` (3.12+) for the centroid. Python's `x ** 2` and `math.acos` call the
//! platform's libm; this port squares exactly (`x * x`, correctly rounded) and uses the
//! guest's `acos`, which can differ from a given libm in the last bit — only a value exactly
//! on a threshold could change a verdict.

mod checks;
mod geometry;
mod pyfmt;

use checks::{Graded, Instance, Mode};
use geometry::{Point, Raise};
use verigate_sdk::Verdict;
use verigate_sdk::harness::{Step, Stop};
use verigate_sdk::python::{ErrorKind, Value, coerce};
use verigate_sdk::serde_json::json;

/// More points than this are not checked further (every subpass asks for at most 420, so
/// the score is 0 either way); the pair checks are quadratic.
const MAX_POINTS: usize = 600;

/// Messages longer than this (crossing pair lists) are cut, to keep the verdict small.
pub const MAX_MESSAGE: usize = 30_000;

/// `float(v)`: `None` where Python raises the TypeError or ValueError the original catches.
fn py_float(v: &Value) -> Step<Option<f64>> {
    match coerce::float(v) {
        Ok(f) => Ok(Some(f)),
        Err(e) if matches!(e.kind(), ErrorKind::Type | ErrorKind::Value) => Ok(None),
        Err(e) => Err(Stop::Raise(e.python_text())),
    }
}

/// The points as `gradeAnswer` parses them.
fn points(answer: &Value) -> Step<Vec<Point>> {
    let Some(list) = answer
        .as_dict()
        .and_then(|d| d.get("points"))
        .and_then(Value::as_list)
    else {
        return Err(Stop::Zero("Answer must contain a 'points' array".into()));
    };
    let mut pts = Vec::with_capacity(list.len());
    for (idx, pt) in list.iter().enumerate() {
        let Some(d) = pt.as_dict() else {
            return Err(Stop::Zero(format!("Point {idx} is not an object")));
        };
        let missing = || Stop::Zero(format!("Point {idx} is missing numeric x/y"));
        let x = py_float(d.get("x").ok_or_else(missing)?)?.ok_or_else(missing)?;
        let y = py_float(d.get("y").ok_or_else(missing)?)?.ok_or_else(missing)?;
        pts.push((x, y));
    }
    if pts.len() < 3 {
        return Err(Stop::Zero("Answer must contain at least 3 points".into()));
    }
    Ok(pts)
}

fn cut(mut message: String) -> String {
    if let Some((at, _)) = message.char_indices().nth(MAX_MESSAGE) {
        message.truncate(at);
        message.push_str(" … (message cut)");
    }
    message
}

fn kinds(g: &Graded) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for e in &g.errors {
        if !out.contains(&e.kind) {
            out.push(e.kind);
        }
    }
    out
}

fn corrected(inst: &Instance, pts: &[Point]) -> Verdict {
    match checks::grade(inst, pts, Mode::Corrected) {
        Ok(g) if g.pass => Verdict::pass().with_message(cut(g.message)),
        Ok(g) => Verdict::fail(cut(g.message)),
        Err(Raise(why)) => Verdict::raised(why),
    }
}

fn grade(inst: &Instance, text: &str) -> Verdict {
    let answer = verigate_sdk::python::answer(text);
    if !answer.truthy() {
        return Verdict::falsy_answer().same_when_corrected();
    }
    let pts = match points(&answer) {
        Ok(p) => p,
        Err(stop) => return stop.verdict().same_when_corrected(),
    };
    if pts.len() > MAX_POINTS {
        let (p, n) = (inst.pipes, pts.len());
        let why = format!(
            "Validation failed:\n1. count_mismatch: Expected {p} points (for {p} pipe segments), \
             got {n} @ {{'expected': {p}, 'actual': {n}}}\n(the other checks are not run on more \
             than {MAX_POINTS} points)"
        );
        return Verdict::fail(why)
            .with_details(json!({ "points": n }))
            .same_when_corrected();
    }
    let corrected = corrected(inst, &pts);
    match checks::grade(inst, &pts, Mode::Faithful) {
        Ok(g) => {
            let details = json!({
                "points": pts.len(),
                "crossings": g.crossings.len(),
                "errors": g.errors.len(),
                "error_kinds": kinds(&g),
            });
            let message = cut(g.message);
            if g.pass {
                Verdict::pass().with_message(message)
            } else {
                Verdict::fail(message)
            }
            .with_details(details)
        }
        Err(Raise(why)) => Verdict::raised(why).with_details(json!({ "points": pts.len() })),
    }
    .with_corrected(&corrected)
}

verigate_sdk::main!(verdict_json, grade_instance(grade));

#[cfg(test)]
mod tests;
