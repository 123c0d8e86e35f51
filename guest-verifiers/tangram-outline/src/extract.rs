//! Reading the chosen option letter out of a model's free-text answer.
//!
//! The rule (see the crate documentation for why) in two steps; the first
//! that finds anything decides:
//!
//! 1. **Answer markers, anywhere**: `\boxed{X}`; an *answer* word (`answer`,
//!    `final answer`, `答案`, `correct option`, `correct choice`, `correct
//!    silhouette`, `matching shape`, `my choice`, `final selection`, …) or a
//!    choice verb (`I choose`, `I'd pick`, `I'll go with`, …), followed by
//!    an optional link (`:`, `=`, `-`, `→`, `is`, `would be`, `must be`, …),
//!    an optional option word (`option`, `silhouette`, `letter`, …) and a
//!    letter.
//! 2. **The answer line**: the first and the last non-blank line, each read
//!    as a whole: a bare letter (`B`, `(B)`, `Option B`, `Final: B`), a
//!    letter labelling an explanation (`B) the flag`, `Option B: …`,
//!    `B. …`, `B - …`), or `B is the correct answer` / `Option B is correct`;
//!    the last line also when it *ends* with the letter after a copula, a
//!    colon, an arrow or an option word (`…, so the silhouette is B.`,
//!    `Therefore: B`, `…matches silhouette C.`). A letter of these lines
//!    that is not an option (a heading `I.`, a piece name `M: …`) yields to
//!    one that is.
//!
//! Markdown emphasis and code marks (`*`, `_`, `` ` ``) are removed first,
//! full-width brackets and colons read as ASCII, and white space (line
//! breaks too, in step 1) counts as one space.
//!
//! A *letter* is one ASCII letter standing alone (not part of a word, `S1`
//! or `I'd`), optionally in brackets or quotes, case-insensitive. The English
//! one-letter words `a`, `i` and `I` followed by another word (`the answer is
//! a square`, `the answer, I think, …`) are words, not letters. Hedges (`A or
//! B`, `A/B`) assert both letters.
//!
//! The result is every distinct letter the deciding step found: none, one,
//! or several (then the answer is ambiguous and maps to no option).

use std::collections::BTreeSet;

use verigate_sdk::{is_line_break, is_py_space};

/// Which step of the rule found the letters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// An explicit answer marker (step 1).
    Marker,
    /// The first or last line read as an answer line (step 2).
    Line,
}

impl Rule {
    /// How a verdict message names the rule.
    pub fn describe(self) -> &'static str {
        match self {
            Rule::Marker => "an answer marker",
            Rule::Line => "the answer line",
        }
    }
}

/// What an answer asserts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reading {
    /// No option letter at all.
    Nothing,
    /// The distinct letters asserted (upper case, sorted; at least one) and
    /// the step that found them.
    Letters(Vec<char>, Rule),
}

/// Reads the letters `answer` asserts, for a question with `options`.
pub fn read(answer: &str, options: &[char]) -> Reading {
    let text = normalize(answer);
    let mut found = Vec::new();
    markers(&collapse(&text), &mut found);
    if !found.is_empty() {
        return Reading::Letters(distinct(found), Rule::Marker);
    }
    // Python's line breaks; `\r\n` gives an empty line between, skipped like
    // every blank line.
    let mut answer_lines = text
        .split(is_line_break)
        .map(strip_decoration)
        .filter(|line| !line.trim_matches(is_py_space).is_empty());
    if let Some(first) = answer_lines.next() {
        let first = collapse(first);
        found.extend(label_line(&first));
        let last = answer_lines.next_back().map(collapse);
        let last = last.as_deref().unwrap_or(&first);
        found.extend(label_line(last).or_else(|| ends_with_letter(last)));
    }
    // A line's letter that is no option (a heading `I.`, a piece `M: …`)
    // yields to one that is.
    if found.iter().any(|l| options.contains(l)) {
        found.retain(|l| options.contains(l));
    }
    if found.is_empty() {
        Reading::Nothing
    } else {
        Reading::Letters(distinct(found), Rule::Line)
    }
}

