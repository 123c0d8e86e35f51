//! Grading on a hand-checked 4×4 grid (# in the top-left 2×2 block).

use super::*;

fn instance() -> Instance {
    Instance {
        size: 4,
        rows: ["##..", "##..", "....", "...."].map(String::from).to_vec(),
        pow_exceptions: Vec::new(),
    }
}

/// (score, message, details) for an answer whose function is `def f(x, y):\n    return {body}`.
fn graded_text(text: &str) -> (f64, String, Json) {
    let v = verigate_sdk::serde_json::to_value(grade(&instance(), text)).unwrap();
    (
        v["score"].as_f64().unwrap(),
        v["message"].as_str().unwrap_or("").to_owned(),
        v["details"].clone(),
    )
}

fn graded(body: &str) -> (f64, String, Json) {
    let function = format!("def f(x, y):\n    return {body}");
    graded_text(&format!("{{'reasoning': '', 'function': {function:?}}}"))
}

#[test]
fn scores_are_the_fourth_power_of_the_matched_fraction() {
    // (1, 1) gives 0, not positive: 15 of 16 match, 0.9375**4.
    let (score, message, details) = graded("2 - x - y");
    assert_eq!(score, 0.7724761962890625);
    assert_eq!(message, "Grid size: 4, matched 15/16 cells");
    assert_eq!(details["positive"], 3);
    assert_eq!(details["prompt_compliant"], true);
    let (score, message, details) = graded("(x < 2) * (y < 2) - 0.5");
    assert_eq!(
        (score, message.as_str()),
        (1.0, "Grid size: 4, matched 16/16 cells")
    );
    assert_eq!(details["prompt_compliant"], false);
    assert_eq!(graded("x*0 + y*0 - 1").1, "Output was uniformly valued");
    assert_eq!(graded("x*0 + y*0 + 1").1, "Output was uniformly valued");
}

#[test]
fn cells_that_raise_count_neither_way() {
    // x = 1 divides by zero (4 cells); 6 of the other 12 match: 0.375 < 0.75 scores 0.
    let (score, message, details) = graded("1/(x-1) * (y < 2)");
    assert_eq!(score, 0.0);
    assert_eq!(
        message,
        "Grid size: 4, matched 6/16 cells\n4 evaluation errors occurred"
    );
    assert_eq!(
        details["first_error"],
        "f(1, 0): ZeroDivisionError: division by zero"
    );
    // x = 0: (-1) ** 0.5 is complex in CPython, and `complex > 0` raises: 12/16 = 0.75.
    let (score, message, _) = graded("(x-1)**0.5 * 0 + (x < 2) * (y < 2) - 0.5");
    assert_eq!(score, 0.31640625);
    assert_eq!(
        message,
        "Grid size: 4, matched 12/16 cells\n4 evaluation errors occurred"
    );
    // `complex == 0` is False in CPython, not an error: not evaluated here.
    let (_, message, details) = graded("((x-1)**0.5 == 0) + (x < 2) * (y < 2) - 0.5");
    assert!(message.starts_with("cannot be graded faithfully: f(0, 0): Unsupported"));
    assert!(details["unsupported"].is_string());
    // x = 3: float ** overflows (OverflowError); float * does not (inf).
    let (score, _, details) = graded("10.0 ** (400 * (x == 3)) * 0 + (x < 2) * (y < 2) - 0.5");
    assert_eq!((score, details["errors"].as_u64()), (0.31640625, Some(4)));
    let (score, _, details) = graded("(x == 3) * 1e300 * 1e300 + (x < 2) * (y < 2) - 0.5");
    assert_eq!((score, details["errors"].as_u64()), (0.31640625, Some(0)));
    // 0 ** -1 raises; a tuple does not compare with 0.
    assert_eq!(
        graded("x ** -1 * 0 + (x < 2) * (y < 2) - 0.5").2["errors"],
        4
    );
    assert_eq!(graded("x, y").1, "Output was uniformly valued");
}

#[test]
fn integers_are_exact() {
    // (10**20 + x)**2 expanded exactly is 0; in floats it would not be.
    let (score, _, _) =
        graded("(10**20 + x)**2 - 10**40 - 2*10**20*x - x*x + (x < 2) * (y < 2) - 0.5");
    assert_eq!(score, 1.0);
    let (score, _, _) = graded("(1e20 + x)**2 - 1e40 - 2e20*x - x*x + (x < 2) * (y < 2) - 0.5");
    assert!(score < 1.0);
}

#[test]
fn statements_and_one_line_bodies() {
    // No return statement (the required text "return xy" is in a comment): f returns None.
    let text = "{'function': 'def f(x,y): e = x - 2; ex, ey = e, y - 2\\n    # return xy'}";
    assert_eq!(graded_text(text).1, "Output was uniformly valued");
    let text = "{'function': 'def f(x, y):\\n    e = x - 2\\n    e *= (y < 2)\\n    return -e - 0.5 * (x > 1) - 0.5 * (y > 1)'}";
    let (score, message, details) = graded_text(text);
    assert_eq!(
        (score, message.as_str()),
        (1.0, "Grid size: 4, matched 16/16 cells")
    );
    assert_eq!(details["prompt_compliant"], false);
    // A name read before it is assigned fails every cell.
    let text = "{'function': 'def f(x, y):\\n    return e + x + y\\n    e = 1'}";
    assert_eq!(graded_text(text).1, "Output was uniformly valued");
}

#[test]
fn failures_before_evaluation() {
    let (score, message, _) =
        graded_text("{'function': 'def f(x,y):\\n    return (x\\n    ) + y)'}");
    assert_eq!(score, 0.0);
    assert_eq!(
        message,
        "Error evaluating AI-generated python function: unmatched ')' (<string>, line 3)"
    );
    assert_eq!(
        graded("abs(x) - y").1,
        "Invalid characters in answer: def f(x, y):\n    return abs(x) - y. It contained \"(, ):\n     abs() -\". Score is 0"
    );
    assert!(
        graded_text("{'function': 'x'}")
            .1
            .starts_with("Invalid function signature")
    );
    assert_eq!(
        graded_text("None").1,
        Verdict::falsy_answer().message().unwrap()
    );
    assert_eq!(graded_text("{}").0, 0.0);
    assert!(
        graded_text("'def f(x, y): return x*y'")
            .1
            .ends_with("its runner records 10000)")
    );
    assert!(
        graded_text("{'reasoning': 'x'}")
            .1
            .contains("no 'function'")
    );
    assert!(
        graded_text("{'function': 5}")
            .1
            .contains("'function' is a int")
    );
    let (score, message, details) =
        graded_text("{'function': 'def f(x, y):\\n    return x*y\\ndef ff(x, y):\\n    return x'}");
    assert_eq!(score, 0.0);
    assert!(message.starts_with("cannot be graded faithfully: line 3"));
    assert!(details["unsupported"].is_string());
}

#[test]
fn json_answers_are_read_too() {
    let (score, _, _) = graded_text(
        r#"{"reasoning": "r", "function": "def f(x, y):\n    return (x < 2) * (y < 2) - 0.5"}"#,
    );
    assert_eq!(score, 1.0);
}
