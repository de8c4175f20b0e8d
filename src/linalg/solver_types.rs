//! The options, counters and per-solve report of
//! [`crate::linalg::LinearSolver`].

use super::plan::LinearMethod;
use super::symbolic::FillOrdering;

/// Which factorization the direct path uses for an unsymmetric matrix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Factorization {
    /// LU of the matrix itself, pivoting within supernodes (option (a) of
    /// issue 12; the default, docs/performance.md says why).
    #[default]
    Lu,
    /// LDLᵀ of the symmetric part `(A + Aᵀ)/2`, always used as a GMRES
    /// preconditioner (option (b)).
    SymmetricPart,
}

/// Options of a [`LinearSolver`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LinearParams {
    pub method: LinearMethod,
    /// The matrices are symmetric (mass matrix, frictionless Newmark): LDLᵀ and CG.
    pub symmetric: bool,
    pub factorization: Factorization,
    pub ordering: FillOrdering,
    /// Target relative residual of every solve (default 1e-12).
    pub rtol: f64,
    /// Krylov iterations allowed with factors of an earlier matrix before
    /// the current one is factored; `None` (default): from the work model,
    /// `F / I` clamped to 10..=300; `Some(0)`: factor every matrix.
    pub reuse_iterations: Option<usize>,
    /// Krylov iterations allowed on the iterative path (default 3000).
    pub max_iterations: usize,
    /// GMRES restart length (default 30).
    pub restart: usize,
    /// Bytes the direct factors may take under `Auto`; `None`: half of the
    /// memory available when the solver is built.
    pub memory_budget: Option<f64>,
}

impl Default for LinearParams {
    fn default() -> Self {
        LinearParams {
            method: LinearMethod::Auto,
            symmetric: false,
            factorization: Factorization::Lu,
            ordering: FillOrdering::Auto,
            rtol: 1e-12,
            reuse_iterations: None,
            max_iterations: 3000,
            restart: 30,
            memory_budget: None,
        }
    }
}

/// Counters, summed over the solver's life (pattern changes included).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct LinearStats {
    pub symbolic_analyses: usize,
    /// Numeric factorizations (direct path only).
    pub factorizations: usize,
    /// Refactorizations of the trailing (contact) block alone.
    pub trailing_refactorizations: usize,
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
    /// Largest true relative residual over the right-hand sides (NaN for a
    /// solve restricted to the trailing block, whose solution is partial).
    pub residual: f64,
    /// The matrix was factored during this solve.
    pub refactored: bool,
}
