//! The corrected judgement: the task as its prompt states it.
//!
//! Exactly the listed prisms (each box's extents, sorted, one of the rows, every row's
//! count met, no other box), every extent positive, no two boxes overlapping, and the
//! density measured against the boxes' own bounding box (anchored at their min corner,
//! not at the origin); ÷ 0.95, capped at 1, only where no perfect packing exists
//! (`perfectly_packable_corrected`: subpasses 0, 1 and 2).

use verigate_sdk::Verdict;
use verigate_sdk::python::Value;

use crate::Instance;
use crate::num::Num;

/// Largest coordinate magnitude handled exactly (f64 integers).
const LIMIT: f64 = 9_007_199_254_740_992.0;

fn boxes_of(answer: &Value) -> Option<&[Value]> {
    if let Some(items) = answer.as_list() {
        let mut best: Option<&[Value]> = None;
        for item in items {
            if let Some(b) = item
                .as_dict()
                .and_then(|d| d.get("boxes"))
                .and_then(Value::as_list)
                && best.is_none_or(|x| b.len() > x.len())
            {
                best = Some(b);
            }
        }
        return best;
    }
    answer
        .as_dict()
        .and_then(|d| d.get("boxes"))
        .and_then(Value::as_sequence)
}

fn corner(b: &Value, key: &str) -> Option<[f64; 3]> {
    let seq = b.as_dict()?.get(key)?.as_sequence()?;
    if seq.len() != 3 {
        return None;
    }
    let mut out = [0.0; 3];
    for (o, v) in out.iter_mut().zip(seq) {
        if v.as_bool().is_some() {
            return None;
        }
        let x = Num::of(v)?.to_f64();
        if !x.is_finite() || x.abs() > LIMIT {
            return None;
        }
        *o = x;
    }
    Some(out)
}

pub fn judge(instance: &Instance, answer: &Value) -> Verdict {
    let Some(boxes) = boxes_of(answer) else {
        return Verdict::fail("no list of boxes");
    };
    let mut placed: Vec<[f64; 6]> = Vec::with_capacity(boxes.len());
    let mut counts = vec![0i64; instance.prisms.len()];
    for (i, b) in boxes.iter().enumerate() {
        let (Some(lo), Some(hi)) = (corner(b, "XyzMin"), corner(b, "XyzMax")) else {
            return Verdict::fail(format!("box {i} is not two corners of 3 numbers"));
        };
        let mut ext = [hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]];
        if ext.iter().any(|&e| e <= 0.0) {
            return Verdict::fail(format!("box {i} has an extent that is not positive"));
        }
        ext.sort_by(|a, b| b.total_cmp(a));
        let Some(row) = instance
            .prisms
            .iter()
            .position(|r| ext == [r[1] as f64, r[2] as f64, r[3] as f64])
        else {
            return Verdict::fail(format!(
                "box {i} is {}x{}x{}, not a listed prism",
                ext[0], ext[1], ext[2]
            ));
        };
        counts[row] += 1;
        placed.push([lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]]);
    }
    for (row, &n) in instance.prisms.iter().zip(&counts) {
        if n != row[0] {
            return Verdict::fail(format!(
                "{n} boxes of {}x{}x{}, expected {}",
                row[1], row[2], row[3], row[0]
            ));
        }
    }
    let as_num: Vec<[Num; 6]> = placed.iter().map(|p| p.map(Num::Float)).collect();
    if crate::any_overlap(&as_num) {
        return Verdict::fail("two boxes overlap");
    }
    let lo: Vec<f64> = (0..3)
        .map(|k| placed.iter().map(|p| p[k]).fold(f64::INFINITY, f64::min))
        .collect();
    let hi: Vec<f64> = (0..3)
        .map(|k| {
            placed
                .iter()
                .map(|p| p[k + 3])
                .fold(f64::NEG_INFINITY, f64::max)
        })
        .collect();
    let bounding = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
    let density = instance.expected_volume as f64 / bounding;
    let score = if instance.perfectly_packable_corrected {
        density
    } else {
        (density / 0.95).min(1.0)
    };
    Verdict::scored(
        score,
        format!(
            "a valid packing, {:.1}% of its {}x{}x{} bounding box",
            density * 100.0,
            hi[0] - lo[0],
            hi[1] - lo[1],
            hi[2] - lo[2]
        ),
    )
}
