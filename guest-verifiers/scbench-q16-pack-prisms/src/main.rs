//! `scbench-q16-pack-prisms` (verdict-json): SCBench Q16 "Pack rectangular prisms", a port
//! of `gradeAnswer` in the benchmark's `16.py` (commit 1c0b05e).
//!
//! The instance gives the subpass, its prism rows `[count, a, b, c]` (a ≥ b ≥ c; subpass s
//! uses rows 0..=s of the original's `prismList`), the expected volume, whether the original
//! treats the subpass as "theoretically perfectly packable" (`perfectly_packable`: its
//! `isTheoreticallySolvablePerfectly`, true for subpasses 0 and 1 only) and whether a
//! perfect packing really exists (`perfectly_packable_corrected`: also subpass 2). The
//! payload is the model answer as the runner stored it: a Python literal or JSON
//! `{'boxes': [{'XyzMin': [x, y, z], 'XyzMax': [x, y, z]}, ...]}`, or a list of such
//! dicts (the one with the most boxes is graded, as in the original).
//!
//! Checks, in the original's order and with its explanation texts: `boxes` is a list;
//! every box has 3 `XyzMin` and 3 `XyzMax` coordinates; the **signed** sum of the box
//! volumes equals the expected volume ("Boxes are overlapping" otherwise); for every prism
//! row the number of boxes whose extents, sorted, equal (a, b, c) is the row's count;
//! no two boxes overlap (strict inequalities on all three axes); no `XyzMin` coordinate is
//! negative. The score is volume / (maxX · maxY · maxZ) — the bounding box anchored at
//! the origin, not at the boxes' min corner — divided by 0.95 and capped at 1 unless the
//! subpass is perfectly packable, computed with CPython's numeric semantics (the
//! arithmetic runs in the SDK's Python evaluator, comparisons are exact between ints and
//! floats), so it equals the original's score bit for bit. The verdict passes at score 1.
//!
//! Quirks reproduced: volumes are signed, so boxes with negative extents cancel others
//! out; boxes of sizes not in the list (and zero-volume boxes) are allowed; the volume
//! mismatch is always reported as overlap; the origin-anchored bounding box penalises a
//! packing away from the origin; subpass 2 is hard-coded as not perfectly packable,
//! although 5 × 7 × 193 packs it exactly (so 95 % density is full marks there). Where the
//! original raises (a box without `XyzMin`, a coordinate that is not a number, an
//! enclosing volume of 0, a string answer containing "boxes"; its runner records 10000),
//! the verdict fails and says so. `details.corrected` judges the task as stated: exactly
//! the listed boxes with positive extents, no overlap, density against the boxes' own
//! bounding box (min corner anchored), ÷ 0.95 only where no perfect packing exists.

mod corrected;
mod num;
#[cfg(test)]
mod tests;

use std::cmp::Ordering;

use serde::Deserialize;
use verigate_sdk::Verdict;
use verigate_sdk::harness::Stop;
use verigate_sdk::python::{ErrorKind, EvalError, Value};
use verigate_sdk::serde_json::{Value as Json, json};

use num::Num;

#[derive(Deserialize)]
pub struct Instance {
    #[allow(dead_code)]
    subpass: usize,
    /// `[count, a, b, c]`, a ≥ b ≥ c.
    prisms: Vec<[i64; 4]>,
    expected_volume: i64,
    perfectly_packable: bool,
    perfectly_packable_corrected: bool,
}

/// Where grading stops beyond this evaluator's bounds (the original's own stops are
/// `Stop::Zero`, its `return 0, explanation`, and `Stop::Raise`, runner score 10000).
struct Limit(String);

impl From<Limit> for Verdict {
    fn from(Limit(what): Limit) -> Verdict {
        Verdict::fail(format!("{what} (beyond the evaluator's limits)"))
    }
}

type Step<T> = verigate_sdk::harness::Step<T, Limit>;

