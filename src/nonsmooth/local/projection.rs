//! First-order fixed-point (projection) solvers: Solfec's projected gradient,
//! the De Saxcé–Feng projection (Dumont's SBP) and Dumont's SAL.
//!
//! All three iterate `r ← T_ρ(r)` where a fixed point of `T_ρ` is a solution
//! for every `ρ > 0`. Convergence is linear with a rate governed by `ρ` and the
//! conditioning of `W`, so on badly conditioned `W` they need many iterations
//! (that is the nature of the methods, measured in `tests/solvers/local.rs`).

use super::common::{desaxce_step, error3, finish, lambda_max3, pg_step, M3, V3};
use super::{LocalError, LocalInfo, LocalParams, LocalSolver};

/// Fixed-point iteration with the self-adaptive step of Khobotov / He–Liao
/// (as used in Siconos' "projection on cone with local iteration"): a step is
/// accepted when `ρ‖WΔr‖ ≤ 0.9‖Δr‖`, otherwise `ρ` shrinks; `ρ` grows when
/// `ρ‖WΔr‖ < 0.3‖Δr‖`. Start: `ρ = 1/λ_max(W)`.
fn adaptive_fixed_point(
    w: &M3,
    q: &V3,
    mu: f64,
    r: &mut V3,
    params: &LocalParams,
    step: fn(&M3, &V3, f64, &V3, f64) -> V3,
) -> Result<LocalInfo, LocalError> {
    let lmax = lambda_max3(w);
    if !(lmax > 0.0) || !lmax.is_finite() {
        return Err(LocalError::Breakdown("W is not positive definite"));
    }
    let mut rho = 1.0 / lmax;
    let rho_min = 1e-3 / lmax;
    let mut err = error3(w, q, mu, r);
    for it in 0..params.max_iter {
        if err <= params.tol {
            return Ok(LocalInfo {
                iterations: it,
                error: err,
            });
        }
        let mut r_new;
        loop {
            r_new = step(w, q, mu, r, rho);
            let dr = r_new - *r;
            let ndr = dr.norm();
            if ndr == 0.0 {
                break;
            }
            let ratio = rho * (w * dr).norm() / ndr;
            if ratio <= 0.9 || rho <= rho_min {
                if ratio < 0.3 {
                    rho *= 1.5;
                }
                break;
            }
            rho = (rho * 0.6).max(rho_min);
        }
        *r = r_new;
        err = error3(w, q, mu, r);
        if !err.is_finite() {
            return Err(LocalError::Breakdown("non-finite iterate"));
        }
    }
    finish(err, params.max_iter, params.tol)
}

/// Fixed-point iteration with a constant `ρ`.
fn fixed_step_fixed_point(
    w: &M3,
    q: &V3,
    mu: f64,
    r: &mut V3,
    params: &LocalParams,
    rho: f64,
    step: fn(&M3, &V3, f64, &V3, f64) -> V3,
) -> Result<LocalInfo, LocalError> {
    let mut err = error3(w, q, mu, r);
    for it in 0..params.max_iter {
        if err <= params.tol {
            return Ok(LocalInfo {
                iterations: it,
                error: err,
            });
        }
        *r = step(w, q, mu, r, rho);
        err = error3(w, q, mu, r);
        if !err.is_finite() {
            return Err(LocalError::Breakdown("non-finite iterate"));
        }
    }
    finish(err, params.max_iter, params.tol)
}

/// "pg": projected gradient on the cone, Solfec eqs. 76–77 (after Alart &
/// Curnier 1991), with the self-adaptive step `ρ` (start `1/λ_max(W)`, shrink
/// when `ρ‖WΔr‖ > 0.9‖Δr‖`, grow when `< 0.3‖Δr‖`). The update is the same as
/// Dumont's SAL ([`Sal`]), which keeps a fixed `ρ`.
///
/// 2D: exact embedding into 3D (see `common::embed2`).
#[derive(Debug, Clone, Copy, Default)]
pub struct ProjectedGradient;

impl LocalSolver for ProjectedGradient {
    fn name(&self) -> &'static str {
        "pg"
    }
    fn description(&self) -> &'static str {
        "projected gradient r_N=max(0,r_N-ρu_N), r_T=proj_D(μr_N)(r_T-ρu_T), adaptive ρ (Solfec eqs. 76-77)"
    }
    fn solve3(
        &self,
        w: &M3,
        q: &V3,
        mu: f64,
        r: &mut V3,
        p: &LocalParams,
    ) -> Result<LocalInfo, LocalError> {
        adaptive_fixed_point(w, q, mu, r, p, pg_step)
    }
}

/// "desaxce": De Saxcé–Feng fixed-point projection
/// `r ← P_K(r − ρ(u + μ‖u_T‖e_N))` (Solfec eq. 80; Dumont's SBP, eqs. 21–22)
/// with the self-adaptive `ρ` of [`ProjectedGradient`].
///
/// 2D: exact embedding into 3D (see `common::embed2`).
#[derive(Debug, Clone, Copy, Default)]
pub struct DeSaxceFeng;

impl LocalSolver for DeSaxceFeng {
    fn name(&self) -> &'static str {
        "desaxce"
    }
    fn description(&self) -> &'static str {
        "De Saxcé-Feng projection r=P_K(r-ρ(u+μ|u_T|e_N)), adaptive ρ (Solfec eq. 80, Dumont SBP eqs. 21-22)"
    }
    fn solve3(
        &self,
        w: &M3,
        q: &V3,
        mu: f64,
        r: &mut V3,
        p: &LocalParams,
    ) -> Result<LocalInfo, LocalError> {
        adaptive_fixed_point(w, q, mu, r, p, desaxce_step)
    }
}

/// "sal": Dumont's Standard Augmented Lagrangian iteration (Dumont eq. 35 and
/// the projection below it): `τ = r − ρu`, `r_N = max(0, τ_N)`,
/// `r_T = proj_{B(0, μr_N)}(τ_T)`, with Dumont's fixed step `ρ = 0.6 ρ̄`.
/// Dumont's `ρ̄ = m_i m_j/((m_i+m_j)Δt)` is the inverse of the Delassus operator
/// of two translating particles (`W = ρ̄⁻¹ I`); for a general `W` we take
/// `ρ̄ = 1/λ_max(W)`, which keeps his convergence bound `ρ < 2ρ̄`.
///
/// 2D: exact embedding into 3D (see `common::embed2`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Sal;

impl LocalSolver for Sal {
    fn name(&self) -> &'static str {
        "sal"
    }
    fn description(&self) -> &'static str {
        "Dumont's standard augmented Lagrangian projection, fixed ρ=0.6/λ_max(W) (Dumont eq. 35)"
    }
    fn solve3(
        &self,
        w: &M3,
        q: &V3,
        mu: f64,
        r: &mut V3,
        p: &LocalParams,
    ) -> Result<LocalInfo, LocalError> {
        let lmax = lambda_max3(w);
        if !(lmax > 0.0) || !lmax.is_finite() {
            return Err(LocalError::Breakdown("W is not positive definite"));
        }
        fixed_step_fixed_point(w, q, mu, r, p, 0.6 / lmax, pg_step)
    }
}
