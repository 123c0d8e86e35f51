//! Imports SPhyR dataset files (`datasets/<config>.jsonl` of
//! <https://github.com/philippds/SPhyR>, MIT) as item families
//! `sphyr/<config>`: one `family.toml` and one `rows.jsonl` per config, so
//! the 16 configs × 1,296 rows are 32 files, not 20,736 directories.
//!
//! Rows are checked line by line (`index` an integer, unique; `input_grid`
//! and `ground_truth` grids of the same shape — lists of rows of cell
//! strings, or the older text form, one row per line) and written back in
//! the list form the `sphyr` verifier reads.

use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::path::Path;
use verigate_registry::family::{FAMILY_FILE, Family, FieldCounterexample, ROWS_FILE, Witnesses};
use verigate_registry::item::{ItemKind, Metadata, PayloadMode};
use verigate_registry::lock::Lock;
use verigate_registry::{Registry, RegistryError};
use verigate_sandbox::Limits;

/// The name of the SPhyR verifier in `modules.toml`.
pub const MODULE: &str = "sphyr";

/// The dataset card's prompt; `{FILL_INSTRUCTION}` depends on the config's
/// difficulty, `{GRID}` is the row's `input_grid` as text.
const PROMPT: &str = "You are given a structural material distribution represented as a grid. Each cell can have one of the following states:
- 'L' indicates applied load.
- 'V' indicates void.
- 'S' indicates support.

The goal is to predict the correct material distribution by filling in all {FILL_INSTRUCTION}, based on the surrounding structure and implicit physical reasoning (such as load paths, supports, and forces).

Important: The completed structure should use as little material as possible while remaining stable and plausible for carrying the applied forces. Minimize material usage unless necessary for structural support.

Below is the input grid with masked regions:

{GRID}

Please output the completed grid by replacing all {FILL_INSTRUCTION}.
Maintain the same format as the input: one row per line, cells separated by spaces, and the total number of rows and columns unchanged.
Return only the completed grid without any additional explanation.";

/// What one imported dataset file became.
#[derive(Debug)]
pub struct Imported {
    /// The family id, `sphyr/<config>`.
    pub family: String,
    /// Rows written.
    pub rows: usize,
}

/// A grid cell list from a row field: lists of strings, or text (one row
/// per line, cells separated by whitespace).
fn grid(value: &Value) -> Result<Vec<Vec<String>>, String> {
    if let Some(text) = value.as_str() {
        return Ok(text
            .lines()
            .map(|line| line.split_whitespace().map(str::to_owned).collect())
            .collect());
    }
    let rows = value
        .as_array()
        .ok_or("expected a list of rows or a text grid")?;
    rows.iter()
        .enumerate()
        .map(|(r, row)| {
            row.as_array()
                .ok_or(format!("row {} is not a list", r + 1))?
                .iter()
                .enumerate()
                .map(|(c, cell)| match cell {
                    Value::String(s) => Ok(s.clone()),
                    other => Err(format!(
                        "row {} cell {} is {other}, not a string",
                        r + 1,
                        c + 1
                    )),
                })
                .collect()
        })
        .collect()
}

/// The shape of a grid, if every row has the same length.
fn shape(grid: &[Vec<String>]) -> Option<(usize, usize)> {
    let cols = grid.first().map_or(0, Vec::len);
    (!grid.is_empty() && cols > 0 && grid.iter().all(|r| r.len() == cols))
        .then_some((grid.len(), cols))
}

/// One checked row as the line stored in `rows.jsonl`.
fn row_line(line: &str, seen: &mut BTreeSet<i64>) -> Result<String, String> {
    let row: Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    let index = row
        .get("index")
        .ok_or("field `index`: missing")?
        .as_i64()
        .ok_or("field `index`: not an integer")?;
    if !seen.insert(index) {
        return Err(format!("field `index`: {index} appears twice"));
    }
    let mut grids = Vec::new();
    for field in ["input_grid", "ground_truth"] {
        let value = row.get(field).ok_or(format!("field `{field}`: missing"))?;
        let g = grid(value).map_err(|e| format!("field `{field}`: {e}"))?;
        let Some(s) = shape(&g) else {
            return Err(format!(
                "field `{field}`: not a rectangular, non-empty grid"
            ));
        };
        grids.push((g, s));
    }
    if grids[0].1 != grids[1].1 {
        return Err(format!(
            "fields `input_grid` ({}x{}) and `ground_truth` ({}x{}) differ in shape",
            grids[0].1.0, grids[0].1.1, grids[1].1.0, grids[1].1.1
        ));
    }
    Ok(json!({"index": index, "input_grid": grids[0].0, "ground_truth": grids[1].0}).to_string())
}