/// The Python expressions the original evaluates, run by the SDK's evaluator so that
/// types, errors and float arithmetic are CPython's.
struct Py {
    missing: Value,
    boxes: Value,
    bad_len: Value,
    volume: Value,
    add: Value,
    text: Value,
    differs: Value,
    spans: Value,
    coords: Value,
    score: Value,
}

impl Py {
    fn new() -> std::result::Result<Py, EvalError> {
        use verigate_sdk::python::eval;
        let dx = |k: usize| format!("b['XyzMax'][{k}] - b['XyzMin'][{k}]");
        Ok(Py {
            missing: eval("lambda a: 'boxes' not in a")?,
            boxes: eval("lambda a: a['boxes']")?,
            bad_len: eval("lambda b: len(b['XyzMin']) != 3 or len(b['XyzMax']) != 3")?,
            volume: eval(&format!(
                "lambda b: ({}) * ({}) * ({})",
                dx(0),
                dx(1),
                dx(2)
            ))?,
            add: eval("lambda a, v: a + v")?,
            text: eval("lambda v: str(v)")?,
            differs: eval("lambda a, e: a != e")?,
            spans: eval(&format!("lambda b: ({}, {}, {})", dx(0), dx(1), dx(2)))?,
            coords: eval(
                "lambda b: (b['XyzMin'][0], b['XyzMin'][1], b['XyzMin'][2], \
                 b['XyzMax'][0], b['XyzMax'][1], b['XyzMax'][2])",
            )?,
            score: eval(
                "lambda v, x, y, z, lenient: (lambda e: \
                 (min(1, v / e / 0.95) if lenient else v / e, v / e * 100, str(e)))(x * y * z)",
            )?,
        })
    }
}

/// Calls one of the original's expressions; an exception is the original raising.
fn call(f: &Value, args: &[Value], what: impl Fn() -> String) -> Step<Value> {
    f.call(args).map_err(|e| {
        if e.kind() == ErrorKind::Limit {
            Stop::Other(Limit(format!("{}: {}", what(), e.message())))
        } else {
            Stop::Raise(format!("{}: {}", what(), e.python_text()))
        }
    })
}

/// The answer's box list, chosen as the original does.
fn box_list(py: &Py, answer: &Value) -> Step<Vec<Value>> {
    if let Some(items) = answer.as_list() {
        // max(dicts with a list under 'boxes', key=len), the first of equals; else no boxes.
        let mut best: Option<&[Value]> = None;
        for item in items {
            if let Some(boxes) = item
                .as_dict()
                .and_then(|d| d.get("boxes"))
                .and_then(Value::as_list)
                && best.is_none_or(|b| boxes.len() > b.len())
            {
                best = Some(boxes);
            }
        }
        return Ok(best.unwrap_or_default().to_vec());
    }
    let missing = call(&py.missing, std::slice::from_ref(answer), || {
        format!("'boxes' in a {} answer", answer.type_name())
    })?;
    if missing.truthy() {
        return Err(Stop::Zero(
            "Invalid answer format: missing boxes list".to_owned(),
        ));
    }
    let boxes = call(&py.boxes, std::slice::from_ref(answer), || {
        format!("answer['boxes'] of a {} answer", answer.type_name())
    })?;
    // `not isinstance(answer['boxes'], list)`: a tuple or anything else is no box list.
    match boxes.as_list() {
        Some(list) => Ok(list.to_vec()),
        None => Err(Stop::Zero(
            "Invalid answer format: missing boxes list".to_owned(),
        )),
    }
}

/// A box's six coordinates (min x, y, z, max x, y, z).
type Coords = [Num; 6];

/// Whether two boxes overlap by the original's strict test.
fn overlap(a: &Coords, b: &Coords) -> bool {
    (0..3).all(|k| a[k].lt(&b[k + 3]) && a[k + 3].gt(&b[k]))
}

