use super::*;
use verigate_sdk::RAISED as RAISES;
use verigate_sdk::serde_json::Value as Json;

const SP0: Instance = Instance {
    inner_cm: 4.0,
    outer_cm: 7.0,
    fn_: 16,
};

fn answer(bricks: &[(&str, &str)]) -> String {
    let items: Vec<String> = bricks
        .iter()
        .map(|(c, r)| format!("{{'Centroid': [{c}], 'RotationDegrees': {r}}}"))
        .collect();
    format!("{{'reasoning': 'x', 'bricks': [{}]}}", items.join(", "))
}

fn graded(bricks: &[(&str, &str)]) -> (bool, f64, String, Json) {
    let v = verigate_sdk::serde_json::to_value(grade(&SP0, &answer(bricks))).unwrap();
    (
        v["pass"].as_bool().unwrap(),
        v["score"].as_f64().unwrap(),
        v["message"].as_str().unwrap_or("").to_owned(),
        v["details"].clone(),
    )
}

/// The structural verdict only: `None` when both tests pass.
fn structure(bricks: &[(&str, &str)]) -> Option<String> {
    let (_, _, message, details) = graded(bricks);
    details["volumes"].is_null().then_some(message)
}

// The original's own `__main__` cases (subpass 0: radii 40 and 70 mm).

#[test]
fn originals_should_pass_cases() {
    let cases: &[&[(&str, &str)]] = &[
        &[("55, 0, 4.8", "0")],
        &[("55, 0, 4.8", "0"), ("-55, 0, 4.8", "5")],
        &[("55, 0, 4.8", "0"), ("55, 0, 14.4", "0")],
        &[("55, 0, 4.8", "0"), ("55, 0, 14.4", "90")],
        &[("55, 0, 4.8", "-45"), ("55, 0, 14.4", "45")],
        &[
            ("55, -8, 4.8", "0"),
            ("55, 8, 4.8", "180"),
            ("47, 0, 14.4", "90"),
            ("63, 0, 14.4", "270"),
        ],
        &[("55, 0, 4.8", "0"), ("63, 0, 14.4", "0")],
        &[("55, 0, 4.8", "90")],
        &[("55, 0, 4.8", "45")],
        &[
            ("55, 0, 4.8", "0"),
            ("0, 55, 4.8", "90"),
            ("-55, 0, 4.8", "0"),
            ("0, -55, 4.8", "90"),
        ],
        &[
            ("55, 0, 4.8", "0"),
            ("55, 0, 14.4", "0"),
            ("63, 0, 24.0", "0"),
            ("63, 0, 14.4", "0"),
        ],
    ];
    for case in cases {
        assert_eq!(structure(case), None, "{case:?}");
    }
}

