//! `exec(answer.strip(), g)` followed by `f = g["f"]`, emulated: the module is checked for
//! the syntax errors CPython would raise (with its messages), and the function `f` is turned
//! into one Python *expression* the SDK evaluator can call per cell:
//! `lambda x, y: <f's body> > 0`.
//!
//! Supported, exactly as CPython runs it: a module made of `def f(x, y):` (blank and
//! comment lines anywhere; when `f` is defined several times the last one counts), whose
//! body (indented block or after the colon, statements separated by newlines or `;`) holds
//! simple statements: `return [EXPR]`, assignments to names (`e = EXPR`, `xx = yy = EXPR`,
//! `ex, ey = EXPR`), augmented assignments (`e += EXPR`) and expression statements. Statement by statement, up to the first
//! `return`, they become nested lambdas (`e = V; return R` → `(lambda e: (R) > 0)(V)`);
//! statements after the first `return` are checked for syntax only, as CPython compiles
//! but never runs them. A name read before it is assigned fails that cell (CPython's
//! `UnboundLocalError`, here a `NameError`): either way the cell counts as an error.
//! Falling off the end returns `None`, so every cell fails (`None > 0` is a `TypeError`).
//! CPython's compile-time limits are reproduced: 200 nested brackets ("too many nested
//! parentheses") and the compiler's recursion limit on deep syntax trees ([`depth`]).
//!
//! Not supported (the verdict says so and scores 0): other module-level statements
//! (functions other than `f`, decorators, global assignments), `def f` with other parameters,
//! nested functions, annotated assignments, subscript or starred assignment targets, a
//! name assigned twice in one tuple target, non-ASCII identifiers, and whatever the SDK
//! evaluator refuses (f-strings, `:=`, …). Augmented assignment is `e = e op (V)`, which
//! differs from CPython only for in-place list operations.

use crate::depth;
use crate::lex::{Kind, Line, PyError, Tok, lex};
use crate::stmt::{Step, Stmt, Stop, is_op, is_word, simple};
use verigate_sdk::python::EvalLimits;

/// What `exec` of the answer gives.
#[derive(Debug)]
pub enum Compiled {
    /// The module defines `f`: `lambda` is `lambda x, y: …` returning `f(x, y) > 0`.
    Function {
        lambda: String,
        /// Whether a complex intermediate (CPython: a negative number to a fractional power)
        /// can only end in an error: true unless the body uses `==`, `!=`, brackets, braces
        /// or commas, the only ways to consume a complex number without raising here.
        complex_fails: bool,
        /// Whether `f` is what the prompt asks for (one `return` of numbers, `x`, `y`,
        /// `+ - * / **` and parentheses), or the first thing that is not.
        compliant: Result<(), String>,
    },
    /// `exec` raises this error (`str(e)`).
    Raises(PyError),
    /// Valid Python (as far as can be told) that this port does not evaluate.
    Unsupported(String),
    /// The module runs but defines no `f` (the original's `g["f"]` raises `KeyError`).
    NoFunction,
}

/// The evaluator's limits, for parsing and for each cell's call (a fresh budget per call;
/// the item's fuel bounds the whole grading). Integers may reach a million bits. Nesting:
/// CPython allows 200 nested brackets (enforced by the lexer) and compiles expressions up
/// to ~3000 nodes deep; the guest's native stack overflows near 1350 nested nodes (measured
/// with unary and `**` chains), so deeper answers than 600 are refused as unsupported.
pub const LIMITS: EvalLimits = EvalLimits {
    max_steps: 2_000_000,
    max_elements: 2_000_000,
    max_int_bits: 1_000_000,
    max_depth: 600,
};

/// Emulates `exec(source.strip(), g)` and `g["f"]` (`source` is the answer's function text).
pub fn compile(source: &str) -> Compiled {
    let src = crate::checks::py_strip(source)
        .replace("\r\n", "\n")
        .replace('\r', "\n");
    if src.contains('\0') {
        return Compiled::Raises(PyError {
            message: "source code string cannot contain null bytes".into(),
            line: None,
        });
    }
    match module(&src) {
        Ok((body, compliant)) => Compiled::Function {
            lambda: compose(&body),
            complex_fails: complex_fails(&src, &body),
            compliant,
        },
        Err(Stop::Raises(e)) => Compiled::Raises(e),
        Err(Stop::Unsupported(why)) => Compiled::Unsupported(why),
        Err(Stop::NoFunction) => Compiled::NoFunction,
    }
}

