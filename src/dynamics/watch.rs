//! What the caller of a step watches while the step runs: a stop request
//! that abandons the step in progress, and a note after every Newton
//! correction. A contact step of a large model can take an hour (the
//! 10⁴-point member of the scaling family, docs/performance.md); waiting
//! for its end to honour Ctrl-C, or showing nothing until then, would make
//! a working run look hung. Neither changes a computed figure: an
//! abandoned step is rolled back as a failed attempt is
//! ([`crate::contact::ContactSet::rollback`]) and taken again, whole, by a
//! restart.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// One Newton correction of a step in progress.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IterationNote {
    /// The step's start time and size.
    pub t0: f64,
    pub dt: f64,
    /// Corrections taken in this attempt (1-based).
    pub iteration: usize,
    /// The relative residual the correction reached.
    pub residual: f64,
    /// The largest violation of the contact law, in its tolerances.
    pub contact_law: f64,
    /// Seconds since the attempt's Newton solve began (wall clock).
    pub elapsed: f64,
}

/// Receives an [`IterationNote`] after every Newton correction.
pub type IterationHook = Arc<dyn Fn(&IterationNote) + Send + Sync>;

/// The caller's view of a running step.
#[derive(Clone, Default)]
pub struct Watch {
    /// Set (by a signal handler) to abandon the step in progress: Newton
    /// looks at it before every correction, the saddle-point path's inner
    /// iteration before every linear solve.
    pub stop: Option<Arc<AtomicBool>>,
    pub on_iteration: Option<IterationHook>,
}

impl Watch {
    /// A stop was requested.
    pub fn stop_requested(&self) -> bool {
        self.stop.as_ref().is_some_and(|s| s.load(Ordering::SeqCst))
    }

    /// Passes `note` to the hook, if any.
    pub fn note(&self, note: &IterationNote) {
        if let Some(hook) = &self.on_iteration {
            hook(note);
        }
    }
}

impl std::fmt::Debug for Watch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watch")
            .field("stop", &self.stop)
            .field("on_iteration", &self.on_iteration.is_some())
            .finish()
    }
}
