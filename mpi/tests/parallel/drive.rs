//! Loads and prescribed motion on 1 and 2 ranks against the serial driver:
//! every step's energies, momenta, external work, impulses and Newton
//! iterations (DESIGN §9), the reactions by group, and the ledgers closing.
//! The models mix every kind: a follower pressure (its load stiffness in
//! Newton), a traction and a total force spread by mass, each on a curve;
//! prescribed displacement, velocity and rotation on curves with kinks
//! (velocity jumps: their work and impulses enter the ledger).

use crate::harness::{assert_same_run, input, run_ranks_summary, run_serial};
use emcontact::output::read_csv;

const CURVES: &str = r#"
[[curve]]
name = "ramp"
points = [[0.0, 0.0], [0.07, 1.0], [0.13, 1.0], [0.2, 0.3]]
[[curve]]
name = "kink"
points = [[0.0, 0.0], [0.05, 1.0], [0.11, -0.5], [0.2, 0.0]]
"#;

/// A block under gravity, pushed, pulled and driven; `time` further
/// `[time]` lines (the integrator).
fn block(dim: usize, time: &str) -> String {
    let (head, drive) = if dim == 3 {
        (
            r#"dimension = 3
[mesh]
[[mesh.generate]]
kind = "box"
name = "block"
min = [0.0, 0.0, 0.0]
max = [2.0, 1.0, 1.0]
divisions = [6, 3, 3]
element = "hex8"
[gravity]
acceleration = [0.0, 0.0, -9.81]
[[load]]
group = "block_traction"
traction = [0.0, 30.0, -10.0]
curve = "kink"
[[load]]
group = "block"
force = [5.0, 0.0, 20.0]
curve = "ramp"
[[boundary]]
group = "block_xmin"
fix = ["x", "y", "z"]
[[boundary]]
group = "block_xmax"
displacement = { x = 0.05, z = -0.02 }
curve = "kink"
"#,
            "block_zmax",
        )
    } else {
        (
            r#"dimension = 2
[mesh]
[[mesh.generate]]
kind = "box"
name = "block"
min = [0.0, 0.0]
max = [2.0, 1.0]
divisions = [8, 4]
element = "quad4"
[gravity]
acceleration = [0.0, -9.81]
[[load]]
group = "block_traction"
force = [10.0, -20.0]
curve = "kink"
[[boundary]]
group = "block_xmin"
rotation = { point = [0.0, 0.5], angular_velocity = 0.8 }
curve = "ramp"
[[boundary]]
group = "block_xmax"
velocity = { y = 0.3 }
curve = "kink"
"#,
            "block_ymax",
        )
    };
    // the traction group is the face opposite the pressure's
    let traction = if dim == 3 { "block_ymax" } else { "block_ymin" };
    format!(
        r#"[problem]
name = "block"
{head}
[time]
dt = 0.02
end = 0.2
{time}
[solver]
tolerance = 1e-11
[output]
every = 5
[[body]]
name = "block"
group = "block"
material = {{ model = "neo-hookean", young = 1000.0, poisson = 0.3, density = 1.0 }}
[[load]]
group = "{drive}"
pressure = 40.0
curve = "ramp"
{CURVES}"#
    )
    .replace("block_traction", traction)
}

/// Runs `text` serially and on 1 and 2 ranks; asserts the same histories
/// and reactions; returns the 2-rank history and summary.
fn same_as_serial(text: &str, what: &str) -> (emcontact::output::CsvTable, String) {
    let dir = tempfile::tempdir().unwrap();
    let model = input(dir.path(), "block.toml", text);
    let serial = run_serial(&model, &dir.path().join("serial"));
    let (one, _) = run_ranks_summary(1, &model, &dir.path().join("one"));
    let (two, summary) = run_ranks_summary(2, &model, &dir.path().join("two"));
    assert_same_run(&serial, &one, 1e-10, &format!("{what}, 1 rank"));
    assert_same_run(&serial, &two, 1e-10, &format!("{what}, 2 ranks"));
    let a = read_csv(&dir.path().join("serial/reactions.csv")).unwrap();
    for ranks in ["one", "two"] {
        let b = read_csv(&dir.path().join(ranks).join("reactions.csv")).unwrap();
        assert_eq!(a.rows.len(), b.rows.len(), "{what}: reactions.csv rows");
        let scale = ["fx", "fy", "fz"]
            .iter()
            .flat_map(|c| a.column(c).unwrap())
            .fold(0.0f64, |m, v| m.max(v.abs()));
        let moment = ["mx", "my", "mz"]
            .iter()
            .flat_map(|c| a.column(c).unwrap())
            .fold(0.0f64, |m, v| m.max(v.abs()));
        assert!(scale > 0.0, "{what}: the supports carry the loads");
        for (c, s) in [
            ("fx", scale),
            ("fy", scale),
            ("fz", scale),
            ("mx", moment),
            ("my", moment),
            ("mz", moment),
        ] {
            for (x, y) in a.column(c).unwrap().iter().zip(b.column(c).unwrap()) {
                assert!(
                    (x - y).abs() <= 1e-10 * s,
                    "{what}, {ranks}: reaction {c}: {x:e} against {y:e}"
                );
            }
        }
    }
    // the loads and the driven supports do work, and their jumps are impulses
    let w = two.column("external_work").unwrap();
    assert!(
        w.iter().any(|v| v.abs() > 0.0),
        "{what}: no external work {w:?}"
    );
    (two, summary)
}

#[test]
fn loads_and_prescribed_motion_on_two_ranks_equal_the_serial_run() {
    for dim in [2, 3] {
        let what = format!("{dim}D driven block");
        let (_, summary) = same_as_serial(&block(dim, ""), &what);
        assert!(
            summary.contains("verdict: OK — energy and momentum ledgers exact"),
            "{what} on 2 ranks: {summary}"
        );
    }
}

/// Newmark: the prescribed velocities set without a measured jump (as in
/// the serial build, whose Newmark ledgers then do not close either), the
/// impulse `Δt ((1 − γ) F_n + γ F_{n+1})` with the loads in `F`.
#[test]
fn loads_and_prescribed_motion_under_newmark_on_two_ranks_equal_the_serial_run() {
    for dim in [2, 3] {
        let time = "integrator = \"newmark\"\nbeta = 0.3025\ngamma = 0.6";
        let what = format!("{dim}D Newmark driven block");
        let (_, summary) = same_as_serial(&block(dim, time), &what);
        assert!(
            summary.contains("verdict: energy is not conserved by construction here"),
            "{what} on 2 ranks: {summary}"
        );
    }
}