/// The module: its one `def f(x, y):` body. Syntax errors anywhere come first, then
/// unsupported constructs, as CPython compiles the whole module before running it.
fn module(src: &str) -> Step<(Vec<Stmt>, Result<(), String>)> {
    let lines = lex(src);
    let last_line = src.lines().count().max(1);
    let mut unsupported: Option<String> = None;
    let mut note = |why: String| {
        unsupported.get_or_insert(why);
    };
    let mut body: Option<Vec<Stmt>> = None;
    let mut i = 0;
    while i < lines.len() {
        let line = &lines[i];
        if line.indent.0 > 0 {
            return Err(Stop::Raises(PyError::at("unexpected indent", line.line)));
        }
        if let Some(e) = &line.broken {
            return Err(Stop::Raises(e.clone()));
        }
        i += 1;
        if !line.toks.first().is_some_and(|t| is_word(src, t, "def")) {
            for stmt in simple(src, &line.toks, &mut note)? {
                if matches!(stmt, Stmt::Return(_)) {
                    return Err(Stop::Raises(PyError::at(
                        "'return' outside function",
                        line.line,
                    )));
                }
                note(format!(
                    "line {}: statements outside `def f(x, y):` are not supported",
                    line.line
                ));
            }
            continue;
        }
        let (is_f, rest) = header(src, line)?;
        if !is_f {
            note(format!(
                "line {}: only a function `def f(x, y):` is supported",
                line.line
            ));
        }
        let stmts = if rest.is_empty() {
            block(src, &lines, &mut i, line.line, last_line, &mut note)?
        } else {
            simple(src, rest, &mut note)?
        };
        if is_f {
            body = Some(stmts); // a later `def f` replaces an earlier one
        }
    }
    // After parsing, CPython's compiler walks the tree, recursively.
    let deepest = body.iter().flatten().map(Stmt::depth).max().unwrap_or(0);
    if deepest > depth::FAILS {
        return Err(Stop::Raises(PyError {
            message: "maximum recursion depth exceeded during compilation".into(),
            line: None,
        }));
    }
    if deepest > depth::SAFE {
        note(format!(
            "an expression {deepest} levels deep: CPython 3.11's compiler raises RecursionError \
             at about {} levels, minus 3 per frame of the grader's call stack",
            depth::FAILS
        ));
    }
    if let Some(why) = unsupported {
        return Err(Stop::Unsupported(why));
    }
    let Some(body) = body else {
        return Err(Stop::NoFunction);
    };
    let compliant = compliance(src, &body);
    Ok((body, compliant))
}

/// `def NAME(...):` — whether it is exactly `def f(x, y):`, and the tokens after the colon.
fn header<'l>(src: &str, line: &'l Line) -> Step<(bool, &'l [Tok])> {
    let toks = &line.toks;
    let close = toks
        .iter()
        .position(|t| t.depth == 0 && is_op(src, t, ")"))
        .filter(|_| toks.len() > 2 && toks[1].kind == Kind::Name && is_op(src, &toks[2], "("));
    let Some(close) = close else {
        return Err(Stop::Raises(PyError::at("invalid syntax", line.line)));
    };
    if !toks.get(close + 1).is_some_and(|t| is_op(src, t, ":")) {
        let at = toks.get(close + 1).unwrap_or(&toks[close]).line;
        return Err(Stop::Raises(PyError::at("expected ':'", at)));
    }
    let words: Vec<&str> = toks[1..=close]
        .iter()
        .map(|t| &src[t.start..t.end])
        .collect();
    Ok((words == ["f", "(", "x", ",", "y", ")"], &toks[close + 2..]))
}

/// The indented block after a `def` header on line `def_line`.
fn block(
    src: &str,
    lines: &[Line],
    i: &mut usize,
    def_line: usize,
    last_line: usize,
    note: &mut impl FnMut(String),
) -> Step<Vec<Stmt>> {
    let expected = |at| {
        Stop::Raises(PyError::at(
            format!("expected an indented block after function definition on line {def_line}"),
            at,
        ))
    };
    let Some(first) = lines.get(*i) else {
        return Err(expected(last_line));
    };
    if first.indent.0 == 0 {
        return Err(expected(first.line));
    }
    let level = first.indent;
    let mut stmts = Vec::new();
    while let Some(line) = lines.get(*i).filter(|l| l.indent.0 > 0) {
        let (wide, narrow) = line.indent;
        let tab_error = || {
            Stop::Raises(PyError::at(
                "inconsistent use of tabs and spaces in indentation",
                line.line,
            ))
        };
        if wide == level.0 && narrow != level.1 {
            return Err(tab_error());
        }
        if wide > level.0 {
            if narrow <= level.1 {
                return Err(tab_error());
            }
            return Err(Stop::Raises(PyError::at("unexpected indent", line.line)));
        }
        if wide < level.0 {
            return Err(Stop::Raises(PyError::at(
                "unindent does not match any outer indentation level",
                line.line,
            )));
        }
        if let Some(e) = &line.broken {
            return Err(Stop::Raises(e.clone()));
        }
        stmts.extend(simple(src, &line.toks, note)?);
        *i += 1;
    }
    Ok(stmts)
}

