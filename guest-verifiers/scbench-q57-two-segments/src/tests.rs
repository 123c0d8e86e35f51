use super::*;

fn inst(json_text: &str) -> Instance {
    load_instance(json_text).unwrap()
}

fn run(instance: &Instance, text: &str) -> (f64, String) {
    let v = serde_json::to_value(grade(instance, text)).unwrap();
    (
        v["score"].as_f64().unwrap(),
        v["message"].as_str().unwrap_or("").to_owned(),
    )
}

/// Differential check against the scratch oracle (the original verifier run with
/// shapely): `Q57_CASES=dir cargo test --release -p scbench-q57-two-segments -- --ignored`.
#[test]
#[ignore]
fn agrees_with_the_oracle() {
    #[derive(serde::Deserialize)]
    struct Case {
        row: usize,
        answer: String,
        score: f64,
        explanation: Option<String>,
    }
    let dir = std::env::var("Q57_CASES").expect("Q57_CASES");
    let instances: Vec<Instance> = std::fs::read_to_string(format!("{dir}/instances.jsonl"))
        .unwrap()
        .lines()
        .map(inst)
        .collect();
    let cases = std::fs::read_to_string(format!("{dir}/cases.jsonl")).unwrap();
    let (mut total, mut agree) = (0, 0);
    let mut shown = 0;
    for line in cases.lines() {
        let case: Case = serde_json::from_str(line).unwrap();
        let (score, message) = run(&instances[case.row], &case.answer);
        total += 1;
        let ok = if case.score == 10000.0 {
            score == 0.0 && message.ends_with("its runner records 10000)")
        } else if case.explanation.is_none() {
            score == case.score && message.starts_with("empty answer")
        } else {
            score == case.score && Some(&message) == case.explanation.as_ref()
        };
        if ok {
            agree += 1;
        } else if shown < 15 {
            shown += 1;
            eprintln!(
                "row {} answer {:?}\n  oracle {} {:?}\n  port   {} {:?}",
                case.row, case.answer, case.score, case.explanation, score, message
            );
        }
    }
    eprintln!("agreement {agree}/{total}");
    assert_eq!(agree, total);
}

const UNIT: &str = r#"{"counts": {"triangle": 4}, "snap_decimals": 2,
    "corners": [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]}"#;
const CORNERS: &str = "[[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]";

/// The explanation for a grid of counts (`observed` = `None`: the check failed early).
fn counts_text(passed: bool, error: &str, observed: &str) -> String {
    format!(
        "<b>passed:</b> {}<br><b>errors:</b> [{error}]<br><b>details.counts_expected:</b> \
         {{'triangle': 4}}<br><b>details.counts_observed:</b> {observed}<br>\
         <b>details.used_corners:</b> {CORNERS}",
        if passed { "True" } else { "False" }
    )
}

fn unit(text: &str) -> (f64, String) {
    run(&inst(UNIT), text)
}

#[test]
fn crossing_diagonals_make_four_triangles() {
    assert_eq!(
        unit("{'segments': [[[0, 0], [1, 1]], [[0, 1], [1, 0]]]}"),
        (1.0, counts_text(true, "", "{'triangle': 4}"))
    );
    // JSON, a bare list, tuples in free text with a code fence: the same verdict.
    for text in [
        r#"{"segments": [[[0, 0], [1, 1]], [[0, 1], [1, 0]]]}"#,
        "[[[0, 0], [1, 1]], [[0, 1], [1, 0]]]",
        "<thinking>x</thinking>\n```python\n[((0, 0), (1, 1)), ((0, 1), (1, 0))]\n```",
    ] {
        assert_eq!(unit(text).0, 1.0, "{text}");
    }
}

