//! `nsgs-ac`: nonsmooth Gauss–Seidel with the Alart–Curnier local Newton written into
//! the sweep (Acary, Brémond & Dubois 2017, eq. 14 with the local solver of eq. 11:
//! Siconos's NSGS-AC; Alart & Curnier 1991), without the local-solver trait call,
//! the copies through it and its fallbacks, which made the generic `nsgs-<local>`
//! sweep 3–4× slower.
//!
//! Per contact `α`: `q̃_α = q_α + Σ_{β≠α} W_αβ r_β` (newest `r_β`, the off-diagonal
//! blocks of `W` stored contiguously by block row,
//! [`crate::nonsmooth::block_rows::BlockRows`]); if `q̃_N ≥ 0`, `r_α = 0` is the local solution (take-off: `û = q̃ + μ‖q̃_T‖e_N`
//! is in `K*` iff `q̃_N ≥ 0`); otherwise semismooth Newton on the Alart–Curnier
//! function `Φ(r) = 0`, `u = W_αα r + q̃_α`, `ρ = D / tr W_αα`, `J = B + A W_αα` solved
//! by LU of the `D × D` matrix, Armijo backtracking on `½‖Φ‖²`, warm-started from the
//! current `r_α`, at most [`NsgsAcParams::local_iter`] steps, stopping when
//! `‖Φ‖ ≤ 10⁻¹⁴ (‖r‖ + ρ‖q̃‖)`. A non-finite local answer keeps the previous `r_α`.
//!
//! The global error `‖F_nat(r)‖/‖q‖` (a product `W r` and a pass over the contacts,
//! as costly as a sweep) is evaluated every sweep at first and then, once the error
//! decreases steadily, every `k ≤ 16` sweeps with `k` half the number of sweeps the
//! observed rate predicts to reach the tolerance, so the overshoot stays small.

use std::time::Instant;

use nalgebra::{SMatrix, SVector};

use super::functions::NsnFunction;
use super::stop::{Outcome, Watch};
use super::{check_sizes, sanitize, Control, Entry, Info, SolveError, Solver};
use crate::nonsmooth::error::{fclib_error, fclib_error_floor};
use crate::nonsmooth::problem::{DiagBlocks, LocalProblem};

pub const ENTRY: Entry = Entry {
    name: "nsgs-ac",
    description: "nonsmooth Gauss-Seidel with an inlined Alart-Curnier local Newton (Siconos NSGS-AC; Acary et al. 2017 eqs. 11, 14)",
    make: || Box::new(NsgsAc::default()),
};

/// Parameters of `nsgs-ac`.
#[derive(Debug, Clone, PartialEq)]
pub struct NsgsAcParams {
    /// Newton steps per local solve. Default 20.
    pub local_iter: usize,
    /// Sweep cap when the [`Control`] gives none. Default 100 000.
    pub max_iter: usize,
    /// Stop as stalled when the error has not dropped by 1 % in this many sweeps.
    /// Default 2000.
    pub stall_window: usize,
}

impl Default for NsgsAcParams {
    fn default() -> Self {
        NsgsAcParams {
            local_iter: 20,
            max_iter: 100_000,
            stall_window: 2000,
        }
    }
}

/// The specialised NSGS-AC (module docs).
#[derive(Debug, Clone, Default)]
pub struct NsgsAc {
    pub params: NsgsAcParams,
}

impl Solver for NsgsAc {
    fn solve(
        &self,
        problem: &LocalProblem,
        r: &mut [f64],
        u: &mut [f64],
        control: &Control,
    ) -> Result<Info, SolveError> {
        control.validate()?;
        check_sizes(problem, r, u);
        let start = Instant::now();
        sanitize(r);
        let max_iter = control.max_iter.unwrap_or(self.params.max_iter);
        let mut watch = Watch::new(self.params.stall_window);
        sweeps(
            problem,
            &self.params,
            r,
            u,
            control,
            max_iter,
            0,
            &mut watch,
        )
        .finish(start, 0)
    }
}

/// Sweeps until converged, `max_iter` (counted from `first`), the deadline or a stall;
/// `u = W r + q` on return.
#[allow(clippy::too_many_arguments)]
pub(crate) fn sweeps(
    problem: &LocalProblem,
    params: &NsgsAcParams,
    r: &mut [f64],
    u: &mut [f64],
    control: &Control,
    max_iter: usize,
    first: usize,
    watch: &mut Watch,
) -> Outcome {
    match &problem.blocks {
        DiagBlocks::Two(b) => run::<2>(problem, b, params, r, u, control, max_iter, first, watch),
        DiagBlocks::Three(b) => run::<3>(problem, b, params, r, u, control, max_iter, first, watch),
    }
}

#[allow(clippy::too_many_arguments)]
fn run<const D: usize>(
    problem: &LocalProblem,
    blocks: &[SMatrix<f64, D, D>],
    params: &NsgsAcParams,
    r: &mut [f64],
    u: &mut [f64],
    control: &Control,
    max_iter: usize,
    first: usize,
    watch: &mut Watch,
) -> Outcome {
    let rho = rho_of(blocks);
    let mut it = first;
    let mut next_check = first;
    let mut last: Option<(usize, f64)> = None;
    loop {
        if it >= next_check || it >= max_iter {
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
            next_check = it + check_interval(last, it, error, control.tol);
            last = Some((it, error));
        }
        sweep_blocks::<D>(problem, blocks, &rho, params.local_iter, r);
        it += 1;
    }
}

