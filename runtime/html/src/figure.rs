//! The figure schema (`details.figure`, see `FIGURE.md`): validation and caps.
//!
//! A verifier's figure is untrusted data. [`sanitize`] turns whatever JSON it
//! finds into a figure that is safe and cheap to draw: only the schema's keys,
//! finite coordinates of bounded magnitude, known style classes (anything
//! else becomes `neutral`), truncated single-line labels, and at most
//! [`FigureLimits::max_primitives`] primitives and
//! [`FigureLimits::max_coordinates`] coordinates. What it drops or cuts it
//! says in the figure's `notes`. The page draws the result with DOM APIs
//! (`createElementNS`, `textContent`), never as markup.

use serde_json::{Map, Value, json};

/// The style classes a primitive may name; any other becomes `neutral`.
pub const CLASSES: &[&str] = &[
    "ok",
    "wrong",
    "missing",
    "extra",
    "target",
    "neutral",
    "blocked",
    "highlight",
    "cat0",
    "cat1",
    "cat2",
    "cat3",
    "cat4",
    "cat5",
    "cat6",
    "cat7",
];

/// Caps applied to every figure.
#[derive(Clone, Debug, PartialEq)]
pub struct FigureLimits {
    /// Most primitives drawn: each polygon, polyline, segment and text counts
    /// one, each point of a `points` primitive one, each grid cell one.
    pub max_primitives: usize,
    /// Most coordinates (numbers; a point has two) over all primitives.
    pub max_coordinates: usize,
    /// Longest label, in characters (longer ones are cut and end in `…`).
    pub max_label_chars: usize,
    /// Longest title, in characters.
    pub max_title_chars: usize,
    /// Longest caption, in characters.
    pub max_caption_chars: usize,
    /// Largest magnitude of a coordinate, view-box value or size.
    pub max_magnitude: f64,
    /// Most notes kept about what was dropped.
    pub max_notes: usize,
}

impl Default for FigureLimits {
    fn default() -> Self {
        FigureLimits {
            max_primitives: 5_000,
            max_coordinates: 100_000,
            max_label_chars: 40,
            max_title_chars: 200,
            max_caption_chars: 1_000,
            max_magnitude: 1e9,
            max_notes: 8,
        }
    }
}

/// Why a figure cannot be drawn at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FigureError {
    /// `details.figure` is not a JSON object.
    NotAnObject,
    /// Its `items` is missing or not an array.
    NoItems,
    /// Nothing in it could be drawn.
    Empty,
}

impl std::fmt::Display for FigureError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            FigureError::NotAnObject => "the figure is not a JSON object",
            FigureError::NoItems => "the figure has no `items` array",
            FigureError::Empty => "the figure has nothing that can be drawn",
        })
    }
}

impl std::error::Error for FigureError {}

/// A string cut to `max` characters (ending in `…` when cut), with control
/// characters, line and paragraph separators and bidirectional overrides
/// replaced by spaces.
pub fn clean_text(text: &str, max: usize) -> String {
    let mut out = String::new();
    for (n, c) in text.chars().enumerate() {
        if n == max {
            out.push('…');
            break;
        }
        let strip = c.is_control()
            || matches!(c, '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
        out.push(if strip { ' ' } else { c });
    }
    out
}

/// What one sanitize pass has used and what it has dropped.
struct Budget<'l> {
    limits: &'l FigureLimits,
    primitives: usize,
    coordinates: usize,
    malformed: usize,
    over_cap: usize,
    unknown_classes: usize,
    cut_labels: usize,
    bounds: Option<[f64; 4]>,
}

