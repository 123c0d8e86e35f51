//! Runs one verifier module on one payload through the sandbox library
//! alone (no registry, no CLI) and prints the run report as JSON.
//!
//! `cargo run -p verigate-sandbox --example run_module -- MODULE.wasm PAYLOAD_FILE`

use std::process::ExitCode;
use verigate_sandbox::{Request, Sandbox, SandboxOptions};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [module, payload] = args.as_slice() else {
        eprintln!("usage: run_module MODULE.wasm PAYLOAD_FILE");
        return ExitCode::from(2);
    };
    let run = || -> Result<_, Box<dyn std::error::Error>> {
        let sandbox = Sandbox::new(&SandboxOptions::default())?;
        let verifier = sandbox.load_file(module.as_ref())??;
        let report = sandbox.run(&verifier, &Request::new(std::fs::read(payload)?))?;
        Ok(serde_json::to_string(&report)?)
    };
    match run() {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("run_module: {e}");
            ExitCode::from(2)
        }
    }
}
