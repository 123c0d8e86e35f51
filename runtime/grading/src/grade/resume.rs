//! Continuing a results file that an interrupted `grade` left behind.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;

/// Opens the results at `path` for appending, first cutting off a last line
/// that a killed run left unfinished (no newline). Returns the file and how
/// many bytes were cut. A missing file is created empty.
pub fn open_for_append(path: &Path) -> io::Result<(File, u64)> {
    let mut file = OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .open(path)?;
    let len = file.metadata()?.len();
    let keep = complete_prefix(&mut file, len)?;
    if keep < len {
        file.set_len(keep)?;
    }
    Ok((file, len - keep))
}

/// Length of the longest prefix of `file` that ends with a newline (or is empty).
fn complete_prefix(file: &mut File, len: u64) -> io::Result<u64> {
    const CHUNK: u64 = 64 * 1024;
    let mut end = len;
    let mut buf = vec![0; CHUNK as usize];
    while end > 0 {
        let start = end.saturating_sub(CHUNK);
        let chunk = &mut buf[..(end - start) as usize];
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(chunk)?;
        if let Some(at) = chunk.iter().rposition(|&b| b == b'\n') {
            return Ok(start + at as u64 + 1);
        }
        end = start;
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn cuts_only_an_unfinished_last_line() {
        let dir = std::env::temp_dir().join(format!("verigate-resume-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("results.jsonl");
        for (before, after) in [
            ("", ""),
            ("{\"a\":1}\n", "{\"a\":1}\n"),
            ("{\"a\":1}\n{\"a\"", "{\"a\":1}\n"),
            ("{\"a\"", ""),
        ] {
            std::fs::write(&path, before).unwrap();
            let (mut file, cut) = open_for_append(&path).unwrap();
            assert_eq!(cut as usize, before.len() - after.len());
            file.write_all(b"x\n").unwrap();
            assert_eq!(
                std::fs::read_to_string(&path).unwrap(),
                format!("{after}x\n")
            );
        }
        let long = format!("{}\n{}", "y".repeat(100_000), "z".repeat(70_000));
        std::fs::write(&path, &long).unwrap();
        assert_eq!(open_for_append(&path).unwrap().1, 70_000);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
