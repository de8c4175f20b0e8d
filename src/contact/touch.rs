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
//! the face size left open. Accelerations (gravity) make the faces meet a
//! little earlier than predicted: the margin `s h` keeps the shortened
//! step free of contact for any acceleration that closes less than that
//! margin in the step.

use super::geometry::MAX_NODES;
use super::second_pass::ENGAGED_GAP;
use super::set::ContactSet;

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
    /// The time into a step of `dt` from velocities `v` (positions `t_n`,
    /// the points evaluated there) at which the first pair with multipliers
    /// that has no point in contact or within a quarter face of it touches,
    /// where the policy ends the step there (module docs); `None` where it
    /// does not. Returns the time and the points predicted to touch.
    pub fn first_touch(
        &self,
        v: &[f64],
        dt: f64,
        policy: &TouchPolicy,
    ) -> Option<(f64, usize)> {
        let enforced = || self.pairs.iter().filter(|p| p.has_multipliers());
        if enforced().map(|p| p.points.len()).sum::<usize>() < policy.min_points {
            return None;
        }
        let mut nodes = [0usize; MAX_NODES];
        let (mut first, mut touching) = (f64::INFINITY, 0);
        for p in enforced() {
            let (h, d) = (p.surface.h, p.surface.dim);
            let engaged = p.points.iter().any(|q| {
                q.memory.in_contact || (q.on_master() && q.lin.g1 < ENGAGED_GAP * h)
            });
            if engaged {
                continue;
            }
            for (k, q) in p.points.iter().enumerate().filter(|(_, q)| q.on_master()) {
                let n = p.element_nodes(k, &mut nodes);
                let rate: f64 = (0..n)
                    .flat_map(|a| (0..d).map(move |i| (a, i)))
                    .map(|(a, i)| q.lin.h[0][a * d + i] * v[nodes[a] * d + i])
                    .sum();
                if rate >= 0.0 {
                    continue;
                }
                let t = (q.lin.g1 - policy.gap * h) / -rate;
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
