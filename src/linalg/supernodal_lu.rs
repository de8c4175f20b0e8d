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
//! measures every solution by its true residual and refines it by
//! preconditioned GMRES on `A`.
//!
//! Storage per supernode: `L_s` as faer's Cholesky panels
//! (`(k + |R|) × k`, column-major; the top `k × k` block holds `L_ss`
//! (unit lower, strictly below the diagonal) and `U_ss` (upper)); `Uᵀ_s`
//! as a `|R| × k` panel, `Uᵀ_s[r, c] = U[b + c, R[r]]`.

pub use super::supernodal_part::ZeroPivot;
use super::supernodal_part::{Part, Scratch, NONE};
use super::symbolic::SymbolicFactor;
use super::BlockPattern;
use faer::linalg::matmul::matmul;
use faer::linalg::triangular_solve::{
    solve_unit_lower_triangular_in_place, solve_upper_triangular_in_place,
};
use faer::reborrow::{Reborrow, ReborrowMut};
use faer::{Accum, MatMut, MatRef, Par};
use rayon::prelude::*;
use std::sync::Mutex;

/// The numeric LU factors on a [`SymbolicFactor`].
pub struct SupernodalLu {
    l: Vec<f64>,
    u: Vec<f64>,
    /// `piv[b + i]`: the local row of supernode `s`'s block that pivot `i` took.
    piv: Vec<usize>,
    /// Where each stored entry of `A` goes (`SymbolicFactor::lu_destinations`).
    dest: Vec<usize>,
    /// Pivots smaller than `√ε · max|A|` in the last factorization.
    small_pivots: usize,
    /// `√ε · max|A|` of the last full factorization.
    small: f64,
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
            small_pivots: 0,
            small: 0.0,
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

