//! Guest SDK for verigate verifiers.
//!
//! A verifier is a `wasm32-wasip1` command module: the payload (the model's
//! answer) arrives on stdin, the benchmark item (if any) is mounted read-only
//! at `/item`, and the verdict is printed on stdout in one of two protocols
//! ([`Protocol::Combench`] or [`Protocol::VerdictJson`]).
//!
//! The whole program is usually one function and one macro line:
//!
//! ```no_run
//! use verigate_sdk::{ensure, Result, Verdict};
//!
//! #[derive(serde::Deserialize)]
//! struct Instance { n: usize }
//!
//! fn verify() -> Result<Verdict> {
//!     let inst: Instance = verigate_sdk::instance()?;
//!     let answer: Vec<usize> = verigate_sdk::payload_json()?;
//!     ensure!(answer.len() == inst.n, "length {}, expected {}", answer.len(), inst.n);
//!     Ok(Verdict::pass())
//! }
//!
//! verigate_sdk::main!(verdict_json, verify);
//! ```
//!
//! Any `Err` returned by `verify` (including one raised by `?`, [`fail!`] or
//! [`ensure!`]) and any panic become a *failing* verdict carrying the error
//! message; the module still exits normally.
//!
//! Print debugging output to stderr (`eprintln!`): stdout is the verdict
//! channel.
//!
//! Witnesses written as Python expressions (ComBench's `eval(payload)`) are
//! read safely with [`payload_python`]; see the [`python`] module. Verifiers
//! that port a Python grader score for score use the [`harness`] (the
//! original's early returns and raises, Python's number coercions and `str`
//! semantics).

#![warn(missing_docs)]

use serde::Serialize;
use serde::de::DeserializeOwned;
/// Re-exported so verifiers can build [`Verdict::with_details`] values without
/// their own `serde_json` dependency.
pub use serde_json;
use std::fmt;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::OnceLock;

pub mod harness;
#[cfg(not(target_family = "wasm"))]
mod native;
pub mod python;
mod row;
pub use row::row;
/// The guest contract, defined once for the host and the guests: the
/// protocols, the item mount point, the row variable and Python's line rules.
pub use verigate_contract::{
    ITEM_DIR, Protocol, ROW_ENV, is_line_break, is_py_space, py_splitlines, py_strip,
};

// ---------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------

/// A verifier error: a human-readable message that becomes the failing
/// verdict's message.
///
/// Any `std::error::Error` converts into it, so `?` works on I/O, parse and
/// JSON errors alike (which is also why `Error` itself does not implement
/// `std::error::Error`).
///
/// ```
/// fn parse(s: &str) -> verigate_sdk::Result<u32> {
///     Ok(s.trim().parse::<u32>()?)
/// }
/// assert_eq!(parse(" 7 ").unwrap(), 7);
/// assert_eq!(parse("x").unwrap_err().to_string(), "invalid digit found in string");
/// ```
pub struct Error {
    message: String,
}

