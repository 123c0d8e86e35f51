//! The frozen registry: lock checks catch tampering, contributions are
//! validated before anything is written, and grading is reproducible.

use crate::common::*;
use verigate_grading::grade::{Grader, Judgments};
use verigate_registry::Registry;
use verigate_registry::maintain::{Contribution, add, verify};

#[test]
fn the_bundled_registry_verifies() {
    let sandbox = sandbox();
    let report = verify(&bundled_registry(), &sandbox);
    assert!(report.problems.is_empty(), "{:#?}", report.problems);
    assert!(
        report.modules >= 2 && report.items >= 3 && report.witnesses >= 8,
        "{report:?}"
    );
}

/// Damages a registry copy and returns the problem the lock check must name.
type Tamper = fn(&std::path::Path) -> String;

#[test]
fn tampering_is_caught_and_named() {
    let cases: [(&str, Tamper); 4] = [
        ("modified module", |root| {
            let (name, mut bytes) = snapshot(&root.join("modules")).remove(0);
            *bytes.last_mut().unwrap() ^= 1;
            std::fs::write(root.join("modules").join(&name), bytes).unwrap();
            format!("modules/{name}: modified")
        }),
        ("modified item", |root| {
            let item = root.join("items/toy/derangement-4/item.toml");
            let text = std::fs::read_to_string(&item).unwrap();
            std::fs::write(&item, text.replace("[2, 1, 4, 3]", "[1, 2, 3, 4]")).unwrap();
            "items/toy/derangement-4/item.toml: modified".to_owned()
        }),
        ("extra file", |root| {
            std::fs::write(
                root.join("items/toy/derangement-4/instance/extra.json"),
                "{}",
            )
            .unwrap();
            "items/toy/derangement-4/instance/extra.json: not listed".to_owned()
        }),
        ("missing file", |root| {
            std::fs::remove_file(root.join("items/toy/derangement-9/instance/instance.json"))
                .unwrap();
            "items/toy/derangement-9/instance/instance.json: missing".to_owned()
        }),
    ];
    for (case, tamper) in cases {
        let root = scratch_registry();
        Registry::open(root.path()).unwrap_or_else(|e| panic!("{case}: intact copy refused: {e}"));
        let expected = tamper(root.path());
        let err = Registry::open(root.path())
            .and_then(|registry| registry.check_all_files())
            .expect_err(case);
        assert!(err.0.contains(&expected), "{case}: {err}");
    }
}

#[test]
fn opening_hashes_every_file_but_modules_which_are_hashed_when_loaded() {
    let root = scratch_registry();
    let (name, mut bytes) = snapshot(&root.path().join("modules")).remove(0);
    *bytes.last_mut().unwrap() ^= 1;
    std::fs::write(root.path().join("modules").join(&name), bytes).unwrap();
    // A run that never uses the module is not held up by it...
    let registry = Registry::open(root.path()).expect("module files are not hashed at open");
    let module = (registry.modules().iter())
        .find(|(_, entry)| name.starts_with(&entry.sha256))
        .map(|(module, _)| module.clone())
        .expect("the damaged file is a listed module");
    // ...and one that does gets a refusal naming the file, never the altered bytes.
    let refused = registry.module_bytes(&module).unwrap_err();
    assert!(refused.0.contains(&name), "{refused}");
    let sandbox = sandbox();
    assert!(registry.load_module(&sandbox, &module).is_err());
    // The full sweep (what `registry verify` runs first) hashes modules too.
    let swept = registry.check_all_files().unwrap_err();
    assert!(
        swept.0.contains(&format!("modules/{name}: modified")),
        "{swept}"
    );
}

fn item_toml(id: &str, module: &str, reference: &str, counterexample: &str, extra: &str) -> String {
    format!(
        "id = \"{id}\"\nmodule = \"{module}\"\nprotocol = \"combench\"\nreference = \"{reference}\"\n{extra}\n\
         [metadata]\nbenchmark = \"contrib\"\ntype = \"construction\"\n\n\
         [[counterexample]]\npayload = \"{counterexample}\"\n"
    )
}

