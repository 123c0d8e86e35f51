//! `gradeAnswer`'s checks on parsed points, in the original's order, with its
//! messages; run faithfully, or with the corrections of `details.corrected`.

use crate::geometry::{
    Contact, Point, Raise, angle_deg, contact, dist, for_each_pair, hull_area, intersects,
    pairs_where, round6,
};
use crate::pyfmt::{Num, fixed, pairs, point, repr, str_list};
use serde::Deserialize;
use verigate_sdk::python::coerce::sum_floats;

/// The subpass: `/item/instance.json`.
#[derive(Deserialize)]
pub struct Instance {
    pub pipes: usize,
    pub boundary: i64,
    pub tolerance: f64,
    pub preset: Option<String>,
    pub complications: Vec<Comp>,
}

/// One complication of a preset, with the original's parameters.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Comp {
    MaxCrossings {
        max: usize,
    },
    ExactCrossings {
        count: usize,
    },
    AngleRange {
        min_deg: Num,
        max_deg: Num,
    },
    CentroidBox {
        xmin_ratio: f64,
        xmax_ratio: f64,
        ymin_ratio: f64,
        ymax_ratio: f64,
    },
    MustTouchBoundary {
        edges_needed: usize,
    },
    MinTurns {
        min_turns: usize,
    },
    MaxStraightRun {
        max_run: usize,
    },
    CoverageQuadrants,
    AvoidMargin {
        margin_ratio: f64,
    },
    MinConvexHullArea {
        min_area_ratio: f64,
    },
    FixedStart {
        x_ratio: f64,
        y_ratio: f64,
        tolerance: Num,
    },
    MinPointSeparation {
        min_dist: Num,
    },
}

/// One validation error: kind, message and the rendered `where` dict.
pub struct Entry {
    pub kind: &'static str,
    pub message: String,
    pub location: Option<String>,
}

/// The outcome of the checks.
pub struct Graded {
    pub pass: bool,
    pub message: String,
    pub errors: Vec<Entry>,
    /// The crossing pairs the run counted (exact contacts when corrected).
    pub crossings: Vec<(usize, usize)>,
}

/// How crossings are detected.
#[derive(Clone, Copy, PartialEq)]
pub enum Mode {
    /// The original: strict float ccw test, NaN coordinates pass the bounds test.
    Faithful,
    /// Exact contacts (crossings and touches), coordinates must be finite.
    Corrected,
}

