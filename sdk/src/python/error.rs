//! [`EvalError`]: what went wrong, Python's exception class for it, and where.

use std::fmt;

/// The class of an [`EvalError`].
///
/// Most kinds are the Python exception CPython would raise for the same
/// expression ([`ErrorKind::python_name`]); [`ErrorKind::Unsupported`] and
/// [`ErrorKind::Limit`] are this evaluator's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// Not a valid Python expression (`SyntaxError`).
    Syntax,
    /// Valid Python that this evaluator refuses: attribute access, dunder
    /// names, f-strings, bytes, complex numbers, `%`-formatting, …
    Unsupported,
    /// An evaluation limit of [`EvalLimits`](super::EvalLimits) was exceeded.
    Limit,
    /// `NameError`: an unknown name (only builtins and names bound by
    /// comprehensions and lambdas exist).
    Name,
    /// `TypeError`.
    Type,
    /// `ValueError`.
    Value,
    /// `ZeroDivisionError`.
    ZeroDivision,
    /// `OverflowError`.
    Overflow,
    /// `IndexError`.
    Index,
    /// `KeyError`.
    Key,
}

impl ErrorKind {
    /// The Python exception class name (`"TypeError"`, …); `"Unsupported"`
    /// and `"LimitExceeded"` for the evaluator's own kinds.
    pub fn python_name(self) -> &'static str {
        match self {
            ErrorKind::Syntax => "SyntaxError",
            ErrorKind::Unsupported => "Unsupported",
            ErrorKind::Limit => "LimitExceeded",
            ErrorKind::Name => "NameError",
            ErrorKind::Type => "TypeError",
            ErrorKind::Value => "ValueError",
            ErrorKind::ZeroDivision => "ZeroDivisionError",
            ErrorKind::Overflow => "OverflowError",
            ErrorKind::Index => "IndexError",
            ErrorKind::Key => "KeyError",
        }
    }
}

/// Where in the source an error was detected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// The source line (shortened around the column if long) and a caret
    /// line under the column.
    pub snippet: String,
}

/// A parse or evaluation error: a kind, a message and (usually) a location.
///
/// `Display` gives `Kind: message at line L, column C:` followed by the
/// caret snippet on the next lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalError(Box<Inner>);

/// Boxed so that `Result<Value, EvalError>` stays small on the hot paths.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Inner {
    kind: ErrorKind,
    message: String,
    location: Option<Location>,
}

impl EvalError {
    pub(crate) fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        EvalError(Box::new(Inner {
            kind,
            message: message.into(),
            location: None,
        }))
    }

    /// The kind.
    pub fn kind(&self) -> ErrorKind {
        self.0.kind
    }

    /// The message, without kind or location.
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// The error as Python's traceback ends it, without the location:
    /// `KeyError: 'z'`.
    pub fn python_text(&self) -> String {
        format!("{}: {}", self.0.kind.python_name(), self.0.message)
    }

    /// Where the error was detected, when known.
    pub fn location(&self) -> Option<&Location> {
        self.0.location.as_ref()
    }

    /// Sets the location to byte `offset` of `src` unless one is set already
    /// (the innermost expression wins).
    pub(crate) fn locate(mut self, src: &str, offset: usize) -> Self {
        if self.0.location.is_none() {
            self.0.location = Some(locate(src, offset));
        }
        self
    }
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.0.kind.python_name(), self.0.message)?;
        if let Some(at) = &self.0.location {
            write!(
                f,
                " at line {}, column {}:\n{}",
                at.line, at.column, at.snippet
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for EvalError {}

/// How many characters of the source line are shown on each side of the column.
const SNIPPET_SIDE: usize = 40;

fn locate(src: &str, offset: usize) -> Location {
    let offset = offset.min(src.len());
    let line_start = src[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line_end = src[offset..].find('\n').map_or(src.len(), |i| offset + i);
    let line = src[..line_start].matches('\n').count() + 1;
    let text = src[line_start..line_end].trim_end_matches('\r');
    let column = src[line_start..offset].chars().count();
    let chars: Vec<char> = text.chars().collect();
    let from = column.saturating_sub(SNIPPET_SIDE);
    let to = (column + SNIPPET_SIDE).min(chars.len());
    let mut shown: String = if from > 0 {
        "…".into()
    } else {
        String::new()
    };
    let caret_at = shown.chars().count() + column - from;
    shown.extend(chars[from..to.max(from)].iter().map(|&c| match c {
        '\t' => ' ',
        c => c,
    }));
    if to < chars.len() {
        shown.push('…');
    }
    Location {
        line,
        column: column + 1,
        snippet: format!("    {shown}\n    {}^", " ".repeat(caret_at)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_and_snippets() {
        let e = EvalError::new(ErrorKind::Syntax, "invalid syntax").locate("(1 +\n  * 2)", 7);
        let at = e.location().unwrap();
        assert_eq!((at.line, at.column), (2, 3));
        assert_eq!(
            e.to_string(),
            "SyntaxError: invalid syntax at line 2, column 3:\n      * 2)\n      ^"
        );
        let long = format!("[{}x]", "1, ".repeat(40));
        let e = EvalError::new(ErrorKind::Name, "name 'x' is not defined").locate(&long, 121);
        let snippet = &e.location().unwrap().snippet;
        assert!(snippet.starts_with("    …"), "{snippet}");
        let lines: Vec<&str> = snippet.lines().collect();
        let caret = lines[1].chars().count() - 1;
        assert_eq!(lines[0].chars().nth(caret), Some('x'));
        // The first location set wins.
        let e = e.locate(&long, 0);
        assert_eq!(e.location().unwrap().column, 122);
        assert_eq!(
            EvalError::new(ErrorKind::Limit, "too many steps").to_string(),
            "LimitExceeded: too many steps"
        );
    }
}
