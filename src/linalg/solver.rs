//! `LinearSolver`: the one type the time stepper solves its linear systems
//! with. It owns a copy of the matrix, chooses a direct or an iterative
//! method, keeps the symbolic analysis while the pattern stays, decides when
//! to refactor, and measures every solution by its true residual.
//!
//! Direct path: the symmetric-pattern LU of [`SupernodalLu`] (or, for a
//! symmetric matrix, faer's `LDLᵀ`) on a nested-dissection ordering. A new
//! matrix given by [`LinearSolver::update`] is not refactored at once: the
//! factors of an earlier matrix precondition right-preconditioned GMRES on
//! the new one (Saad & Schultz 1986). Fresh factors solve in one triangular
//! solve, refined by GMRES where the pivoting restricted to the supernodes
//! left the residual above target.
//!
//! When to refactor is decided on a work model, not on the clock (so runs
//! are reproducible): a factorization costs `F = flops / 35 GFlop/s`, a
//! Krylov iteration `I` = the bytes it reads (the factors, `A`, the Krylov
//! basis) at 10 GB/s; a refactorization of the trailing (contact) block
//! only its flops. Since the last
//! factorization the solver sums the cost of the cycle, `F + Σ (1 + k_j) I`
//! over its solves; the first solve after [`LinearSolver::update`]
//! refactors when the last solve cost more than the cycle's average per
//! solve (the marginal cost of keeping the old factors has passed the
//! average cost of refactoring) or when a factorization costs less than 4
//! iterations (small systems), and a solve with old factors gives up and
//! refactors after `F / I` iterations (a failed attempt costs at most one
//! factorization).
//!
//! Many right-hand sides that live on the contact nodes, of which only the
//! contact nodes' entries are wanted (`W = B K⁻¹ H` of exact contact
//! enforcement), are solved on the trailing block of fresh factors alone
//! ([`LinearSolver::solve_restricted_many_in_place`]): with old factors
//! each column would need its own Krylov solve, which on the friction
//! blocks (700 columns, 10–30 iterations each) cost minutes per Newton
//! iteration against one factorization of 0.5 s.
//!
//! Iterative path (models whose factors do not fit in memory): GMRES, or CG
//! for a symmetric matrix, with the node-block Jacobi preconditioner.
//!
//! Every `Ok` solve has `‖b − A x‖₂ ≤ rtol ‖b‖₂` for the matrix given last,
//! recomputed from `x` after the solve; otherwise the solve returns
//! [`LinearSolveError::NoConvergence`].

use super::error::LinearSolveError;
use super::krylov::{cg, gmres, norm, KrylovError, KrylovParams, KrylovWork};
use super::ldlt::SparseLdlt;
use super::operator::{BlockJacobi, Operator};
use super::plan::{plan, LinearPlan};
use super::solver_types::{LinearParams, LinearStats, SolveInfo};
use super::supernodal_lu::SupernodalLu;
use super::symbolic::SymbolicFactor;
use super::BlockPattern;
use std::time::Instant;

mod analysis;
mod trailing;

/// The factors (or preconditioner) of the current pattern.
enum Precond {
    Lu {
        sym: SymbolicFactor,
        lu: SupernodalLu,
        x: Vec<f64>,
        t: Vec<f64>,
    },
    Ldlt {
        sym: SymbolicFactor,
        ldlt: SparseLdlt,
        sym_values: Vec<f64>,
    },
    Jacobi(BlockJacobi),
}

impl Precond {
    /// `rhs ← M⁻¹ rhs` for `nrhs` columns.
    fn apply(&mut self, rhs: &mut [f64], nrhs: usize) {
        match self {
            Precond::Lu { sym, lu, x, t } => lu.solve_in_place(sym, rhs, nrhs, x, t),
            Precond::Ldlt { sym, ldlt, .. } => ldlt.solve_in_place(sym, rhs, nrhs),
            Precond::Jacobi(j) => {
                let n = rhs.len() / nrhs;
                rhs.chunks_mut(n).for_each(|c| j.apply(c))
            }
        }
    }
}

