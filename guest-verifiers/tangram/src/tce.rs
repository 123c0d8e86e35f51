//! Reading a Tangram Construction Expression: the answer's final state and
//! the item's instance. A failure here is the paper's TSE (syntax error):
//! unparsable JSON, a piece count other than seven, an unknown piece type,
//! unreadable coordinates, or a kit other than two large, one medium and two
//! small triangles, one square and one parallelogram.
//!
//! Accepted shapes, since models write TCE in several ways:
//! - the JSON may sit in a code fence or among prose (the outermost `{…}` is
//!   taken when the whole text is not JSON);
//! - pieces are `final_state` as a list, `final_state.pieces`, `final_state`
//!   as an object keyed by piece id, or a top-level `pieces` list;
//! - a piece's type is `type`, `piece_type` or `shape` (`large_triangle`,
//!   `Large Triangle`, `medium-triangle`, `square`, `parallelogram`, …); its
//!   vertices are `vertices`, `V_world`, `world_vertices` or
//!   `vertex_coordinates`, each `[x, y]`, `{"x": …, "y": …}` or `"(x, y)"`,
//!   a coordinate being a JSON number or a string (see [`crate::latex`]).

use std::collections::BTreeMap;
use std::fmt;

use verigate_sdk::serde_json::{self, Map, Value};

use crate::geometry::Point;
use crate::latex;

/// The seven-piece kit's piece types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    LargeTriangle,
    MediumTriangle,
    SmallTriangle,
    Square,
    Parallelogram,
}

/// How many of each type a tangram has.
pub const KIT: [(Kind, usize); 5] = [
    (Kind::LargeTriangle, 2),
    (Kind::MediumTriangle, 1),
    (Kind::SmallTriangle, 2),
    (Kind::Square, 1),
    (Kind::Parallelogram, 1),
];

impl Kind {
    /// Reads a type name: case, spaces, hyphens and underscores do not matter.
    pub fn parse(name: &str) -> Option<Kind> {
        let key: String = name
            .chars()
            .filter(|c| !matches!(c, ' ' | '_' | '-'))
            .flat_map(char::to_lowercase)
            .collect();
        Some(match key.as_str() {
            "largetriangle" | "bigtriangle" | "lt" => Kind::LargeTriangle,
            "mediumtriangle" | "middletriangle" | "mt" => Kind::MediumTriangle,
            "smalltriangle" | "st" => Kind::SmallTriangle,
            "square" | "sq" => Kind::Square,
            "parallelogram" | "rhomboid" | "pg" => Kind::Parallelogram,
            _ => return None,
        })
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::LargeTriangle => "large_triangle",
            Kind::MediumTriangle => "medium_triangle",
            Kind::SmallTriangle => "small_triangle",
            Kind::Square => "square",
            Kind::Parallelogram => "parallelogram",
        })
    }
}

/// One piece of an assembly, as written.
#[derive(Clone, Debug)]
pub struct Piece {
    /// How the answer names it (its key or `id`), else its 1-based position.
    pub name: String,
    pub kind: Kind,
    pub vertices: Vec<Point>,
}

/// The answer's pieces, and how many coordinates were decimals.
#[derive(Debug)]
pub struct Assembly {
    pub pieces: Vec<Piece>,
    pub decimals: usize,
}

/// The answer's JSON: the whole text, else its outermost `{…}`.
fn json_of(text: &str) -> Result<Value, String> {
    if let Ok(value) = serde_json::from_str(text.trim()) {
        return Ok(value);
    }
    let (start, end) = match (text.find('{'), text.rfind('}')) {
        (Some(start), Some(end)) if start < end => (start, end),
        _ => return Err("the answer holds no JSON object".to_owned()),
    };
    serde_json::from_str(&text[start..=end]).map_err(|e| format!("the answer's JSON: {e}"))
}

fn field<'a>(object: &'a Map<String, Value>, names: &[&str]) -> Option<&'a Value> {
    names.iter().find_map(|name| object.get(*name))
}

