//! Unit tests: STL reading, trimesh's checks, hit tests, the subpasses' numbers and messages.

use super::*;
use crate::mesh::Mesh;
use crate::rays::{median, mode, thickness_samples};
use crate::solid::{Prism, Solid};
use crate::stl::{Tri, ascii_text, triangles};
use parry3d_f64::math::Vector as V3;

/// The 12 outward-wound triangles of the box `lo..hi`.
fn boxed(lo: [f64; 3], hi: [f64; 3]) -> Vec<Tri> {
    let p = |i: usize| {
        [
            if i & 1 == 0 { lo[0] } else { hi[0] },
            if i & 2 == 0 { lo[1] } else { hi[1] },
            if i & 4 == 0 { lo[2] } else { hi[2] },
        ]
    };
    let quads = [
        [0, 2, 3, 1],
        [4, 5, 7, 6],
        [0, 1, 5, 4],
        [2, 6, 7, 3],
        [0, 4, 6, 2],
        [1, 3, 7, 5],
    ];
    quads
        .iter()
        .flat_map(|q| [[p(q[0]), p(q[1]), p(q[2])], [p(q[0]), p(q[2]), p(q[3])]])
        .collect()
}

fn cube(c: [f64; 3], s: f64) -> Vec<Tri> {
    let h = s / 2.0;
    boxed(
        [c[0] - h, c[1] - h, c[2] - h],
        [c[0] + h, c[1] + h, c[2] + h],
    )
}

fn mesh(t: &[Tri]) -> Mesh {
    Mesh::from_triangles(t)
}

const IDENTITY: &str = "[1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]";

fn answer_of(parts: &[(String, &str, String)]) -> String {
    let items: Vec<String> = parts
        .iter()
        .map(|(contents, kind, transform)| {
            format!(
                "{{'fileContents': {}, 'fileType': '{kind}', 'transform': {transform}}}",
                verigate_sdk::serde_json::to_string(contents).unwrap()
            )
        })
        .collect();
    format!("{{'reasoning': 'test', 'parts': [{}]}}", items.join(", "))
}

fn cubes_at(transforms: &[String]) -> String {
    let stl = ascii_text(&cube([0.0, 0.0, 5.0], 10.0));
    let parts: Vec<(String, &str, String)> = transforms
        .iter()
        .map(|t| (stl.clone(), "STL", t.clone()))
        .collect();
    answer_of(&parts)
}

fn ten_cubes() -> String {
    cubes_at(&vec![IDENTITY.to_owned(); 10])
}

fn run(subpass: u32, text: &str) -> (f64, String, Json) {
    let inst = Instance {
        subpass,
        cubes_40mm: vec![[0.0, 0.0]],
        cubes_101mm: vec![[0.0, 0.0]],
    };
    let v = verigate_sdk::serde_json::to_value(grade(&inst, text)).unwrap();
    (
        v["score"].as_f64().unwrap(),
        v["message"].as_str().unwrap_or("").to_owned(),
        v["details"].clone(),
    )
}

#[test]
fn ascii_stl_is_read_by_fixed_word_positions() {
    let tris = cube([0.0, 0.0, 5.0], 10.0);
    let read = triangles(&ascii_text(&tris)).unwrap();
    assert_eq!(read, tris);
    // Case and layout do not matter; the keywords are never checked.
    let odd = "SOLID x\nFACET NORMAL 0 0 1 a b VERTEX 0 0 0 c 1 0 0 d 0 1 0 e f\nendsolid";
    assert_eq!(
        triangles(odd).unwrap(),
        vec![[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]]
    );
    // Everything on one line: no header line break, as trimesh's unpacking fails.
    assert!(
        triangles("solid x facet normal 0 0 1")
            .unwrap_err()
            .starts_with("not enough values")
    );
    let bad = "solid x\nfacet normal 0 0 1 outer loop vertex 0 0 zero vertex 1 0 0 vertex 0 1 0 endloop endfacet\n";
    assert_eq!(
        triangles(bad).unwrap_err(),
        "could not convert string to float: 'zero'"
    );
    // No 'solid' at all: no faces (an empty mesh), not an error.
    assert!(triangles("hello\nworld").unwrap().is_empty());
    // numpy converts the words with Python's float(): Unicode digits and underscores count,
    // and Python's split() also splits at U+001C..U+001F.
    let python = "solid x\nfacet normal 0 0 1 outer loop vertex ０ 0 0 vertex 1_0 0 0\x1cvertex 0                   ١.５ 0 endloop endfacet\n";
    assert_eq!(
        triangles(python).unwrap(),
        vec![[[0.0, 0.0, 0.0], [10.0, 0.0, 0.0], [0.0, 1.5, 0.0]]]
    );
}

