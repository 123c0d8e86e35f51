//! Positive controls: honest verifiers built with the SDK pass and fail on the
//! right payloads, and their declared protocol is honoured.

use crate::common::*;
use verigate_sandbox::{Outcome, Protocol};

#[test]
fn derangement_verifier_scores_payloads_against_its_item() {
    let sandbox = sandbox();
    let verifier = load(&sandbox, &verifier_wasm("toy-derangement"));
    assert_eq!(verifier.declared_protocol, Some(Protocol::VerdictJson));
    let item = tempdir_with(&[("instance.json", r#"{"n": 4}"#)]);
    let grade = |payload: &str| {
        run_with(
            &sandbox,
            &verifier,
            payload,
            Some(item.path()),
            tight_limits(),
            None,
        )
    };

    let good = grade("[2, 1, 4, 3]");
    assert_eq!(
        (good.outcome, good.score, good.protocol),
        (Outcome::Pass, 1.0, Protocol::VerdictJson)
    );
    let fixed = grade("[1, 3, 4, 2]");
    assert_eq!(fixed.outcome, Outcome::Fail);
    assert!(fixed.message.contains("fixed point"), "{}", fixed.message);
    let short = grade("[2, 1, 4]");
    assert!(
        short.message.contains("length 3, expected 4"),
        "{}",
        short.message
    );
    let broken = grade("[2, 1,\n 4");
    assert_eq!(broken.outcome, Outcome::Fail);
    assert!(
        broken.message.contains("line 2"),
        "JSON errors name the line: {}",
        broken.message
    );

    let missing_item = run_with(&sandbox, &verifier, "[2, 1]", None, tight_limits(), None);
    assert_eq!(missing_item.outcome, Outcome::Fail);
    assert!(
        missing_item.message.contains("/item/instance.json"),
        "{}",
        missing_item.message
    );
}

#[test]
fn sum_square_verifier_speaks_combench() {
    let sandbox = sandbox();
    let verifier = load(&sandbox, &verifier_wasm("toy-sum-square"));
    assert_eq!(verifier.declared_protocol, Some(Protocol::Combench));
    let grade = |payload: &str| run_with(&sandbox, &verifier, payload, None, tight_limits(), None);
    assert_eq!(grade("[3, 4, 5]").outcome, Outcome::Pass);
    assert_eq!(grade("[20, 21, 29]").outcome, Outcome::Pass);
    let wrong = grade("[2, 3, 4]");
    assert_eq!(wrong.outcome, Outcome::Fail);
    assert_eq!(wrong.message, "2^2 + 3^2 = 13 but 4^2 = 16");
    assert_eq!(grade("not json").outcome, Outcome::Fail);
}
