//! `verigate-kilogram`: KiloGram's tangram SVGs (Ji et al., 2022;
//! `dataset/tangrams-svg/*.svg` of `lil-lab/kilogram`) as exact
//! TangramPuzzle assemblies, and the registry items built from them.
//!
//! TangramPuzzle took its shapes from KiloGram, kept "only configurations
//! that form a single connected shape without internal voids" and
//! normalised them into exact coordinates (its Sec. 3.2). [`import`] does
//! that for one file, refusing what cannot be made exact or valid; an
//! accepted assembly passes `guest-verifiers/tangram` (Task 2) as its own
//! reference witness. [`item_files`] writes the Task 1 and Task 2 items of
//! the accepted assemblies in `registry/tools/tangram.py`'s formats.
//!
//! # From a KiloGram file to an exact assembly
//!
//! A file holds seven `<polygon>`s whose `id` names the piece (1 square,
//! 2 parallelogram, 3–4 small, 5 medium, 6–7 large triangles), in SVG
//! coordinates (y down, either winding), some with a
//! `transform="matrix(…)"`. The coordinates are floating-point numbers that
//! are exact multiples `σ·(a + b√2)` of one unit σ per file (integers `a`,
//! `b`), up to rounding noise (≈ 1e-14 relative); hand-edited files break
//! this. In order, refusing at the first problem (`file: piece N: reason`):
//!
//! 1. the polygons: seven, ids 1–7, each with its piece's vertex count
//!    (after dropping repeated points), transforms applied, y flipped;
//! 2. every edge at a multiple of 45° (within 1e-6 rad): the figure must not
//!    be rotated by an arbitrary angle;
//! 3. every piece's area its kit share of the whole (the square's side `s`
//!    from the total area, 8 s²; within 1e-6 relative);
//! 4. one lattice for all vertices: the largest σ among `s/m` and `s√2/m`
//!    (m ≤ 512) for which every coordinate, measured from the least x and
//!    the least y, is `σ·(a + b√2)` within 1e-12·s (the files on a lattice are within
//!    2e-15·s; near misses on a fine lattice, 1e-10·s); the exact coordinate
//!    follows from `a`, `b`, `m`, scaled so that the square's side is √2
//!    (the kit of `registry/tools/tangram.py`, large triangles' hypotenuse
//!    4);
//! 5. exactly, on those coordinates: every piece a rigid copy (rotation,
//!    reflection) of its kit piece; no two pieces sharing interior points;
//!    all seven joined along stretches of edge of positive length (a common
//!    corner joins nothing: TangramPuzzle's "single connected shape" read
//!    with the tangram verifier's PE rule, so no accepted figure fails PE);
//!    the union's boundary one simple closed chain (no hole, no point where
//!    the outline touches itself), which becomes the target outline.
//!
//! The assembly is then placed with its lower boundary on the x-axis and its
//! left boundary on the y-axis.

pub mod geom;
mod items;
pub mod q2;
mod svg;

use std::f64::consts::{FRAC_PI_4, SQRT_2};
use std::fmt;

pub use items::{ItemFile, item_files, task1_files, task2_files};

use geom::Point;
use q2::Q2;

/// A tangram piece type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// One of the two large triangles.
    LargeTriangle,
    /// The medium triangle.
    MediumTriangle,
    /// One of the two small triangles.
    SmallTriangle,
    /// The square.
    Square,
    /// The parallelogram.
    Parallelogram,
}

impl Kind {
    /// The TCE type name.
    pub fn name(self) -> &'static str {
        match self {
            Kind::LargeTriangle => "large_triangle",
            Kind::MediumTriangle => "medium_triangle",
            Kind::SmallTriangle => "small_triangle",
            Kind::Square => "square",
            Kind::Parallelogram => "parallelogram",
        }
    }

    fn vertex_count(self) -> usize {
        match self {
            Kind::Square | Kind::Parallelogram => 4,
            _ => 3,
        }
    }

    /// Area in units of the square's area.
    fn area_share(self) -> f64 {
        match self {
            Kind::LargeTriangle => 2.0,
            Kind::SmallTriangle => 0.5,
            _ => 1.0,
        }
    }
}

