//! Chord iterations of the contact Newton: which Newton matrix a correction
//! of exact or augmented-Lagrangian contact is solved with.
//!
//! A Newton iteration with contact multipliers needs the factors of its
//! matrix for `W = B K⁻¹ H` ([`crate::contact::enforce`]), and a full
//! factorization is most of its cost (0.4–0.6 s of 0.6–0.9 s at 18,546
//! dofs). Split the Newton matrix as `K = K_s + K_c`: `K_s` the inertia and
//! the bodies' stiffness, `K_c` the contact tangent. `K_c` and the
//! multipliers change from one iteration to the next; `K_s` changes with
//! the bodies' strain, and once the first correction has moved the
//! iterate through the step's motion, hardly at all. A *chord* iteration
//! therefore solves its linearized step (the subproblem included, exactly)
//! with
//!
//! ```text
//! K̃ = K_f  with its trailing block replaced by (K_s,f + K_c)
//! ```
//!
//! where `K_f` is the matrix of the last full factorization (iterate `f`)
//! and the trailing block holds the contact nodes, ordered last
//! ([`crate::linalg::LinearSolver::update_trailing`]): only that block is
//! refactored, and the contact tangent in it is the current one. The
//! solves with `K̃` are exact (checked by their residual against `K̃`); what
//! is approximate is `K̃ ≈ K`, so the iteration is a chord (simplified
//! Newton) method in `K_s` and Newton in the contact terms: linear
//! convergence with the ratio of `‖K̃ − K‖`, while the residual `R` and the
//! contact law, which decide convergence, stay exact (Kelley 1995, *Iterative
//! Methods for Linear and Nonlinear Equations*, §5.4; the chord method with
//! a Jacobian refreshed when the contraction degrades is Shamanskii's).
//!
//! Policy ([`Chord`]; its measurements in docs/decisions/chord-iterations.md):
//! * the first correction of a step factors its matrix (a step depends on
//!   its own matrices only, so restarts repeat bit for bit), and so does
//!   the second: the factors of the step's start lag the first
//!   correction's motion (chord ratios 0.1–0.24 with them, against
//!   1e-3–2e-2 with the factors of the second iterate);
//! * then chord iterations, once the iterate is close to the solution
//!   (relative residual ≤ 5e-2, where faces settle); after a point
//!   switched between open and in contact, or after faces or drift guards
//!   settled, only at a relative residual ≤ `resettled_residual`: a chord
//!   iteration while the active set still moves can cycle or lead Newton
//!   to a point it cannot leave, while the last switches and settles of a
//!   persistent step come at 2e-3–7e-4, where chord iterations contract by
//!   1e-2–1e-3 (docs/decisions/chord-iterations.md);
//! * a Newton solve whose last correction was a chord iteration stops at
//!   `finish` times the tolerance (the energy balance, see there);
//! * a chord iteration that reduced the relative residual by less than
//!   `contraction` is followed by a full factorization (by less than
//!   `finish_contraction` where only the `finish` margin is left);
//! * only where a factorization is expensive ([`worthwhile`]): on small
//!   models the slower convergence costs more than the factorizations saved.
//!
//! The element tangent is assembled only for the corrections that factor
//! in full ([`Stepper::tangent_at`]); a chord iteration needs the residual
//! and the contact tangent alone.

use super::policy::ChordPolicy;
use crate::dynamics::step::{StepError, Stepper};
use crate::linalg::LinearSolver;

/// Whether chord iterations can pay on the linear solver's current pattern
/// (a factorization at least `min_factor_flops`, the trailing block at most
/// `max_trailing_share` of it).
pub(super) fn worthwhile(lu: &LinearSolver, p: &ChordPolicy) -> bool {
    match lu.factor_flops() {
        Some((full, trailing)) => {
            full >= p.min_factor_flops && trailing > 0.0 && trailing <= p.max_trailing_share * full
        }
        None => false,
    }
}

