//! One slave point of a contact pair, as one record: what it carries from
//! `t_n` ([`Memory`]), the constraint Table 1 puts on it in this step, its
//! multipliers and linearization at the current iterate, and what it did
//! there ([`PointEval`]).
//!
//! The multiplier lifecycle is a set of verbs on this record, called by
//! [`super::ContactSet`] only: [`SlavePoint::begin_step`] (the constraint
//! and the warm start from `t_n`), [`SlavePoint::commit`] (the iterate
//! becomes the state at `t_n`), [`SlavePoint::rollback`] (back to the warm
//! start); enforcement ([`super::enforce`]) writes the multipliers of an
//! iterate, Newton's line search blends two of them
//! ([`super::ContactSet::blend_multipliers`]).

use super::law::Constraint;
use super::point::Linear;
use super::point_eval::{Memory, PointEval};

/// Whether a point takes part in the contact law at the current iterate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Role {
    /// Evaluated against a master face (or the plane) and enforced.
    #[default]
    Enforced,
    /// A second-pass slave whose constraint the first pass holds at this
    /// iterate ([`super::second_pass`]: on a first-pass slave's node at the
    /// step's start, [`super::narrow::on_nodes`]; the shadow rule; or a
    /// subproblem that stalled with both passes), or a first-pass slave a
    /// lifted point that repeats it took the place of: evaluated, without a
    /// multiplier, and enforced again where it penetrates.
    Shadowed,
    /// A shadowed point that penetrated and is enforced again
    /// for the rest of the step ([`super::second_pass::lift`]): a stalled
    /// subproblem keeps it (dropping it again would let it back through and
    /// lift it again, every Newton iteration until the step fails).
    Lifted,
}

/// One slave point (module docs).
#[derive(Debug, Clone)]
pub struct SlavePoint {
    /// Committed state at `t_n`.
    pub(super) memory: Memory,
    /// This step's normal constraint (Table 1, possibly guarded).
    pub(super) constraint: Constraint,
    /// Multipliers at the current iterate (point frame, [`super::law`]).
    pub(super) r: [f64; 3],
    /// Linearization at the current iterate.
    pub(super) lin: Linear,
    /// The point has a master (a held face, or the plane) at the iterate.
    pub(super) evaluated: bool,
    pub(super) role: Role,
    /// A lifted point that took the place of the first-pass point it
    /// repeats most in this step ([`super::second_pass::release_lifted`]).
    pub(super) replaced: bool,
    /// What the point did at the iterate.
    pub(super) eval: PointEval,
}

impl SlavePoint {
    /// A point of tributary area `weight`, never in contact.
    pub(super) fn new(weight: f64) -> SlavePoint {
        SlavePoint {
            memory: Memory::default(),
            constraint: Constraint::Gap,
            r: [0.0; 3],
            lin: Linear::default(),
            evaluated: false,
            role: Role::Enforced,
            replaced: false,
            eval: PointEval::open(weight, Constraint::Gap),
        }
    }

    /// Starts a step: Table 1's constraint from the state at `t_n`, and the
    /// multipliers warm-started from the last step's force.
    pub(super) fn begin_step(&mut self) {
        let m = self.memory;
        self.constraint = if m.in_contact {
            Constraint::Rate
        } else {
            Constraint::Gap
        };
        self.r = self.warm_start();
        self.replaced = false;
        if matches!(self.role, Role::Shadowed | Role::Lifted) {
            self.role = Role::Enforced;
        }
    }

    /// The multipliers a step starts from: the force at `t_n` where the
    /// point was in contact, zero elsewhere.
    fn warm_start(&self) -> [f64; 3] {
        if self.memory.in_contact {
            self.memory.r
        } else {
            [0.0; 3]
        }
    }

    /// Accepts the step: the iterate's state becomes the state at `t_n`.
    pub(super) fn commit(&mut self) {
        self.memory.in_contact = self.eval.active();
        self.memory.r = if self.memory.in_contact {
            self.lin.r
        } else {
            [0.0; 3]
        };
    }

    /// Abandons the step: the multipliers go back to their warm start.
    pub(super) fn rollback(&mut self) {
        self.r = self.warm_start();
    }

    /// Whether the point is evaluated and not beside the master's rim.
    pub(super) fn on_master(&self) -> bool {
        self.evaluated && !self.lin.beside
    }

    /// Whether the point carries a constraint at the iterate.
    pub(super) fn acts(&self) -> bool {
        matches!(self.role, Role::Enforced | Role::Lifted)
    }
}
