//! One contact pair (one pass of a `[[contact]]`): its surfaces, the law's
//! parameters, and its slave points ([`SlavePoint`], one record each).
//! Evaluating a pair at an iterate is the narrow phase, then every point's
//! linearization ([`super::point`]) and evaluation ([`PointEval`]).

use super::broad::node_x;
use super::geometry::{GeometryError, MAX_NODES};
use super::law::{classify, tangential_norm, Constraint};
use super::narrow::Narrow;
use super::point::{linearize, linearize_fd, ForceLaw, PointSetup};
use super::point_eval::PointEval;
use super::slave::{Role, SlavePoint};
use super::surface::{ContactSetupError, Surface};
use crate::model::{ContactSpec, ContactTangent, Enforcement, Model};
use rayon::prelude::*;

/// Drift bound of persistent contact relative to `h` (see
/// [`Constraint::Guarded`]), and at least half the pair's contact tolerance:
/// a persistent point ends no deeper than the tolerance, so that exact
/// enforcement leaves no penetration beyond it, and the velocity update
/// takes the work of pushing a drifted point out back.
const DRIFT_BOUND: f64 = 5e-11;

/// One contact pair (module docs).
#[derive(Debug, Clone)]
pub struct Pair {
    /// The `[[contact]]` it comes from (index in input order) and which pass
    /// it is: 1 (its slave against its master) or 2 (the master's nodes
    /// against the slave surface, `spec` with the two swapped).
    pub(super) input: usize,
    pub(super) pass: u8,
    /// Whether the pair acts: a second pass of a one-pass contact only
    /// measures how deep the master's nodes are in the slave body.
    pub(super) enforced: bool,
    pub(super) spec: ContactSpec,
    pub(super) surface: Surface,
    pub(super) narrow: Narrow,
    /// Penalties `ε_N`, `ε_T` at the current step size (penalty law, and the
    /// augmentation parameters of the augmented Lagrangian).
    pub(super) eps_n: f64,
    pub(super) eps_t: f64,
    /// `(λ + 2μ)/h` and `2ρh` of the default penalties (see [`default_penalties`]).
    bulk: f64,
    inertia: f64,
    /// Tolerance of the law as a length (`spec.tolerance · h`).
    pub(super) tol_abs: f64,
    /// Drift bound `δ` of persistent contact, a length: `DRIFT_BOUND · h`
    /// and at least half the tolerance.
    pub(super) drift_bound: f64,
    /// The slave points, in the order of `surface.slaves`.
    pub(super) points: Vec<SlavePoint>,
}

/// The penalties `(ε_N, ε_T)`: the input's, or by default stiffer than both
/// the bulk (`bulk = (λ+2μ)/h`) and the nodal inertia of one step
/// (`inertia/Δt² = 2ρh/Δt²`), by a factor 10 for the augmented Lagrangian and
/// exact enforcement and 1000 for the penalty law (whose constraint error is
/// inversely proportional to it). The default follows the step size, so that
/// a cut-back step keeps the same ratio of penalty to inertia.
pub fn default_penalties(spec: &ContactSpec, bulk: f64, inertia: f64, dt: f64) -> (f64, f64) {
    let eps_n = spec
        .penalty
        .unwrap_or(penalty_factor(spec.enforcement) * bulk.max(inertia / (dt * dt)));
    (eps_n, spec.tangential_penalty.unwrap_or(eps_n))
}

/// The factor of the default penalty (see [`default_penalties`]).
pub fn penalty_factor(e: Enforcement) -> f64 {
    match e {
        Enforcement::Penalty => 1000.0,
        _ => 10.0,
    }
}

