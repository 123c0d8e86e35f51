//! Native builds of a verifier, for `verigate bench`'s floor.
//!
//! A guest crate also builds for the host (`cargo build --release -p <crate>`).
//! Run there as `<verifier> --repeat N < payload`, it calls its check N extra
//! times on the same payload before printing the verdict as usual, and
//! reports the time of each of those calls on stderr as one JSON line,
//! `{"runs":N,"median_ns":…,"p99_ns":…}`. Wasm builds compile none of this.

use std::time::Instant;

/// The `N` of a `--repeat N` argument, if given.
pub(crate) fn repeat_requested() -> Option<usize> {
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--repeat" {
            return args.next().and_then(|n| n.parse().ok());
        }
    }
    None
}

/// Calls `check` once to warm up (it reads stdin), then `runs` times timed,
/// and prints the timings on stderr.
pub(crate) fn time_runs(runs: usize, mut check: impl FnMut()) {
    check();
    let mut times: Vec<u128> = (0..runs.max(1))
        .map(|_| {
            let started = Instant::now();
            check();
            started.elapsed().as_nanos()
        })
        .collect();
    times.sort_unstable();
    let at = |p: f64| times[((times.len() - 1) as f64 * p).round() as usize];
    eprintln!(
        r#"{{"runs":{},"median_ns":{},"p99_ns":{}}}"#,
        times.len(),
        at(0.5),
        at(0.99)
    );
}
