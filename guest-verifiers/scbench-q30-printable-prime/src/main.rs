//! `scbench-q30-printable-prime` (verdict-json): SCBench Q30 "What's the largest prime number
//! you can 3D print without supports?", a port of `gradeAnswer` in the benchmark's `30.py`
//! (commit 12405b9, one subpass).
//!
//! Instance: `solution` (the grader's known optimum, 888999996969699696669666333377777711111171)
//! and `target_height_mm` (70). Payload: the model answer as the harness stored it (a Python
//! literal, else JSON), `{'numberSequence': [{'digit': 8, 'orientation': 'flat'}, …], …}`,
//! digits from the ground up.
//!
//! The original's steps, in order, with its messages: the number text is the concatenation of
//! `str(digit)` (so `True`, `1.0`, `'12'` or `-1` are taken textually); empty → 0 "Empty
//! number"; `int()` of it (raises unless it is an integer literal); the text reversed and cut
//! into 3-character groups, any group twice → 0; per item, the height (flat orientations
//! 1.2 mm, `rotate90X` 21.2, `rotate90Y` 1.2 for a 1 else 11.2) and the overhang rules
//! (`rotate90X` only for 1, 3, 7; `rotate90Y` only for 1, 7); BPSW primality; the stacking
//! rules between neighbours (flat on flat by the table of `canPrintOnTop`; back to flat only a
//! 1 on a 1 that is not `rotate90Y`; on a `rotate90Y` only a `rotate90X` 1; `rotate90X` on
//! anything; `rotate90Y` on anything but a 2 or 5). Score = len(number text) / 42, × 0.9
//! unless the stack is over 70 mm, with the original's explanation.
//!
//! Where the original returns 100 (a pair its rules do not cover — an unknown orientation on
//! top — or a number above its optimum) the verdict fails with score 0 and says what the
//! original returns; where it raises (runner score 10000), the verdict fails and says so.
//! Quirks reproduced: unknown orientation strings pass the overhang checks and add no height;
//! the length counts characters of the text (leading zeros, signs, underscores); a repeated
//! group is reported as the first repeated group in reading order (the original picks one in
//! set order, which depends on Python's string hashing, so with several repeats its message
//! varies from run to run); a Jacobi symbol of 0 in the Selfridge search returns "prime"; an
//! int too large for a float raises in `n ** 0.5` once it passes Miller–Rabin. Python's
//! `int()` also accepts non-ASCII decimal digits, which this port does not.
//!
//! `details.corrected`: digits must be ints 0–9 and orientations one of the six; the length is
//! that of the number (no leading zeros); the Lucas test treats a Jacobi symbol of 0 as
//! composite and tests squares exactly; a stackable prime above the optimum scores (capped at 1)
//! instead of 100.

mod prime;

use num_bigint::BigInt;
use serde::Deserialize;
use verigate_sdk::Verdict;
use verigate_sdk::python::Value;
use verigate_sdk::serde_json::json;

#[derive(Deserialize)]
struct Instance {
    solution: String,
    target_height_mm: f64,
}

use verigate_sdk::RAISED as RAISES;
const FLAT: [&str; 4] = ["flat", "flippedX", "flippedY", "rotate180Z"];

/// How grading ended.
enum End {
    Score(f64, String),
    /// The original returns 100 (a sentinel, not a score).
    Hundred(String),
    Raise(String),
    Hang,
}

fn is(v: &Value, s: &str) -> bool {
    *v == Value::from(s)
}

fn is_flat(o: &Value) -> bool {
    FLAT.iter().any(|f| is(o, f))
}

fn in_ints(v: &Value, ints: &[i64]) -> bool {
    ints.iter().any(|&i| *v == Value::from(i))
}

/// `str(v)`.
fn py_str(v: &Value) -> Result<String, End> {
    if let Some(s) = v.as_str() {
        return Ok(s.to_owned());
    }
    let text = v.to_string();
    if v.as_bigint().is_some() && text.trim_start_matches('-').len() > 4300 {
        return Err(End::Raise(
            "ValueError: Exceeds the limit (4300 digits) for integer string conversion".into(),
        ));
    }
    Ok(text)
}

/// `canPrintOnTop(d)[0]`, or None where the original returns None (its `[0]` then raises).
fn flat_on(d: &Value) -> Option<&'static [i64]> {
    const TABLE: [&[i64]; 10] = [
        &[0, 1, 7],
        &[1],
        &[2, 5],
        &[1, 3, 7],
        &[1, 4],
        &[2, 5],
        &[1, 3, 5, 6, 7, 9, 4],
        &[1, 7],
        &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
        &[1, 3, 5, 6, 7, 9],
    ];
    (0..10)
        .find(|&k| *d == Value::from(k as i64))
        .map(|k| TABLE[k])
}

