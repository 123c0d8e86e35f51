//! VisGeomBench's `verify_two_segments(model_output, record, return_diff=True)`.

use crate::arrangement::{P, polygons};
use crate::pyfloat::{isclose, number, round, tolerance};
use verigate_sdk::py_strip;
use verigate_sdk::python::Value;
use verigate_sdk::python::literal::{Literal, literal_eval};

/// The record's `datagen_args`, as the verifier reads them.
pub struct Instance {
    /// Shape name → count, in the record's key order (the explanation prints
    /// the dict in that order).
    pub counts: Vec<(String, i64)>,
    pub snap_decimals: u32,
    pub coordinate_grid: Option<Vec<f64>>,
    pub corners: Option<Vec<[f64; 2]>>,
    /// `repr(corners)` (`None` when absent), for the explanation.
    pub corners_repr: String,
}

impl Instance {
    /// From `instance.json` read as Python reads it (exact floats, key order kept).
    pub fn from_value(v: &Value) -> Result<Instance, String> {
        let d = v.as_dict().ok_or("instance.json is not an object")?;
        let float = |x: &Value| {
            number(x)
                .and_then(Result::ok)
                .ok_or(format!("{x} is not a number"))
        };
        let counts = d
            .get("counts")
            .and_then(|c| c.as_dict())
            .ok_or("instance.json has no counts object")?
            .iter()
            .map(|(k, n)| {
                Ok((
                    k.as_str().ok_or("a shape name is not a string")?.to_owned(),
                    n.as_i64().ok_or("a count is not an int")?,
                ))
            })
            .collect::<Result<Vec<_>, String>>()?;
        let snap_decimals = match d.get("snap_decimals") {
            Some(n) => n
                .as_i64()
                .and_then(|n| u32::try_from(n).ok())
                .ok_or("snap_decimals is not a small int")?,
            None => 2,
        };
        let coordinate_grid = match d.get("coordinate_grid").filter(|g| !g.is_none()) {
            Some(g) => Some(
                g.as_sequence()
                    .ok_or("coordinate_grid is not a list")?
                    .iter()
                    .map(float)
                    .collect::<Result<_, _>>()?,
            ),
            None => None,
        };
        let corners_value = d.get("corners").filter(|c| !c.is_none());
        let corners = match corners_value {
            Some(c) => Some(
                c.as_sequence()
                    .ok_or("corners is not a list")?
                    .iter()
                    .map(|p| match p.as_sequence() {
                        Some([x, y]) => Ok([float(x)?, float(y)?]),
                        _ => Err(format!("corner {p} is not a pair")),
                    })
                    .collect::<Result<_, String>>()?,
            ),
            None => None,
        };
        Ok(Instance {
            counts,
            snap_decimals,
            coordinate_grid,
            corners,
            corners_repr: corners_value.map_or("None".to_owned(), |c| c.to_string()),
        })
    }
}

/// The verifier's diff: `passed`, `errors` and what the explanation prints.
pub struct Diff {
    pub passed: bool,
    pub errors: Vec<&'static str>,
    /// `details.raw_output` (parse failures) or the counts (everything else).
    pub raw_output: Option<String>,
    pub observed: Vec<(String, i64)>,
    /// Vertex count of each polygon after the clean-up, in shapely's order.
    pub faces: Vec<usize>,
    /// What failed, in words.
    pub reason: String,
}

type Segment = (P, P);

/// `_to_point`: `Ok(None)` where it returns None, `Err` where `float()` raises.
fn to_point(v: &Value) -> Result<Option<P>, String> {
    let Some([x, y]) = v
        .as_sequence()
        .map(|s| s.to_vec())
        .and_then(|s| <[Value; 2]>::try_from(s).ok())
    else {
        return Ok(None);
    };
    let (Some(fx), Some(fy)) = (number(&x), number(&y)) else {
        return Ok(None);
    };
    Ok(Some((fx?, fy?)))
}

/// `parse_model_output_two_segments`: the two segments, or why it returns None.
fn parse(raw: &str) -> Result<Result<Vec<Segment>, String>, String> {
    let parsed = match literal_eval(py_strip(raw)) {
        Literal::Value(v) => v,
        Literal::Invalid => return Ok(Err("the answer is not a Python literal".into())),
        Literal::Raises(why) => return Err(why),
    };
    let Some(items) = parsed.as_list() else {
        return Ok(Err(format!(
            "the answer is a {}, not a list",
            parsed.type_name()
        )));
    };
    let mut segments = Vec::new();
    for (n, item) in items.iter().enumerate() {
        let pair = item.as_sequence().filter(|p| p.len() == 2);
        let segment = match pair {
            Some(pair) => {
                let p0 = to_point(&pair[0])?;
                let p1 = to_point(&pair[1])?;
                p0.zip(p1)
            }
            None => None,
        };
        match segment {
            Some(s) => segments.push(s),
            None => {
                return Ok(Err(format!(
                    "item {} {} is not a pair of [x, y] points with numeric coordinates",
                    n + 1,
                    item.repr_short(60)
                )));
            }
        }
    }
    if segments.len() != 2 {
        return Ok(Err(format!(
            "the list has {} segments, not 2",
            segments.len()
        )));
    }
    Ok(Ok(segments))
}

