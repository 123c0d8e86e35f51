//! Hand-worked cases for the grading steps and their messages.

use super::*;

const OPTIMUM: &str = "888999996969699696669666333377777711111171";

fn inst() -> Instance {
    Instance {
        solution: OPTIMUM.into(),
        target_height_mm: 70.0,
    }
}

fn answer(items: &[(&str, &str)]) -> String {
    let parts: Vec<String> = items
        .iter()
        .map(|(d, o)| format!("{{'digit': {d}, 'orientation': '{o}'}}"))
        .collect();
    format!(
        "{{'numberSequence': [{}], 'reasoning': ''}}",
        parts.join(", ")
    )
}

fn digits(number: &str, orientations: &[&str]) -> String {
    let items: Vec<(String, &str)> = number
        .chars()
        .zip(orientations)
        .map(|(c, o)| (c.to_string(), *o))
        .collect();
    let refs: Vec<(&str, &str)> = items.iter().map(|(d, o)| (d.as_str(), *o)).collect();
    answer(&refs)
}

fn graded_with(inst: &Instance, text: &str) -> (f64, String, verigate_sdk::serde_json::Value) {
    let v = verigate_sdk::serde_json::to_value(grade(inst, text)).unwrap();
    (
        v["score"].as_f64().unwrap(),
        v["message"].as_str().unwrap_or("").to_owned(),
        v["details"].clone(),
    )
}

fn graded(text: &str) -> (f64, String, verigate_sdk::serde_json::Value) {
    graded_with(&inst(), text)
}

fn reference_orientations() -> Vec<&'static str> {
    let mut o = vec!["flat"; 40];
    o.extend(["rotate90Y", "rotate90X"]);
    o
}

#[test]
fn the_optimum_scores_one() {
    let (score, message, details) = graded(&digits(OPTIMUM, &reference_orientations()));
    assert_eq!(score, 1.0);
    assert_eq!(
        message,
        "Answer given was of length 42 while the largest printable prime is of length 42.<br><br> \
         Height was 80.4mm which was over the target height of 70mm."
    );
    assert_eq!(details["corrected"]["pass"], true);
    // All flat: under 70 mm (and the 7 cannot sit flat on a 1).
    let (_, message, _) = graded(&digits(OPTIMUM, &["flat"; 42]));
    assert_eq!(
        message,
        "Digit 7 (orientation: flat) cannot be printed on top of digit 1 (orientation: flat)<br>Stack is not printable."
    );
}

#[test]
fn a_short_prime_gets_partial_credit() {
    let (score, message, _) = graded(&answer(&[("1", "flat"), ("7", "rotate90Y")]));
    assert_eq!(score, 2.0 / 42.0 * 0.9);
    assert_eq!(
        message,
        "Answer given was of length 2 while the largest printable prime is of length 42.<br><br> \
         Height was 12.4mm which was under the target height of 70mm, so penalized by 10%."
    );
}

#[test]
fn each_check_in_order() {
    assert_eq!(graded("{'numberSequence': []}").1, "Empty number");
    let repeat = digits("8888888881", &["flat"; 10]);
    assert_eq!(
        graded(&repeat).1,
        "8888888881 contains a sequence of 3 digits repeated more than once: ('8', '8', '8')"
    );
    assert_eq!(
        graded(&answer(&[("8", "rotate90X")])).1,
        "Digit 8 (orientation: rotate90X) has overhangs."
    );
    assert_eq!(
        graded(&answer(&[("3", "rotate90Y")])).1,
        "Digit 3 (orientation: rotate90Y) has overhangs."
    );
    let composite = format!("{}3", &OPTIMUM[..41]);
    assert_eq!(
        graded(&digits(&composite, &reference_orientations())).1,
        format!("{composite} is not prime")
    );
    // 251 is prime; a 1 on its side cannot sit on a 5.
    let (_, message, _) = graded(&answer(&[("2", "flat"), ("5", "flat"), ("1", "rotate90Y")]));
    assert_eq!(
        message,
        "Digit 1 (orientation: rotate90Y) cannot be printed on top of digit 5 (orientation: flat)<br>Stack is not printable."
    );
}

