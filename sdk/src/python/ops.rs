//! Operators: arithmetic with Python's semantics, comparisons, membership,
//! indexing and slicing, and the set algebra (CPython's algorithms, which
//! decide iteration order).

use super::error::ErrorKind;
use super::interp::{Interp, R, err, type_err, value_err};
use super::num::{Num, as_number, int_to_f64, int_value, num_cmp, to_big};
use super::parser::{BinOp, CmpOp, UnOp};
use super::value::{Dict, Range, Set, V, Value, py_eq, py_hash};
use num_bigint::{BigInt, Sign};
use num_integer::Integer;
use num_traits::{Signed, ToPrimitive, Zero};
use std::cmp::Ordering;
use std::rc::Rc;

fn unsupported_operands(op: &str, a: &Value, b: &Value) -> super::error::EvalError {
    type_err(format!(
        "unsupported operand type(s) for {op}: '{}' and '{}'",
        a.type_name(),
        b.type_name()
    ))
}

fn zero_division(message: &str) -> super::error::EvalError {
    err(ErrorKind::ZeroDivision, message)
}

/// The int in `v` (`True` is 1), not floats.
pub(crate) fn as_int(v: &Value) -> Option<Num<'_>> {
    match as_number(v) {
        Some(Num::Float(_)) | None => None,
        n => n,
    }
}

fn bits(n: Num<'_>) -> u64 {
    match n {
        Num::Int(i) => 64 - i.unsigned_abs().leading_zeros() as u64,
        Num::Big(b) => b.bits(),
        Num::Float(_) => 0,
    }
}

fn is_zero(n: Num<'_>) -> bool {
    matches!(n, Num::Int(0))
}

fn is_negative(n: Num<'_>) -> bool {
    match n {
        Num::Int(i) => i < 0,
        Num::Big(b) => b.sign() == Sign::Minus,
        Num::Float(f) => f < 0.0,
    }
}

fn to_float(n: Num<'_>) -> R<f64> {
    int_to_f64(n).ok_or_else(|| err(ErrorKind::Overflow, "int too large to convert to float"))
}

/// `DOUBLE_IS_ODD_INTEGER`.
fn is_odd_integer(x: f64) -> bool {
    (x.abs() % 2.0) == 1.0
}

/// CPython's `_float_div_mod`: (floor quotient, remainder with the divisor's sign).
pub(crate) fn float_divmod(vx: f64, wx: f64) -> (f64, f64) {
    let mut m = vx % wx;
    let mut div = (vx - m) / wx;
    if m != 0.0 {
        if (wx < 0.0) != (m < 0.0) {
            m += wx;
            div -= 1.0;
        }
    } else {
        m = 0.0f64.copysign(wx);
    }
    let floordiv = if div != 0.0 {
        let mut f = div.floor();
        if div - f > 0.5 {
            f += 1.0;
        }
        f
    } else {
        0.0f64.copysign(vx / wx)
    };
    (floordiv, m)
}

/// CPython's `float_pow`.
pub(crate) fn float_pow(iv: f64, iw: f64) -> R<f64> {
    if iw == 0.0 {
        return Ok(1.0);
    }
    if iv.is_nan() {
        return Ok(iv);
    }
    if iw.is_nan() {
        return Ok(if iv == 1.0 { 1.0 } else { iw });
    }
    if iw.is_infinite() {
        let a = iv.abs();
        return Ok(if a == 1.0 {
            1.0
        } else if (iw > 0.0) == (a > 1.0) {
            iw.abs()
        } else {
            0.0
        });
    }
    if iv.is_infinite() {
        let odd = is_odd_integer(iw);
        return Ok(if iw > 0.0 {
            if odd { iv } else { iv.abs() }
        } else if odd {
            0.0f64.copysign(iv)
        } else {
            0.0
        });
    }
    if iv == 0.0 {
        if iw < 0.0 {
            return Err(zero_division("0.0 cannot be raised to a negative power"));
        }
        return Ok(if is_odd_integer(iw) { iv } else { 0.0 });
    }
    let mut iv = iv;
    let mut negate = false;
    if iv < 0.0 {
        if iw != iw.floor() {
            return Err(err(
                ErrorKind::Unsupported,
                "a negative number raised to a fractional power is complex; complex numbers are not supported",
            ));
        }
        iv = -iv;
        negate = is_odd_integer(iw);
    }
    if iv == 1.0 {
        return Ok(if negate { -1.0 } else { 1.0 });
    }
    let x = iv.powf(iw);
    if x.is_infinite() {
        return Err(err(
            ErrorKind::Overflow,
            "(34, 'Numerical result out of range')",
        ));
    }
    Ok(if negate { -x } else { x })
}

