//! LU factorization of an unsymmetric matrix with a symmetric pattern on
//! the supernodal structure of its Cholesky factor, pivoting restricted to
//! each supernode's diagonal block.
//!
//! With `P` the fill-reducing permutation of [`SymbolicFactor`] and
//! `B = PᵀAP`, the factorization is `B = L U` with row interchanges inside
//! each supernode: for supernode `s` (columns `b..e`, `k = e − b`, rows
//! below `R = pattern(s)`), after the updates of its descendants,
//!
//! ```text
//! P_s B̃_ss = L_ss U_ss      (dense LU, partial pivoting within the block)
//! L_Rs     = B̃_Rs U_ss⁻¹
//! U_sR     = L_ss⁻¹ P_s B̃_sR
//! ```
//!
//! where `B̃` is `B` minus the updates `L_·d U_d·` of the supernodes `d`
//! already factored (left-looking, as the supernodal Cholesky of Ng & Peyton
//! 1993; here both the `L` and the `U` panels are updated). `L` takes the
//! structure of the Cholesky factor of `B` and `Uᵀ` the same, so the fill is
//! that of a Cholesky factorization and the work twice its work. The pivots
//! are those of partial pivoting restricted to the diagonal block (the
//! "supernode pivoting" of PARDISO, Schenk & Gärtner 2004): not the
//! stability of full partial pivoting, so [`crate::linalg::LinearSolver`]
//! measures every solution by its true residual, refines it by
//! preconditioned GMRES on `A`, and where a supernode block has no pivot
//! ([`error::LuError::ZeroPivot`]) or the refinement stalls, factors the matrix by
//! faer's LU instead ([`fallback`]).
//!
//! Storage per supernode: `L_s` as faer's Cholesky panels
//! (`(k + |R|) × k`, column-major; the top `k × k` block holds `L_ss`
//! (unit lower, strictly below the diagonal) and `U_ss` (upper)); `Uᵀ_s`
//! as a `|R| × k` panel, `Uᵀ_s[r, c] = U[b + c, R[r]]`.

pub(crate) mod error;
pub(crate) mod estimate;
pub(crate) mod fallback;
pub(crate) mod kernel;
pub(crate) mod numeric;
pub(crate) mod params;
pub(crate) mod solve;
pub(crate) mod subtrees;
pub(crate) mod symbolic;
pub(crate) mod trailing;

use crate::linalg::lu::kernel::{Scratch, NONE};
use crate::linalg::lu::params::{LuInfo, Pivots};
use crate::linalg::lu::symbolic::SymbolicFactor;
use crate::linalg::pattern::BlockPattern;
use std::sync::Mutex;

/// The numeric LU factors on a [`SymbolicFactor`].
pub struct SupernodalLu {
    l: Vec<f64>,
    u: Vec<f64>,
    /// `piv[b + i]`: the local row of supernode `s`'s block that pivot `i` took.
    piv: Vec<usize>,
    /// Where each stored entry of `A` goes (`SymbolicFactor::lu_destinations`).
    dest: Vec<usize>,
    /// `max|A|` of the last full factorization.
    amax: f64,
    /// The pivots of the last full factorization before the trailing
    /// block, and what the last factorization found.
    rest: Pivots,
    info: LuInfo,
    /// The trailing block (`SymbolicFactor::split`): the updates of the
    /// supernodes before it, summed in the shape of its `L` and `Uᵀ` panels,
    /// and the entries of `A` that land in those panels `(index, dest)`.
    w_l: Vec<f64>,
    w_u: Vec<f64>,
    tail: Vec<(usize, usize)>,
    /// Linked lists of the supernodes updating a given supernode next
    /// (`head`), and per factored supernode the next in its list (`link`)
    /// and the first row of its pattern not yet used (`next`).
    head: Vec<usize>,
    link: Vec<usize>,
    next: Vec<usize>,
    /// Scratch of the supernodes outside the parallel subtrees, and of
    /// the threads factoring those subtrees (taken as needed, kept).
    scratch: Option<Scratch>,
    pool: Mutex<Vec<Scratch>>,
    /// Largest supernode and panel inside a parallel subtree.
    sub_max: (usize, usize),
    /// The supernodes factored by the levels of subtrees so far.
    done: Vec<bool>,
}

