//! `earlyFailTest` and `lateFailTest` of `2.py`: the structural checks, in the original's
//! order, arithmetic and messages.

use std::collections::HashSet;

pub use verigate_sdk::harness::Stop;
use verigate_sdk::python::{Value, coerce};

/// A brick read from the answer.
#[derive(Clone, Debug)]
pub struct Brick {
    /// The brick as stored (for the messages, which print its `repr`).
    pub value: Value,
    pub x: f64,
    pub y: f64,
    pub z: f64,
    pub rot: f64,
    /// Whether OpenSCAD reads the centroid, resp. the rotation, as numbers: Python writes
    /// `True`, `nan`, `inf` into the SCAD text, names OpenSCAD does not know, and the
    /// `translate` (resp. `rotate`) is then ignored.
    pub scad_translate: bool,
    pub scad_rotate: bool,
    /// An int too large for a float somewhere (Python raises on the float arithmetic).
    pub huge: bool,
}

/// A number as Python holds it: its float value and whether it is an int too large for a
/// float (`bool` counts as an int).
fn number(v: &Value) -> Option<(f64, bool)> {
    let f = coerce::real(v)?;
    Some((f, v.as_bigint().is_some() && !f.is_finite()))
}

fn scad_number(v: &Value) -> bool {
    v.as_bool().is_none() && coerce::real(v).is_some_and(f64::is_finite)
}

/// Python's `round(x, n)` for a float (exact decimal rounding, ties to even).
pub struct Rounder(Value);

impl Rounder {
    pub fn new() -> Rounder {
        Rounder(verigate_sdk::python::eval("round").unwrap_or_else(|_| Value::none()))
    }

    pub fn round(&self, x: f64, digits: i64) -> f64 {
        if !x.is_finite() {
            return x;
        }
        self.0
            .call(&[Value::from(x), Value::from(digits)])
            .ok()
            .and_then(|v| v.as_f64())
            .unwrap_or(x)
    }
}

/// Python's `x % m` for floats (the result takes the sign of `m`).
pub fn py_mod(x: f64, m: f64) -> f64 {
    let r = x % m;
    if r != 0.0 {
        if (m < 0.0) != (r < 0.0) { r + m } else { r }
    } else {
        0.0f64.copysign(m)
    }
}

