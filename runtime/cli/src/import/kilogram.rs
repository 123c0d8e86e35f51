//! `registry import-kilogram`: KiloGram's tangram SVGs as TangramPuzzle
//! Task 1 and Task 2 items (see [`verigate_kilogram`] for what is accepted).
//!
//! Every file is read and checked before anything is written; a refused file
//! changes nothing and is reported as `file: piece N: reason`. Existing items
//! are never overwritten.

use anyhow::{Context, bail};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use verigate_kilogram::Refusal;
use verigate_registry::{Lock, Registry};

/// What an import did.
pub struct Imported {
    /// Files accepted (each one Task 2 item and, with enough other shapes, one Task 1 item).
    pub accepted: usize,
    /// Files refused, with why.
    pub refused: Vec<Refusal>,
    /// Item files written.
    pub written: usize,
}

/// The `.svg` files named by `inputs` (files, or directories read one level deep), sorted.
fn svg_files(inputs: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let entries = std::fs::read_dir(input)
                .with_context(|| format!("cannot read {}", input.display()))?;
            for entry in entries {
                let path = entry?.path();
                if path.extension().is_some_and(|e| e == "svg") {
                    files.push(path);
                }
            }
        } else {
            files.push(input.clone());
        }
    }
    files.sort();
    Ok(files)
}

/// Imports the KiloGram SVGs named by `inputs` into the registry at `root`.
pub fn import(root: &Path, inputs: &[PathBuf]) -> anyhow::Result<Imported> {
    let registry = Registry::open(root)?;
    for module in ["tangram", "tangram-outline"] {
        registry.module(module).with_context(|| {
            format!(
                "the registry at {} cannot grade KiloGram items",
                root.display()
            )
        })?;
    }
    let (mut accepted, mut refused) = (Vec::new(), Vec::new());
    for path in svg_files(inputs)? {
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        match verigate_kilogram::import(&name, &text) {
            Ok(assembly) => accepted.push(assembly),
            Err(refusal) => refused.push(refusal),
        }
    }
    let files = verigate_kilogram::item_files(&accepted);
    let existing: Vec<&str> = (files.iter())
        .filter(|f| root.join(&f.path).exists())
        .map(|f| f.path.as_str())
        .collect();
    if !existing.is_empty() {
        bail!(
            "{} file(s) exist already (e.g. {}); nothing was written",
            existing.len(),
            existing[0]
        );
    }
    for file in &files {
        let path = root.join(&file.path);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        std::fs::write(&path, &file.contents)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Lock::compute(root)?.write(root)?;
    Ok(Imported {
        accepted: accepted.len(),
        refused,
        written: files.len(),
    })
}

/// Refusals counted by category, for the summary line.
pub fn counts(refused: &[Refusal]) -> BTreeMap<&'static str, usize> {
    let mut counts = BTreeMap::new();
    for refusal in refused {
        *counts.entry(refusal.category).or_default() += 1;
    }
    counts
}
