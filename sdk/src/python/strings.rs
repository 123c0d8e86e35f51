//! CPython 3.11's `str` predicates and `str` → number conversions, on any Unicode text.
//!
//! The SCBench graders are Python; a port that writes `c.is_ascii_digit()` or
//! `s.trim().parse::<i64>()` where the original wrote `c.isdigit()` or `int(s)` refuses answers
//! the original accepts (`'５'.isdigit()`, `int('١٢')`, `float(' 1_000\u3000')`), and
//! Rust's own Unicode predicates are not Python's either: `char::to_digit` is ASCII-only,
//! `char::is_numeric` is broader than `str.isdigit`, `char::is_whitespace` lacks the
//! separators U+001C..U+001F that `str.isspace` counts. These functions are CPython's rules:
//!
//! | Python | here | accepts |
//! |---|---|---|
//! | `s.isdecimal()` | [`isdecimal`] | general category Nd (`'٣'`, `'５'`) |
//! | `s.isdigit()` | [`isdigit`] | Nd and Numeric_Type Digit (`'²'`, `'①'`) |
//! | `s.isnumeric()` | [`isnumeric`] | also Numeric_Type Numeric (`'½'`, `'Ⅻ'`, `'七'`) |
//! | `s.isspace()` | [`isspace`] | [`is_py_space`] |
//! | `s.strip()` | [`strip`] | |
//! | `s.split()` | [`split_whitespace`] | |
//! | `int(s)`, `int(s, base)` | [`int`], [`int_with_base`] | |
//! | `float(s)` | [`float`] | |
//!
//! The digit tables (`unicode_tables.rs`) are written by `unicode_tables.py` with CPython
//! itself, one code point at a time (unicodedata [`UNIDATA_VERSION`], CPython 3.11's), and
//! `sdk/tests/python_strings.rs` checks every function here against CPython's answers on
//! thousands of generated strings.
//!
//! How CPython's `int(str)` and `float(str)` read text, which these follow exactly: a string
//! that is not pure ASCII is first rewritten character by character — white space
//! ([`is_py_space`]) at or above U+007F becomes `' '`, a decimal digit
//! (Nd) becomes its ASCII digit, any other non-ASCII character ends the text as invalid —
//! and the ASCII result is then parsed, stripping only the ASCII white space
//! `" \t\n\x0b\x0c\r"`. So `int('\u3000١٢ ')` is 12 but `int('\x1c12')` raises, though
//! `'\x1c'.isspace()`.
//!
//! `str.lower()`/`str.upper()` need no helper for what the ports do with them (compare with
//! ASCII words, split on white space, read numbers): Rust's `to_lowercase` has the same full
//! mappings and final-sigma rule, and where its newer Unicode version differs the characters
//! involved are non-ASCII letters, which never become digits, white space or ASCII.

use super::unicode_tables::{DECIMAL, DIGIT, NUMERIC};
use crate::is_py_space;
use num_bigint::BigInt;

/// The version of the Unicode database the tables come from (`unicodedata.unidata_version`
/// of the CPython that wrote them).
pub const UNIDATA_VERSION: &str = super::unicode_tables::UNIDATA_VERSION;

/// CPython's limit on the decimal digits `int(str)` converts (`sys.get_int_max_str_digits()`).
pub const MAX_STR_DIGITS: usize = super::num::MAX_STR_DIGITS;

fn lookup(table: &[(u32, u32, u8)], c: char) -> Option<u32> {
    let cp = c as u32;
    let i = table.partition_point(|&(_, last, _)| last < cp);
    match table.get(i) {
        Some(&(first, _, v)) if first <= cp => Some(u32::from(v) + (cp - first)),
        _ => None,
    }
}

/// `unicodedata.decimal(c)`: the value of a decimal digit (general category Nd), else `None`.
///
/// ```
/// use verigate_sdk::python::strings::decimal;
/// assert_eq!((decimal('7'), decimal('٣'), decimal('５'), decimal('²')), (Some(7), Some(3), Some(5), None));
/// ```
pub fn decimal(c: char) -> Option<u32> {
    if c.is_ascii() {
        return c.to_digit(10);
    }
    lookup(DECIMAL, c)
}

/// `unicodedata.digit(c)`: the value of a digit (Numeric_Type Decimal or Digit), else `None`.
///
/// ```
/// use verigate_sdk::python::strings::digit;
/// assert_eq!((digit('²'), digit('①'), digit('½')), (Some(2), Some(1), None));
/// ```
pub fn digit(c: char) -> Option<u32> {
    if c.is_ascii() {
        return c.to_digit(10);
    }
    lookup(DIGIT, c)
}

