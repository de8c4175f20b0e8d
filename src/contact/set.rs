//! The contact pairs of a model and what the time step asks of them, as
//! verbs: [`ContactSet::begin_step`], [`ContactSet::evaluate`] (narrow phase,
//! kinematics, law, force and tangent at an iterate),
//! [`ContactSet::violation`], [`ContactSet::settle`], [`ContactSet::commit`]
//! and [`ContactSet::rollback`]. The multipliers of exact and
//! augmented-Lagrangian enforcement are solved by [`super::enforce`], the
//! velocity update is assembled by [`super::update`].
//!
//! State carried from step to step, per point ([`Memory`]): "in contact at
//! `t_n`" (Table 1 is decided by it, not by the sign of a gap that round-off
//! leaves at ±1e-16) and the point's last force, the warm start of its
//! multipliers.

use super::broad::{self, node_x};
use super::geometry::{GeometryError, MAX_NODES};
use super::law::{classify, tangential_norm, violation, Constraint};
use super::narrow::{on_nodes, Narrow};
use super::point::{linearize, linearize_fd, ForceLaw, Linear, PointSetup};
pub use super::point_eval::{Memory, PointEval};
use super::surface::{ContactSetupError, Surface};
use crate::linalg::BlockPattern;
use crate::model::{ContactSpec, ContactTangent, Enforcement, MasterSpec, Model};
use rayon::prelude::*;

/// Two nodes closer than this fraction of `h` coincide (a second-pass slave
/// there is redundant).
const COINCIDENT: f64 = 1e-3;

/// Drift bound of persistent contact relative to `h` (see
/// [`Constraint::Guarded`]), and at least half the pair's contact tolerance:
/// a persistent point ends no deeper than the tolerance, so that exact
/// enforcement leaves no penetration beyond it (5e-4 h until 2026-11-24:
/// the guard then acted on the sliding edges only, at 5e-4 h deep; at the
/// tolerance it acts on more points for no more Newton iterations on the
/// validation cases, and the velocity update takes the work of pushing them
/// out back as before).
const DRIFT_BOUND: f64 = 5e-11;

/// A slave moves to a closer face once Newton is close only if its held face
/// is farther by more than this (times `h`, and at least the tolerance). A
/// slave over the edge between two faces of a dented surface is at nearly
/// the same distance from both; switching at every difference above the
/// tolerance (1e-10 h) made it go back and forth between them, a Newton
/// restart each time. Its gap on the held face differs from the closest
/// face's by at most this.
const FACE_TOL: f64 = 1e-5;

