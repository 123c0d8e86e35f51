//! The README's "Your first verifier", run as written: its `sh` blocks, from
//! the checkout, with this `verigate` on the PATH and a scratch TMPDIR (so
//! `mktemp -d` lands in it); then `registry add --replace` on the verifier it
//! made, and `new` and `build` refusing what they should.
//!
//! The Rust crate is built offline into `target/wasm-guests/first-verifier`,
//! shared between runs: the SDK and its dependencies compile once (about
//! 25–40 s on 2 cores), later runs rebuild only the scaffolded crate.

use crate::common::{TempDir, repo_root, snapshot, tempdir_with};
use std::path::{Path, PathBuf};
use std::process::Command;
use verigate_registry::Registry;

/// `command` from the checkout, with cargo offline and its target directory
/// shared between runs, and no registry named by the caller's environment.
fn checkout_env(command: &mut Command) -> &mut Command {
    command
        .current_dir(repo_root())
        .env(
            "CARGO_TARGET_DIR",
            repo_root().join("target/wasm-guests/first-verifier"),
        )
        .env("CARGO_NET_OFFLINE", "true")
        .env_remove("VERIGATE_REGISTRY")
}

fn verigate() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_verigate"));
    checkout_env(&mut command);
    command
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The `sh` blocks of the README's "Your first verifier": setup, Rust, Python.
fn walkthrough() -> [String; 3] {
    let readme = std::fs::read_to_string(repo_root().join("README.md")).unwrap();
    let section = (readme.split("\n## Your first verifier\n").nth(1))
        .and_then(|rest| rest.split("\n## ").next())
        .expect("README.md has a section \"Your first verifier\"");
    let blocks: Vec<String> = (section.split("```sh\n").skip(1))
        .map(|block| block.split("```").next().unwrap().to_owned())
        .collect();
    blocks
        .try_into()
        .expect("three sh blocks: setup, Rust, Python")
}

/// What a walkthrough run left: its output and the values of its variables.
struct Walk {
    _scratch: TempDir,
    /// The compiled-module cache of the run.
    cache: PathBuf,
    output: String,
    vars: Vec<(String, String)>,
}

impl Walk {
    fn var(&self, name: &str) -> PathBuf {
        let (_, value) =
            (self.vars.iter().find(|(n, _)| n == name)).unwrap_or_else(|| panic!("no ${name}"));
        PathBuf::from(value)
    }

    /// `verigate` with the run's cache.
    fn verigate(&self) -> Command {
        let mut command = verigate();
        command.env("VERIGATE_CACHE_DIR", &self.cache);
        command
    }
}

/// Runs `blocks` in one `sh -e`, the way a reader pastes them, and reports
/// the variables `vars` it set.
fn walk(blocks: &[&str], vars: &[&str]) -> Walk {
    let scratch = tempdir_with(&[]);
    let (tmp, cache) = (scratch.path().join("tmp"), scratch.path().join("cache"));
    std::fs::create_dir(&tmp).unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_verigate")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let report: String = vars
        .iter()
        .map(|v| format!("echo \"{v}=${v}\"\n"))
        .collect();
    let out = checkout_env(&mut Command::new("sh"))
        .arg("-ec")
        .arg(format!("{}{report}", blocks.concat()))
        .env("PATH", path)
        .env("TMPDIR", &tmp)
        .env("VERIGATE_CACHE_DIR", &cache)
        .output()
        .unwrap();
    let output = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "the walkthrough failed:\n{output}");
    let vars = (text(&out.stdout).lines())
        .filter_map(|line| line.split_once('='))
        .filter(|(name, _)| vars.contains(name))
        .map(|(name, value)| (name.to_owned(), value.to_owned()))
        .collect();
    Walk {
        _scratch: scratch,
        cache,
        output,
        vars,
    }
}

/// The result lines of a walkthrough's `grade`: (outcome, score) per sample.
fn graded(results: &Path) -> Vec<(String, f64)> {
    let text = std::fs::read_to_string(results).unwrap();
    (text.lines())
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            (
                v["outcome"].as_str().unwrap().to_owned(),
                v["score"].as_f64().unwrap(),
            )
        })
        .collect()
}

fn assert_walked(walk: &Walk, dir: &str, name: &str) {
    let out = &walk.output;
    for expected in [
        "\"outcome\":\"pass\"",
        "\"outcome\":\"fail\",\"passed\":false,\"score\":0.0,\"message\":\"5 appears twice\"",
        "rejected (exit 1)",
        &format!("added {name}/example (module {name})"),
        &format!("{name}: 1 item, 2 samples"),
    ] {
        assert!(out.contains(expected), "no {expected:?} in:\n{out}");
    }
    let results = walk.var(dir).join("results.jsonl");
    assert_eq!(
        graded(&results),
        [("pass".to_owned(), 1.0), ("fail".to_owned(), 0.0)]
    );
}

