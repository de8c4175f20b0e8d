//! A step whose velocity update leaves an energy defect.
//!
//! The velocity update of Love & Laursen 2003 (§3.3–3.5; [`crate::contact::update`])
//! gives each pressed point an impulse `κ_l w j G^l` that makes the step's
//! energy exact: `F_l(κ) = 0` at every point. A point whose quadratic has no
//! admissible root, with no other point that can take its energy back, is
//! left with `F_l ≠ 0`, and the sum is the step's *update defect*: energy
//! created or lost that the run would report in `update_defect`. Such a
//! point is one whose contact changed more within the step than one impulse
//! can correct (typically a point released while still pressed, or pushed
//! out from a drifted gap), so a shorter step is the remedy: the stepper
//! rejects the step as [`StepError::UpdateDefect`] (retryable) and the run
//! cuts it back. A completed run then has no update defect.
//!
//! Round-off leaves defects of 1e-16 to 1e-22 of the energy (the validation
//! cases: at most 1e-15 E₀); a step is rejected where
//! `|defect| > DEFECT_TOL · E_step`, `E_step` the larger of the kinetic plus
//! strain energies at `t_n` and `t_{n+1}`, plus the step's contact work
//! `Σ_l |c_l|` (the terms the defect is the round-off of, should they be
//! larger: a body at rest under gravity has little kinetic and strain
//! energy; gravity's potential itself is left out, its datum is arbitrary).

use super::step::{State, StepError, Stepper};
use crate::contact::update::UpdateOutcome;

/// Largest update defect of an accepted step, relative to the step's energy.
pub const DEFECT_TOL: f64 = 1e-12;

/// The velocity update of a step left more than [`DEFECT_TOL`] of the energy.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error(
    "the velocity update could not restore {defect:.3e} of energy ({:.1e} of the step's energy scale {scale:.4e}; {unsolved} contact point(s) without an admissible impulse{})",
    defect.abs() / scale,
    node.map(|n| format!(", the first at slave node {n}")).unwrap_or_default()
)]
pub struct Defect {
    /// `Σ F_l(κ)` (positive: energy gained) and the step's energy scale
    /// (module docs).
    pub defect: f64,
    pub scale: f64,
    /// Points left without an admissible root, and the slave node of the first.
    pub unsolved: usize,
    pub node: Option<usize>,
}

/// `Err(UpdateDefect)` where the update `u`'s defect is above round-off
/// (module docs), with the kinetic energies `k0`, `k1` at `t_n` and
/// `t_{n+1}` (the updated velocities), and the strain energies at both
/// ends from `strains` where the rest is too small.
pub fn judge(
    u: &UpdateOutcome,
    (k0, k1): (f64, f64),
    strains: impl FnOnce() -> Result<(f64, f64), StepError>,
) -> Result<(), StepError> {
    let d = u.defect.abs();
    if d == 0.0 || d <= DEFECT_TOL * (k0.max(k1) + u.work) {
        return Ok(());
    }
    let (s0, s1) = strains()?;
    let scale = (k0 + s0).max(k1 + s1) + u.work;
    if d <= DEFECT_TOL * scale {
        return Ok(());
    }
    Err(StepError::UpdateDefect(Defect {
        defect: u.defect,
        scale,
        unsolved: u.unsolved,
        node: u.node,
    }))
}

impl<const D: usize> Stepper<D> {
    /// `Err(UpdateDefect)` where the update's defect is above round-off
    /// (module docs); `v1` are the updated velocities.
    pub(super) fn check_defect(
        &mut self,
        s0: &State,
        x1: &[f64],
        v1: &[f64],
        u: &UpdateOutcome,
    ) -> Result<(), StepError> {
        if u.defect == 0.0 {
            return Ok(());
        }
        let k0 = self.kinetic(&s0.v);
        let k1 = self.kinetic(v1);
        let sys = &self.sys;
        judge(u, (k0, k1), || {
            Ok((sys.strain_energy(&s0.x)?, sys.strain_energy(x1)?))
        })
    }

    /// `½ v·M v` (the scratch `mv` holds `M v` afterwards).
    pub(super) fn kinetic(&mut self, v: &[f64]) -> f64 {
        self.sys.mass_times(v, &mut self.mv);
        0.5 * v.iter().zip(&self.mv).map(|(a, b)| a * b).sum::<f64>()
    }
}
