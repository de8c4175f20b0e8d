//! Bug: with augmented-Lagrangian enforcement the ring impact (μ = 0.5, two
//! passes) was cut back down to the smallest step at t = 1.27. Its one
//! Alart–Curnier step per Newton iteration cycled a point between open and in
//! contact; after a point's first switch within a step the subproblem is now
//! solved fully. The run completes with no cut-back allowed, and its answer
//! keeps the ledger of exact enforcement.

use crate::common::fixture::Fixture;
use crate::common::history::{assert_momenta, max, step_balance, PENETRATION_H, STEP_ENERGY};
use crate::common::run::run;

#[test]
fn augmented_lagrangian_ring_impact_needs_no_cut_back() {
    let r = run(
        &Fixture::file("validation/ring_impact/velocity_update.toml")
            .set("time.end", 1.5)
            .set("contact.0.enforcement", "augmented-lagrangian")
            .set("solver.max_cutbacks", 0)
            .text(),
    );
    let s = &r.summary;
    let contact_steps = r.col("active").iter().filter(|&&a| a > 0.0).count();
    let (balance, depth) = (
        step_balance(&r.history),
        max(&r.history, "max_penetration_h"),
    );
    println!(
        "ring, augmented Lagrangian: {contact_steps} contact steps, step balance {balance:.2e}, L {:.2e}, J {:.2e}, penetration {depth:.2e} h",
        s.max_linear_drift, s.max_angular_drift
    );
    assert!(contact_steps >= 20, "contact steps {contact_steps}");
    assert_eq!(s.cutbacks, 0);
    assert!(balance <= STEP_ENERGY, "step balance {balance:e}");
    assert_momenta("ring, augmented Lagrangian", s);
    assert!(depth <= PENETRATION_H, "penetration {depth:e} h");
}
