//! `scbench-q2-lego-hemisphere` (verdict-json): SCBench Q2 "Build a Lego(tm) hemispherical
//! shell", a port of `2.py` (index id 53319552581: `earlyFailTest`, `resultToScad`,
//! `lateFailTest`, `validatePostVolume`, `postProcessScore`) scored as
//! `VolumeComparison.compareVolumeAgainstOpenScad` (commit 78b8743) scores it.
//!
//! Instance: `subpass`, `inner_cm`, `outer_cm` ((4, 7) … (15, 18)), `fn` (16). Payload:
//! the model answer as the runner stored it, a Python literal
//! `{'reasoning': …, 'bricks': [{'Centroid': [x, y, z], 'RotationDegrees': r}, …]}`, or
//! JSON. Each brick is `translate(Centroid) rotate([0, 0, r]) cube([32, 16, 9.6],
//! center=true)`; the reference is `sphere(10·outer, $fn=16)` minus `sphere(10·inner,
//! $fn=16)` above z = 0.
//!
//! Order, as the original: `earlyFailTest` (no bricks; z not 4.8 + 9.6·n within 0.1 of a
//! layer; z < 4.7; a brick whose eight *unrotated* corners are all inside the inner
//! sphere or all outside the outer one; duplicates by rounded position and rotation mod
//! 180) → score 0, "Early failure: …"; `lateFailTest` (stud grids of every pair in a
//! connected component, same-centre bricks at a non-right relative angle, centre of mass
//! of each multi-brick component over its ground bricks' hull, every brick supported from
//! below or hanging from a supported brick above) → score 0 with its reason; then the
//! volumes R (the bricks' union), Ref, I = R ∩ Ref and D = (R ∪ Ref) − I, computed
//! exactly by convex clipping (`volume.rs`) where the original rendered STLs with
//! OpenSCAD and measured them with trimesh. Score = min(I/Ref, R/Ref), less 0.5 when the
//! brick count differs from Ref/4915.2 by 1000 or more (`validatePostVolume`), less
//! 0.5·D/Ref, then min(1, s/0.65), floored at 0 — in the original's steps; the message
//! is the original's volume table and "Score was renormalised" line.
//!
//! Differences from the original, all small: the original's meshes are inflated by
//! `minkowski(){cube(0.001); …}` (about +35 mm³ on a 547,863 mm³ reference, ~1e-4 of the
//! score) and rounded to STL floats; an OpenSCAD error or timeout there forced 0, which
//! a deterministic port cannot reproduce. Quirks reproduced: unrotated corners in the
//! inside/outside test; stud keys compared for every pair of a component, not just
//! touching ones; `validatePostVolume`'s overlap penalty compares the brick count with
//! the reference volume and so practically never fires, leaving overlapping bricks
//! unpenalised (their union counts once); a coordinate the SCAD text cannot read (`True`,
//! `nan`) makes OpenSCAD ignore that brick's `translate` (or `rotate`). `details.corrected`
//! judges the task as stated: rotated corners in the inside/outside test, and
//! overlapping bricks (more than 1 mm³ in common) fail. Where the original raises (a
//! brick without `Centroid`, a non-numeric coordinate; its runner records 10000) the
//! verdict fails with score 0 and says so.

mod checks;
mod volume;

use checks::{Brick, Rounder, Stop};
use serde::Deserialize;
use verigate_sdk::Verdict;
use verigate_sdk::python::Value;
use verigate_sdk::serde_json::json;
use volume::{Prism, Shell};

#[derive(Deserialize)]
struct Instance {
    inner_cm: f64,
    outer_cm: f64,
    #[serde(rename = "fn")]
    fn_: usize,
}

/// Overlaps beyond this many pieces are not resolved (a pathological pile of bricks).
const MAX_PIECES: usize = 400_000;

/// The brick as OpenSCAD places it.
fn prism(b: &Brick) -> Prism {
    let (x, y, z) = if b.scad_translate {
        (b.x, b.y, b.z)
    } else {
        (0.0, 0.0, 0.0)
    };
    let r = if b.scad_rotate { b.rot } else { 0.0 };
    let (c, s) = (volume::cos_degrees(r), volume::sin_degrees(r));
    let poly = [[-16.0, -8.0], [16.0, -8.0], [16.0, 8.0], [-16.0, 8.0]]
        .iter()
        .map(|&[dx, dy]| [x + (dx * c - dy * s), y + (dx * s + dy * c)])
        .collect();
    Prism {
        poly,
        z0: z - 4.8,
        z1: z + 4.8,
    }
}

/// The volumes the original measures.
struct Volumes {
    result: f64,
    reference: f64,
    intersection: f64,
    difference: f64,
    /// Σ brick volumes − union: the volume bricks share.
    shared: f64,
    /// The first pair of bricks sharing more than 1 mm³, with the volume.
    overlapping: Option<(usize, usize, f64)>,
}

