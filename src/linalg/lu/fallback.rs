//! Sparse LU with row partial pivoting over whole columns (faer's
//! supernodal LU), the symbolic analysis computed once per pattern.
//!
//! `A Q = P L U`: `Q` the COLAMD column ordering of the dof matrix (Davis,
//! Gilbert, Larimore & Ng 2004, faer's default for sparse LU), `P` the row
//! pivoting of the numeric factorization. faer's LU bounds the factors by
//! the Cholesky factor of `QᵀAᵀAQ` (George & Ng 1987: the structure any row
//! pivoting can reach), so its fill is about three times that of
//! [`crate::linalg::SupernodalLu`] on a 3D tangent and its factorization
//! slower by as much (`docs/decisions/own-supernodal-lu.md`); its pivoting
//! is unrestricted. It is the fallback of the supernodal LU: a matrix whose
//! pivots the supernode-restricted pivoting cannot find (a singular
//! supernode block of a nonsingular matrix) is factored here.

use crate::linalg::error::LinearSolveError;
use crate::linalg::pattern::BlockPattern;
use faer::dyn_stack::{MemBuffer, MemStack, StackReq};
use faer::perm::PermRef;
use faer::sparse::linalg::lu::supernodal::{
    factorize_supernodal_numeric_lu, factorize_supernodal_numeric_lu_scratch,
    factorize_supernodal_symbolic_lu, factorize_supernodal_symbolic_lu_scratch,
    solve_in_place_scratch, SupernodalLu, SymbolicSupernodalLu,
};
use faer::sparse::linalg::{colamd, qr, SymbolicSupernodalParams};
use faer::sparse::{FaerError, SparseColMatRef};
use faer::{Conj, MatMut, Par};

/// LU factorization of matrices sharing one `BlockPattern`. The symbolic
/// analysis (fill-reducing ordering, elimination structure) is done in `new`
/// and reused by every `factorize`; the numeric factors, pivots and scratch
/// are kept and overwritten by the next `factorize`.
pub struct SparseLu {
    n: usize,
    col_fwd: Vec<usize>,
    col_inv: Vec<usize>,
    symbolic: SymbolicSupernodalLu<usize>,
    /// `val_t[k] = val[transpose[k]]` are the values of `Aᵀ` on the same pattern.
    transpose: Vec<usize>,
    val_t: Vec<f64>,
    row_fwd: Vec<usize>,
    row_inv: Vec<usize>,
    numeric: SupernodalLu<usize, f64>,
    factorized: bool,
    scratch: MemBuffer,
}

fn symbolic_error(e: FaerError) -> LinearSolveError {
    LinearSolveError::Symbolic(format!("{e:?}"))
}

impl SparseLu {
    /// Symbolic analysis of `pattern`: the COLAMD ordering, the column
    /// elimination tree, postordered, and faer's supernodal structure.
    pub fn new(pattern: &BlockPattern) -> Result<SparseLu, LinearSolveError> {
        let n = pattern.n();
        let a = pattern.symbolic();
        let (fwd, inv) = colamd_ordering(pattern).map_err(symbolic_error)?;
        let req = StackReq::any_of(&[
            qr::col_etree_scratch::<usize>(n, n),
            qr::postorder_scratch::<usize>(n),
            qr::column_counts_aat_scratch::<usize>(n, n),
            factorize_supernodal_symbolic_lu_scratch::<usize>(n, n).and(StackReq::new::<usize>(n)),
        ]);
        let mut mem =
            MemBuffer::try_new(req).map_err(|_| symbolic_error(FaerError::OutOfMemory))?;
        let stack = MemStack::new(&mut mem);
        // Postorder the column elimination tree, so that every subtree is a
        // contiguous range of columns and chains can merge into supernodes.
        let mut etree = vec![0usize; n];
        let mut post = vec![0usize; n];
        {
            let q = PermRef::new_checked(&fwd, &inv, n);
            let tree = qr::col_etree(a, Some(q), &mut etree, stack);
            qr::postorder(&mut post, tree, stack);
        }
        let col_fwd: Vec<usize> = post.iter().map(|&k| fwd[k]).collect();
        let mut col_inv = vec![0usize; n];
        for (k, &j) in col_fwd.iter().enumerate() {
            col_inv[j] = k;
        }
        let q = PermRef::new_checked(&col_fwd, &col_inv, n);
        let tree = qr::col_etree(a, Some(q), &mut etree, stack);
        qr::postorder(&mut post, tree, stack);
        let mut col_counts = vec![0usize; n];
        let mut min_col = vec![0usize; n];
        // AᵀA's column counts take Aᵀ, which has A's pattern
        qr::column_counts_ata(
            &mut col_counts,
            &mut min_col,
            a,
            Some(q),
            tree,
            &post,
            stack,
        );
        let symbolic = factorize_supernodal_symbolic_lu(
            a,
            Some(q),
            &min_col,
            tree,
            &col_counts,
            stack,
            SymbolicSupernodalParams::default(),
        )
        .map_err(symbolic_error)?;
        let scratch = MemBuffer::try_new(factorize_supernodal_numeric_lu_scratch::<usize, f64>(
            &symbolic,
            Default::default(),
        ))
        .map_err(|_| symbolic_error(FaerError::OutOfMemory))?;
        Ok(SparseLu {
            n,
            col_fwd,
            col_inv,
            symbolic,
            transpose: pattern.transpose_positions(),
            val_t: vec![0.0; pattern.nnz()],
            row_fwd: vec![0; n],
            row_inv: vec![0; n],
            numeric: SupernodalLu::new(),
            factorized: false,
            scratch,
        })
    }

