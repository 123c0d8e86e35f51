//! Subpasses 7 and 8: bar thickness and bar gaps measured by ray casts from large
//! axis-aligned facets, then a histogram mode, as the original does with trimesh.

use parry3d_f64::math::Vector as V3;
use verigate_sdk::serde_json::json;

use crate::checks::Outcome;
use crate::mesh::{Map, Mesh};
use crate::solid::{PROBE, Solid};

/// numpy's median.
pub fn median(vals: &[f64]) -> f64 {
    let mut v = vals.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// `np.histogram(vals, bins=np.arange(0, max + width, width))`, its first fullest bin
/// `[lo, hi)`, and the median of the values in it (of all values if none): `(mode, count)`.
pub fn mode(vals: &[f64], width: f64, max: f64) -> (f64, usize) {
    let bins = (max / width).round() as usize;
    let edge = |i: usize| i as f64 * width;
    let mut hist = vec![0usize; bins];
    for &v in vals {
        if !(0.0..=max).contains(&v) {
            continue;
        }
        let mut i = ((v / width).floor() as usize).min(bins - 1);
        while i > 0 && v < edge(i) {
            i -= 1;
        }
        while i + 1 < bins && v >= edge(i + 1) {
            i += 1;
        }
        hist[i] += 1;
    }
    let best = hist.iter().copied().max().unwrap_or(0);
    let bin = hist.iter().position(|&c| c == best).unwrap_or(0);
    let (lo, hi) = (edge(bin), edge(bin + 1));
    let inside: Vec<f64> = vals
        .iter()
        .copied()
        .filter(|&v| v >= lo && v < hi)
        .collect();
    let est = if inside.is_empty() {
        median(vals)
    } else {
        median(&inside)
    };
    (est, inside.len())
}

/// The facets the original samples, with their normal and the sample points (face centres,
/// every `max(1, ⌊n/5⌋)`-th, at most five): facets of at least 30 mm² whose normal is within
/// the allowed axes and at least 0.9 along its main axis, not spanning under 5 mm across,
/// and not end-caps (both spans ≤ 12 mm).
fn sampled_facets(mesh: &Mesh, normals: &[V3], axes: &[usize]) -> Vec<(V3, Vec<V3>)> {
    let areas = mesh.areas();
    let centers = mesh.centers();
    let mut out = Vec::new();
    for facet in mesh.facets(normals) {
        let area: f64 = facet.iter().map(|&f| areas[f]).sum();
        if area < 30.0 {
            continue;
        }
        let largest =
            facet.iter().copied().fold(
                facet[0],
                |best, f| if areas[f] > areas[best] { f } else { best },
            );
        let n = normals[largest];
        let abs = [n.x.abs(), n.y.abs(), n.z.abs()];
        let axis = (0..3).fold(0, |best, k| if abs[k] > abs[best] { k } else { best });
        if !axes.contains(&axis) || abs[axis] < 0.9 {
            continue;
        }
        let pts: Vec<V3> = facet.iter().flat_map(|&f| mesh.tri(f)).collect();
        let (lo, hi) = pts
            .iter()
            .fold((pts[0], pts[0]), |(a, b), p| (a.min(*p), b.max(*p)));
        let span = hi - lo;
        let tangential: Vec<f64> = (0..3).filter(|&k| k != axis).map(|k| span[k]).collect();
        let (t0, t1) = (tangential[0], tangential[1]);
        if t0.min(t1) < 5.0 || (t0 <= 12.0 && t1 <= 12.0) {
            continue;
        }
        let step = (facet.len() / 5).max(1);
        let samples = facet
            .iter()
            .step_by(step)
            .take(5)
            .map(|&f| centers[f])
            .collect();
        out.push((n, samples));
    }
    out
}

/// Subpass 7 on one part as printed: thickness samples (median of the inward ray lengths
/// from 0.05 mm inside each sampled facet, kept when in (0.05, 300)).
pub fn thickness_samples(mesh: &Mesh, solid: &Solid) -> Vec<f64> {
    let mut samples = Vec::new();
    for (n, points) in sampled_facets(mesh, &solid.normals, &[0, 1, 2]) {
        let dists: Vec<f64> = points
            .iter()
            .filter_map(|c| solid.first_hit(*c - n * 0.05, -n))
            .filter(|&d| d > 0.0)
            .collect();
        if dists.is_empty() {
            continue;
        }
        let t = median(&dists);
        if t > 0.05 && t < 300.0 {
            samples.push(t);
        }
    }
    samples
}

/// Subpass 7: per part, at least 25 thickness samples, a dominant 0.5 mm bin whose median is
/// within 9.5..10.5 mm, holding at least 15 % of the samples. The passing explanation
/// quotes the last part's figures, as the original's leaked loop variables do.
pub fn thickness(meshes: &[Mesh], solids: &[Solid]) -> Outcome {
    let mut bugs = String::new();
    let mut last = (0.0, 0.0);
    let mut per_part = Vec::new();
    for (i, (mesh, solid)) in meshes.iter().zip(solids).enumerate() {
        let vals = thickness_samples(mesh, solid);
        if vals.len() < 25 {
            bugs += &format!(
                "Part {i}.stl did not produce enough thickness samples ({}) for bar thickness test<br>",
                vals.len()
            );
            per_part.push(json!({ "samples": vals.len() }));
            continue;
        }
        let (est, count) = mode(&vals, 0.5, 300.0);
        let ratio = count as f64 / vals.len() as f64;
        per_part.push(json!({ "samples": vals.len(), "mode_mm": est, "mode_ratio": ratio }));
        last = (ratio, est);
        if !(9.5..=10.5).contains(&est) {
            bugs += &format!(
                "Part {i}.stl bar thickness appears out of spec (dominant thickness ~{est:.2}mm, expected 10mm)<br>"
            );
            continue;
        }
        if ratio < 0.15 {
            bugs += &format!(
                "Part {i}.stl bar thickness test inconclusive: dominant 10mm cluster too weak (mode ratio {ratio:.2})<br>"
            );
        }
    }
    let details = json!({ "parts": per_part });
    if !bugs.is_empty() {
        return Outcome::new(0.0, bugs, details);
    }
    Outcome::new(
        1.0,
        format!(
            "{:.2}% of solid bars span approx {:.2}mm",
            last.0 * 100.0,
            last.1
        ),
        details,
    )
}

/// The assembled cage's outer surface, approximating OpenSCAD's union (`fullposed.stl`): the
/// posed parts' faces whose outside (a point 0.001 mm off the face centre) is not inside
/// another part, with vertices merged across parts.
fn union_surface(posed: &[Mesh], solids: &[Solid]) -> Mesh {
    let mut index: Map<[i64; 3], u32> = Map::default();
    let mut out = Mesh::default();
    for (k, mesh) in posed.iter().enumerate() {
        let s = &solids[k];
        for (i, f) in mesh.f.iter().enumerate() {
            let n = s.normals[i];
            let t = mesh.tri(i);
            let outside = (t[0] + t[1] + t[2]) / 3.0 + n * PROBE;
            if n != V3::ZERO
                && solids
                    .iter()
                    .enumerate()
                    .any(|(j, o)| j != k && o.contains(outside))
            {
                continue;
            }
            let mut face = [0u32; 3];
            for (slot, &v) in face.iter_mut().zip(f) {
                let p = mesh.v[v as usize];
                let key = [p.x, p.y, p.z].map(|c| (c * 1e8 - 1e-6).round_ties_even() as i64);
                *slot = *index.entry(key).or_insert_with(|| {
                    out.v.push(p);
                    (out.v.len() - 1) as u32
                });
            }
            out.f.push(face);
        }
    }
    out
}

/// Subpass 8 on the assembled cage: gap samples (median of the outward ray lengths from
/// 0.2 mm outside each sampled x/y facet, to the first part hit, kept in (1, 250)); at least
/// 50 of them, a dominant 1 mm bin whose median is within 50..100 mm, and at least 20 % of
/// the samples within 5 mm of it.
pub fn gaps(posed: &[Mesh], solids: &[Solid]) -> Outcome {
    let surface = union_surface(posed, solids);
    let normals = surface.normals();
    let hit = |o: V3, d: V3| {
        solids
            .iter()
            .filter_map(|s| s.first_hit(o, d))
            .fold(None, |best: Option<f64>, t| {
                Some(best.map_or(t, |b| b.min(t)))
            })
    };
    let mut vals = Vec::new();
    for (n, points) in sampled_facets(&surface, &normals, &[0, 1]) {
        let dists: Vec<f64> = points
            .iter()
            .filter_map(|c| hit(*c + n * 0.2, n))
            .filter(|&d| d > 1.0 && d < 250.0)
            .collect();
        if dists.is_empty() {
            continue;
        }
        let g = median(&dists);
        if g > 1.0 && g < 250.0 {
            vals.push(g);
        }
    }
    if vals.len() < 50 {
        return Outcome::new(
            0.0,
            format!(
                "Gap spacing test did not produce enough samples ({})<br>",
                vals.len()
            ),
            json!({ "samples": vals.len() }),
        );
    }
    let (est, _) = mode(&vals, 1.0, 250.0);
    let inliers = vals.iter().filter(|&&v| (v - est).abs() <= 5.0).count();
    let ratio = inliers as f64 / vals.len() as f64;
    let details = json!({ "samples": vals.len(), "mode_mm": est, "inlier_ratio": ratio });
    if !(50.0..=100.0).contains(&est) {
        return Outcome::new(
            0.0,
            format!(
                "Bar gap appears out of spec (dominant gap ~{est:.2}mm, expected 50-100mm)<br>"
            ),
            details,
        );
    }
    if ratio < 0.2 {
        return Outcome::new(
            0.0,
            format!(
                "Bar gap spacing not uniform enough (dominant gap ~{est:.2}mm, inlier ratio {ratio:.2})<br>"
            ),
            details,
        );
    }
    Outcome::new(
        1.0,
        format!("Dominant bar gap ~{est:.2}mm (inlier ratio {ratio:.2})"),
        details,
    )
}
