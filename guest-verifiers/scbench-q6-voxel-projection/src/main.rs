//! `scbench-q6-voxel-projection` (verdict-json): SCBench Q6 "Voxel Grid Projection - shadow
//! coverage and no symmetries", a port of `gradeAnswer` in the benchmark's `6.py`.
//!
//! The instance gives the grid size `n`, the `expected` voxel count and `forbid_seven`
//! (subpass 5). The payload is the model answer as the runner stored it, a Python literal
//! `{'voxels': [...]}`. The checks, in the original's order:
//! 1. the answer is a dict whose `voxels` is a list;
//! 2. every entry parses — `{'xyz': [x, y, z]}`, `{'xyz': i}` (a flat index: x = i mod n,
//!    y = (i div n) mod n, z = i div n²), `{'xyz': "x,y,z"}`, `{'x': …, 'y': …, 'z': …}`,
//!    `[x, y, z]`, a bare flat index or `"x,y,z"` — where a coordinate counts when it is
//!    within 1e-9 of an integer in 0..n (`True` is 1); with `forbid_seven`, an entry whose
//!    x + y + z has a digit 7 fails as soon as it is parsed;
//! 3. exactly `expected` entries, no two equal;
//! 4. the XY, XZ and YZ projections each cover all n² cells (checked in that order);
//! 5. none of the 47 non-identity axis permutations with reflections maps the set onto
//!    itself.
//!
//! Score 1 or 0. Where the original raises (a NaN coordinate; its runner records 10000),
//! the verdict fails and says so.

use std::collections::HashSet;

use serde::Deserialize;
use verigate_sdk::Verdict;
use verigate_sdk::python::{Value, coerce, strings};
use verigate_sdk::serde_json::json;

#[derive(Deserialize)]
struct Instance {
    n: i64,
    expected: usize,
    #[serde(default)]
    forbid_seven: bool,
}

type Voxel = [i64; 3];

/// Why an entry does not parse.
enum Bad {
    Invalid,
    Raises(String),
}

/// A coordinate within 1e-9 of an integer in `0..limit`.
fn coordinate(v: f64, limit: i64) -> std::result::Result<i64, Bad> {
    if v.is_nan() {
        return Err(Bad::Raises("round() of NaN".to_owned()));
    }
    let r = v.round_ties_even();
    if (v - r).abs() > 1e-9 || r < 0.0 || r >= limit as f64 {
        return Err(Bad::Invalid);
    }
    Ok(r as i64)
}

fn from_coords(coords: &[f64], n: i64) -> std::result::Result<Voxel, Bad> {
    match coords {
        [x, y, z] => Ok([coordinate(*x, n)?, coordinate(*y, n)?, coordinate(*z, n)?]),
        _ => Err(Bad::Invalid),
    }
}

fn from_index(i: f64, n: i64) -> std::result::Result<Voxel, Bad> {
    let i = coordinate(i, n * n * n)?;
    Ok([i % n, (i / n) % n, i / (n * n)])
}

/// `"x,y,z"`: `[float(p.strip()) for p in s.split(',')]` inside the original's
/// `try: … except Exception: return None`, so whatever fails is an invalid entry.
fn from_text(s: &str, n: i64) -> std::result::Result<Voxel, Bad> {
    let coords: Option<Vec<f64>> = s
        .split(',')
        .map(|c| strings::float(strings::strip(c)))
        .collect();
    from_coords(&coords.ok_or(Bad::Invalid)?, n).map_err(|_| Bad::Invalid)
}

/// Three coordinates `float(c)`, outside any `try`: where `float` raises, the original does.
fn from_sequence(items: &[Value], n: i64) -> std::result::Result<Voxel, Bad> {
    if items.len() != 3 {
        return Err(Bad::Invalid);
    }
    let coords = items
        .iter()
        .map(|c| coerce::float(c).map_err(|e| Bad::Raises(e.python_text())))
        .collect::<std::result::Result<Vec<f64>, Bad>>()?;
    from_coords(&coords, n)
}

