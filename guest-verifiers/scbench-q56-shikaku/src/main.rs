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
//!
//! `details.figure` (verigate's figure schema, `runtime/html/FIGURE.md`) draws the puzzle
//! with its clues, the answer's rectangles (`ok` when inside the grid with exactly one clue
//! equal to its area, else `wrong`), uncovered cells `missing`, cells covered twice `extra`,
//! and the stored solution's rectangles that the answer lacks as dashed `target` outlines.

use serde::Deserialize;
use verigate_sdk::Verdict;
use verigate_sdk::python::{BigInt, Value, strings};
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
        // int(str) with CPython's rules: Unicode white space and decimal digits,
        // an optional sign, single underscores between digits.
        return strings::int(s).ok_or_else(|| format!("int({s:?}) fails"));
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

/// Largest grid side drawn in `details.figure`.
const FIGURE_MAX_SIDE: usize = 40;
/// Most answer rectangles drawn.
const FIGURE_MAX_BOXES: usize = 400;

/// `details.figure`: the puzzle, the answer's rectangles and the stored solution's
/// missing ones (module docs).
fn figure(instance: &Instance, text: &str) -> Option<verigate_sdk::serde_json::Value> {
    let puzzle = &instance.puzzle;
    let (w, h) = (puzzle.width, puzzle.height);
    if w == 0 || h == 0 || w > FIGURE_MAX_SIDE || h > FIGURE_MAX_SIDE {
        return None;
    }
    let clue = |x: usize, y: usize| {
        let n = puzzle
            .numbers
            .get(y)
            .and_then(|r| r.get(x))
            .copied()
            .unwrap_or(0);
        (n > 0).then_some(n)
    };
    let read = verigate_sdk::python::answer_list(text, "rectangles").map(|l| canonical(&l));
    let boxes = match &read {
        Some(Ok(boxes)) => boxes.as_slice(),
        _ => &[],
    };
    let mut covered = vec![vec![0u32; w]; h];
    let mut items = Vec::new();
    let corners = |[l, t, r, b]: [i64; 4]| {
        // Clamped to just outside the grid, so a box that leaves it still shows.
        let x = |v: i64| v.clamp(-1, w as i64 + 1);
        let y = |v: i64| v.clamp(-1, h as i64 + 1);
        let (x0, y0, x1, y1) = (x(l), y(t), x(r.saturating_add(1)), y(b.saturating_add(1)));
        json!([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    };
    for &[l, t, r, b] in boxes.iter().take(FIGURE_MAX_BOXES) {
        let cols = (l.max(0) as usize)..(r.saturating_add(1).clamp(0, w as i64) as usize);
        let rows = (t.max(0) as usize)..(b.saturating_add(1).clamp(0, h as i64) as usize);
        let mut clues = Vec::new();
        for y in rows {
            for x in cols.clone() {
                covered[y][x] += 1;
                clues.extend(clue(x, y));
            }
        }
        let inside = r < w as i64 && b < h as i64;
        // r ≥ l ≥ 0 and b ≥ t ≥ 0, but r or b may be i64::MAX.
        let area = (r - l)
            .saturating_add(1)
            .saturating_mul((b - t).saturating_add(1));
        let class = if inside && clues == [area] {
            "ok"
        } else {
            "wrong"
        };
        items.push(json!({"type": "polygon", "points": corners([l, t, r, b]), "class": class}));
    }
    let missing: Vec<[i64; 4]> = instance
        .ground_truth
        .iter()
        .filter(|g| read.is_some() && !boxes.contains(g))
        .copied()
        .collect();
    for g in &missing {
        items.push(json!({"type": "polygon", "points": corners(*g), "class": "target"}));
    }
    let labels: Vec<Vec<String>> = (0..h)
        .map(|y| {
            (0..w)
                .map(|x| clue(x, y).map_or(String::new(), |n| n.to_string()))
                .collect()
        })
        .collect();
    let parsed = matches!(read, Some(Ok(_)));
    let classes: Vec<Vec<&str>> = covered
        .iter()
        .map(|row| {
            row.iter()
                .map(|&n| match n {
                    _ if !parsed => "",
                    0 => "missing",
                    1 => "",
                    _ => "extra",
                })
                .collect()
        })
        .collect();
    let count = |class: &str| classes.iter().flatten().filter(|c| **c == class).count();
    items.insert(
        0,
        json!({"type": "grid", "x": 0, "y": 0, "cell": 1, "rows": h, "cols": w,
               "labels": labels, "classes": classes}),
    );
    let caption = match &read {
        Some(Ok(_)) => format!(
            "{} rectangles; {} cells uncovered, {} covered twice or more; {} rectangles of the \
             stored solution not in the answer (dashed)",
            boxes.len(),
            count("missing"),
            count("extra"),
            missing.len()
        ),
        Some(Err(why)) => format!("the rectangles could not be read: {why}"),
        None => "no list of rectangles could be parsed from the answer".to_owned(),
    };
    Some(json!({
        "title": format!("Shikaku {w}×{h}"),
        "caption": caption,
        "view_box": [-1.5, -1.5, w + 3, h + 3],
        "items": items,
    }))
}

/// The verdict with its figure in `details.figure` (nothing else changes).
fn grade_with_figure(instance: &Instance, text: &str) -> Verdict {
    let verdict = grade(instance, text);
    let Some(figure) = figure(instance, text) else {
        return verdict;
    };
    let mut details = verdict.details().cloned().unwrap_or_default();
    details["figure"] = figure;
    verdict.with_details(details)
}

verigate_sdk::main!(verdict_json, || verigate_sdk::grade_instance(
    grade_with_figure
));

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
        // int(str) takes Unicode decimal digits and white space as CPython does.
        assert!(message("[['０', '0', '１', 0], [0, '\u{0661}', 1, '\u{3000}1']]").0);
        assert!(!message("[['²', 0, 1, 0], [0, 1, 1, 1]]").0);
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

    fn drawn(text: &str) -> verigate_sdk::serde_json::Value {
        let v = verigate_sdk::serde_json::to_value(grade_with_figure(&instance(), text)).unwrap();
        v["details"]["figure"].clone()
    }

    fn polygons(figure: &verigate_sdk::serde_json::Value) -> Vec<String> {
        figure["items"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|i| i["type"] == "polygon")
            .map(|i| i["class"].as_str().unwrap().to_owned())
            .collect()
    }

    #[test]
    fn the_figure_draws_the_answer_over_the_puzzle() {
        let f = drawn("[[0, 0, 1, 0], [0, 1, 1, 1]]");
        assert_eq!(f["items"][0]["labels"], json!([["2", ""], ["", "2"]]));
        assert_eq!(f["items"][0]["classes"], json!([["", ""], ["", ""]]));
        assert_eq!(polygons(&f), ["ok", "ok"]);
        assert_eq!(
            f["items"][1]["points"],
            json!([[0, 0], [2, 0], [2, 1], [0, 1]])
        );
        // Another valid tiling: the stored solution's rectangles dashed beside it.
        assert_eq!(
            polygons(&drawn("[[0, 0, 0, 1], [1, 0, 1, 1]]")),
            ["ok", "ok", "target", "target"]
        );
        // Overlap, a missing cell, a box with two clues, a box leaving the grid.
        let f = drawn("[[0, 0, 1, 1], [0, 0, 0, 0], [1, 1, 5, 1]]");
        assert_eq!(
            f["items"][0]["classes"],
            json!([["extra", ""], ["", "extra"]])
        );
        assert_eq!(
            polygons(&f),
            ["wrong", "wrong", "wrong", "target", "target"]
        );
        assert_eq!(
            f["items"][3]["points"],
            json!([[1, 1], [3, 1], [3, 2], [1, 2]])
        );
        let f = drawn("[[0, 0, 1, 0]]");
        assert_eq!(
            f["items"][0]["classes"],
            json!([["", ""], ["missing", "missing"]])
        );
        assert!(
            f["caption"]
                .as_str()
                .unwrap()
                .starts_with("1 rectangles; 2 cells uncovered")
        );
        // Unreadable answers still show the puzzle.
        assert_eq!(polygons(&drawn("no idea")), Vec::<String>::new());
        assert_eq!(
            drawn("no idea")["caption"],
            "no list of rectangles could be parsed from the answer"
        );
    }

    #[test]
    fn the_figure_only_adds_to_the_details_and_is_bounded() {
        for text in [
            "[[0, 0, 1, 0], [0, 1, 1, 1]]",
            "[[0, 0, 1]]",
            "no idea",
            "[]",
        ] {
            let plain = verigate_sdk::serde_json::to_value(grade(&instance(), text)).unwrap();
            let mut with =
                verigate_sdk::serde_json::to_value(grade_with_figure(&instance(), text)).unwrap();
            with["details"].as_object_mut().unwrap().remove("figure");
            if with["details"].as_object().unwrap().is_empty() {
                with.as_object_mut().unwrap().remove("details");
            }
            assert_eq!(with, plain, "{text}");
        }
        let boxes = vec!["[0, 0, 9223372036854775807, 10**30]"; 2000].join(", ");
        let f = drawn(&format!("[{boxes}]"));
        assert_eq!(polygons(&f).len(), FIGURE_MAX_BOXES + 2);
        assert!(f.to_string().len() < 60 * 1024, "{}", f.to_string().len());
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