#[test]
fn binary_stl_is_read_when_the_length_matches_its_face_count() {
    // A 2 mm cube: every f32 byte of 0.0 and 2.0 is below 0x80, so the bytes are valid UTF-8.
    let tris = boxed([0.0; 3], [2.0; 3]);
    let mut bytes = vec![b' '; 80];
    bytes.extend_from_slice(&(tris.len() as u32).to_le_bytes());
    for t in &tris {
        bytes.extend_from_slice(&[0u8; 12]);
        for v in t {
            for c in v {
                bytes.extend_from_slice(&(*c as f32).to_le_bytes());
            }
        }
        bytes.extend_from_slice(&[0, 0]);
    }
    let text = String::from_utf8(bytes).unwrap();
    let m = mesh(&triangles(&text).unwrap());
    assert_eq!((m.f.len(), m.signed_volume()), (12, 8.0));
}

#[test]
fn trimesh_checks_on_cubes() {
    let c = mesh(&cube([0.0, 0.0, 5.0], 10.0));
    assert_eq!(c.v.len(), 8);
    assert_eq!(c.watertight_winding(), (true, true));
    assert_eq!(c.body_count(), 1);
    assert!((c.signed_volume() - 1000.0).abs() < 1e-9);
    assert_eq!(build::validity(0, &c), "");
    // One facet missing.
    let mut open = cube([0.0, 0.0, 5.0], 10.0);
    open.pop();
    assert_eq!(
        build::validity(3, &mesh(&open)),
        "Part 3.stl is not watertight (must be a closed solid)<br>Part 3.stl is not a valid closed volume<br>"
    );
    // One face flipped: still watertight, winding inconsistent.
    let mut flipped = cube([0.0, 0.0, 5.0], 10.0);
    flipped[0].swap(1, 2);
    assert_eq!(mesh(&flipped).watertight_winding(), (true, false));
    // Two cubes: two bodies.
    let mut two = cube([0.0, 0.0, 5.0], 10.0);
    two.extend(cube([30.0, 0.0, 5.0], 10.0));
    assert_eq!(
        build::validity(1, &mesh(&two)),
        "Part 1.stl contains multiple disjoint solids (2)<br>"
    );
    // Inside out: negative volume.
    let inverted: Vec<Tri> = cube([0.0, 0.0, 5.0], 10.0)
        .iter()
        .map(|t| [t[0], t[2], t[1]])
        .collect();
    assert_eq!(
        build::validity(2, &mesh(&inverted)),
        "Part 2.stl is not a valid closed volume<br>"
    );
    // Empty.
    assert_eq!(
        build::validity(4, &Mesh::default()),
        "Part 4.stl is empty geometry<br>Part 4.stl is not watertight (must be a closed solid)<br>\
         Part 4.stl has inconsistent face winding<br>Part 4.stl is not a valid closed volume<br>"
    );
}

#[test]
fn vertices_merge_at_eight_decimals() {
    let mut tris = cube([0.0, 0.0, 5.0], 10.0);
    tris[0][0][0] += 1e-10;
    assert_eq!(mesh(&tris).v.len(), 8);
    tris[0][0][0] += 1e-7;
    assert_eq!(mesh(&tris).v.len(), 9);
}

#[test]
fn facets_group_coplanar_neighbours() {
    let c = mesh(&cube([0.0, 0.0, 5.0], 10.0));
    let facets = c.facets(&c.normals());
    assert_eq!(facets.len(), 6);
    assert!(facets.iter().all(|f| f.len() == 2));
}

