//! Contact dynamics on second-order faces: two free 2D blocks meshed by
//! Gmsh in tri6, quad8 and quad9 (`validation/quadratic_contact/`), the top
//! one thrown spinning onto the other, frictionless and with μ = 0.3, two
//! passes. Every node of the quadratic slave surface (corners and midside
//! nodes) is a contact point; the energy ledger of every step, the momenta
//! and the penetration hold as on first-order faces.

use crate::common::fixture::Fixture;
use crate::common::history::{assert_momenta, max, step_balance, PENETRATION_H, STEP_ENERGY};
use crate::common::run::{run, Run};

/// The validation case `validation/quadratic_contact/blocks_<mesh>.toml`
/// (base [-1,1]×[-0.5,0], top [-0.3,0.3]×[0.02,0.42] thrown at (0.5, −1)
/// spinning at 0.5, neo-Hookean E = 1000, ν = 0.3, ρ = 1, Δt = 0.01, about
/// 8× the explicit step) with friction `mu`.
pub fn blocks(mesh: &str, mu: f64) -> String {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/validation/quadratic_contact");
    Fixture::file(&format!("validation/quadratic_contact/blocks_{mesh}.toml"))
        .set("mesh.file", format!("{dir}/blocks_{mesh}.msh"))
        .set("contact.0.friction", mu)
        .text()
}

/// `(step balance, penetration / h, most active points)`, printed.
fn ledger(label: &str, r: &Run) -> (f64, f64, f64) {
    let s = &r.summary;
    let (balance, depth, active) = (
        step_balance(&r.history),
        max(&r.history, "max_penetration_h"),
        max(&r.history, "active"),
    );
    let contact_steps: Vec<f64> = r
        .col("active")
        .iter()
        .zip(r.col("newton_iterations"))
        .filter(|(a, _)| **a > 0.0)
        .map(|(_, n)| n)
        .collect();
    println!(
        "{label}: {} steps ({} in contact, Newton {:?}), {} cut-backs, step balance {balance:.2e}, L {:.2e}, J {:.2e}, dissipated {:.3e} of E0 {:.4}, penetration {depth:.2e} h, at most {active} points active",
        s.steps,
        contact_steps.len(),
        contact_steps,
        s.cutbacks,
        s.max_linear_drift,
        s.max_angular_drift,
        s.dissipation,
        s.initial.total(),
    );
    (balance, depth, active)
}

/// tri6, quad8, quad9 blocks, μ = 0 and 0.3 (measured: step balance ≤ 4e-12,
/// L ≤ 5e-15, J ≤ 2e-12, penetration 5e-11 h, all 7 nodes of the top's
/// 3 line3 faces active at once).
#[test]
fn quadratic_blocks_keep_the_energy_momentum_ledger() {
    for mesh in ["tri6", "quad8", "quad9"] {
        for mu in [0.0, 0.3] {
            let label = format!("{mesh} blocks, μ = {mu}");
            let r = run(&blocks(mesh, mu));
            let (balance, depth, active) = ledger(&label, &r);
            let s = &r.summary;
            assert!(balance <= STEP_ENERGY, "{label}: step balance {balance:e}");
            assert_momenta(&label, s);
            assert!(depth <= PENETRATION_H, "{label}: penetration {depth:e} h");
            // the top's bottom: 3 line3 faces, 4 corners and 3 midside nodes
            assert!(active >= 7.0, "{label}: at most {active} points active");
            if mu > 0.0 {
                assert!(
                    s.dissipation > 1e-3 * s.initial.total(),
                    "{label}: friction must dissipate"
                );
            } else {
                assert!(
                    s.dissipation.abs() <= 1e-14 * s.initial.total(),
                    "{label}: frictionless dissipation {:e}",
                    s.dissipation
                );
            }
        }
    }
}
