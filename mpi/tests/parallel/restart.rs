//! Checkpoint and restart on two ranks: bit for bit where the linear solver
//! repeats its own bits (GAMG), to round-off where it does not (MUMPS on
//! several ranks schedules its factorization by the ranks' load at run
//! time, so two uninterrupted runs already differ in the last bits).

use crate::harness::{assert_same_run, bar, history, input, mpirun};
use std::path::Path;

/// The uninterrupted run into `a`; the run to t = 1.5 (checkpoint at step
/// 6) continued by `--restart` into `b`.
fn full_and_restarted(dir: &Path, linear: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let model = |end| {
        let output = "every = 2\ncheckpoint_every = 3";
        let solver = format!("tolerance = 1e-11\nlinear = \"{linear}\"");
        bar(end, &solver, output, "[8, 2, 2]", "neo-hookean")
    };
    let full = input(dir, "full.toml", &model(3.0));
    let short = input(dir, "short.toml", &model(1.5));
    let (a, b) = (dir.join("a"), dir.join("b"));
    let run = |input: &Path, flag: &str, out: &Path| {
        let o = mpirun(
            2,
            &[
                "run",
                input.to_str().unwrap(),
                flag,
                out.to_str().unwrap(),
                "-q",
            ],
        );
        assert!(
            o.status.success(),
            "{linear}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    };
    run(&full, "--out", &a);
    run(&short, "--out", &b);
    run(&full, "--restart", &b);
    (a, b)
}

#[test]
fn a_restart_on_two_ranks_continues_bit_for_bit() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = full_and_restarted(dir.path(), "iterative");
    for f in [
        "history.csv",
        "bodies.csv",
        "flight.pvd",
        "flight_00006.pvtu",
        "flight_00006_00001.vtu",
    ] {
        assert_eq!(
            std::fs::read(a.join(f)).unwrap(),
            std::fs::read(b.join(f)).unwrap(),
            "{f} differs after the restart"
        );
    }
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
