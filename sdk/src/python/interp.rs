//! The evaluator: expressions, scopes, iteration (lazy where CPython is),
//! calls and budgets.

use super::EvalLimits;
use super::builtins::{self, Builtin};
use super::error::{ErrorKind, EvalError};
use super::parser::{
    self, Arg, Clause, Comp, CompKind, DictItem, Elt, Expr, ExprKind, LambdaDef, Name, SetBuild,
    Target,
};
use super::value::{Dict, Seq, Set, V, Value, py_hash};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};

pub(crate) type R<T> = Result<T, EvalError>;

pub(crate) fn err(kind: ErrorKind, message: impl Into<String>) -> EvalError {
    EvalError::new(kind, message)
}

pub(crate) fn type_err(message: impl Into<String>) -> EvalError {
    EvalError::new(ErrorKind::Type, message)
}

pub(crate) fn value_err(message: impl Into<String>) -> EvalError {
    EvalError::new(ErrorKind::Value, message)
}

/// Identities for lambdas and iterator objects (their hash and `is`).
fn next_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// What one evaluation shares with the closures it creates: the source
/// (for error locations) and the limits.
pub(crate) struct Context {
    src: Rc<str>,
    limits: EvalLimits,
}

/// The variables of one comprehension or lambda call.
pub(crate) struct Frame {
    slots: RefCell<Vec<Option<Value>>>,
    parent: Option<Rc<Frame>>,
}

impl Frame {
    fn new(n: usize, parent: Option<Rc<Frame>>) -> Rc<Frame> {
        Rc::new(Frame {
            slots: RefCell::new(vec![None; n]),
            parent,
        })
    }
}

/// A lambda with its defining scope.
pub(crate) struct Closure {
    def: Rc<LambdaDef>,
    env: Rc<Frame>,
    defaults: Vec<Value>,
    ctx: Rc<Context>,
    pub id: u64,
}

/// A lazy iterator object (generator, `map`, `zip`, …) shared by the values
/// that refer to it, as in CPython.
pub(crate) struct IterObj {
    pub type_name: &'static str,
    state: RefCell<PyIter>,
    pub id: u64,
}

/// The state of an iteration.
pub(crate) enum PyIter {
    Seq(Rc<Seq>, usize),
    RevSeq(Rc<Seq>, usize),
    Str(Rc<str>, usize),
    RevStr(Rc<str>, usize),
    Set(Rc<Set>, usize),
    Dict(Rc<Dict>, usize),
    RevDict(Rc<Dict>, usize),
    Range { next: i64, step: i64, left: u64 },
    Gen(Box<GenState>),
    Map(Value, Vec<PyIter>),
    Filter(Option<Value>, Box<PyIter>),
    Zip(Vec<PyIter>, bool),
    Enumerate(Box<PyIter>, Value),
    Shared(Rc<IterObj>),
}

/// A running comprehension: a stack of active `for` clauses.
pub(crate) struct GenState {
    comp: Rc<Comp>,
    frame: Rc<Frame>,
    stack: Vec<(usize, PyIter)>,
    ctx: Rc<Context>,
    done: bool,
}

/// One evaluation's budget and position.
pub(crate) struct Interp {
    ctx: Rc<Context>,
    steps: u64,
    elements: u64,
    depth: usize,
}

/// Parses and evaluates `src`.
pub(crate) fn eval_source(src: &str, limits: &EvalLimits) -> R<Value> {
    let src = src.trim_start_matches([' ', '\t']);
    let expr = parser::parse(src, limits.max_int_bits, limits.max_depth)?;
    let mut it = Interp::new(Rc::new(Context {
        src: Rc::from(src),
        limits: *limits,
    }));
    let root = Frame::new(0, None);
    it.eval(&expr, &root)
}

/// [`Value::call`]: calls a lambda or builtin with a fresh budget.
pub(crate) fn call_from_rust(f: &Value, args: &[Value]) -> R<Value> {
    let ctx = match &f.0 {
        V::Func(c) => c.ctx.clone(),
        _ => Rc::new(Context {
            src: Rc::from(""),
            limits: EvalLimits::default(),
        }),
    };
    Interp::new(ctx).call(f, args.to_vec(), Vec::new())
}

