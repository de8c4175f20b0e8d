//! Step control: which step size to try next, cut-backs, growth, and landing
//! on output times.
//!
//! A step that fails with a retryable [`StepError`] is retried from the same
//! state with half the size, down to `time.dt_min`, at most
//! `solver.max_cutbacks` times in a row. With `time.adaptive` (the default)
//! the step then grows back: after [`GROW_AFTER`] converged steps it is
//! multiplied by [`GROWTH`], never above `time.dt`; a size that failed is not
//! tried again before [`RETRY_AFTER`] converged steps (so a model that
//! needs half the step does not fail every few steps trying the full one).
//! Without `adaptive` the old rule holds: the rest of the current `dt`
//! interval is finished at the reduced size, then `dt` is tried again.
//!
//! A step whose stepper predicts that a large contact face first touches
//! within it (`StepError::FirstTouch`, [`crate::contact::touch`]) is taken
//! again ending exactly at the touch; that is not a cut-back (counted in
//! `splits`), and [`advance`]'s fixed grid treats it as a failure.
//!
//! A step abandoned on a stop request (`StepError::Interrupted`,
//! [`crate::dynamics::watch`]) leaves the controller as it was before the
//! step, cut-backs of its attempts included, so that a checkpoint written
//! then is one between steps and a restart takes the step again whole.
//!
//! Steps land exactly on the targets: every `dt` without adaptivity, every
//! output time `k · every · dt` with it, and `time.end`; a step is shortened
//! (or the rest split in two, to avoid slivers) to reach them, and the state
//! then carries the target time exactly.

use crate::dynamics::{State, StepError, StepReport, Stepper};
use serde::{Deserialize, Serialize};

/// Converged steps before the step grows.
pub const GROW_AFTER: usize = 3;
/// Growth factor.
pub const GROWTH: f64 = 1.5;
/// Converged steps before a size that failed is tried again.
pub const RETRY_AFTER: usize = 20;
/// A step that would leave less than this fraction of `Δt` before a target
/// (round-off of `k · interval` against `end`, which left a last step of
/// 1e-20 and a second frame at the end time) is stretched to the target.
pub const SLIVER: f64 = 1e-6;

/// The step controller's state (part of a checkpoint).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepControl {
    /// `time.dt`, `time.dt_min`, `time.end`, `time.adaptive`, `solver.max_cutbacks`.
    pub dt: f64,
    pub dt_min: f64,
    pub end: f64,
    pub adaptive: bool,
    pub max_cutbacks: usize,
    /// Time between targets (see the module doc).
    pub interval: f64,
    /// Index of the next target `k · interval`.
    pub next_target: u64,
    /// Size of the next attempt (before clipping to the target).
    pub h: f64,
    /// Converged steps since the last change of `h`.
    pub calm: usize,
    /// Smallest size that failed since the last retry above it.
    pub failed_at: f64,
    /// Rejected attempts (cut-backs) so far, accepted steps, smallest accepted step.
    pub cutbacks: usize,
    pub steps: usize,
    pub smallest: f64,
    /// Steps ended at a predicted first touch ([`crate::contact::touch`]).
    #[serde(default)]
    pub splits: usize,
}

/// What takes the steps the controller sizes: the serial [`Stepper`], and
/// the distributed stepper of the parallel program (`mpi/`).
pub trait Steps {
    /// Advances `s0` by `dt`; on error the stepper's state is as before.
    fn step(&mut self, s0: &State, dt: f64) -> Result<(State, StepReport), StepError>;
}

impl<const D: usize> Steps for Stepper<D> {
    fn step(&mut self, s0: &State, dt: f64) -> Result<(State, StepReport), StepError> {
        Stepper::step(self, s0, dt)
    }
}

/// A step that could not be completed even at the smallest allowed size.
#[derive(Debug)]
pub struct StepFailure {
    pub t: f64,
    pub dt: f64,
    pub cutbacks: usize,
    pub source: StepError,
}

impl StepControl {
    /// The controller at t = 0.
    pub fn new(
        dt: f64,
        dt_min: f64,
        end: f64,
        adaptive: bool,
        max_cutbacks: usize,
        every: usize,
    ) -> StepControl {
        StepControl {
            dt,
            dt_min,
            end,
            adaptive,
            max_cutbacks,
            interval: if adaptive { every as f64 * dt } else { dt },
            next_target: 1,
            h: dt,
            calm: 0,
            failed_at: f64::INFINITY,
            cutbacks: 0,
            steps: 0,
            smallest: f64::INFINITY,
            splits: 0,
        }
    }

    /// Whether `t` has reached the end.
    pub fn done(&self, t: f64) -> bool {
        t >= self.end
    }

    /// The current target time: `k · interval`, or `end` when that is at
    /// most a sliver before it.
    fn target(&self) -> f64 {
        let t = self.next_target as f64 * self.interval;
        if t >= self.end - SLIVER * self.dt {
            self.end
        } else {
            t
        }
    }

    /// Size of the next attempt from `t` with step `h`, and whether it lands
    /// on the target.
    fn clip(&self, t: f64, h: f64) -> (f64, bool) {
        let remaining = self.target() - t;
        if remaining <= h * (1.0 + SLIVER) {
            // within round-off of one step: take h itself (keeps Δt bit-equal
            // to time.dt on the regular grid)
            if (remaining - h).abs() <= 1e-9 * h {
                (h, true)
            } else {
                (remaining, true)
            }
        } else if self.adaptive && remaining < 2.0 * h * (1.0 - 1e-9) {
            (0.5 * remaining, false)
        } else {
            (h, false)
        }
    }