/// One piece of [`PIECES`]: (KiloGram polygon id, TCE id, type, kit
/// vertices).
pub type PieceSpec = (&'static str, &'static str, Kind, &'static [(i64, i64)]);

/// The pieces in TCE order. The kit is `registry/tools/tangram.py`'s
/// `CLASSIC`: the seven pieces of the square on [0, 4]², counter-clockwise.
pub const PIECES: [PieceSpec; 7] = [
    ("6", "T1", Kind::LargeTriangle, &[(0, 0), (4, 0), (2, 2)]),
    ("7", "T2", Kind::LargeTriangle, &[(0, 0), (2, 2), (0, 4)]),
    ("5", "M", Kind::MediumTriangle, &[(4, 4), (2, 4), (4, 2)]),
    ("3", "S1", Kind::SmallTriangle, &[(2, 2), (3, 3), (1, 3)]),
    ("4", "S2", Kind::SmallTriangle, &[(4, 0), (4, 2), (3, 1)]),
    ("1", "SQ", Kind::Square, &[(2, 2), (3, 1), (4, 2), (3, 3)]),
    (
        "2",
        "P",
        Kind::Parallelogram,
        &[(0, 4), (1, 3), (3, 3), (2, 4)],
    ),
];

/// A kit piece's vertices as exact points.
fn kit(vertices: &[(i64, i64)]) -> Vec<Point> {
    vertices
        .iter()
        .map(|&(x, y)| Point::new(Q2::int(x), Q2::int(y)))
        .collect()
}

/// One placed piece.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// The TCE id (`T1`, `T2`, `M`, `S1`, `S2`, `SQ`, `P`).
    pub id: &'static str,
    /// The KiloGram polygon id (`1`–`7`).
    pub source_id: &'static str,
    /// The type.
    pub kind: Kind,
    /// The vertices, counter-clockwise, exact.
    pub vertices: Vec<Point>,
}

/// An exact, valid assembly of the seven pieces and its outline, placed
/// with its lower boundary on the x-axis and its left boundary on the
/// y-axis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assembly {
    /// The file's name without `.svg` (`page1-0`).
    pub name: String,
    /// The pieces, in TCE order.
    pub pieces: Vec<Piece>,
    /// The outline of their union: counter-clockwise, from its least vertex,
    /// without straight-through vertices.
    pub outline: Vec<Point>,
    /// The lattice the file's coordinates lie on: σ = s/m, or s√2/m when
    /// `surd` (s: the square's side).
    pub lattice: Lattice,
}

/// The unit σ of a file's coordinates `σ·(a + b√2)`, relative to the
/// square's side s: `s/m`, or `s√2/m` when `surd`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lattice {
    /// The divisor m.
    pub m: i64,
    /// Whether σ = s√2/m rather than s/m.
    pub surd: bool,
}

/// Why a file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The file name.
    pub file: String,
    /// The KiloGram polygon id concerned, if one is.
    pub piece: Option<String>,
    /// What kind of problem (for counting): `svg`, `pieces`, `rotated`,
    /// `area`, `lattice`, `rigid`, `overlap`, `disconnected`, `pinch`,
    /// `hole`.
    pub category: &'static str,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.piece {
            Some(piece) => write!(f, "{}: piece {piece}: {}", self.file, self.reason),
            None => write!(f, "{}: {}", self.file, self.reason),
        }
    }
}

/// Angle tolerance for "a multiple of 45°", radians.
const ANGLE_TOLERANCE: f64 = 1e-6;
/// Relative tolerance of a piece's area.
const AREA_TOLERANCE: f64 = 1e-6;
/// Lattice tolerance, relative to the square's side.
const LATTICE_TOLERANCE: f64 = 1e-12;
/// The finest lattice tried: σ = s/m or s√2/m for m up to this.
const MAX_DIVISOR: i64 = 512;