/// The value of a constant expression if CPython's compiler would fold it
/// into a constant (this decides how a set display is built).
pub(crate) fn fold_const(e: &Expr) -> Option<Value> {
    const MAX_INT_SIZE: u64 = 128;
    const MAX_COLLECTION_SIZE: usize = 256;
    const MAX_STR_SIZE: usize = 4096;
    let mut it = Interp::new(Rc::new(Context {
        src: Rc::from(""),
        limits: EvalLimits::default(),
    }));
    let bits = |v: &Value| match &v.0 {
        V::Int(i) => 64 - i.unsigned_abs().leading_zeros() as u64,
        V::Big(b) => b.bits(),
        V::Bool(b) => *b as u64,
        _ => 0,
    };
    let is_int = |v: &Value| matches!(v.0, V::Int(_) | V::Big(_) | V::Bool(_));
    let safe = |op: parser::BinOp, a: &Value, b: &Value| -> bool {
        use parser::BinOp::*;
        let seq_len = |v: &Value| match &v.0 {
            V::Str(s) => Some((s.chars().count(), MAX_STR_SIZE)),
            V::Tuple(t) => Some((t.items.len(), MAX_COLLECTION_SIZE)),
            _ => None,
        };
        match op {
            Mul => {
                if is_int(a) && is_int(b) {
                    return !a.truthy() || !b.truthy() || bits(a) + bits(b) <= MAX_INT_SIZE;
                }
                let (n, s) = if is_int(a) { (a, b) } else { (b, a) };
                match (n.0.clone(), seq_len(s)) {
                    (V::Int(n), Some((len, max))) if len > 0 => n >= 0 && (n as usize) <= max / len,
                    (V::Big(_), Some((len, _))) => len == 0,
                    _ => true,
                }
            }
            Pow => {
                if is_int(a) && is_int(b) && a.truthy() && b.as_i64().is_some_and(|w| w > 0) {
                    let w = b.as_i64().unwrap_or(1) as u64;
                    return bits(a) <= MAX_INT_SIZE / w;
                }
                !(is_int(a) && matches!(b.0, V::Big(_)) && a.truthy())
            }
            LShift => {
                if is_int(a) && is_int(b) && a.truthy() && b.truthy() {
                    let w = b.as_i64().map_or(u64::MAX, |w| w as u64);
                    return w <= MAX_INT_SIZE && bits(a) <= MAX_INT_SIZE - w;
                }
                true
            }
            Mod => !matches!(a.0, V::Str(_)),
            _ => true,
        }
    };
    fn fold(
        e: &Expr,
        it: &mut Interp,
        safe: &dyn Fn(parser::BinOp, &Value, &Value) -> bool,
    ) -> Option<Value> {
        match &e.kind {
            ExprKind::Const(v) => Some(v.clone()),
            ExprKind::Unary(op, a) => {
                let v = fold(a, it, safe)?;
                it.unary(*op, &v).ok()
            }
            ExprKind::Not(a) => Some(Value::from(!fold(a, it, safe)?.truthy())),
            ExprKind::Binary(first, rest) => {
                let mut acc = fold(first, it, safe)?;
                for (op, _, e) in rest {
                    let rhs = fold(e, it, safe)?;
                    if !safe(*op, &acc, &rhs) {
                        return None;
                    }
                    acc = it.binop(*op, &acc, &rhs).ok()?;
                }
                Some(acc)
            }
            ExprKind::Power(a, b) => {
                let (a, b) = (fold(a, it, safe)?, fold(b, it, safe)?);
                if !safe(parser::BinOp::Pow, &a, &b) {
                    return None;
                }
                it.binop(parser::BinOp::Pow, &a, &b).ok()
            }
            ExprKind::Tuple(items) => {
                let mut out = Vec::new();
                for item in items {
                    match item {
                        Elt::One(e) => out.push(fold(e, it, safe)?),
                        Elt::Star(_) => return None,
                    }
                }
                Some(Value::tuple(out))
            }
            ExprKind::Subscript(x, index) => match &**index {
                parser::Index::One(i) => {
                    let (x, i) = (fold(x, it, safe)?, fold(i, it, safe)?);
                    it.getitem(&x, &i).ok()
                }
                parser::Index::Slice(..) => None,
            },
            _ => None,
        }
    }
    fold(e, &mut it, &safe)
}

impl Interp {
    fn new(ctx: Rc<Context>) -> Interp {
        Interp {
            ctx,
            steps: 0,
            elements: 0,
            depth: 0,
        }
    }

    pub(crate) fn limits(&self) -> &EvalLimits {
        &self.ctx.limits
    }

    /// Counts `n` evaluation steps.
    pub(crate) fn charge(&mut self, n: u64) -> R<()> {
        self.steps = self.steps.saturating_add(n);
        if self.steps > self.ctx.limits.max_steps {
            return Err(err(
                ErrorKind::Limit,
                format!("evaluation exceeded {} steps", self.ctx.limits.max_steps),
            ));
        }
        Ok(())
    }

    /// Counts `n` container items or string characters about to be created.
    pub(crate) fn alloc(&mut self, n: u64) -> R<()> {
        self.elements = self.elements.saturating_add(n);
        if self.elements > self.ctx.limits.max_elements {
            return Err(err(
                ErrorKind::Limit,
                format!(
                    "evaluation created more than {} container items or string characters",
                    self.ctx.limits.max_elements
                ),
            ));
        }
        Ok(())
    }

