//! `tangram` (verdict-json): TangramPuzzle Task 2, End-to-End Tangram
//! Solution Generation (the paper's Sec. 3.3 and App. B.2).
//!
//! The item's `instance.json` holds the target silhouette
//! (`target_outline.vertices`) and the seven canonical pieces
//! (`initial_state.pieces`); the payload is the model's Tangram Construction
//! Expression (see [`tce`] for the accepted shapes). The verdict reports the
//! paper's metrics in `details`:
//!
//! - `tse`: syntax error: no JSON, not seven pieces, an unknown type or kit,
//!   unreadable coordinates;
//! - `rge`: rigid geometry error: a piece whose area or perimeter differs
//!   from its canonical piece's, or (beyond the paper, since equal area and
//!   perimeter do not make a rigid motion) that is not congruent to it;
//! - `pe`: physical error: two pieces overlap with positive area, or the
//!   pieces do not form one connected shape (pieces connect through shared
//!   edge stretches; a single common point does not join them);
//! - `vpr`: none of the three;
//! - `iou`, `hausdorff`: similarity to the target ([`silhouette`]);
//! - `success`: valid, and the pieces fill the target exactly (every piece
//!   inside it and their areas summing to its area).
//!
//! Everything but `iou` and `hausdorff` is decided exactly in Q(√2)
//! ([`qsqrt2`], [`geometry`]); `rge` and `pe` are `null` after a syntax
//! error. The verdict passes on success (score 1) and fails otherwise
//! (score 0), its message naming the first problem found.
//!
//! `details.figure` (verigate's figure schema, `runtime/html/FIGURE.md`) draws
//! the pieces (each in its own colour, labelled with its name) over the
//! target outline (`target`), with the pieces' overlaps (`extra`), the
//! target's uncovered area (`missing`) and the area outside the target
//! (`wrong`) marked, in `f64` (for the eye only).

mod geometry;
mod latex;
mod qsqrt2;
mod silhouette;
mod tce;

use std::collections::BTreeMap;

use serde::Deserialize;
use verigate_sdk::serde_json::{Value, json};
use verigate_sdk::{Error, Result, Verdict};

use geometry::Point;
use tce::{Assembly, Kind};

/// The item's instance file.
#[derive(Deserialize)]
struct Instance {
    target_outline: Value,
    initial_state: Value,
}

/// What an answer is checked against.
struct Item {
    /// The target silhouette, normalized.
    target: Vec<Point>,
    /// One canonical piece per type, normalized.
    canonical: BTreeMap<Kind, Vec<Point>>,
}

impl Item {
    fn from_instance(instance: &Instance) -> Result<Item> {
        let (outline, _) =
            tce::polygon(&instance.target_outline, "target_outline").map_err(Error::msg)?;
        let kit = tce::pieces(&instance.initial_state)
            .map_err(|e| Error::msg(format!("initial_state: {e}")))?;
        let mut canonical = BTreeMap::new();
        for piece in kit.pieces {
            canonical
                .entry(piece.kind)
                .or_insert_with(|| geometry::normalized(&piece.vertices));
        }
        Ok(Item {
            target: geometry::normalized(&outline),
            canonical,
        })
    }
}

/// The verdict's `details` for what was checked.
struct Metrics {
    tse: bool,
    rge: Option<bool>,
    pe: Option<bool>,
    similarity: Option<(f64, f64)>,
    success: bool,
    decimals: usize,
    problems: Vec<String>,
}

impl Metrics {
    fn details(&self) -> Value {
        let vpr = !self.tse && self.rge == Some(false) && self.pe == Some(false);
        json!({
            "tse": self.tse,
            "rge": self.rge,
            "pe": self.pe,
            "vpr": vpr,
            "iou": self.similarity.map(|s| s.0),
            "hausdorff": self.similarity.map(|s| s.1),
            "success": self.success,
            "decimal_coordinates": self.decimals,
            "problems": self.problems,
        })
    }