#[test]
fn hand_worked_arrangements() {
    let mismatch = |observed: &str| (0.0, counts_text(false, "'counts_mismatch'", observed));
    // A plus sign: four quadrilaterals.
    assert_eq!(
        unit("{'segments': [[[0, 0.5], [1, 0.5]], [[0.5, 0], [0.5, 1]]]}"),
        mismatch("{'quadrilateral': 4}")
    );
    // Two chords from one corner: triangle, quadrilateral, triangle (shapely's order).
    assert_eq!(
        unit("{'segments': [[[0, 0], [1, 0.5]], [[0, 0], [0.5, 1]]]}"),
        mismatch("{'triangle': 2, 'quadrilateral': 1}")
    );
    // The same chord twice, reversed: two quadrilaterals.
    assert_eq!(
        unit("{'segments': [[[0.5, 1], [0.5, 0]], [[0.5, 0], [0.5, 1]]]}"),
        mismatch("{'quadrilateral': 2}")
    );
    // A shared endpoint on an edge: three triangles.
    assert_eq!(
        unit("{'segments': [[[0.5, 0], [0, 1]], [[0.5, 0], [1, 1]]]}"),
        mismatch("{'triangle': 3}")
    );
    // Ends 0.008 apart pass the along-an-edge check, then round onto the left edge:
    // the segment disappears into the frame.
    assert_eq!(
        unit("[[[0.004, 0.2], [-0.004, 0.8]], [[0.5, 0], [0.5, 1]]]"),
        mismatch("{'quadrilateral': 2}")
    );
    // Rounded cross products: the corner triangle (cross 0.0001) vanishes, and so
    // does the pentagon's vertex (0.01, 0) (cross 0.0049 rounds to 0.0).
    assert_eq!(
        unit("[[[0, 0.01], [0.01, 0]], [[0.5, 0], [0.5, 1]]]"),
        mismatch("{'quadrilateral': 2}")
    );
    assert_eq!(
        unit("[[[0, 0.02], [0.08, 0]], [[0.5, 0], [0.5, 1]]]"),
        mismatch("{'pentagon': 1, 'quadrilateral': 1}")
    );
}

#[test]
fn each_check_in_order() {
    let early = |error: &str| (0.0, counts_text(false, error, "{}"));
    assert_eq!(
        unit("[[[0.5, 0], [0.504, 0.004]], [[0, 0.5], [1, 0.5]]]"),
        early("'degenerate_segment'")
    );
    assert_eq!(
        unit("[[[0.5, -0.01], [0.5, 1]], [[0, 0.5], [1, 0.5]]]"),
        early("'point_out_of_bounds'")
    );
    assert_eq!(
        unit("[[[0.5, 0.3], [0.5, 1]], [[0, 0.5], [1, 0.5]]]"),
        early("'point_not_on_boundary'")
    );
    assert_eq!(
        unit("[[[0.2, 0], [0.8, 0]], [[0, 0.5], [1, 0.5]]]"),
        early("'segment_on_boundary_edge'")
    );
    // 0.005 is within tol of 0, but round(0.005, 2) == 0.01 is off the boundary.
    assert_eq!(
        unit("[[[0.5, 0.005], [0.5, 1]], [[0, 0.5], [1, 0.5]]]"),
        early("'invalid_segments'")
    );
    let grid = inst(
        r#"{"counts": {"triangle": 4}, "snap_decimals": 2, "coordinate_grid": [0, 0.5, 1],
            "corners": [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]}"#,
    );
    assert_eq!(
        run(&grid, "[[[0.55, 0], [0.5, 1]], [[0, 0.5], [1, 0.5]]]"),
        early("'point_off_grid'")
    );
}

#[test]
fn a_skewed_square_maps_through_its_corners() {
    // gpt-5.2-HighReasoning's stored answer to subpass 20.
    let skewed = inst(
        r#"{"snap_decimals": 3, "counts": {"triangle": 2, "quadrilateral": 1, "hexagon": 1},
            "square": "explicit", "corners": [[0.0, 0.0], [1.1, -0.05], [1.15, 1.1], [-0.05, 1.05]]}"#,
    );
    let (score, message) = run(
        &skewed,
        "{'segments': [[[0.275, -0.0125], [1.11, 0.18]], [[0.825, -0.0375], [1.135, 0.755]]]}",
    );
    assert_eq!(score, 0.0);
    assert_eq!(
        message,
        "<b>passed:</b> False<br><b>errors:</b> ['point_out_of_bounds']<br>\
         <b>details.counts_expected:</b> {'triangle': 2, 'quadrilateral': 1, 'hexagon': 1}<br>\
         <b>details.counts_observed:</b> {}<br><b>details.used_corners:</b> \
         [[0.0, 0.0], [1.1, -0.05], [1.15, 1.1], [-0.05, 1.05]]"
    );
}

