//! Active-set ping-pong in a Newton solve.
//!
//! Newton on the contact problem is semismooth: near the solution the set of
//! active points settles and the iteration converges quadratically. Where the
//! step is too large for its contact (an impact resolved in one step, a
//! slave crossing a kink of the master), a point can instead go back and
//! forth between open and in contact from one iterate to the next, and the
//! residual jumps with it. Such a Newton rarely converges within its
//! iteration limit, and where it does, it converged by chance on one of the
//! alternatives. [`ActiveSet`] counts, for every point of the enforced
//! pairs, how often its state flipped between open and active over the
//! iterates of one step (Newton corrections and contact restarts alike); a
//! point that flipped [`MAX_FLIPS`] times is going back and forth, and the
//! step is rejected as [`super::StepError::ActiveSetCycling`], which the
//! run cuts back. A converged iterate is never rejected. Flips in the
//! [`ROLE_RECORDS`] iterates after a change of the contact points' roles
//! (the second pass's shadow and lift rules) made close to a solution
//! answer a change of the constraints, not a cycle, and are not counted;
//! far from it (a second pass left out at Newton 2) they are the
//! iteration's own, and counted.

use super::policy::NewtonPolicy;
use crate::contact::{ContactSet, PointView};

/// Flips of one point's state (open ↔ active) within one step after which
/// Newton counts as cycling: five flips are two and a half back-and-forths.
/// Measured over the 4107 converged steps of the friction-blocks, golf-ball
/// and ring-impact validation runs: 2623 flipped no point, 1428 one point
/// once, 54 at most twice (it touches, is released as the faces settle, and
/// touches again), one three times and one four (both in the golf ball's
/// Newmark run); the block landing over a table's edge
/// (`tests/contact_dynamics.rs`) has a step with four as well. Newton
/// solves that failed to converge in 25 iterations flipped a point 17
/// times (the block thrown over the edge, `tests/step_rejections.rs`) and
/// 7 (a disk at Δt = 0.2 with augmented-Lagrangian enforcement), and are
/// rejected after 7 and 11 iterations instead.
pub const MAX_FLIPS: u8 = 5;

/// Iterates after a change of roles whose flips are not counted: a role
/// change (a second-pass point shadowed or lifted, a first-pass point it
/// repeats shadowed, the second pass left out,
/// [`crate::contact::second_pass`]) changes the constraints themselves,
/// and the points around it open or close in answer over the next two
/// iterates (the iterate it is evaluated at, and the next correction's).
/// Counted, they rejected the 16²×12 scaling model's first contact at
/// Newton 12, three iterations before it converged (decision record
/// `active-set-ping-pong.md`, 2026-11-29). Only changes made at an iterate
/// close to a solution (within the settle residual) open the window: the
/// 44²×6 landing leaves its second pass out at Newton 2 (relative
/// residual 0.16) and then diverges, and not counting the flips after that
/// let the attempt run on past Newton 6 instead of being cut back at 5.
/// Roles change at most a few times in a step, so the iteration limit
/// still ends a step that does not converge.
pub const ROLE_RECORDS: u8 = 2;

/// A point that flipped [`MAX_FLIPS`] times: its pair (index in the
/// contact set) and slave index in it, and the flips.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cycling {
    pub pair: usize,
    pub point: usize,
    pub flips: u8,
}

/// The active set of the last iterate and the flips of every point of the
/// enforced pairs since the step began.
#[derive(Debug, Default)]
pub struct ActiveSet {
    last: Vec<bool>,
    /// Whether the point carried a multiplier at the last iterate (its
    /// role: not shadowed, [`crate::contact::second_pass`]).
    acts: Vec<bool>,
    /// Records left whose flips follow a change of roles (not counted).
    after_roles: u8,
    flips: Vec<u8>,
    started: bool,
    /// Most flips of any point so far.
    pub most: u8,
    /// Points that flipped at the last [`ActiveSet::record`].
    pub changed: usize,
}

impl ActiveSet {
    /// A tracker for one step of `c`'s pairs.
    pub fn new(c: &ContactSet) -> ActiveSet {
        let n = c.points().count();
        ActiveSet {
            last: vec![false; n],
            acts: vec![true; n],
            after_roles: 0,
            flips: vec![0; n],
            started: false,
            most: 0,
            changed: 0,
        }
    }

    /// Records the states of the iterate just evaluated; returns the first
    /// point that has now flipped `max_flips` times.
    /// `near`: the iterate the roles may have changed at (the one corrected,
    /// or the one settled) was within [`NewtonPolicy::settle_residual`].
    pub fn record(&mut self, c: &ContactSet, policy: &NewtonPolicy, near: bool) -> Option<Cycling> {
        let max_flips = policy.max_flips;
        let mut found = None;
        self.changed = 0;
        let mut roles = false;
        for (i, pt) in c.points().enumerate() {
            roles |= pt.acts != self.acts[i];
            self.acts[i] = pt.acts;
        }
        if self.started && roles && near {
            self.after_roles = policy.role_records;
        }
        let counted = self.after_roles == 0;
        self.after_roles = self.after_roles.saturating_sub(1);
        for (i, pt) in c.points().enumerate() {
            let active = pt.enforced && pt.eval.active();
            if self.started && active != self.last[i] {
                self.changed += 1;
                let way = if active { "closes" } else { "opens" };
                if counted {
                    found = found.or(self.count_flip(i, &pt, way, max_flips));
                } else {
                    let (pass, node) = (pt.pass, pt.node);
                    log::trace!(
                        "active set: pass {pass} node {node} {way} after a change of roles"
                    );
                }
            }
            self.last[i] = active;
        }
        self.started = true;
        found
    }

    /// Counts a flip of point `i` (`pt`, which `way`s); returns it as
    /// cycling once it has flipped `max_flips` times.
    fn count_flip(
        &mut self,
        i: usize,
        pt: &PointView,
        way: &str,
        max_flips: u8,
    ) -> Option<Cycling> {
        self.flips[i] = self.flips[i].saturating_add(1);
        log::trace!(
            "active set: pass {} node {} {way} (flip {}): p_N {:.3e}, g {:.3e}",
            pt.pass,
            pt.node,
            self.flips[i],
            pt.eval.p,
            pt.eval.g1
        );
        self.most = self.most.max(self.flips[i]);
        (self.flips[i] >= max_flips).then_some(Cycling {
            pair: pt.pair,
            point: pt.point,
            flips: self.flips[i],
        })
    }
}
