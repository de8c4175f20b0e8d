//! Postorder of an elimination tree: the renumbering that makes every
//! subtree a contiguous range of columns, which the parallel factorization
//! of disjoint subtrees needs ([`crate::linalg::lu::subtrees`]).

use faer::sparse::SymbolicSparseColMatRef;

/// The fill ordering `fwd` (`fwd[new] = old`) of the symmetric graph `g`
/// renumbered in a postorder of its elimination tree (Liu 1990, *The role
/// of elimination trees in sparse factorization*, SIAM J. Matrix Anal.
/// Appl. 11(1)): the same fill and work, and every subtree a contiguous
/// range, which [`crate::linalg::lu::subtrees::partition`] needs. METIS's and AMD's orderings are not
/// postorders (on an 11³-cell grid 239 of 436 supernodal subtrees were
/// not contiguous).
pub fn postorder(g: SymbolicSparseColMatRef<'_, usize>, fwd: &[usize]) -> Vec<usize> {
    const NONE: usize = usize::MAX;
    let n = fwd.len();
    let mut inv = vec![0usize; n];
    for (k, &a) in fwd.iter().enumerate() {
        inv[a] = k;
    }
    // elimination tree in the new numbering, with path compression
    let mut parent = vec![NONE; n];
    let mut ancestor = vec![NONE; n];
    for k in 0..n {
        for j in g.row_idx_of_col(fwd[k]) {
            let mut r = inv[j];
            if r >= k {
                continue;
            }
            while ancestor[r] != NONE && ancestor[r] != k {
                let next = ancestor[r];
                ancestor[r] = k;
                r = next;
            }
            if ancestor[r] == NONE {
                ancestor[r] = k;
                parent[r] = k;
            }
        }
    }
    // children lists (ascending), then a depth-first postorder from the roots
    let mut head = vec![NONE; n];
    let mut next = vec![NONE; n];
    for k in (0..n).rev() {
        if parent[k] != NONE {
            next[k] = head[parent[k]];
            head[parent[k]] = k;
        }
    }
    let mut out = Vec::with_capacity(n);
    let mut stack = Vec::new();
    for root in (0..n).filter(|&k| parent[k] == NONE) {
        stack.push(root);
        while let Some(&top) = stack.last() {
            let c = head[top];
            if c == NONE {
                stack.pop();
                out.push(fwd[top]);
            } else {
                head[top] = next[c];
                stack.push(c);
            }
        }
    }
    out
}
