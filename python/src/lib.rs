//! `emcontact._native`: the Rust side of the Python package. Plain functions on
//! numpy arrays and CSC triplets (`indptr`, `indices`, `data`); the Python layer
//! (`pysrc/emcontact`) builds the user-facing objects. Errors: bad input raises
//! `ValueError` (unknown solver, bad tolerance, inconsistent sizes), unreadable files
//! `OSError`, a failed model run `RuntimeError`; a solve that does not converge is not
//! an error (its result says `converged = False`).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use emcontact::nonsmooth::fclib::{self, FclibProblem, ProblemInfo, SparseFormat};
use emcontact::nonsmooth::problem::{GlobalProblem, LocalProblem};
use emcontact::nonsmooth::{self, files, Control, Info, SolveError};
use faer::sparse::SparseColMat;
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1};
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

type Csc<'py> = (
    PyReadonlyArray1<'py, i64>,
    PyReadonlyArray1<'py, i64>,
    PyReadonlyArray1<'py, f64>,
    (usize, usize),
);

/// A CSC matrix from numpy arrays; `ValueError` naming `what` when inconsistent.
fn csc(what: &str, (indptr, indices, data, (m, n)): Csc) -> PyResult<SparseColMat<usize, f64>> {
    let bad = |msg: String| PyValueError::new_err(format!("{what}: {msg}"));
    let to_usize = |v: &[i64]| -> PyResult<Vec<usize>> {
        v.iter()
            .map(|&x| usize::try_from(x).map_err(|_| bad(format!("negative index {x}"))))
            .collect()
    };
    let p = to_usize(indptr.as_slice()?)?;
    let i = to_usize(indices.as_slice()?)?;
    let x = data.as_slice()?.to_vec();
    if p.len() != n + 1 || p[0] != 0 || p[n] != i.len() || i.len() != x.len() {
        return Err(bad(format!(
            "indptr must have {} entries from 0 to len(indices) = len(data)",
            n + 1
        )));
    }
    if p.windows(2).any(|w| w[0] > w[1]) || i.iter().any(|&r| r >= m) {
        return Err(bad(format!(
            "indptr must not decrease and rows must be below {m}"
        )));
    }
    // Sort each column's rows and sum duplicates through the triplet constructor.
    let mut t = Vec::with_capacity(x.len());
    for j in 0..n {
        for k in p[j]..p[j + 1] {
            t.push(faer::sparse::Triplet::new(i[k], j, x[k]));
        }
    }
    SparseColMat::try_new_from_triplets(m, n, &t).map_err(|e| bad(format!("{e:?}")))
}

fn csc_out<'py>(py: Python<'py>, a: &SparseColMat<usize, f64>) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let cp: Vec<i64> = a.symbolic().col_ptr().iter().map(|&x| x as i64).collect();
    let ri: Vec<i64> = a.symbolic().row_idx().iter().map(|&x| x as i64).collect();
    d.set_item("indptr", cp.into_pyarray(py))?;
    d.set_item("indices", ri.into_pyarray(py))?;
    d.set_item("data", a.val().to_vec().into_pyarray(py))?;
    d.set_item("shape", (a.nrows(), a.ncols()))?;
    Ok(d)
}

/// `[(name, description)]` of every registered solver, the default first.
#[pyfunction]
fn solvers() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = nonsmooth::registry()
        .into_iter()
        .map(|s| (s.name, s.description))
        .collect();
    if let Some(k) = out.iter().position(|s| s.0 == nonsmooth::DEFAULT_SOLVER) {
        let d = out.remove(k);
        out.insert(0, d);
    }
    out
}

/// The default solver's name.
#[pyfunction]
fn default_solver() -> &'static str {
    nonsmooth::DEFAULT_SOLVER
}

/// Reads an FCLIB HDF5 or Siconos text problem file into a dict of numpy arrays.
#[pyfunction]
fn read_problem<'py>(py: Python<'py>, path: PathBuf) -> PyResult<Bound<'py, PyDict>> {
    let (p, info) = files::read_problem(&path).map_err(|e| PyOSError::new_err(e.to_string()))?;
    let d = PyDict::new(py);
    match &p {
        FclibProblem::Local(p) => {
            d.set_item("kind", "local")?;
            d.set_item("dim", p.dim)?;
            d.set_item("W", csc_out(py, &p.w)?)?;
            d.set_item("q", p.q.clone().into_pyarray(py))?;
            d.set_item("mu", p.mu.clone().into_pyarray(py))?;
        }
        FclibProblem::Global(p) => {
            d.set_item("kind", "global")?;
            d.set_item("dim", p.dim)?;
            d.set_item("M", csc_out(py, &p.m)?)?;
            d.set_item("H", csc_out(py, &p.h)?)?;
            d.set_item("f", p.f.clone().into_pyarray(py))?;
            d.set_item("w", p.w.clone().into_pyarray(py))?;
            d.set_item("mu", p.mu.clone().into_pyarray(py))?;
        }
    }
    if let Some(i) = info {
        d.set_item("title", i.title)?;
        d.set_item("description", i.description)?;
    }
    Ok(d)
}

