//! The outcome ladder: what was observed of a run becomes exactly one
//! outcome, checked in the documented order. A pure function, so each rung
//! is tested on its own.

use crate::limits::Limits;
use verigate_contract::{Outcome, Protocol, judge, truncate_chars};

/// How guest execution ended, before classification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ended {
    /// `_start` returned (status 0) or the guest called `proc_exit(status)`.
    Exit(i32),
    /// The fuel budget ran out.
    OutOfFuel,
    /// The wall-clock deadline passed (epoch interruption).
    Deadline,
    /// Any other trap, with its description.
    Trap(String),
}

/// What was observed of one run.
#[derive(Clone, Debug)]
pub struct Observed<'a> {
    /// How execution ended.
    pub ended: Ended,
    /// The stream (`stdout` or `stderr`) that went past the output cap.
    pub overflow: Option<&'static str>,
    /// The first memory size denied by the memory cap, in bytes.
    pub denied_memory: Option<usize>,
    /// Captured stdout (capped).
    pub stdout: &'a str,
    /// Captured stderr (capped).
    pub stderr: &'a str,
    /// The protocol the output is judged by.
    pub protocol: Protocol,
    /// The run's limits (named in messages).
    pub limits: &'a Limits,
}

/// A run's classification.
#[derive(Clone, Debug, PartialEq)]
pub struct Classified {
    /// The one outcome.
    pub outcome: Outcome,
    /// Score in [0, 1]; non-zero only for a judged verdict.
    pub score: f64,
    /// Why the run ended the way it did.
    pub message: String,
    /// A `verdict-json` verdict's details.
    pub details: Option<serde_json::Value>,
}

impl Classified {
    fn new(outcome: Outcome, message: String) -> Self {
        Classified {
            outcome,
            score: 0.0,
            message,
            details: None,
        }
    }
}

/// Lines of stderr kept in a trap or exit message.
const STDERR_TAIL_LINES: usize = 3;

/// Classifies a run: output overflow, then a denied memory growth the guest
/// did not survive, deadline, fuel, non-zero exit, trap, and only then the
/// protocol's judgement of stdout.
pub fn classify(run: &Observed<'_>) -> Classified {
    let limits = run.limits;
    let memory_cap = usize::try_from(limits.memory_bytes).unwrap_or(usize::MAX);
    let output_cap = usize::try_from(limits.max_output_bytes).unwrap_or(usize::MAX);
    match (run.overflow, run.denied_memory, &run.ended) {
        (Some(stream), _, _) => Classified::new(
            Outcome::OutputOverflow,
            format!("{stream} exceeded the {output_cap}-byte output cap"),
        ),
        (None, Some(bytes), ended) if *ended != Ended::Exit(0) => Classified::new(
            Outcome::MemoryExceeded,
            format!("memory growth to {bytes} bytes denied by the {memory_cap}-byte memory cap"),
        ),
        (None, _, Ended::Deadline) => Classified::new(
            Outcome::Timeout,
            format!("wall-clock deadline of {} ms passed", limits.timeout_ms),
        ),
        (None, _, Ended::OutOfFuel) => Classified::new(
            Outcome::FuelExhausted,
            format!("fuel budget of {} exhausted", limits.fuel),
        ),
        (None, _, Ended::Exit(code)) if *code != 0 => Classified::new(
            Outcome::ExitNonzero,
            with_stderr(format!("exited with status {code}"), run.stderr),
        ),
        (None, _, Ended::Trap(trap)) => {
            Classified::new(Outcome::Trap, with_stderr(trap.clone(), run.stderr))
        }
        (None, _, Ended::Exit(_)) => {
            let verdict = judge(run.protocol, run.stdout);
            Classified {
                outcome: verdict.outcome,
                score: verdict.score,
                message: verdict.message,
                details: verdict.details,
            }
        }
    }
}

