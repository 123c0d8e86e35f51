//! `isPrime` of `30.py`: BPSW (trial division by the primes up to 47, a strong
//! Miller–Rabin test to base 2, a strong Lucas test with Selfridge's parameters),
//! with the original's two oddities, and a corrected variant.

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{FromPrimitive, One, ToPrimitive, Zero};

const SMALL_PRIMES: [u32; 15] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47];

/// Where the original does not return a verdict.
#[derive(Debug, PartialEq)]
pub enum Stop {
    /// It raises (`n ** 0.5` of an int too large for a float).
    Raise(String),
    /// Its Selfridge search never ends (a perfect square its float test misses).
    Hang,
}

/// Which semantics to apply.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Mode {
    /// As `30.py`: `int(n ** 0.5)` squares test, and a Jacobi symbol of 0
    /// returns `abs(D) != n` ("prime").
    Faithful,
    /// Exact square test; a Jacobi symbol of 0 with `abs(D) != n` means composite.
    Corrected,
}

/// `isPrime(num)`.
pub fn is_prime(n: &BigInt, mode: Mode) -> Result<bool, Stop> {
    if *n < BigInt::from(2) {
        return Ok(false);
    }
    if SMALL_PRIMES.iter().any(|&p| *n == BigInt::from(p)) {
        return Ok(true);
    }
    if SMALL_PRIMES.iter().any(|&p| (n % p).is_zero()) {
        return Ok(false);
    }
    if !strong_mr2(n) {
        return Ok(false);
    }
    strong_lucas(n, mode)
}

/// The strong probable-prime test to base 2 (odd `n` > 2).
pub fn strong_mr2(n: &BigInt) -> bool {
    let one = BigInt::one();
    let n1 = n - &one;
    let r = n1.trailing_zeros().unwrap_or(0);
    let d = &n1 >> r;
    let mut x = BigInt::from(2).modpow(&d, n);
    if x == one || x == n1 {
        return true;
    }
    for _ in 1..r {
        x = (&x * &x) % n;
        if x == n1 {
            return true;
        }
    }
    false
}

/// The Jacobi symbol (a/n), n odd and positive.
pub fn jacobi(a: &BigInt, n: &BigInt) -> i32 {
    let mut a = a.mod_floor(n);
    let mut n = n.clone();
    let mut result = 1;
    while !a.is_zero() {
        while a.is_even() {
            a >>= 1;
            let r = (&n % 8u32).to_u32().unwrap_or(0);
            if r == 3 || r == 5 {
                result = -result;
            }
        }
        std::mem::swap(&mut a, &mut n);
        if (&a % 4u32).to_u32() == Some(3) && (&n % 4u32).to_u32() == Some(3) {
            result = -result;
        }
        a = a.mod_floor(&n);
    }
    if n.is_one() { result } else { 0 }
}

/// `int(n ** 0.5) ** 2 == n`: the int converted to the nearest float (raising
/// when it is too large for one), its square root truncated.
fn float_square_test(n: &BigInt) -> Result<bool, Stop> {
    let f = n.to_f64().unwrap_or(f64::INFINITY);
    if !f.is_finite() {
        return Err(Stop::Raise(
            "OverflowError: int too large to convert to float (n ** 0.5 in _strong_lucas_test)"
                .into(),
        ));
    }
    let root = BigInt::from_f64(f.sqrt().trunc()).unwrap_or_default();
    Ok(&root * &root == *n)
}

fn is_square(n: &BigInt) -> bool {
    let r = n.sqrt();
    &r * &r == *n
}