/// `a / b` for ints, correctly rounded as CPython does.
fn int_truediv(a: Num<'_>, b: Num<'_>) -> R<f64> {
    if is_zero(b) {
        return Err(zero_division("division by zero"));
    }
    const EXACT: u64 = 1 << 53;
    if let (Num::Int(x), Num::Int(y)) = (a, b)
        && x.unsigned_abs() <= EXACT
        && y.unsigned_abs() <= EXACT
    {
        return Ok(x as f64 / y as f64);
    }
    let (x, y) = (to_big(a), to_big(b));
    let negative = (x.sign() == Sign::Minus) != (y.sign() == Sign::Minus);
    let (x, y) = (x.abs(), y.abs());
    if x.is_zero() {
        return Ok(if negative { -0.0 } else { 0.0 });
    }
    // q = floor(x * 2^k / y) with at least 55 significant bits.
    let k = 55 + y.bits() as i64 - x.bits() as i64;
    let (num, den) = if k >= 0 {
        (x << k as usize, y)
    } else {
        (x, y << (-k) as usize)
    };
    let (q, r) = num.div_rem(&den);
    let qbits = q.bits() as i64;
    // The result lies in [2^(e-1), 2^e).
    let e = qbits - k;
    if e > 1024 {
        return Err(err(
            ErrorKind::Overflow,
            "integer division result too large for a float",
        ));
    }
    // 53 bits of precision, fewer for subnormal results (none below half
    // the smallest subnormal).
    let precision = (e + 1074).min(53);
    if precision < 0 {
        return Ok(if negative { -0.0 } else { 0.0 });
    }
    let drop = (qbits - precision) as u64;
    let mut mant = (&q >> drop).to_u64().unwrap_or(0);
    let half = if drop > 0 { q.bit(drop - 1) } else { false };
    let sticky = !r.is_zero() || (drop > 1 && q.trailing_zeros().is_some_and(|z| z < drop - 1));
    if half && (sticky || mant & 1 == 1) {
        mant += 1;
    }
    let f = ldexp(mant as f64, drop as i64 - k);
    if f.is_infinite() {
        return Err(err(
            ErrorKind::Overflow,
            "integer division result too large for a float",
        ));
    }
    Ok(if negative { -f } else { f })
}

/// `m * 2^e`, exact when the result is representable.
fn ldexp(mut m: f64, mut e: i64) -> f64 {
    while e > 1000 {
        m *= 2f64.powi(1000);
        e -= 1000;
    }
    while e < -1000 {
        m *= 2f64.powi(-1000);
        e += 1000;
    }
    m * 2f64.powi(e as i32)
}

/// Floor division and modulo of ints (`b != 0`).
fn int_divmod(a: Num<'_>, b: Num<'_>) -> (Value, Value) {
    if let (Num::Int(x), Num::Int(y)) = (a, b)
        && !(x == i64::MIN && y == -1)
    {
        let (mut q, mut r) = (x / y, x % y);
        if r != 0 && ((r < 0) != (y < 0)) {
            q -= 1;
            r += y;
        }
        return (Value::from(q), Value::from(r));
    }
    let (q, r) = to_big(a).div_mod_floor(&to_big(b));
    (int_value(q), int_value(r))
}

impl Interp {
    /// Checks an int result against `max_int_bits`.
    pub(crate) fn int_result(&mut self, b: BigInt) -> R<Value> {
        self.check_int_bits(b.bits())?;
        Ok(int_value(b))
    }

    pub(crate) fn check_int_bits(&self, bits: u64) -> R<()> {
        let max = self.limits().max_int_bits;
        if bits > max {
            let size = if bits < 1 << 40 {
                format!("about {bits} bits")
            } else {
                "more than 2^40 bits".to_owned()
            };
            return Err(err(
                ErrorKind::Limit,
                format!("integer result would have {size} (limit {max})"),
            ));
        }
        Ok(())
    }

    /// Charges big-int work of about `words` machine words.
    fn charge_words(&mut self, words: u64) -> R<()> {
        self.charge(words / 8)
    }

