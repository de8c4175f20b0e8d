//! `LinearSolver`: the one type the time stepper solves its linear systems
//! with. It owns a copy of the matrix, chooses a direct or an iterative
//! method ([`mod@plan`]), keeps the symbolic analysis while the pattern stays,
//! decides when to refactor ([`work_model`]), and measures every solution
//! by its true residual ([`solve`]).
//!
//! Direct path: the symmetric-pattern LU of [`SupernodalLu`] (or, for a
//! symmetric matrix, faer's `LDLᵀ`) on a nested-dissection ordering. A new
//! matrix given by [`LinearSolver::update`] is not refactored at once: the
//! factors of an earlier matrix precondition right-preconditioned GMRES on
//! the new one (Saad & Schultz 1986) while the work model says that pays.
//! Fresh factors solve in one triangular solve, refined by GMRES where the
//! pivoting restricted to the supernodes left the residual above target.
//!
//! The contact nodes may be ordered last ([`trailing`]): many right-hand
//! sides that live on them, of which only their entries are wanted
//! (`W = B K⁻¹ H` of exact contact enforcement), are then solved on the
//! trailing block of fresh factors alone ([`restricted`]), and a chord
//! iteration refactors that block alone ([`chord`]).
//!
//! Iterative path (models whose factors do not fit in memory): GMRES, or CG
//! for a symmetric matrix, with the node-block Jacobi preconditioner; with
//! pseudo-nodes (the saddle path's contact multipliers, `set_pattern`'s
//! `anchored`) each anchor and its pseudo-nodes form one block inverted
//! exactly (Vanka 1986), or, where such a block is singular, each point's
//! local Schur complement closes a block-triangular preconditioner
//! (Benzi, Golub & Liesen 2005; [`iterative_precond`]).
//!
//! The contract, checked on the residual recomputed from `x` after every
//! solve of the whole system: an `Ok` solve has, for the matrix given last,
//!
//! ```text
//! ‖b − A x‖₂ ≤ max(rtol ‖b‖₂, 64 ε ‖|A||x| + |b|‖₂)      (rtol = 1e-12 by default)
//! ```
//!
//! the second term being the round-off floor no solver reliably beats
//! (where it exceeds `rtol ‖b‖₂`: penalty tangents, stiff bodies moving
//! fast); otherwise the solve returns [`LinearSolveError::NoConvergence`].
//! A factorization that meets a zero pivot in a supernode block, and fresh
//! factors whose refinement stalls above the contract, are replaced by
//! faer's LU of the same matrix before a solve fails ([`fallback`]).
//! Restricted solves return partial solutions: their contract is checked
//! on one sampled column ([`restricted`]).

pub(crate) mod change;
pub(crate) mod chord;
pub(crate) mod fallback;
pub(crate) mod info;
pub(crate) mod params;
pub(crate) mod plan;
pub(crate) mod restricted;
pub(crate) mod solve;
pub(crate) mod trailing;
pub(crate) mod work_model;

use crate::linalg::error::LinearSolveError;
use crate::linalg::krylov::jacobi::{BlockJacobi, SingularBlock};
use crate::linalg::krylov::params::KrylovWork;
use crate::linalg::krylov::schur::{IterativePrecond, LocalSchur};
use crate::linalg::ldlt::SparseLdlt;
use crate::linalg::lu::fallback::SparseLu;
use crate::linalg::lu::symbolic::SymbolicFactor;
use crate::linalg::lu::SupernodalLu;
use crate::linalg::operator::Operator;
use crate::linalg::ordering::constraints::OrderConstraints;
use crate::linalg::pattern::BlockPattern;
use crate::linalg::solver::info::LinearStats;
use crate::linalg::solver::params::{LinearMethod, LinearParams};
use crate::linalg::solver::plan::{plan, LinearPlan};
use crate::linalg::solver::work_model::WorkModel;
use crate::linalg::LuError;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

/// The factors (or preconditioner) of the current pattern.
pub(super) enum Precond {
    /// The supernodal LU, its solve scratch, and faer's LU as its fallback
    /// (analysed on first use; `on_fallback`: its factors are the current ones).
    Lu {
        sym: SymbolicFactor,
        lu: SupernodalLu,
        x: Vec<f64>,
        t: Vec<f64>,
        fallback: Option<SparseLu>,
        on_fallback: bool,
    },
    Ldlt {
        sym: SymbolicFactor,
        ldlt: SparseLdlt,
    },
    Jacobi(IterativePrecond),
}

