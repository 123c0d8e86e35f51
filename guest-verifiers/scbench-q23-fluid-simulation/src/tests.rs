use super::*;
use verigate_sdk::serde_json::Value as Json;

/// The world after earthworks, settling and rain, for an answer text.
fn simulate(n: usize, text: &str, literal: bool) -> (World, rain::Report) {
    let Parsed::Works(works, _) = earthworks(&python::answer(text), n) else {
        panic!("earthworks rejected")
    };
    let mut world = World::new(n);
    for w in &works {
        if let Some(m) = w.material {
            world.fill_box(w.min, w.max, m);
        }
    }
    world.settle();
    let mut rain = rain::Rain::new(&world);
    rain.literal = literal;
    let report = rain.run(&mut world);
    (world, report)
}

fn graded(subpass: usize, size: usize, text: &str) -> Json {
    verigate_sdk::serde_json::to_value(grade(&Instance { subpass, size }, text)).unwrap()
}

fn boxes(list: &[([i64; 3], [i64; 3], &str)]) -> String {
    let works: Vec<String> = list
        .iter()
        .map(|(a, b, m)| format!("{{'xyzMin': {a:?}, 'xyzMax': {b:?}, 'material': '{m}'}}"))
        .collect();
    format!("{{'reasoning': '', 'earthworks': [{}]}}", works.join(", "))
}

use verigate_sdk::RAISED as RAISES_SUFFIX;

#[test]
fn the_prompts_example_ring_holds_nine_voxels() {
    // 23.py's prompt: a 5 x 5 slab at z = 3 with a 3 x 3 hole "would capture 9 voxels".
    let text = boxes(&[
        ([2, 2, 3], [6, 6, 3], "Rock"),
        ([3, 3, 3], [5, 5, 3], "Air"),
    ]);
    let v = graded(0, 16, &text);
    assert_eq!(v["score"], 0.25);
    assert_eq!(v["message"], "Largest lake surface area: 9/36");
    assert_eq!(v["details"]["water_voxels"], 9);
}

#[test]
fn coordinates_go_through_int_and_bad_boxes_are_skipped() {
    let answer = python::answer(
        "{'earthworks': [{'xyzMin': [2.9, '3', True], 'xyzMax': [4, 4, 3.99], 'material': 'Rock'},
          {'xyzMin': [0, 0, 0], 'xyzMax': [16, 0, 0], 'material': 'Air'},
          {'xyzMin': [5, 5, 5], 'xyzMax': [4, 5, 5], 'material': 'Rock'},
          {'xyzMin': [1], 'xyzMax': 7},
          {'xyzMin': [1, 1, 5], 'xyzMax': [1, 1, 5], 'material': 'Water'},
          {'xyzMax': [0, 0, 0]}]}",
    );
    let Parsed::Works(works, skipped) = earthworks(&answer, 16) else {
        panic!("rejected")
    };
    // Out of bounds, min > max and a short list (whose `or` never evaluates len(7)).
    assert_eq!(skipped, 3);
    assert_eq!(works.len(), 3);
    assert_eq!((works[0].min, works[0].max), ([2, 3, 1], [4, 4, 3]));
    assert_eq!(works[0].material, Some(ROCK));
    // An unknown material is applied as nothing; a missing one is "Air" (digs (0, 0, 0)).
    assert_eq!(works[1].material, None);
    assert_eq!(
        (works[2].min, works[2].max, works[2].material),
        ([0; 3], [0; 3], Some(AIR))
    );
}