#[test]
fn posing_applies_the_top_three_rows_and_keeps_mirrored_parts_outward() {
    let c = mesh(&cube([0.0, 0.0, 5.0], 10.0));
    #[rustfmt::skip]
    let mirror = nalgebra::Matrix4::new(-1.0, 0.0, 0.0, 100.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 9.0, 9.0, 9.0, 9.0);
    let p = c.posed(&mirror);
    assert!((p.signed_volume() - 1000.0).abs() < 1e-9);
    assert_eq!(p.bounds().unwrap().0, V3::new(95.0, -5.0, 0.0));
    assert!(c.posed(&nalgebra::Matrix4::zeros()).is_empty());
}

#[test]
fn openscad_cylinders_are_polygons() {
    assert_eq!(Prism::cylinder([0.0; 3], 2.5, 360.0).poly.len(), 8);
    assert_eq!(Prism::cylinder([0.0; 3], 8.0, 360.0).poly.len(), 26);
    let p = Prism::cylinder([180.0, 180.0, 0.0], 8.0, 360.0);
    assert_eq!((p.z0, p.z1), (-180.0, 180.0));
    assert_eq!(p.poly[0], [188.0, 180.0]);
}

#[test]
fn hits_need_positive_volume() {
    let s = Solid::new(&mesh(&cube([0.0, 0.0, 5.0], 10.0)));
    // Touching a face: no volume.
    assert!(!s.hits_prism(&Prism::cube([10.0, 0.0, 5.0], [10.0, 10.0, 10.0])));
    // 1 mm of overlap.
    assert!(s.hits_prism(&Prism::cube([9.0, 0.0, 5.0], [10.0, 10.0, 10.0])));
    // Inside the cube, no surface crossing: found by containment.
    assert!(s.hits_prism(&Prism::cube([0.0, 0.0, 5.0], [2.0, 2.0, 2.0])));
    // Around the cube.
    assert!(s.hits_prism(&Prism::cube([0.0, 0.0, 5.0], [50.0, 50.0, 50.0])));
    // A d=5 rod through a 6 mm square hole misses, an r=8 rod hits the walls.
    let mut ring = Vec::new();
    for (lo, hi) in [
        ([-5.0, -5.0], [-3.0, 5.0]),
        ([3.0, -5.0], [5.0, 5.0]),
        ([-3.0, -5.0], [3.0, -3.0]),
        ([-3.0, 3.0], [3.0, 5.0]),
    ] {
        ring.push(Solid::new(&mesh(&boxed(
            [lo[0], lo[1], 0.0],
            [hi[0], hi[1], 10.0],
        ))));
    }
    assert!(
        !ring
            .iter()
            .any(|s| s.hits_prism(&Prism::cylinder([0.0, 0.0, 0.0], 2.5, 360.0)))
    );
    assert!(
        ring.iter()
            .all(|s| s.hits_prism(&Prism::cylinder([0.0, 0.0, 0.0], 8.0, 360.0)))
    );
}

#[test]
fn overlap_and_difference() {
    let a = Solid::new(&mesh(&cube([0.0, 0.0, 5.0], 10.0)));
    let same = Solid::new(&mesh(&cube([0.0, 0.0, 5.0], 10.0)));
    let touching = Solid::new(&mesh(&cube([10.0, 0.0, 5.0], 10.0)));
    let shifted = Solid::new(&mesh(&cube([5.0, 0.0, 5.0], 10.0)));
    let big = Solid::new(&mesh(&cube([0.0, 0.0, 5.0], 30.0)));
    // The original's A − B test.
    assert!(!checks::a_minus_b(&a, &same));
    assert!(!checks::a_minus_b(&a, &big));
    assert!(checks::a_minus_b(&a, &touching));
    assert!(checks::a_minus_b(&big, &a));
    // The corrected overlap test.
    assert!(checks::overlap(&a, &same));
    assert!(checks::overlap(&a, &shifted));
    assert!(checks::overlap(&a, &big));
    assert!(!checks::overlap(&a, &touching));
    // A plus-shaped crossing of two bars at the same height.
    let x = Solid::new(&mesh(&boxed([-50.0, -5.0, 0.0], [50.0, 5.0, 10.0])));
    let y = Solid::new(&mesh(&boxed([-5.0, -50.0, 0.0], [5.0, 50.0, 10.0])));
    assert!(checks::overlap(&x, &y));
}

