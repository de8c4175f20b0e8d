//! The parallel program's command line is the serial one's under its own
//! name: its help names `emcontact-mpi` and has the serial subcommands, and
//! it exits 0 after printing it (MPI finalized: an exit without it is an
//! abort to mpirun).

use crate::harness::mpirun;

#[test]
fn the_help_names_the_parallel_program_and_its_subcommands() {
    let o = mpirun(1, &["--help"]);
    let out = plain(&String::from_utf8_lossy(&o.stdout));
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("Usage: emcontact-mpi <COMMAND>"), "{out}");
    for sub in ["run", "check", "plot", "keys", "fc"] {
        assert!(
            out.lines().any(|l| l.trim_start().starts_with(sub)),
            "no `{sub}` in:\n{out}"
        );
    }
}

/// `text` without its ANSI escape sequences (a rank's output is a terminal
/// to Open MPI, so clap colours it).
fn plain(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // CSI: ESC [ parameters final-byte (a letter)
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}