#[test]
fn malformed_answers_raise_or_score_zero() {
    for (text, want) in [
        (
            "{'earthworks': [[1, 2, 3]]}",
            "AttributeError: earthwork 0 is a list",
        ),
        ("{'earthworks': [{'xyzMin': 5}]}", "earthwork 0: TypeError"),
        (
            "{'earthworks': [{'xyzMin': [1, 'a', 3]}]}",
            "earthwork 0: ValueError",
        ),
        (
            "{'earthworks': [{'xyzMin': [1, None, 3]}]}",
            "earthwork 0: TypeError",
        ),
        ("['earthworks']", "AttributeError: the answer is a list"),
        (
            "{'earthworks': [], 'x': {1, 2}}",
            "TypeError: Object of type set is not JSON",
        ),
        ("{1: 2, 'earthworks': []}", "TypeError: '<' not supported"),
    ] {
        let v = graded(0, 16, text);
        let message = v["message"].as_str().unwrap();
        assert!(message.starts_with(want), "{text}: {message}");
        assert!(message.ends_with(RAISES_SUFFIX), "{message}");
        assert_eq!(v["score"], 0.0);
    }
    // Sorting JSON keys only fails when the answer is otherwise fine: corrected grades it.
    let v = graded(0, 16, "{'earthworks': [], 'x': {1, 2}}");
    assert_eq!(
        v["details"]["corrected"]["message"],
        "Largest lake surface area: 0/36"
    );
    assert_eq!(
        graded(0, 16, "{'earthworks': (1, 2)}")["message"],
        "earthworks must be a list"
    );
    assert_eq!(
        graded(0, 16, "{'earthworks': None}")["message"],
        "earthworks must be a list"
    );
    assert_eq!(
        graded(0, 16, "{'reasoning': 'no'}")["message"],
        "Largest lake surface area: 0/36"
    );
    assert!(
        graded(0, 16, "{}")["message"]
            .as_str()
            .unwrap()
            .starts_with("empty answer")
    );
}

#[test]
fn floating_rock_falls_and_bridges_stand() {
    let mut world = World::new(16);
    // A slab floating at z = 6 (lands on the bedrock: z = 3) and a bridge on two pillars.
    world.fill_box([2, 2, 6], [4, 4, 6], ROCK);
    world.fill_box([8, 8, 3], [8, 8, 5], ROCK);
    world.fill_box([12, 8, 3], [12, 8, 5], ROCK);
    world.fill_box([8, 8, 5], [12, 8, 5], ROCK);
    // A bar touching the slab's top: one component with it.
    world.fill_box([3, 3, 7], [6, 3, 7], ROCK);
    let before = world.clone();
    assert_eq!(world.settle(), 9 + 4);
    assert_eq!(world.at(2, 2, 6), AIR);
    assert_eq!(world.at(2, 2, 3), ROCK);
    assert_eq!(world.at(10, 8, 5), ROCK);
    // Slab and bar drop 3 together to rest on the bedrock; the bar's overhang (5..6, 3)
    // hangs at z = 4.
    assert_eq!(before.at(3, 3, 7), ROCK);
    assert_eq!(
        (world.at(3, 3, 4), world.at(6, 3, 4), world.at(6, 3, 3)),
        (ROCK, ROCK, AIR)
    );
}

#[test]
fn settled_water_goes_to_the_first_cell_in_cpython_set_order() {
    // A sealed pocket of two cells, (7, 7) and (8, 7), at z = 3 under a shaft at (7, 7).
    let mut world = World::new(16);
    world.fill_box([0, 0, 3], [15, 15, 7], ROCK);
    world.fill_box([7, 7, 3], [8, 7, 3], AIR);
    world.fill_box([7, 7, 4], [7, 7, 7], AIR);
    let mut rain = rain::Rain::new(&world);
    assert!(!rain.drop(&mut world, 7, 7));
    // Visited in the order [(7, 7), (8, 7)]; CPython iterates {(7, 7), (8, 7)} as
    // [(8, 7), (7, 7)] (hash & 7 = 0 for (8, 7), 5 for (7, 7)), so the water is at (8, 7).
    assert_eq!(pyset::pair_hash(8, 7) & 7, 0);
    assert_eq!(pyset::pair_hash(7, 7) & 7, 5);
    assert_eq!((world.at(8, 7, 3), world.at(7, 7, 3)), (WATER, AIR));
    // The next drop fills (7, 7); the one after finds no air in the pocket and rises: the
    // first visited cell with air at z = 4 in set order is (7, 7), the shaft.
    assert!(!rain.drop(&mut world, 7, 7));
    assert_eq!(world.at(7, 7, 3), WATER);
    assert!(!rain.drop(&mut world, 7, 7));
    assert_eq!(world.at(7, 7, 4), WATER);
}

