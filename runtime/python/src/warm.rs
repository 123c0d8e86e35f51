//! One warm sandbox per process: created on first use, and created anew in
//! a child after `fork()` (multiprocessing, dataloader workers), where the
//! parent's epoch thread — which enforces deadlines — does not exist.

use crate::errors::sandbox_error;
use pyo3::PyResult;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use verigate_sandbox::compile::{ChildCompiler, Compiler};
use verigate_sandbox::{ModuleError, Sandbox, SandboxOptions, Verifier};

/// A loaded module, or why the sandbox refused it.
pub type Loaded = Result<Arc<Verifier>, ModuleError>;

/// How to build a process's sandbox.
#[derive(Clone, Debug)]
pub struct Recipe {
    /// The compiled-module cache; `None`: in memory only.
    pub cache_root: Option<PathBuf>,
    /// The Python interpreter, which compiles modules as a bounded child
    /// (`python -m verigate._compile`); `None`: compile in this process.
    pub python: Option<PathBuf>,
}

struct State {
    pid: u32,
    sandbox: Arc<Sandbox>,
    /// Loaded modules by name (a registry module's name, or a module's sha256).
    loaded: HashMap<String, Loaded>,
}

/// A sandbox for this process, rebuilt after a fork.
pub struct Warm {
    recipe: Recipe,
    state: Mutex<Option<State>>,
}

impl Warm {
    /// A warm sandbox built from `recipe` on first use.
    pub fn new(recipe: Recipe) -> Self {
        Warm {
            recipe,
            state: Mutex::new(None),
        }
    }

    /// The compiled-module cache directory; `None`: in memory only.
    pub fn cache_root(&self) -> Option<&std::path::Path> {
        self.recipe.cache_root.as_deref()
    }

    fn build(&self) -> PyResult<Sandbox> {
        let compiler = match &self.recipe.python {
            Some(python) => {
                Compiler::Child(ChildCompiler::new(python, ["-m", "verigate._compile"]))
            }
            None => Compiler::InProcess,
        };
        Sandbox::new(&SandboxOptions {
            cache_root: self.recipe.cache_root.clone(),
            compiler,
            ..SandboxOptions::default()
        })
        .map_err(sandbox_error)
    }

    /// Runs `f` on this process's state, creating it first when there is
    /// none or when it belongs to the process this one was forked from. The
    /// lock is held only for `f`, which must be quick.
    fn with_state<T>(&self, f: impl FnOnce(&mut State) -> T) -> PyResult<T> {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let pid = std::process::id();
        if state.as_ref().is_none_or(|s| s.pid != pid) {
            // A parent's sandbox is not dropped in the child: its threads
            // and locks did not survive the fork, so it is leaked instead.
            if let Some(inherited) = state.take() {
                std::mem::forget(inherited);
            }
            *state = Some(State {
                pid,
                sandbox: Arc::new(self.build()?),
                loaded: HashMap::new(),
            });
        }
        Ok(f(state.as_mut().expect("just set")))
    }

    /// This process's sandbox.
    pub fn sandbox(&self) -> PyResult<Arc<Sandbox>> {
        self.with_state(|state| Arc::clone(&state.sandbox))
    }

    /// The module known as `name`, loaded by `load` on first use (outside
    /// the lock, so other threads are not held up by a compile).
    pub fn module(
        &self,
        name: &str,
        load: impl FnOnce(&Sandbox) -> PyResult<Loaded>,
    ) -> PyResult<(Arc<Sandbox>, Loaded)> {
        let (sandbox, known) =
            self.with_state(|s| (Arc::clone(&s.sandbox), s.loaded.get(name).cloned()))?;
        if let Some(loaded) = known {
            return Ok((sandbox, loaded));
        }
        let loaded = load(&sandbox)?;
        self.with_state(|s| {
            if Arc::ptr_eq(&s.sandbox, &sandbox) {
                s.loaded.insert(name.to_owned(), loaded.clone());
            }
        })?;
        Ok((sandbox, loaded))
    }
}
