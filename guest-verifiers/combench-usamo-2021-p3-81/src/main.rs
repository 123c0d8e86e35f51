//! `combench-usamo-2021-p3-81` (combench): USAMO 2021 Problem 3 for n = 81.
//!
//! The payload is a Python expression for a non-empty list of moves on an
//! initially empty 81 × 81 board (rows and columns 1-based, rows numbered top
//! to bottom), each a tuple (or list):
//! - `("L", r, c)`: put a stone on each of the cells (r, c), (r + 1, c) and
//!   (r + 1, c + 1) — the L-tromino of the problem, never rotated — which
//!   must all lie on the board and be empty;
//! - `("row", r)`: remove the stones of row r, which must be full;
//! - `("col", c)`: remove the stones of column c, which must be full.
//!
//! Numbers must be `int`s (`bool`s rejected). The payload passes when every
//! move is legal and the board is empty after the last one.

use verigate_sdk::python::Value;
use verigate_sdk::{Error, Result, ensure, fail};

/// The side of the board.
const N: usize = 81;

/// One move; coordinates are 0-based.
#[derive(Clone, Copy)]
enum Move {
    /// Stones on (r, c), (r + 1, c) and (r + 1, c + 1).
    Tromino(usize, usize),
    Row(usize),
    Col(usize),
}

fn verify() -> Result<()> {
    let payload = verigate_sdk::payload_python()?;
    let Some(items) = payload.as_list() else {
        fail!("expected a list of moves, got type {}", payload.type_name());
    };
    ensure!(
        !items.is_empty(),
        "no moves: the board must become empty after a non-zero number of moves"
    );
    let mut board = [[false; N]; N];
    for (i, item) in items.iter().enumerate() {
        let mv = read_move(item).map_err(|e| e.context(format!("move {}", i + 1)))?;
        apply(&mut board, mv)
            .map_err(|e| e.context(format!("move {} {}", i + 1, item.repr_short(60))))?;
    }
    let stones: Vec<(usize, usize)> = (0..N)
        .flat_map(|r| (0..N).map(move |c| (r, c)))
        .filter(|&(r, c)| board[r][c])
        .collect();
    if let Some(&(r, c)) = stones.first() {
        fail!(
            "after all {} moves {} stones remain (the first in row {}, column {})",
            items.len(),
            stones.len(),
            r + 1,
            c + 1
        );
    }
    Ok(())
}

/// Parses `("L", r, c)`, `("row", r)` or `("col", c)`.
fn read_move(item: &Value) -> Result<Move> {
    let Some(parts) = item.as_sequence() else {
        fail!(
            "{} is not a tuple such as (\"L\", r, c), (\"row\", r) or (\"col\", c)",
            item.repr_short(60)
        );
    };
    let kind = parts.first().and_then(Value::as_str);
    let index = |v: &Value, what: &str| -> Result<usize> {
        ensure!(
            v.type_name() == "int",
            "{what} {} has type {}, not int",
            v.repr_short(60),
            v.type_name()
        );
        v.as_i64()
            .and_then(|x| usize::try_from(x).ok())
            .filter(|x| (1..=N).contains(x))
            .map(|x| x - 1)
            .ok_or_else(|| Error::msg(format!("{what} {} is not in 1..={N}", v.repr_short(60))))
    };
    match (kind, parts) {
        (Some("L"), [_, r, c]) => {
            let (r, c) = (index(r, "row")?, index(c, "column")?);
            ensure!(
                r + 1 < N && c + 1 < N,
                "the tromino at row {}, column {} covers row {} and column {}, off the board",
                r + 1,
                c + 1,
                r + 2,
                c + 2
            );
            Ok(Move::Tromino(r, c))
        }
        (Some("row"), [_, r]) => Ok(Move::Row(index(r, "row")?)),
        (Some("col"), [_, c]) => Ok(Move::Col(index(c, "column")?)),
        _ => fail!(
            "{} is not (\"L\", r, c), (\"row\", r) or (\"col\", c)",
            item.repr_short(60)
        ),
    }
}

/// Applies a legal move, or says why it is illegal.
fn apply(board: &mut [[bool; N]; N], mv: Move) -> Result<()> {
    match mv {
        Move::Tromino(r, c) => {
            let cells = [(r, c), (r + 1, c), (r + 1, c + 1)];
            if let Some(&(r, c)) = cells.iter().find(|&&(r, c)| board[r][c]) {
                fail!("cell (row {}, column {}) already has a stone", r + 1, c + 1);
            }
            for (r, c) in cells {
                board[r][c] = true;
            }
        }
        Move::Row(r) => {
            if let Some(c) = (0..N).find(|&c| !board[r][c]) {
                fail!("row {} is not full (column {} is empty)", r + 1, c + 1);
            }
            board[r] = [false; N];
        }
        Move::Col(c) => {
            if let Some(r) = (0..N).find(|&r| !board[r][c]) {
                fail!("column {} is not full (row {} is empty)", c + 1, r + 1);
            }
            for row in board.iter_mut() {
                row[c] = false;
            }
        }
    }
    Ok(())
}

verigate_sdk::main!(combench, verify);
