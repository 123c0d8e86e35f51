//! The baselines that run outside the sandbox: the papers' pipeline (one
//! `python3 verifier.py < payload` process per item) and the same verifier
//! crate compiled natively for the host (the floor).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use verigate_contract::{Outcome, Protocol, judge};

/// Whether what an external run printed is a passing verdict under `protocol`.
fn passed(protocol: Protocol, stdout: &[u8]) -> bool {
    judge(protocol, &String::from_utf8_lossy(stdout)).outcome == Outcome::Pass
}

/// Runs `command` with `payload` on stdin; returns its stdout and stderr.
fn run_with_stdin(mut command: Command, payload: &[u8]) -> Result<(Vec<u8>, Vec<u8>), String> {
    let what = format!("{:?}", command.get_program());
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {what}: {e}"))?;
    // A verifier that fails early may close stdin before reading it all.
    let _ = child.stdin.take().expect("piped").write_all(payload);
    let output = child
        .wait_with_output()
        .map_err(|e| format!("{what}: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "{what} exited with {}: {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    Ok((output.stdout, output.stderr))
}

/// The real CPython interpreter behind `python3` (not a version manager's
/// shell shim, whose start-up would be charged to the baseline).
pub fn python_interpreter() -> Result<PathBuf, String> {
    let mut command = Command::new("python3");
    command.args(["-c", "import sys; print(sys.executable)"]);
    let (stdout, _) = run_with_stdin(command, b"")?;
    let path = PathBuf::from(String::from_utf8_lossy(&stdout).trim());
    if path.as_os_str().is_empty() {
        return Err("python3 did not name its executable".into());
    }
    Ok(path)
}

/// A Python verifier script and the interpreter that runs it.
pub struct PythonVerifier {
    /// The interpreter (see [`python_interpreter`]).
    pub interpreter: PathBuf,
    /// The script: reads the payload on stdin, prints `True` on success.
    pub script: PathBuf,
}

impl PythonVerifier {
    /// Times `runs` processes on `payload`, each from spawn to exit; also
    /// returns whether the script accepted the payload.
    pub fn time(&self, payload: &[u8], runs: usize) -> Result<(Vec<Duration>, bool), String> {
        self.time_processes(&[self.script.as_os_str()], payload, runs)
    }

    /// Times `runs` processes of the interpreter running an empty program:
    /// the part of [`PythonVerifier::time`] that is start-up and exit.
    pub fn time_startup(&self, runs: usize) -> Result<Vec<Duration>, String> {
        Ok(self
            .time_processes(&["-c".as_ref(), "".as_ref()], b"", runs)?
            .0)
    }

    fn time_processes(
        &self,
        args: &[&std::ffi::OsStr],
        payload: &[u8],
        runs: usize,
    ) -> Result<(Vec<Duration>, bool), String> {
        let mut times = Vec::with_capacity(runs);
        let mut accepted = false;
        for _ in 0..runs.max(1) {
            let mut command = Command::new(&self.interpreter);
            command.args(args);
            let started = Instant::now();
            let (stdout, _) = run_with_stdin(command, payload)?;
            times.push(started.elapsed());
            accepted = passed(Protocol::Combench, &stdout);
        }
        Ok((times, accepted))
    }
}

/// Builds guest crate `krate` for the host with `cargo build --release` in
/// `root` and returns the executable's path.
pub fn build_native(root: &Path, krate: &str) -> Result<PathBuf, String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(&cargo)
        .current_dir(root)
        .args(["build", "--release", "--quiet", "-p", krate])
        .args(["--message-format", "json-render-diagnostics"])
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run cargo to build {krate} natively: {e}"))?;
    if !output.status.success() {
        return Err(format!("cargo build -p {krate} failed ({})", output.status));
    }
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|message| message["reason"] == "compiler-artifact")
        .find_map(|message| message["executable"].as_str().map(PathBuf::from))
        .ok_or_else(|| format!("cargo built no executable for {krate}"))
}

/// A verifier compiled for the host, timed in-process by its own
/// `--repeat` harness (see `verigate_sdk`'s `native` module).
pub struct NativeVerifier {
    /// The executable.
    pub binary: PathBuf,
    /// The protocol its verdict line follows.
    pub protocol: Protocol,
}

impl NativeVerifier {
    /// Median and p99 time of one check on `payload` over `runs` repeats,
    /// and whether the verifier accepted it.
    pub fn time(&self, payload: &[u8], runs: usize) -> Result<(Duration, Duration, bool), String> {
        let mut command = Command::new(&self.binary);
        command.args(["--repeat", &runs.to_string()]);
        let (stdout, stderr) = run_with_stdin(command, payload)?;
        let stderr = String::from_utf8_lossy(&stderr);
        let timing: serde_json::Value = stderr
            .lines()
            .last()
            .and_then(|line| serde_json::from_str(line).ok())
            .ok_or_else(|| format!("no timing line from {}", self.binary.display()))?;
        let nanos = |key: &str| Duration::from_nanos(timing[key].as_u64().unwrap_or(0));
        Ok((
            nanos("median_ns"),
            nanos("p99_ns"),
            passed(self.protocol, &stdout),
        ))
    }
}
