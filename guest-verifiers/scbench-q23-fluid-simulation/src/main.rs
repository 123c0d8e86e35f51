//! `scbench-q23-fluid-simulation` (verdict-json): SCBench Q23 "Fluid simulation", a port of
//! `gradeAnswer` in the benchmark's `23.py` (commit 1c0b05e).
//!
//! The instance gives the `subpass` (goal 0..=10) and the world `size` N (the world is
//! N × N × 8, rock at z = 0..=2). The payload is the model answer as the runner stored it,
//! a Python literal (or JSON) `{'reasoning': ..., 'earthworks': [{'xyzMin': [x, y, z],
//! 'xyzMax': [x, y, z], 'material': 'Rock' | 'Air'}, ...]}`.
//!
//! What the original does, reproduced step by step:
//! - its result cache key is `json.dumps(answer, sort_keys=True)`, which raises on values
//!   JSON cannot hold (sets, …) and on dict keys that cannot be sorted together; then
//!   `answer.get("earthworks", [])` (a non-dict raises), "earthworks must be a list"
//!   (score 0) for anything but a list;
//! - each earthwork (a non-dict raises): `xyzMin`/`xyzMax` default to `[0, 0, 0]` and
//!   `material` to `"Air"`; fewer than 3 coordinates (checked with Python's short-circuit
//!   `or`) skips it; coordinates go through Python's `int()` (floats truncate, numeric
//!   strings count, anything else raises); a box outside the world or with min > max is
//!   skipped; `"Rock"` fills rock, `"Air"` digs, any other material does nothing;
//! - rock settling, the rain and the eleven goals as in [`world`], [`rain`] and [`goals`],
//!   including the water placement in CPython's set iteration order ([`pyset`]) and the
//!   stage-3 `assert totalDropCount < N·N·8 + 500` (checked every 1000 drops), which raises
//!   when the centre drops keep filling basins for long enough. Rain starts at z = 7 whatever
//!   is there, so it falls through a rock roof at z = 7 onto air below (a sealed box fills);
//!   water that falls to z = 0 is lost (a pit dug to the bottom drains everything).
//!
//! The set order is CPython 3.11's (the xxHash-based tuple hash of 3.8 on, and the set table
//! of `setobject.c`), checked against CPython 3.11 on 2,000 insertion sequences: where a basin
//! is filled drop by drop, the cell each drop lands in follows it, and the shape of the water
//! (so levels, bodies and the goals) can depend on it. Under CPython ≤ 3.7 (another tuple
//! hash) the same answer could grade differently. Every stored paper answer tried agrees
//! exactly, score and explanation.
//!
//! Where the original raises (its runner records 10000) the verdict fails with score 0 and
//! says so. The verdict passes only at score 1. `details.corrected` grades the same world
//! without the two harness artefacts (the cache key's JSON serialisation and the stage-3
//! assert) and, for goal 7, accepts any lake that encloses a dry region containing a 3 × 3
//! (the original wants the 12 cells around an exactly 3-wide dry block in the lake, so a
//! 4 × 4 island scores 0); elsewhere it equals the faithful verdict.

mod goals;
mod pyset;
mod rain;
mod world;

use serde::Deserialize;
use verigate_sdk::Verdict;
use verigate_sdk::python::literal::json_dumps_error;
use verigate_sdk::python::{self, Value};
use verigate_sdk::serde_json::json;
use world::{AIR, ROCK, WATER, World};

#[derive(Deserialize)]
struct Instance {
    subpass: usize,
    size: usize,
}

/// An earthwork the original applies: inclusive box and material (`None`: ignored).
struct Earthwork {
    min: [usize; 3],
    max: [usize; 3],
    material: Option<u8>,
}

/// What reading the earthworks came to.
enum Parsed {
    Works(Vec<Earthwork>, usize),
    Zero(String),
    Raises(String),
}

/// Python's int as i64, saturating (every saturated value is out of the world anyway).
fn saturating(v: &Value) -> i64 {
    v.as_i64().unwrap_or_else(|| {
        if v.to_string().starts_with('-') {
            i64::MIN
        } else {
            i64::MAX
        }
    })
}