    fn enter(&mut self) -> R<()> {
        self.depth += 1;
        if self.depth > self.ctx.limits.max_depth {
            return Err(err(
                ErrorKind::Limit,
                format!(
                    "evaluation nested more than {} levels deep (deep lambda recursion?)",
                    self.ctx.limits.max_depth
                ),
            ));
        }
        Ok(())
    }

    /// Checks the nesting depth of a container about to be returned.
    pub(crate) fn check_depth(&self, v: Value) -> R<Value> {
        if v.depth() as usize > self.ctx.limits.max_depth {
            return Err(err(
                ErrorKind::Limit,
                format!(
                    "containers nested more than {} levels deep",
                    self.ctx.limits.max_depth
                ),
            ));
        }
        Ok(v)
    }

    pub(crate) fn new_list(&mut self, items: Vec<Value>) -> R<Value> {
        self.check_depth(Value(V::List(Rc::new(Seq::new(items)))))
    }

    pub(crate) fn new_tuple(&mut self, items: Vec<Value>) -> R<Value> {
        self.check_depth(Value(V::Tuple(Rc::new(Seq::new(items)))))
    }

    pub(crate) fn new_set(&mut self, set: Set, frozen: bool) -> R<Value> {
        let set = Rc::new(set);
        self.check_depth(Value(if frozen {
            V::FrozenSet(set)
        } else {
            V::Set(set)
        }))
    }

    pub(crate) fn new_dict(&mut self, d: Dict) -> R<Value> {
        self.check_depth(Value(V::Dict(Rc::new(d))))
    }

    pub(crate) fn new_str(&mut self, s: String) -> R<Value> {
        self.alloc(s.len() as u64)?;
        Ok(Value::from(s))
    }

    pub(crate) fn new_iter(&mut self, type_name: &'static str, state: PyIter) -> Value {
        Value(V::Iter(Rc::new(IterObj {
            type_name,
            state: RefCell::new(state),
            id: next_id(),
        })))
    }

    fn locate(&self, e: EvalError, pos: usize) -> EvalError {
        e.locate(&self.ctx.src, pos)
    }

    /// Runs `f` with `ctx` as the current context (for code from another evaluation).
    fn with_ctx<T>(&mut self, ctx: &Rc<Context>, f: impl FnOnce(&mut Interp) -> R<T>) -> R<T> {
        if Rc::ptr_eq(ctx, &self.ctx) {
            return f(self);
        }
        // Errors are located in the callee's source; the limits stay the caller's.
        let inner = Rc::new(Context {
            src: ctx.src.clone(),
            limits: self.ctx.limits,
        });
        let saved = std::mem::replace(&mut self.ctx, inner);
        let r = f(self);
        self.ctx = saved;
        r
    }

    // -----------------------------------------------------------------------
    // Expressions
    // -----------------------------------------------------------------------

    pub(crate) fn eval(&mut self, e: &Expr, env: &Rc<Frame>) -> R<Value> {
        self.charge(1)?;
        match &e.kind {
            ExprKind::Const(v) => Ok(v.clone()),
            ExprKind::Name(n) => self.load(n, env).map_err(|x| self.locate(x, e.pos)),
            _ => {
                self.enter().map_err(|x| self.locate(x, e.pos))?;
                let r = self.eval_compound(e, env);
                self.depth -= 1;
                r.map_err(|x| self.locate(x, e.pos))
            }
        }
    }

    fn load(&mut self, n: &Name, env: &Rc<Frame>) -> R<Value> {
        match n {
            Name::Local { up, slot, name } => {
                let mut frame = env;
                for _ in 0..*up {
                    match &frame.parent {
                        Some(p) => frame = p,
                        None => break,
                    }
                }
                frame.slots.borrow()[*slot as usize].clone().ok_or_else(|| {
                    err(
                        ErrorKind::Name,
                        format!(
                            "cannot access free variable '{name}' where it is not associated with a value in enclosing scope"
                        ),
                    )
                })
            }
            Name::Builtin(b) => Ok(Value(V::Builtin(*b))),
            Name::Undefined(name) => Err(err(
                ErrorKind::Name,
                format!(
                    "name '{name}' is not defined (available builtins: {})",
                    Builtin::all_names()
                ),
            )),
            Name::Unresolved(name) => Err(err(
                ErrorKind::Name,
                format!("name '{name}' is not defined"),
            )),
        }
    }

