//! Registry items from accepted assemblies, in the formats of
//! `registry/tools/tangram.py` (and `registry/tools/itemfiles.py`): Task 2
//! items `tangram/kilogram/<name>` and Task 1 items
//! `tangram-outline/kilogram/<name>`.

use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::geom::{self, Point};
use crate::q2::Q2;
use crate::{Assembly, Kind, PIECES, Piece, kit};

/// One file of the registry: its path under `registry/` and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ItemFile {
    /// Relative to the registry root, e.g. `items/tangram/kilogram/page1-0/item.toml`.
    pub path: String,
    /// The contents.
    pub contents: String,
}

/// Task 2's limits: the generator's, with twice the fuel (the references of
/// the 572 KiloGram figures accepted take up to 166 million; the items keep
/// ten times that).
const TASK2_LIMITS: [(&str, u64); 3] = [
    ("fuel", 2_000_000_000),
    ("memory_bytes", 67_108_864),
    ("timeout_ms", 5_000),
];
/// Task 1's limits (as the generator's).
const TASK1_LIMITS: [(&str, u64); 3] = [
    ("fuel", 10_000_000_000),
    ("memory_bytes", 67_108_864),
    ("timeout_ms", 5_000),
];
const LETTERS: [char; 4] = ['A', 'B', 'C', 'D'];
/// The seed of the option order and of the distractors drawn.
const SEED: &str = "tangram-outline/1";

fn toml_str(s: &str) -> String {
    serde_json::to_string(s).expect("a string serialises")
}

/// `1_000_000_000`, as Python's `f"{v:_}"`.
fn grouped(v: u64) -> String {
    let digits = v.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('_');
        }
        out.push(c);
    }
    out
}

/// `item.toml`, as `itemfiles.write_item` writes it.
fn item_toml(
    id: &str,
    module: &str,
    reference: &str,
    limits: &[(&str, u64)],
    metadata: &[(&str, String)],
    counterexamples: &[(String, String)],
) -> String {
    let mut lines = vec![
        format!("id = {}", toml_str(id)),
        format!("module = {}", toml_str(module)),
        "payload = \"raw\"".to_owned(),
        format!("reference = {}", toml_str(reference)),
        String::new(),
        "[limits]".to_owned(),
    ];
    lines.extend(limits.iter().map(|(k, v)| format!("{k} = {}", grouped(*v))));
    lines.push(String::new());
    lines.push("[metadata]".to_owned());
    lines.extend(
        metadata
            .iter()
            .map(|(k, v)| format!("{k} = {}", toml_str(v))),
    );
    for (payload, why) in counterexamples {
        lines.push(String::new());
        lines.push("[[counterexample]]".to_owned());
        lines.push(format!("payload = {}", toml_str(payload)));
        lines.push(format!("why = {}", toml_str(why)));
    }
    lines.join("\n") + "\n"
}

fn latex_pair(p: &Point) -> [String; 2] {
    [p.x.latex(), p.y.latex()]
}

#[derive(Serialize)]
struct PieceJson {
    id: String,
    #[serde(rename = "type")]
    kind: &'static str,
    vertices: Vec<[String; 2]>,
}

#[derive(Serialize)]
struct OutlineJson {
    vertices: Vec<[String; 2]>,
    edges: Vec<[usize; 2]>,
}

#[derive(Serialize)]
struct StateJson {
    pieces: Vec<PieceJson>,
}

#[derive(Serialize)]
struct Task2Instance<'a> {
    instance_id: &'a str,
    target_outline: OutlineJson,
    initial_state: StateJson,
}

#[derive(Serialize)]
struct CandidateJson<'a> {
    option: String,
    source: &'a str,
    outline: OutlineJson,
}

#[derive(Serialize)]
struct Task1Instance<'a> {
    instance_id: &'a str,
    final_state: StateJson,
    options: Vec<String>,
    answer: String,
    candidates: Vec<CandidateJson<'a>>,
}

fn outline_json(outline: &[Point]) -> OutlineJson {
    let n = outline.len();
    OutlineJson {
        vertices: outline.iter().map(latex_pair).collect(),
        edges: (0..n).map(|k| [k, (k + 1) % n]).collect(),
    }
}

