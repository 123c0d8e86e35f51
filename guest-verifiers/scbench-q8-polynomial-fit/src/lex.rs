//! CPython's tokenizer, as far as `exec` of a small function needs it: the source split into
//! logical lines (indentation, brackets, backslash continuations, comments and strings
//! handled as CPython does), each a list of coarse tokens, plus the first tokenizer error
//! with CPython's message. Expressions themselves are checked later by the SDK evaluator;
//! this layer only has to know where statements begin and end.

/// A coarse token class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Name,
    Number,
    Str,
    Op,
}

/// One token: byte span in the source, physical line (1-based), bracket depth outside it.
#[derive(Clone, Copy, Debug)]
pub struct Tok {
    pub kind: Kind,
    pub start: usize,
    pub end: usize,
    pub line: usize,
    pub depth: usize,
}

/// A Python `SyntaxError` (or `IndentationError` / `TabError`) as `str(e)` shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PyError {
    pub message: String,
    /// The line CPython reports (`(<string>, line N)`); `None` for errors without one.
    pub line: Option<usize>,
}

impl PyError {
    pub fn at(message: impl Into<String>, line: usize) -> PyError {
        PyError {
            message: message.into(),
            line: Some(line),
        }
    }

    /// `str(e)` of the exception `exec` raises.
    pub fn text(&self) -> String {
        match self.line {
            Some(line) => format!("{} (<string>, line {line})", self.message),
            None => self.message.clone(),
        }
    }
}

/// One logical line.
#[derive(Debug)]
pub struct Line {
    /// Indentation as (columns with tabs to 8, columns with tabs to 1): CPython compares
    /// both and raises `TabError` when they disagree.
    pub indent: (usize, usize),
    /// The physical line it starts on.
    pub line: usize,
    pub toks: Vec<Tok>,
    /// The tokenizer error met on this line (tokenizing stops there).
    pub broken: Option<PyError>,
}

/// Operators, longest first.
const OPERATORS: &[&str] = &[
    "**=", "//=", ">>=", "<<=", "...", "->", ":=", "**", "//", "<<", ">>", "<=", ">=", "==", "!=",
    "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=", "+", "-", "*", "/", "%", "@", "&", "|",
    "^", "~", "<", ">", "(", ")", "[", "]", "{", "}", ",", ":", ".", ";", "=",
];

const STRING_PREFIXES: &[&str] = &["r", "u", "f", "b", "br", "rb", "fr", "rf"];

/// The logical lines of `src` (a source already stripped, with `\n` line ends). Tokenizing
/// stops at the first error, which is attached to the line it occurs on.
pub fn lex(src: &str) -> Vec<Line> {
    let mut lx = Lexer {
        src,
        pos: 0,
        line: 1,
        brackets: Vec::new(),
        lines: Vec::new(),
    };
    lx.run();
    lx.lines
}

struct Lexer<'s> {
    src: &'s str,
    pos: usize,
    line: usize,
    /// Open brackets: (character, line).
    brackets: Vec<(char, usize)>,
    lines: Vec<Line>,
}

fn is_name_start(c: char) -> bool {
    c == '_' || c.is_ascii_alphabetic() || (!c.is_ascii() && c.is_alphabetic())
}

fn is_name_continue(c: char) -> bool {
    is_name_start(c) || c.is_ascii_digit()
}

