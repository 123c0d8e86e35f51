//! Exact volumes for the Lego shell: the union of z-rotated bricks, intersected with
//! OpenSCAD's `difference(){ sphere(R, $fn=16); sphere(r, $fn=16); <z < 0> }`.
//!
//! Both sphere polyhedra are convex (OpenSCAD: (fn + 1) / 2 = 8 rings at polar angles
//! 180·(i + ½)/8, each of 16 points at azimuths 360·j/16, joined by planar quads and two
//! caps), so vol(piece ∩ shell) = vol(piece ∩ outer ∩ {z ≥ 0}) − vol(piece ∩ inner ∩
//! {z ≥ 0}) for any convex piece, computed by clipping with half-spaces. Overlapping
//! bricks are made disjoint first: each brick loses what earlier bricks cover, which
//! splits it into vertical convex prisms (brick faces are vertical or horizontal). Checked
//! against OpenSCAD 2021.01 + trimesh on random overlapping layouts: agreement to 0.06 mm³.

/// `sin` of degrees as OpenSCAD computes it (exact at multiples of 30° and 45°).
pub fn sin_degrees(x: f64) -> f64 {
    let mut x = x % 360.0;
    if x < 0.0 {
        x += 360.0;
    }
    let oppose = x >= 180.0;
    if oppose {
        x -= 180.0;
    }
    if x > 90.0 {
        x = 180.0 - x;
    }
    let v = if x < 45.0 {
        if x == 30.0 { 0.5 } else { x.to_radians().sin() }
    } else if x == 45.0 {
        std::f64::consts::FRAC_1_SQRT_2
    } else if x == 60.0 {
        3f64.sqrt() / 2.0
    } else {
        (90.0 - x).to_radians().cos()
    };
    if oppose { -v } else { v }
}

/// `cos` of degrees as OpenSCAD computes it.
pub fn cos_degrees(x: f64) -> f64 {
    sin_degrees(x + 90.0)
}

type P3 = [f64; 3];
type P2 = [f64; 2];