fn pieces_json(pieces: &[(String, Kind, Vec<Point>)]) -> Vec<PieceJson> {
    pieces
        .iter()
        .map(|(id, kind, vertices)| PieceJson {
            id: id.clone(),
            kind: kind.name(),
            vertices: vertices.iter().map(latex_pair).collect(),
        })
        .collect()
}

fn placed(a: &Assembly) -> Vec<(String, Kind, Vec<Point>)> {
    a.pieces
        .iter()
        .map(|p| (p.id.to_owned(), p.kind, p.vertices.clone()))
        .collect()
}

/// The canonical pieces, scattered (piece k moved 6k right and 8 down): the
/// generator's TCE `initial_state`.
fn initial_state() -> Vec<(String, Kind, Vec<Point>)> {
    PIECES
        .iter()
        .enumerate()
        .map(|(k, &(_, id, kind, vertices))| {
            let k = i64::try_from(k).expect("seven pieces");
            let moved: Vec<(i64, i64)> =
                vertices.iter().map(|&(x, y)| (x + 6 * k, y - 8)).collect();
            (id.to_owned(), kind, kit(&moved))
        })
        .collect()
}

/// The TCE answer, as the generator's `tce()` writes it (Python's
/// `json.dumps` spacing).
fn tce(instance_id: &str, pieces: &[(String, Kind, Vec<Point>)], decimals: bool) -> String {
    let coordinate = |q: &Q2| {
        if decimals {
            let v = (q.to_f64() * 1e4).round() / 1e4;
            serde_json::to_string(&v).expect("a finite number")
        } else {
            toml_str(&q.latex())
        }
    };
    let listed: Vec<String> = pieces
        .iter()
        .map(|(id, kind, vertices)| {
            let vs: Vec<String> = vertices
                .iter()
                .map(|p| format!("[{}, {}]", coordinate(&p.x), coordinate(&p.y)))
                .collect();
            format!(
                "{{\"id\": {}, \"type\": {}, \"vertices\": [{}]}}",
                toml_str(id),
                toml_str(kind.name()),
                vs.join(", ")
            )
        })
        .collect();
    format!(
        "{{\"instance_id\": {}, \"final_state\": {{\"pieces\": [{}]}}}}",
        toml_str(instance_id),
        listed.join(", ")
    )
}

fn point_list(points: &[[String; 2]]) -> String {
    let listed: Vec<String> = points.iter().map(|[x, y]| format!("({x}, {y})")).collect();
    listed.join(", ")
}

fn task2_instruction(outline: &OutlineJson, initial: &[PieceJson]) -> String {
    let pieces: Vec<String> = initial
        .iter()
        .map(|p| format!("- {} ({}): {}", p.id, p.kind, point_list(&p.vertices)))
        .collect();
    format!(
        "Assemble the seven tangram pieces (translations, rotations and reflections only) so that \
         they exactly fill the target outline, without overlaps.\n\nTarget outline vertices, in \
         order (edges join consecutive vertices): {}\n\nInitial state of the pieces:\n{}\n\n\
         Coordinates are exact LaTeX expressions. Output the Tangram Construction Expression as \
         JSON: {{\"final_state\": {{\"pieces\": [{{\"id\": …, \"type\": …, \"vertices\": [[x, y], \
         …]}}, …]}}}}, with exact LaTeX coordinates for every vertex of every piece.",
        point_list(&outline.vertices),
        pieces.join("\n")
    )
}

fn replaced(
    pieces: &[(String, Kind, Vec<Point>)],
    id: &str,
    vertices: Vec<Point>,
) -> Vec<(String, Kind, Vec<Point>)> {
    pieces
        .iter()
        .map(|(i, k, v)| {
            (
                i.clone(),
                *k,
                if i == id { vertices.clone() } else { v.clone() },
            )
        })
        .collect()
}

fn piece<'a>(a: &'a Assembly, id: &str) -> &'a Piece {
    a.pieces
        .iter()
        .find(|p| p.id == id)
        .expect("all seven pieces")
}

