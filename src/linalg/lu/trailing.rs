//! The trailing block of [`SupernodalLu`] (the columns of the nodes that
//! [`SymbolicFactor::with_last`] ordered last): refactored alone on the
//! factors of the rest, and solved alone for right-hand sides that live on
//! it.

use crate::linalg::lu::error::LuError;
use crate::linalg::lu::kernel::NONE;
use crate::linalg::lu::params::{LuInfo, LuParams};
use crate::linalg::lu::solve::SolveSpan;
use crate::linalg::lu::symbolic::SymbolicFactor;
use crate::linalg::lu::SupernodalLu;

impl SupernodalLu {
    /// The stored entries of `A` (indices into the values of the pattern)
    /// that land in the trailing block: all that
    /// [`SupernodalLu::refactor_trailing`] reads of its values.
    pub fn trailing_entries(&self) -> impl Iterator<Item = usize> + '_ {
        self.tail.iter().map(|&(k, _)| k)
    }

    /// Refactors only the trailing block (`SymbolicFactor::with_last`) for
    /// new values `val`, keeping the factors of the supernodes before it
    /// and their updates to it from the last [`SupernodalLu::factorize`].
    /// The result factors the matrix whose trailing diagonal block is that
    /// of `val` and whose other entries are those of the last full
    /// factorization. Without a trailing block: a full factorization. The
    /// info counts the pivots of the last full factorization before the
    /// block with the block's new ones; small pivots are those below
    /// `params.small_pivot` times the `max|A|` of the last full
    /// factorization. After an error the factors are unusable until the
    /// next full factorization.
    pub fn refactor_trailing(
        &mut self,
        sym: &SymbolicFactor,
        val: &[f64],
        params: LuParams,
    ) -> Result<LuInfo, LuError> {
        let Some(sc) = sym.split() else {
            return self.factorize(sym, val, params);
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
        self.head[sc..].iter_mut().for_each(|h| *h = NONE);
        let mut part = self.whole(self.rest.small, params);
        let result = (sc..sn.n_supernodes()).try_for_each(|s| part.supernode(sym, s, false));
        // the scratch goes back also after a zero pivot
        let (trail, scratch) = (part.trail_pivots, part.scratch.take());
        self.scratch = scratch;
        result?;
        self.info = self.rest.merged(trail).info(self.amax);
        Ok(self.info)
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
        self.solve_from(sym, SolveSpan { c0, whole: false }, rhs, nrhs, x, t);
    }

    /// The full solution for right-hand sides that are zero before the
    /// trailing block, as [`SupernodalLu::solve_in_place`] computes it (the
    /// same bit for bit, and on the trailing dofs the same as
    /// [`SupernodalLu::solve_trailing_in_place`]), without the forward
    /// solve over the supernodes before the block.
    pub fn solve_trailing_rhs_in_place(
        &self,
        sym: &SymbolicFactor,
        rhs: &mut [f64],
        nrhs: usize,
        x: &mut Vec<f64>,
        t: &mut Vec<f64>,
    ) {
        let c0 = Self::trailing_begin(sym).unwrap_or(0);
        self.solve_from(sym, SolveSpan { c0, whole: true }, rhs, nrhs, x, t);
    }
}
