//! The first touch of a contact pair within a step: when, predicted from
//! the state at `t_n`, the bodies of a pair not yet in contact meet.
//!
//! A step in which a large contact face closes from a distance (the scaling
//! family's flat landing: a gap of 0.03, more than a face size, closed at
//! 1 m/s in a step of 0.05) resolves the approach and the impact in one
//! Newton solve that starts with the bodies apart: its first correction
//! switches every point of the face at once, the second pass is judged at an
//! iterate still far from contact, and from about 2,000 points on the
//! attempt cycles and is cut back, costing more than the step it fails
//! (docs/decisions/first-touch.md). Started with the faces touching, the
//! same impact converges in 5 Newton iterations. So such a step ends where
//! the faces are predicted to touch, and the impact is the next step's.
//!
//! The prediction is first order: each point's gap `g` at `t_n` and its
//! rate `ġ = H_N · v_n` (the normal operator of its face, `v_N < 0` while
//! approaching), the touch at `(g − s h)/(−ġ)` where `s h` is a fraction of
//! the face size left open. The face is the narrow phase's at `t_n`, or
//! for a slave it found none for (it looks two face sizes out) the
//! closest face the broad phase lets the slave reach in the step.
//! Accelerations (gravity) make the faces meet a little earlier than
//! predicted: the margin `s h` keeps the shortened step free of contact
//! for any acceleration that closes less than that margin in the step.

use super::broad::{self, node_x};
use super::geometry::{project, project_unclamped, Kinematics, MAX_FACE_NODES, MAX_NODES};
use super::pair::Pair;
use super::second_pass::ENGAGED_GAP;
use super::set::ContactSet;
use super::surface::{Master, Surface};
use crate::mesh::Element;

/// When a step is ended at a pair's first touch (module docs); the
/// defaults' reasons are in `docs/decisions/first-touch.md`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TouchPolicy {
    /// Only where at least this many points of pairs with multipliers are
    /// predicted to touch within the step: below it (the validation runs,
    /// the scaling family to 32², every first contact with under 1,400
    /// points measured) the whole step converges without a cut-back.
    /// `usize::MAX` switches the rule off.
    pub min_points: usize,
    /// The gap left at the predicted touch, as a fraction of the slave
    /// face size: inside the band (a quarter face) where the second pass
    /// judges a first-pass point engaged at the next step's start.
    pub gap: f64,
    /// The step is ended only where the touch is predicted after this
    /// fraction of it (an earlier touch leaves little to gain) and before
    /// `latest` of it (a touch near the end is this step's; a step ended at
    /// its predicted touch predicts the touch at its own end and is taken).
    pub earliest: f64,
    pub latest: f64,
}

impl Default for TouchPolicy {
    fn default() -> Self {
        TouchPolicy {
            min_points: 1_500,
            gap: 0.1,
            earliest: 0.1,
            latest: 0.9,
        }
    }
}

impl ContactSet {
    /// The time into a step of `dt` from positions `x` and velocities `v`
    /// at `t_n` (the points evaluated there) at which the first pair with
    /// multipliers that has no point in contact or within a quarter face of
    /// it touches, where the policy ends the step there (module docs);
    /// `None` where it does not. Returns the time and the points predicted
    /// to touch.
    pub fn first_touch(
        &self,
        x: &[f64],
        v: &[f64],
        dt: f64,
        policy: &TouchPolicy,
    ) -> Option<(f64, usize)> {
        let enforced = || self.pairs.iter().filter(|p| p.has_multipliers());
        if enforced().map(|p| p.points.len()).sum::<usize>() < policy.min_points {
            return None;
        }
        let (mut first, mut touching) = (f64::INFINITY, 0);
        for p in enforced().filter(|p| !engaged(p)) {
            for t in touch_times(p, x, v, dt, policy.gap * p.surface.h) {
                if t < dt {
                    touching += 1;
                    first = first.min(t);
                }
            }
        }
        let ends = touching >= policy.min_points
            && first >= policy.earliest * dt
            && first <= policy.latest * dt;
        ends.then_some((first, touching))
    }
}

