//! Block CSC sparsity pattern of a nodal system with `dim` dofs per node.

use faer::sparse::{SymbolicSparseColMat, SymbolicSparseColMatRef};

/// CSC pattern of an `n·dim` square matrix whose nonzeros come in `dim×dim`
/// node blocks. Dof `a·dim + i` belongs to node `a`, component `i`. Within each
/// column, rows are sorted, and the `dim` rows of one node are contiguous.
#[derive(Debug, Clone)]
pub struct BlockPattern {
    dim: usize,
    n_nodes: usize,
    /// Node-level adjacency (CSR, sorted): node columns `b` → neighbour rows `a`.
    node_ptr: Vec<usize>,
    node_adj: Vec<usize>,
    symbolic: SymbolicSparseColMat<usize>,
}

impl BlockPattern {
    /// Pattern for `n_nodes` nodes where every node is coupled to itself and to
    /// every node that shares a node list with it (`lists` yields element or
    /// contact node lists).
    pub fn new<'a, I>(n_nodes: usize, dim: usize, lists: I) -> BlockPattern
    where
        I: IntoIterator<Item = &'a [usize]>,
    {
        let mut adj: Vec<Vec<usize>> = (0..n_nodes).map(|n| vec![n]).collect();
        for list in lists {
            for &a in list {
                adj[a].extend_from_slice(list);
            }
        }
        Self::from_adjacency(dim, adj)
    }

    /// This pattern with the node pairs `pairs` coupled as well (both ways).
    pub fn with_couplings(&self, pairs: impl IntoIterator<Item = (usize, usize)>) -> BlockPattern {
        let mut adj: Vec<Vec<usize>> = (0..self.n_nodes)
            .map(|b| self.node_adj[self.node_ptr[b]..self.node_ptr[b + 1]].to_vec())
            .collect();
        for (a, b) in pairs {
            adj[a].push(b);
            adj[b].push(a);
        }
        Self::from_adjacency(self.dim, adj)
    }

    /// This pattern with `extra` new nodes after its own (each coupled to
    /// itself) and the node pairs `pairs` coupled as well (both ways): the
    /// multiplier pseudo-nodes of a saddle-point system and their couplings.
    pub fn extended(
        &self,
        extra: usize,
        pairs: impl IntoIterator<Item = (usize, usize)>,
    ) -> BlockPattern {
        let n = self.n_nodes + extra;
        let mut adj: Vec<Vec<usize>> = (0..n)
            .map(|b| match b < self.n_nodes {
                true => self.node_adj[self.node_ptr[b]..self.node_ptr[b + 1]].to_vec(),
                false => vec![b],
            })
            .collect();
        for (a, b) in pairs {
            adj[a].push(b);
            adj[b].push(a);
        }
        Self::from_adjacency(self.dim, adj)
    }

    /// The pattern of the node adjacency lists `adj` (each holding its own
    /// node), expanded to `dim` dofs per node.
    fn from_adjacency(dim: usize, adj: Vec<Vec<usize>>) -> BlockPattern {
        let n_nodes = adj.len();
        let mut node_ptr = Vec::with_capacity(n_nodes + 1);
        let mut node_adj = Vec::new();
        node_ptr.push(0);
        for mut l in adj {
            l.sort_unstable();
            l.dedup();
            node_adj.extend_from_slice(&l);
            node_ptr.push(node_adj.len());
        }
        // Expand to dofs: column b*dim+j has rows a*dim+i for a in adj(b), i < dim.
        let n = n_nodes * dim;
        let mut col_ptr = Vec::with_capacity(n + 1);
        let mut row_idx = Vec::with_capacity(node_adj.len() * dim * dim);
        col_ptr.push(0);
        for b in 0..n_nodes {
            for _j in 0..dim {
                for &a in &node_adj[node_ptr[b]..node_ptr[b + 1]] {
                    for i in 0..dim {
                        row_idx.push(a * dim + i);
                    }
                }
                col_ptr.push(row_idx.len());
            }
        }
        let symbolic = SymbolicSparseColMat::new_checked(n, n, col_ptr, None, row_idx);
        BlockPattern {
            dim,
            n_nodes,
            node_ptr,
            node_adj,
            symbolic,
        }
    }