impl Pair {
    /// `stiffness` is the largest P-wave modulus `λ + 2μ` and `density` the
    /// largest density of the model's bodies.
    pub(super) fn new(
        (input, pass): (usize, u8),
        spec: &ContactSpec,
        model: &Model,
        dim: usize,
        stiffness: f64,
        density: f64,
    ) -> Result<Pair, ContactSetupError> {
        let mut surface = Surface::new(spec, &model.mesh, dim)?;
        if spec.passes == 2 && spec.enforcement == Enforcement::Penalty {
            // two passes of the penalty law each take half the tributary
            // area, so that the pair is as stiff as one pass
            surface.weights.iter_mut().for_each(|w| *w *= 0.5);
        }
        let h = surface.h;
        let (bulk, inertia) = (stiffness / h, 2.0 * density * h);
        let (eps_n, eps_t) = default_penalties(spec, bulk, inertia, model.time.dt);
        Ok(Pair {
            input,
            pass,
            enforced: pass == 1 || spec.passes == 2,
            narrow: Narrow::new(&surface, model.mesh.nodes.len()),
            spec: spec.clone(),
            eps_n,
            eps_t,
            bulk,
            inertia,
            tol_abs: spec.tolerance * h,
            drift_bound: (DRIFT_BOUND * h).max(0.5 * spec.tolerance * h),
            points: surface
                .weights
                .iter()
                .map(|&w| SlavePoint::new(w))
                .collect(),
            surface,
        })
    }

    /// The `[[contact]]` this pair comes from (input order) and its pass (1 or 2).
    pub fn input(&self) -> usize {
        self.input
    }
    pub fn pass(&self) -> u8 {
        self.pass
    }
    /// Whether the pair acts (see the field).
    pub fn enforced(&self) -> bool {
        self.enforced
    }
    pub fn spec(&self) -> &ContactSpec {
        &self.spec
    }
    pub fn surface(&self) -> &Surface {
        &self.surface
    }
    /// The narrow phase: the face each slave point projects onto.
    pub fn narrow(&self) -> &Narrow {
        &self.narrow
    }
    /// The narrow phase alone at `x1`, without holding faces: the contact
    /// stage runs it inside its evaluation; this is the view a check of a
    /// single point's kinematics needs.
    pub fn detect(&mut self, x1: &[f64]) {
        self.narrow.detect(&self.surface, x1, false);
    }
    /// Penalties `(ε_N, ε_T)` at the current step size.
    pub fn penalties(&self) -> (f64, f64) {
        (self.eps_n, self.eps_t)
    }
    /// The law's tolerance and the drift bound, as lengths.
    pub fn tolerances(&self) -> (f64, f64) {
        (self.tol_abs, self.drift_bound)
    }
    /// Every point's evaluation at the last iterate, in slave order.
    pub fn evals(&self) -> impl Iterator<Item = &PointEval> {
        self.points.iter().map(|p| &p.eval)
    }

    /// The force point `k` exerts at the last iterate (acting on the
    /// bodies): its element nodes (slave first) into `nodes` and their
    /// count, the nodal forces (`dim` values per node, `w j (p_N N_A + t_α
    /// D^α_A)`), and the normal part on the slave node `r_N N_s`.
    pub fn point_force(&self, k: usize, nodes: &mut [usize]) -> (usize, &[f64], [f64; 3]) {
        let d = self.surface.dim;
        let p = &self.points[k];
        let n = self.surface.element_nodes(k, p.eval.face, nodes);
        let mut normal = [0.0; 3];
        for (i, v) in normal.iter_mut().enumerate().take(d) {
            *v = p.lin.r[0] * p.lin.h[0][i];
        }
        (n, &p.lin.force[..n * d], normal)
    }

    /// Whether point `k` may be left out (shadowed) of a stalled exact
    /// subproblem: a second-pass point, or a self-contact point that repeats
    /// another's constraint ([`super::own::repeats`]); never a lifted one
    /// (left out again it would penetrate again, [`super::second_pass`]: the
    /// subproblem with it is solved in full).
    pub(super) fn droppable(&self, k: usize) -> bool {
        self.points[k].role != Role::Lifted
            && (self.pass == 2
                || (self.surface.own && super::own::repeats(&self.surface, &self.narrow.held, k)))
    }

