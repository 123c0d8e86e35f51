//! Hand-made assemblies with metrics worked out by hand.

use super::*;
use crate::qsqrt2::Q2;
use verigate_sdk::serde_json;

/// Coordinates as written in an answer.
type Coords = Vec<(String, String)>;
/// A piece as (name, type, vertices).
type Spec = (&'static str, &'static str, Coords);
/// A piece with integer vertices.
type Layout = (&'static str, &'static str, &'static [(i64, i64)]);

/// The classic seven-piece square on [0, 4]².
const CLASSIC: [Layout; 7] = [
    ("T1", "large_triangle", &[(0, 0), (4, 0), (2, 2)]),
    ("T2", "large_triangle", &[(0, 0), (2, 2), (0, 4)]),
    ("M", "medium_triangle", &[(4, 4), (2, 4), (4, 2)]),
    ("S1", "small_triangle", &[(2, 2), (3, 3), (1, 3)]),
    ("S2", "small_triangle", &[(4, 0), (4, 2), (3, 1)]),
    ("SQ", "square", &[(2, 2), (3, 1), (4, 2), (3, 3)]),
    ("P", "parallelogram", &[(0, 4), (1, 3), (3, 3), (2, 4)]),
];

fn int_points(points: &[(i64, i64)]) -> Coords {
    points
        .iter()
        .map(|(x, y)| (x.to_string(), y.to_string()))
        .collect()
}

fn pieces_json(pieces: &[Spec]) -> Value {
    Value::Array(
        pieces
            .iter()
            .map(|(id, kind, vertices)| {
                let vertices: Vec<Value> = vertices.iter().map(|(x, y)| json!([x, y])).collect();
                json!({"id": id, "type": kind, "vertices": vertices})
            })
            .collect(),
    )
}

fn classic() -> Vec<Spec> {
    CLASSIC
        .iter()
        .map(|(id, kind, points)| (*id, *kind, int_points(points)))
        .collect()
}

fn item(target: &[(String, String)]) -> Item {
    let target: Vec<Value> = target.iter().map(|(x, y)| json!([x, y])).collect();
    let instance = Instance {
        target_outline: json!({ "vertices": target }),
        initial_state: json!({ "pieces": pieces_json(&classic()) }),
    };
    Item::from_instance(&instance).unwrap()
}

fn square_item() -> Item {
    item(&int_points(&[(0, 0), (4, 0), (4, 4), (0, 4)]))
}

fn answer(pieces: &[Spec]) -> String {
    json!({ "final_state": pieces_json(pieces) }).to_string()
}

fn details(verdict: &Verdict) -> Value {
    serde_json::to_value(verdict).unwrap()
}

fn replace(pieces: &mut [Spec], id: &str, vertices: &[(&str, &str)]) {
    let piece = pieces.iter_mut().find(|p| p.0 == id).unwrap();
    piece.2 = vertices
        .iter()
        .map(|(x, y)| ((*x).to_owned(), (*y).to_owned()))
        .collect();
}

#[test]
fn the_classic_square_succeeds() {
    let v = details(&grade(&square_item(), &answer(&classic())));
    assert_eq!(v["pass"], true, "{v}");
    let d = &v["details"];
    assert_eq!(
        (&d["tse"], &d["rge"], &d["pe"], &d["vpr"], &d["success"]),
        (
            &json!(false),
            &json!(false),
            &json!(false),
            &json!(true),
            &json!(true)
        )
    );
    assert_eq!(
        (d["iou"].as_f64(), d["hausdorff"].as_f64()),
        (Some(1.0), Some(0.0))
    );
}

/// Rotates by 45° about the origin and shifts right by 2√2, exactly.
fn turned(x: i64, y: i64) -> (String, String) {
    let half_root = Q2::sqrt2().div(&Q2::int(2)).unwrap();
    let rx = &(&Q2::int(x - y) * &half_root) + &(&Q2::int(2) * &Q2::sqrt2());
    let ry = &Q2::int(x + y) * &half_root;
    (rx.to_string(), ry.to_string())
}

#[test]
fn a_turned_square_in_exact_surds_succeeds() {
    let target: Vec<(String, String)> = [(0, 0), (4, 0), (4, 4), (0, 4)]
        .iter()
        .map(|&(x, y)| turned(x, y))
        .collect();
    assert_eq!(target[1], ("4√2".to_owned(), "2√2".to_owned()));
    let pieces: Vec<_> = CLASSIC
        .iter()
        .map(|(id, kind, points)| {
            let vertices = points.iter().map(|&(x, y)| turned(x, y)).collect();
            (*id, *kind, vertices)
        })
        .collect();
    let v = details(&grade(&item(&target), &answer(&pieces)));
    assert_eq!(v["pass"], true, "{v}");
    // The same pieces against the upright square: valid, not the target.
    let v = details(&grade(&square_item(), &answer(&pieces)));
    assert_eq!(v["details"]["vpr"], true);
    assert_eq!(v["details"]["success"], false);
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .ends_with("lies partly outside the target")
    );
}