impl Lexer<'_> {
    fn peek(&self) -> Option<char> {
        self.src[self.pos..].chars().next()
    }

    fn peek_at(&self, n: usize) -> Option<char> {
        self.src[self.pos..].chars().nth(n)
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn current(&mut self) -> &mut Line {
        self.lines.last_mut().expect("a line is open")
    }

    fn push(&mut self, kind: Kind, start: usize, line: usize) {
        let depth = self.brackets.len();
        let end = self.pos;
        self.current().toks.push(Tok {
            kind,
            start,
            end,
            line,
            depth,
        });
    }

    fn fail(&mut self, message: impl Into<String>, line: usize) {
        self.current().broken = Some(PyError::at(message, line));
    }

    fn run(&mut self) {
        let mut at_line_start = true;
        loop {
            if at_line_start {
                at_line_start = false;
                let (mut wide, mut narrow) = (0, 0);
                while let Some(c) = self.peek() {
                    match c {
                        ' ' => (wide, narrow) = (wide + 1, narrow + 1),
                        '\t' => (wide, narrow) = ((wide / 8 + 1) * 8, narrow + 1),
                        '\x0c' => (wide, narrow) = (0, 0),
                        _ => break,
                    }
                    self.pos += 1;
                }
                match self.peek() {
                    None => return,
                    Some('#' | '\n') => {
                        self.skip_comment();
                        self.bump();
                        at_line_start = true;
                        continue;
                    }
                    Some(_) => self.lines.push(Line {
                        indent: (wide, narrow),
                        line: self.line,
                        toks: Vec::new(),
                        broken: None,
                    }),
                }
            }
            let Some(c) = self.peek() else { break };
            let (start, line) = (self.pos, self.line);
            match c {
                ' ' | '\t' | '\x0c' => self.pos += 1,
                '#' => self.skip_comment(),
                '\n' => {
                    self.bump();
                    at_line_start = self.brackets.is_empty();
                }
                '\\' => {
                    self.pos += 1;
                    match self.peek() {
                        Some('\n') => {
                            self.bump();
                            if self.peek().is_none() {
                                return self.fail("unexpected EOF while parsing", line);
                            }
                        }
                        None => return self.fail("unexpected EOF while parsing", line),
                        Some(_) => {
                            return self.fail(
                                "unexpected character after line continuation character",
                                line,
                            );
                        }
                    }
                }
                '\'' | '"' => {
                    if !self.string(start) {
                        return;
                    }
                }
                c if is_name_start(c) => {
                    while self.peek().is_some_and(is_name_continue) {
                        self.bump();
                    }
                    let word = self.src[start..self.pos].to_ascii_lowercase();
                    if matches!(self.peek(), Some('\'' | '"'))
                        && STRING_PREFIXES.contains(&word.as_str())
                    {
                        if !self.string(start) {
                            return;
                        }
                    } else {
                        self.push(Kind::Name, start, line);
                    }
                }
                c if c.is_ascii_digit()
                    || (c == '.' && self.peek_at(1).is_some_and(|d| d.is_ascii_digit())) =>
                {
                    self.number();
                    self.push(Kind::Number, start, line);
                }
                '(' | '[' | '{' => {
                    if self.brackets.len() >= 200 {
                        return self.fail("too many nested parentheses", line);
                    }
                    self.pos += 1;
                    self.push(Kind::Op, start, line);
                    self.brackets.push((c, line));
                }
                ')' | ']' | '}' => {
                    self.pos += 1;
                    let Some((open, open_line)) = self.brackets.pop() else {
                        return self.fail(format!("unmatched '{c}'"), line);
                    };
                    if !matches!((open, c), ('(', ')') | ('[', ']') | ('{', '}')) {
                        let mut message = format!(
                            "closing parenthesis '{c}' does not match opening parenthesis '{open}'"
                        );
                        if open_line != line {
                            message.push_str(&format!(" on line {open_line}"));
                        }
                        return self.fail(message, line);
                    }
                    self.push(Kind::Op, start, line);
                }
                _ => {
                    let rest = &self.src[self.pos..];
                    if let Some(op) = OPERATORS.iter().find(|op| rest.starts_with(**op)) {
                        self.pos += op.len();
                        self.push(Kind::Op, start, line);
                    } else if c.is_ascii() {
                        return self.fail("invalid syntax", line);
                    } else if c.is_whitespace() || c.is_control() {
                        return self.fail(
                            format!("invalid non-printable character U+{:04X}", u32::from(c)),
                            line,
                        );
                    } else {
                        return self.fail(
                            format!("invalid character '{c}' (U+{:04X})", u32::from(c)),
                            line,
                        );
                    }
                }
            }
        }
        if let Some(&(open, line)) = self.brackets.last() {
            self.fail(format!("'{open}' was never closed"), line);
        }
    }

    fn skip_comment(&mut self) {
        while self.peek().is_some_and(|c| c != '\n') {
            self.bump();
        }
    }

    /// A number's extent; its validity is the evaluator's to judge.
    fn number(&mut self) {
        let radix = self.src[self.pos..]
            .get(..2)
            .is_some_and(|p| matches!(p, "0x" | "0X" | "0b" | "0B" | "0o" | "0O"));
        while let Some(c) = self.peek() {
            if matches!(c, 'e' | 'E')
                && !radix
                && matches!(self.peek_at(1), Some('+' | '-'))
                && self.peek_at(2).is_some_and(|d| d.is_ascii_digit())
            {
                self.pos += 2;
            } else if !(c.is_ascii_alphanumeric() || c == '_' || c == '.') {
                break;
            }
            self.pos += 1;
        }
    }

    /// A string literal (its prefix already consumed); false after an error.
    fn string(&mut self, start: usize) -> bool {
        let line = self.line;
        let quote = self.bump().expect("a quote");
        let triple = self.peek() == Some(quote) && self.peek_at(1) == Some(quote);
        if triple {
            self.pos += 2;
        }
        loop {
            match self.bump() {
                None => {
                    let message = if triple {
                        format!(
                            "unterminated triple-quoted string literal (detected at line {})",
                            self.line
                        )
                    } else {
                        format!("unterminated string literal (detected at line {line})")
                    };
                    self.fail(message, line);
                    return false;
                }
                Some('\\') => {
                    self.bump();
                }
                Some('\n') if !triple => {
                    self.fail(
                        format!("unterminated string literal (detected at line {line})"),
                        line,
                    );
                    return false;
                }
                Some(c) if c == quote => {
                    if !triple {
                        break;
                    }
                    if self.peek() == Some(quote) && self.peek_at(1) == Some(quote) {
                        self.pos += 2;
                        break;
                    }
                }
                Some(_) => {}
            }
        }
        self.push(Kind::Str, start, line);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(src: &str) -> Vec<(usize, usize, usize, Option<String>)> {
        lex(src)
            .into_iter()
            .map(|l| (l.line, l.indent.0, l.toks.len(), l.broken.map(|e| e.text())))
            .collect()
    }

    #[test]
    fn logical_lines_follow_brackets_and_continuations() {
        let src = "def f(x, y):  # xy\n\n    return (x +\n  y) \\\n  * 2\n# e\n    return y";
        assert_eq!(
            shape(src),
            vec![(1, 0, 8, None), (3, 4, 8, None), (7, 4, 2, None)]
        );
        // Tabs: 8 columns wide, 1 narrow; a form feed resets the count.
        assert_eq!(lex("\t x").pop().unwrap().indent, (9, 2));
        assert_eq!(lex("  \x0c x").pop().unwrap().indent, (1, 1));
    }

    #[test]
    fn strings_and_numbers_are_single_tokens() {
        let src = "x = '#.;=' + \"\"\"a\nb\"\"\" + 1.5e-3 + 0xdef + f'{x}'";
        let lines = lex(src);
        assert_eq!(lines.len(), 1);
        let texts: Vec<&str> = lines[0].toks.iter().map(|t| &src[t.start..t.end]).collect();
        assert_eq!(
            texts,
            [
                "x",
                "=",
                "'#.;='",
                "+",
                "\"\"\"a\nb\"\"\"",
                "+",
                "1.5e-3",
                "+",
                "0xdef",
                "+",
                "f'{x}'"
            ]
        );
    }

    #[test]
    fn tokenizer_errors_carry_cpython_messages() {
        let last = |src: &str| lex(src).pop().unwrap().broken.unwrap().text();
        assert_eq!(
            last("return (x+y"),
            "'(' was never closed (<string>, line 1)"
        );
        assert_eq!(last("return x+y)"), "unmatched ')' (<string>, line 1)");
        assert_eq!(
            last("return (x+\n y]"),
            "closing parenthesis ']' does not match opening parenthesis '(' on line 1 (<string>, line 2)"
        );
        assert_eq!(
            last("return x \u{2212} y"),
            "invalid character '\u{2212}' (U+2212) (<string>, line 1)"
        );
        assert_eq!(
            last("return x\u{a0}+ y"),
            "invalid non-printable character U+00A0 (<string>, line 1)"
        );
        assert_eq!(last("return x ? y"), "invalid syntax (<string>, line 1)");
        assert_eq!(
            last("a\nreturn 'x+y"),
            "unterminated string literal (detected at line 2) (<string>, line 2)"
        );
        assert_eq!(
            last("return '''x+y\n"),
            "unterminated triple-quoted string literal (detected at line 2) (<string>, line 1)"
        );
        assert_eq!(
            last("return x \\ y"),
            "unexpected character after line continuation character (<string>, line 1)"
        );
        assert_eq!(
            last("return x\\"),
            "unexpected EOF while parsing (<string>, line 1)"
        );
        let deep = |n: usize| format!("return {}x{}", "(".repeat(n), ")".repeat(n));
        assert!(lex(&deep(200)).pop().unwrap().broken.is_none());
        assert_eq!(
            last(&deep(201)),
            "too many nested parentheses (<string>, line 1)"
        );
    }
}