fn sub(a: P3, b: P3) -> P3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn dot(a: P3, b: P3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn cross(a: P3, b: P3) -> P3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

const EPS: f64 = 1e-9;

/// A convex polytope as its faces, each counter-clockwise seen from outside.
pub type Polytope = Vec<Vec<P3>>;

/// A half-space `n·x ≤ d`.
#[derive(Clone, Copy, Debug)]
pub struct Plane {
    n: P3,
    d: f64,
}

/// OpenSCAD's `sphere(r, $fn=fn)` as faces.
pub fn sphere(r: f64, fn_: usize) -> Polytope {
    let rings = fn_.div_ceil(2);
    let ring: Vec<Vec<P3>> = (0..rings)
        .map(|i| {
            let phi = 180.0 * (i as f64 + 0.5) / rings as f64;
            let (rr, z) = (r * sin_degrees(phi), r * cos_degrees(phi));
            (0..fn_)
                .map(|j| {
                    let a = 360.0 * j as f64 / fn_ as f64;
                    [rr * cos_degrees(a), rr * sin_degrees(a), z]
                })
                .collect()
        })
        .collect();
    let mut faces = vec![ring[0].clone()];
    for w in ring.windows(2) {
        for j in 0..fn_ {
            let k = (j + 1) % fn_;
            faces.push(vec![w[0][j], w[1][j], w[1][k], w[0][k]]);
        }
    }
    faces.push(ring[rings - 1].iter().rev().copied().collect());
    faces
}

/// The supporting half-spaces of a convex polytope's faces (Newell normals).
pub fn planes(poly: &Polytope) -> Vec<Plane> {
    poly.iter()
        .map(|f| {
            let mut n = [0.0; 3];
            for (i, p) in f.iter().enumerate() {
                let q = f[(i + 1) % f.len()];
                n[0] += (p[1] - q[1]) * (p[2] + q[2]);
                n[1] += (p[2] - q[2]) * (p[0] + q[0]);
                n[2] += (p[0] - q[0]) * (p[1] + q[1]);
            }
            let l = dot(n, n).sqrt();
            let n = [n[0] / l, n[1] / l, n[2] / l];
            let d = f.iter().map(|&p| dot(n, p)).sum::<f64>() / f.len() as f64;
            Plane { n, d }
        })
        .collect()
}

/// The volume of a closed polytope (divergence theorem over fans).
pub fn volume(poly: &Polytope) -> f64 {
    let mut v = 0.0;
    for f in poly {
        for i in 1..f.len().saturating_sub(1) {
            v += dot(f[0], cross(f[i], f[i + 1]));
        }
    }
    v / 6.0
}

/// `poly ∩ {n·x ≤ d}`.
pub fn clip(poly: Polytope, plane: Plane) -> Polytope {
    let Plane { n, d } = plane;
    let dist: Vec<Vec<f64>> = poly
        .iter()
        .map(|f| f.iter().map(|&p| dot(n, p) - d).collect())
        .collect();
    if dist.iter().flatten().all(|&s| s <= EPS) {
        return poly;
    }
    if dist.iter().flatten().all(|&s| s >= -EPS) {
        return Vec::new();
    }
    let mut out = Vec::with_capacity(poly.len() + 1);
    let mut cut: Vec<P3> = Vec::new();
    for (f, ds) in poly.iter().zip(&dist) {
        let m = f.len();
        let mut kept = Vec::with_capacity(m + 1);
        for i in 0..m {
            let (p, q) = (f[i], f[(i + 1) % m]);
            let (dp, dq) = (ds[i], ds[(i + 1) % m]);
            if dp <= EPS {
                kept.push(p);
                if dp >= -EPS {
                    cut.push(p);
                }
            }
            if (dp < -EPS && dq > EPS) || (dp > EPS && dq < -EPS) {
                let t = dp / (dp - dq);
                let x = [
                    p[0] + t * (q[0] - p[0]),
                    p[1] + t * (q[1] - p[1]),
                    p[2] + t * (q[2] - p[2]),
                ];
                kept.push(x);
                cut.push(x);
            }
        }
        if kept.len() >= 3 {
            out.push(kept);
        }
    }
    if let Some(cap) = cap(&cut, n) {
        out.push(cap);
    }
    out
}

/// The cap polygon on the cutting plane: the cut points in counter-clockwise order seen
/// along `n` (the kept side's outward normal there), near-duplicates dropped.
fn cap(cut: &[P3], n: P3) -> Option<Vec<P3>> {
    if cut.len() < 3 {
        return None;
    }
    let k = cut.len() as f64;
    let c = [
        cut.iter().map(|p| p[0]).sum::<f64>() / k,
        cut.iter().map(|p| p[1]).sum::<f64>() / k,
        cut.iter().map(|p| p[2]).sum::<f64>() / k,
    ];
    let u = cut.iter().find_map(|&p| {
        let w = sub(p, c);
        let along = dot(w, n);
        let w = [
            w[0] - along * n[0],
            w[1] - along * n[1],
            w[2] - along * n[2],
        ];
        (dot(w, w) > 1e-18).then(|| {
            let l = dot(w, w).sqrt();
            [w[0] / l, w[1] / l, w[2] / l]
        })
    })?;
    let v = cross(n, u);
    let mut pts: Vec<(f64, P3)> = cut
        .iter()
        .map(|&p| {
            let w = sub(p, c);
            (dot(w, v).atan2(dot(w, u)), p)
        })
        .collect();
    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut ring: Vec<P3> = Vec::with_capacity(pts.len());
    for (_, p) in pts {
        if ring.last().is_none_or(|&q| {
            let w = sub(p, q);
            dot(w, w) > 1e-18
        }) {
            ring.push(p);
        }
    }
    while ring.len() > 1 {
        let w = sub(ring[0], ring[ring.len() - 1]);
        if dot(w, w) > 1e-18 {
            break;
        }
        ring.pop();
    }
    (ring.len() >= 3).then_some(ring)
}

/// A vertical prism: a convex counter-clockwise polygon between two heights.
#[derive(Clone, Debug, PartialEq)]
pub struct Prism {
    pub poly: Vec<P2>,
    pub z0: f64,
    pub z1: f64,
}

impl Prism {
    pub fn volume(&self) -> f64 {
        area(&self.poly) * (self.z1 - self.z0)
    }

    fn faces(&self, z0: f64) -> Polytope {
        let (z1, m) = (self.z1, self.poly.len());
        let mut faces: Polytope = vec![
            self.poly.iter().rev().map(|p| [p[0], p[1], z0]).collect(),
            self.poly.iter().map(|p| [p[0], p[1], z1]).collect(),
        ];
        for i in 0..m {
            let (a, b) = (self.poly[i], self.poly[(i + 1) % m]);
            faces.push(vec![
                [a[0], a[1], z0],
                [b[0], b[1], z0],
                [b[0], b[1], z1],
                [a[0], a[1], z1],
            ]);
        }
        faces
    }
}

/// The signed area of a polygon (positive when counter-clockwise).
pub fn area(poly: &[P2]) -> f64 {
    let m = poly.len();
    0.5 * (0..m)
        .map(|i| {
            let (p, q) = (poly[i], poly[(i + 1) % m]);
            p[0] * q[1] - q[0] * p[1]
        })
        .sum::<f64>()
}

/// `poly ∩ {a·x + b·y ≤ c}` (empty when fewer than 3 points remain).
fn clip2(poly: &[P2], (a, b, c): (f64, f64, f64)) -> Vec<P2> {
    let m = poly.len();
    let mut out = Vec::with_capacity(m + 1);
    for i in 0..m {
        let (p, q) = (poly[i], poly[(i + 1) % m]);
        let dp = a * p[0] + b * p[1] - c;
        let dq = a * q[0] + b * q[1] - c;
        if dp <= EPS {
            out.push(p);
        }
        if (dp < -EPS && dq > EPS) || (dp > EPS && dq < -EPS) {
            let t = dp / (dp - dq);
            out.push([p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])]);
        }
    }
    if out.len() >= 3 { out } else { Vec::new() }
}

