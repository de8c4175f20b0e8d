//! The fill-reducing ordering of a node graph: nested dissection or
//! minimum degree by size ([`FillOrdering`]), renumbered in a postorder of
//! its elimination tree.

use crate::linalg::ordering::amd::minimum_degree;
use crate::linalg::ordering::metis::{nested_dissection, MetisError};
use crate::linalg::ordering::postorder::postorder;
use faer::sparse::{FaerError, SymbolicSparseColMatRef};

/// Fill-reducing ordering of the node graph for the symmetric-pattern
/// factorizations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FillOrdering {
    /// Nested dissection (METIS `NodeND`, Karypis & Kumar 1998).
    Metis,
    /// Approximate minimum degree (Amestoy, Davis & Duff 1996, faer's).
    Amd,
    /// AMD below [`METIS_MIN_NODES`] nodes, METIS from there on.
    #[default]
    Auto,
}

/// Node count from which `FillOrdering::Auto` takes METIS instead of AMD:
/// from about 500 nodes the flops METIS saves repay its longer ordering
/// within two factorizations (`docs/decisions/metis-crossover.md`).
pub const METIS_MIN_NODES: usize = 500;

/// Why a graph could not be ordered.
#[derive(Debug, Clone, thiserror::Error)]
pub enum OrderingError {
    #[error("{0}")]
    Metis(#[from] MetisError),
    #[error("minimum degree: {0:?}")]
    Faer(FaerError),
}

impl From<FaerError> for OrderingError {
    fn from(e: FaerError) -> Self {
        OrderingError::Faer(e)
    }
}

/// The node permutation (`fwd[new] = old`) of `ordering` for the node graph
/// `g`, postordered, and the ordering used (`Auto` resolved).
pub fn node_ordering(
    g: SymbolicSparseColMatRef<'_, usize>,
    ordering: FillOrdering,
) -> Result<(Vec<usize>, FillOrdering), OrderingError> {
    let ordering = match ordering {
        FillOrdering::Auto if g.ncols() >= METIS_MIN_NODES => FillOrdering::Metis,
        FillOrdering::Auto => FillOrdering::Amd,
        o => o,
    };
    let fwd = match ordering {
        FillOrdering::Metis => nested_dissection(g)?,
        _ => minimum_degree(g)?,
    };
    Ok((postorder(g, &fwd), ordering))
}
