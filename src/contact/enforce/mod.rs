//! Exact and augmented-Lagrangian enforcement: the contact multipliers as
//! unknowns of the Newton iteration (DESIGN §7; Love & Laursen 2003 §3.6 with
//! the regularization removed).
//!
//! At an iterate `x` with multipliers `r_old`, the step's residual is
//! `R = c_M M (x − x̂) + f_int − f_ext − Σ H r_old` and its tangent at fixed
//! multipliers is `K` (the geometric stiffness of the contact force
//! included). Linearizing `R(x + δx, r) = 0` and the point velocities
//! `u(x + δx) = u + B δx` (`B = ∂u/∂x`, exact, [`super::point`]):
//!
//! ```text
//! K δx − H (r − r_old) = −R
//! u + B δx  and  r  satisfy the Signorini–Coulomb law (super::law)
//! ```
//!
//! the frictional-contact problem of the linearized step. Two ways to solve
//! it, with the same answer:
//!
//! * [`condensed`]: eliminate `δx`, `u = W r + q` with the Delassus operator
//!   `W = B K⁻¹ H`, and solve that with the solver library (problem FC/II,
//!   Acary, Brémond & Dubois 2017). Building `W` costs a solve per contact
//!   unknown and the library works on a dense `W`: right for a few hundred
//!   points.
//! * [`saddle`]: keep `δx` and `r` together, a semismooth Newton on the
//!   Alart–Curnier functions whose linear systems are the sparse saddle-point
//!   matrix `[K −H; A B  B_r]`, factored like the bulk tangent: its cost
//!   follows the contact area, not its square or cube.
//!
//! Newton picks the path per step ([`Method`]).

pub mod condensed;
pub mod saddle;

use super::set::ContactSet;
use crate::linalg::{LinearSolveError, LinearSolver};
use crate::nonsmooth::problem::ProblemError;
use crate::nonsmooth::SolveError;

/// The library solver of exact enforcement when the input names none:
/// the registry's `nsn-ac-ls` entry, named from the registry so the two
/// cannot drift. Not the library's own default (`hybrid`, for `fc solve`):
/// on the contact subproblems hybrid's NSGS phase changes the runs'
/// trajectories and leaves a larger penetration.
pub const DEFAULT_SOLVER: &str = crate::nonsmooth::global::nsn::AC_LS.name;

/// How the contact subproblem of an iterate is solved (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// The condensed problem `u = W r + q` and the solver library.
    Condensed,
    /// The sparse saddle-point system.
    Saddle,
}

/// The solves of the condensed path with the iterate's Newton matrix `K`.
pub trait NewtonSolves {
    /// `K X = rhs` in place for `ncols` columns (of length `K`'s order).
    fn solve(&mut self, rhs: &mut [f64], ncols: usize) -> Result<(), LinearSolveError>;
    /// The same for columns that vanish outside `dofs`, of whose solution
    /// only the entries on `dofs` are read afterwards.
    fn solve_restricted(
        &mut self,
        rhs: &mut [f64],
        ncols: usize,
        dofs: &[usize],
    ) -> Result<(), LinearSolveError>;
}

impl NewtonSolves for LinearSolver {
    fn solve(&mut self, rhs: &mut [f64], ncols: usize) -> Result<(), LinearSolveError> {
        self.solve_many_in_place(rhs, ncols).map(|_| ())
    }
    fn solve_restricted(
        &mut self,
        rhs: &mut [f64],
        ncols: usize,
        dofs: &[usize],
    ) -> Result<(), LinearSolveError> {
        self.solve_restricted_many_in_place(rhs, ncols, dofs)
            .map(|_| ())
    }
}

/// The Newton iterate the condensed path corrects: its residual `R` (fixed
/// dofs zero), the fixed dofs, the solves of its matrix, where the
/// correction goes, and scratch kept between calls.
pub struct NewtonSystem<'a> {
    pub solves: &'a mut dyn NewtonSolves,
    pub residual: &'a [f64],
    pub fixed: &'a [bool],
    pub dx: &'a mut [f64],
    pub scratch: &'a mut Vec<f64>,
}

/// Options of one correction.
pub struct EnforceOptions<'a> {
    pub dt: f64,
    /// Augmented-Lagrangian pairs solve their subproblem fully, as exact
    /// enforcement does, instead of taking one Alart–Curnier step (Newton
    /// asks for it once a point has switched between open and in contact).
    pub solve_fully: bool,
    /// A point switched between open and in contact, or faces settled, at
    /// the iterate being corrected, or it is the step's first correction:
    /// the saddle path's exact enforcement with one-solve iterations then
    /// solves the linearized step fully, otherwise it takes one semismooth
    /// step ([`saddle::SaddleParams::one_step`]).
    pub active_set_changed: bool,
    /// Receives every assembled condensed subproblem (FCLIB export).
    pub export: Option<&'a mut dyn FnMut(&Subproblem)>,
    /// The caller asked to stop ([`crate::dynamics::watch`]): the saddle
    /// path's inner iteration ends before its next linear solve (the
    /// caller abandons the step, so the correction is not used).
    pub stop: Option<&'a std::sync::atomic::AtomicBool>,
}

/// A subproblem that could not be solved.
#[derive(Debug, Clone, thiserror::Error)]
pub enum EnforceError {
    #[error("linear solve: {0}")]
    Linear(#[from] LinearSolveError),
    #[error("contact subproblem of {contacts} points: {source}")]
    Solver {
        contacts: usize,
        #[source]
        source: SolveError,
    },
    #[error("contact subproblem: {0}")]
    Problem(#[from] ProblemError),
    #[error("augmented-Lagrangian step: singular Alart–Curnier Jacobian ({0} points)")]
    Singular(usize),
}

/// What one subproblem solve did.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SubproblemInfo {
    /// Points in the subproblem.
    pub contacts: usize,
    /// Library iterations (condensed), inner semismooth iterations (saddle),
    /// or 1 (one augmented-Lagrangian step).
    pub iterations: usize,
    /// FCLIB error of the returned multipliers on the condensed subproblem;
    /// the largest law violation of the linearized step relative to the
    /// tolerance on the saddle path.
    pub error: f64,
    pub seconds: f64,
}

/// The assembled condensed subproblem, for export (see [`super::dump`]).
pub struct Subproblem<'a> {
    pub dim: usize,
    /// `W` (column-major, `m × m`, `m = dim · contacts`), `q`, `μ`.
    pub w: &'a [f64],
    pub q: &'a [f64],
    pub mu: &'a [f64],
    /// The columns of `H` (sparse, over the dofs) and `u`, `r_old`, `R`.
    pub h: &'a [Vec<(usize, f64)>],
    pub u: &'a [f64],
    pub r_old: &'a [f64],
    pub residual: &'a [f64],
}

/// The condensed correction of the current iterate ([`condensed`]).
pub fn correct<const D: usize>(
    set: &mut ContactSet,
    sys: NewtonSystem,
    opts: &mut EnforceOptions,
) -> Result<SubproblemInfo, EnforceError> {
    condensed::correct::<D>(set, sys, opts)
}