fn local(
    dim: usize,
    w: Csc,
    q: PyReadonlyArray1<f64>,
    mu: PyReadonlyArray1<f64>,
) -> PyResult<LocalProblem> {
    let w = csc("W", w)?;
    LocalProblem::new(dim, w, q.as_slice()?.to_vec(), mu.as_slice()?.to_vec())
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

#[allow(clippy::too_many_arguments)]
fn global(
    dim: usize,
    m: Csc,
    h: Csc,
    f: PyReadonlyArray1<f64>,
    w: PyReadonlyArray1<f64>,
    mu: PyReadonlyArray1<f64>,
) -> PyResult<GlobalProblem> {
    let (m, h) = (csc("M", m)?, csc("H", h)?);
    GlobalProblem::new(
        dim,
        m,
        h,
        f.as_slice()?.to_vec(),
        w.as_slice()?.to_vec(),
        mu.as_slice()?.to_vec(),
    )
    .map_err(|e| PyValueError::new_err(e.to_string()))
}

fn write(path: PathBuf, p: FclibProblem, title: Option<String>) -> PyResult<()> {
    let info = title.map(|title| ProblemInfo {
        title,
        ..ProblemInfo::default()
    });
    fclib::write_problem(&path, &p, info.as_ref(), SparseFormat::Csc)
        .map_err(|e| PyOSError::new_err(e.to_string()))
}

/// Writes a local problem as FCLIB HDF5.
#[pyfunction]
#[pyo3(signature = (path, dim, w, q, mu, title=None))]
fn write_local(
    path: PathBuf,
    dim: usize,
    w: Csc,
    q: PyReadonlyArray1<f64>,
    mu: PyReadonlyArray1<f64>,
    title: Option<String>,
) -> PyResult<()> {
    write(path, FclibProblem::Local(local(dim, w, q, mu)?), title)
}

/// Writes a global problem as FCLIB HDF5.
#[pyfunction]
#[pyo3(signature = (path, dim, m, h, f, w, mu, title=None))]
#[allow(clippy::too_many_arguments)]
fn write_global(
    path: PathBuf,
    dim: usize,
    m: Csc,
    h: Csc,
    f: PyReadonlyArray1<f64>,
    w: PyReadonlyArray1<f64>,
    mu: PyReadonlyArray1<f64>,
    title: Option<String>,
) -> PyResult<()> {
    write(
        path,
        FclibProblem::Global(global(dim, m, h, f, w, mu)?),
        title,
    )
}

/// The stopping control from the keyword parameters.
fn control(tol: f64, max_iter: Option<usize>, timeout: Option<f64>) -> PyResult<Control> {
    let deadline = match timeout {
        None => None,
        Some(t) if t.is_finite() && t > 0.0 && t < 1e9 => {
            Some(Instant::now() + Duration::from_secs_f64(t))
        }
        Some(t) => {
            return Err(PyValueError::new_err(format!(
                "timeout {t}: expected a finite positive number of seconds"
            )))
        }
    };
    let c = Control {
        tol,
        max_iter,
        deadline,
        ..Control::default()
    };
    c.validate()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(c)
}

/// The result dict of a solve; bad input raises `ValueError`.
fn result<'py>(
    py: Python<'py>,
    solver: &str,
    res: Result<Info, SolveError>,
    r: Vec<f64>,
    u: Vec<f64>,
    v: Option<Vec<f64>>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let (converged, error, iterations, message) = match &res {
        Ok(i) => (true, i.error, i.iterations, String::new()),
        Err(e) if e.is_bad_input() => return Err(PyValueError::new_err(e.to_string())),
        Err(e) => {
            let (err, it) = e.last().unwrap_or((f64::NAN, 0));
            (false, err, it, e.to_string())
        }
    };
    d.set_item("solver", solver)?;
    d.set_item("converged", converged)?;
    d.set_item("error", error)?;
    d.set_item("iterations", iterations)?;
    d.set_item("message", message)?;
    d.set_item("reactions", PyArray1::from_vec(py, r))?;
    d.set_item("velocities", PyArray1::from_vec(py, u))?;
    if let Some(v) = v {
        d.set_item("v", PyArray1::from_vec(py, v))?;
    }
    Ok(d)
}