fn distinct(letters: Vec<char>) -> Vec<char> {
    letters
        .into_iter()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect()
}

/// Emphasis and code marks dropped; full-width brackets and colons as ASCII.
fn normalize(text: &str) -> String {
    text.chars()
        .filter_map(|c| match c {
            '*' | '_' | '`' => None,
            '（' => Some('('),
            '）' => Some(')'),
            '【' => Some('['),
            '】' => Some(']'),
            '：' => Some(':'),
            '’' => Some('\''),
            c => Some(c),
        })
        .collect()
}

/// White-space runs as one space, trimmed.
fn collapse(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut space = false;
    for c in text.chars() {
        if is_py_space(c) {
            space = true;
        } else {
            if space && !out.is_empty() {
                out.push(' ');
            }
            space = false;
            out.push(c);
        }
    }
    out
}

/// A line without its leading heading, quote and bullet marks.
fn strip_decoration(line: &str) -> &str {
    line.trim_start_matches(|c: char| is_py_space(c) || matches!(c, '#' | '>' | '-' | '•' | '+'))
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric()
}

/// A position in a text, with case-insensitive word matching.
struct Cursor<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str, at: usize) -> Self {
        Cursor { text, at }
    }

    fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += c.len_utf8();
        Some(c)
    }

    fn spaces(&mut self) {
        while self.peek().is_some_and(is_py_space) {
            self.bump();
        }
    }

    /// Consumes `word` (case-insensitive) if it is next; a word ending in a
    /// letter or digit must not run on into another one (`option` does not
    /// match `options`).
    fn word(&mut self, word: &str) -> bool {
        let rest = self.rest();
        let Some(head) = rest.get(..word.len()) else {
            return false;
        };
        if !head.eq_ignore_ascii_case(word) {
            return false;
        }
        let runs_on = word
            .chars()
            .last()
            .is_some_and(|c| c.is_ascii_alphanumeric())
            && rest[word.len()..].chars().next().is_some_and(is_word_char);
        if runs_on {
            return false;
        }
        self.at += word.len();
        true
    }

    /// Consumes the first of `words` that is next.
    fn any(&mut self, words: &[&str]) -> bool {
        words.iter().any(|w| self.word(w))
    }
}

const OPEN: &[char] = &['(', '[', '{', '<', '"', '\'', '“', '‘', '«'];
const CLOSE: &[char] = &[')', ']', '}', '>', '"', '\'', '”', '’', '»'];

/// Words that may stand between a marker and its letter, or before a label.
const OPTION_WORDS: &[&str] = &[
    "option",
    "choice",
    "silhouette",
    "candidate",
    "letter",
    "outline",
    "shape",
];

/// A standalone letter at the cursor.
struct Token {
    letter: char,
    /// Opened or closed by a bracket or quote: `(B)`, `B)`, `"B"`.
    enclosed: bool,
}

/// Reads a letter (after opening brackets or quotes, before closing ones);
/// leaves the cursor where it was when there is none.
fn token(c: &mut Cursor<'_>) -> Option<Token> {
    let start = c.at;
    let found = (|| {
        let mut opened = false;
        while c.peek().is_some_and(|ch| OPEN.contains(&ch)) {
            c.bump();
            c.spaces();
            opened = true;
        }
        let letter = c.peek().filter(char::is_ascii_alphabetic)?;
        c.bump();
        let mut next = c.rest().chars();
        match (next.next(), next.next()) {
            (Some(n), _) if is_word_char(n) => return None,
            (Some('\'' | '’'), Some(n)) if is_word_char(n) => return None,
            _ => {}
        }
        let mut closed = false;
        while c.peek().is_some_and(|ch| CLOSE.contains(&ch)) {
            c.bump();
            closed = true;
        }
        let enclosed = opened || closed;
        // "a" and "I" followed by another word are English words.
        let rest = c.rest();
        if !enclosed
            && matches!(letter, 'a' | 'i' | 'I')
            && rest.starts_with(' ')
            && rest[1..].chars().next().is_some_and(is_word_char)
        {
            return None;
        }
        Some(Token {
            letter: letter.to_ascii_uppercase(),
            enclosed,
        })
    })();
    if found.is_none() {
        c.at = start;
    }
    found
}