    pub(crate) fn binop(&mut self, op: BinOp, a: &Value, b: &Value) -> R<Value> {
        if let (Some(x), Some(y)) = (as_number(a), as_number(b)) {
            return self.num_binop(op, x, y, a, b);
        }
        match (op, &a.0, &b.0) {
            (BinOp::Add, V::Str(x), V::Str(y)) => {
                let mut s = String::with_capacity(x.len() + y.len());
                s.push_str(x);
                s.push_str(y);
                self.new_str(s)
            }
            (BinOp::Add, V::List(x), V::List(y)) | (BinOp::Add, V::Tuple(x), V::Tuple(y)) => {
                self.alloc((x.items.len() + y.items.len()) as u64)?;
                let mut items = Vec::with_capacity(x.items.len() + y.items.len());
                items.extend_from_slice(&x.items);
                items.extend_from_slice(&y.items);
                if matches!(a.0, V::List(_)) {
                    self.new_list(items)
                } else {
                    self.new_tuple(items)
                }
            }
            (BinOp::Add, V::Str(_) | V::List(_) | V::Tuple(_), _) => Err(type_err(format!(
                "can only concatenate {} (not \"{}\") to {}",
                a.type_name(),
                b.type_name(),
                a.type_name()
            ))),
            (BinOp::Mul, V::Str(_) | V::List(_) | V::Tuple(_), _) => self.repeat(a, b),
            (BinOp::Mul, _, V::Str(_) | V::List(_) | V::Tuple(_)) => self.repeat(b, a),
            (
                BinOp::Sub | BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor,
                V::Set(x) | V::FrozenSet(x),
                V::Set(y) | V::FrozenSet(y),
            ) => {
                let frozen = matches!(a.0, V::FrozenSet(_));
                let (x, y) = (x.clone(), y.clone());
                self.charge((x.len() + y.len()) as u64)?;
                let result = match op {
                    BinOp::BitOr => set_union(&x, &y),
                    BinOp::BitAnd => set_intersection(&x, &y),
                    BinOp::Sub => set_difference(&x, &y),
                    _ => set_symmetric_difference(&x, &y),
                };
                self.alloc(result.len() as u64)?;
                self.new_set(result, frozen)
            }
            (BinOp::BitOr, V::Dict(x), V::Dict(y)) => {
                self.charge((x.len() + y.len()) as u64)?;
                self.alloc((x.len() + y.len()) as u64)?;
                let mut d = Dict::new();
                for (h, k, v) in x.hashed_entries().chain(y.hashed_entries()) {
                    d.insert(k.clone(), *h, v.clone());
                }
                self.new_dict(d)
            }
            (BinOp::Mod, V::Str(s), _) => {
                // Only the no-conversion case is supported: like CPython, the
                // text itself for `()` or a dict, otherwise a TypeError.
                if s.contains('%') {
                    return Err(err(
                        ErrorKind::Unsupported,
                        "printf-style string formatting (str % ...) is not supported",
                    ));
                }
                match &b.0 {
                    V::Tuple(t) if t.items.is_empty() => Ok(a.clone()),
                    V::Dict(_) => Ok(a.clone()),
                    _ => Err(type_err(
                        "not all arguments converted during string formatting",
                    )),
                }
            }
            _ => Err(unsupported_operands(op.symbol(), a, b)),
        }
    }

    /// `seq * n`.
    fn repeat(&mut self, seq: &Value, n: &Value) -> R<Value> {
        let count = match as_number(n) {
            Some(Num::Int(i)) => i,
            Some(Num::Big(b)) => {
                if b.sign() == Sign::Minus {
                    0
                } else {
                    let empty = match &seq.0 {
                        V::Str(s) => s.is_empty(),
                        V::List(s) | V::Tuple(s) => s.items.is_empty(),
                        _ => false,
                    };
                    if !empty {
                        return Err(err(
                            ErrorKind::Overflow,
                            "cannot fit 'int' into an index-sized integer",
                        ));
                    }
                    0
                }
            }
            _ => {
                return Err(type_err(format!(
                    "can't multiply sequence by non-int of type '{}'",
                    n.type_name()
                )));
            }
        };
        let count = count.max(0) as u64;
        match &seq.0 {
            V::Str(s) => {
                self.alloc((s.len() as u64).saturating_mul(count))?;
                Ok(Value::from(s.repeat(count as usize)))
            }
            V::List(s) | V::Tuple(s) => {
                self.alloc((s.items.len() as u64).saturating_mul(count))?;
                let mut items = Vec::with_capacity(s.items.len() * count as usize);
                for _ in 0..count {
                    items.extend_from_slice(&s.items);
                }
                if matches!(seq.0, V::List(_)) {
                    self.new_list(items)
                } else {
                    self.new_tuple(items)
                }
            }
            _ => Err(unsupported_operands("*", seq, n)),
        }
    }

    fn num_binop(&mut self, op: BinOp, x: Num<'_>, y: Num<'_>, a: &Value, b: &Value) -> R<Value> {
        let floats = matches!(x, Num::Float(_)) || matches!(y, Num::Float(_));
        if !floats {
            return self.int_binop(op, x, y, a, b);
        }
        if matches!(
            op,
            BinOp::LShift
                | BinOp::RShift
                | BinOp::BitAnd
                | BinOp::BitOr
                | BinOp::BitXor
                | BinOp::MatMul
        ) {
            return Err(unsupported_operands(op.symbol(), a, b));
        }
        let (p, q) = (to_float(x)?, to_float(y)?);
        let r = match op {
            BinOp::Add => p + q,
            BinOp::Sub => p - q,
            BinOp::Mul => p * q,
            BinOp::Div => {
                if q == 0.0 {
                    return Err(zero_division("float division by zero"));
                }
                p / q
            }
            BinOp::FloorDiv => {
                if q == 0.0 {
                    return Err(zero_division("float floor division by zero"));
                }
                float_divmod(p, q).0
            }
            BinOp::Mod => {
                if q == 0.0 {
                    return Err(zero_division("float modulo"));
                }
                float_divmod(p, q).1
            }
            _ => float_pow(p, q)?,
        };
        Ok(Value::from(r))
    }

