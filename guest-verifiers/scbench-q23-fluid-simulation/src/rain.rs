//! The rain of `23.py`: one drop on every column (x outer, y inner), 500 rounds of four drops
//! on the 2 × 2 centre columns, then rounds until 500 in a row lose all four drops.
//!
//! A drop falls through air; on rock or water it floods the level it is on (breadth-first,
//! 4-neighbours, through non-rock cells; a border cell is reached but not expanded and marks
//! the region as touching the edge) and moves to the first cell found with air below. With
//! none, a region touching the edge loses the drop; otherwise the drop becomes water in the
//! first air cell of the visited set **in CPython's set iteration order** ([`crate::pyset`]),
//! or failing that in the first visited cell with air just above, or is lost.
//!
//! Exact, with three savings that change no result:
//! - the levels' regions are fixed once rock has settled (water never blocks), so each
//!   region's "touches the edge" and its number of cells with air below are kept up to date
//!   as water appears; a drop on a region with no air below that touches the edge is lost
//!   without a search;
//! - the search stops at the first cell with air below (the original keeps the first one
//!   reached, at the smallest distance, and never uses the rest of the search then);
//! - a lost drop changes nothing, so once a round of four drops is all lost every later
//!   round is too: the remaining rounds are counted, not simulated (the stage-3 assert is
//!   still checked at each count).

use crate::pyset::{IdSet, pair_hash};
use crate::world::{AIR, H, ROCK, WATER, World};

const NONE: u32 = u32::MAX;

/// What the rain did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Report {
    /// Drops that stayed as water.
    pub kept: u64,
    /// Drops simulated (the rest of an all-lost stretch is counted, not simulated).
    pub simulated: u64,
    /// The original's `totalDropCount` at the end of stage 3.
    pub stage3_drops: u64,
    /// The `totalDropCount` at which the original's stage-3 assert
    /// (`totalDropCount < N·N·8 + 500`, checked every 1000 drops) fails, if it does.
    pub assert_at: Option<u64>,
}

pub struct Rain {
    n: usize,
    /// Region of interior non-rock cell `(x, y)` at level z: `comp[z * n² + x * n + y]`.
    comp: Vec<u32>,
    /// Per region: cells with air right below.
    air_below: Vec<u32>,
    /// Per region: whether a non-rock border cell is next to it.
    touches: Vec<bool>,
    hashes: Vec<i64>,
    mark: Vec<u32>,
    stamp: u32,
    /// The search's visited cells in insertion order (also its queue).
    queue: Vec<u32>,
    /// A spare buffer for a set order.
    spare_order: Vec<u32>,
    table: IdSet,
    /// Set orders of regions already settled into, by (start cell, level): the order and
    /// the positions before which no cell is air at the level and at the level above.
    orders: std::collections::HashMap<(u32, u8), (Vec<u32>, usize, usize)>,
    /// Cells held by `orders` (bounded: the cache is emptied past `ORDER_CACHE_CELLS`).
    cached: usize,
    /// Tests: search on every drop (no region shortcut, no cached orders).
    pub literal: bool,
}

/// At most this many cells of set orders are cached (4 bytes each).
const ORDER_CACHE_CELLS: usize = 1 << 21;

enum Landing {
    Lost,
    Kept,
}

