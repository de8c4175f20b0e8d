//! `emcontact fc …`: list the solvers, solve one problem file, benchmark solvers,
//! convert a Siconos text problem (`.dat`) to FCLIB HDF5. Problem files are FCLIB
//! HDF5 or Siconos text, told apart by their content
//! ([`crate::nonsmooth::files`]).
//!
//! Exit codes: 0 the tolerance was reached; 1 a solver did not reach it (the last
//! iterate is still written, and stderr says why); 2 bad input (missing or corrupt
//! file — the message names the dataset, or the line of a text file, and what was
//! expected —, unknown solver,
//! `--tol` not finite and positive, unsupported problem).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::nonsmooth::fclib::{self, FclibProblem, FclibSolution, ProblemInfo, SparseFormat};
use crate::nonsmooth::files::{self, Format};
use crate::nonsmooth::{self, Control, Info, SolveError};

#[derive(Debug, Clone, PartialEq, clap::Subcommand)]
pub enum FcCommand {
    /// Print the registered solvers, one per line: name, then a short description.
    Solvers,
    /// Solve one problem (local or global) from r = 0.
    Solve {
        /// Problem file: FCLIB HDF5 or Siconos text (.dat).
        problem: PathBuf,
        /// Solver name (see `fc solvers`). Default: "auto".
        #[arg(long)]
        solver: Option<String>,
        /// Tolerance on the FCLIB error ‖F_nat(r)‖/‖q‖ (finite, positive).
        #[arg(long, default_value_t = 1e-8, allow_negative_numbers = true)]
        tol: f64,
        /// Iteration limit (default: the solver's own).
        #[arg(long)]
        max_iter: Option<usize>,
        /// Give up after this many seconds (exit 1, last iterate written).
        #[arg(long, allow_negative_numbers = true)]
        timeout: Option<f64>,
        /// Solve the symmetric matrix a triangle-stored M stands for (M + Mᵀ − diag M)
        /// instead of M as stored; the output file then holds that M.
        #[arg(long)]
        symmetrize: bool,
        /// Progress (iterations, error) every 2 s even when stderr is not a terminal.
        #[arg(long, short)]
        verbose: bool,
        /// Write the problem and /solution/{r, u} (and v for global problems) here.
        #[arg(long)]
        output: Option<PathBuf>,
    },
    /// Run solvers on problems; write bench.csv and profile.png (Dolan–Moré, time).
    Bench(super::fc_bench::BenchArgs),
    /// Convert a problem file (Siconos text .dat, or FCLIB) to FCLIB HDF5.
    Convert {
        /// Problem file: Siconos text (.dat) or FCLIB HDF5.
        input: PathBuf,
        /// FCLIB HDF5 file to write (replaced if it exists).
        output: PathBuf,
    },
}

/// Runs a command; returns the process exit code.
pub fn run(cmd: FcCommand) -> u8 {
    match cmd {
        FcCommand::Solvers => {
            for s in nonsmooth::registry() {
                println!("{}  {}", s.name, s.description);
            }
            0
        }
        FcCommand::Solve {
            problem,
            solver,
            tol,
            max_iter,
            timeout,
            symmetrize,
            verbose,
            output,
        } => {
            let args = SolveArgs {
                solver: solver.unwrap_or_else(|| nonsmooth::DEFAULT_SOLVER.to_string()),
                tol,
                max_iter,
                timeout,
                symmetrize,
                verbose,
            };
            solve_cmd(&problem, &args, output.as_deref())
        }
        FcCommand::Bench(args) => super::fc_bench::run(&args),
        FcCommand::Convert { input, output } => convert_cmd(&input, &output),
    }
}

/// `fc convert`: the problem as read, written as FCLIB HDF5 (W, M, H in CSC), with
/// the source file's name as the title when it has no `info/`.
fn convert_cmd(input: &Path, output: &Path) -> u8 {
    let (problem, info) = match files::read_problem(input) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let same = matches!((input.canonicalize(), output.canonicalize()), (Ok(a), Ok(b)) if a == b);
    if same {
        eprintln!(
            "error: {}: the output would overwrite the input",
            output.display()
        );
        return 2;
    }
    let info = info.unwrap_or_else(|| ProblemInfo {
        title: input
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        description: format!("converted by emcontact fc convert from {}", input.display()),
        math_info: String::new(),
    });
    if let Err(e) = fclib::write_problem(output, &problem, Some(&info), SparseFormat::Csc) {
        eprintln!("error: {e}");
        return 2;
    }
    let (kind, nc) = match &problem {
        FclibProblem::Local(p) => ("local", p.n_contacts),
        FclibProblem::Global(p) => ("global", p.n_contacts),
    };
    println!("wrote {} ({kind}, {nc} contacts)", output.display());
    0
}