/// One entry of `voxels`, in the forms the original accepts.
fn voxel(entry: &Value, n: i64) -> std::result::Result<Voxel, Bad> {
    if let Some(d) = entry.as_dict() {
        if let Some(xyz) = d.get("xyz") {
            if let Some(items) = xyz.as_sequence() {
                return from_sequence(items, n);
            }
            if let Some(i) = coerce::real_i64(xyz) {
                return from_index(i, n);
            }
            if let Some(s) = xyz.as_str() {
                return from_text(s, n);
            }
            return Err(Bad::Invalid);
        }
        return match (d.get("x"), d.get("y"), d.get("z")) {
            (Some(x), Some(y), Some(z)) => from_sequence(&[x.clone(), y.clone(), z.clone()], n),
            _ => Err(Bad::Invalid),
        };
    }
    if let Some(items) = entry.as_sequence() {
        return from_sequence(items, n);
    }
    if let Some(i) = coerce::real_i64(entry) {
        return from_index(i, n);
    }
    entry
        .as_str()
        .map_or(Err(Bad::Invalid), |s| from_text(s, n))
}

/// The 48 axis permutations with reflections, identity first.
fn symmetries() -> Vec<([usize; 3], [bool; 3])> {
    let perms = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut out = Vec::with_capacity(48);
    for perm in perms {
        for signs in 0..8u8 {
            out.push((perm, [signs & 1 != 0, signs & 2 != 0, signs & 4 != 0]));
        }
    }
    out
}

fn grade(instance: &Instance, text: &str) -> Verdict {
    let n = instance.n;
    let answer = verigate_sdk::python::answer(text);
    let Some(dict) = answer.as_dict() else {
        return Verdict::fail("the answer is not a dict");
    };
    let Some(entries) = dict.get("voxels").and_then(Value::as_list) else {
        return Verdict::fail("'voxels' is missing or not a list");
    };
    let mut voxels = Vec::with_capacity(entries.len());
    for entry in entries {
        match voxel(entry, n) {
            Ok(v) => {
                let sum = v.iter().sum::<i64>();
                if instance.forbid_seven && sum.to_string().contains('7') {
                    return Verdict::fail(format!(
                        "voxel {v:?}: x + y + z = {sum} contains the digit 7"
                    ));
                }
                voxels.push(v);
            }
            Err(Bad::Invalid) => {
                return Verdict::fail(format!("Invalid voxel entry: {}", entry.repr_short(60)));
            }
            Err(Bad::Raises(why)) => {
                return Verdict::raised(format!("{why} in {}", entry.repr_short(60)));
            }
        }
    }
    if voxels.len() != instance.expected {
        return Verdict::fail(format!(
            "Expected {} voxels, got {}",
            instance.expected,
            voxels.len()
        ));
    }
    let set: HashSet<Voxel> = voxels.iter().copied().collect();
    if set.len() != voxels.len() {
        return Verdict::fail(format!("{} duplicate voxels", voxels.len() - set.len()));
    }
    let cells = usize::try_from(n * n).unwrap_or(usize::MAX);
    for (name, (a, b)) in [("XY", (0, 1)), ("XZ", (0, 2)), ("YZ", (1, 2))] {
        let shadow: HashSet<(i64, i64)> = voxels.iter().map(|v| (v[a], v[b])).collect();
        if shadow.len() != cells {
            return Verdict::fail(format!(
                "the {name} projection covers {} of {cells} cells",
                shadow.len()
            ));
        }
    }
    for (perm, flip) in symmetries().into_iter().skip(1) {
        let maps_onto_itself = voxels.iter().all(|v| {
            let mut w = [0i64; 3];
            for axis in 0..3 {
                let c = v[perm[axis]];
                w[axis] = if flip[axis] { n - 1 - c } else { c };
            }
            set.contains(&w)
        });
        if maps_onto_itself {
            return Verdict::fail(format!(
                "Shape has a trivial symmetry (axes {perm:?}, reflected {flip:?})"
            ))
            .with_details(json!({ "voxels": voxels.len() }));
        }
    }
    Verdict::pass().with_details(json!({ "voxels": voxels.len() }))
}

verigate_sdk::main!(verdict_json, grade_instance(grade));

#[cfg(test)]
mod tests {
    use super::*;