impl Precond {
    /// `rhs ← M⁻¹ rhs` for `nrhs` columns.
    pub(super) fn apply(&mut self, rhs: &mut [f64], nrhs: usize) {
        match self {
            Precond::Lu {
                fallback: Some(f),
                on_fallback: true,
                ..
            } => {
                // a non-finite solution shows in the residual the caller checks
                let _ = f.solve_columns(rhs, nrhs);
            }
            Precond::Lu { sym, lu, x, t, .. } => lu.solve_in_place(sym, rhs, nrhs, x, t),
            Precond::Ldlt { sym, ldlt, .. } => ldlt.solve_in_place(sym, rhs, nrhs),
            Precond::Jacobi(j) => {
                let n = rhs.len() / nrhs;
                rhs.chunks_mut(n).for_each(|c| j.apply(c))
            }
        }
    }
}

/// The iterative path's preconditioner: block Jacobi with each anchor and
/// its pseudo-nodes in one block ([`BlockJacobi::coupled`]); where such a
/// block is singular (several points on one anchor whose multiplier
/// blocks vanish), the block-triangular one with local Schur complements
/// ([`LocalSchur`]), which takes each point with all the nodes it couples
/// to (docs/decisions/iterative-contact.md).
fn iterative_precond(
    op: &Operator,
    anchored: &[(usize, usize)],
) -> Result<IterativePrecond, SingularBlock> {
    match BlockJacobi::coupled(op, anchored) {
        Ok(b) => Ok(IterativePrecond::Blocks(b)),
        Err(e) if anchored.is_empty() => Err(e),
        Err(e) => {
            log::debug!("block Jacobi: {e} (an anchor with its multipliers): local Schur complements instead");
            LocalSchur::new(op, anchored).map(IterativePrecond::Schur)
        }
    }
}

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
    /// Pseudo-nodes and their anchors (`set_pattern`).
    anchored: Vec<(usize, usize)>,
    /// LU flops of the last unconstrained analysis ([`trailing::analyse`]).
    plain_flops: Option<f64>,
    /// When to refactor.
    work: WorkModel,
    stats: LinearStats,
    krylov: KrylovWork,
    /// The right-hand sides of the solve under way.
    b: Vec<f64>,
    /// The sampled column of a restricted solve, and residual norms.
    sample: Vec<f64>,
    norms: Vec<f64>,
    /// The values the factors are of (direct LU path), and scratch for
    /// comparing them with the current ones ([`change`]).
    factored_values: Vec<f64>,
    change: change::ChangeScratch,
    /// The caller's stop request: a factorization under way ends at its
    /// next supernode ([`LinearSolveError::Cancelled`]).
    stop: Option<Arc<AtomicBool>>,
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
            anchored: Vec::new(),
            plain_flops: None,
            work: WorkModel::default(),
            stats: LinearStats::default(),
            krylov: KrylovWork::default(),
            b: Vec::new(),
            sample: Vec::new(),
            norms: Vec::new(),
            factored_values: Vec::new(),
            change: Default::default(),
            stop: None,
        };
        s.analyse()?;
        Ok(s)
    }

    /// A new pattern (contact couplings changed): new symbolic analysis,
    /// counters kept. The method chosen at `new` stays.
    ///
    /// `volatile`: nodes whose rows and columns change most from one matrix
    /// to the next (the contact nodes). On the direct LU path they are
    /// ordered last when that costs little fill ([`trailing`]), and later
    /// matrices then refactor only their trailing block while the factors
    /// of the rest precondition GMRES.
    ///
    /// `anchored`: `(node, anchor)` pairs of pseudo-nodes (a contact
    /// point's multiplier block, `D` unknowns coupled to a few nodes, its
    /// diagonal block possibly exactly zero), each ordered right after its
    /// anchor and factored in its anchor's supernode, whose pivoting then
    /// takes the zero diagonal ([`OrderConstraints`]). A pseudo-node is no
    /// anchor and anchored once.
    pub fn set_pattern(
        &mut self,
        pattern: &BlockPattern,
        volatile: &[usize],
        anchored: &[(usize, usize)],
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
        self.anchored.clear();
        self.anchored.extend_from_slice(anchored);
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

    /// The matrix given last (after [`LinearSolver::update_trailing`], the
    /// matrix `K̃` its factors are of): its pattern and values.
    pub fn matrix(&self) -> (&BlockPattern, &[f64]) {
        (&self.op.pattern, &self.op.values)
    }

    /// Starts a time step: the next [`LinearSolver::update`] factors its
    /// matrix, so that a step's solves (and its round-off) depend on that
    /// step's matrices only; a run restarted from a checkpoint then repeats
    /// the uninterrupted run bit for bit.
    /// The caller's stop request (`None`: none): a factorization sees it
    /// before each supernode and ends with [`LinearSolveError::Cancelled`];
    /// the factors are then unusable until the next factorization.
    pub fn set_stop(&mut self, stop: Option<Arc<AtomicBool>>) {
        self.stop = stop;
    }

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
        let failed = match &mut self.precond {
            Some(Precond::Lu {
                sym,
                lu,
                on_fallback,
                ..
            }) => {
                match lu.factorize_until(sym, &self.op.values, self.params.lu, self.stop.as_deref())
                {
                    Ok(_) => {
                        *on_fallback = false;
                        None
                    }
                    Err(LuError::Cancelled) => {
                        // not the matrix's: no fallback, nothing factored
                        self.factored = false;
                        return Err(LinearSolveError::Cancelled);
                    }
                    Err(e) => Some(e),
                }
            }
            Some(Precond::Ldlt { sym, ldlt }) => {
                ldlt.factorize(sym, self.op.pattern.symbolic(), &self.op.values)
                    .map_err(|e| LinearSolveError::Numeric(e.to_string()))?;
                None
            }
            Some(Precond::Jacobi(_)) | None => {
                self.precond = Some(Precond::Jacobi(
                    iterative_precond(&self.op, &self.anchored)
                        .map_err(|e| LinearSolveError::Numeric(e.to_string()))?,
                ));
                None
            }
        };
        if let Some(e) = failed {
            self.factor_fallback(&e.to_string())?;
        }
        self.fresh = true;
        self.factored = true;
        self.intact = matches!(
            self.precond,
            Some(Precond::Lu {
                on_fallback: false,
                ..
            })
        );
        self.work.factored();
        self.factored_values.clear();
        self.factored_values.extend_from_slice(&self.op.values);
        // the block-Jacobi inverses are no factorization, but their time is setup
        if !matches!(self.precond, Some(Precond::Jacobi(_))) {
            self.stats.factorizations += 1;
        }
        let secs = t.elapsed().as_secs_f64();
        self.stats.factor_seconds += secs;
        log::trace!(
            "work model: factorization modelled {:.3} s, measured {:.3} s",
            self.work.costs().0,
            secs
        );
        Ok(())
    }

    /// The symbolic analysis of the current pattern and factors allocated
    /// on it (in the arrays of the last pattern's), on the direct path.
    fn analyse(&mut self) -> Result<(), LinearSolveError> {
        // the arrays of the last pattern's factors serve the new ones
        let old = self.precond.take();
        if self.plan.method != LinearMethod::Direct {
            return Ok(());
        }
        let t = Instant::now();
        let symmetric = self.params.symmetric;
        let sym = if symmetric {
            let c = OrderConstraints {
                last: &[],
                anchored: &self.anchored,
            };
            SymbolicFactor::with_constraints(&self.op.pattern, self.plan.ordering, None, c)
                .map_err(|e| LinearSolveError::Symbolic(e.to_string()))?
        } else {
            trailing::analyse(
                &self.op.pattern,
                self.plan.ordering,
                &self.volatile,
                &self.anchored,
                &mut self.plain_flops,
            )?
        };
        let pattern = &self.op.pattern;
        let (old, x, tw) = match old {
            Some(Precond::Lu { lu, x, t, .. }) => (Some(lu), x, t),
            _ => (None, Vec::new(), Vec::new()),
        };
        self.work.set_costs(
            sym.size(),
            symmetric,
            if symmetric { 0.0 } else { sym.trailing_flops() },
            pattern.nnz(),
            self.params.restart,
        );
        let (f, i) = self.work.costs();
        log::debug!(
            "work model: n {}, factor entries {}, A entries {}, {:.3e} flops: F {:.4} s, I {:.5} s, F/I {:.1}",
            sym.size().n,
            if symmetric { sym.size().l_entries } else { sym.size().lu_entries },
            pattern.nnz(),
            sym.size().lu_flops,
            f,
            i,
            f / i
        );
        self.precond = Some(if symmetric {
            Precond::Ldlt {
                ldlt: SparseLdlt::new(&sym),
                sym,
            }
        } else {
            Precond::Lu {
                lu: SupernodalLu::reusing(&sym, pattern, old),
                sym,
                x,
                t: tw,
                fallback: None,
                on_fallback: false,
            }
        });
        self.stats.symbolic_analyses += 1;
        self.stats.symbolic_seconds += t.elapsed().as_secs_f64();
        Ok(())
    }
}

#[cfg(test)]
mod tests;
