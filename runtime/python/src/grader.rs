//! `verigate.Grader`: one process's engine, module cache and worker pool,
//! reusable for millions of calls from any number of threads.

use crate::errors::{
    InputError, Problem, Source, file_error, input_error, registry_error, sandbox_error, warn,
};
use crate::records::{aligned, argument_problem, lines_of, record_line, to_python};
use crate::registry::Registry;
use crate::stream::GradeIter;
use crate::warm::{Loaded, Recipe, Warm};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;
use verigate_grading::grade::{
    GradeFile, GradeRecord, InputError as BadLine, Judgments, Shard, Unmatched,
};
use verigate_registry::Item;
use verigate_sandbox::{Protocol, RunReport, Sandbox, default_cache_root};

/// Grades model responses against a registry in this process.
///
/// `Grader(registry=None, *, jobs=None, cache_dir=None, cache=True)`:
/// `registry` is a `Registry` or its path (default: the usual rules);
/// `jobs` worker threads (default: one per core); compiled modules are
/// cached in `cache_dir` (default: `$VERIGATE_CACHE_DIR`, else
/// `~/.cache/verigate`), or only in memory with `cache=False`.
///
/// Thread-safe: the GIL is released while verifiers run. After `fork()`
/// the child builds its own engine on first use.
#[pyclass(frozen, module = "verigate")]
pub struct Grader {
    registry: Py<Registry>,
    pub(crate) inner: Arc<verigate_registry::Registry>,
    pub(crate) warm: Arc<Warm>,
    pub(crate) workers: usize,
}

/// The `Registry` a `registry` argument names: the object itself, or the
/// registry at a path (or found by the usual rules when `None`).
pub fn registry_arg(py: Python<'_>, registry: Option<&Bound<'_, PyAny>>) -> PyResult<Py<Registry>> {
    match registry {
        Some(given) => match given.cast::<Registry>() {
            Ok(registry) => Ok(registry.clone().unbind()),
            Err(_) => Py::new(py, Registry::open(py, Some(given.extract::<PathBuf>()?))?),
        },
        None => Py::new(py, Registry::open(py, None)?),
    }
}

/// The interpreter running this process, which compiles modules as a
/// bounded child; `None` when Python cannot say (an embedded interpreter).
pub fn python_executable(py: Python<'_>) -> PyResult<Option<PathBuf>> {
    let executable: Option<PathBuf> = py.import("sys")?.getattr("executable")?.extract()?;
    Ok(executable.filter(|path| !path.as_os_str().is_empty()))
}

/// The cache directory for `cache_dir` and `cache` arguments.
pub fn cache_root(cache_dir: Option<PathBuf>, cache: bool) -> Option<PathBuf> {
    cache
        .then(|| cache_dir.or_else(default_cache_root))
        .flatten()
}

/// Judgments matching no response: an error when most do (a judgments
/// file for other samples), else a warning.
pub fn unmatched_note(py: Python<'_>, unmatched: Option<Unmatched>) -> PyResult<Option<String>> {
    match unmatched {
        Some(u) if u.fatal => Ok(Some(u.message)),
        Some(u) => {
            warn(py, &u.message)?;
            Ok(None)
        }
        None => Ok(None),
    }
}

impl Grader {
    /// Reads `judgments` (an iterable of records, or `None`); bad ones are problems.
    pub(crate) fn judgments(
        &self,
        judgments: Option<&Bound<'_, PyAny>>,
        problems: &mut Vec<Problem>,
    ) -> PyResult<Judgments> {
        let Some(judgments) = judgments else {
            return Ok(Judgments::default());
        };
        let (lines, _) = lines_of(judgments, "judgments", problems)?;
        Ok(Judgments::read(&lines[..], &self.inner, |e| {
            problems.push(argument_problem("judgments", e));
        }))
    }

    /// The item `item_id` and its verifier's name.
    fn verified_item(&self, item_id: &str) -> PyResult<(&Item, &str)> {
        let item = (self.inner.item(item_id)).map_err(|e| InputError::new_err(e.0))?;
        let module = item.module.as_deref().ok_or_else(|| {
            InputError::new_err(format!(
                "item `{item_id}` is analysis-centric and has no verifier"
            ))
        })?;
        Ok((item, module))
    }

    /// The sandbox and the registry module `module`, loaded once per process.
    fn module(&self, module: &str) -> PyResult<(Arc<Sandbox>, Loaded)> {
        self.warm.module(module, |sandbox| {
            (self.inner.load_module(sandbox, module)).map_err(registry_error)
        })
    }

