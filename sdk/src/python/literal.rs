//! Python literals as `ast.literal_eval` reads them, and VisGeomBench's
//! `PythonLiteralParser.parse_answer` (`evaluation/answer_parser.py`), which
//! SCBench's VisGeomBench tasks use to take a literal out of free text.
//!
//! [`literal_eval`] is the evaluator of this module's parent behind a token
//! check that refuses what `ast.literal_eval` refuses: names other than
//! `True`/`False`/`None`, calls, subscripts, attributes, operators other than
//! a sign directly before a number, comprehensions, lambdas, f-strings, and
//! decimal int literals over CPython's 4300-digit limit. Known gaps: complex
//! numbers, bytes, `...`, `set()` and a sign before a parenthesised number are
//! refused here although `ast.literal_eval` accepts them.
//!
//! ```
//! use verigate_sdk::python::literal::{parse_answer, literal_eval, Literal};
//! assert_eq!(parse_answer("Answer:\n```python\n[1, 2]\n```").unwrap().as_deref(), Some("[1, 2]"));
//! assert_eq!(parse_answer("labels: 0101, 1").unwrap().as_deref(), Some("['0101', 1]"));
//! assert!(matches!(literal_eval("len([1])"), Literal::Invalid));
//! assert!(matches!(literal_eval("{[1]: 2}"), Literal::Raises(_)));
//! ```

use super::value::{V, py_hash};
use super::{Dict, ErrorKind, Value, eval};
use crate::{py_splitlines, py_strip};
use std::rc::Rc;

/// The outcome of `ast.literal_eval(text)`.
pub enum Literal {
    /// The literal's value.
    Value(Value),
    /// `ValueError`/`SyntaxError` (what the parser and verifier catch).
    Invalid,
    /// Another exception (an unhashable dict key or set item: `TypeError`),
    /// which nothing in the original catches.
    Raises(String),
}

#[derive(Clone, Copy, PartialEq)]
enum Tok {
    Start,
    Open,
    Sep,
    Sign,
    Value,
}

/// Whether the source has only literal tokens (the token rules above).
fn literal_tokens(src: &str) -> bool {
    let s: Vec<char> = src.chars().collect();
    let mut i = 0;
    let mut prev = Tok::Start;
    while i < s.len() {
        let c = s[i];
        if c == '\\' && s.get(i + 1) == Some(&'\n') {
            i += 2;
            continue;
        }
        if c == '\\' && s.get(i + 1) == Some(&'\r') {
            i += if s.get(i + 2) == Some(&'\n') { 3 } else { 2 };
            continue;
        }
        if matches!(c, ' ' | '\t' | '\u{c}' | '\n' | '\r') {
            i += 1;
            continue;
        }
        if c == '#' {
            while i < s.len() && s[i] != '\n' && s[i] != '\r' {
                i += 1;
            }
            continue;
        }
        // String literal, with an optional prefix.
        let mut j = i;
        while j < s.len() && j - i < 2 && "rRbBuUfF".contains(s[j]) {
            j += 1;
        }
        if j < s.len() && (s[j] == '\'' || s[j] == '"') {
            let prefix: String = s[i..j].iter().collect();
            if prefix.to_ascii_lowercase().contains('f') {
                return false;
            }
            if prev == Tok::Sign {
                return false;
            }
            let q = s[j];
            let triple = s.get(j + 1) == Some(&q) && s.get(j + 2) == Some(&q);
            let mut k = if triple { j + 3 } else { j + 1 };
            loop {
                if k >= s.len() {
                    return false;
                }
                if s[k] == '\\' {
                    k += 2;
                    continue;
                }
                if s[k] == q && (!triple || (s.get(k + 1) == Some(&q) && s.get(k + 2) == Some(&q)))
                {
                    k += if triple { 3 } else { 1 };
                    break;
                }
                if !triple && (s[k] == '\n' || s[k] == '\r') {
                    return false;
                }
                k += 1;
            }
            i = k;
            prev = Tok::Value;
            continue;
        }
        // Number.
        if c.is_ascii_digit() || (c == '.' && s.get(i + 1).is_some_and(|d| d.is_ascii_digit())) {
            if prev == Tok::Value {
                return false;
            }
            let start = i;
            let radix = c == '0' && s.get(i + 1).is_some_and(|d| "xXoObB".contains(*d));
            while i < s.len() {
                let d = s[i];
                let exponent_sign = (d == '+' || d == '-')
                    && !radix
                    && matches!(s[i - 1], 'e' | 'E')
                    && s.get(i + 1).is_some_and(|n| n.is_ascii_digit());
                if d.is_ascii_alphanumeric() || d == '_' || d == '.' || exponent_sign {
                    i += 1;
                } else {
                    break;
                }
            }
            let text: String = s[start..i].iter().collect();
            if text.contains(['j', 'J']) {
                return false;
            }
            let is_decimal_int = !radix && text.chars().all(|d| d.is_ascii_digit() || d == '_');
            if is_decimal_int && text.chars().filter(char::is_ascii_digit).count() > 4300 {
                return false;
            }
            prev = Tok::Value;
            continue;
        }
        if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < s.len() && (s[i].is_alphanumeric() || s[i] == '_') {
                i += 1;
            }
            let name: String = s[start..i].iter().collect();
            if !matches!(name.as_str(), "True" | "False" | "None") || prev == Tok::Sign {
                return false;
            }
            if prev == Tok::Value {
                return false;
            }
            prev = Tok::Value;
            continue;
        }
        match c {
            '(' | '[' | '{' => {
                if prev == Tok::Value || prev == Tok::Sign {
                    return false;
                }
                prev = Tok::Open;
            }
            ')' | ']' | '}' => {
                if prev == Tok::Sign {
                    return false;
                }
                prev = Tok::Value;
            }
            ',' | ':' => {
                if prev == Tok::Sign {
                    return false;
                }
                prev = Tok::Sep;
            }
            '+' | '-' => {
                if !matches!(prev, Tok::Start | Tok::Open | Tok::Sep) {
                    return false;
                }
                // Only a number may follow (checked when the next token comes).
                let mut k = i + 1;
                while k < s.len() && matches!(s[k], ' ' | '\t') {
                    k += 1;
                }
                let number_next = s.get(k).is_some_and(|d| {
                    d.is_ascii_digit()
                        || (*d == '.' && s.get(k + 1).is_some_and(|e| e.is_ascii_digit()))
                });
                if !number_next {
                    return false;
                }
                prev = Tok::Sign;
            }
            _ => return false,
        }
        i += 1;
    }
    prev != Tok::Sign
}

