//! Exact plane geometry over Q(√2): the checks that make an imported
//! assembly a valid TangramPuzzle assembly, and its outline.
//!
//! The rules are `guest-verifiers/tangram`'s (its PE rule and its success
//! test), so an assembly accepted here passes that verifier: pieces must not
//! share interior points, and must be joined along stretches of edge of
//! positive length (one common point joins nothing).

use std::collections::BTreeMap;

use crate::q2::Q2;

/// A point (or vector) with exact coordinates.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    /// x (to the right).
    pub x: Q2,
    /// y (up).
    pub y: Q2,
}

impl Point {
    /// `(x, y)`.
    pub fn new(x: Q2, y: Q2) -> Self {
        Point { x, y }
    }

    /// `self - o`.
    pub fn minus(&self, o: &Point) -> Point {
        Point::new(&self.x - &o.x, &self.y - &o.y)
    }

    /// `(x, y)` as `f64`.
    pub fn to_f64(&self) -> (f64, f64) {
        (self.x.to_f64(), self.y.to_f64())
    }
}

/// `u × v`.
pub fn cross(u: &Point, v: &Point) -> Q2 {
    &(&u.x * &v.y) - &(&u.y * &v.x)
}

/// `u · v`.
pub fn dot(u: &Point, v: &Point) -> Q2 {
    &(&u.x * &v.x) + &(&u.y * &v.y)
}

/// > 0 when `r` is left of the line `p → q`, < 0 right, 0 on it.
fn orient(p: &Point, q: &Point, r: &Point) -> Q2 {
    cross(&q.minus(p), &r.minus(p))
}

/// The cyclic edges `(v[i], v[i+1])`.
pub fn edges(poly: &[Point]) -> impl Iterator<Item = (&Point, &Point)> {
    poly.iter().zip(poly.iter().cycle().skip(1))
}

/// Twice the signed area (shoelace), > 0 for counter-clockwise.
pub fn area2(poly: &[Point]) -> Q2 {
    edges(poly).fold(Q2::zero(), |sum, (p, q)| &sum + &cross(p, q))
}

/// The polygon counter-clockwise.
pub fn counter_clockwise(mut poly: Vec<Point>) -> Vec<Point> {
    if area2(&poly).is_negative() {
        poly.reverse();
    }
    poly
}

/// Per vertex, the squared length of the outgoing edge and its dot and cross
/// products with the next edge: invariant under translation and rotation.
fn signature(poly: &[Point]) -> Vec<(Q2, Q2, Q2)> {
    let vectors: Vec<Point> = edges(poly).map(|(p, q)| q.minus(p)).collect();
    vectors
        .iter()
        .zip(vectors.iter().cycle().skip(1))
        .map(|(u, v)| (dot(u, u), dot(u, v), cross(u, v)))
        .collect()
}

/// Whether the counter-clockwise `candidate` is the counter-clockwise
/// `canonical` moved rigidly, reflections included.
pub fn congruent(candidate: &[Point], canonical: &[Point]) -> bool {
    if candidate.len() != canonical.len() {
        return false;
    }
    let mirrored: Vec<Point> = canonical
        .iter()
        .rev()
        .map(|p| Point::new(-&p.x, p.y.clone()))
        .collect();
    let have = signature(candidate);
    [signature(canonical), signature(&mirrored)]
        .iter()
        .any(|want| {
            (0..want.len()).any(|shift| have.iter().eq(want[shift..].iter().chain(&want[..shift])))
        })
}

/// Whether two convex counter-clockwise polygons share interior points: no
/// edge line of either weakly separates them.
pub fn interiors_overlap(a: &[Point], b: &[Point]) -> bool {
    let separated_by = |a: &[Point], b: &[Point]| {
        edges(a).any(|(p, q)| b.iter().all(|v| !orient(p, q, v).is_positive()))
    };
    !separated_by(a, b) && !separated_by(b, a)
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
            let (tr, ts) = (dot(&r.minus(p), &d), dot(&s.minus(p), &d));
            let (lo, hi) = if tr <= ts { (tr, ts) } else { (ts, tr) };
            let start = if lo.is_positive() { lo } else { Q2::zero() };
            let end = if hi < length2 { hi } else { length2.clone() };
            start < end
        })
    })
}