/// List entries named by their `id` (or `piece_id`), else their position.
fn numbered(list: &[Value]) -> Vec<(String, &Value)> {
    list.iter()
        .enumerate()
        .map(|(i, piece)| {
            let name = match piece.get("id").or_else(|| piece.get("piece_id")) {
                Some(Value::String(s)) => s.clone(),
                Some(other) => other.to_string(),
                None => (i + 1).to_string(),
            };
            (name, piece)
        })
        .collect()
}

/// The pieces as `(name, object)` pairs.
fn piece_objects(root: &Value) -> Result<Vec<(String, &Value)>, String> {
    let state = match root {
        Value::Array(list) => return Ok(numbered(list)),
        Value::Object(object) => field(object, &["final_state", "pieces"]),
        _ => None,
    };
    match state {
        Some(Value::Array(list)) => Ok(numbered(list)),
        Some(Value::Object(object)) => match object.get("pieces") {
            Some(Value::Array(list)) => Ok(numbered(list)),
            _ => Ok(object.iter().map(|(k, v)| (k.clone(), v)).collect()),
        },
        Some(_) => Err("`final_state` is neither a list nor an object".to_owned()),
        None => Err("the answer has no `final_state` (or `pieces`)".to_owned()),
    }
}

/// A coordinate: a JSON number (exactly as written) or an expression.
fn coordinate(value: &Value) -> Result<latex::Parsed, String> {
    match value {
        Value::Number(n) => latex::parse(&n.to_string()),
        Value::String(s) => latex::parse(s),
        other => Err(format!("{other} is not a coordinate")),
    }
}

/// `"(x, y)"` split at its one top-level comma.
fn pair_text(text: &str) -> Option<(&str, &str)> {
    let inner = text.trim().strip_prefix('(')?.strip_suffix(')')?;
    let mut depth = 0i32;
    for (i, c) in inner.char_indices() {
        match c {
            '(' | '{' | '[' => depth += 1,
            ')' | '}' | ']' => depth -= 1,
            ',' if depth == 0 => return Some((&inner[..i], &inner[i + 1..])),
            _ => {}
        }
    }
    None
}

/// One vertex, and how many of its coordinates were decimals.
fn vertex(value: &Value) -> Result<(Point, usize), String> {
    let (x, y) = match value {
        Value::Array(xy) if xy.len() == 2 => (coordinate(&xy[0])?, coordinate(&xy[1])?),
        Value::Object(o) => match (o.get("x"), o.get("y")) {
            (Some(x), Some(y)) => (coordinate(x)?, coordinate(y)?),
            _ => return Err(format!("vertex {value} has no `x` and `y`")),
        },
        Value::String(s) => {
            let (x, y) = pair_text(s).ok_or_else(|| format!("vertex {s:?} is not \"(x, y)\""))?;
            (latex::parse(x)?, latex::parse(y)?)
        }
        _ => return Err(format!("vertex {value} is not [x, y]")),
    };
    let decimals = usize::from(x.decimal) + usize::from(y.decimal);
    Ok((
        Point {
            x: x.value,
            y: y.value,
        },
        decimals,
    ))
}

/// A polygon's vertices (`vertices`, `V_world`, …).
pub fn polygon(object: &Value, what: &str) -> Result<(Vec<Point>, usize), String> {
    let list = match object {
        Value::Object(o) => field(
            o,
            &[
                "vertices",
                "V_world",
                "world_vertices",
                "vertex_coordinates",
            ],
        ),
        _ => None,
    };
    let Some(Value::Array(list)) = list else {
        return Err(format!("{what} has no `vertices` list"));
    };
    if list.len() < 3 {
        return Err(format!("{what} has {} vertices", list.len()));
    }
    let mut decimals = 0;
    let mut points = Vec::with_capacity(list.len());
    for (i, v) in list.iter().enumerate() {
        let (point, d) = vertex(v).map_err(|e| format!("{what}, vertex {}: {e}", i + 1))?;
        decimals += d;
        points.push(point);
    }
    Ok((points, decimals))
}

