//! `scbench-q13-hide-and-seek` (verdict-json): SCBench Q13 "Hide and seek behind a
//! building", a port of `gradeAnswer` and `resultToImage` in the benchmark's `13.py`
//! (commit 0ac70f2).
//!
//! Instance: `subpass`, `people` (4, 20, 40, 80, 150, 200), `building_width` (2, 4, 6, 8,
//! 10, 7 m; the building is 10 m tall, centred on the origin), `sniper` (100, 100, 20),
//! `look_at` (0, 0, 2), `image` (800 × 600), `fov` (22.5°). Payload: the model answer as
//! the runner stored it, a Python literal `{'people': [{'xy': [x, y]}, ...]}`, or JSON.
//!
//! Checks, in the original's order and with its messages: a dict; `len(people)` equals
//! the count; every `xy` has length 2 and lies within 30 m of the origin; no two people
//! closer than 0.5 m (Euclidean, in Python's arithmetic: ints exact); nobody with
//! |x| ≤ w/2 + 0.25 and |y| ≤ w/2 + 0.25. Any failure scores 0. Then the original renders
//! the scene with OpenSCAD (`--autocenter --viewall --camera=100,100,20,0,0,2`, 800×600,
//! Starnight) and counts the red pixels (r > g, r > b, g < 50, b < 50: the people are
//! `[1,0,0]`, the building `[0,1,0,0.9]`, no ground); here one ray per pixel centre
//! decides whether a person is in front of the building (`scene.rs`). The score is
//! `1.0` minus 0.005 once per red pixel, subtracted one pixel at a time as the original
//! does, floored at 0; the message is the original's ("12 red pixels visible (people
//! partially visible to sniper)", "All 4 people hidden from sniper").
//!
//! Quirks reproduced: the render camera is not at the sniper's position — autocenter and
//! viewall move it along the sniper's line of sight to frame the scene's bounding box, so
//! what counts is visibility from that point; overlap is a Euclidean centre distance
//! < 0.5 although people are 0.5 m squares; a coordinate the SCAD text cannot read as a
//! number (`True`, `nan`) leaves that person's `translate` ignored, at the origin inside
//! the building. `details.corrected` judges the task as stated: squares overlap when
//! |dx| < 0.5 and |dy| < 0.5, and a person counts as seen unless every point of its box
//! is hidden by the building from (100, 100, 20) exactly; score = share of people
//! hidden. Where the original raises (a person without `xy`, a non-numeric coordinate;
//! its runner records 10000) the verdict fails with score 0 and says so.

mod scene;

use scene::{Aabb, Camera};
use serde::Deserialize;
use verigate_sdk::Verdict;
use verigate_sdk::harness::{Step, Stop};
use verigate_sdk::python::{BigInt, Value, coerce};
use verigate_sdk::serde_json::{Value as Json, json};

#[derive(Deserialize)]
struct Instance {
    people: usize,
    building_width: f64,
    building_height: f64,
    sniper: [f64; 3],
    look_at: [f64; 3],
    image: [usize; 2],
    fov: f64,
}

/// A coordinate as Python holds it.
#[derive(Clone, Debug)]
enum Num {
    Int(BigInt),
    Float(f64),
}

impl Num {
    fn read(v: &Value) -> Option<Num> {
        if let Some(b) = v.as_bool() {
            return Some(Num::Int(BigInt::from(u8::from(b))));
        }
        v.as_bigint()
            .map(Num::Int)
            .or_else(|| v.as_f64().map(Num::Float))
    }

    /// `float(self)`; `None` where Python raises OverflowError.
    fn to_f64(&self) -> Option<f64> {
        match self {
            Num::Float(f) => Some(*f),
            Num::Int(i) => coerce::int_to_float(i),
        }
    }

    fn sub(&self, other: &Num) -> Option<Num> {
        Some(match (self, other) {
            (Num::Int(a), Num::Int(b)) => Num::Int(a - b),
            _ => Num::Float(self.to_f64()? - other.to_f64()?),
        })
    }

    fn square(&self) -> Num {
        match self {
            Num::Int(a) => Num::Int(a * a),
            Num::Float(f) => Num::Float(f * f),
        }
    }

    fn add(&self, other: &Num) -> Option<Num> {
        Some(match (self, other) {
            (Num::Int(a), Num::Int(b)) => Num::Int(a + b),
            _ => Num::Float(self.to_f64()? + other.to_f64()?),
        })
    }
}

/// `(a**2 + b**2)**0.5` in Python's arithmetic; `None` where it raises.
fn hypot(a: &Num, b: &Num) -> Option<f64> {
    Some(a.square().add(&b.square())?.to_f64()?.sqrt())
}