/// One contact pair (one pass of a `[[contact]]`): its surfaces, parameters
/// and per-point state.
#[derive(Debug, Clone)]
pub struct Pair {
    /// The `[[contact]]` it comes from (index in input order) and which pass
    /// it is: 1 (its slave against its master) or 2 (the master's nodes
    /// against the slave surface, `spec` with the two swapped).
    pub input: usize,
    pub pass: u8,
    /// Whether the pair acts: a second pass of a one-pass contact only
    /// measures how deep the master's nodes are in the slave body.
    pub enforced: bool,
    pub spec: ContactSpec,
    pub surface: Surface,
    pub narrow: Narrow,
    /// Penalties `ε_N`, `ε_T` at the current step size (penalty law, and the
    /// augmentation parameters of the augmented Lagrangian).
    pub eps_n: f64,
    pub eps_t: f64,
    /// `(λ + 2μ)/h` and `2ρh` of the default penalties (see [`default_penalties`]).
    pub bulk: f64,
    pub inertia: f64,
    /// Tolerance of the law as a length (`spec.tolerance · h`).
    pub tol_abs: f64,
    /// Drift bound `δ` of persistent contact, a length: `DRIFT_BOUND · h`
    /// and at least ten tolerances.
    pub drift_bound: f64,
    /// Committed state at `t_n`, per point.
    pub memory: Vec<Memory>,
    /// This step's normal constraint per point.
    pub constraint: Vec<Constraint>,
    /// Multipliers at the current iterate (exact and augmented Lagrangian).
    pub r: Vec<[f64; 3]>,
    /// Linearization and evaluation of each point at the current iterate;
    /// `evaluated[k]` says whether point `k` has a master.
    pub lin: Vec<Linear>,
    pub evaluated: Vec<bool>,
    /// Second pass only: the slaves on a node of the first pass's slaves in
    /// this step, left out (see [`super::narrow::on_nodes`]).
    pub redundant: Vec<bool>,
    cells: std::collections::HashMap<[i64; 3], Vec<usize>>,
    pub evals: Vec<PointEval>,
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
    pub fn new(
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
        let n = surface.slaves.len();
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
            memory: vec![Memory::default(); n],
            constraint: vec![Constraint::Gap; n],
            r: vec![[0.0; 3]; n],
            lin: vec![Linear::default(); n],
            evaluated: vec![false; n],
            redundant: vec![false; n],
            cells: Default::default(),
            evals: (0..n)
                .map(|k| PointEval::open(surface.weights[k], Constraint::Gap))
                .collect(),
            surface,
        })
    }

    /// Whether the multipliers are unknowns of Newton (exact, augmented Lagrangian).
    pub fn has_multipliers(&self) -> bool {
        self.enforced && self.spec.enforcement != Enforcement::Penalty
    }

    /// Tangential compliance of point `k` (velocity per force) under exact
    /// or augmented-Lagrangian enforcement: `1/(w j ε_T Δt)` when the input
    /// states a `tangential_penalty`, else 0 (Coulomb's law exactly). It
    /// regularizes stick as the penalty law's return map does (stick means
    /// `v_T = −t_T/(ε_T Δt)`, not `v_T = 0`) while the normal constraint and
    /// the cone stay exact: in the subproblem it adds to the tangential
    /// diagonal of `W` (see [`super::enforce`]).
    pub fn tangential_compliance(&self, k: usize, dt: f64) -> f64 {
        match self.spec.tangential_penalty {
            Some(eps) if self.has_multipliers() => 1.0 / (self.surface.weights[k] * eps * dt),
            _ => 0.0,
        }
    }

    /// The point velocities the law sees: `u` with the tangential compliance
    /// `u_T + C r_T` (see [`Pair::tangential_compliance`]).
    pub fn law_velocity(&self, k: usize, dt: f64) -> [f64; 3] {
        let c = self.tangential_compliance(k, dt);
        let (mut u, r) = (self.lin[k].u, self.r[k]);
        for i in 1..3 {
            u[i] += c * r[i];
        }
        u
    }

    /// The force law of point `k` in a linearization.
    fn force_law(&self, k: usize, dt: f64) -> ForceLaw {
        if !self.enforced {
            return ForceLaw::Given([0.0; 3]);
        }
        if self.has_multipliers() {
            return ForceLaw::Given(self.r[k]);
        }
        let w = self.surface.weights[k];
        ForceLaw::Penalty {
            rho_n: w * self.eps_n * dt,
            rho_t: w * self.eps_t * dt,
            mu: self.spec.friction,
        }
    }

    /// Narrow phase and the linearization of every point at `x1`.
    fn linearize_all<const D: usize>(
        &mut self,
        x0: &[f64],
        x1: &[f64],
        dt: f64,
        hold_faces: bool,
    ) -> Result<(), GeometryError> {
        self.narrow.detect(&self.surface, x1, hold_faces);
        let laws: Vec<ForceLaw> = (0..self.surface.slaves.len())
            .map(|k| self.force_law(k, dt))
            .collect();
        let (surface, narrow) = (&self.surface, &self.narrow);
        let (constraint, redundant, fd) = (
            &self.constraint,
            &self.redundant,
            self.spec.tangent == ContactTangent::FiniteDifference,
        );
        self.lin
            .par_iter_mut()
            .zip(self.evaluated.par_iter_mut())
            .enumerate()
            .try_for_each(|(k, (lin, evaluated))| {
                let face = narrow.held[k];
                *evaluated = !redundant[k]
                    && (surface.master.is_rigid() || face.is_some());
                if !*evaluated {
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
                    constraint: constraint[k],
                    dt,
                };
                if fd {
                    linearize_fd::<D>(&setup, &l0[..n], &l1[..n], laws[k], lin)
                } else {
                    linearize::<D>(&setup, &l0[..n], &l1[..n], laws[k], lin)
                }
            })
    }

    /// The evaluation of point `k` from its linearization and force.
    fn point_eval(&self, k: usize) -> PointEval {
        let w = self.surface.weights[k];
        let lin = &self.lin[k];
        let mut ev = PointEval::open(w, self.constraint[k]);
        if !self.evaluated[k] {
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
        ev.slip_rate = tangential_norm(lin.u, nt);
        // with a tangential compliance the law sees u_T + C r_T: a point
        // sticks when that vanishes (classify's cone test agrees)
        ev
    }
}

/// How [`ContactSet::evaluate`] evaluates an iterate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EvalOptions {
    /// Slaves keep their faces within a slack (see [`Narrow`]).
    pub hold_faces: bool,
    /// The penalty law's tangent includes the geometric stiffness.
    pub geometric: bool,
}