#[test]
fn a_stretched_piece_is_a_rigid_geometry_error() {
    let mut pieces = classic();
    replace(&mut pieces, "T1", &[("0", "0"), ("5", "0"), ("2", "2")]);
    let v = details(&grade(&square_item(), &answer(&pieces)));
    assert_eq!(v["details"]["rge"], true);
    assert_eq!(v["details"]["vpr"], false);
    assert_eq!(
        v["message"],
        "rigid geometry error (RGE): piece T1 (large_triangle): area 5 instead of 4"
    );
}

#[test]
fn equal_area_and_perimeter_without_congruence_is_caught() {
    // A kite with sides 2, √2, √2, 2: area 2 and perimeter 4 + 2√2, like the
    // parallelogram (sides 2, √2, 2, √2), but not a rigid motion of it.
    let mut pieces = classic();
    replace(
        &mut pieces,
        "P",
        &[("0", "0"), ("2", "0"), ("3", "1"), ("1.6", "1.2")],
    );
    let v = details(&grade(&square_item(), &answer(&pieces)));
    assert_eq!(
        v["message"],
        "rigid geometry error (RGE): piece P (parallelogram): not congruent to the canonical \
         parallelogram (area and perimeter match) (2 coordinates were decimals, read exactly as written)"
    );
    assert_eq!(v["details"]["decimal_coordinates"], 2);
}

#[test]
fn a_mirrored_parallelogram_is_allowed() {
    let mut pieces = classic();
    // (0,4),(1,3),(3,3),(2,4) reflected in the line x = 1.5: (3,4),(2,3),(0,3),(1,4).
    replace(
        &mut pieces,
        "P",
        &[("3", "4"), ("2", "3"), ("0", "3"), ("1", "4")],
    );
    let v = details(&grade(&square_item(), &answer(&pieces)));
    assert_eq!(v["details"]["rge"], false, "{v}");
}

#[test]
fn overlapping_pieces_are_a_physical_error() {
    let mut pieces = classic();
    // S2 laid onto the square piece.
    replace(&mut pieces, "S2", &[("2", "2"), ("4", "2"), ("3", "1")]);
    let v = details(&grade(&square_item(), &answer(&pieces)));
    assert_eq!(v["details"]["rge"], false);
    assert_eq!(v["details"]["pe"], true);
    assert_eq!(
        v["message"],
        "physical error (PE): piece S2 (small_triangle) and piece SQ (square) overlap"
    );
}

#[test]
fn a_piece_touching_at_one_point_is_disconnected() {
    let mut pieces = classic();
    // The medium triangle moved to touch the square only at (4, 4).
    replace(&mut pieces, "M", &[("4", "4"), ("6", "4"), ("4", "6")]);
    let v = details(&grade(&square_item(), &answer(&pieces)));
    assert_eq!(v["details"]["pe"], true);
    assert_eq!(
        v["message"],
        "physical error (PE): the pieces form 2 separate shapes: [T1, T2, S1, S2, SQ, P] [M]"
    );
}

#[test]
fn a_slid_piece_is_valid_but_not_the_target_and_measured() {
    // S2 slid half a diagonal along the square's edge: still joined by an
    // edge stretch, now sticking out by 3/4 and leaving a 3/4 notch.
    // IoU = (16 - 3/4) / (16 + 3/4) = 61/67; Hausdorff = 1: the notch's
    // apex (3, 1) is 1 from the target's edges (the tip sticks out 1/2).
    let mut pieces = classic();
    replace(
        &mut pieces,
        "S2",
        &[
            (r"\frac{9}{2}", r"\frac{1}{2}"),
            ("4.5", "2.5"),
            ("7/2", "3/2"),
        ],
    );
    let v = details(&grade(&square_item(), &answer(&pieces)));
    let d = &v["details"];
    assert_eq!(
        (&d["vpr"], &d["success"]),
        (&json!(true), &json!(false)),
        "{v}"
    );
    assert!(
        (d["iou"].as_f64().unwrap() - 61.0 / 67.0).abs() < 1e-9,
        "{d}"
    );
    assert!((d["hausdorff"].as_f64().unwrap() - 1.0).abs() < 1e-6, "{d}");
}

