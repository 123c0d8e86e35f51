//! TangramPuzzle from KiloGram's files: SVGs written here in KiloGram's format
//! (one exact, one rotated off the grid, one with overlapping pieces, one
//! malformed) imported into a scratch registry, verified and graded.

use crate::common::*;
use std::process::Command;

/// The classic square in KiloGram's layout (ids: 1 square, 2 parallelogram,
/// 3–4 small, 5 medium, 6–7 large triangles), on a 4 × 4 grid scaled by 36,
/// each point mapped by `at`.
fn square_svg(at: &dyn Fn(f64, f64) -> (f64, f64), small_4: [(f64, f64); 3]) -> String {
    let pieces: [(&str, Vec<(f64, f64)>); 7] = [
        ("1", vec![(2.0, 2.0), (3.0, 1.0), (4.0, 2.0), (3.0, 3.0)]),
        ("2", vec![(0.0, 4.0), (1.0, 3.0), (3.0, 3.0), (2.0, 4.0)]),
        ("3", vec![(2.0, 2.0), (3.0, 3.0), (1.0, 3.0)]),
        ("4", small_4.to_vec()),
        ("5", vec![(4.0, 4.0), (2.0, 4.0), (4.0, 2.0)]),
        ("6", vec![(0.0, 0.0), (4.0, 0.0), (2.0, 2.0)]),
        ("7", vec![(0.0, 0.0), (2.0, 2.0), (0.0, 4.0)]),
    ];
    let polygons: String = pieces
        .iter()
        .map(|(id, points)| {
            let points: Vec<String> = points
                .iter()
                .map(|&(x, y)| {
                    let (x, y) = at(36.0 * x, 36.0 * y);
                    format!("{x},{y}")
                })
                .collect();
            format!(
                "<polygon fill=\"lightgray\" id=\"{id}\" points=\"{}\" stroke=\"white\"/>",
                points.join(" ")
            )
        })
        .collect();
    format!("<svg viewBox=\"0 0 144.0 144.0\"><defs/>{polygons}</svg>")
}

const SMALL_4: [(f64, f64); 3] = [(4.0, 0.0), (4.0, 2.0), (3.0, 1.0)];

#[test]
fn kilogram_files_are_imported_exactly_or_refused_by_file_and_piece() {
    let identity = |x: f64, y: f64| (x, y);
    let (sin, cos) = 10f64.to_radians().sin_cos();
    let rotated = move |x: f64, y: f64| (x * cos - y * sin, x * sin + y * cos);
    let svgs = tempdir_with(&[
        ("square.svg", &square_svg(&identity, SMALL_4)),
        ("rotated.svg", &square_svg(&rotated, SMALL_4)),
        // The small triangle laid over the square.
        (
            "overlap.svg",
            &square_svg(&identity, [(2.0, 2.0), (4.0, 2.0), (3.0, 1.0)]),
        ),
        (
            "broken.svg",
            "<svg><polygon id=\"1\" points=\"1,2 3\"/></svg>",
        ),
    ]);
    let registry = scratch_registry();
    let out = Command::new(env!("CARGO_BIN_EXE_verigate"))
        .args(["registry", "import-kilogram", "--registry"])
        .arg(registry.path())
        .arg(svgs.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("1 file(s) accepted, 3 refused"), "{stdout}");
    for refused in [
        "refused broken.svg: ",
        "refused overlap.svg: piece ",
        "refused rotated.svg: piece ",
    ] {
        assert!(stdout.contains(refused), "{refused} in\n{stdout}");
    }

    let opened = verigate_registry::Registry::open(registry.path()).unwrap();
    let item = opened
        .item("tangram/kilogram/square")
        .expect("the exact file's item");
    let report = verigate_registry::maintain::verify(registry.path(), &sandbox());
    assert!(report.problems.is_empty(), "{:#?}", report.problems);

    let line = serde_json::json!({"id": item.id, "sample": 0, "response": item.reference});
    let responses = tempdir_with(&[("responses.jsonl", &format!("{line}\n"))]);
    let out = Command::new(env!("CARGO_BIN_EXE_verigate"))
        .args(["grade", "--no-cache", "--registry"])
        .arg(registry.path())
        .arg("--responses")
        .arg(responses.path().join("responses.jsonl"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let record: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(record["outcome"], "pass", "{record}");
    assert_eq!(record["details"]["success"], true, "{record}");
}
