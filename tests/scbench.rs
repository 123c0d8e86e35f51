//! SCBench: verigate's verdicts on real model answers against the scores SCBench's own
//! grader stored for them (`tests/fixtures/scbench/agreement.jsonl`, each line naming its
//! source files in the public repository).

mod common;

use common::{repo_root, run_with, sandbox};
use serde::Deserialize;
use verigate::registry::Registry;

/// One stored answer, and the score and explanation the original grader gave it.
#[derive(Deserialize)]
struct Stored {
    model: String,
    task: u32,
    subpass: u32,
    answer: String,
    score: f64,
    explanation: String,
}

#[test]
fn verdicts_agree_with_the_scores_scbench_stored_for_real_model_answers() {
    let path = repo_root().join("tests/fixtures/scbench/agreement.jsonl");
    let text = std::fs::read_to_string(&path).expect("the fixture file");
    let registry = Registry::open(&repo_root().join("registry")).expect("the registry");
    let sandbox = sandbox();
    let mut disagreements = Vec::new();
    let mut pairs = 0;
    for (number, line) in text.lines().enumerate() {
        let stored: Stored = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("{}:{}: {e}", path.display(), number + 1));
        let id = format!("scbench/q{}/{}", stored.task, stored.subpass);
        let item = registry.item(&id).unwrap_or_else(|e| panic!("{id}: {e}"));
        let (module, _) = registry.module(item.module.as_deref().unwrap()).unwrap();
        let verifier = common::load(&sandbox, &module);
        let instance = registry.instance_dir(item);
        let run = run_with(
            &sandbox,
            &verifier,
            &stored.answer,
            instance.as_deref(),
            item.limits,
            None,
        );
        pairs += 1;
        // Where verigate ports the original's explanation (Q11's "Visited …"), it must match too.
        let explained = stored.task != 11 || run.message == stored.explanation;
        if run.score != stored.score || !explained {
            disagreements.push(format!(
                "line {} ({} {id}): stored {}, verigate {} ({})",
                number + 1,
                stored.model,
                stored.score,
                run.score,
                run.message
            ));
        }
    }
    println!(
        "{pairs} stored answers, {} agree",
        pairs - disagreements.len()
    );
    assert!(pairs >= 4);
    assert!(disagreements.is_empty(), "{disagreements:#?}");
}
