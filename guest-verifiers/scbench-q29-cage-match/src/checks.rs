//! Subpasses 1–6: build volume, bar gaps by random cubes, cage size, rods, part overlap and
//! rod retention, each with the original's explanation text.

use parry3d_f64::math::Vector as V3;
use verigate_sdk::serde_json::{Value as Json, json};

use crate::mesh::Mesh;
use crate::solid::{Prism, Solid};

/// A subpass's result: the original's score and explanation, details, and (for the
/// subpasses with a documented quirk) the corrected judgement.
pub struct Outcome {
    pub score: f64,
    pub text: String,
    pub details: Json,
    pub corrected: Option<(f64, String)>,
}

impl Outcome {
    pub fn new(score: f64, text: String, details: Json) -> Outcome {
        Outcome {
            score,
            text,
            details,
            corrected: None,
        }
    }
}

/// Subpass 1: 0.1 per part that fits `translate([0,0,25]) cube([400,400,50], center=true)`
/// (the part minus that box has no volume: no vertex beyond it), summed in the original's
/// order (ten fits give 0.9999999999999999); then the printability notes, which never change
/// the score: below the plate, bed contact under 500 mm², and large unsupported overhangs
/// (skipped, as in the original, whenever any downward face touches z < 0.1).
pub fn build_volume(meshes: &[Mesh]) -> Outcome {
    let (lo, hi) = (V3::new(-200.0, -200.0, 0.0), V3::new(200.0, 200.0, 50.0));
    let mut score = 0.0;
    let mut bugs = String::new();
    let mut fits = Vec::new();
    for (i, mesh) in meshes.iter().enumerate() {
        let over = mesh.v.iter().any(|p| {
            (0..3).any(|k| p[k] < lo[k] - crate::solid::EPS || p[k] > hi[k] + crate::solid::EPS)
        });
        fits.push(!over);
        if over {
            bugs += &format!(
                "Part {i}.stl does not fit in build volume or intersects with the floor<br>"
            );
        } else {
            score += 0.1;
        }
        let Some((min, _)) = mesh.bounds() else {
            bugs += &format!(
                "Part {i}.stl has insufficient bed contact area (~0.0 mm^2); may topple or not adhere<br>"
            );
            continue;
        };
        if min.z < -0.1 {
            bugs += &format!(
                "Part {i}.stl sits below the build plate (min z={:.3})<br>",
                min.z
            );
        }
        let areas = mesh.areas();
        let mut contact = 0.0;
        for (k, f) in mesh.f.iter().enumerate() {
            let zs = f.map(|v| mesh.v[v as usize].z);
            let (zmin, zmax) = (zs[0].min(zs[1]).min(zs[2]), zs[0].max(zs[1]).max(zs[2]));
            if zmin <= 0.1 && zmax >= -0.1 {
                contact += areas[k];
            }
        }
        if contact < 500.0 {
            bugs += &format!(
                "Part {i}.stl has insufficient bed contact area (~{contact:.1} mm^2); may topple or not adhere<br>"
            );
        }
        let normals = mesh.normals();
        let down: Vec<usize> = (0..mesh.f.len()).filter(|&k| normals[k].z < -0.9).collect();
        if !down.is_empty() {
            let pts: Vec<V3> = down.iter().flat_map(|&k| mesh.tri(k)).collect();
            let (bmin, bmax) = pts
                .iter()
                .fold((pts[0], pts[0]), |(a, b), p| (a.min(*p), b.max(*p)));
            let span = bmax - bmin;
            let span_max = span.x.max(span.y);
            let area: f64 = down.iter().map(|&k| areas[k]).sum();
            if !(bmin.z < 0.1 || span_max <= 8.0 && area <= 80.0) {
                bugs += &format!(
                    "Part {i}.stl has a large unsupported overhang/bridge (span ~{span_max:.1} mm, area ~{area:.1} mm^2); likely needs support.<br>"
                );
            }
        }
    }
    Outcome::new(
        score,
        bugs,
        json!({ "fits_build_volume": fits, "score_sum": score }),
    )
}

