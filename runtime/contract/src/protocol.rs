//! The two verdict protocols.

use std::fmt;

/// How a verifier reports its verdict on stdout; the host judges its output
/// by the same rule ([`crate::judge`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Protocol {
    /// ComBench's released-evaluator rule: stdout, each line stripped and blank
    /// lines dropped, must be exactly the single line `True`.
    #[serde(rename = "combench")]
    Combench,
    /// The last stdout line is a JSON object with `pass` (bool), `score`
    /// (number in [0, 1]) and optional `message` (string) and `details`.
    #[serde(rename = "verdict-json")]
    VerdictJson,
}

impl Protocol {
    /// Every protocol's name, in declaration order.
    pub const NAMES: [&'static str; 2] = ["combench", "verdict-json"];

    /// The name used in the `verigate.protocol` custom section, flags and reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Protocol::Combench => "combench",
            Protocol::VerdictJson => "verdict-json",
        }
    }
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Protocol {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "combench" => Ok(Protocol::Combench),
            "verdict-json" => Ok(Protocol::VerdictJson),
            other => Err(format!(
                "unknown protocol `{other}` (expected `combench` or `verdict-json`)"
            )),
        }
    }
}
