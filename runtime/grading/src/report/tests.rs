//! Every metric on a small hand-made case, computed by hand.

use super::*;
use crate::benchmark::combench::ProofScore;
use crate::grade::{GradeOutcome, ProofStatus};
use verigate_sandbox::Outcome;

/// A record with the fields metrics read; `gated` and `score` are given, not derived.
fn record(
    id: &str,
    kind: ItemKind,
    category: &str,
    sample: u32,
    proof: Option<u8>,
    construction: Option<u8>,
    gated: Option<u8>,
) -> GradeRecord {
    let score = |p: u8| ProofScore::new(p).unwrap();
    GradeRecord {
        id: id.into(),
        sample: sample.into(),
        benchmark: "combench".into(),
        kind,
        category: Some(category.into()),
        outcome: GradeOutcome::Run(if construction == Some(1) {
            Outcome::Pass
        } else {
            Outcome::Fail
        }),
        message: String::new(),
        details: None,
        construction,
        proof: proof.map(score),
        proof_status: Some(if proof.is_some() {
            ProofStatus::Judged
        } else {
            ProofStatus::NoJudgment
        }),
        gated: gated.map(score),
        score: gated.map_or(0.0, |g| f64::from(g) / 7.0),
        fuel_consumed: 0,
        module: None,
        module_sha256: None,
        script_sha256: None,
        response_sha256: None,
        registry_digest: "d".into(),
        verigate_version: "v".into(),
        engine_fingerprint: "e".into(),
    }
}

