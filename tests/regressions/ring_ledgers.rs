//! The checks two ring-impact regressions share: the run (no cut-back
//! allowed) has at least 20 contact steps, every step's energy balance within
//! [`STEP_ENERGY`], the momenta exact and the penetration within
//! [`PENETRATION_H`].

use crate::common::fixture::Fixture;
use crate::common::history::{assert_momenta, max, step_balance, PENETRATION_H, STEP_ENERGY};
use crate::common::run::run;

/// Runs `model` (a ring impact) and asserts the checks above, naming it `label`.
pub fn assert_ring_keeps_its_ledgers(label: &str, model: Fixture) {
    let r = run(&model.set("solver.max_cutbacks", 0).text());
    let s = &r.summary;
    let contact_steps = r.col("active").iter().filter(|&&a| a > 0.0).count();
    let (balance, depth) = (
        step_balance(&r.history),
        max(&r.history, "max_penetration_h"),
    );
    println!(
        "{label}: {contact_steps} contact steps, step balance {balance:.2e}, L {:.2e}, J {:.2e}, penetration {depth:.2e} h",
        s.max_linear_drift, s.max_angular_drift
    );
    assert!(
        contact_steps >= 20,
        "{label}: contact steps {contact_steps}"
    );
    assert_eq!(s.cutbacks, 0, "{label}: cut-backs");
    assert!(balance <= STEP_ENERGY, "{label}: step balance {balance:e}");
    assert_momenta(label, s);
    assert!(depth <= PENETRATION_H, "{label}: penetration {depth:e} h");
}