/// `ast.literal_eval(text)` (which first strips leading spaces and tabs).
pub fn literal_eval(text: &str) -> Literal {
    let src = text.trim_start_matches([' ', '\t']);
    if !literal_tokens(src) {
        return Literal::Invalid;
    }
    match eval(src) {
        Ok(v) => Literal::Value(v),
        Err(e) if e.kind() == ErrorKind::Type => {
            Literal::Raises(format!("TypeError: {}", e.message()))
        }
        Err(_) => Literal::Invalid,
    }
}

/// `_is_valid_literal`: `Err` where `ast.literal_eval` raises something it
/// does not catch.
fn valid(text: &str) -> Result<bool, String> {
    match literal_eval(text) {
        Literal::Value(_) => Ok(true),
        Literal::Invalid => Ok(false),
        Literal::Raises(why) => Err(why),
    }
}

/// The last match of ```` ```(?:[^\n`]*\n)?(.*?)``` ```` (DOTALL), stripped.
fn code_fence(text: &str) -> Option<&str> {
    let b = text.as_bytes();
    let mut last = None;
    let mut i = 0;
    while i + 3 <= b.len() {
        if &b[i..i + 3] != b"```" {
            i += 1;
            continue;
        }
        let j = i + 3;
        let find = |from: usize| text[from..].find("```").map(|m| m + from);
        let k = b[j..]
            .iter()
            .position(|&c| c == b'\n' || c == b'`')
            .map(|p| p + j);
        let matched = match k {
            Some(k) if b[k] == b'\n' => find(k + 1).map(|m| (k + 1, m)),
            _ => find(j).map(|m| (j, m)),
        };
        match matched {
            Some((from, to)) => {
                last = Some(&text[from..to]);
                i = to + 3;
            }
            None => i += 1,
        }
    }
    last.map(py_strip)
}

