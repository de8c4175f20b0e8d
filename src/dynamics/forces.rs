//! Forces of an accepted step, for `reactions.csv`, `contacts.csv` and the
//! `reaction` point data: the support forces at the fixed dofs and the
//! resultants of each contact pair.
//!
//! Both are terms of the step's momentum equation (Love & Laursen 2003,
//! eq. 54; DESIGN §4), evaluated at the converged positions:
//!
//! ```text
//! r = c_M M (x₁ − x̂) + f_int(x₀, x₁) − f_c − f_ext      at the fixed dofs (0 elsewhere)
//! ```
//!
//! `r` is the force the supports exert on the bodies (sign: along the axes,
//! like every force here), so that for each body `Σ_body (r + f_c + f_ext) =
//! Σ_body c_M M (x₁ − x̂)`, its inertial force (`Σ f_int = 0` over a body).
//! The contact force `f_c = Σ_l w_l (p_N N_A + t_α D^α_A)` (eq. 56) is
//! summed here point by point from the pairs' per-point forces at the
//! converged iterate (`contact::point::Linear::force`, the force the
//! residual had). The velocity update's impulses (§6) are not part of these
//! forces.

use super::step::{State, StepError, Stepper};
use crate::contact::geometry::MAX_NODES;
use crate::contact::{ContactSet, Pair};
use crate::fe::kernel::StressEval;
use crate::model::{Integrator, Model};

/// Resultants of one contact pair in one step, on the slave side (the master
/// side receives the opposite force and moment: `Σ_A N_A = Σ_A D^α_A = 0`
/// and `Σ_A x_A × N_A = Σ_A x_A × D^α_A = 0`, DESIGN §5).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PairForces {
    /// `Σ_l w_l p_N ν_l` (spatial; points away from the master).
    pub normal: [f64; 3],
    /// `Σ_l w_l t_α D^α_s` at the slave nodes (spatial).
    pub tangential: [f64; 3],
    /// Moment about the origin of the force on the slave nodes, `Σ_l x_l × f_l`
    /// at the midpoint positions.
    pub moment: [f64; 3],
    /// Tributary (reference) area of the active points, `Σ_active w_l`.
    pub area: f64,
    pub active: usize,
    pub stick: usize,
    pub slip: usize,
    /// Frictional work of the step, `Δt Σ_l w_l D_l` (≥ 0).
    pub work: f64,
}

/// The forces of one step.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StepForces {
    /// Support force per dof (`n_nodes · D`), zero at free dofs.
    pub reaction: Vec<f64>,
    /// Contact force per dof, all pairs.
    pub contact: Vec<f64>,
    /// Per contact pair, in input order.
    pub pairs: Vec<PairForces>,
}

/// Evaluates [`StepForces`]; holds scratch.
pub struct ForceProbe {
    /// Contact pairs of the input.
    pairs: usize,
    f_int: Vec<f64>,
    inertia: Vec<f64>,
}

impl PairForces {
    /// Adds another pass's resultants.
    /// Adds the resultants of one pass: `sign` −1 for a second pass, whose
    /// slave side is the pair's master side (the force and its moment on the
    /// pair's slave side are the opposite: the point forces balance, and
    /// their moments too, as the momenta are conserved).
    fn add(&mut self, o: &PairForces, sign: f64) {
        add3(&mut self.normal, o.normal.map(|v| sign * v));
        add3(&mut self.tangential, o.tangential.map(|v| sign * v));
        add3(&mut self.moment, o.moment.map(|v| sign * v));
        self.area += o.area;
        self.active += o.active;
        self.stick += o.stick;
        self.slip += o.slip;
        self.work += o.work;
    }
}

