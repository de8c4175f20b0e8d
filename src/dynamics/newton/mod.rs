//! Newton's method on the end-of-step positions, with the contact multipliers
//! of exact and augmented-Lagrangian enforcement as unknowns of the same
//! iteration (see [`crate::contact::enforce`]), as a short loop over named
//! phases:
//!
//! 1. [`evaluate`] — the residual `R`, the tangent and every contact point
//!    at the iterate;
//! 2. settle — once close to a solution, slaves move to closer faces and
//!    drifted points onto their drift bound
//!    ([`crate::contact::ContactSet::settle`]); a change re-evaluates;
//! 3. converged? — `‖R‖ ≤ tol · scale` (or its round-off floor), the
//!    step's energy error within its tolerance ([`energy`]) and every
//!    point meets the contact law to its tolerance;
//! 4. cycling? — a point switching between open and in contact too often
//!    ([`active`]) or the iteration limit rejects the step (the run cuts
//!    it back);
//! 5. [`correct`] — the correction: `δx = −K⁻¹R` for the penalty law, the
//!    linearized step's contact subproblem otherwise (condensed, full or
//!    [`chord`], or saddle-point);
//! 6. [`search`] — its length;
//! 7. record — the new iterate's residual and active set.
//!
//! Every tunable is in [`policy::NewtonPolicy`].

pub mod active;
pub(crate) mod chord;
mod correct;
mod energy;
pub(crate) mod evaluate;
pub mod policy;
mod search;

use active::{ActiveSet, Cycling};
use chord::Chord;
use correct::Taken;
use energy::StepEnergy;
use evaluate::Eval;

use super::step::{State, StepError, StepReport, Stepper};
use crate::contact::EvalOptions;

/// The state of one Newton solve between its phases.
struct Progress {
    cur: Eval,
    /// Corrections taken.
    it: usize,
    active: ActiveSet,
    cycling: Option<Cycling>,
    chord: Chord,
    /// Contact restarts (settles) counted at the last correction.
    restarts: usize,
    /// A point switched between open and in contact since the last correction.
    switched: bool,
    /// How the current correction's iterate is evaluated.
    opts: EvalOptions,
    /// The step's energy, once needed.
    energy: StepEnergy,
}

impl<const D: usize> Stepper<D> {
    /// Newton's method on `x1` (from its current value); see the module docs.
    pub(super) fn newton(
        &mut self,
        s0: &State,
        x1: &mut Vec<f64>,
        dt: f64,
        report: &mut StepReport,
    ) -> Result<(), StepError> {
        let mut p = self.start(s0, x1, dt, report)?;
        loop {
            let law = self.contacts.violation(dt);
            if self.settle(&mut p, s0, x1, dt, law, report)? {
                continue;
            }
            if law.0 <= 1.0 && p.cur.converged(p.chord.tolerance(self.params.tolerance)) {
                // at the iteration limit the residual tolerance decides alone
                if p.it == self.params.max_iterations
                    || self.energy_converged(&p.cur, s0, &mut p.energy)?
                {
                    break;
                }
            } else {
                p.energy.left_tolerance();
            }
            self.give_up(&p, law.0)?;
            p.it += 1;
            p.opts = self.eval_options(p.it > self.policy.free_face_iterations, &p.cur);
            let before = p.cur.relative();
            let taken = self.correction(&mut p, s0, x1, dt, report)?;
            if self.advance(&mut p, s0, x1, dt, (law.0, taken, before), report)? {
                break;
            }
        }
        report.iterations += p.it;
        report.residual = p.cur.relative();
        log::debug!(
            "newton: converged in {} iterations, {} restarts, most flips of a point {}",
            p.it,
            report.contact_restarts,
            p.active.most
        );
        Ok(())
    }

    /// Evaluates the start (faces free, no geometric stiffness of the
    /// penalty law) and sets up the trackers.
    fn start(
        &mut self,
        s0: &State,
        x1: &[f64],
        dt: f64,
        report: &mut StepReport,
    ) -> Result<Progress, StepError> {
        let opts = EvalOptions {
            hold_faces: false,
            geometric: false,
        };
        let cur = self.evaluate(&s0.x, x1, dt, opts)?;
        report.residual_history.push(cur.relative());
        let mut active = ActiveSet::new(&self.contacts);
        let cycling = active.record(&self.contacts, self.policy.max_flips);
        let enabled = chord::worthwhile(&self.lu, &self.policy.chord);
        Ok(Progress {
            cur,
            it: 0,
            active,
            cycling,
            chord: Chord::new(enabled, self.policy.chord, self.policy.settle_residual),
            restarts: report.contact_restarts,
            switched: false,
            opts,
            energy: StepEnergy::default(),
        })
    }

    fn eval_options(&self, hold_faces: bool, previous: &Eval) -> EvalOptions {
        EvalOptions {
            hold_faces,
            geometric: previous.relative() <= self.policy.geometric_residual,
        }
    }

