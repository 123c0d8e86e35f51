//! `sphyr` (verdict-json): SPhyR topology-completion grids
//! (<https://github.com/philippds/SPhyR>, MIT).
//!
//! The item's row (`$VERIGATE_ROW`) holds `input_grid` and `ground_truth`
//! (lists of rows of cell strings: `L`, `S`, `V`, `0`, `1` or decimals); the
//! payload is the model's text, one grid row per line, cells separated by
//! whitespace.
//!
//! The verdict reproduces the dataset card's scorer (`run_eval.py`) exactly
//! (`faithful` mode): the answer is split into lines and whitespace, cells
//! are compared as strings, and rows and cells are zipped without a shape
//! check, so missing rows or cells count as equal and an empty answer has
//! zero differences. With `d_out` = diff(answer, gt) and `d_in` =
//! diff(input, gt): `d_out == 0` is an exact match (pass, score 1);
//! otherwise Score = 1 − d_out/d_in and the verdict's score is
//! max(Score, 0). If `d_in == 0` and `d_out > 0` the card's code raises
//! `ZeroDivisionError` and records no result; here that is a failing
//! verdict with score 0 saying so.
//!
//! `details.strict` grades the same answer after rejecting a wrong shape
//! (code fence, row count, cells per row; blank lines around the grid are
//! ignored) with score 0.
//!
//! `details.figure` (verigate's figure schema, `runtime/html/FIGURE.md`)
//! draws the input, the ground truth and the answer side by side: the cells
//! to fill are `target`; in the answer, a filled cell right is `ok`, a cell
//! that differs `wrong`, a cell the answer lacks `missing`, a cell beyond
//! the ground truth's shape `extra`. Grids over [`FIGURE_MAX_SIDE`] cells a
//! side are not drawn, so the verdict line stays small.

use serde::Deserialize;
use verigate_sdk::serde_json::{Value, json};
use verigate_sdk::{Result, Verdict};

/// The fields of a dataset row this verifier uses.
#[derive(Deserialize)]
struct Row {
    input_grid: Vec<Vec<String>>,
    ground_truth: Vec<Vec<String>>,
}

/// `[line.split() for line in text.splitlines()]`.
fn parse_grid(text: &str) -> Vec<Vec<&str>> {
    verigate_sdk::py_splitlines(text)
        .into_iter()
        .map(|line| {
            line.split(verigate_sdk::is_py_space)
                .filter(|c| !c.is_empty())
                .collect()
        })
        .collect()
}

/// A differing cell (0-based) within the zipped region.
struct Diff {
    row: usize,
    col: usize,
    expected: String,
    got: String,
}

/// The card's `count_differences`: cells that differ where both grids have
/// them (rows and cells zipped, extra ones ignored).
fn differences<A: AsRef<str>>(grid: &[Vec<A>], truth: &[Vec<String>]) -> Vec<Diff> {
    let mut diffs = Vec::new();
    for (r, (row, truth_row)) in grid.iter().zip(truth).enumerate() {
        for (c, (cell, want)) in row.iter().zip(truth_row).enumerate() {
            if cell.as_ref() != want {
                diffs.push(Diff {
                    row: r,
                    col: c,
                    expected: want.clone(),
                    got: cell.as_ref().to_owned(),
                });
            }
        }
    }
    diffs
}

/// The faithful score: `(exact, raw Score)`, or `None` where the card's code
/// divides by zero.
fn card_score(d_out: usize, d_in: usize) -> Option<(bool, f64)> {
    if d_out == 0 {
        Some((true, 1.0))
    } else if d_in == 0 {
        None
    } else {
        Some((false, 1.0 - d_out as f64 / d_in as f64))
    }
}

/// Why the answer's shape is wrong, if it is (strict mode).
fn shape_error(text: &str, truth: &[Vec<String>]) -> Option<String> {
    let lines = verigate_sdk::py_splitlines(text);
    let first = lines.iter().position(|l| !l.trim().is_empty());
    let last = lines.iter().rposition(|l| !l.trim().is_empty());
    let body = match (first, last) {
        (Some(a), Some(b)) => &lines[a..=b],
        _ => return Some("the answer is empty".to_owned()),
    };
    let offset = first.unwrap_or(0);
    if let Some(i) = body.iter().position(|l| l.trim_start().starts_with("```")) {
        return Some(format!("line {} is a code fence", offset + i + 1));
    }
    if body.len() != truth.len() {
        return Some(format!(
            "the answer has {} rows, expected {}",
            body.len(),
            truth.len()
        ));
    }
    for (i, (line, want)) in body.iter().zip(truth).enumerate() {
        let cells = line
            .split(verigate_sdk::is_py_space)
            .filter(|c| !c.is_empty())
            .count();
        if cells != want.len() {
            return Some(format!(
                "row {} has {cells} cells, expected {}",
                i + 1,
                want.len()
            ));
        }
    }
    None
}

