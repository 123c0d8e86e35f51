//! The builtin functions and types, with CPython's semantics.

use super::coerce::FloatSum;
use super::error::ErrorKind;
use super::interp::{Interp, PyIter, R, err, type_err, value_err};
use super::num::{
    self, MAX_STR_DIGITS, Num, as_number, float_to_big, int_to_f64, int_value, to_big,
};
use super::ops::{as_int, float_divmod};
use super::parser::{BinOp, CmpOp};
use super::value::{Dict, Range as RangeValue, Seq, Set as SetValue, V, Value};
use num_bigint::{BigInt, Sign};
use num_integer::Integer;
use num_traits::Signed;
use std::rc::Rc;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Builtin {
    Abs,
    All,
    Any,
    Bool,
    Dict,
    Divmod,
    Enumerate,
    Filter,
    Float,
    Frozenset,
    Int,
    Len,
    List,
    Map,
    Max,
    Min,
    Pow,
    Range,
    Reversed,
    Round,
    Set,
    Sorted,
    Str,
    Sum,
    Tuple,
    Zip,
}

const ALL: &[(Builtin, &str)] = &[
    (Builtin::Abs, "abs"),
    (Builtin::All, "all"),
    (Builtin::Any, "any"),
    (Builtin::Bool, "bool"),
    (Builtin::Dict, "dict"),
    (Builtin::Divmod, "divmod"),
    (Builtin::Enumerate, "enumerate"),
    (Builtin::Filter, "filter"),
    (Builtin::Float, "float"),
    (Builtin::Frozenset, "frozenset"),
    (Builtin::Int, "int"),
    (Builtin::Len, "len"),
    (Builtin::List, "list"),
    (Builtin::Map, "map"),
    (Builtin::Max, "max"),
    (Builtin::Min, "min"),
    (Builtin::Pow, "pow"),
    (Builtin::Range, "range"),
    (Builtin::Reversed, "reversed"),
    (Builtin::Round, "round"),
    (Builtin::Set, "set"),
    (Builtin::Sorted, "sorted"),
    (Builtin::Str, "str"),
    (Builtin::Sum, "sum"),
    (Builtin::Tuple, "tuple"),
    (Builtin::Zip, "zip"),
];

impl Builtin {
    pub fn from_name(name: &str) -> Option<Builtin> {
        ALL.iter().find(|(_, n)| *n == name).map(|(b, _)| *b)
    }

    pub fn name(self) -> &'static str {
        ALL.iter().find(|(b, _)| *b == self).map_or("?", |(_, n)| n)
    }

    /// Whether CPython's builtin of this name is a class.
    pub fn is_type(self) -> bool {
        use Builtin::*;
        matches!(
            self,
            Bool | Dict
                | Enumerate
                | Filter
                | Float
                | Frozenset
                | Int
                | List
                | Map
                | Range
                | Reversed
                | Set
                | Str
                | Tuple
                | Zip
        )
    }

    pub fn all_names() -> String {
        ALL.iter().map(|(_, n)| *n).collect::<Vec<_>>().join(" ")
    }
}

/// Positional and keyword arguments of one builtin call.
struct Args {
    name: &'static str,
    pos: Vec<Value>,
    kw: Vec<(Rc<str>, Value)>,
}

impl Args {
    fn count(&self, min: usize, max: usize) -> R<()> {
        let n = self.pos.len();
        if n < min || n > max {
            let expected = if min == max {
                format!("exactly {min}")
            } else if n < min {
                format!("at least {min}")
            } else {
                format!("at most {max}")
            };
            return Err(type_err(format!(
                "{}() takes {expected} argument{} ({n} given)",
                self.name,
                if max == 1 { "" } else { "s" }
            )));
        }
        Ok(())
    }

