//! The `fc` subcommands: list the solvers, solve one FCLIB file, benchmark solvers on
//! a set of files (CSV and Dolan–Moré performance profile).
//!
//! Exit codes of [`run`]: 0 success (tolerance reached); 1 a solver did not reach the
//! tolerance (the last iterate is still written); 2 bad input (missing file, not an
//! FCLIB file, unknown solver, unsupported problem).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::fclib::{self, FclibProblem, FclibSolution};
use super::global::{self, Info, Params, SolveError};
use super::local;
use super::profile::{self, Run};

#[derive(Debug, Clone, PartialEq, clap::Subcommand)]
pub enum FcCommand {
    /// Print the registered solvers, one per line: name, then a short description.
    Solvers,
    /// Solve one FCLIB problem (local or global) from r = 0.
    Solve {
        /// FCLIB HDF5 problem file.
        problem: PathBuf,
        /// Solver name (see `fc solvers`). Default: "hybrid" (NSGS then Newton).
        #[arg(long)]
        solver: Option<String>,
        /// Tolerance on the FCLIB error ‖F_nat(r)‖/‖q‖.
        #[arg(long, default_value_t = 1e-8)]
        tol: f64,
        /// Iteration limit (default: the solver's own).
        #[arg(long)]
        max_iter: Option<usize>,
        /// Write the problem and /solution/{r, u} (and v for global problems) here.
        #[arg(long)]
        output: Option<PathBuf>,
    },
    /// Run solvers on problems; write bench.csv and profile.png (Dolan–Moré, time).
    Bench {
        /// FCLIB problem files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Comma-separated solver names.
        #[arg(long, value_delimiter = ',', required = true)]
        solvers: Vec<String>,
        /// Tolerance on the FCLIB error.
        #[arg(long, default_value_t = 1e-8)]
        tol: f64,
        /// Time limit per run, seconds.
        #[arg(long, default_value_t = 60.0)]
        timeout: f64,
        /// Output directory (created if needed).
        #[arg(long, default_value = ".")]
        output: PathBuf,
    },
}

/// The default solver of `fc solve`.
pub fn default_solver() -> &'static str {
    if local::solvers().is_empty() {
        "nsn-ac-ls"
    } else {
        "hybrid"
    }
}

/// Runs a command; returns the process exit code.
pub fn run(cmd: FcCommand) -> i32 {
    match cmd {
        FcCommand::Solvers => {
            for s in global::solvers() {
                println!("{}  {}", s.name, s.description);
            }
            0
        }
        FcCommand::Solve {
            problem,
            solver,
            tol,
            max_iter,
            output,
        } => {
            let solver = solver.unwrap_or_else(|| default_solver().to_string());
            solve_cmd(&problem, &solver, tol, max_iter, output.as_deref())
        }
        FcCommand::Bench {
            files,
            solvers,
            tol,
            timeout,
            output,
        } => bench_cmd(&files, &solvers, tol, timeout, &output),
    }
}

/// Result of one solve: vectors and outcome.
pub struct Outcome {
    pub r: Vec<f64>,
    pub u: Vec<f64>,
    pub v: Option<Vec<f64>>,
    pub result: Result<Info, SolveError>,
    pub seconds: f64,
}

/// Solves `problem` with `solver` from `r = 0`.
pub fn solve_problem(problem: &FclibProblem, solver: &str, params: &Params) -> Outcome {
    let start = Instant::now();
    match problem {
        FclibProblem::Local(p) => {
            let (mut r, mut u) = (vec![0.0; p.size()], vec![0.0; p.size()]);
            let result = global::solve(solver, p, &mut r, &mut u, params);
            Outcome {
                r,
                u,
                v: None,
                result,
                seconds: start.elapsed().as_secs_f64(),
            }
        }
        FclibProblem::Global(p) => {
            let n = p.dim * p.n_contacts;
            let (mut r, mut u, mut v) = (vec![0.0; n], vec![0.0; n], vec![f64::NAN; p.n_dofs()]);
            let result = global::solve_global(solver, p, &mut r, &mut u, &mut v, params);
            Outcome {
                r,
                u,
                v: Some(v),
                result,
                seconds: start.elapsed().as_secs_f64(),
            }
        }
    }
}

fn bad_input(result: &Result<Info, SolveError>) -> bool {
    matches!(
        result,
        Err(SolveError::UnknownSolver(_) | SolveError::Unsupported(_) | SolveError::Problem(_))
    )
}