/// `gradeAnswer` from the parsed points on (at least 3 of them).
pub fn grade(inst: &Instance, pts: &[Point], mode: Mode) -> Result<Graded, Raise> {
    let n = pts.len();
    let side = inst.boundary as f64;
    let tol = inst.tolerance;
    let mut errors: Vec<Entry> = Vec::new();
    let mut add = |kind: &'static str, message: String, location: Option<String>| {
        errors.push(Entry {
            kind,
            message,
            location,
        });
    };

    if n != inst.pipes {
        let p = inst.pipes;
        add(
            "count_mismatch",
            format!("Expected {p} points (for {p} pipe segments), got {n}"),
            Some(format!("{{'expected': {p}, 'actual': {n}}}")),
        );
    }
    for (i, &(x, y)) in pts.iter().enumerate() {
        let outside = match mode {
            Mode::Faithful => x < 0.0 || x > side || y < 0.0 || y > side,
            Mode::Corrected => !((0.0..=side).contains(&x) && (0.0..=side).contains(&y)),
        };
        if outside {
            add(
                "boundary",
                format!(
                    "Point {i} ({}, {}) is outside [0, {}]",
                    fixed(x, 3),
                    fixed(y, 3),
                    inst.boundary
                ),
                Some(format!("{{'point_index': {i}}}")),
            );
        }
    }
    let tol_text = repr(tol);
    for i in 0..n - 1 {
        let d = dist(pts[i], pts[i + 1])?;
        if (d - 1.0).abs() > tol {
            add(
                "segment_length",
                format!(
                    "Segment {i} length {}, expected 1.0 ± {tol_text}",
                    fixed(d, 4)
                ),
                Some(format!(
                    "{{'segment_index': {i}, 'start': {}, 'end': {}}}",
                    point(pts[i]),
                    point(pts[i + 1])
                )),
            );
        }
    }
    let close = dist(pts[n - 1], pts[0])?;
    if (close - 1.0).abs() > tol {
        add(
            "closure",
            format!(
                "Closing segment length {}, expected 1.0 ± {tol_text}",
                fixed(close, 4)
            ),
            Some(format!("{{'segment_index': {}}}", n - 1)),
        );
    }
    let mut seen: Vec<(f64, f64, usize)> = Vec::new();
    for (idx, &(x, y)) in pts.iter().enumerate() {
        let key = (round6(x), round6(y));
        // Tuple equality: NaN (a new object each time) never matches, -0.0 == 0.0.
        match seen.iter().find(|s| s.0 == key.0 && s.1 == key.1) {
            Some(&(_, _, first)) => add(
                "duplicate_vertex",
                format!("Vertex {idx} reuses point {}", point(key)),
                Some(format!("{{'point_index': {idx}, 'duplicate_of': {first}}}")),
            ),
            None => seen.push((key.0, key.1, idx)),
        }
    }

    let (crossings, touches) = match mode {
        Mode::Faithful => (pairs_where(pts, intersects), Vec::new()),
        Mode::Corrected => {
            let (mut proper, mut touch) = (Vec::new(), Vec::new());
            for_each_pair(n, |i, j| {
                let (a, b) = (pts[i], pts[(i + 1) % n]);
                let (c, d) = (pts[j], pts[(j + 1) % n]);
                match contact(a, b, c, d) {
                    Contact::Proper => proper.push((i, j)),
                    Contact::Touch => touch.push((i, j)),
                    Contact::None => {}
                }
            });
            (proper, touch)
        }
    };
    let mut max_limit = None;
    let mut exact = None;
    for c in &inst.complications {
        match c {
            Comp::MaxCrossings { max } => max_limit = Some(*max),
            Comp::ExactCrossings { count } => exact = Some(*count),
            _ => {}
        }
    }
    if exact.is_none() {
        let limit = max_limit.unwrap_or(0);
        match mode {
            Mode::Faithful if crossings.len() > limit => add(
                "crossings",
                format!("Found {} crossings, allowed {limit}", crossings.len()),
                Some(format!(
                    "{{'pairs': {}}}",
                    pairs(&crossings, crate::MAX_MESSAGE)
                )),
            ),
            Mode::Corrected if crossings.len() + touches.len() > limit => {
                let mut all = [crossings.clone(), touches.clone()].concat();
                all.sort_unstable();
                add(
                    "crossings",
                    format!(
                        "Found {} crossings and {} touches, allowed {limit}",
                        crossings.len(),
                        touches.len()
                    ),
                    Some(format!("{{'pairs': {}}}", pairs(&all, crate::MAX_MESSAGE))),
                );
            }
            _ => {}
        }
    }
    for i in 0..n {
        let (p0, p1, p2) = (pts[i], pts[(i + 1) % n], pts[(i + 2) % n]);
        let len1 = dist(p0, p1)?;
        let len2 = dist(p1, p2)?;
        if len1 > 0.0 && len2 > 0.0 {
            let (v1x, v1y) = ((p1.0 - p0.0) / len1, (p1.1 - p0.1) / len1);
            let (v2x, v2y) = ((p2.0 - p1.0) / len2, (p2.1 - p1.1) / len2);
            if v1x * v2x + v1y * v2y < -0.99 {
                add(
                    "backtrack",
                    format!("Segment {i} backtracks on segment {}", (i + 1) % n),
                    Some(format!("{{'segment_index': {i}}}")),
                );
            }
        }
    }

    let mut angles = Vec::with_capacity(n);
    for i in 0..n {
        angles.push(angle_deg(pts[(i + n - 1) % n], pts[i], pts[(i + 1) % n])?);
    }
    let centroid = (
        sum_floats(pts.iter().map(|p| p.0)) / n as f64,
        sum_floats(pts.iter().map(|p| p.1)) / n as f64,
    );
    let hull = hull_area(pts);

    if inst.complications.is_empty() {
        let any = !crossings.is_empty() || !touches.is_empty();
        if any && mode == Mode::Faithful {
            // The accumulated errors are not reported on this path.
            return Ok(Graded {
                pass: false,
                message: "Crossing detected".into(),
                errors,
                crossings,
            });
        }
    } else {
        complications(
            inst, pts, &angles, centroid, hull, &crossings, &touches, mode, &mut add,
        )?;
    }

    let message = if errors.is_empty() {
        format!(
            "Valid loop for preset '{}' with {n} points and {} crossings",
            inst.preset.as_deref().unwrap_or("None"),
            crossings.len()
        )
    } else {
        let mut lines: Vec<String> = errors
            .iter()
            .enumerate()
            .map(|(k, e)| match &e.location {
                Some(w) => format!("{}. {}: {} @ {w}", k + 1, e.kind, e.message),
                None => format!("{}. {}: {}", k + 1, e.kind, e.message),
            })
            .collect();
        if lines.len() > 5 {
            lines.truncate(5);
            lines.push(format!("... (truncated, {} errors in total)", errors.len()));
        }
        format!("Validation failed:\n{}", lines.join("\n"))
    };
    Ok(Graded {
        pass: errors.is_empty(),
        message,
        errors,
        crossings,
    })
}

