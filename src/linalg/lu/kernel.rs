//! The left-looking kernels of [`crate::linalg::lu::SupernodalLu`] on a range of
//! supernodes: a whole factorization, the trailing block alone, or one
//! subtree of the elimination tree factored beside the others
//! ([`crate::linalg::lu::subtrees`]). A [`Part`] borrows the factor arrays of its range
//! only, so parts of disjoint subtrees run on different threads; a
//! supernode's updates come from its descendants, which lie in its part.

use crate::linalg::lu::error::LuError;
use crate::linalg::lu::params::Pivots;
use crate::linalg::lu::symbolic::SymbolicFactor;
use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::lu::partial_pivoting::factor::{lu_in_place, lu_in_place_scratch};
use faer::linalg::matmul::matmul;
use faer::linalg::triangular_solve::{
    solve_lower_triangular_in_place, solve_unit_lower_triangular_in_place,
};
use faer::reborrow::{Reborrow, ReborrowMut};
use faer::{Accum, MatMut, MatRef, Par};

/// "No supernode" in the linked lists of the factorization.
pub(super) const NONE: usize = usize::MAX;

/// Scratch of one thread's factorization, allocated once.
pub(super) struct Scratch {
    /// Row → position in the current supernode's panel.
    g2l: Vec<usize>,
    rows: Vec<usize>,
    tmp: Vec<f64>,
    perm: Vec<usize>,
    perm_inv: Vec<usize>,
    lu_scratch: MemBuffer,
}

impl Scratch {
    /// Scratch for supernodes of at most `max_k` columns and panels of at
    /// most `max_panel` entries, in a matrix of order `n`.
    pub fn new(n: usize, max_k: usize, max_panel: usize) -> Scratch {
        Scratch {
            g2l: vec![NONE; n],
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
        }
    }
}

/// The factor arrays of supernodes `s0..end`: `l`, `u`, `piv` start at
/// supernode `s0`'s panels and first column; the update lists `head`
/// (per updated supernode), `link` and `next` (per updating one) at `s0`.
pub(super) struct Part<'a> {
    pub s0: usize,
    pub end: usize,
    pub l: &'a mut [f64],
    pub u: &'a mut [f64],
    pub piv: &'a mut [usize],
    pub head: &'a mut [usize],
    pub link: &'a mut [usize],
    pub next: &'a mut [usize],
    /// Taken from the factorization's scratch or a thread's (`None` only
    /// while a part waits for its thread).
    pub scratch: Option<Scratch>,
    /// The trailing block's sums of updates (`SupernodalLu::w_l`, `w_u`),
    /// where the part reaches it.
    pub trail: Option<(&'a mut [f64], &'a mut [f64])>,
    /// Links `(t, d)` to supernodes `t` beyond the part, in order.
    pub pending: Vec<(usize, usize)>,
    /// The pivots of the supernodes before the trailing block and of those
    /// in it.
    pub pivots: Pivots,
    pub trail_pivots: Pivots,
    /// Parallelism of the dense kernels of at least `par_min_flops` flops
    /// (`LuParams::par_min_flops`): the supernodes that no subtree level
    /// took run one at a time, so their kernels may use the threads.
    pub par: Par,
    pub par_min_flops: usize,
}

