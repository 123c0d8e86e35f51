//! Exact planar predicates over Q(√2): the validity checks (RGE, PE) and the
//! exact success test. No tolerance: every decision is a sign of an exact
//! number.
//!
//! Tangram pieces are convex, so overlap, contact and containment reduce to
//! half-plane tests: two convex polygons' interiors are disjoint exactly when
//! one polygon's edge line weakly separates them (the edges of their
//! Minkowski difference are edges of one or the other).

use crate::qsqrt2::Q2;

/// A point (or vector) with exact coordinates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Point {
    pub x: Q2,
    pub y: Q2,
}

impl Point {
    fn minus(&self, o: &Point) -> Point {
        Point {
            x: &self.x - &o.x,
            y: &self.y - &o.y,
        }
    }

    /// `(x, y)` as `f64`.
    pub fn to_f64(&self) -> (f64, f64) {
        (self.x.to_f64(), self.y.to_f64())
    }
}

fn cross(u: &Point, v: &Point) -> Q2 {
    &(&u.x * &v.y) - &(&u.y * &v.x)
}

fn dot(u: &Point, v: &Point) -> Q2 {
    &(&u.x * &v.x) + &(&u.y * &v.y)
}

/// > 0 when `r` is left of the line `p → q`, < 0 right, 0 on it.
fn orient(p: &Point, q: &Point, r: &Point) -> Q2 {
    cross(&q.minus(p), &r.minus(p))
}

/// The cyclic edges `(v[i], v[i+1])`.
fn edges(poly: &[Point]) -> impl Iterator<Item = (&Point, &Point)> {
    poly.iter().zip(poly.iter().cycle().skip(1))
}

/// Twice the signed area (shoelace), > 0 for counter-clockwise.
pub fn area2(poly: &[Point]) -> Q2 {
    edges(poly).fold(Q2::zero(), |sum, (p, q)| &sum + &cross(p, q))
}

/// The (unsigned) area.
pub fn area(poly: &[Point]) -> Q2 {
    area2(poly).abs().div(&Q2::int(2)).unwrap_or_else(Q2::zero)
}

/// The polygon without repeated vertices (a closing repeat of the first
/// included) and without vertices in the middle of a straight edge, turned
/// counter-clockwise. Back-tracking spikes are kept: they change the shape.
pub fn normalized(vertices: &[Point]) -> Vec<Point> {
    let mut poly: Vec<Point> = Vec::with_capacity(vertices.len());
    for v in vertices {
        if poly.last() != Some(v) {
            poly.push(v.clone());
        }
    }
    while poly.len() > 1 && poly.first() == poly.last() {
        poly.pop();
    }
    loop {
        let n = poly.len();
        if n < 3 {
            break;
        }
        let straight = (0..n).find(|&i| {
            let (prev, v, next) = (&poly[(i + n - 1) % n], &poly[i], &poly[(i + 1) % n]);
            orient(prev, v, next).is_zero() && dot(&v.minus(prev), &next.minus(v)).is_positive()
        });
        match straight {
            Some(i) => {
                poly.remove(i);
            }
            None => break,
        }
    }
    if area2(&poly).is_negative() {
        poly.reverse();
    }
    poly
}

/// Whether a normalized polygon is strictly convex (and simple): every turn
/// is a left turn and the boundary goes up and down once.
pub fn is_convex(poly: &[Point]) -> bool {
    let n = poly.len();
    if n < 3 {
        return false;
    }
    let left_turns =
        (0..n).all(|i| orient(&poly[i], &poly[(i + 1) % n], &poly[(i + 2) % n]).is_positive());
    // Directions of the non-horizontal edges: a convex polygon changes
    // between up and down exactly twice; a star that winds twice, four times.
    let vertical: Vec<bool> = edges(poly)
        .map(|(p, q)| (&q.y - &p.y).sign())
        .filter(|s| s.is_ne())
        .map(|s| s.is_gt())
        .collect();
    let changes = vertical
        .iter()
        .zip(vertical.iter().cycle().skip(1))
        .filter(|(a, b)| a != b)
        .count();
    left_turns && changes == 2
}

