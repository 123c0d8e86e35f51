//! Reading JSON Lines files one object at a time, with line numbers, in
//! bounded memory: a line longer than the cap is reported and skipped
//! without being held, so a never-ending line cannot exhaust the host.

use serde::de::DeserializeOwned;
use std::io::{BufRead, ErrorKind};

/// The longest input line read, in bytes (64 MiB: a response is capped at
/// 4 MiB of payload by default, JSON escaping can double or sextuple it).
pub const MAX_LINE_BYTES: usize = 64 << 20;

const BOM: &str = "\u{feff}";

/// The lines of `reader` (without their `\n` or `\r\n`), numbered from 1; a
/// line over `max` bytes, or one that is not UTF-8, is an `Err` naming why.
pub struct Lines<R> {
    reader: R,
    max: usize,
    number: usize,
    failed: bool,
}

impl<R: BufRead> Lines<R> {
    /// Lines of `reader`, each at most `max` bytes.
    pub fn new(reader: R, max: usize) -> Self {
        Lines {
            reader,
            max,
            number: 0,
            failed: false,
        }
    }

    /// Reads up to the end of the line; `Ok(None)` at the end of input, and
    /// `Ok(Some(None))` for a line over the cap (read to its end, not kept).
    fn next_line(&mut self) -> std::io::Result<Option<Option<Vec<u8>>>> {
        let mut line = Vec::new();
        let mut too_long = false;
        loop {
            let buffer = match self.reader.fill_buf() {
                Ok(buffer) => buffer,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buffer.is_empty() {
                return Ok((too_long || !line.is_empty()).then(|| (!too_long).then_some(line)));
            }
            let (chunk, done) = match buffer.iter().position(|&b| b == b'\n') {
                Some(end) => (&buffer[..end], Some(end + 1)),
                None => (buffer, None),
            };
            if !too_long && line.len() + chunk.len() > self.max {
                too_long = true;
                line = Vec::new();
            }
            if !too_long {
                line.extend_from_slice(chunk);
            }
            let used = done.unwrap_or(buffer.len());
            self.reader.consume(used);
            if done.is_some() {
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                return Ok(Some((!too_long).then_some(line)));
            }
        }
    }
}

impl<R: BufRead> Iterator for Lines<R> {
    type Item = (usize, Result<String, String>);

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let read = self.next_line();
        self.number += 1;
        let line = match read {
            Ok(None) => return None,
            Ok(Some(None)) => Err(format!("line longer than {} bytes", self.max)),
            Ok(Some(Some(bytes))) => String::from_utf8(bytes)
                .map_err(|e| format!("not UTF-8 ({e})"))
                .map(|text| match (self.number, text.strip_prefix(BOM)) {
                    (1, Some(rest)) => rest.to_owned(),
                    _ => text,
                }),
            Err(e) => {
                // A read error (not a bad line) ends the input.
                self.failed = true;
                Err(format!("cannot read: {e}"))
            }
        };
        Some((self.number, line))
    }
}

/// The non-blank lines of `reader`, each parsed as a `T`, with its 1-based
/// line number. A line that cannot be read or parsed, or is longer than
/// [`MAX_LINE_BYTES`], yields `Err` with the reason (naming the field where
/// serde can); reading goes on. A UTF-8 byte-order mark on the first line is
/// skipped.
pub fn read<T: DeserializeOwned>(
    reader: impl BufRead,
) -> impl Iterator<Item = (usize, Result<T, String>)> {
    read_capped(reader, MAX_LINE_BYTES)
}

/// [`read`] with lines capped at `max` bytes.
pub fn read_capped<T: DeserializeOwned>(
    reader: impl BufRead,
    max: usize,
) -> impl Iterator<Item = (usize, Result<T, String>)> {
    Lines::new(reader, max).filter_map(|(number, line)| match line {
        Ok(line) if line.trim().is_empty() => None,
        Ok(line) => Some((number, parse(&line))),
        Err(e) => Some((number, Err(e))),
    })
}

/// Parses one line as a `T`.
pub fn parse<T: DeserializeOwned>(line: &str) -> Result<T, String> {
    serde_json::from_str(line).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[derive(serde::Deserialize, Debug)]
    struct A {
        a: u32,
    }

    fn values(text: &[u8], max: usize) -> Vec<(usize, Result<u32, String>)> {
        read_capped::<A>(text, max)
            .map(|(n, r)| (n, r.map(|v| v.a)))
            .collect()
    }

    #[test]
    fn numbers_lines_and_skips_blanks() {
        let got = values(b"{\"a\": 1}\n\n  \n{\"a\": \"x\"}\r\n{\"a\": 3}", 100);
        assert_eq!(got[0], (1, Ok(1)));
        assert_eq!(got[1].0, 4);
        assert!(got[1].1.as_ref().unwrap_err().contains("invalid type"));
        assert_eq!(got[2], (5, Ok(3)));
    }

    #[test]
    fn a_line_over_the_cap_is_skipped_by_number_and_reading_goes_on() {
        let long = format!("{{\"a\": 1, \"pad\": \"{}\"}}", "x".repeat(50));
        let text = format!("{{\"a\": 1}}\n{long}\n{{\"a\": 2}}\n{long}");
        let got = values(text.as_bytes(), 20);
        assert_eq!(got[0], (1, Ok(1)));
        assert_eq!(got[1], (2, Err("line longer than 20 bytes".to_owned())));
        assert_eq!(got[2], (3, Ok(2)));
        assert_eq!(got[3], (4, Err("line longer than 20 bytes".to_owned())));
        assert_eq!(got.len(), 4);
    }

    #[test]
    fn a_never_ending_line_is_not_held_in_memory() {
        // 64 MiB of one line from a reader that never ends it, under a 1 KiB cap:
        // read to the end without growing past the cap.
        let endless = std::io::repeat(b'x').take(64 << 20);
        let got: Vec<_> = Lines::new(std::io::BufReader::new(endless), 1024).collect();
        assert_eq!(got, [(1, Err("line longer than 1024 bytes".to_owned()))]);
    }

    #[test]
    fn a_byte_order_mark_on_the_first_line_is_skipped_and_bad_utf8_is_named() {
        let got = values("\u{feff}{\"a\": 7}\n".as_bytes(), 100);
        assert_eq!(got, [(1, Ok(7))]);
        let got = values(b"{\"a\": 1}\n\xff\xfe\n", 100);
        assert!(got[1].1.as_ref().unwrap_err().starts_with("not UTF-8"));
    }
}