struct SolveArgs {
    solver: String,
    tol: f64,
    max_iter: Option<usize>,
    timeout: Option<f64>,
    symmetrize: bool,
    verbose: bool,
}

/// `Err(message)` unless `t` is a finite positive number of seconds.
pub fn check_timeout(t: Option<f64>) -> Result<Option<Duration>, String> {
    match t {
        None => Ok(None),
        Some(s) if s.is_finite() && s > 0.0 && s < 1e9 => Ok(Some(Duration::from_secs_f64(s))),
        Some(s) => Err(format!(
            "--timeout {s}: expected a finite positive number of seconds"
        )),
    }
}

/// Progress lines `  iterations N  error E` on stderr, at most one every 2 s.
fn progress_printer() -> Arc<dyn Fn(usize, f64) + Send + Sync> {
    let last = Mutex::new(Instant::now());
    Arc::new(move |it, err| {
        if let Ok(mut t) = last.lock() {
            if t.elapsed() >= Duration::from_secs(2) {
                *t = Instant::now();
                eprintln!("  iterations {it}  error {err:.3e}");
            }
        }
    })
}

/// CPU time of the calling thread (`CLOCK_THREAD_CPUTIME_ID`). The `fc` commands
/// run faer sequentially, so the whole solve runs on this thread.
fn thread_cpu_seconds() -> Option<f64> {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Some(t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9)
}

/// Result of one solve: vectors and outcome.
pub struct Outcome {
    pub r: Vec<f64>,
    pub u: Vec<f64>,
    pub v: Option<Vec<f64>>,
    pub result: Result<Info, SolveError>,
    /// Wall-clock seconds of the solve (condensation included for global problems).
    pub seconds: f64,
    /// CPU seconds of the solve, when the system tells.
    pub cpu_seconds: Option<f64>,
}

/// Solves `problem` with `solver` from `r = 0`.
pub fn solve_problem(problem: &FclibProblem, solver: &str, control: &Control) -> Outcome {
    faer::set_global_parallelism(faer::Par::Seq);
    let cpu = thread_cpu_seconds();
    let start = Instant::now();
    let (r, u, v, result) = match problem {
        FclibProblem::Local(p) => {
            let (mut r, mut u) = (vec![0.0; p.size()], vec![0.0; p.size()]);
            let result = nonsmooth::solve(p, &mut r, &mut u, solver, control);
            (r, u, None, result)
        }
        FclibProblem::Global(p) => {
            let n = p.dim * p.n_contacts;
            let (mut r, mut u, mut v) = (vec![0.0; n], vec![0.0; n], vec![f64::NAN; p.n_dofs()]);
            let result =
                nonsmooth::global::solve_global(solver, p, &mut r, &mut u, &mut v, control);
            (r, u, Some(v), result)
        }
    };
    Outcome {
        r,
        u,
        v,
        result,
        seconds: start.elapsed().as_secs_f64(),
        cpu_seconds: cpu.and_then(|c0| thread_cpu_seconds().map(|c1| c1 - c0)),
    }
}

