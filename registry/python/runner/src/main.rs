//! verigate's Python interpreter: CPython 3.11 for wasm32-wasip1, one module
//! for every Python verifier. A verifier script is data, handed over at run
//! time; nothing is compiled per script.
//!
//! `wizer-initialize` (called once, when the interpreter module is built)
//! starts CPython with the standard library mounted at `/usr/local/lib`,
//! imports the modules verifiers commonly use, and moves the standard
//! library into memory, served from there by an import finder, so that a
//! run touches no file of its own and a module first imported at run time is
//! still found. If stdin holds a script at that point, it is compiled and
//! kept (a standalone module, as `verigate wrap-python` makes).
//!
//! A run (`_start`) executes the script given in the environment variable
//! `VERIGATE_SCRIPT` (its source text), else the kept one, as `__main__`,
//! with the payload on stdin. The environment and the open directories (the
//! item's, at `/item`) are looked up afresh: the C library's copies are the
//! pre-initialisation's.
//!
//! With no pre-initialisation the same steps run at the start of `_start`,
//! for testing the runner on its own.

use std::ffi::{CString, c_char, c_int, c_void};

unsafe extern "C" {
    fn Py_InitializeEx(initsigs: c_int);
    fn PyRun_SimpleString(command: *const c_char) -> c_int;
    fn Py_SetPythonHome(home: *const i32);
    fn PyBytes_FromStringAndSize(bytes: *const c_char, len: isize) -> *mut c_void;
    fn PySys_SetObject(name: *const c_char, value: *mut c_void) -> c_int;
    fn Py_DecRef(object: *mut c_void);
    /// wasi-libc: forget the directories found open so far (the
    /// pre-initialisation's), to look them up again when next needed.
    fn __wasilibc_reset_preopens();
}

#[link(wasm_import_module = "wasi_snapshot_preview1")]
unsafe extern "C" {
    #[link_name = "environ_sizes_get"]
    fn wasi_environ_sizes_get(count: *mut usize, size: *mut usize) -> u16;
    #[link_name = "environ_get"]
    fn wasi_environ_get(entries: *mut *mut u8, buffer: *mut u8) -> u16;
}

/// Where the standard library is mounted while pre-initialising
/// (`lib/python311.zip` below it): CPython's default prefix.
const PYTHON_HOME: &str = "/usr/local";

/// The pre-initialisation, in Python: see `prelude.py`.
const PRELUDE: &str = include_str!("prelude.py");

static mut READY: bool = false;

fn run(code: &str) -> c_int {
    let code = CString::new(code).expect("no NUL in the runner's own Python code");
    // SAFETY: the interpreter is initialised before any call.
    unsafe { PyRun_SimpleString(code.as_ptr()) }
}

/// Starts CPython and runs the prelude.
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

/// This run's environment, `NAME=value` entries each ended by NUL, read
/// through WASI (empty when it cannot be read).
fn environment() -> Vec<u8> {
    let (mut count, mut size) = (0usize, 0usize);
    // SAFETY: WASI writes the two sizes, then at most `count` pointers and
    // `size` bytes into buffers of exactly those lengths.
    unsafe {
        if wasi_environ_sizes_get(&mut count, &mut size) != 0 {
            return Vec::new();
        }
        let mut entries = vec![std::ptr::null_mut(); count];
        let mut buffer = vec![0u8; size];
        if wasi_environ_get(entries.as_mut_ptr(), buffer.as_mut_ptr()) != 0 {
            return Vec::new();
        }
        buffer
    }
}

fn main() {
    // SAFETY: single-threaded.
    if unsafe { !READY } {
        initialize();
    }
    // SAFETY: nothing holds a path resolved against the old table.
    unsafe { __wasilibc_reset_preopens() };
    let environ = environment();
    // SAFETY: the interpreter is initialised; the bytes object is handed to
    // `sys` (which keeps its own reference) and ours is dropped.
    unsafe {
        let bytes = PyBytes_FromStringAndSize(environ.as_ptr().cast(), environ.len() as isize);
        if bytes.is_null() || PySys_SetObject(c"_verigate_environ".as_ptr(), bytes) != 0 {
            std::process::exit(70);
        }
        Py_DecRef(bytes);
    }
    drop(environ);
    // `main` ends the process with the script's exit status, as `python
    // verifier.py` would; it returns only if the runner itself is broken.
    run("import _verigate\n_verigate.main()");
    std::process::exit(70);
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
