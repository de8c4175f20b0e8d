//! Checkpoint and restart on two ranks: bit for bit where the linear solver
//! repeats its own bits (GAMG), to round-off where it does not (MUMPS on
//! several ranks schedules its factorization by the ranks' load at run
//! time, so two uninterrupted runs already differ in the last bits).

use crate::harness::{self, assert_same_files, assert_same_run, bar, history};
use std::path::{Path, PathBuf};

/// The uninterrupted run into `a`; the run to t = 1.5 (checkpoint at step
/// 6) continued by `--restart` into `b`.
fn full_and_restarted(dir: &Path, linear: &str) -> (PathBuf, PathBuf) {
    let model = |end| {
        let output = "every = 2\ncheckpoint_every = 3";
        let solver = format!("tolerance = 1e-11\nlinear = \"{linear}\"");
        bar(end, &solver, output, "[8, 2, 2]", "neo-hookean")
    };
    harness::full_and_restarted(dir, &model(3.0), &model(1.5), linear)
}

#[test]
fn a_restart_on_two_ranks_continues_bit_for_bit() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = full_and_restarted(dir.path(), "iterative");
    assert_same_files(
        &a,
        &b,
        &[
            "history.csv",
            "bodies.csv",
            "flight.pvd",
            "flight_00006.pvtu",
            "flight_00006_00001.vtu",
        ],
    );
}

/// The default direct solve: the restarted run continues the uninterrupted
/// one to round-off (every step's time, Newton iterations, energies, momenta
/// and ledgers), and lists the same frames.
#[test]
fn a_restart_on_two_ranks_with_mumps_continues_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = full_and_restarted(dir.path(), "direct");
    assert_same_run(&history(&a), &history(&b), 1e-10, "MUMPS restart");
    assert_eq!(
        std::fs::read(a.join("flight.pvd")).unwrap(),
        std::fs::read(b.join("flight.pvd")).unwrap(),
        "flight.pvd differs after the restart"
    );
}