/// An optional option word, a letter, and hedged alternatives (`A or B`,
/// `A/B`), into `found`.
fn letters(c: &mut Cursor<'_>, found: &mut Vec<char>) -> bool {
    let start = c.at;
    c.spaces();
    if c.any(OPTION_WORDS) {
        c.spaces();
    }
    let Some(first) = token(c) else {
        c.at = start;
        return false;
    };
    found.push(first.letter);
    loop {
        let before = c.at;
        c.spaces();
        if c.any(&["or", "/"]) {
            c.spaces();
            if c.any(OPTION_WORDS) {
                c.spaces();
            }
            if let Some(next) = token(c) {
                found.push(next.letter);
                continue;
            }
        }
        c.at = before;
        return true;
    }
}

/// Nouns that, after `correct`, `right`, `matching`, `my` or `final`,
/// announce the answer.
const CHOICE_NOUNS: &[&str] = &[
    "option",
    "choice",
    "selection",
    "silhouette",
    "outline",
    "candidate",
    "shape",
];

/// Consumes an answer marker at the start of a word, if one is there:
/// `answer`; `correct`/`right`/`matching`/`my`/`final` [`final`] + a
/// [`CHOICE_NOUNS`] noun (`correct option`, `my final choice`); `I`
/// [`would`/`will`/`'d`/`'ll`] `choose`/`select`/`pick`/`go with`.
fn marker(c: &mut Cursor<'_>) -> bool {
    let start = c.at;
    let found = if c.word("answer") {
        true
    } else if c.any(&["correct", "right", "matching", "my", "final"]) {
        c.spaces();
        if c.word("final") {
            c.spaces();
        }
        c.any(CHOICE_NOUNS)
    } else if c.word("i") {
        if !c.any(&["'d", "'ll"]) {
            c.spaces();
            c.any(&["would", "will"]);
        }
        c.spaces();
        c.any(&["choose", "select", "pick", "go with"])
    } else {
        false
    };
    if !found {
        c.at = start;
    }
    found
}

/// Markers that need no word boundary around them.
const CJK_MARKERS: &[&str] = &["答案"];

/// What may link a marker to its letter (longest first where one is a
/// prefix of another).
const LINKS: &[&str] = &[
    "->",
    "=>",
    ":",
    "=",
    "→",
    "—",
    "–",
    "-",
    "is",
    "would be",
    "should be",
    "must be",
    "will be",
    "seems to be",
    "appears to be",
    "是",
    "为",
];

/// Step 1: letters after answer markers and in `\boxed{…}`, into `found`.
fn markers(text: &str, found: &mut Vec<char>) {
    let bytes = text.as_bytes();
    let mut word_before = false;
    for (at, &byte) in bytes.iter().enumerate() {
        let word_char = if byte.is_ascii() {
            byte.is_ascii_alphanumeric()
        } else if byte & 0xc0 == 0xc0 {
            text[at..].chars().next().is_some_and(is_word_char)
        } else {
            word_before // a continuation byte: as the character it belongs to
        };
        let starts_word = word_char && !word_before;
        word_before = word_char;
        // Every marker begins with one of these letters.
        if starts_word && b"acfimrACFIMR".contains(&byte) {
            let mut c = Cursor::new(text, at);
            if marker(&mut c) {
                after_marker(&mut c, found);
            }
        }
    }
    for marker in CJK_MARKERS {
        for (at, _) in text.match_indices(marker) {
            after_marker(&mut Cursor::new(text, at + marker.len()), found);
        }
    }
    for (at, _) in text.match_indices("\\boxed") {
        let mut c = Cursor::new(text, at + "\\boxed".len());
        c.spaces();
        if c.bump() != Some('{') {
            continue;
        }
        let start = c.at;
        // A box holding a letter is short; a longer one is not read.
        let window = &text.as_bytes()[start..text.len().min(start + BOX_LIMIT)];
        let mut depth = 1;
        let end = window.iter().position(|&b| {
            match b {
                b'{' => depth += 1,
                b'}' => depth -= 1,
                _ => {}
            }
            depth == 0
        });
        if let Some(end) = end {
            let inner = strip_latex(&text[start..start + end]);
            letters(&mut Cursor::new(&inner, 0), found);
        }
    }
}

