//! Links the static CPython libraries that `../build.py` extracted.

fn main() {
    let lib = std::env::var("VERIGATE_PYTHON_LIB")
        .expect("set VERIGATE_PYTHON_LIB to the folder holding libpython3.11.a (run ../build.py)");
    println!("cargo:rustc-link-search=native={lib}");
    for name in ["python3.11", "mpdec", "expat"] {
        println!("cargo:rustc-link-lib=static={name}");
        println!("cargo:rerun-if-changed={lib}/lib{name}.a");
    }
    // Native CPython's C stack is 8 MiB; Rust's wasm default of 1 MiB of
    // shadow stack runs out before a recursion limit of 1000 is reached
    // through C calls (`repr`, `json`, comparisons).
    println!("cargo:rustc-link-arg=-zstack-size={}", 8 << 20);
    println!("cargo:rerun-if-env-changed=VERIGATE_PYTHON_LIB");
}
