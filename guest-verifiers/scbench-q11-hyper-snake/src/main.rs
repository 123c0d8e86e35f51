//! `scbench-q11-hyper-snake` (verdict-json): SCBench Q11 "Hyper-snake Challenge", a port
//! of `gradeAnswer` in the benchmark's `11.py`.
//!
//! The instance gives the grid `size` (2 to 10 dimensions), the `start` cell, the `walls`,
//! whether the original's wall test can match them at all (`walls_match`: subpass 2 lists
//! its wall as a list, and `tuple(pos) in walls` never finds a tuple among lists, so that
//! wall is not enforced — reproduced), and the `food` cells. The payload is the model
//! answer as the runner stored it, a Python literal `{'path': [{'pos': [...]}, ...]}`.
//!
//! Checks, in the original's order: a path exists and is not empty; its first position has
//! the grid's dimension and equals the start (it is never bounds- or wall-checked); then
//! every move changes exactly one coordinate by exactly 1, stays in bounds, visits a new
//! cell and avoids the walls; any failure scores 0. The score is len(path) / D (D = cells
//! minus walls), divided by 0.98 and capped at 1 when there are walls, then divided by
//! (uneaten food + 1) — computed in the same floating-point steps, so it equals the
//! original's score bit for bit. The verdict passes at score 1; the message is the
//! original's explanation ("Visited 62/63 cells (100.0%)"). Where the original raises (a
//! step that is not a dict with a numeric `pos`; its runner records 10000), the verdict
//! fails and says so.

use std::collections::HashSet;

use serde::Deserialize;
use verigate_sdk::Verdict;
use verigate_sdk::harness::{Step, Stop};
use verigate_sdk::python::{Value, coerce};
use verigate_sdk::serde_json::json;

#[derive(Deserialize)]
struct Instance {
    size: Vec<i64>,
    start: Vec<i64>,
    walls: Vec<Vec<i64>>,
    walls_match: bool,
    food: Vec<Vec<i64>>,
}

/// A cell as comparable bits (`1.0` and `1` are the same cell, as in Python).
type Cell = Vec<u64>;

fn cell(pos: &[f64]) -> Cell {
    pos.iter().map(|c| (c + 0.0).to_bits()).collect()
}

fn ints(v: &[i64]) -> Vec<f64> {
    v.iter().map(|&c| c as f64).collect()
}

/// `step['pos']` as numbers.
fn position(step: &Value, index: usize) -> Step<(Vec<f64>, String)> {
    let pos = step.as_dict().and_then(|d| d.get("pos")).ok_or_else(|| {
        Stop::Raise(format!(
            "step {index}: {} has no 'pos'",
            step.repr_short(60)
        ))
    })?;
    let items = pos.as_sequence().ok_or_else(|| {
        Stop::Raise(format!(
            "step {index}: pos {} is not a list",
            pos.repr_short(60)
        ))
    })?;
    let coords = items
        .iter()
        .map(coerce::real_i64)
        .collect::<Option<Vec<f64>>>()
        .ok_or_else(|| {
            Stop::Raise(format!(
                "step {index}: pos {} holds a non-number",
                pos.repr_short(60)
            ))
        })?;
    Ok((coords, pos.repr_short(200)))
}

/// The number of cells visited, or why the path scores 0.
fn walk(instance: &Instance, path: &[Value]) -> Step<(usize, usize)> {
    let dim = instance.size.len();
    let (first, first_text) = position(&path[0], 0)?;
    if first.len() != dim {
        return Err(Stop::Zero(format!(
            "Start position has {} dimensions, expected {dim}",
            first.len()
        )));
    }
    if first != ints(&instance.start) {
        return Err(Stop::Zero(format!(
            "Path must start at {:?}",
            instance.start
        )));
    }
    let walls: HashSet<Cell> = if instance.walls_match {
        instance.walls.iter().map(|w| cell(&ints(w))).collect()
    } else {
        HashSet::new()
    };
    let mut food: HashSet<Cell> = instance.food.iter().map(|f| cell(&ints(f))).collect();
    let mut visited: HashSet<Cell> = HashSet::from([cell(&first)]);
    let (mut prev, mut prev_text) = (first, first_text);
    for (i, step) in path.iter().enumerate().skip(1) {
        let (pos, text) = position(step, i)?;
        if pos.len() != dim {
            return Err(Stop::Zero(format!(
                "Move {i} has {} dimensions, expected {dim}",
                pos.len()
            )));
        }
        let changed: Vec<usize> = (0..dim).filter(|&d| pos[d] != prev[d]).collect();
        if changed.len() != 1 {
            return Err(Stop::Zero(format!(
                "Move {i} changed {} dimensions (must be 1). From {prev_text} to {text}",
                changed.len()
            )));
        }
        if (pos[changed[0]] - prev[changed[0]]).abs() != 1.0 {
            return Err(Stop::Zero(format!(
                "Move {i} jumps more than one cell: from {prev_text} to {text}"
            )));
        }
        if pos
            .iter()
            .zip(&instance.size)
            .any(|(&c, &s)| !(0.0..s as f64).contains(&c))
        {
            return Err(Stop::Zero(format!("Move {i} leaves the grid: {text}")));
        }
        let here = cell(&pos);
        if visited.contains(&here) {
            return Err(Stop::Zero(format!("Move {i} revisits {text}")));
        }
        if walls.contains(&here) {
            return Err(Stop::Zero(format!("Move {i} hits a wall at {text}")));
        }
        visited.insert(here.clone());
        food.remove(&here);
        (prev, prev_text) = (pos, text);
    }
    Ok((path.len(), food.len()))
}

