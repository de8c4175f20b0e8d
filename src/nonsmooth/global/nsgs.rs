//! Nonsmooth (block) Gauss–Seidel, NSGS (Jean & Moreau 1992; Jourdan, Alart & Jean
//! 1998; Acary, Brémond & Dubois 2017, eq. 14; Dumont §3.1 "NLGS").
//!
//! One sweep visits every contact `α` and solves the one-contact problem
//! `u_α = W_αα r_α + q̃_α`, `q̃_α = q_α + Σ_{β≠α} W_αβ r_β` (newest `r_β`) with a local
//! solver, warm-started from the current `r_α`. Options: relaxation
//! `r_α ← ω r_α,new + (1−ω) r_α,old`, a shuffled (seeded) contact order, and the
//! error `‖F_nat(r)‖/‖q‖` computed every `check_every` sweeps.

use std::time::Instant;

use nalgebra::{SMatrix, SVector};
use rand::seq::SliceRandom;
use rand::SeedableRng;

use super::{Info, Params, SolveError};
use crate::nonsmooth::error::fclib_error;
use crate::nonsmooth::local::{LocalError, LocalSolver};
use crate::nonsmooth::problem::{DiagBlocks, LocalProblem};

/// Default sweep limit.
pub const DEFAULT_MAX_ITER: usize = 100_000;

/// NSGS with `local` as the one-contact solver (see the module docs).
#[track_caller]
pub fn solve(
    problem: &LocalProblem,
    local: &dyn LocalSolver,
    r: &mut [f64],
    u: &mut [f64],
    params: &Params,
) -> Result<Info, SolveError> {
    let start = Instant::now();
    let max_iter = params.max_iter.unwrap_or(DEFAULT_MAX_ITER);
    let res = sweeps(problem, local, r, u, params, max_iter)?;
    finish(res, start)
}

/// Outcome of a bounded number of sweeps.
pub(crate) struct SweepResult {
    pub converged: bool,
    pub timed_out: bool,
    pub error: f64,
    pub iterations: usize,
}

pub(crate) fn finish(res: SweepResult, start: Instant) -> Result<Info, SolveError> {
    let SweepResult {
        converged,
        timed_out,
        error,
        iterations,
    } = res;
    if converged {
        Ok(Info {
            iterations,
            error,
            seconds: start.elapsed().as_secs_f64(),
        })
    } else if timed_out {
        Err(SolveError::Timeout { error, iterations })
    } else {
        Err(SolveError::NoConvergence { error, iterations })
    }
}

/// Up to `max_iter` sweeps; `u = W r + q` and the error on return.
#[track_caller]
pub(crate) fn sweeps(
    problem: &LocalProblem,
    local: &dyn LocalSolver,
    r: &mut [f64],
    u: &mut [f64],
    params: &Params,
    max_iter: usize,
) -> Result<SweepResult, SolveError> {
    let n = problem.size();
    assert!(
        r.len() == n && u.len() == n,
        "r and u must have dim·n_contacts entries"
    );
    sanitize(r);
    match &problem.blocks {
        DiagBlocks::Two(b) => Ok(run::<2>(problem, b, local, r, u, params, max_iter)),
        DiagBlocks::Three(b) => Ok(run::<3>(problem, b, local, r, u, params, max_iter)),
    }
}

/// Replaces non-finite entries of an initial guess by 0.
pub(crate) fn sanitize(r: &mut [f64]) {
    for x in r.iter_mut() {
        if !x.is_finite() {
            *x = 0.0;
        }
    }
}

fn local_solve<const D: usize>(
    local: &dyn LocalSolver,
    w: &SMatrix<f64, D, D>,
    q: &SVector<f64, D>,
    mu: f64,
    r: &mut SVector<f64, D>,
    params: &Params,
) -> Result<(), LocalError> {
    // The trait has one method per dimension; copy through fixed-size values (no allocation).
    if D == 3 {
        let w3 = SMatrix::<f64, 3, 3>::from_iterator(w.iter().copied());
        let q3 = SVector::<f64, 3>::from_iterator(q.iter().copied());
        let mut r3 = SVector::<f64, 3>::from_iterator(r.iter().copied());
        let res = local.solve3(&w3, &q3, mu, &mut r3, &params.local);
        r.iter_mut().zip(r3.iter()).for_each(|(a, b)| *a = *b);
        res.map(|_| ())
    } else {
        let w2 = SMatrix::<f64, 2, 2>::from_iterator(w.iter().copied());
        let q2 = SVector::<f64, 2>::from_iterator(q.iter().copied());
        let mut r2 = SVector::<f64, 2>::from_iterator(r.iter().copied());
        let res = local.solve2(&w2, &q2, mu, &mut r2, &params.local);
        r.iter_mut().zip(r2.iter()).for_each(|(a, b)| *a = *b);
        res.map(|_| ())
    }
}

fn run<const D: usize>(
    problem: &LocalProblem,
    blocks: &[SMatrix<f64, D, D>],
    local: &dyn LocalSolver,
    r: &mut [f64],
    u: &mut [f64],
    params: &Params,
    max_iter: usize,
) -> SweepResult {
    let nc = problem.n_contacts;
    let mut order: Vec<usize> = (0..nc).collect();
    let mut rng = params.shuffle.map(rand::rngs::StdRng::seed_from_u64);
    let rp = problem.w_rows.symbolic().row_ptr();
    let ci = problem.w_rows.symbolic().col_idx();
    let wv = problem.w_rows.val();
    let check_every = params.check_every.max(1);
    let mut error = f64::INFINITY;
    let mut it = 0;
    while it < max_iter {
        if let Some(rng) = rng.as_mut() {
            order.shuffle(rng);
        }
        for &c in &order {
            let wcc = &blocks[c];
            let rc_old = SVector::<f64, D>::from_column_slice(&r[D * c..D * c + D]);
            // q̃ = q_c + (W r)_c − W_cc r_c
            let mut qt = SVector::<f64, D>::from_column_slice(&problem.q[D * c..D * c + D]);
            for a in 0..D {
                let row = D * c + a;
                let mut s = 0.0;
                for k in rp[row]..rp[row + 1] {
                    s += wv[k] * r[ci[k]];
                }
                qt[a] += s;
            }
            qt -= wcc * rc_old;
            let mut rc = rc_old;
            // A failed local solve keeps its last iterate; the global error decides.
            let _ = local_solve::<D>(local, wcc, &qt, problem.mu[c], &mut rc, params);
            if params.omega != 1.0 {
                rc = rc * params.omega + rc_old * (1.0 - params.omega);
            }
            if !rc.iter().all(|x| x.is_finite()) {
                rc = rc_old;
            }
            r[D * c..D * c + D].copy_from_slice(rc.as_slice());
        }
        it += 1;
        if it % check_every == 0 || it == max_iter {
            problem.velocity(r, u);
            error = fclib_error(problem, r, u);
            if error <= params.tol {
                return SweepResult {
                    converged: true,
                    timed_out: false,
                    error,
                    iterations: it,
                };
            }
        }
        if params.timed_out() {
            problem.velocity(r, u);
            error = fclib_error(problem, r, u);
            return SweepResult {
                converged: error <= params.tol,
                timed_out: true,
                error,
                iterations: it,
            };
        }
    }
    problem.velocity(r, u);
    if !error.is_finite() {
        error = fclib_error(problem, r, u);
    }
    SweepResult {
        converged: error <= params.tol,
        timed_out: false,
        error,
        iterations: it,
    }
}
