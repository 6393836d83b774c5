use std::process::ExitCode;

use taflbot::cli;

fn main() -> ExitCode {
    match cli::run(cli::parse()) {
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
