//! Solves restricted to the trailing block: many right-hand sides that
//! live on the contact nodes, of which only the contact nodes' entries are
//! wanted (the columns `K⁻¹H` of `W = B K⁻¹ H`).
//!
//! Their solutions are partial, so their residuals cannot be computed; but
//! each is, on the trailing dofs, bit for bit the factors' full solve
//! (the forward solve before the block computes zeros), unrefined. One
//! column, the middle one, is solved in full and its true residual
//! checked against the target: where it misses, all columns take the full
//! solves with refinement (and the fallback) of
//! [`LinearSolver::solve_many_in_place`].

use crate::linalg::error::LinearSolveError;
use crate::linalg::krylov::vector::norm;
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
    /// small pivots in the factorization ([`crate::linalg::LuParams`]), the
    /// fallback's factors, or a sampled column above the target: module
    /// doc) this is [`LinearSolver::solve_many_in_place`]. In both cases
    /// old factors are refactored first, since a Krylov solve per column
    /// costs far more than a factorization once the columns are many
    /// (`docs/decisions/trailing-block-for-w.md`).
    ///
    /// The info's residual is that of the sampled column's full solution.
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
            // many columns: old factors would make each a Krylov solve, so
            // the matrix is factored here as well
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
        let Some(Precond::Lu {
            sym,
            lu,
            x,
            t: tw,
            on_fallback,
            ..
        }) = &mut self.precond
        else {
            unreachable!("checked above");
        };
        if *on_fallback || lu.info().small_pivots > 0 {
            return self.solve_many_in_place(rhs, nrhs);
        }
        // the sample: the middle column's full solution and its residual
        let c = nrhs / 2;
        self.b.clear();
        self.b.extend_from_slice(&rhs[c * n..(c + 1) * n]);
        self.sample.clear();
        self.sample.extend_from_slice(&self.b);
        lu.solve_trailing_rhs_in_place(sym, &mut self.sample, 1, x, tw);
        self.op
            .residual_norms(&self.b, &self.sample, 1, &mut self.norms);
        let residual = self.norms[0] / norm(&self.b).max(f64::MIN_POSITIVE);
        if !(residual <= self.params.rtol) {
            log::debug!(
                "linear solver: restricted solves' sample at relative residual {residual:.1e}: full solves"
            );
            self.stats.solve_seconds += t.elapsed().as_secs_f64();
            return self.solve_many_in_place(rhs, nrhs);
        }
        lu.solve_trailing_in_place(sym, rhs, nrhs, x, tw);
        self.stats.solves += nrhs;
        self.stats.trailing_solves += nrhs;
        self.stats.solve_seconds += t.elapsed().as_secs_f64();
        Ok(SolveInfo {
            iterations: 0,
            residual,
            refactored,
        })
    }
}