fn earthworks(answer: &Value, size: usize) -> Parsed {
    let Some(dict) = answer.as_dict() else {
        return Parsed::Raises(format!(
            "AttributeError: the answer is a {}, which has no .get",
            answer.type_name()
        ));
    };
    let Some(list) = dict.get("earthworks") else {
        return Parsed::Works(Vec::new(), 0);
    };
    if list.type_name() != "list" {
        return Parsed::Zero("earthworks must be a list".to_owned());
    }
    let items = list.as_sequence().unwrap_or_default();
    // The original's expressions, evaluated by the SDK's CPython-faithful evaluator.
    let short = python::eval("lambda a, b: len(a) < 3 or len(b) < 3").expect("constant expression");
    let ints = python::eval(
        "lambda a, b: (int(a[0]), int(a[1]), int(a[2]), int(b[0]), int(b[1]), int(b[2]))",
    )
    .expect("constant expression");
    let origin = Value::list([0, 0, 0].map(Value::from));
    let mut works = Vec::new();
    let mut skipped = 0;
    for (i, v) in items.iter().enumerate() {
        let Some(d) = v.as_dict() else {
            return Parsed::Raises(format!(
                "AttributeError: earthwork {i} is a {} ({}), which has no .get",
                v.type_name(),
                v.repr_short(60)
            ));
        };
        let a = d.get("xyzMin").unwrap_or(&origin).clone();
        let b = d.get("xyzMax").unwrap_or(&origin).clone();
        let args = [a, b];
        match short.call(&args) {
            Ok(s) if s.truthy() => {
                skipped += 1;
                continue;
            }
            Ok(_) => {}
            Err(e) => return Parsed::Raises(format!("earthwork {i}: {}", e.python_text())),
        }
        let coords = match ints.call(&args) {
            Ok(t) => t
                .as_sequence()
                .unwrap_or_default()
                .iter()
                .map(saturating)
                .collect::<Vec<_>>(),
            Err(e) => return Parsed::Raises(format!("earthwork {i}: {}", e.python_text())),
        };
        let (lo, hi) = (&coords[..3], &coords[3..]);
        let bound = [size as i64, size as i64, world::H as i64];
        if (0..3).any(|k| lo[k] < 0 || hi[k] >= bound[k]) || (0..3).any(|k| lo[k] > hi[k]) {
            skipped += 1;
            continue;
        }
        let material = match d.get("material").map(Value::as_str) {
            None => Some(AIR),
            Some(Some("Rock")) => Some(ROCK),
            Some(Some("Air")) => Some(AIR),
            Some(_) => None,
        };
        let corner = |c: &[i64]| [c[0] as usize, c[1] as usize, c[2] as usize];
        works.push(Earthwork {
            min: corner(lo),
            max: corner(hi),
            material,
        });
    }
    Parsed::Works(works, skipped)
}

fn grade(instance: &Instance, text: &str) -> Verdict {
    let answer = python::answer(text);
    if !answer.truthy() {
        return Verdict::falsy_answer().same_when_corrected();
    }
    if let Some(d) = answer.as_dict()
        && (d.get("__exception__").is_some() || d.get("__content_violation__").is_some())
    {
        return Verdict::fail(
            "the answer records an API exception or content violation (the runner scores it 0)",
        )
        .same_when_corrected();
    }
    let cache_error = json_dumps_error(&answer, true);
    let (works, skipped) = match earthworks(&answer, instance.size) {
        Parsed::Works(w, s) => (w, s),
        Parsed::Zero(why) => {
            let v = match &cache_error {
                Some(e) => Verdict::raised(format!("{e} (for the grader's cache key)")),
                None => Verdict::fail(why.clone()),
            };
            return v.with_corrected(&Verdict::fail(why));
        }
        Parsed::Raises(why) => {
            let why = cache_error
                .map(|e| format!("{e} (for the grader's cache key)"))
                .unwrap_or(why);
            return Verdict::raised(why).same_when_corrected();
        }
    };
    let mut world = World::new(instance.size);
    for w in &works {
        if let Some(m) = w.material {
            world.fill_box(w.min, w.max, m);
        }
    }
    let rock_fell = world.settle();
    let mut rain = rain::Rain::new(&world);
    let report = rain.run(&mut world);
    let (score, message) = goals::score(instance.subpass, &world);
    let original = Verdict::scored(score, message);
    let fixed = if instance.subpass == 7 && !original.is_pass() && goals::encloses_dry_3x3(&world) {
        Verdict::pass().with_message(
            "A lake encloses a dry region containing a 3x3 (the original only accepts a dry \
             block exactly 3 wide with all 12 cells around it in the lake)",
        )
    } else {
        original.clone()
    };
    let faithful = if let Some(e) = cache_error {
        Verdict::raised(format!("{e} (for the grader's cache key)"))
    } else if let Some(at) = report.assert_at {
        Verdict::raised(format!(
            "AssertionError: \"If this triggers, there's a bug making water disappear without \
             recording it as escaping.\" (stage-3 drop count {at} >= N*N*8 + 500 = {} while the \
             centre drops were still filling basins)",
            instance.size * instance.size * world::H + 500
        ))
    } else {
        original
    };
    faithful
        .with_details(json!({
            "earthworks_applied": works.len(),
            "earthworks_skipped": skipped,
            "rock_voxels_fell": rock_fell,
            "water_voxels": world.count(WATER),
            "drops_kept": report.kept,
            "drops_simulated": report.simulated,
            "stage3_drops": report.stage3_drops,
            "stage3_assert_at": report.assert_at,
        }))
        .with_corrected(&fixed)
}

verigate_sdk::main!(verdict_json, grade_instance(grade));

#[cfg(test)]
mod tests;
