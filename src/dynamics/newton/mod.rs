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
//!    point meets the contact law to its tolerance; not before a
//!    correction once a point deeper than twice its drift bound was put
//!    on it (the law's tolerance would let it stay that deep);
//! 4. cycling? — a point switching between open and in contact too often
//!    ([`active`]), corrections that keep making the iterate worse
//!    ([`diverging`]) or the iteration limit rejects the step (the run
//!    cuts it back);
//! 5. [`correct`] — the correction: `δx = −K⁻¹R` for the penalty law, the
//!    linearized step's contact subproblem otherwise (condensed, full or
//!    [`chord`], or saddle-point);
//! 6. [`search`] — its length;
//! 7. record — the new iterate's residual and active set.
//!
//! The loop is generic over the discrete step it iterates on
//! ([`StepProblem`]): the serial [`Stepper`] and the parallel build's
//! distributed stepper, whose evaluation, correction and norms span the
//! ranks, take the same decisions from the same figures.
//!
//! Every tunable is in [`policy::NewtonPolicy`].

pub mod active;
pub(crate) mod chord;
mod correct;
mod diverging;
mod energy;
pub(crate) mod evaluate;
pub mod policy;
mod search;

use active::{ActiveSet, Cycling};
use chord::Chord;
pub use correct::Taken;
use diverging::Divergence;
use energy::StepEnergy;
pub use evaluate::Eval;
use policy::NewtonPolicy;

use super::step::{State, StepError, StepReport, Stepper};
use super::watch::IterationNote;
use crate::contact::{ContactSet, EvalOptions};

/// Newton's vectors besides the iterate: the correction, the line search's
/// trial iterate, and the contact multipliers before and after a correction.
#[derive(Debug, Clone, Default)]
pub struct NewtonScratch {
    pub dx: Vec<f64>,
    pub x_trial: Vec<f64>,
    pub r_old: Vec<[f64; 3]>,
    pub r_new: Vec<[f64; 3]>,
}

impl NewtonScratch {
    /// Scratch for iterates of `n` entries.
    pub fn new(n: usize) -> NewtonScratch {
        NewtonScratch {
            dx: vec![0.0; n],
            x_trial: vec![0.0; n],
            ..Default::default()
        }
    }
}

/// What Newton's loop asks of the discrete step it solves. Every figure it
/// returns is the whole problem's (on several ranks: reduced over them in a
/// fixed order), so every rank takes the same decisions.
pub trait StepProblem {
    /// The contact pairs (every rank holds all of them).
    fn contacts(&self) -> &ContactSet;
    fn policy(&self) -> &NewtonPolicy;
    /// The residual tolerance and the iteration limit (`[solver]`).
    fn tolerance(&self) -> f64;
    fn max_iterations(&self) -> usize;
    /// The contact pairs and the scratch, borrowed together.
    fn parts(&mut self) -> (&mut ContactSet, &mut NewtonScratch);
    /// The last correction.
    fn dx(&self) -> &[f64];
    /// Residual and tangent at `x1`, the contact points evaluated there.
    fn evaluate(
        &mut self,
        x0: &[f64],
        x1: &[f64],
        dt: f64,
        options: EvalOptions,
    ) -> Result<Eval, StepError>;
    /// Chord iterations may pay on the current linear solver ([`chord`]).
    fn chord_enabled(&self) -> bool;
    /// The correction of the last evaluated iterate into the scratch's `dx`
    /// (and the pairs' multipliers); flags as [`correct`] documents.
    fn correct(
        &mut self,
        x0: &[f64],
        x1: &[f64],
        dt: f64,
        report: &mut StepReport,
        flags: (bool, bool, bool),
    ) -> Result<Taken, StepError>;
    /// `max |v|` over the whole problem.
    fn max_abs(&self, v: &[f64]) -> f64;
    /// `K_n + Π_n`, the kinetic plus strain energy at the step's start.
    fn start_energy(&mut self, s0: &State) -> Result<f64, StepError>;
    /// The caller asked to stop ([`crate::dynamics::watch`]): the step is
    /// abandoned before its next correction.
    fn stop_requested(&self) -> bool {
        false
    }
    /// Tells the caller of a correction's result ([`crate::dynamics::watch`]).
    fn note(&self, _note: &IterationNote) {}
}

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
    /// A point deeper than twice its drift bound was put on it since the
    /// last correction ([`crate::contact::set::Settled`]): the iterate is
    /// not accepted before a correction enforces it.
    guarded: bool,
    /// How the current correction's iterate is evaluated.
    opts: EvalOptions,
    /// The step's energy, once needed.
    energy: StepEnergy,
    divergence: Divergence,
    /// When the solve began (the caller's progress notes).
    started: std::time::Instant,
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
        solve(self, s0, x1, dt, report)
    }
}

