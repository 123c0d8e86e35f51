//! The depth of the syntax tree CPython builds for an expression, for its compiler's
//! recursion limit: CPython 3.11 raises `RecursionError: maximum recursion depth exceeded
//! during compilation` when the tree is about 3000 nodes deep (measured: a chain
//! `x*x*…*x` of 2989 operands compiles, one of 2990 does not, from a shallow call stack;
//! the grader's deeper stack lowers the limit by 3 per frame). A long product such as the
//! repository's own reference answer (one factor per '.' cell) is such a chain.
//!
//! The tokens were already accepted by the SDK parser, so this only tracks nesting: binary
//! operators are left-associative (each one adds a level over its left operand), `**` is
//! right-associative, parentheses add nothing, and tuples, lists, sets, dicts, calls,
//! subscripts, slices and starred items add one level each, as CPython's AST does.

use crate::lex::{Kind, Tok};

/// Expressions at most this deep compile under any plausible grader stack depth.
pub const SAFE: usize = 2900;
/// Expressions deeper than this fail to compile even from a shallow stack.
pub const FAILS: usize = 2989;

const LEVELS: [&[&str]; 6] = [
    &["|"],
    &["^"],
    &["&"],
    &["<<", ">>"],
    &["+", "-"],
    &["*", "/", "//", "%", "@"],
];
const COMPARISONS: &[&str] = &["<", ">", "==", ">=", "<=", "!="];

/// The AST depth of the expression `toks` (a leaf is 1).
pub fn depth(src: &str, toks: &[Tok]) -> usize {
    let mut p = Parser { src, toks, i: 0 };
    let items = p.items(None, Ctx::Plain);
    items.depth + usize::from(items.comma)
}

struct Parser<'a> {
    src: &'a str,
    toks: &'a [Tok],
    i: usize,
}

/// Where a comma-separated list appears.
#[derive(Clone, Copy, PartialEq)]
enum Ctx {
    /// Top level, parentheses, list displays: `*e` or `e`.
    Plain,
    /// Call arguments: also `**e` and `name=e`.
    Call,
    /// Set and dict displays: also `**e` and `k: v`.
    Braces,
    /// Subscripts: also slices `a:b:c`.
    Subscript,
}

/// A comma-separated list: its deepest item, how many items, whether it has a comma.
struct Items {
    depth: usize,
    count: usize,
    comma: bool,
}

