//! `combench-usamo-2000-p4-100` (combench): USAMO 2000 Problem 4 on a
//! 100 × 100 board (the original board is 1000 × 1000).
//!
//! The payload is a Python expression for a dict with the single key
//! `"rule"`, whose value is a string holding a Python lambda `row, col -> bool`
//! (1-based). The rule is evaluated with [`RULE_LIMITS`] and called on every
//! square; each result must be a `bool` (`type(x) is bool`: truthy ints such
//! as 0/1 are rejected). The squares where it returns `True` are coloured.
//! The payload passes when exactly 2N − 2 = 198 squares are coloured (the
//! largest number possible) and no coloured square has another coloured
//! square both in its row and in its column, i.e. no three coloured centres
//! form a right triangle with legs parallel to the edges.

use verigate_sdk::python::{EvalLimits, Value};
use verigate_sdk::{Error, Result, ensure, fail};

/// The side of the board.
const N: usize = 100;
/// The most squares that can be coloured without a right triangle: 2N − 2.
const MAX_COLOURED: usize = 2 * N - 2;

/// Limits for evaluating the rule string and, afresh, for each call of it:
/// plenty for a formula or a lookup in a set of a few thousand squares.
const RULE_LIMITS: EvalLimits = EvalLimits {
    max_steps: 200_000,
    max_elements: 200_000,
    max_int_bits: 4_096,
    max_depth: 100,
};

fn verify() -> Result<()> {
    let payload = verigate_sdk::payload_python()?;
    let rule = read_rule(&payload)?;
    let coloured = colour_board(&rule)?;
    let count = coloured.iter().flatten().filter(|&&c| c).count();
    ensure!(
        count == MAX_COLOURED,
        "the rule colours {count} squares; the largest number possible without a right triangle is {MAX_COLOURED}"
    );
    check_no_right_triangle(&coloured)
}

/// The lambda held by the payload's `"rule"` string.
fn read_rule(payload: &Value) -> Result<Value> {
    let Some(dict) = payload.as_dict() else {
        fail!(
            "expected a dict {{\"rule\": \"lambda row, col: ...\"}}, got type {}",
            payload.type_name()
        );
    };
    if let Some(key) = dict.keys().find(|k| k.as_str() != Some("rule")) {
        fail!(
            "unexpected key {}: the dict must have the single key \"rule\"",
            key.repr_short(60)
        );
    }
    let Some(text) = dict.get("rule").and_then(Value::as_str) else {
        fail!("the dict needs the key \"rule\" with a string value");
    };
    let rule = verigate_sdk::from_python_with("rule", text, &RULE_LIMITS)?;
    ensure!(
        rule.type_name() == "function",
        "rule: the string evaluates to type {}, not a lambda",
        rule.type_name()
    );
    Ok(rule)
}

/// `coloured[r][c]`: whether the rule colours row r + 1, column c + 1.
fn colour_board(rule: &Value) -> Result<Vec<[bool; N]>> {
    let mut coloured = vec![[false; N]; N];
    for (r, row) in coloured.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            let (row_no, col_no) = (r + 1, c + 1);
            let args = [Value::from(row_no as i64), Value::from(col_no as i64)];
            let result = rule
                .call(&args)
                .map_err(|e| Error::msg(format!("rule({row_no}, {col_no}) failed: {e}")))?;
            let Some(b) = result.as_bool() else {
                fail!(
                    "rule({row_no}, {col_no}) returned {} (type {}); it must return True or False",
                    result.repr_short(60),
                    result.type_name()
                );
            };
            *cell = b;
        }
    }
    Ok(coloured)
}

/// No coloured square has another coloured square in its row and another in
/// its column (such a square is the right-angle corner of a triangle).
fn check_no_right_triangle(coloured: &[[bool; N]]) -> Result<()> {
    let in_row: Vec<usize> = coloured
        .iter()
        .map(|row| row.iter().filter(|&&c| c).count())
        .collect();
    let in_col: Vec<usize> = (0..N)
        .map(|c| coloured.iter().filter(|row| row[c]).count())
        .collect();
    for (r, row) in coloured.iter().enumerate() {
        for c in (0..N).filter(|&c| row[c]) {
            if in_row[r] >= 2 && in_col[c] >= 2 {
                let c2 = (0..N).find(|&c2| c2 != c && row[c2]).unwrap_or(c);
                let r2 = (0..N).find(|&r2| r2 != r && coloured[r2][c]).unwrap_or(r);
                fail!(
                    "squares ({}, {}), ({}, {}) and ({}, {}) (row, column) are coloured and form a right triangle with legs parallel to the edges",
                    r + 1,
                    c + 1,
                    r + 1,
                    c2 + 1,
                    r2 + 1,
                    c + 1
                );
            }
        }
    }
    Ok(())
}

verigate_sdk::main!(combench, verify);