/// `Result` with [`Error`] as the default error type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// An error with the given message.
    ///
    /// ```
    /// let e = verigate_sdk::Error::msg("value 7 appears twice");
    /// assert_eq!(e.message(), "value 7 appears twice");
    /// ```
    pub fn msg(message: impl fmt::Display) -> Self {
        Error {
            message: message.to_string(),
        }
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Prefixes the message with `context: `.
    ///
    /// ```
    /// let e = verigate_sdk::Error::msg("not a number").context("line 3");
    /// assert_eq!(e.to_string(), "line 3: not a number");
    /// ```
    pub fn context(self, context: impl fmt::Display) -> Self {
        Error {
            message: format!("{context}: {}", self.message),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl<E: std::error::Error> From<E> for Error {
    fn from(err: E) -> Self {
        Error::msg(err)
    }
}

/// Returns early with an [`Error`] built from a `format!` message.
///
/// ```
/// use verigate_sdk::{fail, Result};
/// fn check(x: i32) -> Result<()> {
///     if x < 0 {
///         fail!("{x} is negative");
///     }
///     Ok(())
/// }
/// assert_eq!(check(-2).unwrap_err().to_string(), "-2 is negative");
/// ```
#[macro_export]
macro_rules! fail {
    ($($arg:tt)+) => {
        return ::core::result::Result::Err($crate::Error::msg(::std::format!($($arg)+)))
    };
}

/// Returns early with an [`Error`] unless the condition holds.
///
/// Without a message, the error names the failed condition.
///
/// ```
/// use verigate_sdk::{ensure, Result};
/// fn step(i: usize, (x, y): (i32, i32), (px, py): (i32, i32)) -> Result<()> {
///     ensure!((x - px).abs() + (y - py).abs() == 1, "step {i} ({x},{y}) is not side-adjacent");
///     Ok(())
/// }
/// assert!(step(1, (0, 1), (0, 0)).is_ok());
/// assert_eq!(step(2, (2, 2), (0, 1)).unwrap_err().to_string(),
///            "step 2 (2,2) is not side-adjacent");
///
/// fn bare(v: &[u8]) -> Result<()> {
///     ensure!(!v.is_empty());
///     Ok(())
/// }
/// assert_eq!(bare(&[]).unwrap_err().to_string(), "condition failed: !v.is_empty()");
/// ```
#[macro_export]
macro_rules! ensure {
    ($cond:expr $(,)?) => {
        if !$cond {
            $crate::fail!("condition failed: {}", ::core::stringify!($cond));
        }
    };
    ($cond:expr, $($arg:tt)+) => {
        if !$cond {
            $crate::fail!($($arg)+);
        }
    };
}

// ---------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------

static PAYLOAD: OnceLock<Vec<u8>> = OnceLock::new();

/// The raw payload: all of stdin, read on the first call and cached.
pub fn payload_bytes() -> Result<&'static [u8]> {
    if let Some(bytes) = PAYLOAD.get() {
        return Ok(bytes);
    }
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .read_to_end(&mut bytes)
        .map_err(|e| Error::msg(format!("cannot read the payload from stdin: {e}")))?;
    Ok(PAYLOAD.get_or_init(|| bytes))
}

/// The payload as UTF-8 text (see [`payload_bytes`]).
///
/// Fails with a message giving the offset of the first invalid byte.
pub fn payload() -> Result<&'static str> {
    let bytes = payload_bytes()?;
    std::str::from_utf8(bytes).map_err(|e| {
        Error::msg(format!(
            "payload is not valid UTF-8 (first invalid byte at offset {})",
            e.valid_up_to()
        ))
    })
}

/// The payload parsed as JSON into `T`.
///
/// Errors say whether the text is not JSON at all or has the wrong shape,
/// with line, column and what was expected (see [`from_json`]).
pub fn payload_json<T: DeserializeOwned>() -> Result<T> {
    from_json("payload", payload()?)
}

/// The payload (stripped of surrounding whitespace) evaluated as a Python
/// expression, as a ComBench verifier's `eval(payload)` would, but safely
/// and within [`python::EvalLimits::default`] (see [`python`]).
///
/// Errors are prefixed with `payload:` and give the Python exception class,
/// line, column and a caret under the offending spot.
pub fn payload_python() -> Result<python::Value> {
    from_python("payload", payload()?)
}

/// [`payload_python`] under the verifier's own evaluation bounds.
pub fn payload_python_with(limits: &python::EvalLimits) -> Result<python::Value> {
    from_python_with("payload", payload()?, limits)
}

/// Evaluates `text` (stripped) as a Python expression; `what` names the input
/// in error messages.
///
/// ```
/// use verigate_sdk::from_python;
/// let v = from_python("payload", "  [(a, b) for a in range(3) for b in range(a)]\n").unwrap();
/// assert_eq!(v.to_string(), "[(1, 0), (2, 0), (2, 1)]");
///
/// let e = from_python("payload", "[1, 2] + (3,)").unwrap_err();
/// assert_eq!(e.to_string(), "payload: TypeError: can only concatenate list (not \"tuple\") to list \
///     at line 1, column 8:\n    [1, 2] + (3,)\n           ^");
///
/// assert_eq!(from_python("payload", " ").unwrap_err().to_string(),
///            "payload is empty (expected a Python expression)");
/// ```
pub fn from_python(what: &str, text: &str) -> Result<python::Value> {
    from_python_with(what, text, &python::EvalLimits::default())
}

/// [`from_python`] under `limits`.
///
/// ```
/// use verigate_sdk::{from_python_with, python::EvalLimits};
/// let tight = EvalLimits { max_elements: 10, ..EvalLimits::default() };
/// let e = from_python_with("rule", "list(range(100))", &tight).unwrap_err();
/// assert!(e.to_string().starts_with("rule: "));
/// ```
pub fn from_python_with(
    what: &str,
    text: &str,
    limits: &python::EvalLimits,
) -> Result<python::Value> {
    let text = text.trim();
    if text.is_empty() {
        return Err(Error::msg(format!(
            "{what} is empty (expected a Python expression)"
        )));
    }
    python::eval_with(text, limits).map_err(|e| Error::msg(format!("{what}: {e}")))
}

/// Parses `text` as JSON into `T`; `what` names the input in error messages.
///
/// ```
/// use verigate_sdk::from_json;
/// let v: Vec<u32> = from_json("payload", "[1, 2, 3]").unwrap();
/// assert_eq!(v, [1, 2, 3]);
///
/// let e = from_json::<Vec<u32>>("payload", "[1, \"2\"]").unwrap_err();
/// assert_eq!(e.to_string(),
///     "payload has the wrong shape: invalid type: string \"2\", expected u32 at line 1 column 7");
///
/// let e = from_json::<Vec<u32>>("payload", "[1,\n 2").unwrap_err();
/// assert_eq!(e.to_string(),
///     "payload is not valid JSON: EOF while parsing a list at line 2 column 2");
///
/// let e = from_json::<Vec<u32>>("payload", " \n").unwrap_err();
/// assert_eq!(e.to_string(), "payload is empty (expected JSON)");
/// ```
pub fn from_json<T: DeserializeOwned>(what: &str, text: &str) -> Result<T> {
    if text.trim().is_empty() {
        return Err(Error::msg(format!("{what} is empty (expected JSON)")));
    }
    serde_json::from_str(text).map_err(|e| {
        let kind = match e.classify() {
            serde_json::error::Category::Data => "has the wrong shape",
            _ => "is not valid JSON",
        };
        Error::msg(format!("{what} {kind}: {e}"))
    })
}

/// The path of `name` inside the item directory: `item_path("x")` is `/item/x`.
///
/// ```
/// assert_eq!(verigate_sdk::item_path("instance.json").to_str(), Some("/item/instance.json"));
/// assert_eq!(verigate_sdk::item_path("/a/b").to_str(), Some("/item/a/b"));
/// ```
pub fn item_path(name: &str) -> PathBuf {
    PathBuf::from(format!("{ITEM_DIR}/{}", name.trim_start_matches('/')))
}

/// The bytes of item file `name`; the error names the file.
pub fn item_bytes(name: &str) -> Result<Vec<u8>> {
    let path = item_path(name);
    std::fs::read(&path).map_err(|e| Error::msg(format!("cannot read {}: {e}", path.display())))
}

/// The text of item file `name` (UTF-8 checked); the error names the file.
pub fn item_string(name: &str) -> Result<String> {
    let path = item_path(name);
    String::from_utf8(item_bytes(name)?).map_err(|e| {
        Error::msg(format!(
            "{} is not valid UTF-8: {}",
            path.display(),
            e.utf8_error()
        ))
    })
}

/// Item file `name` parsed as JSON into `T`; errors name the file, line and column.
pub fn item_json<T: DeserializeOwned>(name: &str) -> Result<T> {
    let text = item_string(name)?;
    from_json(&item_path(name).display().to_string(), &text)
}

/// `/item/instance.json` parsed into `T` (the usual place for the problem instance).
pub fn instance<T: DeserializeOwned>() -> Result<T> {
    item_json("instance.json")
}

/// Grades the payload (text) against the item's instance: `grade(&instance,
/// payload)`, for verifiers whose item data is one `instance.json`:
/// `verigate_sdk::main!(verdict_json, || verigate_sdk::grade_instance(grade));`
pub fn grade_instance<I: DeserializeOwned, V>(grade: impl Fn(&I, &str) -> V) -> Result<V> {
    let instance: I = instance()?;
    Ok(grade(&instance, payload()?))
}

// ---------------------------------------------------------------------------
// Verdicts
// ---------------------------------------------------------------------------

/// How [`Verdict::raised`] ends its message.
pub const RAISED: &str = "(the original grader raises here; its runner records 10000)";

/// A verifier's conclusion: pass/fail, a score in [0, 1], an optional message
/// and optional structured details.
///
/// `()` converts into [`Verdict::pass`], so `verify` may return `Result<()>`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Verdict {
    pass: bool,
    score: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    details: Option<serde_json::Value>,
}

