//! The faces of two segments and the unit square's edges, as shapely's
//! `polygonize_full(unary_union(lines))` returns them.
//!
//! No crate builds the faces of a segment arrangement (`geo` has boolean ops
//! on polygons but no polygonizer for line work), so this module does it,
//! reproducing what GEOS (shapely ≥ 2, GEOS ≥ 3.9) does with these inputs:
//!
//! * noding (`OverlayNG` floating noder): every pair of lines is intersected
//!   with exact orientation tests on the doubles; a touching endpoint is
//!   taken as is, a proper crossing is computed in double-double arithmetic
//!   (`CGAlgorithmsDD::intersection`, falling back to the nearest endpoint
//!   outside both envelopes), collinear overlaps add their ends;
//! * the union's line work: each input line's pieces in order along it, in
//!   its own direction, an edge kept the first time it appears (zero-length
//!   lines are dropped);
//! * polygonizing: directed edges in that order, `next` = the next outgoing
//!   edge counter-clockwise at each node, rings traced from the first unused
//!   directed edge; clockwise rings are the polygons (in that order, starting
//!   at that edge's origin), the counter-clockwise outer ring is a hole.
//!
//! The ring order and start matter: the original's collinear-vertex removal
//! deletes the first qualifying vertex and starts over.

use num_bigint::BigInt;
use num_traits::{Signed, Zero};
use std::cmp::Ordering;

pub type P = (f64, f64);

/// The doubles as integers on one common binary scale (exact: every finite
/// double is an integer times a power of two), for exact sign tests without
/// fractions.
fn scaled<const N: usize>(xs: [f64; N]) -> [BigInt; N] {
    let v = scaled_vec(&xs);
    std::array::from_fn(|i| v[i].clone())
}

fn sign(v: &BigInt) -> i32 {
    if v.is_positive() {
        1
    } else if v.is_negative() {
        -1
    } else {
        0
    }
}

/// [`scaled`] for any number of doubles.
fn scaled_vec(xs: &[f64]) -> Vec<BigInt> {
    let parts: Vec<(i64, i32)> = xs
        .iter()
        .map(|&x| {
            let bits = x.to_bits();
            let exp = ((bits >> 52) & 0x7ff) as i32;
            let frac = (bits & ((1u64 << 52) - 1)) as i64;
            let (m, e) = if exp == 0 {
                (frac, -1074)
            } else {
                (frac | (1i64 << 52), exp - 1075)
            };
            (if x.is_sign_negative() { -m } else { m }, e)
        })
        .collect();
    let low = parts
        .iter()
        .filter(|p| p.0 != 0)
        .map(|p| p.1)
        .min()
        .unwrap_or(0);
    parts
        .into_iter()
        .map(|(m, e)| BigInt::from(m) << (e - low) as usize)
        .collect()
}

/// Sign of the cross product (b − a) × (c − a), exactly.
fn orient(a: P, b: P, c: P) -> i32 {
    let [ax, ay, bx, by, cx, cy] = scaled([a.0, a.1, b.0, b.1, c.0, c.1]);
    sign(&((bx - &ax) * (cy - &ay) - (by - ay) * (cx - ax)))
}

/// `c` (collinear with a–b) lies within the segment's bounding box.
fn within(a: P, b: P, c: P) -> bool {
    c.0 >= a.0.min(b.0) && c.0 <= a.0.max(b.0) && c.1 >= a.1.min(b.1) && c.1 <= a.1.max(b.1)
}

/// Double-double arithmetic as GEOS's `DD` (Dekker/Shewchuk splitting).
#[derive(Clone, Copy)]
struct Dd(f64, f64);

const SPLIT: f64 = 134_217_729.0;

