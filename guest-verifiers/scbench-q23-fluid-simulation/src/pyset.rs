//! CPython's iteration order for a `set` of `(x, y)` tuples of small non-negative ints.
//!
//! `23.py` puts a settled water drop in "the first air cell of the `visited` set", so the
//! cell chosen is the first one in CPython's table order, which depends on the keys' hashes
//! and the insertion sequence. This reproduces CPython 3.8+'s `tuplehash` (the xxHash-based
//! one; `hash(i) == i` for the ints used here) and `setobject.c`'s table: linear probing of
//! up to 9 slots (`LINEAR_PROBES`), then perturbed jumps (`PERTURB_SHIFT` 5), a resize to the
//! smallest power of two above 4 × used (2 × past 50,000) once 5 × fill ≥ 3 × mask, where
//! the old table's entries are reinserted in slot order. Only `add` of distinct keys is
//! needed (the original never removes from `visited`), so there are no dummy slots.
//! Checked against CPython 3.11 (`tests::matches_cpython`).

const XXPRIME_1: u64 = 11_400_714_785_074_694_791;
const XXPRIME_2: u64 = 14_029_467_366_897_019_727;
const XXPRIME_5: u64 = 2_870_177_450_012_600_261;
const LINEAR_PROBES: usize = 9;
const PERTURB_SHIFT: u32 = 5;
const MIN_SIZE: usize = 8;
const EMPTY: u32 = u32::MAX;

/// `hash((x, y))` for ints `0 <= x, y < 2**61 - 1`, as CPython computes it (as `u64`).
pub fn pair_hash(x: u64, y: u64) -> u64 {
    let mut acc = XXPRIME_5;
    for lane in [x, y] {
        acc = acc.wrapping_add(lane.wrapping_mul(XXPRIME_2));
        acc = acc.rotate_left(31);
        acc = acc.wrapping_mul(XXPRIME_1);
    }
    acc = acc.wrapping_add(2 ^ (XXPRIME_5 ^ 3_527_539));
    if acc == u64::MAX { 1_546_275_796 } else { acc }
}

/// The slot table of a CPython set built by adding distinct keys; keys are `u32` ids whose
/// hashes come from a lookup table.
#[derive(Default)]
pub struct SetTable {
    slots: Vec<u32>,
    spare: Vec<u32>,
    used: usize,
}

impl SetTable {
    /// Empties the table (CPython's new set: 8 slots).
    pub fn clear(&mut self) {
        self.slots.clear();
        self.slots.resize(MIN_SIZE, EMPTY);
        self.used = 0;
    }

    /// `set.add(key)` for a key not yet in the set.
    pub fn add(&mut self, key: u32, hashes: &[u64]) {
        let mask = self.slots.len() - 1;
        place(&mut self.slots, key, hashes[key as usize]);
        self.used += 1;
        // No dummies, so fill == used.
        if self.used * 5 >= mask * 3 {
            let minused = if self.used > 50_000 {
                self.used * 2
            } else {
                self.used * 4
            };
            let mut size = MIN_SIZE;
            while size <= minused {
                size <<= 1;
            }
            self.spare.clear();
            self.spare.resize(size, EMPTY);
            for &k in &self.slots {
                if k != EMPTY {
                    place(&mut self.spare, k, hashes[k as usize]);
                }
            }
            std::mem::swap(&mut self.slots, &mut self.spare);
        }
    }

    /// The keys in iteration order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.slots.iter().copied().filter(|&k| k != EMPTY)
    }
}

/// The first free slot on the key's probe sequence (`set_add_entry` for a new key, which on
/// a table without dummies is also `set_insert_clean`).
fn place(slots: &mut [u32], key: u32, hash: u64) {
    let mask = slots.len() - 1;
    let mut perturb = hash;
    let mut i = (hash as usize) & mask;
    loop {
        let probes = if i + LINEAR_PROBES <= mask {
            LINEAR_PROBES
        } else {
            0
        };
        if let Some(slot) = slots[i..=i + probes].iter_mut().find(|s| **s == EMPTY) {
            *slot = key;
            return;
        }
        perturb >>= PERTURB_SHIFT;
        i = (i
            .wrapping_mul(5)
            .wrapping_add(1)
            .wrapping_add(perturb as usize))
            & mask;
    }
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
        assert_eq!(pair_hash(0, 0) as i64, -8_458_139_203_682_520_985);
        assert_eq!(pair_hash(1, 2) as i64, -3_550_055_125_485_641_917);
        assert_eq!(pair_hash(63, 17) as i64, 1_047_433_370_423_551_193);
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
        let mut table = SetTable::default();
        for (case, &want) in expected.iter().enumerate() {
            let n = 1 + (rng.next() % 64) as usize;
            let m = 1 + (rng.next() % (n * n) as u64) as usize;
            let mut cells: Vec<u32> = (0..(n * n) as u32).collect();
            for i in (1..cells.len()).rev() {
                let j = (rng.next() % (i as u64 + 1)) as usize;
                cells.swap(i, j);
            }
            let hashes: Vec<u64> = (0..n * n)
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