    /// Accepts parameter `index` also as keyword `key`, as CPython does.
    fn by_name(&mut self, index: usize, key: &str) -> R<()> {
        let Some(v) = self.kw(key) else {
            return Ok(());
        };
        if self.pos.len() > index {
            return Err(type_err(format!(
                "argument for {}() given by name ('{key}') and position ({})",
                self.name,
                index + 1
            )));
        }
        if self.pos.len() < index {
            return Err(type_err(format!(
                "{}() missing required argument (pos {})",
                self.name,
                self.pos.len() + 1
            )));
        }
        self.pos.push(v);
        Ok(())
    }

    fn kw(&mut self, key: &str) -> Option<Value> {
        let i = self.kw.iter().position(|(k, _)| &**k == key)?;
        Some(self.kw.remove(i).1)
    }

    /// Fails on keywords nobody took.
    fn done(&self) -> R<()> {
        match self.kw.first() {
            None => Ok(()),
            Some((k, _)) => Err(type_err(format!(
                "'{k}' is an invalid keyword argument for {}()",
                self.name
            ))),
        }
    }

    /// The single positional argument, with no keywords.
    fn one(&self) -> R<&Value> {
        self.done()?;
        self.count(1, 1)?;
        Ok(&self.pos[0])
    }

    fn arg(&self, i: usize) -> Option<&Value> {
        self.pos.get(i)
    }
}

/// An int argument that must fit in an `i64` (`what` names it in errors).
fn int_arg(v: &Value) -> R<Num<'_>> {
    as_int(v).ok_or_else(|| {
        type_err(format!(
            "'{}' object cannot be interpreted as an integer",
            v.type_name()
        ))
    })
}

