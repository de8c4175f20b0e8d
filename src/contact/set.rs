//! The contact pairs of a model and what the time step asks of them, as
//! verbs: [`ContactSet::begin_step`], [`ContactSet::evaluate`] (narrow phase,
//! kinematics, law, force and tangent at an iterate),
//! [`ContactSet::violation`], [`ContactSet::settle`], [`ContactSet::commit`]
//! and [`ContactSet::rollback`]; the multipliers' lifecycle besides those
//! (warm start in `begin_step`, enforcement in [`super::enforce`], a line
//! search's [`ContactSet::blend_multipliers`]) stays inside `contact/`.
//! The velocity update is assembled by [`super::update`].
//!
//! State carried from step to step, per point ([`super::Memory`]): "in
//! contact at `t_n`" (Table 1 is decided by it, not by the sign of a gap
//! that round-off leaves at ±1e-16) and the point's last force, the warm
//! start of its multipliers.

use super::broad;
use super::geometry::{GeometryError, MAX_NODES};
use super::law::violation;
use super::narrow::on_nodes;
use super::pair::Pair;
use super::point_eval::{Memory, PointEval};
use super::slave::Role;
use super::surface::{ContactSetupError, Master};
use crate::linalg::BlockPattern;
use crate::model::{ContactSpec, MasterSpec, Model};

/// Two nodes closer than this fraction of `h` coincide (a second-pass slave
/// there is redundant).
const COINCIDENT: f64 = 1e-3;

/// A slave moves to a closer face once Newton is close only if its held face
/// is farther by more than this (times `h`, and at least the tolerance). A
/// slave over the edge between two faces of a dented surface is at nearly
/// the same distance from both; switching at every difference above the
/// tolerance made it go back and forth between them, a Newton restart each
/// time. Its gap on the held face differs from the closest face's by at
/// most this.
const FACE_TOL: f64 = 1e-5;

/// What [`ContactSet::settle`] changed.
#[derive(Debug, Clone, Copy, Default)]
pub struct Settled {
    /// Points that moved face, were put on their drift bound or were lifted.
    pub changed: usize,
    /// Of them, the points put on their drift bound `−δ` from deeper than
    /// `−2δ`: their gap is enforced only by the next correction, and
    /// accepted now (within the law's tolerance of the bound) they could
    /// stay deeper than the contact tolerance promises (`2δ ≥ tolerance`).
    /// A point re-guarded at the bound's round-off (persistent on it since
    /// the last step) needs no correction.
    pub guarded: usize,
}

/// How [`ContactSet::evaluate`] evaluates an iterate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EvalOptions {
    /// Slaves keep their faces within a slack (see [`super::narrow::Narrow`]).
    pub hold_faces: bool,
    /// The penalty law's tangent includes the geometric stiffness.
    pub geometric: bool,
}

impl EvalOptions {
    /// The start of a step's iteration: faces free, no geometric stiffness
    /// of the penalty law.
    pub const START: EvalOptions = EvalOptions {
        hold_faces: false,
        geometric: false,
    };
}

/// Every contact pair of a model.
#[derive(Debug, Clone, Default)]
pub struct ContactSet {
    pub(super) pairs: Vec<Pair>,
    /// Scratch of the second pass's coincidence test.
    cells: std::collections::HashMap<[i64; 3], Vec<usize>>,
    coincident: Vec<bool>,
    /// A stalled saddle-point inner iteration left the second pass out in
    /// this step: lifts then wait for a first pass that holds, and a lifted
    /// point takes the place of the first-pass point it repeats most
    /// ([`super::second_pass::lift`]).
    pub(super) gate_lifts: bool,
}

/// One point as the rest of the program sees it (read only).
#[derive(Debug, Clone, Copy)]
pub struct PointView<'a> {
    /// Index of the pair in the set, its `[[contact]]` and pass.
    pub pair: usize,
    pub input: usize,
    pub pass: u8,
    /// The pair acts (not a measuring second pass).
    pub enforced: bool,
    /// The point carries a multiplier at this iterate (not shadowed,
    /// [`super::second_pass`]).
    pub acts: bool,
    /// Index of the point in its pair and its slave node.
    pub point: usize,
    pub node: usize,
    /// The pair's face size and friction coefficient.
    pub h: f64,
    pub friction: f64,
    pub eval: &'a PointEval,
}

