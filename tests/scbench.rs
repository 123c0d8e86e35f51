//! SCBench: verigate's verdicts on real model answers against the scores SCBench's own
//! grader stored for them (`tests/fixtures/scbench/q<N>.jsonl`, one file per task, each line
//! naming its source files in the public repository; format in that directory's README).

mod common;

use common::{repo_root, run_with, sandbox};
use serde::Deserialize;
use std::collections::BTreeMap;
use verigate::registry::Registry;

/// One stored answer, and the score and explanation the original grader gave it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Stored {
    model: String,
    task: u32,
    subpass: u32,
    answer: String,
    score: f64,
    explanation: Option<String>,
    #[allow(dead_code)] // provenance, for readers of the fixture
    source: String,
    /// Largest |verigate − stored| still counted as agreement (geometry and physics
    /// tasks, whose originals used OpenSCAD/CGAL, trimesh or PyBullet); 0 = exact.
    #[serde(default)]
    tolerance: f64,
    /// verigate's message must equal the stored explanation (where it is ported).
    #[serde(default)]
    compare_explanation: bool,
    /// A documented case where the stored score did not come from the grader version
    /// that verigate ports; verigate's own score is pinned instead.
    known_difference: Option<KnownDifference>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct KnownDifference {
    why: String,
    verigate_score: f64,
}

/// Per-task tallies.
#[derive(Default)]
struct Tally {
    pairs: usize,
    exact: usize,
    within_tolerance: usize,
    known: usize,
}

#[test]
fn verdicts_agree_with_the_scores_scbench_stored_for_real_model_answers() {
    let dir = repo_root().join("tests/fixtures/scbench");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the fixture directory")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    let registry = Registry::open(&repo_root().join("registry")).expect("the registry");
    let sandbox = sandbox();
    let mut problems = Vec::new();
    let mut tallies: BTreeMap<u32, Tally> = BTreeMap::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("a fixture file");
        for (number, line) in text.lines().enumerate() {
            let at = format!("{}:{}", path.display(), number + 1);
            let stored: Stored = serde_json::from_str(line).unwrap_or_else(|e| panic!("{at}: {e}"));
            let id = format!("scbench/q{}/{}", stored.task, stored.subpass);
            let item = registry
                .item(&id)
                .unwrap_or_else(|e| panic!("{at}: {id}: {e}"));
            let (module, _) = registry.module(item.module.as_deref().unwrap()).unwrap();
            let verifier = common::load(&sandbox, &module);
            let run = run_with(
                &sandbox,
                &verifier,
                &stored.answer,
                registry.instance_dir(item).as_deref(),
                item.limits,
                None,
            );
            let tally = tallies.entry(stored.task).or_default();
            tally.pairs += 1;
            let who = format!("{at} ({} {id})", stored.model);
            if let Some(known) = &stored.known_difference {
                tally.known += 1;
                if run.score != known.verigate_score {
                    problems.push(format!(
                        "{who}: documented difference ({}) expects verigate {}, got {} ({})",
                        known.why, known.verigate_score, run.score, run.message
                    ));
                }
                continue;
            }
            let explained = !stored.compare_explanation
                || stored.explanation.as_deref() == Some(run.message.as_str());
            let gap = (run.score - stored.score).abs();
            if run.score == stored.score && explained {
                tally.exact += 1;
            } else if gap <= stored.tolerance && explained {
                tally.within_tolerance += 1;
            } else {
                problems.push(format!(
                    "{who}: stored {} {:?}, verigate {} {:?}",
                    stored.score, stored.explanation, run.score, run.message
                ));
            }
        }
    }
    println!("task  pairs  exact  within-tolerance  documented-difference");
    for (task, t) in &tallies {
        println!(
            "Q{task:<4} {:>5}  {:>5}  {:>16}  {:>21}",
            t.pairs, t.exact, t.within_tolerance, t.known
        );
    }
    assert!(tallies.values().map(|t| t.pairs).sum::<usize>() >= 4);
    assert!(problems.is_empty(), "{problems:#?}");
}