/// The letters after a marker (the cursor just after it), into `found`.
fn after_marker(c: &mut Cursor<'_>, found: &mut Vec<char>) {
    // The closing quote of a key: `"answer": "B"`.
    while c
        .peek()
        .is_some_and(|ch| matches!(ch, '"' | '\'' | '”' | '’'))
    {
        c.bump();
    }
    for _ in 0..3 {
        c.spaces();
        if !c.any(LINKS) {
            break;
        }
    }
    letters(c, found);
}

/// The most bytes a `\boxed{…}` is read for.
const BOX_LIMIT: usize = 64;

/// `\text{Option } (B)` → ` Option  (B)`: commands and braces dropped.
fn strip_latex(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                while chars.peek().is_some_and(char::is_ascii_alphabetic) {
                    chars.next();
                }
                out.push(' ');
            }
            '{' | '}' => {}
            '~' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Words that may open an answer line.
const LINE_PREFIXES: &[&str] = &[
    "final answer",
    "answer",
    "final choice",
    "final",
    "option",
    "choice",
    "silhouette",
    "candidate",
    "outline",
    "shape",
    "letter",
];

/// Step 2 for one line read as a whole: a bare letter, a letter labelling an
/// explanation, or "B is the correct answer".
fn label_line(line: &str) -> Option<char> {
    let mut c = Cursor::new(line, 0);
    if c.any(LINE_PREFIXES) {
        c.spaces();
        c.any(&[":", "-", "="]);
        c.spaces();
    }
    let token = token(&mut c)?;
    let rest = c.rest();
    let bare = rest
        .trim_end_matches(|ch: char| is_py_space(ch) || matches!(ch, '.' | '!'))
        .is_empty();
    let mut after = rest.chars();
    let delimited = match (after.next(), after.next()) {
        (Some(':' | '.' | ')' | ','), None | Some(' ')) => true,
        (Some(' '), Some('-' | '–' | '—')) => rest[1..].chars().nth(1).is_none_or(|n| n == ' '),
        _ => false,
    };
    let mut tail = Cursor::new(rest, 0);
    tail.spaces();
    let asserted = tail.word("is") && {
        tail.spaces();
        tail.word("the");
        tail.spaces();
        tail.any(&[
            "correct", "right", "answer", "final", "matching", "best", "true",
        ])
    };
    (bare || token.enclosed || delimited || asserted).then_some(token.letter)
}

/// Step 2 for the last line: it ends with a letter after a copula, colon,
/// arrow or option word.
fn ends_with_letter(line: &str) -> Option<char> {
    let body = line.trim_end_matches(|ch: char| {
        is_py_space(ch) || matches!(ch, '.' | '!') || CLOSE.contains(&ch)
    });
    let letter = body.chars().next_back().filter(char::is_ascii_alphabetic)?;
    let before = &body[..body.len() - 1];
    if before.chars().next_back().is_some_and(is_word_char) {
        return None;
    }
    let before = before.trim_end_matches(|ch: char| is_py_space(ch) || OPEN.contains(&ch));
    // The last few characters are enough to see what precedes the letter.
    let tail: String = before
        .chars()
        .rev()
        .take(12)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    let lead = format!(" {}", tail.to_ascii_lowercase());
    let linked = [
        " is",
        " be",
        ":",
        "=",
        "→",
        "->",
        "=>",
        "是",
        "为",
        " option",
        " silhouette",
        " candidate",
        " choice",
        " outline",
        " shape",
        " letter",
    ]
    .iter()
    .any(|end| lead.ends_with(end));
    linked.then_some(letter.to_ascii_uppercase())
}