#[test]
fn numpy_median_and_histogram_mode() {
    assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
    assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
    // Bins of 0.5: [9.5, 10) holds three values; its median is the estimate.
    assert_eq!(mode(&[9.95, 9.9, 9.95, 20.0, 20.1], 0.5, 300.0), (9.95, 3));
    // A value on an edge belongs to the bin above it; ties go to the first bin.
    assert_eq!(mode(&[10.0, 9.6], 0.5, 300.0), (9.6, 1));
    assert_eq!(mode(&[79.8, 79.8, 77.8], 1.0, 250.0), (79.8, 2));
}

#[test]
fn bar_thickness_rays_start_inside_the_side_faces() {
    // A 10×10×100 bar: four side facets (10 by 100) give 9.95 each; the end caps are skipped.
    let bar = mesh(&boxed([0.0, 0.0, 0.0], [100.0, 10.0, 10.0]));
    let s = Solid::new(&bar);
    let t = thickness_samples(&bar, &s);
    assert_eq!(t.len(), 4);
    assert!(t.iter().all(|x| (x - 9.95).abs() < 1e-9));
}

#[test]
fn the_build_volume_sum_of_tenths() {
    let (score, msg, details) = run(1, &ten_cubes());
    assert_eq!(
        (score, msg.as_str()),
        (1.0, "all 10 parts fit the 400×400×50 mm build volume")
    );
    assert_eq!(details["score_sum"], json!(0.9999999999999999));
    // A 500 mm bar: nine tenths, with the original's message; and a bed-contact note.
    let long = ascii_text(&boxed([-250.0, -5.0, 0.0], [250.0, 5.0, 10.0]));
    let small = ascii_text(&cube([0.0, 0.0, 5.0], 10.0));
    let mut parts = vec![(long, "STL", IDENTITY.to_owned())];
    parts.extend(std::iter::repeat_n((small, "stl", IDENTITY.to_owned()), 9));
    let (score, msg, _) = run(1, &answer_of(&parts));
    // Nine 0.1s summed in order, as Python does.
    assert_eq!(score, 0.8999999999999999);
    assert_eq!(
        msg,
        "Part 0.stl does not fit in build volume or intersects with the floor<br>"
    );
    // Ten bare 10 mm cubes have 100 + 400 mm² touching the bed: no note (at least 500).
}

#[test]
fn answer_shapes_and_counts() {
    assert_eq!(run(0, "").1, Verdict::falsy_answer().message().unwrap());
    assert_eq!(run(1, "").1, "Answer did not contain a 'parts' key.");
    assert_eq!(
        run(3, "{'reasoning': 'x'}").1,
        "Answer did not contain a 'parts' key."
    );
    assert!(run(1, "None").1.ends_with("which verigate cannot know)"));
    assert!(
        run(0, "{'parts': 5}")
            .1
            .ends_with("(the original grader raises here; its runner records 10000)")
    );
    assert_eq!(
        run(0, &cubes_at(&vec![IDENTITY.to_owned(); 11])).1,
        "Answer contained too many parts. 10 is the minimum and optimum."
    );
    assert_eq!(
        run(4, "{'parts': []}").1,
        "Answer contained too few parts. 10 is the minimum possible."
    );
    // JSON answers read as well as Python literals.
    let json = ten_cubes().replace('\'', "\"");
    assert_eq!(run(0, &json).0, 1.0);
}

