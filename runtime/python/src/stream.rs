//! `Grader.grade_iter`: streaming grading. A background thread reads the
//! records lazily (taking the GIL for each) and grades them on the pool;
//! results reach the Python iterator through a bounded channel, in order.

use crate::errors::{HostError, InputError, Problem, input_error};
use crate::grader::{Grader, unmatched_note};
use crate::records::{argument_problem, line_of, to_python};
use pyo3::prelude::*;
use pyo3::types::PyIterator;
use std::io::{BufRead, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex, PoisonError};
use verigate_grading::grade::{GradeRecord, Unmatched};

/// What the grading thread sends.
enum Message {
    Record(Box<GradeRecord>),
    Problem(Problem),
    /// The records' iterator raised: re-raised in the consumer.
    Raised(PyErr),
    Done(Result<Option<Unmatched>, String>),
}

/// Results waiting for the consumer, per worker.
const QUEUED_PER_WORKER: usize = 64;

/// The records of a Python iterator as JSON lines, read on demand.
struct PythonLines {
    records: Py<PyIterator>,
    line: Vec<u8>,
    at: usize,
    index: usize,
    cancelled: Arc<AtomicBool>,
    sender: SyncSender<Message>,
}

impl PythonLines {
    /// The next record's line; an empty line for a record that cannot be
    /// one (reported), nothing at the end or after cancelling.
    fn next_line(&mut self) -> Vec<u8> {
        if self.cancelled.load(Ordering::Relaxed) {
            return Vec::new();
        }
        let next = Python::attach(|py| {
            self.records
                .bind(py)
                .clone()
                .next()
                .map(|record| record.map(|r| line_of(&r)))
        });
        let index = self.index;
        self.index += 1;
        match next {
            None => Vec::new(),
            Some(Err(raised)) => {
                let _ = self.sender.send(Message::Raised(raised));
                Vec::new()
            }
            Some(Ok(Ok(line))) => [line.as_bytes(), b"\n"].concat(),
            Some(Ok(Err(message))) => {
                let _ = self.sender.send(Message::Problem(Problem {
                    source: crate::errors::Source::Argument("records"),
                    position: index,
                    message,
                }));
                b"\n".to_vec()
            }
        }
    }
}

impl Read for PythonLines {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        verigate_grading::files::read_from_buffer(self, out)
    }
}

impl BufRead for PythonLines {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.at == self.line.len() {
            self.line = self.next_line();
            self.at = 0;
        }
        Ok(&self.line[self.at..])
    }

    fn consume(&mut self, amount: usize) {
        self.at = (self.at + amount).min(self.line.len());
    }
}

/// The iterator `Grader.grade_iter` returns: results in input order.
#[pyclass(module = "verigate")]
pub struct GradeIter {
    receiver: Mutex<Receiver<Message>>,
    cancelled: Arc<AtomicBool>,
    problems: Vec<Problem>,
    finished: bool,
}

impl GradeIter {
    /// Reads the judgments, then starts grading `records` on a background thread.
    pub fn start(
        grader: &Bound<'_, Grader>,
        records: &Bound<'_, PyAny>,
        judgments: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let grader = grader.get();
        let mut problems = Vec::new();
        let mut judged = grader.judgments(judgments, &mut problems)?;
        let (registry, sandbox, workers) = (
            Arc::clone(&grader.inner),
            grader.warm.sandbox()?,
            grader.workers,
        );
        let (sender, receiver) = sync_channel(QUEUED_PER_WORKER * workers);
        let cancelled = Arc::new(AtomicBool::new(false));
        let input = PythonLines {
            records: records.try_iter()?.unbind(),
            line: Vec::new(),
            at: 0,
            index: 0,
            cancelled: Arc::clone(&cancelled),
            sender: sender.clone(),
        };
        std::thread::Builder::new()
            .name("verigate-grade-iter".into())
            .spawn(move || {
                let done = verigate_grading::grade::Grader {
                    registry: &registry,
                    sandbox: &sandbox,
                    judgments: &mut judged,
                    workers,
                }
                .grade(
                    input,
                    [],
                    |record, _| {
                        let _ = sender.send(Message::Record(Box::new(record.clone())));
                    },
                    |e| {
                        let _ = sender.send(Message::Problem(argument_problem("records", e)));
                    },
                );
                let _ = sender.send(Message::Done(done));
            })
            .map_err(|e| HostError::new_err(format!("cannot start the grading thread: {e}")))?;
        Ok(GradeIter {
            receiver: Mutex::new(receiver),
            cancelled,
            problems,
            finished: false,
        })
    }
}

#[pymethods]
impl GradeIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        while !self.finished {
            let receiver = &self.receiver;
            let message = py.detach(|| {
                let receiver = receiver.lock().unwrap_or_else(PoisonError::into_inner);
                receiver.recv()
            });
            match message {
                Ok(Message::Record(record)) => return to_python(py, &*record).map(Some),
                Ok(Message::Problem(problem)) => self.problems.push(problem),
                Ok(Message::Raised(raised)) => {
                    self.finished = true;
                    return Err(raised);
                }
                Ok(Message::Done(done)) => {
                    self.finished = true;
                    let note = unmatched_note(py, done.map_err(InputError::new_err)?)?;
                    if !self.problems.is_empty() || note.is_some() {
                        return Err(input_error(py, &self.problems, note.as_deref(), None));
                    }
                }
                Err(_) => {
                    self.finished = true;
                    return Err(HostError::new_err(
                        "the grading thread stopped unexpectedly",
                    ));
                }
            }
        }
        Ok(None)
    }
}

impl Drop for GradeIter {
    /// An abandoned iterator stops reading records; the grading thread
    /// finishes the ones it holds and exits (it is never joined here, with
    /// the GIL held, since reading a record needs the GIL).
    fn drop(&mut self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }
}
