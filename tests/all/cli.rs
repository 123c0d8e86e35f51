//! The `verigate run` command: one JSON line, exit status 0/1/2.

use crate::common::*;
use std::io::Write;
use std::process::{Command, Stdio};

fn verigate(args: &[&str], stdin: &str) -> (i32, serde_json::Value, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_verigate"))
        .args(args)
        .arg("--no-cache")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    // `run` prints exactly one JSON line (or nothing on a host error); other
    // commands print text, returned as a JSON string.
    let json = match (args[0], stdout.lines().count()) {
        (_, 0) => serde_json::Value::Null,
        ("run", 1) => serde_json::from_str(&stdout).expect("one JSON line"),
        ("run", n) => panic!("expected one line, got {n}: {stdout}"),
        _ => serde_json::Value::String(stdout),
    };
    (
        out.status.code().unwrap(),
        json,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn pass_prints_one_json_line_and_exits_0() {
    let wasm = hostile_wasm().to_str().unwrap();
    let (code, json, _) = verigate(&["run", wasm], "true");
    assert_eq!(code, 0);
    for field in [
        "outcome",
        "passed",
        "score",
        "message",
        "fuel_consumed",
        "wall_ms",
        "module_sha256",
        "stdout",
        "stderr",
    ] {
        assert!(json.get(field).is_some(), "missing {field}: {json}");
    }
    assert_eq!(json["outcome"], "pass");
    assert_eq!(json["stdout"], "True\n");
}

#[test]
fn any_non_pass_exits_1() {
    let wasm = hostile_wasm().to_str().unwrap();
    let (code, json, _) = verigate(&["run", wasm, "--fuel", "1000000"], "loop");
    assert_eq!(
        (code, json["outcome"].as_str()),
        (1, Some("fuel_exhausted"))
    );
    let (code, json, _) = verigate(&["run", wasm, "--memory-mb", "16"], "membomb");
    assert_eq!(
        (code, json["outcome"].as_str()),
        (1, Some("memory_exceeded"))
    );
    let (code, json, _) = verigate(&["run", wasm, "--protocol", "verdict-json"], "true");
    assert_eq!(
        (code, json["outcome"].as_str()),
        (1, Some("protocol_error"))
    );
}

#[test]
fn payload_file_and_item_dir_flags() {
    let wasm = hostile_wasm().to_str().unwrap();
    let dir = tempdir_with(&[("payload.txt", "echo from a file"), ("instance.json", "{}")]);
    let payload = dir.path().join("payload.txt");
    let (code, json, _) = verigate(
        &[
            "run",
            wasm,
            "--payload",
            payload.to_str().unwrap(),
            "--item-dir",
            dir.path().to_str().unwrap(),
        ],
        "",
    );
    assert_eq!((code, json["message"].as_str()), (1, Some("from a file")));
}

#[test]
fn host_errors_exit_2_with_a_message_naming_the_file() {
    let (code, json, stderr) = verigate(&["run", "/nonexistent/verifier.wasm"], "");
    assert_eq!((code, json), (2, serde_json::Value::Null));
    assert!(stderr.contains("/nonexistent/verifier.wasm"), "{stderr}");
    let (code, _, stderr) = verigate(&["run", "x.wasm", "--fuel", "lots"], "");
    assert_eq!(code, 2, "{stderr}");
    let wasm = hostile_wasm().to_str().unwrap();
    let (code, _, stderr) = verigate(&["run", wasm, "--item-dir", "/nonexistent-dir"], "");
    assert_eq!(code, 2);
    assert!(stderr.contains("/nonexistent-dir"), "{stderr}");
}

#[test]
fn invalid_modules_are_a_verdict_not_a_host_error() {
    let dir = tempdir_with(&[("bad.wasm", "definitely not wasm")]);
    let bad = dir.path().join("bad.wasm");
    let (code, json, _) = verigate(&["run", bad.to_str().unwrap()], "");
    assert_eq!(
        (code, json["outcome"].as_str()),
        (1, Some("invalid_module"))
    );
}

#[test]
fn run_resolves_registry_items() {
    let registry = repo_root().join("registry");
    let registry = registry.to_str().unwrap();
    let (code, json, _) = verigate(
        &["run", "toy/derangement-4", "--registry", registry],
        "[2, 1, 4, 3]",
    );
    assert_eq!((code, json["outcome"].as_str()), (0, Some("pass")));
    assert_eq!(json["protocol"], "verdict-json");
    let (code, json, _) = verigate(
        &["run", "toy/derangement-4", "--registry", registry],
        "[1, 2, 3, 4]",
    );
    assert_eq!((code, json["outcome"].as_str()), (1, Some("fail")));
    let (code, _, stderr) = verigate(&["run", "toy/no-such-item", "--registry", registry], "");
    assert_eq!(code, 2);
    assert!(stderr.contains("no item `toy/no-such-item`"), "{stderr}");
}

#[test]
fn a_tampered_registry_is_refused_naming_the_file() {
    let copy = tempdir_with(&[]);
    copy_tree(&repo_root().join("registry"), copy.path());
    let item = copy.path().join("items/toy/pythagorean-triple/item.toml");
    let text = std::fs::read_to_string(&item).unwrap();
    std::fs::write(
        &item,
        text.replace("fuel = 50_000_000", "fuel = 50_000_001"),
    )
    .unwrap();
    let root = copy.path().to_str().unwrap();
    let (code, _, stderr) = verigate(&["grade", "--registry", root], "");
    assert_eq!(code, 2);
    assert!(
        stderr.contains("items/toy/pythagorean-triple/item.toml: modified"),
        "{stderr}"
    );
    let (code, report, _) = verigate(&["registry", "verify", "--registry", root], "");
    assert_eq!(code, 1);
    assert!(
        report
            .as_str()
            .unwrap()
            .contains("pythagorean-triple/item.toml: modified"),
        "{report}"
    );
}
