//! Exact coordinates written as LaTeX (`\frac{\sqrt{2}}{2}`, `2+\sqrt{2}`,
//! `-\frac{3}{2}`), plain arithmetic (`3/2 + sqrt(2)`) or decimals.
//!
//! The value is an exact [`Q2`]. A decimal such as `0.7071` is taken as the
//! exact rational it writes (7071/10000), never rounded towards √2/2, and is
//! counted so the verdict can say decimals were used.
//!
//! Grammar: sums and differences of products and quotients of signed factors;
//! a factor is a number, `\frac{…}{…}` (also `\dfrac`, `\tfrac`, `\frac12`),
//! `\sqrt{…}` (also `\sqrt2`, `sqrt(…)`, `√…`), or a bracketed expression
//! (`(…)`, `{…}`, `\left(…\right)`); a number or factor directly followed by
//! `\frac`, `\sqrt` or a bracket multiplies it (`2\sqrt{2}`). `\cdot`,
//! `\times`, `*`, `·`, `×` multiply; `−` is a minus; `$` and LaTeX spacing
//! are ignored. A square root must land in Q(√2) (`\sqrt{8}` = 2√2 does,
//! `\sqrt{3}` does not).

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::One;

use crate::qsqrt2::Q2;

/// A parsed coordinate.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    /// The exact value.
    pub value: Q2,
    /// Whether a non-integer decimal (`0.5`, `1.4142`) was written.
    pub decimal: bool,
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Number { value: BigRational, decimal: bool },
    Frac,
    Sqrt,
    Plus,
    Minus,
    Times,
    Divide,
    Open(char),
    Close(char),
}

/// A decimal or integer literal, with an optional exponent (`1e-3`), exactly.
fn number(text: &str) -> Option<(BigRational, bool)> {
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(i) => (&text[..i], text[i + 1..].parse::<i32>().ok()?),
        None => (text, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if whole.is_empty() && fraction.is_empty() {
        return None;
    }
    let digits: BigInt = format!("{whole}{fraction}").parse().ok()?;
    // Coordinates are small numbers; a huge exponent is a mistake (or an
    // attempt to make the exact arithmetic slow), not a coordinate.
    if exponent.abs() > 64 {
        return None;
    }
    let scale = exponent - i32::try_from(fraction.len()).ok()?;
    let ten = BigRational::from_integer(BigInt::from(10));
    let power = (0..scale.unsigned_abs()).fold(BigRational::one(), |p, _| p * &ten);
    let value = if scale >= 0 {
        BigRational::from_integer(digits) * power
    } else {
        BigRational::from_integer(digits) / power
    };
    let decimal = !value.is_integer();
    Some((value, decimal))
}

fn tokenize(text: &str) -> Result<Vec<Token>, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let token = match c {
            c if c.is_whitespace() || c == '$' => None,
            '0'..='9' | '.' => {
                let start = i;
                while i + 1 < chars.len() && (chars[i + 1].is_ascii_digit() || chars[i + 1] == '.')
                {
                    i += 1;
                }
                // An exponent only right after digits: `1e-3`, `2E5`.
                if i + 2 < chars.len()
                    && matches!(chars[i + 1], 'e' | 'E')
                    && (chars[i + 2].is_ascii_digit()
                        || (matches!(chars[i + 2], '+' | '-')
                            && chars.get(i + 3).is_some_and(char::is_ascii_digit)))
                {
                    i += 2;
                    while i + 1 < chars.len() && chars[i + 1].is_ascii_digit() {
                        i += 1;
                    }
                }
                let literal: String = chars[start..=i].iter().collect();
                let (value, decimal) =
                    number(&literal).ok_or_else(|| format!("`{literal}` is not a number"))?;
                Some(Token::Number { value, decimal })
            }
            '+' => Some(Token::Plus),
            '-' | '−' => Some(Token::Minus),
            '*' | '·' | '×' => Some(Token::Times),
            '/' => Some(Token::Divide),
            '√' => Some(Token::Sqrt),
            '(' | '{' | '[' => Some(Token::Open(c)),
            ')' | '}' | ']' => Some(Token::Close(c)),
            '\\' => {
                let start = i + 1;
                while i + 1 < chars.len() && chars[i + 1].is_ascii_alphabetic() {
                    i += 1;
                }
                let name: String = chars[start..=i].iter().collect();
                match name.as_str() {
                    "frac" | "dfrac" | "tfrac" => Some(Token::Frac),
                    "sqrt" => Some(Token::Sqrt),
                    "cdot" | "times" => Some(Token::Times),
                    "left" | "right" => None,
                    // `\,` `\;` `\!` `\ ` and friends: spacing.
                    "" if matches!(chars.get(i + 1), Some(',' | ';' | '!' | ':' | ' ')) => {
                        i += 1;
                        None
                    }
                    _ => return Err(format!("unknown LaTeX command `\\{name}`")),
                }
            }
            's' if chars[i..].starts_with(&['s', 'q', 'r', 't']) => {
                i += 3;
                Some(Token::Sqrt)
            }
            _ => return Err(format!("unexpected `{c}`")),
        };
        tokens.extend(token);
        i += 1;
    }
    Ok(tokens)
}