#[test]
fn the_rust_walkthrough_works_and_replace_updates_the_verifier() {
    let [setup, rust, _] = walkthrough();
    let walk = walk(&[&setup, &rust], &["work", "v", "wasm"]);
    assert_walked(&walk, "v", "my-check");

    let (registry, v) = (walk.var("work").join("registry"), walk.var("v"));
    let add = |wasm: &Path, replace: bool| {
        let mut command = walk.verigate();
        command.args(["registry", "add", "--name", "my-check"]);
        for (flag, path) in [
            ("--registry", registry.clone()),
            ("--module", wasm.to_owned()),
            ("--item", v.join("item.toml")),
            ("--instance", v.join("instance")),
        ] {
            command.arg(flag).arg(path);
        }
        command.args(replace.then_some("--replace"));
        command.output().unwrap()
    };
    // Added once, a second add is refused, naming the way out.
    let before = snapshot(&registry);
    let refused = add(&walk.var("wasm"), false);
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        text(&refused.stdout).contains("`--replace`"),
        "{}",
        text(&refused.stdout)
    );
    assert!(
        snapshot(&registry) == before,
        "a refused add changed the registry"
    );

    // Edited and rebuilt, the verifier replaces its old module.
    let source = v.join("src/main.rs");
    let edited = std::fs::read_to_string(&source)
        .unwrap()
        .replace("appears twice", "is repeated");
    std::fs::write(&source, edited).unwrap();
    let built = walk.verigate().arg("build").arg(&v).output().unwrap();
    assert!(built.status.success(), "{}", text(&built.stderr));
    let wasm = PathBuf::from(text(&built.stdout).trim());
    let old = Registry::open(&registry).unwrap().modules()["my-check"]
        .sha256
        .clone();
    let replaced = add(&wasm, true);
    assert!(replaced.status.success(), "{}", text(&replaced.stdout));
    assert!(
        text(&replaced.stdout).starts_with(&format!(
            "replaced my-check/example (module my-check, replacing module {old})"
        )),
        "{}",
        text(&replaced.stdout)
    );
    let opened = Registry::open(&registry).expect("re-locked");
    assert_ne!(opened.modules()["my-check"].sha256, old);
    assert!(!verigate_registry::module_path(&registry, &old).exists());
    let run = walk
        .verigate()
        .args(["run", "my-check/example", "--registry"])
        .arg(&registry)
        .arg("--payload")
        .arg(v.join("counterexample.txt"))
        .output()
        .unwrap();
    assert!(
        text(&run.stdout).contains("\"message\":\"5 is repeated\""),
        "{}",
        text(&run.stdout)
    );
}

#[test]
fn the_python_walkthrough_works() {
    if !repo_root().join("target/python/runner.wasm").exists() {
        eprintln!("skipped: no Python runner (python3 registry/python/build.py)");
        return;
    }
    let [setup, _, python] = walkthrough();
    let walk = walk(&[&setup, &python], &["p"]);
    assert_walked(&walk, "p", "my-py-check");
}

#[test]
fn new_refuses_bad_names_and_a_directory_in_use() {
    let used = tempdir_with(&[("kept.txt", "mine")]);
    let used_dir = used.path().to_str().unwrap();
    let fresh = used.path().join("fresh");
    let fresh_dir = fresh.to_str().unwrap();
    for (args, expected) in [
        (vec!["new", "a b", "--dir", fresh_dir], "module name `a b`"),
        (
            vec!["new", "1st", "--dir", fresh_dir],
            "must start with a letter",
        ),
        (vec!["new", "ok", "--dir", used_dir], "not empty"),
        (
            vec!["new", "ok", "--dir", fresh_dir, "--sdk", used_dir],
            "--sdk DIR",
        ),
    ] {
        let out = verigate().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).contains(expected),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
    assert_eq!(snapshot(used.path()).len(), 1, "nothing written");
}

#[test]
fn build_names_the_command_that_installs_a_missing_target() {
    // A toolchain whose wasm32-wasip1 standard library is missing.
    let dir = tempdir_with(&[
        ("Cargo.toml", "[package]\nname = \"x\"\n"),
        (
            "rustc",
            "#!/bin/sh\necho /nonexistent/lib/rustlib/wasm32-wasip1/lib\n",
        ),
    ]);
    let rustc = dir.path().join("rustc");
    let executable = std::os::unix::fs::PermissionsExt::from_mode(0o755);
    std::fs::set_permissions(&rustc, executable).unwrap();
    let out = verigate()
        .arg("build")
        .arg(dir.path())
        .env("RUSTC", &rustc)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("rustup target add wasm32-wasip1"),
        "{}",
        text(&out.stderr)
    );
}
