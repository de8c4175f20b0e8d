//! The semismooth Newton system `J δ = −Φ`, `J = B + A W`, on a dense `W` (a
//! rigid object resting on many contacts, a finite-element Delassus operator),
//! with every buffer allocated once per solve.
//!
//! A contact whose generalized Jacobian blocks are `A_c = 0`, `B_c = I` (taking
//! off: the cone projection of the natural map is 0, or the normal and the
//! tangential parts of Alart–Curnier's function are both in their "open" branch)
//! has the rows `δ_c = −Φ_c`. Those unknowns are known before any factorization
//! and are moved to the right-hand side of the other rows:
//! `(B_KK + A_K W_KK) δ_K = −Φ_K − A_K W_KO δ_O` over the kept contacts `K`, the
//! open ones `O`. The reduced matrix is factored in place by faer's LU with
//! partial pivoting (`lu_in_place`, fixed scratch): on Siconos' OneObject
//! problems 9 of 24 contacts take off, and the factorization of 45 unknowns costs
//! a quarter of that of 72.

use faer::dyn_stack::{MemBuffer, MemStack, StackReq};
use faer::linalg::lu::partial_pivoting::{factor, solve};
use faer::{Mat, Par};
use nalgebra::SMatrix;

use crate::nonsmooth::problem::{csc_mul_add, LocalProblem};

/// Regularizations `η` tried in turn on `J + ηI` when the step is not finite
/// (rank-deficient `W`, e.g. rigid bodies with many contacts): the scaled `J`
/// has entries of order one.
pub(crate) const REGULARIZATIONS: [f64; 6] = [0.0, 1e-10, 1e-8, 1e-6, 1e-4, 1e-2];

/// Fixed workspace of the dense Newton system (module docs).
pub(crate) struct DenseJacobian {
    /// The reduced `J` in its leading `m × m` corner, factored in place.
    jac: Mat<f64>,
    perm: Vec<usize>,
    perm_inv: Vec<usize>,
    scratch: MemBuffer,
    /// Position of each contact among the kept ones, `None` when it takes off.
    pos: Vec<Option<usize>>,
    /// Kept contacts, in order.
    kept: Vec<usize>,
    /// `δ` with only the open contacts' entries, then `W` times it.
    open_step: Vec<f64>,
    w_open: Vec<f64>,
    /// The reduced right-hand side and solution.
    rhs: Vec<f64>,
}

impl DenseJacobian {
    pub fn new(n: usize, n_contacts: usize) -> Self {
        let req = StackReq::any_of(&[
            factor::lu_in_place_scratch::<usize, f64>(n, n, Par::Seq, Default::default()),
            solve::solve_in_place_scratch::<usize, f64>(n, 1, Par::Seq),
        ]);
        DenseJacobian {
            jac: Mat::zeros(n, n),
            perm: vec![0; n],
            perm_inv: vec![0; n],
            scratch: MemBuffer::new(req),
            pos: vec![None; n_contacts],
            kept: Vec::with_capacity(n_contacts),
            open_step: vec![0.0; n],
            w_open: vec![0.0; n],
            rhs: vec![0.0; n],
        }
    }

    /// `delta` ← the solution of `J δ = −Φ`, with `J + ηI` over the kept contacts
    /// for the first `η` of [`REGULARIZATIONS`] that gives a finite step.
    pub fn solve<const D: usize>(
        &mut self,
        problem: &LocalProblem,
        a: &[SMatrix<f64, D, D>],
        b: &[SMatrix<f64, D, D>],
        phi: &[f64],
        delta: &mut [f64],
    ) -> Result<(), String> {
        self.split::<D>(a, b);
        let m = D * self.kept.len();
        // Open contacts: δ_c = −Φ_c; their coupling goes to the kept rows.
        self.open_step.iter_mut().for_each(|x| *x = 0.0);
        for (c, pos) in self.pos.iter().enumerate() {
            if pos.is_none() {
                for i in D * c..D * c + D {
                    delta[i] = -phi[i];
                    self.open_step[i] = -phi[i];
                }
            }
        }
        self.w_open.iter_mut().for_each(|x| *x = 0.0);
        if m < delta.len() {
            csc_mul_add(&problem.w, &self.open_step, &mut self.w_open);
        }
        for eta in REGULARIZATIONS {
            self.fill::<D>(problem, a, b, m);
            for k in 0..m {
                self.jac[(k, k)] += eta;
            }
            for (k, &c) in self.kept.iter().enumerate() {
                let wo =
                    nalgebra::SVector::<f64, D>::from_column_slice(&self.w_open[D * c..D * c + D]);
                let aw = a[c] * wo;
                for i in 0..D {
                    self.rhs[D * k + i] = -phi[D * c + i] - aw[i];
                }
            }
            let stack = MemStack::new(&mut self.scratch);
            let lu = self.jac.as_mut().submatrix_mut(0, 0, m, m);
            let (_, perm) = factor::lu_in_place(
                lu,
                &mut self.perm[..m],
                &mut self.perm_inv[..m],
                Par::Seq,
                &mut *stack,
                Default::default(),
            );
            let lu = self.jac.as_ref().submatrix(0, 0, m, m);
            let rhs = faer::ColMut::from_slice_mut(&mut self.rhs[..m]);
            solve::solve_in_place(lu, lu, perm, rhs.as_mat_mut(), Par::Seq, stack);
            if self.rhs[..m].iter().all(|x| x.is_finite()) {
                for (k, &c) in self.kept.iter().enumerate() {
                    delta[D * c..D * c + D].copy_from_slice(&self.rhs[D * k..D * k + D]);
                }
                return Ok(());
            }
        }
        Err("singular Jacobian (non-finite Newton step)".into())
    }