/// The last balanced `[...]` or `{...}` (whichever closes last), by bracket
/// counting that ignores strings.
fn backscan(text: &str) -> Option<&str> {
    let (end, close) = text
        .char_indices()
        .rev()
        .find(|(_, c)| *c == ']' || *c == '}')?;
    let open = if close == ']' { '[' } else { '{' };
    let mut depth = 1;
    for (i, c) in text[..end].char_indices().rev() {
        if c == close {
            depth += 1;
        } else if c == open {
            depth -= 1;
            if depth == 0 {
                return Some(&text[i..=end]);
            }
        }
    }
    None
}

/// `_coerce_simple_sequence`: comma/newline separated scalars as a list literal.
fn simple_sequence(text: &str) -> Result<Option<String>, String> {
    if text.contains(['[', ']', '{', '}', '(', ')']) {
        return Ok(None);
    }
    let joined = text.replace('\n', ",");
    let tokens: Vec<&str> = joined
        .split(',')
        .map(py_strip)
        .filter(|t| !t.is_empty())
        .collect();
    if tokens.is_empty() {
        return Ok(None);
    }
    let allowed = |t: &str| {
        t.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | '"' | '\''))
    };
    if !tokens.iter().all(|t| allowed(t)) {
        return Ok(None);
    }
    let mut parts = Vec::with_capacity(tokens.len());
    for t in tokens {
        parts.push(csv_token(t));
    }
    let literal = format!("[{}]", parts.join(", "));
    Ok(valid(&literal)?.then_some(literal))
}

fn csv_token(t: &str) -> String {
    if t == "\"\"" || t == "''" {
        return "\"\"".to_owned();
    }
    let quoted = t.len() >= 2
        && ((t.starts_with('"') && t.ends_with('"')) || (t.starts_with('\'') && t.ends_with('\'')));
    if quoted {
        return t.to_owned();
    }
    let number = match literal_eval(t) {
        Literal::Value(v) => {
            v.as_bool().is_some() || v.as_bigint().is_some() || v.as_f64().is_some()
        }
        _ => false,
    };
    if number {
        let unsigned = t.trim_start_matches(['-', '+']);
        if unsigned.starts_with('0') && unsigned.len() > 1 {
            return Value::from(t).to_string();
        }
        return t.to_owned();
    }
    Value::from(t).to_string()
}

/// `PythonLiteralParser.parse_answer(text)`: the code fence, else the
/// backscanned bracket, else the whole text, else a scalar sequence; each
/// only if it is a valid literal. `Err` where `literal_eval` raises.
pub fn parse_answer(text: &str) -> Result<Option<String>, String> {
    let text: String = text
        .chars()
        .map(|c| match c {
            '\u{2018}' | '\u{2019}' => '\'',
            '\u{201c}' | '\u{201d}' => '"',
            c => c,
        })
        .collect();
    if text.is_empty() {
        return Ok(None);
    }
    if let Some(fence) = code_fence(&text).filter(|f| !f.is_empty())
        && valid(fence)?
    {
        return Ok(Some(py_strip(fence).to_owned()));
    }
    if let Some(found) = backscan(&text)
        && valid(found)?
    {
        return Ok(Some(py_strip(found).to_owned()));
    }
    let stripped = py_strip(&text);
    if valid(stripped)? {
        return Ok(Some(stripped.to_owned()));
    }
    if stripped.is_empty() {
        return Ok(None);
    }
    let mut candidates: Vec<&str> = Vec::new();
    fn add<'a>(candidates: &mut Vec<&'a str>, c: &'a str) {
        let c = py_strip(c);
        if !c.is_empty() && !candidates.contains(&c) {
            candidates.push(c);
        }
    }
    add(&mut candidates, stripped);
    if let Some(last) = py_splitlines(stripped)
        .into_iter()
        .map(py_strip)
        .rfind(|l| !l.is_empty())
    {
        add(&mut candidates, last);
    }
    for sep in ["->", "=>", ":", "="] {
        if let Some(pos) = stripped.rfind(sep) {
            add(&mut candidates, &stripped[pos + sep.len()..]);
        }
    }
    for c in candidates {
        if let Some(literal) = simple_sequence(c)? {
            return Ok(Some(literal));
        }
    }
    Ok(None)
}