fn solve_cmd(
    path: &Path,
    solver: &str,
    tol: f64,
    max_iter: Option<usize>,
    output: Option<&Path>,
) -> i32 {
    if !global::is_solver(solver) {
        eprintln!("error: unknown solver \"{solver}\" (see `fc solvers`)");
        return 2;
    }
    let problem = match fclib::read_problem(path) {
        Ok((p, _)) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let params = Params {
        tol,
        max_iter,
        ..Params::default()
    };
    let out = solve_problem(&problem, solver, &params);
    if bad_input(&out.result) {
        eprintln!(
            "error: {}: {}",
            path.display(),
            out.result
                .as_ref()
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default()
        );
        return 2;
    }
    let (converged, error, iterations) = match &out.result {
        Ok(i) => (true, i.error, i.iterations),
        Err(e) => {
            let (err, it) = e.last().unwrap_or((f64::NAN, 0));
            eprintln!("warning: {e}");
            (false, err, it)
        }
    };
    println!("solver {solver}");
    println!("converged {}", if converged { "yes" } else { "no" });
    println!("error {error:.6e}");
    println!("iterations {iterations}");
    println!("seconds {:.6}", out.seconds);
    if let Some(dest) = output {
        if let Err(e) = write_output(path, dest, &out) {
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

/// Copies the problem file to `dest` (a complete FCLIB file) and writes `/solution`.
fn write_output(src: &Path, dest: &Path, out: &Outcome) -> Result<(), String> {
    let same = match (src.canonicalize(), dest.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if !same {
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

fn bench_cmd(files: &[PathBuf], solvers: &[String], tol: f64, timeout: f64, dir: &Path) -> i32 {
    if let Some(bad) = solvers.iter().find(|s| !global::is_solver(s)) {
        eprintln!("error: unknown solver \"{bad}\" (see `fc solvers`)");
        return 2;
    }
    if !(timeout > 0.0 && timeout.is_finite()) {
        eprintln!("error: --timeout must be a positive number of seconds");
        return 2;
    }
    let mut problems = Vec::new();
    for f in files {
        match fclib::read_problem(f) {
            Ok((p, _)) => problems.push((f.clone(), p)),
            Err(e) => {
                eprintln!("error: {e}");
                return 2;
            }
        }
    }
    if let Err(e) = std::fs::create_dir_all(dir) {
        eprintln!("error: {}: {e}", dir.display());
        return 2;
    }
    let csv_path = dir.join("bench.csv");
    let mut csv = String::from("problem,solver,converged,error,iterations,seconds\n");
    let mut runs = Vec::new();
    let names: Vec<String> = problems.iter().map(|(f, _)| display_name(f)).collect();
    for ((_, p), pname) in problems.iter().zip(&names) {
        for s in solvers {
            let params = Params {
                tol,
                deadline: Some(Instant::now() + Duration::from_secs_f64(timeout)),
                ..Params::default()
            };
            let out = solve_problem(p, s, &params);
            let (converged, error, iterations) = match &out.result {
                Ok(i) => (true, i.error, i.iterations),
                Err(e) => {
                    let (err, it) = e.last().unwrap_or((f64::NAN, 0));
                    (false, err, it)
                }
            };
            println!(
                "{pname:<45} {s:<16} {:<4} error {error:.3e} iterations {iterations:>7} seconds {:.4}",
                if converged { "ok" } else { "FAIL" },
                out.seconds
            );
            csv.push_str(&format!(
                "{pname},{s},{converged},{error:e},{iterations},{:.6}\n",
                out.seconds
            ));
            runs.push(Run {
                problem: pname.clone(),
                solver: s.clone(),
                cost: converged.then_some(out.seconds),
            });
        }
    }
    let write = std::fs::File::create(&csv_path).and_then(|mut f| f.write_all(csv.as_bytes()));
    if let Err(e) = write {
        eprintln!("error: {}: {e}", csv_path.display());
        return 2;
    }
    let png = dir.join("profile.png");
    if let Err(e) = profile::plot_png(&png, &runs, &names, solvers) {
        eprintln!("error: {}: {e}", png.display());
        return 2;
    }
    println!("wrote {} and {}", csv_path.display(), png.display());
    0
}

fn display_name(f: &Path) -> String {
    f.file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| f.display().to_string())
}