fn grade(row: &Row, answer: &str) -> Verdict {
    let output = parse_grid(answer);
    let wrong = differences(&output, &row.ground_truth);
    let d_in = differences(&row.input_grid, &row.ground_truth).len();
    let d_out = wrong.len();
    let Some((exact, raw)) = card_score(d_out, d_in) else {
        let message = format!(
            "{d_out} cells differ from the ground truth, but the input grid equals it \
             (the card's scorer divides by zero and records no score)"
        );
        return Verdict::fail(message.clone()).with_details(json!({
            "mode": "faithful", "exact": false, "raw_score": null, "normalized_score": 0.0,
            "diff_output": d_out, "diff_input": d_in,
            "strict": { "pass": false, "score": 0.0, "message": message },
        }));
    };
    let normalized = raw.max(0.0);
    let message = match wrong.first() {
        None => "exact match".to_owned(),
        Some(first) => format!(
            "{d_out} cells differ from the ground truth ({d_in} cells to fill); \
             first: row {} col {} expected {}, got {}",
            first.row + 1,
            first.col + 1,
            first.expected,
            first.got
        ),
    };
    let (strict_pass, strict_score, strict_message) = match shape_error(answer, &row.ground_truth) {
        Some(why) => (false, 0.0, why),
        None => (exact, normalized, message.clone()),
    };
    let details = json!({
        "mode": "faithful",
        "exact": exact,
        "raw_score": raw,
        "normalized_score": normalized,
        "diff_output": d_out,
        "diff_input": d_in,
        "strict": { "pass": strict_pass, "score": strict_score, "message": strict_message },
    });
    let verdict = if exact {
        Verdict::pass()
    } else {
        Verdict::partial(normalized, message)
    };
    verdict.with_details(details)
}

/// Most rows or cells per row drawn in `details.figure`.
const FIGURE_MAX_SIDE: usize = 24;
/// Longest cell text drawn in the figure, in characters.
const FIGURE_LABEL_CHARS: usize = 6;

/// One grid of the figure at `x`: `rows` × `cols` cells, `cell(r, c)` giving
/// each cell's text and style class.
fn figure_grid<'a>(
    label: &str,
    x: usize,
    (rows, cols): (usize, usize),
    cell: impl Fn(usize, usize) -> (Option<&'a str>, &'static str),
) -> Value {
    let (mut labels, mut classes) = (Vec::new(), Vec::new());
    for r in 0..rows {
        let (l, c): (Vec<Value>, Vec<Value>) = (0..cols)
            .map(|c| {
                let (text, class) = cell(r, c);
                let text: Option<String> =
                    text.map(|t| t.chars().take(FIGURE_LABEL_CHARS).collect());
                (json!(text), json!(class))
            })
            .unzip();
        labels.push(l);
        classes.push(c);
    }
    json!({
        "type": "grid", "x": x, "y": 0, "cell": 1, "rows": rows, "cols": cols,
        "label": label, "labels": labels, "classes": classes,
    })
}

fn cell<A: AsRef<str>>(grid: &[Vec<A>], r: usize, c: usize) -> Option<&str> {
    grid.get(r).and_then(|row| row.get(c)).map(AsRef::as_ref)
}