    /// The stored entries of `A` (indices into the values of the pattern)
    /// that land in the trailing block: all that
    /// [`SupernodalLu::refactor_trailing`] reads of its values.
    pub fn trailing_entries(&self) -> impl Iterator<Item = usize> + '_ {
        self.tail.iter().map(|&(k, _)| k)
    }

    /// Pivots below `√ε · max|A|` in the last factorization (diagnostic).
    pub fn small_pivots(&self) -> usize {
        self.small_pivots
    }

    /// Numeric factorization of the matrix with values `val` on the pattern.
    pub fn factorize(&mut self, sym: &SymbolicFactor, val: &[f64]) -> Result<(), ZeroPivot> {
        assert_eq!(val.len(), self.dest.len(), "values of another pattern");
        let l_len = self.l.len();
        self.l.iter_mut().for_each(|v| *v = 0.0);
        self.u.iter_mut().for_each(|v| *v = 0.0);
        let mut amax = 0.0f64;
        for (&d, &v) in self.dest.iter().zip(val) {
            if d < l_len {
                self.l[d] += v;
            } else {
                self.u[d - l_len] += v;
            }
            amax = amax.max(v.abs());
        }
        self.small = f64::EPSILON.sqrt() * amax;
        self.small_pivots = 0;
        self.w_l.iter_mut().for_each(|v| *v = 0.0);
        self.w_u.iter_mut().for_each(|v| *v = 0.0);
        self.head.iter_mut().for_each(|h| *h = NONE);
        self.done.iter_mut().for_each(|d| *d = false);
        for level in sym.levels() {
            let pending = self.factor_level(sym, level)?;
            for (t, d) in pending {
                self.link[d] = self.head[t];
                self.head[t] = d;
            }
            for &(f, r) in level {
                self.done[f..=r].iter_mut().for_each(|d| *d = true);
            }
        }
        // what no level took, in order
        let done = std::mem::take(&mut self.done);
        let mut part = self.whole();
        let result = (0..done.len())
            .filter(|&s| !done[s])
            .try_for_each(|s| part.supernode(sym, s, true));
        // the scratch goes back also after a zero pivot
        let (small, scratch) = (part.small_pivots, part.scratch.take());
        self.scratch = scratch;
        self.small_pivots += small;
        self.done = done;
        result
    }

    /// Factors the subtrees of one level of [`SymbolicFactor::levels`] in
    /// parallel, each on its own range of the factors, skipping what the
    /// levels before did; returns the links of their supernodes to the
    /// supernodes above (in subtree order, so the factors do not depend on
    /// the number of threads).
    fn factor_level(
        &mut self,
        sym: &SymbolicFactor,
        level: &[(usize, usize)],
    ) -> Result<Vec<(usize, usize)>, ZeroPivot> {
        let sn = sym.supernodal();
        let (cpv, up, beg) = (sn.col_ptr_for_val(), sym.u_ptr(), sn.supernode_begin());
        let at = |p: &[usize]| {
            level
                .iter()
                .map(|&(f, r)| (p[f], p[r + 1]))
                .collect::<Vec<_>>()
        };
        let sup: Vec<(usize, usize)> = level.iter().map(|&(f, r)| (f, r + 1)).collect();
        let cols: Vec<(usize, usize)> = level
            .iter()
            .map(|&(f, r)| (beg[f], sn.supernode_end()[r]))
            .collect();
        let mut l = chunks(&mut self.l, &at(cpv)).into_iter();
        let mut u = chunks(&mut self.u, &at(up)).into_iter();
        let mut piv = chunks(&mut self.piv, &cols).into_iter();
        let mut head = chunks(&mut self.head, &sup).into_iter();
        let mut link = chunks(&mut self.link, &sup).into_iter();
        let mut next = chunks(&mut self.next, &sup).into_iter();
        let (n, (max_k, max_panel), small) = (sym.n(), self.sub_max, self.small);
        let (pool, done) = (&self.pool, &self.done);
        let one = "a range per subtree";
        let parts: Vec<Part<'_>> = level
            .iter()
            .map(|&(f, r)| Part {
                s0: f,
                end: r + 1,
                l: l.next().expect(one),
                u: u.next().expect(one),
                piv: piv.next().expect(one),
                head: head.next().expect(one),
                link: link.next().expect(one),
                next: next.next().expect(one),
                scratch: None,
                trail: None,
                pending: Vec::new(),
                small,
                small_pivots: 0,
                par: Par::Seq,
            })
            .collect();
        let results: Vec<Result<Part<'_>, ZeroPivot>> = parts
            .into_par_iter()
            .map(|mut part| {
                let taken = pool.lock().map(|mut p| p.pop()).unwrap_or(None);
                part.scratch = Some(taken.unwrap_or_else(|| Scratch::new(n, max_k, max_panel)));
                let result = (part.s0..part.end)
                    .filter(|&s| !done[s])
                    .try_for_each(|s| part.supernode(sym, s, true));
                if let (Some(scratch), Ok(mut p)) = (part.scratch.take(), pool.lock()) {
                    p.push(scratch);
                }
                result.map(|_| part)
            })
            .collect();
        let mut pending = Vec::new();
        let mut small_pivots = 0;
        for part in results {
            let part = part?;
            pending.extend(part.pending);
            small_pivots += part.small_pivots;
        }
        self.small_pivots += small_pivots;
        Ok(pending)
    }

    /// The part of all supernodes.
    fn whole(&mut self) -> Part<'_> {
        let trail = (!self.w_l.is_empty() || !self.w_u.is_empty())
            .then_some((&mut self.w_l[..], &mut self.w_u[..]));
        Part {
            s0: 0,
            end: self.head.len(),
            l: &mut self.l,
            u: &mut self.u,
            piv: &mut self.piv,
            head: &mut self.head,
            link: &mut self.link,
            next: &mut self.next,
            scratch: self.scratch.take(),
            trail,
            pending: Vec::new(),
            small: self.small,
            small_pivots: 0,
            par: match rayon::current_num_threads() {
                1 => Par::Seq,
                t => Par::rayon(t),
            },
        }
    }

    /// Refactors only the trailing block (`SymbolicFactor::with_last`) for
    /// new values `val`, keeping the factors of the supernodes before it
    /// and their updates to it from the last [`SupernodalLu::factorize`].
    /// The result factors the matrix whose trailing diagonal block is that
    /// of `val` and whose other entries are those of the last full
    /// factorization. Without a trailing block: a full factorization.
    pub fn refactor_trailing(
        &mut self,
        sym: &SymbolicFactor,
        val: &[f64],
    ) -> Result<(), ZeroPivot> {
        let Some(sc) = sym.split() else {
            return self.factorize(sym, val);
        };
        let sn = sym.supernodal();
        let (l0, u0) = (sn.col_ptr_for_val()[sc], sym.u_ptr()[sc]);
        let l_len = self.l.len();
        self.l[l0..].copy_from_slice(&self.w_l);
        self.u[u0..].copy_from_slice(&self.w_u);
        for &(k, d) in &self.tail {
            if d < l_len {
                self.l[d] += val[k];
            } else {
                self.u[d - l_len] += val[k];
            }
        }
        self.small_pivots = 0;
        self.head[sc..].iter_mut().for_each(|h| *h = NONE);
        let mut part = self.whole();
        let result = (sc..sn.n_supernodes()).try_for_each(|s| part.supernode(sym, s, false));
        // the scratch goes back also after a zero pivot
        let (small, scratch) = (part.small_pivots, part.scratch.take());
        self.scratch = scratch;
        self.small_pivots = small;
        result
    }

    /// Solves `A X = B` in place for the `nrhs` columns of `rhs`
    /// (column-major, `n × nrhs`), with the fill permutation; `x` is scratch
    /// of at least `n·nrhs` values, `t` of at least `max|pattern(s)|·nrhs`.
    pub fn solve_in_place(
        &self,
        sym: &SymbolicFactor,
        rhs: &mut [f64],
        nrhs: usize,
        x: &mut Vec<f64>,
        t: &mut Vec<f64>,
    ) {
        self.solve_from(sym, 0, rhs, nrhs, x, t);
    }

    /// First permuted column of the trailing block (`SymbolicFactor::split`).
    pub fn trailing_begin(sym: &SymbolicFactor) -> Option<usize> {
        sym.split().map(|sc| sym.supernodal().supernode_begin()[sc])
    }

    /// [`SupernodalLu::solve_in_place`] for right-hand sides that are zero
    /// on every dof whose permuted column is before the trailing block
    /// ([`SupernodalLu::trailing_begin`]), returning `X` on the trailing
    /// block's dofs only; `rhs` keeps its (zero) entries elsewhere.
    ///
    /// With `PᵀAP = [A₁₁ A₁₂; A₂₁ A₂₂]` split there and `B` zero on the
    /// first block, the forward solve leaves the first block zero (row
    /// interchanges stay inside supernodes) and `X₂ = U₂₂⁻¹ L₂₂⁻¹ P₂ B₂ =
    /// S⁻¹ B₂`, `S = A₂₂ − A₂₁A₁₁⁻¹A₁₂` the Schur complement: only the
    /// trailing supernodes are visited. This is what `W = B K⁻¹ H` needs
    /// when `B` and `H` live on the contact nodes ordered last. Without a
    /// trailing block: the full solve.
    pub fn solve_trailing_in_place(
        &self,
        sym: &SymbolicFactor,
        rhs: &mut [f64],
        nrhs: usize,
        x: &mut Vec<f64>,
        t: &mut Vec<f64>,
    ) {
        let c0 = Self::trailing_begin(sym).unwrap_or(0);
        self.solve_from(sym, c0, rhs, nrhs, x, t);
    }

    /// The solve over the supernodes from the one beginning at permuted
    /// column `c0` on (`c0 = 0`: all; otherwise `rhs` must be zero before `c0`).
    fn solve_from(
        &self,
        sym: &SymbolicFactor,
        c0: usize,
        rhs: &mut [f64],
        nrhs: usize,
        x: &mut Vec<f64>,
        t: &mut Vec<f64>,
    ) {
        let n = sym.n();
        assert_eq!(rhs.len(), n * nrhs, "right-hand sides of another size");
        let (fwd, _) = sym.perm();
        let s0 = if c0 == 0 { 0 } else { sym.sup_of_col()[c0] };
        debug_assert_eq!(sym.supernodal().supernode_begin()[s0], c0);
        x.resize(n * nrhs, 0.0);
        for c in 0..nrhs {
            for (i, &f) in fwd.iter().enumerate().skip(c0) {
                x[c * n + i] = rhs[c * n + f];
            }
        }
        self.forward(sym, s0, &mut x[..n * nrhs], nrhs, t);
        self.backward(sym, s0, &mut x[..n * nrhs], nrhs, t);
        for c in 0..nrhs {
            for (i, &f) in fwd.iter().enumerate().skip(c0) {
                rhs[c * n + f] = x[c * n + i];
            }
        }
    }

    /// `X ← L⁻¹ P X` supernode by supernode, from supernode `s0` on.
    fn forward(
        &self,
        sym: &SymbolicFactor,
        s0: usize,
        x: &mut [f64],
        nrhs: usize,
        t: &mut Vec<f64>,
    ) {
        let sn = sym.supernodal();
        let n = sym.n();
        let cpv = sn.col_ptr_for_val();
        let mut blk = Vec::new();
        for s in s0..sn.n_supernodes() {
            let (b, e) = (sn.supernode_begin()[s], sn.supernode_end()[s]);
            let k = e - b;
            let pat = sn.supernode(s).pattern();
            let m = k + pat.len();
            let panel = MatRef::from_column_major_slice(&self.l[cpv[s]..cpv[s + 1]], m, k);
            let (top, bot) = panel.split_at_row(k);
            for c in 0..nrhs {
                let xc = &mut x[c * n + b..c * n + e];
                blk.clear();
                blk.extend(self.piv[b..e].iter().map(|&p| xc[p]));
                xc.copy_from_slice(&blk);
            }
            let mut xs = MatMut::from_column_major_slice_with_stride_mut(&mut x[b..], k, nrhs, n);
            solve_unit_lower_triangular_in_place(top, xs.rb_mut(), Par::Seq);
            if pat.is_empty() {
                continue;
            }
            t.resize(pat.len() * nrhs, 0.0);
            let tm =
                MatMut::from_column_major_slice_mut(&mut t[..pat.len() * nrhs], pat.len(), nrhs);
            matmul(tm, Accum::Replace, bot, xs.rb(), 1.0, Par::Seq);
            for c in 0..nrhs {
                let tc = &t[c * pat.len()..(c + 1) * pat.len()];
                for (&row, &v) in pat.iter().zip(tc) {
                    x[c * n + row] -= v;
                }
            }
        }
    }

    /// `X ← U⁻¹ X` supernode by supernode, last to `s0`.
    fn backward(
        &self,
        sym: &SymbolicFactor,
        s0: usize,
        x: &mut [f64],
        nrhs: usize,
        t: &mut Vec<f64>,
    ) {
        let sn = sym.supernodal();
        let n = sym.n();
        let cpv = sn.col_ptr_for_val();
        let up = sym.u_ptr();
        for s in (s0..sn.n_supernodes()).rev() {
            let (b, e) = (sn.supernode_begin()[s], sn.supernode_end()[s]);
            let k = e - b;
            let pat = sn.supernode(s).pattern();
            let p = pat.len();
            let m = k + p;
            let panel = MatRef::from_column_major_slice(&self.l[cpv[s]..cpv[s + 1]], m, k);
            let top = panel.subrows(0, k);
            if p > 0 {
                t.resize(p * nrhs, 0.0);
                for c in 0..nrhs {
                    for (r, &row) in pat.iter().enumerate() {
                        t[c * p + r] = x[c * n + row];
                    }
                }
                let us = MatRef::from_column_major_slice(&self.u[up[s]..up[s + 1]], p, k);
                let tm = MatRef::from_column_major_slice(&t[..p * nrhs], p, nrhs);
                let xs = MatMut::from_column_major_slice_with_stride_mut(&mut x[b..], k, nrhs, n);
                matmul(xs, Accum::Add, us.transpose(), tm, -1.0, Par::Seq);
            }
            let xs = MatMut::from_column_major_slice_with_stride_mut(&mut x[b..], k, nrhs, n);
            solve_upper_triangular_in_place(top, xs, Par::Seq);
        }
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

/// The disjoint sub-slices `v[a..b]` for the sorted, disjoint `ranges`.
fn chunks<'a, T>(mut v: &'a mut [T], ranges: &[(usize, usize)]) -> Vec<&'a mut [T]> {
    let mut out = Vec::with_capacity(ranges.len());
    let mut at = 0;
    for &(a, b) in ranges {
        let (_, rest) = std::mem::take(&mut v).split_at_mut(a - at);
        let (mid, rest) = rest.split_at_mut(b - a);
        out.push(mid);
        v = rest;
        at = b;
    }
    out
}

#[cfg(test)]
#[path = "supernodal_lu_tests.rs"]
mod tests;
