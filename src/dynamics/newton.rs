//! Newton's method on the end-of-step positions, with the contact multipliers
//! of exact and augmented-Lagrangian enforcement as unknowns of the same
//! iteration (see [`crate::contact::enforce`]).
//!
//! Each iteration: evaluate the residual `R`, the tangent `K` and every contact
//! point at the iterate; stop when `‖R‖ ≤ tol · scale` and every point meets
//! the contact law to its tolerance (and no point changes its face or its
//! drift guard, [`ContactSet::settle`]); otherwise factor `K` and take the
//! correction — `δx = −K⁻¹R` for the penalty law, the solution of the
//! condensed contact subproblem with the multipliers otherwise. A correction
//! that leads to an invalid state (inverted element, non-finite value, failed
//! projection) is halved, up to eight times; for the penalty law also one
//! that does not decrease `‖R‖` (backtracking), except where no length does
//! (a point changing branch), where the full step is taken.

use super::active::{ActiveSet, Cycling};
use super::chord::{self, Chord};
use super::step::{State, StepError, StepReport, Stepper};
use crate::contact::enforce;
use crate::contact::EvalOptions;

/// Newton corrections below `ROUND_OFF · max|x|` are at the round-off level of the positions.
const ROUND_OFF: f64 = 1e-14;
/// Halvings of a correction.
const MAX_HALVINGS: usize = 8;
/// Newton is "close" to a solution, and the contact set may settle its faces
/// and drift guards ([`ContactSet::settle`]), below this relative residual and
/// contact-law violation (relative to the face size). Each settle that
/// changes something restarts the quadratic phase, so the earlier it comes
/// the fewer iterations it costs; a decision taken at an iterate still
/// 5e-2 away is checked again at convergence (Newton goes on while any
/// changes). Measured on the fine friction blocks (9,990 dofs, μ = 0.2):
/// at 1e-6 the contact steps took 8, 8, 8 Newton iterations, at 1e-3 6, 6,
/// 7, at 1e-2 6, 5, 6; the coarse blocks 5 → 4 (μ = 0.2 and 0.8), with the
/// same balances and penetration. At 5e-2 the fine μ = 0.8 first contact
/// takes 8 instead of 10 (its third iterate, at 2.8e-2, settles 51 faces
/// that 1e-2 left to the fourth).
pub(super) const SETTLE_RESIDUAL: f64 = 5e-2;
const SETTLE_VIOLATION: f64 = 5e-2;
/// The iterates after the first `FREE_FACE_ITERATIONS` corrections hold
/// their contact faces (see [`ContactSet::evaluate`]); the start and those
/// first iterates take the closest face. The start of a step is the
/// positions at `t_n` and the first correction moves the slaves by the
/// step's slide (up to 0.6 face sizes on the friction blocks), so faces
/// chosen there are stale; holding them from then on keeps a slave on a
/// face boundary from cycling between the two faces.
const FREE_FACE_ITERATIONS: usize = 1;
/// Once a point has switched between open and in contact this many times
/// in a step, augmented-Lagrangian pairs solve their subproblem fully
/// (`enforce::solve_step`'s `solve_fully`) instead of taking one Alart–Curnier step: the
/// semismooth step alone cycled on the ring impact (a point open ↔ in
/// contact until the step was rejected, down to the smallest step, at
/// t = 1.27; with the full solve from the second switch on, three steps
/// were still cut back). A full solve is the exact-enforcement iteration,
/// with the same converged answer; the ring then takes all 600 steps, 3 / 7
/// Newton iterations per contact step (median / max).
const FULL_SOLVE_FLIPS: u8 = 1;
/// The penalty law's tangent includes its geometric stiffness once the
/// relative residual is below this (see [`ContactSet::evaluate`]): a
/// modified Newton far from the solution, quadratic near it.
const GEOMETRIC_RESIDUAL: f64 = 1e-2;

fn norm(v: &[f64]) -> f64 {
    v.iter().map(|a| a * a).sum::<f64>().sqrt()
}

