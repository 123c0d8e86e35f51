//! Operator slips and input conventions of the CLI: each test fails without its fix.

use crate::common::*;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// `verigate ARGS…` run from the repository root (so `registry/` is found).
fn verigate(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_verigate"));
    command.current_dir(repo_root()).args(args);
    command
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The first `n` lines of the bundled example responses.
fn example_lines(n: usize) -> String {
    let text = std::fs::read_to_string(repo_root().join("examples/responses.jsonl")).unwrap();
    text.lines().take(n).map(|l| format!("{l}\n")).collect()
}

fn grade(dir: &Path, extra: &[&str]) -> Output {
    verigate(&["grade", "--no-cache", "--responses"])
        .arg(dir.join("r.jsonl"))
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn an_output_that_is_an_input_is_refused_before_it_is_touched() {
    let dir = tempdir_with(&[("r.jsonl", &example_lines(3))]);
    let before = std::fs::read(dir.path().join("r.jsonl")).unwrap();
    // The same file under another name (a hard link) is caught too.
    std::fs::hard_link(dir.path().join("r.jsonl"), dir.path().join("alias.jsonl")).unwrap();
    for out in ["r.jsonl", "alias.jsonl"] {
        let result = grade(
            dir.path(),
            &["--out", dir.path().join(out).to_str().unwrap()],
        );
        assert_eq!(result.status.code(), Some(2), "{}", stderr(&result));
        assert!(
            stderr(&result).contains("it would be overwritten"),
            "{}",
            stderr(&result)
        );
    }
    assert_eq!(std::fs::read(dir.path().join("r.jsonl")).unwrap(), before);
}

#[test]
fn an_absurd_job_count_is_refused_before_any_file_is_written() {
    let dir = tempdir_with(&[("r.jsonl", &example_lines(1)), ("o.jsonl", "kept\n")]);
    let out = dir.path().join("o.jsonl");
    let result = grade(
        dir.path(),
        &["--jobs", "100000", "--out", out.to_str().unwrap()],
    );
    assert_eq!(result.status.code(), Some(2));
    assert!(
        stderr(&result).contains("at most 256"),
        "{}",
        stderr(&result)
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "kept\n");
}

#[test]
fn a_second_writer_of_a_results_file_is_refused() {
    let dir = tempdir_with(&[("r.jsonl", &example_lines(2))]);
    let out = dir.path().join("o.jsonl");
    // Another run holds the file (its lock is what a running `grade` takes).
    let holder = std::fs::File::create(&out).unwrap();
    holder.try_lock().unwrap();
    let result = grade(dir.path(), &["--out", out.to_str().unwrap(), "--resume"]);
    assert_eq!(result.status.code(), Some(2));
    assert!(
        stderr(&result).contains("another verigate run"),
        "{}",
        stderr(&result)
    );
    drop(holder);
    let result = grade(dir.path(), &["--out", out.to_str().unwrap()]);
    assert!(result.status.success(), "{}", stderr(&result));
    assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), 2);
}

#[test]
fn resume_refuses_results_whose_response_changed() {
    let lines = example_lines(2);
    let dir = tempdir_with(&[("r.jsonl", &lines)]);
    let out = dir.path().join("o.jsonl");
    let out_arg = ["--out", out.to_str().unwrap()];
    assert!(grade(dir.path(), &out_arg).status.success());
    // The first line's response edited (same id and sample), then a resume.
    let edited = lines.replacen("\"response\": \"", "\"response\": \"edited ", 1);
    std::fs::write(dir.path().join("r.jsonl"), edited).unwrap();
    let result = grade(dir.path(), &[out_arg[0], out_arg[1], "--resume"]);
    assert_eq!(result.status.code(), Some(2));
    assert!(
        stderr(&result).contains("changed since it was graded"),
        "{}",
        stderr(&result)
    );
}

#[test]
fn judgments_that_match_no_response_fail_the_run_with_a_hint() {
    let judgments = std::fs::read_to_string(repo_root().join("examples/judgments.jsonl")).unwrap();
    // `"sample": "0"` where the responses say `0`.
    let retyped: String = judgments
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["sample"] = serde_json::Value::String(v["sample"].to_string());
            format!("{v}\n")
        })
        .collect();
    let dir = tempdir_with(&[("j.jsonl", &retyped)]);
    let result = verigate(&["grade", "--no-cache", "--out", "/dev/null", "--judgments"])
        .arg(dir.path().join("j.jsonl"))
        .output()
        .unwrap();
    assert_eq!(result.status.code(), Some(2), "{}", stderr(&result));
    let text = stderr(&result);
    assert!(
        text.contains("66 of 66 judgment(s) match no response"),
        "{text}"
    );
    assert!(text.contains("differs only in type"), "{text}");
}