impl Verdict {
    /// A pass with score 1.
    pub fn pass() -> Self {
        Verdict {
            pass: true,
            score: 1.0,
            message: None,
            details: None,
        }
    }

    /// A fail with score 0 and the given message.
    pub fn fail(message: impl Into<String>) -> Self {
        Verdict {
            pass: false,
            score: 0.0,
            message: Some(message.into()),
            details: None,
        }
    }

    /// A fail with partial credit: `score` is clamped to [0, 1] (NaN becomes 0).
    ///
    /// ```
    /// use verigate_sdk::Verdict;
    /// assert_eq!(Verdict::partial(0.5, "3 of 6 constraints").score(), 0.5);
    /// assert_eq!(Verdict::partial(7.0, "x").score(), 1.0);
    /// assert_eq!(Verdict::partial(f64::NAN, "x").score(), 0.0);
    /// assert!(!Verdict::partial(1.0, "x").is_pass());
    /// ```
    pub fn partial(score: f64, message: impl Into<String>) -> Self {
        Verdict {
            score: clamp_score(score),
            ..Verdict::fail(message)
        }
    }

    /// The verdict for a score in [0, 1]: a pass with `message` at full marks,
    /// else a fail carrying the score (as [`Verdict::partial`]).
    ///
    /// ```
    /// use verigate_sdk::Verdict;
    /// assert!(Verdict::scored(1.0, "all cells").is_pass());
    /// assert_eq!(Verdict::scored(0.25, "a quarter").score(), 0.25);
    /// assert!(!Verdict::scored(0.0, "none").is_pass());
    /// ```
    pub fn scored(score: f64, message: impl Into<String>) -> Self {
        if score >= 1.0 {
            Verdict::pass().with_message(message)
        } else {
            Verdict::partial(score, message)
        }
    }

