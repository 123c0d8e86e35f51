//! The original's geometry, in its floating-point operations, and the exact
//! predicates behind `details.corrected`.

use num_bigint::BigInt;
use num_traits::Signed;
use std::cmp::Ordering;

pub type Point = (f64, f64);

/// Where the original raises (its runner then records the sentinel 10000).
#[derive(Debug, PartialEq)]
pub struct Raise(pub String);

/// `x ** 2` as CPython computes it: `OverflowError` when a finite `x` squares
/// past the largest float. (CPython calls the platform's `pow`, which can
/// differ from the correctly rounded `x * x` used here in the last bit.)
pub fn sq(x: f64) -> Result<f64, Raise> {
    let r = x * x;
    if x.is_finite() && r.is_infinite() {
        return Err(Raise(format!(
            "OverflowError: {} ** 2 is out of range",
            super::pyfmt::repr(x)
        )));
    }
    Ok(r)
}

/// `_distance(p, q)`.
pub fn dist(p: Point, q: Point) -> Result<f64, Raise> {
    Ok((sq(q.0 - p.0)? + sq(q.1 - p.1)?).sqrt())
}

fn ccw(a: Point, b: Point, c: Point) -> bool {
    (c.1 - a.1) * (b.0 - a.0) > (b.1 - a.1) * (c.0 - a.0)
}

fn near(a: Point, b: Point) -> bool {
    (a.0 - b.0).abs() < 1e-9 && (a.1 - b.1).abs() < 1e-9
}

/// `_segments_intersect`: false when the segments share an endpoint (within
/// 1e-9), else the strict counter-clockwise test, which misses collinear
/// overlaps and counts a vertex lying on another segment on one side only.
pub fn intersects(p1: Point, p2: Point, p3: Point, p4: Point) -> bool {
    if near(p1, p3) || near(p1, p4) || near(p2, p3) || near(p2, p4) {
        return false;
    }
    ccw(p1, p3, p4) != ccw(p2, p3, p4) && ccw(p1, p2, p3) != ccw(p1, p2, p4)
}

/// Calls `f(i, j)` for the segment pairs the original compares: j ≥ i + 2, not (0, n − 1).
pub fn for_each_pair(n: usize, mut f: impl FnMut(usize, usize)) {
    for i in 0..n {
        for j in i + 2..n {
            if !(i == 0 && j == n - 1) {
                f(i, j);
            }
        }
    }
}

/// The segment pairs (i, j) for which `test` holds (`_crossing_pairs` with `test`).
pub fn pairs_where(
    pts: &[Point],
    mut test: impl FnMut(Point, Point, Point, Point) -> bool,
) -> Vec<(usize, usize)> {
    let n = pts.len();
    let mut out = Vec::new();
    for_each_pair(n, |i, j| {
        if test(pts[i], pts[(i + 1) % n], pts[j], pts[(j + 1) % n]) {
            out.push((i, j));
        }
    });
    out
}

/// `_angle_deg(a, b, c)`: the angle at `b` in degrees (0 for a zero-length
/// side; NaN cosines clamp to 1, as Python's `min(1.0, nan)` gives 1.0).
pub fn angle_deg(a: Point, b: Point, c: Point) -> Result<f64, Raise> {
    let (v1x, v1y, v2x, v2y) = (a.0 - b.0, a.1 - b.1, c.0 - b.0, c.1 - b.1);
    let len1 = (sq(v1x)? + sq(v1y)?).sqrt();
    let len2 = (sq(v2x)? + sq(v2y)?).sqrt();
    if len1 == 0.0 || len2 == 0.0 {
        return Ok(0.0);
    }
    let denominator = len1 * len2;
    if denominator == 0.0 {
        return Err(Raise("ZeroDivisionError: float division by zero".into()));
    }
    let dot = (v1x * v2x + v1y * v2y) / denominator;
    let dot = if dot < 1.0 { dot } else { 1.0 };
    let dot = if dot > -1.0 { dot } else { -1.0 };
    Ok(dot.acos() * (180.0 / std::f64::consts::PI))
}

/// `round(x, 6)`: the float nearest the exact decimal rounding (no ties can
/// occur at six places), keeping the sign of a zero.
pub fn round6(x: f64) -> f64 {
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    let r: f64 = format!("{x:.6}").parse().unwrap_or(x);
    if r == 0.0 { 0.0f64.copysign(x) } else { r }
}

