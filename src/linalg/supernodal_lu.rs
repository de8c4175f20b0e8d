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

use super::symbolic::SymbolicFactor;
use super::BlockPattern;
use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::lu::partial_pivoting::factor::{lu_in_place, lu_in_place_scratch};
use faer::linalg::matmul::matmul;
use faer::linalg::triangular_solve::{
    solve_lower_triangular_in_place, solve_unit_lower_triangular_in_place,
    solve_upper_triangular_in_place,
};
use faer::reborrow::{Reborrow, ReborrowMut};
use faer::{Accum, MatMut, MatRef, Par};

const NONE: usize = usize::MAX;

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
    work: Workspace,
}

/// Scratch of the factorization, allocated once.
struct Workspace {
    /// Row → position in the current supernode's panel.
    g2l: Vec<usize>,
    /// Linked lists of the supernodes updating a given supernode next.
    head: Vec<usize>,
    link: Vec<usize>,
    /// Per factored supernode: first row of its pattern not yet used.
    next: Vec<usize>,
    rows: Vec<usize>,
    tmp: Vec<f64>,
    perm: Vec<usize>,
    perm_inv: Vec<usize>,
    lu_scratch: MemBuffer,
}

/// The diagonal block of a supernode is singular (a zero or non-finite pivot).
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[error("zero or non-finite pivot at column {column} of the permuted matrix")]
pub struct ZeroPivot {
    pub column: usize,
}

