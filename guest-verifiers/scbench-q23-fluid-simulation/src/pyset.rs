//! CPython's iteration order for a `set` of `(x, y)` tuples of small non-negative ints.
//!
//! `23.py` puts a settled water drop in "the first air cell of the `visited` set", so the
//! cell chosen is the first one in CPython's table order, which depends on the keys' hashes
//! and the insertion sequence. The SDK's [`IdSet`] reproduces CPython 3.8+'s set table
//! (the one its Python evaluator's sets use) for keys given as ids with their hashes, and
//! [`tuple_hash`] CPython's tuple hash (`hash(i) == i` for the ints used here). Only `add` of
//! distinct keys is needed (the original never removes from `visited`), so there are no dummy
//! slots. Checked against CPython 3.11 (`tests::matches_cpython`).

pub use verigate_sdk::python::settable::IdSet;
use verigate_sdk::python::settable::{int_hash, tuple_hash};

/// `hash((x, y))` for ints `0 <= x, y < 2**61 - 1`, as CPython computes it.
pub fn pair_hash(x: u64, y: u64) -> i64 {
    tuple_hash(&[int_hash(x as i64), int_hash(y as i64)])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same pseudo-random insertion sequences as `pyset_cases.py` (which records what
    /// CPython 3.11 iterates): a 64-bit LCG, Fisher–Yates over an n × n grid, the first m.
    struct Lcg(u64);
    impl Lcg {
        fn next(&mut self) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            self.0 >> 33
        }
    }

    fn fnv(keys: impl Iterator<Item = u32>) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for k in keys {
            for b in k.to_le_bytes() {
                h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
            }
        }
        h
    }

    #[test]
    fn tuple_hashes_match_cpython() {
        // hash((0, 0)), hash((1, 2)), hash((63, 17)) in CPython 3.11 (64-bit).
        assert_eq!(pair_hash(0, 0), -8_458_139_203_682_520_985);
        assert_eq!(pair_hash(1, 2), -3_550_055_125_485_641_917);
        assert_eq!(pair_hash(63, 17), 1_047_433_370_423_551_193);
    }

    #[test]
    fn matches_cpython() {
        let expected: Vec<u64> = include_str!("../tests/data/set_orders.txt")
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| l.parse().unwrap())
            .collect();
        assert_eq!(expected.len(), 2000);
        let mut rng = Lcg(23);
        let mut table = IdSet::default();
        for (case, &want) in expected.iter().enumerate() {
            let n = 1 + (rng.next() % 64) as usize;
            let m = 1 + (rng.next() % (n * n) as u64) as usize;
            let mut cells: Vec<u32> = (0..(n * n) as u32).collect();
            for i in (1..cells.len()).rev() {
                let j = (rng.next() % (i as u64 + 1)) as usize;
                cells.swap(i, j);
            }
            let hashes: Vec<i64> = (0..n * n)
                .map(|c| pair_hash((c / n) as u64, (c % n) as u64))
                .collect();
            table.clear();
            for &c in &cells[..m] {
                table.add(c, &hashes);
            }
            assert_eq!(fnv(table.iter()), want, "case {case}: n = {n}, m = {m}");
        }
    }
}
