//! Writing FCLIB files: problems, `/solution`, `/guesses`.

use std::path::Path;

use hdf5::types::VarLenUnicode;
use hdf5::{File, Group};

use super::{FclibError, FclibProblem, FclibSolution, ProblemInfo, SparseFormat, SparseStorage};
use crate::nonsmooth::problem::{GlobalProblem, LocalProblem};

struct Writer<'a> {
    file: &'a Path,
}

impl Writer<'_> {
    fn err(&self, path: &str, e: impl std::fmt::Display) -> FclibError {
        FclibError::Write {
            file: self.file.into(),
            path: path.into(),
            msg: e.to_string(),
        }
    }
    fn group(&self, parent: &Group, name: &str, path: &str) -> Result<Group, FclibError> {
        parent.create_group(name).map_err(|e| self.err(path, e))
    }
    fn f64s(&self, g: &Group, name: &str, x: &[f64], path: &str) -> Result<(), FclibError> {
        g.new_dataset_builder()
            .with_data(x)
            .create(name)
            .map(|_| ())
            .map_err(|e| self.err(path, e))
    }
    fn ints(&self, g: &Group, name: &str, x: &[i64], path: &str) -> Result<(), FclibError> {
        let v: Vec<i32> = x
            .iter()
            .map(|&a| {
                i32::try_from(a).map_err(|_| self.err(path, format!("{a} does not fit 32 bits")))
            })
            .collect::<Result<_, _>>()?;
        g.new_dataset_builder()
            .with_data(&v[..])
            .create(name)
            .map(|_| ())
            .map_err(|e| self.err(path, e))
    }
    fn string(&self, g: &Group, name: &str, s: &str, path: &str) -> Result<(), FclibError> {
        let v: VarLenUnicode = s.parse().map_err(|e| self.err(path, e))?;
        let ds = g
            .new_dataset::<VarLenUnicode>()
            .create(name)
            .map_err(|e| self.err(path, e))?;
        ds.write_scalar(&v).map_err(|e| self.err(path, e))
    }
    fn sparse(
        &self,
        g: &Group,
        name: &str,
        s: &SparseStorage,
        path: &str,
    ) -> Result<(), FclibError> {
        let m = self.group(g, name, path)?;
        let sub = |n: &str| format!("{path}/{n}");
        self.ints(&m, "nzmax", &[s.nzmax], &sub("nzmax"))?;
        self.ints(&m, "m", &[s.m], &sub("m"))?;
        self.ints(&m, "n", &[s.n], &sub("n"))?;
        self.ints(&m, "nz", &[s.nz], &sub("nz"))?;
        self.ints(&m, "p", &s.p, &sub("p"))?;
        self.ints(&m, "i", &s.i, &sub("i"))?;
        self.f64s(&m, "x", &s.x, &sub("x"))
    }
    fn info(&self, g: &Group, info: Option<&ProblemInfo>, base: &str) -> Result<(), FclibError> {
        let Some(info) = info else { return Ok(()) };
        let i = self.group(g, "info", &format!("{base}/info"))?;
        self.string(&i, "title", &info.title, &format!("{base}/info/title"))?;
        self.string(
            &i,
            "description",
            &info.description,
            &format!("{base}/info/description"),
        )?;
        self.string(
            &i,
            "math_info",
            &info.math_info,
            &format!("{base}/info/math_info"),
        )
    }
    fn vectors(&self, g: &Group, s: &FclibSolution, base: &str) -> Result<(), FclibError> {
        for (name, x) in [("v", &s.v), ("u", &s.u), ("r", &s.r), ("l", &s.l)] {
            if let Some(x) = x {
                self.f64s(g, name, x, &format!("{base}/{name}"))?;
            }
        }
        Ok(())
    }
}

/// HDF5's advisory file locks are off: they refused, now and then, to reopen
/// a file this process had just written and closed ("unable to lock file,
/// errno = 11"), and we never share a file with a concurrent writer.
fn create(path: &Path) -> Result<File, FclibError> {
    File::with_options()
        .with_fapl(|p| p.file_locking(false))
        .create(path)
        .map_err(|e| FclibError::Write {
            file: path.into(),
            path: "/".into(),
            msg: e.to_string(),
        })
}