#[test]
fn sentinel_paths() {
    // An unknown orientation on top: the original returns 100.
    let (score, message, details) = graded(&answer(&[("1", "flat"), ("7", "sideways")]));
    assert_eq!(score, 0.0);
    assert!(message.starts_with(
        "Digit 7 (orientation: sideways) wasn't coded if it could be printed on top of digit 1 \
         (orientation: flat)<br>Grading code needs updating."
    ));
    assert_eq!(details["original_returns"], 100);
    assert_eq!(details["corrected"]["score"], 0.0);
    // Above the optimum (here a smaller stand-in optimum).
    let small = Instance {
        solution: "13".into(),
        target_height_mm: 70.0,
    };
    let (score, message, details) =
        graded_with(&small, &answer(&[("1", "flat"), ("7", "rotate90Y")]));
    assert_eq!(score, 0.0);
    assert!(message.starts_with("Test needs updating. Well done!"));
    assert_eq!(details["corrected"]["score"], 0.9);
}

#[test]
fn textual_digits_and_raises() {
    // One "digit" holding 17: no neighbours to check.
    let (score, _, details) = graded("{'numberSequence': [{'digit': 17, 'orientation': 'flat'}]}");
    assert_eq!(score, 2.0 / 42.0 * 0.9);
    assert_eq!(details["corrected"]["score"], 0.0);
    // A leading zero counts towards the length.
    let (score, _, details) = graded(&answer(&[("0", "flat"), ("7", "rotate90Y")]));
    assert_eq!(score, 2.0 / 42.0 * 0.9);
    assert_eq!(details["corrected"]["score"], 1.0 / 42.0 * 0.9);
    for text in [
        "{'numberSequence': [{'digit': 'x', 'orientation': 'flat'}]}",
        "{'numberSequence': [{'digit': 7}]}",
        "{'numberSequence': 'abc'}",
        "{'numberSequence': 5}",
        "{'digits': []}",
        "['numberSequence']",
        // canPrintOnTop(12) is None.
        "{'numberSequence': [{'digit': 12, 'orientation': 'flat'}, {'digit': 7, 'orientation': 'flat'}]}",
    ] {
        let (score, message, _) = graded(text);
        assert_eq!(score, 0.0, "{text}");
        assert!(message.ends_with(RAISES), "{text}: {message}");
    }
    assert!(graded("").1.starts_with("empty answer"));
    // True is 1 for the rules, but "True" for the number.
    let (_, message, _) = graded("{'numberSequence': [{'digit': True, 'orientation': 'flat'}]}");
    assert!(message.ends_with(RAISES), "{message}");
}

#[test]
fn repeated_groups_read_from_the_right() {
    assert_eq!(repeated_group("123321123"), Some(vec!['3', '2', '1']));
    assert_eq!(repeated_group("123111231"), None);
    assert_eq!(repeated_group("1111"), None);
    assert_eq!(repeated_group("1111111"), Some(vec!['1', '1', '1']));
}

/// Cases written by the generator's Python restatement (`Q30_CASES=path`).
#[test]
#[ignore]
fn differential() {
    let path = std::env::var("Q30_CASES").expect("Q30_CASES");
    let text = std::fs::read_to_string(path).unwrap();
    let mut bad = 0;
    for (k, line) in text.lines().enumerate() {
        let case: verigate_sdk::serde_json::Value =
            verigate_sdk::serde_json::from_str(line).unwrap();
        let (score, message, _) = graded(case["answer"].as_str().unwrap());
        let want = case["score"].as_f64().unwrap();
        let want_msg = case["message"].as_str().unwrap();
        let ok = if want == 100.0 {
            score == 0.0 && message.contains("returns the sentinel 100")
        } else {
            score == want && message == want_msg
        };
        if !ok {
            bad += 1;
            if bad < 10 {
                eprintln!("case {k}: want {want} {want_msg:?}\n      got {score} {message:?}");
            }
        }
    }
    assert_eq!(bad, 0);
}
