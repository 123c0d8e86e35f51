use super::*;

fn square_target() -> Instance {
    Instance {
        subpass: 0,
        pieces: vec![vec![[-2.0, -2.0], [2.0, -2.0], [2.0, 2.0], [-2.0, 2.0]]],
    }
}

fn run(instance: &Instance, text: &str) -> (f64, String, verigate_sdk::serde_json::Value) {
    let v = verigate_sdk::serde_json::to_value(grade(instance, text)).unwrap();
    (
        v["score"].as_f64().unwrap(),
        v["message"].as_str().unwrap_or("").to_owned(),
        v["details"].clone(),
    )
}

fn tet(x: f64, y: f64, z: f64, q: [f64; 4]) -> String {
    format!(
        "{{'x': {x:?}, 'y': {y:?}, 'z': {z:?}, 'q0': {:?}, 'q1': {:?}, 'q2': {:?}, 'q3': {:?}}}",
        q[0], q[1], q[2], q[3]
    )
}

#[test]
fn euler_angles_follow_4py() {
    // q1 = 1 (half turn about x): roll 180, pitch 0, yaw 0.
    assert_eq!(euler([0.0, 1.0, 0.0, 0.0]), Some([180.0, 0.0, 0.0]));
    // q3 = 1 (half turn about z): yaw 180.
    assert_eq!(euler([0.0, 0.0, 0.0, 1.0]), Some([0.0, 0.0, 180.0]));
    // 2·(q0·q2 − q1·q3) = 2·(1·1) = 2 > 1: math.asin raises.
    assert_eq!(euler([1.0, 0.0, 1.0, 0.0]), None);
}

#[test]
fn a_single_tetrahedron_on_the_square() {
    // One upright tetrahedron at the origin: shadow = its base triangle (√3/4) inflated.
    let text = format!(
        "{{'tetrahedrons': [{}]}}",
        tet(0.0, 0.0, 0.0, [1.0, 0.0, 0.0, 0.0])
    );
    let (score, message, details) = run(&square_target(), &text);
    let tri = 3f64.sqrt() / 4.0;
    let r = details["result_volume"].as_f64().unwrap();
    // Triangle (0,0),(1,0),(0.5,√3/2) ⊕ [0, a]²: area + a·(1 + √3/2) + a².
    let expected = 0.1 * (tri + 0.001 * (1.0 + 3f64.sqrt() / 2.0) + 1e-6);
    assert!((r - expected).abs() < 1e-10, "{r} {expected}");
    // Inside the square: I/Ref < R/Ref; D = 0.1·(16 − triangle dilated by 0.05).
    // min(I/Ref, R/Ref) ≈ 0.027, minus 0.5·D/Ref ≈ 0.47 (the uncovered square): 0.
    assert_eq!(score, 0.0);
    assert!(
        message.starts_with("Result Volume: 0.04, Reference Volume: 1.62"),
        "{message}"
    );
}

#[test]
fn penalties_in_the_original_order() {
    let two = format!(
        "{{'tetrahedrons': [{}, {}]}}",
        tet(0.0, 0.0, 0.0, [1.0, 0.0, 0.0, 0.0]),
        tet(0.2, 0.0, 0.0, [1.0, 0.0, 0.0, 0.0])
    );
    let (_, message, details) = run(&square_target(), &two);
    assert!(
        message.contains("; Tetrahedrons 0 and 1 intersect. 50% penalty."),
        "{message}"
    );
    assert_eq!(
        details["true_intersecting_pair"],
        verigate_sdk::serde_json::json!([0, 1])
    );
    // A quaternion of norm² 1.0201 (> 1.01): the 75 % penalty, and no intersection test.
    let off = format!(
        "{{'tetrahedrons': [{}, {}]}}",
        tet(0.0, 0.0, 0.0, [1.01, 0.0, 0.0, 0.0]),
        tet(0.2, 0.0, 0.0, [1.0, 0.0, 0.0, 0.0])
    );
    let (_, message, details) = run(&square_target(), &off);
    assert!(
        message.contains("; Quaternion is not normalised. 75% penalty."),
        "{message}"
    );
    assert_eq!(
        details["original_intersecting_pair"],
        verigate_sdk::serde_json::Value::Null
    );
}