/// Every contact pair of a model.
#[derive(Debug, Clone, Default)]
pub struct ContactSet {
    pub pairs: Vec<Pair>,
}

impl ContactSet {
    /// The pairs of `model` in dimension `dim`: one per `[[contact]]`, and a
    /// second, swapped one for a two-pass contact.
    pub fn new(model: &Model, dim: usize) -> Result<ContactSet, ContactSetupError> {
        let stiffness = model
            .bodies
            .iter()
            .map(|b| b.material.p_wave_modulus())
            .fold(0.0, f64::max);
        let density = model.bodies.iter().map(|b| b.density).fold(0.0, f64::max);
        let mut pairs = Vec::new();
        for (i, spec) in model.contacts.iter().enumerate() {
            pairs.push(Pair::new((i, 1), spec, model, dim, stiffness, density)?);
            if let MasterSpec::Surface(master) = &spec.master {
                let swapped = ContactSpec {
                    slave: master.clone(),
                    master: MasterSpec::Surface(spec.slave.clone()),
                    ..spec.clone()
                };
                pairs.push(Pair::new((i, 2), &swapped, model, dim, stiffness, density)?);
            }
        }
        Ok(ContactSet { pairs })
    }

    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// Whether some pair solves multipliers inside Newton.
    pub fn has_multipliers(&self) -> bool {
        self.pairs.iter().any(|p| p.has_multipliers())
    }

    /// Broad phase of the coming step from `x`, `v` at `t_n`: the node lists
    /// the stiffness pattern must couple, and whether any slave may touch.
    pub fn couplings(&self, x: &[f64], v: &[f64], dt: f64) -> (Vec<Vec<usize>>, bool) {
        let mut lists = Vec::new();
        let mut possible = false;
        for p in &self.pairs {
            let l = broad::couplings(&p.surface, x, v, dt);
            possible |= broad::may_touch(&p.surface, x, v, dt, &l);
            lists.extend(l);
        }
        (lists, possible)
    }

    /// Starts a step of size `dt`: penalties for `dt`, faces free, Table 1's
    /// constraint of each point from its state at `t_n`, multipliers
    /// warm-started from the last step's forces; a second pass leaves out its
    /// slaves that lie on a first-pass slave at `x_n`.
    pub fn begin_step(&mut self, x: &[f64], dt: f64) {
        for i in 1..self.pairs.len() {
            let (first, rest) = self.pairs.split_at_mut(i);
            let (p1, p2) = (&first[i - 1], &mut rest[0]);
            if p2.pass == 2 && p1.input == p2.input {
                let tol = COINCIDENT * p1.surface.h.min(p2.surface.h);
                let d = p2.surface.dim;
                let (slaves, cells) = (&p2.surface.slaves, &mut p2.cells);
                on_nodes(
                    slaves,
                    &p1.surface.slaves,
                    x,
                    d,
                    tol,
                    cells,
                    &mut p2.redundant,
                );
            }
        }
        for p in &mut self.pairs {
            (p.eps_n, p.eps_t) = default_penalties(&p.spec, p.bulk, p.inertia, dt);
            p.narrow.begin_step();
            for k in 0..p.memory.len() {
                let m = p.memory[k];
                p.constraint[k] = if m.in_contact {
                    Constraint::Rate
                } else {
                    Constraint::Gap
                };
                p.r[k] = if m.in_contact { m.r } else { [0.0; 3] };
            }
        }
    }