/// The items of `numberSequence` as Python iterates them (raising where indexing an item
/// with `["digit"]` would).
fn items(seq: &Value) -> Result<Vec<Value>, End> {
    if let Some(items) = seq.as_sequence() {
        return Ok(items.to_vec());
    }
    let empty = match (seq.as_str(), seq.as_dict(), seq.as_set()) {
        (Some(s), ..) => s.is_empty(),
        (_, Some(d), _) => d.is_empty(),
        (.., Some(s)) => s.is_empty(),
        _ => {
            return Err(End::Raise(format!(
                "TypeError: '{}' object is not iterable",
                seq.type_name()
            )));
        }
    };
    if empty {
        Ok(Vec::new())
    } else {
        Err(End::Raise(format!(
            "TypeError: the items of a {} cannot be indexed with 'digit'",
            seq.type_name()
        )))
    }
}

fn field<'a>(item: &'a Value, key: &str) -> Result<&'a Value, End> {
    match item.as_dict() {
        Some(d) => d
            .get(key)
            .ok_or_else(|| End::Raise(format!("KeyError: '{key}'"))),
        None => Err(End::Raise(format!(
            "TypeError: a {} cannot be indexed with '{key}'",
            item.type_name()
        ))),
    }
}

/// The first 3-character group (of the reversed text) that occurs twice.
fn repeated_group(text: &str) -> Option<Vec<char>> {
    let rev: Vec<char> = text.chars().rev().collect();
    let groups: Vec<&[char]> = rev.chunks(3).collect();
    groups
        .iter()
        .find(|g| groups.iter().filter(|h| h == g).count() > 1)
        .map(|g| g.to_vec())
}

struct Outcome {
    end: End,
    height: f64,
    digits: Option<String>,
}

/// `gradeAnswer`, faithful (`corrected` false) or with the corrections.
fn run(inst: &Instance, answer: &Value, corrected: bool) -> Outcome {
    let mut height = 0.0;
    let mut digits = None;
    let end = steps(inst, answer, corrected, &mut height, &mut digits).unwrap_or_else(|e| e);
    Outcome {
        end,
        height,
        digits,
    }
}

