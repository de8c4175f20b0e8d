//! Free flight of every second-order element kind on the committed Gmsh
//! meshes (a spinning curved ring in 2D, a tumbling block in 3D), with the
//! energy-momentum scheme at 15× the explicit stable step: total energy,
//! linear and angular momentum constant to 1e-10 over 300 steps, both
//! materials, lumped (HRZ) and consistent mass.

use crate::common::fixture::{on_mesh_file, Fixture};
use crate::common::run::{model, run};
use std::path::Path;

/// Time step in multiples of `check`'s explicit stable step.
const DT_OVER_CRITICAL: f64 = 15.0;

/// The mesh file `mesh` (a ring in 2D, a block in 3D) as one body of
/// `material` with `mass`, spinning and translating, 300 steps of `dt`,
/// Newton to 1e-12.
fn flight(mesh: &str, material: &str, mass: &str, dt: f64) -> Fixture {
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
    let extra = format!("mass = \"{mass}\"\n{motion}\n");
    Fixture::parse(&on_mesh_file(
        dim,
        &file.display().to_string(),
        body,
        material,
        &extra,
    ))
    .set("problem.name", "flight")
    .set("time.dt", dt)
    .set("time.end", 300.0 * dt)
    .set("solver.tolerance", 1e-12)
}

/// `check`'s explicit stable step of the model of `f`.
fn stable_dt(f: &Fixture) -> f64 {
    let dir = tempfile::tempdir().unwrap();
    let probe = model(dir.path(), &f.text());
    emcontact::dynamics::model_info(&probe).unwrap().stable_dt
}

fn assert_conserves(mesh: &str, material: &str, mass: &str) {
    let stable = stable_dt(&flight(mesh, material, mass, 1.0));
    let dt = DT_OVER_CRITICAL * stable;
    let s = run(&flight(mesh, material, mass, dt).text()).summary;
    let label = format!("{mesh} {material} {mass}");
    println!(
        "{label}: dt = {dt:.3e} ({DT_OVER_CRITICAL}× {:.3e}), steps {}, energy {:.2e}, L {:.2e}, J {:.2e}, newton {}, strain/total {:.2e}",
        stable,
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
        let dt = 5.0 * stable_dt(&flight(mesh, "svk", "lumped", 1.0));
        let newmark = flight(mesh, "svk", "lumped", dt)
            .set("time.integrator", "newmark")
            .set("time.end", 100.0 * dt);
        let s = run(&newmark.text()).summary;
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
