//! A part's STL text read the way the original's `trimesh.load` reads the file it wrote.
//!
//! The original writes `fileContents` (a string) to `<part>.stl` and loads it with trimesh:
//! binary when the file length is exactly `84 + 50 * face_count` (the count in bytes 80..84),
//! else ASCII. So a binary STL can only arrive as the characters of a JSON/Python string, and
//! it is read from the string's UTF-8 bytes, as the file holds them; any other encoding
//! (base64, hex) is ASCII text to trimesh and fails to parse, here as there.
//!
//! trimesh's ASCII reader lowercases and strips the text, splits it at every `endsolid`,
//! and in each piece takes what follows the first `solid`, drops that header line (a piece
//! with no line break after `solid` raises), splits the rest on whitespace and reads faces
//! as fixed groups of 21 words (`facet normal nx ny nz outer loop vertex x y z vertex …
//! endloop endfacet`): words 2–4 are the normal and 8–10, 12–14, 16–18 the vertices; the
//! keywords themselves are never checked, and a word that is not a number raises
//! ("could not convert string to float"). Normals are converted first, then vertices.
//! The text is stripped and split as Python's `str.strip()` and `str.split()` do, and the
//! words are converted as numpy's `astype(float64)` does, by Python's `float()`: Unicode
//! digits and underscores between digits count (`'１.５'`, `'1_0'`).

use verigate_sdk::python::strings;

/// One triangle's three vertices.
pub type Tri = [[f64; 3]; 3];

/// The triangles of a part's STL text, or trimesh's reason for refusing it.
pub fn triangles(contents: &str) -> Result<Vec<Tri>, String> {
    let bytes = contents.as_bytes();
    if bytes.len() >= 84 {
        let count = u32::from_le_bytes([bytes[80], bytes[81], bytes[82], bytes[83]]);
        if (bytes.len() - 84) as u64 == u64::from(count) * 50 {
            return Ok(binary(&bytes[84..]));
        }
    }
    ascii(contents)
}

fn binary(records: &[u8]) -> Vec<Tri> {
    let f = |b: &[u8]| f64::from(f32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    records
        .chunks_exact(50)
        .map(|r| {
            let v = |k: usize| {
                let o = 12 + 12 * k;
                [f(&r[o..]), f(&r[o + 4..]), f(&r[o + 8..])]
            };
            [v(0), v(1), v(2)]
        })
        .collect()
}

/// Word positions of the normal and of the nine vertex coordinates within a face's 21 words.
const NORMAL_WORDS: [usize; 3] = [2, 3, 4];
const VERTEX_WORDS: [usize; 9] = [8, 9, 10, 12, 13, 14, 16, 17, 18];

fn number(word: &str) -> Result<f64, String> {
    strings::float(word).ok_or_else(|| format!("could not convert string to float: '{word}'"))
}

fn ascii(text: &str) -> Result<Vec<Tri>, String> {
    let raw = strings::strip(text).to_lowercase();
    let mut out = Vec::new();
    for piece in raw.split("endsolid") {
        let Some(at) = piece.find("solid") else {
            continue;
        };
        let rest = &piece[at + "solid".len()..];
        let Some(line_end) = rest.find('\n') else {
            return Err("not enough values to unpack (expected 2, got 1): \
                        no line break after the 'solid' header"
                .to_owned());
        };
        let words: Vec<&str> = strings::split_whitespace(&rest[line_end + 1..]).collect();
        let faces = words.len() / 21;
        for face in 0..faces {
            for &w in &NORMAL_WORDS {
                number(words[face * 21 + w])?;
            }
        }
        for face in 0..faces {
            let c: Vec<f64> = VERTEX_WORDS
                .iter()
                .map(|&w| number(words[face * 21 + w]))
                .collect::<Result<_, _>>()?;
            out.push([[c[0], c[1], c[2]], [c[3], c[4], c[5]], [c[6], c[7], c[8]]]);
        }
    }
    Ok(out)
}

/// ASCII STL text for triangles (tests and counterexample building).
#[cfg(test)]
pub fn ascii_text(tris: &[Tri]) -> String {
    let mut s = String::from("solid part\n");
    for t in tris {
        s.push_str("facet normal 0 0 0 outer loop");
        for v in t {
            s.push_str(&format!(" vertex {} {} {}", v[0], v[1], v[2]));
        }
        s.push_str(" endloop endfacet\n");
    }
    s.push_str("endsolid part\n");
    s
}