    fn verdict(self) -> Verdict {
        let details = self.details();
        let verdict = if self.success {
            Verdict::pass().with_message("a valid assembly that fills the target exactly")
        } else {
            let first = self.problems.first().map_or("not solved", String::as_str);
            let mut message = first.to_owned();
            if self.decimals > 0 {
                message.push_str(&format!(
                    " ({} coordinates were decimals, read exactly as written)",
                    self.decimals
                ));
            }
            Verdict::fail(message)
        };
        verdict.with_details(details)
    }
}

/// "piece T1 (large_triangle)".
fn label(piece: &tce::Piece) -> String {
    format!("piece {} ({})", piece.name, piece.kind)
}

/// An exact number for a message, with its decimal value when it is not an
/// integer: `40000647/10000000 (≈ 4.0000647)`.
fn show(q: &qsqrt2::Q2) -> String {
    match q.as_rational() {
        Some(r) if r.is_integer() => q.to_string(),
        _ => format!("{q} (≈ {})", q.to_f64()),
    }
}

/// Rigid-geometry problems: area, perimeter, congruence against the
/// canonical piece of the same type.
fn rigid_problems(item: &Item, assembly: &Assembly, shapes: &[Vec<Point>]) -> Vec<String> {
    let mut problems = Vec::new();
    for (piece, shape) in assembly.pieces.iter().zip(shapes) {
        let Some(canonical) = item.canonical.get(&piece.kind) else {
            problems.push(format!(
                "{}: the item has no canonical {}",
                label(piece),
                piece.kind
            ));
            continue;
        };
        let (have, want) = (geometry::area(shape), geometry::area(canonical));
        if have != want {
            problems.push(format!(
                "{}: area {} instead of {}",
                label(piece),
                show(&have),
                show(&want)
            ));
            continue;
        }
        let want = geometry::perimeter(canonical);
        match (geometry::perimeter(shape), want) {
            (Some(have), Some(want)) if have != want => {
                problems.push(format!(
                    "{}: perimeter {have} instead of {want}",
                    label(piece)
                ));
                continue;
            }
            (None, want) => {
                let want = want.map_or_else(|| "?".to_owned(), |w| show(&w));
                problems.push(format!(
                    "{}: perimeter ≈ {:.6} instead of {want} (an edge length is not in Q(√2))",
                    label(piece),
                    geometry::perimeter_f64(shape)
                ));
                continue;
            }
            _ => {}
        }
        if !geometry::congruent(shape, canonical) {
            problems.push(format!(
                "{}: not congruent to the canonical {} (area and perimeter match)",
                label(piece),
                piece.kind
            ));
        }
    }
    problems
}

/// Groups of pieces joined by shared edges or overlaps (union-find).
fn components(n: usize, joined: &[(usize, usize)]) -> Vec<Vec<usize>> {
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for &(a, b) in joined {
        let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
        parent[ra.max(rb)] = ra.min(rb);
    }
    let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for i in 0..n {
        let r = root(&mut parent, i);
        groups.entry(r).or_default().push(i);
    }
    groups.into_values().collect()
}

/// Physical problems: overlapping pairs, then disconnection.
fn physical_problems(
    assembly: &Assembly,
    shapes: &[Vec<Point>],
    floats: &[Vec<(f64, f64)>],
) -> Vec<String> {
    let convex: Vec<bool> = shapes.iter().map(|s| geometry::is_convex(s)).collect();
    let mut problems = Vec::new();
    let mut joined = Vec::new();
    for i in 0..shapes.len() {
        for j in i + 1..shapes.len() {
            let overlap = if convex[i] && convex[j] {
                geometry::interiors_overlap(&shapes[i], &shapes[j])
            } else {
                // A non-convex (already rigid-invalid) piece: measured.
                silhouette::overlap_area(&floats[i], &floats[j]) > 1e-9
            };
            if overlap {
                problems.push(format!(
                    "{} and {} overlap",
                    label(&assembly.pieces[i]),
                    label(&assembly.pieces[j])
                ));
            }
            if overlap || geometry::share_an_edge(&shapes[i], &shapes[j]) {
                joined.push((i, j));
            }
        }
    }
    let groups = components(shapes.len(), &joined);
    if groups.len() > 1 {
        let parts: Vec<String> = groups
            .iter()
            .map(|g| {
                let names: Vec<&str> = g
                    .iter()
                    .map(|&i| assembly.pieces[i].name.as_str())
                    .collect();
                format!("[{}]", names.join(", "))
            })
            .collect();
        problems.push(format!(
            "the pieces form {} separate shapes: {}",
            groups.len(),
            parts.join(" ")
        ));
    }
    problems
}