/// Old factors are kept only where a factorization costs more than this
/// many Krylov iterations (on small systems refactoring is cheaper than
/// the iterations a reuse needs).
const MIN_REUSE_RATIO: f64 = 4.0;

/// Largest trailing block (volatile nodes × dofs per node) ordered last.
const MAX_TRAILING_DOFS: usize = 6000;

/// GMRES iterations allowed to refine the solution of fresh factors.
const FRESH_ITERATIONS: usize = 100;

/// A solve with fresh factors whose refinement stalls (the matrix's
/// round-off floor, `cond(A)·ε`, above the target: penalty contact makes
/// such tangents) is accepted up to this relative residual; the Newton
/// residual that follows judges the step.
const FRESH_FLOOR: f64 = 1e-8;

/// Work model: flops per second of a factorization, bytes per second of
/// the memory-bound solves and products. Measured on the project's machine
/// (one thread): 35–37 GFlop/s factoring the free-flight tangent at 166k
/// dofs and the friction-blocks tangent at 18.5k; its triangular solves
/// read the factors at 6 GB/s (2.8 GB) and 14 GB/s (124 MB). Only the
/// ratio matters: it puts a factorization at 22 Krylov iterations on the
/// blocks (measured 33) and 95 on the 166k tangent (measured 50).
const FACTOR_RATE: f64 = 35e9;
const MEMORY_RATE: f64 = 10e9;

/// Direct or iterative solver of the linear systems on one pattern.
pub struct LinearSolver {
    params: LinearParams,
    plan: LinearPlan,
    op: Operator,
    precond: Option<Precond>,
    /// The factors are of the current values.
    fresh: bool,
    /// New values given by `update`, not yet acted on (`prepare`).
    pending: bool,
    /// Some matrix of the current pattern has been factored.
    factored: bool,
    /// The values outside the trailing block are those of the last full
    /// factorization ([`LinearSolver::update_trailing`] may take a new
    /// trailing block on them).
    intact: bool,
    /// Nodes ordered last (`set_pattern`), sorted.
    volatile: Vec<usize>,
    /// LU flops of the last unconstrained analysis ([`Self::symbolic`]).
    plain_flops: Option<f64>,
    /// Work model: cost of a factorization, of a trailing-block
    /// refactorization and of a Krylov iteration.
    factor_cost: f64,
    trailing_cost: f64,
    /// Modelled cost of a trailing refactorization done since the last solve.
    pending_cost: f64,
    iteration_cost: f64,
    /// Since the last factorization: modelled cost (factorization included)
    /// and solves; the cost of the last solve.
    cycle_cost: f64,
    cycle_solves: usize,
    last_solve_cost: f64,
    stats: LinearStats,
    work: KrylovWork,
    b: Vec<f64>,
}

impl LinearSolver {
    /// Plans the method for `pattern` and, on the direct path, runs the
    /// symbolic analysis.
    pub fn new(
        pattern: &BlockPattern,
        params: LinearParams,
    ) -> Result<LinearSolver, LinearSolveError> {
        let plan = plan(pattern.node_graph(), pattern.dim(), &params)?;
        let mut s = LinearSolver {
            params,
            plan,
            op: Operator::new(pattern),
            precond: None,
            fresh: false,
            pending: false,
            factored: false,
            intact: false,
            volatile: Vec::new(),
            plain_flops: None,
            factor_cost: 0.0,
            trailing_cost: 0.0,
            pending_cost: 0.0,
            iteration_cost: 0.0,
            cycle_cost: 0.0,
            cycle_solves: 0,
            last_solve_cost: 0.0,
            stats: LinearStats::default(),
            work: KrylovWork::default(),
            b: Vec::new(),
        };
        s.analyse()?;
        Ok(s)
    }