/// `details.figure`: input, ground truth and answer grids (see the module docs).
fn figure(row: &Row, answer: &str) -> Option<Value> {
    let output = parse_grid(answer);
    let shape = |g: &[Vec<String>]| (g.len(), g.iter().map(Vec::len).max().unwrap_or(0));
    let (truth, input) = (&row.ground_truth, &row.input_grid);
    let (rows, cols) = shape(truth);
    let (in_rows, in_cols) = shape(input);
    let fits =
        |(r, c): (usize, usize)| r > 0 && c > 0 && r <= FIGURE_MAX_SIDE && c <= FIGURE_MAX_SIDE;
    if !fits((rows, cols)) || !fits((in_rows, in_cols)) {
        return None;
    }
    let out_cols = output.iter().map(Vec::len).max().unwrap_or(0);
    let answer_shape = (
        rows.max(output.len()).min(FIGURE_MAX_SIDE),
        cols.max(out_cols).min(FIGURE_MAX_SIDE),
    );
    let to_fill = |r, c| cell(input, r, c) != cell(truth, r, c);
    let gap = in_cols.max(cols) + 1;
    let items = vec![
        figure_grid("input", 0, (in_rows, in_cols), |r, c| {
            let class = if to_fill(r, c) { "target" } else { "neutral" };
            (cell(input, r, c), class)
        }),
        figure_grid("ground truth", gap, (rows, cols), |r, c| {
            let class = if to_fill(r, c) { "target" } else { "neutral" };
            (cell(truth, r, c), class)
        }),
        figure_grid("answer", 2 * gap, answer_shape, |r, c| {
            let got = cell(&output, r, c);
            let class = match (got, cell(truth, r, c)) {
                (Some(g), Some(t)) if g != t => "wrong",
                (Some(_), Some(_)) if to_fill(r, c) => "ok",
                (Some(_), Some(_)) => "neutral",
                (None, Some(_)) => "missing",
                (Some(_), None) => "extra",
                (None, None) => "neutral",
            };
            (got, class)
        }),
    ];
    let height = in_rows.max(rows).max(answer_shape.0);
    let wrong = differences(&output, truth).len();
    Some(json!({
        "title": "input · ground truth · answer",
        "caption": format!(
            "{wrong} answer cell(s) differ from the ground truth; the answer has {} row(s)",
            output.len()
        ),
        "view_box": [-0.5, -1.5, 2 * gap + answer_shape.1 + 1, height + 2],
        "items": items,
    }))
}

/// `verdict` with `figure` added to its details (nothing else changes).
fn with_figure(verdict: Verdict, figure: Option<Value>) -> Verdict {
    let Some(figure) = figure else {
        return verdict;
    };
    let mut details = verdict.details().cloned().unwrap_or_default();
    details["figure"] = figure;
    verdict.with_details(details)
}

fn verify() -> Result<Verdict> {
    let row: Row = verigate_sdk::row()?;
    let answer = verigate_sdk::payload()?;
    Ok(with_figure(grade(&row, answer), figure(&row, answer)))
}