/// Whether `c` has a numeric value (`unicodedata.numeric(c)` does not raise).
pub fn is_numeric_char(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_digit();
    }
    let cp = c as u32;
    let i = NUMERIC.partition_point(|&(_, last)| last < cp);
    NUMERIC.get(i).is_some_and(|&(first, _)| first <= cp)
}

fn all_nonempty(s: &str, f: impl Fn(char) -> bool) -> bool {
    !s.is_empty() && s.chars().all(f)
}

/// `s.isdecimal()`.
///
/// ```
/// use verigate_sdk::python::strings::isdecimal;
/// assert!(isdecimal("١٢３") && !isdecimal("²") && !isdecimal(""));
/// ```
pub fn isdecimal(s: &str) -> bool {
    all_nonempty(s, |c| decimal(c).is_some())
}

/// `s.isdigit()`.
///
/// ```
/// use verigate_sdk::python::strings::isdigit;
/// assert!(isdigit("１２") && isdigit("²") && !isdigit("½") && !isdigit("1.5"));
/// ```
pub fn isdigit(s: &str) -> bool {
    all_nonempty(s, |c| digit(c).is_some())
}

/// `s.isnumeric()`.
///
/// ```
/// use verigate_sdk::python::strings::isnumeric;
/// assert!(isnumeric("½Ⅻ七") && !isnumeric("-1"));
/// ```
pub fn isnumeric(s: &str) -> bool {
    all_nonempty(s, is_numeric_char)
}

/// `s.isspace()`.
///
/// ```
/// use verigate_sdk::python::strings::isspace;
/// assert!(isspace("\x1c\u{85}\u{3000}") && !isspace("") && !isspace("\u{200b}"));
/// ```
pub fn isspace(s: &str) -> bool {
    all_nonempty(s, is_py_space)
}

/// `s.strip()` (the contract's [`py_strip`](crate::py_strip)).
pub use crate::py_strip as strip;

/// `s.split()`: the words between runs of white space ([`is_py_space`]).
///
/// ```
/// use verigate_sdk::python::strings::split_whitespace;
/// let words: Vec<&str> = split_whitespace("\x1c 1.5\u{a0}2\u{85}x ").collect();
/// assert_eq!(words, ["1.5", "2", "x"]);
/// ```
pub fn split_whitespace(s: &str) -> impl Iterator<Item = &str> {
    s.split(is_py_space).filter(|w| !w.is_empty())
}

/// What CPython's `int(str)` and `float(str)` parse: the text with non-ASCII white space as
/// `' '` and non-ASCII decimal digits as ASCII ones; `None` where a non-ASCII character is
/// neither (CPython's `_PyUnicode_TransformDecimalAndSpaceToASCII`, whose `'?'` then fails
/// the parse).
fn ascii_number_text(s: &str) -> Option<std::borrow::Cow<'_, str>> {
    if s.is_ascii() {
        return Some(std::borrow::Cow::Borrowed(s));
    }
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if (c as u32) < 0x7f {
            out.push(c);
        } else if is_py_space(c) {
            out.push(' ');
        } else {
            let d = lookup(DECIMAL, c)?;
            out.push(char::from(b'0' + d as u8));
        }
    }
    Some(std::borrow::Cow::Owned(out))
}

/// C's `isspace` in the "C" locale, CPython's `Py_ISSPACE`.
fn is_c_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r')
}

/// The digits of `int(s, base)` with the sign, underscores removed, ASCII, lower case, and the
/// radix used; `None` where CPython raises ValueError (the digit-count limit aside).
pub(crate) fn int_parts(s: &str, base: u32) -> Option<(bool, String, u32)> {
    if base == 1 || base > 36 {
        return None;
    }
    let text = ascii_number_text(s)?;
    let t = text.trim_matches(is_c_space);
    let (neg, body) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let lower = body.to_ascii_lowercase();
    let prefix_base = match lower.get(..2) {
        Some("0x") => Some(16),
        Some("0o") => Some(8),
        Some("0b") => Some(2),
        _ => None,
    };
    let (radix, digits, prefixed) = match (base, prefix_base) {
        (0, Some(p)) => (p, &lower[2..], true),
        (0, None) => (10, &lower[..], false),
        (b, Some(p)) if b == p => (b, &lower[2..], true),
        (b, _) => (b, &lower[..], false),
    };
    // Digits with single underscores between them (or right after a prefix).
    let mut clean = String::with_capacity(digits.len());
    let mut prev_digit = prefixed;
    for c in digits.chars() {
        if c == '_' {
            if !prev_digit {
                return None;
            }
            prev_digit = false;
        } else if c.is_digit(radix) {
            clean.push(c);
            prev_digit = true;
        } else {
            return None;
        }
    }
    if clean.is_empty() || !prev_digit {
        return None;
    }
    if base == 0 && radix == 10 && clean.starts_with('0') && clean.bytes().any(|b| b != b'0') {
        return None;
    }
    Some((neg, clean, radix))
}

