//! Solves restricted to the trailing block: many right-hand sides that
//! live on the contact nodes, of which only the contact nodes' entries are
//! wanted (the columns `K⁻¹H` of `W = B K⁻¹ H`).

use crate::linalg::error::LinearSolveError;
use crate::linalg::lu::SupernodalLu;
use crate::linalg::solver::info::SolveInfo;
use crate::linalg::solver::{LinearSolver, Precond};
use std::time::Instant;

impl LinearSolver {
    /// Solves `A X = B` in place for `nrhs` columns that are zero outside
    /// the dofs `support`, when only the entries of `X` on `support` are
    /// wanted (the columns `K⁻¹H` of which `W = B K⁻¹ H` reads the contact
    /// nodes); the other entries of `rhs` are unspecified on return.
    ///
    /// Where `support` lies in the trailing block of the LU (the volatile
    /// nodes of [`LinearSolver::set_pattern`]) this is the Schur-complement
    /// solve of [`SupernodalLu::solve_trailing_in_place`] with factors of
    /// the current matrix: exact, and on the friction blocks a few percent
    /// of a full solve. Otherwise (no trailing block, `support` outside it,
    /// or pivots below `√ε·max|A|` in the factorization, whose solves may
    /// need refinement) this is [`LinearSolver::solve_many_in_place`]. In
    /// both cases old factors are refactored first, since a Krylov solve per
    /// column costs far more than a factorization once the columns are many
    /// (docs/performance.md; the coarse friction blocks without a trailing
    /// block took 3,365 Krylov iterations and twice the run's CPU).
    pub fn solve_restricted_many_in_place(
        &mut self,
        rhs: &mut [f64],
        nrhs: usize,
        support: &[usize],
    ) -> Result<SolveInfo, LinearSolveError> {
        let n = self.op.n();
        assert_eq!(rhs.len(), n * nrhs, "right-hand sides of another size");
        let inside = match &self.precond {
            Some(Precond::Lu { sym, .. }) => SupernodalLu::trailing_begin(sym)
                .is_some_and(|c0| support.iter().all(|&d| sym.perm().1[d] >= c0)),
            _ => false,
        };
        if !inside {
            // many columns: old factors would make each a Krylov solve
            // (docs/performance.md), so the matrix is factored here as well
            if matches!(
                self.precond,
                Some(Precond::Lu { .. } | Precond::Ldlt { .. })
            ) && !(self.factored && self.fresh)
            {
                self.refactor()?;
            }
            return self.solve_many_in_place(rhs, nrhs);
        }
        let refactored = !(self.factored && self.fresh);
        if refactored {
            self.refactor()?;
        }
        let t = Instant::now();
        let Some(Precond::Lu { sym, lu, x, t: tw }) = &mut self.precond else {
            unreachable!("checked above");
        };
        if lu.small_pivots() > 0 {
            return self.solve_many_in_place(rhs, nrhs);
        }
        lu.solve_trailing_in_place(sym, rhs, nrhs, x, tw);
        self.stats.solves += nrhs;
        self.stats.trailing_solves += nrhs;
        self.stats.solve_seconds += t.elapsed().as_secs_f64();
        Ok(SolveInfo {
            iterations: 0,
            residual: f64::NAN,
            refactored,
        })
    }
}
