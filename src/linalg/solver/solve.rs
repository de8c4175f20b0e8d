//! Solves of the whole system: the decision a new matrix left to its first
//! solve (refactor, or keep the old factors: [`crate::linalg::solver::work_model`]),
//! one blocked triangular solve for all right-hand sides, then GMRES on the
//! columns whose true residual is above target.
//!
//! The contract every `Ok` solve keeps, checked on the residual recomputed
//! from `x`: `‖b − A x‖₂ ≤ max(rtol ‖b‖₂, FLOOR_FACTOR · ε ‖|A||x| + |b|‖₂)`.
//! The second term is the residual round-off alone leaves in a computed
//! `x` (`Operator::round_off_floor`): where it exceeds `rtol ‖b‖₂` (a
//! penalty tangent, a stiff body moving fast) no solver reaches `rtol`, and
//! the refinement of fresh factors stalls there. A refinement that stalls
//! above both terms has factors that are not good enough (the pivoting
//! restricted to the supernodes): the matrix is factored again by faer's
//! LU ([`crate::linalg::solver::fallback`]) and solved again; only if that
//! misses the contract too does the solve fail.

use crate::linalg::error::LinearSolveError;
use crate::linalg::krylov::cg::cg;
use crate::linalg::krylov::gmres::gmres;
use crate::linalg::krylov::params::{KrylovError, KrylovParams};
use crate::linalg::krylov::vector::norm;
use crate::linalg::solver::info::SolveInfo;
use crate::linalg::solver::{LinearSolver, Precond};
use std::time::Instant;

/// A row or column of the matrix counts as changed since its factorization
/// where the change exceeds this fraction of its norm (the larger of old
/// and new): smaller changes spread over the matrix (a Newton iterate's
/// stiffness) cost GMRES a few iterations in all, each large one (a contact
/// point switched) a direction of its own. At 0.1 the saddle first
/// contacts of 16² to 32² split cleanly between reuses that converged and
/// attempts that gave up (`docs/decisions/reuse-work-model.md`).
const CHANGED_LINE: f64 = 0.1;

/// GMRES iterations allowed to refine the solution of fresh factors.
const FRESH_ITERATIONS: usize = 100;

/// A refinement that stalls is accepted within this multiple of the
/// round-off floor `ε ‖|A||x| + |b|‖₂`: about the square root of the
/// longest rows (3D hex8 rows hold up to 243 entries), the probabilistic
/// bound of the summation error in a computed residual (Higham 2002, §3.1).
const FLOOR_FACTOR: f64 = 64.0;

impl LinearSolver {
    /// The decision [`LinearSolver::update`] left to the solve of the whole
    /// system; returns whether the matrix was factored.
    fn prepare(&mut self) -> Result<bool, LinearSolveError> {
        self.pending = false;
        let reuse = match &self.precond {
            Some(Precond::Jacobi(_)) | None => false,
            Some(_) => self.factored && self.work.keep_old_factors(self.params.reuse_iterations),
        };
        let reuse = reuse && self.small_change();
        if !reuse {
            return self.refactor().map(|_| true);
        }
        if let Some(Precond::Lu {
            sym,
            lu,
            on_fallback: false,
            ..
        }) = &mut self.precond
        {
            if sym.split().is_some() {
                let t = Instant::now();
                let result = lu.refactor_trailing(sym, &self.op.values, self.params.lu);
                self.stats.trailing_refactorizations += 1;
                self.stats.factor_seconds += t.elapsed().as_secs_f64();
                if result.is_err() {
                    // the block has no pivot within its supernodes: the
                    // whole matrix is factored (or falls back)
                    return self.refactor().map(|_| true);
                }
                self.work.refactored_trailing();
                self.trailing_factored();
            }
        }
        Ok(false)
    }

    /// After a refactorization of the trailing block: the factors are of
    /// its current values ([`Self::small_change`] compares against them).
    pub(super) fn trailing_factored(&mut self) {
        if let Some(Precond::Lu { lu, .. }) = &self.precond {
            for k in lu.trailing_entries() {
                if let Some(f) = self.factored_values.get_mut(k) {
                    *f = self.op.values[k];
                }
            }
        }
    }