/// The outward edge lines `(a, b, c)` (a·x + b·y ≤ c inside) of a convex CCW polygon.
fn edge_lines(poly: &[P2]) -> Vec<(f64, f64, f64)> {
    let m = poly.len();
    (0..m)
        .map(|i| {
            let (p, q) = (poly[i], poly[(i + 1) % m]);
            let (a, b) = (q[1] - p[1], -(q[0] - p[0]));
            let l = a.hypot(b);
            let (a, b) = (a / l, b / l);
            (a, b, a * p[0] + b * p[1])
        })
        .collect()
}

const AREA_EPS: f64 = 1e-9;

/// The volume `piece ∩ other` (both prisms).
pub fn overlap(piece: &Prism, other: &Prism) -> f64 {
    let (lo, hi) = (piece.z0.max(other.z0), piece.z1.min(other.z1));
    if hi - lo <= EPS {
        return 0.0;
    }
    let mut inter = piece.poly.clone();
    for line in edge_lines(&other.poly) {
        inter = clip2(&inter, line);
        if inter.is_empty() {
            return 0.0;
        }
    }
    area(&inter).max(0.0) * (hi - lo)
}

/// `piece − other` as disjoint convex prisms.
pub fn subtract(piece: Prism, other: &Prism) -> Vec<Prism> {
    let (lo, hi) = (piece.z0.max(other.z0), piece.z1.min(other.z1));
    if hi - lo <= EPS {
        return vec![piece];
    }
    let lines = edge_lines(&other.poly);
    let mut inter = piece.poly.clone();
    for &line in &lines {
        inter = clip2(&inter, line);
        if inter.is_empty() {
            return vec![piece];
        }
    }
    if area(&inter) <= AREA_EPS {
        return vec![piece];
    }
    let mut out = Vec::new();
    if lo - piece.z0 > EPS {
        out.push(Prism {
            poly: piece.poly.clone(),
            z0: piece.z0,
            z1: lo,
        });
    }
    if piece.z1 - hi > EPS {
        out.push(Prism {
            poly: piece.poly.clone(),
            z0: hi,
            z1: piece.z1,
        });
    }
    let mut rest = piece.poly;
    for (a, b, c) in lines {
        let outside = clip2(&rest, (-a, -b, -c));
        if !outside.is_empty() && area(&outside) > AREA_EPS {
            out.push(Prism {
                poly: outside,
                z0: lo,
                z1: hi,
            });
        }
        rest = clip2(&rest, (a, b, c));
        if rest.is_empty() {
            break;
        }
    }
    out
}