/// The Task 2 item `tangram/kilogram/<name>`: the outline to fill, the
/// scattered kit, the assembly as the reference witness and the generator's
/// generic failures as counterexamples.
pub fn task2_files(a: &Assembly) -> Vec<ItemFile> {
    let item_id = format!("tangram/kilogram/{}", a.name);
    let instance_id = format!("kilogram/{}", a.name);
    let pieces = placed(a);
    let initial = pieces_json(&initial_state());
    let instruction = task2_instruction(&outline_json(&a.outline), &initial);
    let instance = Task2Instance {
        instance_id: &instance_id,
        target_outline: outline_json(&a.outline),
        initial_state: StateJson { pieces: initial },
    };
    // A large triangle stretched: its right-angle vertex pushed out by half a leg.
    let t1 = &piece(a, "T1").vertices;
    let apex = (0..3)
        .find(|&i| {
            let (p, v, q) = (&t1[(i + 2) % 3], &t1[i], &t1[(i + 1) % 3]);
            geom::dot(&p.minus(v), &q.minus(v)).is_zero()
        })
        .unwrap_or(2);
    let (corner, other) = (&t1[apex], &t1[(apex + 1) % 3]);
    let out = corner.minus(other);
    let mut stretched = t1.clone();
    stretched[apex] = Point::new(&corner.x + &out.x.div_int(2), &corner.y + &out.y.div_int(2));
    let sq = &piece(a, "SQ").vertices;
    let onto_square = vec![sq[0].clone(), sq[1].clone(), sq[2].clone()];
    let swapped: Vec<(String, Kind, Vec<Point>)> = pieces
        .iter()
        .map(|(i, k, v)| {
            let k = if *k == Kind::Square {
                Kind::SmallTriangle
            } else {
                *k
            };
            (i.clone(), k, v.clone())
        })
        .collect();
    let without_p: Vec<_> = pieces
        .iter()
        .filter(|(i, _, _)| i != "P")
        .cloned()
        .collect();
    let mut counter = vec![
        (
            tce(&instance_id, &replaced(&pieces, "T1", stretched), false),
            "a large triangle stretched: its right-angle corner pushed out (RGE)".to_owned(),
        ),
        (
            tce(&instance_id, &replaced(&pieces, "S2", onto_square), false),
            "a small triangle laid over the square (PE)".to_owned(),
        ),
        (
            tce(&instance_id, &without_p, false),
            "the parallelogram left out (TSE)".to_owned(),
        ),
        (
            tce(&instance_id, &swapped, false),
            "the square labelled as a third small triangle (TSE)".to_owned(),
        ),
        (
            "The assembly places the two large triangles first and fills the rest with the \
             remaining pieces."
                .to_owned(),
            "prose, no TCE".to_owned(),
        ),
    ];
    let surds = pieces
        .iter()
        .flat_map(|(_, _, v)| v)
        .any(|p| !p.x.is_rational() || !p.y.is_rational());
    if surds {
        counter.push((
            tce(&instance_id, &pieces, true),
            "the surds written as 4-digit decimals (RGE: areas no longer exact)".to_owned(),
        ));
    }
    let metadata = [
        ("benchmark", "tangram".to_owned()),
        ("type", "construction".to_owned()),
        ("category", "kilogram".to_owned()),
        (
            "source",
            format!(
                "TangramPuzzle Task 2 (End-to-End Tangram Solution Generation) on KiloGram \
                 (Ji et al., 2022) dataset/tangrams-svg/{}.svg; imported by verigate-kilogram",
                a.name
            ),
        ),
        ("problem", format!("Tangram: KiloGram {}", a.name)),
        ("construction_instruction", instruction),
    ];
    let dir = format!("items/{item_id}");
    vec![
        ItemFile {
            path: format!("{dir}/instance/instance.json"),
            contents: serde_json::to_string(&instance).expect("serialisable") + "\n",
        },
        ItemFile {
            path: format!("{dir}/item.toml"),
            contents: item_toml(
                &item_id,
                "tangram",
                &tce(&instance_id, &pieces, false),
                &TASK2_LIMITS,
                &metadata,
                &counter,
            ),
        },
    ]
}

fn sha256_hex(text: &str) -> String {
    hex::encode(Sha256::digest(text.as_bytes()))
}