impl Dd {
    fn add(self, y: Dd) -> Dd {
        let (hi, lo, yhi, ylo) = (self.0, self.1, y.0, y.1);
        let s_ = hi + yhi;
        let t_ = lo + ylo;
        let mut e = s_ - hi;
        let f = t_ - lo;
        let mut s = s_ - e;
        let mut t = t_ - f;
        s = (yhi - e) + (hi - s);
        t = (ylo - f) + (lo - t);
        e = s + t_;
        let h_ = s_ + e;
        let h = e + (s_ - h_);
        e = t + h;
        let zhi = h_ + e;
        Dd(zhi, e + (h_ - zhi))
    }
    fn sub(self, y: Dd) -> Dd {
        self.add(Dd(-y.0, -y.1))
    }
    fn mul(self, y: Dd) -> Dd {
        let (hi, lo, yhi, ylo) = (self.0, self.1, y.0, y.1);
        let mut c_ = SPLIT * hi;
        let mut hx = c_ - hi;
        let mut c = SPLIT * yhi;
        hx = c_ - hx;
        let tx = hi - hx;
        let mut hy = c - yhi;
        c_ = hi * yhi;
        hy = c - hy;
        let ty = yhi - hy;
        c = ((((hx * hy - c_) + hx * ty) + tx * hy) + tx * ty) + (hi * ylo + lo * yhi);
        let zhi = c_ + c;
        hx = c_ - zhi;
        Dd(zhi, c + hx)
    }
    fn div(self, y: Dd) -> Dd {
        let (hi, lo, yhi, ylo) = (self.0, self.1, y.0, y.1);
        let c_ = hi / yhi;
        let mut c = SPLIT * c_;
        let mut hc = c - c_;
        let mut u = SPLIT * yhi;
        hc = c - hc;
        let tc = c_ - hc;
        let mut hy = u - yhi;
        let u_ = c_ * yhi;
        hy = u - hy;
        let ty = yhi - hy;
        u = (((hc * hy - u_) + hc * ty) + tc * hy) + tc * ty;
        c = ((((hi - u_) - u) + lo) - c_ * ylo) / yhi;
        u = c_ + c;
        Dd(u, (c_ - u) + c)
    }
    fn value(self) -> f64 {
        self.0 + self.1
    }
}

fn dd(x: f64) -> Dd {
    Dd(x, 0.0)
}

fn point_to_segment(p: P, a: P, b: P) -> f64 {
    let dist = |q: P| ((p.0 - q.0) * (p.0 - q.0) + (p.1 - q.1) * (p.1 - q.1)).sqrt();
    if a == b {
        return dist(a);
    }
    let len2 = (b.0 - a.0) * (b.0 - a.0) + (b.1 - a.1) * (b.1 - a.1);
    let r = ((p.0 - a.0) * (b.0 - a.0) + (p.1 - a.1) * (b.1 - a.1)) / len2;
    if r <= 0.0 {
        return dist(a);
    }
    if r >= 1.0 {
        return dist(b);
    }
    let s = ((a.1 - p.1) * (b.0 - a.0) - (a.0 - p.0) * (b.1 - a.1)) / len2;
    s.abs() * len2.sqrt()
}

/// GEOS's `LineIntersector::intersection` for a proper crossing.
fn crossing(p1: P, p2: P, q1: P, q2: P) -> P {
    let px = dd(p1.1).sub(dd(p2.1));
    let py = dd(p2.0).sub(dd(p1.0));
    let pw = dd(p1.0).mul(dd(p2.1)).sub(dd(p2.0).mul(dd(p1.1)));
    let qx = dd(q1.1).sub(dd(q2.1));
    let qy = dd(q2.0).sub(dd(q1.0));
    let qw = dd(q1.0).mul(dd(q2.1)).sub(dd(q2.0).mul(dd(q1.1)));
    let x = py.mul(qw).sub(qy.mul(pw));
    let y = qx.mul(pw).sub(px.mul(qw));
    let w = px.mul(qy).sub(qx.mul(py));
    let pt = (x.div(w).value(), y.div(w).value());
    let finite = pt.0.is_finite() && pt.1.is_finite();
    if finite && within(p1, p2, pt) && within(q1, q2, pt) {
        return pt;
    }
    let mut best = (p1, point_to_segment(p1, q1, q2));
    for (cand, a, b) in [(p2, q1, q2), (q1, p1, p2), (q2, p1, p2)] {
        let d = point_to_segment(cand, a, b);
        if d < best.1 {
            best = (cand, d);
        }
    }
    best.0
}

