//! Bounding compilation: Cranelift runs before any fuel is counted, so a
//! hostile module can make the *compiler* loop or eat the host's memory
//! (measured: one function with 20,000 locals live across a loop compiles
//! for 110 s; 2.4 million nested blocks take 3.9 GB; a million small
//! functions 190 s and 5.7 GB). Two defences:
//!
//! 1. [`ModuleLimits`], always: static limits on the module's shape, checked
//!    by [`inspect`] with wasmparser's validator before the bytes reach
//!    Cranelift. The check is one linear pass that stops at the first limit
//!    passed, so an over-limit module is refused in milliseconds whatever
//!    its size. Every limit is per module or per function, which is what
//!    Cranelift's cost depends on: it compiles function by function, and its
//!    super-linear parts (register allocation, SSA construction) grow with a
//!    function's size, locals, live values and nesting.
//! 2. [`Compiler::Child`], optional: compile in a child process under
//!    `RLIMIT_CPU` and `RLIMIT_AS`, so that a module within the static limits
//!    that still costs too much (the limits bound the shape, not Cranelift's
//!    worst case on it) is killed and refused instead of stalling the host.
//!    The sandbox is a library (also embedded in other programs), so it does
//!    not re-execute itself: the embedder names a program that calls
//!    [`serve_child`] — `verigate __compile` in the CLI.
//!
//! The child process bounds resources, not trust: its output is machine
//! code the parent then runs, exactly like a compiled-cache entry, so it must
//! be the embedder's own program.

use serde::Serialize;
use sha2::{Digest, Sha256};
use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use wasmparser::{
    Encoding, FuncValidatorAllocations, Parser, Payload, ValidPayload, Validator, WasmFeatures,
};

/// Static limits on a module's shape, checked before it is compiled; a
/// module over one is refused as `invalid_module`, naming the limit and the
/// value.
///
/// The defaults hold every module of the bundled registry with room to
/// spare; the largest is the shared Python interpreter (28 MB, 8,211
/// functions). The measured maximum over the registry is given for each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ModuleLimits {
    /// Bytes of the whole module (registry maximum 28,352,256).
    pub max_module_bytes: u64,
    /// Bytes of the code section, all function bodies together: what
    /// compilation time is roughly proportional to (maximum 3,424,865).
    pub max_code_bytes: u64,
    /// Functions defined by the module (maximum 8,211).
    pub max_functions: u32,
    /// Bytes of one function body (maximum 93,831).
    pub max_function_bytes: u32,
    /// Locals of one function, parameters included (maximum 482).
    pub max_locals: u32,
    /// The sum over the module's functions of locals × body bytes
    /// (maximum 175,458,248: SCBench Q28's rapier3d build). What Cranelift's
    /// cost grows with beyond the linear: every local live across a branch
    /// becomes a block parameter at every merge, so a function with L locals
    /// live across B branches costs about L × B (measured here: 1,000 locals
    /// live across 16,000 `if`s, 2.5 × 10⁸, compile for 20 s; 20,000 locals
    /// across as many, 110 s).
    pub max_locals_times_bytes: u64,
    /// Depth of nested `block`/`loop`/`if`/`try` in one function (maximum 253).
    pub max_nesting: u32,
    /// Values on one function's operand stack at once (maximum 22).
    pub max_operand_stack: u32,
    /// Types, counted singly inside recursion groups (maximum 130).
    pub max_types: u32,
    /// Imports (maximum 40).
    pub max_imports: u32,
    /// Exports (maximum 14).
    pub max_exports: u32,
    /// Globals (maximum 2).
    pub max_globals: u32,
    /// Data segments (maximum 10,002: a wizer snapshot's memory image).
    pub max_data_segments: u32,
    /// Element segments (maximum 1).
    pub max_element_segments: u32,
}

