//! Per-contact nonsmooth functions `Φ_c(r_c, u_c)` whose zeros are the solutions of
//! the Signorini–Coulomb law, with an element of their generalized Jacobian
//! `A_c = ∂Φ_c/∂u_c`, `B_c = ∂Φ_c/∂r_c` (Acary, Brémond & Dubois 2017, eqs. 11–13;
//! Alart & Curnier 1991; Jean & Moreau 1987). With `u = W r + q` the Jacobian of
//! the whole system is `J = B + A W` (block-diagonal `A`, `B`).
//!
//! `ρ` is the same for the normal and tangential parts (`ρ_N = ρ_T = ρ`).

use nalgebra::{SMatrix, SVector};

/// Which reformulation of the contact law the Newton method solves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NsnFunction {
    /// `Φ_N = r_N − max(0, r_N − ρu_N)`,
    /// `Φ_T = r_T − P_{D(μ max(0, r_N − ρu_N))}(r_T − ρu_T)` (eq. 11).
    AlartCurnier,
    /// As Alart–Curnier with the disc radius `μ max(0, r_N)` (eq. 12).
    JeanMoreau,
    /// `Φ = r − P_K(r − ρ(u + μ‖u_T‖e_N))` (eq. 13).
    NaturalMap,
}

impl NsnFunction {
    pub fn label(self) -> &'static str {
        match self {
            NsnFunction::AlartCurnier => "Alart-Curnier",
            NsnFunction::JeanMoreau => "Jean-Moreau",
            NsnFunction::NaturalMap => "natural-map",
        }
    }
    pub fn equation(self) -> u32 {
        match self {
            NsnFunction::AlartCurnier => 11,
            NsnFunction::JeanMoreau => 12,
            NsnFunction::NaturalMap => 13,
        }
    }

    /// `Φ_c`, `A_c = ∂Φ_c/∂u_c`, `B_c = ∂Φ_c/∂r_c` at `(r, u)`.
    pub fn eval<const D: usize>(
        self,
        r: &SVector<f64, D>,
        u: &SVector<f64, D>,
        mu: f64,
        rho: f64,
    ) -> (SVector<f64, D>, SMatrix<f64, D, D>, SMatrix<f64, D, D>) {
        match self {
            NsnFunction::NaturalMap => natural::<D, true>(r, u, mu, rho),
            _ => ac_jm::<D, true>(self == NsnFunction::AlartCurnier, r, u, mu, rho),
        }
    }

    /// `Φ_c` alone (a line search's trial points need no Jacobian); the same
    /// values as [`Self::eval`]'s.
    pub fn value<const D: usize>(
        self,
        r: &SVector<f64, D>,
        u: &SVector<f64, D>,
        mu: f64,
        rho: f64,
    ) -> SVector<f64, D> {
        match self {
            NsnFunction::NaturalMap => natural::<D, false>(r, u, mu, rho).0,
            _ => ac_jm::<D, false>(self == NsnFunction::AlartCurnier, r, u, mu, rho).0,
        }
    }
}

fn tangent<const D: usize>(x: &SVector<f64, D>) -> SVector<f64, D> {
    let mut t = *x;
    t[0] = 0.0;
    t
}