/// The body as `lambda x, y: …`, evaluating up to the first `return` and comparing with 0.
fn compose(body: &[Stmt]) -> String {
    let end = body
        .iter()
        .position(|s| matches!(s, Stmt::Return(_)))
        .map_or(body.len(), |k| k + 1);
    let mut out = "(None) > 0".to_owned();
    for stmt in body[..end].iter().rev() {
        out = match stmt {
            Stmt::Return(None) => "(None) > 0".to_owned(),
            Stmt::Return(Some(e)) => format!("({}) > 0", e.text),
            Stmt::Expression(e) => format!("(lambda _q8: {out})(({}))", e.text),
            Stmt::Augmented(name, op, e) => {
                format!("(lambda {name}: {out})({name} {op} ({}))", e.text)
            }
            Stmt::Assign(targets, e) => {
                for t in targets.iter().rev() {
                    let spread = if t.tuple { "*" } else { "" };
                    out = format!("(lambda {}: {out})({spread}_q8)", t.names.join(", "));
                }
                format!("(lambda _q8: {out})(({}))", e.text)
            }
        };
    }
    format!("lambda x, y: {out}")
}

/// See [`Compiled::Function::complex_fails`].
fn complex_fails(src: &str, body: &[Stmt]) -> bool {
    let exprs = body.iter().filter_map(|s| match s {
        Stmt::Return(e) => e.as_ref(),
        Stmt::Assign(targets, _) if targets.iter().any(|t| t.tuple) => None,
        Stmt::Assign(_, e) | Stmt::Augmented(_, _, e) | Stmt::Expression(e) => Some(e),
    });
    let tuple_targets = body
        .iter()
        .any(|s| matches!(s, Stmt::Assign(targets, _) if targets.iter().any(|t| t.tuple)));
    !tuple_targets
        && !exprs.flat_map(|e| &e.toks).any(|t| {
            t.kind == Kind::Op && matches!(&src[t.start..t.end], "==" | "!=" | "[" | "{" | ",")
        })
}