pub(crate) fn call(
    it: &mut Interp,
    b: Builtin,
    pos: Vec<Value>,
    kw: Vec<(Rc<str>, Value)>,
) -> R<Value> {
    let mut a = Args {
        name: b.name(),
        pos,
        kw,
    };
    use Builtin::*;
    match b {
        Abs => abs(a.one()?),
        All | Any => {
            let mut iter = it.iter(a.one()?)?;
            let want = b == Any;
            while let Some(v) = it.next(&mut iter)? {
                if v.truthy() == want {
                    return Ok(Value::from(want));
                }
            }
            Ok(Value::from(!want))
        }
        Bool => {
            a.done()?;
            a.count(0, 1)?;
            Ok(Value::from(a.arg(0).is_some_and(Value::truthy)))
        }
        Dict => dict(it, a),
        Divmod => {
            a.done()?;
            a.count(2, 2)?;
            divmod(it, &a.pos[0], &a.pos[1])
        }
        Enumerate => {
            a.by_name(0, "iterable")?;
            a.by_name(1, "start")?;
            a.done()?;
            a.count(1, 2)?;
            let start = match a.arg(1).cloned() {
                Some(s) => int_value(to_big(int_arg(&s)?)),
                None => Value::from(0),
            };
            let inner = it.iter(&a.pos[0])?;
            Ok(it.new_iter("enumerate", PyIter::Enumerate(Box::new(inner), start)))
        }
        Filter => {
            a.done()?;
            a.count(2, 2)?;
            let f = (!a.pos[0].is_none()).then(|| a.pos[0].clone());
            let inner = it.iter(&a.pos[1])?;
            Ok(it.new_iter("filter", PyIter::Filter(f, Box::new(inner))))
        }
        Float => {
            a.done()?;
            a.count(0, 1)?;
            match a.arg(0) {
                None => Ok(Value::from(0.0)),
                Some(v) => to_float(v).map(Value::from),
            }
        }
        Frozenset | Set => {
            a.done()?;
            a.count(0, 1)?;
            match a.arg(0) {
                Some(v) if b == Frozenset && matches!(v.0, V::FrozenSet(_)) => Ok(v.clone()),
                Some(v) => {
                    let mut set = SetValue::new();
                    it.set_update(&mut set, v)?;
                    it.new_set(set, b == Frozenset)
                }
                None => it.new_set(SetValue::new(), b == Frozenset),
            }
        }
        Int => {
            if a.pos.is_empty() && a.kw("base").is_some() {
                return Err(type_err("int() missing string argument"));
            }
            a.by_name(1, "base")?;
            a.done()?;
            a.count(0, 2)?;
            match (a.arg(0), a.arg(1).cloned()) {
                (None, _) => Ok(Value::from(0)),
                (Some(v), None) => to_int(it, v),
                (Some(v), Some(base)) => {
                    let base = match int_arg(&base)? {
                        Num::Int(b) if b == 0 || (2..=36).contains(&b) => b as u32,
                        _ => return Err(value_err("int() base must be >= 2 and <= 36, or 0")),
                    };
                    match &v.0 {
                        V::Str(s) => parse_int(it, s, base),
                        _ => Err(type_err(
                            "int() can't convert non-string with explicit base",
                        )),
                    }
                }
            }
        }
        Len => len(a.one()?),
        List | Tuple => {
            a.done()?;
            a.count(0, 1)?;
            let items = match a.arg(0) {
                Some(v) => {
                    if b == Tuple && matches!(v.0, V::Tuple(_)) {
                        return Ok(v.clone());
                    }
                    it.collect(v)?
                }
                None => Vec::new(),
            };
            if b == List {
                it.new_list(items)
            } else {
                it.new_tuple(items)
            }
        }
        Map => {
            a.done()?;
            if a.pos.len() < 2 {
                return Err(type_err("map() must have at least two arguments."));
            }
            let f = a.pos[0].clone();
            let mut its = Vec::with_capacity(a.pos.len() - 1);
            for v in &a.pos[1..] {
                its.push(it.iter(v)?);
            }
            Ok(it.new_iter("map", PyIter::Map(f, its)))
        }
        Max | Min => min_max(it, a, b == Max),
        Pow => {
            a.by_name(0, "base")?;
            a.by_name(1, "exp")?;
            a.by_name(2, "mod")?;
            a.done()?;
            a.count(2, 3)?;
            match &a.pos[..] {
                [x, y] => it.binop(BinOp::Pow, x, y),
                [x, y, m] if m.is_none() => it.binop(BinOp::Pow, x, y),
                [x, y, m] => it.pow_mod(x, y, m),
                _ => unreachable!("counted above"),
            }
        }
        Range => {
            if !a.kw.is_empty() {
                return Err(type_err("range() takes no keyword arguments"));
            }
            a.count(1, 3)?;
            let mut n = Vec::with_capacity(3);
            for v in &a.pos {
                match int_arg(v)? {
                    Num::Int(i) => n.push(i),
                    _ => {
                        return Err(err(
                            ErrorKind::Unsupported,
                            "ranges beyond 64-bit bounds are not supported",
                        ));
                    }
                }
            }
            let (start, stop, step) = match n[..] {
                [stop] => (0, stop, 1),
                [start, stop] => (start, stop, 1),
                [start, stop, step] => (start, stop, step),
                _ => unreachable!("counted above"),
            };
            if step == 0 {
                return Err(value_err("range() arg 3 must not be zero"));
            }
            Ok(Value(V::Range(Rc::new(RangeValue { start, stop, step }))))
        }
        Reversed => reversed(it, a.one()?),
        Round => {
            a.by_name(0, "number")?;
            a.by_name(1, "ndigits")?;
            a.done()?;
            a.count(1, 2)?;
            let nd = a.arg(1).cloned().filter(|v| !v.is_none());
            round(it, &a.pos[0], nd.as_ref())
        }
        Sorted => {
            let (key, reverse) = (a.kw("key"), a.kw("reverse"));
            a.done()?;
            if a.pos.len() != 1 {
                return Err(type_err(format!(
                    "sorted expected 1 argument, got {}",
                    a.pos.len()
                )));
            }
            let items = it.collect(&a.pos[0])?;
            let key = key.filter(|k| !k.is_none());
            let reverse = match reverse {
                None => false,
                Some(r) => match as_int(&r) {
                    Some(n) => !matches!(n, Num::Int(0)),
                    None => {
                        return Err(type_err(format!(
                            "'{}' object cannot be interpreted as an integer",
                            r.type_name()
                        )));
                    }
                },
            };
            let sorted = sort(it, items, key.as_ref(), reverse)?;
            it.new_list(sorted)
        }
        Str => {
            a.by_name(0, "object")?;
            a.done()?;
            a.count(0, 1)?;
            match a.arg(0) {
                None => Ok(Value::from("")),
                Some(v @ Value(V::Str(_))) => Ok(v.clone()),
                Some(v) => {
                    let mut s = String::new();
                    v.repr_into(&mut s, true)?;
                    it.new_str(s)
                }
            }
        }
        Sum => {
            a.by_name(1, "start")?;
            a.done()?;
            a.count(1, 2)?;
            let start = a.arg(1).cloned();
            sum(it, &a.pos[0], start)
        }
        Zip => {
            let strict = a.kw("strict").is_some_and(|v| v.truthy());
            a.done()?;
            let mut its = Vec::with_capacity(a.pos.len());
            for v in &a.pos {
                its.push(it.iter(v)?);
            }
            Ok(it.new_iter("zip", PyIter::Zip(its, strict)))
        }
    }
}