/// A piece as read, in SVG units with y up.
struct Raw {
    source_id: &'static str,
    id: &'static str,
    kind: Kind,
    kit: &'static [(i64, i64)],
    points: Vec<(f64, f64)>,
}

fn signed_area(points: &[(f64, f64)]) -> f64 {
    let n = points.len();
    (0..n)
        .map(|i| {
            let (p, q) = (points[i], points[(i + 1) % n]);
            p.0 * q.1 - q.0 * p.1
        })
        .sum::<f64>()
        / 2.0
}

/// The best `(a, b, residual)` with `u ≈ a + b√2`, `|b| ≤ bound`.
fn nearest_lattice_value(u: f64, bound: i64) -> (i64, i64, f64) {
    let mut best = (0, 0, f64::INFINITY);
    for b in -bound..=bound {
        let rest = u - b as f64 * SQRT_2;
        let a = rest.round();
        let residual = (rest - a).abs();
        if residual < best.2 {
            best = (a as i64, b, residual);
        }
    }
    best
}

type Unit = Lattice;

impl Lattice {
    fn sigma(self, s: f64) -> f64 {
        if self.surd {
            s * SQRT_2 / self.m as f64
        } else {
            s / self.m as f64
        }
    }

    /// The exact coordinate, with the square's side √2, of `σ·(a + b√2)`.
    fn exact(self, a: i64, b: i64) -> Q2 {
        if self.surd {
            // σ(a + b√2)·√2/s = 2(a + b√2)/m
            Q2::frac(2 * a, 2 * b, self.m)
        } else {
            // σ(a + b√2)·√2/s = (2b + a√2)/m
            Q2::frac(2 * b, a, self.m)
        }
    }
}

/// The candidate units, coarsest first.
fn units() -> Vec<Unit> {
    let mut units: Vec<Unit> = (1..=MAX_DIVISOR)
        .flat_map(|m| [Unit { m, surd: true }, Unit { m, surd: false }])
        .collect();
    units.sort_by(|p, q| q.sigma(1.0).total_cmp(&p.sigma(1.0)));
    units
}

