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
//!
//! Every verdict also carries `details.figure` (verigate's figure schema,
//! `runtime/html/FIGURE.md`): the grid with its blocked cells, the answer's loop as a
//! closed path from its first step, each cell visited once `ok`, not visited `missing`,
//! visited again `extra`, blocked but visited `wrong`, and every move that is not
//! side-adjacent as a `wrong` segment. At most [`FIGURE_MAX_STEPS`] steps are drawn.

use serde::Deserialize;
use verigate_sdk::python::{Value, coerce};
use verigate_sdk::serde_json::{self, json};
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
    coerce::real_saturating(v)
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

fn grade(instance: &Instance, answer: &Value) -> Result<Verdict> {
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

/// Most steps drawn in `details.figure`.
const FIGURE_MAX_STEPS: usize = 1024;
/// Largest grid side drawn.
const FIGURE_MAX_SIZE: u32 = 32;

/// `details.figure`: the grid, the answer's loop and what is wrong with it (module docs).
fn figure(instance: &Instance, answer: &Value) -> Option<serde_json::Value> {
    let size = instance.size;
    if size == 0 || size > FIGURE_MAX_SIZE {
        return None;
    }
    let n = size as usize;
    let steps = answer
        .as_dict()
        .and_then(|d| d.get("steps"))
        .and_then(Value::as_sequence)
        .unwrap_or_default();
    // The path up to its first unreadable step, clamped to just outside the grid.
    let edge = f64::from(size) + 1.0;
    let path: Vec<(f64, f64)> = steps
        .iter()
        .take(FIGURE_MAX_STEPS)
        .map_while(|step| {
            let xy = step.as_dict()?.get("xy")?.as_sequence()?;
            let (x, y) = (number(xy.first()?)?, number(xy.get(1)?)?);
            (!x.is_nan() && !y.is_nan()).then(|| (x.clamp(0.0, edge), y.clamp(0.0, edge)))
        })
        .collect();
    let mut visits = vec![vec![0u32; n]; n];
    for &(x, y) in &path {
        if (1.0..edge).contains(&x) && (1.0..edge).contains(&y) {
            visits[y as usize - 1][x as usize - 1] += 1;
        }
    }
    let blocked = |x: usize, y: usize| instance.blocked.contains(&(x as i64 + 1, y as i64 + 1));
    let classes: Vec<Vec<&str>> = (0..n)
        .map(|y| {
            (0..n)
                .map(|x| match (blocked(x, y), visits[y][x]) {
                    (true, 0) => "blocked",
                    (true, _) => "wrong",
                    (false, 0) => "missing",
                    (false, 1) => "ok",
                    (false, _) => "extra",
                })
                .collect()
        })
        .collect();
    let mut items = vec![json!({
        "type": "grid", "x": 0.5, "y": 0.5, "cell": 1, "rows": n, "cols": n,
        "classes": classes,
    })];
    let closing = path.len().checked_sub(1).filter(|&k| k > 0);
    let moves = path.windows(2).map(|w| (w[0], w[1]));
    let jumps: Vec<_> = moves
        .chain(closing.map(|k| (path[k], path[0])))
        .filter(|((x0, y0), (x1, y1))| (x1 - x0).abs() + (y1 - y0).abs() != 1.0)
        .collect();
    if path.len() >= 2 {
        let points: Vec<[f64; 2]> = path.iter().map(|&(x, y)| [x, y]).collect();
        items.push(
            json!({"type": "polyline", "points": points, "closed": true, "class": "highlight"}),
        );
    }
    for ((x0, y0), (x1, y1)) in &jumps {
        items.push(json!({"type": "segment", "from": [x0, y0], "to": [x1, y1], "class": "wrong"}));
    }
    if let Some(&(x, y)) = path.first() {
        items.push(json!({"type": "points", "points": [[x, y]], "labels": ["start"], "class": "highlight"}));
    }
    let count = |class: &str| classes.iter().flatten().filter(|c| **c == class).count();
    let mut caption = format!(
        "{} steps (expected {}); {} cells not visited, {} visited twice or more, {} blocked \
         cells visited; {} moves not side-adjacent",
        steps.len(),
        instance.expected_steps,
        count("missing"),
        count("extra"),
        count("wrong"),
        jumps.len()
    );
    if path.len() < steps.len() {
        caption.push_str(&format!("; the first {} steps drawn", path.len()));
    }
    Some(json!({
        "title": format!("Hamiltonian loop on the {size}×{size} grid"),
        "caption": caption,
        "view_box": [0, 0, edge, edge],
        "items": items,
    }))
}

/// The verdict with its figure in `details.figure`; a failed check is the failing verdict
/// `main!` would make of it.
fn verdict(instance: &Instance, answer: &Value) -> Verdict {
    let verdict = grade(instance, answer).unwrap_or_else(|e| Verdict::fail(e.message()));
    let Some(figure) = figure(instance, answer) else {
        return verdict;
    };
    let mut details = verdict.details().cloned().unwrap_or_default();
    details["figure"] = figure;
    verdict.with_details(details)
}

fn verify() -> Result<Verdict> {
    let instance: Instance = verigate_sdk::instance()?;
    let text = verigate_sdk::payload()?;
    // The replay in the original harness falls back to the raw string when the stored
    // answer is not a Python literal.
    Ok(verdict(&instance, &verigate_sdk::python::answer(text)))
}

verigate_sdk::main!(verdict_json, verify);

#[cfg(test)]
mod tests {
    use super::*;

    /// The 3×3 grid with its centre blocked: an 8-cell ring.
    fn instance() -> Instance {
        Instance {
            size: 3,
            blocked: vec![(2, 2)],
            expected_steps: 8,
        }
    }

    const RING: &str = "{'steps': [{'xy': [1, 1]}, {'xy': [2, 1]}, {'xy': [3, 1]}, {'xy': [3, 2]}, \
                        {'xy': [3, 3]}, {'xy': [2, 3]}, {'xy': [1, 3]}, {'xy': [1, 2]}]}";

    /// The verdict without its figure, and the figure.
    fn graded(text: &str) -> (serde_json::Value, serde_json::Value) {
        let answer = verigate_sdk::python::answer(text);
        let mut verdict = serde_json::to_value(verdict(&instance(), &answer)).unwrap();
        let details = verdict["details"].as_object_mut().unwrap();
        let figure = details.remove("figure").unwrap();
        if details.is_empty() {
            verdict.as_object_mut().unwrap().remove("details");
        }
        (verdict, figure)
    }

    fn classes(figure: &serde_json::Value) -> Vec<Vec<String>> {
        serde_json::from_value(figure["items"][0]["classes"].clone()).unwrap()
    }

    #[test]
    fn a_valid_loop_is_drawn_closed() {
        let (verdict, f) = graded(RING);
        assert_eq!(verdict["pass"], true);
        assert_eq!(
            classes(&f),
            [
                ["ok", "ok", "ok"],
                ["ok", "blocked", "ok"],
                ["ok", "ok", "ok"]
            ]
        );
        let items = f["items"].as_array().unwrap();
        // Grid, loop, start point: no wrong moves.
        assert_eq!(items.len(), 3);
        assert_eq!(items[1]["points"].as_array().unwrap().len(), 8);
        assert_eq!(items[1]["closed"], true);
        assert_eq!(f["view_box"], json!([0, 0, 4.0, 4.0]));
        assert_eq!(
            f["caption"],
            "8 steps (expected 8); 0 cells not visited, 0 visited twice or more, 0 blocked cells \
             visited; 0 moves not side-adjacent"
        );
    }

    #[test]
    fn a_broken_loop_shows_what_is_wrong() {
        // Through the blocked centre, (1, 1) twice, (1, 3) and (1, 2) never, one jump.
        let text = "{'steps': [{'xy': [1, 1]}, {'xy': [2, 1]}, {'xy': [2, 2]}, {'xy': [3, 2]}, \
                    {'xy': [3, 3]}, {'xy': [2, 3]}, {'xy': [3, 1]}, {'xy': [1, 1]}]}";
        let (verdict, f) = graded(text);
        assert_eq!(verdict["pass"], false);
        assert_eq!(
            classes(&f),
            [
                ["extra", "ok", "ok"],
                ["missing", "wrong", "ok"],
                ["missing", "ok", "ok"]
            ]
        );
        let jumps: Vec<_> = f["items"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|i| i["type"] == "segment")
            .collect();
        // (2,3) → (3,1), (3,1) → (1,1) and the closing (1,1) → (1,1).
        assert_eq!(jumps.len(), 3);
        assert_eq!(jumps[0]["from"], json!([2.0, 3.0]));
    }

    #[test]
    fn the_figure_only_adds_to_the_details() {
        for text in [
            RING,
            "{'steps': [{'xy': [0]}], 'reasoning': ''}",
            "",
            "no steps",
        ] {
            let answer = verigate_sdk::python::answer(text);
            let plain = grade(&instance(), &answer).unwrap_or_else(|e| Verdict::fail(e.message()));
            let (drawn, f) = graded(text);
            assert_eq!(f["items"][0]["type"], "grid");
            assert_eq!(drawn, serde_json::to_value(plain).unwrap(), "{text}");
        }
    }

    #[test]
    fn the_figure_is_bounded() {
        let steps: Vec<String> = (0..5000)
            .map(|i| format!("{{'xy': [{}, 1e308]}}", i % 7))
            .collect();
        let text = format!("{{'steps': [{}]}}", steps.join(", "));
        let (_, f) = graded(&text);
        let line = &f["items"][1];
        assert_eq!(line["points"].as_array().unwrap().len(), FIGURE_MAX_STEPS);
        assert_eq!(line["points"][1], json!([1.0, 4.0]));
        assert!(
            f["caption"]
                .as_str()
                .unwrap()
                .ends_with("the first 1024 steps drawn")
        );
        assert!(f.to_string().len() < 60 * 1024, "{}", f.to_string().len());
        let big = Instance {
            size: FIGURE_MAX_SIZE + 1,
            blocked: vec![],
            expected_steps: 1,
        };
        assert!(figure(&big, &verigate_sdk::python::answer(RING)).is_none());
    }
}
