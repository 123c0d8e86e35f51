//! The tokenizer: Python's lexical rules for the expression subset.

use super::error::{ErrorKind, EvalError};
use super::num::{self, MAX_STR_DIGITS};
use super::value::Value;
use num_bigint::BigInt;

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Tok {
    Int(Value),
    Float(f64),
    Str(String),
    Name(String),
    Kw(&'static str),
    Op(&'static str),
    Newline,
    End,
}

#[derive(Clone, Debug)]
pub(crate) struct Token {
    pub tok: Tok,
    /// Byte offset of the token's first character.
    pub pos: usize,
}

const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// Operators, longest first so that the first match is the longest.
const OPERATORS: &[&str] = &[
    "**=", "//=", ">>=", "<<=", "...", "->", ":=", "**", "//", "<<", ">>", "<=", ">=", "==", "!=",
    "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=", "+", "-", "*", "/", "%", "@", "&", "|",
    "^", "~", "<", ">", "(", ")", "[", "]", "{", "}", ",", ":", ".", ";", "=",
];

pub(crate) fn syntax(message: impl Into<String>, src: &str, pos: usize) -> EvalError {
    EvalError::new(ErrorKind::Syntax, message).locate(src, pos)
}

pub(crate) fn unsupported(message: impl Into<String>, src: &str, pos: usize) -> EvalError {
    EvalError::new(ErrorKind::Unsupported, message).locate(src, pos)
}

struct Lexer<'s> {
    src: &'s str,
    pos: usize,
    max_int_bits: u64,
    /// Open brackets: (character, offset).
    brackets: Vec<(char, usize)>,
    tokens: Vec<Token>,
}

/// Splits `src` into tokens, ending with `Tok::End`.
pub(crate) fn tokenize(src: &str, max_int_bits: u64) -> Result<Vec<Token>, EvalError> {
    let mut lx = Lexer {
        src,
        pos: 0,
        max_int_bits,
        brackets: Vec::new(),
        tokens: Vec::new(),
    };
    lx.run()?;
    Ok(lx.tokens)
}

fn is_id_start(c: char) -> bool {
    c == '_' || c.is_alphabetic()
}

fn is_id_continue(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

impl<'s> Lexer<'s> {
    fn peek(&self) -> Option<char> {
        self.src[self.pos..].chars().next()
    }

    fn peek_at(&self, n: usize) -> Option<char> {
        self.src[self.pos..].chars().nth(n)
    }

    fn push(&mut self, tok: Tok, pos: usize) {
        self.tokens.push(Token { tok, pos });
    }

    fn err(&self, message: impl Into<String>, pos: usize) -> EvalError {
        syntax(message, self.src, pos)
    }

    fn run(&mut self) -> Result<(), EvalError> {
        while let Some(c) = self.peek() {
            let start = self.pos;
            match c {
                ' ' | '\t' | '\x0c' => self.pos += 1,
                '#' => {
                    while let Some(c) = self.peek() {
                        if c == '\n' || c == '\r' {
                            break;
                        }
                        self.pos += c.len_utf8();
                    }
                }
                '\n' | '\r' => {
                    self.pos += 1;
                    if self.brackets.is_empty()
                        && !matches!(
                            self.tokens.last().map(|t| &t.tok),
                            None | Some(Tok::Newline)
                        )
                    {
                        self.push(Tok::Newline, start);
                    }
                }
                '\\' => {
                    self.pos += 1;
                    match self.peek() {
                        Some('\n') => self.pos += 1,
                        Some('\r') => {
                            self.pos += 1;
                            if self.peek() == Some('\n') {
                                self.pos += 1;
                            }
                        }
                        None => return Err(self.err("unexpected EOF while parsing", start)),
                        Some(_) => {
                            return Err(self.err(
                                "unexpected character after line continuation character",
                                start,
                            ));
                        }
                    }
                }
                '0'..='9' => self.number()?,
                '.' if self.peek_at(1).is_some_and(|c| c.is_ascii_digit()) => self.number()?,
                '\'' | '"' => self.string(start, "")?,
                c if is_id_start(c) => self.name()?,
                _ => self.operator()?,
            }
        }
        if let Some(&(c, at)) = self.brackets.last() {
            return Err(self.err(format!("'{c}' was never closed"), at));
        }
        self.push(Tok::End, self.src.len());
        Ok(())
    }

    fn operator(&mut self) -> Result<(), EvalError> {
        let start = self.pos;
        let rest = &self.src[start..];
        let Some(op) = OPERATORS.iter().find(|op| rest.starts_with(**op)) else {
            let c = rest.chars().next().unwrap_or(' ');
            let message = if c == '!' {
                "invalid syntax".to_owned()
            } else {
                format!("invalid character '{c}' (U+{:04X})", c as u32)
            };
            return Err(self.err(message, start));
        };
        self.pos += op.len();
        match *op {
            "(" | "[" | "{" => self
                .brackets
                .push((op.chars().next().unwrap_or('('), start)),
            ")" | "]" | "}" => {
                let close = op.chars().next().unwrap_or(')');
                match self.brackets.pop() {
                    None => return Err(self.err(format!("unmatched '{close}'"), start)),
                    Some((open, _)) if matching(open) != close => {
                        return Err(self.err(
                            format!(
                                "closing parenthesis '{close}' does not match opening parenthesis '{open}'"
                            ),
                            start,
                        ));
                    }
                    Some(_) => {}
                }
            }
            _ => {}
        }
        self.push(Tok::Op(op), start);
        Ok(())
    }

    fn name(&mut self) -> Result<(), EvalError> {
        let start = self.pos;
        while let Some(c) = self.peek() {
            if !is_id_continue(c) {
                break;
            }
            self.pos += c.len_utf8();
        }
        let word = &self.src[start..self.pos];
        if matches!(self.peek(), Some('\'' | '"')) && is_string_prefix(word) {
            return self.string(start, word);
        }
        match KEYWORDS.iter().find(|k| **k == word) {
            Some(k) => self.push(Tok::Kw(k), start),
            None => self.push(Tok::Name(word.to_owned()), start),
        }
        Ok(())
    }

    /// Digits of `radix` with single `_` separators between them; returns
    /// the digits without separators.
    fn digits(&mut self, radix: u32, allow_leading_underscore: bool) -> Result<String, EvalError> {
        let mut out = String::new();
        loop {
            match self.peek() {
                Some(c) if c.is_digit(radix) => {
                    out.push(c);
                    self.pos += 1;
                }
                Some('_')
                    if (!out.is_empty() || allow_leading_underscore)
                        && self.peek_at(1).is_some_and(|c| c.is_digit(radix)) =>
                {
                    self.pos += 1;
                }
                _ => return Ok(out),
            }
        }
    }

    fn number(&mut self) -> Result<(), EvalError> {
        let start = self.pos;
        let radix = match (self.peek(), self.peek_at(1)) {
            (Some('0'), Some('x' | 'X')) => Some((16, "hexadecimal")),
            (Some('0'), Some('o' | 'O')) => Some((8, "octal")),
            (Some('0'), Some('b' | 'B')) => Some((2, "binary")),
            _ => None,
        };
        if let Some((radix, name)) = radix {
            self.pos += 2;
            let digits = self.digits(radix, true)?;
            if let Some(c) = self.peek()
                && (c.is_ascii_digit() || c == '_' || is_id_continue(c))
            {
                return Err(if c.is_ascii_digit() && !digits.is_empty() {
                    self.err(format!("invalid digit '{c}' in {name} literal"), self.pos)
                } else {
                    self.err(format!("invalid {name} literal"), start)
                });
            }
            if digits.is_empty() {
                return Err(self.err(format!("invalid {name} literal"), start));
            }
            let value = BigInt::parse_bytes(digits.as_bytes(), radix).unwrap_or_default();
            return self.push_int(value, start);
        }
        let int_part = self.digits(10, false)?;
        let mut is_float = false;
        let mut text = int_part.clone();
        if self.peek() == Some('.') {
            self.pos += 1;
            is_float = true;
            let frac = self.digits(10, false)?;
            text = format!(
                "{}.{}",
                if int_part.is_empty() { "0" } else { &int_part },
                frac
            );
        }
        if let Some('e' | 'E') = self.peek() {
            let (sign, digit_at) = match self.peek_at(1) {
                Some(s @ ('+' | '-')) => (Some(s), 2),
                _ => (None, 1),
            };
            if self.peek_at(digit_at).is_some_and(|c| c.is_ascii_digit()) {
                self.pos += digit_at;
                let exp = self.digits(10, false)?;
                text = format!("{text}e{}{exp}", sign.unwrap_or('+'));
                is_float = true;
            } else if sign.is_some() {
                return Err(self.err("invalid decimal literal", start));
            }
            // Otherwise the `e` may start a keyword (`1else`), checked below.
        }
        if let Some('j' | 'J') = self.peek() {
            return Err(unsupported(
                "complex numbers are not supported",
                self.src,
                start,
            ));
        }
        if self.peek() == Some('_') {
            return Err(self.err("invalid decimal literal", start));
        }
        // `1if x else 2` is valid (with a warning); `1abc` is not.
        if let Some(c) = self.peek()
            && is_id_continue(c)
        {
            let rest = &self.src[self.pos..];
            let ok = ["and", "else", "for", "if", "in", "is", "not", "or"]
                .iter()
                .any(|k| rest.starts_with(k));
            if !ok {
                return Err(self.err("invalid decimal literal", start));
            }
        }
        if is_float {
            let f: f64 = text
                .parse()
                .map_err(|_| self.err("invalid decimal literal", start))?;
            self.push(Tok::Float(f), start);
            return Ok(());
        }
        if int_part.starts_with('0') && int_part.bytes().any(|b| b != b'0') {
            return Err(self.err(
                "leading zeros in decimal integer literals are not permitted; \
                 use an 0o prefix for octal integers",
                start,
            ));
        }
        if int_part.len() > MAX_STR_DIGITS {
            return Err(self.err(
                format!(
                    "Exceeds the limit ({MAX_STR_DIGITS} digits) for integer string conversion: \
                     value has {} digits; use sys.set_int_max_str_digits() to increase the limit",
                    int_part.len()
                ),
                start,
            ));
        }
        let value = BigInt::parse_bytes(int_part.as_bytes(), 10).unwrap_or_default();
        self.push_int(value, start)
    }

    fn push_int(&mut self, value: BigInt, start: usize) -> Result<(), EvalError> {
        if value.bits() > self.max_int_bits {
            return Err(EvalError::new(
                ErrorKind::Limit,
                format!(
                    "integer literal has {} bits (limit {})",
                    value.bits(),
                    self.max_int_bits
                ),
            )
            .locate(self.src, start));
        }
        self.push(Tok::Int(num::int_value(value)), start);
        Ok(())
    }

    /// A string literal starting at `start` whose prefix (already consumed) is `prefix`.
    fn string(&mut self, start: usize, prefix: &str) -> Result<(), EvalError> {
        let lower = prefix.to_ascii_lowercase();
        if lower.contains('f') {
            return Err(unsupported("f-strings are not supported", self.src, start));
        }
        if lower.contains('b') {
            return Err(unsupported(
                "bytes literals are not supported",
                self.src,
                start,
            ));
        }
        let raw = lower.contains('r');
        let quote = self.peek().unwrap_or('"');
        let triple_quote = quote.to_string().repeat(3);
        let triple = self.src[self.pos..].starts_with(&triple_quote);
        self.pos += if triple { 3 } else { 1 };
        let mut out = String::new();
        loop {
            let Some(c) = self.peek() else {
                return Err(self.err(
                    if triple {
                        "unterminated triple-quoted string literal"
                    } else {
                        "unterminated string literal"
                    },
                    start,
                ));
            };
            if c == quote {
                if !triple {
                    self.pos += 1;
                    break;
                }
                if self.src[self.pos..].starts_with(&triple_quote) {
                    self.pos += 3;
                    break;
                }
            }
            if (c == '\n' || c == '\r') && !triple {
                return Err(self.err("unterminated string literal", start));
            }
            self.pos += c.len_utf8();
            if c != '\\' {
                if c == '\r' {
                    // Universal newlines: "\r\n" and "\r" read as "\n".
                    if self.peek() == Some('\n') {
                        self.pos += 1;
                    }
                    out.push('\n');
                } else {
                    out.push(c);
                }
                continue;
            }
            let Some(e) = self.peek() else { continue };
            if raw {
                // The backslash stays, and the next character cannot end the string.
                out.push('\\');
                out.push(e);
                self.pos += e.len_utf8();
                continue;
            }
            let esc_at = self.pos - 1;
            self.pos += e.len_utf8();
            match e {
                '\n' => {}
                '\r' => {
                    if self.peek() == Some('\n') {
                        self.pos += 1;
                    }
                }
                '\\' => out.push('\\'),
                '\'' => out.push('\''),
                '"' => out.push('"'),
                'a' => out.push('\x07'),
                'b' => out.push('\x08'),
                'f' => out.push('\x0c'),
                'n' => out.push('\n'),
                'r' => out.push('\r'),
                't' => out.push('\t'),
                'v' => out.push('\x0b'),
                '0'..='7' => {
                    let mut v = e.to_digit(8).unwrap_or(0);
                    for _ in 0..2 {
                        match self.peek().and_then(|c| c.to_digit(8)) {
                            Some(d) => {
                                v = v * 8 + d;
                                self.pos += 1;
                            }
                            None => break,
                        }
                    }
                    out.push(self.code_point(v, esc_at)?);
                }
                'x' | 'u' | 'U' => {
                    let n = match e {
                        'x' => 2,
                        'u' => 4,
                        _ => 8,
                    };
                    let hex = self.src[self.pos..].get(..n).unwrap_or("");
                    if hex.len() != n || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
                        return Err(self.err(
                            format!("(unicode error) truncated \\{e}{} escape", "X".repeat(n)),
                            esc_at,
                        ));
                    }
                    self.pos += n;
                    let v = u32::from_str_radix(hex, 16).unwrap_or(0);
                    out.push(self.code_point(v, esc_at)?);
                }
                'N' => {
                    return Err(unsupported(
                        "\\N{...} escapes are not supported",
                        self.src,
                        esc_at,
                    ));
                }
                other => {
                    out.push('\\');
                    out.push(other);
                }
            }
        }
        self.push(Tok::Str(out), start);
        Ok(())
    }

    fn code_point(&self, v: u32, at: usize) -> Result<char, EvalError> {
        if v > 0x10ffff {
            return Err(self.err("(unicode error) illegal Unicode character", at));
        }
        char::from_u32(v).ok_or_else(|| {
            unsupported("lone surrogates in strings are not supported", self.src, at)
        })
    }
}

fn matching(open: char) -> char {
    match open {
        '(' => ')',
        '[' => ']',
        _ => '}',
    }
}

fn is_string_prefix(word: &str) -> bool {
    matches!(
        word.to_ascii_lowercase().as_str(),
        "r" | "u" | "b" | "f" | "br" | "rb" | "fr" | "rf"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(src: &str) -> Vec<Tok> {
        tokenize(src, 100_000)
            .unwrap()
            .into_iter()
            .map(|t| t.tok)
            .collect()
    }

    fn err(src: &str) -> String {
        tokenize(src, 100_000).unwrap_err().message().to_owned()
    }

    #[test]
    fn numbers() {
        assert_eq!(
            toks("1_000 0x_ff 0o17 0b101 00 1.5 .5 1. 1e3 1_0.2_5e-1_0"),
            vec![
                Tok::Int(Value::from(1000)),
                Tok::Int(Value::from(255)),
                Tok::Int(Value::from(15)),
                Tok::Int(Value::from(5)),
                Tok::Int(Value::from(0)),
                Tok::Float(1.5),
                Tok::Float(0.5),
                Tok::Float(1.0),
                Tok::Float(1000.0),
                Tok::Float(10.25e-10),
                Tok::End
            ]
        );
        assert_eq!(
            err("0777"),
            "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers"
        );
        assert_eq!(err("1__0"), "invalid decimal literal");
        assert_eq!(err("1_"), "invalid decimal literal");
        assert_eq!(err("1abc"), "invalid decimal literal");
        assert_eq!(err("0b12"), "invalid digit '2' in binary literal");
        assert_eq!(err("0x"), "invalid hexadecimal literal");
        assert_eq!(err("1e+"), "invalid decimal literal");
        assert_eq!(err("3j"), "complex numbers are not supported");
        assert_eq!(toks("1if 2else 3")[1], Tok::Kw("if"));
        assert!(err(&"9".repeat(4301)).starts_with("Exceeds the limit (4300 digits)"));
        let e = tokenize("0x1ffff", 16).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Limit);
    }

    #[test]
    fn strings() {
        assert_eq!(
            toks(r#"'a\'b' "c\td" '''x"y''' r'\d\'' u'\x41\u00e9\U0001F600\101\0'"#),
            vec![
                Tok::Str("a'b".into()),
                Tok::Str("c\td".into()),
                Tok::Str("x\"y".into()),
                Tok::Str("\\d\\'".into()),
                Tok::Str("Aé😀A\0".into()),
                Tok::End
            ]
        );
        assert_eq!(
            toks("'a\\\nb' '\\q'")[..2],
            [Tok::Str("ab".into()), Tok::Str("\\q".into())]
        );
        assert_eq!(toks("'''a\r\nb'''")[0], Tok::Str("a\nb".into()));
        assert_eq!(err("'abc"), "unterminated string literal");
        assert_eq!(err("'ab\nc'"), "unterminated string literal");
        assert_eq!(err("'''abc''"), "unterminated triple-quoted string literal");
        assert_eq!(err("r'\\'"), "unterminated string literal");
        assert_eq!(err("'\\x4'"), "(unicode error) truncated \\xXX escape");
        assert_eq!(err("f'{x}'"), "f-strings are not supported");
        assert_eq!(err("b'x'"), "bytes literals are not supported");
        assert_eq!(
            err("'\\ud800'"),
            "lone surrogates in strings are not supported"
        );
    }

    #[test]
    fn lines_brackets_and_operators() {
        assert_eq!(
            toks("(1,\n 2) # c\n\n"),
            vec![
                Tok::Op("("),
                Tok::Int(Value::from(1)),
                Tok::Op(","),
                Tok::Int(Value::from(2)),
                Tok::Op(")"),
                Tok::Newline,
                Tok::End
            ]
        );
        assert_eq!(toks("1 +\\\n 2")[1], Tok::Op("+"));
        assert_eq!(toks("a//=b**c")[1], Tok::Op("//="));
        assert_eq!(toks("lambda")[0], Tok::Kw("lambda"));
        assert_eq!(
            err("(1]"),
            "closing parenthesis ']' does not match opening parenthesis '('"
        );
        assert_eq!(err("1)"), "unmatched ')'");
        assert_eq!(err("[1, 2"), "'[' was never closed");
        assert_eq!(err("1 $ 2"), "invalid character '$' (U+0024)");
        assert_eq!(
            err("1 \\ 2"),
            "unexpected character after line continuation character"
        );
    }
}
