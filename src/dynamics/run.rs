//! The time loop: initial state, steps with cut-back, histories, VTK frames, plots.

use super::measures::{measure, measure_bodies, Measures};
use super::step::{State, StepError, StepReport, Stepper};
use super::system::{SetupError, System};
use crate::contact::{ContactSet, ContactSetupError};
use crate::fe::kernel;
use crate::linalg::LinearSolveError;
use crate::model::Model;
use crate::output::{self, CsvWriter, Field, Frame, OutputError, Pvd};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The leading columns of `history.csv` (a contract: scripts read them by name).
pub const HISTORY_COLUMNS: [&str; 24] = [
    "t",
    "dt",
    "kinetic",
    "strain",
    "gravity",
    "total",
    "external_work",
    "lx",
    "ly",
    "lz",
    "jx",
    "jy",
    "jz",
    "newton_iterations",
    "residual",
    "dissipation",
    "update_defect",
    "active",
    "stick",
    "slip",
    "max_penetration",
    "augmentations",
    "linear_scale",
    "angular_scale",
];

/// Columns of `bodies.csv` (one row per step and body; `j` and `w` about the
/// body's centre of mass `x, y, z`).
pub const BODY_COLUMNS: [&str; 16] = [
    "t", "body", "kinetic", "strain", "lx", "ly", "lz", "jx", "jy", "jz", "x", "y", "z", "wx",
    "wy", "wz",
];

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
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            progress: Progress::Quiet,
            vtk: true,
            plots: true,
        }
    }
}

