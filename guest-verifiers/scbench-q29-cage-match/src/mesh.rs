//! Triangle meshes as trimesh holds them after `trimesh.load` (`process=True`): faces with a
//! non-finite vertex removed, vertices merged when they agree to 8 decimals, faces kept as
//! given (degenerate ones too, `validate=False`); and the properties the original reads from
//! them (normals, areas, volume, watertightness, winding, bodies, facets).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, DefaultHasher};

use nalgebra::Matrix4;
use parry3d_f64::math::Vector as V3;

use crate::stl::Tri;

/// A hash map with a fixed hasher: the same work (and fuel) on every run.
pub type Map<K, V> = HashMap<K, V, BuildHasherDefault<DefaultHasher>>;

/// An indexed triangle mesh.
#[derive(Clone, Debug, Default)]
pub struct Mesh {
    pub v: Vec<V3>,
    pub f: Vec<[u32; 3]>,
}

/// trimesh's `float_to_int` key for merging: round(x·10⁸ − 10⁻⁶), ties to even.
fn key(x: f64) -> i64 {
    (x * 1e8 - 1e-6).round_ties_even() as i64
}

impl Mesh {
    /// The mesh trimesh builds from an STL's triangles.
    pub fn from_triangles(tris: &[Tri]) -> Mesh {
        let mut index: Map<[i64; 3], u32> = Map::default();
        let mut mesh = Mesh::default();
        for t in tris {
            if t.iter().flatten().any(|c| !c.is_finite()) {
                continue;
            }
            let mut face = [0u32; 3];
            for (slot, p) in face.iter_mut().zip(t) {
                let k = [key(p[0]), key(p[1]), key(p[2])];
                *slot = *index.entry(k).or_insert_with(|| {
                    mesh.v.push(V3::new(p[0], p[1], p[2]));
                    (mesh.v.len() - 1) as u32
                });
            }
            mesh.f.push(face);
        }
        mesh
    }

    pub fn is_empty(&self) -> bool {
        self.f.is_empty()
    }

    /// The corners of face `i`.
    pub fn tri(&self, i: usize) -> [V3; 3] {
        self.f[i].map(|k| self.v[k as usize])
    }

    /// Unit face normals from the winding (zero for degenerate faces), as trimesh computes them.
    pub fn normals(&self) -> Vec<V3> {
        (0..self.f.len())
            .map(|i| {
                let [a, b, c] = self.tri(i);
                let n = (b - a).cross(c - a);
                let len = n.length();
                if len > 1e-12 { n / len } else { V3::ZERO }
            })
            .collect()
    }

    pub fn areas(&self) -> Vec<f64> {
        (0..self.f.len())
            .map(|i| {
                let [a, b, c] = self.tri(i);
                (b - a).cross(c - a).length() / 2.0
            })
            .collect()
    }

    /// Face centres, `(a + b + c) / 3` as numpy's mean.
    pub fn centers(&self) -> Vec<V3> {
        (0..self.f.len())
            .map(|i| {
                let [a, b, c] = self.tri(i);
                (a + b + c) / 3.0
            })
            .collect()
    }

    /// Signed volume (positive for outward-wound closed meshes).
    pub fn signed_volume(&self) -> f64 {
        (0..self.f.len())
            .map(|i| {
                let [a, b, c] = self.tri(i);
                a.dot(b.cross(c))
            })
            .sum::<f64>()
            / 6.0
    }

    /// `(min, max)` corners over the vertices; `None` when empty.
    pub fn bounds(&self) -> Option<(V3, V3)> {
        let first = *self.v.first()?;
        Some(
            self.v
                .iter()
                .fold((first, first), |(lo, hi), p| (lo.min(*p), hi.max(*p))),
        )
    }

    /// trimesh's `is_watertight` and `is_winding_consistent`: every edge is used by exactly
    /// two faces, and every edge used twice is traversed once each way. Both are false for
    /// an empty mesh.
    pub fn watertight_winding(&self) -> (bool, bool) {
        if self.is_empty() {
            return (false, false);
        }
        let mut uses: Map<(u32, u32), Vec<(u32, u32)>> = Map::default();
        for f in &self.f {
            for (a, b) in [(f[0], f[1]), (f[1], f[2]), (f[2], f[0])] {
                uses.entry((a.min(b), a.max(b))).or_default().push((a, b));
            }
        }
        let pairs: Vec<&Vec<(u32, u32)>> = uses.values().filter(|u| u.len() == 2).collect();
        let watertight = pairs.len() * 2 == self.f.len() * 3;
        let winding = pairs.iter().all(|u| u[0].1 == u[1].0);
        (watertight, winding)
    }