verigate_sdk::main!(verdict_json, verify);

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(rows: &[&str]) -> Vec<Vec<String>> {
        rows.iter()
            .map(|r| r.split(' ').map(str::to_owned).collect())
            .collect()
    }

    /// 3x3 item with 2 cells to fill: (1,3) -> 1, (3,1) -> 0.
    fn item() -> Row {
        Row {
            input_grid: grid(&["L 0 V", "0 1 0", "V S S"]),
            ground_truth: grid(&["L 0 1", "0 1 0", "0 S S"]),
        }
    }

    fn details(v: &Verdict) -> verigate_sdk::serde_json::Value {
        verigate_sdk::serde_json::to_value(v).unwrap()
    }

    #[test]
    fn exact_match_passes() {
        let v = details(&grade(&item(), "L 0 1\n0 1 0\n0 S S\n"));
        assert_eq!(v["pass"], true);
        assert_eq!(v["details"]["strict"]["pass"], true);
    }

    #[test]
    fn one_wrong_of_two_scores_half() {
        let v = details(&grade(&item(), "L 0 1\n0 1 0\n1 S S"));
        assert_eq!(v["score"], 0.5);
        assert_eq!(v["details"]["diff_output"], 1);
        assert_eq!(v["details"]["diff_input"], 2);
        assert_eq!(
            v["message"],
            "1 cells differ from the ground truth (2 cells to fill); first: row 3 col 1 expected 0, got 1"
        );
    }

    #[test]
    fn negative_raw_score_is_clamped() {
        // 4 differences against 2 to fill: raw 1 - 4/2 = -1.
        let v = details(&grade(&item(), "L 1 0\n1 0 0"));
        assert_eq!(v["details"]["raw_score"], -1.0);
        assert_eq!(v["score"], 0.0);
    }

    #[test]
    fn empty_answer_is_an_exact_match_faithfully_but_not_strictly() {
        let v = details(&grade(&item(), ""));
        assert_eq!(v["pass"], true);
        assert_eq!(v["details"]["strict"]["pass"], false);
        assert_eq!(v["details"]["strict"]["message"], "the answer is empty");
    }

    #[test]
    fn code_fence_shifts_rows_faithfully_and_is_rejected_strictly() {
        // Fence line has one cell "```": 1 diff in row 1; then rows shift by one.
        let v = details(&grade(&item(), "```\nL 0 1\n0 1 0\n0 S S\n```"));
        // row1 "```" vs "L 0 1": 1 diff; row2 "L 0 1" vs "0 1 0": 3; row3 "0 1 0" vs "0 S S": 2.
        assert_eq!(v["details"]["diff_output"], 6);
        assert_eq!(v["details"]["strict"]["message"], "line 1 is a code fence");
    }

    #[test]
    fn missing_row_counts_only_zipped_cells() {
        let v = details(&grade(&item(), "L 0 1\n0 1 0"));
        assert_eq!(v["pass"], true);
        assert_eq!(
            v["details"]["strict"]["message"],
            "the answer has 2 rows, expected 3"
        );
        let v = details(&grade(&item(), "L 0 1\n0 1\n0 S S"));
        assert_eq!(
            v["details"]["strict"]["message"],
            "row 2 has 2 cells, expected 3"
        );
    }

    #[test]
    fn python_line_and_space_rules() {
        assert_eq!(verigate_sdk::py_splitlines("a\r\nb\rc\n"), ["a", "b", "c"]);
        assert_eq!(verigate_sdk::py_splitlines("a\n\nb"), ["a", "", "b"]);
        assert_eq!(parse_grid(" 1\t0\u{1f}1 \n"), [vec!["1", "0", "1"]]);
    }

    /// Each grid's style classes, row by row.
    fn classes(figure: &Value, grid: usize) -> Vec<Vec<String>> {
        figure["items"][grid]["classes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                r.as_array()
                    .unwrap()
                    .iter()
                    .map(|c| c.as_str().unwrap().to_owned())
                    .collect()
            })
            .collect()
    }

    #[test]
    fn the_figure_marks_cells_to_fill_and_answer_errors() {
        // Row 3 col 1 wrong, and a fourth row of two cells beyond the ground truth.
        let f = figure(&item(), "L 0 1\n0 1 0\n1 S\n0 0").unwrap();
        assert_eq!(f["items"].as_array().unwrap().len(), 3);
        assert_eq!(
            classes(&f, 0),
            [
                ["neutral", "neutral", "target"],
                ["neutral", "neutral", "neutral"],
                ["target", "neutral", "neutral"]
            ]
        );
        assert_eq!(classes(&f, 1), classes(&f, 0));
        assert_eq!(
            classes(&f, 2),
            [
                ["neutral", "neutral", "ok"],
                ["neutral", "neutral", "neutral"],
                ["wrong", "neutral", "missing"],
                ["extra", "extra", "neutral"]
            ]
        );
        assert_eq!(f["items"][2]["labels"][2], json!(["1", "S", null]));
        assert_eq!(f["items"][1]["x"], 4);
        assert_eq!(f["items"][2]["x"], 8);
        assert_eq!(f["view_box"], json!([-0.5, -1.5, 12, 6]));
        assert_eq!(
            f["caption"],
            "1 answer cell(s) differ from the ground truth; the answer has 4 row(s)"
        );
    }

    #[test]
    fn the_figure_is_bounded() {
        // A long answer is drawn to the cap; long cells are cut.
        let answer = format!("{}\n", "xxxxxxxxxxxxxxxxxxxx ".repeat(100)).repeat(100);
        let f = figure(&item(), &answer).unwrap();
        assert_eq!(f["items"][2]["rows"], FIGURE_MAX_SIDE);
        assert_eq!(f["items"][2]["cols"], FIGURE_MAX_SIDE);
        assert_eq!(f["items"][2]["labels"][0][0], "xxxxxx");
        assert!(f.to_string().len() < 16 * 1024, "{}", f.to_string().len());
        // A grid over the cap is not drawn at all.
        let wide = vec![vec!["0".to_owned(); FIGURE_MAX_SIDE + 1]];
        let row = Row {
            input_grid: wide.clone(),
            ground_truth: wide,
        };
        assert!(figure(&row, "0").is_none());
    }

    #[test]
    fn the_figure_only_adds_to_the_details() {
        for answer in ["L 0 1\n0 1 0\n0 S S\n", "L 0 1\n0 1 0\n1 S S", ""] {
            let plain = details(&grade(&item(), answer));
            let mut drawn = details(&with_figure(
                grade(&item(), answer),
                figure(&item(), answer),
            ));
            assert!(drawn["details"]["figure"].is_object());
            drawn["details"].as_object_mut().unwrap().remove("figure");
            assert_eq!(drawn, plain);
        }
    }

    #[test]
    fn input_equal_to_truth_is_the_cards_division_by_zero() {
        let row = Row {
            input_grid: grid(&["1 0"]),
            ground_truth: grid(&["1 0"]),
        };
        assert_eq!(details(&grade(&row, "1 0"))["pass"], true);
        let v = details(&grade(&row, "0 0"));
        assert_eq!(v["pass"], false);
        assert_eq!(
            v["details"]["raw_score"],
            verigate_sdk::serde_json::Value::Null
        );
    }
}
