//! Rows of item families: the runtime passes the item's row (one JSON object
//! from the family's `rows.jsonl`) in the environment variable
//! [`ROW_ENV`].

use crate::{Error, ROW_ENV, Result, from_json};
use serde::de::DeserializeOwned;

/// The item's row (`$VERIGATE_ROW`) parsed into `T`; errors say whether the
/// variable is absent (the item is not part of a family) or malformed.
pub fn row<T: DeserializeOwned>() -> Result<T> {
    match std::env::var(ROW_ENV) {
        Ok(text) => from_json(&format!("${ROW_ENV}"), &text),
        Err(std::env::VarError::NotPresent) => Err(Error::msg(format!(
            "${ROW_ENV} is not set: this verifier needs an item from a family (rows.jsonl)"
        ))),
        Err(std::env::VarError::NotUnicode(_)) => {
            Err(Error::msg(format!("${ROW_ENV} is not valid UTF-8")))
        }
    }
}