    /// Sorts the contacts into kept and open (`A_c = 0`, `B_c = I`).
    fn split<const D: usize>(&mut self, a: &[SMatrix<f64, D, D>], b: &[SMatrix<f64, D, D>]) {
        self.kept.clear();
        for c in 0..a.len() {
            let open = a[c].iter().all(|&x| x == 0.0) && b[c] == SMatrix::<f64, D, D>::identity();
            self.pos[c] = (!open).then(|| {
                self.kept.push(c);
                self.kept.len() - 1
            });
        }
    }

    /// The leading `m × m` corner ← `B_KK + A_K W_KK`.
    fn fill<const D: usize>(
        &mut self,
        problem: &LocalProblem,
        a: &[SMatrix<f64, D, D>],
        b: &[SMatrix<f64, D, D>],
        m: usize,
    ) {
        let mut jac = self.jac.as_mut().submatrix_mut(0, 0, m, m);
        jac.fill(0.0);
        let cp = problem.w.symbolic().col_ptr();
        let ri = problem.w.symbolic().row_idx();
        let wv = problem.w.val();
        for j in 0..problem.size() {
            let Some(kj) = self.pos[j / D] else { continue };
            let (l_col, col) = (j % D, D * kj + j % D);
            for k in cp[j]..cp[j + 1] {
                let (c, l) = (ri[k] / D, ri[k] % D);
                let Some(kc) = self.pos[c] else { continue };
                for i in 0..D {
                    jac[(D * kc + i, col)] += a[c][(i, l)] * wv[k];
                }
            }
            let c = j / D;
            for i in 0..D {
                jac[(D * kj + i, col)] += b[c][(i, l_col)];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use faer::sparse::{SparseColMat, Triplet};
    use nalgebra::DMatrix;

    /// A deterministic pseudo-random number in [-1, 1).
    fn rnd(k: usize) -> f64 {
        let x = (k as f64 * 12.9898 + 78.233).sin() * 43758.5453;
        2.0 * (x - x.floor()) - 1.0
    }

    /// The step with the take-off contacts eliminated is the step of the whole
    /// system `(B + A W) δ = −Φ`, solved densely by nalgebra.
    fn same_step_as_the_full_system<const D: usize>() {
        let nc = 5;
        let n = D * nc;
        let g = DMatrix::from_fn(n, n, |i, j| rnd(i * n + j));
        let w = &g * g.transpose() / n as f64 + DMatrix::identity(n, n) * 0.3;
        let trip: Vec<_> = (0..n)
            .flat_map(|i| (0..n).map(move |j| (i, j)))
            .map(|(i, j)| Triplet::new(i, j, w[(i, j)]))
            .collect();
        let sparse = SparseColMat::try_new_from_triplets(n, n, &trip).unwrap();
        let p = LocalProblem::new(D, sparse, vec![0.1; n], vec![0.5; nc]).unwrap();
        let open = |c: usize| c == 1 || c == 4;
        let block =
            |c: usize, s: usize| SMatrix::<f64, D, D>::from_fn(|i, j| rnd(s + 9 * c + D * i + j));
        let a: Vec<_> = (0..nc)
            .map(|c| {
                if open(c) {
                    SMatrix::zeros()
                } else {
                    block(c, 1000)
                }
            })
            .collect();
        let b: Vec<_> = (0..nc)
            .map(|c| {
                if open(c) {
                    SMatrix::identity()
                } else {
                    block(c, 2000) + SMatrix::identity() * 2.0
                }
            })
            .collect();
        let phi: Vec<f64> = (0..n).map(|k| rnd(3000 + k)).collect();
        let mut full = DMatrix::<f64>::zeros(n, n);
        for c in 0..nc {
            for i in 0..D {
                for j in 0..n {
                    let aw: f64 = (0..D).map(|l| a[c][(i, l)] * w[(D * c + l, j)]).sum();
                    full[(D * c + i, j)] = aw;
                }
                for l in 0..D {
                    full[(D * c + i, D * c + l)] += b[c][(i, l)];
                }
            }
        }
        let rhs = -nalgebra::DVector::from_vec(phi.clone());
        let want = full.lu().solve(&rhs).unwrap();
        let mut delta = vec![0.0; n];
        let mut dense = DenseJacobian::new(n, nc);
        dense.solve::<D>(&p, &a, &b, &phi, &mut delta).unwrap();
        assert_eq!(dense.kept, vec![0, 2, 3]);
        for k in 0..n {
            assert!(
                (delta[k] - want[k]).abs() <= 1e-12 * want.amax(),
                "D = {D}, entry {k}: {} against {}",
                delta[k],
                want[k]
            );
        }
    }

    #[test]
    fn eliminating_open_contacts_gives_the_full_systems_step() {
        same_step_as_the_full_system::<2>();
        same_step_as_the_full_system::<3>();
    }
}
