//! The step's energy error at an iterate. The energy-momentum scheme's
//! discrete energy identity (DESIGN §4) holds exactly at a solution of the
//! step; at an iterate with residual `R` the step's energy balance misses
//! by `R · (x₁ − x₀)`. The residual tolerance bounds that only by
//! `tol · scale · ‖x₁ − x₀‖`, about `tol · E` (a relative residual of 1e-10
//! may leave 1e-10 of the energy in a step), so Newton also asks that it be
//! at most [`NewtonPolicy::energy`](super::policy::NewtonPolicy::energy) of
//! the step's energy `E_step`: the kinetic plus strain energy at `t_n`, or
//! the work of one of the step's forces (inertia, internal and contact,
//! external) where that is larger (bodies starting from rest). Where the
//! residual is at its round-off floor no iteration can do better and the
//! iterate is accepted.
//!
//! The check costs two dot products per iterate; `K_n + Π_n` (an element
//! loop) is computed only where the error exceeds the policy's fraction of
//! the forces' work, once per step.

use super::evaluate::Eval;
use crate::dynamics::step::{State, StepError, Stepper};

/// `K_n + Π_n` of the step, computed when first needed.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct StepEnergy(Option<f64>);

impl<const D: usize> Stepper<D> {
    /// Whether the step's energy error at `cur` is within the policy's
    /// fraction of the step's energy (module docs).
    pub(super) fn energy_converged(
        &mut self,
        cur: &Eval,
        s0: &State,
        e: &mut StepEnergy,
    ) -> Result<bool, StepError> {
        let tol = self.policy.energy;
        if cur.at_floor() || cur.work.abs() <= tol * cur.force_work {
            return Ok(true);
        }
        let e_n = match e.0 {
            Some(e_n) => e_n,
            None => {
                let e_n = self.kinetic(&s0.v) + self.sys.strain_energy(&s0.x)?;
                e.0 = Some(e_n);
                e_n
            }
        };
        Ok(cur.work.abs() <= tol * e_n.max(cur.force_work))
    }
}
