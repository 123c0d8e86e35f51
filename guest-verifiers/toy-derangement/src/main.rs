//! `toy-derangement` (verdict-json): the payload must be a derangement of
//! `1..=n`, where `n` comes from `/item/instance.json` (`{"n": N}`): a JSON
//! list that is a permutation of `1..=n` with no fixed point (`p[i] != i + 1`).
//! Positions in messages are 1-based.

use serde::Deserialize;
use verigate_sdk::serde_json::json;
use verigate_sdk::{Result, Verdict, ensure, fail};

#[derive(Deserialize)]
struct Instance {
    n: usize,
}

fn verify() -> Result<Verdict> {
    let Instance { n } = verigate_sdk::instance()?;
    let perm: Vec<i64> = verigate_sdk::payload_json()?;
    ensure!(perm.len() == n, "length {}, expected {n}", perm.len());
    // first_seen[v - 1] = the position where value v first appeared.
    let mut first_seen = vec![0usize; n];
    for (index, &value) in perm.iter().enumerate() {
        let position = index + 1;
        let Some(slot) = usize::try_from(value)
            .ok()
            .filter(|v| (1..=n).contains(v))
            .map(|v| v - 1)
        else {
            fail!("position {position} holds {value}: not in 1..={n}");
        };
        if first_seen[slot] != 0 {
            fail!(
                "value {value} appears twice (positions {} and {position})",
                first_seen[slot]
            );
        }
        first_seen[slot] = position;
        ensure!(
            slot != index,
            "position {position} holds {value}: a fixed point"
        );
    }
    Ok(Verdict::pass().with_details(json!({ "n": n })))
}

verigate_sdk::main!(verdict_json, verify);