/// Residual size at one iterate.
#[derive(Debug, Clone, Copy)]
pub(super) struct Eval {
    pub norm: f64,
    pub scale: f64,
    /// The residual's round-off floor `ROUND_OFF_FLOOR · c_M ‖M x₁‖`: the
    /// inertia term `c_M M (x₁ − x̂)` cancels the digits of the positions, so
    /// no residual below this can be computed (a rigid motion has a force
    /// `scale` at round-off, where only this floor tells convergence).
    pub floor: f64,
}

impl Eval {
    fn relative(&self) -> f64 {
        self.norm / self.scale
    }

    /// Below the tolerance, or at the round-off floor.
    fn converged(&self, tol: f64) -> bool {
        self.norm <= (tol * self.scale).max(self.floor)
    }
}

/// See [`Eval::floor`]: a few hundred ulps of the inertia term.
const ROUND_OFF_FLOOR: f64 = 1e-13;

impl<const D: usize> Stepper<D> {
    /// Residual (into `r`) and tangent (into `k`) at `x1`, the contact points
    /// evaluated there (holding their faces if `hold`, see [`ContactSet::evaluate`]).
    pub(super) fn evaluate(
        &mut self,
        x0: &[f64],
        x1: &[f64],
        dt: f64,
        options: EvalOptions,
    ) -> Result<Eval, StepError> {
        let (cm, eval) = self.coefficients(dt);
        let sys = &self.sys;
        // with multipliers the element tangent waits for a full
        // factorization (`tangent_at`) and the contact tangent goes to `kc`
        // (chord iterations, super::chord)
        let multipliers = self.contacts.has_multipliers();
        let started = std::time::Instant::now();
        sys.assemble(
            x0,
            x1,
            eval,
            &mut self.f,
            (!multipliers).then_some(&mut self.k[..]),
        )?;
        self.timing.assembly += started.elapsed().as_secs_f64();
        // contact force acts on the bodies: it enters the residual with a minus
        // sign, as f_int − f_c (DESIGN §4); `mv` is scratch for it here.
        if !self.contacts.is_empty() {
            let started = std::time::Instant::now();
            self.mv.iter_mut().for_each(|v| *v = 0.0);
            let tangent = if multipliers {
                self.kc.clear();
                self.kc.resize(sys.pattern.nnz(), 0.0);
                self.ks.resize(sys.pattern.nnz(), 0.0);
                &mut self.kc
            } else {
                &mut self.k
            };
            self.contacts.evaluate::<D>(
                x0,
                x1,
                dt,
                options,
                &mut self.mv,
                Some((&sys.pattern, tangent)),
            )?;
            for i in 0..self.f.len() {
                self.f[i] -= self.mv[i];
            }
            self.timing.contact += started.elapsed().as_secs_f64();
        }
        for i in 0..self.r.len() {
            self.r[i] = x1[i] - self.x_hat[i];
        }
        sys.mass_times(&self.r, &mut self.mv);
        for i in 0..self.r.len() {
            self.mv[i] *= cm;
            self.r[i] = self.mv[i] + self.f[i] - self.f_ext[i];
        }
        sys.zero_fixed(&mut self.r);
        sys.zero_fixed(&mut self.mv);
        sys.mass_times(x1, &mut self.mx);
        sys.zero_fixed(&mut self.mx);
        let floor = ROUND_OFF_FLOOR * cm * norm(&self.mx);
        let n = norm(&self.r);
        if !n.is_finite() {
            return Err(StepError::NonFinite);
        }
        let scale = norm(&self.mv)
            .max(norm(&self.f))
            .max(norm(&self.f_ext))
            .max(f64::MIN_POSITIVE);
        if !multipliers {
            sys.add_mass(cm, &mut self.k);
            sys.apply_fixed(&mut self.k);
        }
        Ok(Eval {
            norm: n,
            scale,
            floor,
        })
    }

