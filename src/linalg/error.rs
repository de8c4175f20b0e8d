//! Why a linear solve failed.

use crate::linalg::krylov::params::KrylovError;

/// A symbolic analysis, factorization or solve failed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum LinearSolveError {
    #[error("symbolic analysis failed: {0}")]
    Symbolic(String),
    #[error("singular or non-finite matrix: {0}")]
    Numeric(String),
    /// The solve did not reach its residual target (true residual of `A`).
    #[error("{0}")]
    NoConvergence(#[from] KrylovError),
    /// A direct factorization would not fit in memory.
    #[error(
        "the direct factorization of this model needs about {:.1} GB, more than the {:.1} GB of memory available; use [solver] linear = \"iterative\" (or \"auto\")",
        bytes / 1e9,
        available / 1e9
    )]
    TooLarge { bytes: f64, available: f64 },
    /// The caller asked to stop during a factorization
    /// ([`crate::linalg::LinearSolver::set_stop`]).
    #[error("factorization stopped on request")]
    Cancelled,
}
