//! CPython's `set` table (`Objects/setobject.c`), which decides the order a set iterates in:
//! linear probing of up to [`LINEAR_PROBES`] slots, then perturbed jumps, and a resize to the
//! smallest power of two above 4 × used (2 × past 50,000) once 5 × fill ≥ 3 × mask, the old
//! entries reinserted in slot order. The evaluator's [`Set`](super::Set) is built on these
//! functions, and so is [`IdSet`], for ports that need CPython's iteration order of a set
//! they build themselves (SCBench Q23's water placement) without building Python values.
//!
//! ```
//! use verigate_sdk::python::settable::{IdSet, int_hash, tuple_hash};
//! use verigate_sdk::python::eval;
//! // The cells (x, y) of a 3 × 3 grid, added in this order, iterate as CPython's set does.
//! let cells: Vec<(i64, i64)> = vec![(2, 2), (0, 1), (1, 0), (2, 0), (0, 0)];
//! let hashes: Vec<i64> = cells.iter().map(|&(x, y)| tuple_hash(&[int_hash(x), int_hash(y)])).collect();
//! let mut set = IdSet::default();
//! for id in 0..cells.len() as u32 {
//!     set.add(id, &hashes);
//! }
//! let order: Vec<(i64, i64)> = set.iter().map(|id| cells[id as usize]).collect();
//! let python = eval("list(set([(2, 2), (0, 1), (1, 0), (2, 0), (0, 0)]))").unwrap();
//! assert_eq!(python.to_string(), format!("{order:?}"));
//! ```

pub(crate) const EMPTY: u32 = u32::MAX;
pub(crate) const DUMMY: u32 = u32::MAX - 1;
/// The slots of a new set.
pub const MIN_SIZE: usize = 8;
/// How many slots after the first CPython probes linearly before perturbing.
pub const LINEAR_PROBES: usize = 9;
const PERTURB_SHIFT: u32 = 5;

/// CPython's `hash(i)` for an int.
pub fn int_hash(i: i64) -> i64 {
    super::num::hash_i64(i)
}

/// CPython's `hash(t)` for a tuple whose items hash to `items` (the xxHash-based `tuplehash`
/// of CPython 3.8+, 64-bit).
///
/// ```
/// use verigate_sdk::python::settable::tuple_hash;
/// assert_eq!(tuple_hash(&[1, 2]), -3550055125485641917); // hash((1, 2)) in CPython 3.11
/// ```
pub fn tuple_hash(items: &[i64]) -> i64 {
    let mut h = TupleHasher::new();
    for &lane in items {
        h.add(lane);
    }
    h.finish(items.len())
}

/// [`tuple_hash`] one item at a time.
pub(crate) struct TupleHasher(u64);

const XXPRIME_1: u64 = 11400714785074694791;
const XXPRIME_2: u64 = 14029467366897019727;
const XXPRIME_5: u64 = 2870177450012600261;

impl TupleHasher {
    pub(crate) fn new() -> TupleHasher {
        TupleHasher(XXPRIME_5)
    }

    pub(crate) fn add(&mut self, lane: i64) {
        let acc = self.0.wrapping_add((lane as u64).wrapping_mul(XXPRIME_2));
        self.0 = acc.rotate_left(31).wrapping_mul(XXPRIME_1);
    }

    pub(crate) fn finish(self, len: usize) -> i64 {
        let acc = self.0.wrapping_add((len as u64) ^ (XXPRIME_5 ^ 3527539));
        if acc == u64::MAX {
            1546275796
        } else {
            acc as i64
        }
    }
}

/// CPython's next probe position after `i` (`set_lookkey`'s perturbation step).
pub(crate) fn next_probe(i: usize, perturb: &mut u64, mask: usize) -> usize {
    *perturb >>= PERTURB_SHIFT;
    (i.wrapping_mul(5)
        .wrapping_add(1)
        .wrapping_add(*perturb as usize))
        & mask
}

/// How many slots after `i` CPython probes linearly before perturbing.
pub(crate) fn linear_probes(i: usize, mask: usize) -> usize {
    if i + LINEAR_PROBES <= mask {
        LINEAR_PROBES
    } else {
        0
    }
}

/// CPython's `set_insert_clean`: `index` into the first empty slot of `hash`'s probe sequence
/// (the table has no dummies).
pub(crate) fn insert_clean(table: &mut [u32], index: u32, hash: i64) {
    let mask = table.len() - 1;
    let mut perturb = hash as u64;
    let mut i = (hash as u64 as usize) & mask;
    loop {
        if let Some(slot) = table[i..=i + linear_probes(i, mask)]
            .iter_mut()
            .find(|s| **s == EMPTY)
        {
            *slot = index;
            return;
        }
        i = next_probe(i, &mut perturb, mask);
    }
}

/// Whether a table with `fill` slots taken of `mask + 1` must grow (`set_add_entry`).
pub(crate) fn must_grow(fill: usize, mask: usize) -> bool {
    fill * 5 >= mask * 3
}

/// The `minused` argument of the resize after an add (`set_add_entry`).
pub(crate) fn grown_minused(used: usize) -> usize {
    if used > 50000 { used * 2 } else { used * 4 }
}

/// The table size `set_table_resize` picks for `minused`.
pub(crate) fn table_size(minused: usize) -> usize {
    let mut size = MIN_SIZE;
    while size <= minused {
        size <<= 1;
    }
    size
}

/// A CPython set of distinct keys that are only ever added (so its table never holds a
/// dummy), each key a `u32` id whose hash is `hashes[id]`: its [`IdSet::iter`] order is the
/// order CPython iterates a set built by the same `add` calls.
#[derive(Default)]
pub struct IdSet {
    slots: Vec<u32>,
    spare: Vec<u32>,
    used: usize,
}

impl IdSet {
    /// Empties the set (a new CPython set: [`MIN_SIZE`] slots), keeping its allocations.
    pub fn clear(&mut self) {
        self.slots.clear();
        self.slots.resize(MIN_SIZE, EMPTY);
        self.used = 0;
    }

    /// `set.add(id)` for an id not in the set; `hashes[k]` is the hash of key `k`.
    ///
    /// # Panics
    /// If an id is `u32::MAX - 1` or more, or has no hash in `hashes`.
    pub fn add(&mut self, id: u32, hashes: &[i64]) {
        assert!(id < DUMMY, "IdSet: id {id} is reserved");
        if self.slots.is_empty() {
            self.clear();
        }
        let mask = self.slots.len() - 1;
        insert_clean(&mut self.slots, id, hashes[id as usize]);
        self.used += 1;
        // No dummies, so fill == used.
        if must_grow(self.used, mask) {
            self.spare.clear();
            self.spare
                .resize(table_size(grown_minused(self.used)), EMPTY);
            for &k in &self.slots {
                if k != EMPTY {
                    insert_clean(&mut self.spare, k, hashes[k as usize]);
                }
            }
            std::mem::swap(&mut self.slots, &mut self.spare);
        }
    }

    /// The number of ids in the set.
    pub fn len(&self) -> usize {
        self.used
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.used == 0
    }

    /// The ids in CPython's iteration order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.slots.iter().copied().filter(|&k| k != EMPTY)
    }
}
