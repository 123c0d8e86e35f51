//! `verigate grade` and `verigate report` end to end: ComBench scoring on real
//! verifiers, bad input lines, resuming a killed run, and recomputed tables.

use crate::common::*;
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
         [metadata]\nbenchmark = \"slow\"\ntype = \"construction\"\n\
         [[counterexample]]\npayload = \"nope\"\n",
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

    // Resuming twice: the first run grades the rest, the second nothing.
    for _ in 0..2 {
        let resume = grade(
            dir.path(),
            "responses.jsonl",
            part.to_str().unwrap(),
            &["--resume"],
        );
        let err = stderr(&resume);
        assert!(resume.status.success(), "{err}");
        assert!(err.contains("resumed after"), "{err}");
        assert!(err.contains("slow: 1 item, 300 samples"), "{err}");
        let resumed = std::fs::read(&part).unwrap();
        assert!(
            resumed == expected,
            "not byte-identical to an uninterrupted run"
        );
    }

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
    assert!(err.contains("3 bad input lines skipped"), "{err}");
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
        tables.contains("slow: 1 item, 2 samples, k = 2"),
        "{tables}"
    );
}

/// A copy of the bundled registry plus two hand-made ComBench items: a
/// construction item checked by `toy-sum-square` (Pythagorean triples) and
/// an analysis item.
fn registry_with_hand_made_items() -> TempDir {
    let dir = tempdir_with(&[]);
    let root = dir.path().join("registry");
    copy_tree(&repo_root().join("registry"), &root);
    for (id, toml) in [
        (
            "hand-c",
            "module = \"toy-sum-square\"\nprotocol = \"combench\"\npayload = \"construct\"\n\
             reference = \"[3, 4, 5]\"\n[metadata]\nbenchmark = \"combench\"\n\
             type = \"construction\"\ncategory = \"X\"\n",
        ),
        (
            "hand-a",
            "[metadata]\nbenchmark = \"combench\"\ntype = \"analysis\"\ncategory = \"Y\"\n",
        ),
    ] {
        let item = root.join("items/combench").join(id);
        std::fs::create_dir_all(&item).unwrap();
        let text = format!("id = \"combench/{id}\"\n{toml}");
        std::fs::write(item.join("item.toml"), text).unwrap();
    }
    let lock = verigate_registry::Lock::compute(&root).unwrap();
    lock.write(&root).unwrap();
    dir
}

fn construction(proof: &str, construction: &str) -> String {
    format!("## Solution to Question 1\n{proof}\n## Solution to Question 2\n{construction}\n")
}

