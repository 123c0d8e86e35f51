//! The original's `earlyFailTest`: its checks in its order, its messages, its floating-point
//! steps. The edge checks collect every winding error, boundary edge and non-manifold edge
//! (the form the stored paper runs show: "4 winding error(s): Edge (3, 2) appears twice in same
//! direction (faces 0 and 3); … | 8 boundary edge(s) (not watertight): (1, 2), …").

use std::collections::BTreeMap;

use verigate_sdk::python::{ErrorKind, Value, coerce};

/// A polyhedron that passed the checks.
pub struct Mesh {
    pub vertices: Vec<[f64; 3]>,
    pub faces: Vec<Vec<usize>>,
    /// The original's signed volume (fan triangles, its operation order).
    pub signed_volume: f64,
}

/// Why the checks stopped.
#[derive(Debug, PartialEq)]
pub enum Early {
    /// `earlyFailTest` returned this reason.
    Reason(String),
    /// `earlyFailTest` raised (Python's `str(e)`, approximately); the runner's VolumeComparison
    /// reports "Exception … while judging earlyFail criteria".
    Raise(String),
}

type Check<T> = Result<T, Early>;

fn reason<T>(text: String) -> Check<T> {
    Err(Early::Reason(text))
}

fn raise<T>(text: String) -> Check<T> {
    Err(Early::Raise(text))
}

/// Python's `str(v)` (a `str` without quotes, anything else its `repr`).
pub fn py_str(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_owned)
}

/// Python's `key in container` for a string key.
fn contains(container: &Value, key: &str) -> Check<bool> {
    if let Some(d) = container.as_dict() {
        return Ok(d.get(key).is_some());
    }
    if let Some(s) = container.as_str() {
        return Ok(s.contains(key));
    }
    if let Some(items) = container.as_sequence() {
        return Ok(items.iter().any(|v| v.as_str() == Some(key)));
    }
    if let Some(set) = container.as_set() {
        return Ok(set.contains(&Value::from(key)));
    }
    raise(format!(
        "argument of type '{}' is not iterable",
        container.type_name()
    ))
}

/// Python's `container[key]` for a string key (after `key in container` held).
fn get_str(container: &Value, key: &str) -> Check<Value> {
    if let Some(v) = container.as_dict().and_then(|d| d.get(key)) {
        return Ok(v.clone());
    }
    match container.type_name() {
        "str" => raise("string indices must be integers, not 'str'".into()),
        "list" | "tuple" => raise(format!(
            "{} indices must be integers or slices, not str",
            container.type_name()
        )),
        other => raise(format!("'{other}' object is not subscriptable")),
    }
}

/// Python's `len(v)`.
fn py_len(v: &Value) -> Check<usize> {
    if let Some(items) = v.as_sequence() {
        return Ok(items.len());
    }
    if let Some(s) = v.as_str() {
        return Ok(s.chars().count());
    }
    if let Some(d) = v.as_dict() {
        return Ok(d.len());
    }
    if let Some(s) = v.as_set() {
        return Ok(s.len());
    }
    raise(format!("object of type '{}' has no len()", v.type_name()))
}

/// What `for x in v` yields.
fn py_iter(v: &Value) -> Check<Vec<Value>> {
    if let Some(items) = v.as_sequence() {
        return Ok(items.to_vec());
    }
    if let Some(s) = v.as_str() {
        return Ok(s.chars().map(|c| Value::from(c.to_string())).collect());
    }
    if let Some(d) = v.as_dict() {
        return Ok(d.keys().cloned().collect());
    }
    if let Some(s) = v.as_set() {
        return Ok(s.iter().cloned().collect());
    }
    raise(format!("'{}' object is not iterable", v.type_name()))
}

/// Python's `float(v)`: `Ok(None)` where it raises ValueError or TypeError (caught by the
/// original), `Err` where it raises something else (OverflowError).
fn py_float(v: &Value) -> Check<Option<f64>> {
    match coerce::float(v) {
        Ok(f) => Ok(Some(f)),
        Err(e) if e.kind() == ErrorKind::Overflow => raise(e.message().to_owned()),
        Err(_) => Ok(None),
    }
}

/// Python's `round(x, 6)` (correctly rounded), as a map key: NaN never equals itself.
fn round6_key(x: f64) -> Option<u64> {
    if x.is_nan() {
        return None;
    }
    if x.is_infinite() {
        return Some(x.to_bits());
    }
    let r: f64 = format!("{x:.6}").parse().unwrap_or(x);
    Some((r + 0.0).to_bits())
}