    fn eval_compound(&mut self, e: &Expr, env: &Rc<Frame>) -> R<Value> {
        match &e.kind {
            ExprKind::Const(_) | ExprKind::Name(_) => unreachable!("handled in eval"),
            ExprKind::Tuple(items) => {
                let items = self.eval_elts(items, env)?;
                self.new_tuple(items)
            }
            ExprKind::List(items) => {
                let items = self.eval_elts(items, env)?;
                self.new_list(items)
            }
            ExprKind::Set(items, build) => self.eval_set(items, *build, env),
            ExprKind::Dict(items) => self.eval_dict(items, env),
            ExprKind::Comp(comp) => self.eval_comp(comp, env),
            ExprKind::Lambda(def) => {
                let mut defaults = Vec::with_capacity(def.defaults.len());
                for d in &def.defaults {
                    defaults.push(self.eval(d, env)?);
                }
                Ok(Value(V::Func(Rc::new(Closure {
                    def: def.clone(),
                    env: env.clone(),
                    defaults,
                    ctx: self.ctx.clone(),
                    id: next_id(),
                }))))
            }
            ExprKind::IfExp(test, body, orelse) => {
                if self.eval(test, env)?.truthy() {
                    self.eval(body, env)
                } else {
                    self.eval(orelse, env)
                }
            }
            ExprKind::And(items) => {
                let mut v = Value::NONE;
                for item in items {
                    v = self.eval(item, env)?;
                    if !v.truthy() {
                        break;
                    }
                }
                Ok(v)
            }
            ExprKind::Or(items) => {
                let mut v = Value::NONE;
                for item in items {
                    v = self.eval(item, env)?;
                    if v.truthy() {
                        break;
                    }
                }
                Ok(v)
            }
            ExprKind::Not(a) => Ok(Value::from(!self.eval(a, env)?.truthy())),
            ExprKind::Compare(first, rest) => {
                let mut left = self.eval(first, env)?;
                for (op, e) in rest {
                    let right = self.eval(e, env)?;
                    let ok = self
                        .compare(*op, &left, &right)
                        .map_err(|x| self.locate(x, e.pos))?;
                    if !ok {
                        return Ok(Value::from(false));
                    }
                    left = right;
                }
                Ok(Value::from(true))
            }
            ExprKind::Binary(first, rest) => {
                let mut acc = self.eval(first, env)?;
                for (op, pos, e) in rest {
                    let rhs = self.eval(e, env)?;
                    acc = self
                        .binop(*op, &acc, &rhs)
                        .map_err(|x| self.locate(x, *pos))?;
                }
                Ok(acc)
            }
            ExprKind::Power(a, b) => {
                let a = self.eval(a, env)?;
                let b = self.eval(b, env)?;
                self.binop(parser::BinOp::Pow, &a, &b)
            }
            ExprKind::Unary(op, a) => {
                let v = self.eval(a, env)?;
                self.unary(*op, &v)
            }
            ExprKind::Call(f, args) => {
                let f = self.eval(f, env)?;
                let mut pos = Vec::new();
                let mut kw = Vec::new();
                for a in args {
                    match a {
                        Arg::Pos(e) => pos.push(self.eval(e, env)?),
                        Arg::Star(e) => {
                            let v = self.eval(e, env)?;
                            let items = self.collect(&v).map_err(|x| {
                                if x.kind() == ErrorKind::Type && x.location().is_none() {
                                    type_err(format!(
                                        "argument after * must be an iterable, not {}",
                                        v.type_name()
                                    ))
                                } else {
                                    x
                                }
                            })?;
                            pos.extend(items);
                        }
                        Arg::Kw(name, e) => kw.push((name.clone(), self.eval(e, env)?)),
                    }
                }
                self.call(&f, pos, kw)
            }
            ExprKind::Subscript(x, index) => {
                let x = self.eval(x, env)?;
                match &**index {
                    parser::Index::One(i) => {
                        let i = self.eval(i, env)?;
                        self.getitem(&x, &i)
                    }
                    parser::Index::Slice(a, b, c) => {
                        let mut bound = |e: &Option<Expr>| -> R<Value> {
                            match e {
                                Some(e) => self.eval(e, env),
                                None => Ok(Value::NONE),
                            }
                        };
                        let (a, b, c) = (bound(a)?, bound(b)?, bound(c)?);
                        self.slice(&x, &a, &b, &c)
                    }
                }
            }
        }
    }

    fn eval_elts(&mut self, items: &[Elt], env: &Rc<Frame>) -> R<Vec<Value>> {
        let mut out = Vec::with_capacity(items.len());
        for item in items {
            match item {
                Elt::One(e) => {
                    self.alloc(1)?;
                    out.push(self.eval(e, env)?);
                }
                Elt::Star(e) => {
                    let v = self.eval(e, env)?;
                    let more = self.collect(&v).map_err(|x| self.locate(x, e.pos))?;
                    out.extend(more);
                }
            }
        }
        Ok(out)
    }