fn volumes(instance: &Instance, bricks: &[Brick]) -> Option<Volumes> {
    let shell = Shell::new(
        instance.inner_cm * 10.0,
        instance.outer_cm * 10.0,
        instance.fn_,
    );
    let prisms: Vec<Prism> = bricks.iter().map(prism).collect();
    let pieces = volume::union(&prisms, MAX_PIECES)?;
    let mut kept = vec![0.0; prisms.len()];
    let (mut result, mut intersection) = (0.0, 0.0);
    for (i, p) in &pieces {
        let v = p.volume();
        kept[*i] += v;
        result += v;
        intersection += shell.intersection(p);
    }
    let overlapping = kept.iter().enumerate().find_map(|(i, &k)| {
        (prisms[i].volume() - k > 1.0).then(|| {
            (0..i).find_map(|j| {
                let v = volume::overlap(&prisms[i], &prisms[j]);
                (v > 1.0).then_some((j, i, v))
            })
        })?
    });
    let reference = shell.volume;
    Some(Volumes {
        result,
        reference,
        intersection,
        difference: result + reference - 2.0 * intersection,
        shared: prisms.iter().map(Prism::volume).sum::<f64>() - result,
        overlapping,
    })
}

/// `compareVolumeAgainstOpenScad`'s score and explanation from the volumes.
fn score(v: &Volumes, bricks: usize) -> (f64, f64, String) {
    let mut text = format!(
        "\n    <table>\n    <tr><td>Result Volume:</td><td>{:.2}</td></tr>\n    <tr><td>Reference Volume:</td><td>{:.2}</td></tr>\n    <tr><td>Intersection Volume:</td><td>{:.2}</td></tr>\n    <tr><td>Difference Volume:</td><td>{:.2}</td></tr>\n    </table>\n    ",
        v.result, v.reference, v.intersection, v.difference
    );
    if v.reference == 0.0 {
        return (0.0, 0.0, text);
    }
    let (a, b) = (v.intersection / v.reference, v.result / v.reference);
    let mut s = if b < a { b } else { a };
    // validatePostVolume: the brick count against the reference in bricks.
    let delta = (bricks as f64 - v.reference / 9.6 / 16.0 / 32.0).abs();
    if delta >= 1000.0 {
        s -= 0.5;
        text.push_str(&format!(
            "50% penalty due to bricks overlapping: Volume error of {}mm3",
            delta.round_ties_even()
        ));
    }
    s -= (v.difference / v.reference) * 0.5;
    let raw = s;
    let renormalised = s / 0.65;
    let new = if renormalised < 1.0 {
        renormalised
    } else {
        1.0
    };
    if new != raw {
        text.push_str(&format!("Score was renormalised: {raw:.2} -> {new:.2}\n"));
    }
    (new.clamp(0.0, 1.0), raw, text)
}

fn grade(instance: &Instance, text: &str) -> Verdict {
    let answer = verigate_sdk::python::answer(text);
    if !answer.truthy() {
        return Verdict::falsy_answer().same_when_corrected();
    }
    let raises = |why: String| Verdict::raised(why).same_when_corrected();
    let Some(bricks) = answer.as_dict().and_then(|d| d.get("bricks")) else {
        return raises(format!(
            "the answer ({}) is not a dict with 'bricks'",
            answer.type_name()
        ));
    };
    let items: &[Value] = match bricks.as_sequence() {
        Some(items) => items,
        None if bricks.as_str() == Some("") || bricks.as_dict().is_some_and(|d| d.is_empty()) => {
            &[]
        }
        None => return raises(format!("bricks is a {}, not a list", bricks.type_name())),
    };
    let (inner, outer) = (instance.inner_cm * 10.0, instance.outer_cm * 10.0);
    let rounder = Rounder::new();

    let corrected_early = checks::early(items, inner, outer, true, &rounder);
    let bricks = match checks::early(items, inner, outer, false, &rounder) {
        Ok(b) => b,
        Err(Stop::Zero(why)) => {
            let corrected = match corrected_early {
                Err(Stop::Zero(c) | Stop::Raise(c)) => format!("Early failure: {c}"),
                Ok(_) => format!("Early failure: {why}"),
            };
            return Verdict::fail(format!("Early failure: {why}"))
                .with_corrected(&Verdict::fail(corrected));
        }
        Err(Stop::Raise(why)) => return raises(why),
    };
    let late = match checks::late(&bricks, &rounder) {
        Ok(late) => late,
        Err(Stop::Zero(why) | Stop::Raise(why)) => return raises(why),
    };
    if let Some(why) = late {
        let corrected = match &corrected_early {
            Err(c) => format!("Early failure: {}", c.why()),
            Ok(_) => why.clone(),
        };
        return Verdict::fail(why).with_corrected(&Verdict::fail(corrected));
    }
    let Some(v) = volumes(instance, &bricks) else {
        let why =
            format!("the bricks overlap in more than {MAX_PIECES} disjoint pieces; not resolved");
        return Verdict::fail(why).same_when_corrected();
    };
    let (s, raw, message) = score(&v, bricks.len());
    let corrected = match (&corrected_early, v.overlapping) {
        (Err(c), _) => Verdict::fail(format!("Early failure: {}", c.why())),
        (Ok(_), Some((i, j, shared))) => Verdict::fail(format!(
            "bricks {i} and {j} overlap by {shared:.1} mm³ (bricks may not overlap)"
        )),
        (Ok(_), None) => Verdict::scored(s, message.clone()),
    };
    let details = json!({
        "volumes": {
            "result": v.result,
            "reference": v.reference,
            "intersection": v.intersection,
            "difference": v.difference,
            "shared_by_overlapping_bricks": v.shared,
        },
        "raw_score": raw,
        "bricks": bricks.len(),
    });
    Verdict::scored(s, message)
        .with_details(details)
        .with_corrected(&corrected)
}

verigate_sdk::main!(verdict_json, grade_instance(grade));

#[cfg(test)]
mod tests;
