//! FCLIB HDF5 files (Acary, Brémond, Koziara & Pérignon, FCLIB; reference
//! implementation `fclib.h`): read and write local (`/fclib_local`) and global
//! (`/fclib_global`) problems, `/solution` and `/guesses`.
//!
//! Layout: `/fclib_local/{spacedim, W/, V/, R/, vectors/{q, mu, s}, info/{title,
//! description, math_info}}`, `/fclib_global/{spacedim, M/, H/, G/, vectors/{f, w, mu,
//! b}, info/}`, `/solution/{v, u, r, l}`, `/guesses/{number_of_guesses, 1/{v, u, r, l}, …}`.
//! A sparse matrix group holds `nzmax, m, n, nz, p, i, x` (0-based, CSparse):
//! `nz ≥ 0` triplets with `i` the row and `p` the column indices (as the published
//! files really are); `nz = −1` CSC (`p`: `n+1` column pointers, `i` rows);
//! `nz = −2` CSR (`p`: `m+1` row pointers, `i` columns). Integers are written as
//! 32-bit, reals as 64-bit floats; info strings as variable-length UTF-8 scalars
//! (fixed-length ASCII strings, as in the published files, are read too).
//!
//! Every failure is a [`FclibError`] naming the file and the dataset; a bad file never
//! panics.

use std::path::{Path, PathBuf};

use faer::sparse::{SparseColMat, Triplet};
use hdf5::types::{FixedAscii, VarLenAscii, VarLenUnicode};
use hdf5::{File, Group};

use super::problem::{GlobalProblem, LocalProblem, ProblemError};

/// Why an FCLIB file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum FclibError {
    #[error("{file}: cannot open as HDF5: {msg}")]
    Open { file: PathBuf, msg: String },
    #[error("{file}: not an FCLIB problem (no /fclib_local or /fclib_global group)")]
    NotFclib { file: PathBuf },
    #[error("{file}: missing {path}")]
    Missing { file: PathBuf, path: String },
    #[error("{file}: {path}: {msg}")]
    Invalid {
        file: PathBuf,
        path: String,
        msg: String,
    },
    #[error("{file}: {source}")]
    Problem { file: PathBuf, source: ProblemError },
    #[error("{file}: writing {path}: {msg}")]
    Write {
        file: PathBuf,
        path: String,
        msg: String,
    },
}

/// Storage of a sparse matrix in a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SparseFormat {
    /// `nz = −1`.
    #[default]
    Csc,
    /// `nz = −2`.
    Csr,
    /// `nz ≥ 0`: `i` rows, `p` columns.
    Triplet,
}

/// The raw arrays of a sparse matrix group.
#[derive(Debug, Clone, PartialEq)]
pub struct SparseStorage {
    pub nzmax: i64,
    pub m: i64,
    pub n: i64,
    pub nz: i64,
    pub p: Vec<i64>,
    pub i: Vec<i64>,
    pub x: Vec<f64>,
}

impl SparseStorage {
    /// The arrays of `a` in `format` (entries in column-major order for CSC and triplets).
    pub fn from_matrix(a: &SparseColMat<usize, f64>, format: SparseFormat) -> Self {
        let (m, n) = (a.nrows() as i64, a.ncols() as i64);
        let cp = a.symbolic().col_ptr();
        let ri = a.symbolic().row_idx();
        let v = a.val();
        let nnz = v.len() as i64;
        match format {
            SparseFormat::Csc => SparseStorage {
                nzmax: nnz,
                m,
                n,
                nz: -1,
                p: cp.iter().map(|&x| x as i64).collect(),
                i: ri.iter().map(|&x| x as i64).collect(),
                x: v.to_vec(),
            },
            SparseFormat::Triplet => {
                let mut p = Vec::with_capacity(v.len());
                for j in 0..a.ncols() {
                    p.extend(std::iter::repeat(j as i64).take(cp[j + 1] - cp[j]));
                }
                SparseStorage {
                    nzmax: nnz,
                    m,
                    n,
                    nz: nnz,
                    p,
                    i: ri.iter().map(|&x| x as i64).collect(),
                    x: v.to_vec(),
                }
            }
            SparseFormat::Csr => {
                let t = a.as_ref().to_row_major().expect("allocation of a CSR copy");
                SparseStorage {
                    nzmax: nnz,
                    m,
                    n,
                    nz: -2,
                    p: t.symbolic().row_ptr().iter().map(|&x| x as i64).collect(),
                    i: t.symbolic().col_idx().iter().map(|&x| x as i64).collect(),
                    x: t.val().to_vec(),
                }
            }
        }
    }

