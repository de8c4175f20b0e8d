//! Every tunable of the Newton solve of a step, in one place, each with its
//! reason. How each value was found (the runs, the counts) is in
//! `docs/decisions/newton-policy.md`; the values are the defaults, and a
//! stepper's `policy` field may be changed (the tests sweep it).

use super::active::{MAX_FLIPS, ROLE_RECORDS};
use crate::contact::enforce::saddle::SaddleParams;
use crate::contact::TouchPolicy;

/// The Newton policy (module docs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NewtonPolicy {
    /// A correction below `round_off · max|x|` is at the round-off of the
    /// positions: the residual cannot decrease further.
    pub round_off: f64,
    /// The residual's round-off floor relative to `c_M ‖M x₁‖`: the inertia
    /// term `c_M M (x₁ − x̂)` cancels the digits of the positions, so no
    /// residual below a few hundred of their ulps can be computed.
    pub round_off_floor: f64,
    /// Halvings of a correction that leads to an invalid state (an inverted
    /// element, a non-finite value, a failed projection), and for the
    /// penalty law of one that does not decrease the residual.
    pub max_halvings: usize,
    /// Newton is close to a solution below this relative residual and
    /// contact-law violation (relative to the face size): the contact set
    /// may then settle its faces and drift guards. Each settle that changes
    /// something restarts the quadratic phase, so the earlier it comes the
    /// fewer iterations it costs; a decision taken at an iterate still this
    /// far away is checked again at convergence.
    pub settle_residual: f64,
    pub settle_violation: f64,
    /// The iterates after this many corrections hold their contact faces:
    /// the start is the positions at `t_n` and the first correction moves
    /// the slaves by the step's slide, so faces chosen there are stale;
    /// holding them from then on keeps a slave on a face boundary from
    /// cycling between two faces.
    pub free_face_iterations: usize,
    /// Once a point has switched between open and in contact this many
    /// times in a step, augmented-Lagrangian pairs solve their subproblem
    /// fully instead of taking one semismooth step, which can cycle there.
    pub full_solve_flips: u8,
    /// The penalty law's tangent includes its geometric stiffness below
    /// this relative residual (a modified Newton far from the solution,
    /// where penalty pressures many times the converged ones would swamp
    /// the matrix; quadratic near it).
    pub geometric_residual: f64,
    /// A point that switched between open and in contact this many times
    /// in one step is cycling: the step is rejected and cut back
    /// ([`super::active`]).
    pub max_flips: u8,
    /// Flips in this many iterates after a change of the points' roles are
    /// not counted ([`super::active::ROLE_RECORDS`]).
    pub role_records: u8,
    /// A solve in which this many corrections in a row made both the
    /// residual and the contact law worse is diverging and rejected (the
    /// run cuts the step back; [`super::diverging`]): one such correction
    /// is an overshoot Newton comes back from, two in a row were seen only
    /// in steps that then failed. 0: only the iteration limit.
    pub diverging: usize,
    /// Newton stops only where, besides the residual tolerance, the step's
    /// energy error `R · (x₁ − x₀)` (the discrete energy identity is exact
    /// but for it) is at most this fraction of the step's energy
    /// ([`super::energy`]): the residual tolerance alone bounds it by
    /// `tol · scale · ‖x₁ − x₀‖`, a decade above the ledger's promise
    /// (1.4e-10 of `E₀` on the friction blocks at Δt = 0.05, measured
    /// 1.0e-11 at a relative residual of 8.6e-11).
    pub energy: f64,
    /// Chord iterations of the condensed path ([`super::chord`]).
    pub chord: ChordPolicy,
    /// The contact subproblem's path ([`crate::contact::enforce::Method`]):
    /// the saddle-point system once this many points may touch in a step,
    /// the condensed problem below. The condensed path builds `W` with one
    /// solve per contact unknown and solves a dense problem, the saddle
    /// path factors a matrix a few rows per point larger than the bodies';
    /// below the crossover `W` is cheap and the library's solvers converge
    /// in fewer Newton iterations.
    pub saddle_min_points: usize,
    /// The saddle-point path's inner iteration.
    pub saddle: SaddleParams,
    /// Where a step in which a large contact face first closes ends
    /// ([`crate::contact::touch`]).
    pub touch: TouchPolicy,
}

/// The chord policy of the condensed path (see [`super::chord`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChordPolicy {
    /// A chord iteration whose relative residual fell by less than this
    /// factor is followed by a full factorization ...
    pub contraction: f64,
    /// ... except within the Newton tolerance, where only the `finish`
    /// margin is left: there one that reduced it by this factor is
    /// followed by another.
    pub finish_contraction: f64,
    /// A Newton solve whose last correction was a chord iteration stops at
    /// this fraction of the tolerance: the step's energy balance is
    /// `R · (x₁ − x₀)`, and after chord iterations `R` is the slowest mode
    /// of the iteration, the bodies' motion itself, not round-off-like.
    pub finish: f64,
    /// After a point switched or faces settled, a correction may still be a
    /// chord iteration at a relative residual up to this (the persistent
    /// steps' last switches come at 1e-3, where chord iterations contract
    /// well; right after a large switch they cycled).
    pub resettled_residual: f64,
    /// Chord iterations only where a factorization costs at least this
    /// many flops (below, refactoring is cheaper than the slower
    /// convergence) ...
    pub min_factor_flops: f64,
    /// ... and the trailing (contact) block is at most this share of it.
    pub max_trailing_share: f64,
}

impl Default for ChordPolicy {
    fn default() -> Self {
        ChordPolicy {
            contraction: 0.1,
            finish_contraction: 0.5,
            finish: 1e-2,
            resettled_residual: 2e-2,
            min_factor_flops: 2e9,
            max_trailing_share: 0.35,
        }
    }
}

impl Default for NewtonPolicy {
    fn default() -> Self {
        NewtonPolicy {
            round_off: 1e-14,
            round_off_floor: 1e-13,
            max_halvings: 8,
            settle_residual: 5e-2,
            settle_violation: 5e-2,
            free_face_iterations: 1,
            full_solve_flips: 1,
            geometric_residual: 1e-2,
            max_flips: MAX_FLIPS,
            role_records: ROLE_RECORDS,
            diverging: 2,
            energy: 1e-12,
            chord: ChordPolicy::default(),
            saddle_min_points: 400,
            saddle: SaddleParams::default(),
            touch: TouchPolicy::default(),
        }
    }
}
