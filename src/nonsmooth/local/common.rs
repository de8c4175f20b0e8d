//! Small building blocks shared by the local solvers: the modified velocity,
//! the cone projection with its (generalized) Jacobian, the disc projection,
//! a pivoted 3×3 solve that reports singularity, step-size estimates and the
//! exact 2D→3D embedding used by the solvers that are written in 3D only.
//!
//! Everything here works on fixed-size `nalgebra` types: nothing allocates.

use nalgebra::{SMatrix, SVector};

use super::{natural_map, project_cone, LocalError, LocalInfo, LocalParams};

pub(crate) type V2 = SVector<f64, 2>;
pub(crate) type V3 = SVector<f64, 3>;
pub(crate) type M2 = SMatrix<f64, 2, 2>;
pub(crate) type M3 = SMatrix<f64, 3, 3>;

/// De Saxcé's modified velocity `û = u + μ‖u_T‖e_N` (Acary et al. 2017, eq. 5).
#[inline]
pub(crate) fn uhat3(u: &V3, mu: f64) -> V3 {
    let mut h = *u;
    h[0] += mu * tangential_norm(u);
    h
}

/// `‖x_T‖` for `x = [x_N, x_T1, x_T2]`.
#[inline]
pub(crate) fn tangential_norm(x: &V3) -> f64 {
    x[1].hypot(x[2])
}

/// `‖F_nat(r)‖` in 3D (the shared error measure).
#[inline]
pub(crate) fn error3(w: &M3, q: &V3, mu: f64, r: &V3) -> f64 {
    natural_map(w, q, mu, r).norm()
}

/// Projection onto the Coulomb cone `K` and one element of its generalized
/// Jacobian (Clarke Jacobian of a second-order-cone projection; on the boundary
/// face this is the classical formula, e.g. Dumont eqs. 29–30 "sliding case").
pub(crate) fn project_cone_jac(x: &V3, mu: f64) -> (V3, M3) {
    let xn = x[0];
    let nt = tangential_norm(x);
    if nt <= mu * xn && xn >= 0.0 {
        return (*x, M3::identity());
    }
    if mu * nt <= -xn {
        return (V3::zeros(), M3::zeros());
    }
    // Boundary face; here nt > 0 (otherwise one of the cases above applies).
    let c = 1.0 / (1.0 + mu * mu);
    let s = (xn + mu * nt) * c;
    let e1 = x[1] / nt;
    let e2 = x[2] / nt;
    let p = V3::new(s, mu * s * e1, mu * s * e2);
    let k = mu * s / nt;
    let mut j = M3::zeros();
    j[(0, 0)] = c;
    j[(0, 1)] = mu * c * e1;
    j[(0, 2)] = mu * c * e2;
    j[(1, 0)] = mu * c * e1;
    j[(2, 0)] = mu * c * e2;
    let ee = [[e1 * e1, e1 * e2], [e2 * e1, e2 * e2]];
    for a in 0..2 {
        for b in 0..2 {
            let id = if a == b { 1.0 } else { 0.0 };
            j[(a + 1, b + 1)] = mu * mu * c * ee[a][b] + k * (id - ee[a][b]);
        }
    }
    (p, j)
}

/// Projection of `x` onto the disc of radius `rad ≥ 0`, with `∂P/∂x` and `∂P/∂rad`.
pub(crate) fn project_disc_jac(x: &V2, rad: f64) -> (V2, M2, V2) {
    let n = x.norm();
    if n <= rad {
        return (*x, M2::identity(), V2::zeros());
    }
    let e = x / n;
    let p = e * rad;
    let dp = (M2::identity() - e * e.transpose()) * (rad / n);
    (p, dp, e)
}

/// Solve `a x = b` by Gaussian elimination with partial pivoting; `None` when a
/// pivot is below `1e-13·max|a_ij|` (numerically singular generalized Jacobian).
pub(crate) fn solve3(a: &M3, b: &V3) -> Option<V3> {
    let mut m = *a;
    let mut x = *b;
    let scale = m.amax();
    if !(scale > 0.0) || !scale.is_finite() {
        return None;
    }
    let tiny = 1e-13 * scale;
    for k in 0..3 {
        let mut p = k;
        for i in k + 1..3 {
            if m[(i, k)].abs() > m[(p, k)].abs() {
                p = i;
            }
        }
        if m[(p, k)].abs() <= tiny {
            return None;
        }
        if p != k {
            m.swap_rows(p, k);
            x.swap_rows(p, k);
        }
        for i in k + 1..3 {
            let f = m[(i, k)] / m[(k, k)];
            for j in k..3 {
                m[(i, j)] -= f * m[(k, j)];
            }
            x[i] -= f * x[k];
        }
    }
    for k in (0..3).rev() {
        let mut s = x[k];
        for j in k + 1..3 {
            s -= m[(k, j)] * x[j];
        }
        x[k] = s / m[(k, k)];
    }
    if x.iter().all(|v| v.is_finite()) {
        Some(x)
    } else {
        None
    }
}

