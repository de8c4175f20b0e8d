//! Alart–Curnier, Jean–Moreau and natural-map reformulations (Acary, Brémond &
//! Dubois 2017, eqs. 11–13), each solved by the damped semismooth Newton of
//! [`super::newton`].
//!
//! All use one scalar `ρ_N = ρ_T = ρ = 1/λ_max(W)` (any `ρ > 0` has the same
//! zeros). Measured on the random problems of `tests/solvers/local.rs`,
//! `1/λ_max` is the best of `1/λ_max`, `1/√(λ_max λ_min)`, `1/λ_min` for the
//! Jean–Moreau and natural-map functions and within 0.1 % for Alart–Curnier.

use super::common::{
    lambda_max3, project_cone_jac, project_disc_jac, tangential_norm, uhat3, M3, V2, V3,
};
use super::newton::Formulation;

fn rho_of(w: &M3) -> f64 {
    1.0 / lambda_max3(w)
}

/// `Φ_N` and `Φ_T` shared by Alart–Curnier and Jean–Moreau; `radius` is the
/// disc radius and `d_radius` its gradient with respect to `r`.
fn ac_jm_parts(
    w: &M3,
    q: &V3,
    mu: f64,
    r: &V3,
    rho: f64,
    jean_moreau: bool,
    with_jac: bool,
) -> (V3, M3) {
    let u = w * r + q;
    let x = r - u * rho;
    let g = M3::identity() - w * rho; // ∂x/∂r
    let xn_pos = x[0] > 0.0;
    let mut phi = V3::zeros();
    phi[0] = r[0] - x[0].max(0.0);
    let (radius, dradius) = if jean_moreau {
        (
            mu * r[0].max(0.0),
            if r[0] > 0.0 {
                V3::new(mu, 0.0, 0.0)
            } else {
                V3::zeros()
            },
        )
    } else {
        (
            mu * x[0].max(0.0),
            if xn_pos {
                g.row(0).transpose() * mu
            } else {
                V3::zeros()
            },
        )
    };
    let xt = V2::new(x[1], x[2]);
    let (p, dp_dx, dp_drad) = project_disc_jac(&xt, radius);
    phi[1] = r[1] - p[0];
    phi[2] = r[2] - p[1];
    let mut jac = M3::zeros();
    if with_jac {
        jac[(0, 0)] = 1.0;
        if xn_pos {
            for j in 0..3 {
                jac[(0, j)] -= g[(0, j)];
            }
        }
        for a in 0..2 {
            for j in 0..3 {
                let mut v = if a + 1 == j { 1.0 } else { 0.0 };
                for b in 0..2 {
                    v -= dp_dx[(a, b)] * g[(b + 1, j)];
                }
                v -= dp_drad[a] * dradius[j];
                jac[(a + 1, j)] = v;
            }
        }
    }
    (phi, jac)
}

/// Alart–Curnier function (Acary et al. eq. 11):
/// `Φ = [r_N − P_{R+}(r_N − ρu_N); r_T − P_{D(μ(r_N − ρu_N)_+)}(r_T − ρu_T)]`.
pub(crate) struct AlartCurnier {
    pub rho: f64,
}

impl AlartCurnier {
    pub(crate) fn new(w: &M3) -> Self {
        AlartCurnier { rho: rho_of(w) }
    }
}

impl Formulation for AlartCurnier {
    fn phi(&self, w: &M3, q: &V3, mu: f64, r: &V3) -> V3 {
        ac_jm_parts(w, q, mu, r, self.rho, false, false).0
    }
    fn phi_jac(&self, w: &M3, q: &V3, mu: f64, r: &V3) -> (V3, M3) {
        ac_jm_parts(w, q, mu, r, self.rho, false, true)
    }
}

/// Jean–Moreau function (Acary et al. eq. 12): as Alart–Curnier but the disc
/// radius is `μ(r_N)_+`.
pub(crate) struct JeanMoreau {
    pub rho: f64,
}

impl JeanMoreau {
    pub(crate) fn new(w: &M3) -> Self {
        JeanMoreau { rho: rho_of(w) }
    }
}

