use verigate_sdk::serde_json::{self, Value as Json};

use crate::{Instance, grade};

/// Row 1 of the dataset: five squares.
fn row1() -> Instance {
    Instance {
        ground_truth: vec![
            vec![[0, 3]],
            vec![],
            vec![[0, 3], [1, 2]],
            vec![[1, 3]],
            vec![[2, 3]],
        ],
    }
}

fn graded(text: &str) -> Json {
    serde_json::to_value(grade(&row1(), text)).unwrap()
}

fn message(text: &str) -> String {
    graded(text)["message"].as_str().unwrap_or("").to_owned()
}

const PASS: &str = "<b>passed:</b> True<br><b>missing:</b> []<br><b>errors:</b> []";

#[test]
fn the_ground_truth_passes_in_every_form() {
    for text in [
        "{'edges': [[[0, 3]], [], [[0, 3], [1, 2]], [[1, 3]], [[2, 3]]]}",
        // pair order within a square is free; tuples become lists through json.dumps
        "{'edges': [((0, 3),), [], [(1, 2), (0, 3)], [[1, 3]], [[2, 3]]]}",
        // True is an int
        "{'edges': [[[0, 3]], [], [[0, 3], [True, 2]], [[True, 3]], [[2, 3]]]}",
        "[[[0, 3]], [], [[0, 3], [1, 2]], [[1, 3]], [[2, 3]]]",
        "Thinking...\n```python\n[[[0, 3]], [], [[0, 3], [1, 2]], [[1, 3]], [[2, 3]]]\n```",
        "The answer is [[[0, 3]], [], [[0, 3], [1, 2]], [[1, 3]], [[2, 3]]].",
    ] {
        let v = graded(text);
        assert_eq!(
            (v["pass"].clone(), v["message"].as_str().unwrap()),
            (Json::Bool(true), PASS),
            "{text}"
        );
    }
}

#[test]
fn the_wrapper_explanation_exactly() {
    // A real answer (claude-sonnet-4-5-HighReasoning, subpass 1).
    assert_eq!(
        message("{'edges': [[[0, 3]], [], [], [[1, 3]], [[2, 3]]]}"),
        "<b>passed:</b> False<br><b>missing:</b> [2]<br><b>errors:</b> []"
    );
    assert_eq!(
        message("{'edges': [[[0, 3]]]}"),
        "<b>passed:</b> False<br><b>missing:</b> []<br><b>errors:</b> ['length_mismatch: expected 5, got 1']"
    );
    // Every square is checked; errors and missing squares are both collected.
    assert_eq!(
        message("{'edges': [[[3, 0]], 7, [[0, 3], [1.0, 2]], [[1, 3, 4]], []]}"),
        "<b>passed:</b> False<br><b>missing:</b> [4]<br><b>errors:</b> ['idx_0: pair not sorted (i < j required)', \
         'idx_1: not a list', 'idx_2: non-integer in pair', 'idx_3: invalid pair format']"
    );
    // A duplicate pair is not the same sorted list.
    assert_eq!(
        message("{'edges': [[[0, 3], [0, 3]], [], [[0, 3], [1, 2]], [[1, 3]], [[2, 3]]]}"),
        "<b>passed:</b> False<br><b>missing:</b> [0]<br><b>errors:</b> []"
    );
    assert_eq!(
        message("no list here"),
        "<b>passed:</b> False<br><b>missing:</b> []<br><b>errors:</b> ['parse_failure']"
    );
}

#[test]
fn without_the_json_round_trip_tuples_are_not_lists() {
    // A bare list goes to the verifier as its repr: tuples stay tuples there.
    assert_eq!(
        message("[((0, 3),), [], [[0, 3], [1, 2]], [[1, 3]], [[2, 3]]]"),
        "<b>passed:</b> False<br><b>missing:</b> []<br><b>errors:</b> ['idx_0: not a list']"
    );
    assert_eq!(
        message("[[(0, 3)], [], [[0, 3], [1, 2]], [[1, 3]], [[2, 3]]]"),
        "<b>passed:</b> False<br><b>missing:</b> []<br><b>errors:</b> ['idx_0: invalid pair format']"
    );
}

#[test]
fn where_the_wrapper_raises() {
    let v = graded("{'edges': [{(0, 3)}, [], [], [], []]}");
    assert_eq!(v["score"], 0.0);
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .contains("json.dumps(edges) raises TypeError")
    );
    assert!(
        graded("''")["message"]
            .as_str()
            .unwrap()
            .starts_with("empty answer")
    );
}

#[test]
fn an_empty_ground_truth_passes_any_empty_list() {
    let empty = Instance {
        ground_truth: vec![],
    };
    let v = serde_json::to_value(grade(&empty, "{'edges': []}")).unwrap();
    // {'edges': []} is truthy; the empty list matches the empty ground truth.
    assert_eq!(v["pass"], true);
}