    /// A set display, built the way CPython's bytecode builds it (which
    /// decides the iteration order of the result).
    fn eval_set(&mut self, items: &[Elt], build: SetBuild, env: &Rc<Frame>) -> R<Value> {
        let mut set = Set::new();
        if build != SetBuild::Plain {
            // The compiler's constant frozenset: built from the items, then
            // rebuilt from its own iteration order when constants are merged.
            let mut folded = Set::new();
            for item in items {
                if let Elt::One(e) = item {
                    let v = self.eval(e, env)?;
                    self.set_add(&mut folded, v)?;
                }
            }
            self.alloc(2 * folded.len() as u64)?;
            let mut frozen = Set::new();
            for (h, v) in folded.entries() {
                frozen.add(v.clone(), h);
            }
            if build == SetBuild::ConstFrozen {
                return self.new_set(frozen, true);
            }
            set.merge(&frozen);
        } else if items.iter().any(|i| matches!(i, Elt::Star(_))) || items.len() > 30 {
            for item in items {
                match item {
                    Elt::One(e) => {
                        let v = self.eval(e, env)?;
                        self.alloc(1)?;
                        self.set_add(&mut set, v)
                            .map_err(|x| self.locate(x, e.pos))?;
                    }
                    Elt::Star(e) => {
                        let v = self.eval(e, env)?;
                        self.set_update(&mut set, &v)
                            .map_err(|x| self.locate(x, e.pos))?;
                    }
                }
            }
        } else {
            let values = self.eval_elts(items, env)?;
            for (v, item) in values.into_iter().zip(items) {
                let pos = match item {
                    Elt::One(e) | Elt::Star(e) => e.pos,
                };
                self.set_add(&mut set, v).map_err(|x| self.locate(x, pos))?;
            }
        }
        self.new_set(set, false)
    }

    /// A dict display; like CPython, runs of up to 15 pairs are evaluated
    /// before any is hashed, longer runs pair by pair.
    fn eval_dict(&mut self, items: &[DictItem], env: &Rc<Frame>) -> R<Value> {
        let mut d = Dict::new();
        let mut i = 0;
        while i < items.len() {
            if let DictItem::Unpack(e) = &items[i] {
                let v = self.eval(e, env)?;
                self.dict_update_mapping(&mut d, &v)
                    .map_err(|x| self.locate(x, e.pos))?;
                i += 1;
                continue;
            }
            let mut end = i;
            while end < items.len() && matches!(items[end], DictItem::Pair(..)) && end - i <= 16 {
                end += 1;
            }
            let chunk = &items[i..end];
            if chunk.len() <= 15 {
                let mut pairs = Vec::with_capacity(chunk.len());
                for item in chunk {
                    if let DictItem::Pair(k, v) = item {
                        pairs.push((self.eval(k, env)?, self.eval(v, env)?, k.pos));
                    }
                }
                for (k, v, pos) in pairs {
                    self.dict_set(&mut d, k, v)
                        .map_err(|x| self.locate(x, pos))?;
                }
            } else {
                for item in chunk {
                    if let DictItem::Pair(k, v) = item {
                        let (kv, vv) = (self.eval(k, env)?, self.eval(v, env)?);
                        self.dict_set(&mut d, kv, vv)
                            .map_err(|x| self.locate(x, k.pos))?;
                    }
                }
            }
            i = end;
        }
        self.new_dict(d)
    }

    pub(crate) fn set_add(&mut self, set: &mut Set, v: Value) -> R<()> {
        let h = py_hash(&v)?;
        set.add(v, h);
        Ok(())
    }

    pub(crate) fn dict_set(&mut self, d: &mut Dict, k: Value, v: Value) -> R<()> {
        let h = py_hash(&k)?;
        self.alloc(1)?;
        d.insert(k, h, v);
        Ok(())
    }

    /// CPython's `set_update_internal`: merges sets, adds dict keys, iterates the rest.
    pub(crate) fn set_update(&mut self, set: &mut Set, v: &Value) -> R<()> {
        match &v.0 {
            V::Set(other) | V::FrozenSet(other) => {
                self.alloc(other.len() as u64)?;
                self.charge(other.len() as u64)?;
                set.merge(other);
            }
            V::Dict(d) => {
                self.alloc(d.len() as u64)?;
                self.charge(d.len() as u64)?;
                set.reserve_for(d.len());
                for (h, k, _) in d.hashed_entries() {
                    set.add(k.clone(), *h);
                }
            }
            _ => {
                let mut it = self.iter(v)?;
                while let Some(x) = self.next(&mut it)? {
                    self.alloc(1)?;
                    self.set_add(set, x)?;
                }
            }
        }
        Ok(())
    }

    /// `{**v}` and `dict(v)` for a mapping.
    fn dict_update_mapping(&mut self, d: &mut Dict, v: &Value) -> R<()> {
        match &v.0 {
            V::Dict(other) => {
                self.charge(other.len() as u64)?;
                for (h, k, val) in other.hashed_entries() {
                    self.alloc(1)?;
                    d.insert(k.clone(), *h, val.clone());
                }
                Ok(())
            }
            _ => Err(type_err(format!(
                "'{}' object is not a mapping",
                v.type_name()
            ))),
        }
    }