impl ModuleLimits {
    /// 32 MiB (2.4x the largest registry module).
    pub const DEFAULT_MAX_MODULE_BYTES: u64 = 32 << 20;
    /// 8 MiB of code (2.5x CPython's).
    pub const DEFAULT_MAX_CODE_BYTES: u64 = 8 << 20;
    /// 30,000 functions (3.7x CPython's; wasmtime spends about 0.2 ms on even
    /// the smallest function, so 30,000 cost about 7 s).
    pub const DEFAULT_MAX_FUNCTIONS: u32 = 30_000;
    /// 1 MiB per function body (11x the largest).
    pub const DEFAULT_MAX_FUNCTION_BYTES: u32 = 1 << 20;
    /// 5,000 locals per function (10x the largest).
    pub const DEFAULT_MAX_LOCALS: u32 = 5_000;
    /// 500,000,000 (2.8x the largest): at most about 40 CPU seconds of the
    /// worst-shaped code here, where the registry's largest module needs 6.
    pub const DEFAULT_MAX_LOCALS_TIMES_BYTES: u64 = 500_000_000;
    /// 2,000 nested blocks (8x the deepest).
    pub const DEFAULT_MAX_NESTING: u32 = 2_000;
    /// 2,000 operand-stack values (90x the deepest).
    pub const DEFAULT_MAX_OPERAND_STACK: u32 = 2_000;
    /// 10,000 types.
    pub const DEFAULT_MAX_TYPES: u32 = 10_000;
    /// 1,000 imports.
    pub const DEFAULT_MAX_IMPORTS: u32 = 1_000;
    /// 10,000 exports.
    pub const DEFAULT_MAX_EXPORTS: u32 = 10_000;
    /// 10,000 globals.
    pub const DEFAULT_MAX_GLOBALS: u32 = 10_000;
    /// 50,000 data segments (5x the CPython snapshot's).
    pub const DEFAULT_MAX_DATA_SEGMENTS: u32 = 50_000;
    /// 10,000 element segments.
    pub const DEFAULT_MAX_ELEMENT_SEGMENTS: u32 = 10_000;

    /// No limit at all (for measuring a module with [`inspect`]).
    pub const UNLIMITED: ModuleLimits = ModuleLimits {
        max_module_bytes: u64::MAX,
        max_code_bytes: u64::MAX,
        max_functions: u32::MAX,
        max_function_bytes: u32::MAX,
        max_locals: u32::MAX,
        max_locals_times_bytes: u64::MAX,
        max_nesting: u32::MAX,
        max_operand_stack: u32::MAX,
        max_types: u32::MAX,
        max_imports: u32::MAX,
        max_exports: u32::MAX,
        max_globals: u32::MAX,
        max_data_segments: u32::MAX,
        max_element_segments: u32::MAX,
    };

    /// sha256 of the limits, recorded in compiled-cache entries: an entry
    /// written under the same limits needs no new check.
    pub(crate) fn digest(&self) -> [u8; 32] {
        let mut hasher = Sha256::new();
        hasher.update(b"verigate-module-limits-1");
        for value in [
            self.max_module_bytes,
            self.max_code_bytes,
            u64::from(self.max_functions),
            u64::from(self.max_function_bytes),
            u64::from(self.max_locals),
            self.max_locals_times_bytes,
            u64::from(self.max_nesting),
            u64::from(self.max_operand_stack),
            u64::from(self.max_types),
            u64::from(self.max_imports),
            u64::from(self.max_exports),
            u64::from(self.max_globals),
            u64::from(self.max_data_segments),
            u64::from(self.max_element_segments),
        ] {
            hasher.update(value.to_le_bytes());
        }
        hasher.finalize().into()
    }
}

impl Default for ModuleLimits {
    fn default() -> Self {
        ModuleLimits {
            max_module_bytes: Self::DEFAULT_MAX_MODULE_BYTES,
            max_code_bytes: Self::DEFAULT_MAX_CODE_BYTES,
            max_functions: Self::DEFAULT_MAX_FUNCTIONS,
            max_function_bytes: Self::DEFAULT_MAX_FUNCTION_BYTES,
            max_locals: Self::DEFAULT_MAX_LOCALS,
            max_locals_times_bytes: Self::DEFAULT_MAX_LOCALS_TIMES_BYTES,
            max_nesting: Self::DEFAULT_MAX_NESTING,
            max_operand_stack: Self::DEFAULT_MAX_OPERAND_STACK,
            max_types: Self::DEFAULT_MAX_TYPES,
            max_imports: Self::DEFAULT_MAX_IMPORTS,
            max_exports: Self::DEFAULT_MAX_EXPORTS,
            max_globals: Self::DEFAULT_MAX_GLOBALS,
            max_data_segments: Self::DEFAULT_MAX_DATA_SEGMENTS,
            max_element_segments: Self::DEFAULT_MAX_ELEMENT_SEGMENTS,
        }
    }
}