/// Newton's method on `x1` (from its current value) for the step `pb`; see
/// the module docs.
pub fn solve<P: StepProblem>(
    pb: &mut P,
    s0: &State,
    x1: &mut Vec<f64>,
    dt: f64,
    report: &mut StepReport,
) -> Result<(), StepError> {
    let mut p = start(pb, s0, x1, dt, report)?;
    loop {
        let law = pb.contacts().violation(dt);
        if settle(pb, &mut p, s0, x1, dt, law, report)? {
            continue;
        }
        if law.0 <= 1.0 && !p.guarded && p.cur.converged(p.chord.tolerance(pb.tolerance())) {
            // at the iteration limit the residual tolerance decides alone
            if p.it == pb.max_iterations() || energy::converged(pb, &p.cur, s0, &mut p.energy)? {
                break;
            }
        } else {
            p.energy.left_tolerance();
        }
        give_up(pb, &p, law.0)?;
        if pb.stop_requested() {
            return Err(StepError::Interrupted { iterations: p.it });
        }
        p.it += 1;
        p.opts = eval_options(pb.policy(), p.it > pb.policy().free_face_iterations, &p.cur);
        let before = p.cur.relative();
        let taken = correction(pb, &mut p, s0, x1, dt, report)?;
        if advance(pb, &mut p, s0, x1, dt, (law.0, taken, before), report)? {
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

/// One Newton iteration at `x1` on its own, for timing the phases
/// (`benches/timings/contact_iteration.rs`; the step from
/// [`Stepper::start_step`]): evaluate `x1` with free faces, correct it as
/// the step's first correction is (the contact subproblem solved as where
/// the active set changed, no chord iteration), and move `x1` and the
/// multipliers by the whole correction. No settle, convergence test or
/// line search: [`solve`] is the loop. Returns the evaluation at `x1`.
pub fn iterate<P: StepProblem>(
    pb: &mut P,
    s0: &State,
    x1: &mut [f64],
    dt: f64,
    report: &mut StepReport,
) -> Result<Eval, StepError> {
    let eval = pb.evaluate(&s0.x, x1, dt, EvalOptions::START)?;
    pb.correct(&s0.x, x1, dt, report, (false, true, false))?;
    for (x, d) in x1.iter_mut().zip(pb.dx()) {
        *x += d;
    }
    Ok(eval)
}

/// Evaluates the start (faces free, no geometric stiffness of the
/// penalty law) and sets up the trackers.
fn start<P: StepProblem>(
    pb: &mut P,
    s0: &State,
    x1: &[f64],
    dt: f64,
    report: &mut StepReport,
) -> Result<Progress, StepError> {
    let cur = pb.evaluate(&s0.x, x1, dt, EvalOptions::START)?;
    let pol = *pb.policy();
    if let Some((t, points)) = pb.contacts().first_touch(&s0.x, &s0.v, dt, &pol.touch) {
        return Err(StepError::FirstTouch { dt: t, points });
    }
    report.residual_history.push(cur.relative());
    let mut active = ActiveSet::new(pb.contacts());
    let cycling = active.record(pb.contacts(), &pol, false);
    Ok(Progress {
        cur,
        it: 0,
        active,
        cycling,
        chord: Chord::new(pb.chord_enabled(), pol.chord, pol.settle_residual),
        restarts: report.contact_restarts,
        switched: false,
        guarded: false,
        opts: EvalOptions::START,
        energy: StepEnergy::default(),
        divergence: Divergence::default(),
        started: std::time::Instant::now(),
    })
}

fn eval_options(policy: &NewtonPolicy, hold_faces: bool, previous: &Eval) -> EvalOptions {
    EvalOptions {
        hold_faces,
        geometric: previous.relative() <= policy.geometric_residual,
    }
}

/// Settle: once close to a solution (or converged), faces and drift
/// guards may change; returns whether they did (the iterate is then
/// evaluated again).
fn settle<P: StepProblem>(
    pb: &mut P,
    p: &mut Progress,
    s0: &State,
    x1: &[f64],
    dt: f64,
    (law, law_size): (f64, f64),
    report: &mut StepReport,
) -> Result<bool, StepError> {
    let pol = *pb.policy();
    let close = p.cur.relative() <= pol.settle_residual && law_size <= pol.settle_violation;
    let converged = law <= 1.0 && p.cur.converged(p.chord.tolerance(pb.tolerance()));
    if !(close || converged) {
        return Ok(false);
    }
    let settled = pb.parts().0.settle(converged);
    if settled.changed == 0 {
        return Ok(false);
    }
    p.guarded |= settled.guarded > 0;
    report.contact_restarts += 1;
    p.cur = pb.evaluate(&s0.x, x1, dt, eval_options(&pol, true, &p.cur))?;
    p.cycling = p.cycling.or(p.active.record(pb.contacts(), &pol, true));
    p.switched |= p.active.changed != 0;
    log::trace!(
        "newton: contact settled, relative residual {:.3e}, {} point(s) switched",
        p.cur.relative(),
        p.active.changed
    );
    Ok(true)
}

/// Cycling, divergence or the iteration limit: the step is rejected.
fn give_up<P: StepProblem>(pb: &P, p: &Progress, law: f64) -> Result<(), StepError> {
    if let Some(c) = p.cycling {
        log::debug!(
            "newton: active set cycling after {} iterations (most flips {})",
            p.it,
            p.active.most
        );
        return Err(cycling(pb.contacts(), c, p.it));
    }
    let limit = pb.policy().diverging;
    if p.divergence.diverged(limit) {
        log::debug!("newton: diverging after {} iterations", p.it);
        return Err(StepError::Diverging {
            corrections: limit,
            iterations: p.it,
            residual: p.cur.relative(),
            contact: law,
        });
    }
    if p.it == pb.max_iterations() {
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
fn correction<P: StepProblem>(
    pb: &mut P,
    p: &mut Progress,
    s0: &State,
    x1: &[f64],
    dt: f64,
    report: &mut StepReport,
) -> Result<Taken, StepError> {
    {
        let (contacts, scratch) = pb.parts();
        contacts.save_multipliers(&mut scratch.r_old);
    }
    let before = p.cur.relative();
    // faces or drift guards settled since the last correction
    let resettled = report.contact_restarts != p.restarts;
    p.restarts = report.contact_restarts;
    p.guarded = false;
    let chord = p.chord.allowed(
        before,
        p.switched || resettled,
        p.cur.converged(pb.tolerance()),
    );
    let solve_fully = p.active.most >= pb.policy().full_solve_flips;
    let changed = p.it == 1 || p.switched || resettled;
    let taken = pb.correct(&s0.x, x1, dt, report, (solve_fully, changed, chord));
    if pb.stop_requested() {
        // the correction may have been cut short for it (the saddle path's
        // inner iteration, a factorization): never taken as an iterate, nor
        // its error as the step's failure
        return Err(StepError::Interrupted { iterations: p.it });
    }
    let taken = taken?;
    p.chord.record(p.it, taken == Taken::Chord, before);
    report.chord_iterations += (taken == Taken::Chord) as usize;
    let (contacts, scratch) = pb.parts();
    contacts.save_multipliers(&mut scratch.r_new);
    Ok(taken)
}

/// Search and record: moves to the next iterate; returns whether the
/// correction was at the round-off of the positions (Newton stops).
fn advance<P: StepProblem>(
    pb: &mut P,
    p: &mut Progress,
    s0: &State,
    x1: &mut Vec<f64>,
    dt: f64,
    (law, taken, before): (f64, Taken, f64),
    report: &mut StepReport,
) -> Result<bool, StepError> {
    let dnorm = pb.max_abs(pb.dx());
    let xnorm = pb.max_abs(x1);
    let at_round_off = dnorm <= pb.policy().round_off * xnorm && law <= 1.0;
    let backtrack = !pb.contacts().has_multipliers() && !at_round_off;
    let (e, s) =
        search::search(pb, &s0.x, x1, dt, (&p.cur, p.opts, backtrack)).map_err(|e| match e {
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
    // roles changed in this correction count as near a solution if the
    // iterate it corrected was
    let near = before <= pb.policy().settle_residual;
    p.cycling = p
        .cycling
        .or(p.active.record(pb.contacts(), pb.policy(), near));
    p.switched = p.active.changed != 0;
    report.residual_history.push(e.relative());
    let reached = pb.contacts().violation(dt).0;
    pb.note(&IterationNote {
        t0: s0.t,
        dt,
        iteration: p.it,
        residual: e.relative(),
        contact_law: reached,
        elapsed: p.started.elapsed().as_secs_f64(),
    });
    p.divergence.record((before, law), (e.relative(), reached));
    log::trace!(
        "newton {}{}: relative residual {before:.3e} -> {:.3e}, {} point(s) switched, contact law {:.3e} of tolerance, step length {s}, |dx| {dnorm:.3e}, subproblems {} (iterations {}, error {:.1e})",
        p.it,
        if taken == Taken::Chord { " (chord)" } else { "" },
        e.relative(),
        p.active.changed,
        reached,
        report.subproblems,
        report.subproblem_iterations,
        report.subproblem_error
    );
    Ok(at_round_off)
}

/// The step error of a point whose state kept flipping.
fn cycling(contacts: &ContactSet, c: Cycling, iterations: usize) -> StepError {
    let p = &contacts.pairs()[c.pair];
    StepError::ActiveSetCycling {
        pair: p.input(),
        pass: p.pass(),
        node: p.surface().slaves[c.point],
        slave: p.spec().slave.clone(),
        flips: c.flips,
        iterations,
    }
}

impl<const D: usize> StepProblem for Stepper<D> {
    fn contacts(&self) -> &ContactSet {
        &self.contacts
    }
    fn policy(&self) -> &NewtonPolicy {
        &self.policy
    }
    fn tolerance(&self) -> f64 {
        self.params.tolerance
    }
    fn max_iterations(&self) -> usize {
        self.params.max_iterations
    }
    fn parts(&mut self) -> (&mut ContactSet, &mut NewtonScratch) {
        (&mut self.contacts, &mut self.scratch)
    }
    fn dx(&self) -> &[f64] {
        &self.scratch.dx
    }
    fn evaluate(
        &mut self,
        x0: &[f64],
        x1: &[f64],
        dt: f64,
        options: EvalOptions,
    ) -> Result<Eval, StepError> {
        Stepper::evaluate(self, x0, x1, dt, options)
    }
    fn chord_enabled(&self) -> bool {
        chord::worthwhile(&self.lu, &self.policy.chord)
    }
    fn correct(
        &mut self,
        x0: &[f64],
        x1: &[f64],
        dt: f64,
        report: &mut StepReport,
        flags: (bool, bool, bool),
    ) -> Result<Taken, StepError> {
        Stepper::correct(self, x0, x1, dt, report, flags)
    }
    fn max_abs(&self, v: &[f64]) -> f64 {
        v.iter().fold(0.0f64, |m, a| m.max(a.abs()))
    }
    fn start_energy(&mut self, s0: &State) -> Result<f64, StepError> {
        Ok(self.kinetic(&s0.v) + self.sys.strain_energy(&s0.x)?)
    }
    fn stop_requested(&self) -> bool {
        self.watch.stop_requested()
    }
    fn note(&self, note: &IterationNote) {
        self.watch.note(note);
    }
}