#[test]
fn the_buggy_test_flags_separate_flipped_tetrahedra() {
    // Two tetrahedra 3 apart in x, the second turned 180° about x (q1 = 1): they are far apart,
    // but the original's vertices for q1 = 1 are (x, −y, −z)-ish sheared copies that meet.
    let text = format!(
        "{{'tetrahedrons': [{}, {}]}}",
        tet(0.0, 0.0, 0.0, [1.0, 0.0, 0.0, 0.0]),
        tet(0.0, 0.0, 0.0, [0.0, 1.0, 0.0, 0.0])
    );
    let (_, _, details) = run(&square_target(), &text);
    // Rendered: one apex up, one apex down, bases mirrored in y: they touch along an edge only.
    assert_eq!(
        details["true_intersecting_pair"],
        verigate_sdk::serde_json::Value::Null
    );
    assert_eq!(
        details["original_intersecting_pair"],
        verigate_sdk::serde_json::json!([0, 1])
    );
}

#[test]
fn empty_and_malformed_answers() {
    let t = square_target();
    assert_eq!(run(&t, "{}").1, Verdict::falsy_answer().message().unwrap());
    assert!(
        run(&t, "{'tetrahedrons': [{'x': 0}]}")
            .1
            .starts_with("Result was empty (tetrahedron 0 has no 'y'")
    );
    assert!(
        run(&t, "{'tetrahedrons': []}")
            .1
            .starts_with("No tetrahedra")
    );
    let bad_asin = format!(
        "{{'tetrahedrons': [{}]}}",
        tet(0.0, 0.0, 0.0, [1.0, 0.0, 1.0, 0.0])
    );
    assert!(
        run(&t, &bad_asin)
            .1
            .starts_with("Result was empty (tetrahedron 0: math.asin")
    );
}

/// claude-sonnet-4-5-HighReasoning, Q4 subpass 3 (equilateral triangle of side 4): an exact
/// cover by 16 tetrahedra; the run stored 0.49504950496633193 (0.1/0.101 × 0.5, the
/// intersection penalty from the buggy test).
#[test]
fn stored_run_triangle_cover() {
    let h = 4.0 * 3f64.sqrt() / 6.0;
    let instance = Instance {
        subpass: 3,
        pieces: vec![vec![[-2.0, -h], [2.0, -h], [0.0, 4.0 * 3f64.sqrt() / 3.0]]],
    };
    let text = "{'tetrahedrons': [{'x': -2, 'y': -1.1547005383792515, 'z': 0, 'q0': 1, 'q1': 0, 'q2': 0, 'q3': 0}, {'x': -1.5, 'y': -0.28867513459481287, 'z': 0, 'q0': 0, 'q1': 1, 'q2': 0, 'q3': 0}, {'x': -1, 'y': -1.1547005383792515, 'z': 0, 'q0': 1, 'q1': 0, 'q2': 0, 'q3': 0}, {'x': -0.5, 'y': -0.28867513459481287, 'z': 0, 'q0': 0, 'q1': 1, 'q2': 0, 'q3': 0}, {'x': 0, 'y': -1.1547005383792515, 'z': 0, 'q0': 1, 'q1': 0, 'q2': 0, 'q3': 0}, {'x': 0.5, 'y': -0.28867513459481287, 'z': 0, 'q0': 0, 'q1': 1, 'q2': 0, 'q3': 0}, {'x': 1, 'y': -1.1547005383792515, 'z': 0, 'q0': 1, 'q1': 0, 'q2': 0, 'q3': 0}, {'x': -1.5, 'y': -0.28867513459481287, 'z': 0, 'q0': 1, 'q1': 0, 'q2': 0, 'q3': 0}, {'x': -1, 'y': 0.5773502691896257, 'z': 0, 'q0': 0, 'q1': 1, 'q2': 0, 'q3': 0}, {'x': -0.5, 'y': -0.28867513459481287, 'z': 0, 'q0': 1, 'q1': 0, 'q2': 0, 'q3': 0}, {'x': 0, 'y': 0.5773502691896257, 'z': 0, 'q0': 0, 'q1': 1, 'q2': 0, 'q3': 0}, {'x': 0.5, 'y': -0.28867513459481287, 'z': 0, 'q0': 1, 'q1': 0, 'q2': 0, 'q3': 0}, {'x': -1, 'y': 0.5773502691896257, 'z': 0, 'q0': 1, 'q1': 0, 'q2': 0, 'q3': 0}, {'x': -0.5, 'y': 1.4433756729740643, 'z': 0, 'q0': 0, 'q1': 1, 'q2': 0, 'q3': 0}, {'x': 0, 'y': 0.5773502691896257, 'z': 0, 'q0': 1, 'q1': 0, 'q2': 0, 'q3': 0}, {'x': -0.5, 'y': 1.4433756729740643, 'z': 0, 'q0': 1, 'q1': 0, 'q2': 0, 'q3': 0}]}";
    let (score, message, details) = run(&instance, text);
    assert!((score - 0.49504950496633193).abs() < 1e-8, "{score}");
    assert_eq!(
        message,
        "Result Volume: 0.69, Reference Volume: 0.70, Intersection Volume: 0.70, Difference Volume: 0.00; Tetrahedrons 0 and 1 intersect. 50% penalty."
    );
    assert!((details["corrected"]["score"].as_f64().unwrap() - 0.1 / 0.101).abs() < 1e-6);
}

