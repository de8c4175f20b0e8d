//! Contact: geometry and its operators, the broad phase, the exact tangent, the swept
//! test, enforcement, and contact dynamics (energy, dissipation, momenta, the Coulomb law).

mod blocks_stick;
mod chord;
mod dynamics;
mod first_touch;
mod geometry;
mod golf_ball;
mod initial_overlap;
mod iterative_path;
mod ledgers;
mod newton;
mod one_solve;
mod quadratic_blocks;
mod quadratic_faces;
mod reactions;
mod restarted_iteration;
mod search;
mod self_contact;
mod step_rejections;
mod tangent;
mod tunnel;
mod two_pass;
mod unclamped_projection;
mod validation_blocks;