fn abs(v: &Value) -> R<Value> {
    match as_number(v) {
        Some(Num::Int(i)) => Ok(match i.checked_abs() {
            Some(a) => Value::from(a),
            None => int_value(BigInt::from(i).abs()),
        }),
        Some(Num::Big(b)) => Ok(int_value(b.abs())),
        Some(Num::Float(f)) => Ok(Value::from(f.abs())),
        None => Err(type_err(format!(
            "bad operand type for abs(): '{}'",
            v.type_name()
        ))),
    }
}

fn len(v: &Value) -> R<Value> {
    let n = match &v.0 {
        V::Str(s) => s.chars().count(),
        V::Tuple(s) | V::List(s) => s.items.len(),
        V::Set(s) | V::FrozenSet(s) => s.len(),
        V::Dict(d) => d.len(),
        V::Range(r) => {
            let n = r.len();
            if n > i64::MAX as u64 {
                return Err(err(
                    ErrorKind::Overflow,
                    "Python int too large to convert to C ssize_t",
                ));
            }
            n as usize
        }
        _ => {
            return Err(type_err(format!(
                "object of type '{}' has no len()",
                v.type_name()
            )));
        }
    };
    Ok(Value::from(n))
}

fn dict(it: &mut Interp, mut a: Args) -> R<Value> {
    a.count(0, 1)?;
    let mut d = Dict::new();
    if let Some(src) = a.arg(0).cloned() {
        match &src.0 {
            V::Dict(other) => {
                it.charge(other.len() as u64)?;
                it.alloc(other.len() as u64)?;
                for (h, k, v) in other.hashed_entries() {
                    d.insert(k.clone(), *h, v.clone());
                }
            }
            _ => {
                let mut iter = it.iter(&src)?;
                let mut i = 0;
                while let Some(item) = it.next(&mut iter)? {
                    let pair = match &item.0 {
                        V::Tuple(_) | V::List(_) => item.as_sequence().map(<[Value]>::to_vec),
                        _ => it.iter(&item).ok().map(|_| it.collect(&item)).transpose()?,
                    };
                    let Some(pair) = pair else {
                        return Err(type_err(format!(
                            "cannot convert dictionary update sequence element #{i} to a sequence"
                        )));
                    };
                    let [k, v] = <[Value; 2]>::try_from(pair).map_err(|p| {
                        value_err(format!(
                            "dictionary update sequence element #{i} has length {}; 2 is required",
                            p.len()
                        ))
                    })?;
                    it.dict_set(&mut d, k, v)?;
                    i += 1;
                }
            }
        }
    }
    for (k, v) in std::mem::take(&mut a.kw) {
        it.dict_set(&mut d, Value(V::Str(k)), v)?;
    }
    it.new_dict(d)
}

