//! `toy-sum-square` (combench): the payload is a JSON list `[a, b, c]` of
//! positive integers with `a < b < c` and `a² + b² = c²`.

use verigate_sdk::{Result, ensure};

fn verify() -> Result<()> {
    let nums: Vec<u64> = verigate_sdk::payload_json()?;
    let &[a, b, c] = nums.as_slice() else {
        verigate_sdk::fail!("expected 3 numbers [a, b, c], got {}", nums.len());
    };
    ensure!(a > 0, "a = 0 is not positive");
    ensure!(a < b && b < c, "need a < b < c, got [{a}, {b}, {c}]");
    let sq = |x: u64| u128::from(x) * u128::from(x);
    // a² + b² can exceed u128 only when it is far above c².
    let lhs = sq(a).checked_add(sq(b));
    ensure!(
        lhs == Some(sq(c)),
        "{a}^2 + {b}^2 = {} but {c}^2 = {}",
        lhs.map_or("more than 2^128".to_owned(), |v| v.to_string()),
        sq(c)
    );
    Ok(())
}

verigate_sdk::main!(combench, verify);
