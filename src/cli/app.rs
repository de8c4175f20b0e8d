//! The command line of both programs: `emcontact` (the serial driver) and
//! `emcontact-mpi` (the parallel build, `mpi/`), which differ only in their
//! [`Backend`]: the driver that runs a model and what `check` adds.
//!
//! Exit codes: 0 success; 1 the computation failed (a step could not be
//! completed, a file could not be written, or a solver missed its
//! tolerance) — every file written so far is kept; 2 bad input (the message
//! names the file, key and line; with `--strict` also a warning); 130
//! interrupted (SIGINT or SIGTERM: the run abandoned the step in progress
//! and wrote a checkpoint of the last one completed, and the plots).

use crate::cli;
use crate::driver::{preflight, Progress, RunOptions, RunSummary};
use crate::input;
use crate::model::Model;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

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
    /// Run a simulation (prints the check's warnings first).
    Run {
        /// Input file (TOML).
        input: PathBuf,
        /// Output directory (overrides `output.dir`).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Continue the interrupted run whose output folder is DIR (from its checkpoint.bin).
        #[arg(long, value_name = "DIR", conflicts_with = "out")]
        restart: Option<PathBuf>,
        /// Replace the files of an earlier run in the output folder.
        #[arg(long)]
        overwrite: bool,
        /// Treat warnings as errors (exit 2).
        #[arg(long)]
        strict: bool,
        /// Print nothing but errors.
        #[arg(long, short)]
        quiet: bool,
        /// Write every contact subproblem (the frictional-contact problem of
        /// each Newton iteration) as an FCLIB file into this folder.
        #[arg(long, value_name = "DIR")]
        dump_contact: Option<PathBuf>,
    },
    /// Check an input file: the model's size, mass, stable time step,
    /// penalties, memory and time estimates, and warnings.
    Check {
        /// Input file (TOML).
        input: PathBuf,
        /// Treat warnings as errors (exit 2).
        #[arg(long)]
        strict: bool,
    },
    /// Draw energy.png and momentum.png again from a run's history.csv.
    Plot {
        /// The run's output folder.
        dir: PathBuf,
    },
    /// Print the input-file reference (the Markdown of docs/input.md).
    Keys,
    /// Frictional-contact problems (FCLIB files) and their solvers.
    Fc {
        #[command(subcommand)]
        command: cli::fc::FcCommand,
    },
}

/// What a program does with a model: runs it with its driver, and adds its
/// own lines to `check`. The two programs share everything else.
pub struct Backend {
    /// The program's name in its help and messages.
    pub name: &'static str,
    /// Runs a model to its end (or to a stop request).
    pub run: fn(&Model, &RunOptions) -> Result<RunSummary, Failure>,
    /// Lines `check` prints after the model's figures.
    pub check_lines: fn(&Model) -> Vec<String>,
    /// Whether the program solves with PETSc: then `solver.petsc_options`
    /// is used, and the input's warning that it has no effect is dropped.
    pub petsc: bool,
}

/// A run that did not complete: its message, and whether the input (model,
/// output folder, checkpoint) is at fault (exit 2) rather than the
/// computation (exit 1).
pub struct Failure {
    pub message: String,
    pub input: bool,
}

/// The serial program, `emcontact`.
pub const SERIAL: Backend = Backend {
    name: "emcontact",
    run: run_serial,
    check_lines: |_| Vec::new(),
    petsc: false,
};

fn run_serial(model: &Model, opts: &RunOptions) -> Result<RunSummary, Failure> {
    crate::driver::run(model, opts).map_err(|e| Failure {
        message: e.to_string(),
        input: e.is_input(),
    })
}

/// The program: parses the command line and runs the subcommand with
/// `backend`; the exit code as the module's documentation gives it.
pub fn main(backend: &Backend) -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    // clap's errors, help and version returned, not exited: the parallel
    // program finalizes MPI on return (an exit before it is an abort to mpirun)
    let parsed = Cli::command()
        .name(backend.name)
        .bin_name(backend.name)
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(e.exit_code().clamp(0, 255) as u8);
        }
    };
    let code = match cli.command {
        Command::Run {
            input,
            out,
            restart,
            overwrite,
            strict,
            quiet,
            dump_contact,
        } => run(
            backend,
            &input,
            RunFlags {
                out,
                restart,
                overwrite,
                strict,
                quiet,
                dump_contact,
            },
        ),
        Command::Check { input, strict } => check(backend, &input, strict),
        Command::Plot { dir } => plot(&dir),
        Command::Keys => {
            print!("{}", input::markdown());
            0
        }
        Command::Fc { command } => cli::fc::run(command),
    };
    ExitCode::from(code)
}