fn divmod(it: &mut Interp, x: &Value, y: &Value) -> R<Value> {
    match (as_number(x), as_number(y)) {
        (Some(Num::Int(_) | Num::Big(_)), Some(Num::Int(_) | Num::Big(_))) => {
            let d = it.binop(BinOp::FloorDiv, x, y)?;
            let m = it.binop(BinOp::Mod, x, y)?;
            Ok(Value::tuple([d, m]))
        }
        (Some(p), Some(q)) => {
            let to = |n: Num<'_>| {
                int_to_f64(n)
                    .ok_or_else(|| err(ErrorKind::Overflow, "int too large to convert to float"))
            };
            let (p, q) = (to(p)?, to(q)?);
            if q == 0.0 {
                return Err(err(ErrorKind::ZeroDivision, "float divmod()"));
            }
            let (d, m) = float_divmod(p, q);
            Ok(Value::tuple([Value::from(d), Value::from(m)]))
        }
        _ => Err(type_err(format!(
            "unsupported operand type(s) for divmod(): '{}' and '{}'",
            x.type_name(),
            y.type_name()
        ))),
    }
}

/// CPython's `float(v)` (see [`super::coerce::float`]).
pub(crate) fn to_float(v: &Value) -> R<f64> {
    match (&v.0, as_number(v)) {
        (_, Some(n)) => int_to_f64(n)
            .ok_or_else(|| err(ErrorKind::Overflow, "int too large to convert to float")),
        (V::Str(s), _) => super::strings::float(s).ok_or_else(|| {
            let mut r = String::new();
            super::value::str_repr(s, &mut r);
            value_err(format!("could not convert string to float: {r}"))
        }),
        _ => Err(type_err(format!(
            "float() argument must be a string or a real number, not '{}'",
            v.type_name()
        ))),
    }
}

/// The int of an already-rounded float (`int()` truncates, `round()` rounds
/// half to even); NaN and infinities are errors, as in CPython.
fn float_to_int(it: &mut Interp, f: f64) -> R<Value> {
    if f.is_nan() {
        return Err(value_err("cannot convert float NaN to integer"));
    }
    if f.is_infinite() {
        return Err(err(
            ErrorKind::Overflow,
            "cannot convert float infinity to integer",
        ));
    }
    it.int_result(float_to_big(f))
}

fn to_int(it: &mut Interp, v: &Value) -> R<Value> {
    match &v.0 {
        V::Int(_) | V::Big(_) => Ok(v.clone()),
        V::Bool(b) => Ok(Value::from(*b as i64)),
        V::Float(f) => float_to_int(it, f.trunc()),
        V::Str(s) => parse_int(it, s, 10),
        _ => Err(type_err(format!(
            "int() argument must be a string, a bytes-like object or a real number, not '{}'",
            v.type_name()
        ))),
    }
}

/// Python's `int(str, base)`.
fn parse_int(it: &mut Interp, s: &str, base: u32) -> R<Value> {
    let invalid = || {
        let mut r = String::new();
        super::value::str_repr(s, &mut r);
        value_err(format!("invalid literal for int() with base {base}: {r}"))
    };
    let (neg, clean, radix) = super::strings::int_parts(s, base).ok_or_else(invalid)?;
    if !radix.is_power_of_two() && clean.len() > MAX_STR_DIGITS {
        return Err(value_err(format!(
            "Exceeds the limit ({MAX_STR_DIGITS} digits) for integer string conversion: \
             value has {} digits; use sys.set_int_max_str_digits() to increase the limit",
            clean.len()
        )));
    }
    // Refuse before parsing what is certainly too big (`int_result` checks exactly).
    let approx_bits = (clean.len() as f64 * f64::from(radix).log2()) as u64;
    if approx_bits > it.limits().max_int_bits + 8 {
        it.check_int_bits(approx_bits)?;
    }
    let n = BigInt::parse_bytes(clean.as_bytes(), radix).ok_or_else(invalid)?;
    it.int_result(if neg { -n } else { n })
}