    /// The matrix (duplicate triplets are summed). `Err` explains what is inconsistent.
    pub fn to_matrix(&self) -> Result<SparseColMat<usize, f64>, String> {
        if self.m < 0 || self.n < 0 {
            return Err(format!(
                "negative dimensions m = {}, n = {}",
                self.m, self.n
            ));
        }
        let (m, n) = (self.m as usize, self.n as usize);
        let mut trip = Vec::new();
        let idx = |v: i64, bound: usize, what: &str| -> Result<usize, String> {
            if v < 0 || v as usize >= bound {
                Err(format!("{what} index {v} out of range 0..{bound}"))
            } else {
                Ok(v as usize)
            }
        };
        match self.nz {
            nz if nz >= 0 => {
                let nz = nz as usize;
                if self.p.len() < nz || self.i.len() < nz || self.x.len() < nz {
                    return Err(format!(
                        "triplet form with nz = {nz} but p, i, x have {}, {}, {} entries",
                        self.p.len(),
                        self.i.len(),
                        self.x.len()
                    ));
                }
                for k in 0..nz {
                    trip.push(Triplet::new(
                        idx(self.i[k], m, "row")?,
                        idx(self.p[k], n, "column")?,
                        self.x[k],
                    ));
                }
            }
            -1 | -2 => {
                let csc = self.nz == -1;
                let (outer, inner) = if csc { (n, m) } else { (m, n) };
                if self.p.len() != outer + 1 {
                    return Err(format!(
                        "p has {} entries, expected {}",
                        self.p.len(),
                        outer + 1
                    ));
                }
                let nnz = self.p[outer];
                if self.p[0] != 0 || self.p.windows(2).any(|w| w[1] < w[0]) || nnz < 0 {
                    return Err("p is not a nondecreasing pointer array starting at 0".into());
                }
                let nnz = nnz as usize;
                if self.i.len() < nnz || self.x.len() < nnz {
                    return Err(format!(
                        "p ends at {nnz} but i, x have {}, {} entries",
                        self.i.len(),
                        self.x.len()
                    ));
                }
                for o in 0..outer {
                    for k in self.p[o] as usize..self.p[o + 1] as usize {
                        let in_ = idx(self.i[k], inner, if csc { "row" } else { "column" })?;
                        let (r, c) = if csc { (in_, o) } else { (o, in_) };
                        trip.push(Triplet::new(r, c, self.x[k]));
                    }
                }
            }
            nz => return Err(format!("nz = {nz} is not a known storage (≥ 0, −1 or −2)")),
        }
        if trip.iter().any(|t| !t.val.is_finite()) {
            return Err("non-finite value in x".into());
        }
        SparseColMat::try_new_from_triplets(m, n, &trip).map_err(|e| format!("{e:?}"))
    }
}

/// `info/` strings of a problem.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ProblemInfo {
    pub title: String,
    pub description: String,
    pub math_info: String,
}

/// A problem read from a file.
#[derive(Debug, Clone)]
pub enum FclibProblem {
    Local(LocalProblem),
    Global(GlobalProblem),
}

/// `/solution` or one of `/guesses`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FclibSolution {
    pub v: Option<Vec<f64>>,
    pub u: Option<Vec<f64>>,
    pub r: Option<Vec<f64>>,
    pub l: Option<Vec<f64>>,
}

struct Reader<'a> {
    file: &'a Path,
}