impl SupernodalLu {
    /// Allocates the factors of `sym` for matrices on `pattern` (the pattern
    /// `sym` was built from).
    pub fn new(sym: &SymbolicFactor, pattern: &BlockPattern) -> SupernodalLu {
        let sn = sym.supernodal();
        let ns = sn.n_supernodes();
        let n = sym.n();
        let mut max_k = 0;
        let mut max_panel = 0;
        for s in 0..ns {
            let k = sn.supernode_end()[s] - sn.supernode_begin()[s];
            let m = k + sn.supernode(s).pattern().len();
            max_k = max_k.max(k);
            max_panel = max_panel.max(m * k);
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
            l: vec![0.0; l_len],
            u: vec![0.0; u_len],
            piv: vec![0; n],
            dest,
            small_pivots: 0,
            small: 0.0,
            w_l: vec![0.0; l_len - l0],
            w_u: vec![0.0; u_len - u0],
            tail,
            work: Workspace {
                g2l: vec![NONE; n],
                head: vec![NONE; ns],
                link: vec![NONE; ns],
                next: vec![0; ns],
                rows: vec![0; n],
                tmp: vec![0.0; max_panel],
                perm: vec![0; max_k],
                perm_inv: vec![0; max_k],
                lu_scratch: MemBuffer::new(lu_in_place_scratch::<usize, f64>(
                    max_k,
                    max_k,
                    Par::Seq,
                    Default::default(),
                )),
            },
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
        self.work.head.iter_mut().for_each(|h| *h = NONE);
        for s in 0..sym.supernodal().n_supernodes() {
            self.supernode(sym, s, true)?;
        }
        Ok(())
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
        self.work.head[sc..].iter_mut().for_each(|h| *h = NONE);
        for s in sc..sn.n_supernodes() {
            self.supernode(sym, s, false)?;
        }
        Ok(())
    }

    /// Updates, factors and links supernode `s` (left-looking step). In a
    /// full factorization the updates from before the trailing block to a
    /// trailing supernode are summed into `w_l`, `w_u` as well.
    fn supernode(&mut self, sym: &SymbolicFactor, s: usize, full: bool) -> Result<(), ZeroPivot> {
        let sn = sym.supernodal();
        let (b, e) = (sn.supernode_begin()[s], sn.supernode_end()[s]);
        let pat = sn.supernode(s).pattern();
        let k = e - b;
        for (r, &row) in pat.iter().enumerate() {
            self.work.g2l[row] = k + r;
        }
        // the updates of the factored supernodes linked to s
        let split = sym.split().filter(|&sc| s >= sc);
        let mut d = std::mem::replace(&mut self.work.head[s], NONE);
        while d != NONE {
            let next_d = self.work.link[d];
            self.update(sym, s, d, split.is_some_and(|sc| d < sc));
            d = next_d;
        }
        if let Some(sc) = split {
            // in a full factorization the panels got A's entries and the
            // trailing descendants' updates, w the others: add w
            let (l0, u0) = (sn.col_ptr_for_val()[sc], sym.u_ptr()[sc]);
            let (lr, ur) = (
                sn.col_ptr_for_val()[s]..sn.col_ptr_for_val()[s + 1],
                sym.u_ptr()[s]..sym.u_ptr()[s + 1],
            );
            if full {
                for (v, w) in self.l[lr.clone()]
                    .iter_mut()
                    .zip(&self.w_l[lr.start - l0..lr.end - l0])
                {
                    *v += w;
                }
                for (v, w) in self.u[ur.clone()]
                    .iter_mut()
                    .zip(&self.w_u[ur.start - u0..ur.end - u0])
                {
                    *v += w;
                }
            }
        }
        self.factor_block(sym, s)?;
        let m = k + pat.len();
        let panel = &self.l[sn.col_ptr_for_val()[s]..];
        self.small_pivots += (0..k)
            .filter(|&i| panel[i * m + i].abs() < self.small)
            .count();
        let w = &mut self.work;
        for &row in pat {
            w.g2l[row] = NONE;
        }
        if let Some(&first) = pat.first() {
            w.next[s] = 0;
            let t = sym.sup_of_col()[first];
            w.link[s] = w.head[t];
            w.head[t] = s;
        }
        Ok(())
    }

    /// Subtracts from supernode `s`'s panels (or, `into_w`, from their
    /// shape in `w_l`, `w_u`) the contribution of the factored supernode `d`
    /// (`L_Rd U_d,cols(s)` and `U_d` likewise), then links `d` to the next
    /// supernode it updates.
    fn update(&mut self, sym: &SymbolicFactor, s: usize, d: usize, into_w: bool) {
        let sn = sym.supernodal();
        let (bs, es) = (sn.supernode_begin()[s], sn.supernode_end()[s]);
        let ks = es - bs;
        let ms = ks + sn.supernode(s).pattern().len();
        let kd = sn.supernode_end()[d] - sn.supernode_begin()[d];
        let pd = sn.supernode(d).pattern();
        let md = kd + pd.len();
        let w = &mut self.work;
        let st = w.next[d];
        let rl = pd.len() - st;
        let cl = pd[st..].partition_point(|&r| r < es);
        let rows = &mut w.rows[..rl];
        for (r, &row) in rows.iter_mut().zip(&pd[st..]) {
            *r = if row < es { row - bs } else { w.g2l[row] };
        }
        let cpv = sn.col_ptr_for_val();
        let up = sym.u_ptr();
        let pu = sn.supernode(s).pattern().len();
        let (l_done, l_rest) = self.l.split_at_mut(cpv[s]);
        let (u_done, u_rest) = self.u.split_at_mut(up[s]);
        let (ls, us) = if into_w {
            let sc = sym.split().expect("a trailing block");
            let (l0, u0) = (cpv[s] - cpv[sc], up[s] - up[sc]);
            (
                &mut self.w_l[l0..l0 + ms * ks],
                &mut self.w_u[u0..u0 + pu * ks],
            )
        } else {
            (&mut l_rest[..ms * ks], &mut u_rest[..pu * ks])
        };
        let ld = MatRef::from_column_major_slice(&l_done[cpv[d]..cpv[d + 1]], md, kd);
        let ud = MatRef::from_column_major_slice(&u_done[up[d]..up[d + 1]], pd.len(), kd);
        // L panel: rows R of d against the columns of s in R
        {
            let t = MatMut::from_column_major_slice_mut(&mut w.tmp[..rl * cl], rl, cl);
            matmul(
                t,
                Accum::Replace,
                ld.subrows(kd + st, rl),
                ud.subrows(st, cl).transpose(),
                1.0,
                Par::Seq,
            );
            for c in 0..cl {
                let col = pd[st + c] - bs;
                let dst = &mut ls[col * ms..(col + 1) * ms];
                let src = &w.tmp[c * rl..(c + 1) * rl];
                for (&r, &v) in rows.iter().zip(src) {
                    dst[r] -= v;
                }
            }
        }
        // Uᵀ panel: rows of R below s against the columns of s in R
        let rb = rl - cl;
        if rb > 0 {
            let t = MatMut::from_column_major_slice_mut(&mut w.tmp[..rb * cl], rb, cl);
            matmul(
                t,
                Accum::Replace,
                ud.subrows(st + cl, rb),
                ld.subrows(kd + st, cl).transpose(),
                1.0,
                Par::Seq,
            );
            for c in 0..cl {
                let col = pd[st + c] - bs;
                let dst = &mut us[col * pu..(col + 1) * pu];
                let src = &w.tmp[c * rb..(c + 1) * rb];
                for (&r, &v) in rows[cl..].iter().zip(src) {
                    dst[r - ks] -= v;
                }
            }
        }
        w.next[d] = st + cl;
        if st + cl < pd.len() {
            let t = sym.sup_of_col()[pd[st + cl]];
            w.link[d] = w.head[t];
            w.head[t] = d;
        }
    }

    /// Factors supernode `s`'s diagonal block and computes its `L` and `U`
    /// off-diagonal panels.
    fn factor_block(&mut self, sym: &SymbolicFactor, s: usize) -> Result<(), ZeroPivot> {
        let sn = sym.supernodal();
        let (b, e) = (sn.supernode_begin()[s], sn.supernode_end()[s]);
        let k = e - b;
        let p = sn.supernode(s).pattern().len();
        let m = k + p;
        let cpv = sn.col_ptr_for_val();
        let panel = MatMut::from_column_major_slice_mut(&mut self.l[cpv[s]..cpv[s + 1]], m, k);
        let (mut top, mut bot) = panel.split_at_row_mut(k);
        let w = &mut self.work;
        lu_in_place(
            top.rb_mut(),
            &mut w.perm[..k],
            &mut w.perm_inv[..k],
            Par::Seq,
            MemStack::new(&mut w.lu_scratch),
            Default::default(),
        );
        for i in 0..k {
            let u = top[(i, i)];
            if u == 0.0 || !u.is_finite() {
                return Err(ZeroPivot { column: b + i });
            }
        }
        self.piv[b..e].copy_from_slice(&w.perm[..k]);
        if p == 0 {
            return Ok(());
        }
        // L_Rs U_ss = B̃_Rs  ⇔  U_ssᵀ L_Rsᵀ = B̃_Rsᵀ
        solve_lower_triangular_in_place(
            top.rb().transpose(),
            bot.rb_mut().transpose_mut(),
            Par::Seq,
        );
        // Uᵀ_s: columns permuted by P_s, then U_sR = L_ss⁻¹ (P_s B̃_sR)
        let up = sym.u_ptr();
        let us = &mut self.u[up[s]..up[s + 1]];
        let tmp = &mut w.tmp[..p * k];
        tmp.copy_from_slice(us);
        for (i, &pi) in w.perm[..k].iter().enumerate() {
            us[i * p..(i + 1) * p].copy_from_slice(&tmp[pi * p..(pi + 1) * p]);
        }
        let us = MatMut::from_column_major_slice_mut(us, p, k);
        solve_unit_lower_triangular_in_place(top.rb(), us.transpose_mut(), Par::Seq);
        Ok(())
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

#[cfg(test)]
#[path = "supernodal_lu_tests.rs"]
mod tests;