    /// Numeric factorization of the matrix with values `val` on `pattern`
    /// (the pattern given to `new`).
    #[track_caller]
    pub fn factorize(
        &mut self,
        pattern: &BlockPattern,
        val: &[f64],
    ) -> Result<(), LinearSolveError> {
        assert_eq!(pattern.n(), self.n, "pattern of another size");
        assert_eq!(val.len(), self.transpose.len(), "values of another pattern");
        self.factorized = false;
        if val.iter().any(|v| !v.is_finite()) {
            return Err(LinearSolveError::Numeric("non-finite entry".into()));
        }
        for (vt, &k) in self.val_t.iter_mut().zip(&self.transpose) {
            *vt = val[k];
        }
        let a = SparseColMatRef::new(pattern.symbolic(), val);
        let at = SparseColMatRef::new(pattern.symbolic(), &self.val_t[..]);
        let q = PermRef::new_checked(&self.col_fwd, &self.col_inv, self.n);
        factorize_supernodal_numeric_lu(
            &mut self.row_fwd,
            &mut self.row_inv,
            &mut self.numeric,
            a,
            at,
            q,
            &self.symbolic,
            // one thread: the factors, and a run, the same on any number of threads
            Par::Seq,
            MemStack::new(&mut self.scratch),
            Default::default(),
        )
        .map_err(|e| LinearSolveError::Numeric(format!("{e:?}")))?;
        self.factorized = true;
        Ok(())
    }

    /// Solves in place with the last factorization.
    #[track_caller]
    pub fn solve_in_place(&self, rhs: &mut [f64]) -> Result<(), LinearSolveError> {
        self.solve_columns(rhs, 1)
    }

    /// Solves for `ncols` right-hand sides stored column by column in `rhs`
    /// (`n·ncols` values), in place, with the last factorization; the
    /// supernodal solve handles the columns together (blocked).
    #[track_caller]
    pub fn solve_columns(&self, rhs: &mut [f64], ncols: usize) -> Result<(), LinearSolveError> {
        assert!(self.factorized, "factorize before solve");
        let n = self.n;
        assert_eq!(rhs.len(), n * ncols, "right-hand sides of another size");
        let par = Par::Seq;
        // n·ncols values: small next to a factorization, and `&self` keeps solves shareable
        let mut mem = MemBuffer::new(solve_in_place_scratch::<usize, f64>(n, ncols, par));
        self.numeric.solve_in_place_with_conj(
            PermRef::new_checked(&self.row_fwd, &self.row_inv, n),
            PermRef::new_checked(&self.col_fwd, &self.col_inv, n),
            Conj::No,
            MatMut::from_column_major_slice_mut(rhs, n, ncols),
            par,
            MemStack::new(&mut mem),
        );
        if rhs.iter().any(|v| !v.is_finite()) {
            return Err(LinearSolveError::Numeric("non-finite solution".into()));
        }
        Ok(())
    }
}

