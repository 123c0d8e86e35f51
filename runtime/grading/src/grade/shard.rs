//! Deterministic shards: a fixed range of input lines graded into one part
//! file, and the merge that concatenates complete parts into exactly the
//! bytes a single-process run writes (results hold no timings).
//!
//! A part `P` is written to `P.partial` (resumed there if interrupted) and
//! renamed to `P` when complete, after its manifest `P.shard.json`; an
//! existing `P` is complete and is skipped. This is the contract for every
//! engine: `verigate grade --shard I/N` in a job array, or Ray tasks.

use crate::files::{lock_for_writing, refuse_output_over_input};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};

/// Shard `index` of `count`: input lines `lines` (0-based, end exclusive)
/// of an input of `input_lines` lines and `input_bytes` bytes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// 0-based shard number.
    pub index: usize,
    /// How many shards the input is cut into.
    pub count: usize,
    /// The input lines this shard grades (0-based, end exclusive).
    pub lines: Range<usize>,
    /// Lines in the whole input.
    pub input_lines: usize,
    /// Bytes in the whole input.
    pub input_bytes: u64,
}

/// How many lines `path` has (a last line without a newline counts) and its size.
pub fn count_lines(path: &Path) -> Result<(usize, u64), String> {
    let mut file = File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let (mut lines, mut bytes, mut last) = (0, 0u64, b'\n');
    let mut buffer = vec![0; 1 << 16];
    loop {
        let n =
            (file.read(&mut buffer)).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        if n == 0 {
            break;
        }
        lines += buffer[..n].iter().filter(|&&b| b == b'\n').count();
        bytes += n as u64;
        last = buffer[n - 1];
    }
    Ok((lines + usize::from(last != b'\n'), bytes))
}

impl Shard {
    /// Shard `index` of the input at `path`: with `shard_lines` K, lines
    /// `[index·K, (index+1)·K)` and `count` must be ⌈lines/K⌉; without, the
    /// `index`-th of `count` near-equal contiguous ranges.
    pub fn of_file(
        path: &Path,
        index: usize,
        count: usize,
        shard_lines: Option<usize>,
    ) -> Result<Shard, String> {
        if count == 0 || index >= count {
            return Err(format!("shard {index}/{count}: give I/N with 0 <= I < N"));
        }
        let (input_lines, input_bytes) = count_lines(path)?;
        let lines = match shard_lines {
            Some(0) => return Err("shard lines 0: a shard needs at least one line".into()),
            Some(k) => {
                let needed = input_lines.div_ceil(k).max(1);
                if count != needed {
                    return Err(format!(
                        "{} has {input_lines} lines: {k}-line shards make {needed} shards, not {count}",
                        path.display()
                    ));
                }
                (index * k).min(input_lines)..((index + 1) * k).min(input_lines)
            }
            None => index * input_lines / count..(index + 1) * input_lines / count,
        };
        Ok(Shard {
            index,
            count,
            lines,
            input_lines,
            input_bytes,
        })
    }
}

/// `P.partial`: where part `P` is written until it is complete.
pub fn partial_path(part: &Path) -> PathBuf {
    suffixed(part, ".partial")
}

/// `P.shard.json`: part `P`'s manifest.
pub fn manifest_path(part: &Path) -> PathBuf {
    suffixed(part, ".shard.json")
}

fn suffixed(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// What a complete part says about itself.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// The shard it holds.
    pub shard: Shard,
    /// Result lines in the part.
    pub records: usize,
    /// The registry every result was graded under.
    pub registry_digest: String,
    /// The verigate that wrote it.
    pub verigate_version: String,
}

impl Manifest {
    /// Writes the manifest of part `part`, then renames `part.partial` to
    /// `part`: a part exists only once it is complete.
    pub fn complete(&self, part: &Path) -> Result<(), String> {
        let text = serde_json::to_string_pretty(self).expect("a manifest serialises");
        let manifest = manifest_path(part);
        std::fs::write(&manifest, text + "\n")
            .map_err(|e| format!("cannot write {}: {e}", manifest.display()))?;
        std::fs::rename(partial_path(part), part)
            .map_err(|e| format!("cannot complete {}: {e}", part.display()))
    }

