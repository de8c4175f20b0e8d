//! What drives a model from outside, as the time step sees it: the loads
//! ([`super::loads`]), the prescribed motion ([`super::prescribed`]) and the
//! moving rigid masters ([`crate::contact::rigid`]), with the hooks the step
//! calls:
//!
//! * [`Stepper::drive_begin`] at the start of a step: the step's time for
//!   the loads, the rigid masters placed at `t_n` and `t_{n+1}`;
//! * [`Stepper::drive_positions`] before Newton: the prescribed positions
//!   at `t_{n+1}`;
//! * [`Stepper::drive_loads`] in every residual evaluation: `f_ext` =
//!   gravity + loads at the iterate, their tangent;
//! * [`Stepper::drive_velocities`] after Newton: the prescribed velocities
//!   at `t_{n+1}`, and the jump they make ([`Jump`]).

use super::loads::Loads;
use super::prescribed::{Jump, Prescribed};
use super::step::{State, Stepper};
use super::system::System;
use crate::model::{Integrator, Model};

/// Loads, prescribed motion and the step's time.
#[derive(Debug, Clone, Default)]
pub struct Drive {
    pub loads: Loads,
    pub prescribed: Prescribed,
    /// Gravity `m_A g` at every dof (the supports' dofs included).
    gravity: Vec<f64>,
    /// The current step: `t_n` and `Δt`.
    t0: f64,
    dt: f64,
    /// Scratch: the midpoint configuration, the momenta of a velocity jump.
    xm: Vec<f64>,
    scratch: Vec<f64>,
}

/// A step `x0 → x1` over `[t0, t0 + dt]` under `integrator`: where and when
/// the integrator evaluates the external force.
#[derive(Debug, Clone, Copy)]
pub struct StepSpan<'a> {
    pub integrator: Integrator,
    pub t0: f64,
    pub dt: f64,
    pub x0: &'a [f64],
    pub x1: &'a [f64],
}

impl Drive {
    /// The drive of `model` on `sys`.
    pub fn new<const D: usize>(model: &Model, sys: &System<D>) -> Drive {
        let mut gravity = vec![0.0; sys.n_dofs()];
        sys.gravity_force(&model.gravity, &mut gravity);
        Drive {
            loads: Loads::new(model, sys),
            prescribed: Prescribed::new(model, &sys.xref, D),
            gravity,
            t0: 0.0,
            dt: 0.0,
            xm: Vec::new(),
            scratch: Vec::new(),
        }
    }

    /// A drive from its parts: `gravity` is `m_A g` at every dof (the
    /// supports' dofs included). The parallel build's ranks each hold the
    /// share of the loads and prescribed dofs on their local nodes.
    pub fn from_parts(loads: Loads, prescribed: Prescribed, gravity: Vec<f64>) -> Drive {
        Drive {
            loads,
            prescribed,
            gravity,
            ..Drive::default()
        }
    }

    /// The loads of the step `span` added to `out`, and `−∂f/∂x_{n+1}`
    /// added to the matrix values `k` on its pattern (the configuration the
    /// loads act on is `x_n + s (x_{n+1} − x_n)`, whence the factor `s`).
    pub fn add_loads_at<const D: usize>(
        &mut self,
        span: StepSpan,
        out: &mut [f64],
        k: Option<(&crate::linalg::BlockPattern, &mut [f64])>,
    ) {
        let s = Drive::at(span.integrator, span.t0, span.dt).1;
        let mut xm = std::mem::take(&mut self.xm);
        self.add_loads::<D>(span, out, k.map(|(p, k)| (p, k, s)), &mut xm);
        self.xm = xm;
    }

    /// The time and configuration weight where `integrator` evaluates the
    /// loads of the step `x0 → x1` (DESIGN §4.1): `(t, s)` with the
    /// configuration `x0 + s (x1 − x0)`.
    fn at(integrator: Integrator, t0: f64, dt: f64) -> (f64, f64) {
        match integrator {
            Integrator::EnergyMomentum => (t0 + 0.5 * dt, 0.5),
            Integrator::Newmark { .. } => (t0 + dt, 1.0),
        }
    }

    /// The external force of the step `span` into `out` (overwritten),
    /// every dof (the supports' included): the loads, and with `gravity`
    /// also gravity.
    pub fn external_force<const D: usize>(&self, span: StepSpan, gravity: bool, out: &mut [f64]) {
        if gravity {
            out.copy_from_slice(&self.gravity);
        } else {
            out.iter_mut().for_each(|v| *v = 0.0);
        }
        self.add_loads::<D>(span, out, None, &mut Vec::new());
    }

    /// The loads of the step `span` added to `out`, their stiffness scaled
    /// by `s` into `k`; `xm` is scratch for the configuration they act on.
    fn add_loads<const D: usize>(
        &self,
        span: StepSpan,
        out: &mut [f64],
        k: Option<(&crate::linalg::BlockPattern, &mut [f64], f64)>,
        xm: &mut Vec<f64>,
    ) {
        if self.loads.is_empty() {
            return;
        }
        let StepSpan { x0, x1, .. } = span;
        let (t, s) = Drive::at(span.integrator, span.t0, span.dt);
        if s == 1.0 {
            self.loads.add::<D>(t, x1, out, k);
        } else {
            xm.clear();
            xm.extend(x0.iter().zip(x1).map(|(a, b)| a + s * (b - a)));
            self.loads.add::<D>(t, xm, out, k);
        }
    }
}