    fn int_binop(&mut self, op: BinOp, x: Num<'_>, y: Num<'_>, a: &Value, b: &Value) -> R<Value> {
        if let (Num::Int(p), Num::Int(q)) = (x, y) {
            let small = match op {
                BinOp::Add => p.checked_add(q),
                BinOp::Sub => p.checked_sub(q),
                BinOp::Mul => p.checked_mul(q),
                BinOp::BitAnd => Some(p & q),
                BinOp::BitOr => Some(p | q),
                BinOp::BitXor => Some(p ^ q),
                _ => None,
            };
            if let Some(r) = small {
                if let (V::Bool(_), V::Bool(_)) = (&a.0, &b.0)
                    && matches!(op, BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor)
                {
                    return Ok(Value::from(r != 0));
                }
                return Ok(Value::from(r));
            }
        }
        let words = (bits(x) + bits(y)) / 64 + 1;
        match op {
            BinOp::Add | BinOp::Sub => {
                self.charge_words(words)?;
                let (p, q) = (to_big(x), to_big(y));
                self.int_result(if op == BinOp::Add { p + q } else { p - q })
            }
            BinOp::Mul => {
                self.check_int_bits((bits(x) + bits(y)).saturating_sub(1))?;
                self.charge_words((bits(x) / 64 + 1) * (bits(y) / 64 + 1))?;
                self.int_result(to_big(x) * to_big(y))
            }
            BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor => {
                self.charge_words(words)?;
                let (p, q) = (to_big(x), to_big(y));
                self.int_result(match op {
                    BinOp::BitAnd => p & q,
                    BinOp::BitOr => p | q,
                    _ => p ^ q,
                })
            }
            BinOp::FloorDiv | BinOp::Mod => {
                if is_zero(y) {
                    return Err(zero_division("integer division or modulo by zero"));
                }
                self.charge_words((bits(x) / 64 + 1) * (bits(y) / 64 + 1))?;
                let (q, r) = int_divmod(x, y);
                Ok(if op == BinOp::FloorDiv { q } else { r })
            }
            BinOp::Div => Ok(Value::from(int_truediv(x, y)?)),
            BinOp::Pow => self.int_pow(x, y),
            BinOp::LShift | BinOp::RShift => {
                if is_negative(y) {
                    return Err(value_err("negative shift count"));
                }
                let shift = match y {
                    Num::Int(s) => s as u64,
                    _ => u64::MAX,
                };
                if op == BinOp::RShift {
                    if shift >= bits(x) {
                        return Ok(Value::from(if is_negative(x) { -1 } else { 0 }));
                    }
                    self.charge_words(words)?;
                    return self.int_result(to_big(x) >> shift as usize);
                }
                if is_zero(x) {
                    return Ok(Value::from(0));
                }
                if shift == u64::MAX {
                    return Err(err(ErrorKind::Overflow, "too many digits in integer"));
                }
                self.check_int_bits(bits(x).saturating_add(shift))?;
                self.charge_words(words + shift / 64)?;
                self.int_result(to_big(x) << shift as usize)
            }
            BinOp::MatMul => Err(unsupported_operands("@", a, b)),
        }
    }

    fn int_pow(&mut self, x: Num<'_>, y: Num<'_>) -> R<Value> {
        if is_negative(y) {
            return Ok(Value::from(float_pow(to_float(x)?, to_float(y)?)?));
        }
        match x {
            Num::Int(0) => return Ok(Value::from(if is_zero(y) { 1 } else { 0 })),
            Num::Int(1) => return Ok(Value::from(1)),
            Num::Int(-1) => {
                let odd = match y {
                    Num::Int(e) => e & 1 == 1,
                    Num::Big(e) => e.is_odd(),
                    Num::Float(_) => false,
                };
                return Ok(Value::from(if odd { -1 } else { 1 }));
            }
            _ => {}
        }
        let exp = match y {
            Num::Int(e) => e as u64,
            _ => u64::MAX,
        };
        let b = bits(x);
        self.check_int_bits((b - 1).saturating_mul(exp).saturating_add(1))?;
        if let (Num::Int(p), Ok(e)) = (x, u32::try_from(exp))
            && let Some(r) = p.checked_pow(e)
        {
            return Ok(Value::from(r));
        }
        let words = b.saturating_mul(exp) / 64 + 1;
        self.charge_words(words.saturating_mul(words) / 16 + words)?;
        let e = u32::try_from(exp).map_err(|_| err(ErrorKind::Limit, "exponent too large"))?;
        self.int_result(to_big(x).pow(e))
    }