/// What a completed run measured.
#[derive(Debug, Clone, PartialEq)]
pub struct RunSummary {
    pub out_dir: PathBuf,
    pub steps: usize,
    /// Steps that had to be subdivided.
    pub cutbacks: usize,
    pub final_time: f64,
    pub initial: Measures,
    pub last: Measures,
    /// `max_n |E_n + D_n − E_0| / E_0`, `D_n` the frictional work dissipated so far
    /// (without friction: `max_n |E_n − E_0| / E_0`).
    pub max_energy_drift: f64,
    /// Total frictional work `Σ Δt w j D` and velocity-update defect.
    pub dissipation: f64,
    pub update_defect: f64,
    /// Largest penetration of an active contact point at a converged step.
    pub max_penetration: f64,
    /// `max_n |L_n − L_0| / max(|L_0|, Σ_A |(Mv)_A|)`.
    pub max_linear_drift: f64,
    /// `max_n |J_n − J_0| / max(|J_0|, Σ_A |x_A × (Mv)_A|)`.
    pub max_angular_drift: f64,
    pub newton_iterations: usize,
    /// Every step's Newton residual history (kept for tests of convergence rate).
    pub residual_histories: Vec<Vec<f64>>,
    pub seconds: f64,
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
    #[error("step from t = {t} failed even at dt = {dt:e} after {cutbacks} cut-backs: {source}")]
    StepFailed {
        t: f64,
        dt: f64,
        cutbacks: usize,
        #[source]
        source: StepError,
    },
    #[error("{0}")]
    Output(#[from] OutputError),
}

/// Runs `model`, writing into `model.output.dir`.
pub fn run(model: &Model, opts: &RunOptions) -> Result<RunSummary, RunError> {
    match model.dim {
        2 => run_dim::<2>(model, opts),
        3 => run_dim::<3>(model, opts),
        d => unreachable!("input validation admits only dimension 2 or 3, got {d}"),
    }
}

/// Initial positions and velocities: `v = v_b + ω_b × (X − X_c,b)` per body.
fn initial_motion<const D: usize>(sys: &System<D>, model: &Model) -> (Vec<f64>, Vec<f64>) {
    let n = sys.n_nodes;
    let mut x = vec![0.0; n * D];
    for a in 0..n {
        x[a * D..a * D + D].copy_from_slice(&sys.xref[a][..D]);
    }
    let mut v = vec![0.0; n * D];
    for (b, body) in model.bodies.iter().enumerate() {
        let (mut m, mut c) = (0.0, [0.0; 3]);
        for a in (0..n).filter(|&a| sys.node_body[a] == b) {
            m += sys.lumped[a];
            for i in 0..3 {
                c[i] += sys.lumped[a] * sys.xref[a][i];
            }
        }
        c.iter_mut().for_each(|ci| *ci /= m);
        let w = body.angular_velocity;
        for a in (0..n).filter(|&a| sys.node_body[a] == b) {
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
    }
    (x, v)
}

/// Advances by `dt`, halving up to `max_cutbacks` times; returns the accepted
/// sub-steps (state, report, sub-step size) and how many halvings were needed.
pub fn advance<const D: usize>(
    stepper: &mut Stepper<D>,
    s0: &State,
    dt: f64,
) -> Result<(Vec<(State, StepReport, f64)>, usize), RunError> {
    let max_cut = stepper.params.max_cutbacks;
    let mut last = None;
    for k in 0..=max_cut {
        let m = 1usize << k;
        let h = dt / m as f64;
        let mut out: Vec<(State, StepReport, f64)> = Vec::with_capacity(m);
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
    Err(RunError::StepFailed {
        t: s0.t,
        dt: h,
        cutbacks: max_cut,
        source,
    })
}

fn relative_drift(a: &[f64; 3], b: &[f64; 3], scale: f64) -> f64 {
    let d = ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt();
    if scale > 0.0 {
        d / scale
    } else {
        d
    }
}

fn norm3(a: &[f64; 3]) -> f64 {
    (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt()
}

/// Writes one VTK frame: reference coordinates, `displacement` and `velocity`
/// point data, `stress` (Cauchy, 9 components), `strain_energy_density` and
/// `body` cell data.
fn write_frame<const D: usize>(
    sys: &System<D>,
    contacts: &ContactSet,
    state: &State,
    path: &Path,
) -> Result<(), OutputError> {
    let n = sys.n_nodes;
    let mut disp = vec![0.0; n * 3];
    let mut vel = vec![0.0; n * 3];
    for a in 0..n {
        for i in 0..D {
            disp[a * 3 + i] = state.x[a * D + i] - sys.xref[a][i];
            vel[a * 3 + i] = state.v[a * D + i];
        }
    }
    let cells: Vec<_> = sys.elements.iter().map(|e| e.element).collect();
    let per_cell: Vec<([f64; 9], f64)> = sys
        .elements
        .par_iter()
        .map(|be| {
            let nodes = be.element.nodes();
            let mut xr = [[0.0; 3]; 8];
            let mut xc = [[0.0; 3]; 8];
            for (k, &a) in nodes.iter().enumerate() {
                xr[k] = sys.xref[a];
                xc[k][..D].copy_from_slice(&state.x[a * D..a * D + D]);
            }
            let k = nodes.len();
            match kernel::cell_stress::<D>(
                be.element.kind,
                &sys.materials[be.body],
                &xr[..k],
                &xc[..k],
            ) {
                Ok((s, w)) => {
                    let mut out = [0.0; 9];
                    for i in 0..3 {
                        for j in 0..3 {
                            out[i * 3 + j] = s[(i, j)];
                        }
                    }
                    (out, w)
                }
                Err(_) => ([f64::NAN; 9], f64::NAN),
            }
        })
        .collect();
    let stress: Vec<f64> = per_cell.iter().flat_map(|c| c.0).collect();
    let energy: Vec<f64> = per_cell.iter().map(|c| c.1).collect();
    let body: Vec<f64> = sys.elements.iter().map(|e| e.body as f64).collect();
    let points = &sys.xref;
    // contact fields on slave nodes (NaN gap where a node is no slave or has no
    // master face near; state 0 open, 1 stick, 2 slip)
    let mut gap = vec![f64::NAN; n];
    let mut pressure = vec![0.0; n];
    let mut traction = vec![0.0; n * 3];
    let mut slip_rate = vec![0.0; n];
    let mut cstate = vec![0.0; n];
    for c in &contacts.pairs {
        for (k, ev) in c.evals.iter().enumerate() {
            let a = c.surface.slaves[k];
            gap[a] = if ev.g1.is_finite() { ev.g1 } else { f64::NAN };
            if ev.active() {
                pressure[a] = ev.p;
                traction[a * 3..a * 3 + 3].copy_from_slice(&ev.traction);
                slip_rate[a] = ev.slip_rate;
                cstate[a] = if ev.slip() { 2.0 } else { 1.0 };
            }
        }
    }
    let mut point_data = vec![
        Field {
            name: "displacement",
            components: 3,
            values: &disp,
        },
        Field {
            name: "velocity",
            components: 3,
            values: &vel,
        },
    ];
    if !contacts.is_empty() {
        point_data.extend([
            Field {
                name: "contact_gap",
                components: 1,
                values: &gap,
            },
            Field {
                name: "contact_pressure",
                components: 1,
                values: &pressure,
            },
            Field {
                name: "contact_traction",
                components: 3,
                values: &traction,
            },
            Field {
                name: "contact_slip_rate",
                components: 1,
                values: &slip_rate,
            },
            Field {
                name: "contact_state",
                components: 1,
                values: &cstate,
            },
        ]);
    }
    output::write_vtu(
        path,
        &Frame {
            points,
            cells: &cells,
            point_data: &point_data,
            cell_data: &[
                Field {
                    name: "stress",
                    components: 9,
                    values: &stress,
                },
                Field {
                    name: "strain_energy_density",
                    components: 1,
                    values: &energy,
                },
                Field {
                    name: "body",
                    components: 1,
                    values: &body,
                },
            ],
        },
    )
}

struct Recorder {
    history: CsvWriter,
    bodies: CsvWriter,
    body_names: Vec<String>,
    /// Cumulative frictional work and velocity-update defect.
    dissipation: f64,
    defect: f64,
    pvd: Option<Pvd>,
    out: PathBuf,
    name: String,
    frames: usize,
}

impl Recorder {
    fn row(&mut self, t: f64, dt: f64, m: &Measures, r: &StepReport) -> Result<(), OutputError> {
        self.dissipation += r.dissipation;
        self.defect += r.update_defect;
        self.history.row(&[
            t,
            dt,
            m.kinetic,
            m.strain,
            m.gravity,
            m.total(),
            0.0,
            m.linear[0],
            m.linear[1],
            m.linear[2],
            m.angular[0],
            m.angular[1],
            m.angular[2],
            r.iterations as f64,
            r.residual,
            self.dissipation,
            self.defect,
            r.active as f64,
            r.stick as f64,
            r.slip as f64,
            r.max_penetration,
            r.augmentations as f64,
            m.linear_scale,
            m.angular_scale,
        ])
    }

    fn body_rows<const D: usize>(
        &mut self,
        sys: &System<D>,
        s: &State,
        mv: &[f64],
    ) -> Result<(), OutputError> {
        let rows = measure_bodies(sys, &s.x, &s.v, mv, self.body_names.len()).map_err(|e| {
            OutputError::Format {
                file: self.out.join("bodies.csv"),
                message: e.to_string(),
            }
        })?;
        for (name, m) in self.body_names.iter().zip(rows) {
            self.bodies.row_with_text(1, name, &m.row(s.t))?;
        }
        Ok(())
    }

    fn frame<const D: usize>(
        &mut self,
        sys: &System<D>,
        contacts: &ContactSet,
        s: &State,
    ) -> Result<(), OutputError> {
        if let Some(pvd) = self.pvd.as_mut() {
            let file = format!("{}_{:05}.vtu", self.name, self.frames);
            write_frame(sys, contacts, s, &self.out.join(&file))?;
            pvd.add(s.t, &file)?;
            self.frames += 1;
        }
        Ok(())
    }
}

/// The stepper of `model` (system, integrator, contact pairs) and its state at
/// t = 0.
pub fn setup<const D: usize>(model: &Model) -> Result<(Stepper<D>, State), RunError> {
    let sys = System::<D>::new(model)?;
    let (x0, v0) = initial_motion(&sys, model);
    let mut stepper = Stepper::new(sys, model.time.integrator, model.solver, model.gravity)?;
    stepper.contacts = ContactSet::new(model, D)?;
    stepper.dump_contact = model.output.contact_problems.clone();
    let state = stepper
        .initial_state(x0, v0)
        .map_err(|source| RunError::StepFailed {
            t: 0.0,
            dt: 0.0,
            cutbacks: 0,
            source,
        })?;
    Ok((stepper, state))
}

fn run_dim<const D: usize>(model: &Model, opts: &RunOptions) -> Result<RunSummary, RunError> {
    let started = Instant::now();
    let (mut stepper, mut state) = setup::<D>(model)?;

    let out = model.output.dir.clone();
    std::fs::create_dir_all(&out).map_err(|source| OutputError::Io {
        file: out.clone(),
        source,
    })?;
    let mut rec = Recorder {
        history: CsvWriter::create(&out.join("history.csv"), &HISTORY_COLUMNS)?,
        bodies: CsvWriter::create(&out.join("bodies.csv"), &BODY_COLUMNS)?,
        body_names: model.bodies.iter().map(|b| b.name.clone()).collect(),
        dissipation: 0.0,
        defect: 0.0,
        pvd: opts
            .vtk
            .then(|| Pvd::new(&out.join(format!("{}.pvd", model.name)))),
        out: out.clone(),
        name: model.name.clone(),
        frames: 0,
    };
    let n = stepper.sys.n_dofs();
    let mut mv = vec![0.0; n];
    let measure_state = |stepper: &Stepper<D>, s: &State, mv: &mut [f64]| {
        measure(&stepper.sys, &s.x, &s.v, &model.gravity, mv).map_err(|e| RunError::StepFailed {
            t: s.t,
            dt: 0.0,
            cutbacks: 0,
            source: e.into(),
        })
    };
    let m0 = measure_state(&stepper, &state, &mut mv)?;
    rec.row(0.0, 0.0, &m0, &StepReport::default())?;
    rec.body_rows(&stepper.sys, &state, &mv)?;
    rec.frame(&stepper.sys, &stepper.contacts, &state)?;

    let dt = model.time.dt;
    let n_steps = ((model.time.end / dt) - 1e-9).ceil().max(1.0) as usize;
    let bar = match opts.progress {
        Progress::Bar => {
            let b = indicatif::ProgressBar::new(n_steps as u64);
            b.set_style(
                indicatif::ProgressStyle::with_template(
                    "{bar:40} {pos}/{len} steps  t = {msg}  eta {eta}",
                )
                .expect("valid template"),
            );
            Some(b)
        }
        _ => None,
    };
    let line_every = (n_steps / 20).max(1);

    let e0 = m0.total();
    // Drifts are relative to the initial norms; where those vanish (a body at
    // rest hit by another, J = 0 by symmetry) to the size of the initial motion.
    let l0 = norm3(&m0.linear).max(m0.linear_scale);
    let j0 = norm3(&m0.angular).max(m0.angular_scale);
    let mut summary = RunSummary {
        out_dir: out.clone(),
        steps: 0,
        cutbacks: 0,
        final_time: 0.0,
        initial: m0,
        last: m0,
        max_energy_drift: 0.0,
        dissipation: 0.0,
        update_defect: 0.0,
        max_penetration: 0.0,
        max_linear_drift: 0.0,
        max_angular_drift: 0.0,
        newton_iterations: 0,
        residual_histories: Vec::new(),
        seconds: 0.0,
    };
    let result = (|| -> Result<(), RunError> {
        for step in 1..=n_steps {
            let h = dt.min(model.time.end - state.t).max(dt * 1e-12);
            let (subs, cuts) = advance(&mut stepper, &state, h)?;
            if cuts > 0 {
                summary.cutbacks += 1;
            }
            for (s, report, h) in subs {
                let m = measure_state(&stepper, &s, &mut mv)?;
                rec.row(s.t, h, &m, &report)?;
                rec.body_rows(&stepper.sys, &s, &mv)?;
                // energy balance: E_n + (frictional work so far) − E_0
                let balance = m.total() + rec.dissipation - e0;
                summary.max_energy_drift = summary
                    .max_energy_drift
                    .max(balance.abs() / e0.abs().max(f64::MIN_POSITIVE));
                summary.dissipation = rec.dissipation;
                summary.update_defect = rec.defect;
                summary.max_penetration = summary.max_penetration.max(report.max_penetration);
                summary.max_linear_drift = summary
                    .max_linear_drift
                    .max(relative_drift(&m.linear, &m0.linear, l0));
                summary.max_angular_drift =
                    summary
                        .max_angular_drift
                        .max(relative_drift(&m.angular, &m0.angular, j0));
                summary.newton_iterations += report.iterations;
                summary.residual_histories.push(report.residual_history);
                summary.last = m;
                state = s;
            }
            summary.steps = step;
            summary.final_time = state.t;
            if step % model.output.every == 0 || step == n_steps {
                rec.frame(&stepper.sys, &stepper.contacts, &state)?;
            }
            match (&bar, opts.progress) {
                (Some(b), _) => {
                    b.set_position(step as u64);
                    b.set_message(format!("{:.4}", state.t));
                }
                (None, Progress::Lines) if step % line_every == 0 || step == n_steps => println!(
                    "step {step}/{n_steps}  t = {:.6}  E = {:.12e}  newton {}",
                    state.t,
                    summary.last.total(),
                    summary.newton_iterations
                ),
                _ => {}
            }
        }
        Ok(())
    })();
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if opts.plots {
        // Plots are written even after a failure: they show what was computed.
        if let Err(e) = output::plot_history(&out.join("history.csv"), &out) {
            log::warn!("plots not written: {e}");
        }
    }
    summary.seconds = started.elapsed().as_secs_f64();
    result.map(|()| summary)
}