/// What [`inspect`] measured of a module: each field is the quantity its
/// namesake in [`ModuleLimits`] bounds (the largest over the functions for
/// the per-function ones).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ModuleShape {
    /// Bytes of the module.
    pub module_bytes: u64,
    /// Bytes of the code section.
    pub code_bytes: u64,
    /// Functions defined.
    pub functions: u32,
    /// Largest function body, in bytes.
    pub function_bytes: u32,
    /// Most locals of a function, parameters included.
    pub locals: u32,
    /// The sum over the functions of locals × body bytes.
    pub locals_times_bytes: u64,
    /// Deepest block nesting of a function.
    pub nesting: u32,
    /// Highest operand stack of a function.
    pub operand_stack: u32,
    /// Types.
    pub types: u32,
    /// Imports.
    pub imports: u32,
    /// Exports.
    pub exports: u32,
    /// Globals.
    pub globals: u32,
    /// Data segments.
    pub data_segments: u32,
    /// Element segments.
    pub element_segments: u32,
}

/// Fails when `value` passes `max`: `describe(value)` says what passed it,
/// and the message names the limit.
fn within(
    limit: &str,
    max: u64,
    value: u64,
    describe: impl FnOnce(u64) -> String,
) -> Result<(), String> {
    if value > max {
        return Err(format!(
            "{}, over the module limit `{limit}` = {max}",
            describe(value)
        ));
    }
    Ok(())
}