impl ContactSet {
    /// The pairs of `model` in dimension `dim`: one per `[[contact]]`, and a
    /// second, swapped one for a two-pass contact between two surfaces (a
    /// self-contact's one pair is both passes).
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
            if spec.is_self() {
                // its one pass is both (super::own)
                continue;
            }
            if let MasterSpec::Surface(master) = &spec.master {
                let swapped = ContactSpec {
                    slave: master.clone(),
                    master: MasterSpec::Surface(spec.slave.clone()),
                    ..spec.clone()
                };
                pairs.push(Pair::new((i, 2), &swapped, model, dim, stiffness, density)?);
            }
        }
        Ok(ContactSet {
            pairs,
            ..Default::default()
        })
    }

    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// The pairs (read only).
    pub fn pairs(&self) -> &[Pair] {
        &self.pairs
    }

    /// One pair, for its narrow phase alone (its state changes only through
    /// the set's verbs).
    pub fn pair_mut(&mut self, i: usize) -> &mut Pair {
        &mut self.pairs[i]
    }

    /// Places the rigid masters at both ends of the step `[t0, t0 + dt]`.
    pub fn place_rigid(&mut self, t0: f64, dt: f64) {
        for p in &mut self.pairs {
            if let Master::Rigid(r) = &mut p.surface.master {
                r.set_step(t0, dt);
            }
        }
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
    /// warm-started from the last step's forces; a second pass shadows its
    /// slaves that lie on a first-pass slave at `x_n`.
    pub fn begin_step(&mut self, x: &[f64], dt: f64) {
        self.gate_lifts = false;
        for p in &mut self.pairs {
            p.begin_step(dt);
        }
        for i in 1..self.pairs.len() {
            let (first, rest) = self.pairs.split_at_mut(i);
            let (p1, p2) = (&first[i - 1], &mut rest[0]);
            if p2.pass != 2 || p1.input != p2.input {
                continue;
            }
            let tol = COINCIDENT * p1.surface.h.min(p2.surface.h);
            let d = p2.surface.dim;
            self.coincident.clear();
            self.coincident.resize(p2.points.len(), false);
            let slaves = &p2.surface.slaves;
            let others = &p1.surface.slaves;
            on_nodes(
                slaves,
                others,
                x,
                d,
                tol,
                &mut self.cells,
                &mut self.coincident,
            );
            for (p, &c) in p2.points.iter_mut().zip(&self.coincident) {
                if c {
                    p.role = Role::Shadowed;
                    p.r = [0.0; 3];
                }
            }
        }
    }

    /// Evaluates every point at the iterate `x1`: adds the contact force
    /// (acting on the bodies) to `f` and, when given, `−∂f_c/∂x1` to the
    /// matrix values `k` on `pattern` (entries missing from the pattern are
    /// skipped: the broad phase couples what a step can reach). With
    /// `hold_faces` the slaves keep their faces within a slack (see
    /// [`super::narrow::Narrow`]): Newton asks for it once it is close to a
    /// solution. Without `geometric`, the tangent of the penalty law leaves
    /// out the geometric stiffness `Σ r_k ∂H_k/∂x`: far from a solution (a
    /// first iterate that penetrates deeply) the penalty pressures are many
    /// times the converged ones, and that term then swamps the inertia and
    /// the material stiffness and makes the Newton matrix nearly singular.
    pub fn evaluate<const D: usize>(
        &mut self,
        x0: &[f64],
        x1: &[f64],
        dt: f64,
        options: EvalOptions,
        f: &mut [f64],
        mut k: Option<(&BlockPattern, &mut [f64])>,
    ) -> Result<(), GeometryError> {
        let mut nodes = [0usize; MAX_NODES];
        for p in &mut self.pairs {
            p.evaluate::<D>(x0, x1, dt, options.hold_faces)?;
            let full = options.geometric || p.has_multipliers();
            for (l, point) in p.points.iter().enumerate() {
                if !p.enforced || !point.on_master() {
                    continue;
                }
                let lin = &point.lin;
                let n = p.element_nodes(l, &mut nodes);
                for a in 0..n {
                    for i in 0..D {
                        f[nodes[a] * D + i] += lin.force[a * D + i];
                    }
                }
                let Some((pattern, kv)) = k.as_mut() else {
                    continue;
                };
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
            for (k, point) in p.points.iter().enumerate() {
                if !point.on_master() {
                    continue;
                }
                if !point.acts() {
                    // a shadowed point (super::second_pass):
                    // its penetration beyond the tolerance
                    let depth = (-point.lin.g1).max(0.0);
                    tol = tol.max(depth / p.tol_abs);
                    size = size.max(depth / p.surface.h);
                    continue;
                }
                let u = p.law_velocity(k, dt);
                let v = violation(point.r, u, p.spec.friction, point.lin.nt, dt);
                tol = tol.max(v / p.tol_abs);
                size = size.max(v / p.surface.h);
            }
        }
        (tol, size)
    }

    /// Once Newton is close to convergence: slaves near contact whose held
    /// face is farther than their closest one move (see
    /// [`super::narrow::Narrow::settle`]), and persistent points below the
    /// drift bound are enforced on their gap
    /// ([`super::law::Constraint::Guarded`]): pressed ones always, open ones
    /// once Newton has `converged`. Returns how many changed (Newton goes on
    /// while any did) and how many of them were guarded.
    pub fn settle(&mut self, converged: bool) -> Settled {
        let mut changed = 0;
        let mut guarded = 0;
        for p in &mut self.pairs {
            let before = changed;
            // a face matters where the point is pressed or within a face
            // size of touching; elsewhere the choice does not change the step
            let (points, h) = (&p.points, p.surface.h);
            let moved = p.narrow.settle(p.tol_abs.max(FACE_TOL * h), |k| {
                points[k].eval.active() || points[k].eval.g1 < h
            });
            // a measuring pass takes the closest face without holding Newton
            if p.enforced {
                changed += moved;
            }
            if !p.has_multipliers() {
                continue;
            }
            // deeper than twice the bound (≥ the contact tolerance) a
            // guarded point must be corrected before the step is accepted
            let deep = 2.0 * p.drift_bound;
            for k in 0..p.points.len() {
                let g1 = p.points[k].eval.g1;
                if p.guard(k, converged) {
                    changed += 1;
                    guarded += (g1 < -deep) as usize;
                }
            }
            if changed > before {
                log::debug!(
                    "contact: {} point(s) moved to another face or onto their drift bound",
                    changed - before
                );
            }
        }
        let lifted = super::second_pass::lift(self);
        if lifted > 0 {
            log::debug!("contact: {lifted} shadowed point(s) penetrate: enforced");
        }
        Settled {
            changed: changed + lifted,
            guarded,
        }
    }

    /// Accepts the step: the state at `n+1` becomes "in contact at `t_n`".
    pub fn commit(&mut self) {
        for p in &mut self.pairs {
            p.points.iter_mut().for_each(|s| s.commit());
        }
    }

    /// Abandons the step: the state at `t_n` is kept (nothing of the step
    /// reaches it before [`ContactSet::commit`]); the iterate's multipliers
    /// go back to their warm start.
    pub fn rollback(&mut self) {
        for p in &mut self.pairs {
            p.points.iter_mut().for_each(|s| s.rollback());
        }
    }

    /// Copies every point's multipliers into `out` (pair by pair, point by
    /// point), for [`ContactSet::blend_multipliers`].
    pub fn save_multipliers(&self, out: &mut Vec<[f64; 3]>) {
        out.clear();
        out.extend(self.pairs.iter().flat_map(|p| p.points.iter().map(|s| s.r)));
    }

    /// Sets every point's multipliers to `old + s (new − old)`, both saved by
    /// [`ContactSet::save_multipliers`] (a Newton correction shortened to
    /// the length `s`).
    pub fn blend_multipliers(&mut self, old: &[[f64; 3]], new: &[[f64; 3]], s: f64) {
        let points = self.pairs.iter_mut().flat_map(|p| p.points.iter_mut());
        for (point, (o, n)) in points.zip(old.iter().zip(new)) {
            for i in 0..3 {
                point.r[i] = o[i] + s * (n[i] - o[i]);
            }
        }
    }

    /// Every point, pair by pair (read only).
    pub fn points(&self) -> impl Iterator<Item = PointView<'_>> {
        self.pairs.iter().enumerate().flat_map(|(i, p)| {
            p.points.iter().enumerate().map(move |(k, s)| PointView {
                pair: i,
                input: p.input,
                pass: p.pass,
                enforced: p.enforced,
                acts: s.acts(),
                point: k,
                node: p.surface.slaves[k],
                h: p.surface.h,
                friction: p.spec.friction,
                eval: &s.eval,
            })
        })
    }

    /// The committed state of every pair's points (checkpoints): per pair
    /// its slave nodes and each point's [`Memory`].
    pub fn memory(&self) -> Vec<(Vec<usize>, Vec<Memory>)> {
        self.pairs
            .iter()
            .map(|p| {
                let m = p.points.iter().map(|s| s.memory).collect();
                (p.surface.slaves.clone(), m)
            })
            .collect()
    }

    /// Restores the committed state saved by [`ContactSet::memory`]; `Err`
    /// names the first pair whose slave nodes differ (nothing is changed).
    pub fn restore_memory(&mut self, saved: &[(Vec<usize>, Vec<Memory>)]) -> Result<(), usize> {
        if saved.len() != self.pairs.len() {
            return Err(saved.len().min(self.pairs.len()));
        }
        for (i, (p, (slaves, m))) in self.pairs.iter().zip(saved).enumerate() {
            if *slaves != p.surface.slaves || m.len() != p.points.len() {
                return Err(i);
            }
        }
        for (p, (_, m)) in self.pairs.iter_mut().zip(saved) {
            for (s, &mem) in p.points.iter_mut().zip(m) {
                s.memory = mem;
            }
        }
        Ok(())
    }
}
