//! When to refactor: a work model of the direct path, in modelled seconds
//! rather than clock time, so that a run's decisions (and its results) do
//! not depend on the machine's load.
//!
//! A factorization costs `F = flops / FACTOR_RATE`; a Krylov iteration
//! `I` = the bytes it reads (the factors, `A`, the Krylov basis) at
//! `MEMORY_RATE`; a refactorization of the trailing (contact) block only
//! its flops. Since the last factorization the solver sums the cost of the
//! cycle, `F + Σ (1 + k_j) I` over its solves. The first solve after a new
//! matrix keeps the old factors as its GMRES preconditioner while the last
//! solve cost no more than the cycle's average per solve (the marginal cost
//! of keeping the old factors has not passed the average cost of
//! refactoring) and a factorization costs more than [`MIN_REUSE_RATIO`]
//! iterations; a solve with old factors gives up and refactors after
//! `F / I` iterations, so a failed attempt costs at most one factorization
//! (`docs/decisions/reuse-work-model.md`).

use crate::linalg::lu::symbolic::FactorSize;

/// Old factors are kept only where a factorization costs more than this
/// many Krylov iterations: on small systems refactoring is cheaper than
/// the iterations a reuse needs.
const MIN_REUSE_RATIO: f64 = 4.0;

/// Flops per second of a factorization and bytes per second of the
/// memory-bound solves and products, one thread. Only their ratio matters:
/// it puts a factorization at about 22 Krylov iterations on the 18,546-dof
/// friction blocks and 95 on the 166k-dof free flight
/// (`docs/decisions/reuse-work-model.md`).
const FACTOR_RATE: f64 = 35e9;
const MEMORY_RATE: f64 = 10e9;

/// The modelled costs of the current pattern and the ledger of the cycle
/// since the last factorization.
#[derive(Debug, Clone, Default)]
pub struct WorkModel {
    /// A full factorization, a trailing-block refactorization, a Krylov iteration.
    factor: f64,
    trailing: f64,
    iteration: f64,
    /// A trailing refactorization done since the last solve, not yet charged.
    pending: f64,
    /// Since the last factorization: cost (factorization included), solves,
    /// and the cost per right-hand side of the last solve.
    cycle: f64,
    cycle_solves: usize,
    last_solve: f64,
}

impl WorkModel {
    /// The costs of a pattern: its factor `size` (an LDLᵀ, `ldlt`, costs
    /// half the flops and its solve reads `L` twice), the flops of its
    /// trailing block, `nnz` stored entries of `A`, a Krylov basis of
    /// `restart` vectors. The cycle's ledger is kept.
    pub fn set_costs(
        &mut self,
        size: FactorSize,
        ldlt: bool,
        trailing_flops: f64,
        nnz: usize,
        restart: usize,
    ) {
        let (flops, entries) = if ldlt {
            (0.5 * size.lu_flops, 2 * size.l_entries)
        } else {
            (size.lu_flops, size.lu_entries)
        };
        self.factor = flops / FACTOR_RATE;
        self.trailing = trailing_flops / FACTOR_RATE;
        // bytes read: the factors, A (values and row indices), the Krylov basis
        let basis = restart as f64 * size.n as f64;
        self.iteration = 8.0 * (entries as f64 + 2.0 * nnz as f64 + basis) / MEMORY_RATE;
    }

    /// The modelled seconds of a full factorization and of a Krylov iteration.
    pub fn costs(&self) -> (f64, f64) {
        (self.factor, self.iteration)
    }

    /// Krylov iterations a solve with old factors may take: `given`, or
    /// `F / I` clamped to 10..=300.
    pub fn reuse_limit(&self, given: Option<usize>) -> usize {
        given.unwrap_or_else(|| {
            let r = self.factor / self.iteration.max(f64::MIN_POSITIVE);
            r.clamp(10.0, 300.0) as usize
        })
    }

    /// Whether the next solve keeps the old factors (module doc).
    pub fn keep_old_factors(&self, given: Option<usize>) -> bool {
        self.reuse_limit(given) > 0
            && self.factor > MIN_REUSE_RATIO * self.iteration
            && self.last_solve * self.cycle_solves as f64 <= self.cycle
    }

    /// A full factorization starts a new cycle.
    pub fn factored(&mut self) {
        self.cycle = self.factor;
        self.cycle_solves = 0;
        self.pending = 0.0;
        self.last_solve = 0.0;
    }

    /// A trailing-block refactorization, charged to the next solve.
    pub fn refactored_trailing(&mut self) {
        self.pending += self.trailing;
    }

    /// A solve of `nrhs` right-hand sides that took `iterations` Krylov
    /// iterations.
    pub fn solved(&mut self, nrhs: usize, iterations: usize) {
        let cost = (nrhs + iterations) as f64 * self.iteration + std::mem::take(&mut self.pending);
        self.cycle += cost;
        self.cycle_solves += nrhs;
        self.last_solve = cost / nrhs as f64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model() -> WorkModel {
        let size = FactorSize {
            n: 1000,
            l_entries: 50_000,
            lu_entries: 99_000,
            lu_flops: 1e9,
        };
        let mut w = WorkModel::default();
        w.set_costs(size, false, 1e8, 30_000, 30);
        w.factored();
        w
    }

    #[test]
    fn old_factors_are_kept_while_the_last_solve_costs_no_more_than_the_average() {
        let mut w = model();
        // F = 1e9 / 35e9 s, I = 8 (99k + 60k + 30k) / 10e9 s: F / I ≈ 189
        assert_eq!(w.reuse_limit(None), 188);
        assert_eq!(w.reuse_limit(Some(7)), 7);
        w.solved(1, 0);
        assert!(w.keep_old_factors(None), "a fresh solve costs less than F");
        // a solve of 200 iterations, 201 I: more than the cycle's average
        // per solve, (F + 202 I) / 2 ≈ 195 I
        w.solved(1, 200);
        assert!(!w.keep_old_factors(None));
        // a new cycle
        w.factored();
        w.solved(1, 5);
        assert!(w.keep_old_factors(None));
        // a pending trailing refactorization is charged to the next solve
        w.refactored_trailing();
        w.solved(1, 0);
        assert!(w.last_solve > w.iteration);
    }

    #[test]
    fn small_systems_are_always_refactored() {
        let mut w = WorkModel::default();
        let size = FactorSize {
            n: 10,
            l_entries: 30,
            lu_entries: 50,
            lu_flops: 500.0,
        };
        w.set_costs(size, false, 0.0, 100, 30);
        w.factored();
        w.solved(1, 0);
        assert!(!w.keep_old_factors(None));
    }
}
