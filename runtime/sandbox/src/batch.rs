//! Batch runs: many jobs on a pool of worker threads, results delivered in
//! input order.
//!
//! The calling thread reads jobs lazily and hands them to the workers over a
//! bounded channel; workers send reports back tagged with their index, and
//! the caller re-orders them. At most `workers × WINDOW_PER_WORKER` jobs are
//! in flight, so memory stays flat however long the stream, and a slow job
//! only stalls the stream once the whole window has overtaken it.
//!
//! Plain threads and channels are used rather than a task per job on tokio's
//! blocking pool: that hand-off was measured to cost about 20 µs per job —
//! more than a typical verifier run — and made two workers slower than one.

use crate::engine::GUEST_THREAD_STACK;
use crate::error::Error;
use crate::module::Verifier;
use crate::report::RunReport;
use crate::run::{Request, Sandbox};
use std::collections::VecDeque;
use std::sync::mpsc::{Receiver, sync_channel};
use std::sync::{Arc, Mutex, PoisonError};

/// One job of a batch: a verifier and its request.
#[derive(Clone)]
pub struct Job {
    /// The verifier to run.
    pub verifier: Arc<Verifier>,
    /// What to run it on.
    pub request: Request,
}

/// Jobs in flight per worker.
const WINDOW_PER_WORKER: usize = 16;

type Report = Result<RunReport, Error>;

/// Runs `jobs` on `workers` threads and hands each result to `sink` in input
/// order, as soon as it and every earlier result are ready. A host error on
/// one job is passed to `sink`; the batch goes on.
pub fn run_batch<I, F>(sandbox: &Sandbox, jobs: I, workers: usize, mut sink: F)
where
    I: IntoIterator<Item = Job>,
    F: FnMut(Report),
{
    let workers = workers.max(1);
    let window = workers * WINDOW_PER_WORKER;
    let (job_tx, job_rx) = sync_channel::<(usize, Job)>(window);
    let (report_tx, report_rx) = sync_channel::<(usize, Report)>(window);
    let job_rx = Mutex::new(job_rx);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let report_tx = report_tx.clone();
            let job_rx = &job_rx;
            let work = move || {
                while let Ok((index, job)) = next_job(job_rx) {
                    let report = sandbox.run(&job.verifier, &job.request);
                    if report_tx.send((index, report)).is_err() {
                        break;
                    }
                }
            };
            // Guests run on these threads: they need the stack a guest may take.
            std::thread::Builder::new()
                .name("verigate-worker".to_owned())
                .stack_size(GUEST_THREAD_STACK)
                .spawn_scoped(scope, work)
                .expect("spawning a worker thread");
        }
        drop(report_tx);
        let mut order = Reorder::default();
        for (index, job) in jobs.into_iter().enumerate() {
            while index >= order.next + window {
                let (done, report) = report_rx.recv().expect("workers outlive the jobs");
                order.insert(done, report, &mut sink);
            }
            job_tx.send((index, job)).expect("workers outlive the jobs");
            while let Ok((done, report)) = report_rx.try_recv() {
                order.insert(done, report, &mut sink);
            }
        }
        drop(job_tx);
        for (done, report) in report_rx {
            order.insert(done, report, &mut sink);
        }
    });
}

fn next_job(
    jobs: &Mutex<Receiver<(usize, Job)>>,
) -> Result<(usize, Job), std::sync::mpsc::RecvError> {
    jobs.lock().unwrap_or_else(PoisonError::into_inner).recv()
}

/// Re-orders reports by job index.
#[derive(Default)]
struct Reorder {
    next: usize,
    waiting: VecDeque<Option<Report>>,
}

impl Reorder {
    fn insert(&mut self, index: usize, report: Report, sink: &mut impl FnMut(Report)) {
        let slot = index - self.next;
        if self.waiting.len() <= slot {
            self.waiting.resize_with(slot + 1, || None);
        }
        self.waiting[slot] = Some(report);
        while let Some(Some(_)) = self.waiting.front() {
            let ready = self.waiting.pop_front().flatten().expect("checked above");
            self.next += 1;
            sink(ready);
        }
    }
}
