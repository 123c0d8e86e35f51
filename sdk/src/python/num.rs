//! Numbers: int normalisation, exact int/float comparison and conversion,
//! CPython's numeric hashes and float `repr`.

use super::value::{V, Value};
use num_bigint::{BigInt, Sign};
use num_traits::{ToPrimitive, Zero};
use std::cmp::Ordering;
use std::rc::Rc;

/// CPython's default limit on decimal digits in int/str conversions.
pub(crate) const MAX_STR_DIGITS: usize = 4300;

/// A number borrowed from a value (`bool`s are ints).
#[derive(Clone, Copy)]
pub(crate) enum Num<'a> {
    Int(i64),
    Big(&'a BigInt),
    Float(f64),
}

/// The int or float in `v` (`True` is 1).
pub(crate) fn as_number(v: &Value) -> Option<Num<'_>> {
    match &v.0 {
        V::Bool(b) => Some(Num::Int(*b as i64)),
        V::Int(i) => Some(Num::Int(*i)),
        V::Big(b) => Some(Num::Big(b)),
        V::Float(f) => Some(Num::Float(*f)),
        _ => None,
    }
}

/// An int value, small when it fits in an `i64`.
pub(crate) fn int_value(b: BigInt) -> Value {
    match b.to_i64() {
        Some(i) => Value(V::Int(i)),
        None => Value(V::Big(Rc::new(b))),
    }
}

pub(crate) fn to_big(n: Num<'_>) -> BigInt {
    match n {
        Num::Int(i) => BigInt::from(i),
        Num::Big(b) => b.clone(),
        Num::Float(_) => unreachable!("to_big on a float"),
    }
}

pub(crate) fn num_eq(a: &Num<'_>, b: &Num<'_>) -> bool {
    num_cmp(a, b) == Some(Ordering::Equal)
}

/// Exact comparison; `None` when a NaN is involved.
pub(crate) fn num_cmp(a: &Num<'_>, b: &Num<'_>) -> Option<Ordering> {
    match (*a, *b) {
        (Num::Int(x), Num::Int(y)) => Some(x.cmp(&y)),
        (Num::Float(x), Num::Float(y)) => x.partial_cmp(&y),
        (Num::Float(x), y) => int_float_cmp(y, x).map(Ordering::reverse),
        (x, Num::Float(y)) => int_float_cmp(x, y),
        (Num::Big(x), Num::Big(y)) => Some(x.cmp(y)),
        (Num::Big(x), Num::Int(_)) => Some(big_vs_small(x)),
        (Num::Int(_), Num::Big(y)) => Some(big_vs_small(y).reverse()),
    }
}

/// How a big int (never in `i64` range) compares with any `i64`.
fn big_vs_small(b: &BigInt) -> Ordering {
    if b.sign() == Sign::Minus {
        Ordering::Less
    } else {
        Ordering::Greater
    }
}

/// How an int compares with a float in Python: exactly, the int never
/// rounded to a float; `None` when the float is NaN.
///
/// ```
/// use std::cmp::Ordering;
/// use verigate_sdk::python::{BigInt, compare_int_float};
/// let i = BigInt::from(9_007_199_254_740_993_i64); // 2^53 + 1: no f64 is equal
/// assert_eq!(compare_int_float(&i, 9_007_199_254_740_992.0), Some(Ordering::Greater));
/// assert_eq!(compare_int_float(&i, f64::NAN), None);
/// ```
pub fn compare_int_float(i: &BigInt, f: f64) -> Option<Ordering> {
    int_float_cmp(Num::Big(i), f)
}

/// Compares an int with a float exactly, as CPython does.
fn int_float_cmp(i: Num<'_>, f: f64) -> Option<Ordering> {
    if f.is_nan() {
        return None;
    }
    if f.is_infinite() {
        return Some(if f > 0.0 {
            Ordering::Less
        } else {
            Ordering::Greater
        });
    }
    let floor = f.floor();
    let frac = f > floor;
    let ord = match i {
        Num::Int(x) if floor.abs() < 9.2e18 => (x as i128).cmp(&(floor as i128)),
        _ => to_big(i).cmp(&float_to_big(floor)),
    };
    Some(match ord {
        Ordering::Equal if frac => Ordering::Less,
        o => o,
    })
}

/// The integer part of a finite float, exactly (truncated toward zero).
pub(crate) fn float_to_big(f: f64) -> BigInt {
    let bits = f.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i64;
    if exp == 0 {
        return BigInt::zero();
    }
    let mant = (bits & ((1 << 52) - 1)) | (1 << 52);
    let e = exp - 1075;
    let mag = if e >= 0 {
        BigInt::from(mant) << e as usize
    } else if e > -64 {
        BigInt::from(mant >> (-e))
    } else {
        BigInt::zero()
    };
    if bits >> 63 == 1 { -mag } else { mag }
}