fn list_repr(v: &[f64; 3]) -> String {
    format!(
        "[{}, {}, {}]",
        Value::from(v[0]),
        Value::from(v[1]),
        Value::from(v[2])
    )
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn magnitude(v: [f64; 3]) -> f64 {
    (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt()
}

/// Newell's normal, in the original's operation order.
pub fn newell(vertices: &[[f64; 3]], face: &[usize]) -> [f64; 3] {
    let n = face.len();
    let mut normal = [0.0f64; 3];
    for i in 0..n {
        let v1 = vertices[face[i]];
        let v2 = vertices[face[(i + 1) % n]];
        normal[0] += (v1[1] - v2[1]) * (v1[2] + v2[2]);
        normal[1] += (v1[2] - v2[2]) * (v1[0] + v2[0]);
        normal[2] += (v1[0] - v2[0]) * (v1[1] + v2[1]);
    }
    normal
}

/// The signed volume, as the original sums it (fan triangles from each face's first vertex).
pub fn signed_volume(vertices: &[[f64; 3]], faces: &[Vec<usize>]) -> f64 {
    let mut total = 0.0;
    for face in faces {
        let mut part = 0.0;
        let v0 = vertices[face[0]];
        for i in 1..face.len() - 1 {
            part += dot(v0, cross(vertices[face[i]], vertices[face[i + 1]])) / 6.0;
        }
        total += part;
    }
    total
}

fn vertices_of(raw: &Value) -> Check<Vec<[f64; 3]>> {
    let mut vertices = Vec::new();
    for (i, v) in py_iter(raw)?.iter().enumerate() {
        if !contains(v, "xyz")? {
            return reason(format!("Vertex {i} missing 'xyz' field"));
        }
        let xyz = get_str(v, "xyz")?;
        let n = py_len(&xyz)?;
        if n != 3 {
            return reason(format!("Vertex {i} has {n} coordinates, expected 3"));
        }
        let non_numeric = || {
            reason(format!(
                "Vertex {i} has non-numeric coordinates: {}",
                py_str(&xyz)
            ))
        };
        let mut coords = [0.0; 3];
        for (k, c) in coords.iter_mut().enumerate() {
            let item = if let Some(items) = xyz.as_sequence() {
                items[k].clone()
            } else if let Some(s) = xyz.as_str() {
                Value::from(s.chars().nth(k).map(String::from).unwrap_or_default())
            } else if let Some(d) = xyz.as_dict() {
                match d.get(Value::from(k)) {
                    Some(v) => v.clone(),
                    None => return raise(format!("{k}")),
                }
            } else {
                // A set: "'set' object is not subscriptable", a TypeError the original catches.
                return non_numeric();
            };
            match py_float(&item)? {
                Some(f) => *c = f,
                None => return non_numeric(),
            }
        }
        vertices.push(coords);
    }
    Ok(vertices)
}

fn faces_of(raw: &Value, num_vertices: usize) -> Check<Vec<Vec<usize>>> {
    let mut faces = Vec::new();
    for (i, f) in py_iter(raw)?.iter().enumerate() {
        if !contains(f, "vertex")? {
            return reason(format!("Face {i} missing 'vertex' field"));
        }
        let indices = get_str(f, "vertex")?;
        let n = py_len(&indices)?;
        if n < 3 {
            return reason(format!(
                "Face {i} has only {n} vertices (minimum 3 required)"
            ));
        }
        let mut face = Vec::with_capacity(n);
        for (j, idx) in py_iter(&indices)?.iter().enumerate() {
            let value = if let Some(b) = idx.as_bool() {
                Some(i128::from(u8::from(b)))
            } else if let Some(v) = idx.as_i64() {
                Some(i128::from(v))
            } else {
                idx.as_bigint().map(|b| {
                    if b.to_string().starts_with('-') {
                        -1
                    } else {
                        i128::MAX
                    }
                })
            };
            let Some(value) = value else {
                return reason(format!(
                    "Face {i} vertex {j} is not an integer: {}",
                    py_str(idx)
                ));
            };
            if value < 0 || value >= num_vertices as i128 {
                return reason(format!(
                    "Face {i} has invalid vertex index {} (valid range: 0-{})",
                    py_str(idx),
                    num_vertices as i64 - 1
                ));
            }
            face.push(value as usize);
        }
        let mut sorted = face.clone();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.len() != face.len() {
            return reason(format!(
                "Face {i} has duplicate vertex indices: {}",
                py_str(&indices)
            ));
        }
        faces.push(face);
    }
    Ok(faces)
}

fn edge_errors(faces: &[Vec<usize>]) -> Option<String> {
    let mut winding = Vec::new();
    let mut directed: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    // Undirected edges in first-seen order, with their counts.
    let mut order: Vec<(usize, usize)> = Vec::new();
    let mut count: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    for (face_idx, face) in faces.iter().enumerate() {
        let n = face.len();
        for i in 0..n {
            let (v1, v2) = (face[i], face[(i + 1) % n]);
            if let Some(prev) = directed.insert((v1, v2), face_idx) {
                winding.push(format!(
                    "Edge ({v1}, {v2}) appears twice in same direction (faces {prev} and {face_idx})"
                ));
            }
            let key = (v1.min(v2), v1.max(v2));
            let c = count.entry(key).or_insert(0);
            if *c == 0 {
                order.push(key);
            }
            *c += 1;
        }
    }
    let boundary: Vec<String> = order
        .iter()
        .filter(|k| count[k] == 1)
        .map(|(a, b)| format!("({a}, {b})"))
        .collect();
    let non_manifold: Vec<String> = order
        .iter()
        .filter(|k| count[k] > 2)
        .map(|k| format!("({}, {}) used by {} faces", k.0, k.1, count[k]))
        .collect();
    let mut parts = Vec::new();
    if !winding.is_empty() {
        parts.push(format!(
            "{} winding error(s): {}",
            winding.len(),
            winding.join("; ")
        ));
    }
    if !boundary.is_empty() {
        parts.push(format!(
            "{} boundary edge(s) (not watertight): {}",
            boundary.len(),
            boundary.join(", ")
        ));
    }
    if !non_manifold.is_empty() {
        parts.push(format!(
            "{} non-manifold edge(s): {}",
            non_manifold.len(),
            non_manifold.join("; ")
        ));
    }
    (!parts.is_empty()).then(|| parts.join(" | "))
}

/// `earlyFailTest(result, subpass)`.
pub fn check(result: &Value) -> Check<Mesh> {
    if !contains(result, "polyhedron")? {
        return reason("Missing 'polyhedron' in result".into());
    }
    let poly = get_str(result, "polyhedron")?;
    if !contains(&poly, "vertex")? || !contains(&poly, "faces")? {
        return reason("Polyhedron missing 'vertex' or 'faces'".into());
    }
    let raw_vertices = get_str(&poly, "vertex")?;
    let raw_faces = get_str(&poly, "faces")?;
    if py_len(&raw_vertices)? == 0 {
        return reason("No vertices provided".into());
    }
    if py_len(&raw_faces)? == 0 {
        return reason("No faces provided".into());
    }
    let vertices = vertices_of(&raw_vertices)?;
    let faces = faces_of(&raw_faces, vertices.len())?;

    let mut seen: BTreeMap<[u64; 3], usize> = BTreeMap::new();
    for (i, v) in vertices.iter().enumerate() {
        let key = (round6_key(v[0]), round6_key(v[1]), round6_key(v[2]));
        let (Some(a), Some(b), Some(c)) = key else {
            continue;
        };
        if let Some(&j) = seen.get(&[a, b, c]) {
            return reason(format!(
                "Duplicate vertex positions: vertex {i} and {j} at {}",
                list_repr(v)
            ));
        }
        seen.insert([a, b, c], i);
    }
    for (i, v) in vertices.iter().enumerate() {
        if v.iter().any(|c| !c.is_finite()) {
            return reason(format!(
                "Vertex {i} has invalid coordinate (NaN or Inf): {}",
                list_repr(v)
            ));
        }
    }

    let n = vertices.len() as f64;
    let mut centroid = [0.0f64; 3];
    for (k, c) in centroid.iter_mut().enumerate() {
        let mut s = 0.0;
        for v in &vertices {
            s += v[k];
        }
        *c = s / n;
    }
    let distances: Vec<f64> = vertices
        .iter()
        .map(|&v| magnitude(sub(v, centroid)))
        .collect();
    let max_dist = distances.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let avg_dist = distances.iter().sum::<f64>() / distances.len() as f64;
    if max_dist > avg_dist * 10.0 && max_dist > 100.0 {
        let idx = distances.iter().position(|&d| d == max_dist).unwrap_or(0);
        return reason(format!(
            "Vertex {idx} appears to be an outlier: {} is {max_dist:.1} from centroid (avg: {avg_dist:.1})",
            list_repr(&vertices[idx])
        ));
    }

    for (i, face) in faces.iter().enumerate() {
        if magnitude(newell(&vertices, face)) < 1e-10 {
            return reason(format!("Face {i} is degenerate (zero or near-zero area)"));
        }
    }
    if let Some(errors) = edge_errors(&faces) {
        return reason(errors);
    }
    let volume = signed_volume(&vertices, &faces);
    if volume.abs() < 1e-10 {
        return reason("Polyhedron has zero volume (degenerate or flat)".into());
    }
    for (i, face) in faces.iter().enumerate() {
        if face.len() > 3 {
            let v0 = vertices[face[0]];
            let normal = cross(sub(vertices[face[1]], v0), sub(vertices[face[2]], v0));
            let norm_mag = magnitude(normal);
            if norm_mag > 1e-10 {
                let normal = normal.map(|c| c / norm_mag);
                let d = dot(normal, v0);
                for &j in &face[3..] {
                    let dist = (dot(normal, vertices[j]) - d).abs();
                    if dist > 0.01 {
                        return reason(format!(
                            "Face {i} is non-planar: vertex {j} is {dist:.4} from plane"
                        ));
                    }
                }
            }
        }
    }
    Ok(Mesh {
        vertices,
        faces,
        signed_volume: volume,
    })
}
