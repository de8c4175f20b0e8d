//! The run driver: set up, step, record, checkpoint, finish.
//!
//! `dynamics` is the integrator (one step: Newton, contact, velocity update);
//! this module is everything around it: the step control (cut-backs and
//! adaptive growth, [`control`]), the output files ([`record`]), checkpoints
//! and restarts ([`mod@checkpoint`]), and stopping cleanly on SIGINT/SIGTERM
//! (the caller's `stop` flag, seen between steps and by the step in
//! progress, which it abandons: [`crate::dynamics::watch`]).

pub mod balance;
pub mod checkpoint;
pub mod contact_budget;
pub mod control;
pub mod fingerprint;
mod frame;
pub mod intrusion;
pub mod ledger;
pub mod outdir;
pub mod preflight;
mod progress;
pub mod record;
mod setup;

pub use balance::Balance;
pub use checkpoint::{Checkpoint, CheckpointError, ModelKey, CHECKPOINT_FILE};
pub use control::{advance, StepControl, StepFailure, Steps, SubStep};
pub use frame::{
    nodal_stress_average, nodal_stress_sums, write_frame, write_piece, CELL_FIELDS, CONTACT_FIELDS,
    NODAL_SUM_WIDTH, POINT_FIELDS, REACTION_FIELD,
};
pub use outdir::OutputDirError;
pub use record::{Recorder, BODY_COLUMNS, CONTACT_COLUMNS, HISTORY_COLUMNS, REACTION_COLUMNS};
pub use setup::setup;

use crate::contact::overlap::OverlapError;
use crate::contact::ContactSetupError;
use crate::dynamics::forces::ForceProbe;
use crate::dynamics::system::SetupError;
use crate::dynamics::{Measures, RestoreError, State, StepError, Stepper};
use crate::linalg::LinearSolveError;
use crate::model::Model;
use crate::output::{self, OutputError};
use intrusion::Intruders;
use progress::ProgressReport;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// How a run reports progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    /// A progress bar (for a terminal).
    Bar,
    /// About twenty plain lines on stdout (for pipes and logs).
    Lines,
    /// Nothing.
    Quiet,
}

/// Options of a run that are not part of the model.
#[derive(Debug, Clone)]
pub struct RunOptions {
    pub progress: Progress,
    /// Write VTK frames (tests may turn them off).
    pub vtk: bool,
    /// Write the PNG plots at the end.
    pub plots: bool,
    /// Replace an earlier run's files in the output folder (else refuse).
    pub overwrite: bool,
    /// Continue from the checkpoint in the output folder.
    pub restart: bool,
    /// Set (by a signal handler) to stop: the step in progress is abandoned,
    /// the checkpoint of the last one completed written, and the plots.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            progress: Progress::Quiet,
            vtk: true,
            plots: true,
            overwrite: false,
            restart: false,
            stop: None,
        }
    }
}

/// What a run measured.
#[derive(Debug, Clone, PartialEq)]
pub struct RunSummary {
    pub out_dir: PathBuf,
    /// Accepted steps (all of them, also those before a restart).
    pub steps: usize,
    /// Rejected attempts: steps cut back to half their size.
    pub cutbacks: usize,
    /// Steps ended where a large contact face first touches
    /// ([`crate::contact::touch`]), not counted as cut-backs.
    pub touch_splits: usize,
    /// Smallest step taken.
    pub smallest_dt: f64,
    pub final_time: f64,
    pub initial: Measures,
    pub last: Measures,
    /// `max_n |E_n + D_n − W_n − E_0| / max_n max(K_n + Π_n, |W_n|, D_n)`
    /// (`D` the frictional work so far, `W` the work of external forces
    /// other than gravity, whose potential is part of `E`): independent of
    /// the potential's zero.
    pub max_energy_drift: f64,
    /// Total frictional work `Σ Δt w j D` and velocity-update defect.
    pub dissipation: f64,
    pub update_defect: f64,
    /// Largest penetration of an active contact point at a converged step.
    pub max_penetration: f64,
    /// The momentum ledger: `max_n |L_n − L_0 − I_n|` (`I` the external
    /// impulse so far, zero for a free model) over the momentum scale
    /// `max_n max(|L_n|, Σ_A |(Mv)_A|, the step's impulse size)`.
    pub max_linear_drift: f64,
    /// The same for `J` about the origin.
    pub max_angular_drift: f64,
    pub newton_iterations: usize,
    /// Every step's Newton residual history in this process (for tests of
    /// the convergence rate).
    pub residual_histories: Vec<Vec<f64>>,
    /// The conservation report and its verdict line.
    pub balance: Balance,
    /// Stopped early by the `stop` flag (a checkpoint was written).
    pub interrupted: bool,
    pub seconds: f64,
}