/// Smallest and largest eigenvalues of the symmetric part of `w`
/// (`nalgebra`'s fixed-size symmetric eigen-solver); NaN for non-finite input
/// (the iterative eigen-solver is not called on it).
pub(crate) fn eig_range3(w: &M3) -> (f64, f64) {
    if !w.iter().all(|x| x.is_finite()) {
        return (f64::NAN, f64::NAN);
    }
    let ws = (w + w.transpose()) * 0.5;
    let ev = ws.symmetric_eigenvalues();
    (ev.min(), ev.max())
}

/// Largest eigenvalue of the symmetric part of `w` (NaN for non-finite input).
pub(crate) fn lambda_max3(w: &M3) -> f64 {
    eig_range3(w).1
}

/// One De Saxcé–Feng projection step `r ← P_K(r − ρ(u + μ‖u_T‖e_N))`
/// (Solfec eq. 80); used as the fallback of the Newton solvers.
#[inline]
pub(crate) fn desaxce_step(w: &M3, q: &V3, mu: f64, r: &V3, rho: f64) -> V3 {
    let u = w * r + q;
    project_cone(&(r - uhat3(&u, mu) * rho), mu)
}

/// Solfec's projected-gradient step (Solfec, "Projected gradient formulation",
/// eqs. 76–77): `r_N ← max(0, r_N − ρu_N)`, `r_T ← proj_{D(μ r_N)}(r_T − ρu_T)`
/// with the new `r_N`. Identical to Dumont's SAL update (Dumont eq. 35).
#[inline]
pub(crate) fn pg_step(w: &M3, q: &V3, mu: f64, r: &V3, rho: f64) -> V3 {
    let u = w * r + q;
    let tau = r - u * rho;
    let rn = tau[0].max(0.0);
    let rad = mu * rn;
    let nt = tau[1].hypot(tau[2]);
    if nt <= rad {
        V3::new(rn, tau[1], tau[2])
    } else {
        let f = rad / nt;
        V3::new(rn, tau[1] * f, tau[2] * f)
    }
}

/// Embeds a 2D problem (`[normal, tangent]`) into 3D exactly: the second
/// tangent gets `W₃₃ = W₂₂`, no coupling and `q₃ = 0`.
///
/// Why this is exact: in any solution of the embedded problem `u_T2 = W₂₂ r_T2`;
/// sticking gives `u_T2 = 0` and sliding gives `r_T2 = −λ u_T2 = −λW₂₂r_T2`, so
/// `r_T2 = 0` in both cases and the solutions are exactly the 2D solutions
/// padded with zero. The natural map of the embedded problem at `(r_N, r_T, 0)`
/// is the 2D natural map padded with zero (same `‖u_T‖`, same projection), so
/// errors and stopping tests coincide. The 3D solvers are equivariant under the
/// reflection `t2 → −t2`, so iterates started at `r_T2 = 0` stay there (up to
/// round-off, which the final extraction drops).
pub(crate) fn embed2(w: &M2, q: &V2, r: &V2) -> (M3, V3, V3) {
    let mut w3 = M3::zeros();
    w3[(0, 0)] = w[(0, 0)];
    w3[(0, 1)] = w[(0, 1)];
    w3[(1, 0)] = w[(1, 0)];
    w3[(1, 1)] = w[(1, 1)];
    w3[(2, 2)] = w[(1, 1)];
    (w3, V3::new(q[0], q[1], 0.0), V3::new(r[0], r[1], 0.0))
}

/// Runs a 3D solver on the exact embedding of a 2D problem (see [`embed2`]) and
/// reports the 2D natural-map error of the extracted answer.
pub(crate) fn solve2_by_embedding<F>(
    w: &M2,
    q: &V2,
    mu: f64,
    r: &mut V2,
    params: &LocalParams,
    solve3: F,
) -> Result<LocalInfo, LocalError>
where
    F: FnOnce(&M3, &V3, f64, &mut V3, &LocalParams) -> Result<LocalInfo, LocalError>,
{
    let (w3, q3, mut r3) = embed2(w, q, r);
    let res = solve3(&w3, &q3, mu, &mut r3, params);
    *r = V2::new(r3[0], r3[1]);
    let err = natural_map(w, q, mu, r).norm();
    match res {
        Ok(info) if err <= params.tol => Ok(LocalInfo {
            iterations: info.iterations,
            error: err,
        }),
        Ok(info) => Err(LocalError::NoConvergence {
            error: err,
            iterations: info.iterations,
        }),
        Err(LocalError::NoConvergence { iterations, .. }) => Err(LocalError::NoConvergence {
            error: err,
            iterations,
        }),
        Err(e) => Err(e),
    }
}

/// Checks a finite answer and packages the result of an iterative solver.
pub(crate) fn finish(error: f64, iterations: usize, tol: f64) -> Result<LocalInfo, LocalError> {
    if !error.is_finite() {
        Err(LocalError::Breakdown("non-finite iterate"))
    } else if error <= tol {
        Ok(LocalInfo { iterations, error })
    } else {
        Err(LocalError::NoConvergence { error, iterations })
    }
}