    /// Evaluates every point at the iterate `x1`: adds the contact force
    /// (acting on the bodies) to `f` and, when given, `−∂f_c/∂x1` to the
    /// matrix values `k` on `pattern` (entries missing from the pattern are
    /// skipped: the broad phase couples what a step can reach). With
    /// `hold_faces` the slaves keep their faces within a slack (see
    /// [`Narrow`]): Newton asks for it once it is close to a solution.
    /// Without `geometric`, the tangent of the penalty law leaves out the
    /// geometric stiffness `Σ r_k ∂H_k/∂x`: far from a solution (a first
    /// iterate that penetrates deeply) the penalty pressures are many times
    /// the converged ones, and that term then swamps the inertia and the
    /// material stiffness and makes the Newton matrix nearly singular.
    pub fn evaluate<const D: usize>(
        &mut self,
        x0: &[f64],
        x1: &[f64],
        dt: f64,
        options: EvalOptions,
        f: &mut [f64],
        mut k: Option<(&BlockPattern, &mut [f64])>,
    ) -> Result<(), GeometryError> {
        let hold_faces = options.hold_faces;
        let mut nodes = [0usize; MAX_NODES];
        for p in &mut self.pairs {
            p.linearize_all::<D>(x0, x1, dt, hold_faces)?;
            for l in 0..p.lin.len() {
                p.evals[l] = p.point_eval(l);
                if !p.enforced || !p.evaluated[l] || p.lin[l].beside {
                    continue;
                }
                let lin = &p.lin[l];
                let n = p.surface.element_nodes(l, p.narrow.held[l], &mut nodes);
                for a in 0..n {
                    for i in 0..D {
                        f[nodes[a] * D + i] += lin.force[a * D + i];
                    }
                }
                let Some((pattern, kv)) = k.as_mut() else {
                    continue;
                };
                let full = options.geometric || p.has_multipliers();
                for a in 0..n {
                    for b in 0..n {
                        let Some(off) = pattern.block_offset(nodes[a], nodes[b]) else {
                            continue;
                        };
                        for i in 0..D {
                            for j in 0..D {
                                let (row, col) = (a * D + i, b * D + j);
                                let v = if full {
                                    lin.k[row][col]
                                } else {
                                    lin.law_tangent(row, col)
                                };
                                kv[pattern.position(off, i, nodes[b], j)] -= v;
                            }
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// How far the current iterate is from the contact law: the largest
    /// violation relative to its pair's tolerance (≤ 1: met), and relative to
    /// its pair's face size `h`. Pairs with the penalty law meet their law by
    /// construction and count 0.
    pub fn violation(&self, dt: f64) -> (f64, f64) {
        let (mut tol, mut size) = (0.0f64, 0.0f64);
        for p in self.pairs.iter().filter(|p| p.has_multipliers()) {
            for k in 0..p.lin.len() {
                if !p.evaluated[k] || p.lin[k].beside {
                    continue;
                }
                let u = p.law_velocity(k, dt);
                let v = violation(p.r[k], u, p.spec.friction, p.lin[k].nt, dt);
                tol = tol.max(v / p.tol_abs);
                size = size.max(v / p.surface.h);
            }
        }
        (tol, size)
    }

    /// Once Newton is close to convergence: slaves near contact whose held
    /// face is farther than their closest one move (see [`Narrow::settle`]), and pressed
    /// persistent points below the drift bound are enforced on their gap
    /// ([`Constraint::Guarded`]). Returns how many changed: Newton goes on
    /// while any did.
    pub fn settle(&mut self) -> usize {
        let mut changed = 0;
        for p in &mut self.pairs {
            let before = changed;
            // a face matters where the point is pressed or within a face
            // size of touching; elsewhere the choice does not change the step
            let (evals, h) = (&p.evals, p.surface.h);
            let moved = p.narrow.settle(p.tol_abs.max(FACE_TOL * h), |k| {
                evals[k].active() || evals[k].g1 < h
            });
            // a measuring pass takes the closest face without holding Newton
            if p.enforced {
                changed += moved;
            }
            if !p.has_multipliers() {
                continue;
            }
            for k in 0..p.evals.len() {
                let ev = &p.evals[k];
                if ev.constraint == Constraint::Rate && ev.active() && ev.g1 < -p.drift_bound {
                    p.constraint[k] = Constraint::Guarded {
                        bound: p.drift_bound,
                    };
                    log::trace!("slave {k}: on its drift bound (g = {:.3e})", ev.g1);
                    changed += 1;
                }
            }
            if changed > before {
                log::debug!(
                    "contact: {} point(s) moved to another face or onto their drift bound",
                    changed - before
                );
            }
        }
        changed
    }

    /// Accepts the step: the state at `n+1` becomes "in contact at `t_n`".
    pub fn commit(&mut self) {
        for p in &mut self.pairs {
            for (m, (ev, lin)) in p.memory.iter_mut().zip(p.evals.iter().zip(&p.lin)) {
                m.in_contact = ev.active();
                m.r = if m.in_contact { lin.r } else { [0.0; 3] };
            }
        }
    }

    /// Abandons the step: the state at `t_n` is kept (nothing of the step
    /// reaches it before [`ContactSet::commit`]); the iterate's multipliers
    /// go back to their warm start.
    pub fn rollback(&mut self) {
        for p in &mut self.pairs {
            for (r, m) in p.r.iter_mut().zip(&p.memory) {
                *r = if m.in_contact { m.r } else { [0.0; 3] };
            }
        }
    }

    /// Every point's evaluation, pair by pair.
    pub fn evals(&self) -> impl Iterator<Item = (&Pair, &PointEval)> {
        self.pairs
            .iter()
            .flat_map(|p| p.evals.iter().map(move |e| (p, e)))
    }
}
