//! Free flight (no supports, no gravity) of spinning, translating bodies with the
//! energy-momentum scheme at time steps far above the explicit limit: total
//! energy, linear and angular momentum are constant to 1e-10 relative over
//! 300 steps (DESIGN §9, issue "Energy-momentum elastodynamics core").

use emcontact::driver::{self, RunOptions, RunSummary};
use emcontact::input;
use std::path::Path;

/// Time step: 15–20× the explicit limit of the meshes below (asserted in each test).
const DT: f64 = 0.25;

fn model_2d(material: &str, mass: &str, dt: f64, integrator: &str) -> String {
    format!(
        r#"
[problem]
name = "flight2d"
dimension = 2
[time]
dt = {dt}
end = {end}
integrator = "{integrator}"
[solver]
tolerance = 1e-12
[mesh]
[[mesh.generate]]
kind = "box"
name = "bar"
min = [0.0, 0.0]
max = [4.0, 1.0]
divisions = [8, 2]
element = "quad4"
[[mesh.generate]]
kind = "box"
name = "tri"
min = [6.0, 0.0]
max = [7.0, 1.0]
divisions = [2, 2]
element = "tri3"
[[body]]
name = "bar"
group = "bar"
material = {{ model = "{material}", young = 1000.0, poisson = 0.3, density = 1.0 }}
velocity = [1.0, -0.5]
angular_velocity = 2.0
mass = "{mass}"
[[body]]
name = "tri"
group = "tri"
material = {{ model = "{material}", young = 1000.0, poisson = 0.25, density = 1.0 }}
velocity = [-0.5, 0.2]
angular_velocity = -3.0
mass = "{mass}"
"#,
        end = 300.0 * dt
    )
}

fn model_3d(material: &str, mass: &str, dt: f64, integrator: &str) -> String {
    format!(
        r#"
[problem]
name = "flight3d"
dimension = 3
[time]
dt = {dt}
end = {end}
integrator = "{integrator}"
[solver]
tolerance = 1e-12
[mesh]
[[mesh.generate]]
kind = "box"
name = "brick"
min = [0.0, 0.0, 0.0]
max = [3.0, 1.0, 0.5]
divisions = [4, 2, 1]
element = "hex8"
[[mesh.generate]]
kind = "box"
name = "tet"
min = [5.0, 0.0, 0.0]
max = [6.0, 1.0, 1.0]
divisions = [1, 1, 1]
element = "tet4"
[[body]]
name = "brick"
group = "brick"
material = {{ model = "{material}", young = 1000.0, poisson = 0.3, density = 1.0 }}
velocity = [1.0, 0.0, 0.5]
angular_velocity = [0.5, 1.0, 2.0]
mass = "{mass}"
[[body]]
name = "tet"
group = "tet"
material = {{ model = "{material}", young = 1000.0, poisson = 0.2, density = 1.0 }}
velocity = [0.0, -1.0, 0.0]
angular_velocity = [-1.0, 0.0, 1.5]
mass = "{mass}"
"#,
        end = 300.0 * dt
    )
}

fn run(text: &str) -> (RunSummary, f64) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("case.toml");
    let mut model = input::parse(&path, text).expect("valid input");
    model.output.dir = dir.path().join("out");
    let info = emcontact::dynamics::model_info(&model).unwrap();
    let ratio = model.time.dt / info.stable_dt;
    let opts = RunOptions {
        vtk: false,
        plots: false,
        ..RunOptions::default()
    };
    let s = driver::run(&model, &opts).expect("run completes");
    assert!(Path::new(&model.output.dir.join("history.csv")).exists());
    (s, ratio)
}