    // -----------------------------------------------------------------------
    // Comprehensions and generators
    // -----------------------------------------------------------------------

    fn start_comp(&mut self, comp: &Rc<Comp>, env: &Rc<Frame>) -> R<GenState> {
        let Some(Clause::For(_, first)) = comp.clauses.first() else {
            return Err(err(ErrorKind::Syntax, "comprehension without 'for'"));
        };
        let v = self.eval(first, env)?;
        let it = self.iter(&v).map_err(|x| self.locate(x, first.pos))?;
        Ok(GenState {
            comp: comp.clone(),
            frame: Frame::new(comp.nslots, Some(env.clone())),
            stack: vec![(0, it)],
            ctx: self.ctx.clone(),
            done: false,
        })
    }

    fn eval_comp(&mut self, comp: &Rc<Comp>, env: &Rc<Frame>) -> R<Value> {
        let mut g = self.start_comp(comp, env)?;
        match comp.kind {
            CompKind::Gen => Ok(self.new_iter("generator", PyIter::Gen(Box::new(g)))),
            CompKind::List => {
                let mut out = Vec::new();
                while let Some(v) = self.gen_next(&mut g)? {
                    self.alloc(1)?;
                    out.push(v);
                }
                self.new_list(out)
            }
            CompKind::Set => {
                let mut set = Set::new();
                while let Some(v) = self.gen_next(&mut g)? {
                    self.alloc(1)?;
                    self.set_add(&mut set, v)
                        .map_err(|x| self.locate(x, comp.elt.pos))?;
                }
                self.new_set(set, false)
            }
            CompKind::Dict => {
                let mut d = Dict::new();
                while let Some(pair) = self.gen_next(&mut g)? {
                    // `gen_next` yields `(key, value)` tuples for dict comprehensions.
                    if let Some([k, v]) = pair.as_tuple() {
                        self.dict_set(&mut d, k.clone(), v.clone())
                            .map_err(|x| self.locate(x, comp.elt.pos))?;
                    }
                }
                self.new_dict(d)
            }
        }
    }

    /// The next element of a comprehension (a `(key, value)` tuple for dicts).
    fn gen_next(&mut self, g: &mut GenState) -> R<Option<Value>> {
        if g.done {
            return Ok(None);
        }
        let ctx = g.ctx.clone();
        let r = self.with_ctx(&ctx, |s| s.gen_step(g));
        if !matches!(r, Ok(Some(_))) {
            g.done = true;
            g.stack.clear();
        }
        r
    }

    fn gen_step(&mut self, g: &mut GenState) -> R<Option<Value>> {
        let comp = g.comp.clone();
        let n = comp.clauses.len();
        loop {
            // Advance the innermost active `for`.
            let (k, item) = loop {
                let Some((k, it)) = g.stack.last_mut() else {
                    return Ok(None);
                };
                let k = *k;
                match self.next(it)? {
                    Some(item) => break (k, item),
                    None => {
                        g.stack.pop();
                    }
                }
            };
            if let Clause::For(target, iter) = &comp.clauses[k] {
                self.bind(target, item, &g.frame)
                    .map_err(|x| self.locate(x, iter.pos))?;
            }
            // Descend through the following clauses.
            let mut i = k + 1;
            let complete = loop {
                if i == n {
                    break true;
                }
                match &comp.clauses[i] {
                    Clause::If(cond) => {
                        if !self.eval(cond, &g.frame)?.truthy() {
                            break false;
                        }
                        i += 1;
                    }
                    Clause::For(_, iter) => {
                        let v = self.eval(iter, &g.frame)?;
                        let it = self.iter(&v).map_err(|x| self.locate(x, iter.pos))?;
                        g.stack.push((i, it));
                        break false;
                    }
                }
            };
            if complete {
                let elt = self.eval(&comp.elt, &g.frame)?;
                return match &comp.value {
                    Some(value) => {
                        let v = self.eval(value, &g.frame)?;
                        Ok(Some(Value::tuple([elt, v])))
                    }
                    None => Ok(Some(elt)),
                };
            }
        }
    }

    fn bind(&mut self, t: &Target, v: Value, frame: &Rc<Frame>) -> R<()> {
        match t {
            Target::Name(_, slot) => {
                frame.slots.borrow_mut()[*slot as usize] = Some(v);
                Ok(())
            }
            Target::Tuple(targets) => {
                let items = self.unpack(&v, targets.len())?;
                for (t, item) in targets.iter().zip(items) {
                    self.bind(t, item, frame)?;
                }
                Ok(())
            }
        }
    }

