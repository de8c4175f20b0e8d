//! Semismooth Newton on the global problem in `(v, r)`, without forming `W`
//! (Acary, Brémond & Dubois 2017, Problem 1 with the Alart–Curnier function, eq. 11):
//!
//! ```text
//! G(v, r) = [ M v − H r − f            ]  = 0,   J = [ M      −H ]
//!           [ Φ_AC(r, u = Hᵀ v + w)    ]             [ A Hᵀ    B ]
//! ```
//! with the per-contact blocks `A = ∂Φ/∂u`, `B = ∂Φ/∂r` of [`super::functions`].
//! `J` is assembled in faer from a fixed triplet order (symbolic structure and
//! argsort computed once), factorized by a sparse LU with symbolic reuse; Armijo line
//! search on `½‖G‖²`. `ρ_c = rho / (tr(Hᵀ M⁻¹ H)_cc / D)` is approximated with the
//! diagonal of `M` (`ρ_c = rho · D / Σ_{dof} H² / M_ii`), which needs no condensation.
//!
//! The stopping test is the FCLIB error of `r` with `u = Hᵀ M⁻¹(H r + f) + w` (one
//! solve with the factor of `M` as stored per iteration, see [`crate::nonsmooth::condense`]), the same measure as the condensed solvers.

use std::time::Instant;

use faer::linalg::solvers::Solve;
use faer::sparse::linalg::solvers::{Lu, SymbolicLu};
use faer::sparse::{Pair, SparseColMat, SymbolicSparseColMat};
use nalgebra::{SMatrix, SVector};

use super::functions::NsnFunction;
use super::stop::Watch;
use super::{sanitize, Control, Entry, Info, SolveError, Solver};
use crate::nonsmooth::condense::MassFactor;
use crate::nonsmooth::error::{natural_map_norm, norm};
use crate::nonsmooth::problem::{csc_mul_add, csc_tr_mul_add, GlobalProblem, LocalProblem};

pub const ENTRY: Entry = Entry {
    name: "global-nsn-ac",
    description: "global problems only: semismooth Newton on (v, r) with Alart-Curnier, no condensation, line search",
    make: || Box::new(GlobalNsn::default()),
};

/// Parameters of `global-nsn-ac`.
#[derive(Debug, Clone, PartialEq)]
pub struct GlobalNsnParams {
    /// `ρ_c = rho · D / Σ_dof H² / M_ii` (module docs). Default 1.
    pub rho: f64,
    /// Step cap when the [`Control`] gives none. Default 1000.
    pub max_iter: usize,
    /// Stop as stalled when the error has not dropped by 1 % in this many steps.
    /// Default 300.
    pub stall_window: usize,
}

impl Default for GlobalNsnParams {
    fn default() -> Self {
        GlobalNsnParams {
            rho: 1.0,
            max_iter: 1000,
            stall_window: 300,
        }
    }
}

/// Newton on `(v, r)` (module docs).
#[derive(Debug, Clone, Default)]
pub struct GlobalNsn {
    pub params: GlobalNsnParams,
}

impl Solver for GlobalNsn {
    fn solve(
        &self,
        _problem: &LocalProblem,
        _r: &mut [f64],
        _u: &mut [f64],
        _control: &Control,
    ) -> Result<Info, SolveError> {
        Err(SolveError::Unsupported(
            "global-nsn-ac needs a global (M, H) problem",
        ))
    }

    /// `v` is the initial velocity guess (replaced by `M⁻¹(H r + f)` when it is not
    /// finite).
    fn solve_global(
        &self,
        problem: &GlobalProblem,
        r: &mut [f64],
        u: &mut [f64],
        v: &mut [f64],
        control: &Control,
    ) -> Result<Info, SolveError> {
        control.validate()?;
        match problem.dim {
            2 => run::<2>(problem, r, u, v, &self.params, control),
            _ => run::<3>(problem, r, u, v, &self.params, control),
        }
    }
}

