//! One time step: Newton's method on the end-of-step positions.
//!
//! Both integrators share the residual form
//!
//! ```text
//! R(x₁) = c_M M (x₁ − x̂) + f_int − f_ext = 0
//! ```
//!
//! * energy-momentum (Love & Laursen 2003, eq. 54; Simo & Tarnow 1992):
//!   `c_M = 2/Δt²`, `x̂ = x₀ + Δt v₀`, `f_int = f_int(x₀, x₁)` with the
//!   algorithmic stress at the midpoint; then `v₁ = 2(x₁ − x₀)/Δt − v₀` (eq. 55);
//! * Newmark: `c_M = 1/(βΔt²)`, `x̂ = x₀ + Δt v₀ + Δt²(½ − β) a₀`,
//!   `f_int = f_int(x₁)`; then `a₁ = c_M (x₁ − x̂)`, `v₁ = v₀ + Δt((1−γ)a₀ + γ a₁)`.
//!
//! The Newton matrix is `c_M M + ∂f_int/∂x₁` (unsymmetric for the midpoint
//! scheme), factorized by sparse LU with a reused symbolic analysis; a
//! backtracking line search on ‖R‖ guards each update.

use super::system::System;
use crate::contact::geometry::GeometryError;
use crate::contact::pair::{ContactPair, SlaveState};
use crate::contact::update::{solve_impulses, RootBounds, SparseRows};
use crate::fe::kernel::{KernelError, StressEval};
use crate::linalg::{LinearSolveError, SparseLu};
use crate::model::{Integrator, SolverParams};

/// `Stepper::snapshot` / `Stepper::restore` (checkpoints): a child module, so
/// that restoring the stiffness pattern can rebuild the factorization.
mod snapshot;
pub use snapshot::{PairSnapshot, PointSnapshot, RestoreError, StepperSnapshot, SNAPSHOT_VERSION};

/// Gauss–Seidel sweeps of the velocity update's impulse solve.
const MAX_SWEEPS: usize = 1000;

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
    /// Newton iterations, summed over augmentations.
    pub iterations: usize,
    /// Final relative residual.
    pub residual: f64,
    /// Relative residual after each Newton update, starting with the predictor's.
    pub residual_history: Vec<f64>,
    /// Contact: Uzawa augmentations (Newton solves after the first).
    pub augmentations: usize,
    /// Contact points active / sticking / slipping at the end of the step.
    pub active: usize,
    pub stick: usize,
    pub slip: usize,
    /// Largest penetration `max(−g_{n+1})` over active points (0 if none).
    pub max_penetration: f64,
    /// Frictional work dissipated in the step, `Δt Σ w j D`.
    pub dissipation: f64,
    /// Energy the velocity update could not restore in the step (`Σ F_l(κ)`).
    pub update_defect: f64,
}

