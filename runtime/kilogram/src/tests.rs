//! Importing real KiloGram files (two of them verbatim) and variations made
//! to fail each check.

use super::*;

/// `dataset/tangrams-svg/page1-0.svg`: the classic square, axis-aligned pieces.
const PAGE1_0: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<svg baseProfile="full" height="100%" version="1.1" viewBox="0 0 144.0 144.0" width="100%" xmlns="http://www.w3.org/2000/svg" xmlns:ev="http://www.w3.org/2001/xml-events" xmlns:xlink="http://www.w3.org/1999/xlink"><defs/><polygon fill="lightgray" id="1" points="48.0,48.0 96.0,48.0 96.0,0.0 48.0,0.0" stroke="white" strokewidth="1"/><polygon fill="lightgray" id="2" points="48.0,96.0 96.0,96.0 48.0,144.0 0.0,144.0" stroke="white" strokewidth="1"/><polygon fill="lightgray" id="3" points="0.0,144.0 48.0,96.0 0.0,96.0" stroke="white" strokewidth="1"/><polygon fill="lightgray" id="4" points="48.0,48.0 48.0,0.0 0.0,0.0" stroke="white" strokewidth="1"/><polygon fill="lightgray" id="5" points="96.0,96.0 144.0,48.0 48.0,48.0" stroke="white" strokewidth="1"/><polygon fill="lightgray" id="6" points="144.0,144.0 48.0,144.0 144.0,48.0" stroke="white" strokewidth="1"/><polygon fill="lightgray" id="7" points="0.0,96.0 96.0,96.0 0.0,0.0" stroke="white" strokewidth="1"/></svg>"#;

/// `dataset/tangrams-svg/page1-1.svg`: a square again, on a scaled lattice
/// with rounding noise (`1.4210854715202004e-14`).
const PAGE1_1: &str = r#"<svg viewBox="0 0 150.11995203836165 150.11995203836165"><defs/><polygon fill="lightgray" id="1" points="37.52998800959041,112.58996402877125 75.05997601918082,75.05997601918084 112.58996402877123,112.58996402877125 75.05997601918082,150.11995203836165" stroke="white" strokewidth="1"/><polygon fill="lightgray" id="2" points="112.58996402877123,112.58996402877125 112.58996402877123,37.529988009590426 150.11995203836165,1.4210854715202004e-14 150.11995203836165,75.05997601918084" stroke="white" strokewidth="1"/><polygon fill="lightgray" id="3" points="75.05997601918082,150.11995203836165 0.0,150.11995203836165 37.52998800959041,112.58996402877122" stroke="white" strokewidth="1"/><polygon fill="lightgray" id="4" points="112.58996402877123,112.58996402877125 75.05997601918082,75.05997601918085 112.58996402877123,37.529988009590426" stroke="white" strokewidth="1"/><polygon fill="lightgray" id="5" points="150.11995203836165,150.11995203836165 75.05997601918082,150.11995203836165 150.11995203836165,75.05997601918082" stroke="white" strokewidth="1"/><polygon fill="lightgray" id="6" points="75.05997601918084,75.05997601918084 150.11995203836165,1.4210854715202004e-14 0.0,1.4210854715202004e-14" stroke="white" strokewidth="1"/><polygon fill="lightgray" id="7" points="0.0,150.11995203836165 75.05997601918082,75.05997601918082 0.0,0.0" stroke="white" strokewidth="1"/></svg>"#;

fn int_points(points: &[(i64, i64)]) -> Vec<Point> {
    kit(points)
}

/// An SVG with the given polygons (id, points "x,y …", transform).
fn svg(polygons: &[(&str, String, Option<&str>)]) -> String {
    let body: String = polygons
        .iter()
        .map(|(id, points, transform)| {
            let t = transform.map_or(String::new(), |t| format!(" transform=\"{t}\""));
            format!("<polygon id=\"{id}\" points=\"{points}\"{t}/>")
        })
        .collect();
    format!("<svg>{body}</svg>")
}

