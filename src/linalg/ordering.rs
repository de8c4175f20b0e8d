//! Fill-reducing column orderings for the sparse LU of a `BlockPattern`.
//!
//! The LU factorizes `A Q` with row partial pivoting; `Q` is chosen here from
//! the pattern only. A permutation is stored as `fwd[new] = old` with its
//! inverse (faer's convention).

use super::BlockPattern;
use faer::dyn_stack::{MemBuffer, MemStack};
use faer::sparse::linalg::{amd, colamd};
use faer::sparse::FaerError;

/// Which fill-reducing column ordering the LU uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LuOrdering {
    /// Approximate minimum degree (Amestoy, Davis & Duff 1996) on the node
    /// graph (one vertex per node, an edge per coupled node pair), each node's
    /// `dim` dofs kept together. The pattern is structurally symmetric, so
    /// this is the ordering a Cholesky factorization of it would use; it is
    /// `dim` times smaller than the dof graph and keeps the node blocks whole.
    /// But faer's LU factors within the structure of `AᵀA`, for which an
    /// ordering of `A + Aᵀ` gives about 3× the fill of COLAMD's on 3D hex8
    /// meshes (docs/performance.md).
    NodeAmd,
    /// Approximate minimum degree on the dof graph.
    DofAmd,
    /// COLAMD on the node graph, each node's `dim` dofs kept together: a
    /// `dim²` times smaller matrix to order (symbolic analysis 3× faster),
    /// about the same fill as `Colamd`.
    NodeColamd,
    /// COLAMD (Davis, Gilbert, Larimore & Ng 2004) on the dof matrix: an
    /// ordering for the structure of `AᵀA`, faer's default for sparse LU.
    #[default]
    Colamd,
}

/// The column permutation `(fwd, inv)` of `ordering` for `pattern`.
pub fn column_ordering(
    pattern: &BlockPattern,
    ordering: LuOrdering,
) -> Result<(Vec<usize>, Vec<usize>), FaerError> {
    let n = pattern.n();
    let mut fwd = vec![0usize; n];
    let mut inv = vec![0usize; n];
    match ordering {
        LuOrdering::NodeAmd => {
            let g = pattern.node_graph();
            let nn = pattern.n_nodes();
            let mut node_fwd = vec![0usize; nn];
            let mut node_inv = vec![0usize; nn];
            let nnz = g.row_idx().len();
            let mut mem = MemBuffer::try_new(amd::order_scratch::<usize>(nn, nnz))
                .map_err(|_| FaerError::OutOfMemory)?;
            amd::order(
                &mut node_fwd,
                &mut node_inv,
                g,
                amd::Control::default(),
                MemStack::new(&mut mem),
            )?;
            expand_nodes(&node_fwd, pattern.dim(), &mut fwd);
        }
        LuOrdering::NodeColamd => {
            let g = pattern.node_graph();
            let nn = pattern.n_nodes();
            let mut node_fwd = vec![0usize; nn];
            let mut node_inv = vec![0usize; nn];
            let nnz = g.row_idx().len();
            let mut mem = MemBuffer::try_new(colamd::order_scratch::<usize>(nn, nn, nnz))
                .map_err(|_| FaerError::OutOfMemory)?;
            colamd::order(
                &mut node_fwd,
                &mut node_inv,
                g,
                colamd::Control::default(),
                MemStack::new(&mut mem),
            )?;
            expand_nodes(&node_fwd, pattern.dim(), &mut fwd);
        }
        LuOrdering::DofAmd => {
            let a = pattern.symbolic();
            let nnz = a.row_idx().len();
            let mut mem = MemBuffer::try_new(amd::order_scratch::<usize>(n, nnz))
                .map_err(|_| FaerError::OutOfMemory)?;
            amd::order(
                &mut fwd,
                &mut inv,
                a,
                amd::Control::default(),
                MemStack::new(&mut mem),
            )?;
        }
        LuOrdering::Colamd => {
            let a = pattern.symbolic();
            let nnz = a.row_idx().len();
            let mut mem = MemBuffer::try_new(colamd::order_scratch::<usize>(n, n, nnz))
                .map_err(|_| FaerError::OutOfMemory)?;
            colamd::order(
                &mut fwd,
                &mut inv,
                a,
                colamd::Control::default(),
                MemStack::new(&mut mem),
            )?;
        }
    }
    for (k, &j) in fwd.iter().enumerate() {
        inv[j] = k;
    }
    Ok((fwd, inv))
}

/// The dof permutation that keeps each node's `d` dofs together in the order
/// of the node permutation `node_fwd`.
fn expand_nodes(node_fwd: &[usize], d: usize, fwd: &mut [usize]) {
    for (k, &a) in node_fwd.iter().enumerate() {
        for i in 0..d {
            fwd[k * d + i] = a * d + i;
        }
    }
}
