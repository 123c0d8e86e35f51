//! The harness for *faithful ports*: verifiers that reproduce a Python grader (SCBench's
//! `gradeAnswer`s, VisGeomBench's wrappers) score for score and message for message.
//!
//! Such a port is a chain of the original's checks, each of which lets the grading go on or
//! ends it in one of two ways that the verdict must tell apart: the original *returns* score 0
//! with an explanation, or it *raises* (SCBench's runner then records the sentinel 10000,
//! which this project reports as a failing score-0 verdict that says so, [`Verdict::raised`]).
//! Those two ends are [`Stop::Zero`] and [`Stop::Raise`]; a check returns a [`Step`], `?`
//! carries a stop up, and the grade function turns it into the verdict with
//! [`Stop::verdict`] (or `Verdict::from`), or matches on it where the original's runner
//! treats the two ends differently. A port that has a third way to end of its own — a
//! reason it cannot say what the original does, such as an input past the evaluator's
//! bounds — names it as the type parameter `X` of [`Stop::Other`]; by default there is none
//! (`X` is [`Infallible`], and a `match` needs no arm for it).
//!
//! ```
//! use verigate_sdk::harness::{Step, Stop};
//! use verigate_sdk::python::{Value, answer};
//! use verigate_sdk::Verdict;
//!
//! /// `answer["path"]`, as the original reads it.
//! fn path(answer: &Value) -> Step<&[Value]> {
//!     let Some(dict) = answer.as_dict() else {
//!         return Err(Stop::Raise(format!("TypeError: a {} is not subscriptable", answer.type_name())));
//!     };
//!     match dict.get("path").and_then(Value::as_sequence) {
//!         Some(path) if !path.is_empty() => Ok(path),
//!         _ => Err(Stop::Zero("Empty path".into())),
//!     }
//! }
//!
//! fn grade(text: &str) -> Verdict {
//!     match path(&answer(text)) {
//!         Ok(p) => Verdict::scored(p.len() as f64 / 4.0, format!("{} steps", p.len())),
//!         Err(stop) => stop.verdict(),
//!     }
//! }
//! assert_eq!(grade("{'path': []}").message(), Some("Empty path"));
//! assert!(grade("[1]").message().unwrap().ends_with(verigate_sdk::RAISED));
//! assert_eq!(grade("{'path': [1, 2]}").score(), 0.5);
//! ```
//!
//! The rest of the harness lives where it is shared with the Python evaluator, which needs
//! the same semantics:
//!
//! - reading the answer as the harness stored it: [`python::answer`](crate::python::answer);
//! - a Python value as a Rust number, by the rule the original applies (`float(x)`, "an int or
//!   float", "an int within `i64`", …): [`python::coerce`](crate::python::coerce);
//! - Python's `str` predicates and `str` → number conversions on Unicode text (`isdigit`,
//!   `int(s)`, `float(s)`, `split()`): [`python::strings`](crate::python::strings);
//! - CPython's set iteration order for sets a port builds itself:
//!   [`python::settable`](crate::python::settable);
//! - the verdict's conventions: [`Verdict::falsy_answer`], [`Verdict::raised`],
//!   [`Verdict::with_corrected`], [`Verdict::same_when_corrected`];
//! - the entry point for a grade function of the item's `instance.json` and the payload:
//!   `verigate_sdk::main!(verdict_json, grade_instance(grade));` (see [`main!`](crate::main));
//! - [`shoelace_area`], the one polygon area two geometry ports share, in a fixed summation
//!   order.

use crate::Verdict;
pub use std::convert::Infallible;

/// How a faithful port's grading ends before a score (see the [module docs](self)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop<X = Infallible> {
    /// The original returns score 0 with this explanation.
    Zero(String),
    /// The original raises; the text says what and where.
    Raise(String),
    /// An end of the port's own (by default, none).
    Other(X),
}

/// A check of a faithful port: its result, or how grading stops.
pub type Step<T, X = Infallible> = Result<T, Stop<X>>;

impl<X: Into<Verdict>> Stop<X> {
    /// The verdict: [`Verdict::fail`] with the explanation for [`Stop::Zero`],
    /// [`Verdict::raised`] for [`Stop::Raise`], the port's own for [`Stop::Other`].
    ///
    /// ```
    /// use verigate_sdk::harness::Stop;
    /// let zero: Stop = Stop::Zero("Empty path".into());
    /// assert_eq!(zero.verdict().message(), Some("Empty path"));
    /// let raise: Stop = Stop::Raise("KeyError: 'xy'".into());
    /// assert_eq!(raise.verdict().message(), Some(verigate_sdk::Verdict::raised("KeyError: 'xy'").message().unwrap()));
    /// ```
    pub fn verdict(self) -> Verdict {
        match self {
            Stop::Zero(why) => Verdict::fail(why),
            Stop::Raise(why) => Verdict::raised(why),
            Stop::Other(x) => x.into(),
        }
    }
}

impl Stop {
    /// The explanation or what is raised, whichever way grading stopped (for a port whose
    /// runner treats both ends alike).
    ///
    /// ```
    /// use verigate_sdk::harness::Stop;
    /// let stops: [Stop; 2] = [Stop::Zero("a".into()), Stop::Raise("b".into())];
    /// assert_eq!(stops.map(|s| s.why().to_owned()), ["a", "b"]);
    /// ```
    pub fn why(&self) -> &str {
        match self {
            Stop::Zero(why) | Stop::Raise(why) => why,
            Stop::Other(never) => match *never {},
        }
    }
}

impl<X: Into<Verdict>> From<Stop<X>> for Verdict {
    fn from(stop: Stop<X>) -> Verdict {
        stop.verdict()
    }
}

impl From<Infallible> for Verdict {
    fn from(never: Infallible) -> Verdict {
        match never {}
    }
}

/// The signed area of a polygon: half the shoelace sum Σ (xᵢ·yᵢ₊₁ − xᵢ₊₁·yᵢ), added up in
/// vertex order from vertex 0 and closing back to it, in `f64` (the order fixes the rounding,
/// which the ports' sign and threshold tests see). Positive when counter-clockwise.
///
/// ```
/// use verigate_sdk::harness::shoelace_area;
/// assert_eq!(shoelace_area(&[[0.0, 0.0], [2.0, 0.0], [2.0, 1.0]]), 1.0);
/// assert_eq!(shoelace_area(&[[0.0, 0.0], [2.0, 1.0], [2.0, 0.0]]), -1.0);
/// ```
pub fn shoelace_area(poly: &[[f64; 2]]) -> f64 {
    let mut s = 0.0;
    for i in 0..poly.len() {
        let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
        s += a[0] * b[1] - b[0] * a[1];
    }
    s / 2.0
}
