//! The voxel world of `23.py`: N × N × 8 cells indexed `[x][y][z]`, rock at z = 0..=2, the
//! earthworks and the rock settling.

use std::collections::VecDeque;

/// World height (z = 0..=7).
pub const H: usize = 8;
pub const AIR: u8 = 0;
pub const ROCK: u8 = 1;
pub const WATER: u8 = 2;

/// The six neighbours in the original's order.
const NEIGHBOURS_3D: [(isize, isize, isize); 6] = [
    (1, 0, 0),
    (-1, 0, 0),
    (0, 1, 0),
    (0, -1, 0),
    (0, 0, 1),
    (0, 0, -1),
];

/// A voxel as `(x, y, z)`.
pub type Voxel = (usize, usize, usize);

#[derive(Clone, PartialEq, Eq)]
pub struct World {
    pub n: usize,
    /// Cell `(x, y, z)` at `(x * n + y) * H + z`: `AIR`, `ROCK` or `WATER`.
    pub cells: Vec<u8>,
}

impl World {
    /// The initial world: rock at z = 0, 1, 2.
    pub fn new(n: usize) -> World {
        let mut cells = vec![AIR; n * n * H];
        for column in cells.chunks_mut(H) {
            column[..3].fill(ROCK);
        }
        World { n, cells }
    }

    pub fn idx(&self, x: usize, y: usize, z: usize) -> usize {
        (x * self.n + y) * H + z
    }

    pub fn at(&self, x: usize, y: usize, z: usize) -> u8 {
        self.cells[self.idx(x, y, z)]
    }

    /// Sets every cell of the box (inclusive bounds, already checked to lie inside).
    pub fn fill_box(&mut self, min: [usize; 3], max: [usize; 3], value: u8) {
        for x in min[0]..=max[0] {
            for y in min[1]..=max[1] {
                let base = self.idx(x, y, 0);
                self.cells[base + min[2]..=base + max[2]].fill(value);
            }
        }
    }

    /// The 6-connected components of cells equal to `value`, each in breadth-first order
    /// from its first cell in x, y, z scan order (the original's `find_rock_components` /
    /// `find_water_bodies`).
    pub fn components(&self, value: u8) -> Vec<Vec<Voxel>> {
        let n = self.n;
        let mut seen = vec![false; self.cells.len()];
        let mut out = Vec::new();
        let mut queue = VecDeque::new();
        for start in 0..self.cells.len() {
            if self.cells[start] != value || seen[start] {
                continue;
            }
            let (x, y, z) = (start / H / n, start / H % n, start % H);
            seen[start] = true;
            queue.push_back((x, y, z));
            let mut component = Vec::new();
            while let Some((cx, cy, cz)) = queue.pop_front() {
                component.push((cx, cy, cz));
                for (dx, dy, dz) in NEIGHBOURS_3D {
                    let (nx, ny, nz) = (
                        cx.wrapping_add_signed(dx),
                        cy.wrapping_add_signed(dy),
                        cz.wrapping_add_signed(dz),
                    );
                    if nx < n && ny < n && nz < H {
                        let i = self.idx(nx, ny, nz);
                        if self.cells[i] == value && !seen[i] {
                            seen[i] = true;
                            queue.push_back((nx, ny, nz));
                        }
                    }
                }
            }
            out.push(component);
        }
        out
    }

    /// The original's rock stability loop: while some pass changed anything, find the rock
    /// components and drop each one without a z = 0 voxel by the largest distance that keeps
    /// it at z ≥ 0 and off other rock (components in scan order, each seeing the drops
    /// before it). Returns the voxels of the components that fell (for the details).
    pub fn settle(&mut self) -> usize {
        let mut fell = 0;
        let mut changed = true;
        while changed {
            changed = false;
            for component in self.components(ROCK) {
                let min_z = component.iter().map(|v| v.2).min().unwrap_or(0);
                if min_z == 0 {
                    continue;
                }
                // Membership test for "rock not in this component".
                let mut own = vec![false; self.cells.len()];
                for &(x, y, z) in &component {
                    own[self.idx(x, y, z)] = true;
                }
                let mut distance = 0;
                for drop in 1..=min_z {
                    let clear = component.iter().all(|&(x, y, z)| {
                        let i = self.idx(x, y, z - drop);
                        self.cells[i] != ROCK || own[i]
                    });
                    if !clear {
                        break;
                    }
                    distance = drop;
                }
                if distance > 0 {
                    for &(x, y, z) in &component {
                        let i = self.idx(x, y, z);
                        self.cells[i] = AIR;
                    }
                    for &(x, y, z) in &component {
                        let i = self.idx(x, y, z - distance);
                        self.cells[i] = ROCK;
                    }
                    fell += component.len();
                }
                changed = true;
            }
        }
        fell
    }

    pub fn count(&self, value: u8) -> usize {
        self.cells.iter().filter(|&&c| c == value).count()
    }
}