/// The chord policy of one Newton solve.
#[derive(Debug, Clone, Copy)]
pub(super) struct Chord {
    policy: ChordPolicy,
    /// The settle bound: chord iterations only this close to the solution.
    close: f64,
    /// Chord iterations may pay here ([`worthwhile`]).
    enabled: bool,
    /// Newton iteration (1-based) whose correction last factored in full;
    /// 0: none in this solve.
    factored_at: usize,
    /// The last correction was a chord iteration.
    last_chord: bool,
    /// Relative residual before the last correction.
    before: f64,
    /// Relative residual after it.
    after: f64,
}

impl Chord {
    pub fn new(enabled: bool, policy: ChordPolicy, close: f64) -> Chord {
        Chord {
            policy,
            close,
            enabled,
            factored_at: 0,
            last_chord: false,
            before: 0.0,
            after: 0.0,
        }
    }

    /// Whether the next correction, at relative residual `residual`, may
    /// be a chord iteration: the factors are of an iterate after the first
    /// correction, the last chord iteration (if the last correction was
    /// one) contracted, the iterate is close to the solution (the settle
    /// bound `settle_residual`), and at most `resettled_residual` if
    /// the contact state `moved` since the last correction (a point
    /// switched between open and in contact, or faces or drift guards
    /// settled; module docs). `finishing`: the iterate is within the
    /// Newton tolerance (`finish_contraction`).
    pub fn allowed(&self, residual: f64, moved: bool, finishing: bool) -> bool {
        let p = &self.policy;
        let contraction = if finishing {
            p.finish_contraction
        } else {
            p.contraction
        };
        self.enabled
            && self.factored_at >= 2
            && residual <= self.close
            && (!moved || residual <= p.resettled_residual)
            && (!self.last_chord || self.after <= contraction * self.before)
    }

    /// The Newton tolerance at an iterate: `tol`, or `FINISH · tol` after
    /// a chord iteration.
    pub fn tolerance(&self, tol: f64) -> f64 {
        if self.last_chord {
            self.policy.finish * tol
        } else {
            tol
        }
    }

    /// Records correction `it` (chord or full) taken at relative residual `before`.
    pub fn record(&mut self, it: usize, chord: bool, before: f64) {
        if !chord {
            self.factored_at = it;
        }
        self.last_chord = chord;
        self.before = before;
        self.after = f64::INFINITY;
    }

    /// The relative residual the last correction reached.
    pub fn reached(&mut self, after: f64) {
        self.after = after;
    }
}

impl<const D: usize> Stepper<D> {
    /// The Newton matrix of a full factorization at `x1` into `k`: the
    /// element tangent assembled now, the inertia, the contact tangent of
    /// the last evaluation (`kc`), the supports. Keeps `K_s` (inertia and
    /// elements) in `ks` for later chord iterations. Where the evaluation
    /// assembled the whole matrix (no multipliers) there is nothing to do.
    pub(super) fn tangent_at(&mut self, x0: &[f64], x1: &[f64], dt: f64) -> Result<(), StepError> {
        if !self.contacts.has_multipliers() {
            return Ok(());
        }
        let (cm, eval) = self.coefficients(dt);
        let started = std::time::Instant::now();
        self.sys
            .assemble(x0, x1, eval, &mut self.f_scratch, Some(&mut self.k))?;
        self.timing.assembly += started.elapsed().as_secs_f64();
        self.sys.add_mass(cm, &mut self.k);
        self.ks.copy_from_slice(&self.k);
        for (k, c) in self.k.iter_mut().zip(&self.kc) {
            *k += c;
        }
        self.sys.apply_fixed(&mut self.k);
        Ok(())
    }

    /// The matrix of a chord iteration into `k`: `K_s` of the last full
    /// assembly plus the current contact tangent, supports applied (the
    /// linear solver reads its trailing block only).
    pub(super) fn chord_matrix(&mut self) {
        for ((k, s), c) in self.k.iter_mut().zip(&self.ks).zip(&self.kc) {
            *k = s + c;
        }
        self.sys.apply_fixed(&mut self.k);
    }
}