/// Why a step failed (the run then retries with a smaller step).
#[derive(Debug, Clone, thiserror::Error)]
pub enum StepError {
    #[error("Newton did not converge in {iterations} iterations (relative residual {residual:e})")]
    NoConvergence { iterations: usize, residual: f64 },
    #[error("{0}")]
    Element(#[from] KernelError),
    #[error("linear solve: {0}")]
    Linear(#[from] LinearSolveError),
    #[error("non-finite residual")]
    NonFinite,
    #[error("contact geometry: {0}")]
    Contact(#[from] GeometryError),
    #[error(
        "contact constraints not met after {augmentations} augmentations (violation {violation:e})"
    )]
    Augmentation {
        augmentations: usize,
        violation: f64,
    },
}

/// Newton solver state for one system; scratch is allocated once.
pub struct Stepper<const D: usize> {
    pub sys: System<D>,
    pub integrator: Integrator,
    pub params: SolverParams,
    pub gravity: [f64; 3],
    f_ext: Vec<f64>,
    lu: SparseLu,
    k: Vec<f64>,
    k_trial: Vec<f64>,
    f: Vec<f64>,
    r: Vec<f64>,
    r_trial: Vec<f64>,
    dx: Vec<f64>,
    x_trial: Vec<f64>,
    x_hat: Vec<f64>,
    mv: Vec<f64>,
    /// Contact pairs, evaluated in every residual.
    pub contacts: Vec<ContactPair>,
    /// Set by `refresh_couplings`: some slave may reach its master this step.
    contact_possible: bool,
}

/// Newton corrections below `ROUND_OFF · max|x|` are at the round-off level of the positions.
const ROUND_OFF: f64 = 1e-14;

fn norm(v: &[f64]) -> f64 {
    v.iter().map(|a| a * a).sum::<f64>().sqrt()
}

/// Residual pieces at one trial point.
struct Eval {
    norm: f64,
    scale: f64,
}

impl<const D: usize> Stepper<D> {
    pub fn new(
        sys: System<D>,
        integrator: Integrator,
        params: SolverParams,
        gravity: [f64; 3],
    ) -> Result<Stepper<D>, LinearSolveError> {
        let n = sys.n_dofs();
        let lu = SparseLu::new(&sys.pattern)?;
        let mut f_ext = vec![0.0; n];
        sys.gravity_force(&gravity, &mut f_ext);
        sys.zero_fixed(&mut f_ext);
        let nnz = sys.pattern.nnz();
        Ok(Stepper {
            sys,
            integrator,
            params,
            gravity,
            f_ext,
            lu,
            k: vec![0.0; nnz],
            k_trial: vec![0.0; nnz],
            f: vec![0.0; n],
            r: vec![0.0; n],
            r_trial: vec![0.0; n],
            dx: vec![0.0; n],
            x_trial: vec![0.0; n],
            x_hat: vec![0.0; n],
            mv: vec![0.0; n],
            contacts: Vec::new(),
            contact_possible: false,
        })
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
            self.k.iter_mut().for_each(|v| *v = 0.0);
            self.sys.add_mass(1.0, &mut self.k);
            self.sys.apply_fixed(&mut self.k);
            self.lu.factorize(&self.sys.pattern, &self.k)?;
            self.lu.solve_in_place(&mut a)?;
        }
        Ok(State { t: 0.0, x, v, a })
    }

    fn coefficients(&self, dt: f64) -> (f64, StressEval) {
        match self.integrator {
            Integrator::EnergyMomentum => (2.0 / (dt * dt), StressEval::Midpoint),
            Integrator::Newmark { beta, .. } => (1.0 / (beta * dt * dt), StressEval::EndPoint),
        }
    }

    /// Residual (into `r`) and tangent (into `k`) at `x1`.
    fn evaluate(
        sys: &System<D>,
        x0: &[f64],
        x1: &[f64],
        x_hat: &[f64],
        f_ext: &[f64],
        cm: f64,
        eval: StressEval,
        dt: f64,
        contacts: &mut [ContactPair],
        f: &mut [f64],
        mv: &mut [f64],
        r: &mut [f64],
        k: &mut [f64],
    ) -> Result<Eval, StepError> {
        sys.assemble(x0, x1, eval, f, Some(&mut *k))?;
        // contact force acts on the bodies: it enters the residual with a minus
        // sign, as f_int − f_c (DESIGN §4); `mv` is scratch for it here.
        if !contacts.is_empty() {
            mv.iter_mut().for_each(|v| *v = 0.0);
            for c in contacts.iter_mut() {
                c.assemble::<D>(x0, x1, dt, mv, Some((&sys.pattern, &mut *k)))?;
            }
            for i in 0..f.len() {
                f[i] -= mv[i];
            }
        }
        for i in 0..r.len() {
            r[i] = x1[i] - x_hat[i];
        }
        sys.mass_times(r, mv);
        for i in 0..r.len() {
            mv[i] *= cm;
            r[i] = mv[i] + f[i] - f_ext[i];
        }
        sys.zero_fixed(r);
        sys.zero_fixed(mv);
        let n = norm(r);
        if !n.is_finite() {
            return Err(StepError::NonFinite);
        }
        let scale = norm(mv)
            .max(norm(f))
            .max(norm(f_ext))
            .max(f64::MIN_POSITIVE);
        sys.add_mass(cm, k);
        sys.apply_fixed(k);
        Ok(Eval { norm: n, scale })
    }