fn steps(
    inst: &Instance,
    answer: &Value,
    corrected: bool,
    height: &mut f64,
    digits: &mut Option<String>,
) -> Result<End, End> {
    let seq = match (answer.as_dict(), answer.as_str()) {
        (Some(d), _) => d
            .get("numberSequence")
            .ok_or_else(|| End::Raise("KeyError: 'numberSequence'".into()))?,
        (None, Some(_)) => {
            return Err(End::Raise(
                "TypeError: string indices must be integers".into(),
            ));
        }
        (None, None) => {
            return Err(End::Raise(format!(
                "TypeError: a {} cannot be indexed with 'numberSequence'",
                answer.type_name()
            )));
        }
    };
    let items = items(seq)?;
    if corrected {
        for (k, item) in items.iter().enumerate() {
            let ok = item.as_dict().is_some_and(|_| {
                let d = field(item, "digit").ok().and_then(Value::as_i64);
                let o = field(item, "orientation").ok().and_then(Value::as_str);
                d.is_some_and(|d| (0..10).contains(&d))
                    && o.is_some_and(|o| FLAT.contains(&o) || o == "rotate90X" || o == "rotate90Y")
            });
            if !ok {
                return Ok(End::Score(
                    0.0,
                    format!(
                        "item {k} ({}) is not a digit 0-9 with one of the six orientations",
                        item.repr_short(80)
                    ),
                ));
            }
        }
    }
    let mut number_str = String::new();
    for item in &items {
        number_str.push_str(&py_str(field(item, "digit")?)?);
    }
    if number_str.is_empty() {
        return Ok(End::Score(0.0, "Empty number".into()));
    }
    let int = verigate_sdk::python::eval("int").map_err(|e| End::Raise(e.to_string()))?;
    let number = int
        .call(&[Value::from(number_str.as_str())])
        .map_err(|e| End::Raise(e.python_text()))?;
    let number: BigInt = number
        .as_bigint()
        .ok_or_else(|| End::Raise("int() gave no int".into()))?;
    *digits = Some(number.to_string());
    if let Some(group) = repeated_group(&number_str) {
        let tuple = Value::tuple(group.iter().map(|c| Value::from(c.to_string())));
        return Ok(End::Score(
            0.0,
            format!("{number} contains a sequence of 3 digits repeated more than once: {tuple}"),
        ));
    }
    for item in &items {
        let digit = field(item, "digit")?;
        let o = field(item, "orientation")?;
        if is_flat(o) {
            *height += 1.2;
        } else if is(o, "rotate90X") {
            *height += 21.2;
        } else if is(o, "rotate90Y") {
            *height += if *digit == Value::from(1) { 1.2 } else { 11.2 };
        }
        let overhang = (is(o, "rotate90X") && !in_ints(digit, &[1, 3, 7]))
            || (is(o, "rotate90Y") && !in_ints(digit, &[1, 7]));
        if overhang {
            return Ok(End::Score(
                0.0,
                format!(
                    "Digit {} (orientation: {}) has overhangs.",
                    py_str(digit)?,
                    py_str(o)?
                ),
            ));
        }
    }
    let mode = if corrected {
        prime::Mode::Corrected
    } else {
        prime::Mode::Faithful
    };
    match prime::is_prime(&number, mode) {
        Ok(true) => {}
        Ok(false) => return Ok(End::Score(0.0, format!("{number} is not prime"))),
        Err(prime::Stop::Raise(why)) => return Err(End::Raise(why)),
        Err(prime::Stop::Hang) => return Err(End::Hang),
    }
    for pair in items.windows(2) {
        let (cd, co) = (field(&pair[0], "digit")?, field(&pair[0], "orientation")?);
        let (nd, no) = (field(&pair[1], "digit")?, field(&pair[1], "orientation")?);
        let describe = |verb: &str| -> Result<String, End> {
            Ok(format!(
                "Digit {} (orientation: {}) {verb} digit {} (orientation: {})<br>",
                py_str(nd)?,
                py_str(no)?,
                py_str(cd)?,
                py_str(co)?
            ))
        };
        let refuse = || -> Result<End, End> {
            Ok(End::Score(
                0.0,
                describe("cannot be printed on top of")? + "Stack is not printable.",
            ))
        };
        if is_flat(co) && is_flat(no) {
            let Some(allowed) = flat_on(cd) else {
                return Err(End::Raise(format!(
                    "TypeError: canPrintOnTop({}) is None",
                    py_str(cd)?
                )));
            };
            if !in_ints(nd, allowed) {
                return refuse();
            }
        } else if is_flat(no) {
            if *cd != Value::from(1) || *nd != Value::from(1) || is(co, "rotate90Y") {
                return refuse();
            }
        } else if is(co, "rotate90Y") {
            if *nd != Value::from(1) || !is(no, "rotate90X") {
                return refuse();
            }
        } else if is(no, "rotate90X") {
        } else if is(no, "rotate90Y") {
            if in_ints(cd, &[2, 5]) {
                return refuse();
            }
        } else {
            return Ok(End::Hundred(
                describe("wasn't coded if it could be printed on top of")?
                    + "Grading code needs updating.",
            ));
        }
    }
    let solution: BigInt = inst.solution.parse().unwrap_or_default();
    if number > solution && !corrected {
        return Ok(End::Hundred("Test needs updating. Well done!".into()));
    }
    let solution_len = inst.solution.chars().count();
    let len = if corrected {
        number.to_string().chars().count()
    } else {
        number_str.chars().count()
    };
    let mut score = len as f64 / solution_len as f64;
    let head = format!(
        "Answer given was of length {len} while the largest printable prime is of length {solution_len}.<br><br> "
    );
    let h = format!("{:.1}", *height);
    let target = inst.target_height_mm;
    let message = if *height > target {
        format!("{head}Height was {h}mm which was over the target height of {target}mm.")
    } else {
        score *= 0.9;
        format!(
            "{head}Height was {h}mm which was under the target height of {target}mm, so penalized by 10%."
        )
    };
    if corrected {
        score = score.min(1.0);
    }
    Ok(End::Score(score, message))
}

fn describe_end(end: &End) -> (f64, String) {
    match end {
        End::Score(s, m) => (*s, m.clone()),
        End::Hundred(m) => (
            0.0,
            format!("{m} (the original grader returns the sentinel 100 here, not a score)"),
        ),
        End::Raise(why) => (0.0, format!("{why} {RAISES}")),
        End::Hang => (
            0.0,
            "the original's Selfridge search never ends on this perfect square (no verdict)".into(),
        ),
    }
}

fn grade(inst: &Instance, text: &str) -> Verdict {
    let answer = verigate_sdk::python::answer(text);
    if !answer.truthy() {
        return Verdict::falsy_answer().same_when_corrected();
    }
    let faithful = run(inst, &answer, false);
    let corrected = run(inst, &answer, true);
    let (c_score, c_message) = describe_end(&corrected.end);
    let (score, message) = describe_end(&faithful.end);
    let mut details = json!({
        "number": faithful.digits,
        "height_mm": faithful.height,
    });
    if let End::Score(raw, _) = faithful.end
        && raw > 1.0
    {
        details["raw_score"] = json!(raw);
    }
    if let End::Hundred(_) = faithful.end {
        details["original_returns"] = json!(100);
    }
    Verdict::scored(score, message)
        .with_details(details)
        .with_corrected(&Verdict::scored(c_score, c_message))
}

verigate_sdk::main!(verdict_json, grade_instance(grade));

#[cfg(test)]
mod tests;
