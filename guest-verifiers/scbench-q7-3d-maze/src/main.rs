//! `scbench-q7-3d-maze` (verdict-json): SCBench Q7 "3D maze - solution requires jumping
//! over gaps", a port of `gradeAnswer` in the benchmark's `7.py`.
//!
//! The instance gives the maze size `n`, the heights of `A` and `B` and the jumps the
//! solution must make. The payload is the model's text: `n` lines of `n` characters, each
//! a height digit or `A` / `B`. The checks, in the original's order: exactly one `A` and one
//! `B`; `n` rows of `n` characters; only digits, `A` and `B`; no height on more than 30 % of
//! the cells. Moves from a cell, in the order up, down, left, right: a walk to the
//! neighbour when the heights differ by at most 1, then a jump over it to the cell beyond
//! when that cell has the same height and the one jumped over is more than one lower. The
//! path is the breadth-first shortest path from `A` to `B`; it must exist, every edge of it
//! must be a bridge of the move graph (else "Multiple paths exist"), it must cover at least
//! 20 % of the cells, and it must jump at least the required number of times.
//!
//! The text is stripped and its characters read as `7.py` reads them: `answer.strip()`
//! (Python's white space, U+001C..U+001F included), then `char.isdigit()` and `int(char)`,
//! so any Unicode decimal digit (`'５'`, `'٣'`) is a height, and a digit `int()` refuses
//! (`'²'`) raises, as the original does (its runner records 10000).
//!
//! Score 1 or 0. The original finds bridges with a recursive DFS, which can exceed
//! Python's recursion limit on the largest mazes (its runner then records 10000); this
//! port is iterative and always answers.

use std::collections::{HashSet, VecDeque};

use serde::Deserialize;
use verigate_sdk::Verdict;
use verigate_sdk::harness::{Step, Stop};
use verigate_sdk::python::{Value, strings};
use verigate_sdk::serde_json::json;

#[derive(Deserialize)]
struct Instance {
    n: usize,
    a_height: i32,
    b_height: i32,
    jumps: usize,
}

/// The maze's heights, row-major, with the positions of `A` and `B`.
struct Maze {
    n: usize,
    height: Vec<i32>,
    a: usize,
    b: usize,
}

fn parse(instance: &Instance, text: &str) -> Step<Maze> {
    let text = strings::strip(text);
    let (a_count, b_count) = (text.matches('A').count(), text.matches('B').count());
    if a_count != 1 || b_count != 1 {
        return Err(Stop::Zero(format!(
            "expected exactly one A and one B, found {a_count} and {b_count}"
        )));
    }
    let rows: Vec<&str> = text.split('\n').collect();
    let n = instance.n;
    if rows.len() != n {
        return Err(Stop::Zero(format!("{} rows, expected {n}", rows.len())));
    }
    let width = rows[0].chars().count();
    if width != n {
        return Err(Stop::Zero(format!(
            "row 1 has {width} characters, expected {n}"
        )));
    }
    // Every row's width first, then the characters (a separate loop in the original).
    for (i, row) in rows.iter().enumerate() {
        if row.chars().count() != width {
            return Err(Stop::Zero(format!(
                "row {} has {} characters, expected {n}",
                i + 1,
                row.chars().count()
            )));
        }
    }
    let (mut height, mut a, mut b) = (Vec::with_capacity(n * n), 0, 0);
    for (i, row) in rows.iter().enumerate() {
        for (j, c) in row.chars().enumerate() {
            let h = match c {
                'A' => {
                    a = i * n + j;
                    instance.a_height
                }
                'B' => {
                    b = i * n + j;
                    instance.b_height
                }
                // `char.isdigit()`, then `int(char)`: a Unicode decimal digit is its value; a
                // digit that is not decimal (a superscript) makes int() raise.
                c if strings::digit(c).is_some() => match strings::decimal(c) {
                    Some(d) => d as i32,
                    None => {
                        return Err(Stop::Raise(format!(
                            "ValueError: invalid literal for int() with base 10: {} (row {} \
                             column {})",
                            Value::from(c.to_string()),
                            i + 1,
                            j + 1
                        )));
                    }
                },
                c => {
                    return Err(Stop::Zero(format!(
                        "row {} column {}: {c:?} is not a height",
                        i + 1,
                        j + 1
                    )));
                }
            };
            height.push(h);
        }
    }
    let mut counts = [0usize; 10];
    for &h in &height {
        counts[usize::try_from(h).unwrap_or(0).min(9)] += 1;
    }
    if let Some((h, &count)) = counts
        .iter()
        .enumerate()
        .find(|(_, c)| **c * 10 > n * n * 3)
    {
        return Err(Stop::Zero(format!(
            "height {h} occupies {count} of {} cells (more than 30 %)",
            n * n
        )));
    }
    Ok(Maze { n, height, a, b })
}