/// Creates (truncates) `path` with `/fclib_local`, matrices stored in `format`.
pub fn write_local(
    path: impl AsRef<Path>,
    p: &LocalProblem,
    info: Option<&ProblemInfo>,
    format: SparseFormat,
) -> Result<(), FclibError> {
    let path = path.as_ref();
    let file = create(path)?;
    let wr = Writer { file: path };
    let g = wr.group(&file, "fclib_local", "/fclib_local")?;
    wr.ints(&g, "spacedim", &[p.dim as i64], "/fclib_local/spacedim")?;
    wr.sparse(
        &g,
        "W",
        &SparseStorage::from_matrix(&p.w, format),
        "/fclib_local/W",
    )?;
    if let Some(v) = &p.v {
        wr.sparse(
            &g,
            "V",
            &SparseStorage::from_matrix(v, format),
            "/fclib_local/V",
        )?;
    }
    if let Some(r) = &p.r_mat {
        wr.sparse(
            &g,
            "R",
            &SparseStorage::from_matrix(r, format),
            "/fclib_local/R",
        )?;
    }
    let vec = wr.group(&g, "vectors", "/fclib_local/vectors")?;
    wr.f64s(&vec, "q", &p.q, "/fclib_local/vectors/q")?;
    wr.f64s(&vec, "mu", &p.mu, "/fclib_local/vectors/mu")?;
    if let Some(s) = &p.s {
        wr.f64s(&vec, "s", s, "/fclib_local/vectors/s")?;
    }
    wr.info(&g, info, "/fclib_local")
}

/// Creates (truncates) `path` with `/fclib_global`, matrices stored in `format`.
pub fn write_global(
    path: impl AsRef<Path>,
    p: &GlobalProblem,
    info: Option<&ProblemInfo>,
    format: SparseFormat,
) -> Result<(), FclibError> {
    let path = path.as_ref();
    let file = create(path)?;
    let wr = Writer { file: path };
    let g = wr.group(&file, "fclib_global", "/fclib_global")?;
    wr.ints(&g, "spacedim", &[p.dim as i64], "/fclib_global/spacedim")?;
    wr.sparse(
        &g,
        "M",
        &SparseStorage::from_matrix(&p.m, format),
        "/fclib_global/M",
    )?;
    wr.sparse(
        &g,
        "H",
        &SparseStorage::from_matrix(&p.h, format),
        "/fclib_global/H",
    )?;
    if let Some(gm) = &p.g {
        wr.sparse(
            &g,
            "G",
            &SparseStorage::from_matrix(gm, format),
            "/fclib_global/G",
        )?;
    }
    let vec = wr.group(&g, "vectors", "/fclib_global/vectors")?;
    wr.f64s(&vec, "f", &p.f, "/fclib_global/vectors/f")?;
    wr.f64s(&vec, "w", &p.w, "/fclib_global/vectors/w")?;
    wr.f64s(&vec, "mu", &p.mu, "/fclib_global/vectors/mu")?;
    if let Some(b) = &p.b {
        wr.f64s(&vec, "b", b, "/fclib_global/vectors/b")?;
    }
    wr.info(&g, info, "/fclib_global")
}

/// Writes a problem of either kind (see [`write_local`], [`write_global`]).
pub fn write_problem(
    path: impl AsRef<Path>,
    p: &FclibProblem,
    info: Option<&ProblemInfo>,
    format: SparseFormat,
) -> Result<(), FclibError> {
    match p {
        FclibProblem::Local(p) => write_local(path, p, info, format),
        FclibProblem::Global(p) => write_global(path, p, info, format),
    }
}

fn append(path: &Path) -> Result<File, FclibError> {
    File::with_options()
        .with_fapl(|p| p.file_locking(false))
        .append(path)
        .map_err(|e| FclibError::Write {
            file: path.into(),
            path: "/".into(),
            msg: e.to_string(),
        })
}

/// Adds (replaces) `/solution` in an existing file.
pub fn write_solution(path: impl AsRef<Path>, s: &FclibSolution) -> Result<(), FclibError> {
    let path = path.as_ref();
    let file = append(path)?;
    let wr = Writer { file: path };
    if file.link_exists("solution") {
        file.unlink("solution")
            .map_err(|e| wr.err("/solution", e))?;
    }
    let g = wr.group(&file, "solution", "/solution")?;
    wr.vectors(&g, s, "/solution")
}

/// Adds (replaces) `/guesses` in an existing file.
pub fn write_guesses(path: impl AsRef<Path>, guesses: &[FclibSolution]) -> Result<(), FclibError> {
    let path = path.as_ref();
    let file = append(path)?;
    let wr = Writer { file: path };
    if file.link_exists("guesses") {
        file.unlink("guesses").map_err(|e| wr.err("/guesses", e))?;
    }
    let g = wr.group(&file, "guesses", "/guesses")?;
    wr.ints(
        &g,
        "number_of_guesses",
        &[guesses.len() as i64],
        "/guesses/number_of_guesses",
    )?;
    for (k, s) in guesses.iter().enumerate() {
        let base = format!("/guesses/{}", k + 1);
        let gg = wr.group(&g, &(k + 1).to_string(), &base)?;
        wr.vectors(&gg, s, &base)?;
    }
    Ok(())
}
