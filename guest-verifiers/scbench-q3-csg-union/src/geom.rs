//! Volumes of a closed polyhedron R intersected with a union of convex pieces, without mesh
//! booleans.
//!
//! For a convex polytope K, let g(x, y, z) be the length of K ∩ {(t, y, z) : t ≤ x} (the part
//! of the x-line through (y, z) inside K, up to x). Then ∂g/∂x = 1_K, so by the divergence
//! theorem vol(R ∩ K) = ∮_{∂R} g n_x dA. The function g is continuous, so faces of R lying on
//! faces of K (everywhere in CSG answers) need no tie-breaking. On the yz-projection, g is
//! piecewise linear: K projects to a convex polygon split into cells, each under one entry
//! facet a(y, z) and one exit facet b(y, z), where g = clamp(x − a, 0, b − a). Each fan
//! triangle of R is projected, clipped against the cells and the lines x = a, x = b, and the
//! linear integrands are integrated exactly (area × value at the centroid). The union of the
//! pieces is handled by inclusion–exclusion over their intersections (convex again).

use verigate_sdk::harness::shoelace_area;

/// A point or vector in space.
pub type P3 = [f64; 3];
/// A point of the yz-plane.
pub type P2 = [f64; 2];

const EPS: f64 = 1e-9;

pub fn sub(a: P3, b: P3) -> P3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

pub fn cross(a: P3, b: P3) -> P3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

pub fn dot(a: P3, b: P3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn norm(a: P3) -> f64 {
    dot(a, a).sqrt()
}

fn lerp3(a: P3, b: P3, t: f64) -> P3 {
    [
        a[0] + (b[0] - a[0]) * t,
        a[1] + (b[1] - a[1]) * t,
        a[2] + (b[2] - a[2]) * t,
    ]
}

/// The half-space n·p ≤ d (n of unit length).
#[derive(Clone, Copy, Debug)]
pub struct Plane {
    pub n: P3,
    pub d: f64,
}

/// The outward planes of a convex piece given by vertices and outward faces.
pub fn piece_planes(vertices: &[P3], faces: &[Vec<usize>]) -> Vec<Plane> {
    let mut planes = Vec::new();
    for face in faces {
        let mut n = [0.0; 3];
        let mut c = [0.0; 3];
        for i in 0..face.len() {
            let (a, b) = (vertices[face[i]], vertices[face[(i + 1) % face.len()]]);
            n[0] += (a[1] - b[1]) * (a[2] + b[2]);
            n[1] += (a[2] - b[2]) * (a[0] + b[0]);
            n[2] += (a[0] - b[0]) * (a[1] + b[1]);
            for k in 0..3 {
                c[k] += a[k] / face.len() as f64;
            }
        }
        let len = norm(n);
        if len > 0.0 {
            let n = n.map(|v| v / len);
            planes.push(Plane { n, d: dot(n, c) });
        }
    }
    planes
}

/// Keeps the part of a convex polygon with n·p ≤ d + eps.
fn clip3(poly: &[P3], pl: &Plane) -> Vec<P3> {
    let mut out = Vec::with_capacity(poly.len() + 1);
    for i in 0..poly.len() {
        let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
        let (sa, sb) = (dot(pl.n, a) - pl.d, dot(pl.n, b) - pl.d);
        let (ina, inb) = (sa <= EPS, sb <= EPS);
        if ina {
            out.push(a);
        }
        if ina != inb {
            out.push(lerp3(a, b, (sa / (sa - sb)).clamp(0.0, 1.0)));
        }
    }
    out
}

/// Twice the vector area of a planar polygon.
fn vector_area(poly: &[P3]) -> P3 {
    let mut s = [0.0; 3];
    for i in 0..poly.len() {
        let c = cross(poly[i], poly[(i + 1) % poly.len()]);
        for k in 0..3 {
            s[k] += c[k];
        }
    }
    s
}

/// One facet of a polytope.
pub struct Facet {
    pub plane: Plane,
    pub poly: Vec<P3>,
    pub area: f64,
}

/// A convex polytope as its facets.
pub struct Polytope {
    pub facets: Vec<Facet>,
    pub volume: f64,
}

/// A convex piece: its outward planes and its faces as polygons (one per plane).
pub struct Piece {
    pub planes: Vec<Plane>,
    pub faces: Vec<Vec<P3>>,
}

/// A convex piece from vertices and outward faces (faces without area are dropped).
pub fn piece(vertices: &[P3], faces: &[Vec<usize>]) -> Piece {
    let mut out = Piece {
        planes: Vec::new(),
        faces: Vec::new(),
    };
    for face in faces {
        let poly: Vec<P3> = face.iter().map(|&i| vertices[i]).collect();
        if let Some(pl) = piece_planes(vertices, std::slice::from_ref(face)).first() {
            out.planes.push(*pl);
            out.faces.push(poly);
        }
    }
    out
}

fn same_plane(a: &Plane, b: &Plane) -> bool {
    (0..3).all(|k| (a.n[k] - b.n[k]).abs() < 1e-12) && (a.d - b.d).abs() < EPS
}

/// The intersection of convex pieces: each face of each member clipped by the other members'
/// planes. A face lying on a plane of another member is kept once (by the lower index).
pub fn polytope(pieces: &[&Piece]) -> Option<Polytope> {
    let mut facets = Vec::new();
    for (k, p) in pieces.iter().enumerate() {
        'face: for (pl, face) in p.planes.iter().zip(&p.faces) {
            let mut poly = face.clone();
            for (j, other) in pieces.iter().enumerate() {
                if j == k {
                    continue;
                }
                for q in &other.planes {
                    if same_plane(pl, q) {
                        if j < k {
                            continue 'face;
                        }
                        continue;
                    }
                    poly = clip3(&poly, q);
                    if poly.len() < 3 {
                        continue 'face;
                    }
                }
            }
            // Drop vertices that (nearly) repeat their predecessor.
            let mut clean: Vec<P3> = Vec::with_capacity(poly.len());
            for v in poly {
                if clean.last().is_none_or(|q| norm(sub(v, *q)) > 1e-9) {
                    clean.push(v);
                }
            }
            while clean.len() > 1 && norm(sub(clean[0], clean[clean.len() - 1])) <= 1e-9 {
                clean.pop();
            }
            if clean.len() < 3 {
                continue;
            }
            let area = dot(vector_area(&clean), pl.n) / 2.0;
            if area > 1e-12 {
                facets.push(Facet {
                    plane: *pl,
                    poly: clean,
                    area,
                });
            }
        }
    }
    let volume: f64 = facets.iter().map(|f| f.plane.d * f.area).sum::<f64>() / 3.0;
    (volume > 1e-9).then_some(Polytope { facets, volume })
}