fn run<const D: usize>(
    p: &GlobalProblem,
    r: &mut [f64],
    u: &mut [f64],
    v: &mut [f64],
    params: &GlobalNsnParams,
    control: &Control,
) -> Result<Info, SolveError> {
    let start = Instant::now();
    let (nd, n, nc) = (p.n_dofs(), D * p.n_contacts, p.n_contacts);
    assert!(
        r.len() == n && u.len() == n && v.len() == nd,
        "r, u, v sizes"
    );
    sanitize(r);
    let max_iter = control.max_iter.unwrap_or(params.max_iter);
    let (factor, _) = MassFactor::new(&p.m)?;
    let mut watch = Watch::new(params.stall_window);
    // ‖q‖, q = Hᵀ M⁻¹ f + w, scales the error as in the condensed problem.
    let mut q = p.w.clone();
    let mut tmp = p.f.clone();
    factor.solve_vec(&mut tmp);
    csc_tr_mul_add(&p.h, &tmp, &mut q);
    let nq = norm(&q);
    let scale = if nq < f64::EPSILON { 1.0 } else { nq };
    if v.iter().any(|x| !x.is_finite()) {
        v.copy_from_slice(&p.f);
        csc_mul_add(&p.h, r, v);
        factor.solve_vec(v);
    }
    // ρ_c from the diagonal of M.
    let mut mdiag = vec![0.0; nd];
    {
        let (cp, ri, mv) = (
            p.m.symbolic().col_ptr(),
            p.m.symbolic().row_idx(),
            p.m.val(),
        );
        for j in 0..nd {
            for k in cp[j]..cp[j + 1] {
                if ri[k] == j {
                    mdiag[j] += mv[k];
                }
            }
        }
    }
    let (hcp, hri, hv) = (
        p.h.symbolic().col_ptr(),
        p.h.symbolic().row_idx(),
        p.h.val(),
    );
    let mut wdiag = vec![0.0; nc];
    for j in 0..n {
        for k in hcp[j]..hcp[j + 1] {
            if mdiag[hri[k]] > 0.0 {
                wdiag[j / D] += hv[k] * hv[k] / mdiag[hri[k]];
            }
        }
    }
    let rho: Vec<f64> = wdiag
        .iter()
        .map(|&t| {
            if t > 0.0 {
                params.rho * D as f64 / t
            } else {
                params.rho
            }
        })
        .collect();
    // Fixed triplet order: M, −H, A Hᵀ, B.
    let mut idx: Vec<Pair<usize, usize>> = Vec::new();
    let (mcp, mri) = (p.m.symbolic().col_ptr(), p.m.symbolic().row_idx());
    for j in 0..nd {
        for k in mcp[j]..mcp[j + 1] {
            idx.push(Pair::new(mri[k], j));
        }
    }
    for j in 0..n {
        for k in hcp[j]..hcp[j + 1] {
            idx.push(Pair::new(hri[k], nd + j));
        }
    }
    for j in 0..n {
        let c = j / D;
        for k in hcp[j]..hcp[j + 1] {
            for a in 0..D {
                idx.push(Pair::new(nd + c * D + a, hri[k]));
            }
        }
    }
    for c in 0..nc {
        for bcol in 0..D {
            for a in 0..D {
                idx.push(Pair::new(nd + c * D + a, nd + c * D + bcol));
            }
        }
    }
    let size = nd + n;
    let (symbolic, argsort) = SymbolicSparseColMat::try_new_from_indices(size, size, &idx)
        .map_err(|e| SolveError::LinearSolver {
            reason: format!("{e:?}"),
            error: f64::NAN,
            iterations: 0,
        })?;
    let mut symbolic_lu: Option<SymbolicLu<usize>> = None;
    let mut vals = vec![0.0; idx.len()];
    let mut am = vec![SMatrix::<f64, D, D>::zeros(); nc];
    let mut bm = vec![SMatrix::<f64, D, D>::zeros(); nc];
    let mut g = vec![0.0; size];
    let mut x_try = vec![0.0; size];
    let mut g_try = vec![0.0; size];
    let mut step = vec![0.0; size];
    let mut u_err = vec![0.0; n];
    let mut v_err = vec![0.0; nd];
    let mut it = 0;
    let mut x: Vec<f64> = v.iter().chain(r.iter()).copied().collect();
    loop {
        // FCLIB error of r with the consistent u.
        v_err.copy_from_slice(&p.f);
        csc_mul_add(&p.h, &x[nd..], &mut v_err);
        factor.solve_vec(&mut v_err);
        u_err.copy_from_slice(&p.w);
        csc_tr_mul_add(&p.h, &v_err, &mut u_err);
        let error = natural_map_norm(D, &p.mu, &x[nd..], &u_err) / scale;
        let floor = f64::EPSILON * (norm(&x[nd..]) + norm(&u_err)) / scale;
        if let Some(status) = watch.check(control, it, max_iter, error, floor) {
            r.copy_from_slice(&x[nd..]);
            v.copy_from_slice(&v_err);
            u.copy_from_slice(&u_err);
            return super::stop::Outcome {
                status,
                error,
                iterations: it,
            }
            .finish(start, it);
        }
        let psi0 = residual::<D>(p, &x, &rho, &mut g, Some((&mut am, &mut bm)));
        // Values in the triplet order.
        let mut pos = 0;
        pos = push_vals(&mut vals, pos, p.m.val());
        for &h in hv {
            vals[pos] = -h;
            pos += 1;
        }
        for j in 0..n {
            let (c, l) = (j / D, j % D);
            for &h in &hv[hcp[j]..hcp[j + 1]] {
                for a in 0..D {
                    vals[pos] = am[c][(a, l)] * h;
                    pos += 1;
                }
            }
        }
        for b in bm.iter() {
            for bcol in 0..D {
                for a in 0..D {
                    vals[pos] = b[(a, bcol)];
                    pos += 1;
                }
            }
        }
        // Singular J (rank-deficient H): retry with η added on the contact diagonal.
        let mut solved = false;
        let nb = vals.len() - nc * D * D;
        let mut eta_prev = 0.0;
        for eta in [0.0, 1e-10, 1e-8, 1e-6, 1e-4, 1e-2] {
            for c in 0..nc {
                for a in 0..D {
                    vals[nb + c * D * D + a * D + a] += eta - eta_prev;
                }
            }
            eta_prev = eta;
            let lin_err = |e: String| SolveError::LinearSolver {
                reason: e,
                error,
                iterations: it,
            };
            let jac = SparseColMat::new_from_argsort(symbolic.clone(), &argsort, &vals)
                .map_err(|e| lin_err(format!("{e:?}")))?;
            if symbolic_lu.is_none() {
                symbolic_lu = Some(
                    SymbolicLu::try_new(jac.symbolic()).map_err(|e| lin_err(format!("{e:?}")))?,
                );
            }
            let Ok(lu) = Lu::try_new_with_symbolic(symbolic_lu.clone().expect("set"), jac.as_ref())
            else {
                continue;
            };
            for (s, gi) in step.iter_mut().zip(&g) {
                *s = -gi;
            }
            lu.solve_in_place(faer::ColMut::from_slice_mut(&mut step));
            if step.iter().all(|s| s.is_finite()) {
                solved = true;
                break;
            }
        }
        if !solved {
            r.copy_from_slice(&x[nd..]);
            v.copy_from_slice(&v_err);
            u.copy_from_slice(&u_err);
            return Err(SolveError::LinearSolver {
                reason: "singular Jacobian (non-finite Newton step)".into(),
                error,
                iterations: it,
            });
        }
        let mut t = 1.0;
        for _ in 0..30 {
            for i in 0..size {
                x_try[i] = x[i] + t * step[i];
            }
            let psi = residual::<D>(p, &x_try, &rho, &mut g_try, None);
            if psi <= (1.0 - 2e-4 * t) * psi0 {
                break;
            }
            t *= 0.5;
        }
        for i in 0..size {
            x[i] += t * step[i];
        }
        it += 1;
    }
}