/// The generator's `candidates_svg`: four panels labelled A–D, every
/// silhouette at one scale with its lower and left boundaries on the panel's
/// axes, over a faint unit grid.
fn candidates_svg(outlines: &[&[Point]]) -> String {
    let floats: Vec<Vec<(f64, f64)>> = outlines
        .iter()
        .map(|o| o.iter().map(Point::to_f64).collect())
        .collect();
    let extent = floats
        .iter()
        .flatten()
        .fold(0.0_f64, |m, &(x, y)| m.max(x).max(y));
    let cells = extent.ceil().max(1.0) as usize;
    let (panel, margin, top) = (240_usize, 20_usize, 30_usize);
    let scale = (panel - 2 * margin) as f64 / cells as f64;
    let (w, h) = (2 * panel, 2 * (panel + top));
    let mut out = vec![
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 \
             {w} {h}\" font-family=\"sans-serif\">"
        ),
        format!("<rect width=\"{w}\" height=\"{h}\" fill=\"white\"/>"),
    ];
    for (k, (letter, points)) in LETTERS.iter().zip(&floats).enumerate() {
        let (x0, y0) = ((k % 2) * panel, (k / 2) * (panel + top));
        let (ox, oy) = ((x0 + margin) as f64, (y0 + top + panel - margin) as f64);
        out.push(format!("<g id=\"option-{letter}\">"));
        out.push(format!(
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#999\" \
             stroke-width=\"1\"/>",
            x0 + 2,
            y0 + 2,
            panel - 4,
            panel + top - 4
        ));
        out.push(format!(
            "<text x=\"{}\" y=\"{}\" font-size=\"22\" font-weight=\"bold\">{letter}</text>",
            x0 + 12,
            y0 + 26
        ));
        let side = cells as f64 * scale;
        for i in 0..=cells {
            let g = i as f64 * scale;
            out.push(format!(
                "<line x1=\"{:.2}\" y1=\"{oy:.2}\" x2=\"{:.2}\" y2=\"{:.2}\" stroke=\"#e4e4e4\" \
                 stroke-width=\"1\"/>",
                ox + g,
                ox + g,
                oy - side
            ));
            out.push(format!(
                "<line x1=\"{ox:.2}\" y1=\"{:.2}\" x2=\"{:.2}\" y2=\"{:.2}\" stroke=\"#e4e4e4\" \
                 stroke-width=\"1\"/>",
                oy - g,
                ox + side,
                oy - g
            ));
        }
        let path: Vec<String> = points
            .iter()
            .map(|&(x, y)| format!("{:.2},{:.2}", ox + x * scale, oy - y * scale))
            .collect();
        out.push(format!(
            "<polygon points=\"{}\" fill=\"#333\"/>",
            path.join(" ")
        ));
        out.push("</g>".to_owned());
    }
    out.push("</svg>".to_owned());
    out.join("\n") + "\n"
}

fn task1_instruction(instance_id: &str, pieces: &[PieceJson]) -> String {
    let rows: Vec<String> = pieces
        .iter()
        .map(|p| {
            let vs: Vec<String> = p
                .vertices
                .iter()
                .map(|[x, y]| format!("[{}, {}]", toml_str(x), toml_str(y)))
                .collect();
            format!(
                "  {{\"id\": {}, \"type\": {}, \"vertices\": [{}]}}",
                toml_str(&p.id),
                toml_str(p.kind),
                vs.join(", ")
            )
        })
        .collect();
    format!(
        "The image (candidates.svg) shows four candidate silhouettes labelled A, B, C and D, drawn \
         at one common scale, each with its lower boundary on the x-axis and its left boundary on \
         the y-axis (the faint grid lines are one unit apart). The seven tangram pieces below are \
         already assembled; their Tangram Construction Expression (TCE) gives each piece's type \
         and exact vertex coordinates (LaTeX):\n\n{{\"instance_id\": {}, \"final_state\": \
         {{\"pieces\": [\n{}\n]}}}}\n\nWhich silhouette do the seven pieces form together? Answer \
         with the letter of that option (A, B, C or D).",
        toml_str(instance_id),
        rows.join(",\n")
    )
}

