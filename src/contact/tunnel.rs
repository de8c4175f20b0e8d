//! No tunnelling: a converged step in which a slave node passed through the
//! master surface without the contact stage noticing.
//!
//! The contact stage decides contact on the end-of-step configuration: the
//! narrow phase looks for master faces within `2h` of each slave at
//! `x_{n+1}` ([`super::narrow`]). A slave that moves farther than that in one
//! step (a disk at 50 m/s with Δt = 0.2) can end beyond the master
//! body, open, and the step converges as a free flight straight through it.
//! [`ContactSet::tunnelling`] runs after Newton has converged and finds such
//! a slave by a swept test; the stepper then rejects the step (a retryable
//! [`crate::dynamics::StepError::Tunnelling`]), so the run cuts it back.
//!
//! # The swept test
//!
//! Only the pairs that act are tested (`Pair::enforced`: a measuring second
//! pass of a one-pass contact only reports depth), and in them only slaves
//! that were not in contact at `t_n` and that the contact stage did not
//! evaluate at the end of the step (no master face within the narrow
//! phase's reach; a shadowed second-pass point is evaluated,
//! [`crate::contact::second_pass`]). A slave it evaluated or left out was
//! decided on there: active, open beside the rim, or measured as
//! penetration (the golf ball's club nodes left out, up to 0.02 face sizes
//! into the ball), not missed.
//! The candidates are the faces whose box swept from `x_n` to `x_{n+1}`
//! meets the slave's ([`broad::swept_pairs`]). For each, the slave's path is
//! taken relative to the face's centroid, `p(τ) = x_s(τ) − (c(τ) − c_{n+1})`
//! (exact for a translating face), against the face at `x_{n+1}`, whose
//! plane is the one through the centroid with the unit normal at the face's
//! centre; `w` is the largest distance of a face node from that plane (0 for
//! line2 and tri3, the warp of a quad4). The slave tunnelled through the
//! face if
//!
//! * it starts in front: `d_0 = ν·(p_0 − c) ≥ −(δ + w)`, and ends behind:
//!   `d_1 = ν·(p_1 − c) < −(δ + w)`, `δ` the pair's drift bound
//!   (half the contact tolerance: a point open and that far behind a face
//!   has been missed, not resolved to a tolerance);
//! * the path crosses the plane on the face: the crossing point is within
//!   `w + 1e-9 h` of the face ([`crate::contact::geometry::project()`]);
//! * and not at the surface's rim: a crossing within `w + 1e-9 h` of a rim
//!   node or (3D) a rim edge of the face is a slave passing beside the
//!   surface (the narrow phase's [`super::narrow::beside_rim`] convention).
//!
//! Against a rigid plane: `g_n = (x_n − p)·ν ≥ −δ` and `g_{n+1} < −δ`.

use super::broad::{self, node_x};
use super::geometry::vec3::{axpy, dot, sub};
use super::geometry::{face_normal, project};
use super::pair::Pair;
use super::set::ContactSet;
use super::surface::{Master, Surface};
use crate::fe::ElementKind;
use crate::mesh::Element;
use crate::model::MasterSpec;

/// Crossings within this many face sizes of the face (beyond its warp) are
/// on it, and within as many of the rim beside the surface.
const ON_FACE: f64 = 1e-9;

/// A slave node that passed through a master face (or the rigid plane) in
/// a step while its contact point was open (see the module docs).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error(
    "contact[{pair}]{}: slave node {node} of surface \"{slave}\" passed through {master} without contact in this step (crossed at {at:.3} of the step, ended {depth:.3e} behind it, {depth_h:.3} face sizes)",
    if *pass == 2 { " pass 2" } else { "" },
    depth_h = depth / h
)]
pub struct Tunnel {
    /// The `[[contact]]` (input order) and the pass (2: its master's nodes
    /// against its slave surface).
    pub pair: usize,
    pub pass: u8,
    /// The mesh node (0-based) and its surface.
    pub node: usize,
    pub slave: String,
    /// The master face (`None`: the rigid plane) and the master surface
    /// (`"name"` or "the rigid plane").
    pub face: Option<usize>,
    pub master: String,
    /// Fraction of the step at which the path crossed the face.
    pub at: f64,
    /// How far behind the face it ended, and the pair's face size.
    pub depth: f64,
    pub h: f64,
}

impl ContactSet {
    /// The first slave (enforced pair by pair, slave by slave) that
    /// tunnelled between `x0` and `x1` (module docs), or `None`.
    pub fn tunnelling(&self, x0: &[f64], x1: &[f64]) -> Option<Tunnel> {
        self.pairs.iter().filter(|p| p.enforced).find_map(|p| {
            let (k, face, at, depth) = pair_tunnel(p, x0, x1)?;
            Some(Tunnel {
                pair: p.input,
                pass: p.pass,
                node: p.surface.slaves[k],
                slave: p.spec.slave.clone(),
                face,
                master: match &p.spec.master {
                    MasterSpec::Surface(m) => format!("\"{m}\""),
                    MasterSpec::Plane { .. } => "the rigid plane".to_string(),
                    MasterSpec::Rigid(r) => format!("the rigid {}", r.kind()),
                },
                at,
                depth,
                h: p.surface.h,
            })
        })
    }
}