/// `int(s, base)` for `base` 0 or 2..=36; `None` where CPython raises ValueError, including
/// past [`MAX_STR_DIGITS`] digits in a base that is not a power of two.
///
/// ```
/// use verigate_sdk::python::strings::int_with_base;
/// use verigate_sdk::python::BigInt;
/// assert_eq!(int_with_base("0x_1F", 0), Some(BigInt::from(31)));
/// assert_eq!(int_with_base("१२", 16), Some(BigInt::from(18)));
/// assert_eq!(int_with_base("010", 0), None);
/// ```
pub fn int_with_base(s: &str, base: u32) -> Option<BigInt> {
    let (neg, digits, radix) = int_parts(s, base)?;
    if !radix.is_power_of_two() && digits.len() > MAX_STR_DIGITS {
        return None;
    }
    let n = BigInt::parse_bytes(digits.as_bytes(), radix)?;
    Some(if neg { -n } else { n })
}

/// `int(s)`; `None` where CPython raises ValueError.
///
/// ```
/// use verigate_sdk::python::strings::int;
/// use verigate_sdk::python::BigInt;
/// assert_eq!(int(" -１_２\u{3000}"), Some(BigInt::from(-12)));
/// assert_eq!(int("٣"), Some(BigInt::from(3)));
/// assert_eq!((int("²"), int("1__0"), int("\x1c1"), int("1.0")), (None, None, None, None));
/// ```
pub fn int(s: &str) -> Option<BigInt> {
    int_with_base(s, 10)
}

/// `float(s)`; `None` where CPython raises ValueError.
///
/// ```
/// use verigate_sdk::python::strings::float;
/// assert_eq!(float(" １.５e１\u{a0}"), Some(15.0));
/// assert_eq!(float("1_000.000_1"), Some(1000.0001));
/// assert_eq!(float("-Infinity"), Some(f64::NEG_INFINITY));
/// assert!(float("nan").is_some_and(f64::is_nan));
/// assert_eq!((float("1_e5"), float("0x10"), float("٣٫٥"), float("\x1c1")), (None, None, None, None));
/// ```
pub fn float(s: &str) -> Option<f64> {
    let text = ascii_number_text(s)?;
    // `_Py_string_to_number_with_underscores`, over the whole text: an underscore only
    // between two digits.
    let b = text.as_bytes();
    let body = if b.contains(&b'_') {
        for (i, &c) in b.iter().enumerate() {
            if c == b'_' {
                let before = i > 0 && b[i - 1].is_ascii_digit();
                let after = b.get(i + 1).is_some_and(u8::is_ascii_digit);
                if !before || !after {
                    return None;
                }
            }
        }
        std::borrow::Cow::Owned(text.replace('_', ""))
    } else {
        text
    };
    let t = body.trim_matches(is_c_space);
    let (neg, rest) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let f = match rest.to_ascii_lowercase().as_str() {
        "inf" | "infinity" => f64::INFINITY,
        "nan" => f64::NAN,
        _ => {
            // digits [. digits] | . digits, then an optional exponent (`_Py_dg_strtod`).
            let r = rest.as_bytes();
            let mut i = 0;
            let digits = |i: &mut usize| {
                let start = *i;
                while *i < r.len() && r[*i].is_ascii_digit() {
                    *i += 1;
                }
                *i - start
            };
            let int_digits = digits(&mut i);
            let mut frac_digits = 0;
            if r.get(i) == Some(&b'.') {
                i += 1;
                frac_digits = digits(&mut i);
            }
            if int_digits + frac_digits == 0 {
                return None;
            }
            if matches!(r.get(i), Some(b'e' | b'E')) {
                i += 1;
                if matches!(r.get(i), Some(b'+' | b'-')) {
                    i += 1;
                }
                if digits(&mut i) == 0 {
                    return None;
                }
            }
            if i != r.len() {
                return None;
            }
            rest.parse::<f64>().ok()?
        }
    };
    Some(if neg { -f } else { f })
}