#[test]
fn duplicates_are_named_by_line_and_a_bom_is_accepted() {
    let one = example_lines(1);
    let dir = tempdir_with(&[("r.jsonl", &format!("\u{feff}{one}{one}"))]);
    let result = grade(dir.path(), &["--out", "-"]);
    assert_eq!(result.status.code(), Some(2));
    assert!(
        stderr(&result).contains(
            "r.jsonl:2: item `combench/IMO-2008-P5` sample 0 again: a duplicate of line 1"
        ),
        "{}",
        stderr(&result)
    );
    assert_eq!(String::from_utf8_lossy(&result.stdout).lines().count(), 1);
}

#[test]
fn a_line_longer_than_the_cap_is_reported_without_being_held() {
    let long = format!(
        "{{\"id\": \"x\", \"sample\": 0, \"response\": \"{}\"}}\n",
        "y".repeat(65 << 20)
    );
    let dir = tempdir_with(&[("r.jsonl", &format!("{}{long}", example_lines(1)))]);
    let result = grade(dir.path(), &["--out", "-"]);
    assert_eq!(result.status.code(), Some(2));
    assert!(
        stderr(&result).contains("r.jsonl:2: line longer than 67108864 bytes"),
        "{}",
        stderr(&result)
    );
    assert_eq!(String::from_utf8_lossy(&result.stdout).lines().count(), 1);
}

#[test]
fn stdin_and_gzip_responses_are_read_and_unknown_ids_get_suggestions() {
    let lines = example_lines(3);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut gz, lines.as_bytes()).unwrap();
    let dir = tempdir_with(&[]);
    std::fs::write(dir.path().join("r.jsonl.gz"), gz.finish().unwrap()).unwrap();
    let zipped = verigate(&["grade", "--no-cache", "--responses"])
        .arg(dir.path().join("r.jsonl.gz"))
        .output()
        .unwrap();
    assert!(zipped.status.success(), "{}", stderr(&zipped));
    let mut child = verigate(&["grade", "--no-cache", "--responses", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let typo = lines.replacen("IMO-2008-P5", "IMO-2008-P6", 1);
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), typo.as_bytes()).unwrap();
    let piped = child.wait_with_output().unwrap();
    assert!(
        stderr(&piped).contains("did you mean `combench/IMO-2008-P5`"),
        "{}",
        stderr(&piped)
    );
    assert_eq!(String::from_utf8_lossy(&zipped.stdout).lines().count(), 3);
    assert_eq!(String::from_utf8_lossy(&piped.stdout).lines().count(), 2);
}