/// The COLAMD column permutation `(fwd, inv)` of the dof matrix of `pattern`.
fn colamd_ordering(pattern: &BlockPattern) -> Result<(Vec<usize>, Vec<usize>), FaerError> {
    let n = pattern.n();
    let a = pattern.symbolic();
    let mut fwd = vec![0usize; n];
    let mut inv = vec![0usize; n];
    let mut mem = MemBuffer::try_new(colamd::order_scratch::<usize>(n, n, a.row_idx().len()))
        .map_err(|_| FaerError::OutOfMemory)?;
    colamd::order(
        &mut fwd,
        &mut inv,
        a,
        colamd::Control::default(),
        MemStack::new(&mut mem),
    )?;
    for (k, &j) in fwd.iter().enumerate() {
        inv[j] = k;
    }
    Ok((fwd, inv))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_an_unsymmetric_block_system() {
        let lists: Vec<Vec<usize>> = (0..9).map(|i| vec![i, i + 1]).collect();
        let p = BlockPattern::new(10, 2, lists.iter().map(|l| &l[..]));
        // values: diagonally dominant, unsymmetric, deterministic
        let cp = p.symbolic().col_ptr().to_vec();
        let ri = p.symbolic().row_idx().to_vec();
        let mut val = vec![0.0; p.nnz()];
        for c in 0..p.n() {
            for k in cp[c]..cp[c + 1] {
                let r = ri[k];
                val[k] = if r == c {
                    10.0
                } else {
                    0.3 + 0.1 * (r as f64) - 0.05 * (c as f64)
                };
            }
        }
        let x: Vec<f64> = (0..p.n()).map(|i| (i as f64).sin()).collect();
        let mut b = vec![0.0; p.n()];
        p.mul(&val, &x, &mut b);
        let mut lu = SparseLu::new(&p).unwrap();
        for scale in [1.0, 2.0] {
            let v2: Vec<f64> = val.iter().map(|v| v * scale).collect();
            lu.factorize(&p, &v2).unwrap();
            let mut y: Vec<f64> = b.iter().map(|v| v * scale).collect();
            lu.solve_in_place(&mut y).unwrap();
            let err = y
                .iter()
                .zip(&x)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f64::max);
            assert!(err < 1e-12, "solution error {err}");
        }
    }

    #[test]
    fn solves_an_unsymmetric_3d_hex8_block_system_off_the_diagonal_pivots() {
        let p = crate::linalg::test_matrices::grid_pattern(4);
        let cp = p.symbolic().col_ptr().to_vec();
        let ri = p.symbolic().row_idx().to_vec();
        // unsymmetric values in [-1, 1]; a diagonal of 4, but 1e-3 on every
        // 7th dof so that partial pivoting has to take off-diagonal pivots
        let mut val = vec![0.0; p.nnz()];
        for c in 0..p.n() {
            for k in cp[c]..cp[c + 1] {
                let r = ri[k];
                val[k] = if r == c {
                    if c % 7 == 0 {
                        1e-3
                    } else {
                        4.0
                    }
                } else {
                    ((r * 31 + c * 17) as f64 * 0.7).sin()
                };
            }
        }
        let n = p.n();
        let x: Vec<f64> = (0..n).map(|i| (i as f64 * 0.3).cos()).collect();
        let mut b = vec![0.0; n];
        p.mul(&val, &x, &mut b);
        let mut lu = SparseLu::new(&p).unwrap();
        // two factorizations on one symbolic analysis
        for scale in [1.0, -3.0] {
            let v: Vec<f64> = val.iter().map(|v| v * scale).collect();
            lu.factorize(&p, &v).unwrap();
            let mut y: Vec<f64> = b.iter().map(|v| v * scale).collect();
            lu.solve_in_place(&mut y).unwrap();
            let mut r = vec![0.0; n];
            p.mul(&v, &y, &mut r);
            let res = r
                .iter()
                .zip(&b)
                .map(|(a, b)| (a - b * scale).abs())
                .fold(0.0, f64::max)
                / b.iter().fold(0.0f64, |m, v| m.max((v * scale).abs()));
            assert!(res < 1e-12, "relative residual {res:e}");
        }
    }
}
