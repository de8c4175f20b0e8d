//! The ledgers of a distributed state: energies, momenta, per-body measures,
//! support reactions and what each step owes the energy and momentum
//! ledgers, as the serial build defines them (`dynamics::measures`,
//! `driver::record`, `driver::ledger`), each a sum over nodes or elements
//! that every rank computes over its own (owned nodes, its elements) and
//! that is then added in rank order ([`World::sum`]). The figures therefore
//! differ from the serial build's and from another rank count's only by the
//! association of the sums (round-off), and are the same bits whenever the
//! step's states are.

use super::stepper::Distributed;
use emcontact::driver::ledger::StepLedger;
use emcontact::dynamics::measures::BodyMeasures;
use emcontact::dynamics::{Measures, State, StepError, StepReport};
use emcontact::linalg::LinearSolveError;
use emcontact::model::{Integrator, Model};

/// Global sums per state: kinetic, strain, gravity, L (3), J (3), the two scales.
const GLOBAL: usize = 11;
/// Per body: mass, Σ m x (3), Σ m x xᵀ (xx yy zz xy xz yz), kinetic,
/// strain, L (3), J about the origin (3).
const PER_BODY: usize = 18;
/// Per step: external work, total external force (3), its moment (3), the
/// impulse sizes `Σ_A |F_A|`, `Σ_A |x_A × F_A|` (before the factor `Δt`).
const STEP: usize = 9;

/// A boundary group's constrained dofs on this rank (owned nodes only),
/// each attributed to the first boundary that constrains it (as
/// `reactions.csv`).
#[derive(Debug, Clone)]
pub struct Support {
    pub name: String,
    pub dofs: Vec<usize>,
}

/// The supports of `model` on this rank's owned nodes.
pub fn supports<const D: usize>(model: &Model, st: &Distributed<D>) -> Vec<Support> {
    let layout = &st.layout;
    let mut local_of = vec![usize::MAX; model.mesh.nodes.len()];
    for (l, &a) in layout.nodes[..layout.owned].iter().enumerate() {
        local_of[a] = l;
    }
    let mut claimed = vec![false; layout.owned * D];
    model
        .boundaries
        .iter()
        .map(|bc| {
            let mut dofs = Vec::new();
            let constrained = bc.constrained();
            for a in model.mesh.group_nodes(&bc.group).unwrap_or_default() {
                let l = local_of[a];
                if l == usize::MAX {
                    continue;
                }
                for i in (0..D).filter(|&i| constrained[i]) {
                    if !claimed[l * D + i] {
                        claimed[l * D + i] = true;
                        dofs.push(l * D + i);
                    }
                }
            }
            Support {
                name: bc.group.clone(),
                dofs,
            }
        })
        .collect()
}