/// Validates `wasm` and measures its shape, refusing it at the first limit
/// passed. The error is the `invalid_module` reason: it names the value and
/// the limit (``function 3 has 20001 locals (parameters included), over the
/// module limit `max_locals` = 5000``), or is wasmparser's validation error.
///
/// Validation accepts every WebAssembly feature wasmparser knows, a superset
/// of what the engine enables: the engine still validates when it compiles,
/// and refuses what it does not support. Linear in the module's size; it
/// never compiles anything.
pub fn inspect(wasm: &[u8], limits: &ModuleLimits) -> Result<ModuleShape, String> {
    let invalid = |e: wasmparser::BinaryReaderError| format!("not a valid WebAssembly module: {e}");
    let mut shape = ModuleShape {
        module_bytes: wasm.len() as u64,
        ..ModuleShape::default()
    };
    within(
        "max_module_bytes",
        limits.max_module_bytes,
        shape.module_bytes,
        |n| format!("the module is {n} bytes"),
    )?;
    let mut validator = Validator::new_with_features(WasmFeatures::all());
    let mut allocations = FuncValidatorAllocations::default();
    for payload in Parser::new(0).parse_all(wasm) {
        let payload = payload.map_err(invalid)?;
        // Counts first, so a section over a limit is refused before
        // anything walks it.
        let (limit, max, count, noun) = match &payload {
            Payload::Version {
                encoding: Encoding::Component,
                ..
            } => return Err("a component, not a core WebAssembly module".into()),
            Payload::TypeSection(reader) => {
                let mut types = 0u64;
                for group in reader.clone() {
                    types += group.map_err(invalid)?.types().len() as u64;
                    if types > u64::from(limits.max_types) {
                        break;
                    }
                }
                shape.types = saturate(types);
                ("max_types", limits.max_types, types, "types")
            }
            Payload::ImportSection(reader) => {
                let mut imports = 0u64;
                for import in reader.clone().into_imports() {
                    import.map_err(invalid)?;
                    imports += 1;
                    if imports > u64::from(limits.max_imports) {
                        break;
                    }
                }
                shape.imports = saturate(imports);
                ("max_imports", limits.max_imports, imports, "imports")
            }
            Payload::FunctionSection(reader) => {
                shape.functions = reader.count();
                let count = u64::from(reader.count());
                ("max_functions", limits.max_functions, count, "functions")
            }
            Payload::ExportSection(reader) => {
                shape.exports = reader.count();
                let count = u64::from(reader.count());
                ("max_exports", limits.max_exports, count, "exports")
            }
            Payload::GlobalSection(reader) => {
                shape.globals = reader.count();
                let count = u64::from(reader.count());
                ("max_globals", limits.max_globals, count, "globals")
            }
            Payload::DataSection(reader) => {
                shape.data_segments = reader.count();
                let count = u64::from(reader.count());
                let max = limits.max_data_segments;
                ("max_data_segments", max, count, "data segments")
            }
            Payload::ElementSection(reader) => {
                shape.element_segments = reader.count();
                let count = u64::from(reader.count());
                let max = limits.max_element_segments;
                ("max_element_segments", max, count, "element segments")
            }
            Payload::CodeSectionStart { count, size, .. } => {
                shape.code_bytes = u64::from(*size);
                let max = u64::from(limits.max_functions);
                within("max_functions", max, u64::from(*count), |n| {
                    format!("the module has {n} function bodies")
                })?;
                within(
                    "max_code_bytes",
                    limits.max_code_bytes,
                    u64::from(*size),
                    |n| format!("the code section is {n} bytes"),
                )?;
                ("", u32::MAX, 0, "")
            }
            _ => ("", u32::MAX, 0, ""),
        };
        within(limit, u64::from(max), count, |n| {
            format!("the module has {n} {noun}")
        })?;
        let ValidPayload::Func(func, body) = validator.payload(&payload).map_err(invalid)? else {
            continue;
        };
        let index = func.index;
        let bytes = body.range().len() as u64;
        shape.function_bytes = shape.function_bytes.max(saturate(bytes));
        let max = u64::from(limits.max_function_bytes);
        within("max_function_bytes", max, bytes, |n| {
            format!("function {index} is {n} bytes")
        })?;
        let mut validator = func.into_validator(std::mem::take(&mut allocations));
        // Counted before the validator expands them (parameters are already in).
        let mut locals = u64::from(validator.len_locals());
        for group in body.get_locals_reader().map_err(invalid)? {
            locals += u64::from(group.map_err(invalid)?.0);
        }
        shape.locals = shape.locals.max(saturate(locals));
        within("max_locals", u64::from(limits.max_locals), locals, |n| {
            format!("function {index} has {n} locals (parameters included)")
        })?;
        shape.locals_times_bytes = shape.locals_times_bytes.saturating_add(locals * bytes);
        let max = limits.max_locals_times_bytes;
        within(
            "max_locals_times_bytes",
            max,
            shape.locals_times_bytes,
            |n| format!("the sum of locals × body bytes reaches {n} at function {index}"),
        )?;
        let mut reader = body.get_binary_reader();
        validator.read_locals(&mut reader).map_err(invalid)?;
        let (mut nesting, mut stack) = (0, 0);
        while !reader.eof() {
            let at = reader.original_position();
            reader
                .visit_operator(&mut validator.visitor(at))
                .map_err(invalid)?
                .map_err(invalid)?;
            // The function's own frame is not a nested block.
            nesting = nesting.max(validator.control_stack_height().saturating_sub(1));
            stack = stack.max(validator.operand_stack_height());
            if nesting > limits.max_nesting || stack > limits.max_operand_stack {
                break;
            }
        }
        shape.nesting = shape.nesting.max(nesting);
        shape.operand_stack = shape.operand_stack.max(stack);
        within(
            "max_nesting",
            u64::from(limits.max_nesting),
            u64::from(nesting),
            |n| format!("function {index} nests blocks {n} deep"),
        )?;
        let max = u64::from(limits.max_operand_stack);
        within("max_operand_stack", max, u64::from(stack), |n| {
            format!("function {index} has {n} values on its operand stack")
        })?;
        reader
            .finish_expression(&validator.visitor(reader.original_position()))
            .map_err(invalid)?;
        allocations = validator.into_allocations();
    }
    Ok(shape)
}

fn saturate(value: u64) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