fn check_solver(solver: &str) -> PyResult<()> {
    if nonsmooth::is_solver(solver) {
        Ok(())
    } else {
        Err(PyValueError::new_err(format!(
            "unknown solver \"{solver}\" (see emcontact.solvers())"
        )))
    }
}

/// Solves a local problem `u = W r + q` from `r0` (zeros when `None`).
#[pyfunction]
#[pyo3(signature = (dim, w, q, mu, solver, tol, max_iter=None, timeout=None, r0=None))]
#[allow(clippy::too_many_arguments)]
fn solve_local<'py>(
    py: Python<'py>,
    dim: usize,
    w: Csc,
    q: PyReadonlyArray1<f64>,
    mu: PyReadonlyArray1<f64>,
    solver: &str,
    tol: f64,
    max_iter: Option<usize>,
    timeout: Option<f64>,
    r0: Option<PyReadonlyArray1<f64>>,
) -> PyResult<Bound<'py, PyDict>> {
    check_solver(solver)?;
    let p = local(dim, w, q, mu)?;
    let c = control(tol, max_iter, timeout)?;
    let n = p.size();
    let mut r = match r0 {
        Some(a) if a.len()? == n => a.as_slice()?.to_vec(),
        Some(a) => {
            return Err(PyValueError::new_err(format!(
                "r0 has {} entries, expected dim · contacts = {n}",
                a.len()?
            )))
        }
        None => vec![0.0; n],
    };
    let mut u = vec![0.0; n];
    let res = py.detach(|| nonsmooth::solve(&p, &mut r, &mut u, solver, &c));
    result(py, solver, res, r, u, None)
}

/// Solves a global problem `M v = H r + f`, `u = Hᵀ v + w` from zero.
#[pyfunction]
#[pyo3(signature = (dim, m, h, f, w, mu, solver, tol, max_iter=None, timeout=None))]
#[allow(clippy::too_many_arguments)]
fn solve_global<'py>(
    py: Python<'py>,
    dim: usize,
    m: Csc,
    h: Csc,
    f: PyReadonlyArray1<f64>,
    w: PyReadonlyArray1<f64>,
    mu: PyReadonlyArray1<f64>,
    solver: &str,
    tol: f64,
    max_iter: Option<usize>,
    timeout: Option<f64>,
) -> PyResult<Bound<'py, PyDict>> {
    check_solver(solver)?;
    let p = global(dim, m, h, f, w, mu)?;
    let c = control(tol, max_iter, timeout)?;
    let n = p.dim * p.n_contacts;
    let (mut r, mut u, mut v) = (vec![0.0; n], vec![0.0; n], vec![f64::NAN; p.n_dofs()]);
    let res = py.detach(|| nonsmooth::global::solve_global(solver, &p, &mut r, &mut u, &mut v, &c));
    result(py, solver, res, r, u, Some(v))
}

/// Runs the model of an input file; returns the output folder. `out` overrides the
/// folder of the input; an existing output folder is replaced.
#[pyfunction]
#[pyo3(signature = (input, out=None, vtk=true, plots=false))]
fn run_model(
    py: Python<'_>,
    input: PathBuf,
    out: Option<PathBuf>,
    vtk: bool,
    plots: bool,
) -> PyResult<PathBuf> {
    let mut model =
        emcontact::input::load(&input).map_err(|e| PyValueError::new_err(e.to_string()))?;
    if let Some(o) = out {
        if model.output.contact_problems.is_some() {
            model.output.contact_problems = Some(o.join("contact_problems"));
        }
        model.output.dir = o;
    }
    let opts = emcontact::driver::RunOptions {
        overwrite: true,
        vtk,
        plots,
        ..emcontact::driver::RunOptions::default()
    };
    let summary = py
        .detach(|| emcontact::driver::run(&model, &opts))
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    Ok(summary.out_dir)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solvers, m)?)?;
    m.add_function(wrap_pyfunction!(default_solver, m)?)?;
    m.add_function(wrap_pyfunction!(read_problem, m)?)?;
    m.add_function(wrap_pyfunction!(write_local, m)?)?;
    m.add_function(wrap_pyfunction!(write_global, m)?)?;
    m.add_function(wrap_pyfunction!(solve_local, m)?)?;
    m.add_function(wrap_pyfunction!(solve_global, m)?)?;
    m.add_function(wrap_pyfunction!(run_model, m)?)?;
    Ok(())
}