/// The affine map to the unit square via corners 0, 1 and 3 (`_prepare_unit_mapping`).
fn mapping(corners: Option<&[[f64; 2]]>) -> Result<(P, P, P, f64), String> {
    let Some(c) = corners.filter(|c| !c.is_empty()) else {
        return Ok(((0.0, 0.0), (1.0, 0.0), (0.0, 1.0), 1.0));
    };
    if c.len() != 4 {
        return Err("ValueError: corners must contain exactly four points".into());
    }
    let u = (c[1][0] - c[0][0], c[1][1] - c[0][1]);
    let v = (c[3][0] - c[0][0], c[3][1] - c[0][1]);
    let det = u.0 * v.1 - u.1 * v.0;
    if det.abs() < 1e-12 {
        return Err("ValueError: corners define a degenerate square".into());
    }
    Ok(((c[0][0], c[0][1]), u, v, 1.0 / det))
}

fn to_unit(p: P, m: &(P, P, P, f64)) -> P {
    let (origin, u, v, inv) = *m;
    let dx = p.0 - origin.0;
    let dy = p.1 - origin.1;
    ((dx * v.1 - dy * v.0) * inv, (u.0 * dy - u.1 * dx) * inv)
}

fn on_boundary(p: P, tol: f64) -> bool {
    isclose(p.0, 0.0, tol)
        || isclose(p.0, 1.0, tol)
        || isclose(p.1, 0.0, tol)
        || isclose(p.1, 1.0, tol)
}

fn along_edge(p0: P, p1: P, tol: f64) -> bool {
    let same_x = isclose(p0.0, p1.0, tol);
    let same_y = isclose(p0.1, p1.1, tol);
    (same_x && (isclose(p0.0, 0.0, tol) || isclose(p0.0, 1.0, tol)))
        || (same_y && (isclose(p0.1, 0.0, tol) || isclose(p0.1, 1.0, tol)))
}

pub fn fmt_point(p: P) -> String {
    format!("({}, {})", Value::from(p.0), Value::from(p.1))
}

/// `_normalise_segments`: the mapped segments, or the error and why.
fn normalise(
    segments: &[Segment],
    inst: &Instance,
    m: &(P, P, P, f64),
    tol: f64,
) -> Result<Vec<Segment>, (&'static str, String)> {
    let grid = inst.coordinate_grid.as_deref().filter(|g| !g.is_empty());
    let mut out = Vec::new();
    for (n, &(a, b)) in segments.iter().enumerate() {
        let what = format!("segment {} {}->{}", n + 1, fmt_point(a), fmt_point(b));
        let mapped = [to_unit(a, m), to_unit(b, m)];
        if isclose(mapped[0].0, mapped[1].0, tol) && isclose(mapped[0].1, mapped[1].1, tol) {
            return Err((
                "degenerate_segment",
                format!(
                    "{what} is degenerate: its ends coincide within {}",
                    Value::from(tol)
                ),
            ));
        }
        for (k, (orig, unit)) in [a, b].into_iter().zip(mapped).enumerate() {
            let end = format!("{what}, endpoint {}", k + 1);
            if let Some(g) = grid {
                let on = |x: f64| g.iter().any(|gv| (x - gv).abs() <= tol);
                if !on(orig.0) || !on(orig.1) {
                    return Err((
                        "point_off_grid",
                        format!(
                            "{end}: a coordinate is not within {} of the grid",
                            Value::from(tol)
                        ),
                    ));
                }
            }
            let inside = |x: f64| -tol <= x && x <= 1.0 + tol;
            if !(inside(unit.0) && inside(unit.1)) {
                return Err((
                    "point_out_of_bounds",
                    format!(
                        "{end} maps to {} in the unit square's frame, outside it",
                        fmt_point(unit)
                    ),
                ));
            }
            if !on_boundary(unit, tol) {
                return Err((
                    "point_not_on_boundary",
                    format!(
                        "{end} maps to {}, not on the boundary (tolerance {})",
                        fmt_point(unit),
                        Value::from(tol)
                    ),
                ));
            }
        }
        if along_edge(mapped[0], mapped[1], tol) {
            return Err((
                "segment_on_boundary_edge",
                format!("{what} lies along an edge of the square"),
            ));
        }
        out.push((mapped[0], mapped[1]));
    }
    Ok(out)
}

const SHAPES: [&str; 4] = ["triangle", "quadrilateral", "pentagon", "hexagon"];

/// Shape counts in first-seen order, and each face's vertex count.
type Faces = (Vec<(String, i64)>, Vec<usize>);

