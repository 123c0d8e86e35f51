//! A self-intersection count for details (the original never checks this; OpenSCAD/CGAL then
//! either copes or fails). Fan triangles of different faces that share no vertex are tested for
//! an edge of one crossing the interior of the other (coplanar overlaps are not counted).

use crate::geom::{P3, cross, dot, sub};

fn orient(a: P3, b: P3, c: P3, d: P3) -> f64 {
    dot(cross(sub(b, a), sub(c, a)), sub(d, a))
}

/// Whether segment pq crosses triangle abc properly (not just touching).
fn segment_crosses(p: P3, q: P3, t: &[P3; 3]) -> bool {
    let eps = 1e-9;
    let sp = orient(t[0], t[1], t[2], p);
    let sq = orient(t[0], t[1], t[2], q);
    if (sp > eps && sq > eps) || (sp < -eps && sq < -eps) || (sp.abs() <= eps && sq.abs() <= eps) {
        return false;
    }
    let s1 = orient(p, q, t[0], t[1]);
    let s2 = orient(p, q, t[1], t[2]);
    let s3 = orient(p, q, t[2], t[0]);
    (s1 > eps && s2 > eps && s3 > eps) || (s1 < -eps && s2 < -eps && s3 < -eps)
}

/// The number of intersecting triangle pairs, counting up to `cap`.
pub fn count(vertices: &[P3], faces: &[Vec<usize>], cap: usize) -> usize {
    struct T {
        face: usize,
        idx: [usize; 3],
        p: [P3; 3],
        lo: P3,
        hi: P3,
    }
    let mut tris = Vec::new();
    for (fi, face) in faces.iter().enumerate() {
        for k in 1..face.len() - 1 {
            let idx = [face[0], face[k], face[k + 1]];
            let p = idx.map(|i| vertices[i]);
            let lo = [0, 1, 2].map(|a| p[0][a].min(p[1][a]).min(p[2][a]));
            let hi = [0, 1, 2].map(|a| p[0][a].max(p[1][a]).max(p[2][a]));
            tris.push(T {
                face: fi,
                idx,
                p,
                lo,
                hi,
            });
        }
    }
    tris.sort_by(|a, b| a.lo[0].total_cmp(&b.lo[0]));
    let mut found = 0;
    for i in 0..tris.len() {
        for j in i + 1..tris.len() {
            let (a, b) = (&tris[i], &tris[j]);
            if b.lo[0] > a.hi[0] {
                break;
            }
            if a.face == b.face
                || (1..3).any(|k| b.lo[k] > a.hi[k] || a.lo[k] > b.hi[k])
                || a.idx.iter().any(|v| b.idx.contains(v))
            {
                continue;
            }
            let hit = (0..3).any(|e| segment_crosses(a.p[e], a.p[(e + 1) % 3], &b.p))
                || (0..3).any(|e| segment_crosses(b.p[e], b.p[(e + 1) % 3], &a.p));
            if hit {
                found += 1;
                if found >= cap {
                    return found;
                }
            }
        }
    }
    found
}