impl Maze {
    /// Moves from `cell`, in the original's order: per direction up, down, left, right,
    /// the walk then the jump.
    fn moves(&self, cell: usize) -> Vec<usize> {
        let n = self.n as isize;
        let (i, j) = ((cell / self.n) as isize, (cell % self.n) as isize);
        let at = |i: isize, j: isize| (0..n).contains(&i) && (0..n).contains(&j);
        let index = |i: isize, j: isize| (i * n + j) as usize;
        let h = self.height[cell];
        let mut out = Vec::with_capacity(8);
        for (di, dj) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
            let (wi, wj) = (i + di, j + dj);
            if !at(wi, wj) {
                continue;
            }
            let walk = index(wi, wj);
            if (self.height[walk] - h).abs() <= 1 {
                out.push(walk);
            }
            let (ji, jj) = (i + 2 * di, j + 2 * dj);
            if at(ji, jj) {
                let jump = index(ji, jj);
                if self.height[jump] == h && self.height[walk] + 1 < h {
                    out.push(jump);
                }
            }
        }
        out
    }

    /// The breadth-first shortest path from A to B.
    fn shortest_path(&self) -> Option<Vec<usize>> {
        let mut parent = vec![usize::MAX; self.height.len()];
        parent[self.a] = self.a;
        let mut queue = VecDeque::from([self.a]);
        while let Some(cell) = queue.pop_front() {
            if cell == self.b {
                let mut path = vec![cell];
                while *path.last()? != self.a {
                    path.push(parent[*path.last()?]);
                }
                path.reverse();
                return Some(path);
            }
            for next in self.moves(cell) {
                if parent[next] == usize::MAX {
                    parent[next] = cell;
                    queue.push_back(next);
                }
            }
        }
        None
    }

    /// The bridges of the (undirected) move graph, as ordered pairs (low, high); an
    /// iterative Tarjan low-link search.
    fn bridges(&self) -> HashSet<(usize, usize)> {
        let cells = self.height.len();
        let adjacency: Vec<Vec<usize>> = (0..cells).map(|c| self.moves(c)).collect();
        let (mut order, mut low) = (vec![usize::MAX; cells], vec![0usize; cells]);
        let mut bridges = HashSet::new();
        let mut counter = 0;
        for root in 0..cells {
            if order[root] != usize::MAX {
                continue;
            }
            // (cell, parent, next neighbour index)
            let mut stack = vec![(root, usize::MAX, 0usize)];
            order[root] = counter;
            low[root] = counter;
            counter += 1;
            while let Some(&mut (cell, parent, ref mut next)) = stack.last_mut() {
                if let Some(&to) = adjacency[cell].get(*next) {
                    *next += 1;
                    if to == parent {
                        continue;
                    }
                    if order[to] == usize::MAX {
                        order[to] = counter;
                        low[to] = counter;
                        counter += 1;
                        stack.push((to, cell, 0));
                    } else {
                        low[cell] = low[cell].min(order[to]);
                    }
                } else {
                    stack.pop();
                    if parent != usize::MAX {
                        low[parent] = low[parent].min(low[cell]);
                        if low[cell] > order[parent] {
                            bridges.insert((parent.min(cell), parent.max(cell)));
                        }
                    }
                }
            }
        }
        bridges
    }
}

