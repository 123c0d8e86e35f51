//! The rendered geometry and the volumes VolumeComparison measured, in 2-D.
//!
//! The result SCAD is `linear_extrude(0.1) projection() minkowski(){cube(0.001); union(){…}}`:
//! a 0.1-thick plate over S' = ∪ (projection of each tetrahedron ⊕ [0, a]²), a = 0.001 — each
//! a convex hull, so S' is exact. The reference is the target T (a union of convex pieces)
//! extruded over z ∈ [0, 0.1]. As in the runs' VolumeComparison:
//! * R   = 0.1 · area(S')                 (no further minkowski: the SCAD already has one),
//! * Ref = (0.1 + a) · area(T ⊕ [0, a]²)   (minkowski with cube(0.001)),
//! * I   = (0.1 + a) · area((S' ∩ T) ⊕ [0, a]²),
//! * D   = 0.1 · area((S' ∪ T) − (S' ∩ T) ⊕ [−0.05, 0.05]²)   (union minus the intersection
//!   dilated by `cube(0.1, center=true)`).
//!
//! Each Minkowski sum of a region with a square is the region together with its boundary edges
//! swept by the square (exact); areas come from `geo`'s boolean operations.

use geo::algorithm::bool_ops::unary_union;
use geo::{Area, BooleanOps, Coord, LineString, MultiPolygon, Polygon};
use verigate_sdk::harness::shoelace_area;

/// A point of the plane.
pub type P2 = [f64; 2];

/// OpenSCAD's degree sine (exact at multiples of 30° and 45° where it special-cases them).
pub fn sin_deg(x: f64) -> f64 {
    let mut x = if (0.0..360.0).contains(&x) {
        x
    } else {
        let r = x % 360.0;
        if r < 0.0 { r + 360.0 } else { r }
    };
    let oppose = x >= 180.0;
    if oppose {
        x -= 180.0;
    }
    if x > 90.0 {
        x = 180.0 - x;
    }
    let s = if x < 45.0 {
        if x == 30.0 { 0.5 } else { x.to_radians().sin() }
    } else if x == 45.0 {
        0.5f64.sqrt()
    } else if x == 60.0 {
        0.75f64.sqrt()
    } else if x == 90.0 {
        1.0
    } else {
        (90.0 - x).to_radians().cos()
    };
    if oppose { -s } else { s }
}

/// OpenSCAD's degree cosine.
pub fn cos_deg(x: f64) -> f64 {
    sin_deg(x + 90.0)
}

/// OpenSCAD's `rotate([rx, ry, rz])` matrix (Rz · Ry · Rx).
pub fn rotation(a: [f64; 3]) -> [[f64; 3]; 3] {
    let (sx, cx) = if a[0] != 0.0 {
        (sin_deg(a[0]), cos_deg(a[0]))
    } else {
        (0.0, 1.0)
    };
    let (sy, cy) = if a[1] != 0.0 {
        (sin_deg(a[1]), cos_deg(a[1]))
    } else {
        (0.0, 1.0)
    };
    let (sz, cz) = if a[2] != 0.0 {
        (sin_deg(a[2]), cos_deg(a[2]))
    } else {
        (0.0, 1.0)
    };
    [
        [cy * cz, cz * sx * sy - cx * sz, cx * cz * sy + sx * sz],
        [cy * sz, cx * cz + sx * sy * sz, -cz * sx + cx * sy * sz],
        [-sy, cy * sx, cx * cy],
    ]
}

/// The convex hull (counter-clockwise, no collinear points), Andrew's monotone chain.
pub fn hull(points: &[P2]) -> Vec<P2> {
    let mut p: Vec<P2> = points.to_vec();
    p.sort_by(|a, b| a[0].total_cmp(&b[0]).then(a[1].total_cmp(&b[1])));
    p.dedup();
    if p.len() < 3 {
        return p;
    }
    let cross = |o: P2, a: P2, b: P2| (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
    let mut h: Vec<P2> = Vec::with_capacity(2 * p.len());
    for pass in 0..2 {
        let start = h.len();
        let iter: Box<dyn Iterator<Item = &P2>> = if pass == 0 {
            Box::new(p.iter())
        } else {
            Box::new(p.iter().rev())
        };
        for &q in iter {
            while h.len() >= start + 2 && cross(h[h.len() - 2], h[h.len() - 1], q) <= 0.0 {
                h.pop();
            }
            h.push(q);
        }
        h.pop();
    }
    h
}

/// hull(poly ⊕ [lo, hi]²).
pub fn dilate(poly: &[P2], lo: f64, hi: f64) -> Vec<P2> {
    let pts: Vec<P2> = poly
        .iter()
        .flat_map(|p| {
            [
                [p[0] + lo, p[1] + lo],
                [p[0] + hi, p[1] + lo],
                [p[0] + lo, p[1] + hi],
                [p[0] + hi, p[1] + hi],
            ]
        })
        .collect();
    hull(&pts)
}

fn polygon(points: &[P2]) -> Polygon<f64> {
    let ring: Vec<Coord<f64>> = points.iter().map(|p| Coord { x: p[0], y: p[1] }).collect();
    Polygon::new(LineString::from(ring), vec![])
}

/// The union of simple polygons (either orientation; degenerate ones are skipped).
fn union(polys: &[Vec<P2>]) -> MultiPolygon<f64> {
    let ps: Vec<Polygon<f64>> = polys
        .iter()
        .filter(|p| p.len() >= 3 && shoelace_area(p) != 0.0)
        .map(|p| {
            if shoelace_area(p) > 0.0 {
                polygon(p)
            } else {
                polygon(&p.iter().rev().copied().collect::<Vec<_>>())
            }
        })
        .collect();
    if ps.is_empty() {
        return MultiPolygon::new(vec![]);
    }
    unary_union(&ps)
}

/// The four volumes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Volumes {
    pub result: f64,
    pub reference: f64,
    pub intersection: f64,
    pub difference: f64,
}

