//! Damped semismooth (generalized) Newton driver shared by the equation-based
//! local solvers (Alart–Curnier, Jean–Moreau, natural map, NSFE, NSVE).
//!
//! Given a nonsmooth function `Φ: R³ → R³` whose zeros are the solutions and
//! an element `J` of its generalized Jacobian, each iteration solves
//! `J d = −Φ(r)` and backtracks on the merit `ψ = ½‖Φ‖²` until the Armijo
//! condition `ψ(r + t d) ≤ (1 − 2σt) ψ(r)` holds (`σ = 1e-4`; `−2ψ` is the
//! directional derivative of `ψ` along a Newton direction).
//!
//! Fallback. When `J` is numerically singular, when the line search fails or
//! only accepts a step `t < 1/1024` (crawling along a valley of `ψ`), or when
//! `Φ` vanishes at a point that is not a solution (a spurious zero of the
//! reformulation), projected-gradient steps (Solfec eqs. 76–77) with the
//! self-adaptive step of `projection.rs` are taken instead: 10 the first time,
//! doubling at each further fallback up to 1280, so that an iteration trapped
//! near a non-solution minimizer of `ψ` is eventually carried out of its
//! basin; Newton resumes from there. (The Alart–Curnier-type projection proved
//! a more reliable escape than the De Saxcé projection for large `μ`.)
//!
//! Stopping. Convergence is always tested on the natural map
//! `‖F_nat(r)‖ ≤ tol` (Acary et al. 2017, eq. 13), the shared error measure.
//! After five iterations with `‖F_nat‖` at its round-off floor
//! (`8 eps (‖q‖ + (1 + λ_max)‖r‖)`) the solver gives up, so that an
//! unreachable `tol` does not cost thousands of fallback steps.

use super::common::{error3, finish, lambda_max3, pg_step, solve3, M3, V3};
use super::{LocalError, LocalInfo, LocalParams};

/// A nonsmooth reformulation `Φ(r) = 0` of the one-contact problem.
pub(crate) trait Formulation {
    /// `Φ(r)`.
    fn phi(&self, w: &M3, q: &V3, mu: f64, r: &V3) -> V3;
    /// `Φ(r)` and one element of its generalized Jacobian.
    fn phi_jac(&self, w: &M3, q: &V3, mu: f64, r: &V3) -> (V3, M3);
}

const ARMIJO_SIGMA: f64 = 1e-4;
const MAX_BACKTRACK: usize = 40;
/// Accepted steps shorter than this also trigger the fallback.
const MIN_STEP: f64 = 1.0 / 1024.0;
const FALLBACK_STEPS: usize = 10;
const MAX_FALLBACK_STEPS: usize = 1280;

/// Damped semismooth Newton on `f` (see the module docs). `r` holds the initial
/// guess on entry and the answer or last iterate on return.
pub(crate) fn semismooth_newton<F: Formulation>(
    f: &F,
    w: &M3,
    q: &V3,
    mu: f64,
    r: &mut V3,
    params: &LocalParams,
) -> Result<LocalInfo, LocalError> {
    semismooth_newton_with(f, w, q, mu, r, params, lambda_max3(w))
}

/// [`semismooth_newton`] with `λ_max(W)` supplied by the caller.
pub(crate) fn semismooth_newton_with<F: Formulation>(
    f: &F,
    w: &M3,
    q: &V3,
    mu: f64,
    r: &mut V3,
    params: &LocalParams,
    lmax: f64,
) -> Result<LocalInfo, LocalError> {
    if !(lmax > 0.0) || !lmax.is_finite() {
        return Err(LocalError::Breakdown("W is not positive definite"));
    }
    let mut rho_fb = 1.0 / lmax;
    let mut n_fb = FALLBACK_STEPS;
    let mut stalled_at_floor = 0;
    let mut err = error3(w, q, mu, r);
    for it in 0..params.max_iter {
        if err <= params.tol {
            return Ok(LocalInfo {
                iterations: it,
                error: err,
            });
        }
        // At the round-off floor of ‖F_nat‖ no further progress is possible:
        // stop after a few such iterations (an unreachable tol must not cost
        // thousands of fallback steps).
        if at_roundoff_floor(err, q, r, lmax) {
            stalled_at_floor += 1;
            if stalled_at_floor >= 5 {
                return finish(err, it, params.tol);
            }
        }
        let (phi, jac) = f.phi_jac(w, q, mu, r);
        let psi0 = 0.5 * phi.norm_squared();
        let mut accepted = false;
        if psi0 > 0.0 {
            if let Some(d) = solve3(&jac, &(-phi)) {
                let mut t = 1.0;
                for _ in 0..MAX_BACKTRACK {
                    let rt = *r + d * t;
                    let psi = 0.5 * f.phi(w, q, mu, &rt).norm_squared();
                    if psi <= (1.0 - 2.0 * ARMIJO_SIGMA * t) * psi0 {
                        *r = rt;
                        // A very short step means Newton is crawling along a
                        // non-solution valley of ψ: treat it as a stall.
                        accepted = t >= MIN_STEP;
                        break;
                    }
                    t *= 0.5;
                }
            }
        }
        if !accepted {
            fallback(w, q, mu, r, &mut rho_fb, lmax, n_fb);
            n_fb = (2 * n_fb).min(MAX_FALLBACK_STEPS);
        }
        err = error3(w, q, mu, r);
        if !err.is_finite() {
            return Err(LocalError::Breakdown("non-finite iterate"));
        }
    }
    finish(err, params.max_iter, params.tol)
}

/// `steps` projected-gradient steps with the self-adaptive
/// step of `projection.rs` (`ρ‖WΔr‖ ≤ 0.9‖Δr‖`, grown when `< 0.3‖Δr‖`).
pub(crate) fn fallback(
    w: &M3,
    q: &V3,
    mu: f64,
    r: &mut V3,
    rho: &mut f64,
    lmax: f64,
    steps: usize,
) {
    let rho_min = 1e-3 / lmax;
    for _ in 0..steps {
        let mut r_new;
        loop {
            r_new = pg_step(w, q, mu, r, *rho);
            let dr = r_new - *r;
            let ndr = dr.norm();
            if ndr == 0.0 {
                return;
            }
            let ratio = *rho * (w * dr).norm() / ndr;
            if ratio <= 0.9 || *rho <= rho_min {
                if ratio < 0.3 {
                    *rho *= 1.5;
                }
                break;
            }
            *rho = (*rho * 0.6).max(rho_min);
        }
        *r = r_new;
    }
}

/// `‖F_nat(r)‖` is at the round-off level of its evaluation,
/// `~eps(‖q‖ + (1 + λ_max)‖r‖)` (here with a factor 8).
pub(crate) fn at_roundoff_floor(err: f64, q: &V3, r: &V3, lmax: f64) -> bool {
    err <= 8.0 * f64::EPSILON * (q.norm() + (1.0 + lmax) * r.norm())
}
