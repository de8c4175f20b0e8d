//! The ledgers of one step (DESIGN §4.1; `docs/ledgers.md`): the external
//! work and the impulses that the energy and the momenta must account for.
//!
//! Dotting the energy-momentum step's equation (Love & Laursen 2003 eq. 54)
//! with `Δx = x_{n+1} − x_n = (Δt/2)(v_n + v̂_{n+1})` gives, exactly,
//!
//! ```text
//! E(v̂_{n+1}) − E_n = f_c·Δx + f_load·Δx + R·Δx
//! ```
//!
//! (`f_load` the loads as the residual had them, `R` the support reaction,
//! the residual at the constrained dofs: [`crate::dynamics::forces`]; gravity
//! is in `E` as a potential). The contact force does `Δt Σ w j (p_N v_N +
//! t_α v^α_T)` in the relative motion, which the velocity update turns into
//! `−Δt Σ w j D`, plus `f_s·Δu` on the slaves of a moving rigid master.
//! The prescribed end velocities add the kinetic energy of their jump. So
//!
//! ```text
//! ΔW_ext = f_load·Δx + R·Δx + Σ_rigid f_s·Δu + (½vᵀMv − ½v̂ᵀMv̂)
//! E_{n+1} − E_n + ΔD − ΔW_ext = 0      (to the Newton tolerance)
//! ```
//!
//! Summing the residual over the nodes (`Σ f_int = 0`, contact forces
//! between bodies cancel) and taking moments at the midpoint positions:
//!
//! ```text
//! L_{n+1} − L_n = Δt Σ_A (f_ext + R + f_c,rigid)_A + I_jump
//! J_{n+1} − J_n = Δt Σ_A x_{n+½,A} × (f_ext + R + f_c,rigid)_A + K_jump
//! ```
//!
//! with `f_ext` gravity and loads, and the jumps of the prescribed
//! velocities and of the velocity update's impulses through supports and
//! rigid masters (`StepReport::jump`). Newmark (`γ`) has `L_{n+1} − L_n =
//! Δt ((1 − γ) F_n + γ F_{n+1})` with `F` the total external force of the
//! step that ended at `t_n`; its energy and angular momentum are not exact
//! by construction.

use crate::dynamics::forces::StepForces;
use crate::dynamics::{State, StepReport, Stepper};
use crate::model::{Integrator, MasterSpec, Model};
use serde::{Deserialize, Serialize};

/// What one step owes the ledgers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct StepLedger {
    /// External work of the step `ΔW_ext`.
    pub work: f64,
    /// External impulse and its moment about the origin.
    pub impulse: [f64; 3],
    pub angular_impulse: [f64; 3],
    /// `Δt Σ_A |F_A| + Σ |jumps|` and the same for the moments: the size
    /// of what acted, the momentum scale of a model at rest on supports.
    pub impulse_size: f64,
    pub angular_impulse_size: f64,
    /// The total external force `Σ_A (f_ext + R + f_c,rigid)_A` of the step
    /// (Newmark's next step needs it).
    pub force: [f64; 3],
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn norm(a: [f64; 3]) -> f64 {
    (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt()
}

/// The step a ledger accounts for: the states it joins, its size and what
/// was measured of it.
#[derive(Debug, Clone, Copy)]
pub struct TakenStep<'a> {
    /// The state at the step's start, `t_n`.
    pub s0: &'a State,
    /// The state at its end, `t_{n+1}`.
    pub s1: &'a State,
    /// Its size `Δt`.
    pub dt: f64,
    /// Its forces, of [`crate::dynamics::forces::ForceProbe`].
    pub forces: &'a StepForces,
    /// The stepper's report of it (the jumps of the velocity update).
    pub report: &'a StepReport,
}

/// The ledger of the step `taken` that `stepper` has just taken;
/// `last_force`: the total external force of the step before (Newmark
/// only).
pub fn step<const D: usize>(
    model: &Model,
    stepper: &Stepper<D>,
    taken: &TakenStep,
    last_force: [f64; 3],
) -> StepLedger {
    let TakenStep {
        s0,
        s1,
        dt,
        forces,
        report,
    } = *taken;
    let n = s0.x.len();
    let integrator = stepper.integrator;
    let drive = &stepper.drive;
    let mut f_ext = vec![0.0; n];
    let span = stepper.step_span(s0, &s1.x, dt);
    drive.external_force::<D>(span, true, &mut f_ext);
    let mut f_load = vec![0.0; n];
    drive.external_force::<D>(span, false, &mut f_load);
    let mut out = StepLedger::default();
    let mut force = [0.0; 3];
    let mut moment = [0.0; 3];
    for a in 0..n / D {
        let (mut f, mut xm) = ([0.0; 3], [0.0; 3]);
        for i in 0..D {
            let k = a * D + i;
            let dx = s1.x[k] - s0.x[k];
            out.work += (f_load[k] + forces.reaction[k]) * dx;
            f[i] = f_ext[k] + forces.reaction[k];
            xm[i] = 0.5 * (s0.x[k] + s1.x[k]);
        }
        let m = cross(xm, f);
        for i in 0..3 {
            force[i] += f[i];
            moment[i] += m[i];
        }
        out.impulse_size += dt * norm(f);
        out.angular_impulse_size += dt * norm(m);
    }
    // the rigid masters: their force on the slaves, its work f_s·Δu
    for (k, pf) in forces.pairs.iter().enumerate() {
        if !matches!(
            model.contacts[k].master,
            MasterSpec::Plane { .. } | MasterSpec::Rigid(_)
        ) {
            continue;
        }
        let f = [0, 1, 2].map(|i| pf.normal[i] + pf.tangential[i]);
        if let Some(du) = rigid_step_displacement(stepper, k) {
            out.work += f[0] * du[0] + f[1] * du[1] + f[2] * du[2];
        }
        for i in 0..3 {
            force[i] += f[i];
            moment[i] += pf.moment[i];
        }
        out.impulse_size += dt * norm(f);
        out.angular_impulse_size += dt * norm(pf.moment);
    }
    let jump = &report.jump;
    out.work += jump.work;
    let weight = match integrator {
        Integrator::EnergyMomentum => [0.0, 1.0],
        Integrator::Newmark { gamma, .. } => [1.0 - gamma, gamma],
    };
    for i in 0..3 {
        out.impulse[i] = dt * (weight[0] * last_force[i] + weight[1] * force[i]) + jump.linear[i];
        out.angular_impulse[i] = dt * moment[i] + jump.angular[i];
    }
    out.impulse_size += jump.linear_size;
    out.angular_impulse_size += jump.angular_size;
    out.force = force;
    out
}

/// `Δu` of the step for the rigid master of contact `input`, if it moves.
fn rigid_step_displacement<const D: usize>(stepper: &Stepper<D>, input: usize) -> Option<[f64; 3]> {
    stepper
        .contacts
        .pairs()
        .iter()
        .find(|p| p.input() == input)
        .and_then(|p| match &p.surface().master {
            crate::contact::surface::Master::Rigid(r) => Some(r.step_displacement()),
            _ => None,
        })
}

/// The total external force at t = 0 for Newmark's first step,
/// `Σ_A (M a_0)_A`.
pub fn initial_force<const D: usize>(stepper: &Stepper<D>, s0: &State) -> [f64; 3] {
    let mut ma = vec![0.0; s0.a.len()];
    stepper.sys.mass_times(&s0.a, &mut ma);
    let mut f = [0.0; 3];
    for (k, v) in ma.iter().enumerate() {
        f[k % D] += v;
    }
    f
}