/// Python's `<` on two float tuples.
fn tuple_lt(a: Point, b: Point) -> bool {
    if a.0 != b.0 { a.0 < b.0 } else { a.1 < b.1 }
}

/// `_polygon_area(_convex_hull(points))`: `sorted(set(points))` (first
/// occurrences kept), Andrew's monotone chain popping while cross ≤ 0, the
/// shoelace sum. With NaN coordinates CPython's order depends on object
/// addresses (NaN hashes by identity); the port then sorts by binary
/// insertion after the first run, as CPython's sort does for short lists.
pub fn hull_area(pts: &[Point]) -> f64 {
    let mut unique: Vec<Point> = Vec::new();
    for &p in pts {
        if !unique.iter().any(|&q| q.0 == p.0 && q.1 == p.1) {
            unique.push(p);
        }
    }
    if unique.iter().any(|p| p.0.is_nan() || p.1.is_nan()) {
        python_sort(&mut unique);
    } else {
        unique.sort_by(|a, b| {
            a.0.partial_cmp(&b.0)
                .unwrap_or(Ordering::Equal)
                .then(a.1.partial_cmp(&b.1).unwrap_or(Ordering::Equal))
        });
    }
    let hull = if unique.len() <= 1 {
        unique
    } else {
        let cross =
            |o: Point, a: Point, b: Point| (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0);
        let chain = |seq: &mut dyn Iterator<Item = Point>| {
            let mut out: Vec<Point> = Vec::new();
            for p in seq {
                while out.len() >= 2 && cross(out[out.len() - 2], out[out.len() - 1], p) <= 0.0 {
                    out.pop();
                }
                out.push(p);
            }
            out.pop();
            out
        };
        let mut lower = chain(&mut unique.iter().copied());
        lower.extend(chain(&mut unique.iter().rev().copied()));
        lower
    };
    if hull.len() < 3 {
        return 0.0;
    }
    let mut area = 0.0;
    for i in 0..hull.len() {
        let (x1, y1) = hull[i];
        let (x2, y2) = hull[(i + 1) % hull.len()];
        area += x1 * y2 - x2 * y1;
    }
    area.abs() / 2.0
}

/// CPython's short-list sort using only `<`: the first run (reversed if
/// strictly descending), then binary insertion of the rest.
fn python_sort(v: &mut [Point]) {
    let n = v.len();
    if n < 2 {
        return;
    }
    let mut run = 2;
    if tuple_lt(v[1], v[0]) {
        while run < n && tuple_lt(v[run], v[run - 1]) {
            run += 1;
        }
        v[..run].reverse();
    } else {
        while run < n && !tuple_lt(v[run], v[run - 1]) {
            run += 1;
        }
    }
    for start in run..n {
        let pivot = v[start];
        let (mut l, mut r) = (0, start);
        while l < r {
            let p = l + (r - l) / 2;
            if tuple_lt(pivot, v[p]) {
                r = p
            } else {
                l = p + 1
            }
        }
        v[l..=start].rotate_right(1);
    }
}

/// The exact sign of the orientation of (a, b, c): a floating-point filter
/// (Shewchuk's first error bound), then, when every step is exact in floats
/// (small integers and halves, as lattice loops have), the float result, else
/// exact integer arithmetic.
pub fn orient(a: Point, b: Point, c: Point) -> i8 {
    let left = (b.0 - a.0) * (c.1 - a.1);
    let right = (b.1 - a.1) * (c.0 - a.0);
    let det = left - right;
    let sum = left.abs() + right.abs();
    let bound = 3.330_669_073_875_472e-16 * sum;
    if det.is_finite() && sum.is_finite() && sum > 1e-280 && det.abs() > bound {
        return sign(det);
    }
    if let Some(det) = exact_in_floats(a, b, c) {
        return sign(det);
    }
    exact_orient([a.0, a.1, b.0, b.1, c.0, c.1])
}

fn sign(x: f64) -> i8 {
    if x > 0.0 {
        1
    } else if x < 0.0 {
        -1
    } else {
        0
    }
}

