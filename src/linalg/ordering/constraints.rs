//! The node ordering under constraints: nodes placed last in a given order
//! (the volatile contact nodes, whose trailing block is refactored alone),
//! the rest by the fill-reducing ordering of the graph without them.

use crate::linalg::ordering::nodes::{node_ordering, FillOrdering, OrderingError};
use faer::sparse::{SymbolicSparseColMat, SymbolicSparseColMatRef};

/// The node ordering of `g` with the nodes `last` (sorted, distinct)
/// ordered last, in their given order, and the rest by `ordering` on the
/// graph without them.
pub fn ordering_with_last(
    g: SymbolicSparseColMatRef<'_, usize>,
    ordering: FillOrdering,
    last: &[usize],
) -> Result<(Vec<usize>, FillOrdering), OrderingError> {
    if last.is_empty() {
        return node_ordering(g, ordering);
    }
    let nn = g.ncols();
    let mut keep = vec![usize::MAX; nn];
    let mut kept = Vec::with_capacity(nn);
    let mut is_last = vec![false; nn];
    last.iter().for_each(|&a| is_last[a] = true);
    for a in (0..nn).filter(|&a| !is_last[a]) {
        keep[a] = kept.len();
        kept.push(a);
    }
    let mut col_ptr = vec![0usize];
    let mut row_idx = Vec::new();
    for &a in &kept {
        row_idx.extend(
            g.row_idx_of_col(a)
                .filter(|&b| !is_last[b])
                .map(|b| keep[b]),
        );
        col_ptr.push(row_idx.len());
    }
    let sub = SymbolicSparseColMat::new_checked(kept.len(), kept.len(), col_ptr, None, row_idx);
    let (fwd, used) = node_ordering(sub.as_ref(), ordering)?;
    let mut out: Vec<usize> = fwd.iter().map(|&k| kept[k]).collect();
    out.extend_from_slice(last);
    Ok((out, used))
}