fn solve_cmd(path: &Path, a: &SolveArgs, output: Option<&Path>) -> u8 {
    if !nonsmooth::is_solver(&a.solver) {
        eprintln!(
            "error: unknown solver \"{}\" (see `emcontact fc solvers`)",
            a.solver
        );
        return 2;
    }
    let timeout = match check_timeout(a.timeout) {
        Ok(t) => t,
        Err(m) => {
            eprintln!("error: {m}");
            return 2;
        }
    };
    let mut control = Control {
        tol: a.tol,
        max_iter: a.max_iter,
        deadline: timeout.map(|t| Instant::now() + t),
        stall_window: None,
        progress: None,
    };
    if let Err(e) = control.validate() {
        eprintln!("error: --tol: {e}");
        return 2;
    }
    if a.verbose || std::io::stderr().is_terminal() {
        control.progress = Some(progress_printer());
    }
    let mut problem = match files::read_problem(path) {
        Ok((p, _)) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    describe(path, &mut problem, a);
    let out = solve_problem(&problem, &a.solver, &control);
    if let Err(e) = &out.result {
        if e.is_bad_input() {
            eprintln!("error: {}: {e}", path.display());
            return 2;
        }
    }
    let (converged, error, iterations, newton) = match &out.result {
        Ok(i) => (true, i.error, i.iterations, i.newton_steps),
        Err(e) => {
            let (err, it) = e.last().unwrap_or((f64::NAN, 0));
            eprintln!("did not converge: {e}");
            (false, err, it, 0)
        }
    };
    println!("solver {}", a.solver);
    println!("converged {}", if converged { "yes" } else { "no" });
    println!("error {error:.6e}");
    println!("iterations {iterations}");
    if converged {
        println!("newton_steps {newton}");
    }
    println!("seconds {:.6}", out.seconds);
    if let Some(c) = out.cpu_seconds {
        println!("cpu_seconds {c:.6}");
    }
    if let Some(dest) = output {
        let symmetrized = a.symmetrize && matches!(problem, FclibProblem::Global(_));
        if let Err(e) = write_output(path, dest, &problem, symmetrized, &out) {
            eprintln!("error: {e}");
            return 2;
        }
    }
    if converged {
        0
    } else {
        1
    }
}

/// Prints what the file holds; for global problems how `M` is stored, and applies
/// `--symmetrize`.
fn describe(path: &Path, problem: &mut FclibProblem, a: &SolveArgs) {
    match problem {
        FclibProblem::Local(p) => println!(
            "problem {}: local, dim {}, {} contacts",
            path.display(),
            p.dim,
            p.n_contacts
        ),
        FclibProblem::Global(g) => {
            println!(
                "problem {}: global, dim {}, {} contacts, {} dofs",
                path.display(),
                g.dim,
                g.n_contacts,
                g.n_dofs()
            );
            let storage = g.mass_storage();
            let what = storage.describe();
            if storage.is_triangle() {
                if a.symmetrize {
                    *g = g.symmetrized().unwrap_or_else(|| g.clone());
                    println!("M: {what}; --symmetrize: solving M + Mᵀ − diag M instead");
                } else {
                    println!(
                        "M: {what}; solved as stored (LU), as Siconos 4.5.0 reads it \
                         (--symmetrize solves M + Mᵀ − diag M)"
                    );
                }
            } else {
                println!("M: {what}");
            }
            if a.verbose {
                eprintln!(
                    "note: M is factorized by {} (Cholesky only when exactly symmetric)",
                    match nonsmooth::condense::MassStorage::of(&g.m) {
                        nonsmooth::condense::MassStorage::Symmetric => "Cholesky",
                        _ => "LU",
                    }
                );
            }
        }
    }
}

/// Writes the problem solved and `/solution`: a byte copy of the source, or, for a
/// symmetrized problem, the problem as solved (so that the file checks on its own).
fn write_output(
    src: &Path,
    dest: &Path,
    problem: &FclibProblem,
    symmetrized: bool,
    out: &Outcome,
) -> Result<(), String> {
    let same = match (src.canonicalize(), dest.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if symmetrized || files::format_of(src) != Format::FclibHdf5 {
        if same {
            return Err(format!(
                "{}: writing the problem as FCLIB HDF5 would overwrite the problem file",
                dest.display()
            ));
        }
        fclib::write_problem(dest, problem, None, SparseFormat::Csc).map_err(|e| e.to_string())?;
    } else if !same {
        // Read and write (not fs::copy) so a read-only source gives a writable copy.
        let bytes = std::fs::read(src).map_err(|e| format!("{}: {e}", src.display()))?;
        std::fs::write(dest, bytes).map_err(|e| format!("{}: {e}", dest.display()))?;
    }
    let sol = FclibSolution {
        v: out.v.clone(),
        u: Some(out.u.clone()),
        r: Some(out.r.clone()),
        l: None,
    };
    fclib::write_solution(dest, &sol).map_err(|e| e.to_string())
}