/// How modules that are not in the compiled-module cache are compiled.
#[derive(Clone, Debug, Default)]
pub enum Compiler {
    /// In this process, bounded by the [`ModuleLimits`] only.
    #[default]
    InProcess,
    /// In a child process under CPU-time and address-space limits (and the
    /// [`ModuleLimits`] first).
    Child(ChildCompiler),
}

/// Compiling in a child process under resource limits.
///
/// For each module to compile the sandbox writes the module to `INPUT` in a
/// fresh private directory (mode 0700) and runs
///
/// ```text
/// PROGRAM ARGS… INPUT OUTPUT ENGINE
/// ```
///
/// with stdin and stdout closed, stderr captured, and, on Unix,
/// `RLIMIT_CPU` = [`cpu_seconds`](Self::cpu_seconds), `RLIMIT_AS` =
/// [`address_space_bytes`](Self::address_space_bytes), `RLIMIT_FSIZE` =
/// [`output_bytes`](Self::output_bytes) and no core dumps. The program must
/// pass its last three arguments to [`serve_child`] and exit with status 0
/// if and only if it returned `Ok` (printing the error on stderr otherwise).
/// The parent waits at most [`wall_seconds`](Self::wall_seconds), then
/// kills it; it reads `OUTPUT`, deserialises it into its own engine (which
/// refuses an artefact of another configuration) and stores it in the cache.
///
/// A child killed by a limit, or failing, makes the module `invalid_module`
/// with a reason naming the limit; a child that cannot be started is a host
/// error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChildCompiler {
    /// The program to run, e.g. the embedding binary itself.
    pub program: PathBuf,
    /// Arguments before `INPUT OUTPUT ENGINE`, e.g. `["__compile"]`.
    pub args: Vec<OsString>,
    /// CPU seconds the child may use, all its threads together.
    pub cpu_seconds: u64,
    /// Virtual address space the child may map, in bytes.
    pub address_space_bytes: u64,
    /// Largest compiled artefact the child may write, in bytes.
    pub output_bytes: u64,
    /// Wall-clock seconds before the child is killed (a backstop for a
    /// child that is starved or blocked rather than computing).
    pub wall_seconds: u64,
}

impl ChildCompiler {
    /// 60 CPU seconds: the CPython runner needs about 8 here (4 s on 2 cores).
    pub const DEFAULT_CPU_SECONDS: u64 = 60;
    /// 4 GiB of address space, plus [`ADDRESS_SPACE_PER_THREAD`](Self::ADDRESS_SPACE_PER_THREAD)
    /// per core: compiling the CPython runner peaks at about 1 GiB mapped.
    pub const DEFAULT_ADDRESS_SPACE_BYTES: u64 = 4 << 30;
    /// Address space added to the default per core: the compiler runs a
    /// thread per core, each of which maps its stack and may reserve a
    /// 64 MiB malloc arena, so a fixed limit would fail on many-core hosts.
    pub const ADDRESS_SPACE_PER_THREAD: u64 = 128 << 20;
    /// 1 GiB of compiled code (CPython's is 26 MB).
    pub const DEFAULT_OUTPUT_BYTES: u64 = 1 << 30;
    /// 300 wall-clock seconds.
    pub const DEFAULT_WALL_SECONDS: u64 = 300;

    /// Runs `program args… INPUT OUTPUT ENGINE` under the default limits
    /// (`address_space_bytes` grows with the host's cores).
    pub fn new(
        program: impl Into<PathBuf>,
        args: impl IntoIterator<Item = impl Into<OsString>>,
    ) -> Self {
        ChildCompiler {
            program: program.into(),
            args: args.into_iter().map(Into::into).collect(),
            cpu_seconds: Self::DEFAULT_CPU_SECONDS,
            address_space_bytes: Self::DEFAULT_ADDRESS_SPACE_BYTES
                + Self::ADDRESS_SPACE_PER_THREAD
                    * std::thread::available_parallelism().map_or(1, |n| n.get() as u64),
            output_bytes: Self::DEFAULT_OUTPUT_BYTES,
            wall_seconds: Self::DEFAULT_WALL_SECONDS,
        }
    }
}

/// Why compiling failed.
#[derive(Debug)]
pub(crate) enum CompileFailure {
    /// The module's fault (a limit passed, or the compiler refused it).
    Module(String),
    /// The host's (the child could not be started or its output read).
    Host(String),
}

