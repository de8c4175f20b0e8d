//! The numeric factorization of [`SupernodalLu`]: the levels of
//! independent subtrees in parallel ([`crate::linalg::lu::subtrees`]), then
//! the supernodes above them in order, each by the left-looking kernel of
//! [`crate::linalg::lu::kernel`].

use crate::linalg::lu::error::LuError;
use crate::linalg::lu::kernel::{Part, Scratch, NONE};
use crate::linalg::lu::params::{LuInfo, LuParams, Pivots};
use crate::linalg::lu::symbolic::SymbolicFactor;
use crate::linalg::lu::SupernodalLu;
use faer::Par;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

impl SupernodalLu {
    /// Numeric factorization of the matrix with values `val` on the pattern.
    /// After an error the factors are unusable, the arrays kept for the
    /// next factorization.
    pub fn factorize(
        &mut self,
        sym: &SymbolicFactor,
        val: &[f64],
        params: LuParams,
    ) -> Result<LuInfo, LuError> {
        self.factorize_until(sym, val, params, None)
    }

    /// [`SupernodalLu::factorize`], stopped with [`LuError::Cancelled`]
    /// before the next supernode once `stop` is set: a factorization of a
    /// 10⁴-point contact model takes about a minute, longer than some batch
    /// systems wait after their stop signal
    /// (docs/decisions/stopping-long-steps.md).
    pub fn factorize_until(
        &mut self,
        sym: &SymbolicFactor,
        val: &[f64],
        params: LuParams,
        stop: Option<&AtomicBool>,
    ) -> Result<LuInfo, LuError> {
        let go_on = || match stop {
            Some(s) if s.load(Ordering::Relaxed) => Err(LuError::Cancelled),
            _ => Ok(()),
        };
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
        self.amax = amax;
        let mut rest = Pivots::new(params.small_pivot * amax);
        self.w_l.iter_mut().for_each(|v| *v = 0.0);
        self.w_u.iter_mut().for_each(|v| *v = 0.0);
        self.head.iter_mut().for_each(|h| *h = NONE);
        self.done.iter_mut().for_each(|d| *d = false);
        for level in sym.levels() {
            let (pending, pivots) = self.factor_level(sym, level, rest.small, params, &go_on)?;
            rest = rest.merged(pivots);
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
        let mut part = self.whole(rest.small, params);
        let result = (0..done.len())
            .filter(|&s| !done[s])
            .try_for_each(|s| go_on().and_then(|_| part.supernode(sym, s, true)));
        // the scratch goes back also after a zero pivot
        let (pivots, trail, scratch) = (part.pivots, part.trail_pivots, part.scratch.take());
        self.scratch = scratch;
        self.done = done;
        result?;
        self.rest = rest.merged(pivots);
        self.info = self.rest.merged(trail).info(amax);
        Ok(self.info)
    }

    /// Factors the subtrees of one level of [`SymbolicFactor::levels`] in
    /// parallel, each on its own range of the factors, skipping what the
    /// levels before did; returns the links of their supernodes to the
    /// supernodes above (in subtree order, so the factors do not depend on
    /// the number of threads), and their pivots.
    fn factor_level(
        &mut self,
        sym: &SymbolicFactor,
        level: &[(usize, usize)],
        small: f64,
        params: LuParams,
        go_on: &(dyn Fn() -> Result<(), LuError> + Sync),
    ) -> Result<(Vec<(usize, usize)>, Pivots), LuError> {
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
        let (n, (max_k, max_panel)) = (sym.n(), self.sub_max);
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
                pivots: Pivots::new(small),
                trail_pivots: Pivots::new(small),
                par: Par::Seq,
                par_min_flops: params.par_min_flops,
            })
            .collect();
        let results: Vec<Result<Part<'_>, LuError>> = parts
            .into_par_iter()
            .map(|mut part| {
                let taken = pool.lock().map(|mut p| p.pop()).unwrap_or(None);
                part.scratch = Some(taken.unwrap_or_else(|| Scratch::new(n, max_k, max_panel)));
                let result = (part.s0..part.end)
                    .filter(|&s| !done[s])
                    .try_for_each(|s| go_on().and_then(|_| part.supernode(sym, s, true)));
                if let (Some(scratch), Ok(mut p)) = (part.scratch.take(), pool.lock()) {
                    p.push(scratch);
                }
                result.map(|_| part)
            })
            .collect();
        let mut pending = Vec::new();
        let mut pivots = Pivots::new(small);
        for part in results {
            let part = part?;
            pending.extend(part.pending);
            pivots = pivots.merged(part.pivots);
        }
        Ok((pending, pivots))
    }

    /// The part of all supernodes, counting pivots below `small`.
    pub(super) fn whole(&mut self, small: f64, params: LuParams) -> Part<'_> {
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
            pivots: Pivots::new(small),
            trail_pivots: Pivots::new(small),
            par: match rayon::current_num_threads() {
                1 => Par::Seq,
                t => Par::rayon(t),
            },
            par_min_flops: params.par_min_flops,
        }
    }
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