    /// Whether the multipliers are unknowns of Newton (exact, augmented Lagrangian).
    pub fn has_multipliers(&self) -> bool {
        self.enforced && self.spec.enforcement != Enforcement::Penalty
    }

    /// Starts a step of size `dt`: penalties for `dt`, faces free, every
    /// point's constraint and warm start from `t_n`.
    pub(super) fn begin_step(&mut self, dt: f64) {
        (self.eps_n, self.eps_t) = default_penalties(&self.spec, self.bulk, self.inertia, dt);
        self.narrow.begin_step();
        self.points.iter_mut().for_each(SlavePoint::begin_step);
    }

    /// Tangential compliance of point `k` (velocity per force) under exact
    /// or augmented-Lagrangian enforcement: `1/(w j ε_T Δt)` when the input
    /// states a `tangential_penalty`, else 0 (Coulomb's law exactly). It
    /// regularizes stick as the penalty law's return map does (stick means
    /// `v_T = −t_T/(ε_T Δt)`, not `v_T = 0`) while the normal constraint and
    /// the cone stay exact: in the subproblem it adds to the tangential
    /// diagonal of `W` (see [`super::enforce`]).
    pub(super) fn tangential_compliance(&self, k: usize, dt: f64) -> f64 {
        match self.spec.tangential_penalty {
            Some(eps) if self.has_multipliers() => 1.0 / (self.surface.weights[k] * eps * dt),
            _ => 0.0,
        }
    }

    /// The point velocities the law sees: `u` with the tangential compliance
    /// `u_T + C r_T` (see [`Pair::tangential_compliance`]).
    pub(super) fn law_velocity(&self, k: usize, dt: f64) -> [f64; 3] {
        let c = self.tangential_compliance(k, dt);
        let p = &self.points[k];
        let mut u = p.lin.u;
        for i in 1..3 {
            u[i] += c * p.r[i];
        }
        u
    }

    /// The force laws of this pair's points in a linearization.
    fn force_laws(&self, dt: f64) -> ForceLaws {
        ForceLaws {
            enforced: self.enforced,
            multipliers: self.has_multipliers(),
            eps: [self.eps_n, self.eps_t],
            dt,
            mu: self.spec.friction,
        }
    }

    /// The element nodes of point `k` at its held face (slave first) into
    /// `out`; returns how many.
    pub(super) fn element_nodes(&self, k: usize, out: &mut [usize]) -> usize {
        self.surface.element_nodes(k, self.narrow.held[k], out)
    }

    /// Narrow phase, then the linearization and evaluation of every point
    /// at `x1` (positions `x0` at `t_n`).
    pub(super) fn evaluate<const D: usize>(
        &mut self,
        x0: &[f64],
        x1: &[f64],
        dt: f64,
        hold_faces: bool,
    ) -> Result<(), GeometryError> {
        self.narrow.detect(&self.surface, x1, hold_faces);
        let laws = self.force_laws(dt);
        let (surface, narrow) = (&self.surface, &self.narrow);
        let fd = self.spec.tangent == ContactTangent::FiniteDifference;
        let rigid = surface.master.is_rigid();
        self.points
            .par_iter_mut()
            .enumerate()
            .try_for_each(|(k, point)| {
                let face = narrow.held[k];
                point.evaluated = rigid || face.is_some();
                if !point.evaluated {
                    return Ok(());
                }
                let mut nodes = [0usize; MAX_NODES];
                let n = surface.element_nodes(k, face, &mut nodes);
                let mut l0 = [[0.0; 3]; MAX_NODES];
                let mut l1 = [[0.0; 3]; MAX_NODES];
                for a in 0..n {
                    l0[a] = node_x(x0, nodes[a], D);
                    l1[a] = node_x(x1, nodes[a], D);
                }
                let setup = PointSetup {
                    surface,
                    narrow,
                    face,
                    constraint: point.constraint,
                    dt,
                };
                let law = laws.at(point.r, surface.weights[k]);
                if fd {
                    linearize_fd::<D>(&setup, &l0[..n], &l1[..n], law, &mut point.lin)
                } else {
                    linearize::<D>(&setup, &l0[..n], &l1[..n], law, &mut point.lin)
                }
            })?;
        for k in 0..self.points.len() {
            self.points[k].eval = self.point_eval(k);
        }
        Ok(())
    }

