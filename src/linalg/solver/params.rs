//! The options of a [`crate::linalg::LinearSolver`], with their defaults
//! and reasons.

use crate::linalg::lu::params::LuParams;
use crate::linalg::ordering::nodes::FillOrdering;

/// `[solver] linear`: how the linear systems are solved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LinearMethod {
    /// Sparse factorization (symmetric-pattern LU, or LDLᵀ when symmetric).
    Direct,
    /// Preconditioned Krylov method, no factorization.
    Iterative,
    /// Direct when the estimated factors fit in half the available memory.
    #[default]
    Auto,
}

/// Options of a [`crate::linalg::LinearSolver`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LinearParams {
    pub method: LinearMethod,
    /// The matrices are symmetric (mass matrix, frictionless Newmark): LDLᵀ and CG.
    pub symmetric: bool,
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
    /// The supernodal LU's options.
    pub lu: LuParams,
}

impl Default for LinearParams {
    fn default() -> Self {
        LinearParams {
            method: LinearMethod::Auto,
            symmetric: false,
            ordering: FillOrdering::Auto,
            rtol: 1e-12,
            reuse_iterations: None,
            max_iterations: 3000,
            restart: 30,
            memory_budget: None,
            lu: LuParams::default(),
        }
    }
}
