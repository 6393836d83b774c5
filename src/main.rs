use std::process::ExitCode;

use clap::Parser;

use taflbot::cli::{self, Args};

fn main() -> ExitCode {
    match cli::run(Args::parse()) {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            if e.json {
                print!("{}", e.text);
            } else {
                eprintln!("taflbot: {}", e.text);
            }
            ExitCode::from(e.status as u8)
        }
    }
}