fn grade(instance: &Instance, text: &str) -> Verdict {
    let answer = verigate_sdk::python::answer(text);
    let Some(path) = answer.as_dict().and_then(|d| d.get("path")) else {
        return Verdict::fail("No path in answer");
    };
    let Some(path) = path.as_sequence().filter(|p| !p.is_empty()) else {
        return Verdict::fail("Empty path");
    };
    let (visited, uneaten) = match walk(instance, path) {
        Ok(done) => done,
        Err(stop) => return stop.verdict(),
    };
    let cells: i64 = instance.size.iter().product();
    let denominator = cells - i64::try_from(instance.walls.len()).unwrap_or(0);
    let mut score = visited as f64 / denominator as f64;
    if !instance.walls.is_empty() {
        score = (score / 0.98).min(1.0);
    }
    let mut message = format!(
        "Visited {visited}/{denominator} cells ({:.1}%)",
        score * 100.0
    );
    if uneaten > 0 {
        score /= (uneaten + 1) as f64;
        message.push_str(&format!(" (food not eaten: {uneaten})"));
    }
    let details = json!({ "visited": visited, "cells": denominator, "food_not_eaten": uneaten });
    Verdict::scored(score, message).with_details(details)
}

verigate_sdk::main!(verdict_json, grade_instance(grade));

#[cfg(test)]
mod tests {
    use super::*;

    /// 3×2, start (0, 0), a wall at (2, 1) unless `walls_match` is off, food at (1, 1).
    fn graded(path: &[[i64; 2]], walls_match: bool) -> (f64, String) {
        let instance = Instance {
            size: vec![3, 2],
            start: vec![0, 0],
            walls: vec![vec![2, 1]],
            walls_match,
            food: vec![vec![1, 1]],
        };
        let steps: Vec<String> = path
            .iter()
            .map(|p| format!("{{'pos': [{}, {}]}}", p[0], p[1]))
            .collect();
        let text = format!("{{'path': [{}]}}", steps.join(", "));
        let v = verigate_sdk::serde_json::to_value(grade(&instance, &text)).unwrap();
        (
            v["score"].as_f64().unwrap(),
            v["message"].as_str().unwrap_or("").to_owned(),
        )
    }

    #[test]
    fn scores_follow_the_original_formula() {
        // 5 of 5 cells: 5/5/0.98 capped at 1.
        let full = graded(&[[0, 0], [0, 1], [1, 1], [1, 0], [2, 0]], true);
        assert_eq!(full, (1.0, "Visited 5/5 cells (100.0%)".to_owned()));
        // 3 of 5, food uneaten: (3/5/0.98)/2.
        let (score, message) = graded(&[[0, 0], [1, 0], [2, 0]], true);
        assert_eq!(score, 3.0 / 5.0 / 0.98 / 2.0);
        assert_eq!(message, "Visited 3/5 cells (61.2%) (food not eaten: 1)");
    }

    #[test]
    fn invalid_moves_score_zero() {
        assert_eq!(
            graded(&[[0, 0], [1, 1]], true).1,
            "Move 1 changed 2 dimensions (must be 1). From [0, 0] to [1, 1]"
        );
        assert_eq!(
            graded(&[[0, 0], [2, 0]], true).1,
            "Move 1 jumps more than one cell: from [0, 0] to [2, 0]"
        );
        assert_eq!(
            graded(&[[0, 0], [1, 0], [0, 0]], true).1,
            "Move 2 revisits [0, 0]"
        );
        assert_eq!(graded(&[[1, 0]], true).1, "Path must start at [0, 0]");
        let through_wall = [[0, 0], [1, 0], [2, 0], [2, 1]];
        assert_eq!(
            graded(&through_wall, true).1,
            "Move 3 hits a wall at [2, 1]"
        );
        // Subpass 2's quirk: a wall the original's test cannot match.
        assert_eq!(graded(&through_wall, false).0, 4.0 / 5.0 / 0.98 / 2.0);
    }
}
