//! Divergence: a Newton solve whose corrections keep making its iterate
//! worse is rejected at once, not at the iteration limit.
//!
//! A correction *worsens* the iterate where both the relative residual and
//! the contact law's violation grew through it and the law is violated at
//! the new iterate (beyond its tolerance): the bodies' balance and the
//! contact conditions both moved away from a solution. One such correction
//! is harmless (a semismooth Newton overshoots an impact and comes back).
//! Where
//! [`NewtonPolicy::diverging`](super::policy::NewtonPolicy::diverging)
//! corrections in a row worsen it, the solve is rejected as
//! [`StepError::Diverging`](crate::dynamics::StepError::Diverging) and the
//! run cuts the step back at once: going on to the iteration limit costs a
//! factorization per correction for nothing, which on a large contact
//! model is hours before the same cut-back. A law within its tolerance
//! never counts, so neither the round-off wander of a converged residual
//! nor a solve without multipliers (no contact, the penalty law) can
//! trigger it. Measured in docs/decisions/newton-policy.md.

/// Corrections in a row that worsened the iterate (module docs).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Divergence {
    worsened: usize,
}

impl Divergence {
    /// Records a correction that took the iterate from `before` to `after`,
    /// each `(relative residual, contact law in tolerances)`; returns how
    /// many corrections in a row have now worsened it.
    pub fn record(&mut self, before: (f64, f64), after: (f64, f64)) -> usize {
        let worse = after.0 > before.0 && after.1 > before.1 && after.1 > 1.0;
        self.worsened = if worse { self.worsened + 1 } else { 0 };
        self.worsened
    }

    /// Whether `limit` corrections in a row worsened the iterate (0: never).
    pub fn diverged(&self, limit: usize) -> bool {
        limit > 0 && self.worsened >= limit
    }
}

#[cfg(test)]
mod tests {
    use super::Divergence;

    #[test]
    fn only_consecutive_corrections_that_worsen_both_measures_count() {
        let mut d = Divergence::default();
        // the residual grew, the law fell: not worse
        assert_eq!(d.record((2.5e-2, 1.2e8), (1.2e-1, 6.9e7)), 0);
        assert_eq!(d.record((1.2e-1, 6.9e7), (3.7e-1, 2.1e10)), 1);
        assert!(!d.diverged(2));
        assert_eq!(d.record((3.7e-1, 2.1e10), (7.2e-1, 1.2e12)), 2);
        assert!(d.diverged(2));
        assert!(!d.diverged(0), "0 disables the test");
        // an improving correction starts the count again
        assert_eq!(d.record((7.2e-1, 1.2e12), (1e-2, 1e6)), 0);
        assert!(!d.diverged(2));
    }

    #[test]
    fn a_law_within_its_tolerance_never_counts() {
        let mut d = Divergence::default();
        // round-off wander of a converged iterate
        for k in 0..5 {
            let r = 1e-13 * (k + 1) as f64;
            assert_eq!(
                d.record((r, 0.1 * k as f64), (2.0 * r, 0.1 * (k + 1) as f64)),
                0
            );
        }
        assert!(!d.diverged(1));
    }
}
