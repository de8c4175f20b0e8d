//! The `[solver] linear` key end to end: both paths keep the energy-momentum
//! scheme exact, report their work in history.csv, and `emcontact check`
//! prints the choice with its memory estimate; a bad value is exit 2.

use crate::common::fixture::Fixture;
use crate::common::run::{emcontact, model, run as run_model, write_input};
use emcontact::driver::RunSummary;
use emcontact::dynamics;

/// A hex8 brick (6×3×3, SVK) spinning in free flight at Δt = 0.25 (≥ 10×
/// the explicit limit) for 20 steps, with `[solver] linear = linear`.
fn flight(linear: &str, mass: &str) -> String {
    Fixture::load("flight_3d")
        .remove("body.1")
        .remove("mesh.generate.1")
        .set("mesh.generate.0.max", vec![3.0, 1.0, 1.0])
        .set("mesh.generate.0.divisions", vec![6, 3, 3])
        .set("time.end", 5.0)
        .set("solver.linear", linear)
        .set("body.0.mass", mass)
        .text()
}

/// Runs the model; returns the summary and the history's
/// `(linear_iterations, factorizations)` per step.
fn run(linear: &str, mass: &str) -> (RunSummary, Vec<(f64, f64)>) {
    let text = flight(linear, mass);
    let dir = tempfile::tempdir().unwrap();
    let m = model(dir.path(), &text);
    let info = dynamics::model_info(&m).unwrap();
    assert!(
        m.time.dt >= 10.0 * info.stable_dt,
        "dt/dt_crit = {}",
        m.time.dt / info.stable_dt
    );
    let r = run_model(&text);
    let header = &r.history.header;
    let col = |name: &str| header.iter().position(|c| c == name).unwrap();
    let (li, fa, ch) = (
        col("linear_iterations"),
        col("factorizations"),
        col("chord_iterations"),
    );
    // columns are only ever appended: these three follow max_penetration_h
    let before = col("max_penetration_h");
    assert_eq!(
        (li, fa, ch),
        (before + 1, before + 2, before + 3),
        "the columns come in the order they were added"
    );
    let rows = r
        .col("linear_iterations")
        .into_iter()
        .zip(r.col("factorizations"))
        .skip(1)
        .collect();
    (r.summary, rows)
}

fn assert_exact(s: &RunSummary, label: &str) {
    assert_eq!(s.steps, 20);
    for (what, d) in [
        ("energy", s.max_energy_drift),
        ("linear momentum", s.max_linear_drift),
        ("angular momentum", s.max_angular_drift),
    ] {
        assert!(d <= 1e-10, "{label}: {what} drift {d:e}");
    }
}

#[test]
fn iterative_and_direct_paths_keep_the_scheme_exact() {
    for mass in ["lumped", "consistent"] {
        let (s, rows) = run("iterative", mass);
        assert_exact(&s, &format!("iterative, {mass}"));
        assert!(
            rows.iter().all(|&(it, f)| it > 0.0 && f == 0.0),
            "iterative: {rows:?}"
        );
        let (s, rows) = run("direct", mass);
        assert_exact(&s, &format!("direct, {mass}"));
        assert!(rows[0].1 >= 1.0, "the first step factors: {rows:?}");
        // at most one factorization per Newton iteration (a system this
        // small is factored every time; reuse: src/linalg/solver_tests.rs)
        let factorizations: f64 = rows.iter().map(|r| r.1).sum();
        let newton = s.newton_iterations as f64;
        assert!(
            factorizations <= newton,
            "{factorizations} factorizations for {newton} Newton iterations"
        );
    }
}

fn emcontact_check(text: &str) -> (Option<i32>, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let p = write_input(dir.path(), "case.toml", text);
    let o = emcontact(&["check", p.to_str().unwrap()]);
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn check_prints_the_linear_solver_and_its_memory_estimate() {
    let (code, out, err) = emcontact_check(&flight("auto", "lumped"));
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("linear solver: direct") && out.contains("GB"),
        "{out}"
    );
    let (code, out, err) = emcontact_check(&flight("iterative", "lumped"));
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("linear solver: iterative"), "{out}");
}

#[test]
fn a_bad_linear_method_names_the_key_and_line() {
    let text = flight("cholesky", "lumped");
    let line = 1 + text
        .lines()
        .position(|l| l.starts_with("linear = \"cholesky\""))
        .unwrap();
    let (code, _, err) = emcontact_check(&text);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("solver.linear")
            && err.contains(&format!("line {line}"))
            && err.contains("cholesky"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}
