//! Free flight of every second-order element kind on the committed Gmsh
//! meshes (a spinning curved ring in 2D, a tumbling block in 3D), with the
//! energy-momentum scheme at 15× the explicit stable step: total energy,
//! linear and angular momentum constant to 1e-10 over 300 steps, both
//! materials, lumped (HRZ) and consistent mass.

use emcontact::driver::{self, RunOptions};
use emcontact::input;
use std::path::Path;

/// Time step in multiples of `check`'s explicit stable step.
const DT_OVER_CRITICAL: f64 = 15.0;

fn text(mesh: &str, material: &str, mass: &str, dt: f64) -> String {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("meshes")
        .join(mesh);
    let (dim, body, motion) = if mesh.starts_with("ring") {
        (2, "ring", "velocity = [1.0, -0.5]\nangular_velocity = 3.0")
    } else {
        (
            3,
            "block",
            "velocity = [1.0, 0.0, 0.5]\nangular_velocity = [1.5, 3.0, 6.0]",
        )
    };
    format!(
        r#"
[problem]
name = "flight"
dimension = {dim}
[time]
dt = {dt}
end = {end}
[solver]
tolerance = 1e-12
[mesh]
file = "{file}"
[[body]]
name = "{body}"
group = "{body}"
material = {{ model = "{material}", young = 1000.0, poisson = 0.3, density = 1.0 }}
mass = "{mass}"
{motion}
"#,
        file = file.display(),
        end = 300.0 * dt
    )
}

fn assert_conserves(mesh: &str, material: &str, mass: &str) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("case.toml");
    let probe = input::parse(&path, &text(mesh, material, mass, 1.0)).expect("valid input");
    let info = emcontact::dynamics::model_info(&probe).unwrap();
    let dt = DT_OVER_CRITICAL * info.stable_dt;
    let mut model = input::parse(&path, &text(mesh, material, mass, dt)).unwrap();
    model.output.dir = dir.path().join("out");
    let opts = RunOptions {
        vtk: false,
        plots: false,
        ..RunOptions::default()
    };
    let s = driver::run(&model, &opts).expect("run completes");
    let label = format!("{mesh} {material} {mass}");
    println!(
        "{label}: dt = {dt:.3e} ({DT_OVER_CRITICAL}× {:.3e}), steps {}, energy {:.2e}, L {:.2e}, J {:.2e}, newton {}, strain/total {:.2e}",
        info.stable_dt,
        s.steps,
        s.max_energy_drift,
        s.max_linear_drift,
        s.max_angular_drift,
        s.newton_iterations,
        s.last.strain / s.initial.total()
    );
    assert!(s.steps >= 300, "{label}: {} steps", s.steps);
    assert_eq!(s.cutbacks, 0, "{label}: cut-backs");
    assert!(
        s.max_energy_drift <= 1e-10,
        "{label}: energy drift {:e}",
        s.max_energy_drift
    );
    assert!(
        s.max_linear_drift <= 1e-10,
        "{label}: L drift {:e}",
        s.max_linear_drift
    );
    assert!(
        s.max_angular_drift <= 1e-10,
        "{label}: J drift {:e}",
        s.max_angular_drift
    );
    assert!(
        s.last.strain > 1e-6 * s.initial.total(),
        "{label}: the body does not deform"
    );
}

fn all_cases(mesh: &str) {
    for material in ["svk", "neo-hookean"] {
        for mass in ["lumped", "consistent"] {
            assert_conserves(mesh, material, mass);
        }
    }
}

#[test]
fn free_flight_tri6() {
    all_cases("ring_tri6.msh41.msh");
}

#[test]
fn free_flight_quad8() {
    all_cases("ring_quad8.msh22b.msh");
}

#[test]
fn free_flight_quad9() {
    all_cases("ring_quad9.msh41b.msh");
}

#[test]
fn free_flight_tet10() {
    all_cases("block_tet10.msh41.msh");
}

#[test]
fn free_flight_hex20() {
    all_cases("block_hex20.msh22.msh");
}

#[test]
fn free_flight_hex27() {
    all_cases("block_hex27.msh41b.msh");
}

/// The Newmark integrator (β = ¼, γ = ½) runs on every second-order kind:
/// 100 steps at 5× the explicit step, no cut-back, linear momentum constant
/// to 1e-10 (the trapezoidal rule conserves it for free bodies; energy and
/// angular momentum it does not conserve exactly, which is why the
/// energy-momentum scheme is the default).
#[test]
fn newmark_on_second_order_elements() {
    for mesh in [
        "ring_tri6.msh22.msh",
        "ring_quad8.msh41.msh",
        "ring_quad9.msh22b.msh",
        "block_tet10.msh22.msh",
        "block_hex20.msh41b.msh",
        "block_hex27.msh22b.msh",
    ] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("case.toml");
        let probe = input::parse(&path, &text(mesh, "svk", "lumped", 1.0)).unwrap();
        let dt = 5.0 * emcontact::dynamics::model_info(&probe).unwrap().stable_dt;
        let newmark = text(mesh, "svk", "lumped", dt)
            .replace("end = ", "integrator = \"newmark\"\nend = ")
            .replace(
                &format!("end = {}", 300.0 * dt),
                &format!("end = {}", 100.0 * dt),
            );
        let mut model = input::parse(&path, &newmark).unwrap();
        model.output.dir = dir.path().join("out");
        let opts = RunOptions {
            vtk: false,
            plots: false,
            ..RunOptions::default()
        };
        let s = driver::run(&model, &opts).expect("run completes");
        println!(
            "{mesh} newmark: steps {}, energy {:.2e}, L {:.2e}, J {:.2e}",
            s.steps, s.max_energy_drift, s.max_linear_drift, s.max_angular_drift
        );
        assert!(
            s.steps >= 100 && s.cutbacks == 0,
            "{mesh}: {} steps, {} cut-backs",
            s.steps,
            s.cutbacks
        );
        assert!(
            s.max_linear_drift <= 1e-10,
            "{mesh}: L drift {:e}",
            s.max_linear_drift
        );
    }
}