/// claude-sonnet-4-5-HighReasoning, Q4 subpass 13 (semicircle of radius 2): stored 0.6092619569154217
/// ("Score was renormalised: 0.55 -> 0.61", the runs' ÷0.9, the verdict); 4.py @ 0ac70f2
/// divides by 0.6 (`details.repository_score`).
#[test]
fn stored_run_semicircle_postprocessing() {
    let half: Vec<P2> = (0..=50)
        .map(|i| {
            let a = (360.0 * i as f64 / 100.0).to_radians();
            [2.0 * a.cos(), 2.0 * a.sin()]
        })
        .collect();
    let instance = Instance {
        subpass: 13,
        pieces: vec![half],
    };
    let text = "{'tetrahedrons': [{'x': -2, 'y': 0, 'z': 0, 'q0': 1, 'q1': 0, 'q2': 0, 'q3': 0}, {'x': -1, 'y': 0, 'z': 2, 'q0': 1, 'q1': 0, 'q2': 0, 'q3': 0}, {'x': 0, 'y': 0, 'z': 4, 'q0': 1, 'q1': 0, 'q2': 0, 'q3': 0}, {'x': 1, 'y': 0, 'z': 6, 'q0': 1, 'q1': 0, 'q2': 0, 'q3': 0}, {'x': -1.5, 'y': 0.8660254, 'z': 8, 'q0': 1, 'q1': 0, 'q2': 0, 'q3': 0}, {'x': -0.5, 'y': 0.8660254, 'z': 10, 'q0': 1, 'q1': 0, 'q2': 0, 'q3': 0}, {'x': 0.5, 'y': 0.8660254, 'z': 12, 'q0': 1, 'q1': 0, 'q2': 0, 'q3': 0}, {'x': -1, 'y': 0.8660254, 'z': 14, 'q0': 1, 'q1': 0, 'q2': 0, 'q3': 0}, {'x': 0, 'y': 0.8660254, 'z': 16, 'q0': 1, 'q1': 0, 'q2': 0, 'q3': 0}, {'x': 1, 'y': 0.8660254, 'z': 18, 'q0': 1, 'q1': 0, 'q2': 0, 'q3': 0}, {'x': -1, 'y': 1.2, 'z': 20, 'q0': 1, 'q1': 0, 'q2': 0, 'q3': 0}, {'x': 0, 'y': 1.2, 'z': 22, 'q0': 1, 'q1': 0, 'q2': 0, 'q3': 0}, {'x': -0.5, 'y': 1.1339746, 'z': 24, 'q0': 1, 'q1': 0, 'q2': 0, 'q3': 0}]}";
    let (score, _, details) = run(&instance, text);
    assert!((score - 0.6092619569154217).abs() < 1e-3, "{score}");
    let repository = details["repository_score"].as_f64().unwrap();
    assert!(
        (repository - score * 0.9 / 0.6).abs() < 1e-9,
        "{score} {repository}"
    );
}