/// Subpass 2: per part as printed, not every one of the 40 mm cubes may hit it, and every
/// 101 mm cube must (cube centres from the instance; the original draws them unseeded).
pub fn gaps_by_cubes(solids: &[Solid], c40: &[[f64; 2]], c101: &[[f64; 2]]) -> Outcome {
    let mut bugs = String::new();
    let mut per_part = Vec::new();
    let small: Vec<Prism> = c40
        .iter()
        .map(|c| Prism::cube([c[0], c[1], 0.0], [40.0, 40.0, 40.0]))
        .collect();
    let large: Vec<Prism> = c101
        .iter()
        .map(|c| Prism::cube([c[0], c[1], 0.0], [101.0, 101.0, 40.0]))
        .collect();
    for (i, s) in solids.iter().enumerate() {
        let hits40 = small.iter().filter(|p| s.hits_prism(p)).count();
        let hits101 = large.iter().filter(|p| s.hits_prism(p)).count();
        per_part.push(json!({ "hits_40mm": hits40, "hits_101mm": hits101 }));
        if hits40 == small.len() {
            bugs += &format!(
                "Part {i}.stl always intersected a randomly placed 40mm cube. Gap between bars should be 50mm or higher.<br>"
            );
        }
        if hits101 != large.len() {
            bugs += &format!(
                "Part {i}.stl allowed a 101mm cube to pass through. Gap between bars should be 100mm or lower.<br>"
            );
        }
    }
    let score = if bugs.is_empty() { 1.0 } else { 0.0 };
    let text = if bugs.is_empty() {
        format!(
            "every part, as printed, lets some of the {} random 40 mm cubes through and blocks all {} random 101 mm cubes",
            c40.len(),
            c101.len()
        )
    } else {
        bugs
    };
    Outcome::new(
        score,
        text,
        json!({ "parts": per_part, "cubes_40mm": c40.len(), "cubes_101mm": c101.len() }),
    )
}

fn any_hit(posed: &[Solid], p: &Prism) -> bool {
    posed.iter().any(|s| s.hits_prism(p))
}

/// Subpass 3: the assembled cage must not touch the 340×340×680 block at z 20..700, and must
/// have nothing inside `cube(1000)` (centred at z 370) but outside the 380×380×740 box.
/// Quirk: material beyond the 1000 mm cube is never seen, so a cage posed far away passes;
/// the corrected judgement also requires every vertex inside the 380×380×740 box.
pub fn cage_size(posed: &[Solid], meshes: &[Mesh]) -> Outcome {
    let block = Prism::cube([0.0, 0.0, 360.0], [340.0, 340.0, 680.0]);
    let outer = Prism::cube([0.0, 0.0, 370.0], [1000.0, 1000.0, 1000.0]);
    let (lo, hi) = (V3::new(-190.0, -190.0, 0.0), V3::new(190.0, 190.0, 740.0));
    let probe = V3::new(0.0, 0.0, 865.0);
    let small = "Cage is too small or invalid transform matrices - a 350x350x700 needs to fit inside without intersecting the bars.";
    let large = "Cage is too large or invalid transform matrices - Cage must hold 350x350x700mm with 10mm thick bars";
    let touches = any_hit(posed, &block);
    let outside = posed.iter().any(|s| s.hits_shell(&outer, lo, hi, probe));
    let (score, text) = if touches {
        (0.0, small.to_owned())
    } else if outside {
        (0.0, large.to_owned())
    } else {
        (
            1.0,
            "the assembled cage clears the 340×340×680 block and stays inside 380×380×740"
                .to_owned(),
        )
    };
    let beyond = meshes.iter().any(|m| {
        m.v.iter().any(|p| {
            (0..3).any(|k| p[k] < lo[k] - crate::solid::EPS || p[k] > hi[k] + crate::solid::EPS)
        })
    });
    let corrected = if touches {
        (0.0, small.to_owned())
    } else if outside || beyond {
        (0.0, large.to_owned())
    } else {
        (1.0, text.clone())
    };
    Outcome {
        score,
        text,
        details: json!({ "touches_block": touches, "outside_box_within_1000": outside, "any_vertex_outside_box": beyond }),
        corrected: Some(corrected),
    }
}

const CORNERS: [[f64; 2]; 4] = [
    [-180.0, -180.0],
    [180.0, -180.0],
    [-180.0, 180.0],
    [180.0, 180.0],
];

fn rods_text(corner: [f64; 2], size: &str, z: f64, h: f64) -> String {
    format!(
        "translate([{}, {}, {}]) cylinder({size}, h={}, center=true);",
        corner[0], corner[1], z, h
    )
}

