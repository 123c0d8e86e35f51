use super::*;

/// An axis-aligned box as an answer (Python repr), faces outward (positive volume).
fn box_answer(lo: P3, hi: P3) -> String {
    let mut v = Vec::new();
    for z in [lo[2], hi[2]] {
        for y in [lo[1], hi[1]] {
            for x in [lo[0], hi[0]] {
                v.push(format!("{{'xyz': [{x:?}, {y:?}, {z:?}]}}"));
            }
        }
    }
    let faces = [
        [0, 2, 3, 1],
        [4, 5, 7, 6],
        [0, 1, 5, 4],
        [2, 6, 7, 3],
        [0, 4, 6, 2],
        [1, 3, 7, 5],
    ];
    let f: Vec<String> = faces
        .iter()
        .map(|f| format!("{{'vertex': [{}, {}, {}, {}]}}", f[0], f[1], f[2], f[3]))
        .collect();
    format!(
        "{{'polyhedron': {{'vertex': [{}], 'faces': [{}]}}}}",
        v.join(", "),
        f.join(", ")
    )
}

fn cube_piece(c: P3, s: f64) -> Piece {
    let (vertices, faces) = crate::geom::tests::cube(c, [s; 3]);
    Piece { vertices, faces }
}

/// Subpass 0: cubes of side 10 at the origin and at (8, 0, 0).
fn sp0() -> Instance {
    Instance {
        pieces: vec![
            cube_piece([0.0; 3], 10.0),
            cube_piece([8.0, 0.0, 0.0], 10.0),
        ],
        intended_pieces: None,
        original_reference_failed: false,
        reference_volume_inflated: Some(1800.46),
    }
}

fn graded(instance: &Instance, text: &str) -> (f64, String, verigate_sdk::serde_json::Value) {
    let v = verigate_sdk::serde_json::to_value(grade(instance, text)).unwrap();
    (
        v["score"].as_f64().unwrap(),
        v["message"].as_str().unwrap_or("").to_owned(),
        v["details"].clone(),
    )
}

#[test]
fn exact_union_scores_one() {
    let (score, message, details) = graded(&sp0(), &box_answer([-5.0; 3], [13.0, 5.0, 5.0]));
    assert_eq!(score, 1.0);
    assert_eq!(
        message,
        "Result Volume: 1800.00, Reference Volume: 1800.00, Intersection Volume: 1800.00, Difference Volume: 0.00"
    );
    assert_eq!(details["self_intersecting_triangle_pairs"], 0);
    // 1800 + 0.001 · (100 + 180 + 180): OpenSCAD's minkowski-inflated volume.
    assert!((details["result_volume_inflated"].as_f64().unwrap() - 1800.46).abs() < 1e-9);
}

#[test]
fn partial_answers_follow_the_formula() {
    // Only the first cube: min(1000/1800, 1000/1800) − 0.5 · 800/1800.
    let (score, _, _) = graded(&sp0(), &box_answer([-5.0; 3], [5.0; 3]));
    assert!((score - (1000.0 / 1800.0 - 0.5 * 800.0 / 1800.0)).abs() < 1e-12);
    // Too big by 2 in x: I = 1800, R = 2000: min(1, 2000/1800) − 0.5 · 200/1800 = 0.944…
    let (score, _, _) = graded(&sp0(), &box_answer([-5.0; 3], [15.0, 5.0, 5.0]));
    assert!((score - (1.0 - 0.5 * 200.0 / 1800.0)).abs() < 1e-12);
    // Too big by 1: 1 − 0.5 · 100/1800 = 0.972 > 0.95 ⇒ 1 (postProcessScore).
    let (score, message, _) = graded(&sp0(), &box_answer([-5.0; 3], [14.0, 5.0, 5.0]));
    assert_eq!(score, 1.0);
    assert!(
        message.ends_with("Score was renormalised: 0.97 -> 1.00"),
        "{message}"
    );
}