    /// `pow(base, exp, mod)` for ints.
    pub(crate) fn pow_mod(&mut self, base: &Value, exp: &Value, modulus: &Value) -> R<Value> {
        let (Some(b), Some(e), Some(m)) = (as_int(base), as_int(exp), as_int(modulus)) else {
            return Err(type_err(
                "pow() 3rd argument not allowed unless all arguments are integers",
            ));
        };
        if is_zero(m) {
            return Err(value_err("pow() 3rd argument cannot be 0"));
        }
        let (mut b, mut e, m) = (to_big(b), to_big(e), to_big(m));
        let negative_mod = m.sign() == Sign::Minus;
        let m = m.abs();
        let words = m.bits() / 64 + 1;
        self.charge_words((e.bits() + 1).saturating_mul(words * words))?;
        if e.sign() == Sign::Minus {
            b = b
                .mod_floor(&m)
                .modinv(&m)
                .ok_or_else(|| value_err("base is not invertible for the given modulus"))?;
            e = -e;
        }
        let mut r = b.mod_floor(&m).modpow(&e, &m);
        if negative_mod && !r.is_zero() {
            r -= &m;
        }
        Ok(int_value(r))
    }

    pub(crate) fn unary(&mut self, op: UnOp, v: &Value) -> R<Value> {
        let symbol = match op {
            UnOp::Neg => "-",
            UnOp::Pos => "+",
            UnOp::Invert => "~",
        };
        match (op, as_number(v)) {
            (UnOp::Neg, Some(Num::Int(i))) => Ok(match i.checked_neg() {
                Some(n) => Value::from(n),
                None => int_value(-BigInt::from(i)),
            }),
            (UnOp::Neg, Some(Num::Big(b))) => Ok(int_value(-b.clone())),
            (UnOp::Neg, Some(Num::Float(f))) => Ok(Value::from(-f)),
            (UnOp::Pos, Some(Num::Int(i))) => Ok(Value::from(i)),
            (UnOp::Pos, Some(_)) => Ok(match &v.0 {
                V::Bool(b) => Value::from(*b as i64),
                _ => v.clone(),
            }),
            (UnOp::Invert, Some(Num::Int(i))) => Ok(Value::from(!i)),
            (UnOp::Invert, Some(Num::Big(b))) => Ok(int_value(-b.clone() - 1)),
            _ => Err(type_err(format!(
                "bad operand type for unary {symbol}: '{}'",
                v.type_name()
            ))),
        }
    }

    // -----------------------------------------------------------------------
    // Comparisons
    // -----------------------------------------------------------------------

    pub(crate) fn compare(&mut self, op: CmpOp, a: &Value, b: &Value) -> R<bool> {
        match op {
            CmpOp::Eq => Ok(py_eq(a, b)),
            CmpOp::Ne => Ok(!py_eq(a, b)),
            CmpOp::In => self.contains(b, a),
            CmpOp::NotIn => Ok(!self.contains(b, a)?),
            CmpOp::Is => Ok(is_same(a, b)),
            CmpOp::IsNot => Ok(!is_same(a, b)),
            CmpOp::Lt | CmpOp::Le | CmpOp::Gt | CmpOp::Ge => self.richcmp(op, a, b),
        }
    }

    /// `<`, `<=`, `>`, `>=`, with Python 3's `TypeError` for unordered types.
    pub(crate) fn richcmp(&mut self, op: CmpOp, a: &Value, b: &Value) -> R<bool> {
        let apply = |o: Ordering| match op {
            CmpOp::Lt => o == Ordering::Less,
            CmpOp::Le => o != Ordering::Greater,
            CmpOp::Gt => o == Ordering::Greater,
            _ => o != Ordering::Less,
        };
        if let (Some(x), Some(y)) = (as_number(a), as_number(b)) {
            return Ok(num_cmp(&x, &y).is_some_and(apply));
        }
        match (&a.0, &b.0) {
            (V::Str(x), V::Str(y)) => Ok(apply(x.as_bytes().cmp(y.as_bytes()))),
            (V::List(x), V::List(y)) | (V::Tuple(x), V::Tuple(y)) => {
                let n = x.items.len().min(y.items.len());
                for i in 0..n {
                    self.charge(1)?;
                    if !py_eq(&x.items[i], &y.items[i]) {
                        return self.richcmp(op, &x.items[i], &y.items[i]);
                    }
                }
                Ok(apply(x.items.len().cmp(&y.items.len())))
            }
            (V::Set(x) | V::FrozenSet(x), V::Set(y) | V::FrozenSet(y)) => {
                self.charge((x.len() + y.len()) as u64)?;
                Ok(match op {
                    CmpOp::Lt => x.len() < y.len() && x.is_subset(y),
                    CmpOp::Le => x.is_subset(y),
                    CmpOp::Gt => x.len() > y.len() && y.is_subset(x),
                    _ => y.is_subset(x),
                })
            }
            _ => {
                let symbol = match op {
                    CmpOp::Lt => "<",
                    CmpOp::Le => "<=",
                    CmpOp::Gt => ">",
                    _ => ">=",
                };
                Err(type_err(format!(
                    "'{symbol}' not supported between instances of '{}' and '{}'",
                    a.type_name(),
                    b.type_name()
                )))
            }
        }
    }

