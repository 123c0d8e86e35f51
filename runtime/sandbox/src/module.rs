//! Loading a verifier module: validation, compilation (through the cache) and
//! pre-instantiation.

use crate::cache::CacheStatus;
use crate::error::ModuleError;
use crate::store::HostState;
use sha2::{Digest, Sha256};
use std::sync::Arc;
use std::time::Duration;
use verigate_contract::{PROTOCOL_SECTION, Protocol, WASI_MODULE};
use wasmtime::{ExternType, InstancePre, Module};

/// A compiled, validated, pre-linked verifier, ready to instantiate: a
/// module, and for an interpreter module the script it runs.
#[derive(Clone)]
pub struct Verifier {
    /// sha256 of the module bytes, lowercase hex.
    pub sha256: String,
    /// The protocol the module declares in its `verigate.protocol` section.
    pub declared_protocol: Option<Protocol>,
    /// Where the compiled code came from.
    pub cache: CacheStatus,
    /// Time spent compiling or reading the compiled form.
    pub load_time: Duration,
    /// The script the module runs, for an interpreter module given one
    /// ([`with_script`](Self::with_script)).
    pub script: Option<Script>,
    pub(crate) pre: InstancePre<HostState>,
}

/// A script an interpreter module runs: a Python verifier's source, handed
/// to the guest in [`verigate_contract::SCRIPT_ENV`].
#[derive(Clone, Debug)]
pub struct Script {
    /// sha256 of the source text, lowercase hex.
    pub sha256: String,
    pub(crate) source: Arc<str>,
}

impl Verifier {
    /// This verifier running `source`: the same compiled module (nothing is
    /// compiled), the script handed over at each run. Refused when the
    /// source holds a NUL character, which no environment variable can carry
    /// (and no Python source may hold): the refusal names this module.
    pub fn with_script(&self, source: &str) -> Result<Verifier, ModuleError> {
        if let Some(at) = source.find('\0') {
            return Err(ModuleError {
                sha256: self.sha256.clone(),
                reason: format!("the script holds a NUL character (byte {at}): not a source file"),
            });
        }
        Ok(Verifier {
            script: Some(Script {
                sha256: sha256_hex(source.as_bytes()),
                source: source.into(),
            }),
            ..self.clone()
        })
    }
}

/// Reads a module file: binary WebAssembly, or the text format when the
/// name ends in `.wat`. The error names the file.
pub fn read_module_file(path: &std::path::Path) -> Result<Vec<u8>, String> {
    let source =
        std::fs::read(path).map_err(|e| format!("cannot read module {}: {e}", path.display()))?;
    if path.extension().is_some_and(|ext| ext == "wat") {
        wat::parse_bytes(&source)
            .map(std::borrow::Cow::into_owned)
            .map_err(|e| format!("cannot parse module text {}: {e}", path.display()))
    } else {
        Ok(source)
    }
}

/// Lowercase hex sha256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// Checks that `module` is a WASI command that imports only WASI preview 1
/// functions; the error names the offending import or export.
pub fn check_shape(module: &Module) -> Result<(), String> {
    for import in module.imports() {
        let (from, name) = (import.module(), import.name());
        if from != WASI_MODULE {
            return Err(format!(
                "import `{from}::{name}` is not allowed: a verifier may import only `{WASI_MODULE}` functions"
            ));
        }
        if !matches!(import.ty(), ExternType::Func(_)) {
            return Err(format!("import `{from}::{name}` is not a function"));
        }
    }
    if !matches!(module.get_export("_start"), Some(ExternType::Func(_))) {
        return Err(
            "module exports no `_start` function: a verifier must be a WASI command".into(),
        );
    }
    if !matches!(module.get_export("memory"), Some(ExternType::Memory(_))) {
        return Err("module exports no `memory`".into());
    }
    Ok(())
}

/// The protocol declared in the module's `verigate.protocol` custom section.
pub fn declared_protocol(wasm: &[u8]) -> Result<Option<Protocol>, String> {
    let mut found = None;
    for payload in wasmparser::Parser::new(0).parse_all(wasm) {
        let payload = payload.map_err(|e| format!("invalid module: {e}"))?;
        if let wasmparser::Payload::CustomSection(section) = payload
            && section.name() == PROTOCOL_SECTION
        {
            if found.is_some() {
                return Err(format!("custom section `{PROTOCOL_SECTION}` appears twice"));
            }
            let text = std::str::from_utf8(section.data())
                .map_err(|_| format!("custom section `{PROTOCOL_SECTION}` is not UTF-8"))?;
            found = Some(
                text.trim()
                    .parse::<Protocol>()
                    .map_err(|e| format!("custom section `{PROTOCOL_SECTION}`: {e}"))?,
            );
        }
    }
    Ok(found)
}