    /// Settle: once close to a solution (or converged), faces and drift
    /// guards may change; returns whether they did (the iterate is then
    /// evaluated again).
    fn settle(
        &mut self,
        p: &mut Progress,
        s0: &State,
        x1: &[f64],
        dt: f64,
        (law, law_size): (f64, f64),
        report: &mut StepReport,
    ) -> Result<bool, StepError> {
        let pol = self.policy;
        let close = p.cur.relative() <= pol.settle_residual && law_size <= pol.settle_violation;
        let converged = law <= 1.0 && p.cur.converged(p.chord.tolerance(self.params.tolerance));
        if !(close || converged) || self.contacts.settle() == 0 {
            return Ok(false);
        }
        report.contact_restarts += 1;
        p.cur = self.evaluate(&s0.x, x1, dt, self.eval_options(true, &p.cur))?;
        p.cycling = p.cycling.or(p.active.record(&self.contacts, pol.max_flips));
        p.switched |= p.active.changed != 0;
        log::trace!(
            "newton: contact settled, relative residual {:.3e}, {} point(s) switched",
            p.cur.relative(),
            p.active.changed
        );
        Ok(true)
    }

    /// Cycling or the iteration limit: the step is rejected.
    fn give_up(&self, p: &Progress, law: f64) -> Result<(), StepError> {
        if let Some(c) = p.cycling {
            log::debug!(
                "newton: active set cycling after {} iterations (most flips {})",
                p.it,
                p.active.most
            );
            return Err(self.cycling(c, p.it));
        }
        if p.it == self.params.max_iterations {
            log::debug!(
                "newton: no convergence, most flips of a point {}",
                p.active.most
            );
            return Err(StepError::NoConvergence {
                iterations: p.it,
                residual: p.cur.relative(),
                contact: law,
            });
        }
        Ok(())
    }

    /// Correct: the correction of the current iterate, with the multipliers
    /// before and after it saved for the line search.
    fn correction(
        &mut self,
        p: &mut Progress,
        s0: &State,
        x1: &[f64],
        dt: f64,
        report: &mut StepReport,
    ) -> Result<Taken, StepError> {
        self.contacts.save_multipliers(&mut self.r_old);
        let before = p.cur.relative();
        // faces or drift guards settled since the last correction
        let resettled = report.contact_restarts != p.restarts;
        p.restarts = report.contact_restarts;
        let chord = p.chord.allowed(
            before,
            p.switched || resettled,
            p.cur.converged(self.params.tolerance),
        );
        let solve_fully = p.active.most >= self.policy.full_solve_flips;
        let changed = p.it == 1 || p.switched || resettled;
        let taken = self.correct(&s0.x, x1, dt, report, (solve_fully, changed, chord))?;
        p.chord.record(p.it, taken == Taken::Chord, before);
        report.chord_iterations += (taken == Taken::Chord) as usize;
        self.contacts.save_multipliers(&mut self.r_new);
        Ok(taken)
    }

    /// Search and record: moves to the next iterate; returns whether the
    /// correction was at the round-off of the positions (Newton stops).
    fn advance(
        &mut self,
        p: &mut Progress,
        s0: &State,
        x1: &mut Vec<f64>,
        dt: f64,
        (law, taken, before): (f64, Taken, f64),
        report: &mut StepReport,
    ) -> Result<bool, StepError> {
        let dnorm = self.dx.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let xnorm = x1.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let at_round_off = dnorm <= self.policy.round_off * xnorm && law <= 1.0;
        let backtrack = !self.contacts.has_multipliers() && !at_round_off;
        let (e, s) = self
            .search(&s0.x, x1, dt, (&p.cur, p.opts, backtrack))
            .map_err(|e| match e {
                StepError::NoConvergence {
                    residual, contact, ..
                } => StepError::NoConvergence {
                    iterations: p.it,
                    residual,
                    contact,
                },
                e => e,
            })?;
        p.cur = e;
        p.chord.reached(e.relative());
        p.cycling = p
            .cycling
            .or(p.active.record(&self.contacts, self.policy.max_flips));
        p.switched = p.active.changed != 0;
        report.residual_history.push(e.relative());
        log::trace!(
            "newton {}{}: relative residual {before:.3e} -> {:.3e}, {} point(s) switched, contact law {:.3e} of tolerance, step length {s}, |dx| {dnorm:.3e}, subproblems {} (iterations {}, error {:.1e})",
            p.it,
            if taken == Taken::Chord { " (chord)" } else { "" },
            e.relative(),
            p.active.changed,
            self.contacts.violation(dt).0,
            report.subproblems,
            report.subproblem_iterations,
            report.subproblem_error
        );
        Ok(at_round_off)
    }

    /// The step error of a point whose state kept flipping.
    fn cycling(&self, c: Cycling, iterations: usize) -> StepError {
        let p = &self.contacts.pairs()[c.pair];
        StepError::ActiveSetCycling {
            pair: p.input(),
            pass: p.pass(),
            node: p.surface().slaves[c.point],
            slave: p.spec().slave.clone(),
            flips: c.flips,
            iterations,
        }
    }
}
