//! The `emcontact` command line.
//!
//! Exit codes: 0 success; 1 the computation failed (a step could not be
//! completed, or a solver missed its tolerance) — every file written so far is
//! kept; 2 bad input (the message names the file, key and line).

mod cli;

use clap::{Parser, Subcommand};
use emcontact::dynamics::{self, Progress, RunOptions};
use emcontact::input;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "emcontact",
    version,
    about = "Energy-momentum conserving frictional contact dynamics"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a simulation.
    Run {
        /// Input file (TOML).
        input: PathBuf,
        /// Output directory (overrides `output.dir`).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Print nothing but errors.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Check an input file and print the model's size, mass and stable time step.
    Check {
        /// Input file (TOML).
        input: PathBuf,
    },
    /// Print the input-file reference (the Markdown of docs/input.md).
    Keys,
    /// Frictional-contact problems (FCLIB files) and their solvers.
    Fc {
        #[command(subcommand)]
        command: cli::fc::FcCommand,
    },
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Run { input, out, quiet } => run(input, out, quiet),
        Command::Check { input } => check(input),
        Command::Keys => {
            print!("{}", input::markdown());
            0
        }
        Command::Fc { command } => cli::fc::run(command),
    };
    ExitCode::from(code)
}

fn load(path: &PathBuf) -> Result<emcontact::model::Model, u8> {
    input::load(path).map_err(|e| {
        eprintln!("error: {e}");
        2
    })
}

fn check(path: PathBuf) -> u8 {
    let model = match load(&path) {
        Ok(m) => m,
        Err(c) => return c,
    };
    let info = match dynamics::model_info(&model) {
        Ok(i) => i,
        Err(e) => {
            eprintln!("error: {}: mesh: {e}", path.display());
            return 2;
        }
    };
    println!(
        "{}: {}D, {} body(ies)",
        path.display(),
        model.dim,
        model.bodies.len()
    );
    for (name, n, m) in &info.bodies {
        println!("  body {name}: {n} elements, mass {m:.6e}");
    }
    let total: f64 = info.bodies.iter().map(|b| b.2).sum();
    println!(
        "nodes {}  elements {}  dofs {}  total mass {total:.6e}",
        info.nodes, info.elements, info.dofs
    );
    println!(
        "stable explicit dt ≈ {:.4e}; dt = {:.4e} is {:.1}× that",
        info.stable_dt,
        model.time.dt,
        model.time.dt / info.stable_dt
    );
    let stiffness = model
        .bodies
        .iter()
        .map(|b| b.material.p_wave_modulus())
        .fold(0.0, f64::max);
    let density = model.bodies.iter().map(|b| b.density).fold(0.0, f64::max);
    for (i, spec) in model.contacts.iter().enumerate() {
        match emcontact::contact::pair::ContactPair::new(
            spec,
            &model.mesh,
            model.dim,
            stiffness,
            density,
            model.time.dt,
        ) {
            Ok(p) => {
                let why = if spec.penalty.is_some() {
                    "given".to_string()
                } else {
                    format!(
                        "{} · max((λ+2μ)/h = {:.3e}, 2ρh/Δt² = {:.3e}), h = {:.3e}",
                        if spec.enforcement == emcontact::model::Enforcement::Penalty {
                            1000
                        } else {
                            10
                        },
                        stiffness / p.h,
                        2.0 * density * p.h / (model.time.dt * model.time.dt),
                        p.h
                    )
                };
                println!(
                    "contact[{i}]: {} slave nodes, {} master faces, μ = {}, ε_N = {:.4e} ({why}), ε_T = {:.4e}, tolerance {:.3e} (length){}",
                    p.slaves.len(),
                    p.n_faces(),
                    spec.friction,
                    p.eps_n,
                    p.eps_t,
                    p.tol_abs,
                    if spec.enforcement == emcontact::model::Enforcement::AugmentedLagrangian {
                        format!(", drift bound {:.3e} (length)", p.drift_bound)
                    } else {
                        String::new()
                    }
                );
            }
            Err(e) => {
                eprintln!("error: {}: contact[{i}]: {e}", path.display());
                return 2;
            }
        }
    }
    println!("output: {}", model.output.dir.display());
    0
}

fn run(path: PathBuf, out: Option<PathBuf>, quiet: bool) -> u8 {
    let mut model = match load(&path) {
        Ok(m) => m,
        Err(c) => return c,
    };
    if let Some(o) = out {
        model.output.dir = o;
    }
    let progress = if quiet {
        Progress::Quiet
    } else if std::io::stderr().is_terminal() {
        Progress::Bar
    } else {
        Progress::Lines
    };
    let opts = RunOptions {
        progress,
        ..RunOptions::default()
    };
    match dynamics::run(&model, &opts) {
        Ok(s) => {
            if !quiet {
                println!(
                    "done: {} steps ({} cut back), {} Newton iterations, {:.2} s; output in {}",
                    s.steps,
                    s.cutbacks,
                    s.newton_iterations,
                    s.seconds,
                    s.out_dir.display()
                );
                println!(
                    "max relative drift: energy {:.3e}, linear momentum {:.3e}, angular momentum {:.3e}",
                    s.max_energy_drift, s.max_linear_drift, s.max_angular_drift
                );
            }
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            eprintln!(
                "files written so far are kept in {}",
                model.output.dir.display()
            );
            1
        }
    }
}
