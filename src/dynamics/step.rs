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
use crate::fe::kernel::{KernelError, StressEval};
use crate::linalg::{LinearSolveError, SparseLu};
use crate::model::{Integrator, SolverParams};

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
    pub iterations: usize,
    /// Final relative residual.
    pub residual: f64,
    /// Relative residual after each Newton update, starting with the predictor's.
    pub residual_history: Vec<f64>,
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
        f: &mut [f64],
        mv: &mut [f64],
        r: &mut [f64],
        k: &mut [f64],
    ) -> Result<Eval, StepError> {
        sys.assemble(x0, x1, eval, f, Some(&mut *k))?;
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

    /// Advances `s0` by `dt`. On error `s0` is untouched and nothing is committed.
    pub fn step(&mut self, s0: &State, dt: f64) -> Result<(State, StepReport), StepError> {
        let (cm, eval) = self.coefficients(dt);
        let n = s0.x.len();
        for i in 0..n {
            self.x_hat[i] = s0.x[i] + dt * s0.v[i];
            if let Integrator::Newmark { beta, .. } = self.integrator {
                self.x_hat[i] += dt * dt * (0.5 - beta) * s0.a[i];
            }
        }
        let mut x1 = self.x_hat.clone();
        let mut report = StepReport::default();
        let mut cur = Self::evaluate(
            &self.sys,
            &s0.x,
            &x1,
            &self.x_hat,
            &self.f_ext,
            cm,
            eval,
            &mut self.f,
            &mut self.mv,
            &mut self.r,
            &mut self.k,
        )?;
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
                match Self::evaluate(
                    &self.sys,
                    &s0.x,
                    &self.x_trial,
                    &self.x_hat,
                    &self.f_ext,
                    cm,
                    eval,
                    &mut self.f,
                    &mut self.mv,
                    &mut self.r_trial,
                    &mut self.k_trial,
                ) {
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
            let Some(e) = accepted else {
                return Err(failure.unwrap_or(StepError::NoConvergence {
                    iterations: it,
                    residual: cur.norm / cur.scale,
                }));
            };
            std::mem::swap(&mut x1, &mut self.x_trial);
            std::mem::swap(&mut self.r, &mut self.r_trial);
            std::mem::swap(&mut self.k, &mut self.k_trial);
            cur = e;
            report.residual_history.push(cur.norm / cur.scale);
            if at_round_off {
                break;
            }
        }
        report.iterations = it;
        report.residual = cur.norm / cur.scale;

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
}
