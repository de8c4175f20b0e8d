//! The energy and momentum ledgers across what a user may choose: tet4
//! bodies (tri3 contact faces), the Newmark integrator, penalty and
//! augmented-Lagrangian enforcement. Each asserts what the theory promises
//! for that choice, at the tolerances in use.

use crate::common::fixture::Fixture;
use crate::common::history::{
    assert_linear_momentum, assert_momenta, max, step_balance, PENETRATION_H, STEP_ENERGY,
};
use crate::common::run::{run, Run};

/// `(step balance, penetration / h)` of a run, printed with its momenta.
fn ledger(label: &str, r: &Run) -> (f64, f64) {
    let s = &r.summary;
    let (balance, depth) = (
        step_balance(&r.history),
        max(&r.history, "max_penetration_h"),
    );
    println!(
        "{label}: {} steps, {} cut-backs, energy drift {:.2e}, step balance {balance:.2e}, L {:.2e}, J {:.2e}, dissipated {:.3} of E0 {:.3}, penetration {depth:.2e} h",
        s.steps,
        s.cutbacks,
        s.max_energy_drift,
        s.max_linear_drift,
        s.max_angular_drift,
        s.dissipation,
        s.initial.total(),
    );
    assert!(max(&r.history, "active") > 0.0, "{label}: no contact");
    (balance, depth)
}

/// The coarse friction blocks with both blocks free (no support), so that
/// the momenta are conserved, meshed with `element`.
fn free_blocks(element: &str, mu: f64) -> Fixture {
    Fixture::load("blocks_coarse")
        .remove("boundary")
        .set("mesh.generate.0.element", element)
        .set("mesh.generate.1.element", element)
        .set("contact.0.friction", mu)
}

/// tet4 bodies, tri3 contact faces (measured: step balance ≤ 3.8e-15,
/// momenta ≤ 3.1e-15, penetration 5.0e-11 h at the drift bound).
#[test]
fn tet4_blocks_keep_the_energy_momentum_ledger() {
    for mu in [0.0, 0.5] {
        let r = run(&free_blocks("tet4", mu).text());
        let (balance, depth) = ledger(&format!("tet4 blocks, μ = {mu}"), &r);
        let s = &r.summary;
        assert!(balance <= STEP_ENERGY, "μ = {mu}: step balance {balance:e}");
        assert!(
            s.max_energy_drift <= STEP_ENERGY,
            "μ = {mu}: {:e}",
            s.max_energy_drift
        );
        assert_momenta(&format!("tet4 blocks, μ = {mu}"), s);
        assert!(depth <= PENETRATION_H, "μ = {mu}: penetration {depth:e} h");
        if mu > 0.0 {
            assert!(
                s.dissipation > 0.01 * s.initial.total(),
                "friction must dissipate"
            );
        }
    }
}

/// Newmark (β = ¼, γ = ½, the trapezoidal rule) with exact contact: the
/// energy drifts visibly (measured 9e-3 to 0.12 of E₀), linear momentum is
/// exact (the internal and contact forces sum to zero: measured ≤ 1.8e-14),
/// and the constraint holds as with the energy-momentum scheme. Its angular
/// momentum is not conserved (the trapezoidal rule evaluates the forces at
/// the step's ends; measured 6e-3 to 3e-2), as validation/ring_impact shows.
#[test]
fn newmark_with_contact_drifts_in_energy_and_keeps_linear_momentum() {
    for mu in [0.0, 0.5] {
        for (label, f) in [
            ("disk on block", Fixture::load("disk_on_block")),
            ("free blocks", free_blocks("hex8", 0.0)),
        ] {
            let f = f
                .set("time.integrator", "newmark")
                .set("contact.0.friction", mu);
            let r = run(&f.text());
            let (_, depth) = ledger(&format!("Newmark, {label}, μ = {mu}"), &r);
            let s = &r.summary;
            assert!(
                s.max_energy_drift > 1e-3,
                "{label}: drift {:e}",
                s.max_energy_drift
            );
            assert_linear_momentum(label, s);
            assert!(depth <= PENETRATION_H, "{label}: penetration {depth:e} h");
        }
    }
}

/// The penalty law with its default penalty: the constraint is regularized
/// (the bodies overlap by a small part of a face: measured 6e-5 h to 1.9e-3
/// h), and the velocity update hands the penalty's stored energy back, so
/// the ledger still balances: measured ≤ 5.5e-13 per step, 1.3e-11 on the
/// frictional disk whose stick–slip switches cost 8 cut-backs. The bound is
/// a decade above that; the momenta are exact.
#[test]
fn penalty_enforcement_balances_energy_and_lets_the_bodies_overlap_a_little() {
    for mu in [0.0, 0.5] {
        for (label, f) in [
            ("disk on block", Fixture::load("disk_on_block")),
            ("disk on plane", Fixture::load("disk_on_plane")),
        ] {
            let f = f
                .set("contact.0.enforcement", "penalty")
                .set("contact.0.friction", mu);
            let r = run(&f.text());
            let (balance, depth) = ledger(&format!("penalty, {label}, μ = {mu}"), &r);
            assert!(
                balance <= 1e-10,
                "{label}, μ = {mu}: step balance {balance:e}"
            );
            assert!(
                (1e-6..=1e-2).contains(&depth),
                "{label}, μ = {mu}: penetration {depth:e} h"
            );
            if label == "disk on block" {
                let s = &r.summary;
                assert_momenta(&format!("penalty, {label}, μ = {mu}"), s);
            }
        }
    }
}

/// Augmented-Lagrangian enforcement converges to the answer of exact
/// enforcement: the same ledger, and the same histories to what the
/// contact subproblems' tolerance leaves (measured: 2e-14 of E₀ without
/// friction, 1.2e-8 with μ = 0.5, where stick and slip are decided within
/// that tolerance).
#[test]
fn augmented_lagrangian_keeps_the_ledger_of_exact_enforcement() {
    for (mu, agree) in [(0.0, 1e-12), (0.5, 1e-7)] {
        let f = Fixture::load("disk_on_block").set("contact.0.friction", mu);
        let exact = run(&f.clone().text());
        let r = run(&f
            .set("contact.0.enforcement", "augmented-lagrangian")
            .text());
        let (balance, depth) = ledger(&format!("augmented Lagrangian, μ = {mu}"), &r);
        let s = &r.summary;
        assert!(balance <= STEP_ENERGY, "μ = {mu}: step balance {balance:e}");
        assert!(depth <= PENETRATION_H, "μ = {mu}: penetration {depth:e} h");
        assert_momenta(&format!("augmented Lagrangian, μ = {mu}"), s);
        let e0 = exact.col("total")[0];
        for c in ["total", "kinetic", "strain", "dissipation"] {
            let d = exact
                .col(c)
                .iter()
                .zip(r.col(c))
                .map(|(x, y)| (x - y).abs() / e0)
                .fold(0.0, f64::max);
            println!("μ = {mu}: exact against augmented Lagrangian, max |Δ{c}| / E0 {d:.2e}");
            assert!(d <= agree, "μ = {mu}: {c} differs by {d:e} E0");
        }
    }
}
