//! One time step, as Love & Laursen 2003 §3.7 lay it out: predict, detect the
//! contacts the step may reach, solve Newton on the end-of-step positions
//! (with the contact multipliers inside it), compute the velocities, apply
//! the velocity update.
//!
//! Both integrators share the residual form
//!
//! ```text
//! R(x₁) = c_M M (x₁ − x̂) + f_int − f_c − f_ext = 0
//! ```
//!
//! * energy-momentum (Love & Laursen 2003, eq. 54; Simo & Tarnow 1992):
//!   `c_M = 2/Δt²`, `x̂ = x₀ + Δt v₀`, `f_int = f_int(x₀, x₁)` with the
//!   algorithmic stress at the midpoint; then `v₁ = 2(x₁ − x₀)/Δt − v₀` (eq. 55);
//! * Newmark: `c_M = 1/(βΔt²)`, `x̂ = x₀ + Δt v₀ + Δt²(½ − β) a₀`,
//!   `f_int = f_int(x₁)`; then `a₁ = c_M (x₁ − x̂)`, `v₁ = v₀ + Δt((1−γ)a₀ + γ a₁)`.
//!
//! The Newton matrix is `c_M M + ∂(f_int − f_c)/∂x₁` (unsymmetric for the
//! midpoint scheme and for friction), with the exact contact tangent;
//! solved by [`LinearSolver`] (a sparse LU with a reused symbolic analysis,
//! its factors reused within the step). The Newton loop itself is in
//! [`super::newton`].

use super::newton::policy::NewtonPolicy;
use super::newton::NewtonScratch;
use super::system::System;
use crate::contact::enforce::saddle::Saddle;
use crate::contact::enforce::{EnforceError, Method};
use crate::contact::geometry::GeometryError;
use crate::contact::update::{self, MassInverse, UpdateOutcome};
use crate::contact::{ContactSet, Tunnel};
use crate::fe::kernel::{KernelError, StressEval};
use crate::linalg::{LinearMethod, LinearParams, LinearSolveError, LinearSolver};
use crate::model::{Integrator, SolverParams};

/// `Stepper::snapshot` / `Stepper::restore` (checkpoints): a child module, so
/// that restoring the stiffness pattern can rebuild the factorization.
mod snapshot;
pub use snapshot::{
    pair_snapshots, restored_contacts, PairSnapshot, PointSnapshot, RestoreError, StepperSnapshot,
    SNAPSHOT_VERSION,
};

/// Positions, velocities and (Newmark) accelerations at time `t`; nodal vectors
/// of length `n_nodes·D`.
#[derive(Debug, Clone, PartialEq)]
pub struct State {
    pub t: f64,
    pub x: Vec<f64>,
    pub v: Vec<f64>,
    pub a: Vec<f64>,
}

/// What a converged step reports.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StepReport {
    /// Newton iterations.
    pub iterations: usize,
    /// Final relative residual.
    pub residual: f64,
    /// Relative residual after each Newton update, starting with the start's.
    pub residual_history: Vec<f64>,
    /// Contact: times a converged Newton solve went on because a point moved
    /// to a closer face or a drifted point was put on its gap.
    pub contact_restarts: usize,
    /// Contact points active / sticking / slipping at the end of the step.
    pub active: usize,
    pub stick: usize,
    pub slip: usize,
    /// Largest penetration `max(−g_{n+1})` over active points of every pass
    /// (0 if none), as a length and relative to the pair's face size `h`.
    pub max_penetration: f64,
    pub max_penetration_h: f64,
    /// Frictional work dissipated in the step, `Δt Σ w j D`.
    pub dissipation: f64,
    /// Energy the velocity update could not restore in the step (`Σ F_l(κ)`).
    pub update_defect: f64,
    /// Contact subproblems solved (exact, augmented Lagrangian), and the
    /// library's iterations summed over them.
    pub subproblems: usize,
    pub subproblem_iterations: usize,
    /// Largest FCLIB error of a subproblem's solution.
    pub subproblem_error: f64,
    /// Krylov iterations of the Newton matrix's linear solves in the step.
    pub linear_iterations: usize,
    /// Numeric factorizations of the Newton matrix in the step.
    pub factorizations: usize,
    /// Chord iterations: corrections that refactored the contact block of
    /// the Newton matrix alone ([`super::newton::chord`]).
    pub chord_iterations: usize,
    /// Velocity changes beyond the step's forces: the prescribed end
    /// velocities and the velocity update's impulses through supports and
    /// rigid masters ([`super::drive`]).
    pub jump: super::prescribed::Jump,
}

