//! Python's line and white-space rules, which both protocols use to read a
//! verifier's stdout (the original graders are Python scripts).

/// Python's `str.splitlines()` line boundaries: what the host splits a
/// verifier's stdout on, so a message must not contain any of them.
pub fn is_line_break(c: char) -> bool {
    matches!(
        c,
        '\n' | '\r'
            | '\x0b'
            | '\x0c'
            | '\x1c'
            | '\x1d'
            | '\x1e'
            | '\u{85}'
            | '\u{2028}'
            | '\u{2029}'
    )
}

/// Python's `str.isspace()` for one character: Unicode white space and the
/// separators U+001C..U+001F, which Python counts too.
pub fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Python's `str.strip()`.
///
/// ```
/// assert_eq!(verigate_contract::py_strip("\u{1f} [1, 2]\n"), "[1, 2]");
/// ```
pub fn py_strip(s: &str) -> &str {
    s.trim_matches(is_py_space)
}

/// Python's `str.splitlines()`: split at each [`is_line_break`], `\r\n` counting
/// once; no empty last line after a final break.
///
/// ```
/// assert_eq!(verigate_contract::py_splitlines("a\r\nb\u{2028}c\n"), ["a", "b", "c"]);
/// ```
pub fn py_splitlines(text: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if is_line_break(c) {
            lines.push(&text[start..i]);
            let mut end = i + c.len_utf8();
            if c == '\r' && chars.peek().is_some_and(|&(_, n)| n == '\n') {
                chars.next();
                end += 1;
            }
            start = end;
        }
    }
    if start < text.len() {
        lines.push(&text[start..]);
    }
    lines
}

/// The non-blank lines of a verifier's stdout, each stripped: what both
/// protocols judge.
///
/// ```
/// assert_eq!(verigate_contract::lines::verdict_lines("\n  True \r\n\n"), ["True"]);
/// ```
pub fn verdict_lines(stdout: &str) -> Vec<&str> {
    stdout
        .split(is_line_break)
        .map(py_strip)
        .filter(|line| !line.is_empty())
        .collect()
}