/// `earlyFailTest`: the bricks, or why they fail. `rotated` tests the rotated corners
/// against the spheres (the corrected judgement) instead of the original's unrotated ones.
pub fn early(
    bricks: &[Value],
    inner: f64,
    outer: f64,
    rotated: bool,
    rounder: &Rounder,
) -> Result<Vec<Brick>, Stop> {
    let (inner2, outer2) = (inner * inner, outer * outer);
    if bricks.is_empty() {
        return Err(Stop::Zero("No bricks provided".into()));
    }
    let mut out = Vec::with_capacity(bricks.len());
    for (i, brick) in bricks.iter().enumerate() {
        let raise =
            |what: &str| Stop::Raise(format!("brick {i} {what}: {}", brick.repr_short(100)));
        let centroid = brick
            .as_dict()
            .and_then(|d| d.get("Centroid"))
            .ok_or_else(|| raise("has no 'Centroid'"))?;
        let c = centroid
            .as_sequence()
            .filter(|c| c.len() == 3)
            .ok_or_else(|| raise("has a Centroid that is not three numbers"))?;
        let (cz, cz_huge) = number(&c[2]).ok_or_else(|| raise("has a non-numeric z"))?;
        if cz_huge {
            return Err(raise("has a z too large for a float"));
        }
        let layer = (cz - 4.8) / 9.6;
        if !layer.is_finite() {
            return Err(raise("has a z that round() cannot take"));
        }
        if (layer - layer.round_ties_even()).abs() > 0.1 {
            return Err(Stop::Zero(format!(
                "Brick {brick} Z={} not at valid layer height (should be 4.8 + n*9.6)",
                c[2]
            )));
        }
        if cz < 4.8 - 0.1 {
            return Err(Stop::Zero(format!(
                "A brick {brick} below ground is invalid"
            )));
        }
        let (cx, x_huge) = number(&c[0]).ok_or_else(|| raise("has a non-numeric x"))?;
        let (cy, y_huge) = number(&c[1]).ok_or_else(|| raise("has a non-numeric y"))?;
        let rot_value = brick.as_dict().and_then(|d| d.get("RotationDegrees"));
        let rot = rot_value.and_then(number);
        let corners: Vec<[f64; 3]> = if rotated {
            let r = rot.map_or(0.0, |r| r.0).to_radians();
            corners_xy(cx, cy, r)
                .iter()
                .flat_map(|&[x, y]| [[x, y, cz - 4.8], [x, y, cz + 4.8]])
                .collect()
        } else {
            [(-16.0, -8.0), (16.0, -8.0), (16.0, 8.0), (-16.0, 8.0)]
                .iter()
                .flat_map(|&(dx, dy)| [[cx + dx, cy + dy, cz - 4.8], [cx + dx, cy + dy, cz + 4.8]])
                .collect()
        };
        let r2 = |p: &[f64; 3]| p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
        if corners.iter().all(|p| r2(p) < inner2) {
            return Err(Stop::Zero(format!(
                "A brick {brick} wholly inside the inner sphere is redundant"
            )));
        }
        if corners.iter().all(|p| r2(p) > outer2) {
            return Err(Stop::Zero(format!(
                "A brick {brick} wholly outside the outer sphere is a waste"
            )));
        }
        out.push(Brick {
            value: brick.clone(),
            x: cx,
            y: cy,
            z: cz,
            rot: f64::NAN,
            scad_translate: c.iter().all(scad_number),
            scad_rotate: false,
            huge: x_huge || y_huge,
        });
    }
    let mut seen: HashSet<[u64; 4]> = HashSet::new();
    for (i, b) in out.iter_mut().enumerate() {
        let rot_value = b
            .value
            .as_dict()
            .and_then(|d| d.get("RotationDegrees"))
            .ok_or_else(|| Stop::Raise(format!("brick {i} has no 'RotationDegrees'")))?;
        let (rot, huge) = number(rot_value).ok_or_else(|| {
            Stop::Raise(format!(
                "brick {i} has a non-numeric RotationDegrees {}",
                rot_value.repr_short(40)
            ))
        })?;
        b.rot = rot;
        b.huge |= huge;
        b.scad_rotate = scad_number(rot_value);
        let key = [
            rounder.round(b.x, 1),
            rounder.round(b.y, 1),
            rounder.round(b.z, 1),
            py_mod(rot, 180.0).round_ties_even(),
        ];
        if key.iter().any(|k| k.is_nan()) {
            continue;
        }
        if !seen.insert(key.map(|k| (k + 0.0).to_bits())) {
            return Err(Stop::Zero(format!("Duplicate brick at {}", b.value)));
        }
    }
    Ok(out)
}

/// The four XY corners of a brick rotated by `r` radians (the original's order).
fn corners_xy(cx: f64, cy: f64, r: f64) -> [[f64; 2]; 4] {
    let (c, s) = (r.cos(), r.sin());
    [(-16.0, -8.0), (16.0, -8.0), (16.0, 8.0), (-16.0, 8.0)].map(|(dx, dy)| {
        let rx = dx * c - dy * s;
        let ry = dx * s + dy * c;
        [cx + rx, cy + ry]
    })
}

impl Brick {
    fn corners(&self) -> [[f64; 2]; 4] {
        corners_xy(self.x, self.y, self.rot.to_radians())
    }

    /// `(min x, max x, min y, max y, min z, max z)` of the rotated brick.
    fn aabb(&self) -> [f64; 6] {
        let c = self.corners();
        let xs = c.map(|p| p[0]);
        let ys = c.map(|p| p[1]);
        let min = |v: [f64; 4]| {
            v.into_iter()
                .fold(f64::INFINITY, |a, b| if b < a { b } else { a })
        };
        let max = |v: [f64; 4]| {
            v.into_iter()
                .fold(f64::NEG_INFINITY, |a, b| if b > a { b } else { a })
        };
        [
            min(xs),
            max(xs),
            min(ys),
            max(ys),
            self.z - 4.8,
            self.z + 4.8,
        ]
    }

    /// `_get_stud_grid_key`: where the stud at local (−12, −4) falls, mod 8, to 0.01.
    fn stud_key(&self, rounder: &Rounder) -> (f64, f64) {
        let r = self.rot.to_radians();
        let (c, s) = (r.cos(), r.sin());
        let gx = self.x + -12.0 * c - -4.0 * s;
        let gy = self.y + -12.0 * s + -4.0 * c;
        (
            rounder.round(py_mod(gx, 8.0), 2),
            rounder.round(py_mod(gy, 8.0), 2),
        )
    }