#[test]
fn drops_on_the_border_or_draining_to_it_are_lost() {
    let mut world = World::new(16);
    let mut rain = rain::Rain::new(&world);
    // Flat world: every drop lands at z = 3, whose region touches the edge.
    assert!(rain.drop(&mut world, 0, 5));
    assert!(rain.drop(&mut world, 8, 8));
    // A pit one cell deep: drops anywhere on the plain find it (nearest cell with air below).
    world.fill_box([3, 3, 2], [3, 3, 2], AIR);
    let mut rain = rain::Rain::new(&world);
    assert!(!rain.drop(&mut world, 12, 12));
    assert_eq!(world.at(3, 3, 2), WATER);
    assert!(rain.drop(&mut world, 12, 12));
    assert_eq!(world.count(WATER), 1);
}

/// A sealed box over the whole 16 x 16 map, dug to z = 1, with rock pillars under three of
/// the four centre columns: only (8, 8) feeds it, one drop a round, so stage 3 keeps water
/// past 3000 drops and the original's assert (3000 >= 16*16*8 + 500) raises.
const ASSERT_DESIGN: [([i64; 3], [i64; 3], &str); 5] = [
    ([0, 0, 3], [15, 15, 7], "Rock"),
    ([1, 1, 1], [14, 14, 6], "Air"),
    ([9, 8, 1], [9, 8, 7], "Rock"),
    ([8, 9, 1], [8, 9, 7], "Rock"),
    ([9, 9, 1], [9, 9, 7], "Rock"),
];

#[test]
fn stage_three_assert_raises_and_corrected_grades_on() {
    let v = graded(5, 16, &boxes(&ASSERT_DESIGN));
    let message = v["message"].as_str().unwrap();
    assert!(message.starts_with("AssertionError"), "{message}");
    assert!(message.contains("3000 >= N*N*8 + 500 = 2548"), "{message}");
    assert_eq!(v["score"], 0.0);
    assert_eq!(v["details"]["stage3_assert_at"], 3000);
    // Rain to the end: the box holds water six deep (z = 1..6).
    assert_eq!(
        v["details"]["corrected"]["message"],
        "Found water column 6 deep"
    );
    assert_eq!(v["details"]["corrected"]["score"], 1.0);
    // Dug to z = 2 only, it fills before the assert's first check at or past 2548 drops.
    let mut shallow = ASSERT_DESIGN;
    shallow[1].0[2] = 2;
    let v = graded(5, 16, &boxes(&shallow));
    assert_eq!(v["details"]["stage3_assert_at"], Json::Null);
    assert_eq!(v["details"]["stage3_drops"], 2792);
}

/// A world with water put directly (no rain), scored for `subpass`.
fn scored(
    subpass: usize,
    water: &[([usize; 3], [usize; 3])],
    rock: &[([usize; 3], [usize; 3])],
) -> (f64, String) {
    let mut world = World::new(24);
    for &(a, b) in rock {
        world.fill_box(a, b, ROCK);
    }
    for &(a, b) in water {
        world.fill_box(a, b, WATER);
    }
    goals::score(subpass, &world)
}