fn grade(instance: &Instance, text: &str) -> Verdict {
    let maze = match parse(instance, text) {
        Ok(maze) => maze,
        Err(stop) => return stop.verdict(),
    };
    let Some(path) = maze.shortest_path() else {
        return Verdict::fail("No valid path from A to B");
    };
    let bridges = maze.bridges();
    if path
        .windows(2)
        .any(|e| !bridges.contains(&(e[0].min(e[1]), e[0].max(e[1]))))
    {
        return Verdict::fail("Multiple paths exist");
    }
    let n = maze.n;
    let jumps = path
        .windows(2)
        .filter(|e| e[0].abs_diff(e[1]) == 2 || e[0].abs_diff(e[1]) == 2 * n)
        .count();
    let covered: HashSet<usize> = path.iter().copied().collect();
    let details = json!({ "path_cells": covered.len(), "jumps": jumps });
    let verdict = if covered.len() * 5 < n * n {
        Verdict::fail(format!(
            "the path covers {} of {} cells (less than 20 %)",
            covered.len(),
            n * n
        ))
    } else if jumps < instance.jumps {
        Verdict::fail(format!(
            "the path jumps {jumps} times, at least {} required",
            instance.jumps
        ))
    } else {
        Verdict::pass().with_message(format!(
            "a unique path of {} cells with {jumps} jumps",
            path.len()
        ))
    };
    verdict.with_details(details)
}

verigate_sdk::main!(verdict_json, grade_instance(grade));

#[cfg(test)]
mod tests {
    use super::*;

    fn graded(text: &str, jumps: usize) -> (bool, String) {
        let instance = Instance {
            n: 5,
            a_height: 5,
            b_height: 0,
            jumps,
        };
        let v = verigate_sdk::serde_json::to_value(grade(&instance, text)).unwrap();
        (
            v["pass"] == true,
            v["message"].as_str().unwrap_or("").to_owned(),
        )
    }

    /// Row 0 walks down from A (5) to 3 and jumps the pit at (0, 3) to the 3 beyond; row 1
    /// is a high wall except (1, 4); row 2 walks on down to B (0).
    const MAZE: &str = "A4313\n99992\n00B11\n77777\n66666";

    #[test]
    fn a_unique_path_with_a_jump_passes() {
        // Heights 7 and 6 fill 5 cells each: 20 %, under the 30 % limit.
        let (pass, message) = graded(MAZE, 1);
        assert!(pass, "{message}");
    }

    /// The reported defect: `char.isdigit()` and `int(char)` accept any Unicode decimal
    /// digit, so the original grades a maze of full-width or Arabic-Indic digits like its
    /// ASCII twin; the port used to refuse them ("'５' is not a height").
    #[test]
    fn unicode_digits_are_heights() {
        let fullwidth = "A４３１３\n９９９９２\n００B１１\n７７７７７\n６６６６６";
        assert_eq!(graded(fullwidth, 1), graded(MAZE, 1));
        assert!(graded(fullwidth, 1).0);
        let mixed = "A4٣1३\n٩９9۹2\n00B11\n7７٧77\n66666";
        assert!(graded(mixed, 1).0, "{}", graded(mixed, 1).1);
        // '²'.isdigit() is true but int('²') raises: the original's runner records 10000.
        let (pass, message) = graded("A4313\n9999²\n00B11\n77777\n66666", 1);
        assert!(!pass);
        assert_eq!(
            message,
            format!(
                "ValueError: invalid literal for int() with base 10: '²' (row 2 column 5) {}",
                verigate_sdk::RAISED
            )
        );
        // Not digits at all ('½' is numeric, not a digit): an invalid character.
        assert_eq!(
            graded("A431½\n99992\n00B11\n77777\n66666", 1).1,
            "row 1 column 5: '½' is not a height"
        );
    }

    #[test]
    fn the_original_checks() {
        assert_eq!(
            graded(MAZE, 2).1,
            "the path jumps 1 times, at least 2 required"
        );
        assert_eq!(
            graded("A4313\n99992\n00111\n77777\n66666", 1).1,
            "expected exactly one A and one B, found 1 and 0"
        );
        assert_eq!(
            graded("A431\n99992\n00B11\n77777\n66666", 1).1,
            "row 1 has 4 characters, expected 5"
        );
        assert_eq!(
            graded("A43x3\n99992\n00B11\n77777\n66666", 1).1,
            "row 1 column 4: 'x' is not a height"
        );
        assert_eq!(
            graded("A4313\n99999\n00B11\n99999\n66666", 1).1,
            "height 9 occupies 10 of 25 cells (more than 30 %)"
        );
        // `answer.strip()` strips Python's white space, U+001C..U+001F included.
        let (pass, message) = graded(&format!("\u{3000}{MAZE}\x1c\u{85}"), 1);
        assert!(pass, "{message}");
        // Lower the wall beside the pit: a walking route around it closes a cycle.
        let (pass, message) = graded("A4313\n99322\n00B11\n77777\n66666", 1);
        assert!(!pass);
        assert_eq!(message, "Multiple paths exist");
    }
}