/// `a`, the minkowski cube's side.
pub const A: f64 = 0.001;

/// P ⊕ [lo, hi]² for a polygonal region: P together with each boundary edge swept by the square
/// (exact for any P when the square contains the origin).
fn minkowski(p: &MultiPolygon<f64>, lo: f64, hi: f64) -> MultiPolygon<f64> {
    let mut parts: Vec<Vec<P2>> = Vec::new();
    for poly in &p.0 {
        for ring in std::iter::once(poly.exterior()).chain(poly.interiors()) {
            for seg in ring.0.windows(2) {
                let e = [[seg[0].x, seg[0].y], [seg[1].x, seg[1].y]];
                parts.push(dilate(&e, lo, hi));
            }
        }
    }
    let swept = union(&parts);
    p.union(&swept)
}

/// The volumes for shadow triangles/quads (each tetrahedron's projected vertices) against the
/// target's convex pieces (counter-clockwise).
pub fn volumes(shadows: &[Vec<P2>], target: &[Vec<P2>]) -> Volumes {
    let inflated: Vec<Vec<P2>> = shadows.iter().map(|s| dilate(s, 0.0, A)).collect();
    let s = union(&inflated);
    let t = union(target);
    let t_inflated = minkowski(&t, 0.0, A);
    let shared = s.intersection(&t);
    let i_inflated = minkowski(&shared, 0.0, A);
    let dilated = minkowski(&shared, -0.05, 0.05);
    let either = s.union(&t);
    let difference = either.difference(&dilated).unsigned_area();
    Volumes {
        result: 0.1 * s.unsigned_area(),
        reference: (0.1 + A) * t_inflated.unsigned_area(),
        intersection: (0.1 + A) * i_inflated.unsigned_area(),
        difference: 0.1 * difference,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(x0: f64, y0: f64, x1: f64, y1: f64) -> Vec<P2> {
        vec![[x0, y0], [x1, y0], [x1, y1], [x0, y1]]
    }

    #[test]
    fn a_perfect_square_cover() {
        // Shadow = target = [-2, 2]²: R = 0.1 (16 + 8a + a²), Ref = I = 0.101 (16 + 8a + a²),
        // D = 0 (the inflation sliver lies within 0.05 of the intersection).
        let v = volumes(
            &[square(-2.0, -2.0, 2.0, 2.0)],
            &[square(-2.0, -2.0, 2.0, 2.0)],
        );
        let infl = 16.0 + 8.0 * A + A * A;
        assert!((v.result - 0.1 * infl).abs() < 1e-8);
        assert!((v.reference - 0.101 * infl).abs() < 1e-8);
        assert!((v.intersection - 0.101 * infl).abs() < 1e-8);
        assert!(v.difference.abs() < 1e-8);
    }

    #[test]
    fn half_cover_and_far_overhang() {
        // Shadow [-2, 0] × [-2, 2] plus a far square [10, 11]²; target [-2, 2]².
        let v = volumes(
            &[square(-2.0, -2.0, 0.0, 2.0), square(10.0, 10.0, 11.0, 11.0)],
            &[square(-2.0, -2.0, 2.0, 2.0)],
        );
        // I: the inflated half clipped to the target, [-2, a] × [-2, 2], inflated again.
        let i = (2.0 + 2.0 * A) * (4.0 + A) * 0.101;
        assert!(
            (v.intersection - i).abs() < 1e-8,
            "{} {}",
            v.intersection,
            i
        );
        // D: the uncovered part beyond 0.05 of the half, plus the far square (inflated).
        let d = 0.1 * ((2.0 - A - 0.05) * 4.0 + (1.0 + A) * (1.0 + A));
        assert!((v.difference - d).abs() < 1e-8, "{} {}", v.difference, d);
    }

    #[test]
    fn openscad_rotations() {
        assert_eq!(
            rotation([180.0, 0.0, 0.0]),
            [[1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, -1.0]]
        );
        assert_eq!(
            rotation([0.0, 0.0, 90.0]),
            [[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]
        );
        assert_eq!(sin_deg(30.0), 0.5);
        assert_eq!(cos_deg(-90.0), 0.0);
    }
}
