//! Bug: the first contact of the scaling family's 16² model with 12 layers
//! (`validation/contact_scaling/make.py 16 12 --gap 0.03 --gravity 10
//! --end 0.05 --system saddle`: 22.5k dofs, a cube sliding at 1.5 onto a
//! coarser base, μ = 0.8, two passes on the saddle-point path) was cut back
//! by Newton's active-set guard at Newton 12, three iterations before it
//! converged: the second pass's role changes (shadowed at the first
//! engaged correction, lifted where it penetrates, left out after a stalled
//! inner iteration, first-pass points handed over to lifted ones) each make
//! tens of points open or close at the next iterates, and cube node 3948
//! reached five flips from them alone. Flips in the two iterates after a
//! change of roles are no longer counted (`dynamics::active::ROLE_RECORDS`).
//!
//! Asserted: the step is taken without a cut-back; the step's energy
//! balance and the momentum ledgers close; no active point deeper than the
//! exact enforcement's tolerance and no node of either body inside the
//! other (the run's own check); the Coulomb law point by point.

use crate::common::validation::{assert_first_contact_holds, first_contact_of};

#[test]
fn role_changes_of_the_second_pass_do_not_count_as_cycling() {
    assert_first_contact_holds("16²×12", &first_contact_of(16, 12, &[]));
}