#[test]
fn originals_should_fail_cases_with_their_messages() {
    let early = |b: &[(&str, &str)]| structure(b).unwrap();
    assert_eq!(graded(&[]).2, "Early failure: No bricks provided");
    assert_eq!(
        early(&[("55, 0, 0", "0")]),
        "Early failure: Brick {'Centroid': [55, 0, 0], 'RotationDegrees': 0} Z=0 not at valid layer height (should be 4.8 + n*9.6)"
    );
    assert_eq!(
        early(&[("0, 0, 4.8", "0")]),
        "Early failure: A brick {'Centroid': [0, 0, 4.8], 'RotationDegrees': 0} wholly inside the inner sphere is redundant"
    );
    assert_eq!(
        early(&[("55, 0, 10", "0")]),
        "Early failure: Brick {'Centroid': [55, 0, 10], 'RotationDegrees': 0} Z=10 not at valid layer height (should be 4.8 + n*9.6)"
    );
    assert_eq!(
        early(&[("55, 0, 4.8", "0"), ("55, 0, 14.4", "30")]),
        "Stud grid misalignment: bricks at same center but 30.0° relative rotation"
    );
    assert_eq!(
        early(&[("55, 0, 4.8", "0"), ("55, 0, 12.0", "0")]),
        "Early failure: Brick {'Centroid': [55, 0, 12.0], 'RotationDegrees': 0} Z=12.0 not at valid layer height (should be 4.8 + n*9.6)"
    );
    assert_eq!(
        early(&[("55, 0, 4.8", "0"), ("55, 0, 4.8", "0")]),
        "Early failure: Duplicate brick at {'Centroid': [55, 0, 4.8], 'RotationDegrees': 0}"
    );
    assert_eq!(
        early(&[("55, 0, 4.8", "0"), ("60, 0, 14.4", "0")]),
        "Stud grid misalignment in connected component: brick {'Centroid': [55, 0, 4.8], 'RotationDegrees': 0} grid (3.0, 4.0) vs brick {'Centroid': [60, 0, 14.4], 'RotationDegrees': 0} grid (0.0, 4.0)"
    );
    assert_eq!(
        early(&[
            ("55, 0, 4.8", "0"),
            ("79, 0, 14.4", "0"),
            ("103, 0, 24.0", "0"),
            ("127, 0, 33.6", "0")
        ]),
        "Early failure: A brick {'Centroid': [103, 0, 24.0], 'RotationDegrees': 0} wholly outside the outer sphere is a waste"
    );
    assert_eq!(
        early(&[("100, 0, 4.8", "0")]),
        "Early failure: A brick {'Centroid': [100, 0, 4.8], 'RotationDegrees': 0} wholly outside the outer sphere is a waste"
    );
    assert_eq!(
        early(&[
            ("55, 0, 4.8", "0"),
            ("95, 0, 24.0", "0"),
            ("95, 0, 14.4", "0")
        ]),
        "Early failure: A brick {'Centroid': [95, 0, 24.0], 'RotationDegrees': 0} wholly outside the outer sphere is a waste"
    );
}

#[test]
fn stability_and_support() {
    // The staircase, inside the outer sphere of subpass 7 would pass the bounds; at
    // subpass 0 a smaller staircase shows the centre-of-mass check.
    assert_eq!(
        structure(&[("45, 0, 4.8", "0"), ("69, 0, 14.4", "0"), ("69, 0, 24.0", "0"), ("69, 0, 33.6", "0")]),
        Some("Structure unstable: center of mass (63.0, 0.0) is outside support polygon of ground bricks".into())
    );
    assert_eq!(
        structure(&[("55, 0, 4.8", "0"), ("55, 40, 14.4", "0")]),
        Some("Brick {'Centroid': [55, 40, 14.4], 'RotationDegrees': 0} is floating (not supported from below or held from above)".into())
    );
}

#[test]
fn volumes_and_the_original_score_steps() {
    // One brick fully inside the shell: I = R = 4915.2; D = Ref − 4915.2.
    let (pass, s, message, details) = graded(&[("55, 0, 4.8", "90")]);
    assert!(!pass);
    let reference = 547_863.295_324_897_3;
    let raw = 4915.2 / reference - 0.5 * (reference - 4915.2) / reference;
    assert!((details["raw_score"].as_f64().unwrap() - raw).abs() < 1e-9);
    assert_eq!(s, 0.0);
    assert!(
        message.contains("<tr><td>Result Volume:</td><td>4915.20</td></tr>"),
        "{message}"
    );
    assert!(
        message.ends_with("Score was renormalised: -0.49 -> -0.75\n"),
        "{message}"
    );
}