/// An int as the nearest float (ties to even); `None` if it overflows.
pub(crate) fn int_to_f64(n: Num<'_>) -> Option<f64> {
    match n {
        Num::Int(i) => Some(i as f64),
        Num::Float(f) => Some(f),
        Num::Big(b) => {
            let neg = b.sign() == Sign::Minus;
            let m = b.magnitude();
            let bits = m.bits();
            let f = if bits <= 64 {
                m.to_u64()? as f64
            } else {
                let shift = bits - 54;
                let top = (m >> shift).to_u64()?;
                let sticky = m.trailing_zeros().is_some_and(|z| z < shift);
                let mut mant = top >> 1;
                if top & 1 == 1 && (sticky || mant & 1 == 1) {
                    mant += 1;
                }
                let exp = (shift + 1) as i32;
                if exp > 1000 {
                    return None;
                }
                mant as f64 * 2f64.powi(exp)
            };
            if f.is_infinite() {
                return None;
            }
            Some(if neg { -f } else { f })
        }
    }
}

const HASH_MODULUS: u64 = (1 << 61) - 1;

fn finish_hash(h: i64) -> i64 {
    if h == -1 { -2 } else { h }
}

/// CPython's hash of an int.
pub(crate) fn hash_i64(i: i64) -> i64 {
    let m = (i.unsigned_abs() % HASH_MODULUS) as i64;
    finish_hash(if i < 0 { -m } else { m })
}

pub(crate) fn hash_big(b: &BigInt) -> i64 {
    let m = (b.magnitude() % HASH_MODULUS).to_u64().unwrap_or(0) as i64;
    finish_hash(if b.sign() == Sign::Minus { -m } else { m })
}

/// CPython's `_Py_HashDouble` (a NaN hashes as 0 here: there is no object identity).
pub(crate) fn hash_float(v: f64) -> i64 {
    if v.is_nan() {
        return 0;
    }
    if v.is_infinite() {
        return if v > 0.0 { 314159 } else { -314159 };
    }
    let (mut m, mut e) = frexp(v);
    let mut sign: i64 = 1;
    if m < 0.0 {
        sign = -1;
        m = -m;
    }
    let mut x: u64 = 0;
    while m != 0.0 {
        x = ((x << 28) & HASH_MODULUS) | (x >> (61 - 28));
        m *= 268435456.0;
        e -= 28;
        let y = m as u64;
        m -= y as f64;
        x += y;
        if x >= HASH_MODULUS {
            x -= HASH_MODULUS;
        }
    }
    let e = if e >= 0 {
        e % 61
    } else {
        61 - 1 - ((-1 - e) % 61)
    } as u32;
    x = ((x << e) & HASH_MODULUS) | (x >> (61 - e));
    finish_hash((x as i64).wrapping_mul(sign))
}

/// `frexp`: `v = m * 2^e` with `0.5 <= |m| < 1` (for finite nonzero `v`).
fn frexp(v: f64) -> (f64, i32) {
    if v == 0.0 {
        return (v, 0);
    }
    let bits = v.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    if exp == 0 {
        // Subnormal: scale into the normal range first.
        let (m, e) = frexp(v * 2f64.powi(64));
        return (m, e - 64);
    }
    let m = f64::from_bits((bits & !(0x7ff << 52)) | (1022 << 52));
    (m, exp - 1022)
}

/// Python's `repr` of a float: the shortest round-tripping digits, in fixed
/// notation for exponents in [-4, 16), else scientific with a 2+ digit exponent.
pub(crate) fn float_repr(f: f64) -> String {
    if f.is_nan() {
        return "nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf" } else { "-inf" }.into();
    }
    // `{:e}` gives the shortest round-trip digits: "-1.2345e-5".
    let sci = format!("{:e}", f);
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => ("-", m),
        None => ("", mantissa),
    };
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let digits = round_half_even_tie(&digits, exp, f.abs());
    let n = digits.len() as i32;
    let decpt = exp + 1;
    let body = if (-4 < decpt) && decpt <= 16 {
        if decpt <= 0 {
            format!("0.{}{}", "0".repeat((-decpt) as usize), digits)
        } else if decpt >= n {
            format!("{}{}.0", digits, "0".repeat((decpt - n) as usize))
        } else {
            format!(
                "{}.{}",
                &digits[..decpt as usize],
                &digits[decpt as usize..]
            )
        }
    } else {
        let rest = if n > 1 {
            format!(".{}", &digits[1..])
        } else {
            String::new()
        };
        let e = decpt - 1;
        format!(
            "{}{}e{}{:02}",
            &digits[..1],
            rest,
            if e < 0 { '-' } else { '+' },
            e.abs()
        )
    };
    format!("{sign}{body}")
}