    /// Residual and tangent at `x_trial`, into `r_trial` and `k_trial`.
    fn evaluate_trial(
        &mut self,
        x0: &[f64],
        cm: f64,
        eval: StressEval,
        dt: f64,
    ) -> Result<Eval, StepError> {
        Self::evaluate(
            &self.sys,
            x0,
            &self.x_trial,
            &self.x_hat,
            &self.f_ext,
            cm,
            eval,
            dt,
            &mut self.contacts,
            &mut self.f,
            &mut self.mv,
            &mut self.r_trial,
            &mut self.k_trial,
        )
    }

    /// Makes the stiffness pattern hold the contact couplings of the coming step
    /// (re-doing the symbolic analysis only when the pattern grows).
    fn refresh_couplings(&mut self, s0: &State, dt: f64) -> Result<(), StepError> {
        if self.contacts.is_empty() {
            return Ok(());
        }
        let mut lists: Vec<Vec<usize>> = Vec::new();
        self.contact_possible = false;
        for c in &self.contacts {
            let l = c.couplings(&s0.x, &s0.v, dt);
            self.contact_possible |= c.may_touch(&s0.x, &s0.v, dt, &l);
            lists.extend(l);
        }
        if self.sys.set_couplings(lists) {
            self.lu = SparseLu::new(&self.sys.pattern)?;
            let nnz = self.sys.pattern.nnz();
            self.k = vec![0.0; nnz];
            self.k_trial = vec![0.0; nnz];
            log::debug!("contact: stiffness pattern rebuilt ({nnz} entries)");
        }
        Ok(())
    }

    fn set_geometric_tangent(&mut self, on: bool) {
        self.contacts
            .iter_mut()
            .for_each(|c| c.geometric_tangent = on);
    }

