//! Symbolic analysis of a structurally symmetric `BlockPattern`: a
//! fill-reducing ordering of the node graph (nested dissection by METIS, or
//! AMD), and faer's supernodal elimination structure of the permuted
//! pattern (the structure of the Cholesky factor `L` of `PᵀAP`).
//!
//! Both numeric factorizations of this crate run on it: the `LDLᵀ` of a
//! symmetric matrix (faer's supernodal numeric LDLᵀ) and the LU of an
//! unsymmetric matrix with this symmetric pattern (`SupernodalLu`), whose
//! `L` has the structure of the Cholesky factor and `U` that of its
//! transpose (George & Liu 1981, ch. 2; no fill beyond the Cholesky
//! factor's because pivoting stays inside each supernode's diagonal block).
//!
//! Supernode `s` holds the columns `begin(s)..end(s)` of `PᵀAP`; its row
//! pattern below the diagonal block is `pattern(s)` (sorted, all rows
//! `≥ end(s)`). The factor values of supernode `s` are dense column-major
//! panels: `L_s`, `(k + |pattern|) × k` with `k = end − begin` (faer's
//! layout, `col_ptr_for_val`), and for the LU `Uᵀ_s`, `|pattern| × k`.

use crate::linalg::lu::subtrees;
use crate::linalg::ordering::constraints::{
    anchor_couplings, constrained_ordering, OrderConstraints,
};
use crate::linalg::ordering::nodes::{FillOrdering, OrderingError};
use crate::linalg::pattern::BlockPattern;
use faer::perm::PermRef;
use faer::sparse::linalg::cholesky::supernodal::SymbolicSupernodalCholesky;
use faer::sparse::linalg::cholesky::{
    factorize_symbolic_cholesky, CholeskySymbolicParams, SymbolicCholesky, SymbolicCholeskyRaw,
    SymmetricOrdering,
};
use faer::sparse::linalg::{SupernodalThreshold, SymbolicSupernodalParams};
use faer::sparse::FaerError;
use faer::Side;

/// Why the symbolic analysis failed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum SymbolicError {
    #[error("ordering: {0}")]
    Ordering(#[from] OrderingError),
    #[error("symbolic analysis: {0:?}")]
    Faer(FaerError),
}

impl From<FaerError> for SymbolicError {
    fn from(e: FaerError) -> Self {
        SymbolicError::Faer(e)
    }
}

/// Size of a factorization, from the symbolic analysis.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct FactorSize {
    /// Order of the matrix.
    pub n: usize,
    /// Stored entries of the Cholesky factor `L` (an LDLᵀ keeps these).
    pub l_entries: usize,
    /// Stored entries of the LU factors (`L` and `U`).
    pub lu_entries: usize,
    /// Floating-point operations of one LU factorization
    /// (`Σ_j c_j + 2 c_j²`, `c_j` the entries below the diagonal in column `j`);
    /// an LDLᵀ takes about half.
    pub lu_flops: f64,
}

impl FactorSize {
    /// Bytes the LU factors keep (f64 values).
    pub fn lu_bytes(&self) -> f64 {
        8.0 * self.lu_entries as f64
    }
    /// Bytes an LDLᵀ factor keeps.
    pub fn ldlt_bytes(&self) -> f64 {
        8.0 * self.l_entries as f64
    }
}

/// The symbolic analysis of one pattern.
pub struct SymbolicFactor {
    n: usize,
    ordering: FillOrdering,
    /// First supernode of the trailing block (the columns of the `last`
    /// nodes and whatever supernode they begin in); `None` without one.
    split: Option<usize>,
    /// LU flops of refactoring the trailing block alone.
    trailing_flops: f64,
    /// Levels of subtrees of supernodes `(first, root)` factored in
    /// parallel ([`subtrees::levels`]).
    levels: Vec<Vec<(usize, usize)>>,
    chol: SymbolicCholesky<usize>,
    /// Supernode of each (permuted) column.
    sup_of_col: Vec<usize>,
    /// Offsets of the `Uᵀ_s` panels.
    u_ptr: Vec<usize>,
    size: FactorSize,
}

impl SymbolicFactor {
    /// Orders the node graph of `pattern` and analyses the permuted pattern.
    pub fn new(
        pattern: &BlockPattern,
        ordering: FillOrdering,
        relax: Option<&'static [(usize, f64)]>,
    ) -> Result<SymbolicFactor, SymbolicError> {
        Self::with_last(pattern, ordering, relax, &[])
    }

    /// [`SymbolicFactor::new`] with the nodes `last` (sorted, distinct)
    /// ordered after all others: their columns form the trailing block that
    /// `SupernodalLu::refactor_trailing` recomputes alone.
    pub fn with_last(
        pattern: &BlockPattern,
        ordering: FillOrdering,
        relax: Option<&'static [(usize, f64)]>,
        last: &[usize],
    ) -> Result<SymbolicFactor, SymbolicError> {
        let c = OrderConstraints {
            last,
            anchored: &[],
        };
        Self::with_constraints(pattern, ordering, relax, c)
    }