/// The first slave of `p` that tunnelled: its index, face, crossing fraction
/// and end depth.
fn pair_tunnel(p: &Pair, x0: &[f64], x1: &[f64]) -> Option<(usize, Option<usize>, f64, f64)> {
    let s = &p.surface;
    let d = s.dim;
    let open = |k: usize| {
        let s = &p.points[k];
        !s.memory.in_contact && !s.evaluated
    };
    let bound = p.drift_bound;
    let faces = match &s.master {
        Master::Plane { point, normal, .. } => {
            return s.slaves.iter().enumerate().find_map(|(k, &a)| {
                let g0 = dot(sub(node_x(x0, a, d), *point), *normal);
                let g1 = dot(sub(node_x(x1, a, d), *point), *normal);
                (open(k) && g0 >= -bound && g1 < -bound)
                    .then(|| (k, None, g0.max(0.0) / (g0.max(0.0) - g1), -g1))
            });
        }
        Master::Rigid(r) => {
            return s.slaves.iter().enumerate().find_map(|(k, &a)| {
                let g0 = r.gap_at(node_x(x0, a, d), r.u0).0;
                let g1 = r.gap_at(node_x(x1, a, d), r.u1).0;
                (open(k) && g0 >= -bound && g1 < -bound)
                    .then(|| (k, None, g0.max(0.0) / (g0.max(0.0) - g1), -g1))
            });
        }
        Master::Faces(faces) => faces,
    };
    let dx: Vec<f64> = x0.iter().zip(x1).map(|(a, b)| b - a).collect();
    let mut found = None;
    broad::swept_pairs(s, x0, &dx, 1.0, bound, |k, f| {
        if found.is_none() && open(k) {
            if let Some((at, depth)) = crossing(s, &faces[f], s.slaves[k], x0, x1, bound) {
                found = Some((k, Some(f), at, depth));
            }
        }
    });
    found
}

/// Where the path of slave node `a` from `x0` to `x1` crosses face `e` from
/// front to back (module docs): the fraction of the step and the end depth.
fn crossing(
    s: &Surface,
    e: &Element,
    a: usize,
    x0: &[f64],
    x1: &[f64],
    bound: f64,
) -> Option<(f64, f64)> {
    let (d, n) = (s.dim, e.nodes().len());
    if e.nodes().contains(&a) {
        return None;
    }
    let (mut f1, mut c0, mut c1) = (
        [[0.0; 3]; super::geometry::MAX_FACE_NODES],
        [0.0; 3],
        [0.0; 3],
    );
    for (i, &b) in e.nodes().iter().enumerate() {
        f1[i] = node_x(x1, b, d);
        c0 = axpy(c0, 1.0 / n as f64, node_x(x0, b, d));
        c1 = axpy(c1, 1.0 / n as f64, f1[i]);
    }
    let face = &f1[..n];
    let centre = if e.kind.linear() == ElementKind::Tri3 {
        [1.0 / 3.0; 2]
    } else {
        [0.0; 2]
    };
    let nu = face_normal(e.kind, face, centre)?;
    let warp = face
        .iter()
        .fold(0.0f64, |m, &x| m.max(dot(nu, sub(x, c1)).abs()));
    let p0 = axpy(node_x(x0, a, d), 1.0, sub(c1, c0));
    let p1 = node_x(x1, a, d);
    let (d0, d1) = (dot(nu, sub(p0, c1)), dot(nu, sub(p1, c1)));
    let margin = bound + warp;
    if !(d0 >= -margin && d1 < -margin) {
        return None;
    }
    let at = if d0 > 0.0 { d0 / (d0 - d1) } else { 0.0 };
    let q = axpy(p0, at, sub(p1, p0));
    let near = warp + ON_FACE * s.h;
    if project(e.kind, face, q).distance > near || at_rim(s, e, face, q, near) {
        return None;
    }
    Some((at, -d1))
}

/// Whether `q` is within `r` of the rim of the master surface on face `e`
/// (positions `x`): a rim corner of the face, or (3D) a rim edge of it (a
/// segment, or on a second-order face the parabola through its midside
/// node).
fn at_rim(s: &Surface, e: &Element, x: &[[f64; 3]], q: [f64; 3], r: f64) -> bool {
    let nodes = e.nodes();
    let n = e.kind.n_corners();
    let near_node =
        (0..n).any(|i| s.rim_nodes[nodes[i]] && dot(sub(q, x[i]), sub(q, x[i])) <= r * r);
    near_node
        || (s.dim == 3
            && (0..n).any(|i| {
                let (a, b) = (nodes[i], nodes[(i + 1) % n]);
                s.rim_edges.contains(&(a.min(b), a.max(b))) && {
                    let edge = [x[i], x[(i + 1) % n], x[(n + i).min(x.len() - 1)]];
                    let distance = if e.kind.order() == 2 {
                        project(ElementKind::Line3, &edge, q).distance
                    } else {
                        project(ElementKind::Line2, &edge[..2], q).distance
                    };
                    distance <= r
                }
            }))
}
