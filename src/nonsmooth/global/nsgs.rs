//! Nonsmooth (block) Gauss–Seidel with any registered local solver, `nsgs-<local>`
//! (Jean & Moreau 1992; Jourdan, Alart & Jean 1998; Acary, Brémond & Dubois 2017,
//! eq. 14; Dumont §3.1 "NLGS").
//!
//! One sweep visits every contact `α` and solves the one-contact problem
//! `u_α = W_αα r_α + q̃_α`, `q̃_α = q_α + Σ_{β≠α} W_αβ r_β` (newest `r_β`) with the local
//! solver, warm-started from the current `r_α`. Options ([`NsgsParams`]): relaxation
//! `r_α ← ω r_α,new + (1−ω) r_α,old`, a shuffled (seeded) contact order, and the error
//! `‖F_nat(r)‖/‖q‖` computed every `check_every` sweeps. A failed local solve keeps
//! its last iterate (the global error decides); a non-finite one is discarded.
//! The specialised Alart–Curnier sweep without the trait call is [`super::nsgs_ac`].

use std::time::Instant;

use nalgebra::{SMatrix, SVector};
use rand::seq::SliceRandom;
use rand::SeedableRng;

use super::stop::{Outcome, Watch};
use super::{check_sizes, sanitize, Control, Info, SolveError, Solver};
use crate::nonsmooth::error::{fclib_error, fclib_error_floor};
use crate::nonsmooth::local::{LocalParams, LocalSolver};
use crate::nonsmooth::problem::{DiagBlocks, LocalProblem};

/// Parameters of NSGS.
#[derive(Debug, Clone, PartialEq)]
pub struct NsgsParams {
    /// Relaxation `ω`. Default 1 (none).
    pub omega: f64,
    /// Visit the contacts in a random order, reshuffled every sweep, from this seed.
    /// Default `None` (natural order).
    pub shuffle: Option<u64>,
    /// Compute the error every `check_every` sweeps. Default 1.
    pub check_every: usize,
    /// Stopping test of the local solves. Default: tol 1e-12, 100 iterations.
    pub local: LocalParams,
    /// Sweep cap when the [`Control`] gives none. Default 100 000.
    pub max_iter: usize,
    /// Stop as stalled when the error has not dropped by 1 % in this many sweeps.
    /// Default 2000.
    pub stall_window: usize,
}

impl Default for NsgsParams {
    fn default() -> Self {
        NsgsParams {
            omega: 1.0,
            shuffle: None,
            check_every: 1,
            local: LocalParams::default(),
            max_iter: 100_000,
            stall_window: 2000,
        }
    }
}

/// NSGS with a boxed local solver.
pub struct Nsgs {
    pub local: Box<dyn LocalSolver>,
    pub params: NsgsParams,
}

impl Nsgs {
    pub fn new(local: Box<dyn LocalSolver>) -> Self {
        Nsgs {
            local,
            params: NsgsParams::default(),
        }
    }
}

impl Solver for Nsgs {
    fn solve(
        &self,
        problem: &LocalProblem,
        r: &mut [f64],
        u: &mut [f64],
        control: &Control,
    ) -> Result<Info, SolveError> {
        solve_with(problem, self.local.as_ref(), &self.params, r, u, control)
    }
}

/// NSGS with `local` as the one-contact solver (see the module docs).
pub fn solve_with(
    problem: &LocalProblem,
    local: &dyn LocalSolver,
    params: &NsgsParams,
    r: &mut [f64],
    u: &mut [f64],
    control: &Control,
) -> Result<Info, SolveError> {
    control.validate()?;
    check_sizes(problem, r, u);
    let start = Instant::now();
    sanitize(r);
    let max_iter = control.max_iter.unwrap_or(params.max_iter);
    let out = match &problem.blocks {
        DiagBlocks::Two(b) => run::<2>(problem, b, local, params, r, u, control, max_iter),
        DiagBlocks::Three(b) => run::<3>(problem, b, local, params, r, u, control, max_iter),
    };
    out.finish(start, 0)
}

fn local_solve<const D: usize>(
    local: &dyn LocalSolver,
    w: &SMatrix<f64, D, D>,
    q: &SVector<f64, D>,
    mu: f64,
    r: &mut SVector<f64, D>,
    params: &LocalParams,
) {
    // The trait has one method per dimension; copy through fixed-size values.
    // A failed local solve keeps its last iterate: the result is not needed.
    if D == 3 {
        let w3 = SMatrix::<f64, 3, 3>::from_iterator(w.iter().copied());
        let q3 = SVector::<f64, 3>::from_iterator(q.iter().copied());
        let mut r3 = SVector::<f64, 3>::from_iterator(r.iter().copied());
        let _ = local.solve3(&w3, &q3, mu, &mut r3, params);
        r.iter_mut().zip(r3.iter()).for_each(|(a, b)| *a = *b);
    } else {
        let w2 = SMatrix::<f64, 2, 2>::from_iterator(w.iter().copied());
        let q2 = SVector::<f64, 2>::from_iterator(q.iter().copied());
        let mut r2 = SVector::<f64, 2>::from_iterator(r.iter().copied());
        let _ = local.solve2(&w2, &q2, mu, &mut r2, params);
        r.iter_mut().zip(r2.iter()).for_each(|(a, b)| *a = *b);
    }
}

#[allow(clippy::too_many_arguments)]
fn run<const D: usize>(
    problem: &LocalProblem,
    blocks: &[SMatrix<f64, D, D>],
    local: &dyn LocalSolver,
    params: &NsgsParams,
    r: &mut [f64],
    u: &mut [f64],
    control: &Control,
    max_iter: usize,
) -> Outcome {
    let nc = problem.n_contacts;
    let mut order: Vec<usize> = (0..nc).collect();
    let mut rng = params.shuffle.map(rand::rngs::StdRng::seed_from_u64);
    let rows = &problem.block_rows;
    let check_every = params.check_every.max(1);
    let mut watch = Watch::new(params.stall_window);
    let mut it = 0;
    loop {
        if it % check_every == 0 || it >= max_iter {
            problem.velocity(r, u);
            let error = fclib_error(problem, r, u);
            if let Some(status) = watch.check(
                control,
                it,
                max_iter,
                error,
                fclib_error_floor(problem, r, u),
            ) {
                return Outcome {
                    status,
                    error,
                    iterations: it,
                };
            }
        }
        if let Some(rng) = rng.as_mut() {
            order.shuffle(rng);
        }
        for &c in &order {
            let wcc = &blocks[c];
            let rc_old = SVector::<f64, D>::from_column_slice(&r[D * c..D * c + D]);
            // q̃ = q_c + Σ_{β≠c} W_cβ r_β
            let mut acc = [0.0; D];
            acc.copy_from_slice(&problem.q[D * c..D * c + D]);
            rows.add_row::<D>(c, r, &mut acc);
            let qt = SVector::<f64, D>::from(acc);
            let mut rc = rc_old;
            local_solve::<D>(local, wcc, &qt, problem.mu[c], &mut rc, &params.local);
            if params.omega != 1.0 {
                rc = rc * params.omega + rc_old * (1.0 - params.omega);
            }
            if !rc.iter().all(|x| x.is_finite()) {
                rc = rc_old;
            }
            r[D * c..D * c + D].copy_from_slice(rc.as_slice());
        }
        it += 1;
    }
}