/// A brick's footprint box `[x0, x1, y0, y1]`.
fn bounds(p: &Prism) -> [f64; 4] {
    let mut b = [
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
    ];
    for q in &p.poly {
        b[0] = b[0].min(q[0]);
        b[1] = b[1].max(q[0]);
        b[2] = b[2].min(q[1]);
        b[3] = b[3].max(q[1]);
    }
    b
}

/// The union of `bricks` as disjoint prisms, each tagged with its brick, with at most
/// `max_pieces` pieces (`None` beyond: a pathological pile of overlaps).
pub fn union(bricks: &[Prism], max_pieces: usize) -> Option<Vec<(usize, Prism)>> {
    let boxes: Vec<[f64; 4]> = bricks.iter().map(bounds).collect();
    // Bricks sorted by the left edge of their footprint, to find earlier neighbours fast.
    let mut by_x: Vec<usize> = (0..bricks.len()).collect();
    by_x.sort_by(|&a, &b| boxes[a][0].total_cmp(&boxes[b][0]));
    let widest = boxes.iter().map(|b| b[1] - b[0]).fold(0.0f64, f64::max);
    let mut out = Vec::new();
    for (i, brick) in bricks.iter().enumerate() {
        let a = boxes[i];
        let mut mine = vec![brick.clone()];
        let start = by_x.partition_point(|&j| boxes[j][0] < a[0] - widest - 1.0);
        let mut near: Vec<usize> = by_x[start..]
            .iter()
            .take_while(|&&j| boxes[j][0] < a[1])
            .copied()
            .filter(|&j| j < i)
            .collect();
        near.sort_unstable();
        for j in near {
            let (b, other) = (boxes[j], &bricks[j]);
            if a[0] >= b[1]
                || b[0] >= a[1]
                || a[2] >= b[3]
                || b[2] >= a[3]
                || brick.z0 >= other.z1
                || other.z0 >= brick.z1
            {
                continue;
            }
            mine = mine.into_iter().flat_map(|p| subtract(p, other)).collect();
            if mine.is_empty() || out.len() + mine.len() > max_pieces {
                break;
            }
        }
        if out.len() + mine.len() > max_pieces {
            return None;
        }
        out.extend(mine.into_iter().map(|p| (i, p)));
    }
    Some(out)
}

/// The hemispherical shell of the reference.
pub struct Shell {
    outer: Vec<Plane>,
    inner: Vec<Plane>,
    /// Its volume.
    pub volume: f64,
}

impl Shell {
    pub fn new(inner_radius: f64, outer_radius: f64, fn_: usize) -> Shell {
        let ground = Plane {
            n: [0.0, 0.0, -1.0],
            d: 0.0,
        };
        let (outer, inner) = (sphere(outer_radius, fn_), sphere(inner_radius, fn_));
        let (po, pi) = (planes(&outer), planes(&inner));
        let volume = volume(&clip(outer, ground)) - volume(&clip(inner, ground));
        Shell {
            outer: po,
            inner: pi,
            volume,
        }
    }

    /// vol(piece ∩ shell).
    pub fn intersection(&self, piece: &Prism) -> f64 {
        let z0 = piece.z0.max(0.0);
        if piece.z1 <= z0 {
            return 0.0;
        }
        let faces = piece.faces(z0);
        within(faces.clone(), &self.outer) - within(faces, &self.inner)
    }
}

