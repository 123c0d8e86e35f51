//! `combench-usamo-2020-p4-10` (combench): USAMO 2020 Problem 4 with 10 pairs.
//!
//! The payload is a Python expression for a list (or tuple) of exactly 10
//! distinct ordered pairs `[a, b]` (lists or tuples) of non-negative integers
//! (exact `int`s, so `True` is rejected; up to 2048 bits). It passes when exactly
//! 2 * 10 - 3 = 17 index pairs `i < j` have `|a_i b_j - a_j b_i| = 1`, the
//! largest number possible for 10 pairs.

use std::collections::HashMap;
use verigate_sdk::python::{BigInt, EvalLimits, Value};
use verigate_sdk::{Result, ensure, fail};

/// The number of pairs.
const PAIRS: usize = 10;
/// The largest possible count for 10 pairs, 2n - 3.
const TARGET: usize = 2 * PAIRS - 3;
/// Evaluation bounds: the reference list needs 31 steps and 30 elements;
/// these allow any reasonable comprehension and stop hostile payloads early.
const LIMITS: EvalLimits = EvalLimits {
    max_steps: 100_000,
    max_elements: 10_000,
    max_int_bits: 2_048,
    max_depth: 100,
};

fn verify() -> Result<()> {
    let value = verigate_sdk::payload_python_with(&LIMITS)?;
    let pairs = read_pairs(&value)?;
    let count = unimodular_count(&pairs);
    ensure!(
        count == TARGET,
        "N = {count}: {count} index pairs i < j have |a_i b_j - a_j b_i| = 1, but the \
         maximum for {PAIRS} pairs, {TARGET}, is required"
    );
    Ok(())
}

/// Ten distinct pairs of non-negative ints.
fn read_pairs(value: &Value) -> Result<Vec<(BigInt, BigInt)>> {
    let Some(items) = value.as_sequence() else {
        fail!(
            "expected a list of {PAIRS} pairs, got a {}",
            value.type_name()
        );
    };
    ensure!(
        items.len() == PAIRS,
        "expected {PAIRS} pairs, got {}",
        items.len()
    );
    let mut pairs = Vec::with_capacity(PAIRS);
    let mut first_at = HashMap::new();
    for (index, item) in items.iter().enumerate() {
        let i = index + 1;
        let Some([a, b]) = item.as_sequence() else {
            fail!(
                "pair {i} is {}: not a list or tuple of two integers",
                item.repr_short(60)
            );
        };
        // Exact ints: `as_bigint` is `None` for bools and floats.
        let (Some(a), Some(b)) = (a.as_bigint(), b.as_bigint()) else {
            fail!(
                "pair {i} is {}: its entries must be integers",
                item.repr_short(60)
            );
        };
        let zero = BigInt::from(0);
        ensure!(
            a >= zero && b >= zero,
            "pair {i} is {}: its entries must be non-negative",
            item.repr_short(60)
        );
        if let Some(j) = first_at.insert((a.clone(), b.clone()), i) {
            fail!(
                "pairs {j} and {i} are both {}: the pairs must be distinct",
                item.repr_short(60)
            );
        }
        pairs.push((a, b));
    }
    Ok(pairs)
}

/// The number of `i < j` with `|a_i b_j - a_j b_i| = 1`.
fn unimodular_count(pairs: &[(BigInt, BigInt)]) -> usize {
    let one = BigInt::from(1);
    let mut count = 0;
    for (i, (a, b)) in pairs.iter().enumerate() {
        for (c, d) in &pairs[i + 1..] {
            let det = a * d - c * b;
            if det == one || det == -&one {
                count += 1;
            }
        }
    }
    count
}

verigate_sdk::main!(combench, verify);
