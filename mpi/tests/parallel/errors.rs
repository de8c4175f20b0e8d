//! Inputs the parallel program refuses (every rank stops with exit code 2 and
//! the message names the cause; no rank hangs: `harness::mpirun` fails the
//! test after its timeout), and the key only it takes without a warning.

use crate::harness::{bar, input, mpirun};

fn model(solver: &str, divisions: &str) -> String {
    bar(0.5, solver, "every = 1", divisions, "svk")
}

/// Runs `text` on `ranks` ranks; returns rank 0's stderr after asserting exit 2.
fn refused(ranks: usize, text: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let p = input(dir.path(), "m.toml", text);
    let out = dir.path().join("out");
    let o = mpirun(
        ranks,
        &["run", p.to_str().unwrap(), "--out", out.to_str().unwrap()],
    );
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{err}");
    err
}

#[test]
fn an_option_petsc_rejects_stops_every_rank() {
    let err = refused(
        2,
        &model(r#"petsc_options = "-pc_type nonsense""#, "[4, 1, 1]"),
    );
    assert!(
        err.contains("solver.petsc_options") && err.contains("nonsense"),
        "{err}"
    );
    let err = refused(
        2,
        &model(
            r#"petsc_options = "-pc_factor_mat_solver_type nosuch""#,
            "[4, 1, 1]",
        ),
    );
    assert!(
        err.contains("solver.petsc_options") && err.contains("nosuch"),
        "{err}"
    );
}

#[test]
fn an_option_petsc_does_not_use_stops_every_rank() {
    let err = refused(
        2,
        &model(r#"petsc_options = "-ksp_rtoll 1e-3""#, "[4, 1, 1]"),
    );
    assert!(err.contains("did not use -ksp_rtoll"), "{err}");
}

#[test]
fn more_ranks_than_elements_stop_every_rank() {
    let err = refused(3, &model("", "[2, 1, 1]"));
    assert!(err.contains("3 ranks for a model of 2 elements"), "{err}");
}

/// The ring impact has a consistent mass, whose velocity update solves
/// with `M`: not available across ranks yet.
#[test]
fn contact_with_a_consistent_mass_on_two_ranks_stops_every_rank() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let text = std::fs::read_to_string(format!("{dir}/inputs/ring_impact.toml")).unwrap();
    let err = refused(2, &text);
    assert!(
        err.contains("contact with a consistent mass") && err.contains("mass = \"lumped\""),
        "{err}"
    );
}

/// `solver.petsc_options` is the parallel program's: the library's input
/// warns that it has no effect (what the serial program prints, and
/// refuses with `--strict`), `emcontact-mpi check --strict` accepts it.
#[test]
fn petsc_options_are_warned_about_only_where_petsc_does_not_solve() {
    let dir = tempfile::tempdir().unwrap();
    let p = input(
        dir.path(),
        "m.toml",
        &model(r#"petsc_options = "-ksp_rtol 1e-9""#, "[4, 1, 1]"),
    );
    let serial = emcontact::input::load(&p).expect("a valid input");
    assert!(
        serial
            .warnings
            .iter()
            .any(|w| w.key == "solver.petsc_options"),
        "{:?}",
        serial.warnings
    );
    let o = mpirun(1, &["check", "--strict", p.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(!err.contains("petsc_options"), "{err}");
}
