//! Reading JSON Lines files one object at a time, with line numbers.

use serde::de::DeserializeOwned;
use std::io::BufRead;

/// The non-blank lines of `reader`, each parsed as a `T`, with its 1-based
/// line number. A line that cannot be read or parsed yields `Err` with the
/// reason (naming the field where serde can); reading goes on.
pub fn read<T: DeserializeOwned>(
    reader: impl BufRead,
) -> impl Iterator<Item = (usize, Result<T, String>)> {
    reader
        .lines()
        .enumerate()
        .filter_map(|(index, line)| match line {
            Ok(line) if line.trim().is_empty() => None,
            Ok(line) => Some((index + 1, parse(&line))),
            Err(e) => Some((index + 1, Err(e.to_string()))),
        })
}

/// Parses one line as a `T`.
pub fn parse<T: DeserializeOwned>(line: &str) -> Result<T, String> {
    serde_json::from_str(line).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_lines_and_skips_blanks() {
        let text = "{\"a\": 1}\n\n  \n{\"a\": \"x\"}\n{\"a\": 3}\n";
        #[derive(serde::Deserialize, Debug)]
        struct A {
            a: u32,
        }
        let got: Vec<(usize, Result<u32, String>)> = read::<A>(text.as_bytes())
            .map(|(n, r)| (n, r.map(|v| v.a)))
            .collect();
        assert_eq!(got[0], (1, Ok(1)));
        assert_eq!(got[1].0, 4);
        assert!(got[1].1.as_ref().unwrap_err().contains("invalid type"));
        assert_eq!(got[2], (5, Ok(3)));
    }
}