struct Parser {
    tokens: Vec<Token>,
    at: usize,
    decimal: bool,
}

fn closing(open: char) -> char {
    match open {
        '(' => ')',
        '[' => ']',
        _ => '}',
    }
}

impl Parser {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }

    fn next(&mut self) -> Option<Token> {
        let token = self.tokens.get(self.at).cloned();
        self.at += 1;
        token
    }

    /// A number literal's value, noting whether it was a decimal.
    fn literal(&mut self, value: BigRational, decimal: bool) -> Q2 {
        self.decimal |= decimal;
        Q2::rational(value)
    }

    fn expr(&mut self) -> Result<Q2, String> {
        let mut value = self.term()?;
        loop {
            match self.peek() {
                Some(Token::Plus) => {
                    self.at += 1;
                    value = &value + &self.term()?;
                }
                Some(Token::Minus) => {
                    self.at += 1;
                    value = &value - &self.term()?;
                }
                _ => return Ok(value),
            }
        }
    }

    fn term(&mut self) -> Result<Q2, String> {
        let mut value = self.factor()?;
        loop {
            match self.peek() {
                Some(Token::Times) => {
                    self.at += 1;
                    value = &value * &self.factor()?;
                }
                Some(Token::Divide) => {
                    self.at += 1;
                    let divisor = self.factor()?;
                    value = value.div(&divisor).ok_or("division by zero")?;
                }
                Some(Token::Frac | Token::Sqrt | Token::Open(_)) => {
                    value = &value * &self.factor()?;
                }
                _ => return Ok(value),
            }
        }
    }

    fn factor(&mut self) -> Result<Q2, String> {
        match self.next() {
            Some(Token::Minus) => Ok(-self.factor()?),
            Some(Token::Plus) => self.factor(),
            Some(Token::Number { value, decimal }) => Ok(self.literal(value, decimal)),
            Some(Token::Open(open)) => self.bracketed(open),
            Some(Token::Frac) => {
                let (numerator, denominator) = match self.peek() {
                    // `\frac12`: two single digits.
                    Some(Token::Number { value, .. })
                        if value.is_integer()
                            && value.numer() >= &BigInt::from(10)
                            && value.numer() < &BigInt::from(100) =>
                    {
                        let n = value.numer().clone();
                        self.at += 1;
                        let ten = BigInt::from(10);
                        let digit = |d: BigInt| Q2::rational(BigRational::from_integer(d));
                        (digit(&n / &ten), digit(&n % &ten))
                    }
                    _ => (self.argument()?, self.argument()?),
                };
                numerator
                    .div(&denominator)
                    .ok_or_else(|| "\\frac with a zero denominator".to_owned())
            }
            Some(Token::Sqrt) => {
                let radicand = self.argument()?;
                radicand
                    .sqrt()
                    .ok_or_else(|| format!("√({radicand}) is not in Q(√2)"))
            }
            Some(token) => Err(format!("unexpected {token:?}")),
            None => Err("the expression ends too early".to_owned()),
        }
    }

    /// The argument of `\frac` or `\sqrt`: a bracketed expression or one
    /// number.
    fn argument(&mut self) -> Result<Q2, String> {
        match self.next() {
            Some(Token::Open(open)) => self.bracketed(open),
            Some(Token::Number { value, decimal }) => Ok(self.literal(value, decimal)),
            Some(token) => Err(format!(
                "expected `{{` after \\frac or \\sqrt, found {token:?}"
            )),
            None => Err("the expression ends too early".to_owned()),
        }
    }

    fn bracketed(&mut self, open: char) -> Result<Q2, String> {
        let value = self.expr()?;
        match self.next() {
            Some(Token::Close(close)) if close == closing(open) => Ok(value),
            _ => Err(format!("`{open}` is not closed by `{}`", closing(open))),
        }
    }
}

