//! `scbench-q53-classify-behaviour` (verdict-json): SCBench Q53 "VGB3 — Topology Edge
//! Tasks: Classify Behaviour", a port of the benchmark's `53.py` wrapper and
//! VisGeomBench's classify verifier.
//!
//! The instance holds the dataset's `ground_truth` labels, one per square. The payload is
//! the model answer as the runner stored it: `{'labels': [...]}`, a bare list, or free
//! text (last balanced `[...]`). It passes when it has one label per square, every label
//! is one of the three exact strings, and each equals the ground truth's.

use serde::Deserialize;
use verigate_sdk::Verdict;
use verigate_sdk::serde_json::json;

const LABELS: [&str; 3] = ["known behaviour", "three domains meeting", "ambiguous"];

#[derive(Deserialize)]
struct Instance {
    ground_truth: Vec<String>,
}

fn grade(instance: &Instance, text: &str) -> Verdict {
    let Some(list) = verigate_sdk::python::answer_list(text, "labels") else {
        return Verdict::fail("no list of labels could be parsed from the answer");
    };
    let items = list.as_sequence().unwrap_or_default();
    let truth = &instance.ground_truth;
    if items.len() != truth.len() {
        return Verdict::fail(format!("{} labels, expected {}", items.len(), truth.len()));
    }
    let mut wrong = Vec::new();
    for (n, (item, want)) in items.iter().zip(truth).enumerate() {
        let Some(label) = item.as_str().filter(|l| LABELS.contains(l)) else {
            return Verdict::fail(format!(
                "label {} {} is not one of {LABELS:?}",
                n + 1,
                item.repr_short(40)
            ));
        };
        if label != want {
            wrong.push(format!("square {}: {label:?}, expected {want:?}", n + 1));
        }
    }
    let details = json!({ "squares": truth.len(), "wrong": wrong.len() });
    match wrong.first() {
        None => Verdict::pass(),
        Some(first) => Verdict::fail(format!("{} of {} wrong; {first}", wrong.len(), truth.len())),
    }
    .with_details(details)
}

verigate_sdk::main!(verdict_json, grade_instance(grade));

#[cfg(test)]
mod tests {
    use super::*;

    fn graded(text: &str) -> (bool, String) {
        let instance = Instance {
            ground_truth: vec!["known behaviour".into(), "ambiguous".into()],
        };
        let v = verigate_sdk::serde_json::to_value(grade(&instance, text)).unwrap();
        (
            v["pass"] == true,
            v["message"].as_str().unwrap_or("").to_owned(),
        )
    }

    #[test]
    fn exact_labels_pass_in_every_form() {
        assert!(graded("{'labels': ['known behaviour', 'ambiguous']}").0);
        assert!(graded("<thinking>…</thinking>\n[\"known behaviour\", \"ambiguous\"]").0);
    }

    #[test]
    fn mismatches_are_named() {
        assert_eq!(
            graded("['known behaviour', 'known behaviour']").1,
            "1 of 2 wrong; square 2: \"known behaviour\", expected \"ambiguous\""
        );
        assert_eq!(graded("['known behaviour']").1, "1 labels, expected 2");
        assert_eq!(
            graded("['Known behaviour', 'ambiguous']").1,
            "label 1 'Known behaviour' is not one of [\"known behaviour\", \"three domains meeting\", \"ambiguous\"]"
        );
    }
}