    /// A new pattern (contact couplings changed): new symbolic analysis,
    /// counters kept. The method chosen at `new` stays.
    ///
    /// `volatile`: nodes whose rows and columns change most from one matrix
    /// to the next (the contact nodes). On the direct LU path they are
    /// ordered last when that costs little fill, and later matrices then
    /// refactor only their trailing block (`SupernodalLu::refactor_trailing`)
    /// while the factors of the rest precondition GMRES.
    pub fn set_pattern(
        &mut self,
        pattern: &BlockPattern,
        volatile: &[usize],
    ) -> Result<(), LinearSolveError> {
        self.op = Operator::new(pattern);
        // analyse() takes the old factors' arrays for the new ones
        self.fresh = false;
        self.pending = false;
        self.factored = false;
        self.volatile.clear();
        self.volatile.extend_from_slice(volatile);
        self.volatile.sort_unstable();
        self.volatile.dedup();
        self.analyse()
    }

    /// The method in use and the memory estimate behind the choice.
    pub fn plan(&self) -> LinearPlan {
        self.plan
    }

    /// Sets the relative residual every later solve must reach (`‖b − Ax‖ ≤ rtol ‖b‖`).
    pub fn set_tolerance(&mut self, rtol: f64) {
        assert!(
            rtol > 0.0 && rtol < 1.0,
            "a relative residual target in (0, 1)"
        );
        self.params.rtol = rtol;
    }

    /// The counters.
    pub fn stats(&self) -> LinearStats {
        self.stats
    }

    /// The pattern the solver works on.
    pub fn pattern(&self) -> &BlockPattern {
        &self.op.pattern
    }

    /// Starts a time step: the next [`LinearSolver::update`] factors its
    /// matrix, so that a step's solves (and its round-off) depend on that
    /// step's matrices only; a run restarted from a checkpoint then repeats
    /// the uninterrupted run bit for bit.
    pub fn begin_step(&mut self) {
        self.factored = false;
    }

    /// Factors the matrix with values `values` now.
    pub fn factorize(&mut self, values: &[f64]) -> Result<(), LinearSolveError> {
        self.set_values(values);
        self.refactor()
    }

    /// Takes a new matrix. What to do with it is decided by the next solve:
    /// a solve of the whole system keeps the factors of an earlier matrix as
    /// its preconditioner while the last solve cost no more than the average
    /// solve of the cycle since the last factorization (module doc), and
    /// factors it otherwise (or without factors); a restricted solve
    /// ([`LinearSolver::solve_restricted_many_in_place`]) factors it.
    pub fn update(&mut self, values: &[f64]) -> Result<(), LinearSolveError> {
        self.set_values(values);
        self.pending = true;
        Ok(())
    }

    /// The decision [`LinearSolver::update`] left to the solve of the whole
    /// system; returns whether the matrix was factored.
    fn prepare(&mut self) -> Result<bool, LinearSolveError> {
        self.pending = false;
        let reuse = match &self.precond {
            Some(Precond::Jacobi(_)) | None => false,
            Some(_) => {
                self.factored
                    && self.reuse_limit() > 0
                    && self.factor_cost > MIN_REUSE_RATIO * self.iteration_cost
                    && self.last_solve_cost * self.cycle_solves as f64 <= self.cycle_cost
            }
        };
        if !reuse {
            return self.refactor().map(|_| true);
        }
        if let Some(Precond::Lu { sym, lu, .. }) = &mut self.precond {
            if sym.split().is_some() {
                let t = Instant::now();
                lu.refactor_trailing(sym, &self.op.values)
                    .map_err(|e| LinearSolveError::Numeric(e.to_string()))?;
                self.stats.trailing_refactorizations += 1;
                self.stats.factor_seconds += t.elapsed().as_secs_f64();
                self.pending_cost += self.trailing_cost;
            }
        }
        Ok(false)
    }