    /// trimesh's `body_count`: connected components of the vertex-edge graph.
    pub fn body_count(&self) -> usize {
        let mut parent: Vec<u32> = (0..self.v.len() as u32).collect();
        fn root(parent: &mut [u32], mut x: u32) -> u32 {
            while parent[x as usize] != x {
                parent[x as usize] = parent[parent[x as usize] as usize];
                x = parent[x as usize];
            }
            x
        }
        for f in &self.f {
            for (a, b) in [(f[0], f[1]), (f[1], f[2])] {
                let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
                if ra != rb {
                    parent[ra as usize] = rb;
                }
            }
        }
        (0..self.v.len() as u32)
            .filter(|&x| root(&mut parent, x) == x)
            .count()
    }

    /// trimesh's `facets`: groups of at least two faces joined by shared edges (edges used by
    /// exactly two faces) whose normals are "parallel" by trimesh's radius test
    /// (`(radius / span)² > 5000` with `radius = span / |2 sin θ|`, infinite for θ ≤ 0.01°),
    /// each group's faces in ascending index order (the original's order is numpy's argsort
    /// of component labels, which is not stable; it matters only for facets of more than five
    /// faces). Components are listed by their smallest face.
    pub fn facets(&self, normals: &[V3]) -> Vec<Vec<usize>> {
        let mut uses: Map<(u32, u32), Vec<usize>> = Map::default();
        for (i, f) in self.f.iter().enumerate() {
            for (a, b) in [(f[0], f[1]), (f[1], f[2]), (f[2], f[0])] {
                uses.entry((a.min(b), a.max(b))).or_default().push(i);
            }
        }
        let mut parent: Vec<usize> = (0..self.f.len()).collect();
        fn root(parent: &mut [usize], mut x: usize) -> usize {
            while parent[x] != x {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            x
        }
        let mut edges: Vec<(&(u32, u32), &Vec<usize>)> =
            uses.iter().filter(|(_, f)| f.len() == 2).collect();
        edges.sort();
        for (&(a, b), faces) in edges {
            let (f1, f2) = (faces[0], faces[1]);
            if self.parallel(normals, f1, f2, a, b) {
                let (r1, r2) = (root(&mut parent, f1), root(&mut parent, f2));
                if r1 != r2 {
                    parent[r1.max(r2)] = r1.min(r2);
                }
            }
        }
        let mut groups: Map<usize, Vec<usize>> = Map::default();
        for i in 0..self.f.len() {
            let r = root(&mut parent, i);
            groups.entry(r).or_default().push(i);
        }
        let mut out: Vec<Vec<usize>> = groups.into_values().filter(|g| g.len() >= 2).collect();
        out.sort_by_key(|g| g[0]);
        out
    }

    /// trimesh's facet test for faces `f1`, `f2` sharing the edge `a`–`b`.
    fn parallel(&self, normals: &[V3], f1: usize, f2: usize, a: u32, b: u32) -> bool {
        let unshared = |f: usize| {
            let face = self.f[f];
            face.into_iter().find(|&k| k != a && k != b)
        };
        let (Some(u1), Some(u2)) = (unshared(f1), unshared(f2)) else {
            return true;
        };
        let (pa, pb) = (self.v[a as usize], self.v[b as usize]);
        let edge = pb - pa;
        let edge = if edge.length() > 0.0 {
            edge / edge.length()
        } else {
            edge
        };
        let vector = self.v[u2 as usize] - self.v[u1 as usize];
        let span = (vector - edge * vector.dot(edge)).length();
        if span.abs() <= 1e-12 {
            return true;
        }
        let angle = normals[f1].dot(normals[f2]).clamp(-1.0, 1.0).acos();
        if angle <= 0.01f64.to_radians() {
            return true;
        }
        let radius = span / (2.0 * angle.sin()).abs();
        (radius / span).powi(2) > 5000.0
    }

    /// The mesh as OpenSCAD's `multmatrix` places it: the top three rows of the row-major 4×4
    /// matrix applied to every vertex; a mirroring matrix (negative determinant) reverses
    /// every face so the solid stays outward-wound, and a singular one removes the object
    /// (OpenSCAD: "Scaling a 3D object with 0 - removing object").
    pub fn posed(&self, m: &Matrix4<f64>) -> Mesh {
        let det = m.fixed_view::<3, 3>(0, 0).determinant();
        if det == 0.0 || !det.is_finite() {
            return Mesh::default();
        }
        let v = self
            .v
            .iter()
            .map(|p| {
                let row =
                    |r: usize| m[(r, 0)] * p.x + m[(r, 1)] * p.y + m[(r, 2)] * p.z + m[(r, 3)];
                V3::new(row(0), row(1), row(2))
            })
            .collect();
        let f = if det < 0.0 {
            self.f.iter().map(|f| [f[0], f[2], f[1]]).collect()
        } else {
            self.f.clone()
        };
        Mesh { v, f }
    }
}