/// Why a valid assembly is not the target, if it is not.
fn mismatch(item: &Item, assembly: &Assembly, shapes: &[Vec<Point>]) -> Option<String> {
    if let Some(i) = shapes
        .iter()
        .position(|s| !geometry::contained(s, &item.target))
    {
        return Some(format!(
            "{} lies partly outside the target",
            label(&assembly.pieces[i])
        ));
    }
    let covered = shapes
        .iter()
        .fold(qsqrt2::Q2::zero(), |sum, s| &sum + &geometry::area(s));
    let target = geometry::area(&item.target);
    (covered != target).then(|| {
        format!(
            "the pieces cover area {} of the target's {}",
            show(&covered),
            show(&target)
        )
    })
}

fn grade(item: &Item, answer: &str) -> Verdict {
    let assembly = match tce::assembly(answer) {
        Ok(assembly) => assembly,
        Err(why) => {
            return Metrics {
                tse: true,
                rge: None,
                pe: None,
                similarity: None,
                success: false,
                decimals: 0,
                problems: vec![format!("syntax error (TSE): {why}")],
            }
            .verdict();
        }
    };
    let shapes: Vec<Vec<Point>> = assembly
        .pieces
        .iter()
        .map(|p| geometry::normalized(&p.vertices))
        .collect();
    let floats: Vec<Vec<(f64, f64)>> = shapes
        .iter()
        .map(|s| s.iter().map(Point::to_f64).collect())
        .collect();
    let rigid = rigid_problems(item, &assembly, &shapes);
    let physical = physical_problems(&assembly, &shapes, &floats);
    let valid = rigid.is_empty() && physical.is_empty();
    let miss = valid.then(|| mismatch(item, &assembly, &shapes)).flatten();
    let success = valid && miss.is_none();
    let similarity = if success {
        (1.0, 0.0)
    } else {
        let target: Vec<(f64, f64)> = item.target.iter().map(Point::to_f64).collect();
        silhouette::similarity(&floats, &target)
    };
    let mut problems: Vec<String> = rigid
        .iter()
        .map(|p| format!("rigid geometry error (RGE): {p}"))
        .collect();
    problems.extend(physical.iter().map(|p| format!("physical error (PE): {p}")));
    problems.extend(miss);
    Metrics {
        tse: false,
        rge: Some(!rigid.is_empty()),
        pe: Some(!physical.is_empty()),
        similarity: Some(similarity),
        success,
        decimals: assembly.decimals,
        problems,
    }
    .verdict()
}

/// Most vertices drawn in `details.figure`, the target's, the pieces' and the
/// marked regions' together.
const FIGURE_MAX_POINTS: usize = 2_000;
/// Longest piece name drawn.
const FIGURE_LABEL_CHARS: usize = 12;

/// A ring for the figure, rounded to 4 decimals (for the eye; and short).
fn figure_ring(points: impl IntoIterator<Item = (f64, f64)>) -> Value {
    let round = |v: f64| (v * 1e4).round() / 1e4;
    points
        .into_iter()
        .map(|(x, y)| json!([round(x), round(y)]))
        .collect()
}

