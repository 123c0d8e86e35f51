//! Benchmark-specific columns read from verifier `details`: the figures a
//! benchmark's paper tabulates beyond the generic score metrics (each
//! benchmark module lists its own, see [`Benchmark::detail_columns`]).
//!
//! [`Benchmark::detail_columns`]: crate::benchmark::Benchmark::detail_columns

use serde_json::Value;

/// One column: a number or boolean in each record's `details`, averaged
/// over the samples that carry it.
#[derive(Debug, PartialEq, Eq)]
pub struct DetailColumn {
    /// Where the value sits in `details`, `.`-separated for nested objects.
    pub key: &'static str,
    /// The column's header, as the paper names it.
    pub header: &'static str,
    /// Shown as a percentage (rates and booleans) rather than as is.
    pub percent: bool,
}

/// A detail column (for benchmarks' `const` column lists).
pub const fn column(key: &'static str, header: &'static str, percent: bool) -> DetailColumn {
    DetailColumn {
        key,
        header,
        percent,
    }
}

impl DetailColumn {
    /// The column's value in `details`, booleans as 0 or 1.
    pub fn read(&self, details: &Value) -> Option<f64> {
        let value = self
            .key
            .split('.')
            .try_fold(details, |at, part| at.get(part))?;
        match value {
            Value::Bool(b) => Some(f64::from(u8::from(*b))),
            other => other.as_f64(),
        }
    }
}