impl<const D: usize> Stepper<D> {
    /// The step from `s0` to `x1` of size `dt` under this stepper's integrator.
    pub fn step_span<'a>(&self, s0: &'a State, x1: &'a [f64], dt: f64) -> StepSpan<'a> {
        StepSpan {
            integrator: self.integrator,
            t0: s0.t,
            dt,
            x0: &s0.x,
            x1,
        }
    }

    /// Start of a step `[s0.t, s0.t + dt]`: its time, the rigid masters at
    /// both ends.
    pub(super) fn drive_begin(&mut self, s0: &State, dt: f64) {
        self.drive.t0 = s0.t;
        self.drive.dt = dt;
        self.contacts.place_rigid(s0.t, dt);
    }

    /// The prescribed positions at the end of the step into the Newton start.
    pub(super) fn drive_positions(&self, x1: &mut [f64]) {
        self.drive
            .prescribed
            .set_positions(self.drive.t0 + self.drive.dt, x1);
    }

    /// `f_ext` at the iterate `x1` (gravity and loads, zero at the
    /// constrained dofs as the residual wants it) and `−∂f_ext/∂x1` into the
    /// Newton matrix (`kc` where the contact block waits for a full
    /// factorization, else `k`). Without loads `f_ext` is gravity, constant,
    /// and nothing is done.
    pub(super) fn drive_loads(&mut self, x0: &[f64], x1: &[f64], multipliers: bool) {
        if self.drive.loads.is_empty() {
            return;
        }
        let (t0, dt) = (self.drive.t0, self.drive.dt);
        self.f_ext.copy_from_slice(&self.drive.gravity);
        let matrix = if multipliers {
            &mut self.kc
        } else {
            &mut self.k
        };
        let k = (matrix.len() == self.sys.pattern.nnz()).then_some(matrix);
        let span = StepSpan {
            integrator: self.integrator,
            t0,
            dt,
            x0,
            x1,
        };
        self.drive.add_loads_at::<D>(
            span,
            &mut self.f_ext,
            k.map(|k| (&self.sys.pattern, &mut k[..])),
        );
        self.sys.zero_fixed(&mut self.f_ext);
    }

    /// The prescribed velocities at the end of the step into `v1`, which
    /// holds the integrator's velocities with the constrained dofs zeroed;
    /// returns the jump from the integrator's own velocity `v̂` of the
    /// prescribed dofs (energy-momentum: `2Δx/Δt − v_n`; Newmark: the
    /// jump is not measured, its energy is not exact anyway).
    pub(super) fn drive_velocities(
        &mut self,
        s0: &State,
        x1: &[f64],
        dt: f64,
        v1: &mut [f64],
    ) -> Jump {
        let pr = &self.drive.prescribed;
        if pr.is_empty() {
            return Jump::default();
        }
        let t1 = s0.t + dt;
        if self.integrator != Integrator::EnergyMomentum {
            pr.set_velocities(t1, v1, false);
            return Jump::default();
        }
        let n = v1.len();
        let mut scratch = std::mem::take(&mut self.drive.scratch);
        scratch.resize(3 * n, 0.0);
        let (before, rest) = scratch.split_at_mut(n);
        let (delta, m_delta) = rest.split_at_mut(n);
        prescribed_velocities(pr, s0, x1, dt, v1, before, delta);
        self.sys.mass_times(delta, m_delta);
        let jump = jump_sums::<D>(m_delta, v1, before, x1, n / D);
        self.drive.scratch = scratch;
        jump
    }
}

/// The energy-momentum step's prescribed end velocities (module docs):
/// `before` gets `v1` with the integrator's own `v̂ = 2Δx/Δt − v_n` at the
/// prescribed dofs, `v1` the prescribed velocities at `t_{n+1}`, `delta`
/// the change `v − v̂`. All three are vectors of the same dofs as `pr`.
pub fn prescribed_velocities(
    pr: &Prescribed,
    s0: &State,
    x1: &[f64],
    dt: f64,
    v1: &mut [f64],
    before: &mut [f64],
    delta: &mut [f64],
) {
    before.copy_from_slice(v1);
    for dof in pr.dofs() {
        before[dof] = 2.0 * (x1[dof] - s0.x[dof]) / dt - s0.v[dof];
    }
    pr.set_velocities(s0.t + dt, v1, false);
    for i in 0..v1.len() {
        delta[i] = v1[i] - before[i];
    }
}

/// The kinetic energy and momenta a velocity change adds, summed over the
/// first `nodes` nodes: `½ (v − v̂)ᵀ M (v + v̂) = ½vᵀMv − ½v̂ᵀMv̂` from
/// `m_delta = M (v − v̂)`, `Σ_A m_delta_A` and `Σ_A x_A × m_delta_A`.
pub fn jump_sums<const D: usize>(
    m_delta: &[f64],
    v1: &[f64],
    before: &[f64],
    x1: &[f64],
    nodes: usize,
) -> Jump {
    let mut jump = Jump::default();
    for k in 0..nodes * D {
        jump.work += 0.5 * m_delta[k] * (v1[k] + before[k]);
    }
    for a in 0..nodes {
        let mut p = [0.0; 3];
        let mut x = [0.0; 3];
        p[..D].copy_from_slice(&m_delta[a * D..a * D + D]);
        x[..D].copy_from_slice(&x1[a * D..a * D + D]);
        let j = [
            x[1] * p[2] - x[2] * p[1],
            x[2] * p[0] - x[0] * p[2],
            x[0] * p[1] - x[1] * p[0],
        ];
        for i in 0..3 {
            jump.linear[i] += p[i];
            jump.angular[i] += j[i];
        }
        jump.linear_size += (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt();
        jump.angular_size += (j[0] * j[0] + j[1] * j[1] + j[2] * j[2]).sqrt();
    }
    jump
}