impl Rain {
    /// Prepares the regions of every level of a settled world (water-free).
    pub fn new(world: &World) -> Rain {
        let n = world.n;
        let nn = n * n;
        let mut rain = Rain {
            n,
            comp: vec![NONE; H * nn],
            air_below: Vec::new(),
            touches: Vec::new(),
            hashes: (0..nn)
                .map(|c| pair_hash((c / n) as u64, (c % n) as u64))
                .collect(),
            mark: vec![0; nn],
            stamp: 0,
            queue: Vec::with_capacity(nn),
            spare_order: Vec::new(),
            table: IdSet::default(),
            orders: std::collections::HashMap::new(),
            cached: 0,
            literal: false,
        };
        let interior = |c: usize| {
            let (x, y) = (c / n, c % n);
            x > 0 && y > 0 && x < n - 1 && y < n - 1
        };
        let mut stack = Vec::new();
        for z in 1..H {
            for start in 0..nn {
                if !interior(start)
                    || world.cells[start * H + z] == ROCK
                    || rain.comp[z * nn + start] != NONE
                {
                    continue;
                }
                let id = rain.air_below.len() as u32;
                let (mut air, mut touches) = (0, false);
                rain.comp[z * nn + start] = id;
                stack.push(start);
                while let Some(c) = stack.pop() {
                    if world.cells[c * H + z - 1] == AIR {
                        air += 1;
                    }
                    // Interior cells: every neighbour is in bounds.
                    for m in [c + n, c - n, c + 1, c - 1] {
                        if world.cells[m * H + z] == ROCK {
                            continue;
                        }
                        if !interior(m) {
                            touches = true;
                        } else if rain.comp[z * nn + m] == NONE {
                            rain.comp[z * nn + m] = id;
                            stack.push(m);
                        }
                    }
                }
                rain.air_below.push(air);
                rain.touches.push(touches);
            }
        }
        rain
    }

    fn border(&self, c: usize) -> bool {
        let (x, y, n) = (c / self.n, c % self.n, self.n);
        x == 0 || y == 0 || x == n - 1 || y == n - 1
    }

    fn set_water(&mut self, world: &mut World, c: usize, z: usize) {
        debug_assert_eq!(world.cells[c * H + z], AIR);
        world.cells[c * H + z] = WATER;
        if z + 1 < H {
            let id = self.comp[(z + 1) * self.n * self.n + c];
            if id != NONE {
                self.air_below[id as usize] -= 1;
            }
        }
    }

    /// The original's breadth-first search at level z from cell `start`: the first
    /// non-border cell reached with air below, else `None` with `self.queue` holding the
    /// visited cells in insertion order; and whether a border cell was reached.
    fn search(&mut self, world: &World, start: usize, z: usize) -> (Option<usize>, bool) {
        let (n, cells) = (self.n, &world.cells);
        self.stamp += 1;
        self.queue.clear();
        self.queue.push(start as u32);
        self.mark[start] = self.stamp;
        let mut touches = false;
        let mut head = 0;
        while head < self.queue.len() {
            let c = self.queue[head] as usize;
            head += 1;
            let (x, y) = (c / n, c % n);
            if x == 0 || y == 0 || x == n - 1 || y == n - 1 {
                touches = true;
                continue;
            }
            if cells[c * H + z - 1] == AIR {
                return (Some(c), touches);
            }
            // (1, 0), (-1, 0), (0, 1), (0, -1): all in bounds from a non-border cell.
            for m in [c + n, c - n, c + 1, c - 1] {
                if self.mark[m] != self.stamp && cells[m * H + z] != ROCK {
                    self.mark[m] = self.stamp;
                    self.queue.push(m as u32);
                }
            }
        }
        (None, touches)
    }