impl Budget<'_> {
    fn number(&self, v: &Value) -> Option<f64> {
        v.as_f64()
            .filter(|x| x.is_finite() && x.abs() <= self.limits.max_magnitude)
    }

    fn point(&self, v: &Value) -> Option<[f64; 2]> {
        match v.as_array()?.as_slice() {
            [x, y] => Some([self.number(x)?, self.number(y)?]),
            _ => None,
        }
    }

    fn points(&self, v: Option<&Value>, min: usize) -> Option<Vec<[f64; 2]>> {
        let list = v?.as_array()?;
        if list.len() < min || list.len() * 2 > self.limits.max_coordinates {
            return None;
        }
        list.iter().map(|p| self.point(p)).collect()
    }

    fn class(&mut self, v: Option<&Value>) -> &'static str {
        match v {
            None | Some(Value::Null) => "neutral",
            Some(v) => match CLASSES.iter().find(|c| v.as_str() == Some(c)) {
                Some(c) => c,
                None => {
                    self.unknown_classes += 1;
                    "neutral"
                }
            },
        }
    }

    fn label(&mut self, v: Option<&Value>) -> Option<String> {
        let text = match v? {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
            _ => return None,
        };
        self.cut_labels += usize::from(text.chars().count() > self.limits.max_label_chars);
        Some(clean_text(&text, self.limits.max_label_chars))
    }

    /// Takes `primitives` and `coordinates` from the budget, or refuses.
    fn take(&mut self, primitives: usize, coordinates: usize) -> bool {
        let fits = self.primitives + primitives <= self.limits.max_primitives
            && self.coordinates + coordinates <= self.limits.max_coordinates;
        if fits {
            self.primitives += primitives;
            self.coordinates += coordinates;
        } else {
            self.over_cap += 1;
        }
        fits
    }

    fn extend(&mut self, [x, y]: [f64; 2]) {
        let b = self.bounds.get_or_insert([x, y, x, y]);
        b[0] = b[0].min(x);
        b[1] = b[1].min(y);
        b[2] = b[2].max(x);
        b[3] = b[3].max(y);
    }
}

fn point_json([x, y]: [f64; 2]) -> Value {
    json!([x, y])
}

/// One primitive, sanitized, or `None` when it is malformed or over the caps.
fn primitive(item: &Value, budget: &mut Budget) -> Option<Value> {
    let Some(obj) = item.as_object() else {
        budget.malformed += 1;
        return None;
    };
    let kind = obj.get("type").and_then(Value::as_str).unwrap_or("");
    let mut out = Map::new();
    out.insert("type".into(), json!(kind));
    let malformed = |budget: &mut Budget| {
        budget.malformed += 1;
        None
    };
    match kind {
        "polygon" | "polyline" => {
            let min = if kind == "polygon" { 3 } else { 2 };
            let Some(points) = budget.points(obj.get("points"), min) else {
                return malformed(budget);
            };
            // A polygon's holes: rings of at least 3 points each.
            let holes: Option<Vec<Vec<[f64; 2]>>> = match obj.get("holes") {
                None | Some(Value::Null) => Some(Vec::new()),
                Some(_) if kind != "polygon" => Some(Vec::new()),
                Some(Value::Array(rings)) => {
                    rings.iter().map(|r| budget.points(Some(r), 3)).collect()
                }
                Some(_) => None,
            };
            let Some(holes) = holes else {
                return malformed(budget);
            };
            let hole_points: usize = holes.iter().map(Vec::len).sum();
            if !budget.take(1, (points.len() + hole_points) * 2) {
                return None;
            }
            points.iter().for_each(|&p| budget.extend(p));
            out.insert(
                "points".into(),
                points.into_iter().map(point_json).collect(),
            );
            if !holes.is_empty() {
                let rings: Vec<Value> = holes
                    .into_iter()
                    .map(|ring| ring.into_iter().map(point_json).collect())
                    .collect();
                out.insert("holes".into(), Value::Array(rings));
            }
            if kind == "polyline" && obj.get("closed").and_then(Value::as_bool) == Some(true) {
                out.insert("closed".into(), json!(true));
            }
        }
        "points" => {
            let Some(points) = budget.points(obj.get("points"), 1) else {
                return malformed(budget);
            };
            if !budget.take(points.len(), points.len() * 2) {
                return None;
            }
            points.iter().for_each(|&p| budget.extend(p));
            let labels: Option<Vec<Value>> =
                obj.get("labels").and_then(Value::as_array).map(|ls| {
                    ls.iter()
                        .take(points.len())
                        .map(|l| budget.label(Some(l)).map_or(Value::Null, Value::String))
                        .collect()
                });
            out.insert(
                "points".into(),
                points.into_iter().map(point_json).collect(),
            );
            if let Some(labels) = labels {
                out.insert("labels".into(), Value::Array(labels));
            }
        }
        "segment" => {
            let (Some(from), Some(to)) = (
                obj.get("from").and_then(|p| budget.point(p)),
                obj.get("to").and_then(|p| budget.point(p)),
            ) else {
                return malformed(budget);
            };
            if !budget.take(1, 4) {
                return None;
            }
            budget.extend(from);
            budget.extend(to);
            out.insert("from".into(), point_json(from));
            out.insert("to".into(), point_json(to));
        }
        "text" => {
            let (Some(at), Some(text)) =
                (obj.get("at").and_then(|p| budget.point(p)), obj.get("text"))
            else {
                return malformed(budget);
            };
            let Some(text) = budget.label(Some(text)) else {
                return malformed(budget);
            };
            let size = obj.get("size").map(|s| budget.number(s));
            if matches!(size, Some(None)) || size.flatten().is_some_and(|s| s <= 0.0) {
                return malformed(budget);
            }
            if !budget.take(1, 2) {
                return None;
            }
            budget.extend(at);
            out.insert("at".into(), point_json(at));
            out.insert("text".into(), json!(text));
            if let Some(size) = size.flatten() {
                out.insert("size".into(), json!(size));
            }
        }
        "grid" => return grid(obj, out, budget),
        _ => return malformed(budget),
    }
    let class = budget.class(obj.get("class"));
    out.insert("class".into(), json!(class));
    if kind != "points"
        && kind != "text"
        && let Some(label) = budget.label(obj.get("label"))
    {
        out.insert("label".into(), json!(label));
    }
    Some(Value::Object(out))
}