fn reversed(it: &mut Interp, v: &Value) -> R<Value> {
    let (name, state) = match &v.0 {
        V::List(s) => (
            "list_reverseiterator",
            PyIter::RevSeq(s.clone(), s.items.len()),
        ),
        V::Tuple(s) => ("reversed", PyIter::RevSeq(s.clone(), s.items.len())),
        V::Str(s) => ("reversed", PyIter::RevStr(s.clone(), s.len())),
        V::Dict(d) => (
            "dict_reversekeyiterator",
            PyIter::RevDict(d.clone(), d.len()),
        ),
        V::Range(r) => {
            let n = r.len();
            let last = if n == 0 { r.start } else { r.get(n - 1) };
            (
                "range_iterator",
                PyIter::Range {
                    next: last,
                    step: r.step.wrapping_neg(),
                    left: n,
                },
            )
        }
        _ => {
            return Err(type_err(format!(
                "'{}' object is not reversible",
                v.type_name()
            )));
        }
    };
    Ok(it.new_iter(name, state))
}

/// `min`/`max` as CPython's `min_max`: the first of equal extremes wins.
fn min_max(it: &mut Interp, mut a: Args, is_max: bool) -> R<Value> {
    let key = a.kw("key").filter(|k| !k.is_none());
    let default = a.kw("default");
    a.done()?;
    let name = a.name;
    let items: PyIter = match a.pos.len() {
        0 => {
            return Err(type_err(format!(
                "{name} expected at least 1 argument, got 0"
            )));
        }
        1 => it.iter(&a.pos[0])?,
        _ => {
            if default.is_some() {
                return Err(type_err(format!(
                    "Cannot specify a default for {name}() with multiple positional arguments"
                )));
            }
            PyIter::Seq(Rc::new(Seq::new(std::mem::take(&mut a.pos))), 0)
        }
    };
    let mut items = items;
    let op = if is_max { CmpOp::Gt } else { CmpOp::Lt };
    let mut best: Option<(Value, Value)> = None;
    while let Some(item) = it.next(&mut items)? {
        let val = match &key {
            Some(k) => it.call(k, vec![item.clone()], Vec::new())?,
            None => item.clone(),
        };
        match &best {
            None => best = Some((item, val)),
            Some((_, best_val)) => {
                if it.richcmp(op, &val, best_val)? {
                    best = Some((item, val));
                }
            }
        }
    }
    match (best, default) {
        (Some((item, _)), _) => Ok(item),
        (None, Some(d)) => Ok(d),
        (None, None) => Err(value_err(format!("{name}() arg is an empty sequence"))),
    }
}

/// `sum` as CPython 3.12/3.13: exact int fast path, then Neumaier-compensated
/// floats (ints added uncompensated), then plain `+`.
fn sum(it: &mut Interp, iterable: &Value, start: Option<Value>) -> R<Value> {
    if let Some(Value(V::Str(_))) = start {
        return Err(type_err(
            "sum() can't sum strings [use ''.join(seq) instead]",
        ));
    }
    let mut iter = it.iter(iterable)?;
    let mut result = start.unwrap_or(Value::from(0));
    if let V::Int(mut acc) = result.0 {
        loop {
            let Some(item) = it.next(&mut iter)? else {
                return Ok(Value::from(acc));
            };
            let small = match item.0 {
                V::Int(b) => Some(b),
                V::Bool(b) => Some(b as i64),
                _ => None,
            };
            if let Some(s) = small.and_then(|b| acc.checked_add(b)) {
                acc = s;
                continue;
            }
            result = it.binop(BinOp::Add, &Value::from(acc), &item)?;
            break;
        }
    }
    if let V::Float(f) = result.0 {
        let mut acc = FloatSum::new(f);
        loop {
            let item = it.next(&mut iter)?;
            match item.as_ref().map(|v| &v.0) {
                Some(V::Float(x)) => {
                    acc.add(*x);
                    continue;
                }
                Some(V::Int(i)) => {
                    acc.add_uncompensated(*i as f64);
                    continue;
                }
                Some(V::Bool(b)) => {
                    acc.add_uncompensated(*b as i64 as f64);
                    continue;
                }
                _ => {}
            }
            let total = acc.total();
            match item {
                None => return Ok(Value::from(total)),
                Some(item) => {
                    result = it.binop(BinOp::Add, &Value::from(total), &item)?;
                    break;
                }
            }
        }
    }
    while let Some(item) = it.next(&mut iter)? {
        result = it.binop(BinOp::Add, &result, &item)?;
    }
    Ok(result)
}

