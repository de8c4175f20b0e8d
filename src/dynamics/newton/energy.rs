//! The step's energy error at an iterate. The energy-momentum scheme's
//! discrete energy identity (DESIGN §4) holds exactly at a solution of the
//! step; at an iterate with residual `R` the step's energy balance misses
//! by `R · (x₁ − x₀)`. The residual tolerance bounds that only by
//! `tol · scale · ‖x₁ − x₀‖`, about `tol · E` (a relative residual of 1e-10
//! may leave 1e-10 of the energy in a step), so Newton also asks that it be
//! at most [`NewtonPolicy::energy`](super::policy::NewtonPolicy::energy) of
//! the step's energy `E_step`: the kinetic plus strain energy at `t_n`, or
//! the work of one of the step's forces (inertia, internal and contact,
//! external) where that is larger (bodies starting from rest). Where no
//! iteration can do better the iterate is accepted as the residual
//! tolerance alone would: at the residual's round-off floor, or where an
//! iteration from an iterate already within the residual tolerance did not
//! halve the energy error (its round-off on this problem: a ring folded
//! flat between two plates stalled at a relative residual of 5e-11 for 25
//! iterations); and at Newton's iteration limit.
//!
//! The check costs two dot products per iterate; `K_n + Π_n` (an element
//! loop) is computed only where the error exceeds the policy's fraction of
//! the forces' work, once per step.

use super::evaluate::Eval;
use super::StepProblem;
use crate::dynamics::step::{State, StepError};

/// `K_n + Π_n` of the step, computed when first needed, and the energy
/// error of the last iterate within the residual tolerance.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct StepEnergy {
    e_n: Option<f64>,
    last: Option<f64>,
}

impl StepEnergy {
    /// The iterate is outside the residual tolerance (a contact change
    /// moved it): the stall test starts over.
    pub(super) fn left_tolerance(&mut self) {
        self.last = None;
    }
}

/// Whether Newton may stop at `cur`, an iterate within the residual
/// tolerance: its energy error is within the policy's fraction of the
/// step's energy, or no iteration can reduce it (module docs).
pub(super) fn converged<P: StepProblem>(
    pb: &mut P,
    cur: &Eval,
    s0: &State,
    e: &mut StepEnergy,
) -> Result<bool, StepError> {
    let tol = pb.policy().energy;
    let work = cur.work.abs();
    if cur.at_floor() || work <= tol * cur.force_work {
        return Ok(true);
    }
    let e_n = match e.e_n {
        Some(e_n) => e_n,
        None => {
            let e_n = pb.start_energy(s0)?;
            e.e_n = Some(e_n);
            e_n
        }
    };
    if work <= tol * e_n.max(cur.force_work) {
        return Ok(true);
    }
    if e.last.is_some_and(|last| work > 0.5 * last) {
        log::debug!(
            "newton: energy error {work:.3e} ({:.1e} of the step's energy) at its round-off",
            work / e_n.max(cur.force_work)
        );
        return Ok(true);
    }
    e.last = Some(work);
    Ok(false)
}