fn push_vals(vals: &mut [f64], pos: usize, src: &[f64]) -> usize {
    vals[pos..pos + src.len()].copy_from_slice(src);
    pos + src.len()
}

/// One contact's `D × D` block of the Jacobian, `A = ∂Φ/∂u` or `B = ∂Φ/∂r`
/// (module docs).
type Block<const D: usize> = SMatrix<f64, D, D>;

/// `G(x)` into `g`, optionally the blocks `(A, B)` per contact; returns
/// `½‖G‖²`.
fn residual<const D: usize>(
    p: &GlobalProblem,
    x: &[f64],
    rho: &[f64],
    g: &mut [f64],
    mut blocks: Option<(&mut Vec<Block<D>>, &mut Vec<Block<D>>)>,
) -> f64 {
    let nd = p.n_dofs();
    let (v, r) = x.split_at(nd);
    let (g1, g2) = g.split_at_mut(nd);
    g1.iter_mut().zip(&p.f).for_each(|(a, f)| *a = -f);
    csc_mul_add(&p.m, v, g1);
    let neg_r: Vec<f64> = r.iter().map(|x| -x).collect();
    csc_mul_add(&p.h, &neg_r, g1);
    let mut u = p.w.clone();
    csc_tr_mul_add(&p.h, v, &mut u);
    for c in 0..p.n_contacts {
        let rc = SVector::<f64, D>::from_column_slice(&r[D * c..D * c + D]);
        let uc = SVector::<f64, D>::from_column_slice(&u[D * c..D * c + D]);
        let (phi, a, b) = NsnFunction::AlartCurnier.eval(&rc, &uc, p.mu[c], rho[c]);
        g2[D * c..D * c + D].copy_from_slice(phi.as_slice());
        if let Some((am, bm)) = blocks.as_mut() {
            am[c] = a;
            bm[c] = b;
        }
    }
    0.5 * g.iter().map(|x| x * x).sum::<f64>()
}