    /// `item in container`.
    pub(crate) fn contains(&mut self, container: &Value, item: &Value) -> R<bool> {
        match &container.0 {
            V::List(s) | V::Tuple(s) => {
                for x in &s.items {
                    self.charge(1)?;
                    if py_eq(x, item) {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            V::Set(s) | V::FrozenSet(s) => {
                let h = match (py_hash(item), &item.0) {
                    (Ok(h), _) => h,
                    // CPython looks a set up as the equal frozenset.
                    (Err(_), V::Set(inner)) => py_hash(&Value(V::FrozenSet(inner.clone())))?,
                    (Err(e), _) => return Err(e),
                };
                Ok(s.find(item, h).is_some())
            }
            V::Dict(d) => {
                py_hash(item)?;
                Ok(d.lookup(item).is_some())
            }
            V::Str(s) => match &item.0 {
                V::Str(sub) => {
                    self.charge(s.len() as u64 / 64)?;
                    Ok(s.contains(&**sub))
                }
                _ => Err(type_err(format!(
                    "'in <string>' requires string as left operand, not {}",
                    item.type_name()
                ))),
            },
            V::Range(r) => match &item.0 {
                V::Int(_) | V::Bool(_) | V::Big(_) => {
                    let Some(Num::Int(i)) = as_number(item) else {
                        return Ok(false);
                    };
                    let (i, start, step) = (i as i128, r.start as i128, r.step as i128);
                    let n = r.len() as i128;
                    let k = (i - start) / step;
                    Ok((i - start) % step == 0 && k >= 0 && k < n)
                }
                _ => {
                    let mut it = self.iter(container)?;
                    while let Some(x) = self.next(&mut it)? {
                        if py_eq(&x, item) {
                            return Ok(true);
                        }
                    }
                    Ok(false)
                }
            },
            V::Iter(_) => {
                let mut it = self.iter(container)?;
                while let Some(x) = self.next(&mut it)? {
                    if py_eq(&x, item) {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            _ => Err(type_err(format!(
                "argument of type '{}' is not iterable",
                container.type_name()
            ))),
        }
    }

    // -----------------------------------------------------------------------
    // Indexing and slicing
    // -----------------------------------------------------------------------

    pub(crate) fn getitem(&mut self, x: &Value, index: &Value) -> R<Value> {
        let what = match &x.0 {
            V::List(_) => "list",
            V::Tuple(_) => "tuple",
            V::Str(_) => "string",
            V::Range(_) => "range object",
            V::Dict(d) => {
                py_hash(index)?;
                return d
                    .lookup(index)
                    .cloned()
                    .ok_or_else(|| err(ErrorKind::Key, index.to_string()));
            }
            _ => {
                return Err(type_err(format!(
                    "'{}' object is not subscriptable",
                    x.type_name()
                )));
            }
        };
        let i = match as_int(index) {
            Some(Num::Int(i)) => i,
            Some(_) => {
                return Err(err(
                    ErrorKind::Index,
                    "cannot fit 'int' into an index-sized integer",
                ));
            }
            None => {
                return Err(type_err(if matches!(x.0, V::Str(_)) {
                    format!(
                        "string indices must be integers, not '{}'",
                        index.type_name()
                    )
                } else {
                    format!(
                        "{} indices must be integers or slices, not {}",
                        x.type_name(),
                        index.type_name()
                    )
                }));
            }
        };
        let out_of_range = || err(ErrorKind::Index, format!("{what} index out of range"));
        let at = |len: u64| -> Option<u64> {
            let j = if i < 0 {
                i as i128 + len as i128
            } else {
                i as i128
            };
            (0..len as i128).contains(&j).then_some(j as u64)
        };
        match &x.0 {
            V::List(s) | V::Tuple(s) => {
                let j = at(s.items.len() as u64).ok_or_else(out_of_range)?;
                Ok(s.items[j as usize].clone())
            }
            V::Str(s) => {
                let c = if s.is_ascii() {
                    at(s.len() as u64).map(|j| s.as_bytes()[j as usize] as char)
                } else {
                    let n = s.chars().count() as u64;
                    self.charge(n / 64)?;
                    at(n).and_then(|j| s.chars().nth(j as usize))
                };
                let c = c.ok_or_else(out_of_range)?;
                Ok(Value::from(c.to_string()))
            }
            V::Range(r) => {
                let j = at(r.len()).ok_or_else(out_of_range)?;
                Ok(Value::from(r.get(j)))
            }
            _ => unreachable!("checked above"),
        }
    }

    /// `x[a:b:c]`.
    pub(crate) fn slice(&mut self, x: &Value, a: &Value, b: &Value, c: &Value) -> R<Value> {
        let bound = |v: &Value| -> R<Option<i64>> {
            match &v.0 {
                V::None => Ok(None),
                _ => match as_int(v) {
                    Some(Num::Int(i)) => Ok(Some(i)),
                    Some(Num::Big(b)) => Ok(Some(if b.sign() == Sign::Minus {
                        i64::MIN
                    } else {
                        i64::MAX
                    })),
                    _ => Err(type_err(
                        "slice indices must be integers or None or have an __index__ method",
                    )),
                },
            }
        };
        let (start, stop, step) = (bound(a)?, bound(b)?, bound(c)?);
        let step = step.unwrap_or(1);
        if step == 0 {
            return Err(value_err("slice step cannot be zero"));
        }
        let len = match &x.0 {
            V::List(s) | V::Tuple(s) => s.items.len() as i64,
            V::Str(s) => s.chars().count() as i64,
            V::Range(r) => r.len().min(i64::MAX as u64) as i64,
            V::Dict(_) => return Err(type_err("unhashable type: 'slice'")),
            _ => {
                return Err(type_err(format!(
                    "'{}' object is not subscriptable",
                    x.type_name()
                )));
            }
        };
        let (start, stop, n) = adjust_slice(len, start, stop, step);
        self.charge(n as u64)?;
        let indices = (0..n).map(|k| (start as i128 + k as i128 * step as i128) as usize);
        match &x.0 {
            V::List(s) | V::Tuple(s) => {
                self.alloc(n as u64)?;
                let items: Vec<Value> = indices.map(|i| s.items[i].clone()).collect();
                if matches!(x.0, V::List(_)) {
                    self.new_list(items)
                } else {
                    self.new_tuple(items)
                }
            }
            V::Str(s) => {
                self.alloc(n as u64)?;
                let out: String = if s.is_ascii() {
                    indices.map(|i| s.as_bytes()[i] as char).collect()
                } else {
                    let chars: Vec<char> = s.chars().collect();
                    indices.map(|i| chars[i]).collect()
                };
                Ok(Value::from(out))
            }
            V::Range(r) => {
                let at = |k: i64| r.start as i128 + k as i128 * r.step as i128;
                let new_step = r.step as i128 * step as i128;
                let fits = |v: i128| i64::try_from(v).ok();
                match (fits(at(start)), fits(at(stop)), fits(new_step)) {
                    (Some(a), Some(b), Some(c)) => Ok(Value(V::Range(Rc::new(Range {
                        start: a,
                        stop: b,
                        step: c,
                    })))),
                    _ => Err(err(
                        ErrorKind::Unsupported,
                        "ranges beyond 64-bit bounds are not supported",
                    )),
                }
            }
            _ => unreachable!("checked above"),
        }
    }
}

/// `PySlice_AdjustIndices`: (start, stop, length) for a sequence of `len` items.
fn adjust_slice(len: i64, start: Option<i64>, stop: Option<i64>, step: i64) -> (i64, i64, i64) {
    let clamp = |v: Option<i64>, default: i64| -> i64 {
        match v {
            None => default,
            Some(v) if v < 0 => {
                let v = v.saturating_add(len);
                if v < 0 {
                    if step < 0 { -1 } else { 0 }
                } else {
                    v
                }
            }
            Some(v) if v >= len => {
                if step < 0 {
                    len - 1
                } else {
                    len
                }
            }
            Some(v) => v,
        }
    };
    let (start, stop) = if step < 0 {
        (clamp(start, len - 1), clamp(stop, -1))
    } else {
        (clamp(start, 0), clamp(stop, len))
    };
    let n = if step < 0 {
        if stop < start {
            ((start as i128 - stop as i128 - 1) / (-(step as i128)) + 1) as i64
        } else {
            0
        }
    } else if start < stop {
        ((stop as i128 - start as i128 - 1) / step as i128 + 1) as i64
    } else {
        0
    };
    (start, stop, n)
}

/// `a is b`: exact for `None`, `True`, `False`, containers and functions;
/// ints are identical in CPython's small-int range (-5..=256).
fn is_same(a: &Value, b: &Value) -> bool {
    match (&a.0, &b.0) {
        (V::None, V::None) => true,
        (V::Bool(x), V::Bool(y)) => x == y,
        (V::Int(x), V::Int(y)) => x == y && (-5..=256).contains(x),
        (V::Str(x), V::Str(y)) => Rc::ptr_eq(x, y),
        (V::Tuple(x), V::Tuple(y)) | (V::List(x), V::List(y)) => Rc::ptr_eq(x, y),
        (V::Set(x), V::Set(y)) | (V::FrozenSet(x), V::FrozenSet(y)) => Rc::ptr_eq(x, y),
        (V::Dict(x), V::Dict(y)) => Rc::ptr_eq(x, y),
        (V::Range(x), V::Range(y)) => Rc::ptr_eq(x, y),
        (V::Big(x), V::Big(y)) => Rc::ptr_eq(x, y),
        (V::Func(x), V::Func(y)) => Rc::ptr_eq(x, y),
        (V::Iter(x), V::Iter(y)) => Rc::ptr_eq(x, y),
        (V::Builtin(x), V::Builtin(y)) => x == y,
        _ => false,
    }
}

// ---------------------------------------------------------------------------
// Set algebra: CPython's `set_or`, `set_and`, `set_sub`, `set_xor`.
// ---------------------------------------------------------------------------

fn set_copy(s: &Set) -> Set {
    let mut out = Set::new();
    out.merge(s);
    out
}

fn set_union(a: &Rc<Set>, b: &Rc<Set>) -> Set {
    let mut out = set_copy(a);
    if !Rc::ptr_eq(a, b) {
        out.merge(b);
    }
    out
}

fn set_intersection(a: &Rc<Set>, b: &Rc<Set>) -> Set {
    if Rc::ptr_eq(a, b) {
        return set_copy(a);
    }
    let (so, other) = if b.len() > a.len() { (b, a) } else { (a, b) };
    let mut out = Set::new();
    for (h, k) in other.entries() {
        if so.find(k, h).is_some() {
            out.add(k.clone(), h);
        }
    }
    out
}

fn set_difference(a: &Rc<Set>, b: &Rc<Set>) -> Set {
    if (a.len() >> 2) > b.len() {
        // Copy, then discard what `b` has.
        let mut out = set_copy(a);
        let smaller;
        let other: &Set = if (b.len() >> 3) > out.len() {
            smaller = set_intersection(&Rc::new(set_copy(&out)), b);
            &smaller
        } else {
            b
        };
        for (h, k) in other.entries() {
            out.discard(k, h);
        }
        out.shrink_after_discards();
        return out;
    }
    let mut out = Set::new();
    for (h, k) in a.entries() {
        if b.find(k, h).is_none() {
            out.add(k.clone(), h);
        }
    }
    out
}

fn set_symmetric_difference(a: &Rc<Set>, b: &Rc<Set>) -> Set {
    let mut out = Set::new();
    out.merge(b);
    for (h, k) in a.entries() {
        if !out.discard(k, h) {
            out.add(k.clone(), h);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_division_and_powers_follow_cpython() {
        assert_eq!(float_divmod(-7.5, 2.0), (-4.0, 0.5));
        assert_eq!(float_divmod(7.5, -2.0), (-4.0, -0.5));
        let (q, r) = float_divmod(-0.0, 5.0);
        assert!(q == 0.0 && q.is_sign_negative() && r == 0.0 && r.is_sign_positive());
        assert_eq!(float_pow(-8.0, 3.0).unwrap(), -512.0);
        assert_eq!(float_pow(0.0, 0.0).unwrap(), 1.0);
        assert_eq!(float_pow(-1.0, 1e300).unwrap(), 1.0);
        assert_eq!(float_pow(-0.0, 3.0).unwrap().to_bits(), (-0.0f64).to_bits());
        assert!(float_pow(0.0, -1.0).is_err());
        assert_eq!(
            float_pow(10.0, 400.0).unwrap_err().kind(),
            ErrorKind::Overflow
        );
        assert_eq!(
            float_pow(-8.0, 0.5).unwrap_err().kind(),
            ErrorKind::Unsupported
        );
    }

    #[test]
    fn int_true_division_is_correctly_rounded() {
        let big = |s: &str| s.parse::<BigInt>().unwrap();
        let a = big("1") << 2000usize;
        let b = big("1") << 1990usize;
        assert_eq!(int_truediv(Num::Big(&a), Num::Big(&b)).unwrap(), 1024.0);
        let n = big("10000000000000000000000000000001");
        let d = big("3");
        assert_eq!(
            int_truediv(Num::Big(&n), Num::Big(&d)).unwrap(),
            3.3333333333333336e30
        );
        assert_eq!(
            int_truediv(Num::Int(1), Num::Big(&(big("1") << 1074usize))).unwrap(),
            5e-324
        );
        assert_eq!(
            int_truediv(Num::Int(1), Num::Big(&(big("1") << 1076usize))).unwrap(),
            0.0
        );
        assert_eq!(
            int_truediv(Num::Int(3), Num::Big(&(big("1") << 1076usize))).unwrap(),
            5e-324
        );
        assert!(int_truediv(Num::Big(&(big("1") << 1100usize)), Num::Int(3)).is_err());
        assert_eq!(
            int_truediv(Num::Int(0), Num::Big(&(-big("1") << 70usize)))
                .unwrap()
                .to_bits(),
            (-0.0f64).to_bits()
        );
        assert_eq!(adjust_slice(5, None, None, -1), (4, -1, 5));
        assert_eq!(adjust_slice(5, Some(-100), Some(100), 2), (0, 5, 3));
    }
}