impl Reader<'_> {
    fn missing(&self, path: &str) -> FclibError {
        FclibError::Missing {
            file: self.file.into(),
            path: path.into(),
        }
    }
    fn invalid(&self, path: &str, msg: impl Into<String>) -> FclibError {
        FclibError::Invalid {
            file: self.file.into(),
            path: path.into(),
            msg: msg.into(),
        }
    }
    fn group(&self, parent: &Group, name: &str, path: &str) -> Result<Group, FclibError> {
        if !parent.link_exists(name) {
            return Err(self.missing(path));
        }
        parent
            .group(name)
            .map_err(|e| self.invalid(path, format!("not a group ({e})")))
    }
    fn f64s(&self, g: &Group, name: &str, path: &str) -> Result<Vec<f64>, FclibError> {
        if !g.link_exists(name) {
            return Err(self.missing(path));
        }
        let ds = g
            .dataset(name)
            .map_err(|e| self.invalid(path, format!("not a dataset ({e})")))?;
        if ds.ndim() > 1 {
            return Err(self.invalid(path, format!("expected a vector, shape {:?}", ds.shape())));
        }
        ds.read_raw::<f64>()
            .map_err(|e| self.invalid(path, format!("not real numbers ({e})")))
    }
    fn opt_f64s(&self, g: &Group, name: &str, path: &str) -> Result<Option<Vec<f64>>, FclibError> {
        if g.link_exists(name) {
            self.f64s(g, name, path).map(Some)
        } else {
            Ok(None)
        }
    }
    fn ints(&self, g: &Group, name: &str, path: &str) -> Result<Vec<i64>, FclibError> {
        if !g.link_exists(name) {
            return Err(self.missing(path));
        }
        let ds = g
            .dataset(name)
            .map_err(|e| self.invalid(path, format!("not a dataset ({e})")))?;
        if ds.ndim() > 1 {
            return Err(self.invalid(path, format!("expected a vector, shape {:?}", ds.shape())));
        }
        ds.read_raw::<i64>()
            .map_err(|e| self.invalid(path, format!("not integers ({e})")))
    }
    fn int(&self, g: &Group, name: &str, path: &str) -> Result<i64, FclibError> {
        let v = self.ints(g, name, path)?;
        v.first()
            .copied()
            .ok_or_else(|| self.invalid(path, "empty"))
    }
    fn string(&self, g: &Group, name: &str) -> Option<String> {
        let ds = g.dataset(name).ok()?;
        if let Ok(s) = ds.read_scalar::<VarLenUnicode>() {
            return Some(s.as_str().to_string());
        }
        if let Ok(s) = ds.read_scalar::<VarLenAscii>() {
            return Some(s.as_str().to_string());
        }
        ds.read_scalar::<FixedAscii<8192>>()
            .ok()
            .map(|s| s.as_str().to_string())
    }
    fn sparse(
        &self,
        g: &Group,
        name: &str,
        path: &str,
    ) -> Result<SparseColMat<usize, f64>, FclibError> {
        let s = self.storage(g, name, path)?;
        s.to_matrix().map_err(|msg| self.invalid(path, msg))
    }
    fn storage(&self, g: &Group, name: &str, path: &str) -> Result<SparseStorage, FclibError> {
        let m = self.group(g, name, path)?;
        let sub = |n: &str| format!("{path}/{n}");
        Ok(SparseStorage {
            nzmax: if m.link_exists("nzmax") {
                self.int(&m, "nzmax", &sub("nzmax"))?
            } else {
                -1
            },
            m: self.int(&m, "m", &sub("m"))?,
            n: self.int(&m, "n", &sub("n"))?,
            nz: self.int(&m, "nz", &sub("nz"))?,
            p: self.ints(&m, "p", &sub("p"))?,
            i: self.ints(&m, "i", &sub("i"))?,
            x: self.f64s(&m, "x", &sub("x"))?,
        })
    }
    fn info(&self, g: &Group) -> Option<ProblemInfo> {
        let i = g.group("info").ok()?;
        Some(ProblemInfo {
            title: self.string(&i, "title").unwrap_or_default(),
            description: self.string(&i, "description").unwrap_or_default(),
            math_info: self.string(&i, "math_info").unwrap_or_default(),
        })
    }
}

fn open(path: &Path) -> Result<File, FclibError> {
    if !path.exists() {
        return Err(FclibError::Open {
            file: path.into(),
            msg: "no such file".into(),
        });
    }
    File::open(path).map_err(|e| FclibError::Open {
        file: path.into(),
        msg: e.to_string(),
    })
}