/// Groups of pieces joined by shared edges (indices, each group sorted).
pub fn joined_groups(pieces: &[Vec<Point>]) -> Vec<Vec<usize>> {
    let n = pieces.len();
    let mut group: Vec<usize> = (0..n).collect();
    for i in 0..n {
        for j in i + 1..n {
            if share_an_edge(&pieces[i], &pieces[j]) {
                let (gi, gj) = (group[i], group[j]);
                if gi != gj {
                    let (keep, drop) = (gi.min(gj), gi.max(gj));
                    group
                        .iter_mut()
                        .filter(|g| **g == drop)
                        .for_each(|g| *g = keep);
                }
            }
        }
    }
    let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (i, g) in group.into_iter().enumerate() {
        groups.entry(g).or_default().push(i);
    }
    groups.into_values().collect()
}

/// A closed chain without its straight-through vertices, starting at its
/// least vertex (by x, then y).
pub fn simplified(mut chain: Vec<Point>) -> Vec<Point> {
    loop {
        let n = chain.len();
        if n <= 3 {
            break;
        }
        let straight = (0..n).find(|&i| {
            let (prev, v, next) = (&chain[(i + n - 1) % n], &chain[i], &chain[(i + 1) % n]);
            orient(prev, v, next).is_zero()
        });
        match straight {
            Some(i) => {
                chain.remove(i);
            }
            None => break,
        }
    }
    if let Some(k) = (0..chain.len()).min_by(|&i, &j| chain[i].cmp(&chain[j])) {
        chain.rotate_left(k);
    }
    chain
}

/// Why the union of some pieces has no single simple outline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OutlineError {
    /// Two pieces run along the same stretch in the same direction: they
    /// overlap.
    Overlap,
    /// The boundary passes through one point twice (pieces or parts meeting
    /// at a corner only, or a hole touching the outside).
    Pinch(Box<Point>),
    /// More than one boundary chain: a hole (or separate parts).
    Chains(usize),
}

/// The outline of the union of counter-clockwise polygons with disjoint
/// interiors: every edge split at the vertices lying on it; stretches two
/// polygons share run both ways and cancel; what is left is the boundary,
/// which must be one simple counter-clockwise chain. Returned without
/// straight-through vertices, from its least vertex.
pub fn union_outline(pieces: &[Vec<Point>]) -> Result<Vec<Point>, OutlineError> {
    let mut points: Vec<&Point> = pieces.iter().flatten().collect();
    points.sort();
    points.dedup();
    let mut count: BTreeMap<(Point, Point), usize> = BTreeMap::new();
    for piece in pieces {
        for (a, b) in edges(piece) {
            let d = b.minus(a);
            let length2 = dot(&d, &d);
            let mut inner: Vec<(Q2, &Point)> = points
                .iter()
                .filter(|v| **v != a && **v != b && orient(a, b, v).is_zero())
                .map(|v| (dot(&v.minus(a), &d), *v))
                .filter(|(t, _)| t.is_positive() && *t < length2)
                .collect();
            inner.sort();
            let chain: Vec<&Point> = std::iter::once(a)
                .chain(inner.into_iter().map(|(_, v)| v))
                .chain(std::iter::once(b))
                .collect();
            for pair in chain.windows(2) {
                *count.entry((pair[0].clone(), pair[1].clone())).or_default() += 1;
            }
        }
    }
    if count.values().any(|&n| n > 1) {
        return Err(OutlineError::Overlap);
    }
    let mut following: BTreeMap<Point, Point> = BTreeMap::new();
    for (u, w) in count.keys() {
        if count.contains_key(&(w.clone(), u.clone())) {
            continue;
        }
        if following.insert(u.clone(), w.clone()).is_some() {
            return Err(OutlineError::Pinch(Box::new(u.clone())));
        }
    }
    let mut chains = Vec::new();
    while let Some((start, mut next)) = following.pop_first() {
        let mut chain = vec![start.clone()];
        while next != start {
            let Some(after) = following.remove(&next) else {
                // Cannot happen: every boundary vertex has one way in and out.
                return Err(OutlineError::Pinch(Box::new(next)));
            };
            chain.push(next);
            next = after;
        }
        chains.push(chain);
    }
    if chains.len() != 1 {
        return Err(OutlineError::Chains(chains.len()));
    }
    let outline = simplified(chains.remove(0));
    if !area2(&outline).is_positive() {
        return Err(OutlineError::Chains(1));
    }
    Ok(outline)
}

