//! Measures modules against the static [`ModuleLimits`]: the shape of each
//! (the quantities the limits bound), the time the check takes and, with
//! `--compile`, the time compiling takes: by wasmtime alone (no checks), by
//! the sandbox in-process (checks included), in a compiler child process
//! (this example, as `--serve-child`), and a cached load. The last line
//! is the maximum of each quantity over all the modules.
//!
//! ```sh
//! cargo run --release -p verigate-sandbox --example module_shape -- registry/modules/*.wasm
//! cargo run --release -p verigate-sandbox --example module_shape -- --compile synth:locals:2000
//! ```
//!
//! `--emit=PATH` after a module writes its bytes to PATH.
//! `synth:KIND:N` stands for a generated module: `locals` (one function with
//! N i64 locals, all live across a loop), `branchy` (the same with an `if`
//! around each local's update: N blocks × N live locals), `wide` (1,000
//! locals, N such `if`s), `stackwide` (1,900
//! operand-stack values live across N such `if`s), `stack` (N values on the operand
//! stack across a loop), `nesting` (N nested blocks), `functions` (N small
//! functions) or `body` (one function of about N bytes).

use std::path::Path;
use std::time::Instant;
use verigate_sandbox::compile::{inspect, serve_child};
use verigate_sandbox::engine::SandboxEngine;
use verigate_sandbox::{
    ChildCompiler, Compiler, EngineOptions, ModuleLimits, ModuleShape, Sandbox, SandboxOptions,
};

fn synth(kind: &str, n: usize) -> Vec<u8> {
    let mut body = String::new();
    let mut locals = String::new();
    let mut funcs = String::new();
    match kind {
        "locals" => {
            locals = format!("(local{})", " i64".repeat(n));
            body.push_str("(loop $l ");
            for i in 0..n {
                body.push_str(&format!(
                    "(local.set {i} (i64.add (local.get {i}) (i64.const 1)))"
                ));
            }
            body.push_str("(br_if $l (i32.wrap_i64 (local.get 0))))");
        }
        "branchy" => {
            locals = format!("(local{})", " i64".repeat(n));
            body.push_str("(loop $l ");
            for i in 0..n {
                body.push_str(&format!(
                    "(if (i32.wrap_i64 (local.get {i})) (then (local.set {i} (i64.add (local.get {i}) (i64.const 1)))))"
                ));
            }
            body.push_str("(br_if $l (i32.wrap_i64 (local.get 0))))");
        }
        "wide" => {
            // 1,000 locals, N `if`s updating them in turn.
            locals = format!("(local{})", " i64".repeat(1000));
            body.push_str("(loop $l ");
            for j in 0..n {
                let i = j % 1000;
                body.push_str(&format!(
                    "(if (i32.wrap_i64 (local.get {i})) (then (local.set {i} (i64.add (local.get {i}) (i64.const 1)))))"
                ));
            }
            body.push_str("(br_if $l (i32.wrap_i64 (local.get 0))))");
        }
        "stackwide" => {
            // 1,900 values on the stack, live across N `if`s.
            locals = "(local i64)".to_owned();
            body.push_str(&"(i64.const 1)".repeat(1900));
            for _ in 0..n {
                body.push_str("(if (i32.wrap_i64 (local.get 0)) (then (local.set 0 (i64.add (local.get 0) (i64.const 1)))))");
            }
            body.push_str(&"(i64.add)".repeat(1899));
            body.push_str("(drop)");
        }
        "stack" => {
            body.push_str(&"(i64.const 1)".repeat(n));
            body.push_str("(loop $l (br_if $l (i32.const 0)))");
            body.push_str(&"(i64.add)".repeat(n.saturating_sub(1)));
            body.push_str("(drop)");
        }
        "nesting" => {
            body.push_str(&"(block ".repeat(n));
            body.push_str(&")".repeat(n));
        }
        "functions" => {
            funcs = "(func (result i32) (i32.const 7))".repeat(n);
        }
        "body" => {
            locals = "(local i32)".to_owned();
            let step = "(local.set 0 (i32.add (local.get 0) (i32.const 1)))";
            body.push_str(&step.repeat(n / 9));
        }
        other => panic!("unknown synth kind `{other}`"),
    }
    let text = format!(
        "(module (memory (export \"memory\") 1) {funcs} (func (export \"_start\") {locals} {body}))"
    );
    wat::parse_str(&text).expect("generated WAT assembles")
}

