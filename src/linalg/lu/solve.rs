//! Forward and backward substitution with the factors of [`SupernodalLu`],
//! supernode by supernode, for many right-hand sides at once.

use crate::linalg::lu::symbolic::SymbolicFactor;
use crate::linalg::lu::SupernodalLu;
use faer::linalg::matmul::matmul;
use faer::linalg::triangular_solve::{
    solve_unit_lower_triangular_in_place, solve_upper_triangular_in_place,
};
use faer::reborrow::{Reborrow, ReborrowMut};
use faer::{Accum, MatMut, MatRef, Par};

/// Which part of a solve [`SupernodalLu::solve_from`] does: where the
/// right-hand sides may be non-zero and how much of the solution is wanted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct SolveSpan {
    /// The first permuted column on which the right-hand sides may be
    /// non-zero, the first column of a supernode (0: anywhere).
    pub c0: usize,
    /// `false`: the backward solve from `c0`'s supernode on, the solution
    /// on the permuted columns from `c0` alone (`rhs` left as it was
    /// elsewhere); `true`: over all supernodes, the full solution, the same
    /// bit for bit as [`SupernodalLu::solve_in_place`].
    pub whole: bool,
}

impl SolveSpan {
    /// The plain solve: right-hand sides anywhere, the solution on every
    /// column (with `c0 = 0` the two backward solves are the same).
    pub const ALL: SolveSpan = SolveSpan {
        c0: 0,
        whole: false,
    };
}

impl SupernodalLu {
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
        self.solve_from(sym, SolveSpan::ALL, rhs, nrhs, x, t);
    }

    /// The solve of right-hand sides that are zero on every dof whose
    /// permuted column is before `span.c0` (the first column of a
    /// supernode): the forward solve from `c0`'s supernode on (before it,
    /// it would compute zeros), the backward solve from there on or over
    /// all supernodes, as [`SolveSpan::whole`] says.
    pub(super) fn solve_from(
        &self,
        sym: &SymbolicFactor,
        span: SolveSpan,
        rhs: &mut [f64],
        nrhs: usize,
        x: &mut Vec<f64>,
        t: &mut Vec<f64>,
    ) {
        let SolveSpan { c0, whole } = span;
        let n = sym.n();
        assert_eq!(rhs.len(), n * nrhs, "right-hand sides of another size");
        let (fwd, _) = sym.perm();
        let s0 = if c0 == 0 { 0 } else { sym.sup_of_col()[c0] };
        debug_assert_eq!(sym.supernodal().supernode_begin()[s0], c0);
        let out = if whole { 0 } else { c0 };
        x.resize(n * nrhs, 0.0);
        for c in 0..nrhs {
            for (i, &f) in fwd.iter().enumerate().skip(out) {
                x[c * n + i] = if i < c0 { 0.0 } else { rhs[c * n + f] };
            }
        }
        self.forward(sym, s0, &mut x[..n * nrhs], nrhs, t);
        self.backward(sym, if whole { 0 } else { s0 }, &mut x[..n * nrhs], nrhs, t);
        for c in 0..nrhs {
            for (i, &f) in fwd.iter().enumerate().skip(out) {
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