    fn layer(&self) -> i64 {
        ((self.z - 4.8) / 9.6).round_ties_even() as i64
    }
}

fn xy_overlap(a: &[f64; 6], b: &[f64; 6]) -> bool {
    a[0] < b[1] && a[1] > b[0] && a[2] < b[3] && a[3] > b[2]
}

/// `_boxes_support(upper, lower)`.
fn supports(upper: &[f64; 6], lower: &[f64; 6]) -> bool {
    (upper[4] - lower[5]).abs() < 0.5 && xy_overlap(upper, lower)
}

fn keys_match(k1: (f64, f64), k2: (f64, f64)) -> bool {
    let close = |a: f64, b: f64| {
        let d = (a - b).abs();
        d.min(8.0 - d) < 0.5
    };
    (close(k1.0, k2.0) && close(k1.1, k2.1)) || (close(k1.0, k2.1) && close(k1.1, k2.0))
}

/// Python's repr of a float pair.
fn pair(k: (f64, f64)) -> String {
    format!("({}, {})", Value::from(k.0), Value::from(k.1))
}

/// The connected components (touching layers, overlapping footprints), ordered by their
/// smallest brick, each in ascending order — the order `_find_connected_components` gives.
fn components(bounds: &[[f64; 6]]) -> Vec<Vec<usize>> {
    let n = bounds.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    // Only bricks whose bottom is within 0.5 of another's top can touch.
    let mut by_bottom: Vec<usize> = (0..n).collect();
    by_bottom.sort_by(|&a, &b| bounds[a][4].total_cmp(&bounds[b][4]));
    for i in 0..n {
        let top = bounds[i][5];
        let start = by_bottom.partition_point(|&j| bounds[j][4] <= top - 0.5);
        for &j in by_bottom[start..]
            .iter()
            .take_while(|&&j| bounds[j][4] < top + 0.5)
        {
            if (bounds[j][4] - top).abs() < 0.5 && xy_overlap(&bounds[i], &bounds[j]) {
                let (a, b) = (find(&mut parent, i), find(&mut parent, j));
                if a != b {
                    parent[a] = b;
                }
            }
        }
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut slot: Vec<Option<usize>> = vec![None; n];
    for i in 0..n {
        let root = find(&mut parent, i);
        match slot[root] {
            Some(g) => groups[g].push(i),
            None => {
                slot[root] = Some(groups.len());
                groups.push(vec![i]);
            }
        }
    }
    groups
}

/// Andrew's monotone chain as `_convex_hull` does it (collinear points dropped).
fn convex_hull(mut points: Vec<[f64; 2]>) -> Vec<[f64; 2]> {
    points.sort_by(|a, b| a[0].total_cmp(&b[0]).then(a[1].total_cmp(&b[1])));
    points.dedup_by(|a, b| a[0] == b[0] && a[1] == b[1]);
    if points.len() <= 1 {
        return points;
    }
    let cross = |o: [f64; 2], a: [f64; 2], b: [f64; 2]| {
        (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    };
    let mut lower: Vec<[f64; 2]> = Vec::new();
    for &p in &points {
        while lower.len() >= 2 && cross(lower[lower.len() - 2], lower[lower.len() - 1], p) <= 0.0 {
            lower.pop();
        }
        lower.push(p);
    }
    let mut upper: Vec<[f64; 2]> = Vec::new();
    for &p in points.iter().rev() {
        while upper.len() >= 2 && cross(upper[upper.len() - 2], upper[upper.len() - 1], p) <= 0.0 {
            upper.pop();
        }
        upper.push(p);
    }
    lower.pop();
    upper.pop();
    lower.extend(upper);
    lower
}

fn inside_convex(p: [f64; 2], hull: &[[f64; 2]]) -> bool {
    if hull.len() < 3 {
        return false;
    }
    (0..hull.len()).all(|i| {
        let (a, b) = (hull[i], hull[(i + 1) % hull.len()]);
        (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) >= -0.01
    })
}

/// `_check_component_stability`.
fn stability(component: &[usize], bricks: &[Brick]) -> Option<String> {
    if component.len() == 1 {
        return None;
    }
    let ground: Vec<usize> = component
        .iter()
        .copied()
        .filter(|&i| bricks[i].layer() == 0)
        .collect();
    if ground.is_empty() {
        return None;
    }
    let hull = convex_hull(ground.iter().flat_map(|&i| bricks[i].corners()).collect());
    if hull.len() < 3 {
        return None;
    }
    let (mut sx, mut sy) = (0.0, 0.0);
    for &i in component {
        sx += bricks[i].x;
        sy += bricks[i].y;
    }
    let com = [sx / component.len() as f64, sy / component.len() as f64];
    (!inside_convex(com, &hull)).then(|| {
        format!(
            "Structure unstable: center of mass ({:.1}, {:.1}) is outside support polygon of ground bricks",
            com[0], com[1]
        )
    })
}

/// `lateFailTest`: `None` when the structure passes.
pub fn late(bricks: &[Brick], rounder: &Rounder) -> Result<Option<String>, Stop> {
    if let Some(i) = bricks.iter().position(|b| b.huge) {
        return Err(Stop::Raise(format!(
            "brick {i} holds an int too large for a float"
        )));
    }
    let bounds: Vec<[f64; 6]> = bricks.iter().map(Brick::aabb).collect();
    let groups = components(&bounds);
    let keys: Vec<(f64, f64)> = bricks.iter().map(|b| b.stud_key(rounder)).collect();
    for group in &groups {
        for (a, &i) in group.iter().enumerate() {
            for &j in &group[a + 1..] {
                let (b1, b2) = (&bricks[i], &bricks[j]);
                if (b1.x - b2.x).abs() < 0.5 && (b1.y - b2.y).abs() < 0.5 {
                    let rel = py_mod((b1.rot - b2.rot).abs(), 90.0);
                    // Not `!(1.0..=89.0).contains(..)`: a NaN must fail, as in Python.
                    #[allow(clippy::manual_range_contains)]
                    if rel < 1.0 || rel > 89.0 {
                        continue;
                    }
                    return Ok(Some(format!(
                        "Stud grid misalignment: bricks at same center but {:.1}° relative rotation",
                        (b1.rot - b2.rot).abs()
                    )));
                }
                if !keys_match(keys[i], keys[j]) {
                    return Ok(Some(format!(
                        "Stud grid misalignment in connected component: brick {} grid {} vs brick {} grid {}",
                        b1.value,
                        pair(keys[i]),
                        b2.value,
                        pair(keys[j])
                    )));
                }
            }
        }
    }
    for group in &groups {
        if let Some(why) = stability(group, bricks) {
            return Ok(Some(why));
        }
    }
    // Layers in order of first appearance, bricks in index order.
    let mut layers: Vec<(i64, Vec<usize>)> = Vec::new();
    for (i, b) in bricks.iter().enumerate() {
        let l = b.layer();
        match layers.iter_mut().find(|(k, _)| *k == l) {
            Some((_, v)) => v.push(i),
            None => layers.push((l, vec![i])),
        }
    }
    let members = |l: i64| {
        layers
            .iter()
            .find(|(k, _)| *k == l)
            .map(|(_, v)| v.as_slice())
    };
    let mut sorted: Vec<i64> = layers.iter().map(|(k, _)| *k).collect();
    sorted.sort_unstable();
    let mut supported = vec![false; bricks.len()];
    for &l in &sorted {
        let here = members(l).unwrap_or(&[]);
        if l == 0 {
            for &i in here {
                supported[i] = true;
            }
            continue;
        }
        if let Some(below) = members(l - 1) {
            for &i in here {
                if below
                    .iter()
                    .any(|&j| supported[j] && supports(&bounds[i], &bounds[j]))
                {
                    supported[i] = true;
                }
            }
        }
    }
    let mut changed = true;
    while changed {
        changed = false;
        for &l in sorted.iter().rev() {
            let Some(above) = members(l + 1) else {
                continue;
            };
            for &i in members(l).unwrap_or(&[]) {
                if supported[i] {
                    continue;
                }
                if above
                    .iter()
                    .any(|&j| supported[j] && supports(&bounds[j], &bounds[i]))
                {
                    supported[i] = true;
                    changed = true;
                }
            }
        }
    }
    for (_, members) in &layers {
        if let Some(&i) = members.iter().find(|&&i| !supported[i]) {
            return Ok(Some(format!(
                "Brick {} is floating (not supported from below or held from above)",
                bricks[i].value
            )));
        }
    }
    Ok(None)
}