    /// Where a drop that found nowhere to fall settles: the first air cell of the visited
    /// set at level z, else the first visited cell with air at z + 1 (CPython set order).
    ///
    /// The search from a given start on a given level always visits the same cells in the
    /// same order (rock is fixed and water does not block), so the set order is cached per
    /// (start, level); cells only ever turn from air to water, so the first air cell in that
    /// order only moves forward and is found from where the last search stopped.
    fn settle_drop(
        &mut self,
        world: &mut World,
        start: usize,
        z: usize,
        searched: bool,
    ) -> Landing {
        let key = (start as u32, z as u8);
        let (mut order, mut at_z, mut above) = match self.orders.remove(&key) {
            Some(entry) if !self.literal => entry,
            _ => {
                if !searched {
                    let found = self.search(world, start, z);
                    debug_assert_eq!(found, (None, false));
                }
                self.table.clear();
                for &c in &self.queue {
                    self.table.add(c, &self.hashes);
                }
                let mut order = std::mem::take(&mut self.spare_order);
                order.clear();
                order.extend(self.table.iter());
                if !self.literal {
                    self.cached += order.len();
                }
                (order, 0, 0)
            }
        };
        let first_air = |from: usize, z: usize| {
            (from..order.len()).find(|&i| world.cells[order[i] as usize * H + z] == AIR)
        };
        let landing = if let Some(i) = first_air(at_z, z) {
            at_z = i;
            self.set_water(world, order[i] as usize, z);
            Landing::Kept
        } else {
            at_z = order.len();
            match (z + 1 < H).then(|| first_air(above, z + 1)).flatten() {
                Some(i) => {
                    above = i;
                    self.set_water(world, order[i] as usize, z + 1);
                    Landing::Kept
                }
                None => {
                    above = order.len();
                    Landing::Lost
                }
            }
        };
        if self.literal {
            order.clear();
            self.spare_order = order;
        } else {
            if self.cached > ORDER_CACHE_CELLS {
                // Full: start again with this order alone.
                self.orders.clear();
                self.cached = order.len();
            }
            self.orders.insert(key, (order, at_z, above));
        }
        landing
    }

    /// `simulate_water_drop(x, y, 7)`: whether the drop is lost.
    pub fn drop(&mut self, world: &mut World, x: usize, y: usize) -> bool {
        let nn = self.n * self.n;
        let mut c = x * self.n + y;
        let mut z = H - 1;
        loop {
            if z == 0 {
                return true;
            }
            if world.cells[c * H + z - 1] == AIR {
                z -= 1;
                continue;
            }
            if self.border(c) {
                return true;
            }
            // The start cell is rock only for a drop spawned inside rock at z = 7; its search
            // may join several regions, so it takes the literal path.
            let id = self.comp[z * nn + c];
            if !self.literal && id != NONE && self.air_below[id as usize] == 0 {
                if self.touches[id as usize] {
                    return true;
                }
                return matches!(self.settle_drop(world, c, z, false), Landing::Lost);
            }
            match self.search(world, c, z) {
                (Some(next), _) => {
                    c = next;
                    z -= 1;
                }
                (None, true) => return true,
                (None, false) => {
                    return matches!(self.settle_drop(world, c, z, true), Landing::Lost);
                }
            }
        }
    }

    /// The whole rain; `report.assert_at` says whether (and where) the original raises.
    /// The simulation runs to the end either way (the corrected judgement ignores the
    /// assert).
    pub fn run(&mut self, world: &mut World) -> Report {
        let n = self.n;
        let mut report = Report::default();
        let mut drop = |rain: &mut Rain, world: &mut World, x: usize, y: usize| {
            report.simulated += 1;
            let lost = rain.drop(world, x, y);
            if !lost {
                report.kept += 1;
            }
            lost
        };
        for x in 0..n {
            for y in 0..n {
                drop(self, world, x, y);
            }
        }
        let h = n / 2;
        let centre = [(h, h), (h + 1, h), (h, h + 1), (h + 1, h + 1)];
        let mut steady = false;
        for _ in 0..500 {
            let mut lost = true;
            for (x, y) in centre {
                lost &= drop(self, world, x, y);
            }
            if lost {
                steady = true;
                break;
            }
        }
        let limit = (n * n * H + 500) as u64;
        let (mut last, mut total) = (0, 0u64);
        let mut assert_at = None;
        while last < 500 {
            let lost = steady || {
                let mut lost = true;
                for (x, y) in centre {
                    lost &= drop(self, world, x, y);
                }
                lost
            };
            total += 4;
            if total % 1000 == 0 && total >= limit && assert_at.is_none() {
                assert_at = Some(total);
            }
            if lost {
                last += 1;
                steady = true;
            } else {
                last = 0;
            }
        }
        report.stage3_drops = total;
        report.assert_at = assert_at;
        report
    }
}