/// Whether any two boxes overlap (the original compares every ordered pair; the test is
/// symmetric, so a sweep over the boxes sorted by min x finds the same answer).
pub fn any_overlap(boxes: &[Coords]) -> bool {
    let is_nan = |n: &Num| matches!(n, Num::Float(f) if f.is_nan());
    // A NaN coordinate makes every comparison on its axis false: such a box overlaps nothing.
    let mut order: Vec<&Coords> = boxes.iter().filter(|c| !c.iter().any(is_nan)).collect();
    order.sort_by(|a, b| a[0].cmp(&b[0]).unwrap_or(Ordering::Equal));
    for (i, a) in order.iter().enumerate() {
        for b in &order[i + 1..] {
            // b's min x ≥ a's min x; a needs max x > b's min x.
            if !a[3].gt(&b[0]) {
                break;
            }
            if overlap(a, b) {
                return true;
            }
        }
    }
    false
}

/// A faithful result: score and explanation, plus figures for the details.
struct Graded {
    score: f64,
    explanation: String,
    details: Json,
}

fn faithful(instance: &Instance, py: &Py, answer: &Value) -> Step<Graded> {
    let boxes = box_list(py, answer)?;
    let expected = instance.expected_volume;
    for (i, b) in boxes.iter().enumerate() {
        let bad = call(&py.bad_len, std::slice::from_ref(b), || {
            format!("box {i} {}", b.repr_short(60))
        })?;
        if bad.truthy() {
            return Err(Stop::Zero("Invalid box coordinates".to_owned()));
        }
    }
    let mut volume = Value::from(0);
    for (i, b) in boxes.iter().enumerate() {
        let what = || format!("volume of box {i} {}", b.repr_short(60));
        let v = call(&py.volume, std::slice::from_ref(b), what)?;
        volume = call(&py.add, &[volume, v], what)?;
    }
    let volume_text = call(&py.text, std::slice::from_ref(&volume), || {
        "str(answer volume)".to_owned()
    })?;
    let volume_text = volume_text.as_str().unwrap_or_default().to_owned();
    let reasoning = format!("Answer volume: {volume_text}, Expected volume: {expected}");
    let differs = call(
        &py.differs,
        &[volume.clone(), Value::from(expected)],
        || "volume comparison".to_owned(),
    )?;
    if differs.truthy() {
        return Err(Stop::Zero(format!(
            "{reasoning}\nBoxes are overlapping: Sum of prisms volume: {expected}, \
             Union of answer prisms volume: {volume_text}"
        )));
    }

    // Boxes per size: extents sorted largest first, compared with each row's (a, b, c).
    let mut sizes: Vec<Option<[Num; 3]>> = Vec::with_capacity(boxes.len());
    for (i, b) in boxes.iter().enumerate() {
        let spans = call(&py.spans, std::slice::from_ref(b), || format!("box {i}"))?;
        let nums: Option<Vec<Num>> = spans
            .as_sequence()
            .map(|s| s.iter().map(Num::of).collect())
            .unwrap_or(None);
        let mut nums =
            nums.ok_or_else(|| Stop::Raise(format!("box {i}: extents are not numbers")))?;
        let sorted = if nums
            .iter()
            .any(|n| matches!(n, Num::Float(f) if f.is_nan()))
        {
            None // a NaN extent never equals a prism's
        } else {
            nums.sort_by(|a, b| b.cmp(a).unwrap_or(Ordering::Equal));
            let [x, y, z] =
                <[Num; 3]>::try_from(nums).map_err(|_| Stop::Raise(format!("box {i}")))?;
            Some([x, y, z])
        };
        sizes.push(sorted);
    }
    for &[count, x, y, z] in &instance.prisms {
        let got = sizes
            .iter()
            .flatten()
            .filter(|s| s[0].eq_int(x) && s[1].eq_int(y) && s[2].eq_int(z))
            .count();
        if got as i64 != count {
            return Err(Stop::Zero(format!(
                "{reasoning}\nBox count mismatch for {x}x{y}x{z}: expected {count}, got {got}"
            )));
        }
    }

    let mut coords: Vec<Coords> = Vec::with_capacity(boxes.len());
    let mut maxima: Vec<[Value; 3]> = Vec::with_capacity(boxes.len());
    for (i, b) in boxes.iter().enumerate() {
        let c = call(&py.coords, std::slice::from_ref(b), || format!("box {i}"))?;
        let items = c.as_sequence().unwrap_or_default();
        let nums: Option<Vec<Num>> = items.iter().map(Num::of).collect();
        let nums =
            nums.ok_or_else(|| Stop::Raise(format!("box {i}: coordinates are not numbers")))?;
        let c6: Coords = nums
            .try_into()
            .map_err(|_| Stop::Raise(format!("box {i}: not 6 coordinates")))?;
        coords.push(c6);
        maxima.push([items[3].clone(), items[4].clone(), items[5].clone()]);
    }
    if any_overlap(&coords) {
        return Err(Stop::Zero(format!("{reasoning}\nBox overlap detected")));
    }
    if coords.iter().any(|c| c[..3].iter().any(Num::is_negative)) {
        return Err(Stop::Zero(format!(
            "{reasoning}\nBox with negative coordinates detected"
        )));
    }
    // maxPoint = [0, 0, 0]; max(current, new) keeps the current value unless new > current.
    let mut top: [(Value, Num); 3] = std::array::from_fn(|_| (Value::from(0), Num::Int(0.into())));
    for (c, m) in coords.iter().zip(&maxima) {
        for k in 0..3 {
            if c[k + 3].gt(&top[k].1) {
                top[k] = (m[k].clone(), c[k + 3].clone());
            }
        }
    }
    let [tx, ty, tz] = top.map(|(v, _)| v);
    let lenient = Value::from(!instance.perfectly_packable);
    let result = call(&py.score, &[volume, tx, ty, tz, lenient], || {
        "score = answerVolume / enclosingVolume".to_owned()
    })?;
    let parts = result.as_sequence().unwrap_or_default();
    let (Some(score), Some(percent), Some(enclosing)) = (
        parts.first().and_then(Num::of),
        parts.get(1).and_then(Num::of),
        parts.get(2).and_then(|v| v.as_str()),
    ) else {
        return Err(Stop::Raise("score computation".to_owned()));
    };
    let percent = percent.to_f64();
    let explanation = format!(
        "{reasoning}\nPacking efficiency: {}% (enclosing volume: {enclosing})",
        num::fixed1(percent)
    );
    Ok(Graded {
        score: score.to_f64(),
        explanation,
        details: json!({
            "boxes": boxes.len(),
            "answer_volume": volume_text,
            "enclosing_volume": enclosing,
            "efficiency": percent / 100.0,
        }),
    })
}

pub fn grade(instance: &Instance, text: &str) -> Verdict {
    let answer = verigate_sdk::python::answer(text);
    let mut details = json!({
        "expected_volume": instance.expected_volume,
        "perfectly_packable": instance.perfectly_packable,
    });
    if !answer.truthy() {
        return Verdict::falsy_answer()
            .with_details(details)
            .same_when_corrected();
    }
    let corrected = corrected::judge(instance, &answer);
    let py = match Py::new() {
        Ok(py) => py,
        Err(e) => {
            return Verdict::fail(format!("internal: {e}"))
                .with_details(details)
                .with_corrected(&corrected);
        }
    };
    match faithful(instance, &py, &answer) {
        Ok(graded) => {
            if let Json::Object(extra) = graded.details {
                for (k, v) in extra {
                    details[k] = v;
                }
            }
            Verdict::scored(graded.score, graded.explanation).with_details(details)
        }
        Err(stop) => stop.verdict().with_details(details),
    }
    .with_corrected(&corrected)
}

verigate_sdk::main!(verdict_json, grade_instance(grade));
