//! Extraction of the proof section and the construction payload from a raw
//! model response, following ComBench's released evaluator (App. D.1, E.3).
//!
//! A construction-centric response must start (after whitespace) with the
//! heading line `## Solution to Question 1` and later hold the heading line
//! `## Solution to Question 2`, each exactly once and in that order, with both
//! sections non-empty. The Question 1 section may hold no construct tag; the
//! Question 2 section exactly one `<construct>` and one `</construct>`
//! (case-insensitive, counted separately), in that order. The payload is the
//! text between them, stripped; the verifier receives it followed by one newline.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The heading that opens the proof section.
pub const QUESTION_1: &str = "## Solution to Question 1";
/// The heading that opens the construction section.
pub const QUESTION_2: &str = "## Solution to Question 2";
const OPEN_TAG: &str = "<construct>";
const CLOSE_TAG: &str = "</construct>";

/// Why a response yields no proof or no payload; the spelling is the outcome
/// recorded in results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExtractError {
    /// The two section headings are missing, repeated, out of order or
    /// enclose an empty section (or an analysis response is empty).
    BadSections,
    /// The construction section holds no construct block.
    MissingConstruct,
    /// More than one opening or closing tag, or a block outside the construction section.
    MultipleConstructs,
    /// Tags that do not form one block (a lone or reversed tag).
    MalformedConstruct,
}

impl ExtractError {
    /// The outcome's spelling, e.g. `missing_construct`.
    pub fn as_str(self) -> &'static str {
        match self {
            ExtractError::BadSections => "bad_sections",
            ExtractError::MissingConstruct => "missing_construct",
            ExtractError::MultipleConstructs => "multiple_constructs",
            ExtractError::MalformedConstruct => "malformed_construct",
        }
    }
}

impl ExtractError {
    /// What is wrong with the response, in a sentence.
    pub fn describe(self) -> &'static str {
        match self {
            ExtractError::BadSections => {
                "the response must start with `## Solution to Question 1` and later hold \
                 `## Solution to Question 2`, each once, in order, both sections non-empty \
                 (an analysis response must be non-empty)"
            }
            ExtractError::MissingConstruct => {
                "no <construct>...</construct> block in the Question 2 section"
            }
            ExtractError::MultipleConstructs => {
                "more than one construct tag, or a tag in the Question 1 section"
            }
            ExtractError::MalformedConstruct => {
                "the construct tags do not form one <construct>...</construct> block"
            }
        }
    }
}

impl fmt::Display for ExtractError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a construction-centric response yields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Extraction {
    /// The proof section (Question 1), stripped; `BadSections` when the
    /// sections do not parse (then the proof is not judged).
    pub proof: Result<String, ExtractError>,
    /// The verifier's stdin: the payload, stripped, plus one newline.
    pub payload: Result<String, ExtractError>,
}

use verigate_contract::py_strip as strip;

/// Byte offsets of the lines of `text` whose stripped content is exactly `heading`.
fn heading_lines(text: &str, heading: &str) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        if strip(line) == heading {
            found.push((start, start + line.len()));
        }
        start += line.len();
    }
    found
}

/// Case-insensitive, non-overlapping occurrences of the ASCII `tag` in `text`.
fn find_tags(text: &str, tag: &str) -> Vec<usize> {
    let haystack = text.as_bytes();
    let needle = tag.as_bytes();
    let mut found = Vec::new();
    let mut at = 0;
    while at + needle.len() <= haystack.len() {
        if haystack[at..at + needle.len()].eq_ignore_ascii_case(needle) {
            found.push(at);
            at += needle.len();
        } else {
            at += 1;
        }
    }
    found
}

/// Splits a construction-centric response into its proof and its payload.
pub fn extract_construction(response: &str) -> Extraction {
    let bad = Extraction {
        proof: Err(ExtractError::BadSections),
        payload: Err(ExtractError::BadSections),
    };
    let q1 = heading_lines(response, QUESTION_1);
    let q2 = heading_lines(response, QUESTION_2);
    let ([(q1_start, q1_end)], [(q2_start, q2_end)]) = (q1.as_slice(), q2.as_slice()) else {
        return bad;
    };
    if !strip(&response[..*q1_start]).is_empty() || q2_start < q1_end {
        return bad;
    }
    let (proof, construction) = (&response[*q1_end..*q2_start], &response[*q2_end..]);
    if strip(proof).is_empty() || strip(construction).is_empty() {
        return bad;
    }
    Extraction {
        proof: Ok(strip(proof).to_owned()),
        payload: payload(proof, construction),
    }
}