    /// A fail where the original grader raises an exception instead of scoring
    /// (SCBench's runner then records the sentinel score 10000): score 0, and a
    /// message saying why and so.
    ///
    /// ```
    /// use verigate_sdk::Verdict;
    /// assert_eq!(Verdict::raised("KeyError: 'xy'").message(),
    ///            Some("KeyError: 'xy' (the original grader raises here; its runner records 10000)"));
    /// ```
    pub fn raised(why: impl fmt::Display) -> Self {
        Verdict::fail(format!("{why} {RAISED}"))
    }

    /// The verdict SCBench's harness gives a falsy answer (`None`, `""`, `{}`,
    /// `[]`, …): score 0, the grader never called.
    ///
    /// ```
    /// use verigate_sdk::Verdict;
    /// assert_eq!(Verdict::falsy_answer().score(), 0.0);
    /// ```
    pub fn falsy_answer() -> Self {
        Verdict::fail(
            "empty answer (the harness scores a falsy answer 0 without calling the grader)",
        )
    }

    /// Records `corrected` — the judgement with a documented quirk of the
    /// original grader fixed — as `details.corrected` (`{"pass", "score",
    /// "message"}`) next to this, the faithful verdict; the report's
    /// Corrected column reads it.
    ///
    /// # Panics
    /// If the details were set to something other than a JSON object.
    ///
    /// ```
    /// use verigate_sdk::Verdict;
    /// let v = Verdict::partial(0.5, "faithful")
    ///     .with_details(serde_json::json!({"cells": 4}))
    ///     .with_corrected(&Verdict::fail("fixed"));
    /// assert_eq!(
    ///     v.json_line(),
    ///     r#"{"pass":false,"score":0.5,"message":"faithful","details":{"cells":4,"corrected":{"message":"fixed","pass":false,"score":0.0}}}"#
    /// );
    /// ```
    pub fn with_corrected(mut self, corrected: &Verdict) -> Self {
        let judgement = serde_json::json!({
            "pass": corrected.pass,
            "score": corrected.score,
            "message": corrected.message,
        });
        let details = self
            .details
            .get_or_insert_with(|| serde_json::Value::Object(serde_json::Map::new()));
        let serde_json::Value::Object(map) = details else {
            panic!("with_corrected: the details are not a JSON object");
        };
        map.insert("corrected".to_owned(), judgement);
        self
    }