/// c + y·Y + z·Z.
#[derive(Clone, Copy, Debug)]
pub struct Lin {
    pub c: f64,
    pub y: f64,
    pub z: f64,
}

impl Lin {
    fn at(&self, p: P2) -> f64 {
        self.c + self.y * p[0] + self.z * p[1]
    }
    fn minus(&self, o: &Lin) -> Lin {
        Lin {
            c: self.c - o.c,
            y: self.y - o.y,
            z: self.z - o.z,
        }
    }
}

fn bbox2(poly: &[P2]) -> [f64; 4] {
    let mut b = [
        f64::INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NEG_INFINITY,
    ];
    for p in poly {
        b[0] = b[0].min(p[0]);
        b[1] = b[1].min(p[1]);
        b[2] = b[2].max(p[0]);
        b[3] = b[3].max(p[1]);
    }
    b
}

fn overlap(a: &[f64; 4], b: &[f64; 4]) -> bool {
    a[0] <= b[2] + EPS && b[0] <= a[2] + EPS && a[1] <= b[3] + EPS && b[1] <= a[3] + EPS
}

/// ∫ f over a polygon (counter-clockwise), f linear.
fn integrate(poly: &[P2], f: &Lin) -> f64 {
    let (mut a, mut my, mut mz) = (0.0, 0.0, 0.0);
    for i in 0..poly.len() {
        let (p, q) = (poly[i], poly[(i + 1) % poly.len()]);
        let c = p[0] * q[1] - q[0] * p[1];
        a += c;
        my += (p[0] + q[0]) * c;
        mz += (p[1] + q[1]) * c;
    }
    f.c * a / 2.0 + f.y * my / 6.0 + f.z * mz / 6.0
}

/// Keeps the part of a convex polygon where `h ≥ 0` (`keep_positive`) or `h ≤ 0`.
fn clip_lin(poly: &[P2], h: &Lin, keep_positive: bool) -> Vec<P2> {
    let s = if keep_positive { 1.0 } else { -1.0 };
    let mut out = Vec::with_capacity(poly.len() + 1);
    for i in 0..poly.len() {
        let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
        let (ha, hb) = (s * h.at(a), s * h.at(b));
        let (ina, inb) = (ha >= 0.0, hb >= 0.0);
        if ina {
            out.push(a);
        }
        if ina != inb {
            let t = (ha / (ha - hb)).clamp(0.0, 1.0);
            out.push([a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t]);
        }
    }
    out
}