impl RunSummary {
    /// The summary of a run that ended at `final_time` with the step
    /// control `control` and the balance `b`.
    pub fn new(
        out_dir: PathBuf,
        control: &StepControl,
        final_time: f64,
        b: Balance,
        residual_histories: Vec<Vec<f64>>,
        interrupted: bool,
        seconds: f64,
    ) -> RunSummary {
        RunSummary {
            out_dir,
            steps: control.steps,
            cutbacks: control.cutbacks,
            touch_splits: control.splits,
            smallest_dt: control.smallest,
            final_time,
            initial: b.initial,
            last: b.last,
            max_energy_drift: b.relative_drift(),
            dissipation: b.dissipation,
            update_defect: b.defect,
            max_penetration: b.max_penetration,
            max_linear_drift: b.linear_drift(),
            max_angular_drift: b.angular_drift(),
            newton_iterations: b.newton_iterations,
            residual_histories,
            balance: b,
            interrupted,
            seconds,
        }
    }

    /// The lines printed at the end of a run: steps, cut-backs, smallest
    /// step, conservation and the verdict.
    pub fn report(&self) -> Vec<String> {
        let touch = match self.touch_splits {
            0 => String::new(),
            n => format!(", {n} ended at a first touch"),
        };
        let mut lines = vec![format!(
            "{} steps to t = {} ({} cut-backs{touch}, smallest step {:.4e}), {} Newton iterations, {:.2} s; output in {}",
            self.steps,
            self.final_time,
            self.cutbacks,
            self.smallest_dt,
            self.newton_iterations,
            self.seconds,
            self.out_dir.display()
        )];
        lines.extend(self.balance.report());
        lines
    }
}