/// `message`, followed by the last few non-blank lines of stderr (where a
/// panic message lands).
fn with_stderr(message: String, stderr: &str) -> String {
    let lines: Vec<&str> = stderr
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    if lines.is_empty() {
        return message;
    }
    let tail = lines[lines.len().saturating_sub(STDERR_TAIL_LINES)..].join(" | ");
    format!("{message}; stderr: {}", truncate_chars(&tail, 500))
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: Limits = Limits {
        fuel: 1000,
        memory_bytes: 65536,
        timeout_ms: 10,
        max_output_bytes: 4,
        max_payload_bytes: 8,
    };

    fn observed(ended: Ended) -> Observed<'static> {
        Observed {
            ended,
            overflow: None,
            denied_memory: None,
            stdout: "True\n",
            stderr: "",
            protocol: Protocol::Combench,
            limits: &LIMITS,
        }
    }

    fn outcome(run: Observed<'_>) -> Outcome {
        classify(&run).outcome
    }

    #[test]
    fn overflow_outranks_everything() {
        for ended in [
            Ended::Exit(0),
            Ended::Exit(3),
            Ended::OutOfFuel,
            Ended::Deadline,
        ] {
            let run = Observed {
                overflow: Some("stderr"),
                denied_memory: Some(1 << 20),
                ..observed(ended)
            };
            let c = classify(&run);
            assert_eq!(c.outcome, Outcome::OutputOverflow);
            assert_eq!(c.message, "stderr exceeded the 4-byte output cap");
        }
    }

    #[test]
    fn denied_memory_counts_only_when_the_guest_did_not_survive_it() {
        let denied = |ended| Observed {
            denied_memory: Some(131072),
            ..observed(ended)
        };
        let c = classify(&denied(Ended::Trap("unreachable".into())));
        assert_eq!(c.outcome, Outcome::MemoryExceeded);
        assert_eq!(
            c.message,
            "memory growth to 131072 bytes denied by the 65536-byte memory cap"
        );
        assert_eq!(outcome(denied(Ended::Exit(1))), Outcome::MemoryExceeded);
        assert_eq!(outcome(denied(Ended::Exit(0))), Outcome::Pass);
    }

    #[test]
    fn deadline_then_fuel_then_exit_status_then_trap() {
        assert_eq!(outcome(observed(Ended::Deadline)), Outcome::Timeout);
        assert_eq!(outcome(observed(Ended::OutOfFuel)), Outcome::FuelExhausted);
        let exit = classify(&Observed {
            stderr: "a\n\nb\nc\nd\n",
            ..observed(Ended::Exit(2))
        });
        assert_eq!(exit.outcome, Outcome::ExitNonzero);
        assert_eq!(exit.message, "exited with status 2; stderr: b | c | d");
        let trap = classify(&observed(Ended::Trap("wasm trap: unreachable".into())));
        assert_eq!(
            (trap.outcome, trap.message.as_str()),
            (Outcome::Trap, "wasm trap: unreachable")
        );
    }

    #[test]
    fn a_normal_exit_is_judged_by_the_protocol() {
        assert_eq!(outcome(observed(Ended::Exit(0))), Outcome::Pass);
        let fail = Observed {
            stdout: "debug\nTrue",
            ..observed(Ended::Exit(0))
        };
        assert_eq!(outcome(fail), Outcome::Fail);
        let json = Observed {
            stdout: "{\"pass\": false, \"score\": 0.5, \"details\": {\"k\": 1}}",
            protocol: Protocol::VerdictJson,
            ..observed(Ended::Exit(0))
        };
        let c = classify(&json);
        assert_eq!((c.outcome, c.score), (Outcome::Fail, 0.5));
        assert_eq!(c.details, Some(serde_json::json!({"k": 1})));
        let bad = Observed {
            protocol: Protocol::VerdictJson,
            ..observed(Ended::Exit(0))
        };
        assert_eq!(outcome(bad), Outcome::ProtocolError);
    }
}