fn hand_made() -> Summary {
    use ItemKind::{Analysis as A, Construction as C};
    let mut report = Report::default();
    for r in [
        // Analysis: the score is the proof score.
        record("A1", A, "X", 0, Some(7), None, Some(7)),
        record("A1", A, "X", 1, None, None, None),
        record("A2", A, "Y", 0, Some(1), None, Some(1)),
        record("A2", A, "Y", 1, Some(6), None, Some(6)),
        // Construction: the score is the gated score.
        record("C1", C, "X", 0, Some(7), Some(1), Some(7)),
        record("C1", C, "X", 1, Some(7), Some(1), Some(7)),
        record("C2", C, "Y", 0, Some(7), Some(0), Some(6)),
        record("C2", C, "Y", 1, Some(6), Some(0), Some(1)),
        // A repeated (id, sample) is ignored.
        record("A1", A, "X", 0, Some(0), None, Some(0)),
    ] {
        report.add(&r);
    }
    report.summary()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

#[track_caller]
fn check(row: &Row, expected: [f64; 4], proof: f64, construction: Option<f64>) {
    let m = &row.metrics;
    let got = [m.avg, m.best_at_k, m.pass_at_k, m.pass_all_k];
    for (name, (g, e)) in ["avg", "best", "pass@k", "pass^k"]
        .iter()
        .zip(got.iter().zip(expected))
    {
        assert!(close(*g, e), "{}: {name} = {g}, expected {e}", row.group);
    }
    assert!(
        close(m.proof.unwrap(), proof),
        "{}: proof {:?}",
        row.group,
        m.proof
    );
    match (m.construction, construction) {
        (Some(g), Some(e)) => assert!(close(g, e), "{}: construction {g}", row.group),
        (g, e) => assert_eq!(g, e, "{}: construction", row.group),
    }
}

#[test]
fn metrics_by_type() {
    let summary = hand_made();
    assert_eq!(summary.duplicates, 1);
    let bench = &summary.benchmarks[0];
    let groups: Vec<&str> = bench.by_type.iter().map(|r| r.group.as_str()).collect();
    assert_eq!(
        groups,
        ["Analysis-centric", "Construction-centric", "Overall"]
    );
    // Analysis scores 7, 0, 1, 6 (/7): mean 14/28; bests 7 and 6: 13/14;
    // A1 solved once, A2 never.
    check(&bench.by_type[0], [0.5, 13.0 / 14.0, 0.5, 0.0], 0.5, None);
    // Gated 7, 7, 6, 1 (/7): mean 21/28; bests 7 and 6; C1 solved twice.
    // Proofs 7, 7, 7, 6: 27/28; constructions 2 of 4.
    check(
        &bench.by_type[1],
        [0.75, 13.0 / 14.0, 0.5, 0.5],
        27.0 / 28.0,
        Some(0.5),
    );
    // All eight: scores sum 35/7 = 5 over 8; proofs 41/7 over 8.
    check(
        &bench.by_type[2],
        [0.625, 13.0 / 14.0, 0.5, 0.25],
        41.0 / 56.0,
        Some(0.5),
    );
    let overall = &bench.by_type[2].metrics;
    assert_eq!(
        (overall.items, overall.samples, overall.k_min, overall.k_max),
        (4, 8, 2, 2)
    );
}

#[test]
fn metrics_by_category() {
    let summary = hand_made();
    let bench = &summary.benchmarks[0];
    let groups: Vec<&str> = bench.by_category.iter().map(|r| r.group.as_str()).collect();
    assert_eq!(groups, ["X", "Y"]);
    // X: A1 (7, unscored) and C1 (7, 7): scores 1, 0, 1, 1; proofs 7, 0, 7, 7.
    check(
        &bench.by_category[0],
        [0.75, 1.0, 1.0, 0.5],
        21.0 / 28.0,
        Some(1.0),
    );
    // Y: A2 (1, 6) and C2 (6, 1): scores 2/4; proofs 1, 6, 7, 6 = 20/28.
    check(
        &bench.by_category[1],
        [0.5, 6.0 / 7.0, 0.0, 0.0],
        20.0 / 28.0,
        Some(0.0),
    );
}

#[test]
fn outcome_and_proof_status_counts() {
    let bench = &hand_made().benchmarks[0];
    let pairs =
        |m: &BTreeMap<String, usize>| m.iter().map(|(k, v)| (k.clone(), *v)).collect::<Vec<_>>();
    assert_eq!(
        pairs(&bench.outcomes),
        [("fail".to_owned(), 6), ("pass".to_owned(), 2)]
    );
    assert_eq!(
        pairs(&bench.proof_status),
        [("judged".to_owned(), 7), ("no_judgment".to_owned(), 1)]
    );
}

#[test]
fn uneven_sample_counts_and_benchmarks_without_proofs() {
    let mut report = Report::default();
    for (sample, score) in [(0, 1.0), (1, 0.25), (2, 0.0)] {
        let mut r = record(
            "t/a",
            ItemKind::Construction,
            "Z",
            sample,
            None,
            Some(0),
            None,
        );
        (r.benchmark, r.proof_status, r.score) = ("toy".into(), None, score);
        report.add(&r);
    }
    let mut r = record("t/b", ItemKind::Construction, "Z", 0, None, Some(1), None);
    (r.benchmark, r.proof_status, r.score) = ("toy".into(), None, 0.5);
    report.add(&r);
    let bench = &report.summary().benchmarks[0];
    assert!(!bench.proof_judged);
    let m = &bench.by_type[1].metrics;
    assert_eq!((m.k_min, m.k_max, m.samples), (1, 3, 4));
    assert!(close(m.avg, 1.75 / 4.0));
    assert!(close(m.best_at_k, 0.75));
    assert_eq!((m.pass_at_k, m.pass_all_k, m.proof), (0.5, 0.0, None));
    assert_eq!(m.construction, Some(0.25));
}

fn detailed(
    benchmark: &str,
    id: &str,
    sample: u32,
    score: f64,
    details: serde_json::Value,
) -> GradeRecord {
    GradeRecord {
        benchmark: benchmark.into(),
        category: None,
        proof_status: None,
        proof: None,
        gated: None,
        construction: Some(u8::from(score == 1.0)),
        score,
        details: Some(details),
        ..record(id, ItemKind::Construction, "-", sample, None, None, None)
    }
}

#[test]
fn detail_columns_and_id_families() {
    use serde_json::json;
    let mut report = Report::default();
    // Tangram: booleans average as rates, Hausdorff as a plain mean; a
    // sample whose details lack a key does not count for that key.
    for (sample, tse, iou, hausdorff) in [(0, true, 1.0, 0.0), (1, false, 0.5, 0.3)] {
        let details = json!({"tse": tse, "iou": iou, "hausdorff": hausdorff, "extra": "ignored"});
        report.add(&detailed("tangram", "tangram/square", sample, iou, details));
    }
    report.add(&detailed(
        "tangram",
        "tangram/boat",
        0,
        0.0,
        json!({"iou": 0.25}),
    ));
    // SPhyR: nested keys; two families (configs).
    report.add(&detailed(
        "sphyr",
        "sphyr/easy/0",
        0,
        1.0,
        json!({"exact": true, "strict": {"score": 1.0}}),
    ));
    report.add(&detailed(
        "sphyr",
        "sphyr/hard/0",
        0,
        0.5,
        json!({"exact": false, "strict": {"score": 0.0}}),
    ));
    let summary = report.summary();

    let tangram = &summary.benchmarks[1];
    assert_eq!(tangram.benchmark, "tangram");
    let overall = &tangram.by_type.last().unwrap().metrics.details;
    assert!(close(overall["tse"], 0.5));
    assert!(close(overall["iou"], (1.0 + 0.5 + 0.25) / 3.0));
    assert!(close(overall["hausdorff"], 0.15));
    assert!(!overall.contains_key("extra") && !overall.contains_key("success"));
    // `tangram/square` and `tangram/boat` are one family: no family table.
    assert!(tangram.by_family.is_empty());

    let sphyr = &summary.benchmarks[0];
    let families: Vec<&str> = sphyr.by_family.iter().map(|r| r.group.as_str()).collect();
    assert_eq!(families, ["sphyr/easy", "sphyr/hard"]);
    assert!(close(
        sphyr.by_family[0].metrics.details["strict.score"],
        1.0
    ));
    assert!(close(
        sphyr.by_type.last().unwrap().metrics.details["exact"],
        0.5
    ));

    // ComBench (one family) gets no family table.
    assert!(hand_made().benchmarks[0].by_family.is_empty());
}

#[test]
fn standard_errors_over_items_and_the_unbiased_pass_at_1() {
    use ItemKind::Construction as C;
    let mut report = Report::default();
    for r in [
        record("C1", C, "X", 0, Some(7), Some(1), Some(7)),
        record("C1", C, "X", 1, Some(7), Some(1), Some(7)),
        record("C2", C, "X", 0, Some(7), Some(0), Some(6)),
        record("C2", C, "X", 1, Some(6), Some(0), Some(1)),
    ] {
        report.add(&r);
    }
    let summary = report.summary();
    let m = &summary.benchmarks[0].by_type[0].metrics;
    // Scores 1, 1 and 6/7, 1/7: Avg. 0.75; item sums 2 and 1 over 2 samples each:
    // √(2/1 · (0.5² + 0.5²)) / 4 = 0.25.
    assert!(close(m.avg, 0.75));
    assert!(close(m.avg_se.unwrap(), 0.25));
    // C1 solved by both samples, C2 by none: Pass@1 = 0.5, its error √0.5/√2 = 0.5.
    assert!(close(m.pass_at_1, 0.5));
    assert!(close(m.pass_at_1_se.unwrap(), 0.5));
    assert!(close(m.pass_at_k_se.unwrap(), 0.5));
}
