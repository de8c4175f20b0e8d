//! Sparse LU (faer) with the symbolic analysis computed once per pattern.

use super::BlockPattern;
use faer::linalg::solvers::Solve;
use faer::sparse::linalg::solvers::{Lu, SymbolicLu};
use faer::sparse::SparseColMatRef;

/// A factorization failed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum LinearSolveError {
    #[error("symbolic analysis failed: {0}")]
    Symbolic(String),
    #[error("singular or non-finite matrix: {0}")]
    Numeric(String),
}

/// LU factorization of matrices sharing one `BlockPattern`. The symbolic
/// analysis (fill-reducing ordering, elimination structure) is done in `new`
/// and reused by every `factorize`.
pub struct SparseLu {
    symbolic: SymbolicLu<usize>,
    numeric: Option<Lu<usize, f64>>,
}

impl SparseLu {
    /// Symbolic analysis of `pattern`.
    pub fn new(pattern: &BlockPattern) -> Result<SparseLu, LinearSolveError> {
        let symbolic = SymbolicLu::try_new(pattern.symbolic())
            .map_err(|e| LinearSolveError::Symbolic(format!("{e:?}")))?;
        Ok(SparseLu {
            symbolic,
            numeric: None,
        })
    }

    /// Numeric factorization of the matrix with values `val` on `pattern`.
    pub fn factorize(
        &mut self,
        pattern: &BlockPattern,
        val: &[f64],
    ) -> Result<(), LinearSolveError> {
        if val.iter().any(|v| !v.is_finite()) {
            return Err(LinearSolveError::Numeric("non-finite entry".into()));
        }
        let mat = SparseColMatRef::new(pattern.symbolic(), val);
        let lu = Lu::try_new_with_symbolic(self.symbolic.clone(), mat)
            .map_err(|e| LinearSolveError::Numeric(format!("{e:?}")))?;
        self.numeric = Some(lu);
        Ok(())
    }

    /// Solves in place with the last factorization.
    #[track_caller]
    pub fn solve_in_place(&self, rhs: &mut [f64]) -> Result<(), LinearSolveError> {
        let lu = self.numeric.as_ref().expect("factorize before solve");
        let n = rhs.len();
        lu.solve_in_place(faer::MatMut::from_column_major_slice_mut(rhs, n, 1));
        if rhs.iter().any(|v| !v.is_finite()) {
            return Err(LinearSolveError::Numeric("non-finite solution".into()));
        }
        Ok(())
    }
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
}
