//! Runs one Python verifier script, unchanged, inside the sandbox.
//!
//! `wizer-initialize` (called once by `verigate`, at wrap time) reads the
//! script from stdin, starts CPython with its standard library mounted at
//! `/item/lib/python3.11`, imports the modules a verifier commonly uses and
//! every module the script imports at top level, and compiles the script.
//! The memory image after that call becomes the verifier module, so a run
//! (`_start`) only executes the compiled script: stdin is then the payload.
//! With no pre-initialisation the same steps run at the start of `_start`,
//! for testing the runner on its own.

use std::ffi::{CString, c_char, c_int, c_void};

unsafe extern "C" {
    fn Py_InitializeEx(initsigs: c_int);
    fn PyRun_SimpleString(command: *const c_char) -> c_int;
    fn Py_SetPythonHome(home: *const i32);
}

/// Where the standard library is found while pre-initialising (`lib/python3.11` below it).
const PYTHON_HOME: &str = "/item";

/// Runs at pre-initialisation: reads the script from stdin (the raw file
/// descriptor, so `sys.stdin` is untouched for the payload), imports what
/// verifiers commonly use and what the script imports, and compiles it.
const PRELUDE: &str = r#"
import ast, builtins, os
chunks = []
while chunk := os.read(0, 1 << 16):
    chunks.append(chunk)
source = b"".join(chunks).decode("utf-8")
for name in ("math", "itertools", "collections", "fractions", "json", "re", "functools",
             "heapq", "bisect", "string", "operator", "copy", "random", "statistics",
             "decimal", "typing", "dataclasses", "enum", "numbers", "array", "struct"):
    __import__(name)
for node in ast.walk(ast.parse(source, "verifier.py")):
    names = []
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
        names = [node.module]
    for name in names:
        try:
            __import__(name)
        except Exception:
            pass  # the script's own import raises the same error when it runs
builtins._verigate_code = compile(source, "verifier.py", "exec")
del chunks, chunk, source, node, names, name
"#;

static mut READY: bool = false;

fn run(code: &str) -> c_int {
    let code = CString::new(code).expect("no NUL in Python source");
    // SAFETY: the interpreter is initialised before any call.
    unsafe { PyRun_SimpleString(code.as_ptr()) }
}

/// Starts CPython and compiles the script read from stdin.
#[unsafe(export_name = "wizer-initialize")]
pub extern "C" fn initialize() {
    // SAFETY: single-threaded; the home string is leaked, as CPython keeps it.
    unsafe {
        std::env::set_var("PYTHONHASHSEED", "0");
        std::env::set_var("PYTHONDONTWRITEBYTECODE", "1");
        let home: Vec<i32> = PYTHON_HOME.chars().map(|c| c as i32).chain([0]).collect();
        Py_SetPythonHome(Box::leak(home.into_boxed_slice()).as_ptr());
        Py_InitializeEx(0);
        READY = true;
    }
    if run(PRELUDE) != 0 {
        std::process::exit(70);
    }
}

fn main() {
    // SAFETY: single-threaded.
    if unsafe { !READY } {
        initialize();
    }
    let status = run(
        "import builtins\nexec(builtins._verigate_code, {'__name__': '__main__', '__builtins__': builtins})",
    );
    run("import sys\nsys.stdout.flush()\nsys.stderr.flush()");
    std::process::exit(if status == 0 { 0 } else { 1 });
}

// Symbols of wasi-sdk's emulation libraries that CPython links against and
// Rust's wasi-libc does not provide: no signals, processes or dynamic loading.
#[unsafe(no_mangle)]
pub extern "C" fn signal(_: c_int, _: *mut c_void) -> *mut c_void {
    std::ptr::null_mut()
}
#[unsafe(no_mangle)]
pub extern "C" fn raise(_: c_int) -> c_int {
    -1
}
#[unsafe(no_mangle)]
pub extern "C" fn __SIG_ERR(_: c_int) {}
#[unsafe(no_mangle)]
pub extern "C" fn __SIG_IGN(_: c_int) {}
#[unsafe(no_mangle)]
pub extern "C" fn strsignal(_: c_int) -> *const c_char {
    c"signal".as_ptr()
}
#[unsafe(no_mangle)]
pub extern "C" fn getpid() -> c_int {
    1
}
#[unsafe(no_mangle)]
pub extern "C" fn clock() -> i64 {
    0
}
#[unsafe(no_mangle)]
pub extern "C" fn times(_: *mut c_void) -> i64 {
    0
}
#[unsafe(no_mangle)]
pub extern "C" fn dlopen(_: *const c_char, _: c_int) -> *mut c_void {
    std::ptr::null_mut()
}
#[unsafe(no_mangle)]
pub extern "C" fn dlsym(_: *mut c_void, _: *const c_char) -> *mut c_void {
    std::ptr::null_mut()
}
#[unsafe(no_mangle)]
pub extern "C" fn dlerror() -> *const c_char {
    c"dynamic loading is not supported".as_ptr()
}
