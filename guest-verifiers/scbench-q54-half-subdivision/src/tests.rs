use verigate_sdk::serde_json::{self, Value as Json};

use crate::{Instance, grade};

/// Row 2 of the dataset: target 000111, four neighbours.
fn row2() -> Instance {
    Instance {
        ground_truth: ["000011", "000110", "001111", "010100"]
            .map(String::from)
            .to_vec(),
    }
}

fn graded(text: &str) -> Json {
    serde_json::to_value(grade(&row2(), text)).unwrap()
}

fn message(text: &str) -> String {
    graded(text)["message"].as_str().unwrap_or("").to_owned()
}

const PASS: &str =
    "<b>passed:</b> True<br><b>missing:</b> []<br><b>extra:</b> []<br><b>errors:</b> []";
const PARSE_FAILURE: &str = "<b>passed:</b> False<br><b>missing:</b> []<br><b>extra:</b> []<br><b>errors:</b> ['parse_failure']";

#[test]
fn the_neighbours_pass_in_every_form() {
    for text in [
        "{'neighbors': ['000011', '000110', '001111', '010100']}",
        "{'neighbors': ['010100', ' 000011 ', '000110', '001111']}",
        "[\"000011\", \"000110\", \"001111\", \"010100\"]",
        "<thinking>…</thinking>\n000011, 000110, 001111, 010100",
        "Neighbours: '000011', '000110', '001111', '010100'",
        "```\n['000011', '000110', '001111', '010100']\n```",
    ] {
        assert_eq!(message(text), PASS, "{text}");
        assert_eq!(graded(text)["pass"], true);
    }
}

#[test]
fn the_wrapper_explanation_exactly() {
    // A real answer (gpt-5.2-HighReasoning, subpass 1, against that row's ground truth).
    let row1 = Instance {
        ground_truth: [
            "0000011",
            "00010010",
            "00010011",
            "0001010",
            "000110100",
            "000110101",
            "00011011",
            "001001",
            "010101",
        ]
        .map(String::from)
        .to_vec(),
    };
    let v = serde_json::to_value(grade(
        &row1,
        "{'neighbors': ['00010010', '00010011', '0001010', '000111', '001001', '010100']}",
    ))
    .unwrap();
    assert_eq!(
        v["message"],
        "<b>passed:</b> False<br><b>missing:</b> ['0000011', '000110100', '000110101', '00011011', \
         '010101']<br><b>extra:</b> ['000111', '010100']<br><b>errors:</b> []"
    );
    assert_eq!(
        message("{'neighbors': []}"),
        "<b>passed:</b> False<br><b>missing:</b> ['000011', '000110', '001111', '010100']<br><b>extra:</b> []<br><b>errors:</b> []"
    );
    // The root label, written "" or '""'.
    assert_eq!(
        message("{'neighbors': ['000011', '000110', '001111', '010100', '\"\"']}"),
        "<b>passed:</b> False<br><b>missing:</b> []<br><b>extra:</b> ['']<br><b>errors:</b> []"
    );
}

#[test]
fn tokens_normalise_as_in_the_verifier() {
    // ints lose leading zeros; integral floats become ints; 1e3 is "1000".
    assert_eq!(
        message("{'neighbors': [11, 110, 1111, 10100]}"),
        "<b>passed:</b> False<br><b>missing:</b> ['000011', '000110', '001111', '010100']<br><b>extra:</b> ['10100', '11', '110', '1111']<br><b>errors:</b> []"
    );
    let one_digit = Instance {
        ground_truth: vec!["1000".into(), "1".into()],
    };
    let v = serde_json::to_value(grade(&one_digit, "{'neighbors': [1e3, 1.0]}")).unwrap();
    assert_eq!(v["pass"], true);
    // bools, None, nested lists, non-0/1 strings and duplicates: a parse failure.
    for text in [
        "{'neighbors': [True]}",
        "{'neighbors': [None, '000011']}",
        "{'neighbors': [['000011']]}",
        "{'neighbors': ['000012']}",
        "{'neighbors': ['000011', '000110', '001111', '010100', '000011']}",
        "{'neighbors': [1.5]}",
    ] {
        assert_eq!(message(text), PARSE_FAILURE, "{text}");
    }
}

#[test]
fn where_the_wrapper_raises() {
    let v = graded("{'neighbors': [{'000011'}]}");
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .contains("json.dumps(neighbors) raises TypeError"),
        "{v}"
    );
    assert_eq!(v["score"], 0.0);
}

#[test]
fn the_parser_prefers_the_last_line() {
    // One label per line after a heading: the parser's candidates are the whole text (it
    // has a ':'), then the last line, which is a valid one-item list.
    assert_eq!(
        message("Neighbours:\n'000011'\n'000110'\n'001111'\n'010100'"),
        "<b>passed:</b> False<br><b>missing:</b> ['000011', '000110', '001111']<br><b>extra:</b> []<br><b>errors:</b> []"
    );
}
