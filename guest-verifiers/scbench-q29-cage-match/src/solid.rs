//! Geometric queries on closed triangle meshes, standing in for the original's OpenSCAD hit
//! tests (`intersection`/`difference` with a test shape, "hit" = result volume > 0) and
//! trimesh's ray casts. A parry BVH over the triangles (leaf boxes padded by 1e-7 mm so
//! axis-aligned rays never graze a box face) culls the candidates; the per-triangle tests
//! are written out here so edges count as hits (trimesh's barycentric test is inclusive).
//!
//! "Positive-volume overlap" of a valid closed solid with a convex test shape `C` holds
//! exactly when some triangle reaches into `C` eroded by [`EPS`] (the solid's interior then
//! enters `C`), or else when an interior point of `C` lies inside the solid (`C` inside the
//! solid, no surface crossing). Touching contact (shared faces, a rod sliding along a wall)
//! is no overlap, as OpenSCAD's empty intersection.

use parry3d_f64::bounding_volume::{Aabb, BoundingVolume};
use parry3d_f64::math::Vector as V3;
use parry3d_f64::partitioning::{Bvh, BvhBuildStrategy};
use parry3d_f64::query::{Ray, RayCast};

use crate::mesh::Mesh;

/// Depth (mm) a triangle must reach into a test shape to count as overlap.
pub const EPS: f64 = 1e-6;
/// Offset (mm) of probe points from the surfaces they are taken on.
pub const PROBE: f64 = 1e-3;
/// Barycentric slack of the inclusive ray-triangle test.
const BARY: f64 = 1e-9;
/// Padding of BVH leaf boxes.
const PAD: f64 = 1e-7;

/// A vertical convex prism: a convex polygon (counter-clockwise, in xy) over `[z0, z1]`.
/// Every test shape of the original is one (cubes, and OpenSCAD's polygonal cylinders).
#[derive(Clone, Debug)]
pub struct Prism {
    pub poly: Vec<[f64; 2]>,
    pub z0: f64,
    pub z1: f64,
}

impl Prism {
    /// `translate([cx, cy, cz]) cube([sx, sy, sz], center=true)`.
    pub fn cube(c: [f64; 3], s: [f64; 3]) -> Prism {
        let (hx, hy) = (s[0] / 2.0, s[1] / 2.0);
        Prism {
            poly: vec![
                [c[0] - hx, c[1] - hy],
                [c[0] + hx, c[1] - hy],
                [c[0] + hx, c[1] + hy],
                [c[0] - hx, c[1] + hy],
            ],
            z0: c[2] - s[2] / 2.0,
            z1: c[2] + s[2] / 2.0,
        }
    }

    /// `translate([cx, cy, cz]) cylinder(r=r, h=h, center=true)` as OpenSCAD meshes it with
    /// the default `$fn=0, $fa=12, $fs=2`: `ceil(max(min(360/$fa, 2πr/$fs), 5))` corners at
    /// angles `360°·i/n` on the radius (8 for d=5, 26 for r=8).
    pub fn cylinder(c: [f64; 3], r: f64, h: f64) -> Prism {
        let n = (360.0f64 / 12.0)
            .min(r * 2.0 * std::f64::consts::PI / 2.0)
            .max(5.0)
            .ceil() as usize;
        let poly = (0..n)
            .map(|i| {
                let phi = (360.0 * i as f64 / n as f64).to_radians();
                [c[0] + r * phi.cos(), c[1] + r * phi.sin()]
            })
            .collect();
        Prism {
            poly,
            z0: c[2] - h / 2.0,
            z1: c[2] + h / 2.0,
        }
    }

    fn aabb(&self) -> Aabb {
        let xs = self.poly.iter().map(|p| p[0]);
        let ys = self.poly.iter().map(|p| p[1]);
        let min = |it: &mut dyn Iterator<Item = f64>| it.fold(f64::INFINITY, f64::min);
        let max = |it: &mut dyn Iterator<Item = f64>| it.fold(f64::NEG_INFINITY, f64::max);
        Aabb::new(
            V3::new(min(&mut xs.clone()), min(&mut ys.clone()), self.z0),
            V3::new(max(&mut xs.clone()), max(&mut ys.clone()), self.z1),
        )
    }

