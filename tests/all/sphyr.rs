//! The SPhyR verifier end to end through the sandbox: the item's row arrives
//! in `VERIGATE_ROW`, and the faithful and strict scores match values worked
//! out by hand; dataset files import as item families.

use crate::common::*;
use verigate::import::sphyr;
use verigate_registry::Registry;
use verigate_registry::maintain::verify;
use verigate_sandbox::{Outcome, Request};

/// 3x3 item with two cells to fill: row 1 col 3 -> 1, row 3 col 1 -> 0.
const ROW: &str = r#"{"index":0,"input_grid":[["L","0","V"],["0","1","0"],["V","S","S"]],"ground_truth":[["L","0","1"],["0","1","0"],["0","S","S"]]}"#;

fn grade(payload: &str, row: Option<&str>) -> verigate_sandbox::RunReport {
    let sandbox = sandbox();
    let verifier = load(&sandbox, &verifier_wasm("sphyr"));
    sandbox
        .run(
            &verifier,
            &Request {
                payload: payload.as_bytes().to_vec(),
                item_dir: None,
                limits: tight_limits(),
                protocol: None,
                row: row.map(Into::into),
            },
        )
        .expect("host error")
}

#[test]
fn the_row_reaches_the_guest_and_scores_match_the_hand_computed_ones() {
    let exact = grade("L 0 1\n0 1 0\n0 S S\n", Some(ROW));
    assert_eq!((exact.outcome, exact.score), (Outcome::Pass, 1.0));

    // One of the two cells to fill is wrong: 1 - 1/2.
    let half = grade("L 0 1\n0 1 0\n1 S S", Some(ROW));
    assert_eq!((half.passed, half.score), (false, 0.5));
    let details = half.details.expect("details");
    assert_eq!(details["diff_output"], 1);
    assert_eq!(details["diff_input"], 2);
    assert_eq!(details["strict"]["score"], 0.5);
    assert!(
        half.message.contains("row 3 col 1 expected 0, got 1"),
        "{}",
        half.message
    );

    // A missing row zips away: faithful exact match, strict rejection.
    let short = grade("L 0 1\n0 1 0", Some(ROW));
    assert!(short.passed);
    let details = short.details.expect("details");
    assert_eq!(details["strict"]["pass"], false);
    assert_eq!(
        details["strict"]["message"],
        "the answer has 2 rows, expected 3"
    );
}

#[test]
fn without_a_row_the_guest_fails_clearly() {
    let report = grade("L 0 1", None);
    assert!(!report.passed);
    assert!(
        report.message.contains("VERIGATE_ROW is not set"),
        "{}",
        report.message
    );
}

/// Two rows in the dataset's format: lists of cell strings, and the older
/// text form of the grids.
const DATASET: &str = concat!(
    r#"{"index": 0, "input_grid": [["L","V","L"],["0","1","0"],["S","V","S"]], "ground_truth": [["L","1","L"],["0","1","0"],["S","1","S"]]}"#,
    "\n",
    r#"{"index": 7, "input_grid": "L L\nV S", "ground_truth": "L L\n1 S"}"#,
    "\n"
);

#[test]
fn dataset_files_import_as_a_family_whose_rows_grade_and_verify() {
    let registry = scratch_registry();
    let root = registry.path();
    let data = tempdir_with(&[("tiny_easy.jsonl", DATASET)]);
    let file = data.path().join("tiny_easy.jsonl");
    let imported = sphyr::import(root, &[file.as_path()], None).expect("import");
    assert_eq!(
        (imported[0].family.as_str(), imported[0].rows),
        ("sphyr/tiny_easy", 2)
    );
    // Two files, not a directory per row.
    let dir = root.join("items/sphyr/tiny_easy");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    files.sort();
    assert_eq!(files, ["family.toml", "rows.jsonl"]);

    let opened = Registry::open(root).expect("the import keeps the lock valid");
    let item = opened.item("sphyr/tiny_easy/7").expect("the row's item");
    assert_eq!(item.reference.as_deref(), Some("L L\n1 S"));
    assert_eq!(item.counterexamples[0].payload, "L L\nV S");
    assert_eq!(item.metadata.category.as_deref(), Some("tiny_easy"));

    // The witnesses of every row (and of the rest of the registry) hold.
    let report = verify(root, &sandbox());
    assert!(report.problems.is_empty(), "{:#?}", report.problems);

    // The row reaches the guest when an item of the family is run.
    let (path, _) = opened.module("sphyr").unwrap();
    let sandbox = sandbox();
    let verifier = load(&sandbox, &path);
    let run = sandbox
        .run(
            &verifier,
            &Request {
                payload: b"L 1 L\n0 1 0\nS 0 S".to_vec(),
                item_dir: None,
                limits: tight_limits(),
                protocol: None,
                row: item_row(&opened, "sphyr/tiny_easy/0"),
            },
        )
        .unwrap();
    assert_eq!((run.passed, run.score), (false, 0.5));
}

