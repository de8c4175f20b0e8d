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

use faer::sparse::SparseColMat;
use hdf5::types::{FixedAscii, VarLenAscii, VarLenUnicode};
use hdf5::H5Type;
use hdf5::{File, Group};

use super::problem::{GlobalProblem, LocalProblem, ProblemError};

mod sparse;
mod write;

pub use sparse::{SparseFormat, SparseStorage};
pub use write::{write_global, write_guesses, write_local, write_problem, write_solution};

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

/// Reads datasets with a size check before any allocation: a dataset may hold at most
/// `cap` elements (64 × the file's size plus 16 Mi, so that a corrupted dataspace cannot
/// make the reader allocate terabytes), and each caller gives the length it expects.
struct Reader<'a> {
    file: &'a Path,
    cap: usize,
}

impl<'a> Reader<'a> {
    fn new(file: &'a Path) -> Self {
        let len = std::fs::metadata(file).map(|m| m.len()).unwrap_or(0);
        let cap = len.saturating_mul(64).saturating_add(16 << 20);
        Reader {
            file,
            cap: usize::try_from(cap).unwrap_or(usize::MAX),
        }
    }
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
    /// A 1-D dataset of at most `max_len` elements.
    fn vector<T: H5Type>(
        &self,
        g: &Group,
        name: &str,
        path: &str,
        max_len: usize,
        what: &str,
    ) -> Result<Vec<T>, FclibError> {
        if !g.link_exists(name) {
            return Err(self.missing(path));
        }
        let ds = g
            .dataset(name)
            .map_err(|e| self.invalid(path, format!("not a dataset ({e})")))?;
        if ds.ndim() > 1 {
            return Err(self.invalid(path, format!("expected a vector, shape {:?}", ds.shape())));
        }
        let len = ds.size();
        let limit = max_len.min(self.cap);
        if len > limit {
            return Err(self.invalid(
                path,
                format!("{len} entries, expected at most {limit} (from the sizes read so far and the file size)"),
            ));
        }
        ds.read_raw::<T>()
            .map_err(|e| self.invalid(path, format!("not {what} ({e})")))
    }
    fn f64s(&self, g: &Group, name: &str, path: &str) -> Result<Vec<f64>, FclibError> {
        self.vector(g, name, path, usize::MAX, "real numbers")
    }
    fn opt_f64s(&self, g: &Group, name: &str, path: &str) -> Result<Option<Vec<f64>>, FclibError> {
        if g.link_exists(name) {
            self.f64s(g, name, path).map(Some)
        } else {
            Ok(None)
        }
    }
    fn ints(&self, g: &Group, name: &str, path: &str) -> Result<Vec<i64>, FclibError> {
        self.vector(g, name, path, usize::MAX, "integers")
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
    /// A sparse matrix group; `shape` gives the expected `(m, n)` (`None`: unknown)
    /// and what they follow from, checked before anything else is read.
    fn sparse(
        &self,
        g: &Group,
        name: &str,
        path: &str,
        shape: (Option<usize>, Option<usize>, &str),
    ) -> Result<SparseColMat<usize, f64>, FclibError> {
        let s = self.storage(g, name, path, shape)?;
        s.to_matrix().map_err(|msg| self.invalid(path, msg))
    }
    fn storage(
        &self,
        g: &Group,
        name: &str,
        path: &str,
        (rows, cols, why): (Option<usize>, Option<usize>, &str),
    ) -> Result<SparseStorage, FclibError> {
        let grp = self.group(g, name, path)?;
        let sub = |n: &str| format!("{path}/{n}");
        let mut dims = [0usize; 2];
        for (k, (key, expected)) in [("m", rows), ("n", cols)].into_iter().enumerate() {
            let v = self.int(&grp, key, &sub(key))?;
            let ok = usize::try_from(v).ok().filter(|&v| v <= self.cap);
            dims[k] = match (ok, expected) {
                (Some(v), Some(e)) if v == e => v,
                (Some(v), None) => v,
                (_, Some(e)) => {
                    return Err(
                        self.invalid(&sub(key), format!("{key} = {v}, expected {e} ({why})"))
                    )
                }
                (None, None) => {
                    return Err(self.invalid(
                        &sub(key),
                        format!("{key} = {v}, expected a size in 0..={}", self.cap),
                    ))
                }
            };
        }
        let nz = self.int(&grp, "nz", &sub("nz"))?;
        let ptr_len = match nz {
            -1 => dims[1] + 1,
            -2 => dims[0] + 1,
            nz if nz >= 0 => self.cap,
            nz => {
                return Err(self.invalid(
                    &sub("nz"),
                    format!("nz = {nz}, expected ≥ 0 (triplets), −1 (CSC) or −2 (CSR)"),
                ))
            }
        };
        Ok(SparseStorage {
            nzmax: if grp.link_exists("nzmax") {
                self.int(&grp, "nzmax", &sub("nzmax"))?
            } else {
                -1
            },
            m: dims[0] as i64,
            n: dims[1] as i64,
            nz,
            p: self.vector(&grp, "p", &sub("p"), ptr_len, "integers")?,
            i: self.ints(&grp, "i", &sub("i"))?,
            x: self.f64s(&grp, "x", &sub("x"))?,
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
    File::with_options()
        .with_fapl(|p| p.file_locking(false))
        .open(path)
        .map_err(|e| FclibError::Open {
            file: path.into(),
            msg: e.to_string(),
        })
}

/// Reads the problem of an FCLIB file (local or global) and its `info/` strings.
/// Vectors are read first; every matrix's `m`, `n` are checked against them before
/// its arrays are read, and no dataset is read whose size the file cannot justify.
pub fn read_problem(
    path: impl AsRef<Path>,
) -> Result<(FclibProblem, Option<ProblemInfo>), FclibError> {
    let path = path.as_ref();
    let file = open(path)?;
    let rd = Reader::new(path);
    let prob = |source| FclibError::Problem {
        file: path.into(),
        source,
    };
    let kind = if file.link_exists("fclib_local") {
        "fclib_local"
    } else if file.link_exists("fclib_global") {
        "fclib_global"
    } else {
        return Err(FclibError::NotFclib { file: path.into() });
    };
    let base = format!("/{kind}");
    let g = rd.group(&file, kind, &base)?;
    let dim = rd.int(&g, "spacedim", &format!("{base}/spacedim"))?;
    let dim = match usize::try_from(dim) {
        Ok(d @ (2 | 3)) => d,
        _ => {
            return Err(rd.invalid(
                &format!("{base}/spacedim"),
                format!("spacedim = {dim}, expected 2 or 3"),
            ))
        }
    };
    let vec = rd.group(&g, "vectors", &format!("{base}/vectors"))?;
    let mu = rd.f64s(&vec, "mu", &format!("{base}/vectors/mu"))?;
    let n = dim * mu.len();
    let contacts = format!(
        "spacedim × length of {base}/vectors/mu = {dim} × {}",
        mu.len()
    );
    let sq = (Some(n), Some(n), contacts.as_str());
    if kind == "fclib_local" {
        let q = rd.f64s(&vec, "q", "/fclib_local/vectors/q")?;
        let w = rd.sparse(&g, "W", "/fclib_local/W", sq)?;
        let mut p = LocalProblem::new(dim, w, q, mu).map_err(prob)?;
        if g.link_exists("V") {
            p.v = Some(rd.sparse(&g, "V", "/fclib_local/V", (None, None, ""))?);
        }
        if g.link_exists("R") {
            p.r_mat = Some(rd.sparse(&g, "R", "/fclib_local/R", (None, None, ""))?);
        }
        p.s = rd.opt_f64s(&vec, "s", "/fclib_local/vectors/s")?;
        Ok((FclibProblem::Local(p), rd.info(&g)))
    } else {
        let f = rd.f64s(&vec, "f", "/fclib_global/vectors/f")?;
        let w = rd.f64s(&vec, "w", "/fclib_global/vectors/w")?;
        let nd = f.len();
        let dofs = format!("length of /fclib_global/vectors/f = {nd}");
        let m = rd.sparse(&g, "M", "/fclib_global/M", (Some(nd), Some(nd), &dofs))?;
        let why = format!("rows: {dofs}; columns: {contacts}");
        let h = rd.sparse(&g, "H", "/fclib_global/H", (Some(nd), Some(n), &why))?;
        let mut p = GlobalProblem::new(dim, m, h, f, w, mu).map_err(prob)?;
        if g.link_exists("G") {
            p.g = Some(rd.sparse(&g, "G", "/fclib_global/G", (Some(nd), None, &dofs))?);
        }
        p.b = rd.opt_f64s(&vec, "b", "/fclib_global/vectors/b")?;
        Ok((FclibProblem::Global(p), rd.info(&g)))
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
    let rd = Reader::new(path);
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
    let rd = Reader::new(path);
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
