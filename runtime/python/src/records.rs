//! Python records in, JSON lines out; grading results back as Python objects.

use crate::errors::{HostError, Problem, Source};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use serde::Serialize;
use verigate_grading::grade::{GradeRecord, InputError};

/// One record as one JSON line: a `str` or `bytes` record is taken as the
/// line itself, anything else (a `dict`, usually) is serialised. `Err` says
/// why the record cannot be a line.
pub fn line_of(record: &Bound<'_, PyAny>) -> Result<String, String> {
    let text = if record.cast::<PyString>().is_ok() {
        record.extract::<String>().map_err(|e| e.to_string())?
    } else if let Ok(bytes) = record.cast::<PyBytes>() {
        String::from_utf8(bytes.as_bytes().to_vec())
            .map_err(|_| "bytes that are not UTF-8".to_owned())?
    } else {
        let value: serde_json::Value =
            pythonize::depythonize(record).map_err(|e| format!("not a JSON object: {e}"))?;
        return Ok(value.to_string());
    };
    if text.contains('\n') {
        return Err("a JSON text record must be one line (it holds a newline)".into());
    }
    Ok(text)
}

/// The records of `iterable` as JSON lines, one per record. A record that
/// cannot be a line is a problem at its index, and an empty line stands in
/// for it (the reader skips empty lines, so line `i + 1` is record `i`).
pub fn lines_of(
    iterable: &Bound<'_, PyAny>,
    source: &'static str,
    problems: &mut Vec<Problem>,
) -> PyResult<(Vec<u8>, usize)> {
    let mut lines = Vec::new();
    let mut count = 0;
    for (index, record) in iterable.try_iter()?.enumerate() {
        match line_of(&record?) {
            Ok(line) => lines.extend_from_slice(line.as_bytes()),
            Err(message) => problems.push(Problem {
                source: Source::Argument(source),
                position: index,
                message,
            }),
        }
        lines.push(b'\n');
        count += 1;
    }
    Ok((lines, count))
}

/// A grading library's bad line, as a problem of the argument `source`.
pub fn argument_problem(source: &'static str, error: InputError) -> Problem {
    Problem {
        source: Source::Argument(source),
        position: error.line - 1,
        message: error.message,
    }
}

/// Any serialisable result as the Python object `json.loads` would give
/// for its JSON line.
pub fn to_python<'py>(py: Python<'py>, value: &impl Serialize) -> PyResult<Bound<'py, PyAny>> {
    pythonize::pythonize(py, value).map_err(|e| HostError::new_err(e.to_string()))
}

/// A result as the line a results file holds, without its newline.
pub fn record_line(record: &GradeRecord) -> String {
    let mut line = Vec::new();
    verigate_grading::grade::file::write_line(&mut line, record).expect("a record serialises");
    line.pop();
    String::from_utf8(line).expect("JSON is UTF-8")
}

/// `records` (the good lines' results, in order) placed at their indices
/// among `count` lines, `None` at each bad one.
pub fn aligned(
    records: Vec<GradeRecord>,
    count: usize,
    problems: &[Problem],
) -> Vec<Option<GradeRecord>> {
    let mut bad = vec![false; count];
    for problem in problems {
        if matches!(problem.source, Source::Argument("records")) {
            bad[problem.position] = true;
        }
    }
    let mut records = records.into_iter();
    bad.into_iter()
        .map(|bad| if bad { None } else { records.next() })
        .collect()
}
