//! `emcontact fc bench`: every listed solver on every listed FCLIB file, from
//! `r = 0`, with a deadline per run; writes `bench.csv` (problem, solver, converged,
//! error, iterations, seconds, cpu_seconds: the solve's wall-clock and thread CPU time) and `profile.png` (Dolan & Moré 2002 performance
//! profile on time, failures = ∞; Acary et al. 2017 eqs. 16–17).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::nonsmooth::files;
use crate::nonsmooth::profile::{self, Run};
use crate::nonsmooth::{self, Control};

use super::fc::{check_timeout, solve_problem};

#[derive(Debug, Clone, PartialEq, clap::Args)]
pub struct BenchArgs {
    /// Problem files: FCLIB HDF5 or Siconos text (.dat).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Comma-separated solver names, or "all" for the whole registry.
    #[arg(long, value_delimiter = ',', required = true)]
    pub solvers: Vec<String>,
    /// Tolerance on the FCLIB error (finite, positive).
    #[arg(long, default_value_t = 1e-8, allow_negative_numbers = true)]
    pub tol: f64,
    /// Time limit per run, seconds.
    #[arg(long, default_value_t = 60.0, allow_negative_numbers = true)]
    pub timeout: f64,
    /// Output directory (created if needed).
    #[arg(long, default_value = ".")]
    pub output: PathBuf,
}

pub fn run(a: &BenchArgs) -> u8 {
    let solvers: Vec<String> = if a.solvers.iter().any(|s| s == "all") {
        nonsmooth::registry().into_iter().map(|s| s.name).collect()
    } else {
        a.solvers.clone()
    };
    if let Some(bad) = solvers.iter().find(|s| !nonsmooth::is_solver(s)) {
        eprintln!("error: unknown solver \"{bad}\" (see `emcontact fc solvers`)");
        return 2;
    }
    let timeout = match check_timeout(Some(a.timeout)) {
        Ok(t) => t.unwrap_or(Duration::from_secs(60)),
        Err(m) => {
            eprintln!("error: {m}");
            return 2;
        }
    };
    if let Err(e) = Control::with_tol(a.tol).validate() {
        eprintln!("error: --tol: {e}");
        return 2;
    }
    let mut problems = Vec::new();
    for f in &a.files {
        match files::read_problem(f) {
            Ok((p, _)) => problems.push((display_name(f), p)),
            Err(e) => {
                eprintln!("error: {e}");
                return 2;
            }
        }
    }
    let dir = &a.output;
    if let Err(e) = std::fs::create_dir_all(dir) {
        eprintln!("error: {}: {e}", dir.display());
        return 2;
    }
    let mut csv = String::from("problem,solver,converged,error,iterations,seconds,cpu_seconds\n");
    let mut runs = Vec::new();
    for (pname, p) in &problems {
        for s in &solvers {
            let control = Control {
                tol: a.tol,
                deadline: Some(Instant::now() + timeout),
                ..Control::default()
            };
            let out = solve_problem(p, s, &control);
            let (converged, error, iterations) = match &out.result {
                Ok(i) => (true, i.error, i.iterations),
                Err(e) => {
                    let (err, it) = e.last().unwrap_or((f64::NAN, 0));
                    (false, err, it)
                }
            };
            let cpu = out.cpu_seconds.unwrap_or(f64::NAN);
            println!(
                "{pname:<45} {s:<16} {:<4} error {error:.3e} iterations {iterations:>7} seconds {:.6} cpu {cpu:.6}",
                if converged { "ok" } else { "FAIL" },
                out.seconds
            );
            csv.push_str(&format!(
                "{pname},{s},{converged},{error:e},{iterations},{:.6},{cpu:.6}\n",
                out.seconds
            ));
            runs.push(Run {
                problem: pname.clone(),
                solver: s.clone(),
                cost: converged.then_some(out.seconds),
            });
        }
    }
    let csv_path = dir.join("bench.csv");
    let write = std::fs::File::create(&csv_path).and_then(|mut f| f.write_all(csv.as_bytes()));
    if let Err(e) = write {
        eprintln!("error: {}: {e}", csv_path.display());
        return 2;
    }
    let names: Vec<String> = problems.iter().map(|(n, _)| n.clone()).collect();
    let png = dir.join("profile.png");
    if let Err(e) = profile::plot(&png, &runs, &names, &solvers) {
        eprintln!("error: {e}");
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