    /// Unpacks `v` into exactly `n` values, with CPython's errors.
    fn unpack(&mut self, v: &Value, n: usize) -> R<Vec<Value>> {
        if let Some(items) = v.as_sequence() {
            return match items.len() {
                len if len == n => Ok(items.to_vec()),
                len if len > n => Err(value_err(format!(
                    "too many values to unpack (expected {n})"
                ))),
                len => Err(value_err(format!(
                    "not enough values to unpack (expected {n}, got {len})"
                ))),
            };
        }
        let mut it = self.iter(v).map_err(|_| {
            type_err(format!(
                "cannot unpack non-iterable {} object",
                v.type_name()
            ))
        })?;
        let mut out = Vec::with_capacity(n);
        while out.len() < n {
            match self.next(&mut it)? {
                Some(x) => out.push(x),
                None => {
                    return Err(value_err(format!(
                        "not enough values to unpack (expected {n}, got {})",
                        out.len()
                    )));
                }
            }
        }
        if self.next(&mut it)?.is_some() {
            return Err(value_err(format!(
                "too many values to unpack (expected {n})"
            )));
        }
        Ok(out)
    }

    // -----------------------------------------------------------------------
    // Iteration
    // -----------------------------------------------------------------------

    /// `iter(v)`.
    pub(crate) fn iter(&mut self, v: &Value) -> R<PyIter> {
        Ok(match &v.0 {
            V::Str(s) => PyIter::Str(s.clone(), 0),
            V::Tuple(t) | V::List(t) => PyIter::Seq(t.clone(), 0),
            V::Set(s) | V::FrozenSet(s) => PyIter::Set(s.clone(), 0),
            V::Dict(d) => PyIter::Dict(d.clone(), 0),
            V::Range(r) => PyIter::Range {
                next: r.start,
                step: r.step,
                left: r.len(),
            },
            V::Iter(obj) => PyIter::Shared(obj.clone()),
            _ => {
                return Err(type_err(format!(
                    "'{}' object is not iterable",
                    v.type_name()
                )));
            }
        })
    }

    /// `next(it)`, or `None` when exhausted.
    pub(crate) fn next(&mut self, it: &mut PyIter) -> R<Option<Value>> {
        self.charge(1)?;
        Ok(match it {
            PyIter::Seq(s, i) => {
                let v = s.items.get(*i).cloned();
                *i += 1;
                v
            }
            PyIter::RevSeq(s, left) => {
                if *left == 0 {
                    None
                } else {
                    *left -= 1;
                    s.items.get(*left).cloned()
                }
            }
            PyIter::Str(s, i) => match s[*i..].chars().next() {
                Some(c) => {
                    *i += c.len_utf8();
                    Some(Value::from(c.to_string()))
                }
                None => None,
            },
            PyIter::RevStr(s, end) => match s[..*end].chars().next_back() {
                Some(c) => {
                    *end -= c.len_utf8();
                    Some(Value::from(c.to_string()))
                }
                None => None,
            },
            PyIter::Set(s, slot) => match s.next_from(*slot) {
                Some((at, v)) => {
                    *slot = at + 1;
                    Some(v.clone())
                }
                None => None,
            },
            PyIter::Dict(d, i) => {
                let v = (*i < d.len()).then(|| d.key_at(*i).clone());
                *i += 1;
                v
            }
            PyIter::RevDict(d, left) => {
                if *left == 0 {
                    None
                } else {
                    *left -= 1;
                    Some(d.key_at(*left).clone())
                }
            }
            PyIter::Range { next, step, left } => {
                if *left == 0 {
                    None
                } else {
                    let v = *next;
                    *left -= 1;
                    if *left > 0 {
                        *next = next.wrapping_add(*step);
                    }
                    Some(Value::from(v))
                }
            }
            PyIter::Gen(g) => self.gen_next(g)?,
            PyIter::Map(f, its) => {
                let mut args = Vec::with_capacity(its.len());
                for it in its.iter_mut() {
                    match self.next(it)? {
                        Some(v) => args.push(v),
                        None => return Ok(None),
                    }
                }
                let f = f.clone();
                Some(self.call(&f, args, Vec::new())?)
            }
            PyIter::Filter(f, inner) => loop {
                let Some(v) = self.next(inner)? else {
                    break None;
                };
                let keep = match f {
                    None => v.truthy(),
                    Some(f) => {
                        let f = f.clone();
                        self.call(&f, vec![v.clone()], Vec::new())?.truthy()
                    }
                };
                if keep {
                    break Some(v);
                }
            },
            PyIter::Zip(its, strict) => self.zip_next(its, *strict)?,
            PyIter::Enumerate(inner, count) => match self.next(inner)? {
                Some(v) => {
                    let i = count.clone();
                    *count = self.binop(parser::BinOp::Add, &i, &Value::from(1))?;
                    Some(Value::tuple([i, v]))
                }
                None => None,
            },
            PyIter::Shared(obj) => {
                let obj = obj.clone();
                let mut state = obj
                    .state
                    .try_borrow_mut()
                    .map_err(|_| value_err(format!("{} already executing", obj.type_name)))?;
                self.next(&mut state)?
            }
        })
    }