    /// The Newton correction at the iterate `x1` into `dx` (the residual `r`
    /// and contact tangent of the last evaluation); updates the multipliers.
    /// `solve_fully`: see [`FULL_SOLVE_FLIPS`]; `chord`: the correction may
    /// be a chord iteration ([`super::chord`]). Returns whether it was.
    fn correction(
        &mut self,
        x0: &[f64],
        x1: &[f64],
        dt: f64,
        report: &mut StepReport,
        solve_fully: bool,
        chord: bool,
    ) -> Result<bool, StepError> {
        let chord = chord && self.contacts.has_multipliers() && {
            self.chord_matrix();
            self.lu.update_trailing(&self.k)?
        };
        if !chord {
            self.tangent_at(x0, x1, dt)?;
            // factored (or not) by the first solve: LinearSolver::update
            self.lu.update(&self.k)?;
        }
        if !self.contacts.has_multipliers() {
            for i in 0..self.dx.len() {
                self.dx[i] = -self.r[i];
            }
            self.lu.solve_in_place(&mut self.dx)?;
            return Ok(false);
        }
        let linear = self.lu.stats();
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
            export: dump
                .as_mut()
                .map(|d| d as &mut dyn FnMut(&enforce::Subproblem)),
        };
        let sys = enforce::NewtonSystem {
            solves: &mut self.lu,
            residual: &self.r,
            fixed: &self.sys.fixed,
            dx: &mut self.dx,
            scratch: &mut self.w_rhs,
        };
        let info = enforce::correct::<D>(&mut self.contacts, sys, &mut opts)?;
        let after = self.lu.stats();
        let linear = after.factor_seconds + after.solve_seconds
            - linear.factor_seconds
            - linear.solve_seconds;
        self.timing.subproblem += (info.seconds - linear).max(0.0);
        log::debug!(
            "newton correction: linear solves {linear:.3} s (factorization included), contact subproblem {:.3} s ({} points, {} library iterations)",
            info.seconds - linear,
            info.contacts,
            info.iterations
        );
        if info.contacts > 0 {
            report.subproblems += 1;
            report.subproblem_iterations += info.iterations;
            report.subproblem_error = report.subproblem_error.max(info.error);
        }
        Ok(chord)
    }

    /// Newton's method on `x1` (from its current value); see the module docs.
    pub(super) fn newton(
        &mut self,
        s0: &State,
        x1: &mut Vec<f64>,
        dt: f64,
        report: &mut StepReport,
    ) -> Result<(), StepError> {
        let n = s0.x.len();
        let options = |hold_faces: bool, previous: &Eval| EvalOptions {
            hold_faces,
            geometric: previous.relative() <= GEOMETRIC_RESIDUAL,
        };
        let start = EvalOptions {
            hold_faces: false,
            geometric: false,
        };
        let mut cur = self.evaluate(&s0.x, x1, dt, start)?;
        report.residual_history.push(cur.relative());
        let mut active = ActiveSet::new(&self.contacts);
        let mut cycling = active.record(&self.contacts);
        let mut it = 0;
        let mut chord = Chord::new(chord::worthwhile(&self.lu));
        let mut restarts = report.contact_restarts;
        // a point switched between open and in contact since the last correction
        let mut switched = false;
        loop {
            let (contact, contact_size) = self.contacts.violation(dt);
            let close = cur.relative() <= SETTLE_RESIDUAL && contact_size <= SETTLE_VIOLATION;
            let converged = cur.converged(chord.tolerance(self.params.tolerance));
            if (close || contact <= 1.0 && converged) && self.contacts.settle() > 0 {
                report.contact_restarts += 1;
                cur = self.evaluate(&s0.x, x1, dt, options(true, &cur))?;
                cycling = cycling.or(active.record(&self.contacts));
                switched |= active.changed != 0;
                log::trace!(
                    "newton: contact settled, relative residual {:.3e}, {} point(s) switched",
                    cur.relative(),
                    active.changed
                );
                continue;
            }
            if converged && contact <= 1.0 {
                break;
            }
            if let Some(c) = cycling {
                log::debug!(
                    "newton: active set cycling after {it} iterations (most flips {})",
                    active.most
                );
                return Err(self.cycling(c, it));
            }
            if it == self.params.max_iterations {
                log::debug!(
                    "newton: no convergence, most flips of a point {}",
                    active.most
                );
                return Err(StepError::NoConvergence {
                    iterations: it,
                    residual: cur.relative(),
                    contact,
                });
            }
            it += 1;
            let opts = options(it > FREE_FACE_ITERATIONS, &cur);
            self.contacts.save_multipliers(&mut self.r_old);
            let before = cur.relative();
            // faces or drift guards settled since the last correction
            let resettled = report.contact_restarts != restarts;
            restarts = report.contact_restarts;
            let chorded = self.correction(
                &s0.x,
                x1,
                dt,
                report,
                active.most >= FULL_SOLVE_FLIPS,
                chord.allowed(
                    cur.relative(),
                    switched || resettled,
                    cur.converged(self.params.tolerance),
                ),
            )?;
            chord.record(it, chorded, before);
            report.chord_iterations += chorded as usize;
            self.contacts.save_multipliers(&mut self.r_new);
            // Round-off floor: a correction below ~50 ulp of the positions cannot
            // reduce the residual further (the inertia term cancels digits of x).
            let dnorm = self.dx.iter().fold(0.0f64, |m, v| m.max(v.abs()));
            let xnorm = x1.iter().fold(0.0f64, |m, v| m.max(v.abs()));
            let at_round_off = dnorm <= ROUND_OFF * xnorm && contact <= 1.0;
            let backtrack = !self.contacts.has_multipliers() && !at_round_off;
            let mut s = 1.0;
            let mut accepted = None;
            let mut failure = None;
            for _ in 0..MAX_HALVINGS {
                for i in 0..n {
                    self.x_trial[i] = x1[i] + s * self.dx[i];
                }
                self.contacts.blend_multipliers(&self.r_old, &self.r_new, s);
                let trial = std::mem::take(&mut self.x_trial);
                let e = self.evaluate(&s0.x, &trial, dt, opts);
                self.x_trial = trial;
                match e {
                    Ok(e) if !backtrack || e.norm < cur.norm => {
                        accepted = Some(e);
                        break;
                    }
                    Ok(_) => {}
                    Err(e) => failure = Some(e),
                }
                s *= 0.5;
            }
            let e = match accepted {
                Some(e) => e,
                None if backtrack && failure.is_none() && !self.contacts.is_empty() => {
                    // No length decreased ‖R‖: where the residual is nonsmooth
                    // (a point changing branch) that is expected; take the full step.
                    s = 1.0;
                    for i in 0..n {
                        self.x_trial[i] = x1[i] + self.dx[i];
                    }
                    let trial = std::mem::take(&mut self.x_trial);
                    let e = self.evaluate(&s0.x, &trial, dt, opts);
                    self.x_trial = trial;
                    e?
                }
                None => {
                    return Err(failure.unwrap_or(StepError::NoConvergence {
                        iterations: it,
                        residual: cur.relative(),
                        contact,
                    }))
                }
            };
            std::mem::swap(x1, &mut self.x_trial);
            cur = e;
            chord.reached(cur.relative());
            cycling = cycling.or(active.record(&self.contacts));
            switched = active.changed != 0;
            report.residual_history.push(cur.relative());
            log::trace!(
                "newton {it}{}: relative residual {:.3e}, {} point(s) switched, contact law {:.3e} of tolerance, step length {s}, |dx| {dnorm:.3e}, subproblems {} (iterations {}, error {:.1e})",
                if chorded { " (chord)" } else { "" },
                cur.relative(),
                active.changed,
                self.contacts.violation(dt).0,
                report.subproblems,
                report.subproblem_iterations,
                report.subproblem_error
            );
            if at_round_off {
                break;
            }
        }
        report.iterations += it;
        report.residual = cur.relative();
        log::debug!(
            "newton: converged in {it} iterations, {} restarts, most flips of a point {}",
            report.contact_restarts,
            active.most
        );
        Ok(())
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
