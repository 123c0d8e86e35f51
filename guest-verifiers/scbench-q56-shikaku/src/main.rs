//! `scbench-q56-shikaku` (verdict-json): SCBench Q56 "VGB7 — Shikaku Rectangles", a port
//! of the benchmark's `56.py` wrapper and VisGeomBench's `verification/shikaku_tasks.py`.
//!
//! The instance holds the puzzle (`numbers`, rows top to bottom, 0 = blank; `width`,
//! `height`) and the dataset's `ground_truth` boxes. The payload is the model answer as the
//! runner stored it: a Python literal (`{'rectangles': [[l, t, r, b], ...]}`), a bare list,
//! or free text, from which the last balanced `[...]` is taken (the parser's backscan).
//!
//! The checks, in the original's order, with its quirks: every box is a 4-item list or
//! tuple whose items go through Python's `int()` (floats truncate towards zero, numeric
//! strings are accepted, `-0.5` becomes `0`), all ≥ 0, `right ≥ left`, `bottom ≥ top`;
//! boxes are sorted; each must lie inside the grid, cover no cell twice, and hold exactly
//! one clue, equal to its area; every cell must be covered. Finally the sorted boxes must
//! equal the stored solution: a different valid tiling fails (score 0) — reproduced, and
//! reported in `details.valid_tiling` (and `details.corrected`) so the corrected judgement is visible.

use serde::Deserialize;
use verigate_sdk::Verdict;
use verigate_sdk::python::{BigInt, Value};
use verigate_sdk::serde_json::json;

#[derive(Deserialize)]
struct Puzzle {
    numbers: Vec<Vec<i64>>,
    width: usize,
    height: usize,
}

#[derive(Deserialize)]
struct Instance {
    puzzle: Puzzle,
    ground_truth: Vec<[i64; 4]>,
}

/// Python's `int(x)` for the values an answer can hold, or why it raises.
fn python_int(v: &Value) -> std::result::Result<BigInt, String> {
    if let Some(b) = v.as_bool() {
        return Ok(BigInt::from(u8::from(b)));
    }
    if let Some(i) = v.as_bigint() {
        return Ok(i);
    }
    if let Some(f) = v.as_f64() {
        if !f.is_finite() {
            return Err(format!(
                "int({}) overflows or is not a number",
                v.repr_short(20)
            ));
        }
        // Truncation towards zero; `f` is integral after trunc, so the decimal form is exact.
        return Ok(format!("{:.0}", f.trunc()).parse().unwrap_or_default());
    }
    if let Some(s) = v.as_str() {
        // int(str): surrounding whitespace, an optional sign, digits with single
        // underscores between them.
        let t = s.trim();
        let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
        let ok = !digits.is_empty()
            && !digits.starts_with('_')
            && !digits.ends_with('_')
            && !digits.contains("__")
            && digits.chars().all(|c| c.is_ascii_digit() || c == '_');
        if ok {
            return t
                .replace('_', "")
                .parse()
                .map_err(|_| format!("int({s:?}) fails"));
        }
        return Err(format!("int({s:?}) fails"));
    }
    Err(format!("int() of a {}", v.type_name()))
}

/// Canonical boxes: 4 ints each, ≥ 0, right ≥ left, bottom ≥ top; sorted.
fn canonical(list: &Value) -> std::result::Result<Vec<[i64; 4]>, String> {
    let Some(items) = list.as_sequence() else {
        return Err(format!("the answer is a {}, not a list", list.type_name()));
    };
    let mut boxes = Vec::with_capacity(items.len());
    for (n, item) in items.iter().enumerate() {
        let what = format!("box {} {}", n + 1, item.repr_short(40));
        let parts = match item.as_sequence() {
            Some(p) if p.len() == 4 => p,
            _ => return Err(format!("{what} is not a list of 4 numbers")),
        };
        let mut b = [0i64; 4];
        for (slot, part) in b.iter_mut().zip(parts) {
            let value = python_int(part).map_err(|e| format!("{what}: {e}"))?;
            if value < BigInt::from(0) {
                return Err(format!("{what} has a negative coordinate"));
            }
            *slot = i64::try_from(value).unwrap_or(i64::MAX);
        }
        let [l, t, r, btm] = b;
        if r < l || btm < t {
            return Err(format!("{what}: right < left or bottom < top"));
        }
        boxes.push(b);
    }
    boxes.sort_unstable();
    Ok(boxes)
}