    /// Whether the matrix given last differs from the one the factors are
    /// of by a change the old factors can absorb within the work model's
    /// iteration limit: the lines (rows or columns, the fewer) that moved
    /// by more than [`CHANGED_LINE`] of their norm bound the rank of the
    /// large part of the change, and GMRES preconditioned by the old
    /// factors needs about that many iterations more ([`super::change`]).
    fn small_change(&mut self) -> bool {
        if self.factored_values.len() != self.op.values.len() {
            return true;
        }
        let t = Instant::now();
        let (rows, cols) = super::change::changed_lines(
            &self.op.pattern,
            &self.factored_values,
            &self.op.values,
            CHANGED_LINE,
            &mut self.change,
        );
        self.stats.solve_seconds += t.elapsed().as_secs_f64();
        let limit = self.work.reuse_limit(self.params.reuse_iterations);
        let small = rows.min(cols) <= limit;
        log::trace!(
            "work model: {rows} rows, {cols} columns changed by more than {CHANGED_LINE} of their norm since the factorization; limit {limit} iterations: {}",
            if small { "old factors kept" } else { "refactored" }
        );
        small
    }

    /// Solves `A x = rhs` in place for the matrix given last.
    pub fn solve_in_place(&mut self, rhs: &mut [f64]) -> Result<SolveInfo, LinearSolveError> {
        self.solve_many_in_place(rhs, 1)
    }

    /// Solves `A X = B` in place for the `nrhs` columns of `rhs`
    /// (column-major, `n × nrhs`): one blocked triangular solve for all
    /// columns, then GMRES on the columns whose residual is above target
    /// (module doc: the contract, and the fallback).
    pub fn solve_many_in_place(
        &mut self,
        rhs: &mut [f64],
        nrhs: usize,
    ) -> Result<SolveInfo, LinearSolveError> {
        let n = self.op.n();
        assert_eq!(rhs.len(), n * nrhs, "right-hand sides of another size");
        // the factorization done here (at the first solve, or as the
        // decision `update` left) counts as this solve's
        let mut refactored = false;
        if !self.factored || self.precond.is_none() {
            self.refactor()?;
            refactored = true;
        } else if self.pending {
            refactored = self.prepare()?;
        }
        let t = Instant::now();
        self.b.clear();
        self.b.extend_from_slice(rhs);
        let iterative = matches!(self.precond, Some(Precond::Jacobi(_)));
        let result = loop {
            let limit = if iterative {
                self.params.max_iterations
            } else if self.fresh {
                FRESH_ITERATIONS
            } else {
                self.work.reuse_limit(self.params.reuse_iterations)
            };
            rhs.copy_from_slice(&self.b);
            let floor = self.fresh && !iterative;
            match self.krylov_all(rhs, nrhs, limit, floor) {
                Ok(info) => {
                    self.stats.krylov_iterations += info.iterations;
                    self.work.solved(nrhs, info.iterations);
                    log::trace!(
                        "linear solve: {nrhs} right-hand side(s), {} Krylov iterations, residual {:.1e}, modelled {:.3} s, measured {:.3} s{}",
                        info.iterations,
                        info.residual,
                        (nrhs + info.iterations) as f64 * self.work.costs().1,
                        t.elapsed().as_secs_f64(),
                        if refactored { ", refactored" } else if self.fresh { "" } else { ", old factors" }
                    );
                    break Ok(SolveInfo { refactored, ..info });
                }
                Err(e) => {
                    self.stats.krylov_iterations += e.iterations;
                    let tf = Instant::now();
                    if self.fresh && matches!(self.precond, Some(Precond::Lu { .. })) {
                        if self.on_fallback() {
                            break Err(LinearSolveError::NoConvergence(e));
                        }
                        let why = format!(
                            "the refinement of the supernodal LU's solution stalled at {:.1e}",
                            e.residual
                        );
                        self.factor_fallback(&why)?;
                        self.work.factored();
                        self.stats.factorizations += 1;
                        refactored = true;
                        self.stats.solve_seconds -= tf.elapsed().as_secs_f64();
                        self.stats.factor_seconds += tf.elapsed().as_secs_f64();
                        continue;
                    }
                    if iterative || self.fresh {
                        break Err(LinearSolveError::NoConvergence(e));
                    }
                    log::debug!(
                        "linear solve: old factors gave up after {} Krylov iterations at relative residual {:.1e}: refactored",
                        e.iterations,
                        e.residual
                    );
                    self.refactor()?;
                    refactored = true;
                    // refactorization time is counted as factorization, not solve
                    self.stats.solve_seconds -= tf.elapsed().as_secs_f64();
                }
            }
        };
        self.stats.solves += nrhs;
        self.stats.solve_seconds += t.elapsed().as_secs_f64();
        result
    }

