//! `emcontact fc …` through the binary: exit codes, messages, files written. Every
//! written solution is checked by `tests/common/fclib_check.py` (numpy + h5py, independent of
//! the Rust code), which reads the problem exactly as the file stores it.

use crate::common::fclib as common;

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use common::data;
use emcontact::nonsmooth::fclib::{write_local, SparseFormat};
use emcontact::nonsmooth::problem::LocalProblem;
use faer::sparse::{SparseColMat, Triplet};

fn fc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_emcontact"))
        .arg("fc")
        .args(args)
        .output()
        .expect("run emcontact")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The independent checker (`tests/common/fclib_check.py`, numpy + h5py) at
/// 1e-8: `(passes, error)`.
pub fn check(problem: &Path, solution: &Path) -> (bool, f64) {
    crate::common::python::fclib_check(problem, solution, 1e-8)
}

fn reported_error(o: &Output) -> f64 {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("error "))
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or_else(|| panic!("no error line: {}", text(o)))
}

#[test]
fn solvers_lists_the_registry() {
    let o = fc(&["solvers"]);
    assert!(o.status.success());
    let out = String::from_utf8_lossy(&o.stdout);
    let names: Vec<&str> = out
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let reg: Vec<String> = emcontact::nonsmooth::registry()
        .into_iter()
        .map(|s| s.name)
        .collect();
    assert_eq!(names, reg);
}