impl SupernodalLu {
    /// Allocates the factors of `sym` for matrices on `pattern` (the pattern
    /// `sym` was built from).
    pub fn new(sym: &SymbolicFactor, pattern: &BlockPattern) -> SupernodalLu {
        Self::reusing(sym, pattern, None)
    }

    /// [`SupernodalLu::new`] in the factor arrays of `old` (those of an
    /// earlier pattern): a contact step changes the pattern, and fresh
    /// arrays were fresh pages to fault in (150 MB at 18,546 dofs, a quarter
    /// of the run's page faults).
    pub fn reusing(
        sym: &SymbolicFactor,
        pattern: &BlockPattern,
        old: Option<SupernodalLu>,
    ) -> SupernodalLu {
        let (l, u, w_l, w_u) = match old {
            Some(o) => (o.l, o.u, o.w_l, o.w_u),
            None => Default::default(),
        };
        let sn = sym.supernodal();
        let ns = sn.n_supernodes();
        let n = sym.n();
        let mut max_k = 0;
        let mut max_panel = 0;
        let mut sub_max = (0, 0);
        let mut in_sub = vec![false; ns];
        for &(f, r) in sym.levels().iter().flatten() {
            in_sub[f..=r].iter_mut().for_each(|v| *v = true);
        }
        for s in 0..ns {
            let k = sn.supernode_end()[s] - sn.supernode_begin()[s];
            let m = k + sn.supernode(s).pattern().len();
            max_k = max_k.max(k);
            max_panel = max_panel.max(m * k);
            if in_sub[s] {
                sub_max = (sub_max.0.max(k), sub_max.1.max(m * k));
            }
        }
        let dest = sym.lu_destinations(pattern);
        let (l_len, u_len) = (sn.len_val(), sym.u_ptr()[ns]);
        let (l0, u0) = match sym.split() {
            Some(sc) => (sn.col_ptr_for_val()[sc], sym.u_ptr()[sc]),
            None => (l_len, u_len),
        };
        let tail = dest
            .iter()
            .enumerate()
            .filter(|&(_, &d)| (d >= l0 && d < l_len) || d >= l_len + u0)
            .map(|(k, &d)| (k, d))
            .collect();
        SupernodalLu {
            l: zeroed(l, l_len),
            u: zeroed(u, u_len),
            piv: vec![0; n],
            dest,
            amax: 0.0,
            rest: Pivots::new(0.0),
            info: LuInfo::default(),
            w_l: zeroed(w_l, l_len - l0),
            w_u: zeroed(w_u, u_len - u0),
            tail,
            head: vec![NONE; ns],
            link: vec![NONE; ns],
            next: vec![0; ns],
            scratch: Some(Scratch::new(n, max_k, max_panel)),
            pool: Mutex::new(Vec::new()),
            sub_max,
            done: vec![false; ns],
        }
    }

    /// What the last factorization (full or of the trailing block) found.
    pub fn info(&self) -> LuInfo {
        self.info
    }
}

/// `v` as `len` zeros, in its allocation where it is large enough. An
/// array that grows gets an eighth more room: the factors of successive
/// contact patterns differ by a few percent, and each reallocation was
/// fresh pages again.
fn zeroed(mut v: Vec<f64>, len: usize) -> Vec<f64> {
    v.clear();
    if v.capacity() > 0 && len > v.capacity() {
        v.reserve_exact(len + len / 8);
    }
    v.resize(len, 0.0);
    v
}

#[cfg(test)]
mod tests;
