//! Stopping tests shared by the solvers: tolerance, iteration cap, deadline, and
//! stagnation (no progress over a window of iterations, which ends degenerate
//! problems such as `W = 0` with an infeasible `q` in seconds instead of at the cap).

use std::time::Instant;

use super::{Control, Info, SolveError};

/// How a run of iterations ended.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Status {
    Converged,
    Cap,
    Timeout,
    Stalled { window: usize },
}

/// The end of a run: status, error of the last iterate, iterations done.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Outcome {
    pub status: Status,
    pub error: f64,
    pub iterations: usize,
}

impl Outcome {
    /// The solver's result; `newton_steps` is reported in [`Info`].
    pub fn finish(self, start: Instant, newton_steps: usize) -> Result<Info, SolveError> {
        let Outcome {
            status,
            error,
            iterations,
        } = self;
        match status {
            Status::Converged => Ok(Info {
                iterations,
                newton_steps,
                error,
                seconds: start.elapsed().as_secs_f64(),
            }),
            Status::Cap => Err(SolveError::NoConvergence { error, iterations }),
            Status::Timeout => Err(SolveError::Timeout { error, iterations }),
            Status::Stalled { window } => Err(SolveError::Stalled {
                error,
                iterations,
                window,
            }),
        }
    }
}

/// Progress watch: the best error so far must drop by 1 % at least once every
/// `window` iterations.
#[derive(Debug, Clone)]
pub(crate) struct Watch {
    best: f64,
    best_at: usize,
    window: usize,
}

impl Watch {
    pub fn new(window: usize) -> Self {
        Watch {
            best: f64::INFINITY,
            best_at: 0,
            window: window.max(1),
        }
    }

    /// The status after iteration `it` with error `error` whose round-off floor is
    /// `floor` ([`crate::nonsmooth::error::fclib_error_floor`]), or `None` to go on.
    pub fn check(
        &mut self,
        control: &Control,
        it: usize,
        max_iter: usize,
        error: f64,
        floor: f64,
    ) -> Option<Status> {
        control.report(it, error);
        if error <= control.tol && floor <= control.tol {
            return Some(Status::Converged);
        }
        if error < 0.99 * self.best {
            self.best = error;
            self.best_at = it;
        }
        if it >= max_iter {
            Some(Status::Cap)
        } else if control.timed_out() {
            Some(Status::Timeout)
        } else if it - self.best_at >= control.stall_window.unwrap_or(self.window) {
            Some(Status::Stalled {
                window: control.stall_window.unwrap_or(self.window),
            })
        } else {
            None
        }
    }
}
