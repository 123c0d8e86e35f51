//! Hand-worked cases; `differential` compares with the generator's Python restatement.

use super::*;
use verigate_sdk::RAISED;

fn instance(pipes: usize, boundary: i64, preset: Option<&str>, comps: &str) -> Instance {
    let text = format!(
        r#"{{"pipes": {pipes}, "boundary": {boundary}, "tolerance": 0.05, "preset": {}, "complications": {comps}}}"#,
        preset.map_or("null".to_owned(), |p| format!("\"{p}\""))
    );
    verigate_sdk::serde_json::from_str(&text).unwrap()
}

fn answer(pts: &[(f64, f64)]) -> String {
    let items: Vec<String> = pts
        .iter()
        .map(|(x, y)| format!("{{'x': {x:?}, 'y': {y:?}}}"))
        .collect();
    format!("{{'points': [{}]}}", items.join(", "))
}

fn run(inst: &Instance, text: &str) -> (f64, String, verigate_sdk::serde_json::Value) {
    let v = verigate_sdk::serde_json::to_value(grade(inst, text)).unwrap();
    (
        v["score"].as_f64().unwrap(),
        v["message"].as_str().unwrap_or("").to_owned(),
        v["details"].clone(),
    )
}

const TRIANGLE: [(f64, f64); 3] = [(0.0, 0.0), (1.0, 0.0), (0.5, 0.8660254037844386)];
/// Four points whose first and third segments cross once.
const CURL: [(f64, f64); 4] = [(0.0, 0.0), (0.3, 1.0), (0.3, 0.0), (0.0, 1.0)];

#[test]
fn a_valid_loop_passes() {
    let (score, message, details) = run(&instance(3, 1, None, "[]"), &answer(&TRIANGLE));
    assert_eq!(score, 1.0);
    assert_eq!(
        message,
        "Valid loop for preset 'None' with 3 points and 0 crossings"
    );
    assert_eq!(details["corrected"]["pass"], true);
}

#[test]
fn parsing_follows_gradeanswer() {
    let inst = instance(3, 1, None, "[]");
    assert_eq!(
        run(&inst, "{'points': ({'x': 0, 'y': 0},)}").1,
        "Answer must contain a 'points' array"
    );
    assert_eq!(
        run(&inst, "[1, 2]").1,
        "Answer must contain a 'points' array"
    );
    assert_eq!(
        run(&inst, "{'points': [{'x': 0, 'y': 0}, 5]}").1,
        "Point 1 is not an object"
    );
    assert_eq!(
        run(&inst, "{'points': [{'x': 0}]}").1,
        "Point 0 is missing numeric x/y"
    );
    assert_eq!(
        run(&inst, "{'points': [{'x': 'a', 'y': 0}]}").1,
        "Point 0 is missing numeric x/y"
    );
    assert_eq!(
        run(&inst, "{'points': [{'x': None, 'y': 0}]}").1,
        "Point 0 is missing numeric x/y"
    );
    assert_eq!(
        run(&inst, "{'points': [{'x': 0, 'y': 0}]}").1,
        "Answer must contain at least 3 points"
    );
    assert!(
        run(&inst, "{'points': [{'x': 10**400, 'y': 0}]}")
            .1
            .ends_with(RAISED)
    );
    assert!(run(&inst, "").1.starts_with("empty answer"));
    // Numeric strings and bools go through float().
    let text = "{'points': [{'x': '0', 'y': False}, {'x': True, 'y': ' 0.0 '}, {'x': 0.5, 'y': 0.8660254037844386}]}";
    assert_eq!(run(&inst, text).0, 1.0);
}

#[test]
fn errors_accumulate_in_order() {
    let inst = instance(4, 1, None, "[]");
    let (score, message, _) = run(&inst, &answer(&[(0.0, 0.0), (1.0, 0.0), (1.0, 1.5)]));
    assert_eq!(score, 0.0);
    assert_eq!(
        message,
        "Validation failed:\n\
         1. count_mismatch: Expected 4 points (for 4 pipe segments), got 3 @ {'expected': 4, 'actual': 3}\n\
         2. boundary: Point 2 (1.000, 1.500) is outside [0, 1] @ {'point_index': 2}\n\
         3. segment_length: Segment 1 length 1.5000, expected 1.0 ± 0.05 @ {'segment_index': 1, 'start': (1.0, 0.0), 'end': (1.0, 1.5)}\n\
         4. closure: Closing segment length 1.8028, expected 1.0 ± 0.05 @ {'segment_index': 2}"
    );
    // Eight errors: five listed and a count.
    let inst = instance(3, 1, None, "[]");
    let far = [(5.0, 5.0), (6.0, 5.0), (7.0, 7.0), (5.0, 8.0)];
    let (_, message, details) = run(&inst, &answer(&far));
    assert!(
        message.ends_with("\n... (truncated, 8 errors in total)"),
        "{message}"
    );
    assert_eq!(details["errors"], 8);
}

