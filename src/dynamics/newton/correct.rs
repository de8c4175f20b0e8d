//! Correct: the Newton correction of an iterate into `dx`, and with contact
//! multipliers their new values: `δx = −K⁻¹R` without them; with them the
//! linearized step's contact subproblem ([`crate::contact::enforce`]) on
//! the condensed path (a full factorization, or a chord iteration that
//! refactors the contact block alone, [`super::chord`]) or on the
//! saddle-point path.

use crate::contact::enforce::{self, saddle::BodiesSystem, Method, SubproblemInfo};
use crate::dynamics::step::{StepError, StepReport, Stepper};

/// How a correction was taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Taken {
    /// On the factors of its own matrix (or the linear solver's reuse).
    Full,
    /// A chord iteration of the condensed path.
    Chord,
}

impl<const D: usize> Stepper<D> {
    /// The correction at `x1` (the residual and contact tangent of its
    /// evaluation); `solve_fully`, `changed` (the active set changed at
    /// this iterate, [`enforce::EnforceOptions::active_set_changed`]) and
    /// `chord` as [`super::Progress`] decides.
    pub(super) fn correct(
        &mut self,
        x0: &[f64],
        x1: &[f64],
        dt: f64,
        report: &mut StepReport,
        (solve_fully, changed, chord): (bool, bool, bool),
    ) -> Result<Taken, StepError> {
        if !self.contacts.has_multipliers() {
            self.lu.update(&self.k)?;
            for i in 0..self.scratch.dx.len() {
                self.scratch.dx[i] = -self.r[i];
            }
            self.lu.solve_in_place(&mut self.scratch.dx)?;
            return Ok(Taken::Full);
        }
        let linear = self.lu.stats();
        let (taken, info) = match self.method {
            Method::Saddle => {
                self.tangent_at(x0, x1, dt)?;
                (Taken::Full, self.correct_saddle(dt, solve_fully, changed)?)
            }
            Method::Condensed => {
                let chord = chord && {
                    self.chord_matrix();
                    self.lu.update_trailing(&self.k)?
                };
                if !chord {
                    self.tangent_at(x0, x1, dt)?;
                    // factored (or not) by the first solve: LinearSolver::update
                    self.lu.update(&self.k)?;
                }
                let taken = if chord { Taken::Chord } else { Taken::Full };
                (taken, self.correct_condensed(dt, solve_fully)?)
            }
        };
        let after = self.lu.stats();
        let linear = after.factor_seconds + after.solve_seconds
            - linear.factor_seconds
            - linear.solve_seconds;
        self.timing.subproblem += (info.seconds - linear).max(0.0);
        log::debug!(
            "newton correction: linear solves {linear:.3} s (factorization included), contact subproblem {:.3} s ({} points, {} iterations)",
            info.seconds - linear,
            info.contacts,
            info.iterations
        );
        if info.contacts > 0 {
            report.subproblems += 1;
            report.subproblem_iterations += info.iterations;
            report.subproblem_error = report.subproblem_error.max(info.error);
        }
        Ok(taken)
    }

    /// The condensed path's correction (`W` from the factors of `lu`).
    fn correct_condensed(
        &mut self,
        dt: f64,
        solve_fully: bool,
    ) -> Result<SubproblemInfo, StepError> {
        let mut dump = self.dump_contact.clone().map(|dir| {
            let count = &mut self.dump_count;
            move |sp: &enforce::Subproblem| {
                *count += 1;
                crate::contact::dump::write(&dir, *count, sp);
            }
        });
        let mut opts = enforce::EnforceOptions {
            dt,
            solve_fully,
            // the condensed path solves exact enforcement's subproblem fully
            active_set_changed: true,
            export: dump
                .as_mut()
                .map(|d| d as &mut dyn FnMut(&enforce::Subproblem)),
            stop: None,
        };
        let sys = enforce::NewtonSystem {
            solves: &mut self.lu,
            residual: &self.r,
            fixed: &self.sys.fixed,
            dx: &mut self.scratch.dx,
            scratch: &mut self.w_rhs,
        };
        Ok(enforce::correct::<D>(&mut self.contacts, sys, &mut opts)?)
    }

    /// The saddle-point path's correction (`lu` on the augmented pattern).
    fn correct_saddle(
        &mut self,
        dt: f64,
        solve_fully: bool,
        changed: bool,
    ) -> Result<SubproblemInfo, StepError> {
        let saddle = self
            .saddle
            .as_mut()
            .expect("the saddle-point system is built when its path is chosen");
        let opts = enforce::EnforceOptions {
            dt,
            solve_fully,
            active_set_changed: changed,
            export: None,
            stop: self.watch.stop.as_deref(),
        };
        let sys = BodiesSystem {
            pattern: &self.sys.pattern,
            k: &self.k,
            residual: &self.r,
            fixed: &self.sys.fixed,
            dx: &mut self.scratch.dx,
        };
        Ok(saddle.correct::<D>(&mut self.contacts, &mut self.lu, sys, &opts)?)
    }
}
