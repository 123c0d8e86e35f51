//! Reading the answer as `gradeAnswer` does before any geometry: the `parts` key, the part
//! count, and subpass 0's build loop (file types, contents, transforms), with the places
//! where the original raises.

use nalgebra::Matrix4;
pub use verigate_sdk::harness::Stop;
use verigate_sdk::python::{EvalLimits, Value, coerce, eval_with, from_json};

/// How an answer's file was given (`fileType`, compared lowercased as the original does).
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    Stl,
    OpenScad,
    PythonScad,
    PythonStl,
    Unknown(String),
}

impl Kind {
    /// What the original did with a file verigate cannot build: (what it is, what the
    /// original did with it, `{}` standing for the part).
    pub fn needs(&self) -> Option<(&'static str, &'static str)> {
        match self {
            Kind::OpenScad => Some(("OpenSCAD source", "rendered {} with OpenSCAD")),
            Kind::PythonScad => Some((
                "Python generating OpenSCAD",
                "ran {} and rendered the output with OpenSCAD",
            )),
            Kind::PythonStl => Some(("Python generating STL", "ran {}")),
            _ => None,
        }
    }
}

/// One part as subpass 0's build loop reads it.
#[derive(Clone, Debug)]
pub struct Part {
    pub kind: Kind,
    /// `fileContents` (absent for an unknown file type, which the original never reads).
    pub contents: Option<String>,
    /// The row-major 4×4 matrix, or why OpenSCAD could not use it.
    pub transform: Result<Matrix4<f64>, String>,
}

/// The answer as the harness replays it: a Python literal, else JSON, else the text itself,
/// with room for answers carrying whole STL files (tens of MB of text).
pub fn parse(text: &str) -> Value {
    let trimmed = text.trim();
    let limits = EvalLimits {
        max_elements: 200_000_000,
        max_steps: 200_000_000,
        ..EvalLimits::default()
    };
    eval_with(trimmed, &limits)
        .ok()
        .or_else(|| {
            verigate_sdk::serde_json::from_str::<verigate_sdk::serde_json::Value>(trimmed)
                .ok()
                .map(|json| from_json(&json))
        })
        .unwrap_or_else(|| Value::from(text))
}

/// `"parts" not in answer`, `len(answer["parts"])` and the two count checks: the part list.
pub fn part_list(answer: &Value) -> verigate_sdk::harness::Step<&[Value]> {
    let parts = if let Some(d) = answer.as_dict() {
        d.get("parts")
    } else if let Some(s) = answer.as_str() {
        if s.contains("parts") {
            return Err(Stop::Raise(
                "the answer is text containing 'parts', and answer[\"parts\"] on a str \
                 raises TypeError"
                    .into(),
            ));
        }
        None
    } else if let Some(items) = answer.as_sequence() {
        if items.iter().any(|v| v.as_str() == Some("parts")) {
            return Err(Stop::Raise(
                "answer[\"parts\"] on a list raises TypeError".into(),
            ));
        }
        None
    } else if let Some(set) = answer.as_set() {
        if set.iter().any(|v| v.as_str() == Some("parts")) {
            return Err(Stop::Raise(
                "answer[\"parts\"] on a set raises TypeError".into(),
            ));
        }
        None
    } else {
        return Err(Stop::Raise(format!(
            "`\"parts\" in answer` raises TypeError for a {}",
            answer.type_name()
        )));
    };
    let Some(parts) = parts else {
        return Err(Stop::Zero("Answer did not contain a 'parts' key.".into()));
    };
    let len = if let Some(items) = parts.as_sequence() {
        items.len()
    } else if let Some(s) = parts.as_str() {
        s.chars().count()
    } else if let Some(d) = parts.as_dict() {
        d.len()
    } else if let Some(s) = parts.as_set() {
        s.len()
    } else {
        return Err(Stop::Raise(format!(
            "len() of a {} 'parts' raises TypeError",
            parts.type_name()
        )));
    };
    if len > 10 {
        return Err(Stop::Zero(
            "Answer contained too many parts. 10 is the minimum and optimum.".into(),
        ));
    }
    if len < 10 {
        return Err(Stop::Zero(
            "Answer contained too few parts. 10 is the minimum possible.".into(),
        ));
    }
    parts.as_sequence().ok_or_else(|| {
        Stop::Raise(format!(
            "iterating a {} of 10 'parts' gives no part dicts (part[\"fileType\"] raises)",
            parts.type_name()
        ))
    })
}

/// A Python number as OpenSCAD receives it (`int` or `float`; not `bool`, which prints as
/// `True`, an undefined name to OpenSCAD).
fn number(v: &Value) -> Option<f64> {
    if v.as_bool().is_some() {
        return None;
    }
    coerce::real(v)
}

fn transform(v: &Value, index: usize) -> Result<Result<Matrix4<f64>, String>, Stop> {
    let Some(items) = v.as_sequence() else {
        if v.as_str().is_some() {
            return Ok(Err("is a string, not a list of numbers".into()));
        }
        return Err(Stop::Raise(format!(
            "part {index}: slicing a {} transform raises TypeError",
            v.type_name()
        )));
    };
    if items.len() < 16 {
        return Ok(Err(format!("has {} entries, not 16", items.len())));
    }
    let mut m = Matrix4::zeros();
    for (k, item) in items[..16].iter().enumerate() {
        match number(item).filter(|x| x.is_finite()) {
            Some(x) => m[(k / 4, k % 4)] = x,
            None => {
                return Ok(Err(format!(
                    "entry {k} is {}, not a finite number",
                    item.repr_short(30)
                )));
            }
        }
    }
    Ok(Ok(m))
}

/// Subpass 0's build loop over the parts: what each part is, or where the original raises.
pub fn read_parts(items: &[Value]) -> Result<Vec<Part>, Stop> {
    let mut parts = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let Some(d) = item.as_dict() else {
            return Err(Stop::Raise(format!(
                "part {i} is a {}, and part[\"fileType\"] raises TypeError",
                item.type_name()
            )));
        };
        let Some(file_type) = d.get("fileType") else {
            return Err(Stop::Raise(format!(
                "part {i} has no 'fileType' (KeyError)"
            )));
        };
        let Some(file_type) = file_type.as_str() else {
            return Err(Stop::Raise(format!(
                "part {i}'s fileType is a {}, which has no .lower()",
                file_type.type_name()
            )));
        };
        let kind = match file_type.to_lowercase().as_str() {
            "stl" => Kind::Stl,
            "openscad" => Kind::OpenScad,
            "python generating openscad" => Kind::PythonScad,
            "python generating stl" => Kind::PythonStl,
            _ => Kind::Unknown(file_type.to_owned()),
        };
        let contents = if matches!(kind, Kind::Unknown(_)) {
            None
        } else {
            let Some(c) = d.get("fileContents") else {
                return Err(Stop::Raise(format!(
                    "part {i} has no 'fileContents' (KeyError)"
                )));
            };
            let Some(c) = c.as_str() else {
                return Err(Stop::Raise(format!(
                    "part {i}'s fileContents is a {}, which cannot be written as a file",
                    c.type_name()
                )));
            };
            Some(c.to_owned())
        };
        let Some(t) = d.get("transform") else {
            return Err(Stop::Raise(format!(
                "part {i} has no 'transform' (KeyError)"
            )));
        };
        let transform = transform(t, i)?;
        parts.push(Part {
            kind,
            contents,
            transform,
        });
    }
    Ok(parts)
}
