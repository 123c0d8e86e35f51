//! The debris of one blast, simulated with rapier in place of the original's PyBullet.
//!
//! `28.py`'s `_simulate_blast_with_pybullet`: the cell is lowered by the depth; for a
//! positive depth, n = max(3, min(120, int(4 · depth))) spheres (radius 0.2, mass 0.1,
//! lateral / rolling / spinning friction 0.9 / 0.05 / 0.05) are dropped on a heightfield of
//! the lowered grid, spawned on a golden-angle spiral (radius 0.25 · √((i + 1) / n)) around
//! the cell's centre at the cell's height + 0.6 + 0.02 · (i mod 5); after 360 steps of
//! 1/240 s each sphere adds depth / n to the cell under it (if on the map).
//!
//! Reproduced from PyBullet's set-up: the heightfield's vertex (x, y) lies at (x + 0.5,
//! y + 0.5) (the shape is centred on its body, placed at (N/2, N/2)), and its surface is
//! re-centred vertically on (min + max) / 2 of the heights while the spheres spawn at the
//! raw height, so they fall from (min + max) / 2 + 0.6 above the crater; each quad is split
//! along the (x + 1, y)–(x, y + 1) diagonal, as Bullet does by default. Friction combines
//! by product, as in Bullet (the terrain's is Bullet's default 0.5); restitution is 0.
//! Rapier has no rolling or spinning friction: after each step, every sphere's angular
//! velocity is reduced by at most Σ μ_r · (normal impulse of each contact) / I, Bullet's
//! bound on the rolling-friction impulse (μ_r = 0.05 · 0.5 against the terrain,
//! 0.05 · 0.9 · 2 between spheres; I = 2/5 · m · r²).
//!
//! Rapier runs in f64 with enhanced determinism, one thread: the same answer gives the same
//! grid on every run and machine. It is not PyBullet, so debris lands differently.

use rapier3d_f64::parry::utils::Array2;
use rapier3d_f64::prelude::*;

pub const SPHERE_RADIUS: f64 = 0.2;
const SPHERE_MASS: f64 = 0.1;
const SPHERES_PER_HEIGHT: f64 = 4.0;
const MAX_SPHERES: usize = 120;
const SPAWN_HEIGHT: f64 = 0.6;
const STEPS: usize = 360;
const SPHERE_FRICTION: f64 = 0.9;
const TERRAIN_FRICTION: f64 = 0.5;
const ROLLING_FRICTION: f64 = 0.05;
/// Rapier's solver iterations (substeps) per step. PyBullet ran 50 PGS iterations; rapier's
/// soft-constraint solver converges differently, and 2 to 8 gave the same grades on the stored
/// answers (4 did not on two of them), so the cheapest of those.
const SOLVER_ITERATIONS: usize = 2;

/// Where and how a sphere left the terrain: (step, x, z, vx, vz).
type Fall = (usize, f64, f64, f64, f64);

/// How many spheres a blast of this depth throws (`depth` > 0 and finite).
pub fn sphere_count(depth: f64) -> usize {
    // int() truncates toward zero; the product is positive here.
    let k = (depth * SPHERES_PER_HEIGHT).min(1e9) as usize;
    k.clamp(3, MAX_SPHERES)
}

/// Lowers cell (bx, by) of the n × n grid (`grid[y * n + x]`) by `depth` and, for a positive
/// depth, drops and deposits the debris. Returns the spheres' final cells (off-map: None).
pub fn blast(grid: &mut [f64], n: usize, bx: usize, by: usize, depth: f64) -> Vec<Option<usize>> {
    grid[by * n + bx] -= depth;
    if depth <= 0.0 {
        return Vec::new();
    }
    let count = sphere_count(depth);
    let per_sphere = depth / count as f64;
    let ends = settle_spheres(grid, n, bx, by, count);
    for &cell in ends.iter().flatten() {
        grid[cell] += per_sphere;
    }
    ends
}

