//! Python verifiers on the shared interpreter: what a new script costs
//! before its first verdict, what a warm check costs next to the same script
//! in one native CPython process, and a payload file through one command.

use super::{Case, load, median_us, millis, time_runs};
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Instant;
use verigate_sandbox::{Request, Sandbox, SandboxOptions};

/// A check that does nothing but answer.
const TRIVIAL_SCRIPT: &str = "print(True)\n";

/// Runs a script many times in this one CPython process, as a native
/// harness would: compiled once, each run with the payload as `sys.stdin`
/// and a fresh `__main__` namespace. Prints the median µs of each payload.
const NATIVE_HARNESS: &str = r#"
import io, json, statistics, sys, time
request = json.load(sys.stdin)
code = compile(request["script"], "verifier.py", "exec")
medians = []
for payload in request["payloads"]:
    times = []
    for _ in range(request["runs"]):
        sys.stdin, sys.stdout = io.StringIO(payload), io.StringIO()
        started = time.perf_counter_ns()
        exec(code, {"__name__": "__main__"})
        times.append(time.perf_counter_ns() - started)
        sys.stdin, sys.stdout = sys.__stdin__, sys.__stdout__
    medians.append(statistics.median(times) / 1e3)
print(json.dumps(medians))
"#;

/// What the Python figures are measured on.
pub struct PythonInputs {
    /// The registry's interpreter module.
    pub interpreter: Arc<Vec<u8>>,
    /// A registry Python verifier's script and its item's payloads.
    pub script: String,
    /// The item's requests, reference witness first.
    pub requests: Vec<Request>,
    /// The script's path, for the command-line figures.
    pub script_path: PathBuf,
    /// `python3` (for the native figures), or why not.
    pub native: Result<PathBuf, String>,
    /// The registry the command-line runs use.
    pub registry_root: PathBuf,
}

/// The figures.
#[derive(Debug, Serialize)]
pub struct PythonFigures {
    /// The shared interpreter module, bytes (once per registry).
    pub interpreter_bytes: u64,
    /// The script, bytes: all a Python verifier adds to the registry.
    pub script_bytes: u64,
    /// Compiling the interpreter, ms: once per machine.
    pub interpreter_compile_ms: f64,
    /// A new script's first verdicts, the interpreter compiled: the script
    /// attached and every payload of its item run (what `registry add`
    /// checks), ms.
    pub new_script_checks_ms: f64,
    /// A warm check, mean over the payloads of each one's median, µs.
    pub warm_us: f64,
    /// The same script's check in one native CPython process, µs.
    pub native_us: Option<f64>,
    /// `print(True)` warm, µs.
    pub trivial_warm_us: f64,
    /// `print(True)` in one native CPython process, µs.
    pub trivial_native_us: Option<f64>,
    /// Payloads given to one `verigate run script.py --payloads` process.
    pub batch_payloads: usize,
    /// That process, spawn to exit, s.
    pub batch_s: f64,
    /// One `verigate run script.py` process per payload, mean, ms.
    pub process_per_payload_ms: f64,
}

