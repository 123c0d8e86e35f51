//! `verigate cache size|clean`: the on-disk compiled-module cache.

use super::CacheArgs;
use anyhow::bail;
use clap::{Args, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;
use verigate_sandbox::cache::{self, MAX_MB_ENV};

const MIB: f64 = (1u64 << 20) as f64;

#[derive(Subcommand)]
pub enum CacheCommand {
    /// Print the cache directory, its entries (every engine's), their bytes and the cap.
    Size,
    /// Remove every entry (of every engine); sandboxes recompile what they need.
    Clean {
        /// Remove only entries not written or loaded for N days.
        #[arg(long, value_name = "N")]
        older_than_days: Option<u64>,
    },
}

#[derive(Args)]
#[command(after_help = "The cache keeps itself under a cap, 2 GiB by default \
    ($VERIGATE_CACHE_MAX_MB MiB; 0 for none): after each new entry the least recently \
    used entries are removed, never those of modules the process has loaded.")]
pub struct CacheCli {
    #[command(subcommand)]
    command: CacheCommand,
    #[command(flatten)]
    cache: CacheArgs,
}

/// The cache directory, or an error saying why there is none.
fn root(args: &CacheArgs) -> anyhow::Result<PathBuf> {
    if args.no_cache {
        bail!("--no-cache: there is no cache to inspect");
    }
    match args.root() {
        Some(root) => Ok(root),
        None => bail!(
            "no cache directory: pass --cache-dir DIR or set VERIGATE_CACHE_DIR, \
             XDG_CACHE_HOME or HOME"
        ),
    }
}

pub fn run(cli: &CacheCli) -> anyhow::Result<ExitCode> {
    let root = root(&cli.cache)?;
    match cli.command {
        CacheCommand::Size => {
            let usage = cache::usage(&root)?;
            let source = match std::env::var_os(MAX_MB_ENV) {
                Some(value) if !value.is_empty() => format!("${MAX_MB_ENV}"),
                _ => "default".to_owned(),
            };
            let cap = match cache::default_max_bytes() {
                Some(max) => format!("{max} ({:.1} MiB, {source})", max as f64 / MIB),
                None => format!("none ({source})"),
            };
            println!("directory {}", root.display());
            println!("entries   {}", usage.entries);
            println!(
                "bytes     {} ({:.1} MiB)",
                usage.bytes,
                usage.bytes as f64 / MIB
            );
            println!("cap       {cap}");
        }
        CacheCommand::Clean { older_than_days } => {
            let age = older_than_days.map(|days| Duration::from_secs(days.saturating_mul(86_400)));
            let removed = cache::clean(&root, age)?;
            eprintln!(
                "removed {} entries ({} bytes, {:.1} MiB) from {}",
                removed.entries,
                removed.bytes,
                removed.bytes as f64 / MIB,
                root.display()
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
