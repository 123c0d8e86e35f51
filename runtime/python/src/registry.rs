//! `verigate.Registry`: an opened, lock-checked registry.

use crate::errors::{InputError, registry_error};
use crate::records::to_python;
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;

/// A verifier registry, opened and checked against its lock.
///
/// `Registry(path=None)`: `path`, else `$VERIGATE_REGISTRY`, else
/// `./registry` — the rules of the `verigate` command. A registry whose
/// files do not match its lock raises `RegistryError` naming the file.
#[pyclass(frozen, module = "verigate")]
pub struct Registry {
    pub inner: Arc<verigate_registry::Registry>,
}

impl Registry {
    /// Opens the registry at `path` (or the one the usual rules find).
    pub fn open(py: Python<'_>, path: Option<PathBuf>) -> PyResult<Self> {
        let root = verigate_registry::locate(path.as_deref()).map_err(registry_error)?;
        let inner = py
            .detach(|| verigate_registry::Registry::open(&root))
            .map_err(registry_error)?;
        Ok(Registry {
            inner: Arc::new(inner),
        })
    }
}

#[pymethods]
impl Registry {
    #[new]
    #[pyo3(signature = (path=None))]
    fn new(py: Python<'_>, path: Option<PathBuf>) -> PyResult<Self> {
        Registry::open(py, path)
    }

    /// The registry's directory.
    #[getter]
    fn path(&self) -> PathBuf {
        self.inner.root().to_owned()
    }

    /// The digest of the registry's lock, recorded in every result.
    #[getter]
    fn digest(&self) -> &str {
        self.inner.digest()
    }

    /// The ids of every item, sorted.
    fn items(&self) -> Vec<String> {
        self.inner.items().keys().cloned().collect()
    }

    /// The item `id` with its fields (benchmark metadata, module, protocol,
    /// limits, reference witness, counterexamples) as `item.toml` has them.
    fn item<'py>(&self, py: Python<'py>, id: &str) -> PyResult<Bound<'py, PyAny>> {
        let item = self.inner.item(id).map_err(|e| InputError::new_err(e.0))?;
        to_python(py, item)
    }

    /// The names of the verifier modules, sorted.
    fn modules(&self) -> Vec<String> {
        self.inner.modules().keys().cloned().collect()
    }

    /// Pickling: a registry is reopened (and checked) from its path.
    fn __getnewargs__(&self) -> (PathBuf,) {
        (self.inner.root().to_owned(),)
    }

    fn __len__(&self) -> usize {
        self.inner.items().len()
    }

    fn __contains__(&self, id: &str) -> bool {
        self.inner.items().contains_key(id)
    }

    fn __repr__(&self) -> String {
        format!(
            "Registry({:?}, items={}, digest={:?})",
            self.inner.root().display().to_string(),
            self.inner.items().len(),
            self.inner.digest()
        )
    }
}