/// A `grid` primitive: `rows` × `cols` cells of side `cell` from (`x`, `y`),
/// with optional row-major `labels` and `classes` matrices.
fn grid(
    obj: &Map<String, Value>,
    mut out: Map<String, Value>,
    budget: &mut Budget,
) -> Option<Value> {
    let count = |key: &str| obj.get(key).and_then(Value::as_u64).filter(|&n| n > 0);
    let coordinate = |budget: &Budget, key: &str| match obj.get(key) {
        None => Some(0.0),
        Some(v) => budget.number(v),
    };
    let (Some(rows), Some(cols), Some(x), Some(y)) = (
        count("rows"),
        count("cols"),
        coordinate(budget, "x"),
        coordinate(budget, "y"),
    ) else {
        budget.malformed += 1;
        return None;
    };
    let cell = match obj.get("cell") {
        None => Some(1.0),
        Some(v) => budget.number(v).filter(|&c| c > 0.0),
    };
    let Some(cell) = cell else {
        budget.malformed += 1;
        return None;
    };
    let cells = rows.checked_mul(cols)?;
    let cells = usize::try_from(cells).unwrap_or(usize::MAX);
    if !budget.take(cells, 4) {
        return None;
    }
    let (rows, cols) = (rows as usize, cols as usize);
    budget.extend([x, y]);
    budget.extend([x + cell * cols as f64, y + cell * rows as f64]);
    let default = budget.class(obj.get("class"));
    let matrix = |budget: &mut Budget,
                  key: &str,
                  each: &mut dyn FnMut(&mut Budget, &Value) -> Value|
     -> Option<Value> {
        let given = obj.get(key)?.as_array()?;
        Some(Value::Array(
            (0..rows)
                .map(|r| {
                    let row = given.get(r).and_then(Value::as_array);
                    Value::Array(
                        (0..cols)
                            .map(|c| match row.and_then(|row| row.get(c)) {
                                Some(v) => each(budget, v),
                                None => Value::Null,
                            })
                            .collect(),
                    )
                })
                .collect(),
        ))
    };
    let labels = matrix(budget, "labels", &mut |b, v| {
        b.label(Some(v)).map_or(Value::Null, Value::String)
    });
    let classes = matrix(budget, "classes", &mut |b, v| match v {
        Value::Null => Value::Null,
        Value::String(s) if s.is_empty() => Value::Null,
        v => json!(b.class(Some(v))),
    });
    out.insert("x".into(), json!(x));
    out.insert("y".into(), json!(y));
    out.insert("cell".into(), json!(cell));
    out.insert("rows".into(), json!(rows));
    out.insert("cols".into(), json!(cols));
    out.insert("class".into(), json!(default));
    if let Some(labels) = labels {
        out.insert("labels".into(), labels);
    }
    if let Some(classes) = classes {
        out.insert("classes".into(), classes);
    }
    if let Some(label) = budget.label(obj.get("label")) {
        out.insert("label".into(), json!(label));
    }
    Some(Value::Object(out))
}