/// page1-0's polygons, with one replaced.
fn page1_0_with(id: &str, points: &str) -> String {
    let polygons = svg::polygons(PAGE1_0).unwrap();
    let list: Vec<(&str, String, Option<&str>)> = polygons
        .iter()
        .map(|p| {
            let pts = if p.id == id {
                points.to_owned()
            } else {
                p.points
                    .iter()
                    .map(|(x, y)| format!("{x},{y}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            (p.id.as_str(), pts, None)
        })
        .collect();
    svg(&list)
}

#[test]
fn the_classic_square_is_accepted_exactly() {
    let a = import("page1-0.svg", PAGE1_0).unwrap();
    assert_eq!(a.name, "page1-0");
    // s = 48 px becomes √2: a 144 px square (3√2 wide) without its top right
    // 48 px corner.
    let r = |n: i64| Q2::frac(0, n, 1);
    let at = |x: i64, y: i64| Point::new(r(x), r(y));
    assert_eq!(
        a.outline,
        vec![at(0, 0), at(3, 0), at(3, 2), at(2, 2), at(2, 3), at(0, 3)]
    );
    let ids: Vec<&str> = a.pieces.iter().map(|p| p.id).collect();
    assert_eq!(ids, ["T1", "T2", "M", "S1", "S2", "SQ", "P"]);
    // The square (id 1) at SVG (48..96, 0..48), y flipped: x in [√2, 2√2], y in [2√2, 3√2].
    let sq = &a.pieces[5];
    assert_eq!(sq.source_id, "1");
    assert!(sq.vertices.contains(&Point::new(r(1), r(2))));
    assert!(sq.vertices.contains(&Point::new(r(2), r(3))));
}

#[test]
fn a_scaled_noisy_lattice_is_recovered() {
    let a = import("page1-1.svg", PAGE1_1).unwrap();
    // The 150.12 px square with a 45° square piece of side 37.53·√2 px: 4 units wide.
    assert_eq!(a.outline, int_points(&[(0, 0), (4, 0), (4, 4), (0, 4)]));
}

#[test]
fn refusals_name_the_piece_and_the_reason() {
    let refusal = |file: &str, text: &str| import(file, text).unwrap_err();
    // Rotated by 10° as a whole.
    let c = 10f64.to_radians().cos();
    let s = 10f64.to_radians().sin();
    let rotated = PAGE1_0.replace(
        "id=\"1\"",
        &format!("id=\"1\" transform=\"matrix({c}, {s}, {}, {c}, 0, 0)\"", -s),
    );
    let r = refusal("rot.svg", &rotated);
    assert_eq!((r.category, r.piece.as_deref()), ("rotated", Some("1")));
    assert!(
        r.to_string().starts_with("rot.svg: piece 1: an edge at"),
        "{r}"
    );
    // The square slid along the medium triangle by π px: on no lattice.
    let r = refusal(
        "slid.svg",
        &page1_0_with(
            "1",
            "51.14159265358979,48 99.14159265358979,48 99.14159265358979,0 51.14159265358979,0",
        ),
    );
    assert_eq!(
        (r.category, r.piece.as_deref()),
        ("lattice", Some("1")),
        "{r}"
    );
    // Slid by 7.3 px: on the 0.1 px lattice, and still a valid figure.
    import(
        "slid.svg",
        &page1_0_with("1", "55.3,48 103.3,48 103.3,0 55.3,0"),
    )
    .unwrap();
    // Slid down by 24 px: then it overlaps the medium triangle.
    let r = refusal("over.svg", &page1_0_with("1", "48,72 96,72 96,24 48,24"));
    assert_eq!(r.category, "overlap", "{r}");
    // Moved away to touch only at a corner: two shapes.
    let r = refusal(
        "corner.svg",
        &page1_0_with("1", "144,-48 192,-48 192,0 144,0"),
    );
    assert_eq!(r.category, "disconnected", "{r}");
    assert!(r.reason.contains("[1]"), "{r}");
    // Moved away, joined along an edge: accepted.
    import(
        "edge.svg",
        &page1_0_with("1", "144,96 192,96 192,48 144,48"),
    )
    .unwrap();
    // A stretched square.
    let r = refusal("big.svg", &page1_0_with("1", "48,48 100,48 100,0 48,0"));
    assert_eq!((r.category, r.piece.as_deref()), ("area", Some("1")));
    // Six polygons.
    let r = refusal("six.svg", &PAGE1_0.replace("id=\"7\"", "id=\"6\""));
    assert_eq!(r.category, "pieces");
    // A piece with a vertex too many.
    let r = refusal(
        "five.svg",
        &page1_0_with("1", "48,48 72,48 96,48 96,0 48,0"),
    );
    assert_eq!((r.category, r.piece.as_deref()), ("pieces", Some("1")));
}

#[test]
fn a_pinch_point_is_refused() {
    // page1-0 with the two small triangles (3, 4) moved so that the
    // parallelogram's corner meets the rest at one point only, while each part
    // is still edge-joined to something: here the square is moved off to touch
    // the large triangle 6 at a corner and the small triangle 4 joins it along
    // an edge, so the square + triangle hang on by one point.
    let text = page1_0_with("1", "144,192 192,192 192,144 144,144");
    let text = {
        let polygons = svg::polygons(&text).unwrap();
        let list: Vec<(&str, String, Option<&str>)> = polygons
            .iter()
            .map(|p| {
                let pts = if p.id == "4" {
                    "192,144 192,192 240,144".to_owned()
                } else {
                    p.points
                        .iter()
                        .map(|(x, y)| format!("{x},{y}"))
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                (p.id.as_str(), pts, None)
            })
            .collect();
        svg(&list)
    };
    let r = import("pinch.svg", &text).unwrap_err();
    assert_eq!(r.category, "disconnected", "{r}");
}

#[test]
fn item_files_have_the_generators_shape() {
    let a = import("page1-0.svg", PAGE1_0).unwrap();
    let b = import("page1-1.svg", PAGE1_1).unwrap();
    let c = import(
        "edge.svg",
        &page1_0_with("1", "144,96 192,96 192,48 144,48"),
    )
    .unwrap();
    let d = import(
        "edge2.svg",
        &page1_0_with("1", "48,192 96,192 96,144 48,144"),
    )
    .unwrap();
    let e = import("edge3.svg", &page1_0_with("1", "0,-48 48,-48 48,0 0,0")).unwrap();
    // a and b are the same square: Task 1 must not offer both.
    let pool = vec![a.clone(), b, c, d, e];
    let files = task1_files(&a, &pool).unwrap();
    let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "items/tangram-outline/kilogram/page1-0/instance/candidates.svg",
            "items/tangram-outline/kilogram/page1-0/instance/instance.json",
            "items/tangram-outline/kilogram/page1-0/item.toml",
        ]
    );
    let instance: serde_json::Value = serde_json::from_str(&files[1].contents).unwrap();
    let sources: Vec<&str> = instance["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["source"].as_str().unwrap())
        .collect();
    assert!(
        !sources.iter().any(|s| s.contains("page1-1")),
        "{sources:?}"
    );
    assert_eq!(sources.len(), 4);
    assert!(files[2].contents.contains("module = \"tangram-outline\""));
    assert!(files[2].contents.contains("fuel = 10_000_000_000"));
    let task2 = task2_files(&a);
    assert_eq!(task2[1].path, "items/tangram/kilogram/page1-0/item.toml");
    assert!(task2[1].contents.starts_with(
        "id = \"tangram/kilogram/page1-0\"\nmodule = \"tangram\"\npayload = \"raw\"\nreference = \"{\\\"instance_id\\\": \\\"kilogram/page1-0\\\", \\\"final_state\\\": {\\\"pieces\\\": [{\\\"id\\\": \\\"T1\\\", \\\"type\\\": \\\"large_triangle\\\", \\\"vertices\\\": [["
    ));
    // Too small a pool: no Task 1 item.
    assert!(task1_files(&a, &pool[..2]).is_none());
}
