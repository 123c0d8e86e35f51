//! The `verigate` command-line tool.

use std::process::ExitCode;

fn main() -> ExitCode {
    verigate::commands::main()
}