/// Validates and caps a figure (see the module docs and `FIGURE.md`): the
/// result has only the schema's keys, a view box, a `y_up` flag, the kept
/// `items`, and `notes` on whatever was dropped, cut or remapped.
pub fn sanitize(figure: &Value, limits: &FigureLimits) -> Result<Value, FigureError> {
    let obj = figure.as_object().ok_or(FigureError::NotAnObject)?;
    let items = obj
        .get("items")
        .and_then(Value::as_array)
        .ok_or(FigureError::NoItems)?;
    let mut budget = Budget {
        limits,
        primitives: 0,
        coordinates: 0,
        malformed: 0,
        over_cap: 0,
        unknown_classes: 0,
        cut_labels: 0,
        bounds: None,
    };
    let mut kept = Vec::new();
    let mut unread = 0;
    for (n, item) in items.iter().enumerate() {
        // Once the primitive cap is reached nothing more can fit: stop reading.
        if budget.primitives >= limits.max_primitives {
            unread = items.len() - n;
            break;
        }
        if let Some(p) = primitive(item, &mut budget) {
            kept.push(p);
        }
    }
    if kept.is_empty() {
        return Err(FigureError::Empty);
    }
    let mut out = Map::new();
    for (key, max) in [
        ("title", limits.max_title_chars),
        ("caption", limits.max_caption_chars),
    ] {
        if let Some(text) = obj.get(key).and_then(Value::as_str) {
            out.insert(key.into(), json!(clean_text(text, max)));
        }
    }
    let given_box = obj.get("view_box").and_then(|v| {
        let v = v.as_array()?;
        let nums: Option<Vec<f64>> = v.iter().map(|n| budget.number(n)).collect();
        match nums?.as_slice() {
            &[x, y, w, h] if w > 0.0 && h > 0.0 => Some([x, y, w, h]),
            _ => None,
        }
    });
    let view_box = given_box.unwrap_or_else(|| {
        let [x0, y0, x1, y1] = budget.bounds.unwrap_or([0.0, 0.0, 1.0, 1.0]);
        let (w, h) = ((x1 - x0).max(1e-9), (y1 - y0).max(1e-9));
        let pad = 0.05 * w.max(h);
        [x0 - pad, y0 - pad, w + 2.0 * pad, h + 2.0 * pad]
    });
    out.insert("view_box".into(), json!(view_box));
    out.insert(
        "y_up".into(),
        json!(obj.get("y_up").and_then(Value::as_bool).unwrap_or(false)),
    );
    out.insert("items".into(), Value::Array(kept));
    let mut notes = Vec::new();
    if budget.over_cap + unread > 0 {
        notes.push(format!(
            "{} item(s) left out: over the caps of {} primitives / {} coordinates",
            budget.over_cap + unread,
            limits.max_primitives,
            limits.max_coordinates
        ));
    }
    if budget.malformed > 0 {
        notes.push(format!("{} malformed item(s) left out", budget.malformed));
    }
    if budget.unknown_classes > 0 {
        notes.push(format!(
            "{} unknown style class(es) drawn as neutral",
            budget.unknown_classes
        ));
    }
    if budget.cut_labels > 0 {
        notes.push(format!(
            "{} label(s) cut to {} characters",
            budget.cut_labels, limits.max_label_chars
        ));
    }
    if given_box.is_none() && obj.contains_key("view_box") {
        notes.push("invalid view_box replaced by the drawing's bounds".to_owned());
    }
    notes.truncate(limits.max_notes);
    if !notes.is_empty() {
        out.insert("notes".into(), json!(notes));
    }
    Ok(Value::Object(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(figure: Value) -> Value {
        sanitize(&figure, &FigureLimits::default()).unwrap()
    }

    #[test]
    fn a_well_formed_figure_keeps_its_primitives() {
        let f = ok(json!({
            "title": "t", "caption": "c", "view_box": [0, 0, 4, 4], "y_up": true,
            "items": [
                {"type": "polygon", "points": [[0,0],[4,0],[0,4]], "class": "ok", "label": "A",
                 "holes": [[[1,1],[2,1],[1,2]]]},
                {"type": "polyline", "points": [[0,0],[1,1]], "class": "highlight", "closed": true},
                {"type": "points", "points": [[1,1],[2,2]], "labels": ["p", 3]},
                {"type": "segment", "from": [0,0], "to": [2,2], "class": "wrong"},
                {"type": "text", "at": [1,1], "text": "hi", "size": 0.5},
                {"type": "grid", "x": 0, "y": 0, "cell": 1, "rows": 2, "cols": 2,
                 "labels": [["a","b"],["c"]], "classes": [["ok", ""],[null, "wrong"]]}
            ]
        }));
        assert_eq!(f["items"].as_array().unwrap().len(), 6);
        assert_eq!(f["view_box"], json!([0.0, 0.0, 4.0, 4.0]));
        assert_eq!(f["y_up"], true);
        assert_eq!(f["items"][2]["labels"], json!(["p", "3"]));
        assert_eq!(
            f["items"][0]["holes"],
            json!([[[1.0, 1.0], [2.0, 1.0], [1.0, 2.0]]])
        );
        assert_eq!(f["items"][5]["labels"], json!([["a", "b"], ["c", null]]));
        assert_eq!(
            f["items"][5]["classes"],
            json!([["ok", null], [null, "wrong"]])
        );
        assert_eq!(f["items"][4]["class"], "neutral");
        assert!(f.get("notes").is_none(), "{f}");
    }

    #[test]
    fn unknown_keys_and_classes_are_dropped_or_mapped() {
        let f = ok(json!({
            "onload": "alert(1)",
            "items": [{"type": "polygon", "points": [[0,0],[1,0],[0,1]],
                       "class": "x\" onclick=\"alert(1)", "style": "fill:url(http://evil)",
                       "href": "javascript:alert(1)"}]
        }));
        let item = f["items"][0].as_object().unwrap();
        let mut keys: Vec<&String> = item.keys().collect();
        keys.sort();
        assert_eq!(keys, ["class", "points", "type"]);
        assert_eq!(item["class"], "neutral");
        assert!(f.get("onload").is_none());
        assert_eq!(f["notes"][0], "1 unknown style class(es) drawn as neutral");
    }

    #[test]
    fn labels_are_cut_and_single_line() {
        let long = "<script>alert('x')</script>".repeat(10);
        let f = ok(json!({"title": "a\nb\u{2028}c", "items": [
            {"type": "text", "at": [0, 0], "text": long},
        ]}));
        let text = f["items"][0]["text"].as_str().unwrap();
        assert_eq!(text.chars().count(), 41);
        assert!(text.ends_with('…'));
        assert_eq!(f["title"], "a b c");
        assert_eq!(f["notes"][0], "1 label(s) cut to 40 characters");
    }

    #[test]
    fn non_finite_and_huge_coordinates_are_malformed() {
        let f = ok(json!({"items": [
            {"type": "polygon", "points": [[0,0],[1,0],[0,1]]},
            {"type": "polygon", "points": [[0,0],[1e300,0],[0,1]]},
            {"type": "segment", "from": [0, "1"], "to": [1, 1]},
            {"type": "points", "points": [[0, null]]},
            {"type": "polygon", "points": [[0,0],[1,0]]},
            {"type": "polygon", "points": [[0,0],[1,0],[0,1]], "holes": [[[0,0],[1,1]]]},
            {"type": "polygon", "points": [[0,0],[1,0],[0,1]], "holes": "x"},
            {"type": "grid", "rows": 0, "cols": 2},
            {"type": "grid", "rows": 2, "cols": 2, "cell": -1},
            {"type": "text", "at": [0, 0], "text": "x", "size": 0},
            {"type": "circle"},
            "nonsense",
        ]}));
        assert_eq!(f["items"].as_array().unwrap().len(), 1);
        assert_eq!(f["notes"][0], "11 malformed item(s) left out");
    }

    #[test]
    fn malformed_figures_are_errors() {
        let limits = FigureLimits::default();
        assert_eq!(
            sanitize(&json!("x"), &limits),
            Err(FigureError::NotAnObject)
        );
        assert_eq!(sanitize(&json!({}), &limits), Err(FigureError::NoItems));
        assert_eq!(
            sanitize(&json!({"items": {"a": 1}}), &limits),
            Err(FigureError::NoItems)
        );
        assert_eq!(
            sanitize(&json!({"items": [1, {"type": "polygon"}]}), &limits),
            Err(FigureError::Empty)
        );
    }

    #[test]
    fn primitive_cap_holds() {
        let items: Vec<Value> = (0..20_000)
            .map(|i| json!({"type": "segment", "from": [i, 0], "to": [i, 1]}))
            .collect();
        let f = ok(json!({ "items": items }));
        assert_eq!(f["items"].as_array().unwrap().len(), 5_000);
        assert_eq!(
            f["notes"][0],
            "15000 item(s) left out: over the caps of 5000 primitives / 100000 coordinates"
        );
    }

    #[test]
    fn coordinate_cap_holds() {
        // Polylines of 10,000 points (20,000 coordinates) each: only 5 fit.
        let line: Vec<Value> = (0..10_000).map(|i| json!([i, i])).collect();
        let items: Vec<Value> = (0..8)
            .map(|_| json!({"type": "polyline", "points": line}))
            .collect();
        let f = ok(json!({ "items": items }));
        assert_eq!(f["items"].as_array().unwrap().len(), 5);
        // One polyline over the whole cap is refused outright, unread.
        let huge: Vec<Value> = (0..60_000).map(|i| json!([i, i])).collect();
        let limits = FigureLimits::default();
        assert_eq!(
            sanitize(
                &json!({"items": [{"type": "polyline", "points": huge}]}),
                &limits
            ),
            Err(FigureError::Empty)
        );
    }

    #[test]
    fn grids_count_every_cell() {
        let f = ok(json!({"items": [
            {"type": "grid", "rows": 50, "cols": 50},
            {"type": "grid", "rows": 50, "cols": 50},
            {"type": "grid", "rows": 1, "cols": 1},
            {"type": "grid", "rows": 1_000_000_000u64, "cols": 1_000_000_000u64},
        ]}));
        // 2,500 + 2,500 cells fill the cap; the rest are left out.
        assert_eq!(f["items"].as_array().unwrap().len(), 2);
        assert!(
            f["notes"][0]
                .as_str()
                .unwrap()
                .starts_with("2 item(s) left out")
        );
        // Labels beyond the grid's shape are ignored; missing ones are null.
        let f = ok(json!({"items": [{"type": "grid", "rows": 1, "cols": 2,
            "labels": [["a", "b", "c"], ["d"]], "classes": "bad"}]}));
        assert_eq!(f["items"][0]["labels"], json!([["a", "b"]]));
        assert!(f["items"][0].get("classes").is_none());
    }

    #[test]
    fn view_box_defaults_to_padded_bounds() {
        let f = ok(json!({"view_box": [0, 0, -1, 2], "items": [
            {"type": "segment", "from": [0, 0], "to": [10, 20]},
        ]}));
        assert_eq!(f["view_box"], json!([-1.0, -1.0, 12.0, 22.0]));
        assert_eq!(
            f["notes"][0],
            "invalid view_box replaced by the drawing's bounds"
        );
    }
}
