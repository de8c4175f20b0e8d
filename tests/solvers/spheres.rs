//! The Spheres family: rigid spheres piled in a box, the frictional-contact problems
//! Siconos 4.4's mechanics assembled at chosen steps (`tests/data/spheres/`, made by
//! `make_spheres.py`). The default solver must solve each to 1e-8 by the independent
//! natural-map measure: `tests/common/fclib_check.py` (numpy + h5py) on the written
//! solution, and `check::natural_map_error` on the library's reading of the file.

use std::path::PathBuf;
use std::process::Command;

use emcontact::nonsmooth::fclib::{self, FclibProblem};
use emcontact::nonsmooth::problem::LocalProblem;

use super::check::natural_map_error;

/// The committed problems (name, contacts), from `make_spheres.py`.
const FILES: [(&str, usize); 1] = [("Spheres-256-0050", 441)];

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/spheres")
        .join(name)
}

fn local(path: &PathBuf) -> LocalProblem {
    match fclib::read_problem(path).unwrap().0 {
        FclibProblem::Local(p) => p,
        FclibProblem::Global(_) => panic!("{}: expected a local problem", path.display()),
    }
}

/// `/solution/r` of a file written by `fc solve --output`.
fn reactions(path: &PathBuf) -> Vec<f64> {
    let s = fclib::read_solution(path).unwrap();
    s.and_then(|s| s.r).expect("a solution with /solution/r")
}

#[test]
fn default_solves_every_spheres_problem_to_1e_8_by_the_independent_checks() {
    let dir = tempfile::tempdir().unwrap();
    for (name, contacts) in FILES {
        let problem = data(&format!("{name}.hdf5"));
        let p = local(&problem);
        assert_eq!((p.dim, p.n_contacts), (3, contacts), "{name}");
        let out = dir.path().join(format!("{name}-sol.hdf5"));
        let o = Command::new(env!("CARGO_BIN_EXE_emcontact"))
            .args(["fc", "solve"])
            .arg(&problem)
            .arg("--output")
            .arg(&out)
            .output()
            .unwrap();
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(o.status.code(), Some(0), "{name}: {said}");
        let (ok, e) = crate::common::python::fclib_check(&problem, &out, 1e-8);
        assert!(ok, "{name}: fclib_check.py finds {e:e}");
        let r = reactions(&out);
        let e2 = natural_map_error(&p, &r);
        assert!(e2 <= 1e-8, "{name}: natural_map_error finds {e2:e}");
    }
}
