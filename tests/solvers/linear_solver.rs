//! The `[solver] linear` key end to end: both paths keep the energy-momentum
//! scheme exact, report their work in history.csv, and `emcontact check`
//! prints the choice with its memory estimate; a bad value is exit 2.

use emcontact::driver::{self, RunOptions, RunSummary};
use emcontact::dynamics;
use emcontact::input;
use std::process::Command;

fn model(linear: &str, mass: &str) -> String {
    format!(
        r#"
[problem]
name = "flight"
dimension = 3
[time]
dt = 0.25
end = 5.0
[solver]
tolerance = 1e-12
linear = "{linear}"
[mesh]
[[mesh.generate]]
kind = "box"
name = "brick"
min = [0.0, 0.0, 0.0]
max = [3.0, 1.0, 1.0]
divisions = [6, 3, 3]
element = "hex8"
[[body]]
name = "brick"
group = "brick"
material = {{ model = "svk", young = 1000.0, poisson = 0.3, density = 1.0 }}
velocity = [1.0, 0.0, 0.5]
angular_velocity = [0.5, 1.0, 2.0]
mass = "{mass}"
"#
    )
}

/// Runs the model; returns the summary and the history's last two columns per step.
fn run(linear: &str, mass: &str) -> (RunSummary, Vec<(f64, f64)>) {
    let dir = tempfile::tempdir().unwrap();
    let mut m = input::parse(&dir.path().join("case.toml"), &model(linear, mass)).unwrap();
    m.output.dir = dir.path().join("out");
    let info = dynamics::model_info(&m).unwrap();
    assert!(
        m.time.dt >= 10.0 * info.stable_dt,
        "dt/dt_crit = {}",
        m.time.dt / info.stable_dt
    );
    let opts = RunOptions {
        vtk: false,
        plots: false,
        ..RunOptions::default()
    };
    let s = driver::run(&m, &opts).expect("run completes");
    let h = std::fs::read_to_string(m.output.dir.join("history.csv")).unwrap();
    let mut lines = h.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|c| *c == name).unwrap();
    let (li, fa, ch) = (
        col("linear_iterations"),
        col("factorizations"),
        col("chord_iterations"),
    );
    let n = header.len();
    assert_eq!(
        (li, fa, ch),
        (n - 3, n - 2, n - 1),
        "the new columns come last, in the order they were added"
    );
    let rows = lines
        .skip(1)
        .map(|l| {
            let v: Vec<f64> = l.split(',').map(|x| x.parse().unwrap()).collect();
            (v[li], v[fa])
        })
        .collect();
    (s, rows)
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
    let p = dir.path().join("case.toml");
    std::fs::write(&p, text).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_emcontact"))
        .arg("check")
        .arg(&p)
        .output()
        .unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn check_prints_the_linear_solver_and_its_memory_estimate() {
    let (code, out, err) = emcontact_check(&model("auto", "lumped"));
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("linear solver: direct") && out.contains("GB"),
        "{out}"
    );
    let (code, out, err) = emcontact_check(&model("iterative", "lumped"));
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("linear solver: iterative"), "{out}");
}

#[test]
fn a_bad_linear_method_names_the_key_and_line() {
    let (code, _, err) = emcontact_check(&model("cholesky", "lumped"));
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("solver.linear") && err.contains("line 10") && err.contains("cholesky"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}