    /// Records this verdict as its own corrected judgement (see
    /// [`Verdict::with_corrected`]): where no quirk is involved.
    pub fn same_when_corrected(self) -> Self {
        let corrected = self.clone();
        self.with_corrected(&corrected)
    }

    /// Replaces the message.
    pub fn with_message(mut self, message: impl Into<String>) -> Self {
        self.message = Some(message.into());
        self
    }

    /// Attaches structured details (verdict-json only; combench ignores them).
    ///
    /// ```
    /// use verigate_sdk::Verdict;
    /// let v = Verdict::pass().with_details(serde_json::json!({"steps": 12}));
    /// assert_eq!(v.json_line(), r#"{"pass":true,"score":1.0,"details":{"steps":12}}"#);
    /// ```
    pub fn with_details(mut self, details: serde_json::Value) -> Self {
        self.details = Some(details);
        self
    }

    /// Whether the verdict is a pass.
    pub fn is_pass(&self) -> bool {
        self.pass
    }

    /// The score, in [0, 1].
    pub fn score(&self) -> f64 {
        self.score
    }

    /// The message, if any.
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// The details, if any.
    pub fn details(&self) -> Option<&serde_json::Value> {
        self.details.as_ref()
    }

    /// The verdict-json line (no trailing newline): one compact JSON object.
    ///
    /// Characters that Python-style line splitting treats as line breaks are
    /// escaped, so the line stays one line for any host.
    ///
    /// ```
    /// use verigate_sdk::Verdict;
    /// assert_eq!(Verdict::fail("length 4, expected 5").json_line(),
    ///            r#"{"pass":false,"score":0.0,"message":"length 4, expected 5"}"#);
    /// ```
    pub fn json_line(&self) -> String {
        // Serialising strings, finite floats and `Value`s cannot fail.
        let line = serde_json::to_string(self).unwrap_or_else(|_| {
            r#"{"pass":false,"score":0.0,"message":"cannot serialise the verdict"}"#.to_owned()
        });
        // serde_json escapes all ASCII controls; these three remain raw.
        if line.contains(['\u{85}', '\u{2028}', '\u{2029}']) {
            line.replace('\u{85}', "\\u0085")
                .replace('\u{2028}', "\\u2028")
                .replace('\u{2029}', "\\u2029")
        } else {
            line
        }
    }

    /// The combench line (no trailing newline): `True` on a pass, otherwise
    /// the message flattened to one line (lines stripped and joined with
    /// ` | `). A failing message can never read as `True`.
    ///
    /// ```
    /// use verigate_sdk::Verdict;
    /// assert_eq!(Verdict::pass().combench_line(), "True");
    /// assert_eq!(Verdict::fail("bad step\n  at 3 \n").combench_line(), "bad step | at 3");
    /// assert_eq!(Verdict::fail(" True ").combench_line(), "verification failed: True");
    /// assert_eq!(Verdict::fail("").combench_line(), "verification failed");
    /// ```
    pub fn combench_line(&self) -> String {
        if self.pass {
            return "True".to_owned();
        }
        let flat = one_line(self.message.as_deref().unwrap_or(""));
        match flat.as_str() {
            "" => "verification failed".to_owned(),
            "True" => "verification failed: True".to_owned(),
            _ => flat,
        }
    }