#[test]
fn hostile_contributions_are_rejected_and_leave_the_registry_unchanged() {
    let sandbox = sandbox();
    let root = scratch_registry();
    let before = snapshot(root.path());
    let hostile = std::fs::read(hostile_wasm()).unwrap();
    let foreign = wat_module("unknown-import.wat");
    let cases = [
        (
            "foreign import",
            &foreign,
            item_toml("contrib/a", "escape", "true", "false", ""),
            "env::host_escape",
        ),
        (
            "looping reference",
            &hostile,
            item_toml("contrib/b", "h", "loop", "false", ""),
            "fuel_exhausted",
        ),
        (
            "accepts its counterexample",
            &hostile,
            item_toml("contrib/c", "h", "true", "true", ""),
            "not rejected",
        ),
        (
            "greedy limits",
            &hostile,
            item_toml(
                "contrib/d",
                "h",
                "true",
                "loop",
                "[limits]\nmemory_bytes = 68719476736",
            ),
            "limits.memory_bytes",
        ),
        (
            "existing id",
            &hostile,
            item_toml("toy/derangement-4", "h", "true", "loop", ""),
            "already",
        ),
        (
            "bad id",
            &hostile,
            item_toml("contrib/../x", "h", "true", "loop", ""),
            "segments",
        ),
        (
            "taken name",
            &hostile,
            item_toml("contrib/e", "toy-derangement", "true", "loop", ""),
            "name already used",
        ),
    ];
    for (case, wasm, toml, expected) in cases {
        let name = toml
            .lines()
            .nth(1)
            .unwrap()
            .split('"')
            .nth(1)
            .unwrap()
            .to_owned();
        let contribution = Contribution {
            name: &name,
            wasm,
            item_toml: &toml,
            instance_dir: None,
            python: None,
        };
        let problems = add(root.path(), &sandbox, &contribution).expect_err(case);
        let text = problems
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n");
        assert!(text.contains(expected), "{case}: {text}");
        assert!(snapshot(root.path()) == before, "{case}: registry changed");
    }
}

#[test]
fn a_good_contribution_is_added_and_locked() {
    let sandbox = sandbox();
    let root = scratch_registry();
    let before = Registry::open(root.path()).unwrap().digest().to_owned();
    let hostile = std::fs::read(hostile_wasm()).unwrap();
    let instance = tempdir_with(&[("instance.json", "{\"n\": 1}")]);
    let toml = item_toml(
        "contrib/echo",
        "echo-checker",
        "true",
        "debug-then-true",
        "",
    );
    let contribution = Contribution {
        name: "echo-checker",
        wasm: &hostile,
        item_toml: &toml,
        instance_dir: Some(instance.path()),
        python: None,
    };
    add(root.path(), &sandbox, &contribution).expect("accepted");
    let registry = Registry::open(root.path()).expect("lock rewritten");
    assert_ne!(registry.digest(), before);
    let item = registry.item("contrib/echo").unwrap();
    assert!(
        registry
            .instance_dir(item)
            .unwrap()
            .join("instance.json")
            .is_file()
    );
    assert!(verify(root.path(), &sandbox).problems.is_empty());
}

fn grade_bundled(workers: usize) -> (Vec<u8>, Vec<String>) {
    let registry = Registry::open(&bundled_registry()).unwrap();
    let sandbox = sandbox();
    let responses = std::fs::read_to_string(repo_root().join("examples/responses.jsonl")).unwrap();
    let input = format!(
        "{responses}\n{{\"id\": \"toy/nope\", \"sample\": 0, \"response\": \"\"}}\n{{\"id\": \"toy/derangement-4\"}}\n"
    );
    let mut out = Vec::new();
    let mut errors = Vec::new();
    let mut grader = Grader {
        registry: &registry,
        sandbox: &sandbox,
        judgments: &mut Judgments::default(),
        workers,
    };
    grader
        .grade(
            input.as_bytes(),
            [],
            |record, _| {
                serde_json::to_writer(&mut out, record).unwrap();
                out.push(b'\n');
            },
            |error| errors.push(format!("{}: {}", error.line, error.message)),
        )
        .unwrap();
    (out, errors)
}

#[test]
fn grading_is_byte_identical_across_runs_and_thread_counts() {
    let (one, errors) = grade_bundled(1);
    let (two, _) = grade_bundled(2);
    let (again, _) = grade_bundled(2);
    assert_eq!(one, two);
    assert_eq!(two, again);
    let text = String::from_utf8(one).unwrap();
    let good = std::fs::read_to_string(repo_root().join("examples/responses.jsonl"))
        .unwrap()
        .lines()
        .count();
    assert_eq!(text.lines().count(), good, "every good line graded");
    assert!(
        text.contains(
            &Registry::open(&bundled_registry())
                .unwrap()
                .digest()
                .to_string()
        )
    );
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(
        errors[0].starts_with(&format!("{}: field `id`: no item `toy/nope`", good + 2)),
        "{errors:?}"
    );
    assert!(
        errors[1].starts_with(&format!("{}: missing field `sample`", good + 3)),
        "{errors:?}"
    );
}