impl Part<'_> {
    fn l_at(&self, sym: &SymbolicFactor, s: usize) -> usize {
        sym.supernodal().col_ptr_for_val()[s] - sym.supernodal().col_ptr_for_val()[self.s0]
    }

    fn u_at(&self, sym: &SymbolicFactor, s: usize) -> usize {
        sym.u_ptr()[s] - sym.u_ptr()[self.s0]
    }

    /// `d` updates supernode `t` next.
    fn link_to(&mut self, t: usize, d: usize) {
        if t < self.end {
            self.link[d - self.s0] = self.head[t - self.s0];
            self.head[t - self.s0] = d;
        } else {
            self.pending.push((t, d));
        }
    }

    /// Updates, factors and links supernode `s` (left-looking step). In a
    /// full factorization the updates from before the trailing block to a
    /// trailing supernode are summed into `w_l`, `w_u` as well.
    pub fn supernode(&mut self, sym: &SymbolicFactor, s: usize, full: bool) -> Result<(), LuError> {
        let sn = sym.supernodal();
        let (b, e) = (sn.supernode_begin()[s], sn.supernode_end()[s]);
        let pat = sn.supernode(s).pattern();
        let k = e - b;
        for (r, &row) in pat.iter().enumerate() {
            scratch(&mut self.scratch).g2l[row] = k + r;
        }
        // the updates of the factored supernodes linked to s
        let split = sym.split().filter(|&sc| s >= sc);
        let mut d = std::mem::replace(&mut self.head[s - self.s0], NONE);
        while d != NONE {
            let next_d = self.link[d - self.s0];
            self.update(sym, s, d, split.is_some_and(|sc| d < sc));
            d = next_d;
        }
        if let (Some(sc), true) = (split, full) {
            // in a full factorization the panels got A's entries and the
            // trailing descendants' updates, w the others: add w
            let cpv = sn.col_ptr_for_val();
            let (l0, u0) = (cpv[sc], sym.u_ptr()[sc]);
            let (lr, ur) = (cpv[s]..cpv[s + 1], sym.u_ptr()[s]..sym.u_ptr()[s + 1]);
            let (la, ua) = (self.l_at(sym, s), self.u_at(sym, s));
            let (w_l, w_u) = self
                .trail
                .as_mut()
                .expect("the part reaches the trailing block");
            for (v, w) in self.l[la..la + lr.len()]
                .iter_mut()
                .zip(&w_l[lr.start - l0..lr.end - l0])
            {
                *v += w;
            }
            for (v, w) in self.u[ua..ua + ur.len()]
                .iter_mut()
                .zip(&w_u[ur.start - u0..ur.end - u0])
            {
                *v += w;
            }
        }
        self.factor_block(sym, s)?;
        let m = k + pat.len();
        let la = self.l_at(sym, s);
        let panel = &self.l[la..];
        let pivots = match split {
            Some(_) => &mut self.trail_pivots,
            None => &mut self.pivots,
        };
        (0..k).for_each(|i| pivots.add(panel[i * m + i]));
        for &row in pat {
            scratch(&mut self.scratch).g2l[row] = NONE;
        }
        if let Some(&first) = pat.first() {
            self.next[s - self.s0] = 0;
            self.link_to(sym.sup_of_col()[first], s);
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
        let st = self.next[d - self.s0];
        let rl = pd.len() - st;
        let cl = pd[st..].partition_point(|&r| r < es);
        let pu = sn.supernode(s).pattern().len();
        let cpv = sn.col_ptr_for_val();
        let up = sym.u_ptr();
        let (ls_at, us_at) = (self.l_at(sym, s), self.u_at(sym, s));
        let (ld_at, ud_at) = (self.l_at(sym, d), self.u_at(sym, d));
        let w = scratch(&mut self.scratch);
        let rows = &mut w.rows[..rl];
        for (r, &row) in rows.iter_mut().zip(&pd[st..]) {
            *r = if row < es { row - bs } else { w.g2l[row] };
        }
        let (l_done, l_rest) = self.l.split_at_mut(ls_at);
        let (u_done, u_rest) = self.u.split_at_mut(us_at);
        let (ls, us) = if into_w {
            let sc = sym.split().expect("a trailing block");
            let (l0, u0) = (cpv[s] - cpv[sc], up[s] - up[sc]);
            let (w_l, w_u) = self
                .trail
                .as_mut()
                .expect("the part reaches the trailing block");
            (&mut w_l[l0..l0 + ms * ks], &mut w_u[u0..u0 + pu * ks])
        } else {
            (&mut l_rest[..ms * ks], &mut u_rest[..pu * ks])
        };
        let ld = MatRef::from_column_major_slice(&l_done[ld_at..ld_at + md * kd], md, kd);
        let ud =
            MatRef::from_column_major_slice(&u_done[ud_at..ud_at + pd.len() * kd], pd.len(), kd);
        // L panel: rows R of d against the columns of s in R
        {
            let t = MatMut::from_column_major_slice_mut(&mut w.tmp[..rl * cl], rl, cl);
            matmul(
                t,
                Accum::Replace,
                ld.subrows(kd + st, rl),
                ud.subrows(st, cl).transpose(),
                1.0,
                par_for(self.par, self.par_min_flops, 2 * rl * cl * kd),
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
                par_for(self.par, self.par_min_flops, 2 * rb * cl * kd),
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
        self.next[d - self.s0] = st + cl;
        if st + cl < pd.len() {
            self.link_to(sym.sup_of_col()[pd[st + cl]], d);
        }
    }

    /// Factors supernode `s`'s diagonal block and computes its `L` and `U`
    /// off-diagonal panels.
    fn factor_block(&mut self, sym: &SymbolicFactor, s: usize) -> Result<(), LuError> {
        let sn = sym.supernodal();
        let (b, e) = (sn.supernode_begin()[s], sn.supernode_end()[s]);
        let k = e - b;
        let p = sn.supernode(s).pattern().len();
        let m = k + p;
        let (la, ua) = (self.l_at(sym, s), self.u_at(sym, s));
        let c0 = sn.supernode_begin()[self.s0];
        let panel = MatMut::from_column_major_slice_mut(&mut self.l[la..la + m * k], m, k);
        let (mut top, mut bot) = panel.split_at_row_mut(k);
        let w = scratch(&mut self.scratch);
        lu_in_place(
            top.rb_mut(),
            &mut w.perm[..k],
            &mut w.perm_inv[..k],
            Par::Seq,
            MemStack::new(&mut w.lu_scratch),
            Default::default(),
        );
        for i in 0..k {
            let (u, column, supernode) = (top[(i, i)], b + i, s);
            if u == 0.0 {
                return Err(LuError::ZeroPivot { column, supernode });
            }
            if !u.is_finite() {
                return Err(LuError::NonFinite { column, supernode });
            }
        }
        self.piv[b - c0..e - c0].copy_from_slice(&w.perm[..k]);
        if p == 0 {
            return Ok(());
        }
        // L_Rs U_ss = B̃_Rs  ⇔  U_ssᵀ L_Rsᵀ = B̃_Rsᵀ
        let par = par_for(self.par, self.par_min_flops, p * k * k);
        solve_lower_triangular_in_place(top.rb().transpose(), bot.rb_mut().transpose_mut(), par);
        // Uᵀ_s: columns permuted by P_s, then U_sR = L_ss⁻¹ (P_s B̃_sR)
        let us = &mut self.u[ua..ua + p * k];
        let tmp = &mut w.tmp[..p * k];
        tmp.copy_from_slice(us);
        for (i, &pi) in w.perm[..k].iter().enumerate() {
            us[i * p..(i + 1) * p].copy_from_slice(&tmp[pi * p..(pi + 1) * p]);
        }
        let us = MatMut::from_column_major_slice_mut(us, p, k);
        solve_unit_lower_triangular_in_place(top.rb(), us.transpose_mut(), par);
        Ok(())
    }
}

/// The scratch a part works with.
fn scratch(s: &mut Option<Scratch>) -> &mut Scratch {
    s.as_mut()
        .expect("a part is given its scratch before it factors")
}

/// `par` for a kernel of `flops`, `Par::Seq` below `min_flops`.
fn par_for(par: Par, min_flops: usize, flops: usize) -> Par {
    if flops >= min_flops {
        par
    } else {
        Par::Seq
    }
}