/// `Φ_c` and, when `JAC`, `A_c`, `B_c` (zero otherwise).
fn ac_jm<const D: usize, const JAC: bool>(
    alart_curnier: bool,
    r: &SVector<f64, D>,
    u: &SVector<f64, D>,
    mu: f64,
    rho: f64,
) -> (SVector<f64, D>, SMatrix<f64, D, D>, SMatrix<f64, D, D>) {
    let mut phi = SVector::<f64, D>::zeros();
    let mut a = SMatrix::<f64, D, D>::zeros();
    let mut b = SMatrix::<f64, D, D>::zeros();
    // Normal part.
    let tau_n = r[0] - rho * u[0];
    if tau_n > 0.0 {
        phi[0] = rho * u[0];
        a[(0, 0)] = rho;
    } else {
        phi[0] = r[0];
        b[(0, 0)] = 1.0;
    }
    // Tangential part: x = r_T − ρu_T projected on the disc of radius R.
    let (radius, d_radius_dr, d_radius_du) = if alart_curnier {
        if tau_n > 0.0 {
            (mu * tau_n, mu, -mu * rho)
        } else {
            (0.0, 0.0, 0.0)
        }
    } else if r[0] > 0.0 {
        (mu * r[0], mu, 0.0)
    } else {
        (0.0, 0.0, 0.0)
    };
    let x = tangent(r) - tangent(u) * rho;
    let nx = x.norm();
    if nx <= radius && radius > 0.0 {
        // Stick: P(x) = x, Φ_T = ρ u_T.
        for i in 1..D {
            phi[i] = rho * u[i];
            a[(i, i)] = rho;
        }
    } else if nx > 0.0 && !JAC {
        for i in 1..D {
            phi[i] = r[i] - radius * (x[i] / nx);
        }
    } else if nx > 0.0 {
        // Slip: P(x) = R x/‖x‖.
        let xh = x / nx;
        let dp = (SMatrix::<f64, D, D>::identity() - xh * xh.transpose()) * (radius / nx);
        for i in 1..D {
            phi[i] = r[i] - radius * xh[i];
            for j in 1..D {
                let id = if i == j { 1.0 } else { 0.0 };
                b[(i, j)] = id - dp[(i, j)];
                a[(i, j)] = rho * dp[(i, j)];
            }
            b[(i, 0)] = -xh[i] * d_radius_dr;
            a[(i, 0)] = -xh[i] * d_radius_du;
        }
    } else {
        // x = 0 and R = 0: P = 0, Φ_T = r_T.
        for i in 1..D {
            phi[i] = r[i];
            b[(i, i)] = 1.0;
        }
    }
    (phi, a, b)
}

/// Projection on the cone `K_μ` and a generalized Jacobian of it.
pub fn project_cone_jacobian<const D: usize>(
    z: &SVector<f64, D>,
    mu: f64,
) -> (SVector<f64, D>, SMatrix<f64, D, D>) {
    project_cone::<D, true>(z, mu)
}

/// Projection on the cone `K_μ` and, when `JAC`, a generalized Jacobian of it
/// (zero otherwise).
fn project_cone<const D: usize, const JAC: bool>(
    z: &SVector<f64, D>,
    mu: f64,
) -> (SVector<f64, D>, SMatrix<f64, D, D>) {
    let zn = z[0];
    let zt = tangent(z);
    let nt = zt.norm();
    if nt <= mu * zn {
        return (*z, SMatrix::identity());
    }
    if mu * nt <= -zn || nt == 0.0 {
        return (SVector::zeros(), SMatrix::zeros());
    }
    let k = 1.0 / (1.0 + mu * mu);
    let t = (zn + mu * nt) * k;
    let nh = zt / nt;
    let mut p = nh * (mu * t);
    p[0] = t;
    let mut j = SMatrix::<f64, D, D>::zeros();
    if !JAC {
        return (p, j);
    }
    j[(0, 0)] = k;
    for i in 1..D {
        j[(0, i)] = mu * k * nh[i];
        j[(i, 0)] = mu * k * nh[i];
        for l in 1..D {
            let id = if i == l { 1.0 } else { 0.0 };
            j[(i, l)] = mu * (mu * k * nh[i] * nh[l] + t * (id - nh[i] * nh[l]) / nt);
        }
    }
    (p, j)
}