/// The Task 1 item `tangram-outline/kilogram/<name>`: the pieces' TCE, the
/// true outline and three others drawn from `pool` (as the paper does:
/// "three distinct silhouettes from the remaining dataset", here in the
/// order of sha256(seed/name/other), skipping any equal to one already
/// chosen), the option order from the same seed, and the candidate image.
/// `None` when `pool` holds fewer than three other outlines.
pub fn task1_files(a: &Assembly, pool: &[Assembly]) -> Option<Vec<ItemFile>> {
    let item_id = format!("tangram-outline/kilogram/{}", a.name);
    let instance_id = format!("kilogram/{}", a.name);
    let mut others: Vec<&Assembly> = pool.iter().filter(|o| o.name != a.name).collect();
    others.sort_by_cached_key(|o| sha256_hex(&format!("{SEED}/{instance_id}/other/{}", o.name)));
    let truth_source = "the outline of the pieces".to_owned();
    let mut chosen: Vec<(String, String, &[Point])> =
        vec![("truth".to_owned(), truth_source, &a.outline)];
    for other in others {
        if chosen.len() == LETTERS.len() {
            break;
        }
        if chosen
            .iter()
            .any(|(_, _, o)| geom::same_shape(o, &other.outline))
        {
            continue;
        }
        chosen.push((
            format!("other:{}", other.name),
            format!("the outline of another assembly (kilogram/{})", other.name),
            &other.outline,
        ));
    }
    if chosen.len() < LETTERS.len() {
        return None;
    }
    chosen.sort_by_cached_key(|(key, _, _)| sha256_hex(&format!("{SEED}/{instance_id}/{key}")));
    let answer_at = chosen
        .iter()
        .position(|(key, _, _)| key == "truth")
        .expect("the truth");
    let answer = LETTERS[answer_at];
    let pieces = pieces_json(&placed(a));
    let instruction = task1_instruction(&instance_id, &pieces);
    let instance = Task1Instance {
        instance_id: &instance_id,
        final_state: StateJson { pieces },
        options: LETTERS.iter().map(char::to_string).collect(),
        answer: answer.to_string(),
        candidates: LETTERS
            .iter()
            .zip(&chosen)
            .map(|(letter, (_, source, outline))| CandidateJson {
                option: letter.to_string(),
                source,
                outline: outline_json(outline),
            })
            .collect(),
    };
    let wrong: Vec<(char, &str)> = LETTERS
        .iter()
        .zip(&chosen)
        .filter(|(l, _)| **l != answer)
        .map(|(l, (_, source, _))| (*l, source.as_str()))
        .collect();
    let mut counter: Vec<(String, String)> = wrong
        .iter()
        .map(|(l, source)| {
            (
                format!("The answer is {l}."),
                format!("option {l}: {source}"),
            )
        })
        .collect();
    counter.push((
        format!(
            "The answer is {answer}. No, wait: the answer is {}.",
            wrong[0].0
        ),
        "two different options asserted (invalid)".to_owned(),
    ));
    counter.push((
        "Answer: E".to_owned(),
        "E is not one of the options A-D (invalid)".to_owned(),
    ));
    counter.push((
        "A careful look at the coordinates shows that the seven pieces form one connected \
         silhouette."
            .to_owned(),
        "prose naming no option; the article 'A' is no answer (invalid)".to_owned(),
    ));
    let metadata = [
        ("benchmark", "tangram".to_owned()),
        ("type", "construction".to_owned()),
        ("category", "outline".to_owned()),
        (
            "source",
            format!(
                "TangramPuzzle Task 1 (Outline Prediction) on KiloGram (Ji et al., 2022) \
                 dataset/tangrams-svg/{}.svg; imported by verigate-kilogram",
                a.name
            ),
        ),
        (
            "problem",
            format!("Tangram outline prediction: KiloGram {}", a.name),
        ),
        ("construction_instruction", instruction),
        ("reference_answer", answer.to_string()),
    ];
    let outlines: Vec<&[Point]> = chosen.iter().map(|(_, _, o)| *o).collect();
    let dir = format!("items/{item_id}");
    Some(vec![
        ItemFile {
            path: format!("{dir}/instance/candidates.svg"),
            contents: candidates_svg(&outlines),
        },
        ItemFile {
            path: format!("{dir}/instance/instance.json"),
            contents: serde_json::to_string(&instance).expect("serialisable") + "\n",
        },
        ItemFile {
            path: format!("{dir}/item.toml"),
            contents: item_toml(
                &item_id,
                "tangram-outline",
                &format!("The answer is {answer}."),
                &TASK1_LIMITS,
                &metadata,
                &counter,
            ),
        },
    ])
}

/// Both tasks' items for every accepted assembly (Task 1 distractors drawn
/// from the others), sorted by path.
pub fn item_files(accepted: &[Assembly]) -> Vec<ItemFile> {
    let mut files: Vec<ItemFile> = accepted
        .iter()
        .flat_map(|a| {
            let mut files = task2_files(a);
            files.extend(task1_files(a, accepted).unwrap_or_default());
            files
        })
        .collect();
    files.sort_by(|p, q| p.path.cmp(&q.path));
    files
}
