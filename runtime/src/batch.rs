//! Batch runs: many jobs on a worker pool, results delivered in input order.

use crate::limits::Limits;
use crate::outcome::RunReport;
use crate::protocol::Protocol;
use crate::sandbox::{RunRequest, Sandbox};
use crate::verifier::Verifier;
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::Arc;

/// One job of a batch.
#[derive(Clone)]
pub struct Job {
    /// The verifier to run.
    pub verifier: Arc<Verifier>,
    /// Bytes given to the guest on stdin.
    pub payload: Vec<u8>,
    /// Host directory mounted read-only at `/item`.
    pub item_dir: Option<PathBuf>,
    /// The run's limits.
    pub limits: Limits,
    /// Protocol override.
    pub protocol: Option<Protocol>,
}

/// How many jobs may be queued or running per worker; bounds memory while
/// letting fast jobs overtake a slow one inside the window.
const WINDOW_PER_WORKER: usize = 8;

/// Runs `jobs` on `workers` threads and hands each result to `sink` in input
/// order, as soon as it and every earlier result are ready. At most
/// `workers × 8` jobs are held in memory at once, so a stream of millions of
/// jobs runs in flat memory. A host error on one job is passed to `sink`; the
/// batch goes on.
pub fn run_batch<I, F>(sandbox: &Arc<Sandbox>, jobs: I, workers: usize, mut sink: F)
where
    I: IntoIterator<Item = Job>,
    F: FnMut(wasmtime::Result<RunReport>),
{
    let workers = workers.max(1);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .max_blocking_threads(workers)
        .thread_name("verigate-worker")
        .build()
        .expect("building the batch runtime");
    runtime.block_on(async {
        let window = workers * WINDOW_PER_WORKER;
        let mut in_flight = VecDeque::with_capacity(window);
        for job in jobs {
            if in_flight.len() == window
                && let Some(oldest) = in_flight.pop_front()
            {
                sink(joined(oldest).await);
            }
            let sandbox = Arc::clone(sandbox);
            in_flight.push_back(tokio::task::spawn_blocking(move || run_job(&sandbox, &job)));
        }
        while let Some(handle) = in_flight.pop_front() {
            sink(joined(handle).await);
        }
    });
}

fn run_job(sandbox: &Sandbox, job: &Job) -> wasmtime::Result<RunReport> {
    sandbox.run(
        &job.verifier,
        &RunRequest {
            payload: &job.payload,
            item_dir: job.item_dir.as_deref(),
            limits: job.limits,
            protocol: job.protocol,
        },
    )
}

async fn joined(
    handle: tokio::task::JoinHandle<wasmtime::Result<RunReport>>,
) -> wasmtime::Result<RunReport> {
    handle
        .await
        .unwrap_or_else(|err| Err(wasmtime::format_err!("verifier worker failed: {err}")))
}
