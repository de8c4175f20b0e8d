//! Error measures shared by every solver, so that solvers are compared fairly
//! (one measure, as in Siconos/FCLIB).

use nalgebra::SVector;

use super::local::{natural_map, project_cone};
use super::problem::LocalProblem;

/// The FCLIB standard error `‖F_nat(r)‖ / ‖q‖` (Acary, Brémond & Huber 2018; Acary,
/// Brémond & Dubois 2017, eqs. 13 and 15), with, per contact,
/// `F_nat(r) = r − P_K(r − (u + μ‖u_T‖e_N))` and `u = W r + q` given in `u`.
///
/// When `‖q‖` is zero (or below `f64::EPSILON`) the absolute error `‖F_nat(r)‖` is
/// returned instead (the trivial solution `r = 0` then has error 0).
#[track_caller]
pub fn fclib_error(problem: &LocalProblem, r: &[f64], u: &[f64]) -> f64 {
    let n = problem.size();
    assert!(
        r.len() == n && u.len() == n,
        "r and u must have dim·n_contacts entries"
    );
    let nq = norm(&problem.q);
    let scale = if nq < f64::EPSILON { 1.0 } else { nq };
    natural_map_norm(problem.dim, &problem.mu, r, u) / scale
}

/// Round-off floor of [`fclib_error`] at `(r, u)`: `ε (‖r‖ + ‖u‖) / ‖q‖` (same
/// scaling). Below it the measure cannot tell a solution from a non-solution: an
/// iterate that ran off to `‖r‖ ~ 10¹⁷` (e.g. `W = 0` with contacts pressed in, where
/// no solution exists) has `F_nat(r) = 0` in floating point. The solvers claim
/// convergence only when the error and this floor are both below the tolerance.
pub fn fclib_error_floor(problem: &LocalProblem, r: &[f64], u: &[f64]) -> f64 {
    let nq = norm(&problem.q);
    let scale = if nq < f64::EPSILON { 1.0 } else { nq };
    f64::EPSILON * (norm(r) + norm(u)) / scale
}

/// `‖F_nat(r)‖` over all contacts for a given `u` (unscaled).
#[track_caller]
pub fn natural_map_norm(dim: usize, mu: &[f64], r: &[f64], u: &[f64]) -> f64 {
    assert!(
        r.len() == dim * mu.len() && u.len() == r.len(),
        "r and u must have dim·n_contacts entries"
    );
    let mut sum = 0.0;
    match dim {
        2 => {
            for (c, &m) in mu.iter().enumerate() {
                sum += contact_nat::<2>(r, u, c, m);
            }
        }
        _ => {
            for (c, &m) in mu.iter().enumerate() {
                sum += contact_nat::<3>(r, u, c, m);
            }
        }
    }
    sum.sqrt()
}

/// `‖F_nat‖²` of contact `c`. `local::natural_map` evaluates `u = W r + q` itself;
/// passing `W = 0` and `q = u_c` gives exactly the natural map at the global `u`.
fn contact_nat<const D: usize>(r: &[f64], u: &[f64], c: usize, mu: f64) -> f64 {
    let rc = SVector::<f64, D>::from_column_slice(&r[D * c..D * c + D]);
    let uc = SVector::<f64, D>::from_column_slice(&u[D * c..D * c + D]);
    natural_map(&nalgebra::SMatrix::<f64, D, D>::zeros(), &uc, mu, &rc).norm_squared()
}

/// Dumont's global criterion (Dumont, "On enhanced descend algorithms…", eq. 37):
/// `ε_glob = (1/N_c) Σ_c [ε_motion + ε_proj + ε_b + ε_pen]` with
/// `ε_motion = ‖u_c − (W r + q)_c‖` (error on the equation of motion),
/// `ε_proj = ‖r_c − P_K(r_c)‖` (distance to the Coulomb cone),
/// `ε_b = |u_c·r_c + μ r_N ‖u_T‖|` (bi-potential residual, zero iff the law holds
/// given the two previous terms and no penetration),
/// `ε_pen = −min(0, u_N)` (penetration). An absolute measure (not scaled).
#[track_caller]
pub fn dumont_error(problem: &LocalProblem, r: &[f64], u: &[f64]) -> f64 {
    let n = problem.size();
    assert!(
        r.len() == n && u.len() == n,
        "r and u must have dim·n_contacts entries"
    );
    if problem.n_contacts == 0 {
        return 0.0;
    }
    let mut um = vec![0.0; n];
    problem.velocity(r, &mut um);
    let d = problem.dim;
    let mut total = 0.0;
    for c in 0..problem.n_contacts {
        let k = d * c..d * c + d;
        let (rc, uc, umc) = (&r[k.clone()], &u[k.clone()], &um[k]);
        let motion = uc
            .iter()
            .zip(umc)
            .map(|(a, b)| (a - b) * (a - b))
            .sum::<f64>()
            .sqrt();
        let proj = match d {
            2 => {
                let v = SVector::<f64, 2>::from_column_slice(rc);
                (v - project_cone(&v, problem.mu[c])).norm()
            }
            _ => {
                let v = SVector::<f64, 3>::from_column_slice(rc);
                (v - project_cone(&v, problem.mu[c])).norm()
            }
        };
        let ut = norm(&uc[1..]);
        let dot: f64 = rc.iter().zip(uc).map(|(a, b)| a * b).sum();
        let bip = (dot + problem.mu[c] * rc[0] * ut).abs();
        let pen = -(uc[0].min(0.0));
        total += motion + proj + bip + pen;
    }
    total / problem.n_contacts as f64
}

pub(crate) fn norm(x: &[f64]) -> f64 {
    x.iter().map(|v| v * v).sum::<f64>().sqrt()
}
