//! Export of the contact subproblems as FCLIB files (`--dump-contact DIR`,
//! `[output] contact_problems = true`): every subproblem a Newton iteration of
//! exact or augmented-Lagrangian enforcement builds (see [`super::enforce`])
//! is written as `contact_NNNNN.hdf5`, the reduced problem `u = W r + q`
//! with `μ` (FCLIB `fclib_local`) that was solved, so that other solvers can
//! be benchmarked on the problems an impact code meets.
//!
//! Conventions of the file (FCLIB): per contact `[normal, tangent1,
//! (tangent2)]`, `r_N ≥ 0` the normal force, `u_N ≥ 0` separating; `r` is the
//! point force `w j [p_N, t·e_1, t·e_2]`, `u` the velocities of Table 1 (gap
//! rate of a new contact, midpoint normal rate of a persistent one, objective
//! slip rates).

use super::enforce::Subproblem;
use crate::nonsmooth::fclib::{write_local, ProblemInfo, SparseFormat};
use crate::nonsmooth::problem::LocalProblem;
use faer::sparse::{SparseColMat, Triplet};
use std::path::Path;

/// The reduced problem of a subproblem.
pub fn local_problem(sp: &Subproblem) -> Option<LocalProblem> {
    let m = sp.q.len();
    let trip: Vec<Triplet<usize, usize, f64>> = (0..m)
        .flat_map(|j| (0..m).map(move |i| (i, j)))
        .filter(|&(i, j)| sp.w[j * m + i] != 0.0)
        .map(|(i, j)| Triplet::new(i, j, sp.w[j * m + i]))
        .collect();
    let w = SparseColMat::try_new_from_triplets(m, m, &trip).ok()?;
    LocalProblem::new(sp.dim, w, sp.q.to_vec(), sp.mu.to_vec()).ok()
}

/// Writes subproblem number `count` into `dir` (created if missing). A write
/// that fails is logged, not fatal: the dump is a by-product of the run.
pub fn write(dir: &Path, count: usize, sp: &Subproblem) {
    let path = dir.join(format!("contact_{count:05}.hdf5"));
    let result = std::fs::create_dir_all(dir)
        .map_err(|e| e.to_string())
        .and_then(|_| local_problem(sp).ok_or_else(|| "invalid subproblem".to_string()))
        .and_then(|p| {
            let info = ProblemInfo {
                title: format!("emcontact contact subproblem {count}"),
                description: format!(
                    "Linearized time step of an energy-momentum frictional impact \
                     (Love & Laursen 2003), {} contact points: W = B K^-1 H of the \
                     Newton iteration, q = u - B K^-1 R - W r_old",
                    sp.mu.len()
                ),
                math_info: "u = W r + q, K* ∋ u + mu |u_T| e_N ⊥ r ∈ K".into(),
            };
            write_local(&path, &p, Some(&info), SparseFormat::Csc).map_err(|e| e.to_string())
        });
    if let Err(e) = result {
        log::warn!(
            "contact subproblem {count} not written to {}: {e}",
            path.display()
        );
    }
}
