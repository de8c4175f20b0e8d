//! Broad phase of a step: which slave nodes may reach which master faces
//! between `t_n` and `t_{n+1}`, from the positions and velocities at `t_n`.
//! It decides the stiffness pattern's contact couplings for the step and
//! whether contact is possible at all (the Newton start, see the stepper).

use super::geometry::vec3::{dot, sub};
use super::own;
use super::search::SpatialHash;
use super::surface::{Master, Surface};

/// Node `a`'s coordinates from a dof vector of dimension `d`.
#[inline]
pub(crate) fn node_x(x: &[f64], a: usize, d: usize) -> [f64; 3] {
    let mut p = [0.0; 3];
    p[..d].copy_from_slice(&x[a * d..a * d + d]);
    p
}

/// The box swept by the nodes `nodes` moving from `x` to `x + dt·v` (the
/// constant-velocity prediction), padded by `pad`.
fn swept(
    x: &[f64],
    v: &[f64],
    dt: f64,
    d: usize,
    nodes: &mut dyn Iterator<Item = usize>,
    pad: f64,
) -> ([f64; 3], [f64; 3]) {
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for a in nodes {
        let p0 = node_x(x, a, d);
        let w = node_x(v, a, d);
        for i in 0..3 {
            let p1 = p0[i] + dt * w[i];
            lo[i] = lo[i].min(p0[i].min(p1) - pad);
            hi[i] = hi[i].max(p0[i].max(p1) + pad);
        }
    }
    (lo, hi)
}

/// Node lists that the stiffness pattern must couple for the coming step:
/// one list (slave, face nodes) for every master face the slave may touch,
/// i.e. whose box swept from `x` to `x + Δt·v` and padded by one face size
/// overlaps the slave's swept box ([`swept_pairs`]). (A disc of radius
/// 2·max|v|·Δt around each slave coupled ~90 base nodes per slave on the
/// fine blocks mesh and filled the factorization.) A point that leaves its
/// prediction by more than a face size only loses stiffness entries until
/// the next step.
pub fn couplings(s: &Surface, x: &[f64], v: &[f64], dt: f64) -> Vec<Vec<usize>> {
    let Master::Faces(faces) = &s.master else {
        return Vec::new();
    };
    // one list per contact element (slave + face): listing all candidate
    // faces of a slave together would also couple the faces with each other
    let mut out = Vec::new();
    swept_pairs(s, x, v, dt, s.h, |k, f| {
        let e = &faces[f];
        let mut list = Vec::with_capacity(1 + e.nodes().len());
        list.push(s.slaves[k]);
        list.extend_from_slice(e.nodes());
        out.push(list);
    });
    out
}

/// Calls `visit(k, nodes)` for every slave `k` (an index into `s.slaves`)
/// that may touch the master in the step from `x` with velocities `v`, with
/// the nodes of each master face it may reach ([`swept_pairs`] with a face
/// size of padding, as [`couplings`]); against a rigid plane or body, for
/// every slave within a few face sizes of it over the step, with no master
/// node.
pub fn reach(s: &Surface, x: &[f64], v: &[f64], dt: f64, mut visit: impl FnMut(usize, &[usize])) {
    match &s.master {
        Master::Faces(faces) => swept_pairs(s, x, v, dt, s.h, |k, f| visit(k, faces[f].nodes())),
        Master::Plane { point, normal, .. } => {
            for (k, &a) in s.slaves.iter().enumerate() {
                let gap = dot(sub(node_x(x, a, s.dim), *point), *normal);
                let approach = (-dt * dot(node_x(v, a, s.dim), *normal)).max(0.0);
                if gap - approach <= PLANE_REACH * s.h {
                    visit(k, &[]);
                }
            }
        }
        Master::Rigid(r) => {
            for (k, &a) in s.slaves.iter().enumerate() {
                if r.may_touch(node_x(x, a, s.dim), node_x(v, a, s.dim), PLANE_REACH * s.h) {
                    visit(k, &[]);
                }
            }
        }
    }
}

