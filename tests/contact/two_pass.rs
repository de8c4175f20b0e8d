//! Two-pass contact: with `passes = 2` each surface is slave and master in turn, so
//! that neither sinks into the other, and the energy balance and momenta stay
//! exact; with one pass the master's nodes are still measured, so that
//! `max_penetration` reports the deepest node of either surface.

use crate::common::fixture::Fixture;
use crate::common::history::{assert_momenta, max, step_balance, PENETRATION_H, STEP_ENERGY};
use crate::common::run::run;
use emcontact::driver::RunSummary;

/// The ring impact of the validation (velocity update, μ = 0.5) to t = 1.2
/// with `passes`: the rings touch from t = 0.59. Returns the summary, the
/// largest `max_penetration_h` and the largest step balance.
fn rings(passes: u8) -> (RunSummary, f64, f64) {
    let r = run(
        &Fixture::file("validation/ring_impact/velocity_update.toml")
            .set("time.end", 1.2)
            .set("contact.0.passes", passes as i64)
            .text(),
    );
    let deepest = max(&r.history, "max_penetration_h");
    let balance = step_balance(&r.history);
    (r.summary, deepest, balance)
}

#[test]
fn two_passes_keep_either_ring_out_of_the_other() {
    let (s, deepest, balance) = rings(2);
    println!(
        "rings, two passes: deepest {deepest:.2e} h, balance {:.2e}, step balance {balance:.2e}, L {:.2e}, J {:.2e}, cut-backs {}",
        s.max_energy_drift, s.max_linear_drift, s.max_angular_drift, s.cutbacks
    );
    assert!(s.dissipation > 0.0, "the rings must touch and slip");
    assert!(deepest <= PENETRATION_H, "deepest node {deepest:e} h");
    assert!(
        s.max_energy_drift <= STEP_ENERGY,
        "balance {:e}",
        s.max_energy_drift
    );
    assert!(balance <= STEP_ENERGY, "step balance {balance:e}");
    assert_momenta("rings, two passes", &s);
}

#[test]
fn one_pass_measures_the_master_nodes_too() {
    // one pass enforces the slave nodes only: ring 2's nodes sink into
    // ring 1 by more than 1e-3 h, and the history says so
    let (s, deepest, balance) = rings(1);
    println!("rings, one pass: deepest {deepest:.2e} h, step balance {balance:.2e}");
    assert!(
        s.max_energy_drift <= STEP_ENERGY,
        "balance {:e}",
        s.max_energy_drift
    );
    assert!(balance <= STEP_ENERGY, "step balance {balance:e}");
    assert!(deepest > 1e-3, "deepest node {deepest:e} h");
}
