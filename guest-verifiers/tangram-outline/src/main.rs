//! `tangram-outline` (verdict-json): TangramPuzzle Task 1, Outline
//! Prediction (the paper's Sec. 3.1 and App. B.1).
//!
//! The model is given the TCE of seven placed pieces and an image of four
//! candidate silhouettes labelled A–D, and picks the silhouette the pieces
//! form. The item's `instance.json` names the option letters (`options`)
//! and the true one (`answer`); the payload is the model's answer, raw text.
//!
//! The paper's metrics (App. B.1): **Accuracy** = I(â = a), the predicted
//! option equals the truth; **Invalid** = I(â ∉ 𝒜), the output "does not
//! yield any valid option that can be mapped to the candidate set"
//! ("formatting errors or … content unrelated to the candidate options").
//! The verdict passes iff the answer maps to the true option (score 1, else
//! 0), with `details` = `{"option": letter or null, "valid": bool,
//! "invalid": bool, "correct": bool}`; the means of `correct` and `invalid`
//! are the table's Acc and Invalid.
//!
//! # Which letter an answer chooses
//!
//! The paper defines Invalid but does not publish its parser, so the rule is
//! ours (see [`extract`] for it in full, and `tests.rs` for the answers it
//! was written against). What the paper implies: an answer maps to exactly
//! one option of the candidate set or is invalid, and formatting noise must
//! not change the choice. What we chose:
//!
//! 1. **Explicit answer markers first, anywhere in the text**: `\boxed{B}`,
//!    `answer` / `final answer` / `correct option` / `my choice` / … with an
//!    optional link (`:`, `is`, `would be`, …), `I choose B`. An answer that
//!    states its choice says so; a letter in the reasoning ("option A has a
//!    notch") is not a choice.
//! 2. **Otherwise the answer line**: the first and the last non-blank line,
//!    each read as a whole (`B`, `**B**`, `(B)`, `Option B: …`, `B) the
//!    flag`, `C is correct`); the last line also when it ends in the letter
//!    after `is`, a colon, an arrow or an option word (`…so the silhouette
//!    is C.`). Letter-first answers and a conclusion after reasoning are the
//!    two places models put a bare choice.
//! 3. **Several different letters asserted** (two markers naming different
//!    options, `A or B`, a first line `A` and a last line `C`) → invalid: no
//!    single option can be mapped. The same letter asserted twice is fine.
//! 4. **A letter outside the candidate set** (`Answer: E`) → invalid, and
//!    reported as `option: "E"`. **No letter** → invalid, `option: null`.
//!
//! Case does not matter (`Answer: b`), but a letter must stand alone, and
//! the English one-letter words are read as words where they are used as
//! words: `a` and `I` followed by another word (`the answer is a square`,
//! `A careful look…` on a line of its own is no label either, since a label
//! needs a delimiter or must stand alone).

mod extract;

use serde::Deserialize;
use verigate_sdk::serde_json::json;
use verigate_sdk::{Error, Result, Verdict};

use extract::Reading;

/// The part of the item's `instance.json` the verdict needs (the pieces and
/// the candidate outlines are there too, for people and tools).
#[derive(Deserialize)]
struct Instance {
    options: Vec<String>,
    answer: String,
}

/// The option letters and the true one.
struct Item {
    options: Vec<char>,
    answer: char,
}

/// One upper-case ASCII letter.
fn letter(s: &str, what: &str) -> Result<char> {
    let mut chars = s.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_uppercase() => Ok(c),
        _ => Err(Error::msg(format!(
            "instance.json: {what} {s:?} is not one upper-case letter"
        ))),
    }
}

impl Item {
    fn from_instance(instance: &Instance) -> Result<Item> {
        let options = instance
            .options
            .iter()
            .map(|o| letter(o, "option"))
            .collect::<Result<Vec<char>>>()?;
        if options.is_empty() {
            return Err(Error::msg("instance.json: no options"));
        }
        for (i, o) in options.iter().enumerate() {
            if options[..i].contains(o) {
                return Err(Error::msg(format!("instance.json: option {o} twice")));
            }
        }
        let answer = letter(&instance.answer, "answer")?;
        if !options.contains(&answer) {
            return Err(Error::msg(format!(
                "instance.json: the answer {answer} is not an option"
            )));
        }
        Ok(Item { options, answer })
    }

    fn listed(&self) -> String {
        let names: Vec<String> = self.options.iter().map(char::to_string).collect();
        names.join(", ")
    }
}

fn grade(item: &Item, answer: &str) -> Verdict {
    let reading = extract::read(answer, &item.options);
    let (option, message) = match &reading {
        Reading::Nothing => (
            None,
            "invalid: no option letter found (no answer marker, no letter on the first or \
             last line)"
                .to_owned(),
        ),
        Reading::Letters(letters, rule) if letters.len() > 1 => {
            let names: Vec<String> = letters.iter().map(char::to_string).collect();
            (
                None,
                format!(
                    "invalid: {} asserts several options: {}",
                    rule.describe(),
                    names.join(", ")
                ),
            )
        }
        Reading::Letters(letters, rule) => {
            let chosen = letters[0];
            let message = if !item.options.contains(&chosen) {
                format!(
                    "invalid: option {chosen} (by {}) is not one of {}",
                    rule.describe(),
                    item.listed()
                )
            } else if chosen == item.answer {
                format!(
                    "option {chosen} (by {}): the silhouette the pieces form",
                    rule.describe()
                )
            } else {
                format!(
                    "option {chosen} (by {}), but the pieces form option {}",
                    rule.describe(),
                    item.answer
                )
            };
            (Some(chosen), message)
        }
    };
    let valid = option.is_some_and(|o| item.options.contains(&o));
    let correct = option == Some(item.answer);
    let verdict = if correct {
        Verdict::pass().with_message(message)
    } else {
        Verdict::fail(message)
    };
    verdict.with_details(json!({
        "option": option.map(|o| o.to_string()),
        "valid": valid,
        "invalid": !valid,
        "correct": correct,
    }))
}

fn verify() -> Result<Verdict> {
    let instance: Instance = verigate_sdk::instance()?;
    let item = Item::from_instance(&instance)?;
    let payload = verigate_sdk::payload_bytes()?;
    Ok(grade(&item, &String::from_utf8_lossy(payload)))
}

verigate_sdk::main!(verdict_json, verify);

#[cfg(test)]
mod tests;