    /// The line this verdict is printed as under `protocol`.
    pub fn line(&self, protocol: Protocol) -> String {
        match protocol {
            Protocol::Combench => self.combench_line(),
            Protocol::VerdictJson => self.json_line(),
        }
    }
}

impl From<()> for Verdict {
    fn from((): ()) -> Self {
        Verdict::pass()
    }
}

fn clamp_score(score: f64) -> f64 {
    if score.is_nan() {
        0.0
    } else {
        score.clamp(0.0, 1.0)
    }
}

/// `message` as one line: each line stripped, blank lines dropped, joined by ` | `,
/// other control characters turned into spaces.
fn one_line(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    for part in message.split(is_line_break) {
        let part: String = part
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push_str(" | ");
        }
        out.push_str(part);
    }
    out
}

// ---------------------------------------------------------------------------
// Protocols and the entry point
// ---------------------------------------------------------------------------

/// Prints `verdict` as one line on stdout under `protocol`, then flushes.
///
/// Write errors are ignored: there is no one left to tell.
pub fn emit(protocol: Protocol, verdict: &Verdict) {
    let mut line = verdict.line(protocol);
    line.push('\n');
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(line.as_bytes());
    let _ = out.flush();
}

/// Runs `verify` and prints its verdict; what [`main!`] calls.
///
/// `Err(e)` becomes [`Verdict::fail`] with `e`'s message. A panic prints a
/// failing verdict (`verifier panicked: …`) and exits with status 0. Native
/// (non-wasm) builds also accept `--repeat N`, for benchmarks (see `native.rs`).
pub fn run<V: Into<Verdict>>(protocol: Protocol, verify: impl Fn() -> Result<V>) {
    std::panic::set_hook(Box::new(move |info| {
        let mut message = match info.payload_as_str() {
            Some(what) => format!("verifier panicked: {what}"),
            None => "verifier panicked".to_owned(),
        };
        if let Some(at) = info.location() {
            message = format!("{message} (at {}:{})", at.file(), at.line());
        }
        eprintln!("{message}");
        emit(protocol, &Verdict::fail(message));
        std::process::exit(0);
    }));
    #[cfg(not(target_family = "wasm"))]
    if let Some(runs) = native::repeat_requested() {
        native::time_runs(runs, || drop(verify()));
    }
    let verdict = match verify() {
        Ok(v) => v.into(),
        Err(e) => Verdict::fail(e.message),
    };
    emit(protocol, &verdict);
}