#[test]
fn crossings_without_a_preset_return_early() {
    let inst = instance(4, 1, None, "[]");
    let (score, message, details) = run(&inst, &answer(&CURL));
    assert_eq!((score, message.as_str()), (0.0, "Crossing detected"));
    assert_eq!(details["crossings"], 1);
}

#[test]
fn forced_crossings() {
    let comps = r#"[{"type": "exact_crossings", "count": 1}, {"type": "angle_range", "min_deg": 10, "max_deg": 170}]"#;
    let inst = instance(4, 1, Some("one_forced_cross"), comps);
    let (score, message, details) = run(&inst, &answer(&CURL));
    assert_eq!(score, 1.0, "{message}");
    assert_eq!(
        message,
        "Valid loop for preset 'one_forced_cross' with 4 points and 1 crossings"
    );
    assert_eq!(details["corrected"]["pass"], true);
    let inst = instance(3, 1, Some("one_forced_cross"), comps);
    let (_, message, _) = run(&inst, &answer(&TRIANGLE));
    assert_eq!(
        message,
        "Validation failed:\n1. exact_crossings: Crossings found 0; expected exactly 1 @ {'pairs': []}"
    );
}

#[test]
fn touching_quirk_and_the_corrected_judgement() {
    // Tolerance 10 so that only the contact test matters. Vertex 3 (2, 3) lies on segment 0
    // (0, 3)->(4, 3), touched from below by segments 2 and 3: the strict ccw test counts
    // neither touch (it would count them from above), the exact test finds both.
    let inst: Instance = verigate_sdk::serde_json::from_str(
        r#"{"pipes": 5, "boundary": 4, "tolerance": 10.0, "preset": null, "complications": []}"#,
    )
    .unwrap();
    let below = [(0.0, 3.0), (4.0, 3.0), (4.0, 0.0), (2.0, 3.0), (0.0, 0.0)];
    let (score, message, details) = run(&inst, &answer(&below));
    assert_eq!(score, 1.0, "{message}");
    assert_eq!(details["corrected"]["pass"], false);
    assert!(
        details["corrected"]["message"]
            .as_str()
            .unwrap()
            .contains("Found 0 crossings and 2 touches, allowed 0 @ {'pairs': [(0, 2), (0, 3)]}")
    );
    // The same shape upside down: now the original counts both touches as crossings.
    let above: Vec<(f64, f64)> = below.iter().map(|&(x, y)| (x, 3.0 - y)).collect();
    assert_eq!(run(&inst, &answer(&above)).1, "Crossing detected");
}