fn node<const D: usize>(x: &[f64], a: usize) -> [f64; 3] {
    let mut p = [0.0; 3];
    p[..D].copy_from_slice(&x[a * D..a * D + D]);
    p
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

impl<const D: usize> Distributed<'_, D> {
    /// The measures of `s` (`history.csv`) and of each body (`bodies.csv`),
    /// the same on every rank.
    pub fn measures(
        &mut self,
        s: &State,
        bodies: usize,
    ) -> Result<(Measures, Vec<BodyMeasures>), StepError> {
        let owned = self.layout.owned;
        let sys = &self.local.sys;
        let mut mv = vec![0.0; s.v.len()];
        sys.mass_times(&s.v, &mut mv);
        self.complete_vector(&mut mv)
            .map_err(|e| StepError::Linear(LinearSolveError::Numeric(e.to_string())))?;
        let sys = &self.local.sys;
        let strain = sys.strain_energy(&s.x);
        let mut by_body = vec![0.0; bodies];
        let by_body_result = strain.and_then(|strain| {
            sys.strain_energy_by_body(&s.x, &mut by_body)
                .map(|_| strain)
        });
        let strain = self.collective_kernel(by_body_result)?;
        let sys = &self.local.sys;
        let g = self.gravity();
        let mut part = vec![0.0; GLOBAL + PER_BODY * bodies];
        part[1] = strain;
        for b in 0..bodies {
            part[GLOBAL + b * PER_BODY + 11] = by_body[b];
        }
        for a in 0..owned {
            let (x, p) = (node::<D>(&s.x, a), node::<D>(&mv, a));
            let m = self.local.mass[a];
            let j = cross(x, p);
            let mut kin = 0.0;
            for i in 0..D {
                kin += 0.5 * s.v[a * D + i] * mv[a * D + i];
            }
            part[0] += kin;
            for i in 0..3 {
                part[2] -= m * g[i] * x[i];
                part[3 + i] += p[i];
                part[6 + i] += j[i];
            }
            part[9] += (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt();
            part[10] += (j[0] * j[0] + j[1] * j[1] + j[2] * j[2]).sqrt();
            let b = sys.node_body[a];
            if b == usize::MAX {
                continue;
            }
            let q = &mut part[GLOBAL + b * PER_BODY..GLOBAL + (b + 1) * PER_BODY];
            q[0] += m;
            for i in 0..3 {
                q[1 + i] += m * x[i];
                q[12 + i] += p[i];
                q[15 + i] += j[i];
            }
            q[4] += m * x[0] * x[0];
            q[5] += m * x[1] * x[1];
            q[6] += m * x[2] * x[2];
            q[7] += m * x[0] * x[1];
            q[8] += m * x[0] * x[2];
            q[9] += m * x[1] * x[2];
            q[10] += kin;
        }
        let sum = self.world.sum(&part);
        let m = Measures {
            kinetic: sum[0],
            strain: sum[1],
            gravity: sum[2],
            linear: [sum[3], sum[4], sum[5]],
            angular: [sum[6], sum[7], sum[8]],
            linear_scale: sum[9],
            angular_scale: sum[10],
        };
        let bodies = (0..bodies)
            .map(|b| body_measures::<D>(&sum[GLOBAL + b * PER_BODY..GLOBAL + (b + 1) * PER_BODY]))
            .collect();
        Ok((m, bodies))
    }

    /// Per support: the force of the last step's supports and its moment
    /// about the origin at the midpoint positions of `s0 → s1`.
    pub fn reactions(&self, supports: &[Support], s0: &State, s1: &State) -> Vec<[f64; 6]> {
        let mut part = vec![0.0; 6 * supports.len()];
        for (k, sup) in supports.iter().enumerate() {
            for &dof in &sup.dofs {
                let (a, i) = (dof / D, dof % D);
                let mut r = [0.0; 3];
                r[i] = self.reaction[dof];
                let (p0, p1) = (node::<D>(&s0.x, a), node::<D>(&s1.x, a));
                let x = [
                    0.5 * (p0[0] + p1[0]),
                    0.5 * (p0[1] + p1[1]),
                    0.5 * (p0[2] + p1[2]),
                ];
                part[6 * k + i] += r[i];
                let m = cross(x, r);
                for j in 0..3 {
                    part[6 * k + 3 + j] += m[j];
                }
            }
        }
        let sum = self.world.sum(&part);
        (0..supports.len())
            .map(|k| {
                let mut out = [0.0; 6];
                out.copy_from_slice(&sum[6 * k..6 * k + 6]);
                out
            })
            .collect()
    }
    /// What the accepted step `s0 → s1` of size `dt` owes the ledgers:
    /// `driver::ledger::step` for the external forces a model has on several
    /// ranks, gravity `m_A g`, the loads `f_A` and the support reactions `R`
    /// of the step's converged residual (contact is refused there,
    /// `super::run`):
    ///
    /// ```text
    /// ΔW = Σ_A (f_A + R_A)·Δx_A,   F_A = m_A g + f_A + R_A,   x_A = ½ (x_{n,A} + x_{n+1,A})
    /// ΔL = Δt (w₀ F_n + w₁ Σ_A F_A),   ΔJ = Δt Σ_A x_A × F_A
    /// ```
    ///
    /// (`w = (0, 1)` for the energy-momentum scheme, `(1 − γ, γ)` for
    /// Newmark, `last_force` the total `F_n` of the step before), plus the
    /// step's velocity jumps (`report.jump`: the prescribed velocities').
    pub fn step_ledger(
        &self,
        s0: &State,
        s1: &State,
        dt: f64,
        report: &StepReport,
        last_force: [f64; 3],
    ) -> StepLedger {
        let g = self.gravity();
        let mut part = [0.0; STEP];
        for a in 0..self.layout.owned {
            let (mut f, mut xm) = ([0.0; 3], [0.0; 3]);
            for i in 0..D {
                let k = a * D + i;
                part[0] += (self.load[k] + self.reaction[k]) * (s1.x[k] - s0.x[k]);
                f[i] = self.local.mass[a] * g[i] + self.load[k] + self.reaction[k];
                xm[i] = 0.5 * (s0.x[k] + s1.x[k]);
            }
            let m = cross(xm, f);
            for i in 0..3 {
                part[1 + i] += f[i];
                part[4 + i] += m[i];
            }
            part[7] += norm(f);
            part[8] += norm(m);
        }
        let sum = self.world.sum(&part);
        let (force, moment) = ([sum[1], sum[2], sum[3]], [sum[4], sum[5], sum[6]]);
        let weight = match self.integrator() {
            Integrator::EnergyMomentum => [0.0, 1.0],
            Integrator::Newmark { gamma, .. } => [1.0 - gamma, gamma],
        };
        let jump = &report.jump;
        StepLedger {
            work: sum[0] + jump.work,
            impulse: [0, 1, 2]
                .map(|i| dt * (weight[0] * last_force[i] + weight[1] * force[i]) + jump.linear[i]),
            angular_impulse: [0, 1, 2].map(|i| dt * moment[i] + jump.angular[i]),
            impulse_size: dt * sum[7] + jump.linear_size,
            angular_impulse_size: dt * sum[8] + jump.angular_size,
            force,
        }
    }

    /// The total external force at t = 0 for Newmark's first step,
    /// `Σ_A m_A a_{0,A}` (`driver::ledger::initial_force`; the parallel
    /// build's Newmark has the lumped mass).
    pub fn initial_force(&self, s0: &State) -> [f64; 3] {
        let mut part = [0.0; 3];
        for a in 0..self.layout.owned {
            for i in 0..D {
                part[i] += self.local.mass[a] * s0.a[a * D + i];
            }
        }
        let sum = self.world.sum(&part);
        [sum[0], sum[1], sum[2]]
    }
}

/// A body's measures from its summed moments (`dynamics::measures::measure_bodies`:
/// `J_c = Σ x × p − c × L`, `I_c = Σ m (|r|² 1 − r ⊗ r)` with
/// `Σ m r ⊗ r = Σ m x ⊗ x − M c ⊗ c`).
fn body_measures<const D: usize>(q: &[f64]) -> BodyMeasures {
    let mass = q[0];
    let mut o = BodyMeasures {
        kinetic: q[10],
        strain: q[11],
        linear: [q[12], q[13], q[14]],
        ..Default::default()
    };
    if mass > 0.0 {
        o.center = [q[1] / mass, q[2] / mass, q[3] / mass];
    }
    let c = o.center;
    let cl = cross(c, o.linear);
    o.angular = [q[15] - cl[0], q[16] - cl[1], q[17] - cl[2]];
    let s = nalgebra::Matrix3::new(q[4], q[7], q[8], q[7], q[5], q[9], q[8], q[9], q[6]);
    let cv = nalgebra::Vector3::from(c);
    let rr = s - mass * cv * cv.transpose();
    let inertia = rr.trace() * nalgebra::Matrix3::identity() - rr;
    if D == 2 {
        let iz = inertia[(2, 2)];
        o.omega = [0.0, 0.0, if iz > 0.0 { o.angular[2] / iz } else { 0.0 }];
    } else if let Some(inv) = inertia.try_inverse() {
        let w = inv * nalgebra::Vector3::from(o.angular);
        o.omega = [w[0], w[1], w[2]];
    }
    o
}
