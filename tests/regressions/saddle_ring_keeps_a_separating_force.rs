//! Bug: the ring impact forced onto the saddle-point path missed its energy
//! balance by 8.4e-7 of the energy scale in the step to t = 0.64, where the
//! contact is released. A separating point (first pass) kept a tensile
//! normal and a tangential multiplier, whose work `r_T · u_T Δt` the
//! frictional ledger does not count: the inner iteration stopped on the
//! law's violation, which classifies `r` alone and called the point open,
//! while its Alart–Curnier function (open branch, `Φ = r`) was far from
//! zero. The inner stop now sees a multiplier left where the function is
//! open. The run to t = 1 (the release and the next contacts, one of which
//! converges slowly where the two passes constrain the same motion) keeps
//! every step's balance, the momenta and the penetration bound, without a
//! cut-back.

use crate::common::fixture::Fixture;
use crate::common::history::{assert_momenta, max, step_balance, PENETRATION_H, STEP_ENERGY};
use crate::common::run::run;

#[test]
fn saddle_ring_impact_keeps_its_ledger_where_contact_is_released() {
    let r = run(
        &Fixture::file("validation/ring_impact/velocity_update.toml")
            .set("time.end", 1.0)
            .set("solver.contact_system", "saddle")
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
        "ring, saddle path: {contact_steps} contact steps, step balance {balance:.2e}, L {:.2e}, J {:.2e}, penetration {depth:.2e} h",
        s.max_linear_drift, s.max_angular_drift
    );
    assert!(contact_steps >= 20, "contact steps {contact_steps}");
    assert_eq!(s.cutbacks, 0);
    assert!(balance <= STEP_ENERGY, "step balance {balance:e}");
    assert_momenta("ring, saddle path", s);
    assert!(depth <= PENETRATION_H, "penetration {depth:e} h");
}