fn native_us(
    python3: &Path,
    script: &str,
    payloads: &[&[u8]],
    runs: usize,
) -> Result<Vec<f64>, String> {
    let request = serde_json::json!({
        "script": script,
        "payloads": payloads.iter().map(|p| String::from_utf8_lossy(p)).collect::<Vec<_>>(),
        "runs": runs,
    });
    let mut child = Command::new(python3)
        .args(["-c", NATIVE_HARNESS])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", python3.display()))?;
    let input = serde_json::to_vec(&request).map_err(|e| e.to_string())?;
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(&input)
        .map_err(|e| e.to_string())?;
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!(
            "the native harness failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    serde_json::from_slice(&out.stdout).map_err(|e| format!("the native harness printed: {e}"))
}

/// `verigate run ARGS` against the registry and cache given, spawn to exit.
fn verigate_run(
    inputs: &PythonInputs,
    cache: &Path,
    args: &[&std::ffi::OsStr],
) -> Result<f64, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let started = Instant::now();
    let out = Command::new(exe)
        .arg("run")
        .args(args)
        .arg("--registry")
        .arg(&inputs.registry_root)
        .arg("--cache-dir")
        .arg(cache)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| e.to_string())?;
    let elapsed = started.elapsed().as_secs_f64();
    if out.stdout.is_empty() {
        return Err(format!(
            "verigate run failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(elapsed)
}

/// Measures the figures; `scratch` is a directory for the compiled-module
/// cache and the payload files, emptied first.
pub fn measure(
    inputs: &PythonInputs,
    scratch: &Path,
    quick: bool,
) -> Result<PythonFigures, String> {
    let runs = if quick { 20 } else { 200 };
    let _ = std::fs::remove_dir_all(scratch);
    std::fs::create_dir_all(scratch).map_err(|e| format!("{}: {e}", scratch.display()))?;
    let cache = scratch.join("cache");
    let sandbox = Sandbox::new(&SandboxOptions {
        cache_root: Some(cache.clone()),
        ..SandboxOptions::default()
    })
    .map_err(|e| format!("{e:#}"))?;
    let interpreter = load(&sandbox, &inputs.interpreter, None)?;
    let interpreter_compile_ms = millis(interpreter.load_time);

    let started = Instant::now();
    let verifier = Arc::new(
        interpreter
            .with_script(&inputs.script)
            .map_err(|e| e.to_string())?,
    );
    for request in &inputs.requests {
        sandbox
            .run(&verifier, request)
            .map_err(|e| format!("{e:#}"))?;
    }
    let new_script_checks_ms = millis(started.elapsed());

    let case = |request: &Request| Case {
        wasm: Arc::clone(&inputs.interpreter),
        script: None,
        request: request.clone(),
    };
    let mut warm = Vec::new();
    for request in &inputs.requests {
        let (mut times, _) = time_runs(&sandbox, &verifier, &case(request), runs)?;
        warm.push(median_us(&mut times));
    }
    let trivial = Arc::new(
        interpreter
            .with_script(TRIVIAL_SCRIPT)
            .map_err(|e| e.to_string())?,
    );
    let (mut times, _) = time_runs(&sandbox, &trivial, &case(&Request::default()), runs * 5)?;
    let trivial_warm_us = median_us(&mut times);

    let payloads: Vec<&[u8]> = inputs
        .requests
        .iter()
        .map(|r| r.payload.as_slice())
        .collect();
    let (native_us, trivial_native_us) = match &inputs.native {
        Ok(python3) => (
            Some(super::mean_of(
                native_us(python3, &inputs.script, &payloads, runs)?.into_iter(),
            )),
            native_us(python3, TRIVIAL_SCRIPT, &[b""], runs * 5)?
                .first()
                .copied(),
        ),
        Err(_) => (None, None),
    };

    let batch_payloads = if quick { 140 } else { 700 };
    let lines: String = (0..batch_payloads)
        .map(|i| {
            let payload = String::from_utf8_lossy(payloads[i % payloads.len()]);
            format!("{}\n", serde_json::Value::String(payload.into_owned()))
        })
        .collect();
    let file = scratch.join("payloads.jsonl");
    std::fs::write(&file, lines).map_err(|e| format!("{}: {e}", file.display()))?;
    let script = inputs.script_path.as_os_str();
    let batch_s = verigate_run(
        inputs,
        &cache,
        &[script, "--payloads".as_ref(), file.as_os_str()],
    )?;
    let one = scratch.join("payload");
    std::fs::write(&one, payloads[0]).map_err(|e| format!("{}: {e}", one.display()))?;
    let processes = if quick { 3 } else { 10 };
    let mut total = 0.0;
    for _ in 0..processes {
        total += verigate_run(
            inputs,
            &cache,
            &[script, "--payload".as_ref(), one.as_os_str()],
        )?;
    }
    let _ = std::fs::remove_dir_all(scratch);
    Ok(PythonFigures {
        interpreter_bytes: inputs.interpreter.len() as u64,
        script_bytes: inputs.script.len() as u64,
        interpreter_compile_ms,
        new_script_checks_ms,
        warm_us: super::mean_of(warm.into_iter()),
        native_us,
        trivial_warm_us,
        trivial_native_us,
        batch_payloads,
        batch_s,
        process_per_payload_ms: total / f64::from(processes) * 1e3,
    })
}
