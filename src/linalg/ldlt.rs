//! `LDLᵀ` factorization of a symmetric matrix on a [`SymbolicFactor`]:
//! faer's supernodal numeric LDLᵀ (left-looking, no pivoting; Ng & Peyton
//! 1993) with the fill-reducing ordering of the symbolic analysis, and its
//! solves (one or many right-hand sides, blocked).
//!
//! Used for the consistent mass matrix (symmetric positive definite) and
//! the symmetric tangents of frictionless Newmark. Reads the lower triangle
//! of the matrix only.

use crate::linalg::lu::symbolic::SymbolicFactor;
use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::cholesky::ldlt::factor::LdltRegularization;
use faer::sparse::linalg::cholesky::LdltRef;
use faer::sparse::{SparseColMatRef, SymbolicSparseColMatRef};
use faer::{Conj, MatMut, Par, Side};

/// A zero pivot, or a factorization that could not run.
#[derive(Debug, Clone, thiserror::Error)]
#[error("LDLᵀ: {0}")]
pub struct LdltFailure(pub String);

/// The numeric `LDLᵀ` factor.
pub struct SparseLdlt {
    values: Vec<f64>,
    factor_scratch: MemBuffer,
    /// Solve scratch and the number of right-hand sides it holds.
    solve_scratch: (usize, MemBuffer),
}

impl SparseLdlt {
    /// Allocates the factor of `sym`.
    pub fn new(sym: &SymbolicFactor) -> SparseLdlt {
        let chol = sym.cholesky();
        SparseLdlt {
            values: vec![0.0; chol.len_val()],
            factor_scratch: MemBuffer::new(
                chol.factorize_numeric_ldlt_scratch::<f64>(Par::Seq, Default::default()),
            ),
            solve_scratch: (
                1,
                MemBuffer::new(chol.solve_in_place_scratch::<f64>(1, Par::Seq)),
            ),
        }
    }

    /// Factorizes the symmetric matrix with values `val` on `pattern`
    /// (only its lower triangle is read).
    pub fn factorize(
        &mut self,
        sym: &SymbolicFactor,
        pattern: SymbolicSparseColMatRef<'_, usize>,
        val: &[f64],
    ) -> Result<(), LdltFailure> {
        let a = SparseColMatRef::new(pattern, val);
        sym.cholesky()
            .factorize_numeric_ldlt(
                &mut self.values,
                a,
                Side::Lower,
                LdltRegularization::default(),
                Par::Seq,
                MemStack::new(&mut self.factor_scratch),
                Default::default(),
            )
            .map_err(|e| LdltFailure(format!("{e:?}")))?;
        if self.values.iter().any(|v| !v.is_finite()) {
            return Err(LdltFailure("non-finite factor (a zero pivot)".into()));
        }
        Ok(())
    }

    /// Solves `A X = B` in place for the `nrhs` columns of `rhs` (column-major).
    pub fn solve_in_place(&mut self, sym: &SymbolicFactor, rhs: &mut [f64], nrhs: usize) {
        let n = sym.n();
        assert_eq!(rhs.len(), n * nrhs, "right-hand sides of another size");
        if self.solve_scratch.0 < nrhs {
            let req = sym.cholesky().solve_in_place_scratch::<f64>(nrhs, Par::Seq);
            self.solve_scratch = (nrhs, MemBuffer::new(req));
        }
        LdltRef::new(sym.cholesky(), &self.values).solve_in_place_with_conj(
            Conj::No,
            MatMut::from_column_major_slice_mut(rhs, n, nrhs),
            Par::Seq,
            MemStack::new(&mut self.solve_scratch.1),
        );
    }
}
