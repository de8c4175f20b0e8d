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
//! summed here point by point from the pairs' per-point evaluations of the
//! step (pressure, traction, master face) and the midpoint kinematics. The
//! velocity update's impulses (§6) are not part of these forces.
//!
//! This file is the one place that reads the contact pairs' per-point
//! results for force output; a new contact implementation re-points
//! [`ForceProbe::evaluate`] and keeps [`StepForces`].

use super::step::{State, StepError, Stepper};
use crate::contact::geometry::{project, project_unclamped, Kinematics, Location, MAX_NODES};
use crate::contact::pair::ContactPair;
use crate::fe::kernel::StressEval;
use crate::fe::ElementKind;
use crate::mesh::Element;
use crate::model::{Integrator, MasterSpec, Model};

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

/// The master side of a pair as the force probe needs it.
enum MasterGeometry {
    Faces(Vec<Element>),
    Plane {
        normal: [f64; 3],
        tangents: [[f64; 3]; 2],
    },
}

/// Evaluates [`StepForces`]; holds the master geometry of each pair and scratch.
pub struct ForceProbe {
    masters: Vec<MasterGeometry>,
    f_int: Vec<f64>,
    inertia: Vec<f64>,
    node_normal: Vec<[f64; 3]>,
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

/// The tangents a rigid plane of unit `normal` uses (as `ContactPair::new`).
fn plane_tangents(normal: [f64; 3], dim: usize) -> [[f64; 3]; 2] {
    if dim == 2 {
        return [[-normal[1], normal[0], 0.0], [0.0; 3]];
    }
    let a = if normal[0].abs() < 0.9 {
        [1.0, 0.0, 0.0]
    } else {
        [0.0, 1.0, 0.0]
    };
    let c = cross(normal, a);
    let l = (c[0] * c[0] + c[1] * c[1] + c[2] * c[2]).sqrt();
    let t1 = [c[0] / l, c[1] / l, c[2] / l];
    [t1, cross(normal, t1)]
}

/// How far beyond its edges a face is extended at the midpoint (parametric;
/// as the contact pair's `MID_SLACK`).
const MID_SLACK: f64 = 1.0;

fn within_face(kind: ElementKind, xi: [f64; 2], slack: f64) -> bool {
    match kind {
        ElementKind::Line2 => xi[0].abs() <= 1.0 + slack,
        ElementKind::Tri3 => xi[0] >= -slack && xi[1] >= -slack && xi[0] + xi[1] <= 1.0 + slack,
        _ => xi[0].abs() <= 1.0 + slack && xi[1].abs() <= 1.0 + slack,
    }
}

impl ForceProbe {
    /// The probe for `model`'s contact pairs (in input order).
    pub fn new(model: &Model) -> ForceProbe {
        let masters = model
            .contacts
            .iter()
            .map(|c| match &c.master {
                MasterSpec::Surface(g) => MasterGeometry::Faces(
                    model
                        .mesh
                        .group(g)
                        .map(|g| g.elements.clone())
                        .unwrap_or_default(),
                ),
                MasterSpec::Plane { normal, .. } => MasterGeometry::Plane {
                    normal: *normal,
                    tangents: plane_tangents(*normal, model.dim),
                },
            })
            .collect();
        ForceProbe {
            masters,
            f_int: Vec::new(),
            inertia: Vec::new(),
            node_normal: vec![[0.0; 3]; model.mesh.nodes.len()],
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
        let mut out = StepForces {
            reaction: vec![0.0; n],
            contact: vec![0.0; n],
            pairs: Vec::with_capacity(stepper.contacts.len()),
        };
        let masters = std::mem::take(&mut self.masters);
        let pairs: Result<Vec<_>, _> = stepper
            .contacts
            .iter()
            .zip(&masters)
            .map(|(c, master)| self.pair::<D>(c, master, s0, s1, dt, &mut out.contact))
            .collect();
        self.masters = masters;
        out.pairs = pairs?;
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
        sys.gravity_force(&stepper.gravity, &mut g);
        for i in (0..n).filter(|&i| sys.fixed[i]) {
            out.reaction[i] = cm * self.inertia[i] + self.f_int[i] - out.contact[i] - g[i];
        }
        Ok(out)
    }

    /// One pair: its per-point forces added to `f_c`, and its resultants.
    fn pair<const D: usize>(
        &mut self,
        c: &ContactPair,
        master: &MasterGeometry,
        s0: &State,
        s1: &State,
        dt: f64,
        f_c: &mut [f64],
    ) -> Result<PairForces, StepError> {
        let mut pf = PairForces::default();
        if let MasterGeometry::Faces(faces) = master {
            self.update_node_normals::<D>(faces, &s1.x);
        }
        let mid = |a: usize| {
            let (p0, p1) = (node_x(&s0.x, a, D), node_x(&s1.x, a, D));
            [
                0.5 * (p0[0] + p1[0]),
                0.5 * (p0[1] + p1[1]),
                0.5 * (p0[2] + p1[2]),
            ]
        };
        for (k, ev) in c.evals.iter().enumerate() {
            if !ev.active {
                continue;
            }
            let s = c.slaves[k];
            let xs = mid(s);
            let w = ev.weight;
            let mut nodes = [0usize; MAX_NODES];
            nodes[0] = s;
            let (g, normal_part, nn) = match (master, ev.face) {
                (MasterGeometry::Plane { normal, tangents }, _) => {
                    let mut g = [[0.0; 3]; MAX_NODES];
                    for i in 0..3 {
                        g[0][i] =
                            ev.p * normal[i] + ev.t[0] * tangents[0][i] + ev.t[1] * tangents[1][i];
                    }
                    let np = [ev.p * normal[0], ev.p * normal[1], ev.p * normal[2]];
                    (g, np, 1)
                }
                (MasterGeometry::Faces(faces), Some(f)) => {
                    let e = &faces[f];
                    let fnodes = e.nodes();
                    let mut xf = [[0.0; 3]; 4];
                    for (j, &a) in fnodes.iter().enumerate() {
                        xf[j] = mid(a);
                        nodes[1 + j] = a;
                    }
                    let xf = &xf[..fnodes.len()];
                    let mut proj = project(e.kind, xf, xs);
                    if proj.location != Location::Interior {
                        let pu = project_unclamped(e.kind, xf, xs, proj.xi);
                        if within_face(e.kind, pu.xi, MID_SLACK) {
                            proj = pu;
                        }
                    }
                    let hint = self.hint(e, proj.location);
                    let km = Kinematics::new(e.kind, xf, xs, &proj, hint)?;
                    let g = km.nodal_forces(ev.p, ev.t);
                    let np = km.nodal_forces(ev.p, [0.0; 2])[0];
                    (g, np, 1 + fnodes.len())
                }
                (MasterGeometry::Faces(_), None) => continue,
            };
            for a in 0..nn {
                for i in 0..D {
                    f_c[nodes[a] * D + i] += w * g[a][i];
                }
            }
            let fs = [w * g[0][0], w * g[0][1], w * g[0][2]];
            let fnrm = [w * normal_part[0], w * normal_part[1], w * normal_part[2]];
            add3(&mut pf.normal, fnrm);
            add3(
                &mut pf.tangential,
                [fs[0] - fnrm[0], fs[1] - fnrm[1], fs[2] - fnrm[2]],
            );
            add3(&mut pf.moment, cross(xs, fs));
            pf.area += w;
            pf.active += 1;
            if c.spec.friction > 0.0 {
                if ev.slip {
                    pf.slip += 1;
                } else {
                    pf.stick += 1;
                }
            }
            pf.work += dt * w * ev.dissipation_rate();
        }
        Ok(pf)
    }

    /// Averaged outward node normals of the master faces at `x` (they set the
    /// sign of `ν` at clamped projections, as in the contact pair).
    fn update_node_normals<const D: usize>(&mut self, faces: &[Element], x: &[f64]) {
        for e in faces {
            for &a in e.nodes() {
                self.node_normal[a] = [0.0; 3];
            }
        }
        for e in faces {
            let nodes = e.nodes();
            let mut xs = [[0.0; 3]; 4];
            for (k, &a) in nodes.iter().enumerate() {
                xs[k] = node_x(x, a, D);
            }
            let sub = |a: [f64; 3], b: [f64; 3]| [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
            let raw = match e.kind {
                ElementKind::Line2 => {
                    let t = sub(xs[1], xs[0]);
                    [t[1], -t[0], 0.0]
                }
                ElementKind::Tri3 => cross(sub(xs[1], xs[0]), sub(xs[2], xs[0])),
                _ => cross(sub(xs[2], xs[0]), sub(xs[3], xs[1])),
            };
            let l = (raw[0] * raw[0] + raw[1] * raw[1] + raw[2] * raw[2])
                .sqrt()
                .max(f64::MIN_POSITIVE);
            for &a in nodes {
                for i in 0..3 {
                    self.node_normal[a][i] += raw[i] / l;
                }
            }
        }
    }

    fn hint(&self, e: &Element, loc: Location) -> Option<[f64; 3]> {
        let nodes = e.nodes();
        match loc {
            Location::Interior => None,
            Location::Vertex(k) => Some(self.node_normal[nodes[k as usize]]),
            Location::Edge(k) => {
                let a = self.node_normal[nodes[k as usize]];
                let b = self.node_normal[nodes[(k as usize + 1) % nodes.len()]];
                Some([a[0] + b[0], a[1] + b[1], a[2] + b[2]])
            }
        }
    }
}
