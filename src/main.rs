//! `emcontact`, the serial program: the command line of [`emcontact::cli::app`]
//! with the serial driver.

fn main() -> std::process::ExitCode {
    emcontact::cli::app::main(&emcontact::cli::app::SERIAL)
}
