//! What a [`crate::linalg::LinearSolver`] did: its counters over its life,
//! and the report of one solve.

/// Counters, summed over the solver's life (pattern changes included).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct LinearStats {
    pub symbolic_analyses: usize,
    /// Numeric factorizations (direct path only).
    pub factorizations: usize,
    /// Refactorizations of the trailing (contact) block alone.
    pub trailing_refactorizations: usize,
    /// Of the factorizations, those by faer's LU, the supernodal LU's
    /// fallback (a zero pivot in a supernode block, or a refinement that
    /// stalled above the residual contract).
    pub fallback_factorizations: usize,
    /// Right-hand sides solved.
    pub solves: usize,
    /// Of those, solved on the trailing block alone
    /// ([`crate::linalg::LinearSolver::solve_restricted_many_in_place`]).
    pub trailing_solves: usize,
    /// Krylov iterations over all solves.
    pub krylov_iterations: usize,
    pub symbolic_seconds: f64,
    /// Numeric factorizations, and on the iterative path the preconditioner set-up.
    pub factor_seconds: f64,
    /// Time in solves (triangular solves, products, Krylov), refactorizations excluded.
    pub solve_seconds: f64,
}

/// What one (multi-)solve did.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SolveInfo {
    pub iterations: usize,
    /// Largest true relative residual over the right-hand sides; for a
    /// solve restricted to the trailing block (whose solutions are
    /// partial), that of its sampled column's full solution.
    pub residual: f64,
    /// The matrix was factored during this solve.
    pub refactored: bool,
}
