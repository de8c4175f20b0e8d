//! Non-smooth velocity equation (Solfec, "Non-smooth velocity equation
//! formulation", eqs. 84–87) solved by the damped semismooth Newton of
//! [`super::newton`].
//!
//! `F(r) = u + μ‖u_T‖e_N` (eq. 85, one contact, `u = Wr + q` eq. 84) and
//! `C(r) = F(r) + m(r/ρ − F(r))`, `m(S) = S − P_K(S) = n(S)⟨n(S), S⟩` with the
//! piecewise unit normal `n` of eq. 86. Solfec writes `m(R − F)` (`ρ = 1`); we
//! divide the force by `ρ = 1/λ_max(W)` so that both terms are velocities
//! (the cone is invariant under scaling, so the zeros are unchanged):
//! `C = (r − P_K(r − ρF))/ρ` — as Solfec notes, eq. 87 is the projection
//! formula (80) in velocity form. The Jacobian is assembled from eq. 86:
//! `∂m/∂S = n nᵀ + ⟨n, S⟩ ∂n/∂S`.

use super::acary::{duhat_dr, newton_solver};
use super::common::{lambda_max3, tangential_norm, uhat3, M3, V3};
use super::newton::Formulation;

/// The NSVE function `C(r)` of Solfec eq. 87.
pub(crate) struct VelocityEquation {
    pub rho: f64,
}

impl VelocityEquation {
    pub(crate) fn new(w: &M3) -> Self {
        VelocityEquation {
            rho: 1.0 / lambda_max3(w),
        }
    }
}

/// `m(S)` and `∂m/∂S` from the unit normal field `n(S)` of Solfec eq. 86.
fn m_field(s: &V3, mu: f64) -> (V3, M3) {
    let nt = tangential_norm(s);
    if nt - mu * s[0] <= 0.0 && s[0] >= 0.0 {
        return (V3::zeros(), M3::zeros()); // inside K: n = 0
    }
    if mu * nt + s[0] <= 0.0 {
        return (*s, M3::identity()); // polar cone: n = S/‖S‖, m = S
    }
    let c = 1.0 / (1.0 + mu * mu).sqrt();
    let e1 = s[1] / nt;
    let e2 = s[2] / nt;
    let n = V3::new(-mu * c, e1 * c, e2 * c);
    let ns = n.dot(s);
    let mut dm = n * n.transpose();
    let k = ns * c / nt;
    dm[(1, 1)] += k * (1.0 - e1 * e1);
    dm[(1, 2)] -= k * e1 * e2;
    dm[(2, 1)] -= k * e2 * e1;
    dm[(2, 2)] += k * (1.0 - e2 * e2);
    (n * ns, dm)
}

impl Formulation for VelocityEquation {
    fn phi(&self, w: &M3, q: &V3, mu: f64, r: &V3) -> V3 {
        let f = uhat3(&(w * r + q), mu);
        f + m_field(&(r / self.rho - f), mu).0
    }
    fn phi_jac(&self, w: &M3, q: &V3, mu: f64, r: &V3) -> (V3, M3) {
        let u = w * r + q;
        let f = uhat3(&u, mu);
        let df = duhat_dr(w, &u, mu);
        let (m, dm) = m_field(&(r / self.rho - f), mu);
        (f + m, df + dm * (M3::identity() / self.rho - df))
    }
}

newton_solver!(
    /// "nsve": Solfec's non-smooth velocity equation (eqs. 84–87) by damped
    /// semismooth Newton with Armijo line search on `½‖C‖²` and De Saxcé
    /// projection fallback. 2D: exact embedding (`common::embed2`).
    Nsve,
    "nsve",
    "semismooth Newton on Solfec's non-smooth velocity equation (Solfec eqs. 84-87)",
    VelocityEquation
);