    /// n = 3, 10 voxels: the Latin square z = (x + y) mod 3 plus (0, 1, 0).
    fn graded(text: &str) -> (bool, String) {
        let instance = Instance {
            n: 3,
            expected: 10,
            forbid_seven: false,
        };
        let v = verigate_sdk::serde_json::to_value(grade(&instance, text)).unwrap();
        (
            v["pass"] == true,
            v["message"].as_str().unwrap_or("").to_owned(),
        )
    }

    fn latin_plus(extra: &str) -> String {
        let mut entries: Vec<String> = (0..3)
            .flat_map(|x| (0..3).map(move |y| format!("[{x}, {y}, {}]", (x + y) % 3)))
            .collect();
        entries.push(extra.to_owned());
        format!("{{'voxels': [{}]}}", entries.join(", "))
    }

    #[test]
    fn every_entry_form_parses() {
        assert_eq!(graded(&latin_plus("[0, 1, 0]")), (true, String::new()));
        // The same voxels written in the other accepted forms.
        let forms = "{'voxels': [{'xyz': 0}, {'x': 0, 'y': 1.0, 'z': True}, [0, 2, 2], '1,0,1', \
                     {'xyz': '1,1,2'}, {'xyz': [1, 2, 0]}, [2, 0, 2], 5, [2, 2, 1], {'xyz': 3}]}";
        assert_eq!(graded(forms), (true, String::new()));
    }

    #[test]
    fn coordinates_are_read_with_pythons_float() {
        // `float(c)` of each coordinate: strings of any decimal digits, with white space and
        // underscores, count as in Python (the port once refused all of these).
        let forms = "{'voxels': [{'xyz': 0}, {'x': '0', 'y': ' １ ', 'z': True}, ['0', '٢', 2.0], \
                     '1,0,\u{3000}١', {'xyz': '1, 1_0e-1 ,２'}, {'xyz': [1, 2, 0]}, [2, 0, 2], 5, \
                     [2, 2, 1], {'xyz': 3}]}";
        assert_eq!(graded(forms), (true, String::new()));
        // Outside the original's try, a coordinate float() refuses raises; inside (the
        // "x,y,z" text), it is an invalid entry.
        let (_, message) = graded("{'voxels': [[0, 0, 'x']]}");
        assert!(message.starts_with("ValueError: could not convert string to float: 'x'"));
        assert!(message.ends_with(verigate_sdk::RAISED));
        assert_eq!(
            graded("{'voxels': ['0,0,²']}").1,
            "Invalid voxel entry: '0,0,²'"
        );
        assert_eq!(
            graded("{'voxels': ['0,0,nan']}").1,
            "Invalid voxel entry: '0,0,nan'"
        );
    }

    #[test]
    fn failures_in_the_original_order() {
        assert_eq!(graded("[1, 2]").1, "the answer is not a dict");
        assert_eq!(
            graded("{'voxels': [[0, 0, 3]]}").1,
            "Invalid voxel entry: [0, 0, 3]"
        );
        assert_eq!(
            graded("{'voxels': [[0, 0, 0.5]]}").1,
            "Invalid voxel entry: [0, 0, 0.5]"
        );
        assert_eq!(
            graded("{'voxels': [[0, 0, 0]]}").1,
            "Expected 10 voxels, got 1"
        );
        assert_eq!(graded(&latin_plus("[0, 0, 0]")).1, "1 duplicate voxels");
        // With (0, 0, 1) added the shape is symmetric under swapping x and y.
        assert!(
            graded(&latin_plus("[0, 0, 1]"))
                .1
                .starts_with("Shape has a trivial symmetry")
        );
    }

    #[test]
    fn sevens_are_refused_as_soon_as_parsed() {
        let instance = Instance {
            n: 20,
            expected: 1,
            forbid_seven: true,
        };
        let v = verigate_sdk::serde_json::to_value(grade(&instance, "{'voxels': [[10, 5, 2]]}"))
            .unwrap();
        assert_eq!(
            v["message"],
            "voxel [10, 5, 2]: x + y + z = 17 contains the digit 7"
        );
    }
}
