//! Damped semismooth (generalized) Newton driver shared by the equation-based
//! local solvers (Alart–Curnier, Jean–Moreau, natural map, NSFE, NSVE).
//!
//! Given a nonsmooth function `Φ: R³ → R³` whose zeros are the solutions and
//! an element `J` of its generalized Jacobian, each iteration solves
//! `J d = −Φ(r)` and backtracks on the merit `ψ = ½‖Φ‖²` until the Armijo
//! condition `ψ(r + t d) ≤ (1 − 2σt) ψ(r)` holds (`σ = 1e-4`; `−2ψ` is the
//! directional derivative of `ψ` along a Newton direction). When `J` is
//! numerically singular, when the line search fails, or when `Φ` vanishes at a
//! point that is not a solution (a spurious zero of the reformulation), a few
//! De Saxcé–Feng projection steps (Solfec eq. 80) with `ρ = 1/λ_max(W)` are
//! taken instead. Convergence is always tested on the natural map
//! `‖F_nat(r)‖ ≤ tol` (Acary et al. 2017, eq. 13), the shared error measure.

use super::common::{desaxce_step, error3, finish, lambda_max3, solve3, M3, V3};
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
const FALLBACK_STEPS: usize = 3;

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
    let lmax = lambda_max3(w);
    if !(lmax > 0.0) || !lmax.is_finite() {
        return Err(LocalError::Breakdown("W is not positive definite"));
    }
    let rho_fb = 1.0 / lmax;
    let mut err = error3(w, q, mu, r);
    for it in 0..params.max_iter {
        if err <= params.tol {
            return Ok(LocalInfo {
                iterations: it,
                error: err,
            });
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
                        accepted = true;
                        break;
                    }
                    t *= 0.5;
                }
            }
        }
        if !accepted {
            for _ in 0..FALLBACK_STEPS {
                *r = desaxce_step(w, q, mu, r, rho_fb);
            }
        }
        err = error3(w, q, mu, r);
        if !err.is_finite() {
            return Err(LocalError::Breakdown("non-finite iterate"));
        }
    }
    finish(err, params.max_iter, params.tol)
}
