//! The chord iteration of [`LinearSolver`]: a new trailing (contact) block
//! on the factors of the last full factorization
//! ([`LinearSolver::update_trailing`]), and the flops that tell the caller
//! whether that pays ([`LinearSolver::factor_flops`];
//! `docs/decisions/chord-iterations.md`).

use crate::linalg::error::LinearSolveError;
use crate::linalg::solver::{LinearSolver, Precond};
use std::time::Instant;

impl LinearSolver {
    /// LU flops of a full factorization and of a refactorization of the
    /// trailing block alone (0 without one) on the current pattern; `None`
    /// off the direct LU path.
    pub fn factor_flops(&self) -> Option<(f64, f64)> {
        match &self.precond {
            Some(Precond::Lu { sym, .. }) => Some((sym.size().lu_flops, sym.trailing_flops())),
            _ => None,
        }
    }

    /// Takes the trailing diagonal block (the contact nodes ordered last,
    /// [`LinearSolver::set_pattern`]) of the matrix with values `values`
    /// and refactors that block alone: the solver's matrix becomes `K̃`,
    /// the last fully factored matrix with this trailing block, and its
    /// factors are fresh factors of `K̃` (every later solve is exact for
    /// `K̃` and checked against it). The entries of `values` outside the
    /// block are not read. This is the chord iteration of the contact
    /// Newton ([`crate::dynamics`]): the contact terms, which change most
    /// from one iteration to the next, are current, the bodies' stiffness
    /// is that of an earlier iterate.
    ///
    /// Returns `Ok(false)` and changes nothing where that is not possible:
    /// no trailing block, no full factorization of the current pattern in
    /// this step ([`LinearSolver::begin_step`]), or a matrix given by
    /// [`LinearSolver::update`] since.
    pub fn update_trailing(&mut self, values: &[f64]) -> Result<bool, LinearSolveError> {
        assert_eq!(
            values.len(),
            self.op.values.len(),
            "values of another pattern"
        );
        let Some(Precond::Lu {
            sym,
            lu,
            on_fallback: false,
            ..
        }) = &mut self.precond
        else {
            return Ok(false);
        };
        if !(self.factored && self.intact) || sym.split().is_none() {
            return Ok(false);
        }
        let t = Instant::now();
        for k in lu.trailing_entries() {
            let v = values[k];
            if !v.is_finite() {
                return Err(LinearSolveError::Numeric("non-finite matrix entry".into()));
            }
            self.op.values[k] = v;
        }
        let result = lu.refactor_trailing(sym, &self.op.values, self.params.lu);
        self.stats.trailing_refactorizations += 1;
        self.stats.factor_seconds += t.elapsed().as_secs_f64();
        if result.is_err() {
            // no pivot within the block's supernodes: `K̃` is factored whole
            // (by the fallback where the supernodal LU fails again)
            self.refactor()?;
            return Ok(true);
        }
        self.trailing_factored();
        self.fresh = true;
        self.pending = false;
        Ok(true)
    }
}