#[allow(clippy::too_many_arguments)]
fn complications(
    inst: &Instance,
    pts: &[Point],
    angles: &[f64],
    centroid: Point,
    hull: f64,
    crossings: &[(usize, usize)],
    touches: &[(usize, usize)],
    mode: Mode,
    add: &mut impl FnMut(&'static str, String, Option<String>),
) -> Result<(), Raise> {
    let side = inst.boundary as f64;
    let n = pts.len();
    for comp in &inst.complications {
        match *comp {
            Comp::MaxCrossings { .. } => {}
            Comp::ExactCrossings { count } => {
                if crossings.len() != count {
                    add(
                        "exact_crossings",
                        format!(
                            "Crossings found {}; expected exactly {count}",
                            crossings.len()
                        ),
                        Some(format!(
                            "{{'pairs': {}}}",
                            pairs(crossings, crate::MAX_MESSAGE)
                        )),
                    );
                }
                if mode == Mode::Corrected && !touches.is_empty() {
                    add(
                        "touches",
                        format!("The loop touches itself {} times", touches.len()),
                        Some(format!(
                            "{{'pairs': {}}}",
                            pairs(touches, crate::MAX_MESSAGE)
                        )),
                    );
                }
            }
            Comp::AngleRange { min_deg, max_deg } => {
                for (i, &a) in angles.iter().enumerate() {
                    if a < min_deg.f() || a > max_deg.f() {
                        add(
                            "angle_range",
                            format!(
                                "Angle at vertex {i} is {}° (expected {min_deg}°-{max_deg}°)",
                                fixed(a, 1)
                            ),
                            Some(format!("{{'vertex_index': {i}}}")),
                        );
                    }
                }
            }
            Comp::CentroidBox {
                xmin_ratio,
                xmax_ratio,
                ymin_ratio,
                ymax_ratio,
            } => {
                let (x0, x1) = (side * xmin_ratio, side * xmax_ratio);
                let (y0, y1) = (side * ymin_ratio, side * ymax_ratio);
                let (cx, cy) = centroid;
                if !(x0 <= cx && cx <= x1 && y0 <= cy && cy <= y1) {
                    add(
                        "centroid",
                        format!(
                            "Centroid at ({}, {}) is outside required box [{}, {}] x [{}, {}]",
                            fixed(cx, 2),
                            fixed(cy, 2),
                            fixed(x0, 2),
                            fixed(x1, 2),
                            fixed(y0, 2),
                            fixed(y1, 2)
                        ),
                        None,
                    );
                }
            }
            Comp::MustTouchBoundary { edges_needed } => {
                let te = f64::max(1e-3, side * 0.001);
                let mut hit = [false; 4]; // bottom, left, right, top (sorted order)
                for &(x, y) in pts {
                    hit[1] |= x.abs() <= te;
                    hit[2] |= (x - side).abs() <= te;
                    hit[0] |= y.abs() <= te;
                    hit[3] |= (y - side).abs() <= te;
                }
                let names: Vec<&str> = ["bottom", "left", "right", "top"]
                    .into_iter()
                    .zip(hit)
                    .filter_map(|(name, h)| h.then_some(name))
                    .collect();
                if names.len() < edges_needed {
                    add(
                        "boundary_touch",
                        format!(
                            "Touched {} edges {}, need {edges_needed} edges",
                            names.len(),
                            str_list(&names)
                        ),
                        None,
                    );
                }
            }
            Comp::MinTurns { min_turns } => {
                let turns = angles.iter().filter(|&&a| a < 175.0).count();
                if turns < min_turns {
                    add(
                        "min_turns",
                        format!("Only {turns} turns detected; need at least {min_turns}"),
                        None,
                    );
                }
            }
            Comp::MaxStraightRun { max_run } => {
                let (mut run, mut best) = (0, 0);
                for &a in angles {
                    if a > 175.0 {
                        run += 1;
                    } else {
                        best = best.max(run);
                        run = 0;
                    }
                }
                best = best.max(run);
                if best > max_run {
                    add(
                        "max_straight_run",
                        format!("Detected straight run of {best} segments, limit is {max_run}"),
                        None,
                    );
                }
            }
            Comp::CoverageQuadrants => {
                let mid = side / 2.0;
                // bottom_left, bottom_right, top_left, top_right (sorted order)
                let mut seen = [false; 4];
                for &(x, y) in pts {
                    seen[0] |= x <= mid && y <= mid;
                    seen[2] |= x <= mid && y >= mid;
                    seen[1] |= x >= mid && y <= mid;
                    seen[3] |= x >= mid && y >= mid;
                }
                let missing: Vec<&str> = ["bottom_left", "bottom_right", "top_left", "top_right"]
                    .into_iter()
                    .zip(seen)
                    .filter_map(|(name, s)| (!s).then_some(name))
                    .collect();
                if !missing.is_empty() {
                    add(
                        "coverage_quadrants",
                        format!("Missing quadrants: {}", str_list(&missing)),
                        None,
                    );
                }
            }
            Comp::AvoidMargin { margin_ratio } => {
                let m = side * margin_ratio;
                let bad = |x: f64| match mode {
                    Mode::Faithful => x < m || x > side - m,
                    Mode::Corrected => !(m..=side - m).contains(&x),
                };
                if let Some((i, &(x, y))) =
                    pts.iter().enumerate().find(|(_, p)| bad(p.0) || bad(p.1))
                {
                    add(
                        "avoid_margin",
                        format!(
                            "Point {i} ({},{}) violates margin {} away from walls",
                            fixed(x, 2),
                            fixed(y, 2),
                            fixed(m, 2)
                        ),
                        Some(format!("{{'point_index': {i}}}")),
                    );
                }
            }
            Comp::MinConvexHullArea { min_area_ratio } => {
                let required = (inst.boundary * inst.boundary) as f64 * min_area_ratio;
                if hull < required {
                    add(
                        "min_convex_hull_area",
                        format!(
                            "Hull area {} < required {} ({}% of board)",
                            fixed(hull, 2),
                            fixed(required, 2),
                            fixed(min_area_ratio * 100.0, 0)
                        ),
                        None,
                    );
                }
            }
            Comp::FixedStart {
                x_ratio,
                y_ratio,
                tolerance,
            } => {
                let expected = (side * x_ratio, side * y_ratio);
                let d = dist(pts[0], expected)?;
                let too_far = match mode {
                    Mode::Faithful => d > tolerance.f(),
                    Mode::Corrected => d.is_nan() || d > tolerance.f(),
                };
                if too_far {
                    add(
                        "fixed_start",
                        format!(
                            "First point {} should start near {} within {tolerance}",
                            point(pts[0]),
                            point(expected)
                        ),
                        None,
                    );
                }
            }
            Comp::MinPointSeparation { min_dist } => {
                for i in 0..n {
                    for j in i + 2..n {
                        if dist(pts[i], pts[j])? < min_dist.f() {
                            add(
                                "min_point_separation",
                                format!("Points {i} and {j} are closer than {min_dist}"),
                                Some(format!("{{'point_indices': ({i}, {j})}}")),
                            );
                            // The original returns here, skipping later complications.
                            return Ok(());
                        }
                    }
                }
            }
        }
    }
    Ok(())
}
