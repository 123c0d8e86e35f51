//! `verigate registry build|verify|add|import-sphyr|list|show`.

use super::CacheArgs;
use crate::build;
use crate::import::sphyr;
use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use verigate_registry::{PYTHON_INTERPRETER, Registry, maintain};

/// Where the registry lives.
#[derive(Args, Clone, Debug)]
pub struct RegistryArgs {
    /// Registry directory [default: $VERIGATE_REGISTRY, else ./registry].
    #[arg(long, global = true)]
    pub registry: Option<PathBuf>,
}

impl RegistryArgs {
    /// The registry directory: `--registry`, else `$VERIGATE_REGISTRY`, else
    /// `registry/` in the current directory; never a path fixed at build time.
    pub fn root(&self) -> anyhow::Result<PathBuf> {
        Ok(verigate_registry::locate(self.registry.as_deref())?)
    }

    /// Opens the registry, refusing one whose files do not match its lock.
    pub fn open(&self) -> anyhow::Result<Registry> {
        Ok(Registry::open(&self.root()?)?)
    }
}

#[derive(Subcommand)]
pub enum RegistryCommand {
    /// Compile `guest-verifiers/` reproducibly (and pre-initialise the Python
    /// interpreter, when its runner is built), store modules by hash, update the lock.
    Build,
    /// Check the lock, every module and every item's witnesses.
    Verify {
        /// Also rebuild `guest-verifiers/` and compare with the committed bytes.
        #[arg(long)]
        rebuild: bool,
    },
    /// Validate a contributed verifier and item, and add them only if all checks pass.
    Add {
        /// The module (any language targeting wasm32-wasip1), or a Python
        /// script (`.py`: run by the registry's shared interpreter module,
        /// nothing compiled; the script kept as the item's
        /// `instance/verifier.py`).
        #[arg(long)]
        module: PathBuf,
        /// The verifier's name in modules.toml.
        #[arg(long)]
        name: String,
        /// The item's item.toml.
        #[arg(long)]
        item: PathBuf,
        /// Instance files, mounted at /item.
        #[arg(long)]
        instance: Option<PathBuf>,
        /// Replace the item of the same id and the contributed module of the
        /// same name instead of refusing them (every other item naming the
        /// module is checked against the new one; an unused old module file
        /// is removed).
        #[arg(long)]
        replace: bool,
    },
    /// Import SPhyR dataset files (`<config>.jsonl`) as item families `sphyr/<config>`.
    ImportSphyr {
        /// Dataset files, named by their config (`1_random_cell_easy.jsonl`, …).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Keep only the first N rows of each file.
        #[arg(long)]
        rows: Option<usize>,
    },
    /// Import KiloGram tangram SVGs (files or directories) as TangramPuzzle Task 1
    /// and Task 2 items; refused files are listed and change nothing.
    ImportKilogram {
        /// SVG files, or directories of them (KiloGram's `dataset/tangrams-svg/`).
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
    },
    /// Rewrite the lock after a deliberate hand edit; the registry must then
    /// open (every item parses). Check the witnesses with `registry verify`.
    Relock,
    /// List items.
    List {
        /// One JSON object per line.
        #[arg(long)]
        json: bool,
    },
    /// Show one item.
    Show {
        /// Item id.
        id: String,
        /// As JSON.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Args)]
pub struct RegistryCli {
    #[command(subcommand)]
    command: RegistryCommand,
    #[command(flatten)]
    location: RegistryArgs,
    #[command(flatten)]
    cache: CacheArgs,
}

/// The checkout holding `guest-verifiers/`: the current directory, which
/// `registry build` and `verify --rebuild` must be run from.
fn repo_root() -> anyhow::Result<PathBuf> {
    let here = PathBuf::from(".");
    if !here.join(build::GUEST_WORKSPACE).is_dir() {
        bail!(
            "no {}/ in the current directory: run this from a verigate checkout",
            build::GUEST_WORKSPACE
        );
    }
    Ok(here)
}

pub fn run(cli: &RegistryCli) -> anyhow::Result<ExitCode> {
    let root = cli.location.root()?;
    match &cli.command {
        RegistryCommand::Build => {
            eprintln!(
                "registry build: changing the registry at {}",
                root.display()
            );
            for module in build::build(&repo_root()?, &root)? {
                let state = if module.changed {
                    "updated"
                } else {
                    "unchanged"
                };
                println!("{:<28} {} {state}", module.name, module.sha256);
            }
            let registry = Registry::open(&root)?;
            println!("registry digest {}", registry.digest());
            Ok(ExitCode::SUCCESS)
        }
        RegistryCommand::Verify { rebuild } => {
            let sandbox = cli.cache.sandbox()?;
            let report = if *rebuild {
                build::verify_rebuild(&root, &sandbox, &repo_root()?)
            } else {
                maintain::verify(&root, &sandbox)
            };
            for problem in &report.problems {
                println!("FAIL {problem}");
            }
            for skipped in &report.skipped {
                println!("skipped: {skipped}");
            }
            println!(
                "checked {} modules, {} items, {} witnesses, {} rebuilt: {} problem(s)",
                report.modules,
                report.items,
                report.witnesses,
                report.rebuilt,
                report.problems.len()
            );
            Ok(if report.problems.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
        RegistryCommand::Add {
            module,
            name,
            item,
            instance,
            replace,
        } => {
            let (python, wasm) = if module.extension().is_some_and(|e| e == "py") {
                let script = super::python::read_script(module)?;
                let interpreter = Registry::open(&root)?
                    .module_bytes(PYTHON_INTERPRETER)
                    .context("a Python verifier runs on the registry's interpreter module")?;
                (Some(script), interpreter)
            } else {
                let wasm = std::fs::read(module)
                    .with_context(|| format!("cannot read {}", module.display()))?;
                (None, wasm)
            };
            let item_toml = std::fs::read_to_string(item)
                .with_context(|| format!("cannot read {}", item.display()))?;
            if let Some(dir) = instance
                && !dir.is_dir()
            {
                bail!("instance directory {} is not a directory", dir.display());
            }
            let sandbox = cli.cache.sandbox()?;
            let contribution = maintain::Contribution {
                name,
                wasm: &wasm,
                item_toml: &item_toml,
                instance_dir: instance.as_deref(),
                python: python.as_deref(),
            };
            eprintln!("registry add: changing the registry at {}", root.display());
            match maintain::add_or_replace(&root, &sandbox, &contribution, *replace) {
                Ok(added) => {
                    let verb = if added.replaced_item {
                        "replaced"
                    } else {
                        "added"
                    };
                    let old = (added.replaced_module)
                        .map_or(String::new(), |sha| format!(", replacing module {sha}"));
                    println!(
                        "{verb} {} (module {name}{old}); registry digest {}",
                        added.item.id,
                        Registry::open(&root)?.digest()
                    );
                    Ok(ExitCode::SUCCESS)
                }
                Err(problems) => {
                    for problem in &problems {
                        println!("REJECTED {problem}");
                    }
                    println!("contribution rejected; the registry is unchanged");
                    Ok(ExitCode::FAILURE)
                }
            }
        }
        RegistryCommand::ImportSphyr { files, rows } => {
            let files: Vec<&std::path::Path> = files.iter().map(PathBuf::as_path).collect();
            eprintln!("import-sphyr: changing the registry at {}", root.display());
            for imported in sphyr::import(&root, &files, *rows)? {
                println!("{:<32} {} rows", imported.family, imported.rows);
            }
            println!(
                "registry digest {}; check the witnesses with `verigate registry verify`",
                Registry::open(&root)?.digest()
            );
            Ok(ExitCode::SUCCESS)
        }
        RegistryCommand::ImportKilogram { inputs } => {
            eprintln!(
                "import-kilogram: changing the registry at {}",
                root.display()
            );
            let imported = crate::import::kilogram::import(&root, inputs)?;
            for refusal in &imported.refused {
                println!("refused {refusal}");
            }
            let counts: Vec<String> = crate::import::kilogram::counts(&imported.refused)
                .into_iter()
                .map(|(category, n)| format!("{category} {n}"))
                .collect();
            println!(
                "{} file(s) accepted, {} refused ({}); {} item file(s) written; registry digest {}; \
                 check the witnesses with `verigate registry verify`",
                imported.accepted,
                imported.refused.len(),
                counts.join(", "),
                imported.written,
                Registry::open(&root)?.digest()
            );
            Ok(ExitCode::SUCCESS)
        }
        RegistryCommand::Relock => {
            eprintln!(
                "registry relock: changing the registry at {}",
                root.display()
            );
            let lock = verigate_registry::Lock::compute(&root)?;
            lock.write(&root)?;
            match Registry::open(&root) {
                Ok(registry) => {
                    println!("registry digest {}", registry.digest());
                    Ok(ExitCode::SUCCESS)
                }
                Err(e) => bail!("relocked, but the registry does not open: {e}"),
            }
        }
        RegistryCommand::List { json } => {
            let registry = cli.location.open()?;
            for item in registry.items().values() {
                if *json {
                    println!("{}", serde_json::to_string(item)?);
                } else {
                    let kind = serde_json::to_value(item.metadata.kind)?;
                    println!(
                        "{:<40} {:<10} {:<13} {}",
                        item.id,
                        item.metadata.benchmark,
                        kind.as_str().unwrap_or_default(),
                        item.module.as_deref().unwrap_or("-")
                    );
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        RegistryCommand::Show { id, json } => {
            let registry = cli.location.open()?;
            let item = registry.item(id)?;
            if *json {
                println!("{}", serde_json::to_string_pretty(item)?);
            } else {
                print!("{}", toml::to_string(item)?);
                if let Some(module) = &item.module {
                    let (path, _) = registry.module(module)?;
                    println!("# module file: {}", path.display());
                }
                if let Some(dir) = registry.instance_dir(item) {
                    println!("# instance directory: {}", dir.display());
                }
                println!("# registry digest: {}", registry.digest());
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}