/// Imports one KiloGram file: the exact assembly, or why not.
pub fn import(file: &str, svg_text: &str) -> Result<Assembly, Refusal> {
    let refuse = |piece: Option<&str>, category: &'static str, reason: String| Refusal {
        file: file.to_owned(),
        piece: piece.map(str::to_owned),
        category,
        reason,
    };
    let name = file.strip_suffix(".svg").unwrap_or(file);
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        return Err(refuse(
            None,
            "svg",
            "the name is not usable as an item id segment".to_owned(),
        ));
    }
    let polygons = svg::polygons(svg_text).map_err(|e| refuse(None, "svg", e))?;
    let ids: Vec<&str> = polygons.iter().map(|p| p.id.as_str()).collect();
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    if sorted != ["1", "2", "3", "4", "5", "6", "7"] {
        return Err(refuse(
            None,
            "pieces",
            format!(
                "{} polygons with ids [{}]; a tangram has seven, ids 1-7",
                ids.len(),
                ids.join(", ")
            ),
        ));
    }
    // 1. The pieces, y up, counter-clockwise, without repeated points.
    let extent = polygons
        .iter()
        .flat_map(|p| &p.points)
        .fold(0.0_f64, |m, &(x, y)| m.max(x.abs()).max(y.abs()))
        .max(1.0);
    let mut raws = Vec::new();
    for &(source_id, id, kind, kit) in &PIECES {
        let polygon = polygons
            .iter()
            .find(|p| p.id == source_id)
            .expect("ids checked");
        let mut points: Vec<(f64, f64)> = Vec::new();
        for &(x, y) in &polygon.points {
            let p = (x, -y);
            let repeat = points.last().is_some_and(|q: &(f64, f64)| {
                (q.0 - p.0).abs().max((q.1 - p.1).abs()) <= 1e-9 * extent
            });
            if !repeat {
                points.push(p);
            }
        }
        while points.len() > 1 {
            let (first, last) = (points[0], points[points.len() - 1]);
            if (first.0 - last.0).abs().max((first.1 - last.1).abs()) > 1e-9 * extent {
                break;
            }
            points.pop();
        }
        if points.len() != kind.vertex_count() {
            return Err(refuse(
                Some(source_id),
                "pieces",
                format!(
                    "{} vertices; a {} has {}",
                    points.len(),
                    kind.name(),
                    kind.vertex_count()
                ),
            ));
        }
        if signed_area(&points) < 0.0 {
            points.reverse();
        }
        raws.push(Raw {
            source_id,
            id,
            kind,
            kit,
            points,
        });
    }
    // 2. Edges on the 45° grid.
    for raw in &raws {
        let n = raw.points.len();
        for i in 0..n {
            let (p, q) = (raw.points[i], raw.points[(i + 1) % n]);
            let angle = (q.1 - p.1).atan2(q.0 - p.0);
            let off = angle - (angle / FRAC_PI_4).round() * FRAC_PI_4;
            if off.abs() > ANGLE_TOLERANCE {
                return Err(refuse(
                    Some(raw.source_id),
                    "rotated",
                    format!(
                        "an edge at {:.3}°, {:.3}° off the 45° grid (the piece or the figure is \
                         rotated by an arbitrary angle)",
                        angle.to_degrees(),
                        off.to_degrees()
                    ),
                ));
            }
        }
    }
    // 3. Areas: the square's side from the whole, every piece its share.
    let total: f64 = raws.iter().map(|r| signed_area(&r.points)).sum();
    let s = (total / 8.0).sqrt();
    if !(s.is_finite() && s > 0.0) {
        return Err(refuse(None, "area", "the pieces have no area".to_owned()));
    }
    // The piece furthest from its share is the one to blame.
    let worst = raws
        .iter()
        .map(|raw| {
            let share = signed_area(&raw.points) / (s * s);
            (raw, share, (share / raw.kind.area_share() - 1.0).abs())
        })
        .max_by(|p, q| p.2.total_cmp(&q.2));
    if let Some((raw, share, off)) = worst {
        let want = raw.kind.area_share();
        if off > AREA_TOLERANCE {
            return Err(refuse(
                Some(raw.source_id),
                "area",
                format!(
                    "area {share:.6} s², where a {} has {want} s² (s: the square's side, from \
                     the total area 8 s²): the pieces are not one tangram set",
                    raw.kind.name()
                ),
            ));
        }
    }
    // 4. One lattice σ·(a + b√2) for every coordinate.
    let x0 = raws
        .iter()
        .flat_map(|r| &r.points)
        .map(|p| p.0)
        .fold(f64::INFINITY, f64::min);
    let y0 = raws
        .iter()
        .flat_map(|r| &r.points)
        .map(|p| p.1)
        .fold(f64::INFINITY, f64::min);
    let values: Vec<(usize, usize, f64, f64)> = raws
        .iter()
        .enumerate()
        .flat_map(|(i, r)| {
            r.points
                .iter()
                .enumerate()
                .map(move |(k, &(x, y))| (i, k, x - x0, y - y0))
        })
        .collect();
    let tolerance = LATTICE_TOLERANCE * s;
    // `b` of `a + b√2` can be negative and larger than the coordinate
    // (`48 - 24√2`): bounded by the figure's size instead.
    let size = values.iter().fold(0.0_f64, |m, v| m.max(v.2).max(v.3));
    let snap = |unit: Unit, v: f64| -> Option<Q2> {
        let sigma = unit.sigma(s);
        let u = v / sigma;
        let bound = (size / sigma).ceil() as i64 + 2;
        let (a, b, residual) = nearest_lattice_value(u, bound);
        (residual * sigma <= tolerance).then(|| unit.exact(a, b))
    };
    let mut furthest: (usize, Option<(usize, usize, Unit)>) = (0, None);
    let mut exact: Option<(Vec<Vec<Point>>, Unit)> = None;
    'units: for unit in units() {
        let mut pieces: Vec<Vec<Point>> = raws.iter().map(|_| Vec::new()).collect();
        for (done, &(i, k, x, y)) in values.iter().enumerate() {
            match (snap(unit, x), snap(unit, y)) {
                (Some(x), Some(y)) => pieces[i].push(Point::new(x, y)),
                _ => {
                    if done >= furthest.0 {
                        furthest = (done, Some((i, k, unit)));
                    }
                    continue 'units;
                }
            }
        }
        exact = Some((pieces, unit));
        break;
    }
    let Some((exact, lattice)) = exact else {
        let (i, k, unit) = furthest.1.expect("at least one unit was tried");
        let raw = &raws[i];
        let (x, y) = raw.points[k];
        return Err(refuse(
            Some(raw.source_id),
            "lattice",
            format!(
                "vertex ({:.4}, {:.4}) is off the lattice (a + b√2)·σ of the vertices before it \
                 (σ = {:.4} = s{}/{}; hand-edited, or slid by an arbitrary amount)",
                x,
                -y,
                unit.sigma(s),
                if unit.surd { "√2" } else { "" },
                unit.m
            ),
        ));
    };
    // 5. Exact checks.
    let shapes: Vec<Vec<Point>> = exact.into_iter().map(geom::counter_clockwise).collect();
    for (raw, shape) in raws.iter().zip(&shapes) {
        if !geom::congruent(shape, &kit(raw.kit)) {
            return Err(refuse(
                Some(raw.source_id),
                "rigid",
                format!(
                    "on the lattice, not a rigid copy of the {} (its vertices do not fit \
                     together exactly)",
                    raw.kind.name()
                ),
            ));
        }
    }
    for i in 0..shapes.len() {
        for j in i + 1..shapes.len() {
            if geom::interiors_overlap(&shapes[i], &shapes[j]) {
                return Err(refuse(
                    Some(raws[i].source_id),
                    "overlap",
                    format!("overlaps piece {}", raws[j].source_id),
                ));
            }
        }
    }
    let groups = geom::joined_groups(&shapes);
    if groups.len() > 1 {
        let parts: Vec<String> = groups
            .iter()
            .map(|g| {
                let mut ids: Vec<&str> = g.iter().map(|&i| raws[i].source_id).collect();
                ids.sort_unstable();
                format!("[{}]", ids.join(", "))
            })
            .collect();
        return Err(refuse(
            None,
            "disconnected",
            format!(
                "the pieces form {} separate shapes {} (pieces join along edges; a common \
                 corner does not join them)",
                groups.len(),
                parts.join(" ")
            ),
        ));
    }
    let outline = geom::union_outline(&shapes).map_err(|e| match e {
        geom::OutlineError::Pinch(p) => {
            let (x, y) = p.to_f64();
            refuse(
                None,
                "pinch",
                format!(
                    "the outline touches itself at ({x:.4}, {y:.4}): parts of the shape meet at \
                     a single point (or a hole touches the outside)"
                ),
            )
        }
        geom::OutlineError::Chains(n) => refuse(
            None,
            "hole",
            format!("the outline has {n} boundary chains: the shape has a hole"),
        ),
        geom::OutlineError::Overlap => refuse(
            None,
            "overlap",
            "two pieces overlap along an edge".to_owned(),
        ),
    })?;
    // Placed on the axes (the lattice already measures from the least x, y).
    let dx = outline
        .iter()
        .map(|p| &p.x)
        .min()
        .cloned()
        .unwrap_or_else(Q2::zero);
    let dy = outline
        .iter()
        .map(|p| &p.y)
        .min()
        .cloned()
        .unwrap_or_else(Q2::zero);
    let shift = |p: &Point| Point::new(&p.x - &dx, &p.y - &dy);
    Ok(Assembly {
        name: name.to_owned(),
        pieces: raws
            .iter()
            .zip(&shapes)
            .map(|(raw, shape)| Piece {
                id: raw.id,
                source_id: raw.source_id,
                kind: raw.kind,
                vertices: shape.iter().map(shift).collect(),
            })
            .collect(),
        outline: outline.iter().map(shift).collect(),
        lattice,
    })
}

#[cfg(test)]
mod tests;
