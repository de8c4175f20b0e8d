//! The node ordering under constraints ([`OrderConstraints`]): nodes placed
//! last in a given order (the volatile contact nodes, whose trailing block
//! is refactored alone), pseudo-nodes placed right after their anchors (the
//! multipliers of contact points), the rest by the fill-reducing ordering.

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

/// Constraints on the node ordering of a pattern.
#[derive(Debug, Clone, Copy, Default)]
pub struct OrderConstraints<'a> {
    /// Nodes ordered last, in this order (sorted, distinct): the volatile
    /// contact nodes, whose trailing block is refactored alone.
    pub last: &'a [usize],
    /// `(node, anchor)` pairs: `node` is a pseudo-node (a contact point's
    /// multiplier block, coupled to a few nodes, its diagonal block possibly
    /// exactly zero) placed immediately after `anchor`, several after one
    /// anchor in the order given. A pseudo-node is no anchor and is anchored
    /// once; listed in `last` as well, it follows its anchor all the same.
    pub anchored: &'a [(usize, usize)],
}

/// The node ordering of `g` under `c`: the pseudo-nodes are left out of the
/// graph the fill-reducing ordering sees, merged into their anchors (an
/// anchor's adjacency takes its pseudo-nodes'), the nodes `c.last` are
/// ordered last ([`ordering_with_last`]), and each pseudo-node is put
/// immediately after its anchor.
///
/// With the anchor coupled to its pseudo-nodes' neighbours in the pattern
/// analysed ([`anchor_couplings`]), a pseudo-node's column structure after
/// the anchor's elimination is the anchor's minus itself, so anchor and
/// pseudo-nodes form one fundamental supernode: the LU pivots a zero
/// diagonal of the pseudo-node within that supernode's diagonal block.
#[track_caller]
pub fn constrained_ordering(
    g: SymbolicSparseColMatRef<'_, usize>,
    ordering: FillOrdering,
    c: OrderConstraints<'_>,
) -> Result<(Vec<usize>, FillOrdering), OrderingError> {
    if c.anchored.is_empty() {
        return ordering_with_last(g, ordering, c.last);
    }
    const NONE: usize = usize::MAX;
    let nn = g.ncols();
    let mut anchor = vec![NONE; nn];
    for &(p, a) in c.anchored {
        assert!(
            p < nn && a < nn && p != a,
            "pseudo-node {p} anchored to {a}"
        );
        assert!(anchor[p] == NONE, "pseudo-node {p} anchored twice");
        anchor[p] = a;
    }
    for &(_, a) in c.anchored {
        assert!(anchor[a] == NONE, "anchor {a} is itself a pseudo-node");
    }
    // the merged graph, on the nodes that are no pseudo-node
    let mut idx = vec![NONE; nn];
    let mut kept = Vec::with_capacity(nn);
    for v in (0..nn).filter(|&v| anchor[v] == NONE) {
        idx[v] = kept.len();
        kept.push(v);
    }
    let rep = |v: usize| idx[if anchor[v] == NONE { v } else { anchor[v] }];
    let mut adj: Vec<Vec<usize>> = vec![Vec::new(); kept.len()];
    for v in 0..nn {
        let rv = rep(v);
        adj[rv].extend(g.row_idx_of_col(v).map(rep));
    }
    let mut col_ptr = Vec::with_capacity(kept.len() + 1);
    let mut row_idx = Vec::new();
    col_ptr.push(0);
    for mut l in adj {
        l.sort_unstable();
        l.dedup();
        row_idx.extend(l);
        col_ptr.push(row_idx.len());
    }
    let merged = SymbolicSparseColMat::new_checked(kept.len(), kept.len(), col_ptr, None, row_idx);
    let last: Vec<usize> = c
        .last
        .iter()
        .filter(|&&v| anchor[v] == NONE)
        .map(|&v| idx[v])
        .collect();
    let (fwd, used) = ordering_with_last(merged.as_ref(), ordering, &last)?;
    let mut followers: Vec<Vec<usize>> = vec![Vec::new(); kept.len()];
    for &(p, a) in c.anchored {
        followers[idx[a]].push(p);
    }
    let mut out = Vec::with_capacity(nn);
    for k in fwd {
        out.push(kept[k]);
        out.extend_from_slice(&followers[k]);
    }
    Ok((out, used))
}

/// The couplings an analysis with anchored pseudo-nodes adds to the
/// pattern (explicit zeros): each anchor to its pseudo-nodes and to their
/// neighbours in `g`.
pub fn anchor_couplings<'a>(
    g: SymbolicSparseColMatRef<'a, usize>,
    anchored: &'a [(usize, usize)],
) -> impl Iterator<Item = (usize, usize)> + 'a {
    anchored.iter().flat_map(move |&(p, a)| {
        g.row_idx_of_col(p)
            .filter(move |&q| q != a)
            .map(move |q| (a, q))
            .chain(std::iter::once((a, p)))
    })
}