impl fmt::Display for CompileFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompileFailure::Module(why) | CompileFailure::Host(why) => f.write_str(why),
        }
    }
}

/// The `ENGINE` argument: what the child needs to configure its engine
/// exactly like the parent's (versioned, so a mismatched child refuses).
pub(crate) fn engine_arg(fuel_metering: bool) -> String {
    format!("verigate-engine-1:fuel={}", u8::from(fuel_metering))
}

fn parse_engine_arg(arg: &str) -> Result<bool, String> {
    match arg {
        "verigate-engine-1:fuel=1" => Ok(true),
        "verigate-engine-1:fuel=0" => Ok(false),
        other => Err(format!(
            "engine argument `{other}` is not one this verigate-sandbox ({}) writes",
            crate::VERSION
        )),
    }
}

/// The child side of [`ChildCompiler`]: compiles the module in `input` for
/// an engine configured as `engine` says and writes the compiled artefact to
/// `output`. The embedder's compile command calls this with its last three
/// arguments and exits 0 on `Ok`; on `Err` it prints the message on stderr
/// and exits non-zero.
pub fn serve_child(input: &Path, output: &Path, engine: &str) -> Result<(), String> {
    let fuel_metering = parse_engine_arg(engine)?;
    let wasm = std::fs::read(input).map_err(|e| format!("{}: {e}", input.display()))?;
    let engine = crate::engine::compile_only_engine(fuel_metering)
        .map_err(|e| format!("cannot create the engine: {e:#}"))?;
    let compiled = engine
        .precompile_module(&wasm)
        .map_err(|e| format!("not a valid WebAssembly module: {e:#}"))?;
    std::fs::write(output, compiled).map_err(|e| format!("{}: {e}", output.display()))
}

/// A private directory for one child compilation, removed on drop.
struct WorkDir(PathBuf);

impl WorkDir {
    fn new() -> std::io::Result<WorkDir> {
        use std::sync::atomic::{AtomicU64, Ordering};
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let mut last = None;
        for _ in 0..16 {
            let dir = std::env::temp_dir().join(format!(
                "verigate-compile-{}-{}-{nanos}",
                std::process::id(),
                NEXT.fetch_add(1, Ordering::Relaxed)
            ));
            let mut builder = std::fs::DirBuilder::new();
            #[cfg(unix)]
            std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
            // Never an existing directory: someone else may have made it.
            match builder.create(&dir) {
                Ok(()) => return Ok(WorkDir(dir)),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
                Err(e) => return Err(e),
            }
        }
        Err(last.expect("tried at least once"))
    }
}

impl Drop for WorkDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// How the child ended, as the parent saw it.
enum Ended {
    Status(std::process::ExitStatus),
    WallClock,
}

