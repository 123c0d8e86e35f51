//! CPython's float semantics where the verifier depends on them bit for bit:
//! `round(x, n)`, `math.isclose`, `float(int)` and `json.dumps`.

use num_bigint::BigUint;
use num_traits::Zero;
use verigate_sdk::python::{Value, coerce};

/// `x` as `mantissa · 2^exponent` (finite, non-zero `x`; sign dropped).
fn decompose(x: f64) -> (u64, i32) {
    let bits = x.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    if exp == 0 {
        (frac, -1074)
    } else {
        (frac | (1u64 << 52), exp - 1075)
    }
}

/// CPython's `round(x, n)` for a float: the exact binary value rounded half to
/// even at `n` decimals (`round(0.125, 2) == 0.12`, `round(0.005, 2) == 0.01`
/// because the double 0.005 lies above the tie), read back as the nearest double.
pub fn round(x: f64, n: u32) -> f64 {
    if !x.is_finite() || x == 0.0 || n > 323 {
        return x;
    }
    let (mant, exp) = decompose(x);
    let scaled = BigUint::from(mant) * BigUint::from(10u32).pow(n);
    let q = if exp >= 0 {
        scaled << exp as usize
    } else {
        let k = (-exp) as usize;
        let q = &scaled >> k;
        let rem = &scaled - (&q << k);
        let half = BigUint::from(1u32) << (k - 1);
        if rem > half || (rem == half && q.bit(0)) {
            q + 1u32
        } else {
            q
        }
    };
    if q.is_zero() {
        return 0.0f64.copysign(x);
    }
    let value: f64 = format!("{q}e-{n}").parse().unwrap_or(f64::NAN);
    value.copysign(x)
}

/// `math.isclose(a, b, rel_tol=1e-9, abs_tol=abs_tol)` as CPython computes it.
pub fn isclose(a: f64, b: f64, abs_tol: f64) -> bool {
    const REL_TOL: f64 = 1e-9;
    if a == b {
        return true;
    }
    if a.is_infinite() || b.is_infinite() {
        return false;
    }
    let diff = (b - a).abs();
    diff <= (REL_TOL * b).abs() || diff <= (REL_TOL * a).abs() || diff <= abs_tol
}

/// `float(v)` for a value that `isinstance(v, (int, float))` accepts (bools
/// included); `Err` where CPython raises.
pub fn number(v: &Value) -> Option<Result<f64, String>> {
    let f = coerce::real(v)?;
    if f.is_infinite() && v.as_bigint().is_some() {
        let big = if f < 0.0 { "-10**309…" } else { "10**309…" };
        return Some(Err(format!("float({big}) overflows")));
    }
    Some(Ok(f))
}

/// `0.5 * 10 ** (-d)`: `10 ** -d` is the nearest double to 10^-d (CPython's
/// `pow`, checked for d = 0..=12), and halving is exact.
pub fn tolerance(decimals: u32) -> f64 {
    let p: f64 = format!("1e-{decimals}").parse().unwrap_or(0.0);
    0.5 * p
}

/// `json.dumps(v)` with the default options (`", "`/`": "` separators,
/// `ensure_ascii`, `allow_nan`); `Err` with CPython's `TypeError` text for
/// values JSON cannot hold.
pub fn json_dumps(v: &Value) -> Result<String, String> {
    let mut out = String::new();
    dump(v, &mut out)?;
    Ok(out)
}