    /// An interior point (the polygon's vertex mean, mid-height).
    fn inner_point(&self) -> V3 {
        let n = self.poly.len() as f64;
        let (sx, sy) = self
            .poly
            .iter()
            .fold((0.0, 0.0), |(x, y), p| (x + p[0], y + p[1]));
        V3::new(sx / n, sy / n, (self.z0 + self.z1) / 2.0)
    }

    /// The prism eroded by `eps` as half-spaces `n·x ≥ d`.
    fn planes(&self, eps: f64) -> Vec<(V3, f64)> {
        let mut planes = vec![(V3::Z, self.z0 + eps), (-V3::Z, -self.z1 + eps)];
        for i in 0..self.poly.len() {
            let (p, q) = (self.poly[i], self.poly[(i + 1) % self.poly.len()]);
            let n = V3::new(-(q[1] - p[1]), q[0] - p[0], 0.0);
            let len = n.length();
            if len > 0.0 {
                let n = n / len;
                planes.push((n, n.dot(V3::new(p[0], p[1], 0.0)) + eps));
            }
        }
        planes
    }
}

/// Clips a convex polygon to the intersection of half-spaces `n·x ≥ d`.
fn clip_to(planes: &[(V3, f64)], poly: Vec<V3>) -> Vec<V3> {
    planes.iter().fold(poly, |poly, &(n, d)| {
        if poly.is_empty() {
            poly
        } else {
            clip(poly, n, d)
        }
    })
}

/// Clips a convex polygon to the half-space `n·x ≥ d` (Sutherland–Hodgman).
fn clip(poly: Vec<V3>, n: V3, d: f64) -> Vec<V3> {
    let mut out = Vec::with_capacity(poly.len() + 1);
    for i in 0..poly.len() {
        let (p, q) = (poly[i], poly[(i + 1) % poly.len()]);
        let (sp, sq) = (n.dot(p) - d, n.dot(q) - d);
        if sp >= 0.0 {
            out.push(p);
        }
        if (sp >= 0.0) != (sq >= 0.0) {
            out.push(p + (q - p) * (sp / (sp - sq)));
        }
    }
    out
}

/// A closed mesh ready for queries.
pub struct Solid {
    pub tris: Vec<[V3; 3]>,
    pub normals: Vec<V3>,
    bvh: Bvh,
    aabb: Option<Aabb>,
}

/// Möller–Trumbore with inclusive edges: the ray parameter of a hit in front of the origin.
fn ray_tri(t: &[V3; 3], o: V3, d: V3) -> Option<f64> {
    let (e1, e2) = (t[1] - t[0], t[2] - t[0]);
    let p = d.cross(e2);
    let det = e1.dot(p);
    if det.abs() <= 1e-15 * e1.length() * e2.length() {
        return None;
    }
    let inv = 1.0 / det;
    let s = o - t[0];
    let u = s.dot(p) * inv;
    if !(-BARY..=1.0 + BARY).contains(&u) {
        return None;
    }
    let q = s.cross(e1);
    let v = d.dot(q) * inv;
    if v < -BARY || u + v > 1.0 + BARY {
        return None;
    }
    let hit = e2.dot(q) * inv;
    (hit > 1e-9).then_some(hit)
}

/// Strict crossing for parity counting: `Some` only for hits inside the triangle.
fn ray_tri_strict(t: &[V3; 3], o: V3, d: V3) -> bool {
    let (e1, e2) = (t[1] - t[0], t[2] - t[0]);
    let p = d.cross(e2);
    let det = e1.dot(p);
    if det == 0.0 {
        return false;
    }
    let inv = 1.0 / det;
    let s = o - t[0];
    let u = s.dot(p) * inv;
    let q = s.cross(e1);
    let v = d.dot(q) * inv;
    u > 0.0 && v > 0.0 && u + v < 1.0 && e2.dot(q) * inv > 0.0
}

/// Directions for parity rays: generic, so no ray meets an edge of an axis-aligned mesh.
const PARITY_DIRS: [[f64; 3]; 3] = [
    [0.5773462, 0.5773310, 0.5773731],
    [-0.3162071, 0.8944204, 0.3162416],
    [0.7071298, -0.4082271, -0.5773309],
];

