//! `scbench-q55-delaunay` (verdict-json): SCBench Q55 "VGB6 — Delaunay Triangulation", a
//! port of the benchmark's `55.py` wrapper and VisGeomBench's Delaunay verifier.
//!
//! The instance holds the points as the prompt shows them (three decimals, stored exactly
//! as thousandths) and the dataset's `ground_truth` triangles. The payload is the model
//! answer as the runner stored it: `{'triangles': [[i, j, k], ...]}`, a bare list, or free
//! text (last balanced `[...]`).
//!
//! Faithful to the original: every triangle must be a list of exactly three ints ≥ 0
//! (`True` counts as 1, `1.0` does not); triangles are sorted, the list is sorted, and the
//! answer passes when it equals the ground truth *as a multiset* — no geometry is checked.
//! The ground truth was computed by scipy from the unrounded points, and for 10 of the 25
//! curated rows it differs (by one edge flip, where four points are nearly cocircular) from
//! the Delaunay triangulation of the three-decimal points the prompt shows, so a correct
//! answer to the prompt as written can fail. `details.exact_delaunay` (and
//! `details.corrected`) gives the corrected judgement, decided with exact integer
//! predicates: every triangle non-degenerate and distinct, no point strictly inside any
//! circumcircle, and as many triangles as a triangulation of the points has (2n − 2 − h,
//! h points on the hull).

use serde::Deserialize;
use verigate_sdk::Verdict;
use verigate_sdk::python::Value;
use verigate_sdk::serde_json::json;

#[derive(Deserialize)]
struct Instance {
    /// The points in thousandths: `[956, 208]` is `[0.956, 0.208]`.
    points_milli: Vec<[i64; 2]>,
    ground_truth: Vec<[u64; 3]>,
}

type Triangle = [u64; 3];

/// The answer's triangles, sorted within and across, or why they are malformed.
fn triangles(list: &Value) -> std::result::Result<Vec<Triangle>, String> {
    let items = list.as_sequence().unwrap_or_default();
    let mut out = Vec::with_capacity(items.len());
    for (n, item) in items.iter().enumerate() {
        let what = || format!("triangle {} {}", n + 1, item.repr_short(40));
        let parts = item
            .as_list()
            .filter(|p| p.len() == 3)
            .ok_or_else(|| format!("{} is not a list of three indices", what()))?;
        let mut t = [0u64; 3];
        for (slot, part) in t.iter_mut().zip(parts) {
            // isinstance(x, int) and x >= 0: bools are ints, floats are not.
            let value = match (part.as_bool(), part.as_bigint()) {
                (Some(b), _) => Some(u64::from(b)),
                (None, Some(i)) => u64::try_from(i).ok(),
                _ => None,
            };
            *slot =
                value.ok_or_else(|| format!("{} holds a non-integer or negative index", what()))?;
        }
        t.sort_unstable();
        out.push(t);
    }
    out.sort_unstable();
    Ok(out)
}

fn orient(a: [i64; 2], b: [i64; 2], c: [i64; 2]) -> i128 {
    let (ax, ay) = (i128::from(b[0] - a[0]), i128::from(b[1] - a[1]));
    let (bx, by) = (i128::from(c[0] - a[0]), i128::from(c[1] - a[1]));
    ax * by - ay * bx
}

/// > 0 when `d` lies strictly inside the circle through `a`, `b`, `c` (counter-clockwise).
fn in_circle(a: [i64; 2], b: [i64; 2], c: [i64; 2], d: [i64; 2]) -> i128 {
    let row = |p: [i64; 2]| {
        let (x, y) = (i128::from(p[0] - d[0]), i128::from(p[1] - d[1]));
        (x, y, x * x + y * y)
    };
    let ((ax, ay, al), (bx, by, bl), (cx, cy, cl)) = (row(a), row(b), row(c));
    ax * (by * cl - bl * cy) - ay * (bx * cl - bl * cx) + al * (bx * cy - by * cx)
}

/// Points on the convex hull's boundary, collinear ones included (monotone chain).
fn hull_size(points: &[[i64; 2]]) -> usize {
    let mut sorted = points.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    if sorted.len() < 3 {
        return sorted.len();
    }
    // One half of the hull, from the first point to the last, without the last.
    let half = |points: &mut dyn Iterator<Item = [i64; 2]>| {
        let mut chain: Vec<[i64; 2]> = Vec::new();
        for p in points {
            while chain.len() >= 2 && orient(chain[chain.len() - 2], chain[chain.len() - 1], p) < 0
            {
                chain.pop();
            }
            chain.push(p);
        }
        chain.len() - 1
    };
    half(&mut sorted.iter().copied()) + half(&mut sorted.iter().rev().copied())
}

