//! The simple statements of `f`'s body, split and classified from the tokens of a logical
//! line; each expression is parsed by the SDK evaluator (so its syntax errors carry CPython's
//! messages) but never evaluated here.

use crate::compile::LIMITS;
use crate::lex::{Kind, PyError, Tok};
use verigate_sdk::python::{self, ErrorKind};

/// A statement of `f`'s body.
#[derive(Debug)]
pub enum Stmt {
    Return(Option<Expr>),
    /// Targets (each a list of names; a tuple target when `tuple`), then the value.
    Assign(Vec<Target>, Expr),
    Augmented(String, &'static str, Expr),
    Expression(Expr),
}

impl Stmt {
    /// The depth of its deepest expression.
    pub fn depth(&self) -> usize {
        match self {
            Stmt::Return(e) => e.as_ref().map_or(0, |e| e.depth),
            Stmt::Assign(_, e) | Stmt::Augmented(_, _, e) | Stmt::Expression(e) => e.depth,
        }
    }
}

#[derive(Debug)]
pub struct Target {
    pub names: Vec<String>,
    pub tuple: bool,
}

/// An expression's source text, first line and tokens.
#[derive(Debug)]
pub struct Expr {
    pub text: String,
    pub line: usize,
    pub toks: Vec<Tok>,
    /// Its syntax tree's depth in CPython ([`crate::depth`]).
    pub depth: usize,
}

/// How compiling stops early.
pub enum Stop {
    Raises(PyError),
    Unsupported(String),
    NoFunction,
}

pub type Step<T> = Result<T, Stop>;

const AUGMENTED: &[&str] = &[
    "+=", "-=", "*=", "/=", "//=", "%=", "**=", ">>=", "<<=", "&=", "|=", "^=", "@=",
];

pub fn text<'a>(src: &'a str, toks: &[Tok]) -> &'a str {
    match (toks.first(), toks.last()) {
        (Some(a), Some(b)) => &src[a.start..b.end],
        _ => "",
    }
}

pub fn is_op(src: &str, t: &Tok, op: &str) -> bool {
    t.kind == Kind::Op && &src[t.start..t.end] == op
}

pub fn is_word(src: &str, t: &Tok, word: &str) -> bool {
    t.kind == Kind::Name && &src[t.start..t.end] == word
}

/// The simple statements of one logical line (separated by `;`, one trailing `;` allowed).
pub fn simple(src: &str, toks: &[Tok], note: &mut impl FnMut(String)) -> Step<Vec<Stmt>> {
    let mut parts: Vec<&[Tok]> = toks.split(|t| t.depth == 0 && is_op(src, t, ";")).collect();
    if parts.len() > 1 && parts.last().is_some_and(|p| p.is_empty()) {
        parts.pop();
    }
    let mut stmts = Vec::new();
    for (k, part) in parts.iter().enumerate() {
        if part.is_empty() {
            let line = toks
                .iter()
                .filter(|t| t.depth == 0 && is_op(src, t, ";"))
                .nth(k.saturating_sub(1))
                .map_or(1, |t| t.line);
            return Err(Stop::Raises(PyError::at("invalid syntax", line)));
        }
        if let Some(stmt) = statement(src, part, note)? {
            stmts.push(stmt);
        }
    }
    Ok(stmts)
}

fn expr(src: &str, toks: &[Tok]) -> Step<Expr> {
    let mut e = Expr {
        text: text(src, toks).to_owned(),
        line: toks.first().map_or(1, |t| t.line),
        toks: toks.to_vec(),
        depth: 0,
    };
    check(&e)?;
    e.depth = crate::depth::depth(src, toks);
    Ok(e)
}

/// Parses `e` with the SDK (as the body of a lambda, so nothing is evaluated).
fn check(e: &Expr) -> Step<()> {
    let offset = e.toks.first().map_or(0, |t| t.start);
    let non_ascii_name =
        |t: &&Tok| t.kind == Kind::Name && !e.text[t.start - offset..t.end - offset].is_ascii();
    // (The whole-text test first keeps this linear for long expressions.)
    if !e.text.is_ascii()
        && let Some(t) = e.toks.iter().find(non_ascii_name)
    {
        return Err(Stop::Unsupported(format!(
            "line {}: non-ASCII identifiers are not supported",
            t.line
        )));
    }
    let source = format!("lambda x, y: ({})", e.text);
    match python::eval_with(&source, &LIMITS) {
        Ok(_) => Ok(()),
        Err(err) => {
            let line = e.line + err.location().map_or(1, |l| l.line) - 1;
            match err.kind() {
                ErrorKind::Syntax => Err(Stop::Raises(PyError::at(err.message(), line))),
                _ => Err(Stop::Unsupported(format!(
                    "line {line}: {}",
                    err.python_text()
                ))),
            }
        }
    }
}

