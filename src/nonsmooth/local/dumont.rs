//! Dumont's enhanced Newton methods EBP (enhanced bi-potential) and EAL
//! (enhanced augmented Lagrangian), Dumont, "On enhanced descent algorithms
//! for solving frictional multi-contact problems", §3.3–3.5.
//!
//! Unknowns `χ = (r, v)` (reaction and velocity, 6 in 3D). Newton on
//! `f(χ) = (v − q − W r, Z(r, v))` (Dumont's `f_c`, before eq. 26) with
//! * EBP: `Z = r − P_K(τ)`, `τ = r − ρ(v + μ‖v_T‖e_N)` (eq. 26);
//! * EAL: `Z̃ = r − proj(τ, R₊ × B(0, μτ_N))`, `τ = r − ρv` (eq. 36).
//!
//! The 6×6 tangent `[[−W, I], [A, B]]` (eq. 29, `A = ∂Z/∂r`, `B = ∂Z/∂v`,
//! eq. 30) is condensed (eqs. 31–32): `δv = −f₁ + Wδr` and
//! `(A + BW) δr = −Z + B f₁`, a 3×3 solve. `A`, `B` are Dumont's three cases
//! (sliding / sticking / no contact), written here through the Jacobian of the
//! projection, which reproduces his formulas case by case.
//!
//! `ρ = ρ̄` as in Dumont §4 with `ρ̄ = 1/λ_max(W)` (his `ρ̄ = m_i m_j/((m_i+m_j)Δt)`
//! is exactly this for two translating particles). Beyond the paper (which
//! takes full steps) we backtrack on `½‖f(χ)‖²` when a full step does not
//! decrease it, and take the projected-gradient fallback of `newton.rs` when
//! the condensed matrix is singular or backtracking fails. Convergence is tested on the
//! natural map of `r`, the shared error measure.

use super::common::{
    error3, finish, lambda_max3, project_cone_jac, project_disc_jac, solve3, tangential_norm,
    uhat3, M3, V2, V3,
};
use super::newton::{at_roundoff_floor, fallback};
use super::{LocalError, LocalInfo, LocalParams, LocalSolver};

#[derive(Clone, Copy)]
enum Variant {
    Ebp,
    Eal,
}

/// `Z`, `A = ∂Z/∂r`, `B = ∂Z/∂v` at `(r, v)`.
fn z_ab(variant: Variant, r: &V3, v: &V3, mu: f64, rho: f64) -> (V3, M3, M3) {
    match variant {
        Variant::Ebp => {
            let tau = r - uhat3(v, mu) * rho;
            let (p, dp) = project_cone_jac(&tau, mu);
            // ∂τ/∂v = −ρ(I + μ e_N (v_T/‖v_T‖)ᵀ)
            let mut dtv = M3::identity();
            let nt = tangential_norm(v);
            if nt > 0.0 {
                dtv[(0, 1)] += mu * v[1] / nt;
                dtv[(0, 2)] += mu * v[2] / nt;
            }
            (r - p, M3::identity() - dp, dp * dtv * rho)
        }
        Variant::Eal => {
            let tau = r - v * rho;
            let pos = tau[0] > 0.0;
            let rad = mu * tau[0].max(0.0);
            let (pt, dpt, dprad) = project_disc_jac(&V2::new(tau[1], tau[2]), rad);
            let p = V3::new(tau[0].max(0.0), pt[0], pt[1]);
            let mut dp = M3::zeros();
            if pos {
                dp[(0, 0)] = 1.0;
                dp[(1, 0)] = mu * dprad[0];
                dp[(2, 0)] = mu * dprad[1];
            }
            for a in 0..2 {
                for b in 0..2 {
                    dp[(a + 1, b + 1)] = dpt[(a, b)];
                }
            }
            (r - p, M3::identity() - dp, dp * rho)
        }
    }
}

fn merit(variant: Variant, w: &M3, q: &V3, mu: f64, rho: f64, r: &V3, v: &V3) -> f64 {
    let f1 = v - q - w * r;
    let (z, _, _) = z_ab(variant, r, v, mu, rho);
    0.5 * (f1.norm_squared() + z.norm_squared())
}

fn solve_dumont(
    variant: Variant,
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
    let rho = 1.0 / lmax;
    let mut rho_fb = rho;
    let mut n_fb = 10;
    let mut stalled_at_floor = 0;
    let mut v = w * *r + q;
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
        let f1 = v - q - w * *r;
        let (z, a, b) = z_ab(variant, r, &v, mu, rho);
        let m0 = 0.5 * (f1.norm_squared() + z.norm_squared());
        let mut accepted = false;
        if let Some(dr) = solve3(&(a + b * w), &(-z + b * f1)) {
            let dv = -f1 + w * dr;
            let mut t = 1.0;
            for _ in 0..40 {
                let rt = *r + dr * t;
                let vt = v + dv * t;
                if merit(variant, w, q, mu, rho, &rt, &vt) <= (1.0 - 2e-4 * t) * m0 {
                    *r = rt;
                    v = vt;
                    accepted = t >= 1.0 / 1024.0;
                    break;
                }
                t *= 0.5;
            }
        }
        if !accepted {
            fallback(w, q, mu, r, &mut rho_fb, lmax, n_fb);
            n_fb = (2 * n_fb).min(1280);
            v = w * *r + q;
        }
        err = error3(w, q, mu, r);
        if !err.is_finite() {
            return Err(LocalError::Breakdown("non-finite iterate"));
        }
    }
    finish(err, params.max_iter, params.tol)
}

/// "ebp": Dumont's enhanced bi-potential method — Newton on
/// `(v − q − Wr, r − P_K(r − ρ(v + μ‖v_T‖e_N)))` with the 6×6→3×3 condensation
/// (Dumont eqs. 26–32). 2D: exact embedding (`common::embed2`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Ebp;

impl LocalSolver for Ebp {
    fn name(&self) -> &'static str {
        "ebp"
    }
    fn description(&self) -> &'static str {
        "Dumont's enhanced bi-potential Newton, 6x6->3x3 condensation (Dumont eqs. 26-32)"
    }
    fn solve3(
        &self,
        w: &M3,
        q: &V3,
        mu: f64,
        r: &mut V3,
        p: &LocalParams,
    ) -> Result<LocalInfo, LocalError> {
        solve_dumont(Variant::Ebp, w, q, mu, r, p)
    }
}

/// "eal": Dumont's enhanced augmented Lagrangian method — Newton on
/// `(v − q − Wr, r − proj(r − ρv, R₊ × B(0, μ(r_N − ρv_N)₊)))` with the
/// 6×6→3×3 condensation (Dumont eqs. 29–32, 36). 2D: exact embedding
/// (`common::embed2`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Eal;

impl LocalSolver for Eal {
    fn name(&self) -> &'static str {
        "eal"
    }
    fn description(&self) -> &'static str {
        "Dumont's enhanced augmented Lagrangian Newton, 6x6->3x3 condensation (Dumont eqs. 29-32, 36)"
    }
    fn solve3(
        &self,
        w: &M3,
        q: &V3,
        mu: f64,
        r: &mut V3,
        p: &LocalParams,
    ) -> Result<LocalInfo, LocalError> {
        solve_dumont(Variant::Eal, w, q, mu, r, p)
    }
}
