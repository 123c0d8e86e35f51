//! `combench-imoslc-2023-p4-150` (combench): IMO Shortlist 2023 C4 with
//! n = 150.
//!
//! The payload is a Python expression for a dict with exactly the keys
//! `"endpoints"` and `"rows"`:
//!
//! - `endpoints`: the label of the last square of each piece, in strip order
//!   (strictly increasing ints in 1..=n^2, the last one n^2); piece k (from 1)
//!   holds the squares `endpoints[k-2] + 1 ..= endpoints[k-1]`.
//! - `rows`: n lists, row i (from 1, top to bottom) giving the pieces laid in
//!   it from left to right.
//!
//! Lists may also be tuples; numbers must be exact `int`s (not `bool`). It
//! passes when every piece is used exactly once, every row has length n,
//! every square (i, j) holds a label a with n | a - (i + j - 1), and there
//! are exactly 2n - 1 = 299 pieces, the minimum.

use verigate_sdk::python::{EvalLimits, Value};
use verigate_sdk::{Error, Result, ensure, fail};

/// The side of the square.
const N: i64 = 150;
/// The number of squares of the strip.
const SQUARES: i64 = N * N;
/// The smallest possible number of pieces, 2n - 1.
const MIN_PIECES: usize = 2 * N as usize - 1;
/// Evaluation bounds: the reference needs about 4,500 steps and 1,500
/// elements; these leave room for up to n^2 one-square pieces.
const LIMITS: EvalLimits = EvalLimits {
    max_steps: 1_000_000,
    max_elements: 100_000,
    max_int_bits: 1_024,
    max_depth: 100,
};

fn verify() -> Result<()> {
    let value = verigate_sdk::payload_python_with(&LIMITS)?;
    let (endpoints, rows) = read_fields(&value)?;
    let pieces = read_pieces(endpoints)?;
    check_rows(rows, &pieces)?;
    ensure!(
        pieces.len() == MIN_PIECES,
        "the arrangement is valid but uses {} pieces; the minimum, 2n - 1 = {MIN_PIECES}, is \
         required",
        pieces.len()
    );
    Ok(())
}

/// A piece of the strip: its first and last label.
#[derive(Clone, Copy)]
struct Piece {
    first: i64,
    last: i64,
}

/// The `"endpoints"` and `"rows"` values of a dict with exactly those keys.
fn read_fields(value: &Value) -> Result<(&[Value], &[Value])> {
    let Some(dict) = value.as_dict() else {
        fail!(
            "expected a dict with keys \"endpoints\" and \"rows\", got a {}",
            value.type_name()
        );
    };
    for key in dict.keys() {
        ensure!(
            matches!(key.as_str(), Some("endpoints" | "rows")),
            "unexpected key {}: the keys must be exactly \"endpoints\" and \"rows\"",
            key.repr_short(60)
        );
    }
    let field = |name: &str| -> Result<&[Value]> {
        let Some(v) = dict.get(name) else {
            fail!("the key \"{name}\" is missing");
        };
        v.as_sequence().ok_or_else(|| {
            Error::msg(format!(
                "\"{name}\" is a {}, expected a list",
                v.type_name()
            ))
        })
    };
    Ok((field("endpoints")?, field("rows")?))
}

/// The pieces cut at `endpoints`.
fn read_pieces(endpoints: &[Value]) -> Result<Vec<Piece>> {
    let mut pieces = Vec::with_capacity(endpoints.len());
    let mut previous = 0;
    for (index, value) in endpoints.iter().enumerate() {
        let k = index + 1;
        // Exact ints: `as_i64` is `None` for bools, floats and huge ints.
        let Some(end) = value.as_i64().filter(|e| (1..=SQUARES).contains(e)) else {
            fail!(
                "endpoint {k} is {}, expected an integer in 1..={SQUARES}",
                value.repr_short(60)
            );
        };
        ensure!(
            end > previous,
            "endpoint {k} is {end}, not greater than endpoint {index} ({previous}): the \
             endpoints must be strictly increasing"
        );
        pieces.push(Piece {
            first: previous + 1,
            last: end,
        });
        previous = end;
    }
    ensure!(
        previous == SQUARES,
        "the last endpoint is {previous}, expected {SQUARES}: the pieces must cover the strip"
    );
    Ok(pieces)
}

/// Every piece placed exactly once, rows of length n, and the labels right.
fn check_rows(rows: &[Value], pieces: &[Piece]) -> Result<()> {
    ensure!(
        rows.len() == N as usize,
        "\"rows\" has {} rows, expected {N}",
        rows.len()
    );
    // The row each piece was placed in (0: not yet).
    let mut placed_in = vec![0usize; pieces.len()];
    for (r, row) in rows.iter().enumerate() {
        let i = r + 1;
        let Some(entries) = row.as_sequence() else {
            fail!(
                "row {i} is a {}, expected a list of piece numbers",
                row.type_name()
            );
        };
        let mut column = 1;
        for entry in entries {
            let Some(p) = entry
                .as_i64()
                .and_then(|p| usize::try_from(p).ok())
                .filter(|p| (1..=pieces.len()).contains(p))
            else {
                fail!(
                    "row {i} lists {}, expected a piece number in 1..={}",
                    entry.repr_short(60),
                    pieces.len()
                );
            };
            ensure!(
                placed_in[p - 1] == 0,
                "piece {p} is placed twice (rows {} and {i})",
                placed_in[p - 1]
            );
            placed_in[p - 1] = i;
            let piece = pieces[p - 1];
            let length = piece.last - piece.first + 1;
            ensure!(
                column + length - 1 <= N,
                "row {i} is longer than {N}: piece {p} ({} squares) would end at column {}",
                length,
                column + length - 1
            );
            // Labels and columns both go up by 1 along a piece, so its first
            // square decides the condition for all of its squares.
            let wanted = i as i64 + column - 1;
            ensure!(
                (piece.first - wanted) % N == 0,
                "row {i}, column {column} holds label {} (first square of piece {p}), but {} - \
                 ({i} + {column} - 1) is not divisible by {N}",
                piece.first,
                piece.first
            );
            column += length;
        }
        ensure!(
            column - 1 == N,
            "row {i} has length {}, expected {N}",
            column - 1
        );
    }
    if let Some(p) = placed_in.iter().position(|&row| row == 0) {
        fail!("piece {} is not placed in any row", p + 1);
    }
    Ok(())
}

verigate_sdk::main!(combench, verify);