/// Reads the problem of an FCLIB file (local or global) and its `info/` strings.
pub fn read_problem(
    path: impl AsRef<Path>,
) -> Result<(FclibProblem, Option<ProblemInfo>), FclibError> {
    let path = path.as_ref();
    let file = open(path)?;
    let rd = Reader { file: path };
    let prob = |source| FclibError::Problem {
        file: path.into(),
        source,
    };
    if file.link_exists("fclib_local") {
        let g = rd.group(&file, "fclib_local", "/fclib_local")?;
        let dim = rd.int(&g, "spacedim", "/fclib_local/spacedim")?;
        let w = rd.sparse(&g, "W", "/fclib_local/W")?;
        let vec = rd.group(&g, "vectors", "/fclib_local/vectors")?;
        let q = rd.f64s(&vec, "q", "/fclib_local/vectors/q")?;
        let mu = rd.f64s(&vec, "mu", "/fclib_local/vectors/mu")?;
        let dim = usize::try_from(dim).map_err(|_| prob(ProblemError::Dimension(0)))?;
        let mut p = LocalProblem::new(dim, w, q, mu).map_err(prob)?;
        if g.link_exists("V") {
            p.v = Some(rd.sparse(&g, "V", "/fclib_local/V")?);
        }
        if g.link_exists("R") {
            p.r_mat = Some(rd.sparse(&g, "R", "/fclib_local/R")?);
        }
        p.s = rd.opt_f64s(&vec, "s", "/fclib_local/vectors/s")?;
        Ok((FclibProblem::Local(p), rd.info(&g)))
    } else if file.link_exists("fclib_global") {
        let g = rd.group(&file, "fclib_global", "/fclib_global")?;
        let dim = rd.int(&g, "spacedim", "/fclib_global/spacedim")?;
        let m = rd.sparse(&g, "M", "/fclib_global/M")?;
        let h = rd.sparse(&g, "H", "/fclib_global/H")?;
        let vec = rd.group(&g, "vectors", "/fclib_global/vectors")?;
        let f = rd.f64s(&vec, "f", "/fclib_global/vectors/f")?;
        let w = rd.f64s(&vec, "w", "/fclib_global/vectors/w")?;
        let mu = rd.f64s(&vec, "mu", "/fclib_global/vectors/mu")?;
        let dim = usize::try_from(dim).map_err(|_| prob(ProblemError::Dimension(0)))?;
        let mut p = GlobalProblem::new(dim, m, h, f, w, mu).map_err(prob)?;
        if g.link_exists("G") {
            p.g = Some(rd.sparse(&g, "G", "/fclib_global/G")?);
        }
        p.b = rd.opt_f64s(&vec, "b", "/fclib_global/vectors/b")?;
        Ok((FclibProblem::Global(p), rd.info(&g)))
    } else {
        Err(FclibError::NotFclib { file: path.into() })
    }
}

fn read_vectors(rd: &Reader, g: &Group, base: &str) -> Result<FclibSolution, FclibError> {
    Ok(FclibSolution {
        v: rd.opt_f64s(g, "v", &format!("{base}/v"))?,
        u: rd.opt_f64s(g, "u", &format!("{base}/u"))?,
        r: rd.opt_f64s(g, "r", &format!("{base}/r"))?,
        l: rd.opt_f64s(g, "l", &format!("{base}/l"))?,
    })
}

/// `/solution`, if present.
pub fn read_solution(path: impl AsRef<Path>) -> Result<Option<FclibSolution>, FclibError> {
    let path = path.as_ref();
    let file = open(path)?;
    let rd = Reader { file: path };
    if !file.link_exists("solution") {
        return Ok(None);
    }
    let g = rd.group(&file, "solution", "/solution")?;
    read_vectors(&rd, &g, "/solution").map(Some)
}

/// `/guesses/1 … /guesses/number_of_guesses` (empty when absent).
pub fn read_guesses(path: impl AsRef<Path>) -> Result<Vec<FclibSolution>, FclibError> {
    let path = path.as_ref();
    let file = open(path)?;
    let rd = Reader { file: path };
    if !file.link_exists("guesses") {
        return Ok(Vec::new());
    }
    let g = rd.group(&file, "guesses", "/guesses")?;
    let count = rd.int(&g, "number_of_guesses", "/guesses/number_of_guesses")?;
    let mut out = Vec::new();
    for k in 1..=count.max(0) {
        let base = format!("/guesses/{k}");
        let gg = rd.group(&g, &k.to_string(), &base)?;
        out.push(read_vectors(&rd, &gg, &base)?);
    }
    Ok(out)
}

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

fn create(path: &Path) -> Result<File, FclibError> {
    File::create(path).map_err(|e| FclibError::Write {
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
    File::append(path).map_err(|e| FclibError::Write {
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