fn tri_aabb(t: &[V3; 3], pad: f64) -> Aabb {
    let lo = t[0].min(t[1]).min(t[2]) - V3::splat(pad);
    let hi = t[0].max(t[1]).max(t[2]) + V3::splat(pad);
    Aabb::new(lo, hi)
}

fn overlaps(a: &Aabb, b: &Aabb) -> bool {
    (0..3).all(|i| a.mins[i] <= b.maxs[i] && b.mins[i] <= a.maxs[i])
}

impl Solid {
    pub fn new(mesh: &Mesh) -> Solid {
        let tris: Vec<[V3; 3]> = (0..mesh.f.len()).map(|i| mesh.tri(i)).collect();
        let leaves: Vec<Aabb> = tris.iter().map(|t| tri_aabb(t, PAD)).collect();
        let bvh = Bvh::from_leaves(BvhBuildStrategy::Binned, &leaves);
        let aabb = leaves.iter().copied().reduce(|a, b| a.merged(&b));
        Solid {
            normals: mesh.normals(),
            tris,
            bvh,
            aabb,
        }
    }

    pub fn len(&self) -> usize {
        self.tris.len()
    }

    /// Distance to the nearest triangle hit by the ray `o + t·d` (`d` unit), `t > 0`.
    pub fn first_hit(&self, o: V3, d: V3) -> Option<f64> {
        self.aabb?;
        let ray = Ray::new(o, d);
        self.bvh
            .cast_ray(&ray, f64::MAX, |leaf, best| {
                ray_tri(&self.tris[leaf as usize], o, d).filter(|&t| t < best)
            })
            .map(|(_, t)| t)
    }

    fn crossings(&self, o: V3, d: V3) -> usize {
        let ray = Ray::new(o, d);
        self.bvh
            .leaves(|node| node.aabb().cast_local_ray(&ray, f64::MAX, true).is_some())
            .filter(|&leaf| ray_tri_strict(&self.tris[leaf as usize], o, d))
            .count()
    }

    /// Whether `p` lies inside the closed mesh: odd crossings along at least two of three
    /// generic directions.
    pub fn contains(&self, p: V3) -> bool {
        let Some(aabb) = self.aabb else {
            return false;
        };
        if !(0..3).all(|i| aabb.mins[i] <= p[i] && p[i] <= aabb.maxs[i]) {
            return false;
        }
        let odd = PARITY_DIRS
            .iter()
            .filter(|d| self.crossings(p, V3::new(d[0], d[1], d[2]).normalize()) % 2 == 1)
            .count();
        odd >= 2
    }

    fn candidates<'a>(&'a self, aabb: &'a Aabb) -> impl Iterator<Item = usize> + 'a {
        self.bvh.intersect_aabb(aabb).map(|i| i as usize)
    }

    /// Positive-volume overlap with a prism.
    pub fn hits_prism(&self, prism: &Prism) -> bool {
        let Some(own) = self.aabb else {
            return false;
        };
        let aabb = prism.aabb();
        if !overlaps(&own, &aabb) {
            return false;
        }
        let planes = prism.planes(EPS);
        let crossed = self.candidates(&aabb).any(|i| {
            let poly = clip_to(&planes, self.tris[i].to_vec());
            !poly.is_empty()
        });
        crossed || self.contains(prism.inner_point())
    }

    /// Positive-volume overlap with `outer` minus the box `[lo, hi]` (the original's
    /// `difference() { cube(1000); cube([380,380,740]); }` test shape).
    pub fn hits_shell(&self, outer: &Prism, lo: V3, hi: V3, probe: V3) -> bool {
        let Some(own) = self.aabb else {
            return false;
        };
        let aabb = outer.aabb();
        if !overlaps(&own, &aabb) {
            return false;
        }
        let planes = outer.planes(EPS);
        let outside = |p: &V3| (0..3).any(|k| p[k] < lo[k] - EPS || p[k] > hi[k] + EPS);
        let crossed = self.candidates(&aabb).any(|i| {
            let poly = clip_to(&planes, self.tris[i].to_vec());
            poly.iter().any(outside)
        });
        crossed || self.contains(probe)
    }