    /// Dofs per node.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// Number of nodes.
    pub fn n_nodes(&self) -> usize {
        self.n_nodes
    }

    /// Number of rows (= columns).
    pub fn n(&self) -> usize {
        self.n_nodes * self.dim
    }

    /// The node graph: `n_nodes × n_nodes` pattern with an entry `(a, b)` for
    /// every coupled node pair (diagonal included; symmetric, sorted).
    pub fn node_graph(&self) -> SymbolicSparseColMatRef<'_, usize> {
        SymbolicSparseColMatRef::new_checked(
            self.n_nodes,
            self.n_nodes,
            &self.node_ptr,
            None,
            &self.node_adj,
        )
    }

    /// Position of entry (row `c`, column `r`) for every stored entry
    /// (row `r`, column `c`): the pattern is structurally symmetric, so `Aᵀ`
    /// has the same pattern and its values are `val[transpose_positions[k]]`.
    pub fn transpose_positions(&self) -> Vec<usize> {
        let d = self.dim;
        let cp = self.symbolic.col_ptr();
        let ri = self.symbolic.row_idx();
        let mut t = vec![0usize; ri.len()];
        for c in 0..self.n() {
            let (b, j) = (c / d, c % d);
            for k in cp[c]..cp[c + 1] {
                let (a, i) = (ri[k] / d, ri[k] % d);
                let off = self
                    .block_offset(b, a)
                    .expect("the block pattern is structurally symmetric");
                t[k] = self.position(off, j, a, i);
            }
        }
        t
    }

    /// Number of stored entries.
    pub fn nnz(&self) -> usize {
        self.symbolic.row_idx().len()
    }

    /// The faer symbolic matrix.
    pub fn symbolic(&self) -> SymbolicSparseColMatRef<'_, usize> {
        self.symbolic.as_ref()
    }

    /// Offset of node `a`'s first row inside column `b·dim + j` (the same for
    /// every `j`), or `None` if the nodes are not coupled.
    pub fn block_offset(&self, a: usize, b: usize) -> Option<usize> {
        let nb = &self.node_adj[self.node_ptr[b]..self.node_ptr[b + 1]];
        nb.binary_search(&a).ok().map(|k| k * self.dim)
    }

    /// Position in the value array of entry (row `a·dim+i`, column `b·dim+j`),
    /// given `off = block_offset(a, b)`.
    #[inline]
    pub fn position(&self, off: usize, i: usize, b: usize, j: usize) -> usize {
        self.symbolic.col_ptr()[b * self.dim + j] + off + i
    }

    /// Position of the diagonal entry of dof `r`.
    pub fn diagonal_position(&self, r: usize) -> usize {
        let (a, i) = (r / self.dim, r % self.dim);
        let off = self
            .block_offset(a, a)
            .expect("every node is coupled to itself");
        self.position(off, i, a, i)
    }

    /// `y = A x` for values `val` on this pattern.
    pub fn mul(&self, val: &[f64], x: &[f64], y: &mut [f64]) {
        y.iter_mut().for_each(|v| *v = 0.0);
        let cp = self.symbolic.col_ptr();
        let ri = self.symbolic.row_idx();
        for c in 0..self.n() {
            let xc = x[c];
            if xc == 0.0 {
                continue;
            }
            for k in cp[c]..cp[c + 1] {
                y[ri[k]] += val[k] * xc;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_address_the_right_entries() {
        let lists: Vec<Vec<usize>> = vec![vec![0, 1, 2], vec![2, 3]];
        let p = BlockPattern::new(5, 2, lists.iter().map(|l| &l[..]));
        assert_eq!(p.n(), 10);
        let cp = p.symbolic().col_ptr().to_vec();
        let ri = p.symbolic().row_idx().to_vec();
        for (a, b) in [(0, 2), (2, 0), (3, 2), (1, 1), (4, 4)] {
            let off = p.block_offset(a, b).unwrap();
            for i in 0..2 {
                for j in 0..2 {
                    let pos = p.position(off, i, b, j);
                    assert!(pos >= cp[b * 2 + j] && pos < cp[b * 2 + j + 1]);
                    assert_eq!(ri[pos], a * 2 + i);
                }
            }
        }
        assert!(p.block_offset(0, 3).is_none());
        assert!(p.block_offset(4, 0).is_none());
    }
}
