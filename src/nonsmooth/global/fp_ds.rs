//! `fp-ds`: De Saxcé's fixed-point projection on the whole problem (De Saxcé & Feng
//! 1991; Acary, Brémond & Dubois 2017, the natural map eq. 13 iterated as a fixed
//! point; Siconos's FP-DS; Solfec eq. 80 for one contact):
//!
//! `r ← P_K(r − ρ (u + μ‖u_T‖e_N))`, `u = W r + q`,
//!
//! with a self-adaptive step (Khobotov's rule, as Siconos's VI fixed-point solvers):
//! a step is accepted when `ρ ‖W Δr‖ ≤ 0.9 ‖Δr‖`, otherwise `ρ` is reduced by 2/3 and
//! the step retried; after an accepted step with `ρ ‖W Δr‖ < 0.5 ‖Δr‖`, `ρ` grows by
//! 3/2. `ρ₀ = 1 / max_c (tr W_cc)`. A first-order method: cheap steps, slow on
//! ill-conditioned (rigid) problems, robust.

use std::time::Instant;

use super::stop::{Outcome, Watch};
use super::{check_sizes, sanitize, Control, Entry, Info, SolveError, Solver};
use crate::nonsmooth::error::{fclib_error, fclib_error_floor};
use crate::nonsmooth::local::project_cone;
use crate::nonsmooth::problem::{csc_mul_add, LocalProblem};
use nalgebra::SVector;

pub const ENTRY: Entry = Entry {
    name: "fp-ds",
    description: "De Saxce's fixed-point projection on all contacts, self-adaptive step (De Saxce & Feng 1991; Siconos FP-DS)",
    make: || Box::new(FpDs::default()),
};

/// Parameters of `fp-ds`.
#[derive(Debug, Clone, PartialEq)]
pub struct FpDsParams {
    /// Iteration cap when the [`Control`] gives none. Default 100 000.
    pub max_iter: usize,
    /// Stop as stalled when the error has not dropped by 1 % in this many iterations.
    /// Default 5000.
    pub stall_window: usize,
}

impl Default for FpDsParams {
    fn default() -> Self {
        FpDsParams {
            max_iter: 100_000,
            stall_window: 5000,
        }
    }
}

/// The fixed-point projection (module docs).
#[derive(Debug, Clone, Default)]
pub struct FpDs {
    pub params: FpDsParams,
}

impl Solver for FpDs {
    fn solve(
        &self,
        problem: &LocalProblem,
        r: &mut [f64],
        u: &mut [f64],
        control: &Control,
    ) -> Result<Info, SolveError> {
        control.validate()?;
        check_sizes(problem, r, u);
        sanitize(r);
        let start = Instant::now();
        let max_iter = control.max_iter.unwrap_or(self.params.max_iter);
        let mut watch = Watch::new(self.params.stall_window);
        let (d, n) = (problem.dim, problem.size());
        let tr_max = (0..n)
            .map(|k| problem.w_rows.get(k, k).copied().unwrap_or(0.0) * d as f64)
            .fold(0.0, f64::max);
        let mut rho = if tr_max > 0.0 { 1.0 / tr_max } else { 1.0 };
        let (mut r_new, mut dr, mut wdr) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
        problem.velocity(r, u);
        let mut it = 0;
        loop {
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
                }
                .finish(start, 0);
            }
            for _ in 0..60 {
                step(problem, r, u, rho, &mut r_new);
                for k in 0..n {
                    dr[k] = r_new[k] - r[k];
                }
                wdr.iter_mut().for_each(|x| *x = 0.0);
                csc_mul_add(&problem.w, &dr, &mut wdr);
                let (a, b) = (norm(&wdr) * rho, norm(&dr));
                if a <= 0.9 * b || b == 0.0 {
                    if a < 0.5 * b {
                        rho *= 1.5;
                    }
                    break;
                }
                rho *= 2.0 / 3.0;
            }
            r.copy_from_slice(&r_new);
            for k in 0..n {
                u[k] += wdr[k];
            }
            it += 1;
            if it % 64 == 0 {
                problem.velocity(r, u); // no drift from the incremental update
            }
        }
    }
}

fn norm(x: &[f64]) -> f64 {
    x.iter().map(|v| v * v).sum::<f64>().sqrt()
}

/// `out = P_K(r − ρ (u + μ‖u_T‖e_N))` contact by contact.
fn step(p: &LocalProblem, r: &[f64], u: &[f64], rho: f64, out: &mut [f64]) {
    let d = p.dim;
    for c in 0..p.n_contacts {
        let k = d * c;
        let ut = u[k + 1..k + d].iter().map(|x| x * x).sum::<f64>().sqrt();
        if d == 3 {
            let z = SVector::<f64, 3>::from_fn(|i, _| {
                r[k + i] - rho * (u[k + i] + if i == 0 { p.mu[c] * ut } else { 0.0 })
            });
            out[k..k + 3].copy_from_slice(project_cone(&z, p.mu[c]).as_slice());
        } else {
            let z = SVector::<f64, 2>::from_fn(|i, _| {
                r[k + i] - rho * (u[k + i] + if i == 0 { p.mu[c] * ut } else { 0.0 })
            });
            out[k..k + 2].copy_from_slice(project_cone(&z, p.mu[c]).as_slice());
        }
    }
}
