//! Which step failures the run's step control may retry with a smaller step.
//!
//! Kept beside [`StepError`] on purpose: the match below is exhaustive (no
//! wildcard), so every new variant must be classified here before it compiles.

use super::step::StepError;

impl StepError {
    /// Whether a smaller step may succeed where this one failed. The driver
    /// cuts a retryable failure back (halves the step) and stops the run on
    /// any other. Every failure of today's stepper is a property of the step
    /// size: Newton's convergence radius (it did not converge, or diverged),
    /// an element inverted by too large an increment, a matrix made singular
    /// by it, a contact subproblem that a larger inertia term
    /// (`c_M M ∝ 1/Δt²`) makes better conditioned, a slave that passed
    /// through the master surface in one step (a shorter step ends it within
    /// the narrow phase's reach of the face), a Newton whose active set
    /// cycles, a velocity update that cannot restore a point's energy (both:
    /// more happens in the step than its linearization and one impulse per
    /// point can follow). A stop request is not retried: the run stops.
    pub fn retryable(&self) -> bool {
        match self {
            StepError::NoConvergence { .. } => true,
            StepError::Diverging { .. } => true,
            StepError::Element(_) => true,
            StepError::Linear(_) => true,
            StepError::NonFinite => true,
            StepError::Contact(_) => true,
            StepError::Enforcement(_) => true,
            StepError::Tunnelling(_) => true,
            StepError::ActiveSetCycling { .. } => true,
            StepError::UpdateDefect(_) => true,
            StepError::FirstTouch { .. } => true,
            StepError::Interrupted { .. } => false,
        }
    }
}
