//! Item families: many items that share a verifier and differ only in data,
//! stored as one `family.toml` and one `rows.jsonl` (a JSON object per line)
//! instead of a directory per item — a dataset of 20,000 rows is two files.
//!
//! Each row becomes the item `<family>/<key>`, where `key` is the row's value
//! of the family's `key` field; the row itself reaches the verifier in
//! `VERIGATE_ROW`. Witnesses are fields of the row rendered as text: a list
//! of lists is a grid (rows on lines, cells separated by spaces), a string is
//! itself, anything else its JSON.

use crate::item::{Counterexample, Item, Metadata, PayloadMode};
use crate::{RegistryError, read_toml};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::path::Path;
use std::sync::Arc;
use verigate_sandbox::{Limits, Protocol};

/// Name of a family's description inside its directory.
pub const FAMILY_FILE: &str = "family.toml";
/// Name of a family's rows inside its directory.
pub const ROWS_FILE: &str = "rows.jsonl";

/// How each row yields its witnesses.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Witnesses {
    /// The row field whose text is the reference witness (must pass).
    pub reference: String,
    /// Row fields whose text must not pass (skipped for a row where it
    /// equals the reference), each with the reason.
    #[serde(
        default,
        rename = "counterexample",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub counterexamples: Vec<FieldCounterexample>,
}

/// A counterexample taken from a row field.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FieldCounterexample {
    /// The row field.
    pub field: String,
    /// Why it must not pass.
    pub why: String,
}

/// `family.toml`: what every item of the family shares.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Family {
    /// The id prefix of the family's items; equal to its directory under `items/`.
    pub family: String,
    /// The row field (a string or an integer) that names each item.
    pub key: String,
    /// Name of the verifier module (a key of `modules.toml`).
    pub module: String,
    /// Protocol override; else the module's declared protocol.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol: Option<Protocol>,
    /// How a response becomes the payload.
    #[serde(default)]
    pub payload: PayloadMode,
    /// Limits of every item; fields left out take the defaults.
    #[serde(default)]
    pub limits: Limits,
    /// Descriptive fields shared by every item.
    pub metadata: Metadata,
    /// Where each row's witnesses come from.
    pub witnesses: Witnesses,
}

/// Text of a row field as a payload: a grid of cells is one line per row,
/// cells separated by single spaces; a string is itself; else its JSON.
pub fn field_text(value: &Value) -> String {
    let grid = value.as_array().and_then(|rows| {
        rows.iter()
            .map(|row| {
                row.as_array()?
                    .iter()
                    .map(|cell| match cell {
                        Value::String(s) => Some(s.clone()),
                        Value::Number(n) => Some(n.to_string()),
                        _ => None,
                    })
                    .collect::<Option<Vec<_>>>()
                    .map(|cells| cells.join(" "))
            })
            .collect::<Option<Vec<_>>>()
    });
    match (grid, value) {
        (Some(lines), _) => lines.join("\n"),
        (None, Value::String(s)) => s.clone(),
        (None, other) => other.to_string(),
    }
}

impl Family {
    /// Reads `family.toml` in `dir`, checking that `family` names `dir`.
    pub fn read(dir: &Path, expected: &str) -> Result<Family, RegistryError> {
        let path = dir.join(FAMILY_FILE);
        let family: Family = read_toml(&path)?;
        if family.family != expected {
            return Err(RegistryError(format!(
                "{}: field `family` is `{}` but the family lives in items/{expected}",
                path.display(),
                family.family
            )));
        }
        Ok(family)
    }

    /// The items of the family, one per line of `rows.jsonl` in `dir`;
    /// errors name the file, the line and the field.
    pub fn items(&self, dir: &Path) -> Result<Vec<Item>, RegistryError> {
        let path = dir.join(ROWS_FILE);
        let text = std::fs::read_to_string(&path)
            .map_err(|e| RegistryError(format!("{}: {e}", path.display())))?;
        let mut items = Vec::new();
        for (index, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let at =
                |what: String| RegistryError(format!("{}:{}: {what}", path.display(), index + 1));
            let row: Map<String, Value> =
                serde_json::from_str(line).map_err(|e| at(format!("not a JSON object: {e}")))?;
            let item = self.item(&row, line).map_err(at)?;
            item.check().map_err(at)?;
            items.push(item);
        }
        Ok(items)
    }

    /// The item of one row (`line` is the row's text, passed to the guest).
    fn item(&self, row: &Map<String, Value>, line: &str) -> Result<Item, String> {
        let field = |name: &str| {
            row.get(name)
                .ok_or_else(|| format!("field `{name}`: missing"))
        };
        let key = match field(&self.key)? {
            Value::String(s) => s.clone(),
            Value::Number(n) if n.is_u64() || n.is_i64() => n.to_string(),
            other => {
                return Err(format!(
                    "field `{}`: the item key must be a string or an integer, not {other}",
                    self.key
                ));
            }
        };
        let reference = field_text(field(&self.witnesses.reference)?);
        let mut counterexamples = Vec::new();
        for c in &self.witnesses.counterexamples {
            let payload = field_text(field(&c.field)?);
            if payload != reference {
                counterexamples.push(Counterexample {
                    payload,
                    why: Some(c.why.clone()),
                });
            }
        }
        Ok(Item {
            id: format!("{}/{key}", self.family),
            module: Some(self.module.clone()),
            protocol: self.protocol,
            payload: self.payload,
            limits: self.limits,
            metadata: self.metadata.clone(),
            reference: Some(reference),
            reference_score: None,
            counterexamples,
            row: Some(Arc::from(line.trim())),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn grids_render_as_lines_of_space_separated_cells() {
        assert_eq!(field_text(&json!([["L", "0"], ["1", "S"]])), "L 0\n1 S");
        assert_eq!(field_text(&json!([[0.5, 1], ["V", "0"]])), "0.5 1\nV 0");
        assert_eq!(field_text(&json!("as is")), "as is");
        assert_eq!(field_text(&json!({"a": [1]})), r#"{"a":[1]}"#);
        // A list that is not a grid of cells keeps its JSON.
        assert_eq!(field_text(&json!([[{"x": 1}]])), r#"[[{"x":1}]]"#);
    }
}