#[test]
fn inside_out_answers_are_graded_as_their_reversal() {
    let text = box_answer([-5.0; 3], [13.0, 5.0, 5.0]);
    // Reverse every face.
    let reversed = text
        .replace("[0, 2, 3, 1]", "[1, 3, 2, 0]")
        .replace("[4, 5, 7, 6]", "[6, 7, 5, 4]")
        .replace("[0, 1, 5, 4]", "[4, 5, 1, 0]")
        .replace("[2, 6, 7, 3]", "[3, 7, 6, 2]")
        .replace("[0, 4, 6, 2]", "[2, 6, 4, 0]")
        .replace("[1, 3, 7, 5]", "[5, 7, 3, 1]");
    let (score, _, details) = graded(&sp0(), &reversed);
    assert_eq!(score, 1.0);
    assert_eq!(details["inverted_faces"], true);
}

#[test]
fn early_failures_use_the_original_messages() {
    let inst = sp0();
    let cube = box_answer([-5.0; 3], [13.0, 5.0, 5.0]);
    let msg = |t: &str| graded(&inst, t).1;
    assert_eq!(
        msg("{'x': 1}"),
        "Early failure: Missing 'polyhedron' in result"
    );
    assert_eq!(
        msg("{'polyhedron': {'vertex': []}}"),
        "Early failure: Polyhedron missing 'vertex' or 'faces'"
    );
    assert_eq!(
        msg("{'polyhedron': {'vertex': [], 'faces': [1]}}"),
        "Early failure: No vertices provided"
    );
    assert_eq!(
        msg("{'polyhedron': {'vertex': [{'xyz': [0, 0]}], 'faces': [{'vertex': [0]}]}}"),
        "Early failure: Vertex 0 has 2 coordinates, expected 3"
    );
    assert_eq!(
        msg("{'polyhedron': {'vertex': [{'xyz': [0, 'a', 0]}], 'faces': [{'vertex': [0]}]}}"),
        "Early failure: Vertex 0 has non-numeric coordinates: [0, 'a', 0]"
    );
    // `float(c)`: Unicode digits, white space and underscores are numbers to Python (the
    // port once read ASCII only), so these vertices pass and the next check speaks.
    assert_eq!(
        msg(
            "{'polyhedron': {'vertex': [{'xyz': ['١', ' ２_０ ', '\\u3000-0.5']}, {'xyz': '000'}], \
             'faces': [{'vertex': [0, 1]}]}}"
        ),
        "Early failure: Face 0 has only 2 vertices (minimum 3 required)"
    );
    assert_eq!(
        msg("{'polyhedron': {'vertex': [{'xyz': [0, '²', 0]}], 'faces': [{'vertex': [0]}]}}"),
        "Early failure: Vertex 0 has non-numeric coordinates: [0, '²', 0]"
    );
    assert_eq!(
        msg("{'polyhedron': {'vertex': [{'xyz': [0, 0, 0]}], 'faces': [{'vertex': [0, 0]}]}}"),
        "Early failure: Face 0 has only 2 vertices (minimum 3 required)"
    );
    assert_eq!(
        msg("{'polyhedron': {'vertex': [{'xyz': [0, 0, 0]}], 'faces': [{'vertex': [0, 1.0, 2]}]}}"),
        "Early failure: Face 0 vertex 1 is not an integer: 1.0"
    );
    assert_eq!(
        msg("{'polyhedron': {'vertex': [{'xyz': [0, 0, 0]}], 'faces': [{'vertex': [0, 1, 2]}]}}"),
        "Early failure: Face 0 has invalid vertex index 1 (valid range: 0-0)"
    );
    assert_eq!(
        msg(
            "{'polyhedron': {'vertex': [{'xyz': [0, 0, 0]}, {'xyz': [1, 0, 0]}], 'faces': [{'vertex': [0, 1, 0]}]}}"
        ),
        "Early failure: Face 0 has duplicate vertex indices: [0, 1, 0]"
    );
    assert_eq!(
        msg(
            "{'polyhedron': {'vertex': [{'xyz': [0, 0, 0]}, {'xyz': [1, 0, 0]}, {'xyz': [1e-7, 0, 0]}], 'faces': [{'vertex': [0, 1, 2]}]}}"
        ),
        "Early failure: Duplicate vertex positions: vertex 2 and 0 at [1e-07, 0.0, 0.0]"
    );
    assert_eq!(
        msg(
            "{'polyhedron': {'vertex': [{'xyz': [0, 0, 0]}, {'xyz': ['nan', 0, 0]}], 'faces': [{'vertex': [0, 1, 0]}]}}"
        ),
        "Early failure: Face 0 has duplicate vertex indices: [0, 1, 0]"
    );
    assert_eq!(
        msg(
            "{'polyhedron': {'vertex': [{'xyz': [0, 0, 0]}, {'xyz': ['inf', 0, 0]}, {'xyz': [0, 1, 0]}], 'faces': [{'vertex': [0, 1, 2]}]}}"
        ),
        "Early failure: Vertex 1 has invalid coordinate (NaN or Inf): [inf, 0.0, 0.0]"
    );
    // Forty vertices near (0.2, 0, 1) and one 1000 away: 975.4 > 10 × 47.6.
    let mut verts: Vec<String> = (0..40)
        .map(|i| format!("{{'xyz': [{}, 0, 1]}}", i as f64 / 100.0))
        .collect();
    verts.push("{'xyz': [1000, 0, 0]}".into());
    let text = format!(
        "{{'polyhedron': {{'vertex': [{}], 'faces': [{{'vertex': [0, 1, 2]}}]}}}}",
        verts.join(", ")
    );
    assert_eq!(
        msg(&text),
        "Early failure: Vertex 40 appears to be an outlier: [1000.0, 0.0, 0.0] is 975.4 from centroid (avg: 47.6)"
    );
    assert_eq!(
        msg(
            "{'polyhedron': {'vertex': [{'xyz': [0, 0, 0]}, {'xyz': [1, 0, 0]}, {'xyz': [2, 0, 0]}], 'faces': [{'vertex': [0, 1, 2]}]}}"
        ),
        "Early failure: Face 0 is degenerate (zero or near-zero area)"
    );
    // One face flipped: its four edges appear twice in the same direction.
    let flipped = cube.replacen("[0, 2, 3, 1]", "[1, 3, 2, 0]", 1);
    assert_eq!(
        msg(&flipped),
        "Early failure: 4 winding error(s): Edge (0, 1) appears twice in same direction (faces 0 and 2); \
         Edge (3, 2) appears twice in same direction (faces 0 and 3); \
         Edge (2, 0) appears twice in same direction (faces 0 and 4); \
         Edge (1, 3) appears twice in same direction (faces 0 and 5)"
    );
    // One face missing: four boundary edges.
    let holed = cube.replacen("{'vertex': [0, 2, 3, 1]}, ", "", 1);
    assert_eq!(
        msg(&holed),
        "Early failure: 4 boundary edge(s) (not watertight): (0, 1), (2, 3), (0, 2), (1, 3)"
    );
    // A face listed twice: winding errors and non-manifold edges.
    let twice = cube.replacen(
        "{'vertex': [0, 2, 3, 1]}",
        "{'vertex': [0, 2, 3, 1]}, {'vertex': [0, 2, 3, 1]}",
        1,
    );
    assert!(
        msg(&twice).contains(" | 4 non-manifold edge(s): (0, 2) used by 3 faces; "),
        "{}",
        msg(&twice)
    );
    // A flat square listed twice: zero volume.
    assert_eq!(
        msg(
            "{'polyhedron': {'vertex': [{'xyz': [0, 0, 0]}, {'xyz': [1, 0, 0]}, {'xyz': [1, 1, 0]}, {'xyz': [0, 1, 0]}], 'faces': [{'vertex': [0, 1, 2, 3]}, {'vertex': [3, 2, 1, 0]}]}}"
        ),
        "Early failure: Polyhedron has zero volume (degenerate or flat)"
    );
    // A quad with one corner lifted 0.5.
    let bent = cube.replacen("{'xyz': [13.0, 5.0, 5.0]}", "{'xyz': [13.0, 5.0, 5.5]}", 1);
    assert_eq!(
        msg(&bent),
        "Early failure: Face 1 is non-planar: vertex 6 is 0.4994 from plane"
    );
    // Malformed: a vertex that is a list, not a dict (the original raises; the runner reports it).
    assert_eq!(
        msg("{'polyhedron': {'vertex': [['xyz']], 'faces': [1]}}"),
        "Early failure: Exception list indices must be integers or slices, not str while judging earlyFail criteria. Typically this occurs with a very malformed response."
    );
    assert_eq!(
        graded(&inst, "{}").1,
        Verdict::falsy_answer().message().unwrap()
    );
}

