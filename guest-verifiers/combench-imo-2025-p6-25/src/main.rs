//! `combench-imo-2025-p6-25` (combench): IMO 2025 Problem 6 for a 25 × 25
//! grid (n = k² with k = 5).
//!
//! The payload is a Python expression for a list of tiles, each a tuple (or
//! list) `(r1, c1, r2, c2)` of `int`s (`bool`s rejected): the tile covers rows
//! r1..=r2 and columns c1..=c2, 1-based, with 1 ≤ r1 ≤ r2 ≤ n and
//! 1 ≤ c1 ≤ c2 ≤ n. It passes when no two tiles share a unit square, every row
//! and every column has exactly one uncovered square, and there are exactly
//! n + 2k − 3 = 32 tiles, the minimum.

use verigate_sdk::python::Value;
use verigate_sdk::{Error, Result, ensure, fail};

/// √n.
const K: usize = 5;
/// The side of the grid.
const N: usize = K * K;
/// The minimum number of tiles, n + 2√n − 3.
const MIN_TILES: usize = N + 2 * K - 3;

/// A tile: 1-based inclusive corners `(r1, c1, r2, c2)`.
#[derive(Clone, Copy)]
struct Tile {
    r1: usize,
    c1: usize,
    r2: usize,
    c2: usize,
}

fn verify() -> Result<()> {
    let payload = verigate_sdk::payload_python()?;
    let tiles = read_tiles(&payload)?;
    let owner = place_tiles(&tiles)?;
    check_one_gap_per_line(&owner)?;
    ensure!(
        tiles.len() == MIN_TILES,
        "the tiling is valid but uses {} tiles; the minimum for n = {N} is {MIN_TILES}",
        tiles.len()
    );
    Ok(())
}

/// The tiles, checking types and that every tile lies on the grid
/// (tiles are numbered from 1 in messages).
fn read_tiles(payload: &Value) -> Result<Vec<Tile>> {
    let Some(items) = payload.as_list() else {
        fail!(
            "expected a list of tiles (r1, c1, r2, c2), got type {}",
            payload.type_name()
        );
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| read_tile(i + 1, item))
        .collect()
}

fn read_tile(index: usize, item: &Value) -> Result<Tile> {
    let Some([r1, c1, r2, c2]) = item.as_sequence() else {
        fail!(
            "tile {index}: {} is not a tuple (r1, c1, r2, c2)",
            item.repr_short(60)
        );
    };
    let coord = |v: &Value| -> Result<usize> {
        ensure!(
            v.type_name() == "int",
            "tile {index}: {} has type {}, not int",
            v.repr_short(60),
            v.type_name()
        );
        v.as_i64()
            .and_then(|x| usize::try_from(x).ok())
            .filter(|x| (1..=N).contains(x))
            .ok_or_else(|| {
                Error::msg(format!(
                    "tile {index}: {} is not in 1..={N}",
                    v.repr_short(60)
                ))
            })
    };
    let tile = Tile {
        r1: coord(r1)?,
        c1: coord(c1)?,
        r2: coord(r2)?,
        c2: coord(c2)?,
    };
    ensure!(
        tile.r1 <= tile.r2 && tile.c1 <= tile.c2,
        "tile {index}: {item} needs r1 <= r2 and c1 <= c2"
    );
    Ok(tile)
}

/// `owner[r][c]`: the 1-based index of the tile covering square (r + 1, c + 1),
/// or 0 when it is uncovered. Fails at the first square covered twice.
fn place_tiles(tiles: &[Tile]) -> Result<[[usize; N]; N]> {
    let mut owner = [[0usize; N]; N];
    for (i, t) in tiles.iter().enumerate() {
        for r in t.r1..=t.r2 {
            for c in t.c1..=t.c2 {
                let cell = &mut owner[r - 1][c - 1];
                ensure!(
                    *cell == 0,
                    "tiles {} and {} both cover the square in row {r}, column {c}",
                    *cell,
                    i + 1
                );
                *cell = i + 1;
            }
        }
    }
    Ok(owner)
}

/// Every row and every column has exactly one uncovered square.
fn check_one_gap_per_line(owner: &[[usize; N]; N]) -> Result<()> {
    for (r, row) in owner.iter().enumerate() {
        let gaps = row.iter().filter(|&&t| t == 0).count();
        ensure!(
            gaps == 1,
            "row {} has {gaps} uncovered squares, expected exactly 1",
            r + 1
        );
    }
    for c in 0..N {
        let gaps = owner.iter().filter(|row| row[c] == 0).count();
        ensure!(
            gaps == 1,
            "column {} has {gaps} uncovered squares, expected exactly 1",
            c + 1
        );
    }
    Ok(())
}

verigate_sdk::main!(combench, verify);
