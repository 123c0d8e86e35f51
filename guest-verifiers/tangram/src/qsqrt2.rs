//! Exact numbers of the field Q(√2): `a + b√2` with rational `a`, `b`.
//!
//! Every tangram coordinate, edge vector, area and (edge by edge) length of
//! an assembly on the usual 45° grid lives in this field, so equality and
//! sign are decided exactly: `a + b√2 = 0` only when `a = b = 0` (√2 is
//! irrational), and the sign of `a + b√2` with `a`, `b` of opposite signs is
//! the sign of whichever of `a²`, `2b²` is larger.

use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, Mul, Neg, Sub};

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// `a + b√2`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Q2 {
    a: BigRational,
    b: BigRational,
}

/// The square root of a non-negative rational, where it is rational.
fn rational_sqrt(r: &BigRational) -> Option<BigRational> {
    if r.is_negative() {
        return None;
    }
    let (n, d) = (r.numer(), r.denom());
    let (sn, sd) = (n.sqrt(), d.sqrt());
    (&sn * &sn == *n && &sd * &sd == *d).then(|| BigRational::new(sn, sd))
}

impl Q2 {
    /// `a + b√2`.
    pub fn new(a: BigRational, b: BigRational) -> Self {
        Q2 { a, b }
    }

    /// The rational `r`.
    pub fn rational(r: BigRational) -> Self {
        Q2::new(r, BigRational::zero())
    }

    /// The integer `n`.
    pub fn int(n: i64) -> Self {
        Q2::rational(BigRational::from_integer(BigInt::from(n)))
    }

    /// Zero.
    pub fn zero() -> Self {
        Q2::int(0)
    }

    /// √2.
    pub fn sqrt2() -> Self {
        Q2::new(BigRational::zero(), BigRational::one())
    }

    /// The rational part, when there is no √2 part.
    pub fn as_rational(&self) -> Option<&BigRational> {
        self.b.is_zero().then_some(&self.a)
    }

    /// Whether this is 0.
    pub fn is_zero(&self) -> bool {
        self.a.is_zero() && self.b.is_zero()
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
        // Opposite signs: the larger of a² and 2b² wins (they differ).
        let two = BigRational::from_integer(BigInt::from(2));
        if &self.a * &self.a > two * &self.b * &self.b {
            sa
        } else {
            sb
        }
    }

    /// Whether this is > 0.
    pub fn is_positive(&self) -> bool {
        self.sign() == Ordering::Greater
    }

    /// Whether this is < 0.
    pub fn is_negative(&self) -> bool {
        self.sign() == Ordering::Less
    }

    /// `|self|`.
    pub fn abs(&self) -> Q2 {
        if self.is_negative() {
            -self.clone()
        } else {
            self.clone()
        }
    }

    /// `self / other`, or `None` when `other` is 0.
    pub fn div(&self, other: &Q2) -> Option<Q2> {
        // (a + b√2)⁻¹ = (a − b√2) / (a² − 2b²), and a² − 2b² ≠ 0 unless a = b = 0.
        let two = BigRational::from_integer(BigInt::from(2));
        let norm = &other.a * &other.a - two * &other.b * &other.b;
        if norm.is_zero() {
            return None;
        }
        let inverse = Q2::new(&other.a / &norm, -&other.b / &norm);
        Some(self * &inverse)
    }

    /// The non-negative square root, where it lies in Q(√2).
    pub fn sqrt(&self) -> Option<Q2> {
        if self.is_negative() {
            return None;
        }
        if self.b.is_zero() {
            if let Some(r) = rational_sqrt(&self.a) {
                return Some(Q2::rational(r));
            }
            // √r = t√2 when r/2 = t².
            let half = &self.a / BigRational::from_integer(BigInt::from(2));
            return rational_sqrt(&half).map(|t| Q2::new(BigRational::zero(), t));
        }
        // (c + d√2)² = a + b√2: c² + 2d² = a, 2cd = b, so c² = (a ± √(a² − 2b²)) / 2.
        let two = BigRational::from_integer(BigInt::from(2));
        let root = rational_sqrt(&(&self.a * &self.a - &two * &self.b * &self.b))?;
        [&self.a + &root, &self.a - &root]
            .into_iter()
            .filter_map(|twice_c2| rational_sqrt(&(twice_c2 / &two)))
            .filter(|c| !c.is_zero())
            .map(|c| {
                let d = &self.b / (&two * &c);
                Q2::new(c, d).abs()
            })
            .find(|candidate| &(candidate * candidate) == self)
    }

    /// The nearest `f64`.
    pub fn to_f64(&self) -> f64 {
        let part = |r: &BigRational| r.to_f64().unwrap_or(f64::NAN);
        part(&self.a) + part(&self.b) * std::f64::consts::SQRT_2
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

impl Neg for Q2 {
    type Output = Q2;
    fn neg(self) -> Q2 {
        Q2::new(-self.a, -self.b)
    }
}

impl fmt::Display for Q2 {
    /// `3/2`, `2√2`, `-1/2√2`, `4 + 2√2`, `1 - 1/2√2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let root = |b: &BigRational| {
            if b.is_one() {
                "√2".to_owned()
            } else {
                format!("{b}√2")
            }
        };
        match (self.a.is_zero(), self.b.is_zero()) {
            (_, true) => write!(f, "{}", self.a),
            (true, false) if self.b == -BigRational::one() => write!(f, "-√2"),
            (true, false) => write!(f, "{}", root(&self.b)),
            (false, false) if self.b.is_negative() => {
                write!(f, "{} - {}", self.a, root(&-self.b.clone()))
            }
            (false, false) => write!(f, "{} + {}", self.a, root(&self.b)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(a: i64, b: i64) -> Q2 {
        let r = |n: i64| BigRational::from_integer(BigInt::from(n));
        Q2::new(r(a), r(b))
    }

    #[test]
    fn signs_are_exact_near_zero() {
        // 99 - 70√2 ≈ 0.00505 > 0; 140 - 99√2 ≈ -0.0071 < 0.
        assert!(q(99, -70).is_positive());
        assert!(q(140, -99).is_negative());
        assert!(q(0, 0).sign() == Ordering::Equal);
        assert!(q(-3, 3).is_positive());
    }

    #[test]
    fn arithmetic_and_division() {
        assert_eq!(&q(1, 1) * &q(1, -1), q(-1, 0));
        assert_eq!(q(1, 0).div(&q(1, 1)).unwrap(), q(-1, 1));
        assert!(q(1, 0).div(&q(0, 0)).is_none());
    }

    #[test]
    fn square_roots_inside_the_field() {
        assert_eq!(q(8, 0).sqrt().unwrap(), q(0, 2));
        assert_eq!(q(9, 0).sqrt().unwrap(), q(3, 0));
        // (1 + √2)² = 3 + 2√2.
        assert_eq!(q(3, 2).sqrt().unwrap(), q(1, 1));
        // (√2 - 1)² = 3 - 2√2.
        assert_eq!(q(3, -2).sqrt().unwrap(), q(-1, 1));
        assert!(q(3, 0).sqrt().is_none());
        assert!(q(-4, 0).sqrt().is_none());
    }

    #[test]
    fn display() {
        assert_eq!(q(4, 2).to_string(), "4 + 2√2");
        assert_eq!(q(1, -1).to_string(), "1 - √2");
        assert_eq!(q(0, -1).to_string(), "-√2");
        assert_eq!(q(0, 1).to_string(), "√2");
    }
}
