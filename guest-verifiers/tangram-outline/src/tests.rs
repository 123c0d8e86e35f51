//! The ways models answer a four-option question, and what each maps to.

use super::*;
use extract::{Reading, Rule};
use verigate_sdk::serde_json::Value;

const ABCD: [char; 4] = ['A', 'B', 'C', 'D'];

fn read(answer: &str) -> Reading {
    extract::read(answer, &ABCD)
}

fn one(answer: &str) -> Option<char> {
    match read(answer) {
        Reading::Letters(letters, _) if letters.len() == 1 => Some(letters[0]),
        _ => None,
    }
}

fn item(answer: &str) -> Item {
    let instance = Instance {
        options: ["A", "B", "C", "D"].map(String::from).to_vec(),
        answer: answer.to_owned(),
    };
    Item::from_instance(&instance).unwrap()
}

fn details(v: &Verdict) -> Value {
    v.details().cloned().unwrap()
}

#[test]
fn bare_and_formatted_letters() {
    for answer in [
        "B",
        " B\n",
        "b",
        "**B**",
        "__B__",
        "`B`",
        "(B)",
        "[B]",
        "B.",
        "\"B\"",
        "Option B",
        "**Option B**",
        "Silhouette B",
        "Final: B",
        "# B",
        "（B）",
    ] {
        assert_eq!(
            read(answer),
            Reading::Letters(vec!['B'], Rule::Line),
            "{answer:?}"
        );
    }
}

#[test]
fn explicit_markers() {
    for answer in [
        "The answer is (B).",
        "Answer: b",
        "answer: B",
        "**Answer:** B",
        "**Answer: B**",
        "Final answer: B",
        "Final Answer\n\nB",
        "The correct answer is option B because the notch is on the right.",
        "The correct option is B.",
        "The matching silhouette is B: it has the notch.",
        "My choice: B",
        "I choose B.",
        "I'd go with B.",
        "I’ll pick (B).",
        "{\"answer\": \"B\"}",
        "The answer would be B",
        "Answer → B",
        "\\boxed{B}",
        "So the result is $\\boxed{B}$.",
        "$\\boxed{\\text{B}}$",
        "\\boxed{\\text{Option } (B)}",
        "答案：B",
        "答案是B",
    ] {
        assert_eq!(
            read(answer),
            Reading::Letters(vec!['B'], Rule::Marker),
            "{answer:?}"
        );
    }
}

#[test]
fn labels_with_explanations() {
    for answer in [
        "Option B: the pieces form a flag with a notch on the right.",
        "B) the flag",
        "B. The flag-shaped silhouette.",
        "B: flag",
        "B - the flag",
        "(B) The flag",
        "Option B is correct.",
        "B is the correct answer.",
        "B\n\nThe notch on the right edge matches the coordinates (3, 1).",
    ] {
        assert_eq!(one(answer), Some('B'), "{answer:?}");
    }
}

#[test]
fn a_final_line_after_reasoning() {
    let reasoning = "The two large triangles T1 and T2 share the diagonal from (0, 0) to (2, 2).\n\
                     Option A has a notch on the left, option C is a diamond and option D is \
                     taller than 4.\nA square outline would need S2 at the lower right corner.\n";
    for last in [
        "B",
        "**B**",
        "Option B",
        "So the silhouette is B.",
        "Therefore: B",
        "This matches silhouette B.",
        "The pieces form → B",
    ] {
        let answer = format!("{reasoning}\n{last}\n");
        assert_eq!(one(&answer), Some('B'), "{last:?}");
    }
    // Reasoning that mentions options but never chooses one.
    assert_eq!(read(reasoning), Reading::Nothing);
}

#[test]
fn a_final_answer_line_beats_letters_in_the_reasoning() {
    let answer = "Option A has a notch. Option C is mirrored. If D were right, the \
                  parallelogram would stick out.\n\nAnswer: B";
    assert_eq!(read(answer), Reading::Letters(vec!['B'], Rule::Marker));
    let answer = "A) square\nB) flag\nC) chair\nD) mirrored flag\n\nThe answer is B.";
    assert_eq!(read(answer), Reading::Letters(vec!['B'], Rule::Marker));
}

#[test]
fn english_one_letter_words_are_words() {
    for answer in [
        "A careful look at the coordinates shows that the seven pieces form a square.",
        "I think the pieces form a square with a bump.",
        "The answer is a flag-like shape with a notch.",
        "To answer a question like this, I compare the outlines.",
        "The answer, I think, needs the image.",
        "I'd need a clearer picture.",
        "",
        "   \n\n",
        "The pieces form one connected silhouette.",
        "Looking at the TCE: pieces S1, S2 and M are small or medium triangles.",
    ] {
        assert_eq!(read(answer), Reading::Nothing, "{answer:?}");
    }
    // An article right after a marker is still a word; an enclosed or final one is a letter.
    assert_eq!(one("The answer is a."), Some('A'));
    assert_eq!(one("The answer is (a) the square."), Some('A'));
    assert_eq!(
        one("The answer is A because the outline is a square."),
        Some('A')
    );
    assert_eq!(one("A"), Some('A'));
    assert_eq!(one("A."), Some('A'));
    assert_eq!(one("A: the square"), Some('A'));
}