    /// [`SymbolicFactor::new`] under the ordering constraints `c`: the
    /// nodes `c.last` last (the trailing block), each pseudo-node of
    /// `c.anchored` right after its anchor and in its anchor's supernode.
    /// The pattern analysed is `pattern` with each anchor coupled to its
    /// pseudo-nodes' neighbours ([`anchor_couplings`]), so the factors hold
    /// a few explicit zeros more than `pattern` alone would.
    #[track_caller]
    pub fn with_constraints(
        pattern: &BlockPattern,
        ordering: FillOrdering,
        relax: Option<&'static [(usize, f64)]>,
        c: OrderConstraints<'_>,
    ) -> Result<SymbolicFactor, SymbolicError> {
        let n = pattern.n();
        let d = pattern.dim();
        let (node_fwd, ordering) = constrained_ordering(pattern.node_graph(), ordering, c)?;
        let mut node_inv = vec![0usize; node_fwd.len()];
        let mut fwd = vec![0usize; n];
        for (k, &a) in node_fwd.iter().enumerate() {
            node_inv[a] = k;
            for i in 0..d {
                fwd[k * d + i] = a * d + i;
            }
        }
        let mut inv = vec![0usize; n];
        for (k, &j) in fwd.iter().enumerate() {
            inv[j] = k;
        }
        let augmented;
        let analysed = if c.anchored.is_empty() {
            pattern
        } else {
            augmented = pattern.with_couplings(anchor_couplings(pattern.node_graph(), c.anchored));
            &augmented
        };
        let chol = factorize_symbolic_cholesky(
            analysed.symbolic(),
            Side::Lower,
            SymmetricOrdering::Custom(PermRef::new_checked(&fwd, &inv, n)),
            CholeskySymbolicParams {
                supernodal_flop_ratio_threshold: SupernodalThreshold::FORCE_SUPERNODAL,
                // `None`: faer's default relaxation (small supernodes merged
                // at the cost of a few explicit zeros, for matrix–matrix
                // kernels): 13 % less factorization time on the fine blocks
                // than no relaxation
                supernodal_params: match relax {
                    Some(relax) => SymbolicSupernodalParams { relax: Some(relax) },
                    None => SymbolicSupernodalParams::default(),
                },
                ..Default::default()
            },
        )?;
        let SymbolicCholeskyRaw::Supernodal(sn) = chol.raw() else {
            unreachable!("the supernodal structure was forced");
        };
        let ns = sn.n_supernodes();
        let mut sup_of_col = vec![0usize; n];
        let mut u_ptr = Vec::with_capacity(ns + 1);
        u_ptr.push(0);
        let mut flops = 0.0;
        let mut col_flops = vec![0.0; n];
        for s in 0..ns {
            let (b, e) = (sn.supernode_begin()[s], sn.supernode_end()[s]);
            let k = e - b;
            let p = sn.supernode(s).pattern().len();
            sup_of_col[b..e].iter_mut().for_each(|v| *v = s);
            u_ptr.push(u_ptr[s] + p * k);
            for t in 0..k {
                let c = (k - t - 1 + p) as f64;
                col_flops[b + t] = c + 2.0 * c * c;
                flops += col_flops[b + t];
            }
        }
        let size = FactorSize {
            n,
            l_entries: sn.len_val(),
            lu_entries: sn.len_val() + u_ptr[ns],
            lu_flops: flops,
        };
        // the trailing block begins with the first of the last nodes (the
        // pseudo-nodes among them follow their anchors)
        let mut pseudo = vec![false; node_fwd.len()];
        c.anchored.iter().for_each(|&(p, _)| pseudo[p] = true);
        let split = c
            .last
            .iter()
            .filter(|&&v| !pseudo[v])
            .map(|&v| node_inv[v])
            .min()
            .map(|k| sup_of_col[k * d]);
        for &(p, a) in c.anchored {
            assert_eq!(
                sup_of_col[node_inv[p] * d],
                sup_of_col[node_inv[a] * d],
                "pseudo-node {p} is not in the supernode of its anchor {a}"
            );
        }
        let trailing_flops =
            split.map_or(0.0, |sc| col_flops[sn.supernode_begin()[sc]..].iter().sum());
        let work: Vec<f64> = (0..ns)
            .map(|s| {
                col_flops[sn.supernode_begin()[s]..sn.supernode_end()[s]]
                    .iter()
                    .sum()
            })
            .collect();
        let parent: Vec<usize> = (0..ns)
            .map(|s| {
                sn.supernode(s)
                    .pattern()
                    .first()
                    .map_or(usize::MAX, |&r| sup_of_col[r])
            })
            .collect();
        let levels = subtrees::levels(&work, &parent, split.unwrap_or(ns));
        if log::log_enabled!(log::Level::Debug) && !levels.is_empty() {
            let subtrees = &levels[0];
            let part: Vec<f64> = subtrees
                .iter()
                .map(|&(f, r)| work[f..=r].iter().sum())
                .collect();
            let (sum, max) = (
                part.iter().sum::<f64>(),
                part.iter().cloned().fold(0.0, f64::max),
            );
            log::debug!(
                "symbolic: {} levels; the first's {} subtrees hold {:.0} % of {:.3e} flops (largest {:.1} %)",
                levels.len(),
                subtrees.len(),
                100.0 * sum / flops,
                flops,
                100.0 * max / flops,
            );
        }
        Ok(SymbolicFactor {
            n,
            ordering,
            split,
            trailing_flops,
            levels,
            chol,
            sup_of_col,
            u_ptr,
            size,
        })
    }