fn assert_conserves(text: &str, label: &str) {
    let (s, ratio) = run(text);
    println!(
        "{label}: dt/dt_crit = {ratio:.1}, steps {}, energy drift {:.2e}, L drift {:.2e}, J drift {:.2e}, newton {}",
        s.steps, s.max_energy_drift, s.max_linear_drift, s.max_angular_drift, s.newton_iterations
    );
    assert!(
        ratio >= 10.0,
        "{label}: dt must be ≥ 10× the stable step, is {ratio:.2}×"
    );
    assert!(s.steps >= 300);
    assert!(
        s.max_energy_drift <= 1e-10,
        "{label}: energy drift {:e}",
        s.max_energy_drift
    );
    assert!(
        s.max_linear_drift <= 1e-10,
        "{label}: linear momentum drift {:e}",
        s.max_linear_drift
    );
    assert!(
        s.max_angular_drift <= 1e-10,
        "{label}: angular momentum drift {:e}",
        s.max_angular_drift
    );
    // the bodies really deform: strain energy is a visible part of the total
    assert!(
        s.last.strain > 1e-6 * s.initial.total(),
        "{label}: no deformation?"
    );
}

#[test]
fn free_flight_2d_svk_lumped() {
    assert_conserves(
        &model_2d("svk", "lumped", DT, "energy-momentum"),
        "2D SVK lumped",
    );
}

#[test]
fn free_flight_2d_svk_consistent() {
    assert_conserves(
        &model_2d("svk", "consistent", DT, "energy-momentum"),
        "2D SVK consistent",
    );
}

#[test]
fn free_flight_2d_neo_hookean_lumped() {
    assert_conserves(
        &model_2d("neo-hookean", "lumped", DT, "energy-momentum"),
        "2D NH lumped",
    );
}

#[test]
fn free_flight_2d_neo_hookean_consistent() {
    assert_conserves(
        &model_2d("neo-hookean", "consistent", DT, "energy-momentum"),
        "2D NH consistent",
    );
}

#[test]
fn free_flight_3d_svk_lumped() {
    assert_conserves(
        &model_3d("svk", "lumped", DT, "energy-momentum"),
        "3D SVK lumped",
    );
}

#[test]
fn free_flight_3d_svk_consistent() {
    assert_conserves(
        &model_3d("svk", "consistent", DT, "energy-momentum"),
        "3D SVK consistent",
    );
}

#[test]
fn free_flight_3d_neo_hookean_lumped() {
    assert_conserves(
        &model_3d("neo-hookean", "lumped", DT, "energy-momentum"),
        "3D NH lumped",
    );
}

#[test]
fn free_flight_3d_neo_hookean_consistent() {
    assert_conserves(
        &model_3d("neo-hookean", "consistent", DT, "energy-momentum"),
        "3D NH consistent",
    );
}

/// Newmark (β = ¼, γ = ½) on the same problem does not conserve energy: the
/// contrast the validation plot shows.
#[test]
fn newmark_does_not_conserve_energy() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("case.toml");
    let mut model = input::parse(&path, &model_2d("svk", "lumped", 0.2, "newmark")).unwrap();
    model.output.dir = dir.path().join("out");
    let opts = RunOptions {
        vtk: false,
        plots: false,
        ..RunOptions::default()
    };
    match driver::run(&model, &opts) {
        Ok(s) => {
            println!("newmark energy drift {:.3e}", s.max_energy_drift);
            assert!(
                s.max_energy_drift > 1e-4,
                "Newmark drift {:e} unexpectedly small",
                s.max_energy_drift
            );
        }
        Err(e) => println!("newmark blew up, as it may: {e}"),
    }
}

/// Newton converges quadratically for SVK: wherever the relative residual is in
/// the asymptotic range (below 1e-1) and the next one is still above the
/// round-off floor (1e-11), `r_{k+1} ≤ C r_k²` with a moderate `C` — linear or
/// superlinear convergence would fail it.
#[test]
fn newton_converges_quadratically_for_svk() {
    let (s, _) = run(&model_3d("svk", "lumped", DT, "energy-momentum"));
    const C: f64 = 10.0;
    let mut checked = 0;
    for (n, h) in s.residual_histories.iter().enumerate() {
        if n < 3 {
            println!("step {n}: relative residuals {h:.3?}");
        }
        for w in h.windows(2) {
            if w[0] < 1e-1 && w[1] > 1e-11 {
                assert!(
                    w[1] <= C * w[0] * w[0],
                    "step {n}: {:e} -> {:e} is not quadratic; history {h:?}",
                    w[0],
                    w[1]
                );
                checked += 1;
            }
        }
    }
    println!("{checked} Newton contractions checked");
    assert!(
        checked >= 100,
        "too few contractions in the asymptotic range: {checked}"
    );
}
