//! The module-level calls: `run_module`, `report`, and the compiler child's entry point.

use crate::errors::{HostError, InputError, Problem, Source, input_error, warn};
use crate::grader::{Payload, cache_root, python_executable, registry_arg};
use crate::records::line_of;
use crate::registry::Registry;
use crate::warm::{Recipe, Warm};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use std::path::PathBuf;
use std::sync::OnceLock;
use verigate_grading::files::open_input;
use verigate_grading::grade::GradeRecord;
use verigate_grading::report::Report;
use verigate_sandbox::{LimitOverrides, Limits, Protocol, Request, read_module_file};

/// The sandbox `run_module` uses: one per process, default cache.
static MODULES: OnceLock<Warm> = OnceLock::new();

/// The bytes of a `module` argument: `bytes` as they are, a path read
/// (`.wat` text parsed).
fn module_bytes(module: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(bytes) = module.cast::<PyBytes>() {
        return Ok(bytes.as_bytes().to_vec());
    }
    let path: PathBuf = module
        .extract()
        .map_err(|_| InputError::new_err("module: give the module's bytes or its path"))?;
    read_module_file(&path).map_err(InputError::new_err)
}

/// Runs a verifier module outside any registry on `payload` and returns
/// the verdict (the JSON object `verigate run MODULE` prints).
///
/// `module` is the module's bytes or the path of a `.wasm` (or `.wat`)
/// file; limits not given take the defaults; `protocol` is `"combench"` or
/// `"verdict-json"` (default: the module's declared one, else combench);
/// `item_dir` is mounted read-only at `/item`.
#[pyfunction]
#[pyo3(signature = (module, payload, *, fuel=None, memory_mb=None, timeout_ms=None,
                    max_output_kb=None, protocol=None, item_dir=None))]
#[allow(clippy::too_many_arguments)]
pub fn run_module<'py>(
    py: Python<'py>,
    module: &Bound<'py, PyAny>,
    payload: Payload,
    fuel: Option<u64>,
    memory_mb: Option<u64>,
    timeout_ms: Option<u64>,
    max_output_kb: Option<u64>,
    protocol: Option<&str>,
    item_dir: Option<PathBuf>,
) -> PyResult<Bound<'py, PyAny>> {
    let wasm = module_bytes(module)?;
    let protocol = protocol
        .map(|name| {
            name.parse::<Protocol>().map_err(|_| {
                InputError::new_err(format!(
                    "protocol `{name}`: give one of {}",
                    Protocol::NAMES.join(", ")
                ))
            })
        })
        .transpose()?;
    if let Some(dir) = item_dir.as_deref().filter(|dir| !dir.is_dir()) {
        return Err(InputError::new_err(format!(
            "item_dir {} is not a directory",
            dir.display()
        )));
    }
    let limits = LimitOverrides {
        fuel,
        memory_mb,
        timeout_ms,
        max_output_kb,
        max_payload_kb: None,
    };
    let request = Request {
        payload: payload.0,
        item_dir,
        limits: limits.apply(Limits::default()),
        protocol,
        row: None,
    };
    let python = python_executable(py)?;
    let warm = MODULES.get_or_init(|| {
        Warm::new(Recipe {
            cache_root: cache_root(None, true),
            python,
        })
    });
    let report = py.detach(|| {
        let sandbox = warm.sandbox()?;
        match sandbox.load(&wasm) {
            Ok(verifier) => sandbox
                .run(&verifier, &request)
                .map_err(crate::errors::sandbox_error),
            Err(refused) => Ok(refused.report(protocol.unwrap_or(Protocol::Combench))),
        }
    })?;
    crate::records::to_python(py, &report)
}

/// The tables of `results` as numbers: what `verigate report --format
/// json` prints. `results` is a results file's path, or an iterable of
/// result dicts (or JSON lines). `registry` (a `Registry` or a path;
/// default: the usual rules) supplies the benchmarks' own table data;
/// `early_fail=False` is `--no-early-fail`.
#[pyfunction]
#[pyo3(signature = (results, *, registry=None, early_fail=true))]
pub fn report<'py>(
    py: Python<'py>,
    results: &Bound<'py, PyAny>,
    registry: Option<&Bound<'py, PyAny>>,
    early_fail: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let mut report = match registry_for_report(py, registry)? {
        Some(registry) => {
            Report::for_registry(&registry.get().inner).map_err(InputError::new_err)?
        }
        None => Report::default(),
    };
    if !early_fail {
        report = report.without_harness_rules();
    }
    let mut problems = Vec::new();
    let mut add =
        |source: Source, position: usize, record: Result<GradeRecord, String>| match record {
            Ok(record) => report.add(&record),
            Err(message) => problems.push(Problem {
                source,
                position,
                message,
            }),
        };
    if results.cast::<PyString>().is_ok() || !results.hasattr("__iter__")? {
        let path: PathBuf = results.extract()?;
        let reader = open_input(&path, "results").map_err(InputError::new_err)?;
        for (line, record) in verigate_grading::jsonl::read::<GradeRecord>(reader) {
            add(Source::File(path.display().to_string()), line, record);
        }
    } else {
        for (index, record) in results.try_iter()?.enumerate() {
            let record = line_of(&record?).and_then(|text| verigate_grading::jsonl::parse(&text));
            add(Source::Argument("results"), index, record);
        }
    }
    if !problems.is_empty() {
        return Err(input_error(py, &problems, None, None));
    }
    let text =
        serde_json::to_string(&report.summary()).map_err(|e| HostError::new_err(e.to_string()))?;
    py.import("json")?.call_method1("loads", (text,))
}

/// The registry a report uses: the one given, else the one the usual
/// rules find; without one, tables that need registry data are left out
/// (with a warning).
fn registry_for_report(
    py: Python<'_>,
    registry: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<Py<Registry>>> {
    if registry.is_none()
        && let Err(why) = verigate_registry::locate(None)
    {
        warn(
            py,
            &format!("{}; tables that need registry data are left out", why.0),
        )?;
        return Ok(None);
    }
    registry_arg(py, registry).map(Some)
}

/// Checks the part files of sharded runs (`grade_file(..., shard=...)`,
/// `verigate grade --shard`) — one input's complete, non-overlapping set,
/// one registry, each part whole, no (id, sample) twice — and concatenates
/// them into `out`: the bytes a single run writes. Returns `parts` and
/// `records`; a bad set raises `InputError` saying what is wrong.
#[pyfunction]
pub fn merge<'py>(
    py: Python<'py>,
    parts: Vec<PathBuf>,
    out: PathBuf,
) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
    let merged = py
        .detach(|| verigate_grading::grade::merge(&parts, &out))
        .map_err(InputError::new_err)?;
    let result = pyo3::types::PyDict::new(py);
    result.set_item("parts", merged.parts)?;
    result.set_item("records", merged.records)?;
    Ok(result)
}

/// The compiler child's work (`python -m verigate._compile INPUT OUTPUT
/// ENGINE`): compiles one module under the limits its parent set.
#[pyfunction]
#[pyo3(name = "_serve_compile")]
pub fn serve_compile(input: PathBuf, output: PathBuf, engine: &str) -> PyResult<()> {
    verigate_sandbox::compile::serve_child(&input, &output, engine).map_err(HostError::new_err)
}
