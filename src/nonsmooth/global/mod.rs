//! Global (all-contact) solvers of the reduced problem `u = W r + q` and of the
//! general problem `M v = H r + f, u = Hᵀ v + w` (DESIGN §8).
//!
//! Every solver is a function of a problem with [`Params`] → `Result<Info, SolveError>`;
//! `r` is the initial guess on entry and the answer (or the last iterate) on return,
//! `u = W r + q` is returned with it. All of them stop on the same measure, the FCLIB
//! error `‖F_nat(r)‖/‖q‖` ([`crate::nonsmooth::error::fclib_error`]), so they compare fairly.
//!
//! Names (for the command line, see [`solvers`]): `nsgs-<local>` for every local
//! solver of [`crate::nonsmooth::local::solvers`], `nsn-ac`, `nsn-jm`, `nsn-nm`, their
//! `-ls` variants with a line search, `hybrid`, and for global problems
//! `global-nsn-ac` (Newton on `(v, r)` without condensation). Any reduced solver also
//! runs on a global problem after condensation.

pub mod functions;
pub mod global_newton;
pub mod hybrid;
pub mod nsgs;
pub mod nsn;

use std::time::Instant;

use super::local::{self, LocalParams, LocalSolver};
use super::problem::{GlobalProblem, LocalProblem, ProblemError};
pub use functions::NsnFunction;

/// Parameters shared by the global solvers.
#[derive(Debug, Clone, PartialEq)]
pub struct Params {
    /// Tolerance on the FCLIB error `‖F_nat(r)‖/‖q‖`. Default 1e-8.
    pub tol: f64,
    /// Iteration limit (sweeps for NSGS, Newton steps for NSN, total of both for the
    /// hybrid). `None`: the solver's default (NSGS 100 000, NSN 1 000, hybrid 100 000).
    pub max_iter: Option<usize>,
    /// NSGS: compute the error every `check_every` sweeps. Default 1.
    pub check_every: usize,
    /// NSGS relaxation `r_c ← ω r_c,new + (1−ω) r_c,old`. Default 1 (none).
    pub omega: f64,
    /// NSGS: visit the contacts in a random order, reshuffled every sweep, from this
    /// seed. Default `None` (natural order).
    pub shuffle: Option<u64>,
    /// Parameters of the local solves inside NSGS. Default: tol 1e-12, 100 iterations.
    pub local: LocalParams,
    /// Newton functions: `ρ_c = rho / (tr W_cc / dim)` (scaled by the diagonal block,
    /// as Siconos does). Default 1.
    pub rho: f64,
    /// Hybrid: NSGS sweeps before each Newton attempt. Default 50 (Acary et al. 2017
    /// use 100 in NSN-AC-NLS-HYBRID; 50 was faster on the FCLIB samples).
    pub hybrid_sweeps: usize,
    /// Hybrid: Newton steps per attempt. Default 1000: on the rigid FCLIB samples
    /// Newton converged after long non-monotone phases, and stopping attempts early
    /// (50 steps, or when the error had not halved over 25–200 steps) cost 2–10× more.
    pub hybrid_newton: usize,
    /// Newton function of the hybrid (with line search). Default natural map: on the
    /// four FCLIB samples it needed 3–8× fewer iterations than Alart–Curnier after the
    /// same NSGS warm start (docs/solvers.md).
    pub hybrid_function: NsnFunction,
    /// Local solver of the NSGS phase of the hybrid. Default "pg" (projected gradient:
    /// on the FCLIB samples as fast as or faster than the Newton local solvers inside
    /// NSGS, docs/solvers.md); falls back to the first registered local solver.
    pub hybrid_local: String,
    /// Give up (with [`SolveError::Timeout`]) after this instant; checked every
    /// iteration. Default `None`.
    pub deadline: Option<Instant>,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            tol: 1e-8,
            max_iter: None,
            check_every: 1,
            omega: 1.0,
            shuffle: None,
            local: LocalParams::default(),
            rho: 1.0,
            hybrid_sweeps: 50,
            hybrid_newton: 1000,
            hybrid_function: NsnFunction::NaturalMap,
            hybrid_local: "pg".to_string(),
            deadline: None,
        }
    }
}

impl Params {
    pub(crate) fn timed_out(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// What a converged solve reports.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Info {
    pub iterations: usize,
    /// FCLIB error `‖F_nat(r)‖/‖q‖` at the returned point.
    pub error: f64,
    /// Wall-clock time of the solve.
    pub seconds: f64,
}

/// Why a solve failed. For `NoConvergence`, `Timeout` and `LinearSolver`, `r` and `u`
/// hold the last (finite) iterate.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SolveError {
    #[error("no convergence: error {error:e} after {iterations} iterations")]
    NoConvergence { error: f64, iterations: usize },
    #[error("time limit reached: error {error:e} after {iterations} iterations")]
    Timeout { error: f64, iterations: usize },
    #[error("sparse linear solve failed ({reason}) at iteration {iterations}, error {error:e}")]
    LinearSolver {
        reason: String,
        error: f64,
        iterations: usize,
    },
    #[error("unknown solver \"{0}\" (see `fc solvers`)")]
    UnknownSolver(String),
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
            | SolveError::Timeout { error, iterations }
            | SolveError::LinearSolver {
                error, iterations, ..
            } => Some((error, iterations)),
            _ => None,
        }
    }
}