fn round(it: &mut Interp, x: &Value, ndigits: Option<&Value>) -> R<Value> {
    let n = match ndigits {
        None => None,
        Some(v) => Some(match int_arg(v)? {
            Num::Int(i) => i,
            Num::Big(b) => {
                if b.sign() == Sign::Minus {
                    i64::MIN
                } else {
                    i64::MAX
                }
            }
            Num::Float(_) => unreachable!("int_arg returns ints"),
        }),
    };
    match (as_number(x), n) {
        (Some(Num::Float(f)), None) => float_to_int(it, f.round_ties_even()),
        (Some(Num::Float(f)), Some(n)) => Ok(Value::from(round_float(f, n)?)),
        (Some(i @ (Num::Int(_) | Num::Big(_))), n) => {
            let Some(n) = n.filter(|n| *n < 0) else {
                return Ok(int_value(to_big(i)));
            };
            let x = to_big(i);
            let k = n.unsigned_abs();
            if k > x.bits() / 3 + 2 {
                return Ok(Value::from(0));
            }
            let p = BigInt::from(10).pow(k as u32);
            let q = div_round_half_even(&x, &p);
            it.int_result(q * p)
        }
        _ => Err(type_err(format!(
            "type {} doesn't define __round__ method",
            x.type_name()
        ))),
    }
}

/// `round(a / b)` with ties to even (`b > 0`).
fn div_round_half_even(a: &BigInt, b: &BigInt) -> BigInt {
    let (q, r) = a.div_mod_floor(b);
    let twice = &r * 2;
    if twice > *b || (twice == *b && q.is_odd()) {
        q + 1
    } else {
        q
    }
}

/// `round(float, n)`: the float nearest to `f` rounded to `n` decimals
/// (exact decimal rounding, ties to even, as CPython's dtoa-based code).
fn round_float(f: f64, n: i64) -> R<f64> {
    if !f.is_finite() || f == 0.0 || n > 323 {
        return Ok(f);
    }
    if n < -308 {
        return Ok(0.0f64.copysign(f));
    }
    let r = if n >= 0 {
        format!("{:.*}", n as usize, f).parse::<f64>().unwrap_or(f)
    } else {
        // f = m * 2^e exactly; round f / 10^k to an int, then scale back.
        let bits = f.to_bits();
        let exp = ((bits >> 52) & 0x7ff) as i64;
        let mant = if exp == 0 {
            (bits & ((1 << 52) - 1)) << 1
        } else {
            (bits & ((1 << 52) - 1)) | (1 << 52)
        };
        let e = exp.max(1) - 1075;
        let p = BigInt::from(10).pow(n.unsigned_abs() as u32);
        let (num, den) = if e >= 0 {
            (BigInt::from(mant) << e as usize, p.clone())
        } else {
            (BigInt::from(mant), p.clone() << (-e) as usize)
        };
        let q = div_round_half_even(&num, &den) * p;
        num::int_to_f64(Num::Big(&q))
            .ok_or_else(|| err(ErrorKind::Overflow, "rounded value too large to represent"))?
    };
    Ok(if r == 0.0 {
        0.0f64.copysign(f)
    } else {
        r.copysign(f)
    })
}

