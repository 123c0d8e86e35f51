//! A [`Value`] as a Rust number, with the Python semantics a port needs, each named for what
//! it does (they differ where the originals differ: which types count, what a huge int
//! becomes).
//!
//! | function | Python | `bool` | `str` | int beyond `i64` | int beyond `f64` |
//! |---|---|---|---|---|---|
//! | [`float`] | `float(v)`, any type | 0.0 / 1.0 | parsed ([`strings::float`](super::strings::float)) | correctly rounded | `OverflowError` |
//! | [`real`] | `float(v)` for `isinstance(v, (int, float))` | 0.0 / 1.0 | `None` | correctly rounded | ±∞ |
//! | [`real_i64`] | the same, for ints in `i64` only | 0.0 / 1.0 | `None` | `None` | `None` |
//! | [`real_saturating`] | the same, huge ints as ±∞ (enough to compare with small bounds) | 0.0 / 1.0 | `None` | ±∞ | ±∞ |
//!
//! [`sum_floats`] is CPython's `sum()` of floats.

use super::builtins;
use super::error::EvalError;
use super::num::{self, Num};
use super::value::Value;
use num_bigint::{BigInt, Sign};

/// CPython's `float(v)`: ints correctly rounded, strings by
/// [`strings::float`](super::strings::float), CPython's exception class and message where it
/// raises (`OverflowError`, `ValueError`, `TypeError`; see [`EvalError::kind`]).
///
/// ```
/// use verigate_sdk::python::{coerce::float, eval, ErrorKind};
/// let f = |src| float(&eval(src).unwrap());
/// assert_eq!(f("True").unwrap(), 1.0);
/// assert_eq!(f("2 ** 53 + 1").unwrap(), 9007199254740992.0);
/// assert_eq!(f("' ١٢_٥ '").unwrap(), 125.0);
/// assert_eq!(f("10 ** 400").unwrap_err().python_text(),
///            "OverflowError: int too large to convert to float");
/// assert_eq!(f("'x'").unwrap_err().kind(), ErrorKind::Value);
/// assert_eq!(f("None").unwrap_err().python_text(),
///            "TypeError: float() argument must be a string or a real number, not 'NoneType'");
/// ```
pub fn float(v: &Value) -> Result<f64, EvalError> {
    builtins::to_float(v)
}

/// `float(i)` for a Python int, correctly rounded; `None` where CPython raises
/// `OverflowError` ("int too large to convert to float").
///
/// ```
/// use verigate_sdk::python::{coerce::int_to_float, BigInt};
/// assert_eq!(int_to_float(&BigInt::from(u64::MAX)), Some(18446744073709551616.0));
/// assert_eq!(int_to_float(&(BigInt::from(10).pow(400))), None);
/// ```
pub fn int_to_float(i: &BigInt) -> Option<f64> {
    num::int_to_f64(Num::Big(i))
}

/// `float(v)` for a Python int, float or bool (`isinstance(v, (int, float))`), else `None`;
/// an int too large for a float is ±∞ (where CPython's `float(v)` raises `OverflowError`:
/// tell the two apart with [`Value::as_bigint`]).
///
/// ```
/// use verigate_sdk::python::{coerce::real, eval};
/// let r = |src| real(&eval(src).unwrap());
/// assert_eq!((r("False"), r("2.5"), r("3 ** 40")), (Some(0.0), Some(2.5), Some(12157665459056928801.0)));
/// assert_eq!((r("-10 ** 400"), r("'1'")), (Some(f64::NEG_INFINITY), None));
/// ```
pub fn real(v: &Value) -> Option<f64> {
    let n = num::as_number(v)?;
    Some(num::int_to_f64(n).unwrap_or_else(|| infinity_like(v)))
}

/// [`real`] for ints within `i64` only: an int outside it is `None`, like a non-number.
///
/// ```
/// use verigate_sdk::python::{coerce::real_i64, eval};
/// let r = |src| real_i64(&eval(src).unwrap());
/// assert_eq!((r("True"), r("-7"), r("0.5"), r("2 ** 63")), (Some(1.0), Some(-7.0), Some(0.5), None));
/// ```
pub fn real_i64(v: &Value) -> Option<f64> {
    match num::as_number(v)? {
        Num::Big(_) => None,
        n => num::int_to_f64(n),
    }
}

/// [`real`] with every int outside `i64` as ±∞ by its sign: what a port needs where the
/// original only compares the number with small bounds.
///
/// ```
/// use verigate_sdk::python::{coerce::real_saturating, eval};
/// let r = |src| real_saturating(&eval(src).unwrap());
/// assert_eq!((r("2 ** 63"), r("-2 ** 64"), r("5")), (Some(f64::INFINITY), Some(f64::NEG_INFINITY), Some(5.0)));
/// ```
pub fn real_saturating(v: &Value) -> Option<f64> {
    match num::as_number(v)? {
        Num::Big(_) => Some(infinity_like(v)),
        n => num::int_to_f64(n),
    }
}

fn infinity_like(v: &Value) -> f64 {
    match v.as_bigint() {
        Some(b) if b.sign() == Sign::Minus => f64::NEG_INFINITY,
        _ => f64::INFINITY,
    }
}

/// CPython 3.12+'s running `sum()` of floats: Neumaier-compensated, ints (and bools) added
/// without compensation, the compensation applied at the end unless it is 0 or not finite.
/// The evaluator's `sum` builtin runs on it too.
pub struct FloatSum {
    total: f64,
    compensation: f64,
}

impl FloatSum {
    /// A sum starting from the float `start`.
    pub fn new(start: f64) -> FloatSum {
        FloatSum {
            total: start,
            compensation: 0.0,
        }
    }

    /// Adds a float item.
    pub fn add(&mut self, x: f64) {
        let t = self.total + x;
        if self.total.abs() >= x.abs() {
            self.compensation += (self.total - t) + x;
        } else {
            self.compensation += (x - t) + self.total;
        }
        self.total = t;
    }

    /// Adds an int item (CPython adds `(double)i` without compensation).
    pub fn add_uncompensated(&mut self, x: f64) {
        self.total += x;
    }

    /// The sum so far.
    pub fn total(&self) -> f64 {
        let c = self.compensation;
        if c != 0.0 && c.is_finite() {
            self.total + c
        } else {
            self.total
        }
    }
}

/// `sum(values)` for a sequence of floats, as CPython 3.12+ computes it (starting from the
/// int 0, so an empty sum is 0 and `sum([-0.0])` is `0.0`).
///
/// ```
/// use verigate_sdk::python::coerce::sum_floats;
/// assert_eq!(sum_floats([0.1; 10]), 1.0);
/// assert_eq!(sum_floats([1e16, 1.0, -1e16]), 1.0); // left to right would give 0.0
/// assert_eq!(sum_floats([-0.0]).to_bits(), 0.0f64.to_bits());
/// ```
pub fn sum_floats(values: impl IntoIterator<Item = f64>) -> f64 {
    let mut it = values.into_iter();
    let Some(first) = it.next() else { return 0.0 };
    // `0 + first`: the int start converted, so -0.0 becomes 0.0.
    let mut acc = FloatSum::new(0.0 + first);
    for x in it {
        acc.add(x);
    }
    acc.total()
}