    fn set_values(&mut self, values: &[f64]) {
        assert_eq!(
            values.len(),
            self.op.values.len(),
            "values of another pattern"
        );
        self.op.values.copy_from_slice(values);
        self.fresh = false;
        self.intact = false;
    }

    fn refactor(&mut self) -> Result<(), LinearSolveError> {
        self.pending = false;
        let t = Instant::now();
        if self.op.values.iter().any(|v| !v.is_finite()) {
            return Err(LinearSolveError::Numeric("non-finite matrix entry".into()));
        }
        match &mut self.precond {
            Some(Precond::Lu { sym, lu, .. }) => lu
                .factorize(sym, &self.op.values)
                .map_err(|e| LinearSolveError::Numeric(e.to_string()))?,
            Some(Precond::Ldlt {
                sym,
                ldlt,
                sym_values,
            }) => {
                let vals = if self.params.symmetric {
                    &self.op.values
                } else {
                    self.op.symmetric_part(sym_values);
                    &*sym_values
                };
                ldlt.factorize(sym, self.op.pattern.symbolic(), vals)
                    .map_err(|e| LinearSolveError::Numeric(e.to_string()))?
            }
            Some(Precond::Jacobi(_)) | None => {
                self.precond = Some(Precond::Jacobi(
                    BlockJacobi::new(&self.op)
                        .map_err(|e| LinearSolveError::Numeric(e.to_string()))?,
                ));
            }
        }
        self.fresh = true;
        self.factored = true;
        self.intact = matches!(self.precond, Some(Precond::Lu { .. }));
        self.cycle_cost = self.factor_cost;
        self.cycle_solves = 0;
        self.pending_cost = 0.0;
        self.last_solve_cost = 0.0;
        // the block-Jacobi inverses are no factorization, but their time is setup
        if !matches!(self.precond, Some(Precond::Jacobi(_))) {
            self.stats.factorizations += 1;
        }
        self.stats.factor_seconds += t.elapsed().as_secs_f64();
        Ok(())
    }

    /// Solves `A x = rhs` in place for the matrix given last.
    pub fn solve_in_place(&mut self, rhs: &mut [f64]) -> Result<SolveInfo, LinearSolveError> {
        self.solve_many_in_place(rhs, 1)
    }

