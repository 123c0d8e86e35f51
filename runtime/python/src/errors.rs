//! Python exception classes for the libraries' typed errors.

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::PyList;

create_exception!(
    verigate,
    VerigateError,
    PyException,
    "Base class of every error verigate raises."
);
create_exception!(
    verigate,
    InputError,
    VerigateError,
    "Bad input: a record, a file or an argument. `errors` lists each bad record as \
     (source, position, message); `results` holds what was graded, None where a record was bad."
);
create_exception!(
    verigate,
    RegistryError,
    VerigateError,
    "The registry cannot be used: missing, or its files do not match its lock (the message names the file)."
);
create_exception!(
    verigate,
    HostError,
    VerigateError,
    "The host failed (engine, threads, an output that cannot be written): nobody's input caused it."
);

/// Where a bad input record came from.
#[derive(Clone, Debug)]
pub enum Source {
    /// An argument holding records (`records`, `judgments`): positions are
    /// 0-based indices.
    Argument(&'static str),
    /// A file: positions are 1-based lines.
    File(String),
}

/// A bad input record: where it came from, its position and what is wrong,
/// naming the field.
#[derive(Clone, Debug)]
pub struct Problem {
    pub source: Source,
    pub position: usize,
    pub message: String,
}

impl Problem {
    fn render(&self) -> String {
        match &self.source {
            Source::Argument(name) => format!("{name}[{}]: {}", self.position, self.message),
            Source::File(path) => format!("{path}:{}: {}", self.position, self.message),
        }
    }

    fn source_name(&self) -> String {
        match &self.source {
            Source::Argument(name) => (*name).to_owned(),
            Source::File(path) => path.clone(),
        }
    }
}

/// Problems shown in an exception's message; the rest are in `errors`.
const SHOWN: usize = 5;

/// An [`InputError`] for `problems` (and a run-level `note`, such as
/// judgments matching no response), carrying the problems as `errors` and
/// what was graded as `results`.
pub fn input_error(
    py: Python<'_>,
    problems: &[Problem],
    note: Option<&str>,
    results: Option<Bound<'_, PyList>>,
) -> PyErr {
    let mut message: Vec<String> = problems.iter().take(SHOWN).map(Problem::render).collect();
    if problems.len() > SHOWN {
        message.push(format!(
            "… and {} more (see .errors)",
            problems.len() - SHOWN
        ));
    }
    message.extend(note.map(str::to_owned));
    let error = InputError::new_err(message.join("\n"));
    let errors: Vec<(String, usize, String)> = (problems.iter())
        .map(|p| (p.source_name(), p.position, p.message.clone()))
        .collect();
    let value = error.value(py);
    let attached = value
        .setattr("errors", errors)
        .and_then(|()| value.setattr("results", results));
    match attached {
        Ok(()) => error,
        Err(e) => e,
    }
}

/// A registry error as [`RegistryError`].
pub fn registry_error(error: verigate_registry::RegistryError) -> PyErr {
    RegistryError::new_err(error.0)
}

/// A sandbox error: the caller's input as [`InputError`], the host's as [`HostError`].
pub fn sandbox_error(error: verigate_sandbox::Error) -> PyErr {
    if error.is_input() {
        InputError::new_err(error.to_string())
    } else {
        HostError::new_err(error.to_string())
    }
}

/// A file run's error: an unusable input as [`InputError`], an output that
/// is refused or cannot be written as [`HostError`].
pub fn file_error(error: verigate_grading::grade::FileError) -> PyErr {
    match error {
        verigate_grading::grade::FileError::Input(why) => InputError::new_err(why),
        verigate_grading::grade::FileError::Output(why) => HostError::new_err(why),
    }
}

/// Issues a Python `UserWarning` with `message`.
pub fn warn(py: Python<'_>, message: &str) -> PyResult<()> {
    let text = std::ffi::CString::new(message.replace('\0', " ")).unwrap_or_default();
    PyErr::warn(
        py,
        &py.get_type::<pyo3::exceptions::PyUserWarning>(),
        &text,
        1,
    )
}