/// Parses one coordinate.
pub fn parse(text: &str) -> Result<Parsed, String> {
    let mut parser = Parser {
        tokens: tokenize(text)?,
        at: 0,
        decimal: false,
    };
    if parser.tokens.is_empty() {
        return Err("empty coordinate".to_owned());
    }
    let value = parser.expr()?;
    if parser.at < parser.tokens.len() {
        return Err(format!("unexpected {:?}", parser.tokens[parser.at]));
    }
    Ok(Parsed {
        value,
        decimal: parser.decimal,
    })
}

/// `text` as a `Q2` (tests).
#[cfg(test)]
pub fn value(text: &str) -> Q2 {
    parse(text).unwrap().value
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(a: (i64, i64), b: (i64, i64)) -> Q2 {
        let r = |(n, d): (i64, i64)| BigRational::new(BigInt::from(n), BigInt::from(d));
        Q2::new(r(a), r(b))
    }

    #[test]
    fn latex_forms() {
        assert_eq!(value(r"\frac{\sqrt{2}}{2}"), q((0, 1), (1, 2)));
        assert_eq!(value(r"2+\sqrt{2}"), q((2, 1), (1, 1)));
        assert_eq!(value(r"-\frac{3}{2}"), q((-3, 2), (0, 1)));
        assert_eq!(value(r"$2\sqrt{2}$"), q((0, 1), (2, 1)));
        assert_eq!(value(r"\frac12"), q((1, 2), (0, 1)));
        assert_eq!(value(r"\sqrt2"), q((0, 1), (1, 1)));
        assert_eq!(value(r"\sqrt{8}"), q((0, 1), (2, 1)));
        assert_eq!(
            value(r"\left(1-\frac{\sqrt{2}}{2}\right)\cdot 2"),
            q((2, 1), (-1, 1))
        );
        assert_eq!(value(r"\dfrac{3\sqrt{2}}{4}"), q((0, 1), (3, 4)));
        assert_eq!(value("3/2 + sqrt(2)"), q((3, 2), (1, 1)));
        assert_eq!(value("√2 − 1"), q((-1, 1), (1, 1)));
        assert_eq!(value(r"\frac{1}{\sqrt{2}}"), q((0, 1), (1, 2)));
    }

    #[test]
    fn decimals_are_exact_and_flagged() {
        let p = parse("0.7071").unwrap();
        assert_eq!(p.value, q((7071, 10000), (0, 1)));
        assert!(p.decimal);
        assert!(!parse("2.0").unwrap().decimal);
        assert_eq!(value("1e-3"), q((1, 1000), (0, 1)));
        assert_eq!(parse("1e999999").unwrap_err(), "`1e999999` is not a number");
    }

    #[test]
    fn errors_say_what_is_wrong() {
        assert_eq!(parse(r"\sqrt{3}").unwrap_err(), "√(3) is not in Q(√2)");
        assert_eq!(parse(r"\pi").unwrap_err(), "unknown LaTeX command `\\pi`");
        assert_eq!(parse("(1+2").unwrap_err(), "`(` is not closed by `)`");
        assert!(parse("1/0").is_err());
        assert!(parse("").is_err());
        assert!(parse("2 3").is_err());
    }
}
