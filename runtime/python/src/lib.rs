//! `verigate._verigate`, the extension module behind the `verigate` Python
//! package: a warm in-process grader over verigate's libraries.
//!
//! One owner per concern: [`errors`] maps the libraries' typed errors to
//! Python exception classes, [`warm`] keeps one sandbox per process (and a
//! new one after a `fork()`), [`records`] turns Python records into JSON
//! lines and results back into Python objects, [`registry`], [`grader`] and
//! [`stream`] are the classes, [`functions`] the module-level calls.

mod errors;
mod functions;
mod grader;
mod records;
mod registry;
mod stream;
mod warm;

use pyo3::prelude::*;

/// verigate's engine: sandboxed verifiers, graded in this process.
#[pymodule]
fn _verigate(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", verigate_sandbox::VERSION)?;
    m.add("VerigateError", py.get_type::<errors::VerigateError>())?;
    m.add("InputError", py.get_type::<errors::InputError>())?;
    m.add("RegistryError", py.get_type::<errors::RegistryError>())?;
    m.add("HostError", py.get_type::<errors::HostError>())?;
    m.add_class::<registry::Registry>()?;
    m.add_class::<grader::Grader>()?;
    m.add_class::<stream::GradeIter>()?;
    m.add_function(wrap_pyfunction!(functions::run_module, m)?)?;
    m.add_function(wrap_pyfunction!(functions::report, m)?)?;
    m.add_function(wrap_pyfunction!(functions::merge, m)?)?;
    m.add_function(wrap_pyfunction!(functions::serve_compile, m)?)?;
    Ok(())
}