/// Defines `fn main` for a verifier and declares its protocol.
///
/// `verigate_sdk::main!(combench, verify);` or
/// `verigate_sdk::main!(verdict_json, verify);`, where `verify` is a
/// `fn() -> verigate_sdk::Result<V>` (or closure) and `V` is [`Verdict`] or
/// `()` (meaning pass). It also emits the `verigate.protocol` custom section
/// (wasm targets only) that tells the host which protocol to apply.
///
/// `verigate_sdk::main!(verdict_json, grade_instance(grade));` is the same for a
/// `grade(&instance, payload_text)` of the item's `instance.json` (see
/// [`grade_instance`]): short for `main!(verdict_json, || grade_instance(grade))`.
///
/// ```no_run
/// use verigate_sdk::{ensure, Result};
///
/// fn verify() -> Result<()> {
///     let [a, b, c]: [u64; 3] = verigate_sdk::payload_json()?;
///     ensure!(a * a + b * b == c * c, "{a}^2 + {b}^2 != {c}^2");
///     Ok(())
/// }
///
/// verigate_sdk::main!(combench, verify);
/// ```
#[macro_export]
macro_rules! main {
    ($protocol:ident, grade_instance($grade:expr) $(,)?) => {
        $crate::main!($protocol, || $crate::grade_instance($grade));
    };
    (combench, $verify:expr $(,)?) => {
        $crate::main!(@define Combench, b"combench", $verify);
    };
    (verdict_json, $verify:expr $(,)?) => {
        $crate::main!(@define VerdictJson, b"verdict-json", $verify);
    };
    (@define $variant:ident, $name:literal, $verify:expr) => {
        #[cfg_attr(target_family = "wasm", unsafe(link_section = "verigate.protocol"))]
        #[used]
        static __VERIGATE_PROTOCOL: [u8; $name.len()] = *$name;

        fn main() {
            $crate::run($crate::Protocol::$variant, $verify)
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_lines() {
        assert_eq!(Verdict::pass().json_line(), r#"{"pass":true,"score":1.0}"#);
        assert_eq!(
            Verdict::partial(0.25, "step 3\nbad")
                .with_details(json!({"k": [1, 2]}))
                .json_line(),
            r#"{"pass":false,"score":0.25,"message":"step 3\nbad","details":{"k":[1,2]}}"#
        );
        assert_eq!(
            Verdict::fail("a\u{2028}b\u{85}c\u{2029}\x0b").json_line(),
            r#"{"pass":false,"score":0.0,"message":"a\u2028b\u0085c\u2029\u000b"}"#
        );
        // The line round-trips and is a single line under Python-style splitting.
        let v = Verdict::fail("x\u{2028}y\r\n\"z\"").with_details(json!({"s": "\u{2029}"}));
        let line = v.json_line();
        assert!(!line.contains(is_line_break));
        let back: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(back["message"], "x\u{2028}y\r\n\"z\"");
        assert_eq!(back["details"]["s"], "\u{2029}");
    }

    #[test]
    fn scores_stay_in_range() {
        for (given, kept) in [
            (-1.0, 0.0),
            (0.3, 0.3),
            (2.0, 1.0),
            (f64::INFINITY, 1.0),
            (f64::NAN, 0.0),
        ] {
            let v = Verdict::partial(given, "m");
            assert_eq!(v.score(), kept);
            let back: serde_json::Value = serde_json::from_str(&v.json_line()).unwrap();
            assert_eq!(back["score"].as_f64(), Some(kept));
        }
    }

    #[test]
    fn combench_lines() {
        assert_eq!(Verdict::pass().combench_line(), "True");
        assert_eq!(
            Verdict::pass().with_message("ignored").combench_line(),
            "True"
        );
        assert_eq!(
            Verdict::fail("value 7 appears twice").combench_line(),
            "value 7 appears twice"
        );
        assert_eq!(
            Verdict::fail("a\r\n\n b \x0c c\u{2028}d\te\0").combench_line(),
            "a | b | c | d e"
        );
        assert_eq!(
            Verdict::fail("\n True \n").combench_line(),
            "verification failed: True"
        );
        assert_eq!(
            Verdict::fail("\n \n").combench_line(),
            "verification failed"
        );
        assert_eq!(Verdict::partial(0.9, "close").combench_line(), "close");
        assert_eq!(Verdict::from(()).combench_line(), "True");
        assert_eq!(Verdict::fail("x").line(Protocol::Combench), "x");
        assert_eq!(Protocol::VerdictJson.as_str(), "verdict-json");
    }

    #[test]
    fn errors_convert_and_format() {
        fn io() -> Result<()> {
            Err(std::io::Error::new(std::io::ErrorKind::NotFound, "gone"))?
        }
        assert_eq!(io().unwrap_err().message(), "gone");
        let e = from_json::<u8>("/item/instance.json", "{\"n\": 3}").unwrap_err();
        assert_eq!(
            e.to_string(),
            "/item/instance.json has the wrong shape: invalid type: map, expected u8 at line 1 column 0"
        );
        let e = from_json::<Vec<u8>>("payload", "[1] x").unwrap_err();
        assert_eq!(
            e.to_string(),
            "payload is not valid JSON: trailing characters at line 1 column 5"
        );
        assert_eq!(format!("{:?}", Error::msg("m")), "m");
    }
}