/// Clips a convex polygon by a convex counter-clockwise polygon.
fn clip_convex(poly: &[P2], by: &[P2]) -> Vec<P2> {
    let mut out = poly.to_vec();
    for i in 0..by.len() {
        let (a, b) = (by[i], by[(i + 1) % by.len()]);
        let (dy, dz) = (b[0] - a[0], b[1] - a[1]);
        let len = (dy * dy + dz * dz).sqrt();
        // A near-zero edge has no reliable direction: the neighbouring edges bound the polygon.
        if len < 1e-9 {
            continue;
        }
        let (dy, dz) = (dy / len, dz / len);
        // Left of a→b: (b − a) × (p − a) ≥ 0.
        let h = Lin {
            c: dy * (-a[1]) - dz * (-a[0]),
            y: -dz,
            z: dy,
        };
        out = clip_lin(&out, &h, true);
        if out.len() < 3 {
            return Vec::new();
        }
    }
    out
}

/// A cell of a polytope's yz-projection: entry x = a(y, z), exit x = b(y, z).
pub struct Cell {
    poly: Vec<P2>,
    bb: [f64; 4],
    a: Lin,
    b: Lin,
}

/// The chord cells of a polytope along x.
pub fn chord_cells(p: &Polytope) -> Vec<Cell> {
    struct Side {
        poly: Vec<P2>,
        bb: [f64; 4],
        x: Lin,
    }
    let (mut front, mut back) = (Vec::new(), Vec::new());
    for f in &p.facets {
        let n = f.plane.n;
        if n[0].abs() < 1e-9 {
            continue;
        }
        let mut poly: Vec<P2> = f.poly.iter().map(|q| [q[1], q[2]]).collect();
        if shoelace_area(&poly) < 0.0 {
            poly.reverse();
        }
        let side = Side {
            bb: bbox2(&poly),
            poly,
            x: Lin {
                c: f.plane.d / n[0],
                y: -n[1] / n[0],
                z: -n[2] / n[0],
            },
        };
        if n[0] > 0.0 {
            front.push(side);
        } else {
            back.push(side);
        }
    }
    let mut cells = Vec::new();
    for f in &front {
        for b in &back {
            if !overlap(&f.bb, &b.bb) {
                continue;
            }
            let poly = clip_convex(&f.poly, &b.poly);
            if poly.len() >= 3 && shoelace_area(&poly) > 1e-12 {
                cells.push(Cell {
                    bb: bbox2(&poly),
                    poly,
                    a: b.x,
                    b: f.x,
                });
            }
        }
    }
    cells
}

/// A fan triangle of R projected on the yz-plane (counter-clockwise), with the sign of its
/// orientation and its plane as x = x(y, z).
pub struct Tri {
    poly: [P2; 3],
    bb: [f64; 4],
    sign: f64,
    x: Lin,
}

/// The fan triangles of a polyhedron's faces that are not parallel to the x-axis.
pub fn yz_triangles(vertices: &[P3], faces: &[Vec<usize>]) -> Vec<Tri> {
    let mut out = Vec::new();
    for face in faces {
        let p0 = vertices[face[0]];
        for k in 1..face.len() - 1 {
            let (p1, p2) = (vertices[face[k]], vertices[face[k + 1]]);
            let n = cross(sub(p1, p0), sub(p2, p0));
            if n[0].abs() <= 1e-9 * norm(n) || n[0] == 0.0 {
                continue;
            }
            let mut poly = [[p0[1], p0[2]], [p1[1], p1[2]], [p2[1], p2[2]]];
            let sign = if n[0] > 0.0 {
                1.0
            } else {
                poly.swap(1, 2);
                -1.0
            };
            out.push(Tri {
                bb: bbox2(&poly),
                poly,
                sign,
                x: Lin {
                    c: p0[0] + (n[1] * p0[1] + n[2] * p0[2]) / n[0],
                    y: -n[1] / n[0],
                    z: -n[2] / n[0],
                },
            });
        }
    }
    out
}