    /// `M⁻¹` on all columns, then per column a Krylov solve from there
    /// (returns at once where the residual is already below target); with
    /// `floor`, a stalled solve within `FLOOR_FACTOR` of its round-off floor
    /// is accepted.
    fn krylov_all(
        &mut self,
        rhs: &mut [f64],
        nrhs: usize,
        limit: usize,
        floor: bool,
    ) -> Result<SolveInfo, KrylovError> {
        let n = self.op.n();
        let precond = self
            .precond
            .as_mut()
            .expect("a preconditioner is built before solving");
        let direct = !matches!(precond, Precond::Jacobi(_));
        if direct {
            precond.apply(rhs, nrhs);
        } else {
            rhs.iter_mut().for_each(|v| *v = 0.0);
        }
        let params = KrylovParams {
            rtol: self.params.rtol,
            max_iterations: limit,
            restart: self.params.restart,
        };
        // after the factors' solve, the columns already within the target
        // (all of them, with fresh factors) are checked in one pass over A
        let mut done = Vec::new();
        if direct && nrhs > 1 {
            self.op.residual_norms(&self.b, rhs, nrhs, &mut done);
            for (c, r) in done.iter_mut().enumerate() {
                let bn = norm(&self.b[c * n..(c + 1) * n]);
                *r = if *r <= self.params.rtol * bn {
                    *r / bn.max(f64::MIN_POSITIVE)
                } else {
                    -1.0
                };
            }
        }
        let mut info = SolveInfo::default();
        for c in 0..nrhs {
            if done.get(c).is_some_and(|&r| r >= 0.0) {
                info.residual = info.residual.max(done[c]);
                continue;
            }
            let b = &self.b[c * n..(c + 1) * n];
            let x = &mut rhs[c * n..(c + 1) * n];
            let r = {
                let op = &mut self.op;
                let mut a = |x: &[f64], y: &mut [f64]| op.apply(x, y);
                let mut m = |v: &mut [f64]| precond.apply(v, 1);
                if self.params.symmetric && !direct {
                    cg(&mut a, &mut m, b, x, params, &mut self.krylov)
                } else {
                    gmres(&mut a, &mut m, b, x, params, &mut self.krylov)
                }
            };
            match r {
                Ok(k) => {
                    info.iterations += k.iterations;
                    info.residual = info.residual.max(k.residual);
                }
                Err(e)
                    if floor
                        && e.residual * norm(b) <= FLOOR_FACTOR * self.op.round_off_floor(x, b) =>
                {
                    log::debug!(
                        "linear solve: refinement stalled at relative residual {:.1e} (target {:.0e}) within {FLOOR_FACTOR} times its round-off floor, accepted",
                        e.residual,
                        e.target
                    );
                    info.iterations += e.iterations;
                    info.residual = info.residual.max(e.residual);
                }
                Err(e) => {
                    return Err(KrylovError {
                        iterations: info.iterations + e.iterations,
                        ..e
                    })
                }
            }
        }
        Ok(info)
    }
}