/// One registered solver.
#[derive(Debug, Clone, PartialEq)]
pub struct SolverSpec {
    pub name: String,
    pub description: String,
}

enum Method {
    Nsgs(Box<dyn LocalSolver>),
    Nsn(NsnFunction, bool),
    Hybrid,
    GlobalNsn,
}

const NSN: [(&str, NsnFunction, bool); 6] = [
    ("nsn-ac", NsnFunction::AlartCurnier, false),
    ("nsn-jm", NsnFunction::JeanMoreau, false),
    ("nsn-nm", NsnFunction::NaturalMap, false),
    ("nsn-ac-ls", NsnFunction::AlartCurnier, true),
    ("nsn-jm-ls", NsnFunction::JeanMoreau, true),
    ("nsn-nm-ls", NsnFunction::NaturalMap, true),
];

/// Every global solver, in a fixed order: name and one-line description.
pub fn solvers() -> Vec<SolverSpec> {
    let mut out = Vec::new();
    for l in local::solvers() {
        out.push(SolverSpec {
            name: format!("nsgs-{}", l.name()),
            description: format!(
                "nonsmooth Gauss-Seidel (Jean & Moreau 1992; Jourdan, Alart & Jean 1998) with local solver: {}",
                l.description()
            ),
        });
    }
    for (name, f, ls) in NSN {
        out.push(SolverSpec {
            name: name.to_string(),
            description: format!(
                "semismooth Newton on the {} function (Acary, Bremond & Dubois 2017, eq. {}){}",
                f.label(),
                f.equation(),
                if ls {
                    ", Armijo line search on 1/2|Phi|^2"
                } else {
                    ", full steps"
                }
            ),
        });
    }
    out.push(SolverSpec {
        name: "hybrid".into(),
        description: "NSGS-PG warm start (50 sweeps) then NSN-NM with line search, repeated (after Acary et al. 2017, NSN-AC-NLS-HYBRID)".into(),
    });
    out.push(SolverSpec {
        name: "global-nsn-ac".into(),
        description: "global problems only: semismooth Newton on (v, r) with Alart-Curnier, no condensation, line search".into(),
    });
    out
}

fn method(name: &str) -> Result<Method, SolveError> {
    if let Some(l) = name.strip_prefix("nsgs-") {
        return local::by_name(l)
            .map(Method::Nsgs)
            .ok_or_else(|| SolveError::UnknownSolver(name.to_string()));
    }
    if let Some(&(_, f, ls)) = NSN.iter().find(|(n, _, _)| *n == name) {
        return Ok(Method::Nsn(f, ls));
    }
    match name {
        "hybrid" => Ok(Method::Hybrid),
        "global-nsn-ac" => Ok(Method::GlobalNsn),
        _ => Err(SolveError::UnknownSolver(name.to_string())),
    }
}

/// Whether `name` is a registered solver.
pub fn is_solver(name: &str) -> bool {
    method(name).is_ok()
}

/// Runs the solver called `name` on a reduced problem.
pub fn solve(
    name: &str,
    problem: &LocalProblem,
    r: &mut [f64],
    u: &mut [f64],
    params: &Params,
) -> Result<Info, SolveError> {
    match method(name)? {
        Method::Nsgs(l) => nsgs::solve(problem, l.as_ref(), r, u, params),
        Method::Nsn(f, ls) => nsn::solve(problem, f, ls, r, u, params),
        Method::Hybrid => hybrid::solve(problem, r, u, params),
        Method::GlobalNsn => Err(SolveError::Unsupported(
            "global-nsn-ac needs a global (M, H) problem",
        )),
    }
}

/// Runs the solver called `name` on a global problem: `global-nsn-ac` works on
/// `(v, r)` directly; every other solver runs on the condensed problem
/// (`W = Hᵀ M⁻¹ H`, `q = Hᵀ M⁻¹ f + w`) and then `v = M⁻¹(H r + f)`.
/// `info.seconds` includes the condensation.
pub fn solve_global(
    name: &str,
    problem: &GlobalProblem,
    r: &mut [f64],
    u: &mut [f64],
    v: &mut [f64],
    params: &Params,
) -> Result<Info, SolveError> {
    if problem.g.is_some() {
        return Err(SolveError::Unsupported(
            "equality constraints G (fclib_global/G) are not supported by the solvers",
        ));
    }
    let m = method(name)?;
    if let Method::GlobalNsn = m {
        return global_newton::solve(problem, r, u, v, params);
    }
    let start = Instant::now();
    let condensed = problem.condense()?;
    let result = solve(name, &condensed.reduced, r, u, params);
    v.copy_from_slice(&condensed.velocity(problem, r));
    result.map(|mut info| {
        info.seconds = start.elapsed().as_secs_f64();
        info
    })
}
