//! Recursive-descent parser for Python's expression grammar (the subset this
//! module evaluates), and the scope pass that resolves every name to a
//! comprehension/lambda slot or a builtin.

use super::builtins::Builtin;
use super::error::{ErrorKind, EvalError};
use super::lexer::{Tok, Token, syntax, tokenize, unsupported};
use super::value::Value;
use std::rc::Rc;

pub(crate) struct Expr {
    pub kind: ExprKind,
    /// Byte offset in the source, for error locations.
    pub pos: usize,
}

pub(crate) enum ExprKind {
    Const(Value),
    Name(Name),
    Tuple(Vec<Elt>),
    List(Vec<Elt>),
    /// A set display, and how CPython builds it (which decides its order).
    Set(Vec<Elt>, SetBuild),
    Dict(Vec<DictItem>),
    Comp(Rc<Comp>),
    Lambda(Rc<LambdaDef>),
    IfExp(Box<Expr>, Box<Expr>, Box<Expr>),
    And(Vec<Expr>),
    Or(Vec<Expr>),
    Not(Box<Expr>),
    Compare(Box<Expr>, Vec<(CmpOp, Expr)>),
    /// A left-associative chain `first op e op e …` of one precedence level.
    Binary(Box<Expr>, Vec<(BinOp, usize, Expr)>),
    Power(Box<Expr>, Box<Expr>),
    Unary(UnOp, Box<Expr>),
    Call(Box<Expr>, Vec<Arg>),
    Subscript(Box<Expr>, Box<Index>),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum SetBuild {
    /// Items added one by one.
    Plain,
    /// 3+ constant items: CPython's compiler makes a constant frozenset
    /// (built twice: once when folded, again when its constants are merged),
    /// and the display merges it into an empty set.
    ConstMerge,
    /// The constant iterable of a comprehension's `for`: that same
    /// frozenset, iterated directly.
    ConstFrozen,
}

pub(crate) enum Name {
    Unresolved(Rc<str>),
    /// Slot `slot` of the frame `up` levels out from the current one.
    Local {
        up: u32,
        slot: u32,
        name: Rc<str>,
    },
    Builtin(Builtin),
    Undefined(Rc<str>),
}

pub(crate) enum Elt {
    One(Expr),
    Star(Expr),
}

pub(crate) enum DictItem {
    Pair(Expr, Expr),
    Unpack(Expr),
}

pub(crate) enum Arg {
    Pos(Expr),
    Star(Expr),
    Kw(Rc<str>, Expr),
}

pub(crate) enum Index {
    One(Expr),
    Slice(Option<Expr>, Option<Expr>, Option<Expr>),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum CompKind {
    List,
    Set,
    Dict,
    Gen,
}

pub(crate) struct Comp {
    pub kind: CompKind,
    pub elt: Expr,
    /// The value expression of a dict comprehension.
    pub value: Option<Expr>,
    pub clauses: Vec<Clause>,
    pub nslots: usize,
}

pub(crate) enum Clause {
    For(Target, Expr),
    If(Expr),
}

pub(crate) enum Target {
    Name(Rc<str>, u32),
    Tuple(Vec<Target>),
}

pub(crate) struct LambdaDef {
    pub params: Vec<Rc<str>>,
    /// Defaults of the last `defaults.len()` parameters.
    pub defaults: Vec<Expr>,
    pub body: Expr,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum CmpOp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    In,
    NotIn,
    Is,
    IsNot,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    FloorDiv,
    Mod,
    MatMul,
    Pow,
    LShift,
    RShift,
    BitAnd,
    BitOr,
    BitXor,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::FloorDiv => "//",
            BinOp::Mod => "%",
            BinOp::MatMul => "@",
            BinOp::Pow => "** or pow()",
            BinOp::LShift => "<<",
            BinOp::RShift => ">>",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum UnOp {
    Neg,
    Pos,
    Invert,
}

/// Binary precedence levels, loosest first.
const LEVELS: &[&[(&str, BinOp)]] = &[
    &[("|", BinOp::BitOr)],
    &[("^", BinOp::BitXor)],
    &[("&", BinOp::BitAnd)],
    &[("<<", BinOp::LShift), (">>", BinOp::RShift)],
    &[("+", BinOp::Add), ("-", BinOp::Sub)],
    &[
        ("*", BinOp::Mul),
        ("/", BinOp::Div),
        ("//", BinOp::FloorDiv),
        ("%", BinOp::Mod),
        ("@", BinOp::MatMul),
    ],
];

const STATEMENT_KEYWORDS: &[&str] = &[
    "import", "from", "def", "class", "del", "global", "nonlocal", "return", "raise", "try",
    "while", "with", "assert", "pass", "break", "continue", "yield", "await", "async", "elif",
    "except", "finally",
];

type R<T> = Result<T, EvalError>;

struct Parser<'s> {
    src: &'s str,
    toks: Vec<Token>,
    i: usize,
    depth: usize,
    max_depth: usize,
}

/// Parses `src` as one expression (a bare `a, b` is a tuple) and resolves its names.
pub(crate) fn parse(src: &str, max_int_bits: u64, max_depth: usize) -> R<Expr> {
    let toks = tokenize(src, max_int_bits)?;
    let mut p = Parser {
        src,
        toks,
        i: 0,
        depth: 0,
        max_depth,
    };
    if p.at_end() {
        return Err(syntax("empty expression", src, 0));
    }
    let e = p.star_expressions()?;
    match (p.peek(), p.peek_at(1)) {
        (Tok::End, _) | (Tok::Newline, Tok::End) => {}
        _ => return Err(p.unexpected()),
    }
    let mut scopes = Vec::new();
    let mut e = e;
    resolve(&mut e, &mut scopes, src)?;
    Ok(e)
}

impl<'s> Parser<'s> {
    fn peek(&self) -> &Tok {
        &self.toks[self.i].tok
    }

