//! Contact across ranks (the gathered condensed path, docs/parallel.md):
//! the coarse friction blocks at μ = 0.8 (the cube lands at t ∈ [0.2, 0.3]
//! and its leading edge sticks) on 2 ranks against the serial driver, a
//! restart on 2 ranks, and the saddle-point path refused.

use crate::harness::{
    self, assert_same_files, assert_same_run, history, input, mpirun, run_ranks_summary, run_serial,
};
use emcontact::output::CsvTable;
use std::path::{Path, PathBuf};

/// The coarse friction blocks (the suite's `tests/common/models/blocks_coarse.toml`)
/// at μ = 0.8, with `solver` and `output` lines.
pub fn blocks(solver: &str, output: &str) -> String {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let text = std::fs::read_to_string(format!("{dir}/tests/common/models/blocks_coarse.toml"))
        .expect("the coarse blocks");
    assert!(text.contains("friction = 0.2"), "{text}");
    text.replace("friction = 0.2", "friction = 0.8").replace(
        "[time]",
        &format!("[solver]\n{solver}\n[output]\n{output}\n[time]"),
    )
}

/// The contact columns of `history.csv` agree within `tol` of the energy
/// scale (the frictional work) and to the point (the active, sticking and
/// slipping points).
fn assert_same_contact(a: &CsvTable, b: &CsvTable, tol: f64, what: &str) {
    let col = |t: &CsvTable, c: &str| t.column(c).unwrap();
    let scale = col(a, "kinetic")
        .iter()
        .zip(col(a, "strain"))
        .map(|(k, s)| k + s)
        .fold(0.0f64, f64::max);
    for c in ["dissipation", "update_defect"] {
        for (step, (x, y)) in col(a, c).iter().zip(col(b, c)).enumerate() {
            assert!(
                (x - y).abs() <= tol * scale,
                "{what}: {c} at step {step}: {x:e} against {y:e}"
            );
        }
    }
    for c in ["active", "stick", "slip"] {
        assert_eq!(col(a, c), col(b, c), "{what}: {c} points");
    }
    // the cube lands and sticks: the comparison is of a frictional contact
    assert!(
        col(a, "stick").iter().sum::<f64>() > 0.0
            && col(a, "dissipation").iter().sum::<f64>() > 0.0,
        "{what}: no sticking contact with dissipation in the reference run"
    );
}

/// Every step's energies, momenta, ledgers, frictional work and Newton
/// iterations on 2 ranks equal the serial run's to 1e-10, with the direct
/// (MUMPS) and iterative (GAMG) solvers, and the run's verdict is the
/// serial one: the energy ledger `E + D − W − E₀` closed at every step.
#[test]
fn friction_blocks_on_two_ranks_equal_the_serial_run() {
    let dir = tempfile::tempdir().unwrap();
    let reference = input(dir.path(), "serial.toml", &blocks("", "every = 1"));
    let serial = run_serial(&reference, &dir.path().join("serial"));
    for linear in ["direct", "iterative"] {
        let solver = format!("linear = \"{linear}\"");
        let model = input(dir.path(), "blocks.toml", &blocks(&solver, "every = 1"));
        let (two, out) = run_ranks_summary(2, &model, &dir.path().join(linear));
        let what = format!("friction blocks, {linear}, 2 ranks");
        assert_same_run(&serial, &two, 1e-10, &what);
        assert_same_contact(&serial, &two, 1e-10, &what);
        assert!(
            out.contains("verdict: OK — energy and momentum ledgers exact"),
            "{what}: {out}"
        );
    }
}

/// The uninterrupted run into `a`; the run to t = 0.4 (checkpoints every
/// 2 steps: the last at step 4, in contact) continued by `--restart` into `b`.
fn full_and_restarted(dir: &Path, linear: &str) -> (PathBuf, PathBuf) {
    let model = |end: &str| {
        let solver = format!("linear = \"{linear}\"");
        blocks(&solver, "every = 1\ncheckpoint_every = 2").replace("end = 0.6", end)
    };
    harness::full_and_restarted(dir, &model("end = 0.6"), &model("end = 0.4"), linear)
}

/// GAMG repeats its own bits: the restarted run writes the uninterrupted
/// run's files bit for bit, `contacts.csv` and the contact point data of
/// the frames with them (the contact state and the contact blocks of the
/// Newton matrix are in the checkpoint).
#[test]
fn a_restart_of_the_friction_blocks_on_two_ranks_continues_bit_for_bit() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = full_and_restarted(dir.path(), "iterative");
    assert_same_files(
        &a,
        &b,
        &[
            "history.csv",
            "bodies.csv",
            "reactions.csv",
            "contacts.csv",
            "blocks.pvd",
            "blocks_00006.pvtu",
            "blocks_00006_00001.vtu",
        ],
    );
}

/// MUMPS on several ranks schedules its work at run time: the restart
/// continues the run to round-off.
#[test]
fn a_restart_of_the_friction_blocks_with_mumps_continues_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = full_and_restarted(dir.path(), "direct");
    let (ha, hb) = (history(&a), history(&b));
    assert_same_run(&ha, &hb, 1e-10, "MUMPS restart");
    assert_same_contact(&ha, &hb, 1e-10, "MUMPS restart");
}

/// The saddle-point path is not built across ranks: asked for, or where
/// `auto` could take it, every rank stops with exit 2 naming the key.
#[test]
fn the_saddle_point_path_on_two_ranks_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let model = input(
        dir.path(),
        "saddle.toml",
        &blocks("contact_system = \"saddle\"", "every = 1"),
    );
    let out = dir.path().join("out");
    let o = mpirun(
        2,
        &[
            "run",
            model.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("[solver] contact_system") && err.contains("\"condensed\""),
        "{err}"
    );
}