#[test]
fn answer_forms_and_parse_failures() {
    let parse = |raw: &str| {
        (
            0.0,
            format!(
                "<b>passed:</b> False<br><b>errors:</b> ['parse_failure']<br><b>details.raw_output:</b> {raw}"
            ),
        )
    };
    // In the dict, True survives json.dumps as `true`, which literal_eval refuses…
    assert_eq!(
        unit("{'segments': [[[0, 0], [1, True]], [[0, 1], [1, 0]]]}"),
        parse("[[[0, 0], [1, true]], [[0, 1], [1, 0]]]")
    );
    // … while a bare list keeps True, an int.
    assert_eq!(unit("[[[0, 0], [1, True]], [[0, 1], [1, 0]]]").0, 1.0);
    // A tuple at the top, three segments, a dict without `segments`.
    assert_eq!(
        unit("(((0, 0), (1, 1)), ((0, 1), (1, 0)))"),
        parse("(((0, 0), (1, 1)), ((0, 1), (1, 0)))")
    );
    assert_eq!(
        unit("{'segments': [[[0, 0], [1, 1]], [[0, 1], [1, 0]], [[0, 0], [1, 1]]]}"),
        parse("[[[0, 0], [1, 1]], [[0, 1], [1, 0]], [[0, 0], [1, 1]]]")
    );
    assert_eq!(
        unit("{'answer': [[[0, 0], [1, 1]], [[0, 1], [1, 0]]]}"),
        parse("{'answer': [[[0, 0], [1, 1]], [[0, 1], [1, 0]]]}")
    );
    // raw_output keeps 200 characters; words with spaces are no scalar list, but
    // single words are.
    let long = format!("[{}]", "x".repeat(300));
    assert_eq!(unit(&long).1, parse(&long[..200]).1);
    assert_eq!(unit("no idea, sorry").1, parse("no idea, sorry").1);
    assert_eq!(unit("none, sorry").1, parse("['none', 'sorry']").1);
}

#[test]
fn where_the_original_raises_and_empty_answers() {
    let (score, message) = unit("{'segments': [[[0, 0], [1, {1}]], [[0, 1], [1, 0]]]}");
    assert_eq!(score, 0.0);
    assert!(message.contains("not JSON serializable"), "{message}");
    assert!(message.ends_with("its runner records 10000)"));
    let huge = format!("[[[0, 0], [1, 1{}]], [[0, 1], [1, 0]]]", "0".repeat(400));
    assert!(unit(&huge).1.ends_with("its runner records 10000)"));
    let (score, message) = unit("{[1]: 2}");
    assert_eq!(score, 0.0);
    assert!(message.ends_with("its runner records 10000)"), "{message}");
    for empty in ["", "{}", "None", "[]"] {
        assert!(unit(empty).1.starts_with("empty answer"), "{empty:?}");
    }
}

#[test]
fn literal_eval_refuses_expressions() {
    use verigate_sdk::python::literal::{Literal, literal_eval};
    for ok in [
        "[1, -2.5, (3,)]",
        "{'a': None, \"b\": True}",
        "- 5",
        "'a' 'b'",
        "[1e-5, .5, 0x1F]",
    ] {
        assert!(matches!(literal_eval(ok), Literal::Value(_)), "{ok}");
    }
    for bad in [
        "1-0",
        "[1+1]",
        "abs(1)",
        "x",
        "[1][0]",
        "--5",
        "-True",
        "f'x'",
        "[i for i in ()]",
        "1 if 1 else 2",
        "inf",
    ] {
        assert!(matches!(literal_eval(bad), Literal::Invalid), "{bad}");
    }
}
