//! `combench-imo-2022-p6-10` (combench): IMO 2022 Problem 6 for n = 10.
//!
//! The payload is a Python expression for a list of 10 lists of 10 `int`s
//! (`bool`s are rejected, as by `type(x) is int`), read as the rows of the
//! board. It must be a Nordic square (each of 1..=100 exactly once) whose
//! total number of uphill paths is the minimum 2n² − 2n + 1 = 181. Paths
//! are counted exactly: the uphill paths ending at a cell are the path made
//! of that cell alone when it is a valley, plus those ending at each smaller
//! orthogonal neighbour, extended by one step.

use verigate_sdk::python::Value;
use verigate_sdk::{Result, ensure, fail};

/// The side of the board.
const N: usize = 10;
/// The minimum total number of uphill paths, 2n² − 2n + 1.
const MIN_PATHS: u128 = (2 * N * N - 2 * N + 1) as u128;

type Grid = [[usize; N]; N];

fn verify() -> Result<()> {
    let payload = verigate_sdk::payload_python()?;
    let grid = read_grid(&payload)?;
    check_nordic(&grid)?;
    let (paths, valleys) = count_uphill_paths(&grid);
    ensure!(
        paths == MIN_PATHS,
        "the square has {} uphill paths (valleys: {valleys}); the minimum for n = {N} is {MIN_PATHS}",
        if paths == u128::MAX {
            "more than 10^38".to_owned()
        } else {
            paths.to_string()
        }
    );
    Ok(())
}

/// The rows as numbers, checking the shape and that every entry is an `int`
/// in 1..=n² (positions in messages are 1-based).
fn read_grid(payload: &Value) -> Result<Grid> {
    let Some(rows) = payload.as_list() else {
        fail!(
            "expected a list of {N} lists, got type {}",
            payload.type_name()
        );
    };
    ensure!(rows.len() == N, "expected {N} rows, got {}", rows.len());
    let mut grid = [[0; N]; N];
    for (r, row) in rows.iter().enumerate() {
        let Some(cells) = row.as_list() else {
            fail!("row {} has type {}, not list", r + 1, row.type_name());
        };
        ensure!(
            cells.len() == N,
            "row {} has {} entries, expected {N}",
            r + 1,
            cells.len()
        );
        for (c, cell) in cells.iter().enumerate() {
            ensure!(
                cell.type_name() == "int",
                "row {}, column {}: {} has type {}, not int",
                r + 1,
                c + 1,
                cell.repr_short(60),
                cell.type_name()
            );
            grid[r][c] = cell
                .as_i64()
                .and_then(|v| usize::try_from(v).ok())
                .filter(|v| (1..=N * N).contains(v))
                .ok_or_else(|| {
                    verigate_sdk::Error::msg(format!(
                        "row {}, column {}: {} is not in 1..={}",
                        r + 1,
                        c + 1,
                        cell.repr_short(60),
                        N * N
                    ))
                })?;
        }
    }
    Ok(grid)
}

/// Each number 1..=n² appears exactly once (the range is already checked).
fn check_nordic(grid: &Grid) -> Result<()> {
    let mut seen_at: [Option<(usize, usize)>; N * N + 1] = [None; N * N + 1];
    for (r, row) in grid.iter().enumerate() {
        for (c, &v) in row.iter().enumerate() {
            if let Some((r0, c0)) = seen_at[v] {
                fail!(
                    "{v} appears twice: row {}, column {} and row {}, column {}",
                    r0 + 1,
                    c0 + 1,
                    r + 1,
                    c + 1
                );
            }
            seen_at[v] = Some((r, c));
        }
    }
    Ok(())
}

/// The orthogonal neighbours of cell (r, c).
fn neighbours(r: usize, c: usize) -> impl Iterator<Item = (usize, usize)> {
    [(0, 1), (2, 1), (1, 0), (1, 2)]
        .into_iter()
        .filter_map(move |(dr, dc)| Some(((r + dr).checked_sub(1)?, (c + dc).checked_sub(1)?)))
        .filter(|&(r, c)| r < N && c < N)
}

/// (total number of uphill paths, number of valleys) of a Nordic square.
/// The total saturates at `u128::MAX`.
fn count_uphill_paths(grid: &Grid) -> (u128, usize) {
    let mut cell_of = [(0, 0); N * N + 1];
    for (r, row) in grid.iter().enumerate() {
        for (c, &v) in row.iter().enumerate() {
            cell_of[v] = (r, c);
        }
    }
    // ending_at[r][c]: uphill paths that end at (r, c); filled in increasing
    // order of the numbers, so smaller neighbours are always done first.
    let mut ending_at = [[0u128; N]; N];
    let (mut total, mut valleys) = (0u128, 0);
    for &(r, c) in &cell_of[1..] {
        let mut smaller = neighbours(r, c).filter(|&(r2, c2)| grid[r2][c2] < grid[r][c]);
        let paths = match smaller.next() {
            None => {
                valleys += 1;
                1
            }
            Some((r2, c2)) => smaller.fold(ending_at[r2][c2], |sum, (r3, c3)| {
                sum.saturating_add(ending_at[r3][c3])
            }),
        };
        ending_at[r][c] = paths;
        total = total.saturating_add(paths);
    }
    (total, valleys)
}

verigate_sdk::main!(combench, verify);
