//! Imports every `*.svg` of a directory (KiloGram's `dataset/tangrams-svg/`)
//! and prints what was accepted and why the rest was refused:
//!
//! ```sh
//! cargo run --release -p verigate-kilogram --example survey -- DIR [--items OUT]
//! ```
//!
//! With `--items OUT`, the accepted assemblies' Task 1 and Task 2 item files
//! are written under `OUT/` (registry layout: `OUT/items/…`).

use std::collections::BTreeMap;
use std::path::PathBuf;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = PathBuf::from(args.first().ok_or("usage: survey DIR [--items OUT]")?);
    let out = args
        .iter()
        .position(|a| a == "--items")
        .and_then(|i| args.get(i + 1))
        .map(PathBuf::from);
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".svg"))
        .collect();
    names.sort();
    let mut accepted = Vec::new();
    let mut refused: BTreeMap<&'static str, Vec<String>> = BTreeMap::new();
    for name in &names {
        let text = std::fs::read_to_string(dir.join(name)).map_err(|e| format!("{name}: {e}"))?;
        match verigate_kilogram::import(name, &text) {
            Ok(a) => accepted.push(a),
            Err(r) => refused.entry(r.category).or_default().push(r.to_string()),
        }
    }
    println!("{} files: {} accepted", names.len(), accepted.len());
    let mut lattices: BTreeMap<String, usize> = BTreeMap::new();
    for a in &accepted {
        let s = if a.lattice.surd { "s√2" } else { "s" };
        *lattices
            .entry(format!("{s}/{:03}", a.lattice.m))
            .or_default() += 1;
    }
    if std::env::var_os("SURVEY_LATTICES").is_some() {
        for (l, n) in &lattices {
            println!("lattice {l}: {n}");
        }
        for a in &accepted {
            let s = if a.lattice.surd { "s√2" } else { "s" };
            println!("accepted {} {s}/{}", a.name, a.lattice.m);
        }
    }
    for (category, list) in &refused {
        println!("refused ({category}): {}", list.len());
    }
    for list in refused.values() {
        for line in list {
            println!("  {line}");
        }
    }
    if let Some(out) = out {
        let files = verigate_kilogram::item_files(&accepted);
        for file in &files {
            let path = out.join(&file.path);
            std::fs::create_dir_all(path.parent().expect("a file in a directory"))
                .map_err(|e| format!("{}: {e}", path.display()))?;
            std::fs::write(&path, &file.contents)
                .map_err(|e| format!("{}: {e}", path.display()))?;
        }
        println!("{} item files written under {}", files.len(), out.display());
    }
    Ok(())
}
