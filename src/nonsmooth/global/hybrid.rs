//! Hybrid solver: NSGS warm start, then semismooth Newton (Acary, Brémond & Dubois
//! 2017, "NSN-AC-NLS-HYBRID": NSN-AC preconditioned by 100 NSGS-AC sweeps).
//!
//! Rounds of `hybrid_sweeps` (default 50) NSGS sweeps (local solver `hybrid_local`) followed by at
//! most `hybrid_newton` (default 1000) semismooth Newton steps with line search (function
//! `hybrid_function`, natural map by default), until the FCLIB error is below
//! `tol`. A failed Newton attempt (no convergence or singular Jacobian) restarts from
//! the NSGS iterate it started from, so Newton can never make the hybrid worse than
//! NSGS alone. `Info::iterations` counts sweeps plus Newton steps.

use std::time::Instant;

use super::nsgs::{self, SweepResult};
use super::{nsn, Info, Params, SolveError};
use crate::nonsmooth::local::{self, LocalSolver};
use crate::nonsmooth::problem::LocalProblem;

/// Default limit on sweeps plus Newton steps.
pub const DEFAULT_MAX_ITER: usize = 100_000;

/// Runs the hybrid (see the module docs).
#[track_caller]
pub fn solve(
    problem: &LocalProblem,
    r: &mut [f64],
    u: &mut [f64],
    params: &Params,
) -> Result<Info, SolveError> {
    let local = local::by_name(&params.hybrid_local)
        .or_else(|| local::solvers().into_iter().next())
        .ok_or(SolveError::UnknownSolver(format!(
            "hybrid: local solver \"{}\" (no local solver registered)",
            params.hybrid_local
        )))?;
    solve_with(problem, local.as_ref(), r, u, params)
}

/// The hybrid with an explicit local solver for its NSGS phase.
#[track_caller]
pub fn solve_with(
    problem: &LocalProblem,
    local: &dyn LocalSolver,
    r: &mut [f64],
    u: &mut [f64],
    params: &Params,
) -> Result<Info, SolveError> {
    let start = Instant::now();
    let max_iter = params.max_iter.unwrap_or(DEFAULT_MAX_ITER);
    let mut total = 0;
    let mut r_save = r.to_vec();
    let mut u_save = u.to_vec();
    loop {
        let sweeps = params.hybrid_sweeps.max(1).min(max_iter - total);
        let res = nsgs::sweeps(problem, local, r, u, params, sweeps)?;
        total += res.iterations;
        if res.converged || res.timed_out || total >= max_iter {
            return nsgs::finish(
                SweepResult {
                    iterations: total,
                    ..res
                },
                start,
            );
        }
        r_save.copy_from_slice(r);
        u_save.copy_from_slice(u);
        let steps = params.hybrid_newton.min(max_iter - total);
        match nsn::newton(problem, params.hybrid_function, true, r, u, params, steps) {
            Ok(res) => {
                total += res.iterations;
                if res.converged || res.timed_out || total >= max_iter {
                    return nsgs::finish(
                        SweepResult {
                            iterations: total,
                            ..res
                        },
                        start,
                    );
                }
                // Keep Newton's iterate only if it improved on NSGS.
                let e_nsgs = crate::nonsmooth::error::fclib_error(problem, &r_save, &u_save);
                if !(res.error <= e_nsgs) {
                    r.copy_from_slice(&r_save);
                    u.copy_from_slice(&u_save);
                }
            }
            Err(SolveError::LinearSolver { iterations, .. }) => {
                total += iterations;
                r.copy_from_slice(&r_save);
                u.copy_from_slice(&u_save);
            }
            Err(e) => return Err(e),
        }
        if total >= max_iter {
            let error = crate::nonsmooth::error::fclib_error(problem, r, u);
            return Err(SolveError::NoConvergence {
                error,
                iterations: total,
            });
        }
    }
}