    /// A point just inside the solid under the centre of face `i` (None for degenerate faces).
    pub fn face_probe(&self, i: usize) -> Option<V3> {
        let n = self.normals[i];
        if n == V3::ZERO {
            return None;
        }
        let t = &self.tris[i];
        Some((t[0] + t[1] + t[2]) / 3.0 - n * PROBE)
    }

    /// Probe points near every crossing of a face of `self` with a face of `other`: the
    /// midpoint of the two triangles' common segment, moved by `PROBE` along `−ns·sa` and
    /// `−no·sb` (`sa`, `sb` = ±1 pick the side of each surface). Stops when `accept` does.
    pub fn crossing_probes(
        &self,
        other: &Solid,
        sa: f64,
        sb: f64,
        accept: &mut dyn FnMut(V3) -> bool,
    ) -> bool {
        let (Some(a_box), Some(b_box)) = (self.aabb, other.aabb) else {
            return false;
        };
        if !overlaps(&a_box, &b_box) {
            return false;
        }
        for (i, ta) in self.tris.iter().enumerate() {
            let na = self.normals[i];
            if na == V3::ZERO {
                continue;
            }
            let bx = tri_aabb(ta, PAD);
            if !overlaps(&bx, &b_box) {
                continue;
            }
            for j in other.candidates(&bx) {
                let nb = other.normals[j];
                if nb == V3::ZERO || na.cross(nb).length() < 1e-9 {
                    continue;
                }
                if let Some(m) = tri_tri_midpoint(ta, &other.tris[j], na, nb)
                    && accept(m - na * (sa * PROBE) - nb * (sb * PROBE))
                {
                    return true;
                }
            }
        }
        false
    }
}

/// The segment where a closed triangle meets a plane (`n·x = d`), as its two ends.
fn tri_plane(t: &[V3; 3], n: V3, d: f64) -> Option<(V3, V3)> {
    let s: Vec<f64> = t.iter().map(|p| n.dot(*p) - d).collect();
    let scale = t.iter().map(|p| p.length()).fold(1.0, f64::max);
    let tol = 1e-12 * scale;
    let mut pts = Vec::with_capacity(3);
    for k in 0..3 {
        let (p, q, sp, sq) = (t[k], t[(k + 1) % 3], s[k], s[(k + 1) % 3]);
        if sp.abs() <= tol {
            pts.push(p);
        } else if (sp > tol && sq < -tol) || (sp < -tol && sq > tol) {
            pts.push(p + (q - p) * (sp / (sp - sq)));
        }
    }
    let (first, rest) = pts.split_first()?;
    let far = rest.iter().copied().fold(*first, |best, p| {
        if (p - *first).length() > (best - *first).length() {
            p
        } else {
            best
        }
    });
    Some((*first, far))
}

/// The midpoint of the segment two non-parallel closed triangles share, if they meet.
fn tri_tri_midpoint(a: &[V3; 3], b: &[V3; 3], na: V3, nb: V3) -> Option<V3> {
    let (sa0, sa1) = tri_plane(a, nb, nb.dot(b[0]))?;
    let (sb0, sb1) = tri_plane(b, na, na.dot(a[0]))?;
    let dir = na.cross(nb).normalize();
    let (a0, a1) = {
        let (x, y) = (dir.dot(sa0), dir.dot(sa1));
        (x.min(y), x.max(y))
    };
    let (b0, b1) = {
        let (x, y) = (dir.dot(sb0), dir.dot(sb1));
        (x.min(y), x.max(y))
    };
    let (lo, hi) = (a0.max(b0), a1.min(b1));
    let scale = a.iter().chain(b).map(|p| p.length()).fold(1.0, f64::max);
    if lo > hi + 1e-12 * scale {
        return None;
    }
    let mid = (lo + hi) / 2.0;
    // The point on the line at parameter `mid`: from a's segment, interpolated.
    let (p, q, x, y) = (sa0, sa1, dir.dot(sa0), dir.dot(sa1));
    Some(if (y - x).abs() > 0.0 {
        p + (q - p) * ((mid - x) / (y - x))
    } else {
        p
    })
}