/// Why `json.dumps(value, sort_keys=sort_keys)` raises, as Python words it
/// (`TypeError: Object of type set is not JSON serializable`), or `None` when it
/// does not. With `sort_keys`, a dict whose keys are not mutually ordered (a str
/// beside a number, two `None`s cannot occur) raises too.
pub fn json_dumps_error(value: &Value, sort_keys: bool) -> Option<String> {
    match value.type_name() {
        "NoneType" | "bool" | "int" | "float" | "str" => None,
        "list" | "tuple" => value
            .as_sequence()?
            .iter()
            .find_map(|v| json_dumps_error(v, sort_keys)),
        "dict" => {
            let dict = value.as_dict()?;
            let mut classes = Vec::new();
            for key in dict.keys() {
                let class = match key.type_name() {
                    "bool" | "int" | "float" => "number",
                    "str" => "str",
                    "NoneType" => "None",
                    other => {
                        return Some(format!(
                            "TypeError: keys must be str, int, float, bool or None, not {other}"
                        ));
                    }
                };
                if !classes.contains(&class) {
                    classes.push(class);
                }
            }
            if sort_keys && dict.len() > 1 && (classes.len() > 1 || classes == ["None"]) {
                return Some(
                    "TypeError: '<' not supported between the dict's keys (sort_keys)".to_owned(),
                );
            }
            dict.iter()
                .find_map(|(_, v)| json_dumps_error(v, sort_keys))
        }
        other => Some(format!(
            "TypeError: Object of type {other} is not JSON serializable"
        )),
    }
}

/// `json.loads(json.dumps(value))`: tuples become lists and dict keys strings; `Err`
/// (Python's words, see [`json_dumps_error`]) where `json.dumps` raises.
pub fn json_roundtrip(value: &Value) -> Result<Value, String> {
    match json_dumps_error(value, false) {
        Some(error) => Err(error),
        None => Ok(roundtrip(value)),
    }
}

/// [`json_roundtrip`] of a value `json.dumps` accepts.
fn roundtrip(value: &Value) -> Value {
    if let Some(items) = value.as_sequence() {
        return Value::list(items.iter().map(roundtrip));
    }
    let Some(d) = value.as_dict() else {
        return value.clone();
    };
    let mut out = Dict::new();
    for (k, v) in d.iter() {
        let key = match (k.as_str(), k.as_bool()) {
            (Some(s), _) => s.to_owned(),
            (None, Some(b)) => if b { "true" } else { "false" }.to_owned(),
            (None, None) if k.is_none() => "null".to_owned(),
            _ => k.to_string(), // an int or a float: its repr
        };
        // Keys that become equal strings keep the first one's place and the last value,
        // as `json.loads` builds the dict.
        let key = Value::from(key);
        let hash = py_hash(&key).unwrap_or(0); // strings always hash
        out.insert(key, hash, roundtrip(v));
    }
    Value(V::Dict(Rc::new(out)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_parser_takes_fences_then_brackets_then_text_then_scalar_lists() {
        let parse = |text: &str| parse_answer(text).unwrap();
        assert_eq!(
            parse("a\n```python\n[1, 2]\n```\nb").as_deref(),
            Some("[1, 2]")
        );
        assert_eq!(parse("x [1] y {'a': [2]}").as_deref(), Some("{'a': [2]}"));
        assert_eq!(parse("answer: 0101, 11").as_deref(), Some("['0101', 11]"));
        assert_eq!(parse("[x for x in y]"), None);
        assert_eq!(parse(""), None);
        assert!(
            parse_answer("{[1]: 2}").is_err(),
            "TypeError escapes the parser"
        );
    }

    #[test]
    fn json_roundtrip_turns_tuples_into_lists_and_refuses_sets() {
        let v = eval("[(1, 2), {'a': (3,)}]").unwrap();
        assert_eq!(
            json_roundtrip(&v).unwrap().to_string(),
            "[[1, 2], {'a': [3]}]"
        );
        // True == 1: the literal is {1: 2, '1': 'y', None: 3}; both 1s become "1".
        let keys = eval("{1: 'x', '1': 'y', True: 2, None: 3}").unwrap();
        assert_eq!(
            json_roundtrip(&keys).unwrap().to_string(),
            "{'1': 'y', 'null': 3}"
        );
        assert_eq!(
            json_roundtrip(&eval("[1, {2}]").unwrap()).unwrap_err(),
            "TypeError: Object of type set is not JSON serializable"
        );
        let mixed = eval("{'a': 1, 2: 3}").unwrap();
        assert!(json_dumps_error(&mixed, false).is_none());
        assert!(json_dumps_error(&mixed, true).is_some());
    }
}