#[test]
fn goal_formulas_and_messages() {
    let pond = ([2, 2, 3], [7, 7, 3]); // 36 columns
    assert_eq!(
        scored(0, &[pond], &[]),
        (1.0, "Lake with surface area 36 >= 36".into())
    );
    assert_eq!(scored(0, &[([2, 2, 3], [4, 4, 4])], &[]).0, 9.0 / 36.0);
    // 2 x 2 blocks: a 1 x 5 strip does not count, a 2 x 2 does.
    let strip = ([10, 2, 3], [10, 6, 3]);
    assert_eq!(
        scored(1, &[pond, strip], &[]),
        (1.0 / 3.0, "Found 1/3 qualifying water bodies".into())
    );
    assert_eq!(
        scored(2, &[([5, 5, 6], [5, 5, 7])], &[]),
        (1.0, "Found 2 water voxels at z > 5".into())
    );
    assert_eq!(
        scored(2, &[([5, 5, 6], [5, 5, 6])], &[]),
        (0.5, "Found 1/2 high water voxels".into())
    );
    // Underground: rock anywhere above.
    let roofed = ([2, 2, 3], [3, 3, 3]);
    let roof = ([2, 2, 7], [3, 3, 7]);
    assert_eq!(
        scored(3, &[roofed], &[roof]),
        (0.4, "Found 4/10 underground water voxels".into())
    );
    assert_eq!(
        scored(3, &[roofed, ([9, 9, 3], [9, 9, 3])], &[roof]),
        (
            0.0,
            "Found 1 visible water voxels - must have NO visible water".into()
        )
    );
    // Modal levels; a tie goes to the level met first in the body's breadth-first order
    // (the body starts at its first voxel in x, y, z order: z = 3 here).
    let tie = ([2, 2, 3], [2, 3, 4]);
    let (s, m) = scored(
        4,
        &[tie, ([6, 6, 5], [6, 6, 5]), ([9, 9, 3], [9, 9, 3])],
        &[],
    );
    assert_eq!(
        (s, m.as_str()),
        (2.0 / 3.0, "Found 3 bodies but only on 2/3 z levels")
    );
    assert_eq!(
        scored(4, &[tie], &[]),
        (1.0 / 3.0, "Found 1/3 separate water bodies".into())
    );
    assert_eq!(
        scored(5, &[([4, 4, 1], [4, 4, 5])], &[]),
        (5.0 / 6.0, "Deepest water column: 5/6".into())
    );
    assert_eq!(
        scored(6, &[([2, 2, 3], [11, 11, 4])], &[]),
        (0.5, "Found 1/2 qualifying water bodies".into())
    );
    // A ring around a dry 3 x 3 (the moat's corners are not needed).
    let moat = [
        ([4, 5, 3], [4, 7, 3]),
        ([8, 5, 3], [8, 7, 3]),
        ([5, 4, 3], [7, 4, 3]),
        ([5, 8, 3], [7, 8, 3]),
    ];
    assert_eq!(
        scored(7, &moat, &[]).1,
        "No ring-shaped lake found surrounding a dry 3x3 center"
    );
    let mut joined = moat.to_vec();
    joined.extend([
        ([4, 4, 4], [8, 4, 4]),
        ([4, 8, 4], [8, 8, 4]),
        ([4, 4, 4], [4, 8, 4]),
        ([8, 4, 4], [8, 8, 4]),
    ]);
    assert_eq!(
        scored(7, &joined, &[]),
        (
            1.0,
            "Found ring-shaped lake surrounding dry 3x3 at (5,5)".into()
        )
    );
    assert_eq!(
        scored(8, &[([2, 2, 3], [2, 2, 4])], &[]),
        (
            0.0,
            "Water found at forbidden z levels (z=4: True, z=5: False)".into()
        )
    );
    assert_eq!(
        scored(8, &[([2, 2, 6], [2, 2, 6])], &[]),
        (0.5, "Water at z=3: False, z=6: True".into())
    );
    assert_eq!(
        scored(9, &[([2, 2, 3], [11, 11, 3])], &[]),
        (1.0, "Found 100 water voxels (need exactly 100)".into())
    );
    let (s, m) = scored(
        9,
        &[([2, 2, 3], [11, 11, 3]), ([15, 15, 3], [15, 17, 3])],
        &[],
    );
    assert_eq!(
        (s, m.as_str()),
        (
            1.0 - 3.0 / 100.0,
            "Found 103 water voxels (need exactly 100)"
        )
    );
    assert_eq!(scored(9, &[([2, 2, 3], [21, 21, 3])], &[]).0, 0.0);
    let cave = |x: usize| (([x, 2, 3], [x, 6, 3]), ([x, 2, 7], [x, 6, 7]));
    let (w, r): (Vec<_>, Vec<_>) = [2, 4, 6].map(cave).into_iter().unzip();
    assert_eq!(
        scored(10, &w, &r),
        (0.75, "Found 3/4 qualifying underground lakes".into())
    );
}