/// Reads the answer, or says why it is a syntax error (TSE).
pub fn assembly(text: &str) -> Result<Assembly, String> {
    pieces(&json_of(text)?)
}

/// The seven pieces under `root` (a state object or a list of pieces).
pub fn pieces(root: &Value) -> Result<Assembly, String> {
    let objects = piece_objects(root)?;
    if objects.len() != 7 {
        return Err(format!("{} pieces, expected 7", objects.len()));
    }
    let mut pieces = Vec::with_capacity(7);
    let mut decimals = 0;
    for (name, object) in objects {
        let what = format!("piece {name}");
        let kind_name = match object {
            Value::Object(o) => field(o, &["type", "piece_type", "shape"]),
            _ => None,
        };
        let kind = match kind_name {
            Some(Value::String(s)) => {
                Kind::parse(s).ok_or_else(|| format!("{what}: unknown type {s:?}"))?
            }
            _ => return Err(format!("{what} has no `type`")),
        };
        let (vertices, d) = polygon(object, &what)?;
        decimals += d;
        pieces.push(Piece {
            name,
            kind,
            vertices,
        });
    }
    let mut counts = BTreeMap::new();
    for piece in &pieces {
        *counts.entry(piece.kind).or_insert(0usize) += 1;
    }
    for (kind, want) in KIT {
        let got = counts.get(&kind).copied().unwrap_or(0);
        if got != want {
            return Err(format!("{got} × {kind}, expected {want}"));
        }
    }
    Ok(Assembly { pieces, decimals })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SQUARE: &str = r#"{"final_state": {
        "T1": {"type": "large_triangle", "vertices": [[0,0],[4,0],[2,2]]},
        "T2": {"type": "large triangle", "vertices": [[0,0],[2,2],[0,4]]},
        "T3": {"type": "Medium-Triangle", "vertices": [["4","4"],["2","4"],["4","2"]]},
        "S1": {"type": "small_triangle", "V_world": [{"x": 2, "y": 2}, {"x": 3, "y": 3}, {"x": 1, "y": 3}]},
        "S2": {"type": "small_triangle", "vertices": ["(4, 0)", "(4, 2)", "(3, 1)"]},
        "SQ": {"type": "square", "vertices": [[2,2],[3,1],[4,2],[3,3]]},
        "P": {"type": "parallelogram", "vertices": [[0,4],[1,3],[3,3],[2,4]]}
    }}"#;

    #[test]
    fn reads_the_accepted_shapes() {
        let a = assembly(&format!("Here it is:\n```json\n{SQUARE}\n```")).unwrap();
        assert_eq!(a.pieces.len(), 7);
        let medium = a.pieces.iter().find(|p| p.name == "T3").unwrap();
        assert_eq!(medium.kind, Kind::MediumTriangle);
        assert_eq!(a.decimals, 0);
    }

    #[test]
    fn syntax_errors_are_named() {
        assert_eq!(
            assembly("no json").unwrap_err(),
            "the answer holds no JSON object"
        );
        let six = r#"{"pieces": [1,2,3,4,5,6]}"#;
        assert_eq!(assembly(six).unwrap_err(), "6 pieces, expected 7");
        let swapped = SQUARE.replace("\"square\"", "\"small_triangle\"");
        assert_eq!(
            assembly(&swapped).unwrap_err(),
            "3 × small_triangle, expected 2"
        );
        let unknown = SQUARE.replace("\"square\"", "\"rhombus\"");
        assert_eq!(
            assembly(&unknown).unwrap_err(),
            "piece SQ: unknown type \"rhombus\""
        );
        let bad = SQUARE.replace("\"(4, 0)\"", "\"(4, \\\\pi)\"");
        assert_eq!(
            assembly(&bad).unwrap_err(),
            "piece S2, vertex 1: unknown LaTeX command `\\pi`"
        );
    }
}
