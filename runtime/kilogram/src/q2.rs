//! Exact numbers of Q(√2): `a + b√2` with rational `a`, `b`.
//!
//! `a + b√2 = 0` only when `a = b = 0` (√2 is irrational), and the sign of
//! `a + b√2` with `a`, `b` of opposite signs is the sign of whichever of
//! `a²`, `2b²` is larger, so equality and order are decided exactly.

use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, Mul, Neg, Sub};

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive, Zero};

/// `a + b√2`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Q2 {
    a: BigRational,
    b: BigRational,
}

fn ratio(n: i64, d: i64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d))
}

impl Q2 {
    /// `a + b√2`.
    pub fn new(a: BigRational, b: BigRational) -> Self {
        Q2 { a, b }
    }

    /// `(a + b√2) / d` for integers.
    pub fn frac(a: i64, b: i64, d: i64) -> Self {
        Q2::new(ratio(a, d), ratio(b, d))
    }

    /// The integer `n`.
    pub fn int(n: i64) -> Self {
        Q2::frac(n, 0, 1)
    }

    /// Zero.
    pub fn zero() -> Self {
        Q2::int(0)
    }

    /// Whether this is 0.
    pub fn is_zero(&self) -> bool {
        self.a.is_zero() && self.b.is_zero()
    }

    /// Whether there is no √2 part.
    pub fn is_rational(&self) -> bool {
        self.b.is_zero()
    }

    /// The sign, as an ordering against 0.
    pub fn sign(&self) -> Ordering {
        let zero = BigRational::zero();
        let (sa, sb) = (self.a.cmp(&zero), self.b.cmp(&zero));
        if sb == Ordering::Equal || sa == sb {
            return if sa == Ordering::Equal { sb } else { sa };
        }
        if sa == Ordering::Equal {
            return sb;
        }
        let two = BigRational::from_integer(BigInt::from(2));
        let (a2, b2) = (&self.a * &self.a, &two * &self.b * &self.b);
        if a2 > b2 { sa } else { sb }
    }

    /// Whether this is > 0.
    pub fn is_positive(&self) -> bool {
        self.sign() == Ordering::Greater
    }

    /// Whether this is < 0.
    pub fn is_negative(&self) -> bool {
        self.sign() == Ordering::Less
    }

    /// `self / n` for a non-zero integer.
    pub fn div_int(&self, n: i64) -> Q2 {
        let n = BigRational::from_integer(BigInt::from(n));
        Q2::new(&self.a / &n, &self.b / &n)
    }

    /// The nearest `f64`.
    pub fn to_f64(&self) -> f64 {
        let f = |r: &BigRational| r.to_f64().unwrap_or(f64::NAN);
        f(&self.a) + f(&self.b) * std::f64::consts::SQRT_2
    }

    /// The number in LaTeX, as TangramPuzzle writes coordinates: `3`,
    /// `-\frac{3}{2}`, `\sqrt{2}`, `\frac{3\sqrt{2}}{2}`, `1 - 2\sqrt{2}`
    /// (the format of `registry/tools/tangram.py`).
    pub fn latex(&self) -> String {
        fn rational(r: &BigRational) -> String {
            if r.is_integer() {
                return r.numer().to_string();
            }
            let sign = if r.is_negative() { "-" } else { "" };
            format!("{sign}\\frac{{{}}}{{{}}}", r.numer().abs(), r.denom())
        }
        fn surd(r: &BigRational) -> String {
            let n = r.numer().abs();
            let body = if n == BigInt::from(1) {
                "\\sqrt{2}".to_owned()
            } else {
                format!("{n}\\sqrt{{2}}")
            };
            if r.is_integer() {
                body
            } else {
                format!("\\frac{{{body}}}{{{}}}", r.denom())
            }
        }
        if self.b.is_zero() {
            return rational(&self.a);
        }
        if self.a.is_zero() {
            let sign = if self.b.is_negative() { "-" } else { "" };
            return format!("{sign}{}", surd(&self.b));
        }
        let op = if self.b.is_negative() { " - " } else { " + " };
        format!("{}{op}{}", rational(&self.a), surd(&self.b))
    }
}

impl fmt::Display for Q2 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.latex())
    }
}

impl PartialOrd for Q2 {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Q2 {
    fn cmp(&self, other: &Self) -> Ordering {
        (self - other).sign()
    }
}

impl Add for &Q2 {
    type Output = Q2;
    fn add(self, o: &Q2) -> Q2 {
        Q2::new(&self.a + &o.a, &self.b + &o.b)
    }
}

impl Sub for &Q2 {
    type Output = Q2;
    fn sub(self, o: &Q2) -> Q2 {
        Q2::new(&self.a - &o.a, &self.b - &o.b)
    }
}

impl Mul for &Q2 {
    type Output = Q2;
    fn mul(self, o: &Q2) -> Q2 {
        let two = BigRational::from_integer(BigInt::from(2));
        Q2::new(
            &self.a * &o.a + two * &self.b * &o.b,
            &self.a * &o.b + &self.b * &o.a,
        )
    }
}

impl Neg for &Q2 {
    type Output = Q2;
    fn neg(self) -> Q2 {
        Q2::new(-&self.a, -&self.b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signs_and_order_are_exact() {
        let r2 = Q2::frac(0, 1, 1);
        assert!((&(&r2 * &r2) - &Q2::int(2)).is_zero());
        assert!(Q2::frac(3, -2, 1).is_positive()); // 3 - 2√2 ≈ 0.17
        assert!(Q2::frac(-3, 2, 1).is_negative());
        assert!(Q2::frac(99, -70, 1).is_positive()); // ≈ 0.00505
        assert!(Q2::frac(1, 1, 2) < Q2::frac(0, 1, 1)); // (1 + √2)/2 ≈ 1.207 < 1.414
    }

    #[test]
    fn latex_matches_the_generator() {
        for (q, s) in [
            (Q2::int(3), "3"),
            (Q2::frac(-3, 0, 2), "-\\frac{3}{2}"),
            (Q2::frac(0, 1, 1), "\\sqrt{2}"),
            (Q2::frac(0, -1, 1), "-\\sqrt{2}"),
            (Q2::frac(0, 3, 2), "\\frac{3\\sqrt{2}}{2}"),
            (Q2::frac(0, 1, 2), "\\frac{\\sqrt{2}}{2}"),
            (Q2::frac(2, -4, 2), "1 - 2\\sqrt{2}"),
            (Q2::frac(3, 1, 2), "\\frac{3}{2} + \\frac{\\sqrt{2}}{2}"),
        ] {
            assert_eq!(q.latex(), s);
        }
    }
}