/// Whether `tris` is exactly the Delaunay triangulation of `points`.
fn is_exact_delaunay(points: &[[i64; 2]], tris: &[Triangle]) -> bool {
    let n = points.len();
    let distinct = tris.windows(2).all(|w| w[0] != w[1]);
    if !distinct || tris.len() + 2 + hull_size(points) != 2 * n {
        return false;
    }
    tris.iter().all(|t| {
        let Some(idx) = t
            .iter()
            .map(|&i| usize::try_from(i).ok().filter(|&i| i < n))
            .collect::<Option<Vec<usize>>>()
        else {
            return false;
        };
        let (a, mut b, mut c) = (points[idx[0]], points[idx[1]], points[idx[2]]);
        match orient(a, b, c) {
            0 => return false,
            o if o < 0 => std::mem::swap(&mut b, &mut c),
            _ => {}
        }
        (0..n).all(|l| idx.contains(&l) || in_circle(a, b, c, points[l]) <= 0)
    })
}

fn grade(instance: &Instance, text: &str) -> Verdict {
    let Some(list) = verigate_sdk::python::answer_list(text, "triangles") else {
        return Verdict::fail("no list of triangles could be parsed from the answer");
    };
    let answer = match triangles(&list) {
        Ok(t) => t,
        Err(why) => return Verdict::fail(why),
    };
    let mut truth = instance.ground_truth.clone();
    truth.iter_mut().for_each(|t| t.sort_unstable());
    truth.sort_unstable();
    let missing = truth
        .iter()
        .filter(|t| answer.binary_search(t).is_err())
        .count();
    let extra = answer
        .iter()
        .filter(|t| truth.binary_search(t).is_err())
        .count();
    let exact = is_exact_delaunay(&instance.points_milli, &answer);
    let details = json!({
        "triangles": answer.len(),
        "expected": truth.len(),
        "missing": missing,
        "extra": extra,
        "exact_delaunay": exact,
    });
    let corrected = if exact {
        Verdict::pass().with_message("the exact Delaunay triangulation of the points as shown")
    } else {
        Verdict::fail("not the exact Delaunay triangulation of the points as shown")
    };
    let verdict = if answer == truth {
        Verdict::pass()
    } else {
        let mut message = format!(
            "{} triangles, expected {}: {missing} stored triangles missing, {extra} not stored",
            answer.len(),
            truth.len()
        );
        if exact {
            message.push_str(
                " (it is the exact Delaunay triangulation of the points as shown; \
                 the stored one, from unrounded points, differs)",
            );
        }
        Verdict::fail(message)
    };
    verdict.with_details(details).with_corrected(&corrected)
}

verigate_sdk::main!(verdict_json, grade_instance(grade));

#[cfg(test)]
mod tests {
    use super::*;

    /// A unit square with a point inside near one corner: four triangles fan around it.
    fn instance() -> Instance {
        Instance {
            points_milli: vec![[0, 0], [1000, 0], [1000, 1000], [0, 1000], [300, 400]],
            ground_truth: vec![[0, 1, 4], [1, 2, 4], [2, 3, 4], [0, 3, 4]],
        }
    }

    fn graded(text: &str) -> (bool, String, Value) {
        let v = verigate_sdk::serde_json::to_value(grade(&instance(), text)).unwrap();
        let exact = Value::from(v["details"]["exact_delaunay"] == true);
        (
            v["pass"] == true,
            v["message"].as_str().unwrap_or("").to_owned(),
            exact,
        )
    }

    #[test]
    fn order_does_not_matter_and_duplicates_do() {
        let (pass, _, exact) =
            graded("{'triangles': [[4, 1, 0], [2, 4, 1], [3, 2, 4], [4, 0, 3]]}");
        assert!(pass);
        assert_eq!(exact, Value::from(true));
        let (pass, message, _) = graded("[[0,1,4],[1,2,4],[2,3,4],[0,3,4],[0,3,4]]");
        assert!(!pass);
        assert_eq!(
            message,
            "5 triangles, expected 4: 0 stored triangles missing, 0 not stored"
        );
    }

    #[test]
    fn malformed_triangles_fail_as_in_the_original() {
        assert_eq!(
            graded("[[0, 1, 4.0]]").1,
            "triangle 1 [0, 1, 4.0] holds a non-integer or negative index"
        );
        assert_eq!(
            graded("[[0, 1]]").1,
            "triangle 1 [0, 1] is not a list of three indices"
        );
        assert!(graded("[[True, 0, 4], [1, 2, 4], [2, 3, 4], [0, 3, 4]]").0);
    }

    #[test]
    fn exact_delaunay_is_judged_geometrically() {
        // Splitting the square by its diagonal 0-2 leaves point 4 inside a circumcircle.
        let (_, _, exact) = graded("[[0, 1, 2], [0, 2, 3]]");
        assert_eq!(exact, Value::from(false));
        assert_eq!(hull_size(&instance().points_milli), 4);
    }
}
