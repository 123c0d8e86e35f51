//! Shape similarity against the target silhouette (paper's Stage 2), in
//! `f64` with `geo`: these are continuous measures, not validity decisions.
//!
//! - IoU = area(U ∩ T) / area(U ∪ T), U the union of the pieces.
//! - Hausdorff distance between the boundaries ∂U and ∂T (every ring), as the
//!   paper defines it: the largest distance from a boundary point of one to
//!   the boundary of the other. Each boundary is densified to steps of at
//!   most 1/1000 of the target's diameter and every sample's distance to the
//!   other boundary's segments is measured, so the figure is exact up to
//!   that step. (A vertex-to-vertex distance, which is what `geo`'s and
//!   GEOS's discrete Hausdorff measure, would report a gap between two
//!   identical boundaries split at different vertices.)

use geo::algorithm::bool_ops::unary_union;
use geo::{
    Area, BooleanOps, BoundingRect, Coord, Densify, Distance, Euclidean, LineString, MultiPolygon,
    Point, Polygon,
};

/// A polygon from `(x, y)` pairs.
fn polygon(points: &[(f64, f64)]) -> Polygon<f64> {
    let ring: Vec<Coord<f64>> = points.iter().map(|&(x, y)| Coord { x, y }).collect();
    Polygon::new(LineString::from(ring), vec![])
}

/// The area of a polygon.
pub fn area(points: &[(f64, f64)]) -> f64 {
    polygon(points).unsigned_area()
}

/// The area two polygons share.
pub fn overlap_area(a: &[(f64, f64)], b: &[(f64, f64)]) -> f64 {
    polygon(a).intersection(&polygon(b)).unsigned_area()
}

/// Every ring of a region.
fn rings(region: &MultiPolygon<f64>) -> Vec<LineString<f64>> {
    region
        .0
        .iter()
        .flat_map(|p| std::iter::once(p.exterior()).chain(p.interiors()))
        .cloned()
        .collect()
}

/// The largest distance from a point of `from` to the nearest point of `to`.
fn directed_hausdorff(from: &[LineString<f64>], to: &[LineString<f64>], step: f64) -> f64 {
    from.iter()
        .flat_map(|ring| Euclidean.densify(ring, step).into_points())
        .map(|p: Point<f64>| {
            to.iter()
                .map(|ring| Euclidean.distance(&p, ring))
                .fold(f64::INFINITY, f64::min)
        })
        .fold(0.0, f64::max)
}

/// IoU and boundary Hausdorff distance of the pieces against the target.
pub fn similarity(pieces: &[Vec<(f64, f64)>], target: &[(f64, f64)]) -> (f64, f64) {
    let polygons: Vec<Polygon<f64>> = pieces.iter().map(|p| polygon(p)).collect();
    let union = unary_union(&polygons);
    let target = MultiPolygon::new(vec![polygon(target)]);
    let shared = union.intersection(&target).unsigned_area();
    let either = union.union(&target).unsigned_area();
    let iou = if either > 0.0 { shared / either } else { 0.0 };
    let diameter = target
        .bounding_rect()
        .map_or(1.0, |r| r.width().hypot(r.height()));
    let step = (diameter / 1000.0).max(f64::MIN_POSITIVE);
    let (u, t) = (rings(&union), rings(&target));
    let hausdorff = if u.is_empty() {
        f64::INFINITY
    } else {
        directed_hausdorff(&u, &t, step).max(directed_hausdorff(&t, &u, step))
    };
    (iou, hausdorff)
}

/// What a figure of an assembly marks, each region as polygons with holes: where
/// pieces overlap each other, the target's area no piece covers, and the pieces' area
/// outside the target. Slivers under a millionth of the target's area (rounding
/// between pieces that only touch) are dropped.
pub struct Regions {
    pub overlaps: Vec<Polygon<f64>>,
    pub uncovered: Vec<Polygon<f64>>,
    pub outside: Vec<Polygon<f64>>,
}

/// The [`Regions`] of the pieces against the target.
pub fn regions(pieces: &[Vec<(f64, f64)>], target: &[(f64, f64)]) -> Regions {
    let polygons: Vec<Polygon<f64>> = pieces.iter().map(|p| polygon(p)).collect();
    let target = MultiPolygon::new(vec![polygon(target)]);
    let floor = 1e-6 * target.unsigned_area();
    let keep = |region: MultiPolygon<f64>| -> Vec<Polygon<f64>> {
        region
            .0
            .into_iter()
            .filter(|p| p.unsigned_area() > floor)
            .collect()
    };
    let mut overlaps = Vec::new();
    for (i, a) in polygons.iter().enumerate() {
        for b in &polygons[i + 1..] {
            overlaps.extend(keep(a.intersection(b)));
        }
    }
    let union = unary_union(&polygons);
    Regions {
        overlaps,
        uncovered: keep(target.difference(&union)),
        outside: keep(union.difference(&target)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shifted_square_against_the_target() {
        let target = [(0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0)];
        let halves = vec![
            vec![(0.0, 0.0), (4.0, 0.0), (4.0, 2.0), (0.0, 2.0)],
            vec![(0.0, 2.0), (4.0, 2.0), (4.0, 4.0), (0.0, 4.0)],
        ];
        let (iou, hausdorff) = similarity(&halves, &target);
        assert!((iou - 1.0).abs() < 1e-12);
        assert!(hausdorff < 1e-9, "{hausdorff}");
        let shifted = vec![vec![(1.0, 0.0), (5.0, 0.0), (5.0, 4.0), (1.0, 4.0)]];
        let (iou, hausdorff) = similarity(&shifted, &target);
        assert!((iou - 12.0 / 20.0).abs() < 1e-12);
        assert!((hausdorff - 1.0).abs() < 1e-9, "{hausdorff}");
    }

    #[test]
    fn regions_of_an_overlapping_shifted_pair() {
        let target = [(0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0)];
        let pieces = vec![
            vec![(0.0, 0.0), (4.0, 0.0), (4.0, 2.0), (0.0, 2.0)],
            vec![(1.0, 1.0), (5.0, 1.0), (5.0, 3.0), (1.0, 3.0)],
        ];
        let r = regions(&pieces, &target);
        let area = |ps: &[Polygon<f64>]| ps.iter().map(|p| p.unsigned_area()).sum::<f64>();
        assert!((area(&r.overlaps) - 3.0).abs() < 1e-9);
        // Uncovered: the top 4 × 2 less the second piece's 3 × 1 inside it.
        assert!((area(&r.uncovered) - 5.0).abs() < 1e-9);
        assert!((area(&r.outside) - 2.0).abs() < 1e-9);
        // Pieces that only touch leave no overlap.
        let halves = vec![
            vec![(0.0, 0.0), (4.0, 0.0), (4.0, 2.0), (0.0, 2.0)],
            vec![(0.0, 2.0), (4.0, 2.0), (4.0, 4.0), (0.0, 4.0)],
        ];
        let r = regions(&halves, &target);
        assert!(r.overlaps.is_empty() && r.uncovered.is_empty() && r.outside.is_empty());
    }

    #[test]
    fn overlap_area_of_two_squares() {
        let a = [(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0)];
        let b = [(1.0, 1.0), (3.0, 1.0), (3.0, 3.0), (1.0, 3.0)];
        assert!((overlap_area(&a, &b) - 1.0).abs() < 1e-12);
    }
}
