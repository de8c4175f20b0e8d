//! Why a numeric factorization failed.

/// The diagonal block of a supernode is singular (a zero or non-finite pivot).
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[error("zero or non-finite pivot at column {column} of the permuted matrix")]
pub struct ZeroPivot {
    pub column: usize,
}