fn settle_spheres(
    grid: &[f64],
    n: usize,
    bx: usize,
    by: usize,
    count: usize,
) -> Vec<Option<usize>> {
    let mut world = PhysicsWorld {
        gravity: Vector::new(0.0, -9.81, 0.0),
        ..Default::default()
    };
    world.integration_parameters.dt = 1.0 / 240.0;
    world.integration_parameters.num_solver_iterations = SOLVER_ITERATIONS;

    // PyBullet passes the heights as 32-bit floats and re-centres them on (min + max) / 2.
    let heights: Vec<f64> = grid.iter().map(|&h| f64::from(h as f32)).collect();
    let (min, max) = heights
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &h| {
            (a.min(h), b.max(h))
        });
    let mid = 0.5 * (min + max);
    // Rapier: rows along z (the map's y), columns along x, y up.
    let mut field = Array2::repeat(n, n, 0.0);
    for y in 0..n {
        for x in 0..n {
            field[(y, x)] = heights[y * n + x] - mid;
        }
    }
    let side = (n - 1) as f64;
    let (_, terrain) = world.insert(
        RigidBodyBuilder::fixed().translation(Vector::new(n as f64 / 2.0, 0.0, n as f64 / 2.0)),
        ColliderBuilder::heightfield(field, Vector::new(side, 1.0, side))
            .friction(TERRAIN_FRICTION)
            .friction_combine_rule(CoefficientCombineRule::Multiply)
            .restitution(0.0),
    );

    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    let top = grid[by * n + bx];
    let mut spheres = Vec::with_capacity(count);
    for i in 0..count {
        let theta = i as f64 * golden;
        let radius = 0.25 * ((i + 1) as f64 / count as f64).sqrt();
        let (dx, dy) = (radius * theta.cos(), radius * theta.sin());
        let spawn = Vector::new(
            bx as f64 + 0.5 + dx,
            top + SPAWN_HEIGHT + (i % 5) as f64 * 0.02,
            by as f64 + 0.5 + dy,
        );
        spheres.push(
            world.insert(
                RigidBodyBuilder::dynamic().translation(spawn),
                ColliderBuilder::ball(SPHERE_RADIUS)
                    .mass(SPHERE_MASS)
                    .friction(SPHERE_FRICTION)
                    .friction_combine_rule(CoefficientCombineRule::Multiply)
                    .restitution(0.0),
            ),
        );
    }
    let inertia = 0.4 * SPHERE_MASS * SPHERE_RADIUS * SPHERE_RADIUS;
    let rolling_terrain = ROLLING_FRICTION * TERRAIN_FRICTION;
    let rolling_spheres = 2.0 * ROLLING_FRICTION * SPHERE_FRICTION;
    let mut budget = vec![0.0; count];
    let mut fallen: Vec<Option<Fall>> = vec![None; count];
    let floor = min - mid - 1.0;
    for step in 0..STEPS {
        world.step();
        let mut done = true;
        for (k, &(body, _)) in spheres.iter().enumerate() {
            let rb = &world.bodies[body];
            if fallen[k].is_none() && rb.translation().y < floor {
                let (p, v) = (rb.translation(), rb.linvel());
                fallen[k] = Some((step + 1, p.x, p.z, v.x, v.z));
            }
            done &= fallen[k].is_some() || rb.is_sleeping();
        }
        if done {
            break;
        }
        // Rolling resistance (see the module doc).
        for (k, &(_, collider)) in spheres.iter().enumerate() {
            budget[k] = world
                .contact_pairs_with(collider)
                .map(|pair| {
                    let terrain_pair = pair.collider1 == terrain || pair.collider2 == terrain;
                    let mu = if terrain_pair {
                        rolling_terrain
                    } else {
                        rolling_spheres
                    };
                    mu * pair.total_impulse_magnitude()
                })
                .sum::<f64>();
        }
        for (k, &(body, _)) in spheres.iter().enumerate() {
            if budget[k] <= 0.0 {
                continue;
            }
            let rb = &mut world.bodies[body];
            let w = rb.angvel();
            let speed = w.length();
            if speed > 0.0 {
                let cut = (budget[k] / inertia).min(speed);
                rb.set_angvel(w * ((speed - cut) / speed), false);
            }
        }
    }
    let dt = world.integration_parameters.dt;
    spheres
        .iter()
        .zip(&fallen)
        .map(|(&(body, _), fall)| {
            let (x, z) = match *fall {
                // Free fall below the terrain: nothing can touch it again; its horizontal
                // motion is carried on to the last step.
                Some((step, x, z, vx, vz)) => {
                    let left = (STEPS - step) as f64 * dt;
                    (x + vx * left, z + vz * left)
                }
                None => {
                    let p = world.bodies[body].translation();
                    (p.x, p.z)
                }
            };
            let (cx, cy) = (x.floor(), z.floor());
            (cx >= 0.0 && cy >= 0.0 && cx < n as f64 && cy < n as f64)
                .then(|| cy as usize * n + cx as usize)
        })
        .collect()
}
