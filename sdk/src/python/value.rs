//! Python values: [`Value`], with [`Set`] and [`Dict`], their equality,
//! hashing (CPython's own functions, so sets iterate in CPython's order) and
//! `repr`.

use super::builtins::Builtin;
use super::error::{ErrorKind, EvalError};
use super::interp::{Closure, IterObj};
use super::num;
use num_bigint::BigInt;
use std::cell::Cell;
use std::fmt;
use std::rc::Rc;

/// A Python value produced by [`eval`](super::eval).
///
/// Cheap to clone (containers are shared, and immutable: the expression
/// language has no statements that could mutate them). `==` is Python's
/// `==` (`1 == 1.0 == True`), `Display` is Python's `repr`.
///
/// ```
/// use verigate_sdk::python::{eval, Value};
/// let v = eval("({(1, 2), (2, 3)}, [True, 2 ** 70])").unwrap();
/// let [pairs, list] = v.as_tuple().unwrap() else { panic!() };
/// assert_eq!(pairs.type_name(), "set");
/// for pair in pairs.as_set().unwrap() {
///     let [a, b] = pair.as_tuple().unwrap() else { panic!() };
///     assert_eq!(b.as_i64().unwrap() - a.as_i64().unwrap(), 1);
/// }
/// let list = list.as_list().unwrap();
/// assert_eq!(list[0].as_i64(), None); // True is a bool, not an int
/// assert_eq!(list[0], Value::from(1)); // … but equal to 1, as in Python
/// assert_eq!(list[1].to_string(), "1180591620717411303424");
/// ```
#[derive(Clone)]
pub struct Value(pub(crate) V);

#[derive(Clone)]
pub(crate) enum V {
    None,
    Bool(bool),
    Int(i64),
    /// Invariant: does not fit in an `i64`.
    Big(Rc<BigInt>),
    Float(f64),
    Str(Rc<str>),
    Tuple(Rc<Seq>),
    List(Rc<Seq>),
    Set(Rc<Set>),
    FrozenSet(Rc<Set>),
    Dict(Rc<Dict>),
    Range(Rc<Range>),
    Func(Rc<Closure>),
    Builtin(Builtin),
    Iter(Rc<IterObj>),
}

/// The items of a tuple or list, with the nesting depth of the container.
pub(crate) struct Seq {
    pub items: Vec<Value>,
    pub depth: u32,
}

/// A `range` (64-bit bounds only).
#[derive(Clone, Copy)]
pub(crate) struct Range {
    pub start: i64,
    pub stop: i64,
    pub step: i64,
}

impl Range {
    pub fn len(&self) -> u64 {
        let (start, stop, step) = (self.start as i128, self.stop as i128, self.step as i128);
        let n = if step > 0 && start < stop {
            (stop - start - 1) / step + 1
        } else if step < 0 && start > stop {
            (start - stop - 1) / (-step) + 1
        } else {
            0
        };
        n as u64
    }

    /// Item `i` (`i < len`).
    pub fn get(&self, i: u64) -> i64 {
        (self.start as i128 + i as i128 * self.step as i128) as i64
    }
}

impl Value {
    pub(crate) const NONE: Value = Value(V::None);

    /// `None`.
    pub fn none() -> Value {
        Value::NONE
    }

    /// A tuple of `items`.
    pub fn tuple(items: impl IntoIterator<Item = Value>) -> Value {
        Value(V::Tuple(Rc::new(Seq::new(items.into_iter().collect()))))
    }

    /// A list of `items`.
    pub fn list(items: impl IntoIterator<Item = Value>) -> Value {
        Value(V::List(Rc::new(Seq::new(items.into_iter().collect()))))
    }

    pub(crate) fn str(s: &str) -> Value {
        Value(V::Str(Rc::from(s)))
    }