/// Milliseconds `f` takes, and what it returned.
fn timed<T>(f: impl FnOnce() -> T) -> (f64, T) {
    let started = Instant::now();
    let out = f();
    (started.elapsed().as_secs_f64() * 1e3, out)
}

/// The compile times of `wasm`: wasmtime alone (no checks), the sandbox
/// in-process (checks + compile + pre-link), the sandbox compiling in a
/// child process (this example, run as `--serve-child`), and a cached load.
fn compile_times(wasm: &[u8]) -> serde_json::Value {
    let engine = SandboxEngine::new(&EngineOptions::default()).expect("engine");
    let (raw_ms, raw) = timed(|| wasmtime::Module::new(&engine.engine, wasm).map(drop));
    let cache = std::env::temp_dir().join(format!("verigate-module-shape-{}", std::process::id()));
    let in_process = |cache: Option<&Path>| {
        Sandbox::new(&SandboxOptions {
            cache_root: cache.map(Path::to_owned),
            ..SandboxOptions::default()
        })
        .expect("sandbox")
    };
    let (checked_ms, checked) = timed(|| in_process(Some(&cache)).load(wasm).map(drop));
    let (cached_ms, _) = timed(|| in_process(Some(&cache)).load(wasm).map(drop));
    let _ = std::fs::remove_dir_all(&cache);
    let exe = std::env::current_exe().expect("this example's path");
    let child = Sandbox::new(&SandboxOptions {
        compiler: Compiler::Child(ChildCompiler::new(exe, ["--serve-child"])),
        ..SandboxOptions::default()
    })
    .expect("sandbox");
    let (child_ms, in_child) = timed(|| child.load(wasm).map(drop));
    serde_json::json!({
        "wasmtime_only_ms": raw_ms,
        "wasmtime_only": raw.err().map(|e| format!("{e:#}")),
        "checked_ms": checked_ms,
        "checked": checked.err().map(|e| e.reason),
        "cached_load_ms": cached_ms,
        "child_ms": child_ms,
        "child": in_child.err().map(|e| e.reason),
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, input, output, engine] = args.as_slice()
        && flag == "--serve-child"
    {
        if let Err(e) = serve_child(Path::new(input), Path::new(output), engine) {
            eprintln!("{e}");
            std::process::exit(1);
        }
        return;
    }
    let mut compile = false;
    let mut last = None;
    let mut max = ModuleShape::default();
    for arg in args {
        if arg == "--compile" {
            compile = true;
            continue;
        }
        if let Some(path) = arg.strip_prefix("--emit=") {
            // Writes the previous module to PATH.
            std::fs::write(path, last.take().expect("a module before --emit")).expect("writable");
            continue;
        }
        let (name, wasm) = match arg.strip_prefix("synth:") {
            Some(spec) => {
                let (kind, n) = spec.split_once(':').expect("synth:KIND:N");
                (arg.clone(), synth(kind, n.parse().expect("a count")))
            }
            None => {
                let name = Path::new(&arg)
                    .file_name()
                    .map_or(arg.clone(), |n| n.to_string_lossy().into_owned());
                (name, std::fs::read(&arg).expect("readable module"))
            }
        };
        last = Some(wasm.clone());
        let (check_ms, shape) = timed(|| inspect(&wasm, &ModuleLimits::UNLIMITED));
        let shape = shape.expect("a valid module");
        let verdict = inspect(&wasm, &ModuleLimits::default()).err();
        let compile_ms = compile.then(|| compile_times(&wasm));
        println!(
            "{}",
            serde_json::json!({
                "module": name,
                "shape": shape,
                "check_ms": check_ms,
                "compile": compile_ms,
                "refused_by_defaults": verdict,
            })
        );
        max = ModuleShape {
            module_bytes: max.module_bytes.max(shape.module_bytes),
            code_bytes: max.code_bytes.max(shape.code_bytes),
            functions: max.functions.max(shape.functions),
            function_bytes: max.function_bytes.max(shape.function_bytes),
            locals: max.locals.max(shape.locals),
            locals_times_bytes: max.locals_times_bytes.max(shape.locals_times_bytes),
            nesting: max.nesting.max(shape.nesting),
            operand_stack: max.operand_stack.max(shape.operand_stack),
            types: max.types.max(shape.types),
            imports: max.imports.max(shape.imports),
            exports: max.exports.max(shape.exports),
            globals: max.globals.max(shape.globals),
            data_segments: max.data_segments.max(shape.data_segments),
            element_segments: max.element_segments.max(shape.element_segments),
        };
    }
    println!("{}", serde_json::json!({ "max": max }));
}
