use super::*;

fn item(sp: usize) -> Instance {
    let path = format!(
        "{}/../../registry/items/scbench/q28/{sp}/instance/instance.json",
        env!("CARGO_MANIFEST_DIR")
    );
    verigate_sdk::serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A 4 x 4 instance with heights 0, 1, 2, … (no two neighbours within 0.2: A0 = 1).
fn steps() -> Instance {
    Instance {
        size: 4,
        heights: (0..4)
            .map(|y| (0..4).map(|x| f64::from(4 * y + x)).collect())
            .collect(),
    }
}

fn graded(instance: &Instance, text: &str) -> (f64, String, Json) {
    let v = grade(instance, text);
    (
        v.score(),
        v.message().unwrap_or("").to_owned(),
        v.details().cloned().unwrap_or(Json::Null),
    )
}

fn plan(blasts: &[(i64, i64, f64)]) -> String {
    let items: Vec<String> = blasts
        .iter()
        .map(|(x, y, z)| format!("{{'x': {x}, 'y': {y}, 'z': {}}}", Value::from(*z)))
        .collect();
    format!("{{'blasts': [{}]}}", items.join(", "))
}

use verigate_sdk::RAISED as RAISES_SUFFIX;

#[test]
fn flat_regions_are_chains_of_small_steps() {
    // A ramp rising 0.19 a cell along x is one "flat" region spanning 0.57: the running
    // range never binds.
    let ramp: Vec<f64> = (0..16).map(|i| f64::from(i % 4) * 0.19).collect();
    assert_eq!(flat::largest_flat_region(&ramp, 4), 16);
    // Steps of 0.2 count or not as the subtraction rounds: 1.2 - 1.0 <= 0.2, 4.2 - 4.0 > 0.2.
    assert_eq!(flat::largest_flat_region(&[1.0, 1.2, 9.0, 7.0], 2), 2);
    assert_eq!(flat::largest_flat_region(&[4.0, 4.2, 9.0, 7.0], 2), 1);
    // The prompt's definition (corrected): equal rounded heights, half to even.
    assert_eq!(flat::largest_rounded_region(&ramp, 4), 12);
    assert_eq!(flat::largest_rounded_region(&[0.5, 0.4, 1.5, 2.4], 2), 2);
}

#[test]
fn score_formula_and_messages() {
    let inst = steps();
    // Raise 9 cells (a 3 x 3 corner) to 15: A = 9, A0 = 1, score (9 - 1) / min(8, 15) = 1.
    let mut blasts = Vec::new();
    for y in 0..3 {
        for x in 0..3 {
            blasts.push((x, y, (4 * y + x) as f64 - 15.0));
        }
    }
    let (score, message, details) = graded(&inst, &plan(&blasts));
    assert_eq!(score, 1.0);
    assert_eq!(
        message,
        "Made progress! Largest flat area after blasting was 9 cells, before blasting it was only 1 cells"
    );
    assert_eq!(details["area"], 9);
    assert_eq!(details["corrected"]["score"], 0.0);
    assert!(
        details["corrected"]["message"]
            .as_str()
            .unwrap()
            .contains("negative depth -15.0")
    );
    // Four cells: (4 - 1) / 8.
    let (score, message, _) = graded(&inst, &plan(&blasts[..4]));
    assert_eq!(score, 0.375);
    assert!(message.contains("was 4 cells, before blasting it was only 1 cells"));
    let (score, message, _) = graded(&inst, "{'blasts': []}");
    assert_eq!(
        (score, message.as_str()),
        (
            0.0,
            "Made no progress! Largest flat area after blasting was 1 cells, same as it was before blasting."
        )
    );
}

#[test]
fn validation_messages_and_raises() {
    let inst = steps();
    for (text, want) in [
        (
            "{'blasts': [{'x': 4, 'y': 0, 'z': 1}]}",
            "Blast 4, 0 out of bounds",
        ),
        ("{'blasts': [{'x': 3.5, 'y': 0, 'z': 1}]}", "IndexError"),
        (
            "{'blasts': [{'x': 4.5, 'y': 0, 'z': 1}]}",
            "Blast 4.5, 0 out of bounds",
        ),
        // `bx < 0` short-circuits: y is never compared.
        (
            "{'blasts': [{'x': -1, 'y': 'a', 'z': 1}]}",
            "Blast -1, a out of bounds",
        ),
        (
            "{'blasts': [{'x': 1, 'y': 'a', 'z': 1}]}",
            "blast 0: TypeError",
        ),
        (
            "{'blasts': [{'x': 1, 'y': 2, 'z': 9.5}]}",
            "Blast at 1, 2 drilled too deep 9.5 > 9.0",
        ),
        (
            "{'blasts': [{'x': 1, 'y': 2, 'z': [10]}]}",
            "Blast at 1, 2 drilled too deep [10] > 9.0",
        ),
        (
            "{'blasts': [{'x': 1, 'y': 2, 'z': [1]}]}",
            "blast 0: TypeError",
        ),
        (
            "{'blasts': [{'x': True, 'y': 2, 'z': 1}]}",
            "blast 0: IndexError",
        ),
        (
            "{'blasts': [{'x': 1, 'y': 2, 'z': float('nan')}]}",
            "blast 0: ValueError",
        ),
        ("{'blasts': [{'x': 1, 'y': 2}]}", "KeyError"),
        (
            "{'blasts': [{'x': 1, 'y': 'a', 'z': 1}, {'x': 2, 'y': 3, 'z': 1}]}",
            "blast 0: TypeError",
        ),
        (
            "{'blasts': [{'x': 1, 'y': 'a', 'z': 1}, {'x': 1, 'y': 3, 'z': 1}]}",
            "TypeError",
        ),
        ("{'plan': []}", "KeyError: 'blasts'"),
        ("I can't help with explosives.", "AttributeError"),
    ] {
        let (score, message, _) = graded(&inst, text);
        assert_eq!(score, 0.0, "{text}");
        assert!(message.contains(want), "{text}: {message}");
        let raises = !want.starts_with("Blast ");
        assert_eq!(
            message.ends_with(RAISES_SUFFIX),
            raises,
            "{text}: {message}"
        );
    }
    assert!(graded(&inst, "{}").1.starts_with("empty answer"));
}

#[test]
fn sphere_counts_follow_int_of_four_times_depth() {
    for (depth, count) in [
        (0.1, 3),
        (0.75, 3),
        (1.0, 4),
        (2.9, 11),
        (30.0, 120),
        (1e300, 120),
    ] {
        assert_eq!(physics::sphere_count(depth), count, "{depth}");
    }
}

#[test]
fn a_blast_moves_its_depth_into_debris_deterministically() {
    let inst = item(0);
    let n = inst.size;
    let start: Vec<f64> = inst.heights.iter().flatten().copied().collect();
    let (x, y) = (8, 8);
    let mut a = start.clone();
    let ends = physics::blast(&mut a, n, x, y, 2.0);
    assert_eq!(ends.len(), 8);
    let on_map = ends.iter().filter(|e| e.is_some()).count() as f64;
    let before: f64 = start.iter().sum();
    let after: f64 = a.iter().sum();
    assert!((after - (before - 2.0 + on_map * 0.25)).abs() < 1e-9);
    let mut b = start.clone();
    physics::blast(&mut b, n, x, y, 2.0);
    assert_eq!(a, b);
    // A negative depth only raises the cell.
    let mut c = start.clone();
    assert!(physics::blast(&mut c, n, x, y, -1.5).is_empty());
    assert_eq!(c[y * n + x], start[y * n + x] + 1.5);
}

#[test]
fn stored_answers_grade_as_the_paper_run() {
    // gpt-5.2-HighReasoning, subpass 0: the seventh blast is too deep on the original map.
    let gpt = include_str!("../tests/data/gpt-5.2-HighReasoning_28_0.txt");
    let (score, message, _) = graded(&item(0), gpt.trim_end());
    assert_eq!(
        (score, message.as_str()),
        (0.0, "Blast at 7, 14 drilled too deep 2.4 > 2.2")
    );
}

#[test]
#[ignore]
fn timing_stored_answer() {
    let Ok(path) = std::env::var("Q28_ANSWER") else {
        return;
    };
    let sp: usize = std::env::var("Q28_SP").map_or(0, |s| s.parse().unwrap());
    let text = std::fs::read_to_string(path).unwrap();
    let t = std::time::Instant::now();
    let v = grade(&item(sp), text.trim_end());
    eprintln!(
        "{} {:?} {:?} in {:?}",
        v.score(),
        v.message(),
        v.details(),
        t.elapsed()
    );
}

#[test]
#[ignore]
fn timing_one_blast() {
    for sp in [0, 8] {
        for depth in [1.0, 5.0, 40.0] {
            let inst = item(sp);
            let n = inst.size;
            let mut grid: Vec<f64> = inst.heights.iter().flatten().copied().collect();
            let (x, y) = (n / 2, n / 2);
            let depth = f64::min(depth, grid[y * n + x] + 20.0);
            let t = std::time::Instant::now();
            let ends = physics::blast(&mut grid, n, x, y, depth);
            eprintln!(
                "n {n} depth {depth} spheres {} off {} in {:?}",
                ends.len(),
                ends.iter().filter(|e| e.is_none()).count(),
                t.elapsed()
            );
        }
    }
}

/// `Q28_RAW=dir`: grades every `<model>_28_<sp>.txt` there (scratch agreement checks).
#[test]
#[ignore]
fn stored_answers() {
    let Ok(dir) = std::env::var("Q28_RAW") else {
        return;
    };
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    for path in names {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let Some(stem) = name.strip_suffix(".txt") else {
            continue;
        };
        let parts: Vec<&str> = stem.rsplitn(3, '_').collect();
        if parts[1] != "28" {
            continue;
        }
        let sp: usize = parts[0].parse().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let t = std::time::Instant::now();
        let v = grade(&item(sp), text.trim_end());
        let d = v.details().unwrap();
        eprintln!(
            "{stem}: {} area {} start {} off {} | {:?} ({:?})",
            v.score(),
            d["area"],
            d["start_area"],
            d["spheres_off_map"],
            v.message(),
            t.elapsed()
        );
    }
}
