//! Bug: the first contact of the scaling family's 12² model
//! (`validation/contact_scaling/make.py 12 4 --gap 0.03 --gravity 10
//! --end 0.05 --system saddle`: a cube sliding at 1.5 onto a coarser base,
//! μ = 0.8, the saddle-point path) was cut back by Newton's active-set
//! guard: base node 733, on a mesh line of the cube, went between pressed
//! and open at every Newton iteration while the cube nodes held on the
//! base faces around it took its load and gave it back (two constraints
//! on one gap). The shadow rule, which leaves such a second-pass point to
//! the first pass, was applied at the step's first correction only, where
//! the bodies were still 0.03 apart and no first-pass point engaged, so it
//! judged nothing for the whole step; it now waits for a correction where
//! the first pass is engaged (`contact::second_pass::shadow`).
//!
//! Asserted: the run takes its step without a cut-back; the step's energy
//! balance and the momentum ledgers close; no active point deeper than
//! the exact enforcement's tolerance and no node of either body inside the
//! other (the run's own check); the Coulomb law point by point.

use crate::common::validation::{assert_first_contact_holds, first_contact};

#[test]
fn a_first_contact_from_a_gap_shadows_the_second_pass_once_the_first_engages() {
    assert_first_contact_holds("12²", &first_contact(12, &[]));
}