impl Formulation for JeanMoreau {
    fn phi(&self, w: &M3, q: &V3, mu: f64, r: &V3) -> V3 {
        ac_jm_parts(w, q, mu, r, self.rho, true, false).0
    }
    fn phi_jac(&self, w: &M3, q: &V3, mu: f64, r: &V3) -> (V3, M3) {
        ac_jm_parts(w, q, mu, r, self.rho, true, true)
    }
}

/// `∂û/∂r = W + μ e_N (u_T/‖u_T‖)ᵀ W_T` (zero subgradient of `‖u_T‖` at `u_T = 0`).
pub(crate) fn duhat_dr(w: &M3, u: &V3, mu: f64) -> M3 {
    let mut d = *w;
    let nt = tangential_norm(u);
    if nt > 0.0 && mu > 0.0 {
        let e1 = u[1] / nt;
        let e2 = u[2] / nt;
        for j in 0..3 {
            d[(0, j)] += mu * (e1 * w[(1, j)] + e2 * w[(2, j)]);
        }
    }
    d
}

/// Natural map (Acary et al. eq. 13): `Φ = r − P_K(r − ρ(u + μ‖u_T‖e_N))`.
pub(crate) struct NaturalMap {
    pub rho: f64,
}

impl NaturalMap {
    pub(crate) fn new(w: &M3) -> Self {
        NaturalMap { rho: rho_of(w) }
    }
}

impl Formulation for NaturalMap {
    fn phi(&self, w: &M3, q: &V3, mu: f64, r: &V3) -> V3 {
        let u = w * r + q;
        r - super::project_cone(&(r - uhat3(&u, mu) * self.rho), mu)
    }
    fn phi_jac(&self, w: &M3, q: &V3, mu: f64, r: &V3) -> (V3, M3) {
        let u = w * r + q;
        let x = r - uhat3(&u, mu) * self.rho;
        let (p, dp) = project_cone_jac(&x, mu);
        let dx = M3::identity() - duhat_dr(w, &u, mu) * self.rho;
        (r - p, M3::identity() - dp * dx)
    }
}

macro_rules! newton_solver {
    ($(#[$doc:meta])* $ty:ident, $name:literal, $desc:literal, $form:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, Default)]
        pub struct $ty;

        impl super::LocalSolver for $ty {
            fn name(&self) -> &'static str {
                $name
            }
            fn description(&self) -> &'static str {
                $desc
            }
            fn solve3(
                &self,
                w: &M3,
                q: &V3,
                mu: f64,
                r: &mut V3,
                p: &super::LocalParams,
            ) -> Result<super::LocalInfo, super::LocalError> {
                let f = $form::new(w);
                super::newton::semismooth_newton(&f, w, q, mu, r, p)
            }
        }
    };
}
pub(crate) use newton_solver;

newton_solver!(
    /// "ac-newton": semismooth Newton on the Alart–Curnier function (Acary,
    /// Brémond & Dubois 2017, eq. 11; Alart & Curnier 1991), Armijo line search
    /// on `½‖Φ‖²`, De Saxcé projection fallback. 2D: exact embedding
    /// (`common::embed2`).
    AcNewton,
    "ac-newton",
    "semismooth Newton on the Alart-Curnier function, Armijo line search (Acary et al. 2017 eq. 11)",
    AlartCurnier
);

newton_solver!(
    /// "jm-newton": semismooth Newton on the Jean–Moreau function (Acary,
    /// Brémond & Dubois 2017, eq. 12), Armijo line search on `½‖Φ‖²`, De Saxcé
    /// projection fallback. 2D: exact embedding (`common::embed2`).
    JmNewton,
    "jm-newton",
    "semismooth Newton on the Jean-Moreau function, Armijo line search (Acary et al. 2017 eq. 12)",
    JeanMoreau
);

newton_solver!(
    /// "nm-newton": semismooth Newton on the natural map (Acary, Brémond &
    /// Dubois 2017, eq. 13), Armijo line search on `½‖Φ‖²`, De Saxcé
    /// projection fallback. 2D: exact embedding (`common::embed2`).
    NmNewton,
    "nm-newton",
    "semismooth Newton on the natural map, Armijo line search (Acary et al. 2017 eq. 13)",
    NaturalMap
);
