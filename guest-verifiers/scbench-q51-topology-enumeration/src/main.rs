//! `scbench-q51-topology-enumeration` (verdict-json): SCBench Q51 "VGB1 — Topology
//! Enumeration", a port of the benchmark's `51.py` wrapper and VisGeomBench's topology
//! enumeration verifier.
//!
//! The instance holds the dataset's `ground_truth` (corner-label 4-tuples). The payload
//! is the model answer as the runner stored it: `{'configs': [[a, b, c, d], ...]}`, a bare
//! list, or free text (last balanced `[...]`). The answer must be a list of 4-item
//! sequences of ints; it passes when, as in the original, (a) it has as many entries as
//! the ground truth, (b) it uses the same set of labels, and (c) the sets of canonical
//! forms (labels renamed by first occurrence: (7, 5, 7, 3) → (0, 1, 0, 2)) are equal.
//! A duplicate is tolerated by (c) but then fails (a), as in the original.

use std::collections::BTreeSet;

use serde::Deserialize;
use verigate_sdk::Verdict;
use verigate_sdk::python::{BigInt, Value};
use verigate_sdk::serde_json::json;

#[derive(Deserialize)]
struct Instance {
    ground_truth: Vec<[i64; 4]>,
}

type Config = [BigInt; 4];

/// The answer's configurations, or why it is not a list of 4-tuples of ints.
fn configs(list: &Value) -> std::result::Result<Vec<Config>, String> {
    let items = list.as_sequence().unwrap_or_default();
    items
        .iter()
        .enumerate()
        .map(|(n, item)| {
            let parts = item.as_sequence().filter(|p| p.len() == 4).ok_or_else(|| {
                format!("entry {} {} is not a 4-tuple", n + 1, item.repr_short(40))
            })?;
            let mut config: Config = Default::default();
            for (slot, part) in config.iter_mut().zip(parts) {
                // isinstance(x, int): bools are ints in Python, floats are not.
                *slot = match (part.as_bool(), part.as_bigint()) {
                    (Some(b), _) => BigInt::from(u8::from(b)),
                    (None, Some(i)) => i,
                    _ => {
                        return Err(format!(
                            "entry {} {} holds a non-integer",
                            n + 1,
                            item.repr_short(40)
                        ));
                    }
                };
            }
            Ok(config)
        })
        .collect()
}

/// Labels renamed by first occurrence.
fn canonical(config: &Config) -> [usize; 4] {
    let mut seen: Vec<&BigInt> = Vec::new();
    config.each_ref().map(|label| {
        seen.iter().position(|s| *s == label).unwrap_or_else(|| {
            seen.push(label);
            seen.len() - 1
        })
    })
}

fn grade(instance: &Instance, text: &str) -> Verdict {
    let Some(list) = verigate_sdk::python::answer_list(text, "configs") else {
        return Verdict::fail("no list of configurations could be parsed from the answer");
    };
    let predicted = match configs(&list) {
        Ok(c) => c,
        Err(why) => return Verdict::fail(why),
    };
    let truth: Vec<Config> = instance
        .ground_truth
        .iter()
        .map(|t| t.map(BigInt::from))
        .collect();
    let labels = |cs: &[Config]| -> BTreeSet<BigInt> { cs.iter().flatten().cloned().collect() };
    let forms = |cs: &[Config]| -> BTreeSet<[usize; 4]> { cs.iter().map(canonical).collect() };
    let (want, have) = (forms(&truth), forms(&predicted));
    let details = json!({
        "entries": predicted.len(),
        "expected_entries": truth.len(),
        "missing": want.difference(&have).count(),
        "extra": have.difference(&want).count(),
    });
    let verdict = if predicted.len() != truth.len() {
        Verdict::fail(format!(
            "{} configurations, expected {}",
            predicted.len(),
            truth.len()
        ))
    } else if labels(&predicted) != labels(&truth) {
        Verdict::fail(format!(
            "the labels used are {:?}, expected {:?}",
            labels(&predicted)
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>(),
            labels(&truth)
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
        ))
    } else if have != want {
        Verdict::fail(format!(
            "{} expected configurations missing, {} not expected (after relabelling by first occurrence)",
            want.difference(&have).count(),
            have.difference(&want).count()
        ))
    } else {
        Verdict::pass()
    };
    verdict.with_details(details)
}

verigate_sdk::main!(verdict_json, grade_instance(grade));

#[cfg(test)]
mod tests {
    use super::*;

    /// Two classes, canonical corner order.
    fn instance() -> Instance {
        Instance {
            ground_truth: vec![
                [1, 0, 0, 0],
                [0, 1, 0, 0],
                [0, 0, 1, 0],
                [0, 0, 0, 1],
                [0, 0, 1, 1],
                [0, 1, 1, 0],
                [0, 1, 0, 1],
            ],
        }
    }

    fn graded(text: &str) -> (bool, String) {
        let v = verigate_sdk::serde_json::to_value(grade(&instance(), text)).unwrap();
        (
            v["pass"] == true,
            v["message"].as_str().unwrap_or("").to_owned(),
        )
    }

    #[test]
    fn renamings_and_orders_pass() {
        // (1,0,0,0) written as (0,1,1,1); (0,0,1,1) as (1,1,0,0); tuples and true/false.
        let answer = "{'configs': [(0,1,1,1), (1,0,1,1), (1,1,0,1), (0,0,0,1), (1,1,0,0), (True,False,False,True), [0,1,0,1]]}";
        assert_eq!(graded(answer), (true, String::new()));
    }

    #[test]
    fn the_original_checks_in_order() {
        assert_eq!(graded("[[0,0,0,1]]").1, "1 configurations, expected 7");
        let twice = "[[0,0,0,1],[0,0,0,1],[0,0,1,0],[0,1,0,0],[1,0,0,0],[0,0,1,1],[0,1,1,0]]";
        assert_eq!(
            graded(twice).1,
            "1 expected configurations missing, 0 not expected (after relabelling by first occurrence)"
        );
        let other_labels =
            "[[0,0,0,2],[0,0,2,0],[0,2,0,0],[2,0,0,0],[0,0,2,2],[0,2,2,0],[0,2,0,2]]";
        assert_eq!(
            graded(other_labels).1,
            "the labels used are [\"0\", \"2\"], expected [\"0\", \"1\"]"
        );
        assert_eq!(graded("[[0,0,1]]").1, "entry 1 [0, 0, 1] is not a 4-tuple");
        assert_eq!(
            graded("[[0,0,1,1.0]]").1,
            "entry 1 [0, 0, 1, 1.0] holds a non-integer"
        );
    }
}
