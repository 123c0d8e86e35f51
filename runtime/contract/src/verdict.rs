//! Judging a verifier's stdout under its protocol (the host side of the
//! verdict lines the SDK prints).

use crate::lines::verdict_lines;
use crate::{Outcome, Protocol};

/// What a protocol concluded from the output of a guest that exited normally.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    /// `pass`, `fail` or `protocol_error`.
    pub outcome: Outcome,
    /// Score in [0, 1].
    pub score: f64,
    /// The verifier's message, or why its output was rejected.
    pub message: String,
    /// Structured details (verdict-json only).
    pub details: Option<serde_json::Value>,
}

impl Judgement {
    fn new(outcome: Outcome, score: f64, message: String) -> Self {
        Judgement {
            outcome,
            score,
            message,
            details: None,
        }
    }
}

/// Longest message kept from a guest's output.
pub const MAX_MESSAGE_CHARS: usize = 1000;

/// Judges, under `protocol`, the stdout of a guest that exited normally.
pub fn judge(protocol: Protocol, stdout: &str) -> Judgement {
    match protocol {
        Protocol::Combench => judge_combench(stdout),
        Protocol::VerdictJson => judge_verdict_json(stdout),
    }
}

fn judge_combench(stdout: &str) -> Judgement {
    let lines = verdict_lines(stdout);
    if lines == ["True"] {
        return Judgement::new(Outcome::Pass, 1.0, String::new());
    }
    let message = if lines.is_empty() {
        "verifier printed nothing (expected the single line `True`)".to_owned()
    } else {
        truncate_chars(&lines.join(" | "), MAX_MESSAGE_CHARS)
    };
    Judgement::new(Outcome::Fail, 0.0, message)
}

fn judge_verdict_json(stdout: &str) -> Judgement {
    let protocol_error = |why: String| Judgement::new(Outcome::ProtocolError, 0.0, why);
    let Some(last) = verdict_lines(stdout).pop() else {
        return protocol_error("verdict-json: verifier printed nothing".to_owned());
    };
    let value: serde_json::Value = match serde_json::from_str(last) {
        Ok(value) => value,
        Err(err) => {
            return protocol_error(format!(
                "verdict-json: last stdout line is not JSON ({err}): {}",
                truncate_chars(last, 200)
            ));
        }
    };
    let serde_json::Value::Object(mut fields) = value else {
        return protocol_error("verdict-json: last stdout line is not a JSON object".to_owned());
    };
    let Some(passed) = fields.get("pass").and_then(serde_json::Value::as_bool) else {
        return protocol_error("verdict-json: field `pass` is missing or not a boolean".to_owned());
    };
    let score = match fields.get("score").and_then(serde_json::Value::as_f64) {
        Some(score) if (0.0..=1.0).contains(&score) => score,
        Some(score) => {
            return protocol_error(format!("verdict-json: `score` {score} is outside [0, 1]"));
        }
        None => {
            return protocol_error(
                "verdict-json: field `score` is missing or not a number".to_owned(),
            );
        }
    };
    let message = match fields.get("message") {
        None | Some(serde_json::Value::Null) => String::new(),
        Some(serde_json::Value::String(message)) => truncate_chars(message, MAX_MESSAGE_CHARS),
        Some(_) => {
            return protocol_error("verdict-json: field `message` is not a string".to_owned());
        }
    };
    let outcome = if passed { Outcome::Pass } else { Outcome::Fail };
    Judgement {
        outcome,
        score,
        message,
        details: fields.remove("details"),
    }
}

/// `s` cut to at most `max` characters, with an ellipsis when cut.
pub fn truncate_chars(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        None => s.to_owned(),
        Some((cut, _)) => format!("{}…", &s[..cut]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combench_accepts_true_with_surrounding_whitespace_and_blank_lines() {
        for out in ["True", "True\n", "\n  True  \r\n\n", "\x0cTrue\x1c"] {
            assert_eq!(
                judge(Protocol::Combench, out).outcome,
                Outcome::Pass,
                "{out:?}"
            );
        }
    }

    #[test]
    fn combench_rejects_debug_lines_and_near_misses() {
        for out in [
            "debug\nTrue",
            "True\nTrue",
            "true",
            "True.",
            "",
            "\n \n",
            "TrueFalse",
        ] {
            let judgement = judge(Protocol::Combench, out);
            assert_eq!(judgement.outcome, Outcome::Fail, "{out:?}");
            assert_eq!(judgement.score, 0.0);
        }
        let judgement = judge(
            Protocol::Combench,
            "A_lines has 3 elements, expected 1056\n",
        );
        assert_eq!(judgement.message, "A_lines has 3 elements, expected 1056");
    }

    #[test]
    fn verdict_json_reads_the_last_line() {
        let out = "progress...\n{\"pass\": false, \"score\": 0.25, \"message\": \"step 3\", \"details\": {\"k\": 1}}\n";
        let judgement = judge(Protocol::VerdictJson, out);
        assert_eq!(judgement.outcome, Outcome::Fail);
        assert_eq!(judgement.score, 0.25);
        assert_eq!(judgement.message, "step 3");
        assert_eq!(judgement.details, Some(serde_json::json!({"k": 1})));
        let pass = judge(Protocol::VerdictJson, "{\"pass\":true,\"score\":1}");
        assert_eq!((pass.outcome, pass.score), (Outcome::Pass, 1.0));
    }

    #[test]
    fn verdict_json_rejects_malformed_verdicts() {
        for out in [
            "",
            "True",
            "[1]",
            "{\"score\": 1}",
            "{\"pass\": \"yes\", \"score\": 1}",
            "{\"pass\": true}",
            "{\"pass\": true, \"score\": 1.5}",
            "{\"pass\": true, \"score\": -0.1}",
            "{\"pass\": true, \"score\": 1, \"message\": 3}",
        ] {
            assert_eq!(
                judge(Protocol::VerdictJson, out).outcome,
                Outcome::ProtocolError,
                "{out:?}"
            );
        }
    }

    #[test]
    fn truncation_respects_char_boundaries() {
        assert_eq!(truncate_chars("ééé", 2), "éé…");
        assert_eq!(truncate_chars("ab", 2), "ab");
    }
}
