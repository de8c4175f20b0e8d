//! Solvers of the whole reduced problem `u = W r + q` and of the general problem
//! `M v = H r + f, u = Hᵀ v + w` (DESIGN §8), behind one trait and one registry.
//!
//! Every solver is a type implementing [`Solver`]: it holds its own parameters (a
//! `…Params` struct with documented defaults) and is called with a [`Control`]
//! (tolerance, iteration cap, deadline, progress callback) shared by all. `r` is the
//! initial guess on entry and the answer (or the last iterate) on return; `u = W r + q`
//! is returned with it. All stop on the same measure, the FCLIB error
//! `‖F_nat(r)‖/‖q‖` ([`crate::nonsmooth::error::fclib_error`]), so they compare fairly.
//!
//! The registry ([`registry`], [`by_name`]) is the list [`ENTRIES`] plus one
//! `nsgs-<local>` per local solver of [`crate::nonsmooth::local::solvers`]. Adding a
//! solver is one new file here (the type, its `impl Solver` and its `ENTRY`) plus its
//! `mod` line and one line in [`ENTRIES`]; the command line, the benchmarks and the
//! tests iterate the registry.

pub mod auto;
mod dense_jacobian;
pub mod fp_ds;
pub mod functions;
pub mod global_newton;
pub mod hybrid;
pub mod nsgs;
pub mod nsgs_ac;
pub mod nsn;
mod stop;

use std::sync::Arc;
use std::time::Instant;

use super::local;
use super::problem::{GlobalProblem, LocalProblem, ProblemError};
pub use functions::NsnFunction;

/// Stopping control shared by every solver.
#[derive(Clone)]
pub struct Control {
    /// Tolerance on the FCLIB error `‖F_nat(r)‖/‖q‖`; finite and positive. Default 1e-8.
    pub tol: f64,
    /// Iteration cap (sweeps, Newton steps, or both for the hybrid). `None`: the
    /// solver's own default.
    pub max_iter: Option<usize>,
    /// Give up with [`SolveError::Timeout`] after this instant. Default `None`.
    pub deadline: Option<Instant>,
    /// Stop as stalled when the error has not dropped by 1 % in this many
    /// iterations. `None`: the solver's own window (its parameters).
    pub stall_window: Option<usize>,
    /// Called with `(iterations, error)` each time a solver evaluates its error
    /// (the callback rate-limits itself). Default `None`.
    pub progress: Option<Arc<dyn Fn(usize, f64) + Send + Sync>>,
}

impl Default for Control {
    fn default() -> Self {
        Control {
            tol: 1e-8,
            max_iter: None,
            deadline: None,
            stall_window: None,
            progress: None,
        }
    }
}

impl std::fmt::Debug for Control {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Control")
            .field("tol", &self.tol)
            .field("max_iter", &self.max_iter)
            .field("deadline", &self.deadline)
            .field("stall_window", &self.stall_window)
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

impl Control {
    /// A control with tolerance `tol` and the other defaults.
    pub fn with_tol(tol: f64) -> Self {
        Control {
            tol,
            ..Control::default()
        }
    }
    /// `Err(InvalidTolerance)` unless `tol` is finite and positive.
    pub fn validate(&self) -> Result<(), SolveError> {
        if self.tol.is_finite() && self.tol > 0.0 {
            Ok(())
        } else {
            Err(SolveError::InvalidTolerance(self.tol))
        }
    }
    pub(crate) fn timed_out(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }
    pub(crate) fn report(&self, iterations: usize, error: f64) {
        if let Some(p) = &self.progress {
            p(iterations, error);
        }
    }
}

/// What a converged solve reports.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Info {
    /// Sweeps plus Newton steps.
    pub iterations: usize,
    /// Of which Newton steps (0 for Gauss–Seidel solvers).
    pub newton_steps: usize,
    /// FCLIB error `‖F_nat(r)‖/‖q‖` at the returned point.
    pub error: f64,
    /// Wall-clock time of the solve.
    pub seconds: f64,
}

/// Why a solve failed. For `NoConvergence`, `Stalled`, `Timeout` and `LinearSolver`,
/// `r` and `u` hold the last (finite) iterate.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SolveError {
    #[error("no convergence: error {error:e} after {iterations} iterations (the cap)")]
    NoConvergence { error: f64, iterations: usize },
    #[error("stalled: error {error:e} after {iterations} iterations, no progress over the last {window}")]
    Stalled {
        error: f64,
        iterations: usize,
        window: usize,
    },
    #[error("time limit reached: error {error:e} after {iterations} iterations")]
    Timeout { error: f64, iterations: usize },
    #[error("sparse linear solve failed ({reason}) at iteration {iterations}, error {error:e}")]
    LinearSolver {
        reason: String,
        error: f64,
        iterations: usize,
    },
    #[error("unknown solver \"{0}\" (see `emcontact fc solvers`)")]
    UnknownSolver(String),
    #[error("tolerance {0} must be a finite positive number")]
    InvalidTolerance(f64),
    #[error("unsupported problem: {0}")]
    Unsupported(&'static str),
    #[error(transparent)]
    Problem(#[from] ProblemError),
}

impl SolveError {
    /// Error measure and iteration count of the last iterate, when there is one.
    pub fn last(&self) -> Option<(f64, usize)> {
        match *self {
            SolveError::NoConvergence { error, iterations }
            | SolveError::Stalled {
                error, iterations, ..
            }
            | SolveError::Timeout { error, iterations }
            | SolveError::LinearSolver {
                error, iterations, ..
            } => Some((error, iterations)),
            _ => None,
        }
    }
    /// Bad input (unknown solver, bad tolerance, unsupported or ill-formed problem)
    /// rather than a numerical failure.
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            SolveError::UnknownSolver(_)
                | SolveError::InvalidTolerance(_)
                | SolveError::Unsupported(_)
                | SolveError::Problem(_)
        )
    }
}

