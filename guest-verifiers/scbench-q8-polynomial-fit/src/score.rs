//! The final score, `(matched / N²) ** 4`, exactly as CPython computes it.
//!
//! CPython's `float ** int` calls the C library's `pow`; glibc's is correctly rounded
//! except in rare near-halfway cases, and the `pow` linked into a wasm guest differs from
//! glibc's in a few others. So the verifier computes the correctly rounded fourth power
//! exactly (big integers), and the instance lists the matched counts for which CPython
//! (x86-64 Linux, glibc) gives the other neighbour (the generator finds them by comparing
//! the two for every count that scores, i.e. matched ≥ 0.75 N²).

use num_bigint::BigUint;

/// `m⁴` correctly rounded to the nearest double (ties to even), for a normal positive `m`.
pub fn fourth_power(m: f64) -> f64 {
    if !(m.is_normal() && m > 0.0) {
        return m.powi(4);
    }
    let bits = m.to_bits();
    let mantissa = (bits & ((1 << 52) - 1)) | (1 << 52);
    let exponent = ((bits >> 52) & 0x7ff) as i64 - 1075; // m = mantissa · 2^exponent
    let p = BigUint::from(mantissa).pow(4u32);
    let shift = p.bits() - 53;
    let mut q = u64::try_from(&p >> shift).expect("53 bits");
    let rem = &p - (BigUint::from(q) << shift);
    let half = BigUint::from(1u8) << (shift - 1);
    if rem > half || (rem == half && q & 1 == 1) {
        q += 1; // 2^53 at most: still exact
    }
    let scale = 4 * exponent + shift as i64; // |scale| ≪ 1022 for m near 1
    q as f64 * f64::from_bits(((scale + 1023) as u64) << 52)
}

/// CPython's `(matched / cells) ** 4`, given the instance's exceptions.
pub fn score(matched: usize, cells: usize, exceptions: &[(usize, f64)]) -> f64 {
    exceptions
        .iter()
        .find(|(k, _)| *k == matched)
        .map_or_else(|| fourth_power(matched as f64 / cells as f64), |(_, s)| *s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fourth_powers_are_correctly_rounded() {
        assert_eq!(fourth_power(1.0), 1.0);
        assert_eq!(fourth_power(0.75), 0.31640625);
        // CPython: (1848/2304)**4 (the digest's verified Q8 subpass 4 score).
        assert_eq!(fourth_power(1848.0 / 2304.0), 0.4138833622873566);
        // Near-halfway: the exact value rounds to …515, glibc's pow gives …52.
        assert_eq!(fourth_power(7679.0 / 9216.0), 0.48200196199030515);
        assert_eq!(
            score(7679, 9216, &[(7679, 0.4820019619903052)]),
            0.4820019619903052
        );
        assert_eq!(
            score(7680, 9216, &[(7679, 0.4820019619903052)]),
            fourth_power(7680.0 / 9216.0)
        );
    }
}