impl ChildCompiler {
    /// Compiles `wasm` in a child process; returns the compiled artefact.
    pub(crate) fn compile(&self, wasm: &[u8], engine: &str) -> Result<Vec<u8>, CompileFailure> {
        let host = |what: &str, e: &dyn fmt::Display| CompileFailure::Host(format!("{what}: {e}"));
        let dir = WorkDir::new().map_err(|e| host("cannot create a compile directory", &e))?;
        let (input, output, log) = (
            dir.0.join("module.wasm"),
            dir.0.join("module.cwasm"),
            dir.0.join("stderr.txt"),
        );
        std::fs::write(&input, wasm).map_err(|e| host(&input.display().to_string(), &e))?;
        let stderr =
            std::fs::File::create(&log).map_err(|e| host(&log.display().to_string(), &e))?;
        let mut command = std::process::Command::new(&self.program);
        command
            .args(&self.args)
            .arg(&input)
            .arg(&output)
            .arg(engine)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(stderr);
        #[cfg(unix)]
        rlimits::apply(
            &mut command,
            self.cpu_seconds,
            self.address_space_bytes,
            self.output_bytes,
        );
        let started = Instant::now();
        let mut child = command.spawn().map_err(|e| {
            host(
                &format!("cannot start the compiler `{}`", self.program.display()),
                &e,
            )
        })?;
        let wall = Duration::from_secs(self.wall_seconds);
        let ended = loop {
            match child.try_wait() {
                Ok(Some(status)) => break Ended::Status(status),
                Ok(None) if started.elapsed() >= wall => {
                    let _ = child.kill();
                    let _ = child.wait();
                    break Ended::WallClock;
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                Err(e) => return Err(host("waiting for the compiler", &e)),
            }
        };
        let stderr = std::fs::read(&log).unwrap_or_default();
        let stderr = String::from_utf8_lossy(&stderr);
        let status = match ended {
            Ended::WallClock => {
                return Err(CompileFailure::Module(format!(
                    "compiling took longer than the compiler's wall-clock limit `wall_seconds` = {} s",
                    self.wall_seconds
                )));
            }
            Ended::Status(status) if status.success() => {
                return std::fs::read(&output)
                    .map_err(|e| host("the compiler exited 0 but its output is unreadable", &e));
            }
            Ended::Status(status) => status,
        };
        Err(CompileFailure::Module(self.explain(status, &stderr)))
    }

    /// The refusal for a child that ended with `status`, having printed `stderr`.
    fn explain(&self, status: std::process::ExitStatus, stderr: &str) -> String {
        #[cfg(unix)]
        let signal = std::os::unix::process::ExitStatusExt::signal(&status);
        #[cfg(not(unix))]
        let signal: Option<i32> = None;
        // What running out of address space looks like: Rust's allocation
        // failure, a failed mmap (ENOMEM), a thread whose stack cannot be mapped.
        let out_of_memory = [
            "memory allocation of",
            "Cannot allocate memory",
            "out of memory",
            "os error 12",
            "failed to spawn thread",
        ]
        .iter()
        .any(|sign| stderr.contains(sign));
        let tail: Vec<&str> = stderr
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        let tail = tail[tail.len().saturating_sub(3)..].join(" | ");
        let tail = if tail.is_empty() {
            String::new()
        } else {
            format!(
                "; stderr: {}",
                verigate_contract::truncate_chars(&tail, 500)
            )
        };
        match signal {
            #[cfg(unix)]
            Some(libc::SIGXCPU | libc::SIGKILL) => format!(
                "compiling used more than the compiler's CPU-time limit `cpu_seconds` = {} s",
                self.cpu_seconds
            ),
            #[cfg(unix)]
            Some(libc::SIGXFSZ) => format!(
                "the compiled code is larger than the compiler's limit `output_bytes` = {}",
                self.output_bytes
            ),
            _ if out_of_memory => format!(
                "compiling needed more memory than the compiler's address-space limit `address_space_bytes` = {}{tail}",
                self.address_space_bytes
            ),
            Some(signal) => format!("the compiler was killed by signal {signal}{tail}"),
            None => {
                let message = stderr.lines().rev().find(|l| !l.trim().is_empty());
                match message {
                    Some(line) => verigate_contract::truncate_chars(line.trim(), 1000),
                    None => format!("the compiler failed ({status})"),
                }
            }
        }
    }
}

#[cfg(unix)]
mod rlimits {
    use std::os::unix::process::CommandExt;

    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    type Resource = libc::__rlimit_resource_t;
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    type Resource = libc::c_int;