#[test]
fn score_function_follows_volume_comparison() {
    let v = |r: f64, i: f64| Volumes {
        result: r,
        reference: 1000.0,
        intersection: i,
        difference: r + 1000.0 - 2.0 * i,
        shared: 0.0,
        overlapping: None,
    };
    // Perfect: 1 → 1/0.65 capped at 1.
    assert_eq!(score(&v(1000.0, 1000.0), 1).0, 1.0);
    // I = 900, R = 950: min(0.9, 0.95) − 0.5·(150/1000) = 0.825 → 1.
    assert_eq!(score(&v(950.0, 900.0), 1).0, 1.0);
    // I = 700, R = 800: 0.7 − 0.5·0.4 = 0.5 → 0.5 / 0.65.
    let (s, raw, text) = score(&v(800.0, 700.0), 1);
    assert!((raw - 0.5).abs() < 1e-12);
    assert!((s - raw / 0.65).abs() < 1e-15);
    assert!(text.ends_with("Score was renormalised: 0.50 -> 0.77\n"));
    // validatePostVolume fires only 1000 bricks away from Ref / 4915.2.
    let (_, raw, text) = score(&v(800.0, 700.0), 1001);
    assert!((raw - 0.0).abs() < 1e-12);
    assert!(text.contains("50% penalty due to bricks overlapping: Volume error of 1001mm3"));
}

#[test]
fn overlaps_count_once_and_fail_the_corrected_judgement() {
    // Two bricks crossing on the ground, studs aligned: the original lets them through.
    let (_, _, _, details) = graded(&[("55, 0, 4.8", "90"), ("55, 0, 4.8", "0")]);
    let union = details["volumes"]["result"].as_f64().unwrap();
    assert!(
        (union - (2.0 * 4915.2 - 16.0 * 16.0 * 9.6)).abs() < 1e-6,
        "{union}"
    );
    assert_eq!(details["corrected"]["pass"], false);
    assert!(
        details["corrected"]["message"]
            .as_str()
            .unwrap()
            .starts_with("bricks 0 and 1 overlap by 2457.6 mm³")
    );
}

#[test]
fn unrotated_corner_quirk() {
    // Rotated 90°, this brick spans x ∈ [70, 86], |y| ≤ 16: every corner lies beyond the
    // 70 mm sphere. The original tests the unrotated corners, x ∈ [62, 94], |y| ≤ 8, and
    // (62, ±8, 0) is inside, so it passes.
    let b = [("78, 0, 4.8", "90")];
    let (_, _, _, details) = graded(&b);
    assert!(!details["volumes"].is_null());
    assert_eq!(details["volumes"]["intersection"], 0.0);
    assert_eq!(
        details["corrected"]["message"],
        "Early failure: A brick {'Centroid': [78, 0, 4.8], 'RotationDegrees': 90} wholly outside the outer sphere is a waste"
    );
}

#[test]
fn raises_and_falsy_answers() {
    let msg = |t: &str| {
        verigate_sdk::serde_json::to_value(grade(&SP0, t)).unwrap()["message"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert_eq!(msg("{}"), Verdict::falsy_answer().message().unwrap());
    assert!(msg("{'bricks': [{'Centroid': [0], 'RotationDegrees': 0}]}").ends_with(RAISES));
    assert!(msg("{'reasoning': ''}").ends_with(RAISES));
    assert!(msg("{'bricks': [{'Centroid': [55, 0, 4.8]}]}").ends_with(RAISES));
    assert_eq!(msg("{'bricks': []}"), "Early failure: No bricks provided");
}

#[test]
fn python_modulo_and_rounding() {
    assert_eq!(checks::py_mod(-12.0, 8.0), 4.0);
    assert_eq!(checks::py_mod(-0.0, 8.0).to_bits(), 0.0f64.to_bits());
    assert_eq!(checks::py_mod(-450.0, 180.0), 90.0);
    let r = Rounder::new();
    assert_eq!(r.round(2.675, 2), 2.67);
    assert_eq!(r.round(0.25, 1), 0.2);
}

#[test]
fn unreadable_scad_numbers_drop_the_translate() {
    // `True` passes the checks as 1, but OpenSCAD reads `True` as an unknown name and
    // ignores the translate: the brick sits at the origin, in the hollow.
    let (_, _, _, details) = graded(&[("55, True, 4.8", "0")]);
    assert_eq!(details["volumes"]["result"], 4915.2);
    assert_eq!(details["volumes"]["intersection"], 0.0);
    let (_, _, _, details) = graded(&[("55, 1, 4.8", "0")]);
    assert!(details["volumes"]["intersection"].as_f64().unwrap() > 4000.0);
}
