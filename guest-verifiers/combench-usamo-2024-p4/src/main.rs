//! `combench-usamo-2024-p4` (combench): USAMO 2024 Problem 4, the extremal
//! case m = n + 1 with n = 4.
//!
//! The payload is a Python expression for a 5 x 4 matrix: a list (or tuple)
//! of 5 rows, each a list (or tuple) of 4 entries 0 or 1 (exact `int`s, so
//! `True` is rejected). Read row by row it is a circular necklace of 20
//! beads, 1 = red. It passes when, for each of the 4 ways to cut the
//! necklace into 5 blocks of 4 consecutive beads (first block starting at
//! bead 1, 2, 3 or 4, wrapping around), the blocks' red counts are pairwise
//! distinct.

use verigate_sdk::python::{EvalLimits, Value};
use verigate_sdk::{Result, ensure, fail};

/// Blocks per cut, m = n + 1.
const M: usize = 5;
/// Beads per block, n.
const N: usize = 4;
/// Evaluation bounds: the reference literal needs 26 steps and 25 elements;
/// these allow any reasonable comprehension and stop hostile payloads early.
const LIMITS: EvalLimits = EvalLimits {
    max_steps: 100_000,
    max_elements: 10_000,
    max_int_bits: 1_024,
    max_depth: 100,
};

fn verify() -> Result<()> {
    let value = verigate_sdk::payload_python_with(&LIMITS)?;
    let necklace = read_necklace(&value)?;
    for offset in 0..N {
        check_cut(&necklace, offset)?;
    }
    Ok(())
}

/// The beads (true = red), row by row.
fn read_necklace(value: &Value) -> Result<Vec<bool>> {
    let Some(rows) = value.as_sequence() else {
        fail!("expected a list of {M} rows, got a {}", value.type_name());
    };
    ensure!(rows.len() == M, "expected {M} rows, got {}", rows.len());
    let mut beads = Vec::with_capacity(M * N);
    for (r, row) in rows.iter().enumerate() {
        let Some(entries) = row.as_sequence() else {
            fail!(
                "row {} is a {}, expected a list of {N} entries",
                r + 1,
                row.type_name()
            );
        };
        ensure!(
            entries.len() == N,
            "row {} has {} entries, expected {N}",
            r + 1,
            entries.len()
        );
        for (c, entry) in entries.iter().enumerate() {
            // Exact ints: `as_i64` is `None` for bools and floats.
            match entry.as_i64() {
                Some(bit @ (0 | 1)) => beads.push(bit == 1),
                _ => fail!(
                    "entry ({}, {}) is {}, expected the integer 0 or 1",
                    r + 1,
                    c + 1,
                    entry.repr_short(60)
                ),
            }
        }
    }
    Ok(beads)
}

/// The cut whose first block starts at bead `offset + 1` (0-based `offset`):
/// the red counts of its M blocks must be pairwise distinct.
fn check_cut(beads: &[bool], offset: usize) -> Result<()> {
    let counts: Vec<usize> = (0..M)
        .map(|k| {
            let start = offset + k * N;
            (start..start + N)
                .filter(|&i| beads[i % beads.len()])
                .count()
        })
        .collect();
    for k in 0..M {
        if let Some(l) = (k + 1..M).find(|&l| counts[l] == counts[k]) {
            fail!(
                "the cut whose first block starts at bead {}: blocks {} and {} have the same \
                 number of red beads, {} (red counts of the blocks: {counts:?})",
                offset + 1,
                k + 1,
                l + 1,
                counts[k]
            );
        }
    }
    Ok(())
}

verigate_sdk::main!(combench, verify);