    /// Solves `A X = B` in place for the `nrhs` columns of `rhs`
    /// (column-major, `n × nrhs`): one blocked triangular solve for all
    /// columns, then GMRES on the columns whose residual is above target.
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
                self.reuse_limit()
            };
            rhs.copy_from_slice(&self.b);
            let accept = if self.fresh && !iterative {
                FRESH_FLOOR
            } else {
                0.0
            };
            match self.krylov_all(rhs, nrhs, limit, accept) {
                Ok(info) => {
                    self.stats.krylov_iterations += info.iterations;
                    let cost = (nrhs + info.iterations) as f64 * self.iteration_cost
                        + std::mem::take(&mut self.pending_cost);
                    self.cycle_cost += cost;
                    self.cycle_solves += nrhs;
                    self.last_solve_cost = cost / nrhs as f64;
                    log::trace!(
                        "linear solve: {nrhs} right-hand side(s), {} Krylov iterations, residual {:.1e}{}",
                        info.iterations,
                        info.residual,
                        if refactored { ", refactored" } else if self.fresh { "" } else { ", old factors" }
                    );
                    break Ok(SolveInfo { refactored, ..info });
                }
                Err(e) => {
                    self.stats.krylov_iterations += e.iterations;
                    if iterative || self.fresh {
                        break Err(LinearSolveError::NoConvergence(e));
                    }
                    let tf = Instant::now();
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

    /// Solves `A X = B` in place for `nrhs` columns that are zero outside
    /// the dofs `support`, when only the entries of `X` on `support` are
    /// wanted (the columns `K⁻¹H` of which `W = B K⁻¹ H` reads the contact
    /// nodes); the other entries of `rhs` are unspecified on return.
    ///
    /// Where `support` lies in the trailing block of the LU (the volatile
    /// nodes of [`LinearSolver::set_pattern`]) this is the Schur-complement
    /// solve of [`SupernodalLu::solve_trailing_in_place`] with factors of
    /// the current matrix: exact, and on the friction blocks a few percent
    /// of a full solve. Otherwise (no trailing block, `support` outside it,
    /// or pivots below `√ε·max|A|` in the factorization, whose solves may
    /// need refinement) this is [`LinearSolver::solve_many_in_place`]. In
    /// both cases old factors are refactored first, since a Krylov solve per
    /// column costs far more than a factorization once the columns are many
    /// (docs/performance.md; the coarse friction blocks without a trailing
    /// block took 3,365 Krylov iterations and twice the run's CPU).
    pub fn solve_restricted_many_in_place(
        &mut self,
        rhs: &mut [f64],
        nrhs: usize,
        support: &[usize],
    ) -> Result<SolveInfo, LinearSolveError> {
        let n = self.op.n();
        assert_eq!(rhs.len(), n * nrhs, "right-hand sides of another size");
        let inside = match &self.precond {
            Some(Precond::Lu { sym, .. }) => SupernodalLu::trailing_begin(sym)
                .is_some_and(|c0| support.iter().all(|&d| sym.perm().1[d] >= c0)),
            _ => false,
        };
        if !inside {
            // many columns: old factors would make each a Krylov solve
            // (docs/performance.md), so the matrix is factored here as well
            if matches!(
                self.precond,
                Some(Precond::Lu { .. } | Precond::Ldlt { .. })
            ) && !(self.factored && self.fresh)
            {
                self.refactor()?;
            }
            return self.solve_many_in_place(rhs, nrhs);
        }
        let refactored = !(self.factored && self.fresh);
        if refactored {
            self.refactor()?;
        }
        let t = Instant::now();
        let Some(Precond::Lu { sym, lu, x, t: tw }) = &mut self.precond else {
            unreachable!("checked above");
        };
        if lu.small_pivots() > 0 {
            return self.solve_many_in_place(rhs, nrhs);
        }
        lu.solve_trailing_in_place(sym, rhs, nrhs, x, tw);
        self.stats.solves += nrhs;
        self.stats.trailing_solves += nrhs;
        self.stats.solve_seconds += t.elapsed().as_secs_f64();
        Ok(SolveInfo {
            iterations: 0,
            residual: f64::NAN,
            refactored,
        })
    }

    /// `M⁻¹` on all columns, then per column a Krylov solve from there
    /// (returns at once where the residual is already below target).
    fn krylov_all(
        &mut self,
        rhs: &mut [f64],
        nrhs: usize,
        limit: usize,
        accept: f64,
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
        let op = &mut self.op;
        let mut a = |x: &[f64], y: &mut [f64]| op.apply(x, y);
        let mut m = |v: &mut [f64]| precond.apply(v, 1);
        let mut info = SolveInfo::default();
        for c in 0..nrhs {
            if done.get(c).is_some_and(|&r| r >= 0.0) {
                info.residual = info.residual.max(done[c]);
                continue;
            }
            let b = &self.b[c * n..(c + 1) * n];
            let x = &mut rhs[c * n..(c + 1) * n];
            let r = if self.params.symmetric && !direct {
                cg(&mut a, &mut m, b, x, params, &mut self.work)
            } else {
                gmres(&mut a, &mut m, b, x, params, &mut self.work)
            };
            match r {
                Ok(k) => {
                    info.iterations += k.iterations;
                    info.residual = info.residual.max(k.residual);
                }
                Err(e) if e.residual <= accept => {
                    log::debug!(
                        "linear solve: refinement stalled at relative residual {:.1e} (target {:.0e}), accepted",
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
