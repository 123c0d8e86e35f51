//! `verigate new`: a verifier of one's own, outside the workspace — a Rust
//! guest crate, or with `--python` a Python script — with its registry item,
//! instance directory, witnesses, example responses and a README naming the
//! commands that come next.
//!
//! The crate depends on the SDK by an absolute `path` (by default the `sdk/`
//! of the checkout `verigate new` runs in, like `registry build`): a git
//! dependency would need the network and a pushed commit, a relative path
//! breaks when either side moves. Its `Cargo.lock` starts as a copy of the
//! checkout's, so the SDK's dependencies resolve to the versions the checkout
//! pins, which an offline build finds in cargo's cache (cargo trims the
//! copy to the crate's own dependencies on the first build).

use anyhow::{Context, bail};
use clap::Args;
use clap::builder::TypedValueParser;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use verigate_registry::maintain::bad_module_name;
use verigate_sandbox::Protocol;

#[derive(Args)]
pub struct NewArgs {
    /// The verifier's name: its module name in the registry, its item's id
    /// prefix and benchmark, and (Rust) its crate's name.
    name: String,
    /// Verdict protocol.
    #[arg(long, default_value = "verdict-json",
        value_parser = clap::builder::PossibleValuesParser::new(Protocol::NAMES)
            .try_map(|name| name.parse::<Protocol>()))]
    protocol: Protocol,
    /// A Python script (`verifier.py`) instead of a Rust crate.
    #[arg(long)]
    python: bool,
    /// The directory to create (absent or empty) [default: ./NAME].
    #[arg(long)]
    dir: Option<PathBuf>,
    /// The `verigate-sdk` crate to depend on [default: sdk/ in the current
    /// directory, a verigate checkout].
    #[arg(long, value_name = "DIR", conflicts_with = "python")]
    sdk: Option<PathBuf>,
}