#[test]
fn a_repeated_limit_flag_takes_the_last_value_and_a_closed_pipe_ends_quietly() {
    let dir = tempdir_with(&[("p.txt", "[2, 1, 4, 3]")]);
    let result = verigate(&[
        "run",
        "toy/derangement-4",
        "--no-cache",
        "--fuel",
        "1",
        "--fuel",
        "2000000000",
        "--payload",
    ])
    .arg(dir.path().join("p.txt"))
    .output()
    .unwrap();
    assert!(result.status.success(), "{}", stderr(&result));
    // `registry list | head -0`: stdout closed before anything is read.
    let mut child = verigate(&["registry", "list"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    assert_ne!(out.status.code(), Some(101));
}

#[test]
fn report_on_a_responses_file_says_so() {
    let dir = tempdir_with(&[("r.jsonl", &example_lines(1))]);
    let result = verigate(&["report"])
        .arg(dir.path().join("r.jsonl"))
        .output()
        .unwrap();
    assert_eq!(result.status.code(), Some(2));
    assert!(
        stderr(&result).contains("this looks like a responses file"),
        "{}",
        stderr(&result)
    );
}

#[test]
fn run_on_a_family_row_gives_the_row_to_the_verifier_as_grade_does() {
    let registry = verigate_registry::Registry::open(&bundled_registry()).unwrap();
    let rows: Vec<_> = registry
        .items()
        .values()
        .filter(|i| i.row.is_some())
        .collect();
    assert!(!rows.is_empty());
    let dir = tempdir_with(&[]);
    for item in rows {
        let witnesses = std::iter::once((item.reference.as_deref().unwrap(), true)).chain(
            item.counterexamples
                .iter()
                .map(|c| (c.payload.as_str(), false)),
        );
        for (payload, passes) in witnesses {
            let path = dir.path().join("payload");
            std::fs::write(&path, payload).unwrap();
            let out = verigate(&["run", &item.id, "--no-cache", "--payload"])
                .arg(&path)
                .output()
                .unwrap();
            let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(
                report["passed"], passes,
                "{} on {payload:?}: {report}",
                item.id
            );
        }
    }
}

#[test]
fn commands_run_elsewhere_never_touch_the_checkouts_registry() {
    let registry = bundled_registry();
    let before = snapshot(&registry);
    let elsewhere = tempdir_with(&[("item.toml", "id = \"x/y\"\n")]);
    let run_there = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_verigate"))
            .current_dir(elsewhere.path())
            .env_remove("VERIGATE_REGISTRY")
            .args(args)
            .output()
            .unwrap()
    };
    for args in [
        &["registry", "list"][..],
        &["registry", "relock"],
        &[
            "registry",
            "add",
            "--module",
            "m.wasm",
            "--name",
            "m",
            "--item",
            "item.toml",
        ],
        &["grade", "--responses", "item.toml"],
    ] {
        let out = run_there(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).contains("no registry here"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    assert_eq!(snapshot(&registry), before);
    // Named explicitly, it is found from anywhere.
    let out = Command::new(env!("CARGO_BIN_EXE_verigate"))
        .current_dir(elsewhere.path())
        .env("VERIGATE_REGISTRY", &registry)
        .args(["registry", "show", "toy/derangement-4"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn reproduce_names_each_line_that_no_longer_reproduces() {
    let dir = tempdir_with(&[("r.jsonl", &example_lines(3))]);
    let results = dir.path().join("o.jsonl");
    assert!(
        grade(dir.path(), &["--out", results.to_str().unwrap()])
            .status
            .success()
    );
    let reproduce = || {
        verigate(&["reproduce", "--no-cache", "--responses"])
            .arg(dir.path().join("r.jsonl"))
            .arg(&results)
            .output()
            .unwrap()
    };
    let out = reproduce();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("3/3 lines reproduced under registry"));
    // One line edited: its score.
    let text = std::fs::read_to_string(&results).unwrap();
    let mut lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    lines[1]["score"] = serde_json::json!(0.123);
    let edited: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&results, &edited).unwrap();
    let out = reproduce();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("o.jsonl:2: item `combench/IMO-2008-P5` sample 1: score differ"),
        "{stdout}"
    );
    assert!(stdout.contains("2/3 lines reproduced"), "{stdout}");
    // Results of another registry are refused, naming both digests.
    lines[0]["registry_digest"] = serde_json::json!("0123");
    let foreign: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&results, foreign).unwrap();
    let out = reproduce();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("was graded under registry 0123"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn registry_add_hints_at_instance_files_and_quotes_the_counterexamples_why() {
    let registry = scratch_registry();
    let module = bundled_registry().join(format!(
        "modules/{}.wasm",
        "90536a9c42cb3c7595373c500b0c1edc9485875a4d0edc91fd287ddfe98a4107"
    ));
    let item = "id = \"toy/derangement-x\"\nmodule = \"toy-x\"\npayload = \"raw\"\n\
                reference = \"[2, 1, 4, 3]\"\n[metadata]\nbenchmark = \"toy\"\ntype = \"construction\"\n\
                [[counterexample]]\npayload = \"[2, 1, 4, 3]\"\nwhy = \"the reference itself\"\n";
    let dir = tempdir_with(&[("item.toml", item)]);
    let add = |instance: Option<&Path>| {
        let mut command = verigate(&[
            "registry",
            "add",
            "--no-cache",
            "--name",
            "toy-x",
            "--registry",
        ]);
        command
            .arg(registry.path())
            .arg("--module")
            .arg(&module)
            .arg("--item")
            .arg(dir.path().join("item.toml"));
        if let Some(instance) = instance {
            command.arg("--instance").arg(instance);
        }
        let out = command.output().unwrap();
        assert_eq!(out.status.code(), Some(1));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    // The verifier reads /item/instance.json, which this contribution does not give.
    let stdout = add(None);
    assert!(stdout.contains("registry add --instance DIR"), "{stdout}");
    // With it, the counterexample (the reference itself) passes: its why is quoted.
    let stdout = add(Some(
        &bundled_registry().join("items/toy/derangement-4/instance"),
    ));
    assert!(
        stdout.contains("counterexample 1 (the reference itself) is not rejected: pass"),
        "{stdout}"
    );
}