#[test]
fn subpass_zero_gates_the_others() {
    let mut open = cube([0.0, 0.0, 5.0], 10.0);
    open.pop();
    let mut parts = vec![(ascii_text(&open), "STL", IDENTITY.to_owned())];
    parts.extend(std::iter::repeat_n(
        (
            "cube([10,10,10]);".to_owned(),
            "OpenSCAD",
            IDENTITY.to_owned(),
        ),
        9,
    ));
    let text = answer_of(&parts);
    // The STL part alone fails subpass 0, whatever OpenSCAD would have made of the others.
    let (score, msg, _) = run(0, &text);
    assert_eq!(score, 0.0);
    assert!(msg.starts_with("Part 0.stl is not watertight (must be a closed solid)<br>"));
    assert!(msg.contains("parts 1, 2, 3, 4, 5, 6, 7, 8, 9 are OpenSCAD source"));
    assert_eq!(run(6, &text).1, "Failed as prerequestite test has failed.");
    // With only sound STL parts besides, the OpenSCAD parts decide: refused.
    let mut parts = vec![(
        ascii_text(&cube([0.0, 0.0, 5.0], 10.0)),
        "STL",
        IDENTITY.to_owned(),
    )];
    parts.extend(std::iter::repeat_n(
        (
            "print(1)".to_owned(),
            "Python Generating STL",
            IDENTITY.to_owned(),
        ),
        9,
    ));
    let (score, msg, _) = run(2, &answer_of(&parts));
    assert_eq!(score, 0.0);
    assert!(msg.starts_with(
        "parts 1, 2, 3, 4, 5, 6, 7, 8, 9 are Python generating STL (the original ran them)"
    ));
}

#[test]
fn assembly_checks_on_cubes() {
    // Identical parts pass the original's pair test (a − b is empty), not the corrected one.
    let (score, _, details) = run(5, &ten_cubes());
    assert_eq!(score, 1.0);
    assert_eq!(
        details["corrected"]["message"],
        "When assembled, part 0 intersects with part 1"
    );
    // Disjoint parts fail the original's test at the first pair.
    let spread: Vec<String> = (0..10)
        .map(|i| format!("[1, 0, 0, {}, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]", 20 * i))
        .collect();
    let (score, msg, details) = run(5, &cubes_at(&spread));
    assert_eq!(
        (score, msg.as_str()),
        (0.0, "When assembled, part 0 intersects with part 1")
    );
    assert_eq!(details["corrected"]["pass"], true);
    // Cubes at the centre: the r=8 rods touch nothing; nothing holds the parts.
    assert_eq!(
        run(4, &ten_cubes()).1,
        "Error during simulated assembly: Unable to use a 6mm rod through the cage segments (at \
         translate([-180, -180, 0]) cylinder(r=8, h=360, center=true);), it has so much clearence \
         that a nut would just slide right through."
    );
    assert!(run(6, &ten_cubes()).1.starts_with(
        "When assembled, part 0 is not held in place by the threaded rods, and will fall out from \
         the build when assembled.\nWhen assembled, part 1"
    ));
    // Cube inside the 340×340×680 block: too small. Far away: passes (the quirk), corrected fails.
    let lifted = vec!["[1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 300, 0, 0, 0, 1]".to_owned(); 10];
    assert!(
        run(3, &cubes_at(&lifted))
            .1
            .starts_with("Cage is too small")
    );
    let far = vec!["[1, 0, 0, 2000, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]".to_owned(); 10];
    let (score, _, details) = run(3, &cubes_at(&far));
    assert_eq!(score, 1.0);
    assert_eq!(details["corrected"]["pass"], false);
    // A transform that is not 16 numbers fails the posing subpasses.
    let short = vec!["[1, 0, 0]".to_owned(); 10];
    assert!(
        run(3, &cubes_at(&short))
            .1
            .starts_with("part 0's transform has 3 entries, not 16")
    );
    assert_eq!(run(1, &cubes_at(&short)).0, 1.0);
}

#[test]
fn random_cubes_and_rays_on_cubes() {
    // The test instance has one 40 mm and one 101 mm cube, both at the origin: both hit.
    let (score, msg, _) = run(2, &ten_cubes());
    assert_eq!(score, 0.0);
    assert!(msg.starts_with("Part 0.stl always intersected a randomly placed 40mm cube."));
    assert!(run(7, &ten_cubes()).1.starts_with(
        "Part 0.stl did not produce enough thickness samples (0) for bar thickness test<br>"
    ));
    assert_eq!(
        run(8, &ten_cubes()).1,
        "Gap spacing test did not produce enough samples (0)<br>"
    );
}
