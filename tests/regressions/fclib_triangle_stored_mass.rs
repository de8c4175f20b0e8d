//! Bug: global files whose `M` is stored as one triangle (the
//! condensation read only the lower triangle — the diagonal — of an upper-triangle
//! `M` and reported "converged, error 0" on a different problem). The files are
//! committed under `tests/data/fclib/triangular/` (made by
//! `tests/data/fclib/make_fixtures.py`); every solution is checked by
//! `tests/common/fclib_check.py`, which reads `M` as stored, as Siconos 4.5.0 does.

use crate::common::python::{fclib_check, repo};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use emcontact::nonsmooth::condense::MassStorage;
use emcontact::nonsmooth::fclib::{read_problem, FclibProblem};
use emcontact::nonsmooth::{self, Control};

/// The regression files (committed; made by `tests/data/fclib/make_fixtures.py`).
fn files() -> Vec<PathBuf> {
    [
        "upper-triplet",
        "upper-csc",
        "lower-triplet",
        "general-csc",
        "full-triplet",
    ]
    .iter()
    .map(|n| repo(&format!("tests/data/fclib/triangular/{n}.hdf5")))
    .collect()
}

fn fc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_emcontact"))
        .arg("fc")
        .args(args)
        .output()
        .unwrap()
}

/// `(exit 0 ⇔ error ≤ 1e-8, error)` from the independent checker.
fn check(problem: &Path, solution: &Path) -> (bool, f64) {
    fclib_check(problem, solution, 1e-8)
}

fn stdout_error(o: &Output) -> f64 {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("error "))
        .and_then(|s| s.trim().parse().ok())
        .unwrap()
}

/// The storage is detected and said; the default solver's reported error is the
/// independent one (M as stored), and a claim of convergence is checked.
#[test]
fn default_solver_is_right_on_triangle_stored_mass_matrices() {
    let dir = tempfile::tempdir().unwrap();
    let files = files();
    let mut converged = 0;
    for f in &files {
        let name = f.file_stem().unwrap().to_string_lossy().to_string();
        let (p, _) = read_problem(f).unwrap();
        let FclibProblem::Global(g) = p else {
            panic!("{name}: global")
        };
        let storage = g.mass_storage();
        match name.split('-').next().unwrap() {
            "upper" => assert!(
                matches!(storage, MassStorage::UpperTriangle { .. }),
                "{name}"
            ),
            "lower" => assert!(
                matches!(storage, MassStorage::LowerTriangle { .. }),
                "{name}"
            ),
            "general" => assert_eq!(storage, MassStorage::General, "{name}"),
            _ => assert_eq!(storage, MassStorage::Symmetric, "{name}"),
        }
        let out = dir.path().join(format!("sol-{name}.hdf5"));
        let o = fc(&[
            "solve",
            f.to_str().unwrap(),
            "--output",
            out.to_str().unwrap(),
        ]);
        let stdout = String::from_utf8_lossy(&o.stdout).to_string();
        if storage.is_triangle() {
            assert!(stdout.contains("triangle only"), "{name}: {stdout}");
        }
        let e = stdout_error(&o);
        let (ok, e2) = check(f, &out);
        assert!(
            (e - e2).abs() <= 1e-6 * e2 + 1e-10,
            "{name}: reported {e:e}, independent {e2:e}"
        );
        match o.status.code() {
            Some(0) => {
                assert!(ok, "{name}: claims convergence, independent error {e2:e}");
                converged += 1;
            }
            Some(1) => {
                assert!(!ok, "{name}: says no convergence at {e2:e}");
                assert!(String::from_utf8_lossy(&o.stderr).contains("did not converge"));
            }
            c => panic!("{name}: exit {c:?}: {stdout}"),
        }
    }
    // Measured: all but the general non-symmetric one converge.
    assert!(converged >= 4, "{converged} of {} converged", files.len());
}

/// `--symmetrize` solves `M + Mᵀ − diag M` and writes that problem, so the output
/// checks on its own; it is a different problem from the file's.
#[test]
fn symmetrize_solves_and_writes_the_symmetric_problem() {
    let dir = tempfile::tempdir().unwrap();
    let files = files();
    let f = &files[1];
    let out = dir.path().join("sym.hdf5");
    let o = fc(&[
        "solve",
        f.to_str().unwrap(),
        "--symmetrize",
        "--output",
        out.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let (ok, e) = check(&out, &out);
    assert!(ok, "{e:e}");
    let (p, _) = read_problem(&out).unwrap();
    let FclibProblem::Global(g) = p else { panic!() };
    assert_eq!(g.mass_storage(), MassStorage::Symmetric);
    // Same r on the file's own (triangular) problem: not a solution there.
    let (ok_raw, e_raw) = check(f, &out);
    assert!(!ok_raw && e_raw > 1e-6, "{e_raw:e}");
}

/// Library level: every reduced solver on a condensed triangle-stored problem either
/// converges with the independent measure or says it did not.
#[test]
fn condensation_uses_m_as_stored() {
    let files = files();
    let (p, _) = read_problem(&files[1]).unwrap();
    let FclibProblem::Global(g) = p else { panic!() };
    let c = g.condense().unwrap();
    assert!(!c.factor.is_cholesky(), "a triangle is not symmetric: LU");
    // M v = H r + f holds for M as stored.
    let n = g.dim * g.n_contacts;
    let r: Vec<f64> = (0..n).map(|k| (k % 5) as f64 * 0.1).collect();
    let v = c.velocity(&g, &r);
    let mut lhs = vec![0.0; g.n_dofs()];
    emcontact::nonsmooth::problem::csc_mul_add(&g.m, &v, &mut lhs);
    let mut rhs = g.f.clone();
    emcontact::nonsmooth::problem::csc_mul_add(&g.h, &r, &mut rhs);
    for (a, b) in lhs.iter().zip(&rhs) {
        assert!((a - b).abs() <= 1e-10 * (1.0 + b.abs()), "{a} vs {b}");
    }
    let (mut r, mut u) = (vec![0.0; n], vec![0.0; n]);
    let info = nonsmooth::solve(&c.reduced, &mut r, &mut u, "hybrid", &Control::default()).unwrap();
    assert!(info.error <= 1e-8);
}
