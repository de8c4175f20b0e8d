//! The Python cross-checks: readers and checkers written independently of the
//! Rust code (numpy, h5py, VTK's own readers), run as separate processes. A
//! missing module fails the test that needs it, never skips it: `bash
//! .ci/setup` installs them into `.venv/` (active in `.ci/run`).

use std::path::{Path, PathBuf};
use std::process::Command;

/// A file of the repository.
pub fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// `python3`, ready to run a cross-check that imports `modules`; panics,
/// naming the missing module and the fix, when python3 or a module is absent.
/// The import is tried once per set of modules in the test process (an
/// import of `vtk` costs a second of CPU, and the suite runs dozens of
/// cross-checks); a missing module still fails every test that needs it.
pub fn python(modules: &[&str]) -> Command {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    /// Per import line, whether it worked (else why not).
    type Tried = HashMap<String, Result<(), String>>;
    static TRIED: OnceLock<Mutex<Tried>> = OnceLock::new();
    let import = format!("import {}", modules.join(", "));
    let tried = TRIED.get_or_init(Default::default);
    let mut tried = tried.lock().unwrap_or_else(|e| e.into_inner());
    let outcome = tried.entry(import.clone()).or_insert_with(|| {
        match Command::new("python3").args(["-c", &import]).output() {
            Ok(o) if o.status.success() => Ok(()),
            Ok(o) => Err(format!(
                "this cross-check needs python3 with {}: {} (run `bash .ci/setup`, then `. .venv/bin/activate`)",
                modules.join(", "),
                String::from_utf8_lossy(&o.stderr).trim()
            )),
            Err(e) => Err(format!("this cross-check needs python3: {e} (run `bash .ci/setup`, then `. .venv/bin/activate`)")),
        }
    });
    match outcome {
        Ok(()) => Command::new("python3"),
        Err(why) => panic!("{why}"),
    }
}

/// The independent FCLIB checker `tests/common/fclib_check.py PROBLEM
/// SOLUTION TOL` (numpy + h5py; reads the problem as the file stores it):
/// `(error ≤ tol, error)`.
pub fn fclib_check(problem: &Path, solution: &Path, tol: f64) -> (bool, f64) {
    let o = python(&["h5py", "numpy"])
        .arg(repo("tests/common/fclib_check.py"))
        .arg(problem)
        .arg(solution)
        .arg(tol.to_string())
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    let e: f64 = out
        .split("error=")
        .nth(1)
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or_else(|| {
            panic!(
                "fclib_check.py: {out}{}",
                String::from_utf8_lossy(&o.stderr)
            )
        });
    (o.status.code() == Some(0), e)
}

/// `validation/check_vtk.py PVD --points … --cells …` (VTK's own XML
/// readers): `(passes, what it printed)`.
pub fn check_vtk(pvd: &Path, points: &str, cells: &str) -> (bool, String) {
    let o = python(&["vtk"])
        .arg(repo("validation/check_vtk.py"))
        .arg(pvd)
        .args(["--points", points, "--cells", cells])
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    (o.status.success(), text)
}
