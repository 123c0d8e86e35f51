//! `grade --shard I/N` and `merge`: any number of shards reproduces the
//! single-process bytes; a missing, foreign, overlapping or edited part is refused.

use crate::common::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A responses file of fast verifiers with a bad line, a blank line and a
/// last line without a newline, so shard edges fall on every kind of line.
fn responses() -> String {
    let text = std::fs::read_to_string(repo_root().join("examples/responses.jsonl")).unwrap();
    let fast: Vec<&str> = text
        .lines()
        .filter(|l| l.contains(r#""id": "toy/"#) || l.contains(r#""id": "sphyr/"#))
        .take(24)
        .collect();
    let mut lines: Vec<String> = fast.iter().map(|l| l.to_string()).collect();
    lines.insert(
        5,
        r#"{"id": "toy/no-such-item", "sample": 0, "response": "x"}"#.into(),
    );
    lines.insert(11, String::new());
    lines.join("\n")
}

fn verigate(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_verigate"))
        .current_dir(repo_root())
        .args(args)
        .output()
        .unwrap()
}

fn grade(dir: &Path, out: &Path, extra: &[&str]) -> Output {
    let responses = dir.join("r.jsonl");
    let cache = dir.join("cache");
    let mut args = vec!["grade", "--responses", responses.to_str().unwrap()];
    args.extend(["--out", out.to_str().unwrap(), "-j", "2"]);
    args.extend(["--cache-dir", cache.to_str().unwrap()]);
    args.extend(extra);
    verigate(&args)
}

fn merge(parts: &[PathBuf], out: &Path) -> Output {
    let mut args = vec!["merge"];
    args.extend(parts.iter().map(|p| p.to_str().unwrap()));
    args.extend(["--out", out.to_str().unwrap()]);
    verigate(&args)
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The part files of shards 0..n of `r.jsonl`, graded in `dir/n`.
fn parts(dir: &Path, n: usize) -> Vec<PathBuf> {
    let folder = dir.join(n.to_string());
    std::fs::create_dir_all(&folder).unwrap();
    (0..n)
        .map(|i| {
            let part = folder.join(format!("part-{i}.jsonl"));
            let result = grade(dir, &part, &["--shard", &format!("{i}/{n}")]);
            assert!(part.is_file(), "shard {i}/{n}: {}", stderr(&result));
            part
        })
        .collect()
}

#[test]
fn every_shard_count_merges_to_the_single_process_bytes() {
    let dir = tempdir_with(&[("r.jsonl", &responses())]);
    let single = dir.path().join("single.jsonl");
    let result = grade(dir.path(), &single, &[]);
    assert!(stderr(&result).contains("no-such-item"));
    let expected = std::fs::read(&single).unwrap();
    assert_eq!(expected.iter().filter(|&&b| b == b'\n').count(), 24);
    for n in 1..=7 {
        let mut shards = parts(dir.path(), n);
        shards.reverse(); // any order
        let merged = dir.path().join(format!("merged-{n}.jsonl"));
        let result = merge(&shards, &merged);
        assert!(result.status.success(), "{n} shards: {}", stderr(&result));
        assert_eq!(std::fs::read(&merged).unwrap(), expected, "{n} shards");
    }
}

#[test]
fn k_line_shards_skip_complete_parts_and_resume_partial_ones() {
    let dir = tempdir_with(&[("r.jsonl", &responses())]);
    let single = dir.path().join("single.jsonl");
    grade(dir.path(), &single, &[]);
    let parts: Vec<PathBuf> = (0..3)
        .map(|i| dir.path().join(format!("part-{i}.jsonl")))
        .collect();
    let shard = |i: usize| {
        grade(
            dir.path(),
            &parts[i],
            &["--shard", &format!("{i}/3"), "--shard-lines", "10"],
        )
    };
    shard(0);
    // Shard 1 was killed after two results and half a line.
    shard(1);
    let whole = std::fs::read_to_string(&parts[1]).unwrap();
    let cut: String = whole
        .lines()
        .take(2)
        .map(|l| format!("{l}\n"))
        .collect::<String>()
        + "{\"id";
    std::fs::remove_file(&parts[1]).unwrap();
    std::fs::write(dir.path().join("part-1.jsonl.partial"), cut).unwrap();
    let resumed = shard(1);
    assert!(
        stderr(&resumed).contains("resumed after 2"),
        "{}",
        stderr(&resumed)
    );
    assert_eq!(std::fs::read_to_string(&parts[1]).unwrap(), whole);
    let again = shard(0);
    assert!(stderr(&again).contains("skipped"), "{}", stderr(&again));
    shard(2);
    let wrong_count = grade(
        dir.path(),
        &dir.path().join("x"),
        &["--shard", "0/2", "--shard-lines", "10"],
    );
    assert!(
        stderr(&wrong_count).contains("make 3 shards"),
        "{}",
        stderr(&wrong_count)
    );
    let merged = dir.path().join("merged.jsonl");
    assert!(merge(&parts, &merged).status.success());
    assert_eq!(
        std::fs::read(&merged).unwrap(),
        std::fs::read(&single).unwrap()
    );
}

#[test]
fn merge_refuses_missing_foreign_overlapping_and_edited_parts() {
    let dir = tempdir_with(&[("r.jsonl", &responses())]);
    let three = parts(dir.path(), 3);
    let out = dir.path().join("out.jsonl");
    let refused = |parts: &[PathBuf], why: &str| {
        let result = merge(parts, &out);
        assert!(!result.status.success());
        assert!(stderr(&result).contains(why), "{why}: {}", stderr(&result));
    };
    refused(&three[..2], "a part is missing");
    refused(&[three[0].clone(), three[2].clone()], "a part is missing");
    let two = parts(dir.path(), 2);
    refused(&[three[0].clone(), two[1].clone()], "shard count");
    refused(
        &[
            three[0].clone(),
            three[0].clone(),
            three[1].clone(),
            three[2].clone(),
        ],
        "overlaps",
    );
    // A part of another input.
    std::fs::write(dir.path().join("r.jsonl"), responses() + "\n").unwrap();
    let other = dir.path().join("other.jsonl");
    grade(dir.path(), &other, &["--shard", "2/3"]);
    refused(
        &[three[0].clone(), three[1].clone(), other],
        "parts of different runs",
    );
    // An edited part.
    let text = std::fs::read_to_string(&three[1]).unwrap();
    std::fs::write(
        &three[1],
        text.lines()
            .skip(1)
            .map(|l| format!("{l}\n"))
            .collect::<String>(),
    )
    .unwrap();
    refused(&three, "the part was changed");
}