/// The polygons' exterior rings (without the closing vertex), in shapely's
/// order, each clockwise from shapely's start vertex.
pub fn polygons(lines: &[(P, P)]) -> Vec<Vec<P>> {
    let lines: Vec<(P, P)> = lines.iter().copied().filter(|(a, b)| a != b).collect();
    // Noding.
    let mut nodes: Vec<Vec<P>> = lines.iter().map(|&(a, b)| vec![a, b]).collect();
    for i in 0..lines.len() {
        for j in i + 1..lines.len() {
            let ((p1, p2), (q1, q2)) = (lines[i], lines[j]);
            let (o1, o2) = (orient(p1, p2, q1), orient(p1, p2, q2));
            let (o3, o4) = (orient(q1, q2, p1), orient(q1, q2, p2));
            if o1 == 0 && o2 == 0 {
                for q in [q1, q2] {
                    if within(p1, p2, q) {
                        nodes[i].push(q);
                    }
                }
                for p in [p1, p2] {
                    if within(q1, q2, p) {
                        nodes[j].push(p);
                    }
                }
                continue;
            }
            if o1 * o2 > 0 || o3 * o4 > 0 {
                continue;
            }
            let pt = if o1 == 0 {
                q1
            } else if o2 == 0 {
                q2
            } else if o3 == 0 {
                p1
            } else if o4 == 0 {
                p2
            } else {
                crossing(p1, p2, q1, q2)
            };
            nodes[i].push(pt);
            nodes[j].push(pt);
        }
    }
    // The union's line work.
    let mut points: Vec<P> = Vec::new();
    let mut id = |p: P| match points.iter().position(|q| *q == p) {
        Some(k) => k,
        None => {
            points.push(p);
            points.len() - 1
        }
    };
    let mut edges: Vec<(usize, usize)> = Vec::new();
    for (k, &(a, b)) in lines.iter().enumerate() {
        // Position along the line: the dot product with b − a, on one scale.
        let mut along: Vec<(BigInt, P)> = nodes[k].iter().map(|&p| (BigInt::zero(), p)).collect();
        let scale: Vec<f64> = [a.0, a.1, b.0, b.1]
            .into_iter()
            .chain(nodes[k].iter().flat_map(|p| [p.0, p.1]))
            .collect();
        let ints = scaled_vec(&scale);
        let (dx, dy) = (&ints[2] - &ints[0], &ints[3] - &ints[1]);
        for (n, entry) in along.iter_mut().enumerate() {
            let (px, py) = (&ints[4 + 2 * n], &ints[5 + 2 * n]);
            entry.0 = (px - &ints[0]) * &dx + (py - &ints[1]) * &dy;
        }
        along.sort_by(|x, y| x.0.cmp(&y.0));
        along.dedup_by(|x, y| x.1 == y.1);
        for w in along.windows(2) {
            let (u, v) = (id(w[0].1), id(w[1].1));
            if u != v
                && !edges
                    .iter()
                    .any(|&(s, t)| (s, t) == (u, v) || (s, t) == (v, u))
            {
                edges.push((u, v));
            }
        }
    }
    // Polygonizing: directed edge 2e runs u→v, 2e+1 runs v→u.
    let ends = |de: usize| {
        let (u, v) = edges[de / 2];
        if de.is_multiple_of(2) { (u, v) } else { (v, u) }
    };
    let mut removed = vec![false; edges.len()];
    loop {
        // Dangles: nodes of degree 1, removed until none is left.
        let mut degree = vec![0usize; points.len()];
        for (e, &(u, v)) in edges.iter().enumerate() {
            if !removed[e] {
                degree[u] += 1;
                degree[v] += 1;
            }
        }
        let mut changed = false;
        for (e, &(u, v)) in edges.iter().enumerate() {
            if !removed[e] && (degree[u] == 1 || degree[v] == 1) {
                removed[e] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let quadrant = |d: P| match (d.0 >= 0.0, d.1 >= 0.0) {
        (true, true) => 0,
        (false, true) => 1,
        (false, false) => 2,
        (true, false) => 3,
    };
    let mut next = vec![usize::MAX; edges.len() * 2];
    for n in 0..points.len() {
        let mut out: Vec<usize> = (0..edges.len() * 2)
            .filter(|&de| !removed[de / 2] && ends(de).0 == n)
            .collect();
        out.sort_by(|&a, &b| {
            let (pa, pb) = (points[ends(a).1], points[ends(b).1]);
            let o = points[n];
            let (qa, qb) = (
                quadrant((pa.0 - o.0, pa.1 - o.1)),
                quadrant((pb.0 - o.0, pb.1 - o.1)),
            );
            qa.cmp(&qb).then_with(|| match orient(o, pb, pa) {
                1 => Ordering::Greater,
                -1 => Ordering::Less,
                _ => Ordering::Equal,
            })
        });
        for (k, &de) in out.iter().enumerate() {
            next[de ^ 1] = out[(k + 1) % out.len()];
        }
    }
    let mut in_ring = vec![false; edges.len() * 2];
    let mut rings = Vec::new();
    for start in 0..edges.len() * 2 {
        if removed[start / 2] || in_ring[start] {
            continue;
        }
        let mut ring = Vec::new();
        let mut de = start;
        loop {
            in_ring[de] = true;
            ring.push(points[ends(de).0]);
            de = next[de];
            if de == start || de == usize::MAX || in_ring[de] || ring.len() > 4 * edges.len() {
                break;
            }
        }
        // Twice the signed area, exactly: negative = clockwise = a polygon.
        let flat: Vec<f64> = ring.iter().flat_map(|p| [p.0, p.1]).collect();
        let ints = scaled_vec(&flat);
        let n = ring.len();
        let mut area = BigInt::zero();
        for k in 0..n {
            let j = (k + 1) % n;
            area += &ints[2 * k] * &ints[2 * j + 1] - &ints[2 * j] * &ints[2 * k + 1];
        }
        if area.is_negative() {
            rings.push(ring);
        }
    }
    rings
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame() -> Vec<(P, P)> {
        vec![
            ((0.0, 0.0), (1.0, 0.0)),
            ((1.0, 0.0), (1.0, 1.0)),
            ((1.0, 1.0), (0.0, 1.0)),
            ((0.0, 1.0), (0.0, 0.0)),
        ]
    }

    fn with(segments: &[(P, P)]) -> Vec<Vec<P>> {
        let mut lines = segments.to_vec();
        lines.extend(frame());
        polygons(&lines)
    }

    #[test]
    fn a_cross_gives_four_quadrants_in_shapely_order() {
        let rings = with(&[((0.0, 0.5), (1.0, 0.5)), ((0.5, 0.0), (0.5, 1.0))]);
        assert_eq!(
            rings,
            vec![
                vec![(0.0, 0.5), (0.5, 0.5), (0.5, 0.0), (0.0, 0.0)],
                vec![(0.5, 0.5), (0.0, 0.5), (0.0, 1.0), (0.5, 1.0)],
                vec![(0.5, 0.5), (1.0, 0.5), (1.0, 0.0), (0.5, 0.0)],
                vec![(1.0, 0.5), (0.5, 0.5), (0.5, 1.0), (1.0, 1.0)],
            ]
        );
    }

    #[test]
    fn overlaps_and_zero_length_lines() {
        // Along the left edge, and a degenerate second segment: one square.
        let rings = with(&[((0.0, 0.8), (0.0, 0.2)), ((0.3, 0.0), (0.3, 0.0))]);
        assert_eq!(
            rings,
            vec![vec![
                (0.0, 0.2),
                (0.0, 0.8),
                (0.0, 1.0),
                (1.0, 1.0),
                (1.0, 0.0),
                (0.0, 0.0)
            ]]
        );
        // The same chord twice, reversed: two faces.
        let rings = with(&[((0.5, 1.0), (0.5, 0.0)), ((0.5, 0.0), (0.5, 1.0))]);
        assert_eq!(
            rings,
            vec![
                vec![(0.5, 1.0), (0.5, 0.0), (0.0, 0.0), (0.0, 1.0)],
                vec![(0.5, 0.0), (0.5, 1.0), (1.0, 1.0), (1.0, 0.0)],
            ]
        );
    }

    #[test]
    fn double_double_crossing_as_geos() {
        // An exact binary tie that GEOS's double-double rounds up.
        let x = crossing((1.0, 0.5), (0.0, 0.9), (0.2, 1.0), (1.0, 0.2));
        assert_eq!(x, (0.5, 0.7000000000000001));
    }
}