/// vol(R ∩ K) = ∮_{∂R} g_K n_x dA, R given by its triangles, K by its chord cells.
pub fn volume_inside(tris: &[Tri], cells: &[Cell]) -> f64 {
    let mut total = 0.0;
    for t in tris {
        for c in cells {
            if !overlap(&t.bb, &c.bb) {
                continue;
            }
            let poly = clip_convex(&c.poly, &t.poly);
            if poly.len() < 3 {
                continue;
            }
            let above_entry = clip_lin(&poly, &t.x.minus(&c.a), true);
            if above_entry.len() < 3 {
                continue;
            }
            // ∫_{P1} (b − a) + ∫_{P1, x ≤ b} (x − b): no double count where x = b on all of P1.
            let mut part = integrate(&above_entry, &c.b.minus(&c.a));
            let inside = clip_lin(&above_entry, &t.x.minus(&c.b), false);
            if inside.len() >= 3 {
                part += integrate(&inside, &t.x.minus(&c.b));
            }
            total += t.sign * part;
        }
    }
    total
}

/// A union of convex pieces, by inclusion–exclusion over their intersections.
pub struct Union {
    /// (±1, the intersection of a subset of the pieces, its chord cells)
    pub terms: Vec<(f64, Polytope, Vec<Cell>)>,
    pub volume: f64,
}

/// The union of convex pieces (vertices, outward faces).
pub fn union_of(pieces: &[(Vec<P3>, Vec<Vec<usize>>)]) -> Union {
    let n = pieces.len().min(12);
    let pieces: Vec<Piece> = pieces[..n].iter().map(|(v, f)| piece(v, f)).collect();
    let mut empty = vec![false; 1 << n];
    let mut terms = Vec::new();
    let mut volume = 0.0;
    for mask in 1usize..(1 << n) {
        let members: Vec<usize> = (0..n).filter(|k| mask & (1 << k) != 0).collect();
        if members
            .iter()
            .any(|&k| mask != (1 << k) && empty[mask & !(1 << k)])
        {
            empty[mask] = true;
            continue;
        }
        let chosen: Vec<&Piece> = members.iter().map(|&k| &pieces[k]).collect();
        match polytope(&chosen) {
            None => empty[mask] = true,
            Some(p) => {
                let sign = if members.len() % 2 == 1 { 1.0 } else { -1.0 };
                volume += sign * p.volume;
                let cells = chord_cells(&p);
                terms.push((sign, p, cells));
            }
        }
    }
    Union { terms, volume }
}

/// vol(R ∩ union).
pub fn intersection_volume(tris: &[Tri], u: &Union) -> f64 {
    u.terms
        .iter()
        .map(|(sign, _, cells)| sign * volume_inside(tris, cells))
        .sum()
}

