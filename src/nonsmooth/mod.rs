//! Discrete frictional-contact problems `u = W r + q`, `K* ∋ u + μ‖u_T‖e_N ⊥ r ∈ K`
//! and their solvers (DESIGN §8). Per contact, local vectors are ordered
//! `[normal, tangent1, tangent2]`; `r_N ≥ 0` is the normal reaction, `u_N ≥ 0`
//! the normal relative velocity (separating).
//!
//! * [`problem`] — the reduced (FCLIB "local") and general (FCLIB "global") problems;
//! * [`condense`] — `M` as stored, its factorization, `W = Hᵀ M⁻¹ H`;
//! * [`local`] — one-contact solvers;
//! * [`global`] — the [`Solver`] trait, the registry, NSGS, semismooth Newton, hybrid,
//!   global Newton;
//! * [`error`] — the FCLIB error `‖F_nat(r)‖/‖q‖` and Dumont's criterion;
//! * [`fclib`] — FCLIB HDF5 input/output;
//! * [`siconos_dat`] — Siconos' text problem files (`.dat`), read only;
//! * [`files`] — a problem file of either format, told apart by its content;
//! * [`profile`] — Dolan–Moré performance profiles.
//!
//! The entry point for other code (the FE contact step) is [`solve`]:
//!
//! ```
//! use emcontact::nonsmooth::{self, problem::LocalProblem, Control};
//! use faer::sparse::{SparseColMat, Triplet};
//! // One 3D contact, W = I, pressed in: q_N = −1.
//! let w = SparseColMat::try_new_from_triplets(
//!     3, 3, &[Triplet::new(0, 0, 1.0), Triplet::new(1, 1, 1.0), Triplet::new(2, 2, 1.0)],
//! ).unwrap();
//! let p = LocalProblem::new(3, w, vec![-1.0, 0.0, 0.0], vec![0.3]).unwrap();
//! let (mut r, mut u) = (vec![0.0; 3], vec![0.0; 3]);
//! assert!(nonsmooth::is_solver(nonsmooth::DEFAULT_SOLVER));
//! let info = nonsmooth::solve(&p, &mut r, &mut u, nonsmooth::DEFAULT_SOLVER, &Control::default())
//!     .unwrap();
//! assert!(info.error <= 1e-8 && (r[0] - 1.0).abs() < 1e-12 && u[0].abs() < 1e-12);
//! ```

pub mod block_rows;
pub mod condense;
pub mod error;
pub mod fclib;
pub mod files;
pub mod global;
pub mod local;
pub mod problem;
pub mod profile;
pub mod siconos_dat;

pub use global::{
    by_name, is_solver, registry, Control, Info, SolveError, Solver, SolverSpec, DEFAULT_SOLVER,
};

/// Solves the reduced problem `u = W r + q` (FC/II) with the solver called `solver`
/// (see [`registry`]; [`DEFAULT_SOLVER`] is `"auto"`), warm-started from `r`
/// (`dim · n_contacts` entries; non-finite entries are replaced by 0). On return `r`
/// is the answer, or the last iterate on `Err`, and `u = W r + q`.
///
/// `Ok` means the FCLIB error `‖F_nat(r)‖/‖q‖` is at most `control.tol`. Errors:
/// [`SolveError::UnknownSolver`] and [`SolveError::InvalidTolerance`] (bad input,
/// see [`SolveError::is_bad_input`]); `NoConvergence`, `Stalled`, `Timeout`,
/// `LinearSolver` (numerical failure; [`SolveError::last`] gives the error reached).
pub fn solve(
    problem: &problem::LocalProblem,
    r: &mut [f64],
    u: &mut [f64],
    solver: &str,
    control: &Control,
) -> Result<Info, SolveError> {
    global::solve(solver, problem, r, u, control)
}