/// A slave within this many face sizes of a rigid master over the step gets
/// multipliers on the saddle path ([`reach`]): the predictor's approach is
/// that of the velocities at `t_n`, and a step that accelerates a slave
/// toward the plane must still find it there.
const PLANE_REACH: f64 = 4.0;

/// Calls `visit(k, f)` for every slave `k` (an index into `s.slaves`) and
/// master face `f` whose boxes swept from `x` to `x + c·w` overlap, the
/// face's padded by `pad` (in increasing `k`, then `f`). Candidates come from
/// a spatial hash of the faces at `x` with margin `pad + 2c·max|w|`, which
/// holds every face whose swept box can meet a slave's: both move by at most
/// `c·max|w|`. With `c·w` the step's actual displacement `x_{n+1} − x_n` this
/// is every face a slave's straight path may cross (the tunnelling check).
/// A self-contact slave's own side at `x` is left out ([`super::own`]).
pub fn swept_pairs(
    s: &Surface,
    x: &[f64],
    w: &[f64],
    c: f64,
    pad: f64,
    mut visit: impl FnMut(usize, usize),
) {
    let d = s.dim;
    let Master::Faces(faces) = &s.master else {
        return;
    };
    let boxes: Vec<([f64; 3], [f64; 3])> = faces
        .iter()
        .map(|e| swept(x, w, c, d, &mut e.nodes().iter().copied(), pad))
        .collect();
    // spatial hash (linear in the surface size), then the swept-box test
    let wmax = w.iter().fold(0.0f64, |m, w| m.max(w.abs()));
    let mut hash = SpatialHash::new(pad + 2.0 * wmax * c.abs());
    let x3: Vec<[f64; 3]> = (0..x.len() / d).map(|a| node_x(x, a, d)).collect();
    hash.rebuild(&x3, faces);
    let mut candidates = Vec::new();
    // a self-contact node does not reach its own side (super::own), judged at x
    let (mut face_normal, mut node_normal) = (Vec::new(), Vec::new());
    if s.own {
        node_normal.resize(x3.len(), [0.0; 3]);
        own::normals(faces, &x3, &mut face_normal, &mut node_normal);
    }
    for (k, &sl) in s.slaves.iter().enumerate() {
        let (slo, shi) = swept(x, w, c, d, &mut std::iter::once(sl), 0.0);
        hash.candidates(x3[sl], &mut candidates);
        if s.own {
            candidates.retain(|&f| !own::own_side(&faces[f], sl, node_normal[sl], face_normal[f]));
        }
        for &f in &candidates {
            let (lo, hi) = &boxes[f];
            if (0..3).all(|i| shi[i] >= lo[i] && slo[i] <= hi[i]) {
                visit(k, f);
            }
        }
    }
}

/// Whether a slave may reach the master in the coming step: for a rigid
/// plane, a slave whose gap at `x`, less its approach over `Δt` at velocity
/// `v`, is within one face size `h`; for master faces, any coupling of
/// [`couplings`] (`couplings`: its result for the same `x`, `v`, `Δt`).
pub fn may_touch(s: &Surface, x: &[f64], v: &[f64], dt: f64, couplings: &[Vec<usize>]) -> bool {
    match &s.master {
        Master::Faces(_) => !couplings.is_empty(),
        Master::Plane { point, normal, .. } => s.slaves.iter().any(|&a| {
            let gap = dot(sub(node_x(x, a, s.dim), *point), *normal);
            let approach = (-dt * dot(node_x(v, a, s.dim), *normal)).max(0.0);
            gap - approach <= s.h
        }),
        Master::Rigid(r) => s
            .slaves
            .iter()
            .any(|&a| r.may_touch(node_x(x, a, s.dim), node_x(v, a, s.dim), s.h)),
    }
}
