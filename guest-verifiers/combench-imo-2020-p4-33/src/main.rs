//! `combench-imo-2020-p4-33` (combench): IMO 2020 Problem 4 with n = 33.
//!
//! The payload is a Python expression for a pair `(A_lines, B_lines)` of sets
//! of cable cars `(u, v)` on the 33^2 = 1089 stations. It passes when both
//! companies run exactly 1056 = n^2 - n cars, each company's cars are valid
//! (stations in 1..=1089, u < v, distinct starts, distinct finishes, a car
//! starting higher also finishes higher) and no pair of stations is linked by
//! both companies.
//!
//! This is a port of the record's released Python verifier: the same checks,
//! in the same order (sets are iterated in CPython's order), with the same
//! messages. Types are exact, as there: `type(x) is int`, so `True` is not a
//! station, and a `frozenset` or a list is not a `set`. Differences: parse
//! errors carry the evaluator's message (class and location) rather than
//! CPython's wording; evaluation is bounded by [`LIMITS`]; and when both
//! closures are large (over [`EXACT_PICK_MAX_PAIRS`] pairs each), the example
//! of a doubly linked pair is the smallest one rather than CPython's
//! hash-order pick.

use std::cmp::Ordering;
use std::fmt;
use verigate_sdk::python::{self, BigInt, EvalLimits, Value};
use verigate_sdk::{Error, Result, ensure, fail};

/// The number of stations, n^2.
const STATIONS: usize = 33 * 33;
/// The number of cars of each company, n^2 - n.
const CARS: usize = 1056;
/// Evaluation bounds: the reference needs about 18,000 steps and 6,300
/// elements; these leave room for wasteful comprehensions while keeping a
/// hostile payload well inside the item's fuel and memory.
const LIMITS: EvalLimits = EvalLimits {
    max_steps: 1_000_000,
    max_elements: 100_000,
    max_int_bits: 1_024,
    max_depth: 200,
};
/// While the smaller closure has at most this many linked pairs, the example
/// pair is CPython's own pick (rebuilt with the evaluator's sets); beyond, the
/// smallest common pair is reported, to bound time and memory.
const EXACT_PICK_MAX_PAIRS: usize = 60_000;

/// One company's cars as read from the payload, in set iteration order.
type Lines = Vec<(Int, Int)>;

/// An exact `int` from the payload; the ones that fit an `i64` (all
/// plausible stations) are compared without allocating.
#[derive(PartialEq, Eq)]
enum Int {
    Small(i64),
    Big(BigInt),
}

impl Int {
    fn of(value: &Value) -> Option<Int> {
        match value.as_i64() {
            Some(small) => Some(Int::Small(small)),
            None => value.as_bigint().map(Int::Big),
        }
    }
}

impl Ord for Int {
    fn cmp(&self, other: &Int) -> Ordering {
        match (self, other) {
            (Int::Small(a), Int::Small(b)) => a.cmp(b),
            (Int::Small(a), Int::Big(b)) => BigInt::from(*a).cmp(b),
            (Int::Big(a), Int::Small(b)) => a.cmp(&BigInt::from(*b)),
            (Int::Big(a), Int::Big(b)) => a.cmp(b),
        }
    }
}

impl PartialOrd for Int {
    fn partial_cmp(&self, other: &Int) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Int::Small(i) => i.fmt(f),
            Int::Big(b) => b.fmt(f),
        }
    }
}

fn verify() -> Result<()> {
    let text = verigate_sdk::payload()?.trim();
    ensure!(!text.is_empty(), "Empty input");
    let data = python::eval_with(text, &LIMITS)
        .map_err(|e| Error::msg(format!("Failed to parse Python expression: {e}")))?;
    let Some([a, b]) = data.as_tuple() else {
        fail!("Parsed object is not a tuple of exactly two elements");
    };
    let a = read_lines("A_lines", a)?;
    let b = read_lines("B_lines", b)?;
    for (name, lines) in [("A_lines", &a), ("B_lines", &b)] {
        ensure!(
            lines.len() == CARS,
            "{name} has {} elements, expected {CARS}",
            lines.len()
        );
    }
    let a = Company::new(check_company("A_lines", &a)?);
    let b = Company::new(check_company("B_lines", &b)?);
    if let Some(smallest) = smallest_common_link(&a, &b) {
        let example = match cpython_pick(&a, &b)? {
            Some(pick) => pick.to_string(),
            None => format!("{smallest:?}"),
        };
        fail!("Intersection is not empty. Found linked pairs in both companies, e.g., {example}.");
    }
    Ok(())
}

/// `type(lines) is set`, and every item a 2-tuple of exact ints.
fn read_lines(name: &str, lines: &Value) -> Result<Lines> {
    ensure!(lines.type_name() == "set", "{name} is not a set");
    let Some(set) = lines.as_set() else {
        fail!("{name} is not a set");
    };
    let mut out = Vec::with_capacity(set.len());
    for item in set.iter() {
        let Some([u, v]) = item.as_tuple() else {
            fail!("An item in {name} is not a tuple of exactly two elements");
        };
        // `Int::of` is `None` for bools, as `type(True) is not int`.
        let (Some(u), Some(v)) = (Int::of(u), Int::of(v)) else {
            fail!("An item in {name} contains non-integers");
        };
        out.push((u, v));
    }
    Ok(out)
}