#[test]
fn intended_reference_goes_to_details() {
    let mut inst = sp0();
    inst.intended_pieces = Some(vec![cube_piece([0.0; 3], 10.0)]);
    let (score, _, details) = graded(&inst, &box_answer([-5.0; 3], [5.0; 3]));
    assert!(score < 0.5);
    assert_eq!(details["corrected"]["score"], 1.0);
    assert_eq!(details["corrected"]["pass"], true);
}

/// claude-sonnet-4-5-HighReasoning, Q3 subpass 0 (raw @ 30f749f): one face listed in the wrong
/// order; the run stored this explanation verbatim.
#[test]
fn stored_run_winding_message() {
    let text = "{'polyhedron': {'vertex': [{'xyz': [-5.0, -5.0, -5.0]}, {'xyz': [13.0, -5.0, -5.0]}, {'xyz': [13.0, 5.0, -5.0]}, {'xyz': [-5.0, 5.0, -5.0]}, {'xyz': [-5.0, -5.0, 5.0]}, {'xyz': [13.0, -5.0, 5.0]}, {'xyz': [13.0, 5.0, 5.0]}, {'xyz': [-5.0, 5.0, 5.0]}], 'faces': [{'vertex': [3, 2, 1, 0]}, {'vertex': [4, 5, 6, 7]}, {'vertex': [0, 1, 5, 4]}, {'vertex': [3, 2, 6, 7]}, {'vertex': [4, 7, 3, 0]}, {'vertex': [1, 2, 6, 5]}]}}";
    assert_eq!(
        graded(&sp0(), text).1,
        "Early failure: 4 winding error(s): Edge (3, 2) appears twice in same direction (faces 0 and 3); \
         Edge (6, 7) appears twice in same direction (faces 1 and 3); \
         Edge (7, 3) appears twice in same direction (faces 3 and 4); \
         Edge (2, 6) appears twice in same direction (faces 3 and 5)"
    );
}