    /// One `zip` step, with `strict=True` checks as in CPython.
    fn zip_next(&mut self, its: &mut [PyIter], strict: bool) -> R<Option<Value>> {
        if its.is_empty() {
            return Ok(None);
        }
        let mut items = Vec::with_capacity(its.len());
        for i in 0..its.len() {
            match self.next(&mut its[i])? {
                Some(v) => items.push(v),
                None => {
                    if !strict {
                        return Ok(None);
                    }
                    if i > 0 {
                        let plural = if i == 1 {
                            " ".to_owned()
                        } else {
                            "s 1-".to_owned()
                        };
                        return Err(value_err(format!(
                            "zip() argument {} is shorter than argument{plural}{i}",
                            i + 1
                        )));
                    }
                    for (j, it) in its.iter_mut().enumerate().skip(1) {
                        if self.next(it)?.is_some() {
                            let plural = if j == 1 {
                                " ".to_owned()
                            } else {
                                "s 1-".to_owned()
                            };
                            return Err(value_err(format!(
                                "zip() argument {} is longer than argument{plural}{j}",
                                j + 1
                            )));
                        }
                    }
                    return Ok(None);
                }
            }
        }
        Ok(Some(Value::tuple(items)))
    }

    /// All items of an iterable, counted against the element budget.
    pub(crate) fn collect(&mut self, v: &Value) -> R<Vec<Value>> {
        if let Some(items) = v.as_sequence() {
            self.alloc(items.len() as u64)?;
            self.charge(items.len() as u64)?;
            return Ok(items.to_vec());
        }
        let mut it = self.iter(v)?;
        let mut out = Vec::new();
        while let Some(x) = self.next(&mut it)? {
            self.alloc(1)?;
            out.push(x);
        }
        Ok(out)
    }

    // -----------------------------------------------------------------------
    // Calls
    // -----------------------------------------------------------------------

    pub(crate) fn call(
        &mut self,
        f: &Value,
        args: Vec<Value>,
        kwargs: Vec<(Rc<str>, Value)>,
    ) -> R<Value> {
        match &f.0 {
            V::Func(c) => {
                let c = c.clone();
                self.enter()?;
                let r = self.with_ctx(&c.ctx, |s| s.call_closure(&c, args, kwargs));
                self.depth -= 1;
                r
            }
            V::Builtin(b) => builtins::call(self, *b, args, kwargs),
            _ => Err(type_err(format!(
                "'{}' object is not callable",
                f.type_name()
            ))),
        }
    }

    fn call_closure(
        &mut self,
        c: &Closure,
        args: Vec<Value>,
        kwargs: Vec<(Rc<str>, Value)>,
    ) -> R<Value> {
        let params = &c.def.params;
        let n = params.len();
        if args.len() > n {
            return Err(type_err(format!(
                "<lambda>() takes {n} positional argument{} but {} {} given",
                if n == 1 { "" } else { "s" },
                args.len(),
                if args.len() == 1 { "was" } else { "were" }
            )));
        }
        let mut slots: Vec<Option<Value>> = args.into_iter().map(Some).collect();
        slots.resize(n, None);
        for (name, v) in kwargs {
            match params.iter().position(|p| *p == name) {
                Some(i) if slots[i].is_some() => {
                    return Err(type_err(format!(
                        "<lambda>() got multiple values for argument '{name}'"
                    )));
                }
                Some(i) => slots[i] = Some(v),
                None => {
                    return Err(type_err(format!(
                        "<lambda>() got an unexpected keyword argument '{name}'"
                    )));
                }
            }
        }
        let first_default = n - c.defaults.len();
        let mut missing = Vec::new();
        for (i, slot) in slots.iter_mut().enumerate() {
            if slot.is_none() {
                if i >= first_default {
                    *slot = Some(c.defaults[i - first_default].clone());
                } else {
                    missing.push(format!("'{}'", params[i]));
                }
            }
        }
        if !missing.is_empty() {
            let list = match missing.len() {
                1 => missing[0].clone(),
                k => format!("{} and {}", missing[..k - 1].join(", "), missing[k - 1]),
            };
            return Err(type_err(format!(
                "<lambda>() missing {} required positional argument{}: {list}",
                missing.len(),
                if missing.len() == 1 { "" } else { "s" }
            )));
        }
        let frame = Rc::new(Frame {
            slots: RefCell::new(slots),
            parent: Some(c.env.clone()),
        });
        self.eval(&c.def.body, &frame)
    }
}