    /// The evaluation of point `k` from its linearization and force.
    fn point_eval(&self, k: usize) -> PointEval {
        let w = self.surface.weights[k];
        let point = &self.points[k];
        let lin = &point.lin;
        let mut ev = PointEval::open(w, point.constraint);
        if !point.evaluated {
            return ev;
        }
        ev.face = self.narrow.held[k];
        ev.g1 = lin.g1;
        ev.v_n = lin.v_n;
        ev.v_t = lin.v_t;
        if lin.beside {
            ev.beside = true;
            return ev;
        }
        let nt = lin.nt;
        let r = lin.r;
        ev.state = classify(r, self.spec.friction, nt);
        if !ev.state.active() {
            return ev;
        }
        ev.p = r[0] / w;
        for al in 0..nt {
            ev.t[al] = (0..nt).map(|i| r[1 + i] * lin.e_tau[i][al]).sum::<f64>() / w;
        }
        for i in 0..nt {
            for c in 0..3 {
                ev.traction[c] += r[1 + i] * lin.e[i][c] / w;
            }
        }
        // with a tangential compliance the law sees u_T + C r_T: a point
        // sticks when that vanishes (classify's cone test agrees)
        ev.slip_rate = tangential_norm(lin.u, nt);
        ev
    }

    /// Whether point `k` is pressed at the iterate or was in contact at `t_n`.
    pub(super) fn engaged(&self, k: usize) -> bool {
        let p = &self.points[k];
        p.memory.in_contact || p.r[0] > 0.0
    }

    /// Puts point `k` on its drift bound when it drifted below it (see
    /// [`Constraint::Guarded`]); returns whether it changed. A pressed
    /// point is guarded as soon as Newton is close; an open acting point
    /// only at `converged`: persistency lets a released point separate at a
    /// midpoint rate `v_N ≥ 0` while its gap, over a faceted master, still
    /// sinks (the fine friction blocks, μ = 0.2: a cube node open at 8.8e-4
    /// inside the base at t = 0.6), but an open point's gap at an iterate
    /// still far from the step's solution says nothing about the step (an
    /// augmented-Lagrangian iterate releases points its next one presses).
    pub(super) fn guard(&mut self, k: usize, converged: bool) -> bool {
        let bound = self.drift_bound;
        let p = &mut self.points[k];
        let ev = &p.eval;
        let pressed = ev.active();
        let open_acting = converged && p.acts() && p.on_master();
        if ev.constraint == Constraint::Rate && (pressed || open_acting) && ev.g1 < -bound {
            p.constraint = Constraint::Guarded { bound };
            log::trace!("slave {k}: on its drift bound (g = {:.3e})", ev.g1);
            return true;
        }
        false
    }
}

/// What decides a point's force law in a pair's linearization (copied out
/// of the pair so that the parallel point loop needs no per-point table).
#[derive(Clone, Copy)]
struct ForceLaws {
    enforced: bool,
    multipliers: bool,
    /// `ε_N`, `ε_T` and the step `Δt`.
    eps: [f64; 2],
    dt: f64,
    mu: f64,
}

impl ForceLaws {
    /// The law of a point with multipliers `r` and weight `w`: none where
    /// the pair is not enforced, the multipliers where it has them, else
    /// the penalty law with `ρ = w ε Δt`.
    fn at(&self, r: [f64; 3], w: f64) -> ForceLaw {
        if !self.enforced {
            return ForceLaw::Given([0.0; 3]);
        }
        if self.multipliers {
            return ForceLaw::Given(r);
        }
        ForceLaw::Penalty {
            rho_n: w * self.eps[0] * self.dt,
            rho_t: w * self.eps[1] * self.dt,
            mu: self.mu,
        }
    }
}
