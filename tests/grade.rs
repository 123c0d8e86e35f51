//! `verigate grade` and `verigate report` end to end: ComBench scoring on real
//! verifiers, bad input lines, resuming a killed run, and recomputed tables.

mod common;

use common::*;
use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// `verigate ARGS…`; callers end the command line with `--no-cache`.
fn verigate(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_verigate"));
    command.args(args);
    command
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A copy of the bundled registry plus `slow/spin`, an item whose verifier
/// (the hostile test guest) spins for as many iterations as the response says.
fn registry_with_slow_item() -> TempDir {
    let dir = tempdir_with(&[(
        "item.toml",
        "id = \"slow/spin\"\nmodule = \"slow\"\nprotocol = \"combench\"\nreference = \"spin 10\"\n\
         [metadata]\nbenchmark = \"slow\"\ntype = \"construction\"\n",
    )]);
    let registry = dir.path().join("registry");
    copy_tree(&repo_root().join("registry"), &registry);
    let out = verigate(&["registry", "add", "--registry"])
        .arg(&registry)
        .args(["--name", "slow", "--module"])
        .arg(hostile_wasm())
        .arg("--item")
        .arg(dir.path().join("item.toml"))
        .arg("--no-cache")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    dir
}

fn grade(dir: &Path, responses: &str, out: &str, extra: &[&str]) -> Output {
    verigate(&["grade", "--registry"])
        .arg(dir.join("registry"))
        .arg("--responses")
        .arg(dir.join(responses))
        .args(["--out", out])
        .args(extra)
        .arg("--no-cache")
        .output()
        .unwrap()
}

#[test]
fn a_killed_run_resumes_with_no_line_lost_or_duplicated() {
    let dir = registry_with_slow_item();
    // About 5 ms per response: long enough to kill the run part-way.
    let responses: String = (0..300)
        .map(|i| {
            format!("{{\"id\": \"slow/spin\", \"sample\": {i}, \"response\": \"spin 4000000\"}}\n")
        })
        .collect();
    std::fs::write(dir.path().join("responses.jsonl"), responses).unwrap();
    let whole = dir.path().join("whole.jsonl");
    let out = grade(
        dir.path(),
        "responses.jsonl",
        whole.to_str().unwrap(),
        &["--jobs", "1"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let expected = std::fs::read(&whole).unwrap();
    assert_eq!(expected.iter().filter(|&&b| b == b'\n').count(), 300);

    let part = dir.path().join("part.jsonl");
    let mut child = verigate(&["grade", "--registry"])
        .arg(dir.path().join("registry"))
        .arg("--responses")
        .arg(dir.path().join("responses.jsonl"))
        .args(["--jobs", "2", "--out"])
        .arg(&part)
        .arg("--no-cache")
        .spawn()
        .unwrap();
    let started = Instant::now();
    while std::fs::metadata(&part).map_or(0, |m| m.len()) == 0 {
        assert!(started.elapsed() < Duration::from_secs(60), "no output");
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let killed = std::fs::read(&part).unwrap();
    assert!(killed.len() < expected.len(), "the run was not interrupted");
    assert_eq!(&expected[..killed.len()], killed.as_slice());

    let out = grade(
        dir.path(),
        "responses.jsonl",
        part.to_str().unwrap(),
        &["--resume"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("resumed after"), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("slow: 1 items, 300 samples"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        std::fs::read(&part).unwrap(),
        expected,
        "byte-identical to an uninterrupted run"
    );

    // Resuming a finished run grades nothing and changes nothing.
    let out = grade(
        dir.path(),
        "responses.jsonl",
        part.to_str().unwrap(),
        &["--resume"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read(&part).unwrap(), expected);

    // Results from other responses are refused, and left as they are.
    std::fs::write(
        dir.path().join("other.jsonl"),
        "{\"id\": \"slow/spin\", \"sample\": \"x\", \"response\": \"spin 1\"}\n",
    )
    .unwrap();
    let out = grade(
        dir.path(),
        "other.jsonl",
        part.to_str().unwrap(),
        &["--resume"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cannot resume"), "{}", stderr(&out));
    assert_eq!(std::fs::read(&part).unwrap(), expected);
}

#[test]
fn bad_lines_are_named_and_skipped() {
    let dir = registry_with_slow_item();
    std::fs::write(
        dir.path().join("responses.jsonl"),
        "{\"id\": \"slow/spin\", \"sample\": 0, \"response\": \"spin 1\"}\n\
         {\"id\": \"slow/nope\", \"sample\": 1, \"response\": \"spin 1\"}\n\
         \n\
         {\"id\": \"slow/spin\", \"sample\": 2}\n\
         not json\n\
         {\"id\": \"slow/spin\", \"sample\": 3, \"response\": \"echo no\"}\n",
    )
    .unwrap();
    let results = dir.path().join("results.jsonl");
    let out = grade(
        dir.path(),
        "responses.jsonl",
        results.to_str().unwrap(),
        &[],
    );
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    let responses = dir.path().join("responses.jsonl");
    for (line, what) in [
        (2, "field `id`: no item `slow/nope`"),
        (4, "missing field `response`"),
        (5, "expected ident"),
    ] {
        let expected = format!("{}:{line}: {what}", responses.display());
        assert!(err.contains(&expected), "{expected} not in\n{err}");
    }
    assert!(err.contains("3 bad input line(s) skipped"), "{err}");
    let text = std::fs::read_to_string(&results).unwrap();
    let samples: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["sample"].clone())
        .collect();
    assert_eq!(samples, [0, 3]);

    // `report` names its own bad lines the same way.
    std::fs::write(&results, format!("{text}{{\"id\": 1}}\n")).unwrap();
    let out = verigate(&["report"]).arg(&results).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(&format!("{}:3: ", results.display())),
        "{}",
        stderr(&out)
    );
    let tables = String::from_utf8(out.stdout).unwrap();
    assert!(
        tables.contains("slow: 1 items, 2 samples, k = 2"),
        "{tables}"
    );
}
