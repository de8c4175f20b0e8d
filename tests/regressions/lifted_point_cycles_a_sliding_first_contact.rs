//! Bug: the first contact of the scaling family's 8² model sliding at 3
//! (`validation/contact_scaling/make.py 8 4 --gap 0.03 --gravity 10 --end
//! 0.05 --vel 0 3 -1 --system saddle`: a cube landing on a coarser base,
//! μ = 0.8, the saddle-point path) failed at its step and was cut back. A
//! base node poking 4e-6 into a cube face was lifted (enforced again); its
//! row is all but a combination of the first-pass rows of the cube face's
//! nodes held on the base faces around it, and the inner iteration's
//! Newton step answered its penetration with a tensile force (r_N = −0.69)
//! that opened it, the next one closed it again, until it stalled. The
//! second pass left out, the first-pass points it repeats were all handed
//! over to it: the cube face then tilted about the base node and its other
//! corners sank 3e-3 into the base, the law at 6e8 of its tolerance for 25
//! Newton iterations. A lifted point now takes the place of the one
//! first-pass point that repeats it most (one constraint per location,
//! `contact::second_pass`).
//!
//! Asserted: the run takes its one step without a cut-back; the energy
//! ledger of the step closes to the solver tolerance with no update defect,
//! and the momentum ledgers (against the support's and gravity's impulse);
//! no active point deeper than the exact enforcement's tolerance, and no
//! node of either body inside the other (the run's own check, independent
//! of the contact code); every active point on the Coulomb cone, slipping
//! ones opposed to their slip, from the tractions and slip rates.

use crate::common::validation::{assert_first_contact_holds, first_contact};

#[test]
fn a_sliding_first_contact_converges_with_one_constraint_per_location() {
    assert_first_contact_holds("8² sliding", &first_contact(8, &["--vel", "0", "3", "-1"]));
}