/// `len(v)`, or `None` where Python raises TypeError.
fn py_len(v: &Value) -> Option<usize> {
    if let Some(s) = v.as_str() {
        return Some(s.chars().count());
    }
    v.as_sequence()
        .map(<[Value]>::len)
        .or_else(|| v.as_dict().map(|d| d.len()))
        .or_else(|| v.as_set().map(|s| s.len()))
}

/// One person: the stored value, its coordinates and their texts.
struct Person {
    value: Value,
    x: Num,
    y: Num,
    x_text: String,
    y_text: String,
    /// Whether OpenSCAD reads both coordinates as numbers (Python prints `True`, `nan`,
    /// `inf` as names OpenSCAD does not know, and `translate` is then ignored).
    scad_numbers: bool,
}

impl Person {
    fn floats(&self) -> (f64, f64) {
        (
            self.x.to_f64().unwrap_or(f64::NAN),
            self.y.to_f64().unwrap_or(f64::NAN),
        )
    }

    /// The person's box as rendered.
    fn body(&self) -> Aabb {
        let (x, y) = if self.scad_numbers {
            self.floats()
        } else {
            (0.0, 0.0)
        };
        Aabb {
            lo: [x - 0.25, y - 0.25, 0.0],
            hi: [x + 0.25, y + 0.25, 2.0],
        }
    }
}

/// `person["xy"]` unpacked into two numbers, as the original's loops do.
fn coordinates(index: usize, person: &Value) -> Step<Person> {
    let xy = person.as_dict().and_then(|d| d.get("xy")).ok_or_else(|| {
        Stop::Raise(format!(
            "person {index} ({}) has no 'xy'",
            person.repr_short(80)
        ))
    })?;
    let n = py_len(xy).ok_or_else(|| {
        Stop::Raise(format!(
            "person {index}: xy {} has no len()",
            xy.repr_short(80)
        ))
    })?;
    if n != 2 {
        return Err(Stop::Zero(format!(
            "Person {person} has invalid coordinates"
        )));
    }
    let items = xy.as_sequence().ok_or_else(|| {
        Stop::Raise(format!(
            "person {index}: xy {} is not a list of two numbers",
            xy.repr_short(80)
        ))
    })?;
    let (Some(x), Some(y)) = (Num::read(&items[0]), Num::read(&items[1])) else {
        return Err(Stop::Raise(format!(
            "person {index}: xy {} holds a non-number",
            xy.repr_short(80)
        )));
    };
    let readable =
        |v: &Value, n: &Num| v.as_bool().is_none() && n.to_f64().is_some_and(f64::is_finite);
    Ok(Person {
        value: person.clone(),
        scad_numbers: readable(&items[0], &x) && readable(&items[1], &y),
        x_text: items[0].to_string(),
        y_text: items[1].to_string(),
        x,
        y,
    })
}

/// The original's checks before the render, in its order. `squares` switches the overlap
/// test to the corrected one (0.5 m squares that intersect).
fn pre_checks(instance: &Instance, people: &[Value], squares: bool) -> Step<Vec<Person>> {
    let mut out = Vec::with_capacity(people.len());
    for (i, person) in people.iter().enumerate() {
        let p = coordinates(i, person)?;
        let distance = hypot(&p.x, &p.y).ok_or_else(|| {
            Stop::Raise(format!(
                "person {i}: ({}, {}) overflows a float",
                p.x_text, p.y_text
            ))
        })?;
        if distance > 30.0 {
            return Err(Stop::Zero(format!(
                "Person at ({}, {}) is too far from center: {}",
                p.x_text,
                p.y_text,
                Value::from(distance)
            )));
        }
        out.push(p);
    }
    for i in 0..out.len() {
        for j in i + 1..out.len() {
            let (a, b) = (&out[i], &out[j]);
            let dx = b.x.sub(&a.x);
            let dy = b.y.sub(&a.y);
            let overlap = if squares {
                let (ax, ay) = a.floats();
                let (bx, by) = b.floats();
                (bx - ax).abs() < 0.5 && (by - ay).abs() < 0.5
            } else {
                match (dx, dy) {
                    (Some(dx), Some(dy)) => hypot(&dx, &dy).is_some_and(|d| d < 0.5),
                    _ => false,
                }
            };
            if overlap {
                return Err(Stop::Zero(format!(
                    "Overlap detected between person {i} and person {j}"
                )));
            }
        }
    }
    let reach = instance.building_width / 2.0 + 0.25;
    for p in &out {
        let (x, y) = p.floats();
        if x.abs() <= reach && y.abs() <= reach {
            return Err(Stop::Zero(format!(
                "Person at ({}, {}) intersects with building",
                p.x_text, p.y_text
            )));
        }
    }
    Ok(out)
}