    /// Runs item `item_id`'s verifier on `payload` (the GIL released).
    fn run_item(&self, py: Python<'_>, item_id: &str, payload: Vec<u8>) -> PyResult<RunReport> {
        let (item, module) = self.verified_item(item_id)?;
        let request = self.inner.request(item, payload);
        py.detach(|| match self.module(module)? {
            (sandbox, Ok(verifier)) => sandbox.run(&verifier, &request).map_err(sandbox_error),
            (_, Err(refused)) => Ok(refused.report(request.protocol.unwrap_or(Protocol::Combench))),
        })
    }
}

#[pymethods]
impl Grader {
    #[new]
    #[pyo3(signature = (registry=None, *, jobs=None, cache_dir=None, cache=true))]
    fn new(
        py: Python<'_>,
        registry: Option<&Bound<'_, PyAny>>,
        jobs: Option<usize>,
        cache_dir: Option<PathBuf>,
        cache: bool,
    ) -> PyResult<Self> {
        let workers = verigate_grading::grade::workers(jobs).map_err(InputError::new_err)?;
        let registry = registry_arg(py, registry)?;
        let inner = Arc::clone(&registry.get().inner);
        let recipe = Recipe {
            cache_root: cache_root(cache_dir, cache),
            python: python_executable(py)?,
        };
        Ok(Grader {
            registry,
            inner,
            warm: Arc::new(Warm::new(recipe)),
            workers,
        })
    }

    /// The registry graded against.
    #[getter]
    fn registry(&self, py: Python<'_>) -> Py<Registry> {
        self.registry.clone_ref(py)
    }

    /// Worker threads per grading call.
    #[getter]
    fn jobs(&self) -> usize {
        self.workers
    }