    fn peek_at(&self, n: usize) -> &Tok {
        &self.toks[(self.i + n).min(self.toks.len() - 1)].tok
    }

    fn pos(&self) -> usize {
        self.toks[self.i].pos
    }

    fn at_end(&self) -> bool {
        matches!(self.peek(), Tok::End)
    }

    fn is_op(&self, op: &str) -> bool {
        matches!(self.peek(), Tok::Op(o) if *o == op)
    }

    fn is_kw(&self, kw: &str) -> bool {
        matches!(self.peek(), Tok::Kw(k) if *k == kw)
    }

    fn eat_op(&mut self, op: &str) -> bool {
        if self.is_op(op) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn eat_kw(&mut self, kw: &str) -> bool {
        if self.is_kw(kw) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn expect_op(&mut self, op: &str) -> R<()> {
        if self.eat_op(op) {
            Ok(())
        } else {
            Err(self.unexpected())
        }
    }

    /// The error for an unexpected current token, as specific as we can make it.
    fn unexpected(&self) -> EvalError {
        let at = self.pos();
        let message = match self.peek() {
            Tok::End => "unexpected end of expression".to_owned(),
            Tok::Newline => "unexpected line break: the payload must be a single expression \
                 (wrap multi-line expressions in brackets)"
                .to_owned(),
            Tok::Op("=") => {
                "assignments are not allowed: the payload must be a single expression".to_owned()
            }
            Tok::Op(":=") => {
                return unsupported(
                    "assignment expressions (:=) are not supported",
                    self.src,
                    at,
                );
            }
            Tok::Op(";") => {
                "';' is not allowed: the payload must be a single expression".to_owned()
            }
            Tok::Op(op)
                if op.len() >= 2 && op.ends_with('=') && !["==", "<=", ">=", "!="].contains(op) =>
            {
                "assignments are not allowed: the payload must be a single expression".to_owned()
            }
            Tok::Kw(k) if STATEMENT_KEYWORDS.contains(k) => {
                format!("'{k}' is not allowed: the payload must be a single expression")
            }
            _ => "invalid syntax".to_owned(),
        };
        syntax(message, self.src, at)
    }

    fn enter(&mut self) -> R<()> {
        self.depth += 1;
        if self.depth > self.max_depth {
            return Err(EvalError::new(
                ErrorKind::Limit,
                format!("expression nested too deeply (limit {})", self.max_depth),
            )
            .locate(self.src, self.pos()));
        }
        Ok(())
    }

    fn node(kind: ExprKind, pos: usize) -> Expr {
        Expr { kind, pos }
    }

    /// `star_expressions`: one expression, or a bare tuple `a, *b, c`.
    fn star_expressions(&mut self) -> R<Expr> {
        let pos = self.pos();
        let first = self.star_expression()?;
        if !self.is_op(",") {
            return match first {
                Elt::One(e) => Ok(e),
                Elt::Star(e) => Err(syntax("can't use starred expression here", self.src, e.pos)),
            };
        }
        let mut items = vec![first];
        while self.eat_op(",") {
            if self.at_end() || matches!(self.peek(), Tok::Newline) || self.is_op(")") {
                break;
            }
            items.push(self.star_expression()?);
        }
        Ok(Parser::node(ExprKind::Tuple(items), pos))
    }

    fn star_expression(&mut self) -> R<Elt> {
        if self.eat_op("*") {
            Ok(Elt::Star(self.bitor()?))
        } else {
            Ok(Elt::One(self.expression()?))
        }
    }

    /// `expression`: a lambda, or a conditional expression.
    fn expression(&mut self) -> R<Expr> {
        if self.is_kw("lambda") {
            return self.lambda();
        }
        let pos = self.pos();
        let body = self.disjunction()?;
        if !self.eat_kw("if") {
            return Ok(body);
        }
        let test = self.disjunction()?;
        if !self.eat_kw("else") {
            return Err(syntax(
                "expected 'else' after 'if' expression",
                self.src,
                self.pos(),
            ));
        }
        self.enter()?;
        let orelse = self.expression();
        self.depth -= 1;
        Ok(Parser::node(
            ExprKind::IfExp(Box::new(test), Box::new(body), Box::new(orelse?)),
            pos,
        ))
    }

    fn lambda(&mut self) -> R<Expr> {
        self.enter()?;
        let e = self.lambda_inner();
        self.depth -= 1;
        e
    }

    fn lambda_inner(&mut self) -> R<Expr> {
        let pos = self.pos();
        self.i += 1;
        let mut params: Vec<Rc<str>> = Vec::new();
        let mut defaults = Vec::new();
        while !self.is_op(":") {
            let at = self.pos();
            if self.is_op("*") || self.is_op("**") || self.is_op("/") {
                return Err(unsupported(
                    "lambda parameters other than plain names (with defaults) are not supported",
                    self.src,
                    at,
                ));
            }
            let name = self.name()?;
            if params.contains(&name) {
                return Err(syntax(
                    format!("duplicate argument '{name}' in function definition"),
                    self.src,
                    at,
                ));
            }
            params.push(name);
            if self.eat_op("=") {
                defaults.push(self.expression()?);
            } else if !defaults.is_empty() {
                return Err(syntax(
                    "non-default argument follows default argument",
                    self.src,
                    at,
                ));
            }
            if !self.eat_op(",") {
                break;
            }
        }
        self.expect_op(":")?;
        let body = self.expression()?;
        Ok(Parser::node(
            ExprKind::Lambda(Rc::new(LambdaDef {
                params,
                defaults,
                body,
            })),
            pos,
        ))
    }

    fn name(&mut self) -> R<Rc<str>> {
        let at = self.pos();
        match self.peek().clone() {
            Tok::Name(n) => {
                self.i += 1;
                check_name(&n, self.src, at)?;
                Ok(Rc::from(n))
            }
            _ => Err(self.unexpected()),
        }
    }

    fn disjunction(&mut self) -> R<Expr> {
        let pos = self.pos();
        let first = self.conjunction()?;
        if !self.is_kw("or") {
            return Ok(first);
        }
        let mut items = vec![first];
        while self.eat_kw("or") {
            items.push(self.conjunction()?);
        }
        Ok(Parser::node(ExprKind::Or(items), pos))
    }

    fn conjunction(&mut self) -> R<Expr> {
        let pos = self.pos();
        let first = self.inversion()?;
        if !self.is_kw("and") {
            return Ok(first);
        }
        let mut items = vec![first];
        while self.eat_kw("and") {
            items.push(self.inversion()?);
        }
        Ok(Parser::node(ExprKind::And(items), pos))
    }

    fn inversion(&mut self) -> R<Expr> {
        let pos = self.pos();
        if self.eat_kw("not") {
            self.enter()?;
            let e = self.inversion();
            self.depth -= 1;
            return Ok(Parser::node(ExprKind::Not(Box::new(e?)), pos));
        }
        self.comparison()
    }

    fn comparison(&mut self) -> R<Expr> {
        let pos = self.pos();
        let first = self.bitor()?;
        let mut rest = Vec::new();
        loop {
            let op = match self.peek() {
                Tok::Op("<") => CmpOp::Lt,
                Tok::Op("<=") => CmpOp::Le,
                Tok::Op(">") => CmpOp::Gt,
                Tok::Op(">=") => CmpOp::Ge,
                Tok::Op("==") => CmpOp::Eq,
                Tok::Op("!=") => CmpOp::Ne,
                Tok::Kw("in") => CmpOp::In,
                Tok::Kw("not") if self.peek_at(1) == &Tok::Kw("in") => {
                    self.i += 1;
                    CmpOp::NotIn
                }
                Tok::Kw("is") if self.peek_at(1) == &Tok::Kw("not") => {
                    self.i += 1;
                    CmpOp::IsNot
                }
                Tok::Kw("is") => CmpOp::Is,
                _ => break,
            };
            self.i += 1;
            rest.push((op, self.bitor()?));
        }
        if rest.is_empty() {
            Ok(first)
        } else {
            Ok(Parser::node(ExprKind::Compare(Box::new(first), rest), pos))
        }
    }

    fn bitor(&mut self) -> R<Expr> {
        self.binary(0)
    }

    /// The binary operator at the current token: (precedence level, operator).
    fn peek_binop(&self) -> Option<(usize, BinOp)> {
        let Tok::Op(o) = self.peek() else {
            return None;
        };
        LEVELS
            .iter()
            .enumerate()
            .find_map(|(level, ops)| ops.iter().find(|(s, _)| s == o).map(|(_, op)| (level, *op)))
    }

    /// Binary operators of level `min` or tighter, by precedence climbing
    /// (no recursion unless an operator follows); runs of one level become
    /// one flat left-associative chain.
    fn binary(&mut self, min: usize) -> R<Expr> {
        let pos = self.pos();
        let mut left = self.factor()?;
        // The chain being built: its level and its operations.
        let mut level_of_chain = None;
        let mut rest = Vec::new();
        while let Some((level, op)) = self.peek_binop() {
            if level < min {
                break;
            }
            let at = self.pos();
            self.i += 1;
            self.enter()?;
            let rhs = self.binary(level + 1);
            self.depth -= 1;
            if level_of_chain != Some(level) && !rest.is_empty() {
                left = Parser::node(
                    ExprKind::Binary(Box::new(left), std::mem::take(&mut rest)),
                    pos,
                );
            }
            level_of_chain = Some(level);
            rest.push((op, at, rhs?));
        }
        if !rest.is_empty() {
            left = Parser::node(ExprKind::Binary(Box::new(left), rest), pos);
        }
        Ok(left)
    }

    fn factor(&mut self) -> R<Expr> {
        let pos = self.pos();
        let op = match self.peek() {
            Tok::Op("-") => UnOp::Neg,
            Tok::Op("+") => UnOp::Pos,
            Tok::Op("~") => UnOp::Invert,
            _ => return self.power(),
        };
        self.i += 1;
        self.enter()?;
        let operand = self.factor();
        self.depth -= 1;
        Ok(Parser::node(ExprKind::Unary(op, Box::new(operand?)), pos))
    }

    fn power(&mut self) -> R<Expr> {
        let base = self.primary()?;
        if !self.is_op("**") {
            return Ok(base);
        }
        let at = self.pos();
        self.i += 1;
        self.enter()?;
        let exp = self.factor();
        self.depth -= 1;
        Ok(Parser::node(
            ExprKind::Power(Box::new(base), Box::new(exp?)),
            at,
        ))
    }

    fn primary(&mut self) -> R<Expr> {
        let mut e = self.atom()?;
        // Each call or subscript nests one level deeper, chained or not.
        let depth = self.depth;
        let result = self.trailers(&mut e);
        self.depth = depth;
        result.map(|()| e)
    }

    fn trailers(&mut self, e: &mut Expr) -> R<()> {
        loop {
            let at = self.pos();
            if self.eat_op("(") {
                self.enter()?;
                let args = self.call_args()?;
                let f = std::mem::replace(e, Parser::node(ExprKind::Const(Value::none()), at));
                *e = Parser::node(ExprKind::Call(Box::new(f), args), at);
            } else if self.eat_op("[") {
                self.enter()?;
                let index = self.subscript()?;
                let x = std::mem::replace(e, Parser::node(ExprKind::Const(Value::none()), at));
                *e = Parser::node(ExprKind::Subscript(Box::new(x), Box::new(index)), at);
            } else if self.is_op(".") {
                let what = match self.peek_at(1) {
                    Tok::Name(n) => format!(" (.{n})"),
                    _ => String::new(),
                };
                return Err(unsupported(
                    format!("attribute access{what} is not allowed"),
                    self.src,
                    at,
                ));
            } else {
                return Ok(());
            }
        }
    }

    fn call_args(&mut self) -> R<Vec<Arg>> {
        let mut args = Vec::new();
        let mut seen_kw: Vec<Rc<str>> = Vec::new();
        while !self.eat_op(")") {
            let at = self.pos();
            if self.eat_op("*") {
                args.push(Arg::Star(self.expression()?));
            } else if self.is_op("**") {
                return Err(unsupported(
                    "**kwargs in calls are not supported",
                    self.src,
                    at,
                ));
            } else if matches!(self.peek(), Tok::Name(_)) && self.peek_at(1) == &Tok::Op("=") {
                let name = self.name()?;
                self.i += 1;
                if seen_kw.contains(&name) {
                    return Err(syntax(
                        format!("keyword argument repeated: {name}"),
                        self.src,
                        at,
                    ));
                }
                seen_kw.push(name.clone());
                args.push(Arg::Kw(name, self.expression()?));
            } else {
                if !seen_kw.is_empty() {
                    return Err(syntax(
                        "positional argument follows keyword argument",
                        self.src,
                        at,
                    ));
                }
                let e = self.expression()?;
                if self.is_kw("for") {
                    let gen_at = e.pos;
                    let comp = self.comprehension(CompKind::Gen, e, None)?;
                    let lone = args.is_empty() && self.is_op(")");
                    if !lone {
                        return Err(syntax(
                            "Generator expression must be parenthesized",
                            self.src,
                            gen_at,
                        ));
                    }
                    args.push(Arg::Pos(Parser::node(comp, gen_at)));
                    continue;
                }
                args.push(Arg::Pos(e));
            }
            if !self.eat_op(",") {
                self.expect_op(")")?;
                break;
            }
        }
        Ok(args)
    }

    fn subscript(&mut self) -> R<Index> {
        let pos = self.pos();
        let first = self.slice_item()?;
        if self.eat_op("]") {
            return Ok(first);
        }
        // `x[a, b]` indexes with a tuple.
        let mut items = Vec::new();
        let mut push = |index: Index, src: &str| match index {
            Index::One(e) => {
                items.push(Elt::One(e));
                Ok(())
            }
            Index::Slice(..) => Err(unsupported(
                "slices inside tuple subscripts are not supported",
                src,
                pos,
            )),
        };
        push(first, self.src)?;
        while self.eat_op(",") {
            if self.is_op("]") {
                break;
            }
            let item = self.slice_item()?;
            push(item, self.src)?;
        }
        self.expect_op("]")?;
        Ok(Index::One(Parser::node(ExprKind::Tuple(items), pos)))
    }

    fn slice_item(&mut self) -> R<Index> {
        let bound = |p: &mut Parser| -> R<Option<Expr>> {
            if p.is_op(":") || p.is_op("]") || p.is_op(",") {
                Ok(None)
            } else {
                p.expression().map(Some)
            }
        };
        let lower = bound(self)?;
        if !self.eat_op(":") {
            return match lower {
                Some(e) => Ok(Index::One(e)),
                None => Err(self.unexpected()),
            };
        }
        let upper = bound(self)?;
        let step = if self.eat_op(":") { bound(self)? } else { None };
        Ok(Index::Slice(lower, upper, step))
    }

    fn atom(&mut self) -> R<Expr> {
        let pos = self.pos();
        let tok = self.peek().clone();
        let kind = match tok {
            Tok::Int(v) => {
                self.i += 1;
                ExprKind::Const(v)
            }
            Tok::Float(f) => {
                self.i += 1;
                ExprKind::Const(Value::from(f))
            }
            Tok::Str(s) => {
                self.i += 1;
                let mut s = s;
                while let Tok::Str(more) = self.peek() {
                    s.push_str(more);
                    self.i += 1;
                }
                ExprKind::Const(Value::from(s))
            }
            Tok::Kw("True") => {
                self.i += 1;
                ExprKind::Const(Value::from(true))
            }
            Tok::Kw("False") => {
                self.i += 1;
                ExprKind::Const(Value::from(false))
            }
            Tok::Kw("None") => {
                self.i += 1;
                ExprKind::Const(Value::none())
            }
            Tok::Name(_) => ExprKind::Name(Name::Unresolved(self.name()?)),
            Tok::Op("(") => return self.paren(),
            Tok::Op("[") => return self.bracket(),
            Tok::Op("{") => return self.brace(),
            Tok::Op("...") => {
                return Err(unsupported(
                    "Ellipsis (...) is not supported",
                    self.src,
                    pos,
                ));
            }
            _ => return Err(self.unexpected()),
        };
        Ok(Parser::node(kind, pos))
    }

    /// Items of a display up to `close`; a comprehension if the first item
    /// is followed by `for`.
    fn display_items(&mut self, close: &str) -> R<Result<Vec<Elt>, Expr>> {
        let mut items = Vec::new();
        while !self.eat_op(close) {
            let item = self.star_expression()?;
            if items.is_empty() && self.is_kw("for") {
                return match item {
                    Elt::One(e) => Ok(Err(e)),
                    Elt::Star(e) => Err(syntax(
                        "iterable unpacking cannot be used in comprehension",
                        self.src,
                        e.pos,
                    )),
                };
            }
            items.push(item);
            if !self.eat_op(",") {
                self.expect_op(close)?;
                break;
            }
        }
        Ok(Ok(items))
    }

    fn paren(&mut self) -> R<Expr> {
        let pos = self.pos();
        self.i += 1;
        self.enter()?;
        let result = self.paren_inner(pos);
        self.depth -= 1;
        result
    }

    fn paren_inner(&mut self, pos: usize) -> R<Expr> {
        if self.eat_op(")") {
            return Ok(Parser::node(ExprKind::Tuple(Vec::new()), pos));
        }
        let first = self.star_expression()?;
        match first {
            Elt::One(e) if self.is_kw("for") => {
                let comp = self.comprehension(CompKind::Gen, e, None)?;
                self.expect_op(")")?;
                Ok(Parser::node(comp, pos))
            }
            Elt::One(e) if self.eat_op(")") => Ok(e),
            first => {
                if !self.is_op(",") {
                    if let Elt::Star(e) = &first {
                        return Err(syntax(
                            "cannot use starred expression here",
                            self.src,
                            e.pos,
                        ));
                    }
                    return Err(self.unexpected());
                }
                let mut items = vec![first];
                while self.eat_op(",") {
                    if self.is_op(")") {
                        break;
                    }
                    items.push(self.star_expression()?);
                }
                self.expect_op(")")?;
                Ok(Parser::node(ExprKind::Tuple(items), pos))
            }
        }
    }

    fn bracket(&mut self) -> R<Expr> {
        let pos = self.pos();
        self.i += 1;
        self.enter()?;
        let result = match self.display_items("]") {
            Ok(Ok(items)) => Ok(Parser::node(ExprKind::List(items), pos)),
            Ok(Err(elt)) => self.comprehension(CompKind::List, elt, None).and_then(|c| {
                self.expect_op("]")?;
                Ok(Parser::node(c, pos))
            }),
            Err(e) => Err(e),
        };
        self.depth -= 1;
        result
    }

    fn brace(&mut self) -> R<Expr> {
        let pos = self.pos();
        self.i += 1;
        self.enter()?;
        let result = self.brace_inner(pos);
        self.depth -= 1;
        result
    }

    fn brace_inner(&mut self, pos: usize) -> R<Expr> {
        if self.eat_op("}") {
            return Ok(Parser::node(ExprKind::Dict(Vec::new()), pos));
        }
        // A dict if the first item is `k: v` or `**d`.
        if self.eat_op("**") {
            let first = self.bitor()?;
            return self.dict_rest(DictItem::Unpack(first), pos);
        }
        let first = self.star_expression()?;
        let first = match first {
            Elt::One(key) if self.eat_op(":") => {
                let value = self.expression()?;
                if self.is_kw("for") {
                    let comp = self.comprehension(CompKind::Dict, key, Some(value))?;
                    self.expect_op("}")?;
                    return Ok(Parser::node(comp, pos));
                }
                return self.dict_rest(DictItem::Pair(key, value), pos);
            }
            Elt::One(elt) if self.is_kw("for") => {
                let comp = self.comprehension(CompKind::Set, elt, None)?;
                self.expect_op("}")?;
                return Ok(Parser::node(comp, pos));
            }
            first => first,
        };
        let mut items = vec![first];
        while self.eat_op(",") {
            if self.is_op("}") {
                break;
            }
            items.push(self.star_expression()?);
        }
        self.expect_op("}")?;
        Ok(Parser::node(ExprKind::Set(items, SetBuild::Plain), pos))
    }

    fn dict_rest(&mut self, first: DictItem, pos: usize) -> R<Expr> {
        let mut items = vec![first];
        while self.eat_op(",") {
            if self.is_op("}") {
                break;
            }
            if self.eat_op("**") {
                items.push(DictItem::Unpack(self.bitor()?));
            } else {
                let key = self.expression()?;
                if !self.eat_op(":") {
                    return Err(syntax(
                        "':' expected after dictionary key",
                        self.src,
                        self.pos(),
                    ));
                }
                items.push(DictItem::Pair(key, self.expression()?));
            }
        }
        self.expect_op("}")?;
        Ok(Parser::node(ExprKind::Dict(items), pos))
    }

    /// The `for … in … if …` clauses after `elt`.
    fn comprehension(&mut self, kind: CompKind, elt: Expr, value: Option<Expr>) -> R<ExprKind> {
        let mut clauses = Vec::new();
        while self.is_kw("for") || (self.is_kw("if") && !clauses.is_empty()) {
            if self.eat_kw("if") {
                clauses.push(Clause::If(self.disjunction()?));
                continue;
            }
            self.i += 1;
            if self.is_kw("async") {
                return Err(unsupported(
                    "async comprehensions are not supported",
                    self.src,
                    self.pos(),
                ));
            }
            let target = self.targets()?;
            if !self.eat_kw("in") {
                return Err(syntax("expected 'in'", self.src, self.pos()));
            }
            self.enter()?;
            let iter = self.disjunction();
            self.depth -= 1;
            clauses.push(Clause::For(target, iter?));
        }
        Ok(ExprKind::Comp(Rc::new(Comp {
            kind,
            elt,
            value,
            clauses,
            nslots: 0,
        })))
    }

    /// `for` targets: `x`, `x, y`, `(x, (y, z))`, `[x, y]`.
    fn targets(&mut self) -> R<Target> {
        let first = self.target()?;
        if !self.is_op(",") {
            return Ok(first);
        }
        let mut items = vec![first];
        while self.eat_op(",") {
            if self.is_kw("in") {
                break;
            }
            items.push(self.target()?);
        }
        Ok(Target::Tuple(items))
    }

    fn target(&mut self) -> R<Target> {
        let pos = self.pos();
        let close = if self.eat_op("(") {
            ")"
        } else if self.eat_op("[") {
            "]"
        } else if self.is_op("*") {
            return Err(unsupported(
                "starred loop targets are not supported",
                self.src,
                pos,
            ));
        } else {
            return match self.peek() {
                Tok::Name(_) => Ok(Target::Name(self.name()?, 0)),
                _ => Err(syntax("invalid loop target", self.src, pos)),
            };
        };
        self.enter()?;
        let mut items = Vec::new();
        while !self.eat_op(close) {
            items.push(self.target()?);
            if !self.eat_op(",") {
                self.expect_op(close)?;
                break;
            }
        }
        self.depth -= 1;
        if close == ")" && items.len() == 1 && !matches!(self.toks[self.i - 2].tok, Tok::Op(",")) {
            return Ok(items.pop().unwrap_or(Target::Tuple(Vec::new())));
        }
        Ok(Target::Tuple(items))
    }
}

fn check_name(name: &str, src: &str, at: usize) -> R<()> {
    if name.starts_with("__") {
        return Err(unsupported(
            format!("names starting with '__' are not allowed ({name})"),
            src,
            at,
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Scopes
// ---------------------------------------------------------------------------

fn internal(src: &str, pos: usize) -> EvalError {
    EvalError::new(ErrorKind::Syntax, "internal error: shared syntax tree").locate(src, pos)
}

/// Resolves names (innermost scope last in `scopes`) and marks constant set displays.
fn resolve(e: &mut Expr, scopes: &mut Vec<Vec<Rc<str>>>, src: &str) -> R<()> {
    let pos = e.pos;
    match &mut e.kind {
        ExprKind::Const(_) => {}
        ExprKind::Name(name) => {
            if let Name::Unresolved(n) = name {
                let n = n.clone();
                *name = lookup(&n, scopes);
            }
        }
        ExprKind::Tuple(items) | ExprKind::List(items) => resolve_elts(items, scopes, src)?,
        ExprKind::Set(items, build) => {
            resolve_elts(items, scopes, src)?;
            let constant = items
                .iter()
                .all(|i| matches!(i, Elt::One(e) if super::interp::fold_const(e).is_some()));
            *build = if constant && items.len() >= 3 {
                SetBuild::ConstMerge
            } else {
                SetBuild::Plain
            };
        }
        ExprKind::Dict(items) => {
            for item in items {
                match item {
                    DictItem::Pair(k, v) => {
                        resolve(k, scopes, src)?;
                        resolve(v, scopes, src)?;
                    }
                    DictItem::Unpack(d) => resolve(d, scopes, src)?,
                }
            }
        }
        ExprKind::Comp(comp) => {
            let comp = Rc::get_mut(comp).ok_or_else(|| internal(src, pos))?;
            // The first iterable is evaluated in the enclosing scope.
            if let Some(Clause::For(_, iter)) = comp.clauses.first_mut() {
                resolve(iter, scopes, src)?;
            }
            let mut names = Vec::new();
            for clause in &comp.clauses {
                if let Clause::For(t, _) = clause {
                    target_names(t, &mut names);
                }
            }
            comp.nslots = names.len();
            scopes.push(names);
            let result = (|| {
                for (i, clause) in comp.clauses.iter_mut().enumerate() {
                    match clause {
                        Clause::For(t, iter) => {
                            assign_slots(t, scopes.last().map_or(&[][..], |s| s));
                            if i > 0 {
                                resolve(iter, scopes, src)?;
                            }
                        }
                        Clause::If(c) => resolve(c, scopes, src)?,
                    }
                }
                // CPython iterates a constant set display in a `for` as a frozenset.
                for clause in comp.clauses.iter_mut() {
                    if let Clause::For(
                        _,
                        Expr {
                            kind: ExprKind::Set(items, build),
                            ..
                        },
                    ) = clause
                        && items.iter().all(
                            |i| matches!(i, Elt::One(e) if super::interp::fold_const(e).is_some()),
                        )
                    {
                        *build = SetBuild::ConstFrozen;
                    }
                }
                resolve(&mut comp.elt, scopes, src)?;
                if let Some(v) = &mut comp.value {
                    resolve(v, scopes, src)?;
                }
                Ok(())
            })();
            scopes.pop();
            result?;
        }
        ExprKind::Lambda(def) => {
            let def = Rc::get_mut(def).ok_or_else(|| internal(src, pos))?;
            for d in &mut def.defaults {
                resolve(d, scopes, src)?;
            }
            scopes.push(def.params.clone());
            let result = resolve(&mut def.body, scopes, src);
            scopes.pop();
            result?;
        }
        ExprKind::IfExp(a, b, c) => {
            resolve(a, scopes, src)?;
            resolve(b, scopes, src)?;
            resolve(c, scopes, src)?;
        }
        ExprKind::And(items) | ExprKind::Or(items) => {
            for i in items {
                resolve(i, scopes, src)?;
            }
        }
        ExprKind::Not(a) | ExprKind::Unary(_, a) => resolve(a, scopes, src)?,
        ExprKind::Compare(first, rest) => {
            resolve(first, scopes, src)?;
            for (_, e) in rest {
                resolve(e, scopes, src)?;
            }
        }
        ExprKind::Binary(first, rest) => {
            resolve(first, scopes, src)?;
            for (_, _, e) in rest {
                resolve(e, scopes, src)?;
            }
        }
        ExprKind::Power(a, b) => {
            resolve(a, scopes, src)?;
            resolve(b, scopes, src)?;
        }
        ExprKind::Call(f, args) => {
            resolve(f, scopes, src)?;
            for a in args {
                match a {
                    Arg::Pos(e) | Arg::Star(e) | Arg::Kw(_, e) => resolve(e, scopes, src)?,
                }
            }
        }
        ExprKind::Subscript(x, index) => {
            resolve(x, scopes, src)?;
            match &mut **index {
                Index::One(e) => resolve(e, scopes, src)?,
                Index::Slice(a, b, c) => {
                    for e in [a, b, c].into_iter().flatten() {
                        resolve(e, scopes, src)?;
                    }
                }
            }
        }
    }
    Ok(())
}

fn resolve_elts(items: &mut [Elt], scopes: &mut Vec<Vec<Rc<str>>>, src: &str) -> R<()> {
    for item in items {
        match item {
            Elt::One(e) | Elt::Star(e) => resolve(e, scopes, src)?,
        }
    }
    Ok(())
}

fn lookup(name: &Rc<str>, scopes: &[Vec<Rc<str>>]) -> Name {
    for (up, scope) in scopes.iter().rev().enumerate() {
        if let Some(slot) = scope.iter().position(|n| n == name) {
            return Name::Local {
                up: up as u32,
                slot: slot as u32,
                name: name.clone(),
            };
        }
    }
    match Builtin::from_name(name) {
        Some(b) => Name::Builtin(b),
        None => Name::Undefined(name.clone()),
    }
}

fn target_names(t: &Target, names: &mut Vec<Rc<str>>) {
    match t {
        Target::Name(n, _) => {
            if !names.contains(n) {
                names.push(n.clone());
            }
        }
        Target::Tuple(items) => {
            for t in items {
                target_names(t, names);
            }
        }
    }
}

fn assign_slots(t: &mut Target, names: &[Rc<str>]) {
    match t {
        Target::Name(n, slot) => *slot = names.iter().position(|m| m == n).unwrap_or(0) as u32,
        Target::Tuple(items) => {
            for t in items {
                assign_slots(t, names);
            }
        }
    }
}