/// Rust's shortest digits break an exact tie between two shortest
/// candidates upwards; CPython's `repr` picks the even last digit. `digits`
/// are the significant digits of `f` (positive, finite) with the first at
/// decimal exponent `exp`; returns the digits CPython would print.
fn round_half_even_tie(digits: &str, exp: i32, f: f64) -> String {
    let (Ok(d), Some(last)) = (digits.parse::<u64>(), digits.bytes().last()) else {
        return digits.to_owned();
    };
    if (last - b'0').is_multiple_of(2) {
        return digits.to_owned();
    }
    // f = m * 2^e; candidate = d * 10^k.
    let bits = f.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i64;
    let m = if biased == 0 {
        (bits & ((1 << 52) - 1)) << 1
    } else {
        (bits & ((1 << 52) - 1)) | (1 << 52)
    };
    let e = biased.max(1) - 1076; // m * 2^e with m doubled for subnormals
    let e = if biased == 0 { e } else { e + 1 };
    let k = exp as i64 - digits.len() as i64 + 1;
    // Scale 2f and (2d ± 1) * 10^k to integers.
    let scale = |x: BigInt, two: i64, ten: i64| -> BigInt {
        let x = if two > 0 { x << two as usize } else { x };
        if ten > 0 {
            x * BigInt::from(10).pow(ten as u32)
        } else {
            x
        }
    };
    let (e2, k10) = ((-e).max(0), (-k).max(0));
    let twice_f = scale(BigInt::from(m) << 1, e + e2, k10);
    let candidate = |c: BigInt| scale(c, e2, k + k10);
    let exact = candidate(BigInt::from(d) * 2);
    let alt = if exact > twice_f { d - 1 } else { d + 1 };
    let midpoint = candidate(BigInt::from(d) + BigInt::from(alt));
    let alt_digits = alt.to_string();
    if midpoint != twice_f || alt_digits.len() != digits.len() {
        return digits.to_owned();
    }
    // Both candidates are equally near; the even one must also read back as f.
    let alt_text = format!("{}.{}e{}", &alt_digits[..1], &alt_digits[1..], exp);
    if alt_text.parse::<f64>() == Ok(f) {
        alt_digits
    } else {
        digits.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_reprs_match_python() {
        for (f, s) in [
            (0.1, "0.1"),
            (1.0, "1.0"),
            (-0.0, "-0.0"),
            (1e16, "1e+16"),
            (1234567890123456.0, "1234567890123456.0"),
            (1e-5, "1e-05"),
            (0.0001, "0.0001"),
            (1.5e-7, "1.5e-07"),
            (1.5e300, "1.5e+300"),
            (123.456, "123.456"),
            (2.0f64.powi(70), "1.1805916207174113e+21"),
            (f64::INFINITY, "inf"),
            (f64::NAN, "nan"),
            (5e-324, "5e-324"),
            (165216224719621.0 + 0.125, "165216224719621.12"),
        ] {
            assert_eq!(float_repr(f), s);
        }
    }

    #[test]
    fn hashes_match_python() {
        assert_eq!(hash_i64(-1), -2);
        assert_eq!(hash_i64((1 << 61) - 1), 0);
        assert_eq!(hash_i64(-(1 << 62)), -2);
        assert_eq!(hash_float(1.0), 1);
        assert_eq!(hash_float(-1.0), -2);
        assert_eq!(hash_float(0.5), 1152921504606846976);
        assert_eq!(hash_float(1e300), hash_big(&float_to_big(1e300)));
        assert_eq!(hash_float(-2.5), -1152921504606846978);
    }

    #[test]
    fn int_float_conversions() {
        let big: BigInt = BigInt::from(1u64 << 53) + 1;
        assert_eq!(
            int_to_f64(Num::Big(&(big.clone() << 20))),
            Some(2f64.powi(73))
        );
        let halfway = (BigInt::from(1u64 << 53) + 1) << 100;
        assert_eq!(int_to_f64(Num::Big(&halfway)), Some(2f64.powi(153)));
        let above = ((BigInt::from(1u64 << 53) + 1) << 100) + 1;
        assert_eq!(
            int_to_f64(Num::Big(&above)),
            Some((2f64.powi(53) + 2.0) * 2f64.powi(100))
        );
        assert_eq!(int_to_f64(Num::Big(&(BigInt::from(1) << 1024))), None);
        let max = float_to_big(f64::MAX);
        assert_eq!(int_to_f64(Num::Big(&max)), Some(f64::MAX));
        assert_eq!(float_to_big(-2.75), BigInt::from(-2));
        assert_eq!(
            num_cmp(&Num::Big(&big), &Num::Float(2f64.powi(53))),
            Some(Ordering::Greater)
        );
        assert_eq!(
            num_cmp(&Num::Int(3), &Num::Float(3.5)),
            Some(Ordering::Less)
        );
        assert_eq!(
            num_cmp(&Num::Int(-3), &Num::Float(-3.5)),
            Some(Ordering::Greater)
        );
        assert_eq!(num_cmp(&Num::Int(3), &Num::Float(f64::NAN)), None);
    }
}