#[test]
fn combench_scores_on_a_hand_made_case() {
    let dir = registry_with_hand_made_items();
    let registry = verigate_registry::Registry::open(&dir.path().join("registry")).unwrap();
    let good = construction("proof", "<construct>[3, 4, 5]</construct>");
    let bad = construction("proof", "<construct>\n[3, 4, 6]\n</construct>");
    // (item, response, judgment) → (outcome, construction, proof, proof_status, gated)
    type Case<'a> = (
        &'a str,
        String,
        &'a str,
        (&'a str, Option<u8>, Option<u8>, &'a str, Option<u8>),
    );
    let mut cases: Vec<Case> = Vec::new();
    // All 4 × 2 (p, c) pairs: 7 → 6 and 6 → 1 on a failed construction.
    for (p, j, gated_if_failed) in [
        (0, "\"proof_score\": 0", 0),
        (1, "\"proof_score\": 1", 1),
        (6, "\"proof_score\": 6", 1),
        (7, "\"proof_score\": 7", 6),
    ] {
        cases.push((
            "hand-c",
            good.clone(),
            j,
            ("pass", Some(1), Some(p), "judged", Some(p)),
        ));
        cases.push((
            "hand-c",
            bad.clone(),
            j,
            ("fail", Some(0), Some(p), "judged", Some(gated_if_failed)),
        ));
    }
    let seven = "\"proof_score\": 7";
    cases.extend([
        // Format failures: no verifier run, construction 0; the proof is
        // judged only when the sections parse.
        (
            "hand-c",
            construction("proof", "no block"),
            seven,
            ("missing_construct", Some(0), Some(7), "judged", Some(6)),
        ),
        (
            "hand-c",
            "## Solution\n<construct>[3, 4, 5]</construct>".to_owned(),
            seven,
            ("bad_sections", Some(0), None, "not_judged", None),
        ),
        (
            "hand-c",
            construction(
                "proof",
                "<construct>[3, 4, 5]</construct><construct>[3, 4, 5]</construct>",
            ),
            seven,
            ("multiple_constructs", Some(0), Some(7), "judged", Some(6)),
        ),
        (
            "hand-c",
            construction("proof <construct>", "<construct>[3, 4, 5]</construct>"),
            seven,
            ("multiple_constructs", Some(0), Some(7), "judged", Some(6)),
        ),
        (
            "hand-c",
            construction("proof", "</construct>[3, 4, 5]<construct>"),
            seven,
            ("malformed_construct", Some(0), Some(7), "judged", Some(6)),
        ),
        // Judgments: missing, unparsable, parsed from judge output.
        (
            "hand-c",
            good.clone(),
            "",
            ("pass", Some(1), None, "no_judgment", None),
        ),
        (
            "hand-c",
            good.clone(),
            "\"judge_output\": \"<points>5 out of 7</points>\"",
            ("pass", Some(1), None, "unparsable_judgment", None),
        ),
        (
            "hand-c",
            bad.clone(),
            "\"judge_output\": \"Nearly.\\n<points>6 out of 7</points>\"",
            ("fail", Some(0), Some(6), "judged", Some(1)),
        ),
        // Analysis items: the score is the proof score.
        (
            "hand-a",
            "## Solution\nA proof.".to_owned(),
            seven,
            ("no_verifier", None, Some(7), "judged", Some(7)),
        ),
        (
            "hand-a",
            " \n ".to_owned(),
            seven,
            ("bad_sections", None, None, "not_judged", None),
        ),
        (
            "hand-a",
            "A proof with <construct>1</construct>".to_owned(),
            seven,
            ("malformed_construct", None, None, "not_judged", None),
        ),
        (
            "hand-a",
            "Another proof.".to_owned(),
            "\"judge_output\": \"<points>1 out of 7</points>\"",
            ("no_verifier", None, Some(1), "judged", Some(1)),
        ),
    ]);
    let mut responses = String::new();
    let mut judgments = String::new();
    for (sample, (item, response, judgment, _)) in cases.iter().enumerate() {
        let id = format!("combench/{item}");
        let line = serde_json::json!({"id": id, "sample": sample, "response": response});
        responses.push_str(&format!("{line}\n"));
        if !judgment.is_empty() {
            judgments.push_str(&format!(
                "{{\"id\": \"{id}\", \"sample\": {sample}, {judgment}}}\n"
            ));
        }
    }
    let mut errors = Vec::new();
    let mut judgments =
        verigate_grading::grade::Judgments::read(judgments.as_bytes(), &registry, |e| {
            errors.push(e)
        });
    let sandbox = sandbox();
    let mut records = Vec::new();
    verigate_grading::grade::Grader {
        registry: &registry,
        sandbox: &sandbox,
        judgments: &mut judgments,
        workers: 2,
    }
    .grade(
        responses.as_bytes(),
        [],
        |r, _| records.push(r.clone()),
        |e| errors.push(e),
    )
    .unwrap();
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(records.len(), cases.len());
    let mut report = verigate_grading::report::Report::default();
    for (record, (item, _, _, expected)) in records.iter().zip(&cases) {
        let json = serde_json::to_value(record).unwrap();
        let got = (
            json["outcome"].as_str().unwrap(),
            record.construction,
            record.proof.map(u8::from),
            json["proof_status"].as_str().unwrap(),
            record.gated.map(u8::from),
        );
        assert_eq!(&got, expected, "{item} sample {}: {json}", record.sample);
        let score = expected.4.map_or(0.0, |g| f64::from(g) / 7.0);
        assert_eq!(record.score, score);
        report.add(record);
    }
    // Construction item: 16 samples, 6 accepted constructions (4 + 2).
    // Gated scores: 0+0+1+1+1+6+7+6 (the pairs) + 6+0+6+6+6 + 0+0+1 = 47, over 7 × 16.
    let summary = report.summary();
    let rows = &summary.benchmarks[0].by_type;
    let c = &rows[1].metrics;
    assert_eq!((c.items, c.samples), (1, 16));
    assert_eq!(c.construction, Some(6.0 / 16.0));
    assert!((c.avg - 47.0 / 112.0).abs() < 1e-12, "{}", c.avg);
    assert_eq!((c.best_at_k, c.pass_at_k, c.pass_all_k), (1.0, 1.0, 0.0));
    // Proofs: 0+0+1+1+6+6+7+7 + 7+0+7+7+7 + 0+0+6 = 62.
    assert!((c.proof.unwrap() - 62.0 / 112.0).abs() < 1e-12);
    // Analysis item: 7, unscored, unscored, 1 → 8 / 28.
    let a = &rows[0].metrics;
    assert!((a.avg - 8.0 / 28.0).abs() < 1e-12 && a.construction.is_none());
}