#[test]
fn preset_messages() {
    let comps = r#"[{"type": "must_touch_boundary", "edges_needed": 3}, {"type": "min_turns", "min_turns": 5},
        {"type": "max_straight_run", "max_run": 0}, {"type": "coverage_quadrants"},
        {"type": "avoid_margin", "margin_ratio": 0.05}, {"type": "min_convex_hull_area", "min_area_ratio": 0.25},
        {"type": "fixed_start", "x_ratio": 0.5, "y_ratio": 0.5, "tolerance": 0.25},
        {"type": "centroid_box", "xmin_ratio": 0.45, "xmax_ratio": 0.55, "ymin_ratio": 0.45, "ymax_ratio": 0.55},
        {"type": "angle_range", "min_deg": 60, "max_deg": 150},
        {"type": "min_point_separation", "min_dist": 0.25}, {"type": "exact_crossings", "count": 1}]"#;
    let inst = instance(4, 2, Some("test"), comps);
    // A unit square in the corner of a 2 x 2 board.
    let square = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)];
    let (score, message, details) = run(&inst, &answer(&square));
    assert_eq!(score, 0.0);
    // Quadrants include the midlines (every corner of the square touches x = 1 or y = 1),
    // and a hull of exactly the required area passes.
    assert_eq!(
        message,
        "Validation failed:\n\
         1. boundary_touch: Touched 2 edges ['bottom', 'left'], need 3 edges\n\
         2. min_turns: Only 4 turns detected; need at least 5\n\
         3. avoid_margin: Point 0 (0.00,0.00) violates margin 0.10 away from walls @ {'point_index': 0}\n\
         4. fixed_start: First point (0.0, 0.0) should start near (1.0, 1.0) within 0.25\n\
         5. centroid: Centroid at (0.50, 0.50) is outside required box [0.90, 1.10] x [0.90, 1.10]\n\
         ... (truncated, 6 errors in total)"
    );
    assert_eq!(
        details["error_kinds"].as_array().unwrap().last().unwrap(),
        "exact_crossings"
    );
    // A violated separation returns at once: the exact-crossings check after it never runs.
    let comps = comps.replace("\"min_area_ratio\": 0.25", "\"min_area_ratio\": 0.3");
    let comps = comps.replace("\"min_dist\": 0.25", "\"min_dist\": 1.5");
    let (_, message, details) = run(&instance(4, 2, Some("test"), &comps), &answer(&square));
    assert!(
        message.contains("4. min_convex_hull_area: Hull area 1.00 < required 1.20 (30% of board)")
    );
    assert!(
        message.ends_with("... (truncated, 7 errors in total)"),
        "{message}"
    );
    assert_eq!(
        details["error_kinds"].as_array().unwrap().last().unwrap(),
        "min_point_separation"
    );
}

#[test]
fn nan_points_pass_the_original_only() {
    let inst = instance(3, 1, None, "[]");
    let text = "{'points': [{'x': 'nan', 'y': 'nan'}, {'x': 'nan', 'y': 'nan'}, {'x': 'nan', 'y': 'nan'}]}";
    let (score, message, details) = run(&inst, text);
    assert_eq!(score, 1.0, "{message}");
    assert_eq!(details["corrected"]["pass"], false);
}

#[test]
fn overflowing_squares_raise() {
    let inst = instance(3, 1, None, "[]");
    let (score, message, _) = run(&inst, &answer(&[(0.0, 0.0), (1e200, 0.0), (0.5, 0.5)]));
    assert_eq!(score, 0.0);
    assert!(message.ends_with(RAISED), "{message}");
}

/// Cases written by the generator's Python restatement (`Q12_CASES=path`).
#[test]
#[ignore]
fn differential() {
    let path = std::env::var("Q12_CASES").expect("Q12_CASES");
    let text = std::fs::read_to_string(path).unwrap();
    let mut bad = 0;
    for (k, line) in text.lines().enumerate() {
        let case: verigate_sdk::serde_json::Value =
            verigate_sdk::serde_json::from_str(line).unwrap();
        let inst: Instance =
            verigate_sdk::serde_json::from_value(case["instance"].clone()).unwrap();
        let (score, message, _) = run(&inst, case["answer"].as_str().unwrap());
        let want_score = case["score"].as_f64().unwrap();
        let want = case["message"].as_str().unwrap();
        let raised = case["raises"].as_bool().unwrap_or(false);
        let ok = if raised {
            score == 0.0 && message.ends_with(RAISED)
        } else {
            score == want_score && message == want
        };
        if !ok {
            bad += 1;
            if bad < 10 {
                eprintln!("case {k}: want {want_score} {want:?}\n      got {score} {message:?}");
            }
        }
    }
    assert_eq!(bad, 0);
}

/// Every item's reference passes, the corrected judgement included (`cargo test -- --ignored`).
#[test]
#[ignore]
fn item_references() {
    let items =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../registry/items/scbench/q12");
    for sp in 0..40 {
        let dir = items.join(sp.to_string());
        let toml = std::fs::read_to_string(dir.join("item.toml")).unwrap();
        let line = toml
            .lines()
            .find(|l| l.starts_with("reference = "))
            .unwrap();
        let reference: String =
            verigate_sdk::serde_json::from_str(&line["reference = ".len()..]).unwrap();
        let inst: Instance = verigate_sdk::serde_json::from_str(
            &std::fs::read_to_string(dir.join("instance/instance.json")).unwrap(),
        )
        .unwrap();
        let (score, message, details) = run(&inst, &reference);
        assert_eq!(score, 1.0, "sp{sp}: {message}");
        assert_eq!(
            details["corrected"]["pass"], true,
            "sp{sp}: {}",
            details["corrected"]
        );
    }
}