/// The shape of a normalized polygon, invariant under translation and
/// rotation: per vertex, the squared length of the outgoing edge and the dot
/// and cross products with the next edge.
fn signature(poly: &[Point]) -> Vec<(Q2, Q2, Q2)> {
    let vectors: Vec<Point> = edges(poly).map(|(p, q)| q.minus(p)).collect();
    vectors
        .iter()
        .zip(vectors.iter().cycle().skip(1))
        .map(|(u, v)| (dot(u, u), dot(u, v), cross(u, v)))
        .collect()
}

/// Whether `candidate` is `canonical` moved rigidly, reflections included
/// (both normalized).
pub fn congruent(candidate: &[Point], canonical: &[Point]) -> bool {
    if candidate.len() != canonical.len() {
        return false;
    }
    let mirrored: Vec<Point> = canonical
        .iter()
        .rev()
        .map(|p| Point {
            x: -p.x.clone(),
            y: p.y.clone(),
        })
        .collect();
    let have = signature(candidate);
    [signature(canonical), signature(&mirrored)]
        .iter()
        .any(|want| {
            (0..want.len()).any(|shift| have.iter().eq(want[shift..].iter().chain(&want[..shift])))
        })
}

/// Edge lengths, where each lies in Q(√2).
pub fn perimeter(poly: &[Point]) -> Option<Q2> {
    edges(poly).try_fold(Q2::zero(), |sum, (p, q)| {
        let d = q.minus(p);
        Some(&sum + &dot(&d, &d).sqrt()?)
    })
}

/// The perimeter as `f64` (for messages where it is not in Q(√2)).
pub fn perimeter_f64(poly: &[Point]) -> f64 {
    edges(poly)
        .map(|(p, q)| {
            let d = q.minus(p);
            dot(&d, &d).to_f64().sqrt()
        })
        .sum()
}

/// Whether some edge line of `a` has all of `b` on its outer side or on it.
fn separated_by_an_edge_of(a: &[Point], b: &[Point]) -> bool {
    edges(a).any(|(p, q)| b.iter().all(|v| !orient(p, q, v).is_positive()))
}

/// Whether two convex normalized polygons share interior points.
pub fn interiors_overlap(a: &[Point], b: &[Point]) -> bool {
    !separated_by_an_edge_of(a, b) && !separated_by_an_edge_of(b, a)
}

/// Whether two polygons share a stretch of boundary of positive length.
pub fn share_an_edge(a: &[Point], b: &[Point]) -> bool {
    edges(a).any(|(p, q)| {
        let d = q.minus(p);
        let length2 = dot(&d, &d);
        edges(b).any(|(r, s)| {
            if !orient(p, q, r).is_zero() || !orient(p, q, s).is_zero() {
                return false;
            }
            // Positions along p → q, scaled by |pq|²: [0, |pq|²] against [tr, ts].
            let (tr, ts) = (dot(&r.minus(p), &d), dot(&s.minus(p), &d));
            let (lo, hi) = if tr <= ts { (tr, ts) } else { (ts, tr) };
            let start = if lo.is_positive() { lo } else { Q2::zero() };
            let end = if hi < length2 { hi } else { length2.clone() };
            start < end
        })
    })
}

/// Whether `point` lies strictly inside the simple polygon `poly`, given it
/// is not on its boundary (winding number).
fn strictly_inside(point: &Point, poly: &[Point]) -> bool {
    let winding: i32 = edges(poly)
        .map(|(p, q)| {
            if p.y <= point.y {
                i32::from(q.y > point.y && orient(p, q, point).is_positive())
            } else {
                -i32::from(q.y <= point.y && orient(p, q, point).is_negative())
            }
        })
        .sum();
    winding != 0
}

/// Whether the segment `a → b` meets the interior of the convex normalized
/// polygon `piece` (exact parametric clipping).
fn segment_enters(a: &Point, b: &Point, piece: &[Point]) -> bool {
    let direction = b.minus(a);
    // t in [0, 1] with every edge's orient(p, q, a + t·direction) > 0.
    let (mut lo, mut hi) = (Q2::zero(), Q2::int(1));
    for (p, q) in edges(piece) {
        let at_start = orient(p, q, a);
        let rate = cross(&q.minus(p), &direction);
        if rate.is_zero() {
            if !at_start.is_positive() {
                return false;
            }
            continue;
        }
        let Some(crossing) = (-at_start).div(&rate) else {
            return false;
        };
        if rate.is_positive() {
            lo = lo.max(crossing);
        } else {
            hi = hi.min(crossing);
        }
    }
    lo < hi
}

