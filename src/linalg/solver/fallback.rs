//! The fallback of the supernodal LU: where its pivoting, restricted to
//! each supernode's diagonal block, finds no pivot (an exact zero pivot of
//! a nonsingular matrix) or leaves factors whose refinement stalls above
//! the residual contract, the matrix is factored by faer's LU with partial
//! pivoting over whole columns ([`SparseLu`]) instead of failing the step.
//! Its fill is about three times the supernodal LU's and its
//! factorization slower by as much (`docs/decisions/own-supernodal-lu.md`),
//! so it serves that matrix only: the next matrix is factored by the
//! supernodal LU again.

use crate::linalg::error::LinearSolveError;
use crate::linalg::lu::fallback::SparseLu;
use crate::linalg::solver::{LinearSolver, Precond};

impl LinearSolver {
    /// Factors the current matrix with faer's LU (analysing the pattern on
    /// first use) and makes its factors the current ones; `why` is logged.
    pub(super) fn factor_fallback(&mut self, why: &str) -> Result<(), LinearSolveError> {
        let Some(Precond::Lu {
            fallback,
            on_fallback,
            ..
        }) = &mut self.precond
        else {
            unreachable!("the fallback is the supernodal LU's");
        };
        log::info!("linear solver: {why}: factored by faer's LU instead");
        *on_fallback = false;
        let lu = match fallback {
            Some(lu) => lu,
            None => fallback.insert(SparseLu::new(&self.op.pattern)?),
        };
        lu.factorize(&self.op.pattern, &self.op.values)?;
        *on_fallback = true;
        self.stats.fallback_factorizations += 1;
        Ok(())
    }

    /// The current factors are faer's LU (the supernodal LU's factors are
    /// not usable, so its trailing-block solves and refactorizations are not
    /// either).
    pub(super) fn on_fallback(&self) -> bool {
        matches!(
            self.precond,
            Some(Precond::Lu {
                on_fallback: true,
                ..
            })
        )
    }
}
