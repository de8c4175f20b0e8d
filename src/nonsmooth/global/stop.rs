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
/// `window` iterations — unless the error is still descending, slowly but steadily:
/// it fell over no fewer than [`STEADY_SHARE`] of the iterations since the last 1 %
/// drop (counted in iterations between evaluations, not in evaluations, because the
/// solvers evaluate more often while the error rises).
/// Then the watch waits up to [`LONG_WINDOWS`] windows. A Gauss–Seidel iterate can
/// drift along a nearly flat direction for thousands of sweeps, the error falling by
/// parts per million per sweep, until a contact changes status and the error drops
/// by orders of magnitude (Capsules-i100-1090: NSGS-AC's error falls from 1.1584e-7
/// to 1.1583e-7 over sweeps 600–4,000, then reaches 4e-10 at sweep 4,578, as in
/// Siconos); a cycling or stuck iteration rises about as often as it falls, or stays
/// equal, and is stopped after one window.
#[derive(Debug, Clone)]
pub(crate) struct Watch {
    best: f64,
    best_at: usize,
    window: usize,
    last: f64,
    last_at: usize,
    /// Iterations since the last 1 % drop over which the error fell.
    falling: usize,
}

/// Share of the iterations since the last 1 % drop over which the error must have
/// fallen for a descent to count as steady (see [`Watch`]).
pub(crate) const STEADY_SHARE: f64 = 0.75;
/// A steady descent is followed up to this many stall windows after the last 1 % drop.
pub(crate) const LONG_WINDOWS: usize = 4;

impl Watch {
    pub fn new(window: usize) -> Self {
        Watch {
            best: f64::INFINITY,
            best_at: 0,
            window: window.max(1),
            last: f64::INFINITY,
            last_at: 0,
            falling: 0,
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
            self.falling = 0;
        } else if error < self.last {
            self.falling += it.saturating_sub(self.last_at.max(self.best_at));
        }
        self.last = error;
        self.last_at = it;
        let window = control.stall_window.unwrap_or(self.window);
        let since = it - self.best_at;
        let steady = self.falling as f64 >= STEADY_SHARE * since as f64;
        if it >= max_iter {
            Some(Status::Cap)
        } else if control.timed_out() {
            Some(Status::Timeout)
        } else if since >= window && !(steady && since < LONG_WINDOWS * window) {
            Some(Status::Stalled { window: since })
        } else {
            None
        }
    }
}
