//! Python's numeric comparisons (exact between `int` and `float`) and `format(x, '.1f')`.

use std::cmp::Ordering;

use num_bigint::BigInt;
use num_traits::Zero;
use verigate_sdk::python::{Value, compare_int_float};

/// A Python `int` (`bool` included) or `float`.
#[derive(Clone, Debug, PartialEq)]
pub enum Num {
    Int(BigInt),
    Float(f64),
}

impl Num {
    /// The number a value is, if it is an `int`, `bool` or `float`.
    pub fn of(v: &Value) -> Option<Num> {
        if let Some(b) = v.as_bool() {
            return Some(Num::Int(BigInt::from(u8::from(b))));
        }
        v.as_bigint()
            .map(Num::Int)
            .or_else(|| v.as_f64().map(Num::Float))
    }

    /// Python's `a < b`, `a == b`, `a > b` as an ordering; `None` when a NaN is involved.
    pub fn cmp(&self, other: &Num) -> Option<Ordering> {
        match (self, other) {
            (Num::Int(a), Num::Int(b)) => Some(a.cmp(b)),
            (Num::Float(a), Num::Float(b)) => a.partial_cmp(b),
            (Num::Int(a), Num::Float(f)) => compare_int_float(a, *f),
            (Num::Float(f), Num::Int(a)) => compare_int_float(a, *f).map(Ordering::reverse),
        }
    }

    pub fn lt(&self, other: &Num) -> bool {
        self.cmp(other) == Some(Ordering::Less)
    }

    pub fn gt(&self, other: &Num) -> bool {
        self.cmp(other) == Some(Ordering::Greater)
    }

    /// Python's `self == i`.
    pub fn eq_int(&self, i: i64) -> bool {
        self.cmp(&Num::Int(BigInt::from(i))) == Some(Ordering::Equal)
    }

    pub fn is_negative(&self) -> bool {
        self.lt(&Num::Int(BigInt::zero()))
    }

    /// The value as an `f64` (ints rounded to nearest; huge ints become ±inf).
    pub fn to_f64(&self) -> f64 {
        match self {
            Num::Int(i) => num_traits::ToPrimitive::to_f64(i).unwrap_or(f64::NAN),
            Num::Float(f) => *f,
        }
    }
}

/// Python's `format(x, '.1f')`.
pub fn fixed1(x: f64) -> String {
    if x.is_nan() {
        "nan".to_owned()
    } else if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.to_owned()
    } else {
        // Rust prints the exact binary value rounded half to even, as CPython does.
        format!("{x:.1}")
    }
}