/// Subpass 4: OpenSCAD's 8-sided d=5 rods at the corners (z −180..180) must miss the cage,
/// the 26-sided r=8 rods must hit it. Quirk: the rods cover only the bottom 180 mm of the
/// cage; the corrected judgement runs them over z −180..900.
pub fn rods(posed: &[Solid]) -> Outcome {
    let judge = |z: f64, h: f64| -> (f64, String) {
        for c in CORNERS {
            if any_hit(posed, &Prism::cylinder([c[0], c[1], z], 2.5, h)) {
                return (
                    0.0,
                    format!(
                        "Error during simulated assembly: Unable to thread a 6mm rod through the cage segments (at {}), it intersects the cage or bars.",
                        rods_text(c, "d=5", z, h)
                    ),
                );
            }
        }
        for c in CORNERS {
            if !any_hit(posed, &Prism::cylinder([c[0], c[1], z], 8.0, h)) {
                return (
                    0.0,
                    format!(
                        "Error during simulated assembly: Unable to use a 6mm rod through the cage segments (at {}), it has so much clearence that a nut would just slide right through.",
                        rods_text(c, "r=8", z, h)
                    ),
                );
            }
        }
        (
            1.0,
            "the d=5 rods at (±180, ±180) clear the cage and the r=8 rods bear on it".to_owned(),
        )
    };
    let (score, text) = judge(0.0, 360.0);
    let corrected = judge(360.0, 1080.0);
    Outcome {
        score,
        text,
        details: json!({}),
        corrected: Some(corrected),
    }
}

/// Subpass 5 as the original codes it: for parts a < b, `hit_tests(a, [difference(){a; b}])`
/// intersects `a` with `a − b`, so it "hits" whenever `a − b` has volume — whenever part a is
/// not inside part b; any real assembly fails at parts 0 and 1. The corrected judgement
/// tests what was meant: no pair of posed parts overlaps with positive volume.
pub fn overlaps(posed: &[Solid]) -> Outcome {
    let msg = |a: usize, b: usize| format!("When assembled, part {a} intersects with part {b}");
    let mut faithful = (
        1.0,
        "no part sticks out of a later part (the original's A − B test)".to_owned(),
    );
    'outer: for a in 0..posed.len() {
        for b in a + 1..posed.len() {
            if a_minus_b(&posed[a], &posed[b]) {
                faithful = (0.0, msg(a, b));
                break 'outer;
            }
        }
    }
    let mut corrected = (1.0, "no two posed parts overlap".to_owned());
    'outer2: for a in 0..posed.len() {
        for b in a + 1..posed.len() {
            if overlap(&posed[a], &posed[b]) {
                corrected = (0.0, msg(a, b));
                break 'outer2;
            }
        }
    }
    Outcome {
        score: faithful.0,
        text: faithful.1,
        details: json!({}),
        corrected: Some(corrected),
    }
}

/// Whether `a − b` has positive volume: a point just inside `a` lies outside `b`.
pub fn a_minus_b(a: &Solid, b: &Solid) -> bool {
    if a.len() == 0 || a.tris == b.tris {
        return false;
    }
    if b.len() == 0 {
        return true;
    }
    for i in 0..a.len() {
        if let Some(p) = a.face_probe(i)
            && !b.contains(p)
            && a.contains(p)
        {
            return true;
        }
    }
    a.crossing_probes(b, 1.0, -1.0, &mut |p| a.contains(p) && !b.contains(p))
}

/// Whether `a` and `b` overlap with positive volume: a point just inside both, next to a
/// crossing of their surfaces, or one solid inside the other.
pub fn overlap(a: &Solid, b: &Solid) -> bool {
    if a.len() == 0 || b.len() == 0 {
        return false;
    }
    if a.crossing_probes(b, 1.0, 1.0, &mut |p| a.contains(p) && b.contains(p)) {
        return true;
    }
    let inside = |x: &Solid, y: &Solid| {
        (0..x.len())
            .find_map(|i| x.face_probe(i))
            .is_some_and(|p| y.contains(p))
    };
    inside(a, b) || inside(b, a)
}

/// Subpass 6: every posed part must overlap at least two of the four 26-sided r=8 rods
/// (z 0..800).
pub fn retention(posed: &[Solid]) -> Outcome {
    let mut bugs = String::new();
    let mut counts = Vec::new();
    for (i, s) in posed.iter().enumerate() {
        let n = CORNERS
            .iter()
            .filter(|c| s.hits_prism(&Prism::cylinder([c[0], c[1], 400.0], 8.0, 800.0)))
            .count();
        counts.push(n);
        if n == 0 {
            bugs += &format!(
                "When assembled, part {i} is not held in place by the threaded rods, and will fall out from the build when assembled.\n"
            );
        }
        if n == 1 {
            bugs += &format!(
                "When assembled, part {i} is only held in place by one threaded rod, allowing it to rotate around a rod. Since the design brief said no doors or lids, such a part should not appear in the final design."
            );
        }
    }
    let score = if bugs.is_empty() { 1.0 } else { 0.0 };
    let text = if bugs.is_empty() {
        "every part is pierced by at least two rods".to_owned()
    } else {
        bugs
    };
    Outcome::new(score, text, json!({ "rods_per_part": counts }))
}