fn dump(v: &Value, out: &mut String) -> Result<(), String> {
    if v.is_none() {
        out.push_str("null");
    } else if let Some(b) = v.as_bool() {
        out.push_str(if b { "true" } else { "false" });
    } else if let Some(f) = v.as_f64() {
        out.push_str(&float_json(f));
    } else if let Some(i) = v.as_bigint() {
        out.push_str(&i.to_string());
    } else if let Some(s) = v.as_str() {
        json_string(s, out);
    } else if let Some(items) = v.as_sequence() {
        out.push('[');
        for (n, item) in items.iter().enumerate() {
            if n > 0 {
                out.push_str(", ");
            }
            dump(item, out)?;
        }
        out.push(']');
    } else if let Some(d) = v.as_dict() {
        out.push('{');
        for (n, (k, item)) in d.iter().enumerate() {
            if n > 0 {
                out.push_str(", ");
            }
            let key = if let Some(s) = k.as_str() {
                s.to_owned()
            } else if k.is_none() {
                "null".to_owned()
            } else if let Some(b) = k.as_bool() {
                (if b { "true" } else { "false" }).to_owned()
            } else if let Some(f) = k.as_f64() {
                float_json(f)
            } else if let Some(i) = k.as_bigint() {
                i.to_string()
            } else {
                return Err(format!(
                    "keys must be str, int, float, bool or None, not {}",
                    k.type_name()
                ));
            };
            json_string(&key, out);
            out.push_str(": ");
            dump(item, out)?;
        }
        out.push('}');
    } else {
        return Err(format!(
            "Object of type {} is not JSON serializable",
            v.type_name()
        ));
    }
    Ok(())
}

fn float_json(f: f64) -> String {
    if f.is_nan() {
        "NaN".to_owned()
    } else if f.is_infinite() {
        (if f > 0.0 { "Infinity" } else { "-Infinity" }).to_owned()
    } else {
        Value::from(f).to_string()
    }
}

fn json_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            ' '..='~' => out.push(c),
            _ => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_is_cpython_round() {
        assert_eq!(round(0.125, 2), 0.12);
        assert_eq!(round(0.375, 2), 0.38);
        assert_eq!(round(0.005, 2), 0.01);
        assert_eq!(round(0.015, 2), 0.01);
        assert_eq!(round(2.675, 2), 2.67);
        assert_eq!(round(1.0005, 3), 1.0);
        assert_eq!(round(0.30000000000000004, 3), 0.3);
        assert!(round(-0.0004, 3).is_sign_negative());
        assert_eq!(round(-0.0006, 3), -0.001);
        assert_eq!(round(123.456, 0), 123.0);
        assert_eq!(round(1e300, 3), 1e300);
        assert_eq!(round(5e-324, 4), 0.0);
    }

    #[test]
    fn isclose_and_tolerance() {
        assert_eq!(tolerance(3), 0.0005);
        assert_eq!(tolerance(4), 0.00005);
        assert!(isclose(1.0005, 1.0, tolerance(3)));
        assert!(!isclose(1.0006, 1.0, tolerance(3)));
        assert!(isclose(1e12, 1e12 + 1.0, 0.0)); // rel_tol 1e-9
        assert!(!isclose(f64::INFINITY, 1.0, 1e300));
        assert!(!isclose(f64::NAN, f64::NAN, 1.0));
    }

    #[test]
    fn json_dumps_like_python() {
        let v = verigate_sdk::python::eval("[(0, 1.5), [True, None], {'a': 1e-05, 2: 'é\\n'}]")
            .unwrap();
        assert_eq!(
            json_dumps(&v).unwrap(),
            "[[0, 1.5], [true, null], {\"a\": 1e-05, \"2\": \"\\u00e9\\n\"}]"
        );
        let v = verigate_sdk::python::eval("[{1, 2}]").unwrap();
        assert_eq!(
            json_dumps(&v).unwrap_err(),
            "Object of type set is not JSON serializable"
        );
        let huge = verigate_sdk::python::eval("[10 ** 400, -10 ** 400, 2 ** 64, True]").unwrap();
        let got: Vec<_> = huge.as_list().unwrap().iter().map(number).collect();
        assert_eq!(
            got,
            [
                Some(Err("float(10**309…) overflows".to_owned())),
                Some(Err("float(-10**309…) overflows".to_owned())),
                Some(Ok(18446744073709551616.0)),
                Some(Ok(1.0)),
            ]
        );
    }
}