fn item_row(registry: &Registry, id: &str) -> Option<std::sync::Arc<str>> {
    registry.item(id).unwrap().row.clone()
}

#[test]
fn a_bad_dataset_file_is_refused_by_file_line_and_field_and_nothing_is_written() {
    let registry = scratch_registry();
    let root = registry.path();
    let before = snapshot(root);
    let cases = [
        (
            "bad_easy.jsonl",
            format!("{DATASET}{{\"index\": 9, \"input_grid\": [[\"V\"]]}}\n"),
            "bad_easy.jsonl:3: field `ground_truth`: missing",
        ),
        (
            "dup_hard.jsonl",
            format!("{DATASET}{DATASET}"),
            "dup_hard.jsonl:3: field `index`: 0 appears twice",
        ),
        (
            "odd_medium.jsonl",
            DATASET.to_string(),
            "must end in `_easy` or `_hard`",
        ),
    ];
    for (name, text, expected) in cases {
        let data = tempdir_with(&[("fine_easy.jsonl", DATASET), (name, &text)]);
        let files = [data.path().join("fine_easy.jsonl"), data.path().join(name)];
        let files: Vec<_> = files.iter().map(|f| f.as_path()).collect();
        let error = sphyr::import(root, &files, None).unwrap_err();
        assert!(error.0.contains(expected), "{error}");
        assert!(snapshot(root) == before, "{name}: the registry changed");
    }
}

/// One stored result of SPhyR's own evaluation (`results/<model>/<config>_results.json`).
#[derive(serde::Deserialize)]
struct StoredResult {
    model: String,
    subject: String,
    input_grid: String,
    ground_truth: String,
    completion: String,
    exact_match: bool,
    score: f64,
    normnalized_score: f64,
}

/// A text grid as the row's list form (rows on lines, cells split on whitespace).
fn cells(text: &str) -> Vec<Vec<&str>> {
    text.lines()
        .map(|l| l.split_whitespace().collect())
        .collect()
}

#[test]
fn verdicts_agree_with_the_scores_sphyr_stored_for_real_model_outputs() {
    let path = repo_root().join("tests/fixtures/sphyr/agreement.jsonl");
    let text = std::fs::read_to_string(&path).expect("the fixture file");
    let sandbox = sandbox();
    let verifier = load(&sandbox, &verifier_wasm("sphyr"));
    let mut disagreements = Vec::new();
    let mut per_model = std::collections::BTreeMap::<String, (usize, usize)>::new();
    for (number, line) in text.lines().enumerate() {
        let stored: StoredResult = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("{}:{}: {e}", path.display(), number + 1));
        let row = serde_json::json!({
            "index": number,
            "input_grid": cells(&stored.input_grid),
            "ground_truth": cells(&stored.ground_truth),
        })
        .to_string();
        let run = sandbox
            .run(
                &verifier,
                &Request {
                    payload: stored.completion.as_bytes().to_vec(),
                    item_dir: None,
                    limits: tight_limits(),
                    protocol: None,
                    row: Some(row.as_str().into()),
                },
            )
            .expect("host error");
        let details = run.details.clone().unwrap_or_default();
        let got = (
            details["exact"].as_bool(),
            details["raw_score"].as_f64(),
            details["normalized_score"].as_f64(),
        );
        let expected = (
            Some(stored.exact_match),
            Some(stored.score),
            Some(stored.normnalized_score),
        );
        let tally = per_model.entry(stored.model.clone()).or_default();
        tally.0 += 1;
        if got == expected && run.passed == stored.exact_match {
            tally.1 += 1;
        } else {
            disagreements.push(format!(
                "line {} ({} {}): stored {expected:?}, verigate {got:?} ({})",
                number + 1,
                stored.model,
                stored.subject,
                run.message
            ));
        }
    }
    for (model, (pairs, agree)) in &per_model {
        println!("{model:<32} {agree}/{pairs} agree");
    }
    assert!(per_model.values().map(|t| t.0).sum::<usize>() >= 20);
    assert!(disagreements.is_empty(), "{disagreements:#?}");
}