fn building(instance: &Instance) -> Aabb {
    let h = instance.building_width / 2.0;
    Aabb {
        lo: [-h, -h, 0.0],
        hi: [h, h, instance.building_height],
    }
}

/// The corrected judgement: the stated rules, sight lines from the sniper's position.
fn corrected(instance: &Instance, people: &[Value]) -> Verdict {
    match pre_checks(instance, people, true) {
        Err(Stop::Zero(why) | Stop::Raise(why)) => Verdict::fail(why),
        Ok(people) => {
            let b = building(instance);
            let seen: Vec<usize> = people
                .iter()
                .enumerate()
                .filter(|(_, p)| !scene::hidden_from(instance.sniper, &b, &p.body()))
                .map(|(i, _)| i)
                .collect();
            let n = people.len().max(1);
            let score = (people.len() - seen.len()) as f64 / n as f64;
            let message = if seen.is_empty() {
                format!(
                    "All {} people are hidden from the sniper at {:?}",
                    people.len(),
                    instance.sniper
                )
            } else {
                let p = &people[seen[0]];
                format!(
                    "{} of {} people can be seen from the sniper at {:?} (first: person {} at ({}, {}))",
                    seen.len(),
                    people.len(),
                    instance.sniper,
                    seen[0],
                    p.x_text,
                    p.y_text
                )
            };
            if seen.is_empty() {
                Verdict::pass().with_message(message)
            } else {
                Verdict::partial(score, message)
            }
        }
    }
}

/// `1.0` less 0.005 once per red pixel, in that order, floored at 0 (the original's loop).
fn pixel_score(red_pixels: u64) -> f64 {
    let mut score = 1.0f64;
    for _ in 0..red_pixels.min(1000) {
        score -= 0.005;
    }
    score.max(0.0)
}

fn grade(instance: &Instance, text: &str) -> Verdict {
    let answer = verigate_sdk::python::answer(text);
    if !answer.truthy() {
        return Verdict::falsy_answer().same_when_corrected();
    }
    let Some(dict) = answer.as_dict() else {
        return Verdict::fail("Result was not a valid dict.").same_when_corrected();
    };
    let expected = instance.people;
    let raises = |why: String| Verdict::raised(why).same_when_corrected();
    let actual = match dict.get("people") {
        None => 0,
        Some(v) => match py_len(v) {
            Some(n) => n,
            None => {
                return raises(format!(
                    "people is {}, which has no len()",
                    v.repr_short(60)
                ));
            }
        },
    };
    if actual != expected {
        return Verdict::fail(format!("Expected {expected} people, got {actual}"))
            .same_when_corrected();
    }
    let Some(people) = dict.get("people").and_then(Value::as_sequence) else {
        return raises(format!(
            "people is a {}, not a list of dicts",
            dict.get("people").map_or("missing", Value::type_name)
        ));
    };
    let corrected = corrected(instance, people);
    let people = match pre_checks(instance, people, false) {
        Ok(p) => p,
        Err(stop) => return stop.verdict().with_corrected(&corrected),
    };

    let b = building(instance);
    let bodies: Vec<Aabb> = people.iter().map(Person::body).collect();
    let mut all = vec![b];
    all.extend(&bodies);
    let [width, height] = instance.image;
    let camera = Camera::view_all(
        &all,
        instance.sniper,
        instance.look_at,
        instance.fov,
        width,
        height,
    );
    let render = scene::render(&camera, &b, &bodies);
    let score = pixel_score(render.red_pixels);
    let seen: Vec<Json> = render
        .per_person
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n > 0)
        .map(|(i, &n)| json!({"person": i, "xy": people[i].value.as_dict().and_then(|d| d.get("xy")).map(Value::to_string), "pixels": n}))
        .collect();
    let details = json!({
        "red_pixels": render.red_pixels,
        "people_in_view": seen,
        "camera": {"eye": camera.eye, "center": camera.center, "distance": camera.distance},
    });
    if render.red_pixels > 0 {
        Verdict::partial(
            score,
            format!(
                "{} red pixels visible (people partially visible to sniper)",
                render.red_pixels
            ),
        )
    } else {
        Verdict::pass().with_message(format!("All {actual} people hidden from sniper"))
    }
    .with_details(details)
    .with_corrected(&corrected)
}

verigate_sdk::main!(verdict_json, grade_instance(grade));

#[cfg(test)]
mod tests;
