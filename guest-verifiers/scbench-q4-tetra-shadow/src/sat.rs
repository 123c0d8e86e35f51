//! The tetrahedron-pair intersection test: the original's (on its non-rotation, reproduced
//! exactly, in its floating-point steps) and a corrected one (on the rendered vertices).

/// A point or vector in space.
pub type P3 = [f64; 3];

/// The base tetrahedron (edge 1, resting on z = 0), as 4.py and its SCAD module give it.
pub fn base() -> [P3; 4] {
    [
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.5, 3f64.sqrt() / 2.0, 0.0],
        [0.5, 3f64.sqrt() / 6.0, (2.0f64 / 3.0).sqrt()],
    ]
}

/// A tetrahedron's pose as the answer gives it.
#[derive(Clone, Copy, Debug)]
pub struct Pose {
    pub x: f64,
    pub y: f64,
    pub z: f64,
    pub q: [f64; 4],
}

/// `_rotate_by_quaternion`: not a rotation (it maps (1, 0, 0) by a +90° turn about z to
/// (−1, 0, 0) and does not keep lengths); reproduced term by term.
fn buggy_rotate(p: P3, q: [f64; 4]) -> P3 {
    let [px, py, pz] = p;
    let [q0, q1, q2, q3] = q;
    let t0 = 2.0 * (q1 * pz - q3 * px + q2 * py);
    let t1 = 2.0 * (q2 * pz - q1 * py + q3 * px);
    let t2 = 2.0 * (q3 * pz - q2 * px + q1 * py);
    [
        px + q0 * t0 + q2 * t2 - q3 * t1,
        py + q0 * t1 + q3 * t0 - q1 * t2,
        pz + q0 * t2 + q1 * t1 - q2 * t0,
    ]
}

/// `_get_tetrahedron_vertices`: the original's vertices for the intersection test.
pub fn buggy_vertices(t: &Pose) -> [P3; 4] {
    base().map(|v| {
        let r = buggy_rotate(v, t.q);
        [r[0] + t.x, r[1] + t.y, r[2] + t.z]
    })
}

fn sub(a: P3, b: P3) -> P3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn cross(u: P3, v: P3) -> P3 {
    [
        u[1] * v[2] - u[2] * v[1],
        u[2] * v[0] - u[0] * v[2],
        u[0] * v[1] - u[1] * v[0],
    ]
}

fn dot(u: P3, v: P3) -> f64 {
    u[0] * v[0] + u[1] * v[1] + u[2] * v[2]
}

const FACES: [[usize; 3]; 4] = [[0, 2, 1], [0, 1, 3], [1, 2, 3], [2, 0, 3]];
const EDGES: [(usize, usize); 6] = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];

fn project(verts: &[P3; 4], axis: P3) -> (f64, f64) {
    let d = verts.map(|v| dot(v, axis));
    // Python's min()/max(): the first extreme in order (equal values are equal floats).
    let mut lo = d[0];
    let mut hi = d[0];
    for &x in &d[1..] {
        if x < lo {
            lo = x;
        }
        if x > hi {
            hi = x;
        }
    }
    (lo, hi)
}

/// The separating-axis test over face normals and edge-pair cross products. Axes shorter
/// than `degenerate` (squared length) are skipped; `separated(axis, a, b)` judges the two
/// projections (min, max) on an axis.
fn intersect(
    a: &[P3; 4],
    b: &[P3; 4],
    degenerate: f64,
    separated: impl Fn(P3, (f64, f64), (f64, f64)) -> bool,
) -> bool {
    let sep = |axis: P3| {
        if dot(axis, axis).abs() < degenerate {
            return false;
        }
        separated(axis, project(a, axis), project(b, axis))
    };
    let normals = |v: &[P3; 4]| FACES.map(|f| cross(sub(v[f[1]], v[f[0]]), sub(v[f[2]], v[f[0]])));
    for n in normals(a).into_iter().chain(normals(b)) {
        if sep(n) {
            return false;
        }
    }
    let edges = |v: &[P3; 4]| EDGES.map(|(i, j)| sub(v[j], v[i]));
    for ea in edges(a) {
        for eb in edges(b) {
            if sep(cross(ea, eb)) {
                return false;
            }
        }
    }
    true
}

/// `_tetrahedrons_intersect` as the original runs it.
pub fn original_intersect(a: &Pose, b: &Pose) -> bool {
    intersect(
        &buggy_vertices(a),
        &buggy_vertices(b),
        1e-10,
        |_, (min_a, max_a), (min_b, max_b)| max_a < min_b || max_b < min_a,
    )
}

/// The corrected test: the rendered vertices, and solids that only touch (overlap of the
/// projections below 1e-9 of the axis length) do not intersect.
pub fn true_intersect(a: &[P3; 4], b: &[P3; 4]) -> bool {
    intersect(a, b, 1e-20, |axis, (min_a, max_a), (min_b, max_b)| {
        // The tolerance in units of the axis length.
        let tol = 1e-9 * dot(axis, axis).sqrt();
        max_a <= min_b + tol || max_b <= min_a + tol
    })
}

/// The first intersecting pair (i < j), in the original's loop order.
pub fn first_pair(n: usize, test: impl Fn(usize, usize) -> bool) -> Option<(usize, usize)> {
    for i in 0..n {
        for j in i + 1..n {
            if test(i, j) {
                return Some((i, j));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_original_rotation_is_not_a_rotation() {
        // +90° about z: q0 = cos 45°, q3 = sin 45°. A rotation maps (1, 0, 0) to (0, 1, 0).
        let h = 0.5f64.sqrt();
        let r = buggy_rotate([1.0, 0.0, 0.0], [h, 0.0, 0.0, h]);
        assert!(
            (r[0] + 1.0).abs() < 1e-15 && r[1].abs() < 1e-15 && r[2] == 0.0,
            "{r:?}"
        );
        // 180° about x (q1 = 1): (0, 1, 0) should go to (0, −1, 0); the formula gives (0, −1, −2).
        let r = buggy_rotate([0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 0.0]);
        assert_eq!(r, [0.0, -1.0, -2.0]);
    }

    #[test]
    fn separated_and_touching_pairs() {
        let id = |x: f64| Pose {
            x,
            y: 0.0,
            z: 0.0,
            q: [1.0, 0.0, 0.0, 0.0],
        };
        // The identity is unchanged by the formula; side by side at distance 1 they touch at
        // one vertex, which the strict `<` counts as intersecting.
        assert!(original_intersect(&id(0.0), &id(1.0)));
        assert!(!original_intersect(&id(0.0), &id(1.0 + 1e-9)));
        assert!(!true_intersect(
            &buggy_vertices(&id(0.0)),
            &buggy_vertices(&id(1.0))
        ));
        assert!(true_intersect(
            &buggy_vertices(&id(0.0)),
            &buggy_vertices(&id(0.5))
        ));
        assert_eq!(first_pair(4, |i, j| i == 1 && j == 3), Some((1, 3)));
    }
}