    /// Newton's method on `x1` (from its current value) with the contact
    /// multipliers fixed.
    fn newton(
        &mut self,
        s0: &State,
        x1: &mut Vec<f64>,
        dt: f64,
        report: &mut StepReport,
    ) -> Result<(), StepError> {
        let (cm, eval) = self.coefficients(dt);
        let n = s0.x.len();
        self.x_trial.copy_from_slice(x1);
        // Contact: the first matrix leaves out the geometric stiffness (at a
        // predictor that penetrates deeply it swamps the rest, see
        // ContactPair::geometric_tangent); later ones include it, except right
        // after a step along which no length decreased ‖R‖.
        let mut k_geometric = false;
        self.set_geometric_tangent(k_geometric);
        let mut cur = self.evaluate_trial(&s0.x, cm, eval, dt)?;
        std::mem::swap(&mut self.r, &mut self.r_trial);
        std::mem::swap(&mut self.k, &mut self.k_trial);
        report.residual_history.push(cur.norm / cur.scale);
        let mut it = 0;
        while cur.norm > self.params.tolerance * cur.scale {
            if it == self.params.max_iterations {
                return Err(StepError::NoConvergence {
                    iterations: it,
                    residual: cur.norm / cur.scale,
                });
            }
            it += 1;
            self.set_geometric_tangent(true);
            self.lu.factorize(&self.sys.pattern, &self.k)?;
            for i in 0..n {
                self.dx[i] = -self.r[i];
            }
            self.lu.solve_in_place(&mut self.dx)?;
            // Round-off floor: a correction below ~50 ulp of the positions cannot
            // reduce the residual further (the inertia term cancels digits of x).
            // Take it and stop.
            let dnorm = self.dx.iter().fold(0.0f64, |m, v| m.max(v.abs()));
            let xnorm = x1.iter().fold(0.0f64, |m, v| m.max(v.abs()));
            let at_round_off = dnorm <= ROUND_OFF * xnorm;
            // Backtracking line search on ‖R‖: accept the first step length that
            // decreases it; an inverted element also halves the step.
            let mut s = 1.0;
            let mut accepted = None;
            let mut failure = None;
            for _ in 0..8 {
                for i in 0..n {
                    self.x_trial[i] = x1[i] + s * self.dx[i];
                }
                let trial = self.evaluate_trial(&s0.x, cm, eval, dt);
                match trial {
                    Ok(e)
                        if at_round_off
                            || e.norm < cur.norm
                            || e.norm <= self.params.tolerance * e.scale =>
                    {
                        accepted = Some(e);
                        break;
                    }
                    Ok(_) => {}
                    Err(e) => failure = Some(e),
                }
                s *= 0.5;
            }
            let e = match accepted {
                Some(e) => {
                    k_geometric = true;
                    e
                }
                None => {
                    // No step length decreased ‖R‖. Where the residual is nonsmooth
                    // (a contact point changing case) that is expected: take the full
                    // Newton step unless it is invalid, and let the iteration limit decide;
                    // the next matrix is of the other kind.
                    k_geometric = !k_geometric;
                    self.set_geometric_tangent(k_geometric);
                    for i in 0..n {
                        self.x_trial[i] = x1[i] + self.dx[i];
                    }
                    match self.evaluate_trial(&s0.x, cm, eval, dt) {
                        Ok(e) if !self.contacts.is_empty() => e,
                        Ok(_) => {
                            return Err(failure.unwrap_or(StepError::NoConvergence {
                                iterations: it,
                                residual: cur.norm / cur.scale,
                            }))
                        }
                        Err(e) => return Err(e),
                    }
                }
            };
            std::mem::swap(x1, &mut self.x_trial);
            std::mem::swap(&mut self.r, &mut self.r_trial);
            std::mem::swap(&mut self.k, &mut self.k_trial);
            cur = e;
            report.residual_history.push(cur.norm / cur.scale);
            if log::log_enabled!(log::Level::Trace) {
                let count = |f: &dyn Fn(&crate::contact::pair::PointEval) -> bool| -> usize {
                    self.contacts
                        .iter()
                        .map(|c| c.evals.iter().filter(|e| f(e)).count())
                        .sum()
                };
                log::trace!(
                    "newton {it}: relative residual {:.3e}, step length {s}, active {} (slip {}, new {}), faces {:?}",
                    cur.norm / cur.scale,
                    count(&|e| e.active),
                    count(&|e| e.active && e.slip),
                    count(&|e| e.active && e.case == crate::contact::law::NormalCase::New),
                    self.contacts
                        .iter()
                        .flat_map(|c| c.evals.iter().map(|e| e.face.map(|f| f as i64).unwrap_or(-1)))
                        .collect::<Vec<_>>()
                );
            }
            if at_round_off {
                break;
            }
        }
        report.iterations += it;
        report.residual = cur.norm / cur.scale;
        Ok(())
    }

    /// Advances `s0` by `dt`. On error `s0` and the contact state are untouched.
    pub fn step(&mut self, s0: &State, dt: f64) -> Result<(State, StepReport), StepError> {
        let saved: Vec<Vec<SlaveState>> = self.contacts.iter().map(|c| c.state.clone()).collect();
        let result = self.step_inner(s0, dt);
        match &result {
            Ok(_) => self.contacts.iter_mut().for_each(|c| c.commit()),
            Err(_) => {
                for (c, st) in self.contacts.iter_mut().zip(saved) {
                    c.state = st;
                }
            }
        }
        result
    }