    /// Grades `records` (an iterable of `{"id", "sample", "response"}`
    /// dicts, or JSON lines as `str`) and returns one result per record, in
    /// order: each equals `json.loads` of the line `verigate grade` writes
    /// for it. `judgments` are the proof judgments, for benchmarks with them.
    ///
    /// With `as_lines=True` each result is instead that line itself (a
    /// `str`, no newline): the exact bytes, for writers that would reformat
    /// numbers or escapes.
    ///
    /// A bad record does not stop the others: after grading them,
    /// `InputError` is raised with `.errors` (source, index, message) and
    /// `.results` (the results, `None` at each bad record).
    #[pyo3(signature = (records, judgments=None, *, as_lines=false))]
    fn grade<'py>(
        &self,
        py: Python<'py>,
        records: &Bound<'py, PyAny>,
        judgments: Option<&Bound<'py, PyAny>>,
        as_lines: bool,
    ) -> PyResult<Bound<'py, PyList>> {
        let mut problems = Vec::new();
        let mut judged = self.judgments(judgments, &mut problems)?;
        let (lines, count) = lines_of(records, "records", &mut problems)?;
        let sandbox = self.warm.sandbox()?;
        let mut graded: Vec<GradeRecord> = Vec::with_capacity(count);
        let mut bad = Vec::new();
        let unmatched = py.detach(|| {
            verigate_grading::grade::Grader {
                registry: &self.inner,
                sandbox: &sandbox,
                judgments: &mut judged,
                workers: self.workers,
            }
            .grade(
                &lines[..],
                [],
                |record, _| graded.push(record.clone()),
                |e| bad.push(argument_problem("records", e)),
            )
        });
        let unmatched = unmatched.map_err(InputError::new_err)?;
        problems.extend(bad);
        problems.sort_by_key(|p| (matches!(p.source, Source::Argument("records")), p.position));
        let results = PyList::empty(py);
        for record in aligned(graded, count, &problems) {
            match record {
                Some(record) if as_lines => results.append(record_line(&record))?,
                Some(record) => results.append(to_python(py, &record)?)?,
                None => results.append(py.None())?,
            }
        }
        let note = unmatched_note(py, unmatched)?;
        if !problems.is_empty() || note.is_some() {
            return Err(input_error(py, &problems, note.as_deref(), Some(results)));
        }
        Ok(results)
    }

    /// Like `grade`, but streaming: yields each result as soon as it and
    /// every earlier one are ready, reading `records` lazily (memory stays
    /// flat). Bad records are skipped; `InputError` is raised at the end
    /// with `.errors` when there were any.
    #[pyo3(signature = (records, judgments=None))]
    fn grade_iter(
        slf: &Bound<'_, Self>,
        records: &Bound<'_, PyAny>,
        judgments: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<GradeIter> {
        GradeIter::start(slf, records, judgments)
    }

    /// Runs the verifier of item `item_id` on `payload` (the payload
    /// exactly as the verifier receives it) and returns the verdict: the
    /// JSON object `verigate run ITEM_ID` prints.
    fn run<'py>(
        &self,
        py: Python<'py>,
        item_id: &str,
        payload: Payload,
    ) -> PyResult<Bound<'py, PyAny>> {
        let report = self.run_item(py, item_id, payload.0)?;
        to_python(py, &report)
    }

    /// Grades the responses file `responses` into the results file `out`,
    /// exactly as `verigate grade --responses RESPONSES --out OUT` does
    /// (same bytes; `resume=True` is `--resume`; `shard=(i, n)` and
    /// `shard_lines` are `--shard I/N --shard-lines K`: `out` is then a part
    /// file, skipped when complete, for `verigate.merge`), and returns what
    /// it did: `graded`, `resumed`, `bad_lines`, `dropped_bytes`,
    /// `unmatched`, `part_exists`.
    ///
    /// Bad lines are skipped and every other line is written; then
    /// `InputError` is raised with `.errors` (file, line, message).
    #[pyo3(signature = (responses, out, judgments=None, resume=false, *, shard=None, shard_lines=None))]
    #[allow(clippy::too_many_arguments)]
    fn grade_file<'py>(
        &self,
        py: Python<'py>,
        responses: PathBuf,
        out: PathBuf,
        judgments: Option<PathBuf>,
        resume: bool,
        shard: Option<(usize, usize)>,
        shard_lines: Option<usize>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let sandbox = self.warm.sandbox()?;
        let run = GradeFile {
            responses: &responses,
            judgments: judgments.as_deref(),
            out: Some(&out),
            resume,
            lines: None,
        };
        let shard = shard
            .map(|(index, count)| Shard::of_file(&responses, index, count, shard_lines))
            .transpose()
            .map_err(InputError::new_err)?;
        let mut problems = Vec::new();
        let summary = py
            .detach(|| {
                let on_error = |path: &Path, e: BadLine| {
                    problems.push(Problem {
                        source: Source::File(path.display().to_string()),
                        position: e.line,
                        message: e.message,
                    });
                };
                match &shard {
                    Some(shard) => run.run_shard(
                        shard,
                        &self.inner,
                        &sandbox,
                        self.workers,
                        |_, _| {},
                        on_error,
                    ),
                    None => run.run(&self.inner, &sandbox, self.workers, |_, _| {}, on_error),
                }
            })
            .map_err(file_error)?;
        let result = PyDict::new(py);
        result.set_item("graded", summary.graded)?;
        result.set_item("resumed", summary.resumed)?;
        result.set_item("bad_lines", summary.bad_lines)?;
        result.set_item("dropped_bytes", summary.dropped_bytes)?;
        result.set_item("part_exists", summary.part_exists)?;
        let failed = summary.failed();
        let note = unmatched_note(py, summary.unmatched)?;
        result.set_item("unmatched", &note)?;
        if failed {
            return Err(input_error(py, &problems, note.as_deref(), None));
        }
        Ok(result)
    }

    /// (benchmarks) Runs item `item_id` on `payload` `n` times through the
    /// library alone, without Python in the loop, and returns each call's
    /// nanoseconds: the baseline `run`'s per-call overhead is measured against.
    fn _bench_native(
        &self,
        py: Python<'_>,
        item_id: &str,
        payload: Payload,
        n: usize,
    ) -> PyResult<Vec<u64>> {
        let (item, module) = self.verified_item(item_id)?;
        py.detach(|| {
            let (sandbox, loaded) = self.module(module)?;
            let verifier = loaded.map_err(|e| InputError::new_err(e.to_string()))?;
            (0..n)
                .map(|_| {
                    let started = Instant::now();
                    let request = self.inner.request(item, payload.0.clone());
                    sandbox.run(&verifier, &request).map_err(sandbox_error)?;
                    Ok(u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX))
                })
                .collect()
        })
    }

    /// Pickling (multiprocessing, Ray): a grader is rebuilt from its
    /// registry path and options, with a fresh engine, in the receiving process.
    fn __getnewargs_ex__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<((PathBuf,), Bound<'py, PyDict>)> {
        let options = PyDict::new(py);
        options.set_item("jobs", self.workers)?;
        options.set_item("cache_dir", self.warm.cache_root())?;
        options.set_item("cache", self.warm.cache_root().is_some())?;
        Ok(((self.inner.root().to_owned(),), options))
    }

    fn __repr__(&self) -> String {
        format!(
            "Grader(registry={:?}, jobs={})",
            self.inner.root().display().to_string(),
            self.workers
        )
    }
}

/// A payload: `str` (sent as UTF-8) or `bytes`.
pub struct Payload(pub Vec<u8>);

impl<'a, 'py> FromPyObject<'a, 'py> for Payload {
    type Error = PyErr;

    fn extract(payload: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if payload.cast::<PyString>().is_ok() {
            return Ok(Payload(payload.extract::<String>()?.into_bytes()));
        }
        if let Ok(bytes) = payload.cast::<PyBytes>() {
            return Ok(Payload(bytes.as_bytes().to_vec()));
        }
        Err(InputError::new_err("payload: give str or bytes"))
    }
}
