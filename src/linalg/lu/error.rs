//! Why a numeric factorization failed.

/// A supernode's diagonal block has no usable pivot (the pivoting within
/// the block, all the LU allows itself, found none), or the caller stopped
/// the factorization.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
pub enum LuError {
    /// An exact zero pivot: the diagonal block of the supernode is
    /// singular (the matrix may still be nonsingular: the pivot it needs
    /// lies outside the block).
    #[error("zero pivot at column {column} of the permuted matrix (supernode {supernode})")]
    ZeroPivot { column: usize, supernode: usize },
    /// A non-finite pivot: a non-finite entry, or growth beyond the range
    /// of `f64`.
    #[error("non-finite pivot at column {column} of the permuted matrix (supernode {supernode})")]
    NonFinite { column: usize, supernode: usize },
    /// Not a property of the matrix: the caller asked to stop
    /// ([`crate::linalg::SupernodalLu::factorize_until`]).
    #[error("stopped on request")]
    Cancelled,
}