/// Why a run stopped early. Every file written before is kept.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("setting up the model: {0}")]
    Setup(#[from] SetupError),
    #[error("{0}")]
    Linear(#[from] LinearSolveError),
    #[error("contact: {0}")]
    Contact(#[from] ContactSetupError),
    #[error("{0}")]
    Overlap(#[from] OverlapError),
    #[error("step from t = {t} failed at dt = {dt:e} after {cutbacks} cut-back(s) of this step (no smaller step allowed, or the cut-back limit reached): {source}")]
    StepFailed {
        t: f64,
        dt: f64,
        cutbacks: usize,
        #[source]
        source: StepError,
    },
    #[error("{0}")]
    Output(#[from] OutputError),
    #[error("{0}")]
    OutputDir(#[from] OutputDirError),
    #[error("restart: {0}")]
    Checkpoint(#[from] CheckpointError),
    #[error("restart: {dir}: {source}")]
    Restore {
        dir: PathBuf,
        #[source]
        source: RestoreError,
    },
}

impl RunError {
    /// Whether the input (model, output folder, checkpoint) is at fault
    /// rather than the computation: exit code 2 rather than 1.
    pub fn is_input(&self) -> bool {
        matches!(
            self,
            RunError::Setup(_)
                | RunError::Contact(_)
                | RunError::Overlap(_)
                | RunError::OutputDir(_)
                | RunError::Checkpoint(_)
                | RunError::Restore { .. }
                | RunError::Linear(LinearSolveError::TooLarge { .. })
        )
    }
}

impl From<StepFailure> for RunError {
    fn from(f: StepFailure) -> RunError {
        RunError::StepFailed {
            t: f.t,
            dt: f.dt,
            cutbacks: f.cutbacks,
            source: f.source,
        }
    }
}

/// Runs `model`, writing into `model.output.dir`.
pub fn run(model: &Model, opts: &RunOptions) -> Result<RunSummary, RunError> {
    match model.dim {
        2 => run_dim::<2>(model, opts),
        3 => run_dim::<3>(model, opts),
        d => unreachable!("input validation admits only dimension 2 or 3, got {d}"),
    }
}

/// What identifies `model` in a checkpoint.
pub fn model_key(model: &Model) -> ModelKey {
    ModelKey {
        name: model.name.clone(),
        dim: model.dim,
        nodes: model.mesh.nodes.len(),
        bodies: model.bodies.iter().map(|b| b.name.clone()).collect(),
        contacts: model.contacts.len(),
        keys: fingerprint::fingerprint(model),
    }
}

/// The step controller of a new run.
fn new_control(model: &Model) -> StepControl {
    let t = &model.time;
    StepControl::new(
        t.dt,
        t.dt_min,
        t.end,
        t.adaptive,
        model.solver.max_cutbacks,
        model.output.every,
    )
}

/// A fresh start, or the state of the checkpoint in the output folder.
fn start<const D: usize>(
    model: &Model,
    opts: &RunOptions,
    out: &Path,
) -> Result<(Stepper<D>, State, StepControl, Recorder), RunError> {
    let (mut stepper, state) = setup::<D>(model)?;
    if !opts.restart {
        outdir::prepare(out, opts.overwrite)?;
        let mut rec = Recorder::create(model, &stepper, &state, out, opts.vtk)?;
        rec.balance.last_force = ledger::initial_force(&stepper, &state);
        return Ok((stepper, state, new_control(model), rec));
    }
    let cp = Checkpoint::read(out)?;
    cp.check_model(&model_key(model), out)?;
    stepper
        .restore(&cp.stepper)
        .map_err(|source| RunError::Restore {
            dir: out.to_path_buf(),
            source,
        })?;
    let mut control = cp.control;
    control.end = model.time.end;
    let rec = Recorder::resume(model, &stepper, out, opts.vtk, cp.record)?;
    Ok((stepper, cp.state.into(), control, rec))
}

fn checkpoint<const D: usize>(
    model: &Model,
    stepper: &Stepper<D>,
    state: &State,
    control: &StepControl,
    rec: &Recorder,
    out: &Path,
) -> Result<(), OutputError> {
    Checkpoint {
        version: checkpoint::CHECKPOINT_VERSION,
        model: model_key(model),
        state: state.into(),
        stepper: stepper.snapshot(),
        control: control.clone(),
        record: rec.snapshot(),
    }
    .write(out)
}

fn run_dim<const D: usize>(model: &Model, opts: &RunOptions) -> Result<RunSummary, RunError> {
    run_keeping::<D>(model, opts).map(|(summary, ..)| summary)
}

/// [`run`] in dimension `D`, returning with the summary the stepper and the
/// last state (the contact set of the last step, for a caller that examines
/// it, as the tests of the Coulomb law at first contact do).
pub fn run_keeping<const D: usize>(
    model: &Model,
    opts: &RunOptions,
) -> Result<(RunSummary, Stepper<D>, State), RunError> {
    let started = Instant::now();
    let out = model.output.dir.clone();
    let (mut stepper, mut state, mut control, mut rec) = start::<D>(model, opts, &out)?;
    let mut probe = ForceProbe::new(model);
    let mut intruders = Intruders::new(model, &model.mesh, &stepper.contacts);
    intruders.found.clone_from(&rec.balance.intrusions);
    let progress = ProgressReport::new(opts.progress, &control, state.t);
    stepper.set_watch(crate::dynamics::watch::Watch {
        stop: opts.stop.clone(),
        on_iteration: progress.iteration_hook(),
    });
    let mut residual_histories = Vec::new();
    let mut interrupted = false;
    let every = model.output.checkpoint_every;
    let by_time = std::time::Duration::from_secs(60 * model.output.checkpoint_minutes as u64);
    let mut last_checkpoint = Instant::now();

    let result = (|| -> Result<(), RunError> {
        while !control.done(state.t) {
            if opts.stop.as_ref().is_some_and(|s| s.load(Ordering::SeqCst)) {
                interrupted = true;
                break;
            }
            let targets = control.next_target;
            let (s1, report, h) = match control.step(&mut stepper, &state) {
                Err(f) if matches!(f.source, StepError::Interrupted { .. }) => {
                    log::info!("step from t = {} abandoned: {}", state.t, f.source);
                    interrupted = true;
                    break;
                }
                r => r?,
            };
            let forces = probe.evaluate(&stepper, &state, &s1, h).map_err(|source| {
                RunError::StepFailed {
                    t: state.t,
                    dt: h,
                    cutbacks: 0,
                    source,
                }
            })?;
            let taken = ledger::TakenStep {
                s0: &state,
                s1: &s1,
                dt: h,
                forces: &forces,
                report: &report,
            };
            let owed = ledger::step(model, &stepper, &taken, rec.balance.last_force);
            for line in intruders.check(&s1.x, D, s1.t, &stepper.contacts) {
                log::warn!("penetration: {line}");
            }
            rec.balance.intrusions.clone_from(&intruders.found);
            rec.step(
                &stepper,
                &model.gravity,
                &state,
                &s1,
                h,
                &report,
                &forces,
                &owed,
            )?;
            residual_histories.push(report.residual_history);
            state = s1;
            let landed = control.next_target > targets;
            if landed && is_output_time(&control, model) || control.done(state.t) {
                rec.frame(&stepper, &state)?;
            }
            let due = model.output.checkpoint_minutes > 0 && last_checkpoint.elapsed() >= by_time;
            if every > 0 && control.steps % every == 0 || due {
                checkpoint(model, &stepper, &state, &control, &rec, &out)?;
                last_checkpoint = Instant::now();
            }
            progress.update(&control, &state, &rec);
        }
        if interrupted {
            checkpoint(model, &stepper, &state, &control, &rec, &out)?;
        }
        Ok(())
    })();
    progress.finish();
    let ls = stepper.lu.stats();
    log::info!(
        "time: factorization {:.2} s ({} factorizations, {} of the contact block alone, symbolic {:.2} s), linear solves {:.2} s ({} right-hand sides, {} of them on the contact block alone, {} Krylov iterations), assembly {:.2} s, contact {:.2} s, contact subproblems {:.2} s, run {:.2} s; linear solver {:?}",
        ls.factor_seconds,
        ls.factorizations,
        ls.trailing_refactorizations,
        ls.symbolic_seconds,
        ls.solve_seconds,
        ls.solves,
        ls.trailing_solves,
        ls.krylov_iterations,
        stepper.timing.assembly,
        stepper.timing.contact,
        stepper.timing.subproblem,
        started.elapsed().as_secs_f64(),
        stepper.lu.plan().method
    );
    if opts.plots {
        // Plots are written even after a failure: they show what was computed.
        if let Err(e) = output::plot_history(&out.join("history.csv"), &out) {
            log::warn!("plots not written: {e}");
        }
    }
    result?;
    let summary = RunSummary::new(
        out,
        &control,
        state.t,
        rec.balance.clone(),
        residual_histories,
        interrupted,
        started.elapsed().as_secs_f64(),
    );
    Ok((summary, stepper, state))
}

/// Whether the target just reached is an output time (frames every
/// `every · dt`; without adaptivity the targets are every `dt`).
fn is_output_time(control: &StepControl, model: &Model) -> bool {
    if control.adaptive {
        return true;
    }
    (control.next_target - 1) % model.output.every as u64 == 0
}