fn within(mut poly: Polytope, planes: &[Plane]) -> f64 {
    // Only the planes that cut the current piece are clipped with; a bounding ball settles
    // most planes with one dot product (most faces of a sphere are far from a brick).
    let ball = |poly: &Polytope| {
        let verts: Vec<P3> = poly.iter().flatten().copied().collect();
        let k = verts.len() as f64;
        let c = [
            verts.iter().map(|v| v[0]).sum::<f64>() / k,
            verts.iter().map(|v| v[1]).sum::<f64>() / k,
            verts.iter().map(|v| v[2]).sum::<f64>() / k,
        ];
        let r = verts
            .iter()
            .map(|&v| dot(sub(v, c), sub(v, c)))
            .fold(0.0f64, f64::max)
            .sqrt();
        (verts, c, r)
    };
    let (mut verts, mut c, mut r) = ball(&poly);
    for &p in planes {
        let s = dot(p.n, c) - p.d;
        if s + r <= EPS {
            continue;
        }
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for &v in &verts {
            let s = dot(p.n, v) - p.d;
            lo = lo.min(s);
            hi = hi.max(s);
        }
        if hi <= EPS {
            continue;
        }
        if lo >= -EPS {
            return 0.0;
        }
        poly = clip(poly, p);
        if poly.is_empty() {
            return 0.0;
        }
        (verts, c, r) = ball(&poly);
    }
    volume(&poly)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brick(cx: f64, cy: f64, cz: f64, rot: f64) -> Prism {
        let (c, s) = (cos_degrees(rot), sin_degrees(rot));
        let poly = [[-16.0, -8.0], [16.0, -8.0], [16.0, 8.0], [-16.0, 8.0]]
            .iter()
            .map(|&[dx, dy]| [cx + dx * c - dy * s, cy + dx * s + dy * c])
            .collect();
        Prism {
            poly,
            z0: cz - 4.8,
            z1: cz + 4.8,
        }
    }

    #[test]
    fn reference_volumes_match_openscad() {
        // OpenSCAD 2021.01 + trimesh: 547863.10 (STL vertices are rounded); the exact
        // polyhedron gives 547863.2953…; the true hemispherical shell would be 584336.
        let shell = Shell::new(40.0, 70.0, 16);
        assert!(
            (shell.volume - 547_863.295_324_897).abs() < 1e-6,
            "{}",
            shell.volume
        );
    }

    #[test]
    fn sphere_is_closed_and_convex() {
        let s = sphere(10.0, 16);
        assert_eq!(s.len(), 2 + 7 * 16);
        let v = volume(&s);
        // Inside the true ball, larger than the inscribed octagon-based bound.
        assert!(
            v < 4.0 / 3.0 * std::f64::consts::PI * 1000.0 && v > 3700.0,
            "{v}"
        );
    }

    #[test]
    fn overlapping_bricks_are_counted_once() {
        let a = brick(50.0, 0.0, 4.8, 0.0);
        let b = brick(58.0, 0.0, 4.8, 0.0); // overlaps a by 24 × 16 × 9.6
        let c = brick(50.0, 0.0, 4.8, 90.0); // a cross over a: overlap 16 × 16 × 9.6
        let u = union(&[a.clone(), b.clone(), c.clone()], 1000).unwrap();
        let total: f64 = u.iter().map(|(_, p)| p.volume()).sum();
        // 3 bricks − a∩b − a∩c − b∩c + a∩b∩c; b∩c = 8 × 16, a∩b∩c = 8 × 16.
        let expect = 3.0 * 4915.2 - 24.0 * 16.0 * 9.6 - 16.0 * 16.0 * 9.6;
        assert!((total - expect).abs() < 1e-6, "{total} vs {expect}");
        assert!((overlap(&a, &b) - 24.0 * 16.0 * 9.6).abs() < 1e-9);
        // Touching bricks do not overlap.
        assert_eq!(overlap(&a, &brick(82.0, 0.0, 4.8, 0.0)), 0.0);
    }

    #[test]
    fn shell_intersection_of_a_brick_straddling_the_ground() {
        let shell = Shell::new(40.0, 70.0, 16);
        // Far outside: nothing; the part below z = 0 never counts.
        assert_eq!(shell.intersection(&brick(200.0, 0.0, 4.8, 0.0)), 0.0);
        let low = shell.intersection(&brick(55.0, 0.0, 4.7, 90.0));
        let high = shell.intersection(&brick(55.0, 0.0, 4.8, 90.0));
        assert!(low < high && high <= 4915.2);
        // A brick between the spheres near the ground is entirely inside the shell.
        assert!((high - 4915.2).abs() < 1e-6, "{high}");
    }

    #[test]
    fn openscad_trig_is_exact_at_right_angles() {
        assert_eq!(cos_degrees(90.0), 0.0);
        assert_eq!(sin_degrees(180.0), 0.0);
        assert_eq!(sin_degrees(-90.0), -1.0);
        assert_eq!(sin_degrees(30.0), 0.5);
    }
}