/// `x - y` if the float subtraction is exact (Knuth's two-sum error is zero).
fn exact_sub(x: f64, y: f64) -> Option<f64> {
    let s = x - y;
    let bv = x - s;
    let av = s + bv;
    let err = (x - av) + (bv - y);
    (s.is_finite() && err == 0.0).then_some(s)
}

/// `x * y` if the float product is exact (Dekker's two-product error is zero).
fn exact_mul(x: f64, y: f64) -> Option<f64> {
    let p = x * y;
    if !p.is_finite() || (p != 0.0 && p.abs() < 1e-250) || x.abs() > 1e150 || y.abs() > 1e150 {
        return None;
    }
    let split = |v: f64| {
        let c = 134_217_729.0 * v; // 2^27 + 1
        let hi = c - (c - v);
        (hi, v - hi)
    };
    let (xh, xl) = split(x);
    let (yh, yl) = split(y);
    let err = ((xh * yh - p) + xh * yl + xl * yh) + xl * yl;
    (err == 0.0).then_some(p)
}

fn exact_in_floats(a: Point, b: Point, c: Point) -> Option<f64> {
    let left = exact_mul(exact_sub(b.0, a.0)?, exact_sub(c.1, a.1)?)?;
    let right = exact_mul(exact_sub(b.1, a.1)?, exact_sub(c.0, a.0)?)?;
    exact_sub(left, right)
}

fn decompose(x: f64) -> (BigInt, i32) {
    let bits = x.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    let (m, e) = if exp == 0 {
        (frac, -1074)
    } else {
        (frac | (1u64 << 52), exp - 1075)
    };
    let m = BigInt::from(m);
    (if x.is_sign_negative() { -m } else { m }, e)
}

thread_local! {
    static EXACT_LEFT: std::cell::Cell<u32> = const { std::cell::Cell::new(EXACT_BUDGET) };
}

/// Big-integer orientations allowed per verdict (each costs thousands of instructions); past
/// it a near-degenerate triple counts as collinear, which can only add touches. Only
/// pathological answers (thousands of almost collinear, overlapping segments) get there.
const EXACT_BUDGET: u32 = 2_000;

fn exact_orient(v: [f64; 6]) -> i8 {
    if v.iter().any(|x| !x.is_finite()) {
        return 0;
    }
    let left = EXACT_LEFT.with(|c| {
        let left = c.get();
        c.set(left.saturating_sub(1));
        left
    });
    if left == 0 {
        return 0;
    }
    let parts: Vec<(BigInt, i32)> = v.iter().map(|&x| decompose(x)).collect();
    let emin = parts.iter().map(|p| p.1).min().unwrap_or(0);
    let ints: Vec<BigInt> = parts
        .into_iter()
        .map(|(m, e)| m << (e - emin) as usize)
        .collect();
    let det = (&ints[2] - &ints[0]) * (&ints[5] - &ints[1])
        - (&ints[3] - &ints[1]) * (&ints[4] - &ints[0]);
    if det.is_positive() {
        1
    } else if det.is_negative() {
        -1
    } else {
        0
    }
}

/// How two segments meet, exactly.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Contact {
    None,
    /// They cross at one point interior to both.
    Proper,
    /// They share a point otherwise (a vertex on the other segment, an
    /// overlap, a shared endpoint).
    Touch,
}

fn within(a: Point, b: Point, c: Point) -> bool {
    a.0.min(b.0) <= c.0 && c.0 <= a.0.max(b.0) && a.1.min(b.1) <= c.1 && c.1 <= a.1.max(b.1)
}

