//! An independent check of a frictional-contact answer: the natural-map error
//! `‖r − P_K(r − (W r + q + μ‖u_T‖e_N))‖ / ‖q‖` (Acary, Brémond & Huber 2018) from a
//! dense copy of `W`, written here from the definition, not with the library's own
//! error code.

use emcontact::nonsmooth::problem::LocalProblem;

/// Projection of `z = (z_N, z_T)` on the cone `‖z_T‖ ≤ μ z_N`.
fn project(z: &[f64], mu: f64) -> Vec<f64> {
    let (zn, zt) = (z[0], &z[1..]);
    let nt = zt.iter().map(|x| x * x).sum::<f64>().sqrt();
    if nt <= mu * zn {
        return z.to_vec();
    }
    if mu * nt <= -zn {
        return vec![0.0; z.len()];
    }
    let a = (zn + mu * nt) / (1.0 + mu * mu);
    let mut out = vec![a];
    out.extend(zt.iter().map(|x| mu * a * x / nt));
    out
}

/// The natural-map error of `r` for `problem`.
pub fn natural_map_error(problem: &LocalProblem, r: &[f64]) -> f64 {
    let n = problem.size();
    let d = problem.dim;
    let mut u = problem.q.clone();
    let (cp, ri, v) = (
        problem.w.symbolic().col_ptr(),
        problem.w.symbolic().row_idx(),
        problem.w.val(),
    );
    for j in 0..n {
        for k in cp[j]..cp[j + 1] {
            u[ri[k]] += v[k] * r[j];
        }
    }
    let mut num = 0.0;
    for c in 0..problem.n_contacts {
        let (rc, uc) = (&r[d * c..d * c + d], &u[d * c..d * c + d]);
        let ut = uc[1..].iter().map(|x| x * x).sum::<f64>().sqrt();
        let mut z: Vec<f64> = rc.iter().zip(uc).map(|(a, b)| a - b).collect();
        z[0] -= problem.mu[c] * ut;
        let p = project(&z, problem.mu[c]);
        num += rc.iter().zip(&p).map(|(a, b)| (a - b).powi(2)).sum::<f64>();
    }
    let qn = problem.q.iter().map(|x| x * x).sum::<f64>().sqrt();
    num.sqrt() / if qn > 0.0 { qn } else { 1.0 }
}
