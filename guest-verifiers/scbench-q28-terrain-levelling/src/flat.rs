//! `_largest_flat_region` of `28.py`: the largest 4-connected region grown by a stack-based
//! search from each unvisited cell in row-major order, taking a cell when it is within the
//! tolerance of the running minimum and maximum, and pushing a neighbour (order: up, left,
//! right, down; popped last-in first-out) when it is within the tolerance of the cell and
//! of the running range. The result depends on that order, so it is followed exactly.

/// The original's `FLAT_NEIGHBOUR_TOL`.
pub const TOLERANCE: f64 = 0.2;

/// The size of the largest region of the n × n grid (`grid[r * n + c]`).
pub fn largest_flat_region(grid: &[f64], n: usize) -> usize {
    let tol = TOLERANCE;
    let mut visited = vec![false; n * n];
    let mut best = 0;
    let mut stack = Vec::new();
    for start in 0..n * n {
        if visited[start] {
            continue;
        }
        let (mut lo, mut hi) = (grid[start], grid[start]);
        let mut size = 0;
        stack.push(start);
        while let Some(cell) = stack.pop() {
            if visited[cell] {
                continue;
            }
            let val = grid[cell];
            if val < lo - tol || val > hi + tol {
                continue;
            }
            // Python's min()/max() keep the first argument unless the second is smaller/larger.
            if val < lo {
                lo = val;
            }
            if val > hi {
                hi = val;
            }
            visited[cell] = true;
            size += 1;
            for m in neighbours(cell, n) {
                let nbr = grid[m];
                if !visited[m] && (nbr - val).abs() <= tol && lo - tol <= nbr && nbr <= hi + tol {
                    stack.push(m);
                }
            }
        }
        if size > best {
            best = size;
        }
    }
    best
}

/// The side-adjacent cells of `cell` on an n×n grid, in the original's order: up, left,
/// right, down.
fn neighbours(cell: usize, n: usize) -> impl Iterator<Item = usize> {
    let (r, c) = (cell / n, cell % n);
    [
        (r > 0).then(|| cell - n),
        (c > 0).then(|| cell - 1),
        (c + 1 < n).then(|| cell + 1),
        (r + 1 < n).then(|| cell + n),
    ]
    .into_iter()
    .flatten()
}

/// The largest 4-connected region of cells with the same height rounded to an integer
/// (half to even, as Python's `round`): the prompt's definition of flat.
pub fn largest_rounded_region(grid: &[f64], n: usize) -> usize {
    let key: Vec<f64> = grid.iter().map(|h| h.round_ties_even()).collect();
    let mut seen = vec![false; n * n];
    let mut best = 0;
    let mut stack = Vec::new();
    for start in 0..n * n {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        stack.push(start);
        let mut size = 0;
        while let Some(cell) = stack.pop() {
            size += 1;
            for m in neighbours(cell, n) {
                if !seen[m] && key[m] == key[start] {
                    seen[m] = true;
                    stack.push(m);
                }
            }
        }
        best = best.max(size);
    }
    best
}