/// Whether the convex normalized `piece` lies inside the simple polygon
/// `target`: no stretch of the target's boundary passes through the piece's
/// interior, and the piece's centroid is inside the target.
pub fn contained(piece: &[Point], target: &[Point]) -> bool {
    if edges(target).any(|(a, b)| segment_enters(a, b, piece)) {
        return false;
    }
    let n = Q2::int(i64::try_from(piece.len()).unwrap_or(i64::MAX));
    let sum = piece.iter().fold(
        Point {
            x: Q2::zero(),
            y: Q2::zero(),
        },
        |s, p| Point {
            x: &s.x + &p.x,
            y: &s.y + &p.y,
        },
    );
    let centroid = Point {
        x: sum.x.div(&n).unwrap_or_else(Q2::zero),
        y: sum.y.div(&n).unwrap_or_else(Q2::zero),
    };
    strictly_inside(&centroid, target)
}

#[cfg(test)]
pub mod tests {
    use super::*;

    /// A polygon from integer coordinates.
    pub fn poly(points: &[(i64, i64)]) -> Vec<Point> {
        points
            .iter()
            .map(|&(x, y)| Point {
                x: Q2::int(x),
                y: Q2::int(y),
            })
            .collect()
    }

    #[test]
    fn normalizing_drops_repeats_and_straight_vertices_and_turns_ccw() {
        let p = normalized(&poly(&[(0, 0), (0, 2), (0, 4), (2, 2), (0, 0)]));
        assert_eq!(p, poly(&[(2, 2), (0, 4), (0, 0)]));
        assert_eq!(area2(&p), Q2::int(8));
    }

    #[test]
    fn congruence_allows_rotation_and_reflection_only() {
        let para = normalized(&poly(&[(0, 0), (2, 0), (3, 1), (1, 1)]));
        let turned = normalized(&poly(&[(0, 0), (0, 2), (-1, 3), (-1, 1)]));
        let flipped = normalized(&poly(&[(0, 0), (2, 0), (1, 1), (-1, 1)]));
        let stretched = normalized(&poly(&[(0, 0), (3, 0), (4, 1), (1, 1)]));
        assert!(congruent(&turned, &para));
        assert!(congruent(&flipped, &para));
        assert!(!congruent(&stretched, &para));
        // Same area (2), different shape.
        let rectangle = normalized(&poly(&[(0, 0), (2, 0), (2, 1), (0, 1)]));
        assert_eq!(area2(&rectangle), area2(&para));
        assert!(!congruent(&rectangle, &para));
    }

    #[test]
    fn overlap_and_contact_are_exact() {
        let a = normalized(&poly(&[(0, 0), (2, 0), (2, 2), (0, 2)]));
        let touching = normalized(&poly(&[(2, 0), (4, 0), (4, 2), (2, 2)]));
        let corner = normalized(&poly(&[(2, 2), (4, 2), (4, 4), (2, 4)]));
        let overlapping = normalized(&poly(&[(1, 1), (3, 1), (3, 3), (1, 3)]));
        assert!(!interiors_overlap(&a, &touching));
        assert!(share_an_edge(&a, &touching));
        assert!(!interiors_overlap(&a, &corner));
        assert!(!share_an_edge(&a, &corner));
        assert!(interiors_overlap(&a, &overlapping));
    }

    #[test]
    fn containment_in_a_non_convex_target() {
        // An L: the 4×4 square without its top-right 2×2 quarter.
        let target = poly(&[(0, 0), (4, 0), (4, 2), (2, 2), (2, 4), (0, 4)]);
        let inside = normalized(&poly(&[(0, 0), (4, 0), (4, 2), (0, 2)]));
        let across = normalized(&poly(&[(1, 1), (3, 1), (3, 3), (1, 3)]));
        let outside = normalized(&poly(&[(2, 2), (4, 2), (4, 4), (2, 4)]));
        assert!(contained(&inside, &target));
        assert!(!contained(&across, &target));
        assert!(!contained(&outside, &target));
    }

    #[test]
    fn convexity() {
        assert!(is_convex(&normalized(&poly(&[(0, 0), (2, 0), (1, 1)]))));
        let l = normalized(&poly(&[(0, 0), (4, 0), (4, 2), (2, 2), (2, 4), (0, 4)]));
        assert!(!is_convex(&l));
    }
}
