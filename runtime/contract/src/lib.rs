//! The guest contract of verigate, defined once for the host and the guests.
//!
//! A verifier is a WASI preview 1 command module. It reads the payload on
//! stdin, finds its item's files under [`ITEM_DIR`] (read-only), an item
//! family's row in the environment variable [`ROW_ENV`], and prints its
//! verdict on stdout under a [`Protocol`]. The host judges that output with
//! [`judge`], whose rules ([`lines`]) are Python's, since the benchmarks'
//! original graders are Python scripts. Every run ends in one [`Outcome`].
//!
//! ```
//! use verigate_contract::{judge, Outcome, Protocol};
//!
//! let verdict = judge(Protocol::Combench, "debug output\nTrue\n");
//! assert_eq!(verdict.outcome, Outcome::Fail);
//! let verdict = judge(Protocol::VerdictJson, r#"{"pass": true, "score": 1}"#);
//! assert_eq!(verdict.outcome, Outcome::Pass);
//! ```

#![deny(missing_docs)]

pub mod lines;
mod outcome;
mod protocol;
mod verdict;

pub use lines::{is_line_break, is_py_space, py_splitlines, py_strip};
pub use outcome::Outcome;
pub use protocol::Protocol;
pub use verdict::{Judgement, MAX_MESSAGE_CHARS, judge, truncate_chars};

/// Where the item directory is mounted in the guest (read-only).
pub const ITEM_DIR: &str = "/item";

/// The environment variable holding an item family's row, as one JSON line.
pub const ROW_ENV: &str = "VERIGATE_ROW";

/// The environment variable holding the script an interpreter module runs
/// (its source text): how a Python verifier reaches verigate's shared
/// Python interpreter.
pub const SCRIPT_ENV: &str = "VERIGATE_SCRIPT";

/// The custom section in which a module declares its [`Protocol`].
pub const PROTOCOL_SECTION: &str = "verigate.protocol";

/// The only import module a verifier may use.
pub const WASI_MODULE: &str = "wasi_snapshot_preview1";