/// Files to write: path relative to the new directory, and text.
type Files = Vec<(&'static str, String)>;

/// The example item's witnesses (its `instance.json` has `n` = 10).
const REFERENCE: &str = "[1, 2, 3, 4]";
const COUNTEREXAMPLE: &str = "[5, 5]";

/// `template` with each `{{key}}` replaced by its value.
fn fill(template: &str, values: &[(&str, &str)]) -> String {
    values
        .iter()
        .fold(template.to_owned(), |text, (key, value)| {
            text.replace(&format!("{{{{{key}}}}}"), value)
        })
}

/// `text` as a TOML string literal.
fn toml_string(text: &str) -> String {
    toml::Value::String(text.to_owned()).to_string()
}

/// `path` as one shell word.
fn shell_word(path: &Path) -> String {
    let text = path.display().to_string();
    if (text.chars()).all(|c| c.is_ascii_alphanumeric() || "/._-+:@%,=".contains(c)) {
        text
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// The `verigate-sdk` crate at `given` (else `./sdk`), as an absolute path.
fn sdk_dir(given: Option<&Path>) -> anyhow::Result<PathBuf> {
    let dir = given.unwrap_or(Path::new("sdk"));
    let manifest = dir.join("Cargo.toml");
    let hint = "run `verigate new` from a verigate checkout, or pass --sdk DIR";
    let table: toml::Table = std::fs::read_to_string(&manifest)
        .with_context(|| format!("cannot read {}: {hint}", manifest.display()))?
        .parse()
        .with_context(|| format!("{}", manifest.display()))?;
    let name = table.get("package").and_then(|p| p.get("name"));
    if name.and_then(toml::Value::as_str) != Some("verigate-sdk") {
        bail!(
            "{} is not the verigate-sdk crate: {hint}",
            manifest.display()
        );
    }
    std::fs::canonicalize(dir).with_context(|| format!("{}", dir.display()))
}

/// The commands that take a new verifier in `dir` from source to a report,
/// run from the checkout.
fn next_steps(dir: &Path, name: &str, python: bool, protocol: Protocol) -> String {
    let d = shell_word(dir);
    let (prepare, module, flag) = if python {
        // The script runs as it is, on the registry's Python interpreter.
        (
            None,
            format!("{d}/verifier.py"),
            format!(" --protocol {protocol}"),
        )
    } else {
        let build = format!("wasm=$(verigate build {d})");
        (Some(build), "\"$wasm\"".to_owned(), String::new())
    };
    let run = |payload: &str| {
        format!("verigate run {module}{flag} --item-dir {d}/instance --payload {d}/{payload}")
    };
    let source = &module;
    (prepare.into_iter())
        .chain([
            run("reference.txt"),
            run("counterexample.txt"),
            format!(
                "verigate registry add --module {source} --name {name} --item {d}/item.toml \
             --instance {d}/instance"
            ),
            format!("verigate grade --responses {d}/responses.jsonl --out {d}/results.jsonl"),
            format!("verigate report {d}/results.jsonl"),
        ])
        .collect::<Vec<_>>()
        .join("\n")
}

/// The Rust crate's files: manifest, source, and the lock of the SDK's
/// checkout where it has one.
fn crate_files(name: &str, protocol: Protocol, sdk: &Path) -> anyhow::Result<Files> {
    let sdk_text =
        (sdk.to_str()).with_context(|| format!("the SDK's path {} is not UTF-8", sdk.display()))?;
    let manifest = fill(
        include_str!("new/Cargo.toml.in"),
        &[
            ("name", name),
            ("crate", &name.replace('.', "_")),
            ("sdk", &toml_string(sdk_text)),
        ],
    );
    let main = fill(
        include_str!("new/main.rs.in"),
        &[
            ("name", name),
            ("protocol", protocol.as_str()),
            ("macro", &protocol.as_str().replace('-', "_")),
        ],
    );
    let mut files = vec![
        ("Cargo.toml", manifest),
        ("src/main.rs", main),
        (".gitignore", "/target\n".to_owned()),
    ];
    let lock = sdk.parent().map(|checkout| checkout.join("Cargo.lock"));
    match lock.and_then(|lock| std::fs::read_to_string(lock).ok()) {
        Some(text) => files.push(("Cargo.lock", text)),
        None => {
            eprintln!("no Cargo.lock beside the SDK: the first build resolves its dependencies")
        }
    }
    Ok(files)
}

/// The files beside every verifier: its item, instance, witnesses and responses.
fn item_files(name: &str, protocol: Protocol) -> Files {
    let item = fill(
        include_str!("new/item.toml.in"),
        &[
            ("name", name),
            ("protocol", protocol.as_str()),
            ("reference", &toml_string(REFERENCE)),
            ("counterexample", &toml_string(COUNTEREXAMPLE)),
        ],
    );
    let responses = [REFERENCE, COUNTEREXAMPLE]
        .iter()
        .enumerate()
        .map(|(sample, response)| {
            let id = format!("{name}/example");
            let line = serde_json::json!({ "id": id, "sample": sample, "response": response });
            format!("{line}\n")
        })
        .collect();
    vec![
        ("item.toml", item),
        ("instance/instance.json", "{\"n\": 10}\n".to_owned()),
        ("reference.txt", format!("{REFERENCE}\n")),
        ("counterexample.txt", format!("{COUNTEREXAMPLE}\n")),
        ("responses.jsonl", responses),
    ]
}

pub fn run(args: &NewArgs) -> anyhow::Result<ExitCode> {
    let (name, protocol) = (args.name.as_str(), args.protocol);
    if let Some(why) = bad_module_name(name) {
        bail!("{why}");
    }
    if !args.python && !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        bail!("`{name}` would name the crate, which must start with a letter (or use --python)");
    }
    let dir = args.dir.clone().unwrap_or_else(|| PathBuf::from(name));
    if dir.exists()
        && std::fs::read_dir(&dir)
            .with_context(|| format!("{}", dir.display()))?
            .next()
            .is_some()
    {
        bail!("{} already exists and is not empty", dir.display());
    }
    let (kind, listing, mut files) = if args.python {
        let script = fill(
            include_str!("new/verifier.py.in"),
            &[("name", name), ("protocol", protocol.as_str())],
        );
        let listing = "| `verifier.py` | the verifier |";
        ("Python", listing, vec![("verifier.py", script)])
    } else {
        let sdk = sdk_dir(args.sdk.as_deref())?;
        let listing = "| `src/main.rs`, `Cargo.toml` | the verifier, a crate of its own |";
        ("Rust", listing, crate_files(name, protocol, &sdk)?)
    };
    files.extend(item_files(name, protocol));
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let dir = std::fs::canonicalize(&dir).with_context(|| format!("{}", dir.display()))?;
    let checkout = std::fs::canonicalize(".").context("the current directory")?;
    let steps = next_steps(&dir, name, args.python, protocol);
    let readme = fill(
        include_str!("new/README.md.in"),
        &[
            ("name", name),
            ("kind", kind),
            ("protocol", protocol.as_str()),
            ("files", listing),
            ("checkout", &checkout.display().to_string()),
            ("steps", &steps),
        ],
    );
    files.push(("README.md", readme));
    for (relative, text) in &files {
        let path = dir.join(relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    eprintln!(
        "created {} ({kind} verifier `{name}`, protocol {protocol}, item {name}/example); next, \
         from this checkout (also in its README.md):\n\n{steps}\n",
        dir.display()
    );
    Ok(ExitCode::SUCCESS)
}