    fn read(part: &Path) -> Result<Manifest, String> {
        let path = manifest_path(part);
        let text = std::fs::read_to_string(&path).map_err(|e| {
            format!(
                "{}: no manifest {} ({e}): not a complete part written by `grade --shard`",
                part.display(),
                path.display()
            )
        })?;
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// The lines `range` of `reader`, every other line read as an empty line
/// (so line numbers stay those of the whole input) and nothing after.
pub struct LineRange<R> {
    reader: R,
    range: Range<usize>,
    /// The 0-based line the next byte belongs to.
    line: usize,
    /// A skipped line's newline, not yet consumed.
    owed_newline: bool,
    /// Whether the chunk last handed out ends its line.
    chunk_ends_line: Option<usize>,
}

impl<R: BufRead> LineRange<R> {
    /// Lines `range` (0-based, end exclusive) of `reader`.
    pub fn new(reader: R, range: Range<usize>) -> Self {
        LineRange {
            reader,
            range,
            line: 0,
            owed_newline: false,
            chunk_ends_line: None,
        }
    }

    /// Reads through the end of the current line; `false` at the end of input.
    fn skip_line(&mut self) -> std::io::Result<bool> {
        loop {
            let buffer = self.reader.fill_buf()?;
            if buffer.is_empty() {
                return Ok(false);
            }
            match buffer.iter().position(|&b| b == b'\n') {
                Some(at) => {
                    self.reader.consume(at + 1);
                    return Ok(true);
                }
                None => {
                    let n = buffer.len();
                    self.reader.consume(n);
                }
            }
        }
    }
}

impl<R: BufRead> Read for LineRange<R> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        crate::files::read_from_buffer(self, out)
    }
}

impl<R: BufRead> BufRead for LineRange<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if !self.owed_newline && self.line < self.range.start {
            if !self.skip_line()? {
                return Ok(&[]);
            }
            self.owed_newline = true;
        }
        if self.owed_newline {
            return Ok(b"\n");
        }
        if self.line >= self.range.end {
            return Ok(&[]);
        }
        let buffer = self.reader.fill_buf()?;
        let (len, ends) = match buffer.iter().position(|&b| b == b'\n') {
            Some(at) => (at + 1, true),
            None => (buffer.len(), false),
        };
        self.chunk_ends_line = ends.then_some(len);
        Ok(&buffer[..len])
    }

    fn consume(&mut self, amount: usize) {
        if self.owed_newline {
            if amount > 0 {
                self.owed_newline = false;
                self.line += 1;
            }
            return;
        }
        self.reader.consume(amount);
        if self.chunk_ends_line.take() == Some(amount) {
            self.line += 1;
        }
    }
}

/// What a merge wrote.
#[derive(Debug, PartialEq, Eq)]
pub struct Merged {
    /// Parts concatenated.
    pub parts: usize,
    /// Result lines written.
    pub records: usize,
}

/// The (id, sample) of a result line.
#[derive(Deserialize)]
struct Key {
    id: String,
    sample: serde_json::Value,
}

