//! The size of a factorization estimated from the node graph alone, before
//! any dof pattern is built: what [`crate::linalg::solver::plan`] weighs
//! against the memory available.

use crate::linalg::lu::symbolic::{FactorSize, SymbolicError};
use crate::linalg::ordering::nodes::{node_ordering, FillOrdering};
use faer::dyn_stack::{MemBuffer, MemStack};
use faer::sparse::linalg::cholesky::simplicial;
use faer::sparse::{FaerError, SymbolicSparseColMatRef};

/// The factor size of the symmetric-pattern factorization of a pattern with
/// node graph `g` and `dim` dofs per node, without building the dof pattern:
/// the column counts of the node-level Cholesky factor (faer's elimination
/// tree and column counts) expanded to `dim × dim` blocks. No supernode
/// amalgamation is counted (it adds a few percent of explicit zeros).
pub fn estimate(
    g: SymbolicSparseColMatRef<'_, usize>,
    dim: usize,
    ordering: FillOrdering,
) -> Result<(FactorSize, FillOrdering), SymbolicError> {
    let nn = g.ncols();
    let (fwd, used) = node_ordering(g, ordering)?;
    let mut inv = vec![0usize; nn];
    for (k, &a) in fwd.iter().enumerate() {
        inv[a] = k;
    }
    // the upper triangle of the permuted node graph, column by column
    let mut cols: Vec<Vec<usize>> = vec![Vec::new(); nn];
    for b in 0..nn {
        for a in g.row_idx_of_col(b) {
            let (i, j) = (inv[a], inv[b]);
            if i <= j {
                cols[j].push(i);
            }
        }
    }
    let mut col_ptr = Vec::with_capacity(nn + 1);
    let mut row_idx = Vec::new();
    col_ptr.push(0);
    for mut c in cols {
        c.sort_unstable();
        row_idx.extend(c);
        col_ptr.push(row_idx.len());
    }
    let upper = faer::sparse::SymbolicSparseColMat::new_checked(nn, nn, col_ptr, None, row_idx);
    let mut etree = vec![0isize; nn];
    let mut counts = vec![0usize; nn];
    let mut mem = MemBuffer::try_new(simplicial::prefactorize_symbolic_cholesky_scratch::<usize>(
        nn,
        upper.row_idx().len(),
    ))
    .map_err(|_| FaerError::OutOfMemory)?;
    simplicial::prefactorize_symbolic_cholesky(
        &mut etree,
        &mut counts,
        upper.as_ref(),
        MemStack::new(&mut mem),
    );
    let mut l_entries = 0usize;
    let mut flops = 0.0;
    for &c in &counts {
        // node column with c node rows (diagonal included) → dim dof
        // columns with dim·c − t entries (t = 0..dim), c_j = dim·c − t − 1 below
        for t in 0..dim {
            l_entries += dim * c - t;
            let below = (dim * c - t - 1) as f64;
            flops += below + 2.0 * below * below;
        }
    }
    Ok((
        FactorSize {
            n: nn * dim,
            l_entries,
            lu_entries: 2 * l_entries - nn * dim,
            lu_flops: flops,
        },
        used,
    ))
}
