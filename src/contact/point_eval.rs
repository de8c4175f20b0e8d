//! What a contact point carries from `t_n` ([`Memory`]) and what it did at
//! the current iterate ([`PointEval`]): its face, state (Table 1 of Love &
//! Laursen 2003), gap, midpoint rates and tractions, for the output, the
//! statistics and the velocity update. Sign conventions as in [`super::law`]:
//! `g > 0` open, `p ≥ 0` pressing, `v_n` the midpoint normal rate.

use super::law::{Constraint, PointState};

/// A point's state carried from `t_n`.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Memory {
    /// In contact at `t_n`.
    pub in_contact: bool,
    /// Its force vector `r` (point frame, see [`super::law`]).
    pub r: [f64; 3],
}

/// What one slave node did at the current iterate (for output, statistics
/// and the velocity update).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PointEval {
    /// Master face (index into the pair's faces); `None` for the plane or
    /// when no face is near.
    pub face: Option<usize>,
    pub state: PointState,
    pub constraint: Constraint,
    /// Gap at `n+1`.
    pub g1: f64,
    /// Midpoint normal rate and contravariant tangential rates.
    pub v_n: f64,
    pub v_t: [f64; 2],
    /// Pressure and covariant tangential traction `t_α` (midpoint basis).
    pub p: f64,
    pub t: [f64; 2],
    /// Tangential traction as a spatial vector and the slip speed `‖v_T‖`.
    pub traction: [f64; 3],
    pub slip_rate: f64,
    /// Tributary area `w j`.
    pub weight: f64,
    /// Beside the master's rim (open whatever its gap, see
    /// [`super::narrow::beside_rim`]).
    pub beside: bool,
}

impl PointEval {
    pub(super) fn open(weight: f64, constraint: Constraint) -> PointEval {
        PointEval {
            face: None,
            state: PointState::Open,
            constraint,
            g1: f64::INFINITY,
            v_n: 0.0,
            v_t: [0.0; 2],
            p: 0.0,
            t: [0.0; 2],
            traction: [0.0; 3],
            slip_rate: 0.0,
            weight,
            beside: false,
        }
    }

    pub fn active(&self) -> bool {
        self.state.active()
    }
    pub fn slip(&self) -> bool {
        self.state == PointState::Slip
    }

    /// Contact power per unit area `p_N v_N + t_α v^α_T` (≤ 0 when contact
    /// takes energy out).
    pub fn power(&self) -> f64 {
        self.p * self.v_n + self.t[0] * self.v_t[0] + self.t[1] * self.v_t[1]
    }

    /// Frictional dissipation per unit area `D = −t_α v^α` in slip, 0 in stick.
    pub fn dissipation_rate(&self) -> f64 {
        if self.state == PointState::Slip {
            -(self.t[0] * self.v_t[0] + self.t[1] * self.v_t[1])
        } else {
            0.0
        }
    }
}
