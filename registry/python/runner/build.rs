//! Links the static CPython libraries that `../build.py` extracted.

fn main() {
    let lib = std::env::var("VERIGATE_PYTHON_LIB")
        .expect("set VERIGATE_PYTHON_LIB to the folder holding libpython3.11.a (run ../build.py)");
    println!("cargo:rustc-link-search=native={lib}");
    for name in ["python3.11", "mpdec", "expat"] {
        println!("cargo:rustc-link-lib=static={name}");
    }
    println!("cargo:rerun-if-env-changed=VERIGATE_PYTHON_LIB");
}