/// `classify_segments`: the shape counts in first-seen order and each face's
/// vertex count, or why an endpoint fails the snap check (`ValueError`).
fn classify(segments: &[Segment], d: u32) -> Result<Faces, String> {
    let snap = |p: P| -> Result<P, String> {
        let (x, y) = (round(p.0, d), round(p.1, d));
        if !((0.0..=1.0).contains(&x) && (0.0..=1.0).contains(&y)) {
            return Err(format!(
                "endpoint {} lies outside the unit square after rounding",
                fmt_point((x, y))
            ));
        }
        if !on_boundary((x, y), 0.0) {
            return Err(format!(
                "endpoint {} is off the boundary after rounding",
                fmt_point((x, y))
            ));
        }
        // -0.0 and 0.0 are one coordinate to GEOS.
        Ok((x + 0.0, y + 0.0))
    };
    let mut lines = Vec::new();
    for &(a, b) in segments {
        let a = snap(a)?;
        let b = snap(b)?;
        lines.push((a, b));
    }
    lines.extend([
        ((0.0, 0.0), (1.0, 0.0)),
        ((1.0, 0.0), (1.0, 1.0)),
        ((1.0, 1.0), (0.0, 1.0)),
        ((0.0, 1.0), (0.0, 0.0)),
    ]);
    let mut counts: Vec<(String, i64)> = Vec::new();
    let mut faces = Vec::new();
    for ring in polygons(&lines) {
        // The ring as shapely gives it: closed, first vertex repeated.
        let mut snapped: Vec<P> = Vec::new();
        for &(x, y) in ring.iter().chain(ring.first()) {
            let v = (round(x, d), round(y, d));
            if snapped.last() != Some(&v) {
                snapped.push(v);
            }
        }
        snapped.pop();
        let mut vertices: Vec<P> = Vec::new();
        for v in snapped {
            if vertices.last() != Some(&v) {
                vertices.push(v);
            }
        }
        let mut changed = true;
        while changed && vertices.len() >= 3 {
            changed = false;
            let n = vertices.len();
            for idx in 0..n {
                let prev = vertices[(idx + n - 1) % n];
                let cur = vertices[idx];
                let next = vertices[(idx + 1) % n];
                let area =
                    (cur.0 - prev.0) * (next.1 - prev.1) - (cur.1 - prev.1) * (next.0 - prev.0);
                if round(area, d) == 0.0 {
                    vertices.remove(idx);
                    changed = true;
                    break;
                }
            }
        }
        faces.push(vertices.len());
        if let Some(shape) = vertices.len().checked_sub(3).and_then(|k| SHAPES.get(k)) {
            match counts.iter_mut().find(|(s, _)| s == shape) {
                Some(entry) => entry.1 += 1,
                None => counts.push(((*shape).to_owned(), 1)),
            }
        }
    }
    Ok((counts, faces))
}

/// Dict equality (order-free).
fn same_counts(a: &[(String, i64)], b: &[(String, i64)]) -> bool {
    a.len() == b.len() && a.iter().all(|e| b.contains(e))
}

/// `verify_two_segments(model_output, record, return_diff=True)`; `Err` where it raises.
pub fn verify(model_output: &str, inst: &Instance) -> Result<Diff, String> {
    let mut diff = Diff {
        passed: false,
        errors: Vec::new(),
        raw_output: None,
        observed: Vec::new(),
        faces: Vec::new(),
        reason: String::new(),
    };
    let segments = match parse(model_output)? {
        Ok(s) => s,
        Err(why) => {
            diff.errors.push("parse_failure");
            diff.raw_output = Some(model_output.chars().take(200).collect());
            diff.reason = why;
            return Ok(diff);
        }
    };
    let tol = tolerance(inst.snap_decimals);
    let m = mapping(inst.corners.as_deref())?;
    let unit = match normalise(&segments, inst, &m, tol) {
        Ok(u) => u,
        Err((error, why)) => {
            diff.errors.push(error);
            diff.reason = why;
            return Ok(diff);
        }
    };
    match classify(&unit, inst.snap_decimals) {
        Ok((counts, faces)) => {
            diff.observed = counts;
            diff.faces = faces;
        }
        Err(why) => {
            diff.errors.push("invalid_segments");
            diff.reason = why;
            return Ok(diff);
        }
    }
    let shown = |c: &[(String, i64)]| counts_repr(c);
    if same_counts(&diff.observed, &inst.counts) {
        diff.passed = true;
        diff.reason = format!("the faces are {} as required", shown(&diff.observed));
    } else {
        diff.errors.push("counts_mismatch");
        diff.reason = format!(
            "the faces are {}, expected {}",
            shown(&diff.observed),
            shown(&inst.counts)
        );
    }
    Ok(diff)
}

/// A counts dict's Python `repr`.
pub fn counts_repr(c: &[(String, i64)]) -> String {
    let items: Vec<String> = c
        .iter()
        .map(|(k, v)| format!("{}: {v}", Value::from(k.as_str())))
        .collect();
    format!("{{{}}}", items.join(", "))
}