fn add3(a: &mut [f64; 3], b: [f64; 3]) {
    (0..3).for_each(|i| a[i] += b[i]);
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn node_x(x: &[f64], a: usize, d: usize) -> [f64; 3] {
    let mut p = [0.0; 3];
    p[..d].copy_from_slice(&x[a * d..a * d + d]);
    p
}

impl ForceProbe {
    /// The probe for `model`.
    pub fn new(model: &Model) -> ForceProbe {
        ForceProbe {
            pairs: model.contacts.len(),
            f_int: Vec::new(),
            inertia: Vec::new(),
        }
    }

    /// The forces of the step `s0 → s1` (size `dt`) that `stepper` has just
    /// taken (its contact pairs still hold that step's evaluations).
    pub fn evaluate<const D: usize>(
        &mut self,
        stepper: &Stepper<D>,
        s0: &State,
        s1: &State,
        dt: f64,
    ) -> Result<StepForces, StepError> {
        let sys = &stepper.sys;
        let n = sys.n_dofs();
        let mut contact = vec![0.0; n];
        let pairs = contact_resultants::<D>(
            &stepper.contacts,
            self.pairs,
            (&s0.x, &s1.x),
            dt,
            Some(&mut contact),
        );
        let mut out = StepForces {
            reaction: vec![0.0; n],
            contact,
            pairs,
        };
        if !sys.fixed.iter().any(|&f| f) {
            return Ok(out);
        }
        let (cm, eval, x_hat) = match stepper.integrator {
            Integrator::EnergyMomentum => (
                2.0 / (dt * dt),
                StressEval::Midpoint,
                (0..n).map(|i| s0.x[i] + dt * s0.v[i]).collect::<Vec<_>>(),
            ),
            Integrator::Newmark { beta, .. } => (
                1.0 / (beta * dt * dt),
                StressEval::EndPoint,
                (0..n)
                    .map(|i| s0.x[i] + dt * s0.v[i] + dt * dt * (0.5 - beta) * s0.a[i])
                    .collect(),
            ),
        };
        self.f_int.resize(n, 0.0);
        self.inertia.resize(n, 0.0);
        sys.assemble(&s0.x, &s1.x, eval, &mut self.f_int, None)?;
        let dx: Vec<f64> = (0..n).map(|i| s1.x[i] - x_hat[i]).collect();
        sys.mass_times(&dx, &mut self.inertia);
        let mut g = vec![0.0; n];
        stepper
            .drive
            .external_force::<D>(stepper.step_span(s0, &s1.x, dt), true, &mut g);
        for i in (0..n).filter(|&i| sys.fixed[i]) {
            out.reaction[i] = cm * self.inertia[i] + self.f_int[i] - out.contact[i] - g[i];
        }
        Ok(out)
    }
}

/// The resultants of each of the `pairs` contacts of the input (in input
/// order) over the step `x0 → x1` (size `dt`) whose evaluations `contacts`
/// still holds: the passes of a two-pass contact add up to its pair's
/// resultants, each point in the set's order (a fixed order: the figures
/// do not depend on who evaluates). With `f_c`, each point's force is also
/// added to it. `x0`, `x1` and `f_c` are numbered as the set's nodes.
pub fn contact_resultants<const D: usize>(
    contacts: &ContactSet,
    pairs: usize,
    (x0, x1): (&[f64], &[f64]),
    dt: f64,
    mut f_c: Option<&mut [f64]>,
) -> Vec<PairForces> {
    let mut out = vec![PairForces::default(); pairs];
    for c in contacts.pairs() {
        let f = pair_forces::<D>(c, (x0, x1), dt, f_c.as_deref_mut());
        out[c.input()].add(&f, if c.pass() == 2 { -1.0 } else { 1.0 });
    }
    out
}

/// One pair's resultants over the step `x0 → x1` (size `dt`), from its
/// per-point forces (the converged iterate's, `w j (p_N N_A + t_α D^α_A)` at
/// the midpoint, as the residual had them), which are also added to `f_c`
/// when given.
pub fn pair_forces<const D: usize>(
    c: &Pair,
    (x0, x1): (&[f64], &[f64]),
    dt: f64,
    mut f_c: Option<&mut [f64]>,
) -> PairForces {
    let mut pf = PairForces::default();
    let mut nodes = [0usize; MAX_NODES];
    for (k, ev) in c.evals().enumerate() {
        if !ev.active() {
            continue;
        }
        let (n, force, fnrm) = c.point_force(k, &mut nodes);
        if let Some(f_c) = f_c.as_deref_mut() {
            for a in 0..n {
                for i in 0..D {
                    f_c[nodes[a] * D + i] += force[a * D + i];
                }
            }
        }
        // the slave node's force and its normal part r_N N_s
        let mut fs = [0.0; 3];
        fs[..D].copy_from_slice(&force[..D]);
        let (p0, p1) = (node_x(x0, nodes[0], D), node_x(x1, nodes[0], D));
        let xs = [
            0.5 * (p0[0] + p1[0]),
            0.5 * (p0[1] + p1[1]),
            0.5 * (p0[2] + p1[2]),
        ];
        add3(&mut pf.normal, fnrm);
        add3(
            &mut pf.tangential,
            [fs[0] - fnrm[0], fs[1] - fnrm[1], fs[2] - fnrm[2]],
        );
        add3(&mut pf.moment, cross(xs, fs));
        pf.area += ev.weight;
        pf.active += 1;
        if c.spec().friction > 0.0 {
            if ev.slip() {
                pf.slip += 1;
            } else {
                pf.stick += 1;
            }
        }
        pf.work += dt * ev.weight * ev.dissipation_rate();
    }
    pf
}