/// One simple statement; `None` for one that is unsupported (noted).
fn statement(src: &str, toks: &[Tok], note: &mut impl FnMut(String)) -> Step<Option<Stmt>> {
    let line = toks[0].line;
    let invalid = |t: &Tok| Stop::Raises(PyError::at("invalid syntax", t.line));
    if is_word(src, &toks[0], "return") {
        if let Some(t) = toks[1..].iter().find(|t| {
            t.depth == 0 && (is_op(src, t, "=") || AUGMENTED.iter().any(|a| is_op(src, t, a)))
        }) {
            return Err(invalid(t));
        }
        let value = if toks.len() > 1 {
            Some(expr(src, &toks[1..])?)
        } else {
            None
        };
        return Ok(Some(Stmt::Return(value)));
    }
    if is_word(src, &toks[0], "def") {
        note(format!("line {line}: nested functions are not supported"));
        return Ok(None);
    }
    if toks.iter().any(|t| t.depth == 0 && is_op(src, t, ":")) {
        note(format!(
            "line {line}: annotated assignments are not supported"
        ));
        return Ok(None);
    }
    if let Some(at) = toks
        .iter()
        .position(|t| t.depth == 0 && AUGMENTED.iter().any(|a| is_op(src, t, a)))
    {
        let op = AUGMENTED
            .iter()
            .find(|a| is_op(src, &toks[at], a))
            .expect("an augmented operator");
        if at + 1 == toks.len() {
            return Err(invalid(&toks[at]));
        }
        let value = expr(src, &toks[at + 1..])?;
        if at != 1 || toks[0].kind != Kind::Name {
            note(format!(
                "line {line}: augmented assignment to anything but a name is not supported"
            ));
            return Ok(None);
        }
        let name = src[toks[0].start..toks[0].end].to_owned();
        return Ok(Some(Stmt::Augmented(name, &op[..op.len() - 1], value)));
    }
    let parts: Vec<&[Tok]> = toks.split(|t| t.depth == 0 && is_op(src, t, "=")).collect();
    let (value, targets) = parts.split_last().expect("split yields a part");
    if value.is_empty() {
        return Err(invalid(toks.last().expect("a token")));
    }
    let value = expr(src, value)?;
    if targets.is_empty() {
        return Ok(Some(Stmt::Expression(value)));
    }
    let mut names = Vec::new();
    for part in targets {
        match target(src, part, line)? {
            Some(t) => names.push(t),
            None => {
                note(format!(
                    "line {line}: assignment targets other than names are not supported"
                ));
                return Ok(None);
            }
        }
    }
    Ok(Some(Stmt::Assign(names, value)))
}

/// An assignment target: a name, or names separated by commas (optionally bracketed).
fn target(src: &str, toks: &[Tok], line: usize) -> Step<Option<Target>> {
    let word = |t: &Tok| &src[t.start..t.end];
    if toks.is_empty() {
        return Err(Stop::Raises(PyError::at("invalid syntax", line)));
    }
    if toks
        .iter()
        .all(|t| matches!(t.kind, Kind::Number | Kind::Str))
    {
        return Err(Stop::Raises(PyError::at("cannot assign to literal", line)));
    }
    let bracketed = toks.len() >= 2
        && matches!(
            (word(&toks[0]), word(&toks[toks.len() - 1])),
            ("(", ")") | ("[", "]")
        );
    let inner = if bracketed {
        &toks[1..toks.len() - 1]
    } else {
        toks
    };
    let tuple = bracketed || inner.iter().any(|t| word(t) == ",");
    let mut names = Vec::new();
    for (k, t) in inner.iter().enumerate() {
        let ok = if k % 2 == 0 {
            t.kind == Kind::Name && !matches!(word(t), "def" | "return")
        } else {
            word(t) == ","
        };
        if !ok {
            let expression = toks.iter().any(|t| {
                t.kind == Kind::Op && !matches!(word(t), "," | "(" | ")" | "[" | "]" | "*" | ".")
            });
            if expression {
                return Err(Stop::Raises(PyError::at(
                    "cannot assign to expression here. Maybe you meant '==' instead of '='?",
                    line,
                )));
            }
            return Ok(None);
        }
        if k % 2 == 0 {
            names.push(word(t).to_owned());
        }
    }
    let mut seen = names.clone();
    seen.sort();
    seen.dedup();
    if seen.len() != names.len() || names.iter().any(|n| n.starts_with("__")) {
        return Ok(None);
    }
    Ok(Some(Target { names, tuple }))
}
