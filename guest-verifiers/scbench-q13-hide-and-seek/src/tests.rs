use super::*;

fn instance(people: usize, width: f64) -> Instance {
    Instance {
        people,
        building_width: width,
        building_height: 10.0,
        sniper: [100.0, 100.0, 20.0],
        look_at: [0.0, 0.0, 2.0],
        image: [800, 600],
        fov: 22.5,
    }
}

fn graded(inst: &Instance, text: &str) -> (bool, f64, String, Json) {
    let v = verigate_sdk::serde_json::to_value(grade(inst, text)).unwrap();
    (
        v["pass"].as_bool().unwrap(),
        v["score"].as_f64().unwrap(),
        v["message"].as_str().unwrap_or("").to_owned(),
        v["details"].clone(),
    )
}

fn people(xy: &[(&str, &str)]) -> String {
    let items: Vec<String> = xy
        .iter()
        .map(|(x, y)| format!("{{'xy': [{x}, {y}]}}"))
        .collect();
    format!("{{'people': [{}]}}", items.join(", "))
}

const HIDDEN4: [(&str, &str); 4] = [("-3", "-3"), ("-3", "-2.5"), ("-2.0", "-3.5"), ("-4", "-4")];

#[test]
fn everyone_hidden_passes() {
    let (pass, score, message, details) = graded(&instance(4, 2.0), &people(&HIDDEN4));
    assert!(pass);
    assert_eq!(score, 1.0);
    assert_eq!(message, "All 4 people hidden from sniper");
    assert_eq!(details["red_pixels"], 0);
    assert_eq!(details["corrected"]["pass"], true);
}

#[test]
fn a_visible_person_costs_half_a_percent_per_pixel() {
    // OpenSCAD 2021.01 counted 3573 red pixels for this scene: score floors at 0.
    let mut xy = HIDDEN4[..3].to_vec();
    xy.push(("3", "0"));
    let (pass, score, message, details) = graded(&instance(4, 2.0), &people(&xy));
    assert!(!pass);
    assert_eq!(score, 0.0);
    assert_eq!(
        message,
        "3573 red pixels visible (people partially visible to sniper)"
    );
    assert_eq!(details["people_in_view"][0]["person"], 3);
    assert_eq!(details["corrected"]["score"], 0.75);
}

#[test]
fn score_is_accumulated_pixel_by_pixel() {
    // As in Python: 13 subtractions give 0.9349999999999999, not 0.935; 200 go just
    // below 0 (-8.2e-16) and floor at 0; 199 leave 0.00499999999999918.
    assert_eq!(pixel_score(0), 1.0);
    assert_eq!(pixel_score(13), 0.9349999999999999);
    assert_eq!(pixel_score(100), 0.49999999999999956);
    assert_eq!(pixel_score(199), 0.00499999999999918);
    assert_eq!(pixel_score(200), 0.0);
    assert_eq!(pixel_score(480_000), 0.0);
}

#[test]
fn pre_checks_in_order_with_the_original_messages() {
    let inst = instance(4, 2.0);
    let msg = |t: &str| graded(&inst, t).2;
    assert_eq!(msg("[1, 2]"), "Result was not a valid dict.");
    assert_eq!(msg("{'people': []}"), "Expected 4 people, got 0");
    assert_eq!(msg("{'crowd': 1}"), "Expected 4 people, got 0");
    assert_eq!(
        msg("{'people': [{'xy': [1, 2, 3]}, 1, 2, 3]}"),
        "Person {'xy': [1, 2, 3]} has invalid coordinates"
    );
    assert_eq!(
        msg(&people(&[
            ("30", "1"),
            ("-3", "-3"),
            ("-4", "-4"),
            ("-5", "-5")
        ])),
        "Person at (30, 1) is too far from center: 30.01666203960727"
    );
    assert_eq!(
        msg(&people(&[
            ("-3", "-3"),
            ("-4", "-4"),
            ("-5", "-5"),
            ("-3.3", "-3.3")
        ])),
        "Overlap detected between person 0 and person 3"
    );
    assert_eq!(
        msg(&people(&[
            ("-3", "-3"),
            ("-4", "-4"),
            ("-5", "-5"),
            ("1.25", "-1.0")
        ])),
        "Person at (1.25, -1.0) intersects with building"
    );
    assert!(msg("{'people': [{'pos': [1, 2]}, 1, 2, 3]}").ends_with("runner records 10000)"));
    assert!(msg("{'people': [{'xy': ['a', 'b']}, 1, 2, 3]}").ends_with("runner records 10000)"));
    assert_eq!(
        graded(&inst, "{}").2,
        Verdict::falsy_answer().message().unwrap()
    );
}

#[test]
fn euclidean_overlap_quirk_and_its_correction() {
    // Centres 0.4 apart in x and y: 0.566 m apart, so the original sees no overlap,
    // though the 0.5 m squares intersect.
    let xy = [("-3", "-3"), ("-3.4", "-3.4"), ("-5", "-5"), ("-6", "-6")];
    let (pass, _, _, details) = graded(&instance(4, 2.0), &people(&xy));
    assert!(pass);
    assert_eq!(details["corrected"]["pass"], false);
    assert_eq!(
        details["corrected"]["message"],
        "Overlap detected between person 0 and person 1"
    );
}

#[test]
fn unreadable_coordinates_leave_the_person_at_the_origin() {
    // `True` is written into the SCAD text as `True`, an unknown name: OpenSCAD ignores
    // the translate and the person stands inside the building.
    let xy = [("-3", "-3"), ("True", "5"), ("-5", "-5"), ("-6", "-6")];
    let (pass, score, _, _) = graded(&instance(4, 2.0), &people(&xy));
    assert!(pass);
    assert_eq!(score, 1.0);
}

#[test]
fn ints_use_exact_arithmetic() {
    assert_eq!(
        hypot(&Num::Int(BigInt::from(3)), &Num::Int(BigInt::from(4))),
        Some(5.0)
    );
    let huge = Num::Int(BigInt::from(10).pow(200));
    assert_eq!(hypot(&huge, &huge), None);
}