pub fn contact(p1: Point, p2: Point, p3: Point, p4: Point) -> Contact {
    // Disjoint bounding boxes: no common point.
    if p1.0.max(p2.0) < p3.0.min(p4.0)
        || p3.0.max(p4.0) < p1.0.min(p2.0)
        || p1.1.max(p2.1) < p3.1.min(p4.1)
        || p3.1.max(p4.1) < p1.1.min(p2.1)
    {
        return Contact::None;
    }
    let (o1, o2) = (orient(p1, p2, p3), orient(p1, p2, p4));
    let (o3, o4) = (orient(p3, p4, p1), orient(p3, p4, p2));
    if o1 * o2 < 0 && o3 * o4 < 0 {
        return Contact::Proper;
    }
    if (o1 == 0 && within(p1, p2, p3))
        || (o2 == 0 && within(p1, p2, p4))
        || (o3 == 0 && within(p3, p4, p1))
        || (o4 == 0 && within(p3, p4, p2))
    {
        return Contact::Touch;
    }
    Contact::None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_strict_test_and_its_blind_spots() {
        // A proper crossing.
        assert!(intersects((0.0, 0.0), (2.0, 2.0), (0.0, 2.0), (2.0, 0.0)));
        // Shared endpoint (within 1e-9): never a crossing.
        assert!(!intersects(
            (0.0, 0.0),
            (1.0, 0.0),
            (1.0 + 1e-10, 0.0),
            (1.0, 1.0)
        ));
        // Collinear overlap: missed.
        assert!(!intersects((0.0, 0.0), (2.0, 0.0), (1.0, 0.0), (3.0, 0.0)));
        assert_eq!(
            contact((0.0, 0.0), (2.0, 0.0), (1.0, 0.0), (3.0, 0.0)),
            Contact::Touch
        );
        // A vertex on the other segment: counted when the far end lies to the
        // left of p1 -> p2, not when it lies to the right.
        assert!(intersects((0.0, 0.0), (2.0, 0.0), (1.0, 0.0), (1.0, 1.0)));
        assert!(!intersects((0.0, 0.0), (2.0, 0.0), (1.0, 0.0), (1.0, -1.0)));
        assert_eq!(
            contact((0.0, 0.0), (2.0, 0.0), (1.0, 0.0), (1.0, -1.0)),
            Contact::Touch
        );
        assert_eq!(
            contact((0.0, 0.0), (2.0, 2.0), (0.0, 2.0), (2.0, 0.0)),
            Contact::Proper
        );
        assert_eq!(
            contact((0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)),
            Contact::None
        );
    }

    #[test]
    fn exact_orientation_beyond_the_filter() {
        // Below the filter's error bound: decided exactly.
        assert_eq!(orient((0.0, 0.0), (1.0, 1.0), (0.5, 0.5000000000000001)), 1);
        assert_eq!(orient((0.0, 0.0), (0.1 + 0.2, 0.1 + 0.2), (0.3, 0.3)), 0);
        assert_eq!(orient((0.0, 0.0), (1.0, 1.0), (3.0, 3.0)), 0);
        assert_eq!(orient((0.0, 0.0), (1.0, 0.0), (0.5, 1e-300)), 1);
        assert_eq!(orient((1e300, 1e300), (-1e300, 1e300), (0.0, -1e300)), 1);
    }

    #[test]
    fn python_arithmetic() {
        assert_eq!(angle_deg((1.0, 0.0), (0.0, 0.0), (0.0, 1.0)), Ok(90.0));
        assert_eq!(angle_deg((1.0, 0.0), (0.0, 0.0), (-1.0, 0.0)), Ok(180.0));
        assert_eq!(angle_deg((0.0, 0.0), (0.0, 0.0), (1.0, 0.0)), Ok(0.0));
        // NaN cosine: min(1.0, nan) is 1.0, so 0 degrees.
        assert_eq!(angle_deg((f64::NAN, 0.0), (0.0, 0.0), (1.0, 0.0)), Ok(0.0));
        assert!(angle_deg((1e200, 0.0), (0.0, 0.0), (1.0, 0.0)).is_err());
        assert!(dist((0.0, 0.0), (2e154, 0.0)).is_err());
        // inf - finite is inf, and inf ** 2 does not raise.
        assert_eq!(dist((0.0, 0.0), (f64::INFINITY, 0.0)), Ok(f64::INFINITY));
        assert_eq!(round6(0.1234565), 0.123456); // 0.12345649999…
        assert_eq!(round6(2.0000005000001), 2.000001);
        assert_eq!(round6(-1e-9).to_bits(), (-0.0f64).to_bits());
    }

    #[test]
    fn hull_areas() {
        let square = [
            (0.0, 0.0),
            (2.0, 0.0),
            (2.0, 2.0),
            (0.0, 2.0),
            (1.0, 1.0),
            (1.0, 0.0),
        ];
        assert_eq!(hull_area(&square), 4.0);
        assert_eq!(hull_area(&[(0.0, 0.0), (1.0, 1.0), (2.0, 2.0)]), 0.0);
        assert_eq!(hull_area(&[(0.0, 0.0), (-0.0, 0.0)]), 0.0);
    }
}
