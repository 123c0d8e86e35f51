//! The sandbox's errors: the caller's mistakes apart from host failures.
//! A guest's misbehaviour is never an error: it is an [`Outcome`](verigate_contract::Outcome).

use std::fmt;
use std::path::{Path, PathBuf};

/// A module refused before it ran (`invalid_module`): the module's fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModuleError {
    /// sha256 of the refused bytes.
    pub sha256: String,
    /// Why it was refused, naming the offending import, export or limit.
    pub reason: String,
}

impl fmt::Display for ModuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid module {}: {}", self.sha256, self.reason)
    }
}

impl std::error::Error for ModuleError {}

/// Why the sandbox could not do what it was asked.
#[derive(Debug)]
pub enum Error {
    /// The caller's input is unusable: a file or directory that cannot be
    /// read, named by its path.
    Input {
        /// The file or directory.
        path: PathBuf,
        /// What went wrong with it.
        source: std::io::Error,
    },
    /// The module's bytes are not the ones the caller named: their sha256
    /// differs from the expected one (e.g. a registry module replaced on disk
    /// after the registry was opened and checked against its lock).
    Mismatch {
        /// The module file, or a description of the bytes.
        what: String,
        /// The sha256 the caller expected.
        expected: String,
        /// The sha256 of the bytes found.
        actual: String,
    },
    /// The host failed (engine, allocator, threads): nobody's input caused it.
    Host(String),
}

impl Error {
    /// An [`Error::Input`] for `path`.
    pub fn input(path: &Path, source: std::io::Error) -> Self {
        Error::Input {
            path: path.to_owned(),
            source,
        }
    }

    /// An [`Error::Host`] from any displayable cause, with its chain.
    pub fn host(cause: impl Into<anyhow::Error>) -> Self {
        Error::Host(format!("{:#}", cause.into()))
    }

    /// Whether the caller can fix this by changing its input.
    pub fn is_input(&self) -> bool {
        matches!(self, Error::Input { .. } | Error::Mismatch { .. })
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Input { path, source } => write!(f, "{}: {source}", path.display()),
            Error::Mismatch {
                what,
                expected,
                actual,
            } => write!(
                f,
                "{what}: sha256 {actual}, expected {expected} (changed since it was checked?)"
            ),
            Error::Host(why) => write!(f, "host error: {why}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Input { source, .. } => Some(source),
            Error::Mismatch { .. } | Error::Host(_) => None,
        }
    }
}