#[test]
fn several_letters_are_ambiguous() {
    for (answer, letters) in [
        (
            "The answer is A. No, wait: the answer is C.",
            vec!['A', 'C'],
        ),
        ("Answer: B or C", vec!['B', 'C']),
        ("Answer: B/C", vec!['B', 'C']),
        ("\\boxed{A} or maybe \\boxed{D}", vec!['A', 'D']),
        ("I choose A. The correct option is D.", vec!['A', 'D']),
    ] {
        assert_eq!(
            read(answer),
            Reading::Letters(letters, Rule::Marker),
            "{answer:?}"
        );
    }
    assert_eq!(
        read("A\n\nOn second thought the bump is on the right.\n\nC"),
        Reading::Letters(vec!['A', 'C'], Rule::Line)
    );
    // The same letter twice is one choice.
    assert_eq!(
        read("Answer: B\n\nThe answer is B because the notch is on the right."),
        Reading::Letters(vec!['B'], Rule::Marker)
    );
}

#[test]
fn letters_outside_the_options() {
    assert_eq!(read("Answer: E"), Reading::Letters(vec!['E'], Rule::Marker));
    assert_eq!(read("E"), Reading::Letters(vec!['E'], Rule::Line));
    // On answer lines, a letter that is no option yields to one that is.
    assert_eq!(
        read("I. Reading the pieces\nThe square lies at (2, 2).\nB"),
        Reading::Letters(vec!['B'], Rule::Line)
    );
    assert_eq!(
        read("C\nM: (4, 4), (2, 4), (4, 2)"),
        Reading::Letters(vec!['C'], Rule::Line)
    );
}

#[test]
fn letters_inside_words_are_not_letters() {
    for answer in [
        "S1",
        "The answer is S2.",
        "Answer: T1 and T2 share an edge",
        "B2",
        "The answers are in the image.",
        "Options A-D are shown.",
    ] {
        assert_eq!(read(answer), Reading::Nothing, "{answer:?}");
    }
}

#[test]
fn verdicts() {
    let item = item("C");
    let v = grade(&item, "The answer is (C).");
    assert!(v.is_pass());
    assert_eq!(v.score(), 1.0);
    assert_eq!(
        details(&v),
        json!({"option": "C", "valid": true, "invalid": false, "correct": true})
    );
    assert_eq!(
        v.message(),
        Some("option C (by an answer marker): the silhouette the pieces form")
    );

    let v = grade(&item, "B");
    assert!(!v.is_pass());
    assert_eq!(v.score(), 0.0);
    assert_eq!(
        details(&v),
        json!({"option": "B", "valid": true, "invalid": false, "correct": false})
    );
    assert_eq!(
        v.message(),
        Some("option B (by the answer line), but the pieces form option C")
    );

    let v = grade(&item, "Answer: E");
    assert!(!v.is_pass());
    assert_eq!(
        details(&v),
        json!({"option": "E", "valid": false, "invalid": true, "correct": false})
    );
    assert_eq!(
        v.message(),
        Some("invalid: option E (by an answer marker) is not one of A, B, C, D")
    );

    let v = grade(&item, "The answer is C. Actually, the answer is A.");
    assert!(!v.is_pass());
    assert_eq!(
        details(&v),
        json!({"option": null, "valid": false, "invalid": true, "correct": false})
    );
    assert_eq!(
        v.message(),
        Some("invalid: an answer marker asserts several options: A, C")
    );

    let v = grade(&item, "The pieces form a square.");
    assert_eq!(
        details(&v),
        json!({"option": null, "valid": false, "invalid": true, "correct": false})
    );
    assert!(
        v.message()
            .unwrap()
            .starts_with("invalid: no option letter found")
    );
}

#[test]
fn instances_are_checked() {
    let bad = |options: &[&str], answer: &str| {
        let instance = Instance {
            options: options.iter().map(|s| s.to_string()).collect(),
            answer: answer.to_owned(),
        };
        Item::from_instance(&instance).err().unwrap().to_string()
    };
    assert_eq!(
        bad(&["A", "B"], "C"),
        "instance.json: the answer C is not an option"
    );
    assert_eq!(bad(&["A", "A"], "A"), "instance.json: option A twice");
    assert_eq!(
        bad(&["a", "B"], "B"),
        "instance.json: option \"a\" is not one upper-case letter"
    );
    assert_eq!(bad(&[], "A"), "instance.json: no options");
}