/// Concatenates complete `parts` into `out` in line order, after checking
/// that they are one input's complete, non-overlapping set, graded under one
/// registry by one verigate, each part whole and no (id, sample) twice (a
/// single process skips a repeated one as a bad line, so the bytes would
/// differ).
pub fn merge(parts: &[PathBuf], out: &Path) -> Result<Merged, String> {
    let inputs: Vec<(&str, &Path)> = parts.iter().map(|p| ("part", p.as_path())).collect();
    refuse_output_over_input(out, &inputs)?;
    let mut manifests: Vec<(Manifest, &PathBuf)> = (parts.iter())
        .map(|part| Manifest::read(part).map(|m| (m, part)))
        .collect::<Result<_, _>>()?;
    manifests.sort_by_key(|(m, _)| (m.shard.lines.start, m.shard.lines.end));
    let Some((first, first_path)) = manifests.first() else {
        return Err("no parts to merge".into());
    };
    let mut next = 0;
    for (manifest, path) in &manifests {
        let same = |what: &str, a: String, b: String| {
            if a == b {
                Ok(())
            } else {
                Err(format!(
                    "{} has {what} {a}, {} has {b}: parts of different runs",
                    path.display(),
                    first_path.display()
                ))
            }
        };
        let (s, f) = (&manifest.shard, &first.shard);
        same(
            "an input of lines",
            s.input_lines.to_string(),
            f.input_lines.to_string(),
        )?;
        same(
            "an input of bytes",
            s.input_bytes.to_string(),
            f.input_bytes.to_string(),
        )?;
        same("shard count", s.count.to_string(), f.count.to_string())?;
        same(
            "registry",
            manifest.registry_digest.clone(),
            first.registry_digest.clone(),
        )?;
        same(
            "verigate",
            manifest.verigate_version.clone(),
            first.verigate_version.clone(),
        )?;
        match s.lines.start.cmp(&next) {
            std::cmp::Ordering::Greater => {
                return Err(format!(
                    "input lines {}..{} are in no part: a part is missing",
                    next + 1,
                    s.lines.start
                ));
            }
            std::cmp::Ordering::Less => {
                return Err(format!(
                    "{} (lines {}..{}) overlaps another part",
                    path.display(),
                    s.lines.start + 1,
                    s.lines.end
                ));
            }
            std::cmp::Ordering::Equal => next = s.lines.end,
        }
    }
    if next != first.shard.input_lines {
        return Err(format!(
            "input lines {}..{} are in no part: a part is missing",
            next + 1,
            first.shard.input_lines
        ));
    }
    let _lock = lock_for_writing(out)?;
    let file = File::create(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let mut writer = BufWriter::new(file);
    let mut seen: HashMap<(String, String), PathBuf> = HashMap::new();
    let mut records = 0;
    for (manifest, path) in &manifests {
        let reader = BufReader::new(
            File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?,
        );
        let mut count = 0;
        for (number, line) in reader.split(b'\n').enumerate() {
            let line = line.map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let key: Key = serde_json::from_slice(&line)
                .map_err(|e| format!("{}:{}: {e}", path.display(), number + 1))?;
            let key = (key.id, key.sample.to_string());
            if let Some(earlier) = seen.insert(key.clone(), (*path).clone()) {
                return Err(format!(
                    "item `{}` sample {} is in {} and in {}: the responses repeat it, which a \
                     single process skips as a duplicate line; remove the repeat and grade again",
                    key.0,
                    key.1,
                    earlier.display(),
                    path.display()
                ));
            }
            writer
                .write_all(&line)
                .and_then(|()| writer.write_all(b"\n"))
                .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
            count += 1;
        }
        if count != manifest.records {
            return Err(format!(
                "{} holds {count} results, its manifest says {}: the part was changed",
                path.display(),
                manifest.records
            ));
        }
        records += count;
    }
    writer
        .flush()
        .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    Ok(Merged {
        parts: manifests.len(),
        records,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_range(text: &str, range: Range<usize>) -> String {
        let mut out = String::new();
        LineRange::new(text.as_bytes(), range)
            .read_to_string(&mut out)
            .unwrap();
        out
    }

    #[test]
    fn a_line_range_keeps_line_numbers_and_stops_after_its_end() {
        let text = "a\nbb\nccc\ndddd\ne";
        assert_eq!(read_range(text, 0..5), text);
        assert_eq!(read_range(text, 1..3), "\nbb\nccc\n");
        assert_eq!(read_range(text, 4..5), "\n\n\n\ne");
        assert_eq!(read_range(text, 2..2), "\n\n");
        assert_eq!(read_range(text, 7..9), "\n\n\n\n");
    }

    #[test]
    fn shards_cover_the_input_once() {
        let dir = std::env::temp_dir().join(format!("verigate-shard-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("in.jsonl");
        std::fs::write(&path, "1\n2\n3\n4\n5\n6\n7").unwrap();
        for count in 1..=8 {
            let ranges: Vec<_> = (0..count)
                .map(|i| Shard::of_file(&path, i, count, None).unwrap().lines)
                .collect();
            assert_eq!(ranges.first().unwrap().start, 0);
            assert_eq!(ranges.last().unwrap().end, 7);
            assert!(ranges.windows(2).all(|w| w[0].end == w[1].start));
        }
        let third = Shard::of_file(&path, 2, 3, Some(3)).unwrap();
        assert_eq!((third.lines, third.input_lines), (6..7, 7));
        assert!(
            Shard::of_file(&path, 0, 2, Some(3))
                .unwrap_err()
                .contains("3 shards")
        );
        assert!(Shard::of_file(&path, 3, 3, None).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
