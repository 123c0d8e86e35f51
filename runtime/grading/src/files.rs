//! Input and output files, handled as a careful operator would: `-` for
//! stdin, gzip read transparently, an output that is an input refused
//! before anything is opened for writing, and one writer per results file.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader};
use std::path::Path;

/// The gzip magic number.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Opens an input for reading: `-` is stdin; a gzip file (by its magic
/// bytes, whatever its name) is decompressed as it is read.
pub fn open_input(path: &Path, what: &str) -> Result<Box<dyn BufRead>, String> {
    let reader: Box<dyn BufRead> = if path == Path::new("-") {
        Box::new(BufReader::new(std::io::stdin()))
    } else {
        let file =
            File::open(path).map_err(|e| format!("cannot open {what} {}: {e}", path.display()))?;
        Box::new(BufReader::new(file))
    };
    gunzip_if_gzip(reader).map_err(|e| format!("cannot read {what} {}: {e}", path.display()))
}

/// `reader`, decompressed when it starts with the gzip magic number.
fn gunzip_if_gzip(mut reader: Box<dyn BufRead>) -> std::io::Result<Box<dyn BufRead>> {
    if reader.fill_buf()?.starts_with(&GZIP_MAGIC) {
        let decoder = flate2::bufread::MultiGzDecoder::new(reader);
        return Ok(Box::new(BufReader::new(decoder)));
    }
    Ok(reader)
}

/// `Read::read` for a reader whose lines are made in `fill_buf` (an
/// adapter over another reader): copies from its buffer and consumes it.
pub fn read_from_buffer(reader: &mut impl BufRead, out: &mut [u8]) -> std::io::Result<usize> {
    let available = reader.fill_buf()?;
    let n = available.len().min(out.len());
    out[..n].copy_from_slice(&available[..n]);
    reader.consume(n);
    Ok(n)
}

/// Whether `a` and `b` are the same file (device and inode), when both exist.
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// Refuses an output that is one of the inputs (compared by device and
/// inode, not by name), before anything is opened for writing.
pub fn refuse_output_over_input(out: &Path, inputs: &[(&str, &Path)]) -> Result<(), String> {
    match inputs.iter().find(|(_, input)| same_file(out, input)) {
        Some((what, input)) => Err(format!(
            "--out {} is the {what} file {}: it would be overwritten; name another output",
            out.display(),
            input.display()
        )),
        None => Ok(()),
    }
}

/// An exclusive lock on a results file for the whole run; a second writer
/// (another `grade --out` on the same file) is refused instead of
/// interleaving its lines.
pub struct WriterLock {
    _file: File,
}

/// Takes [`WriterLock`] on `path` (creating the file, not truncating it).
pub fn lock_for_writing(path: &Path) -> Result<WriterLock, String> {
    let file = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    match file.try_lock() {
        Ok(()) => Ok(WriterLock { _file: file }),
        Err(std::fs::TryLockError::WouldBlock) => Err(format!(
            "{} is being written by another verigate run (it holds the file's lock); \
             wait for it to finish or name another --out",
            path.display()
        )),
        Err(std::fs::TryLockError::Error(e)) => Err(format!("cannot lock {}: {e}", path.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    fn read_all(mut reader: Box<dyn BufRead>) -> String {
        let mut text = String::new();
        reader.read_to_string(&mut text).unwrap();
        text
    }

    #[test]
    fn gzip_is_read_transparently_and_plain_text_as_it_is() {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(b"{\"id\": 1}\n").unwrap();
        let bytes = gz.finish().unwrap();
        let reader = gunzip_if_gzip(Box::new(std::io::Cursor::new(bytes))).unwrap();
        assert_eq!(read_all(reader), "{\"id\": 1}\n");
        let reader = gunzip_if_gzip(Box::new(&b"plain\n"[..])).unwrap();
        assert_eq!(read_all(reader), "plain\n");
    }
}
