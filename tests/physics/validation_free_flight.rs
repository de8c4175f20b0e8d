//! The energy-momentum run of validation/free_flight (a neo-Hookean bar at
//! 18× the explicit step, 300 steps) run here as it stands and checked
//! against the same reference figures as `validation/run_all.sh`.

use crate::common::validation::{check, ledger, momenta, run_case};

#[test]
fn free_flight_matches_its_reference_figures() {
    let r = run_case("free_flight", "energy_momentum");
    let mut measured = ledger("energy_momentum", &r);
    measured.extend(momenta("energy_momentum", &r));
    assert!(check("free_flight", &measured) >= 6);
}