/// `_strong_lucas_test(n)` for odd n > 47 without small factors.
pub fn strong_lucas(n: &BigInt, mode: Mode) -> Result<bool, Stop> {
    let square = |n: &BigInt| -> Result<bool, Stop> {
        match mode {
            Mode::Faithful => float_square_test(n),
            Mode::Corrected => Ok(is_square(n)),
        }
    };
    if square(n)? {
        return Ok(false);
    }
    let mut d_sel: i64 = 5;
    let mut steps = 0u32;
    loop {
        let g = jacobi(&BigInt::from(d_sel), n);
        if g == 0 {
            let same = BigInt::from(d_sel.abs()) == *n;
            return Ok(match mode {
                Mode::Faithful => !same,
                Mode::Corrected => same,
            });
        }
        if g == -1 {
            break;
        }
        d_sel = if d_sel > 0 { -d_sel - 2 } else { -d_sel + 2 };
        if d_sel == -15 && square(n)? {
            return Ok(false);
        }
        steps += 1;
        // Only a perfect square keeps the symbol at +1 this long.
        if steps > 100_000 && is_square(n) {
            return Err(Stop::Hang);
        }
    }
    let d_big = BigInt::from(d_sel);
    let q = BigInt::from((1 - d_sel) / 4);
    let np1: BigInt = n + 1u32;
    let s = np1.trailing_zeros().unwrap_or(0);
    let d = &np1 >> s;

    // U_d, V_d by the binary method (P = 1), halving mod n by adding n to odd values.
    let half = |x: BigInt| -> BigInt {
        let x = x.mod_floor(n);
        if x.is_odd() { (x + n) >> 1 } else { x >> 1 }
    };
    let q_mod = q.mod_floor(n);
    let (mut u, mut v, mut qk) = (BigInt::one(), BigInt::one(), q_mod.clone());
    let bits = d.to_str_radix(2);
    for bit in bits.chars().skip(1) {
        u = (&u * &v) % n;
        v = (&v * &v - &qk * 2u32).mod_floor(n);
        qk = (&qk * &qk) % n;
        if bit == '1' {
            let (u2, v2) = (half(&u + &v), half(&d_big * &u + &v));
            u = u2;
            v = v2;
            qk = (&qk * &q_mod) % n;
        }
    }
    if u.is_zero() || v.is_zero() {
        return Ok(true);
    }
    let mut qd = q_mod.modpow(&d, n);
    for _ in 1..s {
        v = (&v * &v - &qd * 2u32).mod_floor(n);
        qd = (&qd * &qd) % n;
        if v.is_zero() {
            return Ok(true);
        }
    }
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn big(s: &str) -> BigInt {
        s.parse().unwrap()
    }

    #[test]
    fn known_primes_and_pseudoprimes() {
        let small: Vec<u64> = (0..2000)
            .filter(|&n| is_prime(&BigInt::from(n), Mode::Faithful).unwrap())
            .collect();
        let sieve: Vec<u64> = (0..2000u64)
            .filter(|&n| n > 1 && (2..n).take_while(|d| d * d <= n).all(|d| n % d != 0))
            .collect();
        assert_eq!(small, sieve);
        // Strong base-2 pseudoprimes: MR says yes, Lucas no.
        for n in [2047u64, 3277, 4033, 4681, 8321, 1_194_649, 12_327_121] {
            assert!(strong_mr2(&BigInt::from(n)), "{n}");
            assert!(!is_prime(&BigInt::from(n), Mode::Faithful).unwrap(), "{n}");
        }
        // Strong Lucas pseudoprimes: Lucas says yes, MR no.
        for n in [5459u64, 5777, 10877, 16109, 18971] {
            assert_eq!(
                strong_lucas(&BigInt::from(n), Mode::Faithful),
                Ok(true),
                "{n}"
            );
            assert!(!strong_mr2(&BigInt::from(n)), "{n}");
        }
        assert!(
            is_prime(
                &big("888999996969699696669666333377777711111171"),
                Mode::Faithful
            )
            .unwrap()
        );
        assert!(
            !is_prime(
                &big("888999996969699696669666333377777711111173"),
                Mode::Faithful
            )
            .unwrap()
        );
        // 2^127 - 1 and 2^89 - 1 are prime; their product is not.
        let m127 = (BigInt::one() << 127) - 1;
        let m89 = (BigInt::one() << 89) - 1;
        assert!(is_prime(&m127, Mode::Faithful).unwrap());
        assert!(!is_prime(&(&m127 * &m89), Mode::Faithful).unwrap());
    }

    #[test]
    fn jacobi_symbols() {
        assert_eq!(jacobi(&BigInt::from(5), &BigInt::from(53)), -1);
        assert_eq!(jacobi(&BigInt::from(-7), &BigInt::from(53)), 1);
        assert_eq!(jacobi(&BigInt::from(9), &BigInt::from(15)), 0);
        assert_eq!(jacobi(&BigInt::from(2), &BigInt::from(7)), 1);
    }

    #[test]
    fn too_large_for_a_float() {
        // 2^1279 - 1 is prime: it passes Miller–Rabin, then n ** 0.5 overflows.
        let m1279 = (BigInt::one() << 1279) - 1;
        assert!(matches!(
            is_prime(&m1279, Mode::Faithful),
            Err(Stop::Raise(_))
        ));
        assert_eq!(is_prime(&m1279, Mode::Corrected), Ok(true));
    }
}
