//! What a run shows while it runs ([`Progress`]): a bar on a terminal or
//! about twenty plain lines when piped, one per `end / 20` of simulated
//! time; and within a step that has run longer than
//! [`ProgressReport::LONG_STEP`], its Newton iterations (a contact step of
//! a large model can take an hour, docs/performance.md: without them a
//! working run looks hung).

use super::control::StepControl;
use super::record::Recorder;
use super::Progress;
use crate::dynamics::watch::{IterationHook, IterationNote};
use crate::dynamics::State;
use std::sync::Arc;

/// Progress bar or lines.
pub(super) struct ProgressReport {
    mode: Progress,
    bar: Option<indicatif::ProgressBar>,
    end: f64,
    line_every: f64,
    next_line: std::cell::Cell<f64>,
}

impl ProgressReport {
    /// Seconds (wall clock) after which a step's Newton iterations are
    /// shown: a step of the validation models takes well under a second,
    /// one of a 10⁵-dof contact model minutes; below this a line per
    /// iteration would only bury the step lines.
    pub const LONG_STEP: f64 = 30.0;

    pub fn new(mode: Progress, control: &StepControl, t0: f64) -> ProgressReport {
        let bar = (mode == Progress::Bar).then(|| {
            let b = indicatif::ProgressBar::new(1000);
            b.set_style(
                indicatif::ProgressStyle::with_template("{bar:40} t = {msg}  eta {eta}")
                    .expect("valid template"),
            );
            b
        });
        ProgressReport {
            mode,
            bar,
            end: control.end,
            line_every: control.end / 20.0,
            next_line: std::cell::Cell::new(t0 + control.end / 20.0),
        }
    }

    /// The hook that shows a long step's Newton iterations (none when quiet):
    /// on the bar's message, or a line each on stdout.
    pub fn iteration_hook(&self) -> Option<IterationHook> {
        let bar = self.bar.clone();
        match self.mode {
            Progress::Quiet => None,
            _ => Some(Arc::new(move |n: &IterationNote| {
                if n.elapsed < Self::LONG_STEP {
                    return;
                }
                match &bar {
                    Some(b) => b.set_message(format!(
                        "{:.4}  step from {:.6}: newton {} ({:.0} s)",
                        n.t0 + n.dt,
                        n.t0,
                        n.iteration,
                        n.elapsed
                    )),
                    None => println!("{}", iteration_line(n)),
                }
            })),
        }
    }

    pub fn update(&self, control: &StepControl, s: &State, rec: &Recorder) {
        if let Some(b) = &self.bar {
            b.set_position((1000.0 * s.t / self.end) as u64);
            b.set_message(format!("{:.4}  step {}", s.t, control.steps));
        } else if self.mode == Progress::Lines
            && (s.t >= self.next_line.get() * (1.0 - 1e-12) || control.done(s.t))
        {
            self.next_line.set(self.next_line.get() + self.line_every);
            println!(
                "step {}  t = {:.6}  E = {:.12e}  newton {}  cut-backs {}",
                control.steps,
                s.t,
                rec.balance.last.total(),
                rec.balance.newton_iterations,
                control.cutbacks
            );
        }
    }

    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

/// The plain line of one Newton iteration of a long step.
pub fn iteration_line(n: &IterationNote) -> String {
    format!(
        "  step from t = {:.6} (dt = {:.3e}): newton {}, relative residual {:.2e}, contact law {:.2e} of its tolerance, {:.0} s",
        n.t0, n.dt, n.iteration, n.residual, n.contact_law, n.elapsed
    )
}
