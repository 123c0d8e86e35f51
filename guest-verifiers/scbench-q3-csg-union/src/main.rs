//! `scbench-q3-csg-union` (verdict-json): SCBench Q3 "CSG Union of Polyhedra", a port of
//! `3.py` (index id 53476148264) and of the volume comparison it is graded by
//! (`VolumeComparison.compareVolumeAgainstOpenScad`, in the form the paper runs used).
//!
//! Instance: `pieces`, the reference solid as the original built it, as convex pieces
//! (`vertices`, outward `faces`) tessellated as OpenSCAD does; `intended_pieces` where the
//! description differs (subpass 7, whose wedge OpenSCAD dropped from the reference); and
//! `original_reference_failed` (subpass 8, whose reference never built: every stored answer got
//! 0). Payload: the answer as the harness stored it (Python repr) or JSON,
//! `{"polyhedron": {"vertex": [{"xyz": [x, y, z]}], "faces": [{"vertex": [i, …]}]}}`.
//!
//! Grading, in the original's order:
//! 1. a falsy answer scores 0;
//! 2. `earlyFailTest` (module `precheck`): its checks, order and messages ("Early failure: …"),
//!    where it raises, "Exception … while judging earlyFail criteria";
//! 3. the volume comparison: R = vol(answer), Ref = vol(reference), I = vol(R ∩ Ref),
//!    D = vol(R ∪ Ref) − I, computed exactly (module `geom`: a continuous chord field integrated
//!    over the answer's faces, robust to the coincident faces CSG answers are full of; the union
//!    of pieces by inclusion–exclusion). score = min(I/Ref, R/Ref) − 0.5·D/Ref; > 0.95 ⇒ 1;
//!    max 0; cap 1.
//!
//! Where the port differs (tolerance, not quirks): OpenSCAD measured each solid after a
//! `minkowski` with cube(0.001) (about +0.03 % of the volume; shown in details as
//! `reference_volume_inflated`), and the paper runs' D was (R ∪ Ref) minus the intersection
//! dilated by a 0.1 cube, which drops slivers thinner than 0.1 and a 0.05 layer along the
//! interface: their D is smaller than the exact one by up to ~0.05 × that interface area. An
//! answer whose signed volume is negative (faces turned inward) is graded as its reversal.
//! OpenSCAD/CGAL failures of the original (a forced 0) are not reproduced.
//! Details carry the volumes and a self-intersection count (a check the original never made).

mod geom;
mod precheck;
mod selfx;

use serde::Deserialize;
use verigate_sdk::Verdict;
use verigate_sdk::serde_json::json;

use geom::P3;

#[derive(Deserialize)]
struct Piece {
    vertices: Vec<P3>,
    faces: Vec<Vec<usize>>,
}

#[derive(Deserialize)]
struct Instance {
    pieces: Vec<Piece>,
    #[serde(default)]
    intended_pieces: Option<Vec<Piece>>,
    #[serde(default)]
    original_reference_failed: bool,
    #[serde(default)]
    reference_volume_inflated: Option<f64>,
}

/// The volume comparison's numbers and score.
struct Comparison {
    result: f64,
    reference: f64,
    intersection: f64,
    difference: f64,
    raw: f64,
    score: f64,
}

fn compare(tris: &[geom::Tri], result: f64, pieces: &[Piece]) -> Comparison {
    let pieces: Vec<(Vec<P3>, Vec<Vec<usize>>)> = pieces
        .iter()
        .map(|p| (p.vertices.clone(), p.faces.clone()))
        .collect();
    let union = geom::union_of(&pieces);
    let reference = union.volume;
    let intersection = geom::intersection_volume(tris, &union).clamp(0.0, result.min(reference));
    let difference = (result + reference - 2.0 * intersection).max(0.0);
    if reference == 0.0 {
        return Comparison {
            result,
            reference,
            intersection,
            difference,
            raw: 0.0,
            score: 0.0,
        };
    }
    let mut score = (intersection / reference).min(result / reference);
    score -= difference / reference * 0.5;
    let raw = score;
    if score > 0.95 {
        score = 1.0;
    }
    Comparison {
        result,
        reference,
        intersection,
        difference,
        raw,
        score: score.clamp(0.0, 1.0),
    }
}

fn table(c: &Comparison) -> String {
    let mut text = format!(
        "Result Volume: {:.2}, Reference Volume: {:.2}, Intersection Volume: {:.2}, Difference Volume: {:.2}",
        c.result, c.reference, c.intersection, c.difference
    );
    if c.raw > 0.95 && (c.raw - 1.0).abs() > 1e-9 {
        text.push_str(&format!("; Score was renormalised: {:.2} -> 1.00", c.raw));
    }
    text
}

fn grade(instance: &Instance, text: &str) -> Verdict {
    let answer = verigate_sdk::python::answer(text);
    if !answer.truthy() {
        return Verdict::falsy_answer().same_when_corrected();
    }
    let mesh = match precheck::check(&answer) {
        Ok(mesh) => mesh,
        Err(precheck::Early::Reason(why)) => {
            return Verdict::fail(format!("Early failure: {why}"));
        }
        Err(precheck::Early::Raise(e)) => {
            return Verdict::fail(format!(
                "Early failure: Exception {e} while judging earlyFail criteria. Typically this occurs with a very malformed response."
            ));
        }
    };
    let inverted = mesh.signed_volume < 0.0;
    let faces: Vec<Vec<usize>> = if inverted {
        mesh.faces
            .iter()
            .map(|f| f.iter().rev().copied().collect())
            .collect()
    } else {
        mesh.faces.clone()
    };
    let result = mesh.signed_volume.abs();
    let tris = geom::yz_triangles(&mesh.vertices, &faces);
    let faithful = compare(&tris, result, &instance.pieces);
    let corrected = instance
        .intended_pieces
        .as_ref()
        .map(|p| compare(&tris, result, p));
    let self_intersections = selfx::count(&mesh.vertices, &faces, 1000);
    let inflated = result + 0.001 * geom::l1_half_surface(&mesh.vertices, &faces);

    let mut message = table(&faithful);
    if instance.original_reference_failed {
        message.push_str(
            "; note: the original's reference failed to build here (CGAL assertion), so its runs scored every answer 0",
        );
    }
    let corrected_c = corrected.as_ref().unwrap_or(&faithful);
    let corrected_message = if corrected.is_some() {
        format!("against the intended solid: {}", table(corrected_c))
    } else {
        table(corrected_c)
    };
    let details = json!({
        "result_volume": faithful.result,
        "reference_volume": faithful.reference,
        "intersection_volume": faithful.intersection,
        "difference_volume": faithful.difference,
        "score_before_postprocess": faithful.raw,
        "result_volume_inflated": inflated,
        "reference_volume_inflated": instance.reference_volume_inflated,
        "inverted_faces": inverted,
        "faces": mesh.faces.len(),
        "vertices": mesh.vertices.len(),
        "self_intersecting_triangle_pairs": self_intersections,
    });
    Verdict::scored(faithful.score, message)
        .with_details(details)
        .with_corrected(&Verdict::scored(corrected_c.score, corrected_message))
}

verigate_sdk::main!(verdict_json, grade_instance(grade));

#[cfg(test)]
mod tests;