    /// Order of the matrix.
    pub fn n(&self) -> usize {
        self.n
    }

    /// First supernode of the trailing block of the `last` nodes.
    pub fn split(&self) -> Option<usize> {
        self.split
    }

    /// LU flops of `SupernodalLu::refactor_trailing` (0 without a trailing block).
    pub fn trailing_flops(&self) -> f64 {
        self.trailing_flops
    }

    /// Levels of disjoint subtrees `(first, root)` of supernodes, each
    /// sorted, all before the trailing block: the subtrees of a level may
    /// be factored in parallel once the levels before it are (empty: none).
    pub fn levels(&self) -> &[Vec<(usize, usize)>] {
        &self.levels
    }

    /// The ordering used (`Auto` resolved).
    pub fn ordering(&self) -> FillOrdering {
        self.ordering
    }

    /// Factor sizes and flops.
    pub fn size(&self) -> FactorSize {
        self.size
    }

    /// faer's symbolic Cholesky (ordering included).
    pub fn cholesky(&self) -> &SymbolicCholesky<usize> {
        &self.chol
    }

    /// The supernodal structure of `PᵀAP`.
    pub fn supernodal(&self) -> &SymbolicSupernodalCholesky<usize> {
        match self.chol.raw() {
            SymbolicCholeskyRaw::Supernodal(sn) => sn,
            SymbolicCholeskyRaw::Simplicial(_) => unreachable!("forced supernodal"),
        }
    }

    /// `(fwd, inv)` of the dof permutation `P` (`fwd[new] = old`).
    pub fn perm(&self) -> (&[usize], &[usize]) {
        self.chol
            .perm()
            .expect("a custom ordering is always given")
            .arrays()
    }

    /// Supernode of each permuted column.
    pub fn sup_of_col(&self) -> &[usize] {
        &self.sup_of_col
    }

    /// Offsets of the `Uᵀ` panels (length `n_supernodes + 1`).
    pub fn u_ptr(&self) -> &[usize] {
        &self.u_ptr
    }

    /// Where each stored entry of `A` (in `pattern`'s CSC order) goes in
    /// the LU's value arrays: `< l_len` into the `L` panels, else
    /// `l_len + ·` into the `Uᵀ` panels. Entry `(i, j)` of `PᵀAP` lies in
    /// `L_s`, `s` the supernode of column `j`, when `i ≥ begin(s)`, and in
    /// `Uᵀ_t`, `t` the supernode of row `i`, otherwise (then `j` is in
    /// `pattern(t)`: the pattern is symmetric).
    pub fn lu_destinations(&self, pattern: &BlockPattern) -> Vec<usize> {
        let sn = self.supernodal();
        let (_, inv) = self.perm();
        let l_len = sn.len_val();
        let a = pattern.symbolic();
        let mut dest = Vec::with_capacity(a.row_idx().len());
        let begin = sn.supernode_begin();
        let end = sn.supernode_end();
        let pat = |s: usize| sn.supernode(s).pattern();
        let below = |s: usize, row: usize| -> usize {
            pat(s)
                .binary_search(&row)
                .expect("the symbolic factor holds the pattern of A")
        };
        for c in 0..self.n {
            let j = inv[c];
            let s = self.sup_of_col[j];
            let k = end[s] - begin[s];
            let m = k + pat(s).len();
            for r in a.row_idx_of_col(c) {
                let i = inv[r];
                let pos = if i >= begin[s] {
                    let local = if i < end[s] {
                        i - begin[s]
                    } else {
                        k + below(s, i)
                    };
                    sn.col_ptr_for_val()[s] + (j - begin[s]) * m + local
                } else {
                    let t = self.sup_of_col[i];
                    let pt = pat(t).len();
                    l_len + self.u_ptr[t] + (i - begin[t]) * pt + below(t, j)
                };
                dest.push(pos);
            }
        }
        dest
    }
}
