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

use super::ring_ledgers::assert_ring_keeps_its_ledgers;
use crate::common::fixture::Fixture;

#[test]
fn saddle_ring_impact_keeps_its_ledger_where_contact_is_released() {
    assert_ring_keeps_its_ledgers(
        "ring, saddle path",
        Fixture::file("validation/ring_impact/velocity_update.toml")
            .set("time.end", 1.0)
            .set("solver.contact_system", "saddle"),
    );
}