    /// Lowers `resource` to `soft`/`hard` (never above the current hard limit,
    /// which an unprivileged process cannot raise).
    fn lower(resource: Resource, soft: u64, hard: u64) -> std::io::Result<()> {
        let mut current = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit and setrlimit only read and write the struct
        // passed; both are async-signal-safe, as `pre_exec` requires.
        if unsafe { libc::getrlimit(resource, &mut current) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        let cap = |value: u64| (value as libc::rlim_t).min(current.rlim_max);
        let limit = libc::rlimit {
            rlim_cur: cap(soft),
            rlim_max: cap(hard),
        };
        if unsafe { libc::setrlimit(resource, &limit) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        Ok(())
    }

    /// Applies the compiler's limits in the child, between fork and exec.
    pub(super) fn apply(
        command: &mut std::process::Command,
        cpu_seconds: u64,
        address_space: u64,
        output_bytes: u64,
    ) {
        let hook = move || {
            lower(libc::RLIMIT_CORE, 0, 0)?;
            // SIGXCPU at the soft limit; SIGKILL a second later if ignored.
            lower(
                libc::RLIMIT_CPU,
                cpu_seconds.max(1),
                cpu_seconds.max(1).saturating_add(1),
            )?;
            lower(libc::RLIMIT_AS, address_space, address_space)?;
            lower(libc::RLIMIT_FSIZE, output_bytes, output_bytes)
        };
        // SAFETY: the hook calls only async-signal-safe functions and
        // allocates nothing.
        unsafe {
            command.pre_exec(hook);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(wat: &str) -> Result<ModuleShape, String> {
        inspect(&wat::parse_str(wat).unwrap(), &ModuleLimits::default())
    }

    #[test]
    fn measures_a_module() {
        let shape = shape(
            r#"(module
                (type (func (param i32 i64) (result i32)))
                (import "wasi_snapshot_preview1" "proc_exit" (func (param i32)))
                (memory (export "memory") 1)
                (global i32 (i32.const 0))
                (data (i32.const 0) "x")
                (func (export "_start"))
                (func (type 0) (local f32 f64 f64)
                    block loop (if (local.get 0) (then nop)) end end
                    i32.const 1 i32.const 2 i32.const 3 drop drop))"#,
        )
        .unwrap();
        assert_eq!(
            (shape.functions, shape.imports, shape.exports, shape.globals),
            (2, 1, 2, 1)
        );
        assert_eq!((shape.types, shape.data_segments), (3, 1));
        assert_eq!(shape.locals, 5, "two parameters and three locals");
        assert_eq!(shape.nesting, 3, "block, loop, if");
        assert_eq!(shape.operand_stack, 3);
    }

    #[test]
    fn each_limit_is_named_with_its_value() {
        let limits = ModuleLimits {
            max_locals: 3,
            ..ModuleLimits::default()
        };
        let wasm = wat::parse_str("(module (func (param i32) (local i32 i64 i64)))").unwrap();
        let err = inspect(&wasm, &limits).unwrap_err();
        assert_eq!(
            err,
            "function 0 has 4 locals (parameters included), over the module limit `max_locals` = 3"
        );
        let limits = ModuleLimits {
            max_nesting: 2,
            max_operand_stack: 1,
            ..ModuleLimits::default()
        };
        let wasm = wat::parse_str("(module (func block block block end end end))").unwrap();
        let err = inspect(&wasm, &limits).unwrap_err();
        assert_eq!(
            err,
            "function 0 nests blocks 3 deep, over the module limit `max_nesting` = 2"
        );
        let wasm = wat::parse_str("(module (func i32.const 0 i32.const 0 drop drop))").unwrap();
        let err = inspect(&wasm, &limits).unwrap_err();
        assert!(err.contains("`max_operand_stack` = 1"), "{err}");
        let limits = ModuleLimits {
            max_functions: 1,
            max_module_bytes: 1000,
            ..ModuleLimits::default()
        };
        let wasm = wat::parse_str("(module (func) (func))").unwrap();
        let err = inspect(&wasm, &limits).unwrap_err();
        assert_eq!(
            err,
            "the module has 2 functions, over the module limit `max_functions` = 1"
        );
        let err = inspect(&[0; 1001], &limits).unwrap_err();
        assert!(err.contains("`max_module_bytes` = 1000"), "{err}");
    }

    #[test]
    fn invalid_modules_are_refused_before_compiling() {
        let err = inspect(b"\0asm\x01\0\0\0garbage", &ModuleLimits::default()).unwrap_err();
        assert!(err.starts_with("not a valid WebAssembly module"), "{err}");
        // A type error in a body.
        let wasm = wat::parse_str("(module (func (result i32) i64.const 0))").unwrap();
        let err = inspect(&wasm, &ModuleLimits::default()).unwrap_err();
        assert!(err.contains("type mismatch"), "{err}");
    }

    #[test]
    fn the_engine_argument_round_trips() {
        assert_eq!(parse_engine_arg(&engine_arg(true)), Ok(true));
        assert_eq!(parse_engine_arg(&engine_arg(false)), Ok(false));
        assert!(parse_engine_arg("fuel=1").is_err());
    }
}