/// `Φ_c` and, when `JAC`, `A_c`, `B_c` (zero otherwise).
fn natural<const D: usize, const JAC: bool>(
    r: &SVector<f64, D>,
    u: &SVector<f64, D>,
    mu: f64,
    rho: f64,
) -> (SVector<f64, D>, SMatrix<f64, D, D>, SMatrix<f64, D, D>) {
    let ut = tangent(u);
    let nut = ut.norm();
    let mut uh = *u;
    uh[0] += mu * nut;
    let z = r - uh * rho;
    let (p, dp) = project_cone::<D, JAC>(&z, mu);
    if !JAC {
        return (r - p, SMatrix::zeros(), SMatrix::zeros());
    }
    // ∂û/∂u = I + μ e_N sᵀ, s = u_T/‖u_T‖ (0 when u_T = 0).
    let mut duh = SMatrix::<f64, D, D>::identity();
    if nut > 0.0 {
        for i in 1..D {
            duh[(0, i)] += mu * ut[i] / nut;
        }
    }
    let b = SMatrix::<f64, D, D>::identity() - dp;
    let a = dp * duh * rho;
    (r - p, a, b)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `value` is `eval`'s `Φ` bit for bit, in every branch (stick, slip, take-off,
    /// the cone's apex) of every function.
    #[test]
    fn value_is_the_phi_of_eval() {
        let pts: [([f64; 3], [f64; 3]); 6] = [
            ([1.0, 0.3, -0.2], [-0.5, 0.8, 0.4]),
            ([1.0, 0.1, 0.05], [0.01, 0.02, -0.03]),
            ([-0.4, 0.3, 0.1], [0.7, -0.2, 0.5]),
            ([0.0, 0.0, 0.0], [0.3, 0.0, 0.0]),
            ([0.0, 0.0, 0.0], [-0.3, 0.0, 0.0]),
            ([2.0, 0.0, 0.0], [0.0, 0.0, 0.0]),
        ];
        for f in [
            NsnFunction::AlartCurnier,
            NsnFunction::JeanMoreau,
            NsnFunction::NaturalMap,
        ] {
            for (r0, u0) in pts {
                let (r, u) = (SVector::<f64, 3>::from(r0), SVector::<f64, 3>::from(u0));
                let full = f.eval(&r, &u, 0.6, 0.7).0;
                let value = f.value(&r, &u, 0.6, 0.7);
                for i in 0..3 {
                    assert_eq!(full[i].to_bits(), value[i].to_bits(), "{f:?} {r0:?} {u0:?}");
                }
                let (r2, u2) = (r.fixed_rows::<2>(0).into(), u.fixed_rows::<2>(0).into());
                let full = f.eval::<2>(&r2, &u2, 0.6, 0.7).0;
                let value = f.value::<2>(&r2, &u2, 0.6, 0.7);
                assert_eq!(full, value, "{f:?} 2D {r0:?} {u0:?}");
            }
        }
    }

    /// Jacobians against central finite differences at generic (non-kink) points.
    #[test]
    fn jacobians_match_finite_differences() {
        let pts: [([f64; 3], [f64; 3]); 4] = [
            ([1.0, 0.3, -0.2], [-0.5, 0.8, 0.4]),
            ([1.0, 0.1, 0.05], [0.01, 0.02, -0.03]),
            ([-0.4, 0.3, 0.1], [0.7, -0.2, 0.5]),
            ([0.8, 0.9, -0.6], [-0.1, 1.2, 0.3]),
        ];
        for f in [
            NsnFunction::AlartCurnier,
            NsnFunction::JeanMoreau,
            NsnFunction::NaturalMap,
        ] {
            for (r0, u0) in pts {
                let r = SVector::<f64, 3>::from(r0);
                let u = SVector::<f64, 3>::from(u0);
                let (_, a, b) = f.eval(&r, &u, 0.6, 0.7);
                let h = 1e-7;
                for j in 0..3 {
                    let mut e = SVector::<f64, 3>::zeros();
                    e[j] = h;
                    let db = (f.eval(&(r + e), &u, 0.6, 0.7).0 - f.eval(&(r - e), &u, 0.6, 0.7).0)
                        / (2.0 * h);
                    let da = (f.eval(&r, &(u + e), 0.6, 0.7).0 - f.eval(&r, &(u - e), 0.6, 0.7).0)
                        / (2.0 * h);
                    for i in 0..3 {
                        assert!(
                            (db[i] - b[(i, j)]).abs() < 1e-6,
                            "{f:?} B[{i},{j}] {} vs {}",
                            db[i],
                            b[(i, j)]
                        );
                        assert!(
                            (da[i] - a[(i, j)]).abs() < 1e-6,
                            "{f:?} A[{i},{j}] {} vs {}",
                            da[i],
                            a[(i, j)]
                        );
                    }
                }
            }
        }
    }
}
