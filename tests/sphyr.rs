//! The SPhyR verifier end to end through the sandbox: the item's row arrives
//! in `VERIGATE_ROW`, and the faithful and strict scores match values worked
//! out by hand.

mod common;

use common::*;
use verigate::{Outcome, RunRequest};

/// 3x3 item with two cells to fill: row 1 col 3 -> 1, row 3 col 1 -> 0.
const ROW: &str = r#"{"index":0,"input_grid":[["L","0","V"],["0","1","0"],["V","S","S"]],"ground_truth":[["L","0","1"],["0","1","0"],["0","S","S"]]}"#;

fn grade(payload: &str, row: Option<&str>) -> verigate::RunReport {
    let sandbox = sandbox();
    let verifier = load(&sandbox, &verifier_wasm("sphyr"));
    sandbox
        .run(
            &verifier,
            &RunRequest {
                payload: payload.as_bytes(),
                item_dir: None,
                limits: tight_limits(),
                protocol: None,
                row,
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