/// Whether the body is one `return` of what the prompt allows.
fn compliance(src: &str, body: &[Stmt]) -> Result<(), String> {
    let [Stmt::Return(Some(e))] = body else {
        return Err(format!(
            "the body has {} statements (the prompt asks for one return of a polynomial)",
            body.len()
        ));
    };
    for t in &e.toks {
        let word = &src[t.start..t.end];
        let ok = match t.kind {
            Kind::Name => matches!(word, "x" | "y"),
            Kind::Number => word
                .chars()
                .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '_' | '+' | '-')),
            Kind::Str => false,
            Kind::Op => matches!(word, "+" | "-" | "*" | "/" | "**" | "(" | ")"),
        };
        if !ok {
            return Err(format!(
                "line {}: `{word}` is not a number, x, y, + - * / ** or a parenthesis",
                t.line
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lambda(src: &str) -> String {
        match compile(src) {
            Compiled::Function { lambda, .. } => lambda,
            other => panic!("{other:?}"),
        }
    }

    fn raises(src: &str) -> String {
        match compile(src) {
            Compiled::Raises(e) => e.text(),
            other => panic!("{other:?}"),
        }
    }

    fn unsupported(src: &str) -> String {
        match compile(src) {
            Compiled::Unsupported(why) => why,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn bodies_become_nested_lambdas() {
        assert_eq!(
            lambda("def f(x, y):\n    return x*y - 3"),
            "lambda x, y: (x*y - 3) > 0"
        );
        assert_eq!(
            lambda("def f(x,y): return x - y;"),
            "lambda x, y: (x - y) > 0"
        );
        assert_eq!(
            lambda(
                "def f(x, y):\n    e = x*x\n    e += 1\n    return (e -\n      y)\n    return 5"
            ),
            "lambda x, y: (lambda _q8: (lambda e: (lambda e: ((e -\n      y)) > 0)(e + (1)))(_q8))((x*x))"
        );
        assert_eq!(
            lambda("def f(x, y):\n    xx, yy = y, x; x*0\n"),
            "lambda x, y: (lambda _q8: (lambda xx, yy: (lambda _q8: (None) > 0)((x*0)))(*_q8))((y, x))"
        );
        assert_eq!(
            lambda("# xy\n\ndef f(x, y) :\n    return"),
            "lambda x, y: (None) > 0"
        );
    }

    #[test]
    fn syntax_errors_match_cpython() {
        assert_eq!(
            raises("def f(x,y):"),
            "expected an indented block after function definition on line 1 (<string>, line 1)"
        );
        assert_eq!(
            raises("def f(x,y):\n\n\n# xy"),
            "expected an indented block after function definition on line 1 (<string>, line 4)"
        );
        assert_eq!(
            raises("def f(x,y):\nreturn x+y"),
            "expected an indented block after function definition on line 1 (<string>, line 2)"
        );
        assert_eq!(
            raises("def f(x,y):\n    return x+y\n  return y"),
            "unindent does not match any outer indentation level (<string>, line 3)"
        );
        assert_eq!(
            raises("def f(x,y):\n    return x+y\n        return y"),
            "unexpected indent (<string>, line 3)"
        );
        assert_eq!(
            raises("def f(x,y): return x\n    return y"),
            "unexpected indent (<string>, line 2)"
        );
        assert_eq!(
            raises("def f(x,y):\n\treturn x\n        return y"),
            "inconsistent use of tabs and spaces in indentation (<string>, line 3)"
        );
        assert_eq!(
            raises("def f(x,y)\n    return x+y"),
            "expected ':' (<string>, line 1)"
        );
        assert_eq!(
            raises("def f(x,y):\n    return x y"),
            "invalid syntax (<string>, line 2)"
        );
        assert_eq!(
            raises("def f(x,y):\n    return x;;"),
            "invalid syntax (<string>, line 2)"
        );
        assert_eq!(
            raises("def f(x,y):\n    return 2x + y"),
            "invalid decimal literal (<string>, line 2)"
        );
        assert_eq!(
            raises("```\ndef f(x,y):\n    return x+y\n```"),
            "invalid syntax (<string>, line 1)"
        );
        assert_eq!(
            raises("return x+y\ndef f(x,y):\n    return x"),
            "'return' outside function (<string>, line 1)"
        );
        assert_eq!(
            raises("def f(x,y):\n    x + 1 = y\n    return x"),
            "cannot assign to expression here. Maybe you meant '==' instead of '='? (<string>, line 2)"
        );
        assert_eq!(
            raises("def f(x,y):\n    return x\n\0"),
            "source code string cannot contain null bytes"
        );
        // A syntax error after the first return still fails the whole module.
        assert_eq!(
            raises("def f(x, y):\n    return x\n    return (y +\n )"),
            "invalid syntax (<string>, line 4)"
        );
    }

    #[test]
    fn deep_expressions_hit_the_compilers_recursion_limit() {
        let product = |n: usize| {
            let factors = vec!["((x-1)**2+(y-2)**2)"; n].join(" * ");
            format!("def f(x, y):\n    return {factors} - 1")
        };
        assert!(matches!(compile(&product(2800)), Compiled::Function { .. }));
        assert!(unsupported(&product(2950)).contains("RecursionError"));
        assert_eq!(
            raises(&product(3000)),
            "maximum recursion depth exceeded during compilation"
        );
    }

    #[test]
    fn valid_but_unsupported_python_is_refused() {
        assert!(unsupported("def f(x, y):\n    return x\nf(1, 2)").contains("line 3"));
        assert!(unsupported("def ff(x, y):\n    return x").contains("only a function"));
        assert!(unsupported("def f(x, y):\n    e: 1 = 2\n    return e").contains("annotated"));
        assert!(unsupported("def f(x, y):\n    e, e = 1, 2\n    return e").contains("targets"));
        assert!(unsupported("def f(x, y):\n    return f'{x}'").contains("Unsupported"));
        assert!(unsupported("def f(x, y):\n    return x - \u{3b1}\u{3b1}*y").contains("non-ASCII"));
        // Non-ASCII inside a string is fine.
        assert!(matches!(
            compile("def f(x, y):\n    return ('\u{d7}' == x) + y"),
            Compiled::Function { .. }
        ));
    }

    #[test]
    fn compliance_follows_the_prompt() {
        let compliant = |src: &str| match compile(src) {
            Compiled::Function { compliant, .. } => compliant,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            compliant("def f(x, y):\n    return -x**2 + 1.5e3*y / 2"),
            Ok(())
        );
        assert!(
            compliant("def f(x, y):\n    return (y == 1) * x")
                .unwrap_err()
                .contains("`==`")
        );
        assert!(
            compliant("def f(x, y):\n    e = x\n    return e")
                .unwrap_err()
                .contains("2 statements")
        );
    }
}