    /// Takes one step from `s0`: attempts, cut-backs on retryable failures.
    /// Returns the new state (its `t` exactly on a target when it landed),
    /// the stepper's report and the size taken.
    pub fn step(
        &mut self,
        stepper: &mut impl Steps,
        s0: &State,
    ) -> Result<(State, StepReport, f64), StepFailure> {
        let before = self.clone();
        let mut h = self.h;
        let mut cuts = 0;
        // a predicted first touch: the next attempt ends there exactly (it
        // lies before the target, and splitting the rest evenly would end
        // the step short of it, outside the band where the impact step
        // starts engaged)
        let mut touch = None;
        loop {
            let (size, lands) = match touch.take() {
                Some(t) => (t, false),
                None => self.clip(s0.t, h),
            };
            match stepper.step(s0, size) {
                Ok((mut s, report)) => {
                    if lands {
                        s.t = self.target();
                        self.next_target += 1;
                    }
                    self.accepted(size, h, cuts > 0, lands);
                    return Ok((s, report, size));
                }
                Err(StepError::FirstTouch { dt, points }) => {
                    // not a failure: the step ends where a large face first
                    // touches (contact::touch), the impact is the next step's
                    log::info!(
                        "step at t = {} with dt = {size:e}: {points} contact points first touch at {dt:e} into it; the step ends there",
                        s0.t
                    );
                    self.splits += 1;
                    touch = Some(dt);
                }
                Err(e @ StepError::Interrupted { .. }) => {
                    *self = before;
                    return Err(StepFailure {
                        t: s0.t,
                        dt: size,
                        cutbacks: cuts,
                        source: e,
                    });
                }
                Err(e) => {
                    // half the size, but not below dt_min (the last cut may be
                    // less than a halving: adaptive sizes are no powers of 2)
                    let next = (0.5 * size).max(self.dt_min);
                    if !e.retryable()
                        || cuts >= self.max_cutbacks
                        || size <= self.dt_min * (1.0 + 1e-12)
                    {
                        return Err(StepFailure {
                            t: s0.t,
                            dt: size,
                            cutbacks: cuts,
                            source: e,
                        });
                    }
                    log::info!(
                        "step at t = {} with dt = {size:e} failed ({e}); retrying with dt = {next:e}",
                        s0.t
                    );
                    self.cutbacks += 1;
                    self.failed_at = self.failed_at.min(size);
                    cuts += 1;
                    h = next;
                }
            }
        }
    }

    /// Book-keeping of an accepted step of `size` (attempted at `h`).
    fn accepted(&mut self, size: f64, h: f64, was_cut: bool, landed: bool) {
        self.steps += 1;
        self.smallest = self.smallest.min(size);
        if !self.adaptive {
            // the rest of the dt interval at the reduced size, then dt again
            self.h = if landed { self.dt } else { h };
            return;
        }
        if was_cut {
            self.h = h;
            self.calm = 0;
            return;
        }
        self.calm += 1;
        if self.h < self.dt && self.calm >= GROW_AFTER {
            let grown = (GROWTH * self.h).min(self.dt);
            if grown < self.failed_at {
                self.h = grown;
                self.calm = 0;
            } else if self.calm >= RETRY_AFTER {
                self.h = grown;
                self.calm = 0;
                self.failed_at = f64::INFINITY;
            }
        }
    }
}

/// One accepted sub-step of [`advance`]: the state it reached, the
/// stepper's report and the sub-step's size.
pub type SubStep = (State, StepReport, f64);

/// Advances by `dt` in `2^k` equal sub-steps, the smallest `k ≤ max_cutbacks`
/// that succeeds (the fixed-grid rule, for benchmarks that step a model by
/// hand); returns the accepted sub-steps and `k`.
pub fn advance<const D: usize>(
    stepper: &mut Stepper<D>,
    s0: &State,
    dt: f64,
) -> Result<(Vec<SubStep>, usize), StepFailure> {
    let max_cut = stepper.params.max_cutbacks;
    let mut last = None;
    for k in 0..=max_cut {
        let m = 1usize << k;
        let h = dt / m as f64;
        let mut out: Vec<SubStep> = Vec::with_capacity(m);
        let mut failed = None;
        for _ in 0..m {
            let cur = out.last().map(|o| &o.0).unwrap_or(s0);
            match stepper.step(cur, h) {
                Ok((s, r)) => out.push((s, r, h)),
                Err(e) => {
                    failed = Some(e);
                    break;
                }
            }
        }
        match failed {
            None => {
                if let Some(o) = out.last_mut() {
                    o.0.t = s0.t + dt;
                }
                return Ok((out, k));
            }
            Some(e) => {
                if k < max_cut {
                    log::info!(
                        "step at t = {} with dt = {:e} failed ({e}); retrying with dt = {:e}",
                        s0.t,
                        h,
                        h / 2.0
                    );
                }
                last = Some((e, h));
            }
        }
    }
    let (source, h) = last.expect("at least one attempt");
    Err(StepFailure {
        t: s0.t,
        dt: h,
        cutbacks: max_cut,
        source,
    })
}