/// Why the boxes do not partition the grid with one matching clue each, if they do not.
fn tiling_problem(puzzle: &Puzzle, boxes: &[[i64; 4]]) -> Option<String> {
    let (w, h) = (puzzle.width, puzzle.height);
    let mut covered = vec![vec![false; w]; h];
    for &[l, t, r, b] in boxes {
        let inside =
            usize::try_from(r).is_ok_and(|r| r < w) && usize::try_from(b).is_ok_and(|b| b < h);
        if !inside {
            return Some(format!("box [{l}, {t}, {r}, {b}] leaves the {w}×{h} grid"));
        }
        let (l, t, r, b) = (l as usize, t as usize, r as usize, b as usize);
        let mut clues = Vec::new();
        for (y, row) in covered.iter_mut().enumerate().take(b + 1).skip(t) {
            for (x, cell) in row.iter_mut().enumerate().take(r + 1).skip(l) {
                if *cell {
                    return Some(format!("cell (col {x}, row {y}) is covered twice"));
                }
                *cell = true;
                let clue = puzzle
                    .numbers
                    .get(y)
                    .and_then(|row| row.get(x))
                    .copied()
                    .unwrap_or(0);
                if clue > 0 {
                    clues.push(clue);
                }
            }
        }
        let area = ((r - l + 1) * (b - t + 1)) as i64;
        match clues.as_slice() {
            [clue] if *clue == area => {}
            [clue] => {
                return Some(format!(
                    "box [{l}, {t}, {r}, {b}] has area {area} but holds the clue {clue}"
                ));
            }
            _ => {
                return Some(format!(
                    "box [{l}, {t}, {r}, {b}] holds {} clues, expected exactly one",
                    clues.len()
                ));
            }
        }
    }
    let uncovered = covered.iter().flatten().filter(|c| !**c).count();
    (uncovered > 0).then(|| format!("{uncovered} cells are not covered"))
}

fn grade(instance: &Instance, text: &str) -> Verdict {
    let Some(list) = verigate_sdk::python::answer_list(text, "rectangles") else {
        return Verdict::fail("no list of rectangles could be parsed from the answer");
    };
    let boxes = match canonical(&list) {
        Ok(boxes) => boxes,
        Err(why) => return Verdict::fail(why),
    };
    let problem = tiling_problem(&instance.puzzle, &boxes);
    let mut truth = instance.ground_truth.clone();
    truth.sort_unstable();
    let valid = problem.is_none();
    let details = json!({
        "valid_tiling": valid,
        "boxes": boxes.len(),
    });
    let corrected = match &problem {
        Some(why) => Verdict::fail(why.clone()),
        None => Verdict::pass().with_message("a valid tiling"),
    };
    let verdict = match problem {
        Some(why) => Verdict::fail(why),
        None if boxes == truth => Verdict::pass(),
        None => Verdict::fail(
            "a valid tiling, but not the stored solution (the original requires equality)",
        ),
    };
    verdict.with_details(details).with_corrected(&corrected)
}

verigate_sdk::main!(verdict_json, || verigate_sdk::grade_instance(grade));

#[cfg(test)]
mod tests {
    use super::*;

    /// 2×2 with clues 2 (top left) and 2 (bottom right): two valid tilings;
    /// the stored one is the two rows.
    fn instance() -> Instance {
        Instance {
            puzzle: Puzzle {
                numbers: vec![vec![2, 0], vec![0, 2]],
                width: 2,
                height: 2,
            },
            ground_truth: vec![[0, 0, 1, 0], [0, 1, 1, 1]],
        }
    }

    fn message(text: &str) -> (bool, String) {
        let v = verigate_sdk::serde_json::to_value(grade(&instance(), text)).unwrap();
        (
            v["pass"] == true,
            v["message"].as_str().unwrap_or("").to_owned(),
        )
    }

    #[test]
    fn the_stored_solution_passes_in_every_form() {
        assert!(message("{'rectangles': [[0, 1, 1, 1], [0, 0, 1, 0]], 'reasoning': ''}").0);
        assert!(message("[[0, 0, 1, 0], [0, 1, 1, 1]]").0);
        assert!(
            message("<thinking>rows</thinking>\n```python\n[[0, 0, 1, 0], [0, 1, 1, 1]]\n```").0
        );
        // int() quirks: floats truncate, numeric strings count, -0.5 becomes 0.
        assert!(message("[[0.9, '0', 1, 0], [-0.5, 1, ' 1 ', 1.99]]").0);
    }

    #[test]
    fn another_valid_tiling_fails_as_in_the_original() {
        let (pass, why) = message("[[0, 0, 0, 1], [1, 0, 1, 1]]");
        assert!(!pass);
        assert!(
            why.starts_with("a valid tiling, but not the stored solution"),
            "{why}"
        );
    }

    #[test]
    fn invalid_answers_say_why() {
        assert_eq!(
            message("[[0, 0, 1, 1]]").1,
            "box [0, 0, 1, 1] holds 2 clues, expected exactly one"
        );
        assert_eq!(
            message("[[0, 0, 1, 0], [0, 0, 1, 1]]").1,
            "cell (col 0, row 0) is covered twice"
        );
        assert_eq!(message("[[0, 0, 1, 0]]").1, "2 cells are not covered");
        assert_eq!(
            message("[[0, 0, 2, 0], [0, 1, 1, 1]]").1,
            "box [0, 0, 2, 0] leaves the 2×2 grid"
        );
        assert_eq!(
            message("[[0, 0, 1]]").1,
            "box 1 [0, 0, 1] is not a list of 4 numbers"
        );
        assert_eq!(
            message("[[1, 0, 0, 0]]").1,
            "box 1 [1, 0, 0, 0]: right < left or bottom < top"
        );
        assert_eq!(
            message("[['3.0', 0, 1, 0]]").1,
            "box 1 ['3.0', 0, 1, 0]: int(\"3.0\") fails"
        );
        assert_eq!(
            message("no idea").1,
            "no list of rectangles could be parsed from the answer"
        );
    }
}
