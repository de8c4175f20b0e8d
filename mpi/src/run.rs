//! A run on several processes: the serial driver's loop (`driver::run`)
//! with the distributed stepper, every rank taking the same steps.

use super::comm::World;
use super::linear::{Linear, LinearSetupError};
use super::local::{LocalError, LocalSystem};
use super::partition::{partition, PartitionError};
use super::petsc::{GhostVec, Petsc, PetscError};
use super::record::{local_state, Recorder, StepOrOutput};
use super::stepper::Distributed;
use emcontact::driver::{
    model_key, outdir, Checkpoint, CheckpointError, OutputDirError, Progress, RunError, RunOptions,
    RunSummary, StepControl,
};
use emcontact::dynamics::{State, StepError};
use emcontact::model::{Integrator, MassKind, Model};
use emcontact::output::{self, OutputError};
use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// Why a parallel run stopped. Input errors (exit 2) stop every rank alike.
#[derive(Debug, thiserror::Error)]
pub enum RunFailure {
    /// The serial driver's error (a model with contact on one process).
    #[error("{0}")]
    Run(#[from] RunError),
    /// The model or the options cannot run in parallel as given.
    #[error("{0}")]
    Input(String),
    #[error("{0}")]
    Petsc(#[from] PetscError),
    #[error("step from t = {t} failed at dt = {dt:e} after {cutbacks} cut-back(s) of this step (no smaller step allowed, or the cut-back limit reached): {source}")]
    StepFailed {
        t: f64,
        dt: f64,
        cutbacks: usize,
        #[source]
        source: StepError,
    },
    #[error("{0}")]
    Step(#[from] StepError),
    #[error("{0}")]
    Output(#[from] OutputError),
}

impl RunFailure {
    /// Whether the input is at fault (exit 2) rather than the computation (exit 1).
    pub fn is_input(&self) -> bool {
        match self {
            RunFailure::Run(e) => e.is_input(),
            RunFailure::Input(_) => true,
            _ => false,
        }
    }
}

impl From<StepOrOutput> for RunFailure {
    fn from(e: StepOrOutput) -> RunFailure {
        match e {
            StepOrOutput::Step(e) => RunFailure::Step(e),
            StepOrOutput::Output(e) => RunFailure::Output(e),
            StepOrOutput::Petsc(e) => RunFailure::Petsc(e),
        }
    }
}

/// What the parallel build cannot run on several ranks yet (every rank
/// decides alike: each holds the whole model).
fn unsupported(model: &Model, ranks: usize) -> Option<String> {
    if !model.contacts.is_empty() && ranks > 1 {
        if let Some(m) = contact_unsupported(model) {
            return Some(format!("{}: {m}", model.source.display()));
        }
    }
    let consistent = model.bodies.iter().any(|b| b.mass == MassKind::Consistent);
    if consistent && matches!(model.time.integrator, Integrator::Newmark { .. }) {
        return Some(format!(
            "{}: Newmark with a consistent mass is not available in the parallel build (its initial acceleration needs a solve with M); use mass = \"lumped\" or the energy-momentum integrator",
            model.source.display()
        ));
    }
    None
}

/// What contact across ranks cannot do yet: the saddle-point path (the
/// condensed one is built, docs/parallel.md) and a consistent mass (the
/// velocity update's solves with `M`). `auto` would take the saddle-point
/// path once the points that may touch reach the policy's crossover, which
/// a model whose pairs have that many slave points may do.
fn contact_unsupported(model: &Model) -> Option<String> {
    use emcontact::model::ContactSystem;
    let crossover = emcontact::dynamics::policy::NewtonPolicy::default().saddle_min_points;
    let points: usize = emcontact::contact::ContactSet::new(model, model.dim)
        .map(|set| {
            set.pairs()
                .iter()
                .filter(|p| p.has_multipliers())
                .map(|p| p.surface().slaves.len())
                .sum()
        })
        .unwrap_or(0);
    let saddle = match model.solver.contact_system {
        ContactSystem::Saddle => true,
        ContactSystem::Auto => points >= crossover,
        ContactSystem::Condensed => false,
    };
    if saddle {
        return Some(format!(
            "[solver] contact_system: the saddle-point contact system is not available on several processes yet (the model has {points} contact points with multipliers; `auto` takes that path from {crossover}); set [solver] contact_system = \"condensed\" to run it on several processes (one solve per contact unknown per Newton iteration), or run it on one process"
        ));
    }
    if model.bodies.iter().any(|b| b.mass == MassKind::Consistent) {
        return Some(
            "contact with a consistent mass is not available on several processes yet (the velocity update solves with M); use mass = \"lumped\", or run it on one process".to_string(),
        );
    }
    None
}

/// Runs `model` on the ranks of `mpirun` (one rank: the same code; a model
/// with contact on one rank: the serial driver).
pub fn run(model: &Model, opts: &RunOptions) -> Result<RunSummary, RunFailure> {
    let world = World::new();
    if let Some(m) = unsupported(model, world.size) {
        return Err(RunFailure::Input(m));
    }
    if !model.contacts.is_empty() && world.size == 1 {
        return Ok(emcontact::driver::run(model, opts)?);
    }
    let petsc = Petsc::initialize()?;
    let result = match model.dim {
        2 => run_dim::<2>(&world, &petsc, model, opts),
        3 => run_dim::<3>(&world, &petsc, model, opts),
        d => unreachable!("input validation admits only dimension 2 or 3, got {d}"),
    };
    drop(petsc);
    result
}

/// Rank 0's outcome of preparing the output folder, on every rank.
fn prepare(world: &World, out: &Path, overwrite: bool) -> Result<(), RunFailure> {
    let mine = if world.is_root() {
        outdir::prepare(out, overwrite)
            .err()
            .map(|e: OutputDirError| e.to_string())
    } else {
        None
    };
    let text = world.broadcast_text(0, mine.as_deref().unwrap_or(""));
    if !text.is_empty() {
        return Err(RunFailure::Input(text));
    }
    Ok(())
}

/// Initial positions and velocities of the local nodes, `v = v_b + ω_b ×
/// (X − X_c,b)` (as `driver::setup`; the centres of mass summed in rank order).
fn initial_motion<const D: usize>(st: &Distributed<D>, model: &Model) -> (Vec<f64>, Vec<f64>) {
    let sys = &st.local.sys;
    let n = sys.n_nodes;
    let mut x = vec![0.0; n * D];
    for a in 0..n {
        x[a * D..a * D + D].copy_from_slice(&sys.xref[a][..D]);
    }
    let bodies = model.bodies.len();
    let mut part = vec![0.0; 4 * bodies];
    for a in 0..st.layout.owned {
        let b = sys.node_body[a];
        if b == usize::MAX {
            continue;
        }
        part[4 * b] += st.local.mass[a];
        for i in 0..3 {
            part[4 * b + 1 + i] += st.local.mass[a] * sys.xref[a][i];
        }
    }
    let sums = st.world.sum(&part);
    let mut v = vec![0.0; n * D];
    for a in 0..n {
        let b = sys.node_body[a];
        if b == usize::MAX {
            continue;
        }
        let m = sums[4 * b];
        let c = [
            sums[4 * b + 1] / m,
            sums[4 * b + 2] / m,
            sums[4 * b + 3] / m,
        ];
        let (w, body) = (model.bodies[b].angular_velocity, &model.bodies[b]);
        let r = [
            sys.xref[a][0] - c[0],
            sys.xref[a][1] - c[1],
            sys.xref[a][2] - c[2],
        ];
        let wxr = [
            w[1] * r[2] - w[2] * r[1],
            w[2] * r[0] - w[0] * r[2],
            w[0] * r[1] - w[1] * r[0],
        ];
        for i in 0..D {
            v[a * D + i] = body.velocity[i] + wxr[i];
        }
    }
    sys.zero_fixed(&mut v);
    (x, v)
}

/// CPU seconds of this process so far (all its threads).
pub fn cpu_seconds() -> f64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    t.tv_sec as f64 + 1e-9 * t.tv_nsec as f64
}

/// Peak resident memory of this process (bytes), from `/proc/self/status`.
pub fn peak_memory() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb * 1024.0)
}

fn setup_error(e: LocalError) -> RunFailure {
    match e {
        LocalError::Setup(s) => RunFailure::Run(RunError::Setup(s)),
        LocalError::Petsc(p) => RunFailure::Petsc(p),
    }
}

fn run_dim<const D: usize>(
    world: &World,
    petsc: &Petsc,
    model: &Model,
    opts: &RunOptions,
) -> Result<RunSummary, RunFailure> {
    let started = Instant::now();
    let out = model.output.dir.clone();
    let layout = partition(world, model).map_err(|e: PartitionError| {
        RunFailure::Input(format!("{}: {e}", model.source.display()))
    })?;
    log::info!(
        "parallel: {} ranks; rank {}: {} elements, {} owned nodes, {} ghosts",
        world.size,
        world.rank,
        layout.elements.len(),
        layout.owned,
        layout.ghosts()
    );
    let mut local = LocalSystem::<D>::new(model, &layout, petsc).map_err(setup_error)?;
    let linear = Linear::new(petsc, model, &layout, &mut local).map_err(|e| match e {
        LinearSetupError::Options(o) => {
            RunFailure::Input(format!("{}: {o}", model.source.display()))
        }
        LinearSetupError::Petsc(p) => RunFailure::Petsc(p),
    })?;
    let ghosts = GhostVec::new(petsc, D, layout.owned, &layout.petsc[layout.owned..])?;
    let mut st = Distributed::<D>::new(world, model, layout, local, linear, ghosts)
        .map_err(RunFailure::Input)?;

    let (mut state, mut control, mut rec) = if opts.restart {
        let cp = Checkpoint::read(&out).map_err(|e| RunFailure::Run(RunError::Checkpoint(e)))?;
        cp.check_model(&model_key(model), &out)
            .map_err(|e: CheckpointError| RunFailure::Run(RunError::Checkpoint(e)))?;
        if cp.state.x.len() != model.mesh.nodes.len() * D {
            return Err(RunFailure::Input(format!(
                "{}: the checkpoint's state is of another size",
                out.display()
            )));
        }
        st.restore_contact(&cp.stepper)
            .map_err(|e| RunFailure::Input(format!("{}: checkpoint: {e}", out.display())))?;
        let state = local_state(&st, &cp.state);
        let mut control = cp.control;
        control.end = model.time.end;
        let rec = Recorder::resume(model, &st, &out, opts.vtk, cp.record)?;
        (state, control, rec)
    } else {
        prepare(world, &out, opts.overwrite)?;
        let (mut x, mut v) = initial_motion(&st, model);
        // prescribed positions hold from t = 0 on, as in `driver::setup`
        st.drive.prescribed.set_positions(0.0, &mut x);
        let a = st.initial_acceleration(&x)?;
        st.drive.prescribed.set_velocities(0.0, &mut v, true);
        let state = State { t: 0.0, x, v, a };
        let t = &model.time;
        let control = StepControl::new(
            t.dt,
            t.dt_min,
            t.end,
            t.adaptive,
            model.solver.max_cutbacks,
            model.output.every,
        );
        let rec = Recorder::create(model, &mut st, &state, &out, opts.vtk)?;
        (state, control, rec)
    };

    let every = model.output.checkpoint_every;
    let by_time = std::time::Duration::from_secs(60 * model.output.checkpoint_minutes as u64);
    let mut last_checkpoint = std::time::Instant::now();
    let lines = opts.progress != Progress::Quiet && world.is_root();
    let mut next_line = state.t + control.end / 20.0;
    let mut residual_histories = Vec::new();
    let mut interrupted = false;
    let result = (|| -> Result<(), RunFailure> {
        while !control.done(state.t) {
            let stop = opts.stop.as_ref().is_some_and(|s| s.load(Ordering::SeqCst));
            if world.first_set(stop).is_some() {
                interrupted = true;
                break;
            }
            let targets = control.next_target;
            let (s1, report, h) =
                control
                    .step(&mut st, &state)
                    .map_err(|f| RunFailure::StepFailed {
                        t: f.t,
                        dt: f.dt,
                        cutbacks: f.cutbacks,
                        source: f.source,
                    })?;
            rec.step(&mut st, &state, &s1, h, &report)?;
            residual_histories.push(report.residual_history);
            state = s1;
            let landed = control.next_target > targets;
            let output_time =
                control.adaptive || (control.next_target - 1) % model.output.every as u64 == 0;
            if landed && output_time || control.done(state.t) {
                rec.frame(&mut st, &state)?;
            }
            // by time: due where any rank's clock says so (collective, so
            // that every rank writes its part)
            let due = model.output.checkpoint_minutes > 0
                && world
                    .first_set(last_checkpoint.elapsed() >= by_time)
                    .is_some();
            if every > 0 && control.steps % every == 0 || due {
                rec.checkpoint(model, &st, &state, &control)?;
                last_checkpoint = std::time::Instant::now();
            }
            if lines && (state.t >= next_line * (1.0 - 1e-12) || control.done(state.t)) {
                next_line += control.end / 20.0;
                println!(
                    "step {}  t = {:.6}  E = {:.12e}  newton {}  cut-backs {}",
                    control.steps,
                    state.t,
                    rec.balance.last.total(),
                    rec.balance.newton_iterations,
                    control.cutbacks
                );
            }
        }
        if interrupted {
            rec.checkpoint(model, &st, &state, &control)?;
        }
        Ok(())
    })();
    let peaks = world.gather(&[peak_memory()]);
    let cpu = world.gather(&[cpu_seconds()]);
    let ls = st.linear.stats;
    log::info!(
        "time: assembly {:.2} s, ghost exchange {:.2} s, linear solves {:.2} s ({} solves, {} factorizations, {} Krylov iterations), run {:.2} s; CPU per rank {} s; peak memory per rank: {}",
        st.timing.assembly,
        st.timing.communication,
        ls.seconds,
        ls.solves,
        ls.factorizations,
        ls.krylov_iterations,
        started.elapsed().as_secs_f64(),
        cpu.iter()
            .map(|c| format!("{c:.1}"))
            .collect::<Vec<_>>()
            .join(", "),
        peaks
            .iter()
            .map(|&b| emcontact::input::budget::human(b))
            .collect::<Vec<_>>()
            .join(", ")
    );
    if opts.plots && world.is_root() {
        if let Err(e) = output::plot_history(&out.join("history.csv"), &out) {
            log::warn!("plots not written: {e}");
        }
    }
    result?;
    Ok(RunSummary::new(
        out,
        &control,
        state.t,
        rec.balance.clone(),
        residual_histories,
        interrupted,
        started.elapsed().as_secs_f64(),
    ))
}
