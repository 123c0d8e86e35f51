//! Python's text forms of the numbers the original's messages print.

use verigate_sdk::python::Value;

/// `f"{x:.{prec}f}"`: Rust's fixed formatting rounds the exact binary value
/// half to even, as Python does; only NaN is spelt differently.
pub fn fixed(x: f64, prec: usize) -> String {
    if x.is_nan() {
        "nan".to_owned()
    } else {
        format!("{x:.prec$}")
    }
}

/// `repr(x)` of a float (`1.0`, `0.1`, `1e-05`, `inf`).
pub fn repr(x: f64) -> String {
    Value::from(x).to_string()
}

/// `repr((x, y))` of a point.
pub fn point(p: (f64, f64)) -> String {
    format!("({}, {})", repr(p.0), repr(p.1))
}

/// A preset parameter as Python prints it: an `int` or a `float`.
#[derive(Clone, Copy, Debug, serde::Deserialize)]
#[serde(untagged)]
pub enum Num {
    Int(i64),
    Float(f64),
}

impl Num {
    pub fn f(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(x) => x,
        }
    }
}

impl std::fmt::Display for Num {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Num::Int(i) => write!(f, "{i}"),
            Num::Float(x) => f.write_str(&repr(x)),
        }
    }
}

/// `repr(sorted(names))` of a list of short ASCII strings.
pub fn str_list(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("'{n}'")).collect();
    format!("[{}]", quoted.join(", "))
}

/// `repr(pairs)` of the crossing pairs, a list of int tuples; past `limit`
/// characters the rest is left out (messages are cut shorter than that anyway).
pub fn pairs(pairs: &[(usize, usize)], limit: usize) -> String {
    let mut out = String::from("[");
    for (k, (i, j)) in pairs.iter().enumerate() {
        if out.len() > limit {
            out.push('…');
            return out;
        }
        if k > 0 {
            out.push_str(", ");
        }
        out.push_str(&format!("({i}, {j})"));
    }
    out.push(']');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_spellings() {
        assert_eq!(fixed(0.25, 1), "0.2");
        assert_eq!(fixed(0.125, 2), "0.12");
        assert_eq!(fixed(-0.0, 2), "-0.00");
        assert_eq!(fixed(f64::NAN, 3), "nan");
        assert_eq!(fixed(f64::NEG_INFINITY, 4), "-inf");
        assert_eq!(repr(1.0), "1.0");
        assert_eq!(repr(1e-5), "1e-05");
        assert_eq!(repr(1e16), "1e+16");
        assert_eq!(point((0.5, -0.0)), "(0.5, -0.0)");
        assert_eq!(Num::Float(0.25).to_string(), "0.25");
        assert_eq!(Num::Int(45).to_string(), "45");
        assert_eq!(str_list(&["bottom", "left"]), "['bottom', 'left']");
        assert_eq!(pairs(&[(0, 5), (2, 7)], 100), "[(0, 5), (2, 7)]");
        assert_eq!(pairs(&[(0, 5), (2, 7)], 3), "[(0, 5)…");
    }
}
