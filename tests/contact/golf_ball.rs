//! The golf ball of Love & Laursen (2003) §4.3 on a coarse mesh
//! (validation/golf_ball has the full case): a ball at rest struck by a free
//! steel club head at 40 m/s with 25° loft, units mm, ms, g. Asserts what the
//! method promises (momenta exact, E + D = E₀ every step, energy exact without
//! friction), the backspin that friction gives, and that without the velocity
//! update the balance visibly fails.

use emcontact::driver::{self, RunOptions, RunSummary};
use emcontact::input;

/// Ball R = 21.35 mm (3 divisions), neo-Hookean E = 60 MPa, ν = 0.45; club
/// 60×40×10 mm, 200 g, E = 200 GPa, moving at 40·(−sin 25°, 0, cos 25°) toward
/// the ball; face normal +z, "up the face" +x.
fn golf(friction: f64, update: bool) -> String {
    format!(
        r#"
[problem]
name = "golf"
dimension = 3
[time]
dt = 0.02
end = 0.6
[mesh]
[[mesh.generate]]
kind = "ball"
name = "ball"
center = [0.0, 0.0, 21.45]
radius = 21.35
divisions = 3
[[mesh.generate]]
kind = "box"
name = "club"
min = [-25.0, -20.0, -10.0]
max = [35.0, 20.0, 0.0]
divisions = [4, 3, 1]
[[body]]
name = "ball"
group = "ball"
material = {{ model = "neo-hookean", young = 60.0, poisson = 0.45, density = 1.1610e-3 }}
[[body]]
name = "club"
group = "club"
material = {{ model = "neo-hookean", young = 2.0e5, poisson = 0.3, density = 8.333e-3 }}
velocity = [-16.9047, 0.0, 36.2523]
[[contact]]
slave = "ball_outer"
master = "club_zmax"
friction = {friction}
velocity_update = {update}
"#
    )
}

struct Run {
    summary: RunSummary,
    header: Vec<String>,
    rows: Vec<Vec<f64>>,
    /// The ball's last `[wx, wy, wz]` from bodies.csv (rad/ms).
    ball_spin: [f64; 3],
}

fn run(text: &str) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("golf.toml");
    let mut model = input::parse(&path, text).expect("valid input");
    model.output.dir = dir.path().join("out");
    let opts = RunOptions {
        vtk: false,
        plots: false,
        ..RunOptions::default()
    };
    let summary = driver::run(&model, &opts).expect("run completes");
    let t = emcontact::output::read_csv(&model.output.dir.join("history.csv")).unwrap();
    // bodies.csv: t, body, …, wx, wy, wz; the body column is a name.
    let bodies = std::fs::read_to_string(model.output.dir.join("bodies.csv")).unwrap();
    let mut lines = bodies.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let at = |n: &str| head.iter().position(|c| *c == n).unwrap();
    let last = lines
        .filter(|l| l.split(',').nth(at("body")) == Some("ball"))
        .last()
        .unwrap()
        .split(',')
        .map(str::to_string)
        .collect::<Vec<_>>();
    let w = |n: &str| last[at(n)].parse::<f64>().unwrap();
    Run {
        summary,
        header: t.header,
        rows: t.rows,
        ball_spin: [w("wx"), w("wy"), w("wz")],
    }
}

impl Run {
    fn col(&self, name: &str) -> Vec<f64> {
        let i = self.header.iter().position(|c| c == name).unwrap();
        self.rows.iter().map(|r| r[i]).collect()
    }

    /// `max_n |E_{n+1} − E_n + D_{n+1} − D_n| / E_0`.
    fn step_balance(&self) -> f64 {
        let e: Vec<f64> = self
            .col("total")
            .iter()
            .zip(self.col("dissipation"))
            .map(|(e, d)| e + d)
            .collect();
        e.windows(2)
            .map(|w| (w[1] - w[0]).abs())
            .fold(0.0, f64::max)
            / e[0]
    }
}

#[test]
fn golf_ball_mu05_balances_energy_and_spins_backwards() {
    let r = run(&golf(0.5, true));
    let s = &r.summary;
    let e0 = r.col("total")[0];
    let frac = s.dissipation / e0;
    let active = r.col("active");
    let w = r.ball_spin;
    println!(
        "μ = 0.5: step balance {:.2e}, L {:.2e}, J {:.2e}, D/E0 {frac:.4}, spin {w:?}, penetration {:.2e}",
        r.step_balance(),
        s.max_linear_drift,
        s.max_angular_drift,
        s.max_penetration
    );
    assert!(
        active.iter().any(|&a| a > 0.0),
        "the club must hit the ball"
    );
    assert_eq!(
        *active.last().unwrap(),
        0.0,
        "and the ball must leave the face"
    );
    // both bodies free: momenta exact every step
    assert!(
        s.max_linear_drift <= 1e-10,
        "L drift {:e}",
        s.max_linear_drift
    );
    assert!(
        s.max_angular_drift <= 1e-10,
        "J drift {:e}",
        s.max_angular_drift
    );
    // slip: E_{n+1} − E_n + ΔD = 0 every step
    assert!(
        r.step_balance() <= 1e-8,
        "step balance {:e}",
        r.step_balance()
    );
    // about 1 % of the system energy to friction (the paper: 1.2 %)
    assert!((0.003..0.03).contains(&frac), "dissipated fraction {frac}");
    // backspin: +y = (face normal) × (up the face); ≥ 0.1 rad/ms ≈ 1000 rpm
    assert!(w[1] >= 0.1, "backspin wy = {} rad/ms", w[1]);
    assert!(w[0].abs().max(w[2].abs()) <= 1e-3 * w[1], "spin axis {w:?}");
    let h = std::f64::consts::FRAC_PI_2 * 21.35 / 3.0;
    assert!(
        s.max_penetration <= 1e-3 * h,
        "penetration {:e}",
        s.max_penetration
    );
}

#[test]
fn golf_ball_frictionless_conserves_energy_and_barely_spins() {
    let r = run(&golf(0.0, true));
    let s = &r.summary;
    let w = r.ball_spin;
    println!(
        "μ = 0: energy {:.2e}, L {:.2e}, J {:.2e}, spin {w:?}",
        s.max_energy_drift, s.max_linear_drift, s.max_angular_drift
    );
    assert!(
        s.max_energy_drift <= 1e-8,
        "energy drift {:e}",
        s.max_energy_drift
    );
    assert!(s.max_linear_drift <= 1e-10 && s.max_angular_drift <= 1e-10);
    assert_eq!(s.dissipation, 0.0);
    // Normal forces alone give at most a trace of spin (Laursen & Love 2002):
    // on a sphere they pass through its centre, and on this coarse faceted
    // ball they nearly do. "A trace" against the spin friction gives the same
    // ball: at most 2 %. Measured (session 5): 0.0146 against 0.934 rad/ms,
    // 1.6 %; the validation ball (6 divisions) 0.27 %.
    let spun = run(&golf(0.5, true)).ball_spin[1];
    assert!(
        w[1].abs() <= 0.02 * spun,
        "frictionless spin {w:?} against {spun} with friction"
    );
}

#[test]
fn golf_ball_without_the_update_misses_the_balance() {
    let r = run(&golf(0.5, false));
    println!("no update: step balance {:.2e}", r.step_balance());
    assert!(r.summary.max_linear_drift <= 1e-10 && r.summary.max_angular_drift <= 1e-10);
    assert!(
        r.step_balance() >= 1e-4,
        "step balance {:e}",
        r.step_balance()
    );
}