/// The family description of `config` (`…_easy` or `…_hard`).
fn family(config: &str, source: &str) -> Result<Family, String> {
    let fill = if config.ends_with("_easy") {
        "'V' cells with either '1' (solid) or '0' (empty)"
    } else if config.ends_with("_hard") {
        "'V' cells with a floating point number between 0 and 1, with one decimal place (e.g., 0.0, 0.1, 0.2, ..., 1.0)"
    } else {
        return Err(format!(
            "the config `{config}` (the file's name) must end in `_easy` or `_hard`, as SPhyR's do"
        ));
    };
    Ok(Family {
        family: format!("sphyr/{config}"),
        key: "index".into(),
        module: MODULE.into(),
        protocol: None,
        payload: PayloadMode::Raw,
        limits: Limits {
            fuel: 50_000_000,
            memory_bytes: 32 << 20,
            timeout_ms: 2_000,
            ..Limits::default()
        },
        metadata: Metadata {
            benchmark: "sphyr".into(),
            kind: ItemKind::Construction,
            source: Some(format!("SPhyR (philippds/SPhyR, MIT), {source}")),
            year: Some(2025),
            category: Some(config.into()),
            problem: Some(format!(
                "SPhyR {config}: complete the masked cells of a topology-optimisation grid"
            )),
            construction_instruction: Some(PROMPT.replace("{FILL_INSTRUCTION}", fill).replace(
                "{GRID}",
                "{GRID} (the item's input_grid, one row per line, cells separated by spaces)",
            )),
            grading_guideline: None,
            reference_answer: None,
            reference_solution: None,
        },
        witnesses: Witnesses {
            reference: "ground_truth".into(),
            counterexamples: vec![FieldCounterexample {
                field: "input_grid".into(),
                why: "the input grid returned unchanged: every masked cell still differs".into(),
            }],
        },
    })
}

/// Imports each dataset file into the registry at `root` as the family
/// `sphyr/<file stem>` (replacing an earlier import of the same config),
/// keeping at most `limit` rows of each, then rewrites the lock. Nothing is
/// written unless every file checks; errors name the file, line and field.
pub fn import(
    root: &Path,
    files: &[&Path],
    limit: Option<usize>,
) -> Result<Vec<Imported>, RegistryError> {
    let registry = Registry::open(root)?;
    registry.module(MODULE)?;
    let mut staged = Vec::new();
    for path in files {
        let at = |what: String| RegistryError(format!("{}: {what}", path.display()));
        let config = path
            .file_stem()
            .and_then(|s| s.to_str())
            .ok_or_else(|| at("no file name".into()))?;
        let family = family(config, &format!("datasets/{config}.jsonl")).map_err(at)?;
        let text = std::fs::read_to_string(path).map_err(|e| at(e.to_string()))?;
        let mut seen = BTreeSet::new();
        let mut lines = Vec::new();
        for (number, line) in text.lines().enumerate() {
            if line.trim().is_empty() || limit.is_some_and(|n| lines.len() >= n) {
                continue;
            }
            let row = row_line(line, &mut seen)
                .map_err(|e| RegistryError(format!("{}:{}: {e}", path.display(), number + 1)))?;
            lines.push(row);
        }
        if lines.is_empty() {
            return Err(at("no rows".into()));
        }
        staged.push((family, lines));
    }
    let mut imported = Vec::new();
    for (family, lines) in staged {
        let dir = root.join("items").join(&family.family);
        let io = |e: std::io::Error| RegistryError(format!("{}: {e}", dir.display()));
        std::fs::create_dir_all(&dir).map_err(io)?;
        let toml = toml::to_string(&family).expect("a family serialises");
        std::fs::write(dir.join(FAMILY_FILE), toml).map_err(io)?;
        std::fs::write(dir.join(ROWS_FILE), lines.join("\n") + "\n").map_err(io)?;
        imported.push(Imported {
            family: family.family,
            rows: lines.len(),
        });
    }
    Lock::compute(root)?.write(root)?;
    Registry::open(root)?;
    Ok(imported)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_checked_and_normalised() {
        let mut seen = BTreeSet::new();
        let line =
            r#"{"index": 3, "input_grid": "L V\n0 S", "ground_truth": [["L","1"],["0","S"]]}"#;
        assert_eq!(
            row_line(line, &mut seen).unwrap(),
            r#"{"ground_truth":[["L","1"],["0","S"]],"index":3,"input_grid":[["L","V"],["0","S"]]}"#
        );
        assert_eq!(
            row_line(line, &mut seen).unwrap_err(),
            "field `index`: 3 appears twice"
        );
        let mut seen = BTreeSet::new();
        let ragged = r#"{"index": 0, "input_grid": [["L"],["0","S"]], "ground_truth": [["L"]]}"#;
        assert_eq!(
            row_line(ragged, &mut seen).unwrap_err(),
            "field `input_grid`: not a rectangular, non-empty grid"
        );
        let numbers = r#"{"index": 1, "input_grid": [[0]], "ground_truth": [["0"]]}"#;
        assert_eq!(
            row_line(numbers, &mut seen).unwrap_err(),
            "field `input_grid`: row 1 cell 1 is 0, not a string"
        );
        let shapes = r#"{"index": 2, "input_grid": [["0","1"]], "ground_truth": [["0"],["1"]]}"#;
        assert!(
            row_line(shapes, &mut seen)
                .unwrap_err()
                .contains("differ in shape")
        );
    }

    #[test]
    fn the_config_names_the_difficulty() {
        let easy = family("1_random_cell_easy", "x").unwrap();
        let text = easy.metadata.construction_instruction.unwrap();
        assert!(text.contains("either '1' (solid) or '0' (empty)"));
        assert!(family("full_medium", "x").unwrap_err().contains("_easy"));
    }
}