    /// The `repr`, cut after `max_chars` characters (marked with `…`): for
    /// quoting a payload's values in diagnostics.
    ///
    /// ```
    /// let v = verigate_sdk::python::eval("list(range(30))").unwrap();
    /// assert_eq!(v.repr_short(12), "[0, 1, 2, 3,…");
    /// assert_eq!(v.repr_short(1000), v.to_string());
    /// ```
    pub fn repr_short(&self, max_chars: usize) -> String {
        let repr = self.to_string();
        match repr.char_indices().nth(max_chars) {
            Some((cut, _)) => format!("{}…", &repr[..cut]),
            None => repr,
        }
    }

    /// Python's type name: `"int"`, `"bool"`, `"set"`, `"function"`, …
    pub fn type_name(&self) -> &'static str {
        match &self.0 {
            V::None => "NoneType",
            V::Bool(_) => "bool",
            V::Int(_) | V::Big(_) => "int",
            V::Float(_) => "float",
            V::Str(_) => "str",
            V::Tuple(_) => "tuple",
            V::List(_) => "list",
            V::Set(_) => "set",
            V::FrozenSet(_) => "frozenset",
            V::Dict(_) => "dict",
            V::Range(_) => "range",
            V::Func(_) => "function",
            V::Builtin(b) if b.is_type() => "type",
            V::Builtin(_) => "builtin_function_or_method",
            V::Iter(it) => it.type_name,
        }
    }

    /// Whether this is `None`.
    pub fn is_none(&self) -> bool {
        matches!(self.0, V::None)
    }

    /// The value of a `bool`.
    pub fn as_bool(&self) -> Option<bool> {
        match self.0 {
            V::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The value of an `int` that fits in an `i64` (never a `bool`: check
    /// with [`Value::as_bool`] if `True` should count as 1).
    pub fn as_i64(&self) -> Option<i64> {
        match self.0 {
            V::Int(i) => Some(i),
            _ => None,
        }
    }

    /// The value of any `int` (never a `bool`).
    pub fn as_bigint(&self) -> Option<BigInt> {
        match &self.0 {
            V::Int(i) => Some(BigInt::from(*i)),
            V::Big(b) => Some((**b).clone()),
            _ => None,
        }
    }

    /// The value of a `float` (not of an `int`).
    pub fn as_f64(&self) -> Option<f64> {
        match self.0 {
            V::Float(f) => Some(f),
            _ => None,
        }
    }

    /// The text of a `str`.
    pub fn as_str(&self) -> Option<&str> {
        match &self.0 {
            V::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The items of a `tuple`.
    pub fn as_tuple(&self) -> Option<&[Value]> {
        match &self.0 {
            V::Tuple(t) => Some(&t.items),
            _ => None,
        }
    }

    /// The items of a `list`.
    pub fn as_list(&self) -> Option<&[Value]> {
        match &self.0 {
            V::List(l) => Some(&l.items),
            _ => None,
        }
    }

    /// The items of a `tuple` or a `list`.
    pub fn as_sequence(&self) -> Option<&[Value]> {
        self.as_tuple().or_else(|| self.as_list())
    }

    /// A `set` or `frozenset` ([`Value::type_name`] tells which).
    pub fn as_set(&self) -> Option<&Set> {
        match &self.0 {
            V::Set(s) | V::FrozenSet(s) => Some(s),
            _ => None,
        }
    }

    /// A `dict`.
    pub fn as_dict(&self) -> Option<&Dict> {
        match &self.0 {
            V::Dict(d) => Some(d),
            _ => None,
        }
    }

    /// Python's truth value (`bool(x)`).
    pub fn truthy(&self) -> bool {
        match &self.0 {
            V::None => false,
            V::Bool(b) => *b,
            V::Int(i) => *i != 0,
            V::Big(_) => true,
            V::Float(f) => *f != 0.0,
            V::Str(s) => !s.is_empty(),
            V::Tuple(s) | V::List(s) => !s.items.is_empty(),
            V::Set(s) | V::FrozenSet(s) => !s.is_empty(),
            V::Dict(d) => !d.is_empty(),
            V::Range(r) => r.len() != 0,
            V::Func(_) | V::Builtin(_) | V::Iter(_) => true,
        }
    }

    /// Whether [`Value::call`] can call this (a lambda or a builtin).
    pub fn is_callable(&self) -> bool {
        matches!(self.0, V::Func(_) | V::Builtin(_))
    }

    /// Calls a lambda (or builtin) found in a witness with positional
    /// `args`, under the limits the witness was evaluated with (a fresh
    /// budget for each call).
    ///
    /// ```
    /// use verigate_sdk::python::{eval, Value};
    /// let rule = eval("lambda team: sum(team) % 3 == 0").unwrap();
    /// let team = Value::tuple([Value::from(1), Value::from(2)]);
    /// assert_eq!(rule.call(&[team]).unwrap().as_bool(), Some(true));
    /// let e = rule.call(&[Value::from(5)]).unwrap_err();
    /// assert_eq!(e.message(), "'int' object is not iterable");
    /// ```
    pub fn call(&self, args: &[Value]) -> Result<Value, EvalError> {
        super::interp::call_from_rust(self, args)
    }

    /// Nesting depth: 0 for scalars, 1 + the deepest item for containers.
    pub(crate) fn depth(&self) -> u32 {
        match &self.0 {
            V::Tuple(s) | V::List(s) => s.depth,
            V::Set(s) | V::FrozenSet(s) => s.depth,
            V::Dict(d) => d.depth,
            _ => 0,
        }
    }

    /// The Python repr; with `strict`, ints of more than 4300 digits are a
    /// `ValueError` as in CPython's `str()`/`repr()`.
    pub(crate) fn repr_into(&self, out: &mut String, strict: bool) -> Result<(), EvalError> {
        match &self.0 {
            V::None => out.push_str("None"),
            V::Bool(true) => out.push_str("True"),
            V::Bool(false) => out.push_str("False"),
            V::Int(i) => out.push_str(&i.to_string()),
            V::Big(b) => {
                let s = b.to_string();
                let digits = s.len() - usize::from(s.starts_with('-'));
                if strict && digits > num::MAX_STR_DIGITS {
                    return Err(EvalError::new(
                        ErrorKind::Value,
                        format!(
                            "Exceeds the limit ({}) for integer string conversion; \
                             use sys.set_int_max_str_digits() to increase the limit",
                            num::MAX_STR_DIGITS
                        ),
                    ));
                }
                out.push_str(&s);
            }
            V::Float(f) => out.push_str(&num::float_repr(*f)),
            V::Str(s) => str_repr(s, out),
            V::Tuple(t) => {
                out.push('(');
                repr_items(&t.items, out, strict)?;
                if t.items.len() == 1 {
                    out.push(',');
                }
                out.push(')');
            }
            V::List(l) => {
                out.push('[');
                repr_items(&l.items, out, strict)?;
                out.push(']');
            }
            V::Set(s) | V::FrozenSet(s) => {
                let frozen = matches!(self.0, V::FrozenSet(_));
                if s.is_empty() {
                    out.push_str(if frozen { "frozenset()" } else { "set()" });
                } else {
                    if frozen {
                        out.push_str("frozenset(");
                    }
                    out.push('{');
                    for (i, v) in s.iter().enumerate() {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        v.repr_into(out, strict)?;
                    }
                    out.push('}');
                    if frozen {
                        out.push(')');
                    }
                }
            }
            V::Dict(d) => {
                out.push('{');
                for (i, (k, v)) in d.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    k.repr_into(out, strict)?;
                    out.push_str(": ");
                    v.repr_into(out, strict)?;
                }
                out.push('}');
            }
            V::Range(r) => {
                out.push_str(&format!("range({}, {}", r.start, r.stop));
                if r.step != 1 {
                    out.push_str(&format!(", {}", r.step));
                }
                out.push(')');
            }
            V::Func(_) => out.push_str("<function <lambda>>"),
            V::Builtin(b) if b.is_type() => out.push_str(&format!("<class '{}'>", b.name())),
            V::Builtin(b) => out.push_str(&format!("<built-in function {}>", b.name())),
            V::Iter(it) => out.push_str(&format!("<{} object>", it.type_name)),
        }
        Ok(())
    }
}

fn repr_items(items: &[Value], out: &mut String, strict: bool) -> Result<(), EvalError> {
    for (i, v) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        v.repr_into(out, strict)?;
    }
    Ok(())
}

/// Python's `repr` of a string: single quotes unless the text has `'` and no `"`.
pub(crate) fn str_repr(s: &str, out: &mut String) {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if is_printable(c) => out.push(c),
            c if (c as u32) < 0x100 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push(quote);
}

/// An approximation of `str.isprintable` for one character: controls,
/// separators other than the space, format characters, private-use
/// characters and noncharacters are not printable.
fn is_printable(c: char) -> bool {
    let u = c as u32;
    if c.is_ascii() {
        return (0x20..0x7f).contains(&u);
    }
    !(c.is_control()
        || matches!(
            u,
            0xa0 | 0xad | 0x1680 | 0x180e | 0x202f | 0x205f | 0x3000 | 0xfeff
        )
        || (0x2000..=0x200f).contains(&u)
        || (0x2028..=0x202e).contains(&u)
        || (0x2060..=0x206f).contains(&u)
        || (0x0600..=0x0605).contains(&u)
        || matches!(u, 0x061c | 0x06dd | 0x070f | 0x08e2 | 0x110bd | 0x110cd)
        || (0xfff9..=0xfffb).contains(&u)
        || (0xe000..=0xf8ff).contains(&u)
        || u >= 0xf0000
        || (0xe0000..=0xe0fff).contains(&u)
        || (u & 0xfffe) == 0xfffe
        || (0xfdd0..=0xfdef).contains(&u))
}

impl fmt::Display for Value {
    /// Python's `repr` (ints of any size, sets in iteration order).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        // Only strict mode can fail.
        let _ = self.repr_into(&mut out, false);
        f.write_str(&out)
    }
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl PartialEq for Value {
    /// Python's `==`.
    fn eq(&self, other: &Value) -> bool {
        py_eq(self, other)
    }
}

impl From<i64> for Value {
    fn from(i: i64) -> Value {
        Value(V::Int(i))
    }
}

impl From<i32> for Value {
    fn from(i: i32) -> Value {
        Value(V::Int(i.into()))
    }
}

impl From<usize> for Value {
    fn from(i: usize) -> Value {
        match i64::try_from(i) {
            Ok(i) => Value(V::Int(i)),
            Err(_) => num::int_value(BigInt::from(i)),
        }
    }
}

impl From<BigInt> for Value {
    fn from(i: BigInt) -> Value {
        num::int_value(i)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value(V::Bool(b))
    }
}

impl From<f64> for Value {
    fn from(f: f64) -> Value {
        Value(V::Float(f))
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::str(s)
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value(V::Str(Rc::from(s)))
    }
}

impl Seq {
    pub fn new(items: Vec<Value>) -> Seq {
        let depth = 1 + items.iter().map(Value::depth).max().unwrap_or(0);
        Seq { items, depth }
    }
}

// ---------------------------------------------------------------------------
// Equality and hashing
// ---------------------------------------------------------------------------

/// Python's `==` between two values.
pub(crate) fn py_eq(a: &Value, b: &Value) -> bool {
    use V::*;
    match (&a.0, &b.0) {
        (Str(x), Str(y)) => x == y,
        (Tuple(x), Tuple(y)) | (List(x), List(y)) => {
            Rc::ptr_eq(x, y)
                || (x.items.len() == y.items.len()
                    && x.items.iter().zip(&y.items).all(|(p, q)| py_eq(p, q)))
        }
        (Set(x) | FrozenSet(x), Set(y) | FrozenSet(y)) => x.len() == y.len() && x.is_subset(y),
        (Dict(x), Dict(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.lookup(k).is_some_and(|w| py_eq(v, w)))
        }
        (Range(x), Range(y)) => {
            let (n, m) = (x.len(), y.len());
            n == m && (n == 0 || (x.start == y.start && (n == 1 || x.step == y.step)))
        }
        (None, None) => true,
        (Func(x), Func(y)) => Rc::ptr_eq(x, y),
        (Iter(x), Iter(y)) => Rc::ptr_eq(x, y),
        (Builtin(x), Builtin(y)) => x == y,
        _ => match (num::as_number(a), num::as_number(b)) {
            (Some(x), Some(y)) => num::num_eq(&x, &y),
            _ => false,
        },
    }
}

/// CPython's `hash()`; a `TypeError` for unhashable values.
pub(crate) fn py_hash(v: &Value) -> Result<i64, EvalError> {
    Ok(match &v.0 {
        V::None => 0xFCA8_6420,
        V::Bool(b) => *b as i64,
        V::Int(i) => num::hash_i64(*i),
        V::Big(b) => num::hash_big(b),
        V::Float(f) => num::hash_float(*f),
        V::Str(s) => str_hash(s),
        V::Tuple(t) => tuple_hash(&t.items)?,
        V::FrozenSet(s) => s.frozen_hash(),
        V::Range(r) => {
            let n = r.len();
            let items = match n {
                0 => [Value::from(0), Value::NONE, Value::NONE],
                1 => [Value::from(1), Value::from(r.start), Value::NONE],
                _ => [
                    Value::from(n as usize),
                    Value::from(r.start),
                    Value::from(r.step),
                ],
            };
            tuple_hash(&items)?
        }
        V::Func(f) => pointer_hash(f.id),
        V::Iter(i) => pointer_hash(i.id),
        V::Builtin(b) => pointer_hash(*b as u64),
        V::List(_) | V::Set(_) | V::Dict(_) => {
            return Err(EvalError::new(
                ErrorKind::Type,
                format!("unhashable type: '{}'", v.type_name()),
            ));
        }
    })
}

fn pointer_hash(id: u64) -> i64 {
    let h = id.rotate_right(4) as i64;
    if h == -1 { -2 } else { h }
}

/// CPython's tuple hash ([`settable::tuple_hash`] of the items' hashes).
fn tuple_hash(items: &[Value]) -> Result<i64, EvalError> {
    let mut h = settable::TupleHasher::new();
    for item in items {
        h.add(py_hash(item)?);
    }
    Ok(h.finish(items.len()))
}

/// CPython's `str` hash with hash randomisation off (`PYTHONHASHSEED=0`):
/// SipHash-1-3 with a zero key over the 1-, 2- or 4-byte code units.
fn str_hash(s: &str) -> i64 {
    if s.is_empty() {
        return 0;
    }
    let max = s.chars().map(|c| c as u32).max().unwrap_or(0);
    let mut bytes = Vec::with_capacity(s.len() * 2);
    for c in s.chars() {
        let c = c as u32;
        if max < 0x100 {
            bytes.push(c as u8);
        } else if max < 0x10000 {
            bytes.extend_from_slice(&(c as u16).to_le_bytes());
        } else {
            bytes.extend_from_slice(&c.to_le_bytes());
        }
    }
    let h = siphash13(&bytes) as i64;
    if h == -1 { -2 } else { h }
}

fn siphash13(data: &[u8]) -> u64 {
    let mut v0: u64 = 0x736f6d6570736575;
    let mut v1: u64 = 0x646f72616e646f6d;
    let mut v2: u64 = 0x6c7967656e657261;
    let mut v3: u64 = 0x7465646279746573;
    let round = |v0: &mut u64, v1: &mut u64, v2: &mut u64, v3: &mut u64| {
        *v0 = v0.wrapping_add(*v1);
        *v2 = v2.wrapping_add(*v3);
        *v1 = v1.rotate_left(13) ^ *v0;
        *v3 = v3.rotate_left(16) ^ *v2;
        *v0 = v0.rotate_left(32);
        *v2 = v2.wrapping_add(*v1);
        *v0 = v0.wrapping_add(*v3);
        *v1 = v1.rotate_left(17) ^ *v2;
        *v3 = v3.rotate_left(21) ^ *v0;
        *v2 = v2.rotate_left(32);
    };
    let chunks = data.chunks_exact(8);
    let tail = chunks.remainder();
    for chunk in chunks {
        let m = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        v3 ^= m;
        round(&mut v0, &mut v1, &mut v2, &mut v3);
        v0 ^= m;
    }
    let mut last = [0u8; 8];
    last[..tail.len()].copy_from_slice(tail);
    let b = ((data.len() as u64) << 56) | u64::from_le_bytes(last);
    v3 ^= b;
    round(&mut v0, &mut v1, &mut v2, &mut v3);
    v0 ^= b;
    v2 ^= 0xff;
    for _ in 0..3 {
        round(&mut v0, &mut v1, &mut v2, &mut v3);
    }
    (v0 ^ v1) ^ (v2 ^ v3)
}

// ---------------------------------------------------------------------------
// Sets: CPython's open-addressing table, so iteration order matches CPython
// for every type whose hash is deterministic there (ints, floats, tuples, …).
// ---------------------------------------------------------------------------

use super::settable::{
    self, DUMMY, EMPTY, MIN_SIZE, grown_minused, insert_clean, linear_probes, must_grow,
    next_probe, table_size,
};

/// A `set` or `frozenset`: iterate it with [`Set::iter`] (CPython's order
/// for numbers and tuples of them; strings iterate as CPython does with
/// `PYTHONHASHSEED=0`).
pub struct Set {
    /// Slot → index into `entries`, or `EMPTY`/`DUMMY`.
    table: Vec<u32>,
    entries: Vec<(i64, Value)>,
    fill: usize,
    used: usize,
    pub(crate) depth: u32,
    frozen_hash: Cell<Option<i64>>,
}

impl Set {
    pub(crate) fn new() -> Set {
        Set {
            table: vec![EMPTY; MIN_SIZE],
            entries: Vec::new(),
            fill: 0,
            used: 0,
            depth: 1,
            frozen_hash: Cell::new(None),
        }
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.used
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.used == 0
    }

    /// The elements, in iteration order.
    pub fn iter(&self) -> impl Iterator<Item = &Value> {
        self.table
            .iter()
            .filter(|&&i| i < DUMMY)
            .map(move |&i| &self.entries[i as usize].1)
    }

    /// Whether `x in set` (false for unhashable `x`).
    pub fn contains(&self, x: &Value) -> bool {
        py_hash(x).is_ok_and(|h| self.find(x, h).is_some())
    }

    /// The elements with their hashes, in iteration order.
    pub(crate) fn entries(&self) -> impl Iterator<Item = (i64, &Value)> {
        self.table.iter().filter(|&&i| i < DUMMY).map(move |&i| {
            let (h, v) = &self.entries[i as usize];
            (*h, v)
        })
    }

    fn mask(&self) -> usize {
        self.table.len() - 1
    }

    /// The slot holding a key equal to `key`, if any.
    pub(crate) fn find(&self, key: &Value, hash: i64) -> Option<usize> {
        let mask = self.mask();
        let mut perturb = hash as u64;
        let mut i = (hash as u64 as usize) & mask;
        loop {
            for j in i..=i + linear_probes(i, mask) {
                match self.table[j] {
                    EMPTY => return None,
                    DUMMY => {}
                    e => {
                        let (h, k) = &self.entries[e as usize];
                        if *h == hash && py_eq(k, key) {
                            return Some(j);
                        }
                    }
                }
            }
            i = next_probe(i, &mut perturb, mask);
        }
    }

    /// CPython's `set_add_entry`.
    pub(crate) fn add(&mut self, key: Value, hash: i64) {
        let mask = self.mask();
        let mut perturb = hash as u64;
        let mut i = (hash as u64 as usize) & mask;
        let mut freeslot = None;
        let slot = 'probe: loop {
            for j in i..=i + linear_probes(i, mask) {
                match self.table[j] {
                    EMPTY => break 'probe j,
                    DUMMY => freeslot = Some(j),
                    e => {
                        let (h, k) = &self.entries[e as usize];
                        if *h == hash && py_eq(k, &key) {
                            return;
                        }
                    }
                }
            }
            i = next_probe(i, &mut perturb, mask);
        };
        self.depth = self.depth.max(1 + key.depth());
        let index = self.entries.len() as u32;
        self.entries.push((hash, key));
        self.used += 1;
        if let Some(free) = freeslot {
            self.table[free] = index;
            return;
        }
        self.table[slot] = index;
        self.fill += 1;
        if must_grow(self.fill, mask) {
            self.resize(grown_minused(self.used));
        }
    }

    /// CPython's `set_table_resize`.
    fn resize(&mut self, minused: usize) {
        let size = table_size(minused);
        if size == MIN_SIZE && self.table.len() == MIN_SIZE && self.fill == self.used {
            return;
        }
        let mut table = vec![EMPTY; size];
        for &e in &self.table {
            if e < DUMMY {
                insert_clean(&mut table, e, self.entries[e as usize].0);
            }
        }
        self.table = table;
        self.fill = self.used;
    }

    /// CPython's `set_discard_entry`; whether the key was there.
    pub(crate) fn discard(&mut self, key: &Value, hash: i64) -> bool {
        match self.find(key, hash) {
            Some(slot) => {
                let e = self.table[slot] as usize;
                self.entries[e].1 = Value::NONE;
                self.table[slot] = DUMMY;
                self.used -= 1;
                true
            }
            None => false,
        }
    }

    /// CPython's `set_merge`: adds all of `other`.
    pub(crate) fn merge(&mut self, other: &Set) {
        if other.used == 0 {
            return;
        }
        if (self.fill + other.used) * 5 >= self.mask() * 3 {
            self.resize((self.used + other.used) * 2);
        }
        self.depth = self.depth.max(other.depth);
        if self.fill == 0 && self.mask() == other.mask() && other.fill == other.used {
            for (slot, &e) in other.table.iter().enumerate() {
                if e < DUMMY {
                    self.table[slot] = self.entries.len() as u32;
                    self.entries.push(other.entries[e as usize].clone());
                }
            }
            self.fill = other.fill;
            self.used = other.used;
            return;
        }
        if self.fill == 0 {
            for (h, v) in other.entries() {
                let index = self.entries.len() as u32;
                self.entries.push((h, v.clone()));
                insert_clean(&mut self.table, index, h);
            }
            self.fill = other.used;
            self.used = other.used;
            return;
        }
        for (h, v) in other.entries() {
            self.add(v.clone(), h);
        }
    }

    /// The next live slot at or after `slot`, with its value.
    pub(crate) fn next_from(&self, slot: usize) -> Option<(usize, &Value)> {
        (slot..self.table.len()).find_map(|s| match self.table[s] {
            e if e < DUMMY => Some((s, &self.entries[e as usize].1)),
            _ => None,
        })
    }

    /// The up-front resize CPython does before adding `n` dict keys.
    pub(crate) fn reserve_for(&mut self, n: usize) {
        if (self.fill + n) * 5 >= self.mask() * 3 {
            self.resize((self.used + n) * 2);
        }
    }

    /// Drops dummies after discards, as `set_difference_update` does.
    pub(crate) fn shrink_after_discards(&mut self) {
        if self.fill - self.used > self.mask() / 4 {
            self.resize(grown_minused(self.used));
        }
    }

    pub(crate) fn is_subset(&self, other: &Set) -> bool {
        self.len() <= other.len() && self.entries().all(|(h, v)| other.find(v, h).is_some())
    }

    /// CPython's `frozenset_hash` (independent of the table layout).
    fn frozen_hash(&self) -> i64 {
        if let Some(h) = self.frozen_hash.get() {
            return h;
        }
        let shuffle = |h: u64| ((h ^ 89869747) ^ (h << 16)).wrapping_mul(3644798167);
        let mut hash: u64 = 0;
        for (h, _) in self.entries() {
            hash ^= shuffle(h as u64);
        }
        hash ^= (self.used as u64 + 1).wrapping_mul(1927868237);
        hash ^= (hash >> 11) ^ (hash >> 25);
        hash = hash.wrapping_mul(69069).wrapping_add(907133923);
        let hash = if hash == u64::MAX {
            590923713
        } else {
            hash as i64
        };
        self.frozen_hash.set(Some(hash));
        hash
    }
}

impl<'a> IntoIterator for &'a Set {
    type Item = &'a Value;
    type IntoIter = Box<dyn Iterator<Item = &'a Value> + 'a>;

    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

// ---------------------------------------------------------------------------
// Dicts: insertion-ordered, as in CPython.
// ---------------------------------------------------------------------------

/// A `dict`, in insertion order.
pub struct Dict {
    /// Open-addressing index: slot → index into `entries`, or `EMPTY`.
    table: Vec<u32>,
    entries: Vec<(i64, Value, Value)>,
    pub(crate) depth: u32,
}

impl Dict {
    pub(crate) fn new() -> Dict {
        Dict {
            table: vec![EMPTY; MIN_SIZE],
            entries: Vec::new(),
            depth: 1,
        }
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the dict is empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The `(key, value)` pairs, in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = (&Value, &Value)> {
        self.entries.iter().map(|(_, k, v)| (k, v))
    }

    /// The keys, in insertion order.
    pub fn keys(&self) -> impl Iterator<Item = &Value> {
        self.entries.iter().map(|(_, k, _)| k)
    }

    /// The value for `key` (Python equality: `d.get(1)` finds the key `True`).
    ///
    /// ```
    /// let d = verigate_sdk::python::eval("{'n': 3, (1, 2): [4]}").unwrap();
    /// let d = d.as_dict().unwrap();
    /// assert_eq!(d.get("n").and_then(|v| v.as_i64()), Some(3));
    /// assert!(d.get("m").is_none());
    /// ```
    pub fn get(&self, key: impl Into<Value>) -> Option<&Value> {
        self.lookup(&key.into())
    }

    pub(crate) fn lookup(&self, key: &Value) -> Option<&Value> {
        let hash = py_hash(key).ok()?;
        self.slot_of(key, hash).map(|(_, e)| &self.entries[e].2)
    }

    pub(crate) fn key_at(&self, i: usize) -> &Value {
        &self.entries[i].1
    }

    /// (slot, entry index) of `key`.
    fn slot_of(&self, key: &Value, hash: i64) -> Option<(usize, usize)> {
        let mask = self.table.len() - 1;
        let mut i = (hash as u64 as usize) & mask;
        loop {
            match self.table[i] {
                EMPTY => return None,
                e => {
                    let (h, k, _) = &self.entries[e as usize];
                    if *h == hash && py_eq(k, key) {
                        return Some((i, e as usize));
                    }
                }
            }
            i = (i + 1) & mask;
        }
    }

    /// Sets `key` to `value`; an equal existing key keeps its place and object.
    pub(crate) fn insert(&mut self, key: Value, hash: i64, value: Value) {
        self.depth = self.depth.max(1 + key.depth()).max(1 + value.depth());
        if let Some((_, e)) = self.slot_of(&key, hash) {
            self.entries[e].2 = value;
            return;
        }
        if (self.entries.len() + 1) * 2 > self.table.len() {
            let mut table = vec![EMPTY; self.table.len() * 2];
            let mask = table.len() - 1;
            for (e, (h, _, _)) in self.entries.iter().enumerate() {
                let mut i = (*h as u64 as usize) & mask;
                while table[i] != EMPTY {
                    i = (i + 1) & mask;
                }
                table[i] = e as u32;
            }
            self.table = table;
        }
        let mask = self.table.len() - 1;
        let mut i = (hash as u64 as usize) & mask;
        while self.table[i] != EMPTY {
            i = (i + 1) & mask;
        }
        self.table[i] = self.entries.len() as u32;
        self.entries.push((hash, key, value));
    }

    pub(crate) fn hashed_entries(&self) -> impl Iterator<Item = &(i64, Value, Value)> {
        self.entries.iter()
    }
}

impl<'a> IntoIterator for &'a Dict {
    type Item = (&'a Value, &'a Value);
    type IntoIter = Box<dyn Iterator<Item = (&'a Value, &'a Value)> + 'a>;

    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}