/// `ρ_c = D / tr W_cc` (1 when the trace is not positive).
fn rho_of<const D: usize>(blocks: &[SMatrix<f64, D, D>]) -> Vec<f64> {
    blocks
        .iter()
        .map(|w| {
            let t = w.trace();
            if t > 0.0 && t.is_finite() {
                D as f64 / t
            } else {
                1.0
            }
        })
        .collect()
}

/// One sweep over the contacts in order (module docs); allocates nothing.
fn sweep_blocks<const D: usize>(
    problem: &LocalProblem,
    blocks: &[SMatrix<f64, D, D>],
    rho: &[f64],
    local_iter: usize,
    r: &mut [f64],
) {
    let rows = &problem.block_rows;
    for c in 0..problem.n_contacts {
        let k = D * c;
        let rc_old = SVector::<f64, D>::from_column_slice(&r[k..k + D]);
        let mut acc = [0.0; D];
        acc.copy_from_slice(&problem.q[k..k + D]);
        rows.add_row::<D>(c, r, &mut acc);
        let qt = SVector::<f64, D>::from(acc);
        let rc = local_ac(&blocks[c], &qt, problem.mu[c], rho[c], rc_old, local_iter);
        if rc.iter().all(|x| x.is_finite()) {
            r[k..k + D].copy_from_slice(rc.as_slice());
        }
    }
}

/// Prepared single sweeps of NSGS-AC on one problem (for benchmarks and callers
/// that control the iteration themselves): `ρ` per contact computed once.
pub struct Sweeper<'a> {
    problem: &'a LocalProblem,
    rho: Vec<f64>,
    local_iter: usize,
}

impl<'a> Sweeper<'a> {
    pub fn new(problem: &'a LocalProblem, params: &NsgsAcParams) -> Self {
        let rho = match &problem.blocks {
            DiagBlocks::Two(b) => rho_of(b),
            DiagBlocks::Three(b) => rho_of(b),
        };
        Sweeper {
            problem,
            rho,
            local_iter: params.local_iter,
        }
    }

    /// One Gauss–Seidel sweep on `r` (`dim · n_contacts` entries); no error
    /// evaluation, no allocation.
    pub fn sweep(&self, r: &mut [f64]) {
        assert_eq!(
            r.len(),
            self.problem.size(),
            "r must have dim · n_contacts entries"
        );
        match &self.problem.blocks {
            DiagBlocks::Two(b) => sweep_blocks::<2>(self.problem, b, &self.rho, self.local_iter, r),
            DiagBlocks::Three(b) => {
                sweep_blocks::<3>(self.problem, b, &self.rho, self.local_iter, r)
            }
        }
    }
}

/// Sweeps until the next error evaluation (module docs).
fn check_interval(last: Option<(usize, f64)>, it: usize, error: f64, tol: f64) -> usize {
    let Some((it0, e0)) = last else { return 1 };
    if !(error < e0 && error > 0.0 && it > it0) {
        return 1;
    }
    let rate = (error / e0).powf(1.0 / (it - it0) as f64);
    let predicted = (tol / error).ln() / rate.ln();
    (predicted / 2.0).clamp(1.0, 16.0) as usize
}

/// The one-contact Alart–Curnier Newton (module docs).
#[inline]
fn local_ac<const D: usize>(
    w: &SMatrix<f64, D, D>,
    q: &SVector<f64, D>,
    mu: f64,
    rho: f64,
    mut r: SVector<f64, D>,
    max_iter: usize,
) -> SVector<f64, D> {
    if q[0] >= 0.0 {
        return SVector::zeros();
    }
    let ac = NsnFunction::AlartCurnier;
    let scale = 1e-14 * (r.norm() + rho * q.norm());
    let (mut phi, mut a, mut b) = ac.eval(&r, &(w * r + q), mu, rho);
    let mut psi = phi.norm_squared();
    for _ in 0..max_iter {
        if psi.sqrt() <= scale {
            break;
        }
        let j = b + a * w;
        let Some(d) = solve_small(j, -phi) else {
            break;
        };
        let mut t = 1.0;
        loop {
            let rt = r + d * t;
            let ut = w * rt + q;
            let (pt, at, bt) = ac.eval(&rt, &ut, mu, rho);
            let psit = pt.norm_squared();
            if psit <= (1.0 - 2e-4 * t) * psi || t < 1e-3 {
                r = rt;
                (phi, a, b, psi) = (pt, at, bt, psit);
                break;
            }
            t *= 0.5;
        }
    }
    r
}

/// `a x = b` by Gaussian elimination with partial pivoting; `None` when a pivot is
/// not above `1e-14 · max|a|` (singular generalized Jacobian).
#[inline]
fn solve_small<const D: usize>(
    mut a: SMatrix<f64, D, D>,
    mut b: SVector<f64, D>,
) -> Option<SVector<f64, D>> {
    let tiny = 1e-14 * a.amax();
    for k in 0..D {
        let mut p = k;
        for i in k + 1..D {
            if a[(i, k)].abs() > a[(p, k)].abs() {
                p = i;
            }
        }
        if !(a[(p, k)].abs() > tiny) {
            return None;
        }
        if p != k {
            a.swap_rows(p, k);
            b.swap_rows(p, k);
        }
        for i in k + 1..D {
            let f = a[(i, k)] / a[(k, k)];
            for j in k..D {
                a[(i, j)] -= f * a[(k, j)];
            }
            b[i] -= f * b[k];
        }
    }
    for k in (0..D).rev() {
        let mut s = b[k];
        for j in k + 1..D {
            s -= a[(k, j)] * b[j];
        }
        b[k] = s / a[(k, k)];
    }
    Some(b)
}
