//! Subpass 0: building every part and trimesh's validity checks, in the original's order and
//! words ("Part 3.stl is not watertight (must be a closed solid)<br>"). Its verdict also
//! decides the original's module-global `earlyFail` that gates subpasses 1–8.

use crate::answer::{Kind, Part};
use crate::mesh::Mesh;
use crate::stl;

/// The parts as subpass 0 leaves them.
pub struct Built {
    /// Each STL part's mesh (None for parts that were not built).
    pub meshes: Vec<Option<Mesh>>,
    /// The original's `bugs` text from the parts verigate could build.
    pub bugs: String,
    /// Parts verigate cannot build: (index, what the original did with them).
    pub refused: Vec<(usize, (&'static str, &'static str))>,
}

impl Built {
    /// `earlyFail` as far as it can be known: `Some(true)` when the buildable parts already
    /// fail, `Some(false)` when every part was built and passed, `None` when it depends on
    /// parts verigate cannot build.
    pub fn early_fail(&self) -> Option<bool> {
        if !self.bugs.is_empty() {
            Some(true)
        } else if self.refused.is_empty() {
            Some(false)
        } else {
            None
        }
    }

    /// "parts 0, 1, 2 are OpenSCAD source (the original rendered them with OpenSCAD)" for the
    /// refusal messages, one clause per kind.
    pub fn refusal(&self) -> String {
        let mut clauses: Vec<(&str, &str, Vec<usize>)> = Vec::new();
        for &(i, (what, did)) in &self.refused {
            match clauses.iter_mut().find(|c| c.0 == what) {
                Some(c) => c.2.push(i),
                None => clauses.push((what, did, vec![i])),
            }
        }
        clauses
            .iter()
            .map(|(what, did, parts)| {
                let list = parts
                    .iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join(", ");
                if parts.len() == 1 {
                    format!(
                        "part {list} is {what} (the original {})",
                        did.replace("{}", "it")
                    )
                } else {
                    format!(
                        "parts {list} are {what} (the original {})",
                        did.replace("{}", "them")
                    )
                }
            })
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// `StlVolume.calculate_stl_volume`: |volume| of what trimesh reads, 0 when it cannot read
/// the file or finds no faces. (The original first tries `fill_holes`/`fix_normals` on
/// meshes that are not watertight; such a part fails the watertight check anyway, so only
/// that message could differ.)
fn stl_volume(tris: &Result<Vec<stl::Tri>, String>) -> f64 {
    match tris {
        Ok(t) if !t.is_empty() => Mesh::from_triangles(t).signed_volume().abs(),
        _ => 0.0,
    }
}

/// Builds the parts and runs subpass 0's checks.
pub fn build(parts: &[Part]) -> Built {
    let mut bugs = String::new();
    let mut refused = Vec::new();
    // The build loop: unknown file types are reported first, in part order.
    for (i, part) in parts.iter().enumerate() {
        if let Kind::Unknown(t) = &part.kind {
            bugs += &format!("Unknown file type '{t}' for part {i}<br>");
        }
        if let Some(why) = part.kind.needs() {
            refused.push((i, why));
        }
    }
    let mut meshes = vec![None; parts.len()];
    for (i, part) in parts.iter().enumerate() {
        match &part.kind {
            Kind::Unknown(_) => {
                bugs += &format!("Part {i}.stl does not exist<br>");
                continue;
            }
            Kind::Stl => {}
            _ => continue,
        }
        let contents = part.contents.as_deref().unwrap_or_default();
        if contents.is_empty() {
            bugs += &format!("Part {i}.stl was empty<br>");
        }
        let tris = stl::triangles(contents);
        if stl_volume(&tris) == 0.0 {
            bugs += &format!("Part {i}.stl had a volume of 0<br>");
        }
        let tris = match tris {
            Ok(t) => t,
            Err(e) => {
                bugs += &format!("Part {i}.stl could not be parsed by trimesh: {e}<br>");
                continue;
            }
        };
        let mesh = Mesh::from_triangles(&tris);
        bugs += &validity(i, &mesh);
        meshes[i] = Some(mesh);
    }
    Built {
        meshes,
        bugs,
        refused,
    }
}

/// trimesh's checks on one part, in the original's order.
pub fn validity(i: usize, mesh: &Mesh) -> String {
    let mut bugs = String::new();
    if mesh.is_empty() {
        bugs += &format!("Part {i}.stl is empty geometry<br>");
    }
    let (watertight, winding) = mesh.watertight_winding();
    if !watertight {
        bugs += &format!("Part {i}.stl is not watertight (must be a closed solid)<br>");
    }
    if !winding {
        bugs += &format!("Part {i}.stl has inconsistent face winding<br>");
    }
    // (The original also counts `edges_nonmanifold`, an attribute trimesh does not have, so
    // that message never appears; an edge used by more than two faces already fails the
    // watertight check.)
    let bodies = mesh.body_count();
    if bodies > 1 {
        bugs += &format!("Part {i}.stl contains multiple disjoint solids ({bodies})<br>");
    }
    let volume = mesh.signed_volume();
    if !(watertight && winding && volume > 0.0 && volume.is_finite()) {
        bugs += &format!("Part {i}.stl is not a valid closed volume<br>");
    }
    bugs
}