fn payload(proof: &str, construction: &str) -> Result<String, ExtractError> {
    let stray = find_tags(proof, OPEN_TAG).len() + find_tags(proof, CLOSE_TAG).len();
    let (opens, closes) = (
        find_tags(construction, OPEN_TAG),
        find_tags(construction, CLOSE_TAG),
    );
    match (opens.as_slice(), closes.as_slice()) {
        (o, c) if o.len() > 1 || c.len() > 1 => Err(ExtractError::MultipleConstructs),
        ([open], [close]) if open < close => {
            if stray > 0 {
                return Err(ExtractError::MultipleConstructs);
            }
            let inner = &construction[open + OPEN_TAG.len()..*close];
            Ok(format!("{}\n", strip(inner)))
        }
        ([], []) if stray == 0 => Err(ExtractError::MissingConstruct),
        _ => Err(ExtractError::MalformedConstruct),
    }
}

/// The proof of an analysis-centric response: the whole text, stripped,
/// non-empty and free of construct tags.
pub fn extract_analysis(response: &str) -> Result<String, ExtractError> {
    let text = strip(response);
    if text.is_empty() {
        return Err(ExtractError::BadSections);
    }
    if !find_tags(text, OPEN_TAG).is_empty() || !find_tags(text, CLOSE_TAG).is_empty() {
        return Err(ExtractError::MalformedConstruct);
    }
    Ok(text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn response(proof: &str, construction: &str) -> String {
        format!("\n  {QUESTION_1}\n{proof}\n{QUESTION_2}\n{construction}\n")
    }

    #[test]
    fn a_well_formed_response_yields_proof_and_payload() {
        let r = response(
            "By induction...",
            "Here:\n<construct>\n ({1, 2}, {3})  \n</construct>\nDone.",
        );
        let e = extract_construction(&r);
        assert_eq!(e.proof.as_deref(), Ok("By induction..."));
        assert_eq!(e.payload.as_deref(), Ok("({1, 2}, {3})\n"));
    }

    #[test]
    fn tags_are_case_insensitive() {
        let e = extract_construction(&response("p", "<CONSTRUCT>[1]</Construct>"));
        assert_eq!(e.payload.as_deref(), Ok("[1]\n"));
    }

    #[test]
    fn section_rules() {
        let cases = [
            format!("preamble\n{QUESTION_1}\np\n{QUESTION_2}\n<construct>1</construct>"),
            format!("{QUESTION_2}\nc\n{QUESTION_1}\n<construct>1</construct>"),
            format!("{QUESTION_1}\np\n<construct>1</construct>"),
            format!("{QUESTION_1}\n\n  \n{QUESTION_2}\n<construct>1</construct>"),
            format!("{QUESTION_1}\np\n{QUESTION_2}\n   \n"),
            format!("{QUESTION_1}\np\n{QUESTION_1}\nq\n{QUESTION_2}\n<construct>1</construct>"),
            format!("{QUESTION_1}\np\n{QUESTION_2}\n<construct>1</construct>\n{QUESTION_2}\nx"),
            format!("# Solution to Question 1\np\n{QUESTION_2}\n<construct>1</construct>"),
            String::new(),
        ];
        for case in cases {
            let e = extract_construction(&case);
            assert_eq!(e.proof, Err(ExtractError::BadSections), "{case:?}");
            assert_eq!(e.payload, Err(ExtractError::BadSections), "{case:?}");
        }
    }

    #[test]
    fn construct_block_rules() {
        use ExtractError::*;
        let cases = [
            ("p", "no block here", MissingConstruct),
            (
                "p",
                "<construct>1</construct> <construct>2</construct>",
                MultipleConstructs,
            ),
            (
                "p",
                "<construct>1 <construct>2</construct>",
                MultipleConstructs,
            ),
            (
                "p",
                "<construct>1</construct></construct>",
                MultipleConstructs,
            ),
            (
                "<construct>0</construct>",
                "<construct>1</construct>",
                MultipleConstructs,
            ),
            ("<construct>0</construct>", "nothing", MalformedConstruct),
            ("p", "<construct>1", MalformedConstruct),
            ("p", "1</construct>", MalformedConstruct),
            ("p", "</construct>1<construct>", MalformedConstruct),
            (
                "a stray </construct>",
                "<construct>1</construct>",
                MultipleConstructs,
            ),
        ];
        for (proof, construction, expected) in cases {
            let e = extract_construction(&response(proof, construction));
            assert_eq!(e.payload, Err(expected), "{proof:?} / {construction:?}");
            assert!(
                e.proof.is_ok(),
                "the proof is still judged: {proof:?} / {construction:?}"
            );
        }
    }

    #[test]
    fn analysis_responses() {
        assert_eq!(
            extract_analysis("  proof text \n").as_deref(),
            Ok("proof text")
        );
        assert_eq!(extract_analysis(" \n\t"), Err(ExtractError::BadSections));
        assert_eq!(
            extract_analysis("x <Construct>1</construct>"),
            Err(ExtractError::MalformedConstruct)
        );
    }
}