#[test]
fn syntax_errors_leave_the_other_checks_unset() {
    let six = answer(&classic()[..6]);
    let v = details(&grade(&square_item(), &six));
    assert_eq!(v["message"], "syntax error (TSE): 6 pieces, expected 7");
    let d = &v["details"];
    assert_eq!(
        (&d["tse"], &d["rge"], &d["pe"]),
        (&json!(true), &Value::Null, &Value::Null)
    );
    assert_eq!((&d["iou"], &d["success"]), (&Value::Null, &json!(false)));
}

#[test]
fn a_collapsed_piece_is_reported_not_a_crash() {
    let mut pieces = classic();
    replace(
        &mut pieces,
        "SQ",
        &[("1", "1"), ("1", "1"), ("1", "1"), ("1", "1")],
    );
    let v = details(&grade(&square_item(), &answer(&pieces)));
    assert_eq!(
        v["message"],
        "rigid geometry error (RGE): piece SQ (square): area 0 instead of 2"
    );
    assert_eq!(v["details"]["pe"], true);
}

#[test]
fn components_are_grouped() {
    assert_eq!(
        components(4, &[(0, 2), (3, 2)]),
        vec![vec![0, 2, 3], vec![1]]
    );
}

/// The figure's polygons as (class, label) pairs.
fn polygons(figure: &Value) -> Vec<(String, String)> {
    figure["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            assert_eq!(i["type"], "polygon");
            let label = i["label"].as_str().unwrap_or("").to_owned();
            (i["class"].as_str().unwrap().to_owned(), label)
        })
        .collect()
}

#[test]
fn the_figure_draws_the_pieces_over_the_target() {
    let f = figure(&square_item(), &answer(&classic()));
    let drawn = polygons(&f);
    assert_eq!(drawn.len(), 8);
    assert_eq!(drawn[0], ("target".to_owned(), String::new()));
    assert_eq!(drawn[1], ("cat0".to_owned(), "T1".to_owned()));
    assert_eq!(drawn[7], ("cat6".to_owned(), "P".to_owned()));
    assert_eq!(
        f["items"][1]["points"],
        json!([[0.0, 0.0], [4.0, 0.0], [2.0, 2.0]])
    );
    assert_eq!(f["y_up"], true);
    assert_eq!(
        f["caption"],
        "7 pieces; overlapping area 0.000, uncovered area 0.000 of the target's 16.000, \
         area outside the target 0.000"
    );
}

#[test]
fn the_figure_marks_overlaps_and_gaps() {
    let mut pieces = classic();
    // S2 laid onto the square piece: an overlap of area 1 and a hole of area 1.
    replace(&mut pieces, "S2", &[("2", "2"), ("4", "2"), ("3", "1")]);
    let f = figure(&square_item(), &answer(&pieces));
    let classes: Vec<String> = polygons(&f).into_iter().map(|p| p.0).collect();
    assert_eq!(classes[8..], ["extra", "missing"]);
    assert_eq!(
        f["caption"],
        "7 pieces; overlapping area 1.000, uncovered area 1.000 of the target's 16.000, \
         area outside the target 0.000"
    );
    // The turned pieces against the upright square stick out and leave gaps.
    let pieces: Vec<_> = CLASSIC
        .iter()
        .map(|(id, kind, points)| {
            let vertices = points.iter().map(|&(x, y)| turned(x, y)).collect();
            (*id, *kind, vertices)
        })
        .collect();
    let f = figure(&square_item(), &answer(&pieces));
    let classes: Vec<String> = polygons(&f).into_iter().map(|p| p.0).collect();
    assert!(classes.contains(&"missing".to_owned()) && classes.contains(&"wrong".to_owned()));
    assert!(!classes.contains(&"extra".to_owned()), "{classes:?}");
}

#[test]
fn the_figure_is_bounded_and_only_adds_to_the_details() {
    let six = answer(&classic()[..6]);
    let f = figure(&square_item(), &six);
    assert_eq!(polygons(&f).len(), 1);
    let mut pieces = classic();
    let many: Vec<(String, String)> = (0..3000)
        .map(|i| (format!("{i}/1000"), format!("{}/1000", i % 2)))
        .chain([("1".to_owned(), "1".to_owned())])
        .collect();
    pieces[0].2 = many;
    let f = figure(&square_item(), &answer(&pieces));
    assert_eq!(polygons(&f).len(), 1);
    assert!(
        f["caption"]
            .as_str()
            .unwrap()
            .starts_with("no pieces drawn")
    );
    for text in [answer(&classic()), six, "prose".to_owned()] {
        let plain = details(&grade(&square_item(), &text));
        let mut drawn = details(&with_figure(
            grade(&square_item(), &text),
            figure(&square_item(), &text),
        ));
        assert!(drawn["details"]["figure"].is_object());
        drawn["details"].as_object_mut().unwrap().remove("figure");
        assert_eq!(drawn, plain);
    }
}