/// gpt-5.2-HighReasoning, Q3 subpass 16 (raw @ 73c8e39): a 21 × 16 × 16 box for a sphere and a
/// cube. The run stored 0.5199677618156789 with a difference volume of 2603.34 (the union minus
/// the intersection dilated by 0.05); the exact difference is 2665.07, so verigate's score is
/// lower by 0.5 · 61.7 / 2711 ≈ 0.0115 (inside the fixtures' 0.02 tolerance).
#[test]
fn stored_run_box_around_sphere() {
    // The sphere (r 8, $fn 24) is approximated here by its bounding cube only to check the
    // formula's inputs: R = 21·16·16 = 5376.
    let text = "{'polyhedron': {'vertex': [{'xyz': [-8, -8, -8]}, {'xyz': [13, -8, -8]}, {'xyz': [13, 8, -8]}, {'xyz': [-8, 8, -8]}, {'xyz': [-8, -8, 8]}, {'xyz': [13, -8, 8]}, {'xyz': [13, 8, 8]}, {'xyz': [-8, 8, 8]}], 'faces': [{'vertex': [3, 2, 1, 0]}, {'vertex': [4, 5, 6, 7]}, {'vertex': [0, 1, 5, 4]}, {'vertex': [7, 6, 2, 3]}, {'vertex': [3, 0, 4, 7]}, {'vertex': [1, 2, 6, 5]}]}}";
    let (score, _, details) = graded(&sp0(), text);
    assert_eq!(details["result_volume"], 5376.0);
    // Against subpass 0's cubes (inside the box): I = 1800, D = 3576: 1 − 0.5·3576/1800.
    assert!(
        (score - (1.0 - 0.5 * 3576.0 / 1800.0)).abs() < 1e-12,
        "{score}"
    );
}
