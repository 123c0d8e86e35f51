//! `verigate reproduce`: re-grade a results file's responses under the
//! registry it names and report every line whose verdict differs.

use super::CacheArgs;
use super::registry::RegistryArgs;
use anyhow::{Context, bail};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use verigate_grading::files::open_input;
use verigate_grading::grade::{GradeRecord, Grader, Judgments};
use verigate_grading::jsonl;

#[derive(Args)]
pub struct ReproduceArgs {
    /// The results file to reproduce (written by `verigate grade`).
    results: PathBuf,
    /// The responses it was graded from.
    #[arg(long)]
    responses: PathBuf,
    /// The judgments it was graded with, if any.
    #[arg(long)]
    judgments: Option<PathBuf>,
    /// Worker threads.
    #[arg(short, long, default_value_t = 2)]
    jobs: usize,
    #[command(flatten)]
    location: RegistryArgs,
    #[command(flatten)]
    cache: CacheArgs,
}

/// The fields a reproduced line must repeat: the verdict and what it cost.
const COMPARED: [&str; 11] = [
    "outcome",
    "message",
    "details",
    "construction",
    "proof",
    "gated",
    "score",
    "fuel_consumed",
    "module_sha256",
    "script_sha256",
    "engine_fingerprint",
];

pub fn run(args: &ReproduceArgs) -> anyhow::Result<ExitCode> {
    let recorded: Vec<GradeRecord> = jsonl::read::<GradeRecord>(
        open_input(&args.results, "results").map_err(anyhow::Error::msg)?,
    )
    .map(|(line, record)| {
        record.map_err(|e| anyhow::anyhow!("{}:{line}: {e}", args.results.display()))
    })
    .collect::<anyhow::Result<_>>()?;
    let registry = args.location.open()?;
    if let Some(other) = recorded
        .iter()
        .find(|r| r.registry_digest != registry.digest())
    {
        bail!(
            "{} was graded under registry {}, but the registry at {} is {}: name the registry it \
             was graded under with --registry",
            args.results.display(),
            other.registry_digest,
            registry.root().display(),
            registry.digest()
        );
    }
    let sandbox = args.cache.sandbox()?;
    let mut judgments = match &args.judgments {
        Some(path) => Judgments::read(
            open_input(path, "judgments").map_err(anyhow::Error::msg)?,
            &registry,
            |e| eprintln!("verigate: {}:{}: {}", path.display(), e.line, e.message),
        ),
        None => Judgments::default(),
    };
    let mut regraded = Vec::new();
    Grader {
        registry: &registry,
        sandbox: &sandbox,
        judgments: &mut judgments,
        workers: args.jobs.clamp(1, verigate_grading::grade::MAX_WORKERS),
    }
    .grade(
        open_input(&args.responses, "responses").map_err(anyhow::Error::msg)?,
        [],
        |record, _| regraded.push(record.clone()),
        |e| {
            eprintln!(
                "verigate: {}:{}: {}",
                args.responses.display(),
                e.line,
                e.message
            )
        },
    )
    .map_err(anyhow::Error::msg)
    .context("re-grading")?;
    let mut differing = 0;
    for (number, (old, new)) in recorded.iter().zip(&regraded).enumerate() {
        let (old, new) = (serde_json::to_value(old)?, serde_json::to_value(new)?);
        let fields: Vec<&str> = std::iter::once("id")
            .chain(std::iter::once("sample"))
            .chain(COMPARED)
            .filter(|f| old.get(f) != new.get(f))
            .collect();
        if !fields.is_empty() {
            differing += 1;
            println!(
                "{}:{}: item `{}` sample {}: {} differ (recorded {}, now {})",
                args.results.display(),
                number + 1,
                old["id"].as_str().unwrap_or("?"),
                old["sample"],
                fields.join(", "),
                fields
                    .iter()
                    .map(|f| format!("{f}={}", old[f]))
                    .collect::<Vec<_>>()
                    .join(" "),
                fields
                    .iter()
                    .map(|f| format!("{f}={}", new[f]))
                    .collect::<Vec<_>>()
                    .join(" "),
            );
        }
    }
    let total = recorded.len().max(regraded.len());
    let lost = recorded.len().abs_diff(regraded.len());
    let reproduced = total - differing - lost;
    println!(
        "{reproduced}/{total} lines reproduced under registry {}, verigate {}, engine {}",
        registry.digest(),
        verigate_sandbox::VERSION,
        sandbox.fingerprint()
    );
    if lost > 0 {
        println!(
            "{} results and {} re-graded lines: the files do not correspond",
            recorded.len(),
            regraded.len()
        );
    }
    Ok(if reproduced == total {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