/// Every sample file with the default solver: exit 0 and a written solution that the
/// independent checker accepts, with the error we reported (to 1e-10); or
/// exit 1 with "did not converge" (none of the samples does that today).
#[test]
fn default_solver_on_every_sample_passes_the_independent_check() {
    let dir = tempfile::tempdir().unwrap();
    for f in common::FILES {
        let out = dir.path().join(format!("sol-{f}"));
        let o = fc(&[
            "solve",
            data(f).to_str().unwrap(),
            "--output",
            out.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{f}: {}", text(&o));
        let e = reported_error(&o);
        assert!(e <= 1e-8, "{f}: {e:e}");
        let (ok, e2) = check(&data(f), &out);
        assert!(ok, "{f}: independent error {e2:e}");
        // Same measure up to summation order (1e-10 on a tolerance of 1e-8).
        assert!((e - e2).abs() <= 1e-10, "{f}: {e:e} vs {e2:e}");
        // The output is a complete FCLIB file (problem included).
        assert!(check(&out, &out).0, "{f}: output not self-contained");
    }
}

/// Not reaching the tolerance: exit 1, a message, the last iterate written.
#[test]
fn no_convergence_exits_1_and_writes_the_last_iterate() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("last.hdf5");
    let f = data("Capsules-i125-1213.hdf5");
    let o = fc(&[
        "solve",
        f.to_str().unwrap(),
        "--solver",
        "nsgs-pg",
        "--max-iter",
        "2",
        "--output",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("did not converge"), "{}", text(&o));
    let e = reported_error(&o);
    let (ok, e2) = check(&f, &out);
    assert!(
        !ok && (e - e2).abs() <= 1e-6 * e2 + 1e-10,
        "{e:e} vs {e2:e}"
    );
}

/// `--tol 0|nan|inf|-1` and other bad arguments and files: exit 2 with a message.
#[test]
fn bad_input_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let f = data("LMGC_100_PR_PerioBox-i00361-60-03000.hdf5");
    let f = f.to_str().unwrap();
    for tol in ["0", "nan", "inf", "-1", "-inf"] {
        let arg = format!("--tol={tol}");
        let o = fc(&["solve", f, &arg]);
        assert_eq!(o.status.code(), Some(2), "--tol {tol}: {}", text(&o));
        assert!(text(&o).contains("tol"), "{}", text(&o));
    }
    for t in ["0", "nan", "-1"] {
        let arg = format!("--timeout={t}");
        let o = fc(&["solve", f, &arg]);
        assert_eq!(o.status.code(), Some(2), "--timeout {t}: {}", text(&o));
    }
    let o = fc(&["solve", f, "--solver", "no-such-solver"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("no-such-solver"));
    let o = fc(&["solve", f, "--solver", "global-nsn-ac"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let missing = dir.path().join("missing.hdf5");
    let o = fc(&["solve", missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("missing.hdf5"));
    let txt = dir.path().join("not-fclib.hdf5");
    std::fs::write(&txt, b"plain text").unwrap();
    assert_eq!(fc(&["solve", txt.to_str().unwrap()]).status.code(), Some(2));
    let o = fc(&[
        "bench",
        f,
        "--solvers",
        "nsn-ac,bogus",
        "--output",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let o = fc(&["bench", f, "--solvers", "nsn-ac", "--tol", "nan"]);
    assert_eq!(o.status.code(), Some(2));
}

/// Degenerate problems end quickly with exit 1 and a message: `W = 0` with contacts
/// pressed in (no solution: `u = q` whatever `r`), and `W` with a zero diagonal
/// block. Every solver, within its iteration cap. (Regression: `fp-ds` once reported
/// "converged, error 0" on `W = 0`: its iterate ran off to `‖r‖ ~ 1e17`, where
/// `F_nat` rounds to 0; convergence now also needs the round-off floor
/// `ε(‖r‖ + ‖u‖)/‖q‖` below the tolerance.)
#[test]
fn degenerate_problems_end_in_seconds_with_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    let nc = 20;
    let n = 3 * nc;
    let q: Vec<f64> = (0..n)
        .map(|k| if k % 3 == 0 { -1.0 } else { 0.3 })
        .collect();
    let zero = SparseColMat::<usize, f64>::try_new_from_triplets(n, n, &[]).unwrap();
    let half: Vec<Triplet<usize, usize, f64>> = (3..n).map(|k| Triplet::new(k, k, 1.0)).collect();
    let half = SparseColMat::try_new_from_triplets(n, n, &half).unwrap();
    for (name, w) in [("w-zero", zero), ("w-zero-block", half)] {
        let p = LocalProblem::new(3, w, q.clone(), vec![0.5; nc]).unwrap();
        let path = dir.path().join(format!("{name}.hdf5"));
        write_local(&path, &p, None, SparseFormat::Csc).unwrap();
        for s in emcontact::nonsmooth::registry() {
            if s.name == "global-nsn-ac" {
                continue;
            }
            let start = Instant::now();
            let o = fc(&["solve", path.to_str().unwrap(), "--solver", &s.name]);
            let secs = start.elapsed();
            assert_eq!(o.status.code(), Some(1), "{name} {}: {}", s.name, text(&o));
            assert!(text(&o).contains("did not converge"), "{}", text(&o));
            assert!(
                secs < Duration::from_secs(20),
                "{name} {}: {secs:?}",
                s.name
            );
        }
    }
}

/// `bench` writes one CSV row per (problem, solver) and a PNG performance profile.
#[test]
fn bench_writes_csv_and_profile() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (
        data("Box_Stacks-i0122-82-5.hdf5"),
        data("LMGC_100_PR_PerioBox-i00361-60-03000.hdf5"),
    );
    let o = fc(&[
        "bench",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--solvers",
        "nsn-ac-ls,nsgs-ac,global-nsn-ac",
        "--timeout",
        "5",
        "--output",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let csv = std::fs::read_to_string(dir.path().join("bench.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "problem,solver,converged,error,iterations,seconds"
    );
    assert_eq!(lines.len(), 1 + 2 * 3);
    for l in &lines[1..] {
        let cols: Vec<&str> = l.split(',').collect();
        assert_eq!(cols.len(), 6, "{l}");
        if cols[2] == "true" {
            assert!(cols[3].parse::<f64>().unwrap() <= 1e-8, "{l}");
        }
    }
    assert!(csv.contains("Box_Stacks-i0122-82-5.hdf5,global-nsn-ac,true"));
    assert!(csv.contains("LMGC_100_PR_PerioBox-i00361-60-03000.hdf5,nsgs-ac,true"));
    assert!(csv.contains("LMGC_100_PR_PerioBox-i00361-60-03000.hdf5,global-nsn-ac,false"));
    let png = std::fs::read(dir.path().join("profile.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
}