#[test]
fn bad_judgments_are_named_and_skipped() {
    let dir = registry_with_hand_made_items();
    std::fs::write(
        dir.path().join("responses.jsonl"),
        "{\"id\": \"combench/hand-a\", \"sample\": 0, \"response\": \"Proof.\"}\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("judgments.jsonl"),
        "{\"id\": \"combench/hand-a\", \"sample\": 0, \"proof_score\": 6}\n\
         {\"id\": \"combench/nope\", \"sample\": 0, \"proof_score\": 6}\n\
         {\"id\": \"combench/hand-a\", \"sample\": 1, \"proof_score\": 5}\n\
         {\"id\": \"combench/hand-a\", \"sample\": 2, \"proof_score\": 6, \"judge_output\": \"x\"}\n\
         {\"id\": \"combench/hand-a\", \"sample\": 3}\n\
         {\"id\": \"combench/hand-a\", \"sample\": 0, \"proof_score\": 7}\n\
         {\"id\": \"combench/hand-a\", \"sample\": 9, \"proof_score\": 7, \"judge\": \"j1\"}\n",
    )
    .unwrap();
    let results = dir.path().join("results.jsonl");
    let judgments = dir.path().join("judgments.jsonl");
    let out = grade(
        dir.path(),
        "responses.jsonl",
        results.to_str().unwrap(),
        &["--judgments", judgments.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    for (line, what) in [
        (2, "field `id`: no item `combench/nope`"),
        (3, "proof score 5 is not one of 0, 1, 6, 7"),
        (
            4,
            "fields `proof_score` and `judge_output`: give exactly one of them",
        ),
        (
            5,
            "fields `proof_score` and `judge_output`: give exactly one of them",
        ),
        (
            6,
            "field `sample`: a second judgment of item `combench/hand-a` sample 0 (the first is on line 1)",
        ),
    ] {
        let expected = format!("{}:{line}: {what}", judgments.display());
        assert!(err.contains(&expected), "{expected} not in\n{err}");
    }
    assert!(err.contains("5 bad input lines"), "{err}");
    assert!(
        err.contains("1 of 2 judgment(s) match no response"),
        "{err}"
    );
    let record: serde_json::Value =
        serde_json::from_str(std::fs::read_to_string(&results).unwrap().trim()).unwrap();
    assert_eq!(
        (record["proof"].as_u64(), record["gated"].as_u64()),
        (Some(6), Some(6))
    );
}