/// Where a stepper's time went, summed over its life.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct StepTiming {
    /// Element force and tangent assembly.
    pub assembly: f64,
    /// The contact pairs' force and tangent.
    pub contact: f64,
    /// The contact subproblems of exact and augmented-Lagrangian
    /// enforcement, their linear solves (`W = B K⁻¹ H`) left out.
    pub subproblem: f64,
}

/// Why a step failed (the run then retries with a smaller step).
#[derive(Debug, Clone, thiserror::Error)]
pub enum StepError {
    #[error("Newton did not converge in {iterations} iterations (relative residual {residual:e}, contact law {contact:.2e} of its tolerance)")]
    NoConvergence {
        iterations: usize,
        residual: f64,
        contact: f64,
    },
    /// Corrections in a row made both the residual and the contact law
    /// worse ([`super::newton`]'s divergence test).
    #[error("Newton diverged: {corrections} corrections in a row made both the residual and the contact law worse (after {iterations} iterations: relative residual {residual:e}, contact law {contact:.2e} of its tolerance)")]
    Diverging {
        corrections: usize,
        iterations: usize,
        residual: f64,
        contact: f64,
    },
    #[error("{0}")]
    Element(#[from] KernelError),
    #[error("linear solve: {0}")]
    Linear(#[from] LinearSolveError),
    #[error("non-finite residual")]
    NonFinite,
    #[error("contact geometry: {0}")]
    Contact(#[from] GeometryError),
    #[error("{0}")]
    Enforcement(#[from] EnforceError),
    /// A slave passed through the master surface without contact.
    #[error("{0}")]
    Tunnelling(#[from] Tunnel),
    /// Newton kept switching a contact point between open and in contact
    /// ([`super::active`]).
    #[error(
        "contact[{pair}]{}: the active set keeps changing: slave node {node} of surface \"{slave}\" went between open and in contact {flips} times in {iterations} Newton iterations",
        if *pass == 2 { " pass 2" } else { "" }
    )]
    ActiveSetCycling {
        pair: usize,
        pass: u8,
        node: usize,
        slave: String,
        flips: u8,
        iterations: usize,
    },
    /// The velocity update left energy it could not restore ([`super::defect`]).
    #[error("{0}")]
    UpdateDefect(#[from] super::defect::Defect),
    /// Not a failure: a large contact face first closes within the step,
    /// predicted at `dt` into it ([`crate::contact::touch`]); the step is to
    /// be taken again ending there.
    #[error("{points} contact points first touch at {dt:e} into the step; the step ends there")]
    FirstTouch { dt: f64, points: usize },
    /// Not a failure: the caller asked to stop ([`super::watch`]); the
    /// step was abandoned after `iterations` Newton corrections.
    #[error("stopped on request after {iterations} Newton iterations")]
    Interrupted { iterations: usize },
}

/// End-of-step velocities `v1` and (Newmark) accelerations `a1` of the
/// step `s0 → x1` (module docs): energy-momentum `v₁ = 2(x₁ − x₀)/Δt − v₀`
/// (Love & Laursen 2003, eq. 55); Newmark `a₁ = c_M (x₁ − x̂)`,
/// `v₁ = v₀ + Δt((1−γ)a₀ + γ a₁)`. Fixed dofs are the caller's.
pub fn end_velocities(
    (integrator, cm): (Integrator, f64),
    s0: &State,
    x_hat: &[f64],
    x1: &[f64],
    dt: f64,
    (v1, a1): (&mut [f64], &mut [f64]),
) {
    match integrator {
        Integrator::EnergyMomentum => {
            for i in 0..x1.len() {
                v1[i] = 2.0 * (x1[i] - s0.x[i]) / dt - s0.v[i];
            }
        }
        Integrator::Newmark { gamma, .. } => {
            for i in 0..x1.len() {
                a1[i] = cm * (x1[i] - x_hat[i]);
                v1[i] = s0.v[i] + dt * ((1.0 - gamma) * s0.a[i] + gamma * a1[i]);
            }
        }
    }
}

/// The contact figures of a converged step into `report`: active,
/// sticking and slipping points, the largest penetration, and the
/// frictional work dissipated, `Δt Σ w j D`.
pub fn contact_statistics(contacts: &ContactSet, dt: f64, report: &mut StepReport) {
    for pt in contacts.points() {
        let ev = pt.eval;
        // the depth of either surface in the other, wherever a point is
        // over the other surface: pressed, open or of a measuring pass
        // (which carries no force)
        if ev.active() || (!ev.beside && ev.g1 < 0.0) {
            report.max_penetration = report.max_penetration.max(-ev.g1);
            report.max_penetration_h = report.max_penetration_h.max(-ev.g1 / pt.h);
        }
        if !ev.active() {
            continue;
        }
        report.active += 1;
        if pt.friction > 0.0 {
            if ev.slip() {
                report.slip += 1;
            } else {
                report.stick += 1;
            }
        }
        report.dissipation += dt * ev.weight * ev.dissipation_rate();
    }
}

/// Newton solver state for one system; scratch is allocated once.
pub struct Stepper<const D: usize> {
    pub sys: System<D>,
    pub integrator: Integrator,
    pub params: SolverParams,
    /// The Newton solve's tunables.
    pub policy: NewtonPolicy,
    pub gravity: [f64; 3],
    pub(super) f_ext: Vec<f64>,
    /// Solver of the Newton matrix.
    pub lu: LinearSolver,
    /// The consistent mass, factored once per run (velocity update, Newmark's `a₀`).
    mass_lu: Option<LinearSolver>,
    /// Seconds in element assembly and in the contact pairs (`newton::evaluate`).
    pub timing: StepTiming,
    /// The Newton matrix; with contact multipliers also the contact
    /// tangent of the last evaluation and the inertia + element tangent of
    /// the last full assembly ([`super::newton::chord`]).
    pub(super) k: Vec<f64>,
    pub(super) kc: Vec<f64>,
    pub(super) ks: Vec<f64>,
    pub(super) f: Vec<f64>,
    /// Scratch force of [`Stepper::tangent_at`].
    pub(super) f_scratch: Vec<f64>,
    pub(super) r: Vec<f64>,
    /// Newton's correction, trial iterate and multipliers ([`super::newton`]).
    pub(super) scratch: NewtonScratch,
    /// Scratch of `W`'s right-hand sides (`enforce::solve_step`).
    pub(super) w_rhs: Vec<f64>,
    pub(super) x_hat: Vec<f64>,
    pub(super) mv: Vec<f64>,
    pub(super) mx: Vec<f64>,
    /// Contact pairs, evaluated in every residual.
    pub contacts: ContactSet,
    /// The contact subproblem's path in this step, and the saddle-point
    /// system when it is taken (`lu` is then on its augmented pattern).
    pub(super) method: Method,
    pub(super) saddle: Option<Saddle>,
    /// Set by `detect`: some slave may reach its master this step.
    contact_possible: bool,
    /// Write every contact subproblem as an FCLIB file into this folder.
    pub dump_contact: Option<std::path::PathBuf>,
    pub(super) dump_count: usize,
    /// Loads, prescribed motion, the step's time ([`super::drive`]).
    pub drive: super::drive::Drive,
    /// The caller's stop request and progress hook ([`super::watch`]);
    /// set with [`Stepper::set_watch`], which hands the request to `lu` too.
    pub(crate) watch: super::watch::Watch,
}

impl<const D: usize> Stepper<D> {
    pub fn new(
        sys: System<D>,
        integrator: Integrator,
        params: SolverParams,
        gravity: [f64; 3],
    ) -> Result<Stepper<D>, LinearSolveError> {
        let n = sys.n_dofs();
        let linear = LinearParams {
            method: params.linear,
            ..Default::default()
        };
        let lu = LinearSolver::new(&sys.pattern, linear)?;
        let mass_lu = match &sys.consistent {
            Some(m) => {
                let mut m = m.clone();
                sys.apply_fixed(&mut m);
                let symmetric = LinearParams {
                    symmetric: true,
                    ..linear
                };
                let mut solver = LinearSolver::new(&sys.pattern, symmetric)?;
                solver.factorize(&m)?;
                Some(solver)
            }
            None => None,
        };
        let mut f_ext = vec![0.0; n];
        sys.gravity_force(&gravity, &mut f_ext);
        sys.zero_fixed(&mut f_ext);
        let nnz = sys.pattern.nnz();
        Ok(Stepper {
            sys,
            integrator,
            params,
            policy: NewtonPolicy::default(),
            gravity,
            f_ext,
            lu,
            mass_lu,
            timing: StepTiming::default(),
            k: vec![0.0; nnz],
            kc: Vec::new(),
            ks: Vec::new(),
            f: vec![0.0; n],
            f_scratch: vec![0.0; n],
            r: vec![0.0; n],
            scratch: NewtonScratch::new(n),
            w_rhs: Vec::new(),
            x_hat: vec![0.0; n],
            mv: vec![0.0; n],
            mx: vec![0.0; n],
            contacts: ContactSet::default(),
            method: Method::Condensed,
            saddle: None,
            contact_possible: false,
            dump_contact: None,
            dump_count: 0,
            drive: Default::default(),
            watch: Default::default(),
        })
    }

    /// The caller's view of the steps ([`super::watch`]): its stop request
    /// reaches Newton, the saddle path's inner iteration and the
    /// factorizations of `lu`.
    pub fn set_watch(&mut self, watch: super::watch::Watch) {
        self.lu.set_stop(watch.stop.clone());
        self.watch = watch;
    }

    /// Initial state from positions and velocities; Newmark's `a₀ = M⁻¹(f_ext − f_int(x₀))`.
    pub fn initial_state(&mut self, x: Vec<f64>, mut v: Vec<f64>) -> Result<State, StepError> {
        self.sys.zero_fixed(&mut v);
        let mut a = vec![0.0; x.len()];
        if let Integrator::Newmark { .. } = self.integrator {
            self.sys
                .assemble(&x, &x, StressEval::EndPoint, &mut self.f, None)?;
            for i in 0..a.len() {
                a[i] = self.f_ext[i] - self.f[i];
            }
            self.sys.zero_fixed(&mut a);
            match self.mass_lu.as_mut() {
                Some(m) => {
                    m.solve_in_place(&mut a)?;
                }
                None => {
                    for (i, v) in a.iter_mut().enumerate() {
                        *v /= self.sys.lumped[i / D].max(f64::MIN_POSITIVE);
                    }
                }
            }
        }
        Ok(State { t: 0.0, x, v, a })
    }

    /// `c_M` and where the stress is evaluated.
    pub(super) fn coefficients(&self, dt: f64) -> (f64, StressEval) {
        match self.integrator {
            Integrator::EnergyMomentum => (2.0 / (dt * dt), StressEval::Midpoint),
            Integrator::Newmark { beta, .. } => (1.0 / (beta * dt * dt), StressEval::EndPoint),
        }
    }

    /// Advances `s0` by `dt`. On error `s0` and the contact state are untouched.
    pub fn step(&mut self, s0: &State, dt: f64) -> Result<(State, StepReport), StepError> {
        let before = self.lu.stats();
        let mut result = self.step_inner(s0, dt);
        match &mut result {
            Ok((_, report)) => {
                let after = self.lu.stats();
                report.linear_iterations = after.krylov_iterations - before.krylov_iterations;
                report.factorizations = after.factorizations - before.factorizations;
                self.contacts.commit()
            }
            Err(_) => self.contacts.rollback(),
        }
        result
    }

    fn step_inner(&mut self, s0: &State, dt: f64) -> Result<(State, StepReport), StepError> {
        let mut x1 = self.start_step(s0, dt)?;
        let mut report = StepReport::default();
        self.newton(s0, &mut x1, dt, &mut report)?;
        if let Some(t) = self.contacts.tunnelling(&s0.x, &x1) {
            return Err(StepError::Tunnelling(t));
        }
        let mut v1 = vec![0.0; x1.len()];
        let a1 = self.velocities(s0, &x1, dt, &mut v1);
        report.jump = self.drive_velocities(s0, &x1, dt, &mut v1);
        contact_statistics(&self.contacts, dt, &mut report);
        if self.integrator == Integrator::EnergyMomentum {
            let u = self.velocity_update(&x1, dt, &mut v1)?;
            self.check_defect(s0, &x1, &v1, &u)?;
            report.update_defect += u.defect;
            report.jump = report.jump.plus(&u.impulse);
        }
        Ok((
            State {
                t: s0.t + dt,
                x: x1,
                v: v1,
                a: a1,
            },
            report,
        ))
    }

    /// The step's start: the drive, the predictor and the broad phase;
    /// returns Newton's first iterate. [`Stepper::step`] goes on with
    /// Newton's loop; a caller timing one iteration with
    /// [`super::newton::iterate`]. A step started and abandoned leaves the
    /// contacts to [`ContactSet::rollback`].
    pub fn start_step(&mut self, s0: &State, dt: f64) -> Result<Vec<f64>, StepError> {
        // every step factors its own first matrix: a step's result does not
        // depend on the factors of earlier ones (restarts stay bit for bit)
        self.lu.begin_step();
        self.drive_begin(s0, dt);
        self.predict(s0, dt);
        self.detect(s0, dt)?;
        // Where contact may happen in this step, Newton starts from the
        // positions at t_n instead of x̂ = x_n + Δt v_n: the constant-velocity
        // predictor drives the bodies deep into each other (half an element
        // on the fine blocks mesh), and the face choices of that state are
        // far from the solution's.
        let mut x1 = if self.contact_possible {
            s0.x.clone()
        } else {
            self.x_hat.clone()
        };
        self.drive_positions(&mut x1);
        Ok(x1)
    }

    /// The Newton matrix on a new pattern (the contact tangent and `K_s`
    /// follow at the next evaluation with contact, [`super::newton::chord`]).
    pub(super) fn resize_matrices(&mut self) {
        self.k.clear();
        self.k.resize(self.sys.pattern.nnz(), 0.0);
        self.kc.clear();
        self.ks.clear();
    }

    /// The predictor `x̂` (see the module docs).
    fn predict(&mut self, s0: &State, dt: f64) {
        for i in 0..s0.x.len() {
            self.x_hat[i] = s0.x[i] + dt * s0.v[i];
            if let Integrator::Newmark { beta, .. } = self.integrator {
                self.x_hat[i] += dt * dt * (0.5 - beta) * s0.a[i];
            }
        }
    }

    /// Broad phase of the step: the stiffness pattern holds the contact
    /// couplings the step may reach (re-doing the symbolic analysis only when
    /// the pattern grows), the pairs start the step, and the contact
    /// subproblem's path is chosen (the saddle-point system built when the
    /// points it must carry are not yet in it).
    fn detect(&mut self, s0: &State, dt: f64) -> Result<(), StepError> {
        if self.contacts.is_empty() {
            return Ok(());
        }
        let (lists, possible) = self.contacts.couplings(&s0.x, &s0.v, dt);
        self.contact_possible = possible;
        let grew = self.sys.set_couplings(lists);
        self.contacts.begin_step(&s0.x, dt);
        let reach = self.contacts.reach(&s0.x, &s0.v, dt);
        let method = self.choose_method(reach.len());
        let fresh = method != self.method;
        let covered = self.saddle.as_ref().is_some_and(|s| s.covers(&reach));
        match method {
            Method::Condensed if grew || fresh => self.use_condensed()?,
            Method::Saddle if grew || fresh || !covered => self.use_saddle(reach)?,
            _ => {}
        }
        if let Some(s) = self.saddle.as_mut() {
            s.begin_step();
        }
        if grew {
            let nnz = self.sys.pattern.nnz();
            self.resize_matrices();
            log::debug!("contact: stiffness pattern rebuilt ({nnz} entries)");
        }
        Ok(())
    }

    /// The condensed path from now on: `lu` on the bodies' pattern, the
    /// contact nodes (`System::couplings`) ordered last where that pays.
    pub(super) fn use_condensed(&mut self) -> Result<(), LinearSolveError> {
        self.method = Method::Condensed;
        self.saddle = None;
        let volatile: Vec<usize> = self.sys.couplings().iter().flatten().copied().collect();
        self.lu.set_pattern(&self.sys.pattern, &volatile, &[])
    }

    /// The saddle-point path from now on, with a multiplier block for each
    /// point of `reach`: `lu` on its augmented pattern.
    pub(super) fn use_saddle(
        &mut self,
        reach: crate::contact::enforce::saddle::Reach,
    ) -> Result<(), LinearSolveError> {
        self.method = Method::Saddle;
        let pairs = self.contacts.pairs().len();
        let saddle = Saddle::new(&self.sys.pattern, reach, pairs, self.policy.saddle);
        let volatile: Vec<usize> = self.sys.couplings().iter().flatten().copied().collect();
        self.lu
            .set_pattern(saddle.pattern(), &volatile, &saddle.anchored())?;
        log::debug!("contact: saddle-point system of {} points", saddle.len());
        self.saddle = Some(saddle);
        Ok(())
    }

    /// The contact subproblem's path for a step where `points` points may
    /// touch: the input's choice, or by the policy's crossover; an FCLIB
    /// dump asks for the condensed problem it writes; on the iterative
    /// linear path `auto` takes the saddle path.
    fn choose_method(&self, points: usize) -> Method {
        use crate::model::ContactSystem;
        match self.params.contact_system {
            ContactSystem::Condensed => Method::Condensed,
            ContactSystem::Saddle => Method::Saddle,
            ContactSystem::Auto if self.dump_contact.is_some() => Method::Condensed,
            // W would be one Krylov solve per contact unknown
            ContactSystem::Auto if self.lu.plan().method == LinearMethod::Iterative => {
                Method::Saddle
            }
            ContactSystem::Auto if points >= self.policy.saddle_min_points => Method::Saddle,
            ContactSystem::Auto => Method::Condensed,
        }
    }

    /// End-of-step velocities into `v1`; returns the accelerations (Newmark).
    fn velocities(&self, s0: &State, x1: &[f64], dt: f64, v1: &mut [f64]) -> Vec<f64> {
        let (cm, _) = self.coefficients(dt);
        let mut a1 = vec![0.0; x1.len()];
        end_velocities(
            (self.integrator, cm),
            s0,
            &self.x_hat,
            x1,
            dt,
            (v1, &mut a1),
        );
        self.sys.zero_fixed(v1);
        self.sys.zero_fixed(&mut a1);
        a1
    }

    /// The velocity update of Love & Laursen 2003 (DESIGN §6) for the pairs
    /// that ask for it; returns what it did (the energy defect). Lumped mass: `M⁻¹` per
    /// node; consistent mass: solves with `M`, factored once per pattern.
    fn velocity_update(
        &mut self,
        x1: &[f64],
        dt: f64,
        v1: &mut [f64],
    ) -> Result<UpdateOutcome, StepError> {
        if self.contacts.is_empty() {
            return Ok(UpdateOutcome::default());
        }
        let minv = if self.sys.consistent.is_some() {
            let lu = self
                .mass_lu
                .as_mut()
                .expect("a consistent mass is factored at new");
            let mut solve = |g: &mut [f64]| lu.solve_in_place(g).map(|_| ());
            return Ok(update::apply::<D>(
                &self.contacts,
                x1,
                dt,
                &self.sys.fixed,
                MassInverse::Consistent(&mut solve),
                v1,
            )?);
        } else {
            MassInverse::Lumped(&self.sys.lumped)
        };
        Ok(update::apply::<D>(
            &self.contacts,
            x1,
            dt,
            &self.sys.fixed,
            minv,
            v1,
        )?)
    }
}