/// ½ Σ area·(|n_x| + |n_y| + |n_z|) over the faces: the first-order volume OpenSCAD's
/// `minkowski(){cube(0.001); …}` adds per unit of cube side.
pub fn l1_half_surface(vertices: &[P3], faces: &[Vec<usize>]) -> f64 {
    let mut s = 0.0;
    for face in faces {
        let p0 = vertices[face[0]];
        for k in 1..face.len() - 1 {
            let n = cross(sub(vertices[face[k]], p0), sub(vertices[face[k + 1]], p0));
            s += (n[0].abs() + n[1].abs() + n[2].abs()) / 2.0;
        }
    }
    s / 2.0
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// An axis-aligned box: centre `c`, sides `s`, its 8 vertices and 6 outward faces.
    pub(crate) fn cube(c: P3, s: P3) -> (Vec<P3>, Vec<Vec<usize>>) {
        let mut v = Vec::new();
        for dz in [-1.0, 1.0] {
            for dy in [-1.0, 1.0] {
                for dx in [-1.0, 1.0] {
                    v.push([
                        c[0] + dx * s[0] / 2.0,
                        c[1] + dy * s[1] / 2.0,
                        c[2] + dz * s[2] / 2.0,
                    ]);
                }
            }
        }
        let f = vec![
            vec![0, 2, 3, 1],
            vec![4, 5, 7, 6],
            vec![0, 1, 5, 4],
            vec![2, 6, 7, 3],
            vec![0, 4, 6, 2],
            vec![1, 3, 7, 5],
        ];
        (v, f)
    }

    #[test]
    fn cube_volumes_and_intersections() {
        let a = cube([0.0; 3], [10.0; 3]);
        let b = cube([8.0, 0.0, 0.0], [10.0; 3]);
        let u = union_of(&[a.clone(), b.clone()]);
        assert!((u.volume - 1800.0).abs() < 1e-9, "{}", u.volume);
        // R = the first cube: R ∩ union = 1000.
        let tris = yz_triangles(&a.0, &a.1);
        let iv = intersection_volume(&tris, &u);
        assert!((iv - 1000.0).abs() < 1e-9, "{iv}");
        // R = a box [-5, 13] × [-5, 5] × [-5, 5]: exactly the union.
        let r = cube([4.0, 0.0, 0.0], [18.0, 10.0, 10.0]);
        let tris = yz_triangles(&r.0, &r.1);
        assert!((intersection_volume(&tris, &u) - 1800.0).abs() < 1e-9);
        // R shifted by 1 in y: 1800 · 9/10.
        let r = cube([4.0, 1.0, 0.0], [18.0, 10.0, 10.0]);
        let tris = yz_triangles(&r.0, &r.1);
        assert!((intersection_volume(&tris, &u) - 1620.0).abs() < 1e-9);
        // R shifted by 3 in x: [-2, 16] ∩ [-5, 13] = 15 long.
        let r = cube([7.0, 0.0, 0.0], [18.0, 10.0, 10.0]);
        let tris = yz_triangles(&r.0, &r.1);
        assert!((intersection_volume(&tris, &u) - 1500.0).abs() < 1e-9);
    }

    #[test]
    fn rotated_cube_union_volume() {
        // A cube and the same cube turned 45° about z: 1000 + 1000 − octagon prism.
        let (v, f) = cube([0.0; 3], [10.0; 3]);
        let s = 0.5f64.sqrt();
        let r: Vec<P3> = v
            .iter()
            .map(|p| [s * p[0] - s * p[1], s * p[0] + s * p[1], p[2]])
            .collect();
        let u = union_of(&[(v, f.clone()), (r, f)]);
        // Octagon with inradius 5: area 8 · 25 · tan(22.5°) = 200(√2 − 1).
        let octagon = 200.0 * (2f64.sqrt() - 1.0) * 10.0;
        assert!((u.volume - (2000.0 - octagon)).abs() < 1e-9, "{}", u.volume);
    }
}

#[cfg(test)]
mod sphere_tests {
    use super::*;

    /// OpenSCAD's sphere(r, $fn = fn) (without its exact-degree special cases).
    fn sphere(r: f64, fn_: usize) -> (Vec<P3>, Vec<Vec<usize>>) {
        let rings = fn_.div_ceil(2);
        let mut v = Vec::new();
        for i in 0..rings {
            let phi = (180.0 * (i as f64 + 0.5) / rings as f64).to_radians();
            for j in 0..fn_ {
                let t = (360.0 * j as f64 / fn_ as f64).to_radians();
                v.push([
                    r * phi.sin() * t.cos(),
                    r * phi.sin() * t.sin(),
                    r * phi.cos(),
                ]);
            }
        }
        let mut f = vec![
            (0..fn_).collect::<Vec<_>>(),
            ((rings - 1) * fn_..rings * fn_).rev().collect(),
        ];
        for i in 0..rings - 1 {
            for j in 0..fn_ {
                let (a, b) = (i * fn_, (i + 1) * fn_);
                f.push(vec![a + j, b + j, b + (j + 1) % fn_, a + (j + 1) % fn_]);
            }
        }
        (v, f)
    }

    #[test]
    fn a_sphere_against_itself() {
        let (v, f) = sphere(8.0, 24);
        let mut vol = 0.0;
        for face in &f {
            for k in 1..face.len() - 1 {
                vol += dot(v[face[0]], cross(v[face[k]], v[face[k + 1]])) / 6.0;
            }
        }
        assert!(vol > 0.0, "{vol}");
        let u = union_of(&[(v.clone(), f.clone())]);
        assert!((u.volume - vol).abs() < 1e-9, "{} {vol}", u.volume);
        let tris = yz_triangles(&v, &f);
        // The chord cells tile the projection: their area is the front facets' projected area.
        let (_, p, cells) = &u.terms[0];
        let cell_area: f64 = cells.iter().map(|c| shoelace_area(&c.poly)).sum();
        let front: f64 = p
            .facets
            .iter()
            .filter(|f| f.plane.n[0] > 1e-9)
            .map(|f| f.area * f.plane.n[0])
            .sum();
        assert!((cell_area - front).abs() < 1e-9, "{cell_area} {front}");
        let i = intersection_volume(&tris, &u);
        assert!((i - vol).abs() < 1e-9, "{i} {vol}");
    }
}
