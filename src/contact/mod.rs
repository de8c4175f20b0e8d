//! Node-to-segment frictional contact (Love & Laursen 2003; DESIGN §5–§7),
//! as a pipeline, one concept per module:
//!
//! 1. [`surface`] — setup: slave nodes and tributary areas, the master faces
//!    or rigid plane, the master surface's rim;
//! 2. [`broad`] — broad phase of a step: which slaves may reach which faces
//!    (the stiffness pattern's couplings); [`search`] is its spatial hash;
//! 3. [`narrow`] — narrow phase: the face each slave is evaluated against
//!    ([`own`]: which faces a self-contact node may not take);
//! 4. [`geometry`] and [`point`] — kinematics: projection, gap, objective
//!    rates, the operators `N_A`, `D^α_A`, and one point's velocities `u`,
//!    force operator `H` and their exact linearization;
//! 5. [`law`] — Table 1's constraints and the Signorini–Coulomb law: the only
//!    place where open, stick and slip are decided;
//! 6. [`enforce`] — exact and augmented-Lagrangian enforcement (the
//!    multipliers inside Newton), [`dump`] their subproblems as FCLIB files;
//! 7. [`update`] — the velocity update (assembly and roots);
//! 8. [`slave`] — one slave point as one record (its state at `t_n`, its
//!    multipliers and linearization at the iterate); [`pair`] — a pair's
//!    surfaces, law parameters and points; [`set`] — the [`ContactSet`] the
//!    time step drives with verbs (`begin_step`, `evaluate`, `settle`,
//!    `commit`, `rollback`);
//! 9. [`touch`] — where a step in which a large face first closes ends:
//!    at the predicted touch, so that the impact starts the next step;
//! 10. checks around the steps: [`overlap`] (nodes inside the other body at
//!    t = 0, and `initial_overlap = "adjust"`), [`tunnel`] (a slave that
//!    passed through the master within a converged step).
//!
//! Sign conventions: gap `g ≥ 0` separated, `g < 0` penetrated; the normal `ν`
//! is the master surface's outward unit normal (pointing toward the slave side);
//! contact pressure `p_N ≥ 0`; `v_N < 0` while approaching.

pub mod broad;
pub mod dump;
pub mod enforce;
pub mod geometry;
pub mod law;
pub mod narrow;
pub mod overlap;
pub mod own;
pub mod pair;
pub mod point;
pub mod point_eval;
pub mod rigid;
pub mod search;
pub mod second_pass;
pub mod set;
pub mod slave;
pub mod surface;
pub mod touch;
pub mod tunnel;
pub mod update;

pub use pair::Pair;
pub use point_eval::{Memory, PointEval};
pub use set::{ContactSet, EvalOptions, PointView};
pub use surface::ContactSetupError;
pub use touch::TouchPolicy;
pub use tunnel::Tunnel;