/// The per-car checks, in order of starting station (a stable sort of the
/// set's iteration order, like Python's `sorted`). Returns the cars as
/// station numbers, in the set's iteration order.
fn check_company(name: &str, lines: &Lines) -> Result<Vec<(usize, usize)>> {
    let mut sorted: Vec<&(Int, Int)> = lines.iter().collect();
    sorted.sort_by(|x, y| x.0.cmp(&y.0));
    let mut starts = vec![false; STATIONS + 1];
    let mut finishes = vec![false; STATIONS + 1];
    let mut prev_v = 0;
    for (u, v) in sorted {
        let (Some(u), Some(v)) = (station(u), station(v)) else {
            fail!("Station out of range in {name}: ({u}, {v})");
        };
        ensure!(
            u < v,
            "Invalid transfer in {name}: ({u}, {v}), must be u < v"
        );
        ensure!(!starts[u], "Duplicate starting point {u} in {name}");
        starts[u] = true;
        ensure!(!finishes[v], "Duplicate finishing point {v} in {name}");
        finishes[v] = true;
        ensure!(
            v > prev_v,
            "Monotonicity violated in {name}: sequence of v is not strictly increasing."
        );
        prev_v = v;
    }
    // Every value passed `station` above.
    Ok(lines
        .iter()
        .filter_map(|(u, v)| Some((station(u)?, station(v)?)))
        .collect())
}

/// `x` as a station number, if it is one (1..=1089).
fn station(x: &Int) -> Option<usize> {
    match x {
        Int::Small(i) => usize::try_from(*i)
            .ok()
            .filter(|s| (1..=STATIONS).contains(s)),
        Int::Big(_) => None,
    }
}

/// A valid company: its cars (in set order) and, for each station, the
/// first station of its path. Valid cars form disjoint increasing paths, and
/// stations `s < t` are linked iff they lie on the same path.
struct Company {
    lines: Vec<(usize, usize)>,
    path: Vec<usize>,
}

impl Company {
    fn new(lines: Vec<(usize, usize)>) -> Company {
        let next = successors(&lines);
        let mut path: Vec<usize> = (0..=STATIONS).collect();
        // Increasing stations: a car's start is labelled before its finish.
        for s in 1..=STATIONS {
            if next[s] != 0 {
                path[next[s]] = path[s];
            }
        }
        Company { lines, path }
    }

    /// Whether the closure holds `pair`, a tuple `(s, t)` with `s < t`.
    fn links(&self, pair: &Value) -> bool {
        let station = |v: &Value| v.as_i64().and_then(|s| usize::try_from(s).ok());
        match pair.as_tuple() {
            Some([s, t]) => match (station(s), station(t)) {
                (Some(s), Some(t)) => self
                    .path
                    .get(s)
                    .is_some_and(|p| self.path.get(t) == Some(p)),
                _ => false,
            },
            _ => false,
        }
    }

    /// The number of linked pairs.
    fn closure_size(&self) -> usize {
        let mut length = vec![0usize; STATIONS + 1];
        for s in 1..=STATIONS {
            length[self.path[s]] += 1;
        }
        length.iter().map(|k| k * k.saturating_sub(1) / 2).sum()
    }

    /// The linked pairs `(start, reached)`, in the order the Python
    /// verifier's `get_transitive_closure` adds them to its set.
    fn closure_in_order(&self) -> Value {
        let next = successors(&self.lines);
        let mut pairs = Vec::new();
        for &(start, _) in &self.lines {
            let mut current = start;
            while next[current] != 0 {
                current = next[current];
                pairs.push(Value::tuple([Value::from(start), Value::from(current)]));
            }
        }
        Value::list(pairs)
    }
}

/// `next[s]`: where the car starting at station `s` goes (0: none).
fn successors(lines: &[(usize, usize)]) -> Vec<usize> {
    let mut next = vec![0; STATIONS + 1];
    for &(u, v) in lines {
        next[u] = v;
    }
    next
}

/// The smallest pair `(s, t)` linked by both companies: two stations on the
/// same A-path and the same B-path.
fn smallest_common_link(a: &Company, b: &Company) -> Option<(usize, usize)> {
    let mut first_of = std::collections::HashMap::new();
    let mut smallest: Option<(usize, usize)> = None;
    for t in 1..=STATIONS {
        let s = *first_of.entry((a.path[t], b.path[t])).or_insert(t);
        if s != t && smallest.is_none_or(|(best, _)| s < best) {
            smallest = Some((s, t));
        }
    }
    smallest
}

/// The pair the Python verifier reports, `list(A_closure & B_closure)[0]`,
/// an artefact of hash-table order. CPython's `set_intersection` walks the
/// smaller closure (B's on a tie) in table order and adds the pairs that the
/// other closure holds to a new set; the pick is that set's first slot. The
/// two tables are built by the CPython-faithful evaluator; membership in the
/// larger closure is read off its paths. `None` when the smaller closure has
/// more than [`EXACT_PICK_MAX_PAIRS`] pairs.
fn cpython_pick(a: &Company, b: &Company) -> Result<Option<Value>> {
    let (walked, other) = if b.closure_size() > a.closure_size() {
        (a, b)
    } else {
        (b, a)
    };
    if walked.closure_size() > EXACT_PICK_MAX_PAIRS {
        return Ok(None);
    }
    let table_order = python::eval("lambda pairs: list(set(pairs))")?;
    let table_order = table_order.call(&[walked.closure_in_order()])?;
    let common: Vec<Value> = (table_order.as_list().unwrap_or_default().iter())
        .filter(|pair| other.links(pair))
        .cloned()
        .collect();
    let first_slot = python::eval("lambda pairs: list(set(pairs))[0]")?;
    Ok(Some(first_slot.call(&[Value::list(common)])?))
}

verigate_sdk::main!(combench, verify);