/// Moved so that the least x and the least y are 0.
pub fn normalized(poly: &[Point]) -> Vec<Point> {
    let dx = poly
        .iter()
        .map(|p| &p.x)
        .min()
        .cloned()
        .unwrap_or_else(Q2::zero);
    let dy = poly
        .iter()
        .map(|p| &p.y)
        .min()
        .cloned()
        .unwrap_or_else(Q2::zero);
    poly.iter()
        .map(|p| Point::new(&p.x - &dx, &p.y - &dy))
        .collect()
}

/// Whether two outlines (simple polygons) are the same point set once each
/// is normalised: counter-clockwise, without straight-through vertices and
/// from their least vertex, they are equal exactly when their vertex lists
/// are.
pub fn same_shape(a: &[Point], b: &[Point]) -> bool {
    let canonical = |p: &[Point]| simplified(counter_clockwise(normalized(p)));
    canonical(a) == canonical(b)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub fn poly(points: &[(i64, i64)]) -> Vec<Point> {
        points
            .iter()
            .map(|&(x, y)| Point::new(Q2::int(x), Q2::int(y)))
            .collect()
    }

    #[test]
    fn union_of_two_squares_and_a_hole() {
        let a = poly(&[(0, 0), (2, 0), (2, 2), (0, 2)]);
        let b = poly(&[(2, 0), (4, 0), (4, 2), (2, 2)]);
        assert_eq!(
            union_outline(&[a.clone(), b.clone()]).unwrap(),
            poly(&[(0, 0), (4, 0), (4, 2), (0, 2)])
        );
        // A T-junction: the small square's edge lies inside the big one's.
        let big = poly(&[(0, 0), (4, 0), (4, 4), (0, 4)]);
        let small = poly(&[(4, 1), (6, 1), (6, 3), (4, 3)]);
        assert_eq!(
            union_outline(&[big.clone(), small]).unwrap(),
            poly(&[
                (0, 0),
                (4, 0),
                (4, 1),
                (6, 1),
                (6, 3),
                (4, 3),
                (4, 4),
                (0, 4)
            ])
        );
        // Corner contact only: the boundary touches itself.
        let corner = poly(&[(4, 4), (6, 4), (6, 6), (4, 6)]);
        assert!(matches!(
            union_outline(&[big, corner]),
            Err(OutlineError::Pinch(_))
        ));
        // A ring of four bars around a hole.
        let ring = [
            poly(&[(0, 0), (3, 0), (3, 1), (0, 1)]),
            poly(&[(3, 0), (4, 0), (4, 3), (3, 3)]),
            poly(&[(1, 3), (4, 3), (4, 4), (1, 4)]),
            poly(&[(0, 1), (1, 1), (1, 4), (0, 4)]),
        ];
        assert_eq!(union_outline(&ring), Err(OutlineError::Chains(2)));
        // Seven cells of a 3 × 3 block without (0, 0) and (1, 1): joined
        // along edges, but the empty middle cell touches the outside at (1, 1).
        let cells: Vec<Vec<Point>> = [(1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2), (0, 1)]
            .iter()
            .map(|&(x, y)| poly(&[(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)]))
            .collect();
        assert_eq!(joined_groups(&cells).len(), 1);
        assert_eq!(
            union_outline(&cells),
            Err(OutlineError::Pinch(Box::new(Point::new(
                Q2::int(1),
                Q2::int(1)
            ))))
        );
        assert_eq!(union_outline(&[a.clone(), a]), Err(OutlineError::Overlap));
    }

    #[test]
    fn contact_overlap_and_shape() {
        let a = poly(&[(0, 0), (2, 0), (2, 2), (0, 2)]);
        let corner = poly(&[(2, 2), (4, 2), (4, 4), (2, 4)]);
        let side = poly(&[(2, 1), (4, 1), (4, 3), (2, 3)]);
        assert!(!share_an_edge(&a, &corner));
        assert!(share_an_edge(&a, &side));
        assert!(!interiors_overlap(&a, &side));
        assert!(interiors_overlap(
            &a,
            &poly(&[(1, 1), (3, 1), (3, 3), (1, 3)])
        ));
        assert_eq!(
            joined_groups(&[a.clone(), corner.clone(), side]),
            vec![vec![0, 1, 2]]
        );
        assert_eq!(joined_groups(&[a.clone(), corner]), vec![vec![0], vec![1]]);
        assert!(same_shape(&a, &poly(&[(5, 5), (5, 7), (7, 7), (7, 5)])));
        assert!(!same_shape(&a, &poly(&[(0, 0), (3, 0), (3, 2), (0, 2)])));
    }
}