impl Parser<'_> {
    fn op(&self) -> Option<&str> {
        self.toks
            .get(self.i)
            .filter(|t| t.kind == Kind::Op)
            .map(|t| &self.src[t.start..t.end])
    }

    fn at(&self, ops: &[&str]) -> bool {
        self.op().is_some_and(|o| ops.contains(&o))
    }

    fn eat(&mut self, op: &str) -> bool {
        let hit = self.op() == Some(op);
        self.i += usize::from(hit);
        hit
    }

    /// Items up to `close` (consumed) or the end of the tokens.
    fn items(&mut self, close: Option<&str>, ctx: Ctx) -> Items {
        let mut out = Items {
            depth: 0,
            count: 0,
            comma: false,
        };
        loop {
            if self.i >= self.toks.len() {
                return out;
            }
            if close.is_some_and(|c| self.eat(c)) {
                return out;
            }
            let start = self.i;
            out.depth = out.depth.max(self.item(ctx));
            out.count += 1;
            if self.eat(",") {
                out.comma = true;
            } else if self.i == start || close.is_some_and(|c| !self.at(&[c])) {
                self.i += 1; // not expected after an accepted parse: never stall
            }
        }
    }

    fn item(&mut self, ctx: Ctx) -> usize {
        if self.eat("*") || (ctx != Ctx::Plain && self.eat("**")) {
            return 1 + self.binary(0);
        }
        if ctx == Ctx::Call
            && self.toks.get(self.i).is_some_and(|t| t.kind == Kind::Name)
            && self
                .toks
                .get(self.i + 1)
                .is_some_and(|t| t.kind == Kind::Op && &self.src[t.start..t.end] == "=")
        {
            self.i += 2;
            return 1 + self.comparison();
        }
        let first = if ctx == Ctx::Subscript && self.at(&[":"]) {
            0
        } else {
            self.comparison()
        };
        match ctx {
            Ctx::Braces if self.eat(":") => first.max(self.comparison()),
            Ctx::Subscript if self.at(&[":"]) => {
                let mut d = first;
                while self.eat(":") {
                    if !self.at(&[":", ",", "]"]) {
                        d = d.max(self.comparison());
                    }
                }
                d + 1
            }
            _ => first,
        }
    }

    fn comparison(&mut self) -> usize {
        let mut d = self.binary(0);
        let mut compare = false;
        while self.at(COMPARISONS) {
            self.i += 1;
            compare = true;
            d = d.max(self.binary(0));
        }
        d + usize::from(compare)
    }

    fn binary(&mut self, level: usize) -> usize {
        if level == LEVELS.len() {
            return self.factor();
        }
        let mut d = self.binary(level + 1);
        while self.at(LEVELS[level]) {
            self.i += 1;
            let right = self.binary(level + 1);
            d = 1 + d.max(right);
        }
        d
    }

    fn factor(&mut self) -> usize {
        // Iterative over a unary chain (`-----x`), which may be long.
        let mut unary = 0;
        while self.at(&["-", "+", "~"]) {
            self.i += 1;
            unary += 1;
        }
        unary + self.power()
    }

    fn power(&mut self) -> usize {
        let base = self.primary();
        if self.eat("**") {
            1 + base.max(self.factor())
        } else {
            base
        }
    }

    fn primary(&mut self) -> usize {
        let mut d = self.atom();
        loop {
            if self.eat("(") {
                d = 1 + d.max(self.items(Some(")"), Ctx::Call).depth);
            } else if self.eat("[") {
                let s = self.items(Some("]"), Ctx::Subscript);
                d = 1 + d.max(s.depth + usize::from(s.comma));
            } else if self.eat(".") {
                self.i += 1;
                d += 1;
            } else {
                return d;
            }
        }
    }

    fn atom(&mut self) -> usize {
        let Some(t) = self.toks.get(self.i) else {
            return 1;
        };
        self.i += 1;
        match (t.kind, &self.src[t.start..t.end]) {
            (Kind::Str, _) => {
                while self.toks.get(self.i).is_some_and(|t| t.kind == Kind::Str) {
                    self.i += 1;
                }
                1
            }
            (Kind::Op, "(") => {
                let s = self.items(Some(")"), Ctx::Plain);
                if s.comma || s.count == 0 {
                    1 + s.depth // a tuple
                } else {
                    s.depth // parentheses add no node
                }
            }
            (Kind::Op, "[") => 1 + self.items(Some("]"), Ctx::Plain).depth,
            (Kind::Op, "{") => 1 + self.items(Some("}"), Ctx::Braces).depth,
            _ => 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lex::lex;

    fn d(src: &str) -> usize {
        let lines = lex(src);
        depth(src, &lines[0].toks)
    }

    /// Expected values from CPython's `ast` (depth of the expression node, leaves 1).
    #[test]
    fn depths_follow_cpython_ast_nesting() {
        assert_eq!(d("x"), 1);
        assert_eq!(d("x*x*x"), 3);
        assert_eq!(d("(((x)))"), 1);
        assert_eq!(d("x + y*y*y"), 4);
        assert_eq!(d("-x"), 2);
        assert_eq!(d("x**y**2"), 3);
        assert_eq!(d("x, y"), 2);
        assert_eq!(d("x < y < 2"), 2);
        assert_eq!(d("[x, (y, 1)][0]"), 4);
        assert_eq!(d("{x: -y}"), 3);
        assert_eq!(d("'##.'[x:y+1:2]"), 4);
        assert_eq!(d("()"), 1);
        let chain = vec!["((x-1)**2+(y-2)**2)"; 3000].join(" * ") + " - 1";
        assert_eq!(d(&chain), 3004);
        assert_eq!(d("f(x, k=y)"), 3);
    }
}