/// `sorted`: CPython's stable sort using only `<` (binary insertion sort
/// after the first run for short lists, as timsort does; a merge sort for
/// longer ones, which agrees whenever the order is consistent).
fn sort(it: &mut Interp, items: Vec<Value>, key: Option<&Value>, reverse: bool) -> R<Vec<Value>> {
    let mut pairs: Vec<(Value, Value)> = Vec::with_capacity(items.len());
    for item in items {
        let k = match key {
            Some(f) => it.call(f, vec![item.clone()], Vec::new())?,
            None => item.clone(),
        };
        pairs.push((k, item));
    }
    if reverse {
        pairs.reverse();
    }
    let n = pairs.len();
    let mut lt = |it: &mut Interp, a: &Value, b: &Value| -> R<bool> {
        it.charge(1)?;
        it.richcmp(CmpOp::Lt, a, b)
    };
    if n >= 2 {
        if n < 64 {
            // count_run, then binarysort of the rest.
            let mut run = 2;
            if lt(it, &pairs[1].0, &pairs[0].0)? {
                while run < n && lt(it, &pairs[run].0, &pairs[run - 1].0)? {
                    run += 1;
                }
                pairs[..run].reverse();
            } else {
                while run < n && !lt(it, &pairs[run].0, &pairs[run - 1].0)? {
                    run += 1;
                }
            }
            for start in run..n {
                let (mut l, mut r) = (0, start);
                while l < r {
                    let p = l + (r - l) / 2;
                    if lt(it, &pairs[start].0, &pairs[p].0)? {
                        r = p;
                    } else {
                        l = p + 1;
                    }
                }
                let pivot = pairs.remove(start);
                pairs.insert(l, pivot);
            }
        } else {
            let mut buf = Vec::with_capacity(n);
            merge_sort(it, &mut pairs, &mut buf, &mut lt)?;
        }
    }
    if reverse {
        pairs.reverse();
    }
    Ok(pairs.into_iter().map(|(_, v)| v).collect())
}

type Lt<'a> = dyn FnMut(&mut Interp, &Value, &Value) -> R<bool> + 'a;

fn merge_sort(
    it: &mut Interp,
    v: &mut Vec<(Value, Value)>,
    buf: &mut Vec<(Value, Value)>,
    lt: &mut Lt<'_>,
) -> R<()> {
    let n = v.len();
    if n < 2 {
        return Ok(());
    }
    let mut right = v.split_off(n / 2);
    merge_sort(it, v, buf, lt)?;
    merge_sort(it, &mut right, buf, lt)?;
    buf.clear();
    let left = std::mem::take(v);
    let (mut l, mut r) = (left.into_iter().peekable(), right.into_iter().peekable());
    while let (Some(a), Some(b)) = (l.peek(), r.peek()) {
        if lt(it, &b.0, &a.0)? {
            buf.extend(r.next());
        } else {
            buf.extend(l.next());
        }
    }
    buf.extend(l);
    buf.extend(r);
    std::mem::swap(v, buf);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_strings_and_rounding() {
        for (s, f) in [
            ("1.5", 1.5),
            (" -2 ", -2.0),
            ("1_0.5", 10.5),
            (".5", 0.5),
            ("5.", 5.0),
            ("1e3", 1000.0),
            ("-Infinity", f64::NEG_INFINITY),
        ] {
            assert_eq!(super::super::strings::float(s), Some(f), "{s}");
        }
        assert!(super::super::strings::float("nan").unwrap().is_nan());
        for s in [
            "", "1_", "_1", "1__0", "1e", ".", "e5", "0x10", "1.5.2", "in f",
        ] {
            assert_eq!(super::super::strings::float(s), None, "{s}");
        }
        let round = |f, n| round_float(f, n).unwrap();
        assert_eq!(round(2.675, 2), 2.67);
        assert_eq!(round(0.125, 2), 0.12);
        assert_eq!(round(1234.5, -2), 1200.0);
        assert_eq!(round(1250.0, -2), 1200.0);
        assert_eq!(round(1350.0, -2), 1400.0);
        assert_eq!(round(-0.4, 0).to_bits(), (-0.0f64).to_bits());
        assert_eq!(round(5e-324, -1), 0.0);
        assert_eq!(round(1.4e308, -308), 1e308);
        assert!(round_float(1.5e308, -308).is_err());
    }
}