#[test]
fn a_ring_around_a_wider_island_counts_only_when_corrected() {
    // A moat dug to z = 1..2 around a 4 x 4 island (as a real answer did): no 3 x 3 of the
    // island has all 12 surrounding cells in the lake.
    let text = boxes(&[
        ([12, 12, 1], [36, 36, 2], "Air"),
        ([23, 23, 1], [26, 26, 2], "Rock"),
    ]);
    let v = graded(7, 48, &text);
    assert_eq!(
        v["message"],
        "No ring-shaped lake found surrounding a dry 3x3 center"
    );
    assert_eq!(v["details"]["corrected"]["score"], 1.0);
    // A 3 x 3 island passes both ways.
    let text = boxes(&[
        ([12, 12, 1], [36, 36, 2], "Air"),
        ([23, 23, 1], [25, 25, 2], "Rock"),
    ]);
    let v = graded(7, 48, &text);
    assert_eq!(
        v["message"],
        "Found ring-shaped lake surrounding dry 3x3 at (23,23)"
    );
    assert_eq!(v["details"]["corrected"]["score"], 1.0);
}

#[test]
fn region_shortcuts_change_nothing() {
    // Seeded random designs, simulated with and without the shortcuts (no cached orders,
    // a search on every drop): the same world.
    let mut seed: u64 = 99;
    let mut next = |m: u64| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) % m
    };
    for _ in 0..40 {
        let n = 16 + 4 * next(3) as i64;
        let mut list = Vec::new();
        for _ in 0..1 + next(6) {
            let (x, y) = (next(n as u64 - 4) as i64, next(n as u64 - 4) as i64);
            let (x1, y1) = (
                (x + 3 + next(8) as i64).min(n - 1),
                (y + 3 + next(8) as i64).min(n - 1),
            );
            let top = 3 + next(5) as i64;
            list.push(([x, y, 3], [x1, y1, top], "Rock"));
            list.push((
                [x + 1, y + 1, 1 + next(3) as i64],
                [x1 - 1, y1 - 1, top - next(2) as i64],
                "Air",
            ));
        }
        let text = boxes(&list);
        let (fast, a) = simulate(n as usize, &text, false);
        let (literal, b) = simulate(n as usize, &text, true);
        assert!(fast == literal && a == b, "{text}");
    }
}

#[test]
#[ignore]
fn timing_big_basin() {
    let text = "{'earthworks': [{'xyzMin': [0,0,3], 'xyzMax': [63,63,7], 'material': 'Rock'}, \
                {'xyzMin': [1,1,3], 'xyzMax': [62,62,7], 'material': 'Air'}]}";
    let t = std::time::Instant::now();
    let (world, report) = simulate(64, text, false);
    eprintln!(
        "{:?} water {} in {:?}",
        report,
        world.count(WATER),
        t.elapsed()
    );
}

/// FNV-1a of the world's cells (as the scratch Python port computes it).
fn fnv(cells: &[u8]) -> u64 {
    cells.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// Differential check against a literal Python port: `Q23_CASES=cases.jsonl cargo test
/// --release -p scbench-q23-fluid-simulation -- --ignored differential` (lines
/// `{"n", "earthworks", "hash", "water", "stage3", "assert_at"}`).
#[test]
#[ignore]
fn differential() {
    let Ok(path) = std::env::var("Q23_CASES") else {
        return;
    };
    let text = std::fs::read_to_string(path).unwrap();
    let mut checked = 0;
    for (i, line) in text.lines().enumerate() {
        let case: Json = verigate_sdk::serde_json::from_str(line).unwrap();
        let n = case["n"].as_u64().unwrap() as usize;
        let answer = json!({"earthworks": case["earthworks"]}).to_string();
        for literal in [false, true] {
            let (world, report) = simulate(n, &answer, literal);
            assert_eq!(report.assert_at, case["assert_at"].as_u64(), "case {i}");
            // The Python port stops where the original raises.
            if report.assert_at.is_none() {
                assert_eq!(
                    fnv(&world.cells),
                    case["hash"].as_u64().unwrap(),
                    "case {i} literal {literal}"
                );
                assert_eq!(
                    Some(report.stage3_drops),
                    case["stage3"].as_u64(),
                    "case {i}"
                );
            }
        }
        checked += 1;
    }
    eprintln!("{checked} cases agree");
}