/// A solver of the frictional-contact problem.
pub trait Solver: Send + Sync {
    /// Solves the reduced problem from the guess in `r` (non-finite entries are
    /// replaced by 0); `u = W r + q` on return.
    fn solve(
        &self,
        problem: &LocalProblem,
        r: &mut [f64],
        u: &mut [f64],
        control: &Control,
    ) -> Result<Info, SolveError>;

    /// Solves a global problem; `v` is the velocity guess on entry (may be NaN) and
    /// `M⁻¹(H r + f)` on return. Default: condensation (`M` as stored, see
    /// [`crate::nonsmooth::condense`]), [`Solver::solve`], then `v`; `seconds`
    /// includes the condensation.
    fn solve_global(
        &self,
        problem: &GlobalProblem,
        r: &mut [f64],
        u: &mut [f64],
        v: &mut [f64],
        control: &Control,
    ) -> Result<Info, SolveError> {
        let start = Instant::now();
        let condensed = problem.condense()?;
        let result = self.solve(&condensed.reduced, r, u, control);
        v.copy_from_slice(&condensed.velocity(problem, r));
        result.map(|mut info| {
            info.seconds = start.elapsed().as_secs_f64();
            info
        })
    }
}

/// A registry entry: name, one-line description (method and source) and a constructor
/// with the solver's default parameters.
#[derive(Clone, Copy)]
pub struct Entry {
    pub name: &'static str,
    pub description: &'static str,
    pub make: fn() -> Box<dyn Solver>,
}

/// The registered solvers (besides the `nsgs-<local>` family), in display order.
pub const ENTRIES: &[Entry] = &[
    auto::ENTRY,
    hybrid::ENTRY,
    nsgs_ac::ENTRY,
    nsn::AC,
    nsn::JM,
    nsn::NM,
    nsn::AC_LS,
    nsn::JM_LS,
    nsn::NM_LS,
    global_newton::ENTRY,
    fp_ds::ENTRY,
];

/// The default solver (of `fc solve` and of the FE contact code).
pub const DEFAULT_SOLVER: &str = auto::ENTRY.name;

/// Name and description of a registered solver.
#[derive(Debug, Clone, PartialEq)]
pub struct SolverSpec {
    pub name: String,
    pub description: String,
}

/// Every solver, in a fixed order: [`ENTRIES`], then `nsgs-<local>` per local solver.
pub fn registry() -> Vec<SolverSpec> {
    let mut out: Vec<SolverSpec> = ENTRIES
        .iter()
        .map(|e| SolverSpec {
            name: e.name.into(),
            description: e.description.into(),
        })
        .collect();
    for l in local::solvers() {
        out.push(SolverSpec {
            name: format!("nsgs-{}", l.name()),
            description: format!(
                "nonsmooth Gauss-Seidel (Jean & Moreau 1992; Acary et al. 2017 eq. 14) with local solver: {}",
                l.description()
            ),
        });
    }
    out
}

/// The solver called `name`, with its default parameters.
pub fn by_name(name: &str) -> Result<Box<dyn Solver>, SolveError> {
    if let Some(e) = ENTRIES.iter().find(|e| e.name == name) {
        return Ok((e.make)());
    }
    name.strip_prefix("nsgs-")
        .and_then(local::by_name)
        .map(|l| Box::new(nsgs::Nsgs::new(l)) as Box<dyn Solver>)
        .ok_or_else(|| SolveError::UnknownSolver(name.to_string()))
}

/// Whether `name` is a registered solver.
pub fn is_solver(name: &str) -> bool {
    by_name(name).is_ok()
}

/// Runs the solver called `name` on a reduced problem (see [`Solver::solve`]).
pub fn solve(
    name: &str,
    problem: &LocalProblem,
    r: &mut [f64],
    u: &mut [f64],
    control: &Control,
) -> Result<Info, SolveError> {
    control.validate()?;
    by_name(name)?.solve(problem, r, u, control)
}

/// Runs the solver called `name` on a global problem (see [`Solver::solve_global`]).
pub fn solve_global(
    name: &str,
    problem: &GlobalProblem,
    r: &mut [f64],
    u: &mut [f64],
    v: &mut [f64],
    control: &Control,
) -> Result<Info, SolveError> {
    control.validate()?;
    if problem.g.is_some() {
        return Err(SolveError::Unsupported(
            "equality constraints G (fclib_global/G) are not supported by the solvers",
        ));
    }
    by_name(name)?.solve_global(problem, r, u, v, control)
}

/// Panics unless `r` and `u` have `dim · n_contacts` entries (a caller bug).
#[track_caller]
pub(crate) fn check_sizes(problem: &LocalProblem, r: &[f64], u: &[f64]) {
    let n = problem.size();
    assert!(
        r.len() == n && u.len() == n,
        "r and u must have dim·n_contacts = {n} entries (got {} and {})",
        r.len(),
        u.len()
    );
}

/// Replaces non-finite entries of an initial guess by 0.
pub(crate) fn sanitize(r: &mut [f64]) {
    for x in r.iter_mut() {
        if !x.is_finite() {
            *x = 0.0;
        }
    }
}
