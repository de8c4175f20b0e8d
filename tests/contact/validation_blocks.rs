//! The friction blocks of validation/friction_blocks (the coarse mesh of the
//! paper, 15 steps) run here as they stand: `stick_mu08` and `slip_mu02`
//! checked against the same reference figures as `validation/run_all.sh`
//! (balances, penetration, update defect, the frictional work, the
//! tumbling onset and peak spin of the cube).

use crate::common::validation::{check, friction, ledger, run_case};

#[test]
fn friction_blocks_match_their_reference_figures() {
    let mut measured = Vec::new();
    for name in ["stick_mu08", "slip_mu02"] {
        let r = run_case("friction_blocks", name);
        measured.extend(ledger(name, &r));
        // bodies.csv rows alternate base, cube
        measured.extend(friction(name, &r, 1, 2));
    }
    assert!(check("friction_blocks", &measured) >= 14);
}
