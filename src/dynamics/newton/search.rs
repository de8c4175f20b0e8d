//! Line search: the length of a correction. With contact multipliers the
//! full correction is taken unless the state it leads to is invalid (an
//! inverted element, a non-finite value, a failed projection), when it is
//! halved; the penalty law also halves one that does not decrease `‖R‖`,
//! and the saddle path's damped one-step iterations one that does not
//! decrease `‖R‖² + Σ ‖Φ‖²`, except where no length does (a point changing
//! branch of its law: the merit is nonsmooth there), where the longest
//! valid one is taken. The
//! multipliers move with the positions (`old + s (new − old)`).

use super::evaluate::Eval;
use crate::contact::enforce::Method;
use crate::contact::EvalOptions;
use crate::dynamics::step::{StepError, Stepper};

impl<const D: usize> Stepper<D> {
    /// Moves `x1` along `dx` (and the multipliers from `r_old` to `r_new`)
    /// by the length the rule above picks; returns the new iterate's
    /// evaluation and the length.
    pub(super) fn search(
        &mut self,
        x0: &[f64],
        x1: &mut Vec<f64>,
        dt: f64,
        (cur, opts, backtrack): (&Eval, EvalOptions, bool),
    ) -> Result<(Eval, f64), StepError> {
        let mut s = 1.0;
        let mut failure = None;
        let mut valid = None;
        for _ in 0..self.policy.max_halvings {
            match self.trial(x0, x1, dt, opts, s) {
                Ok(e) if !backtrack || self.decreases(&e, cur, dt) => {
                    std::mem::swap(x1, &mut self.x_trial);
                    return Ok((e, s));
                }
                Ok(_) => valid = valid.or(Some(s)),
                Err(e) => failure = Some(e),
            }
            s *= 0.5;
        }
        // no length decreases the merit: the longest valid one
        let fallback = failure.is_none() || self.damped();
        if let (true, true, Some(s)) = (backtrack && fallback, !self.contacts.is_empty(), valid) {
            let e = self.trial(x0, x1, dt, opts, s)?;
            std::mem::swap(x1, &mut self.x_trial);
            return Ok((e, s));
        }
        Err(failure.unwrap_or(StepError::NoConvergence {
            iterations: 0,
            residual: cur.relative(),
            contact: self.contacts.violation(dt).0,
        }))
    }

    /// The outer search damps the saddle path's one-step corrections
    /// ([`crate::contact::enforce::saddle::SaddleParams::damped`]).
    pub(super) fn damped(&self) -> bool {
        let p = &self.policy.saddle;
        self.method == Method::Saddle && self.saddle.is_some() && p.one_step && p.damped
    }

    /// Whether the trial `e` improves on the iterate `cur`: its residual,
    /// or where the search is damped the merit `‖R‖² + Σ ‖Φ‖²` (both forces).
    fn decreases(&mut self, e: &Eval, cur: &Eval, dt: f64) -> bool {
        if !self.damped() {
            return e.norm < cur.norm;
        }
        let saddle = self.saddle.as_mut().expect("damped on the saddle path");
        let (law, reference) = saddle.law_merit::<D>(&self.contacts, dt);
        log::trace!(
            "newton search: merit {:.3e} + {law:.3e} against {reference:.3e} (‖R‖² now {:.3e})",
            e.norm * e.norm,
            cur.norm * cur.norm
        );
        e.norm * e.norm + law < reference
    }

    /// Evaluates `x1 + s dx` (into `x_trial`) with the multipliers blended
    /// to the same length.
    fn trial(
        &mut self,
        x0: &[f64],
        x1: &[f64],
        dt: f64,
        opts: EvalOptions,
        s: f64,
    ) -> Result<Eval, StepError> {
        for i in 0..x1.len() {
            self.x_trial[i] = x1[i] + s * self.dx[i];
        }
        self.contacts.blend_multipliers(&self.r_old, &self.r_new, s);
        let trial = std::mem::take(&mut self.x_trial);
        let e = self.evaluate(x0, &trial, dt, opts);
        self.x_trial = trial;
        e
    }
}