fn load(backend: &Backend, path: &Path) -> Result<Model, u8> {
    if let Err(e) = crate::linalg::memory_limit_setting() {
        eprintln!("error: {e}");
        return Err(2);
    }
    let mut model = input::load(path).map_err(|e| {
        eprintln!("error: {e}");
        2
    })?;
    if backend.petsc {
        model.warnings.retain(|w| w.key != "solver.petsc_options");
    }
    Ok(model)
}

/// The preflight of `model`; prints its warnings (errors with `strict`).
fn preflight_of(model: &Model, strict: bool) -> Result<preflight::Preflight, u8> {
    let p = preflight::preflight(model).map_err(|e| {
        eprintln!("error: {e}");
        2u8
    })?;
    for n in &p.notes {
        eprintln!("note: {n}");
    }
    let label = if strict { "error" } else { "warning" };
    for w in &p.warnings {
        eprintln!("{label}: {w}");
    }
    if strict && !p.warnings.is_empty() {
        eprintln!("{} warning(s) and --strict: stopping", p.warnings.len());
        return Err(2);
    }
    Ok(p)
}

fn check(backend: &Backend, path: &Path, strict: bool) -> u8 {
    let model = match load(backend, path) {
        Ok(m) => m,
        Err(c) => return c,
    };
    match preflight_of(&model, strict) {
        Ok(p) => {
            p.info.iter().for_each(|l| println!("{l}"));
            (backend.check_lines)(&model)
                .iter()
                .for_each(|l| println!("{l}"));
            0
        }
        Err(c) => c,
    }
}

fn plot(dir: &Path) -> u8 {
    match crate::output::plot_history(&dir.join("history.csv"), dir) {
        Ok(()) => {
            println!(
                "wrote {} and {}",
                dir.join("energy.png").display(),
                dir.join("momentum.png").display()
            );
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

/// SIGINT and SIGTERM set the returned flag (the run abandons the step in
/// progress, [`crate::dynamics::watch`], and stops);
/// a second one ends the process at once with exit code 130.
fn stop_flag() -> Option<Arc<AtomicBool>> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let flag = Arc::new(AtomicBool::new(false));
    for sig in [SIGINT, SIGTERM] {
        let ok = signal_hook::flag::register_conditional_shutdown(sig, 130, Arc::clone(&flag))
            .and_then(|_| signal_hook::flag::register(sig, Arc::clone(&flag)));
        if let Err(e) = ok {
            log::warn!("cannot catch signal {sig}: {e}; Ctrl-C will stop without a checkpoint");
            return None;
        }
    }
    Some(flag)
}

/// The options of `emcontact run`.
struct RunFlags {
    out: Option<PathBuf>,
    restart: Option<PathBuf>,
    overwrite: bool,
    strict: bool,
    quiet: bool,
    dump_contact: Option<PathBuf>,
}

fn run(backend: &Backend, path: &Path, flags: RunFlags) -> u8 {
    let RunFlags {
        out,
        restart,
        overwrite,
        strict,
        quiet,
        dump_contact,
    } = flags;
    let mut model = match load(backend, path) {
        Ok(m) => m,
        Err(c) => return c,
    };
    if let Some(o) = out.or(restart.clone()) {
        if model.output.contact_problems.is_some() {
            model.output.contact_problems = Some(o.join("contact_problems"));
        }
        model.output.dir = o;
    }
    if dump_contact.is_some() {
        model.output.contact_problems = dump_contact;
    }
    if let Err(c) = preflight_of(&model, strict) {
        return c;
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
        overwrite,
        restart: restart.is_some(),
        stop: stop_flag(),
        ..RunOptions::default()
    };
    let dir = model.output.dir.clone();
    match (backend.run)(&model, &opts) {
        Ok(s) if s.interrupted => {
            eprintln!(
                "interrupted: stopped at t = {} after {} steps; checkpoint and plots written in {}",
                s.final_time,
                s.steps,
                dir.display()
            );
            eprintln!(
                "continue with: {} run {} --restart {}",
                backend.name,
                path.display(),
                dir.display()
            );
            130
        }
        Ok(s) => {
            if !quiet {
                s.report().iter().for_each(|l| println!("{l}"));
            }
            if !s.balance.failed() {
                return 0;
            }
            // the verdict line also where stdout is not read (--quiet)
            eprintln!("{}", s.balance.verdict());
            crate::driver::balance::VERDICT_EXIT
        }
        Err(e) if e.input => {
            eprintln!("error: {}", e.message);
            2
        }
        Err(e) => {
            eprintln!("error: {}", e.message);
            eprintln!(
                "the files written before the error are kept in {} (each one complete)",
                dir.display()
            );
            1
        }
    }
}