/// `details.figure`: the pieces over the target, overlaps and gaps marked
/// (see the module docs).
fn figure(item: &Item, answer: &str) -> Value {
    let target: Vec<(f64, f64)> = item.target.iter().map(Point::to_f64).collect();
    let mut items = vec![json!({
        "type": "polygon", "points": figure_ring(target.iter().copied()), "class": "target",
    })];
    let mut budget = FIGURE_MAX_POINTS.saturating_sub(target.len());
    let caption = match tce::assembly(answer) {
        Err(_) => "no pieces drawn: the answer is not a readable assembly (TSE)".to_owned(),
        Ok(assembly) => {
            let shapes: Vec<Vec<(f64, f64)>> = assembly
                .pieces
                .iter()
                .map(|p| {
                    geometry::normalized(&p.vertices)
                        .iter()
                        .map(Point::to_f64)
                        .collect()
                })
                .collect();
            let vertices: usize = shapes.iter().map(Vec::len).sum();
            if vertices > budget {
                format!("no pieces drawn: {vertices} vertices are too many")
            } else {
                budget -= vertices;
                for (i, (piece, shape)) in assembly.pieces.iter().zip(&shapes).enumerate() {
                    if shape.len() >= 3 {
                        let name: String = piece.name.chars().take(FIGURE_LABEL_CHARS).collect();
                        items.push(json!({
                            "type": "polygon", "points": figure_ring(shape.iter().copied()),
                            "class": format!("cat{}", i % 8), "label": name,
                        }));
                    }
                }
                let regions = silhouette::regions(&shapes, &target);
                let mut areas = [0.0; 3];
                let mut left_out = 0;
                let marked = [
                    ("extra", &regions.overlaps),
                    ("missing", &regions.uncovered),
                    ("wrong", &regions.outside),
                ];
                for (area, (class, polygons)) in areas.iter_mut().zip(marked) {
                    for p in polygons {
                        *area += geo::Area::unsigned_area(p);
                        let rings = std::iter::once(p.exterior()).chain(p.interiors());
                        // geo's rings repeat their first point at the end.
                        let points: usize =
                            rings.clone().map(|r| r.0.len().saturating_sub(1)).sum();
                        if points > budget {
                            left_out += 1;
                            continue;
                        }
                        budget -= points;
                        let mut rings = rings.map(|r| {
                            let open = &r.0[..r.0.len().saturating_sub(1)];
                            figure_ring(open.iter().map(|c| (c.x, c.y)))
                        });
                        let exterior = rings.next();
                        items.push(json!({
                            "type": "polygon", "points": exterior, "holes": rings.collect::<Vec<_>>(),
                            "class": class,
                        }));
                    }
                }
                let mut caption = format!(
                    "{} pieces; overlapping area {:.3}, uncovered area {:.3} of the target's {:.3}, \
                     area outside the target {:.3}",
                    assembly.pieces.len(),
                    areas[0],
                    areas[1],
                    silhouette::area(&target),
                    areas[2]
                );
                if left_out > 0 {
                    caption.push_str(&format!(
                        "; {left_out} marked region(s) too detailed to draw"
                    ));
                }
                caption
            }
        }
    };
    json!({
        "title": "the pieces over the target outline",
        "caption": caption,
        "y_up": true,
        "items": items,
    })
}

/// `verdict` with `figure` added to its details (nothing else changes).
fn with_figure(verdict: Verdict, figure: Value) -> Verdict {
    let mut details = verdict.details().cloned().unwrap_or_default();
    details["figure"] = figure;
    verdict.with_details(details)
}

fn verify() -> Result<Verdict> {
    let instance: Instance = verigate_sdk::instance()?;
    let item = Item::from_instance(&instance)?;
    let answer = verigate_sdk::payload()?;
    Ok(with_figure(grade(&item, answer), figure(&item, answer)))
}

verigate_sdk::main!(verdict_json, verify);

#[cfg(test)]
mod tests;