/// Whether a point of `p` is in contact at `t_n` or within a quarter face
/// of it.
fn engaged(p: &Pair) -> bool {
    let h = p.surface.h;
    p.points
        .iter()
        .any(|q| q.memory.in_contact || (q.on_master() && q.lin.g1 < ENGAGED_GAP * h))
}

/// Each approaching slave's predicted time to come within `open` of the
/// master in a step of `dt` (infinite where it does not approach): from
/// its evaluation at `t_n` where the narrow phase found it a face; where
/// it found none, against master faces, from the closest face the broad
/// phase says it may reach in the step. (The narrow phase looks two face
/// sizes out: a fine face closing a wider gap in one step, 90² slaves of
/// size 1/90 over a gap of 0.03, has no slave evaluated at `t_n`.) A slave
/// beside the master's rim has a face and no touch.
fn touch_times(p: &Pair, x: &[f64], v: &[f64], dt: f64, open: f64) -> Vec<f64> {
    let s = &p.surface;
    let mut nodes = [0usize; MAX_NODES];
    let mut times: Vec<Option<f64>> = (p.points.iter().enumerate())
        .map(|(k, q)| {
            q.on_master().then(|| {
                let n = p.element_nodes(k, &mut nodes);
                let rate: f64 = (0..n * s.dim)
                    .map(|i| q.lin.h[0][i] * v[nodes[i / s.dim] * s.dim + i % s.dim])
                    .sum();
                approach(q.lin.g1 - open, rate)
            })
        })
        .collect();
    if let Master::Faces(faces) = &s.master {
        let mut closest: Vec<Option<(f64, usize)>> = vec![None; times.len()];
        broad::swept_pairs(s, x, v, dt, s.h, |k, f| {
            if p.points[k].evaluated {
                return;
            }
            let e = &faces[f];
            let xs = node_x(x, s.slaves[k], s.dim);
            let xm = face_x(e, x, s.dim);
            let dist = project(e.kind, &xm[..e.nodes().len()], xs).distance;
            if closest[k].is_none_or(|(best, _)| dist < best) {
                closest[k] = Some((dist, f));
            }
        });
        for (k, c) in closest.iter().enumerate() {
            if let Some((_, f)) = c {
                times[k] = face_touch(s, &faces[*f], x, v, k, open);
            }
        }
    }
    times.into_iter().flatten().collect()
}

/// The time to close a gap `g` at the normal rate `rate` (`< 0` closing).
fn approach(g: f64, rate: f64) -> f64 {
    if rate < 0.0 {
        g / -rate
    } else {
        f64::INFINITY
    }
}

/// The positions of face `e`'s nodes in `x` (dimension `d`): the first
/// `e.nodes().len()` entries.
fn face_x(e: &Element, x: &[f64], d: usize) -> [[f64; 3]; MAX_FACE_NODES] {
    let mut xm = [[0.0; 3]; MAX_FACE_NODES];
    for (p, &a) in xm.iter_mut().zip(e.nodes()) {
        *p = node_x(x, a, d);
    }
    xm
}

/// Slave `k`'s time to come within `open` of face `e`, from its gap and
/// normal rate against the face at `x` (the operators of DESIGN §5 at
/// `t_n`), the face extended beyond its edges as the narrow phase extends
/// it for a slave not over it yet: a slave beside the face is then
/// approached along the face's normal, not along the line to its edge (a
/// block sliding over the slave while it lands would otherwise be predicted
/// to touch it sideways, early); `None` for a degenerate face.
fn face_touch(s: &Surface, e: &Element, x: &[f64], v: &[f64], k: usize, open: f64) -> Option<f64> {
    let (d, a, n) = (s.dim, s.slaves[k], e.nodes().len());
    let (xm, xs) = (face_x(e, x, d), node_x(x, a, d));
    let xm = &xm[..n];
    let beyond = project_unclamped(e.kind, xm, xs, project(e.kind, xm, xs).xi);
    let kin = Kinematics::new(e.kind, xm, xs, &beyond, None).ok()?;
    let mut w = [[0.0; 3]; MAX_NODES];
    for (wb, &b) in w.iter_mut().zip(std::iter::once(&a).chain(e.nodes())) {
        *wb = node_x(v, b, d);
    }
    Some(approach(kin.gap - open, kin.normal_rate(&w[..=n])))
}