    fn step_inner(&mut self, s0: &State, dt: f64) -> Result<(State, StepReport), StepError> {
        let (cm, _) = self.coefficients(dt);
        let n = s0.x.len();
        for i in 0..n {
            self.x_hat[i] = s0.x[i] + dt * s0.v[i];
            if let Integrator::Newmark { beta, .. } = self.integrator {
                self.x_hat[i] += dt * dt * (0.5 - beta) * s0.a[i];
            }
        }
        self.refresh_couplings(s0, dt)?;
        self.contacts.iter_mut().for_each(|c| c.begin_step(dt));
        let mut x1 = self.x_hat.clone();
        // Where contact may happen in this step, Newton starts from the
        // positions at t_n instead of x̂ = x_n + Δt v_n: the constant-velocity
        // predictor drives the bodies deep into each other (half an element
        // on the fine blocks mesh, a block pivoting on an edge), and the
        // pressures and face choices of that state make the first Newton
        // matrices useless (fine blocks, first contact: 24 iterations at
        // Δt = 0.1 from x_n; from x̂ the step failed and was cut back).
        if self.contact_possible {
            x1.copy_from_slice(&s0.x);
        }
        let mut report = StepReport::default();
        // Uzawa loop (Love & Laursen §3.6): Newton with fixed multipliers, then
        // update them until every pair meets its tolerance.
        let augmented: Vec<usize> = (0..self.contacts.len())
            .filter(|&c| {
                self.contacts[c].spec.enforcement == crate::model::Enforcement::AugmentedLagrangian
            })
            .collect();
        let max_aug = self
            .contacts
            .iter()
            .map(|c| c.spec.max_augmentations)
            .max()
            .unwrap_or(0);
        loop {
            self.newton(s0, &mut x1, dt, &mut report)?;
            if self.contacts.is_empty() {
                break;
            }
            // stick/slip states held during the solve must agree with the return map
            let changed: usize = self.contacts.iter_mut().map(|c| c.settle_states()).sum();
            let mut worst = 0.0f64;
            let mut met = changed == 0;
            for &c in &augmented {
                let v = self.contacts[c].augment(dt, &x1, &s0.x);
                met &= v <= self.contacts[c].tol_abs;
                worst = worst.max(v);
            }
            log::trace!(
                "augmentation {}: largest violation {worst:.3e}, stick/slip changes {changed}",
                report.augmentations
            );
            if met {
                break;
            }
            if report.augmentations >= max_aug {
                return Err(StepError::Augmentation {
                    augmentations: report.augmentations,
                    violation: worst,
                });
            }
            report.augmentations += 1;
        }

        let mut v1 = vec![0.0; n];
        let mut a1 = vec![0.0; n];
        match self.integrator {
            Integrator::EnergyMomentum => {
                for i in 0..n {
                    v1[i] = 2.0 * (x1[i] - s0.x[i]) / dt - s0.v[i];
                }
            }
            Integrator::Newmark { gamma, .. } => {
                for i in 0..n {
                    a1[i] = cm * (x1[i] - self.x_hat[i]);
                    v1[i] = s0.v[i] + dt * ((1.0 - gamma) * s0.a[i] + gamma * a1[i]);
                }
            }
        }
        self.sys.zero_fixed(&mut v1);
        self.sys.zero_fixed(&mut a1);
        self.contact_statistics(dt, &mut report);
        if self.integrator == Integrator::EnergyMomentum {
            self.velocity_update(&x1, dt, &mut v1, &mut report)?;
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

    fn contact_statistics(&self, dt: f64, report: &mut StepReport) {
        for c in &self.contacts {
            for ev in c.evals.iter().filter(|e| e.active) {
                report.active += 1;
                if c.spec.friction > 0.0 {
                    if ev.slip {
                        report.slip += 1;
                    } else {
                        report.stick += 1;
                    }
                }
                report.max_penetration = report.max_penetration.max(-ev.g1);
                report.dissipation += dt * ev.weight * ev.dissipation_rate();
            }
        }
    }

    /// The velocity update of Love & Laursen 2003 (eqs. 72–78, 86–87; DESIGN §6)
    /// for the pairs that ask for it; frictional work of the others is still
    /// reported. Lumped mass: `M⁻¹` per node; consistent mass: solves with `M`.
    fn velocity_update(
        &mut self,
        x1: &[f64],
        dt: f64,
        v1: &mut [f64],
        report: &mut StepReport,
    ) -> Result<(), StepError> {
        let mut points = Vec::new();
        for c in self.contacts.iter().filter(|c| c.spec.velocity_update) {
            points.extend(c.update_terms::<D>(x1, dt));
        }
        if points.is_empty() {
            return Ok(());
        }
        let n = v1.len();
        // y_l = M⁻¹ (w j G^l), restricted to free dofs
        let mut g_full = vec![0.0; n];
        let mut y: Vec<Vec<(usize, f64)>> = Vec::with_capacity(points.len());
        let consistent = self.sys.consistent.is_some();
        if consistent {
            let mut m = vec![0.0; self.sys.pattern.nnz()];
            self.sys.add_mass(1.0, &mut m);
            self.sys.apply_fixed(&mut m);
            self.lu.factorize(&self.sys.pattern, &m)?;
        }
        for p in &points {
            if consistent {
                g_full.iter_mut().for_each(|v| *v = 0.0);
                for a in 0..p.n {
                    for i in 0..D {
                        g_full[p.nodes[a] * D + i] += p.g[a][i];
                    }
                }
                self.sys.zero_fixed(&mut g_full);
                self.lu.solve_in_place(&mut g_full)?;
                y.push(
                    g_full
                        .iter()
                        .enumerate()
                        .filter(|(_, v)| **v != 0.0)
                        .map(|(i, v)| (i, *v))
                        .collect(),
                );
            } else {
                let mut yl = Vec::with_capacity(p.n * D);
                for a in 0..p.n {
                    let node = p.nodes[a];
                    for i in 0..D {
                        let dof = node * D + i;
                        if !self.sys.fixed[dof] {
                            yl.push((dof, p.g[a][i] / self.sys.lumped[node]));
                        }
                    }
                }
                yl.sort_unstable_by_key(|e| e.0);
                y.push(yl);
            }
        }
        let dot_g = |p: &crate::contact::pair::UpdatePoint, yk: &[(usize, f64)]| -> f64 {
            let mut s = 0.0;
            for a in 0..p.n {
                for i in 0..D {
                    let dof = p.nodes[a] * D + i;
                    if let Ok(j) = yk.binary_search_by_key(&dof, |e| e.0) {
                        s += p.g[a][i] * yk[j].1;
                    }
                }
            }
            s
        };
        let np = points.len();
        let mut rows = vec![Vec::new(); np];
        for l in 0..np {
            for k in 0..np {
                let v = 0.5 * dot_g(&points[l], &y[k]);
                if v != 0.0 {
                    rows[l].push((k, v));
                }
            }
        }
        let b: Vec<f64> = points
            .iter()
            .map(|p| {
                let mut s = 0.0;
                for a in 0..p.n {
                    for i in 0..D {
                        s += p.g[a][i] * v1[p.nodes[a] * D + i];
                    }
                }
                s
            })
            .collect();
        let c: Vec<f64> = points.iter().map(|p| p.c).collect();
        let rows = SparseRows { rows };
        let new_contact: Vec<bool> = points.iter().map(|p| p.new_contact).collect();
        let bounds = RootBounds {
            min: -0.5 * dt,
            bounce: dt,
        };
        let imp = solve_impulses(&rows, &b, &c, &new_contact, bounds, MAX_SWEEPS);
        if !imp.settled {
            log::debug!(
                "velocity update: Gauss–Seidel did not settle in {} sweeps; defect {:.3e}",
                imp.sweeps,
                imp.defect
            );
        }
        if !imp.unsolved.is_empty() {
            log::debug!(
                "velocity update: {} point(s) without admissible root; {:.3e} of their energy taken back at other points, {:.3e} left as defect",
                imp.unsolved.len(),
                imp.redistributed,
                imp.defect
            );
        }
        // per-point data of the update
        if log::log_enabled!(log::Level::Trace) {
            for l in 0..np {
                log::trace!(
                    "velocity update: point at node {}: b = {:.3e}, c = {:.3e}, A_ll = {:.3e}, κ = {:.3e}{}",
                    points[l].nodes[0],
                    b[l],
                    c[l],
                    rows.rows[l].iter().find(|e| e.0 == l).map_or(0.0, |e| e.1),
                    imp.kappa[l],
                    if imp.unsolved.contains(&l) { " (no admissible root)" } else { "" }
                );
            }
        }
        for (l, yl) in y.iter().enumerate() {
            for &(dof, v) in yl {
                v1[dof] += imp.kappa[l] * v;
            }
        }
        report.update_defect += imp.defect;
        Ok(())
    }
}
